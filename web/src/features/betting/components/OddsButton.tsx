import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import type { Market, Outcome, SbEvent } from '../api';
import { formatOdds, toThousandths } from '../odds';
import { selectSlip, slipActions } from '../slipSlice';
import css from '../Betting.module.css';

/**
 * One outcome's odds, tappable: adds it to the slip (or removes it when selected). Flashes green
 * or red for a moment when the odds move; the button keeps its outcome, only the figure changes.
 */
export function OddsButton({ event, market, outcome, label }: { event: SbEvent; market: Market; outcome: Outcome; label?: string }) {
  const { t } = useTranslation('betting');
  const dispatch = useAppDispatch();
  const selected = useAppSelector((s) =>
    selectSlip(s).selections.some((x) => x.eventId === event.id && x.market === market.key && x.outcomeId === outcome.id),
  );
  const odds = toThousandths(outcome.odds);
  const prev = useRef(odds);
  const [move, setMove] = useState<{ dir: 'up' | 'down'; n: number } | null>(null);
  useEffect(() => {
    if (odds === prev.current) return;
    setMove((m) => ({ dir: odds > prev.current ? 'up' : 'down', n: (m?.n ?? 0) + 1 }));
    prev.current = odds;
    const timer = setTimeout(() => setMove(null), 1800);
    return () => clearTimeout(timer);
  }, [odds]);

  const open = market.status === 'active' && outcome.active;
  const name = label ?? outcome.name;
  return (
    <button
      type="button"
      className={`${css.odds} ${selected ? css.oddsSelected : ''} ${move ? css[move.dir === 'up' ? 'oddsUp' : 'oddsDown'] : ''}`}
      aria-pressed={selected}
      disabled={!open}
      data-testid="odds"
      data-outcome={`${event.id}|${market.key}|${outcome.id}`}
      aria-label={`${name} ${open ? formatOdds(odds) : t('suspended')}`}
      onClick={() =>
        dispatch(
          slipActions.toggle({
            eventId: event.id,
            eventName: `${event.home} – ${event.away}`,
            market: market.key,
            marketName: market.name,
            outcomeId: outcome.id,
            outcomeName: outcome.name,
            odds,
            live: event.status === 'live',
          }),
        )
      }
    >
      <span className={css.oddsName}>{name}</span>
      <span className={css.oddsValue} key={move?.n}>
        {open ? formatOdds(odds) : <LockIcon />}
        {move && <span aria-hidden="true" className={css.arrow}>{move.dir === 'up' ? '▲' : '▼'}</span>}
      </span>
    </button>
  );
}

const LockIcon = () => (
  <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
    <path d="M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3" />
  </svg>
);
