import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { SbEvent } from '../api';
import { OddsButton } from './OddsButton';
import { clockLabel } from '../clock';
import css from '../Betting.module.css';

/** Main-market short labels (1 X 2) when the market is a three-way result. */
const shortLabel = (count: number, i: number) => (count === 3 ? ['1', 'X', '2'][i] : count === 2 ? ['1', '2'][i] : undefined);

export function StartOrClock({ event }: { event: SbEvent }) {
  const { t, i18n } = useTranslation('betting');
  if (event.status === 'live') {
    return (
      <span className={css.clock}>
        <span className={css.liveDot} aria-hidden="true" />
        <bdi>{event.clock ? clockLabel(event.clock, t) : t('live')}</bdi>
      </span>
    );
  }
  const d = new Date(event.start_time);
  const today = new Date().toDateString() === d.toDateString();
  const time = d.toLocaleTimeString(`${i18n.language}-u-nu-latn`, { hour: '2-digit', minute: '2-digit' });
  const day = today ? t('today') : d.toLocaleDateString(`${i18n.language}-u-nu-latn`, { day: '2-digit', month: '2-digit' });
  return (
    <span className={css.start}>
      <bdi>{day}</bdi> <bdi>{time}</bdi>
    </span>
  );
}

export function EventCard({ event }: { event: SbEvent }) {
  const { t } = useTranslation('betting');
  const market = event.markets[0];
  const live = event.status === 'live';
  const more = event.markets_count - (market ? 1 : 0);
  return (
    <article className={css.event} data-testid="event" data-live={live}>
      <Link to={`/betting/event/${encodeURIComponent(event.id)}`} className={css.eventHead}>
        <div className={css.teams}>
          <span className={css.team}>
            <bdi>{event.home}</bdi>
            {live && <b className={css.score}>{event.score.home}</b>}
          </span>
          <span className={css.team}>
            <bdi>{event.away}</bdi>
            {live && <b className={css.score}>{event.score.away}</b>}
          </span>
        </div>
        <div className={css.eventMeta}>
          <StartOrClock event={event} />
          {more > 0 && <bdi dir="ltr" className={css.more}>{t('markets', { count: more })}</bdi>}
        </div>
      </Link>
      {market && (
        <div className={css.oddsRow} style={{ ['--cols' as string]: market.outcomes.length }}>
          {market.outcomes.map((o, i) => (
            <OddsButton key={o.id} event={event} market={market} outcome={o} label={shortLabel(market.outcomes.length, i)} />
          ))}
        </div>
      )}
    </article>
  );
}
