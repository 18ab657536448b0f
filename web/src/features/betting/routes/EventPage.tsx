import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner';
import { bettingApi } from '../api';
import { StartOrClock } from '../components/EventCard';
import { usePollWhenDown } from '../components/LiveContext';
import { OddsButton } from '../components/OddsButton';
import css from '../Betting.module.css';

/** /betting/event/:id: the event with every market. */
export default function EventPage() {
  const { t } = useTranslation('betting');
  const { id = '' } = useParams();
  const { data: event, isLoading, isError } = bettingApi.useEventQuery(id, { pollingInterval: usePollWhenDown() });
  return (
    <div className={css.page}>
      <Link to="/betting" className={css.backLink}>
        <span className={css.backArrow} aria-hidden="true">‹</span> {t('back')}
      </Link>
      {isLoading && <Spinner />}
      {isError && <p className={css.empty}>{t('notFound')}</p>}
      {event && (
        <>
          <section className={css.scoreboard} data-testid="event-head">
            <small className={css.muted}><bdi>{event.sport} · {event.category} · {event.tournament}</bdi></small>
            <div className={css.board}>
              <bdi className={css.boardTeam}>{event.home}</bdi>
              <span className={css.boardScore}>
                {event.status === 'live' ? (
                  // Three boxes in the page's direction: the home score sits beside the home team in Arabic too.
                  <span className={css.boardDigits}>
                    <span>{event.score.home}</span>
                    <span aria-hidden="true">:</span>
                    <span>{event.score.away}</span>
                  </span>
                ) : (
                  '–'
                )}
              </span>
              <bdi className={css.boardTeam}>{event.away}</bdi>
            </div>
            <StartOrClock event={event} />
          </section>
          <h2 className={css.groupTitle}>{t('allMarkets')}</h2>
          {event.markets.map((m) => (
            <section key={m.key} className={css.market} data-testid="market">
              <h3 className={css.marketName}>
                <bdi>{m.name}</bdi>
                {m.status !== 'active' && <span className={css.suspended}>{t('suspended')}</span>}
              </h3>
              <div className={css.oddsGrid} style={{ ['--cols' as string]: m.outcomes.length === 3 ? 3 : 2 }}>
                {m.outcomes.map((o) => (
                  <OddsButton key={o.id} event={event} market={m} outcome={o} />
                ))}
              </div>
            </section>
          ))}
        </>
      )}
    </div>
  );
}
