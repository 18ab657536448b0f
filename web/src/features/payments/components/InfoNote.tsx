import { useTranslation } from 'react-i18next';
import css from './Payments.module.css';

/**
 * The information pop-ups of spec §2: cashier, replenishment, goldenRace and impostor start
 * open; webmoney starts closed. A disclosure the player can fold away.
 */
export type InfoKind = 'cashier' | 'replenishment' | 'webmoney' | 'impostor';
const STARTS_OPEN: Record<InfoKind, boolean> = { cashier: true, replenishment: true, impostor: true, webmoney: false };

export function InfoNote({ kind, params }: { kind: InfoKind; params?: Record<string, string | number> }) {
  const { t } = useTranslation('payments');
  const warn = kind === 'impostor';
  return (
    <details className={`${css.note} ${warn ? css.noteWarn : ''}`} open={STARTS_OPEN[kind]} data-testid={`info-${kind}`}>
      <summary>
        <span className={css.noteIcon} aria-hidden="true">
          {warn ? '!' : 'i'}
        </span>
        {t(`info.${kind}.title`)}
      </summary>
      <p>{t(`info.${kind}.text`, params)}</p>
    </details>
  );
}
