import { useTranslation } from 'react-i18next';
import css from './ui.module.css';

/** Pages numbered from 1. `pages` may be unknown (null): then `hasNext` decides. */
export function Paginator({
  page,
  pages,
  hasNext,
  onChange,
}: {
  page: number;
  pages: number | null;
  hasNext?: boolean;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const canNext = pages !== null ? page < pages : Boolean(hasNext);
  if (page <= 1 && !canNext) return null;
  return (
    <nav className={css.paginator} aria-label={t('pagination')}>
      <button type="button" className={css.pageBtn} disabled={page <= 1} onClick={() => onChange(page - 1)} aria-label={t('previousPage')}>
        <span className={css.flip} aria-hidden="true">‹</span>
      </button>
      <span className={css.pageCurrent} aria-current="page">
        {pages !== null ? t('pageOf', { page, pages }) : t('page', { page })}
      </span>
      <button type="button" className={css.pageBtn} disabled={!canNext} onClick={() => onChange(page + 1)} aria-label={t('nextPage')}>
        <span className={css.flip} aria-hidden="true">›</span>
      </button>
    </nav>
  );
}
