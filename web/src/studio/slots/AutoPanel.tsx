import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { autoCounts, LOSS_LIMITS, planValid, WIN_LIMITS, type AutoPlan, type PlayRules } from './pace';
import css from './slots.module.css';

/**
 * The auto-spin settings: how many spins, a loss limit (required: no choice is made for the
 * player, and Start stays off until there is one), an optional single-win limit and "stop when
 * free spins are won". Amounts are multiples of the current bet, fixed when the run starts.
 */
export function AutoPanel({ bet, rules, onStart }: { bet: number; rules: PlayRules; onStart: (plan: AutoPlan) => void }) {
  const { t } = useTranslation('studio');
  const { money } = useStudio();
  const counts = autoCounts(rules);
  const [count, setCount] = useState(counts[Math.min(1, counts.length - 1)] ?? 0);
  const [loss, setLoss] = useState<number | null>(null);
  const [win, setWin] = useState<number | null>(null);
  const [feature, setFeature] = useState(true);
  const ids = { count: useId(), loss: useId(), lossHint: useId(), win: useId(), start: useId() };
  const plan: AutoPlan | null =
    loss === null ? null : { count, bet, lossLimit: loss * bet, winLimit: win === null ? null : win * bet, stopOnFeature: feature };
  const ready = plan !== null && planValid(plan, rules);

  return (
    <div className={css.autoPanel} data-testid="slot-auto-panel">
      <section className={css.autoSection}>
        <h3 id={ids.count} className={css.autoHead}>
          {t('slots.autoSpins')}
        </h3>
        <div className={css.chips} data-layout="counts" role="group" aria-labelledby={ids.count}>
          {counts.map((n) => (
            <button key={n} type="button" className={css.chip} aria-pressed={count === n} onClick={() => setCount(n)} data-testid={`slot-auto-count-${n}`}>
              {n}
            </button>
          ))}
        </div>
      </section>
      <section className={css.autoSection}>
        <h3 id={ids.loss} className={css.autoHead}>
          {t('slots.autoLoss')} <span className={css.required}>{t('slots.autoRequired')}</span>
        </h3>
        <p id={ids.lossHint} className={css.autoHint}>
          {t('slots.autoLossHint')}
        </p>
        <div className={css.chips} role="group" aria-labelledby={ids.loss} aria-describedby={ids.lossHint}>
          {LOSS_LIMITS.map((x) => (
            <button key={x} type="button" className={css.chip} aria-pressed={loss === x} onClick={() => setLoss(x)} data-testid={`slot-auto-loss-${x}`}>
              <bdi>{money(x * bet)}</bdi>
            </button>
          ))}
        </div>
      </section>
      <section className={css.autoSection}>
        <h3 id={ids.win} className={css.autoHead}>
          {t('slots.autoWin')}
        </h3>
        <div className={css.chips} data-layout="pairs" role="group" aria-labelledby={ids.win}>
          <button type="button" className={css.chip} aria-pressed={win === null} onClick={() => setWin(null)} data-testid="slot-auto-win-off">
            {t('slots.autoWinOff')}
          </button>
          {WIN_LIMITS.map((x) => (
            <button key={x} type="button" className={css.chip} aria-pressed={win === x} onClick={() => setWin(x)} data-testid={`slot-auto-win-${x}`}>
              <bdi>{money(x * bet)}</bdi>
            </button>
          ))}
        </div>
      </section>
      <label className={css.switchRow}>
        <span>{t('slots.autoFeature')}</span>
        <input type="checkbox" role="switch" className={css.switch} checked={feature} onChange={(e) => setFeature(e.target.checked)} data-testid="slot-auto-feature" />
      </label>
      <div className={css.autoFoot}>
        <button
          type="button"
          className={css.autoStart}
          disabled={!ready}
          aria-describedby={ready ? undefined : ids.start}
          onClick={() => plan && ready && onStart(plan)}
          data-testid="slot-auto-start"
        >
          {t('slots.autoStart', { n: count })}
        </button>
        {!ready && (
          <p id={ids.start} className={css.autoNeed} data-testid="slot-auto-need">
            {t('slots.autoNeedLoss')}
          </p>
        )}
      </div>
    </div>
  );
}
