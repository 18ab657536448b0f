import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { Ico } from './icons';
import css from './controls.module.css';

/** The bet levels of the session (or min…max when it lists none). */
export function useBetLevels(): number[] {
  const { session } = useStudio();
  const levels = session.betLevels?.length ? [...session.betLevels] : [session.minBet, session.maxBet];
  return levels.filter((l) => l >= session.minBet && l <= session.maxBet).sort((a, b) => a - b);
}

/** − bet + stepper over the session's bet levels. */
export function BetControl({ value, onChange, disabled, label }: { value: number; onChange: (v: number) => void; disabled?: boolean; label?: string }) {
  const { t } = useTranslation('studio');
  const { money } = useStudio();
  const levels = useBetLevels();
  const idx = Math.max(0, levels.findIndex((l) => l >= value));
  const step = (d: number) => {
    const next = levels[Math.min(levels.length - 1, Math.max(0, idx + d))];
    if (next !== undefined) onChange(next);
  };
  return (
    <div className={css.bet} data-testid="bet-control">
      <button type="button" className={css.stepBtn} onClick={() => step(-1)} disabled={disabled || idx <= 0} aria-label={t('betLess')}>
        <Ico name="minus" size={18} />
      </button>
      <div className={css.betValue}>
        <span className={css.betLabel}>{label ?? t('bet')}</span>
        <bdi data-testid="bet-value">{money(value)}</bdi>
      </div>
      <button type="button" className={css.stepBtn} onClick={() => step(1)} disabled={disabled || idx >= levels.length - 1} aria-label={t('betMore')}>
        <Ico name="plus" size={18} />
      </button>
    </div>
  );
}
