import { useTranslation } from 'react-i18next';
import { beforeAfter } from './logic';
import css from './pages/pages.module.css';

const pretty = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value, null, 2));

/**
 * What an audit row recorded, folded: before and after side by side when it has them (the rest
 * of its details under them), else the details as they are.
 */
export function AuditDetails({ details }: { details: unknown }) {
  const { t } = useTranslation('console');
  const change = beforeAfter(details);
  const rest =
    change && typeof details === 'object' && details !== null
      ? Object.fromEntries(Object.entries(details as Record<string, unknown>).filter(([k]) => k !== 'before' && k !== 'after'))
      : null;
  const empty = typeof details === 'object' && details !== null && Object.keys(details).length === 0;
  if (empty) return <span className={css.muted}>—</span>;
  return (
    <details className={css.details}>
      <summary data-testid="audit-details-toggle">{change ? t('audit.beforeAfter') : t('audit.details')}</summary>
      {change ? (
        <div className={css.diff}>
          <div>
            <span className={css.diffLabel}>{t('audit.before')}</span>
            <pre dir="ltr" className={css.json}>
              {pretty(change.before)}
            </pre>
          </div>
          <div>
            <span className={css.diffLabel}>{t('audit.after')}</span>
            <pre dir="ltr" className={css.json}>
              {pretty(change.after)}
            </pre>
          </div>
        </div>
      ) : null}
      {!change ? (
        <pre dir="ltr" className={css.json}>
          {pretty(details)}
        </pre>
      ) : rest && Object.keys(rest).length > 0 ? (
        <pre dir="ltr" className={css.json}>
          {pretty(rest)}
        </pre>
      ) : null}
    </details>
  );
}
