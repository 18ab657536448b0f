import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner';
import { bettingApi, type SbEvent } from '../api';
import { EventCard } from '../components/EventCard';
import { usePollWhenDown } from '../components/LiveContext';
import css from '../Betting.module.css';

/** /betting: sport tabs, Live / Upcoming, events grouped by tournament with their main market. */
export default function BettingPage() {
  const { t } = useTranslation('betting');
  const [live, setLive] = useState(true);
  const [sport, setSport] = useState<string | undefined>(undefined);
  const poll = usePollWhenDown();
  const { data, isLoading, isFetching } = bettingApi.useLineQuery({ live, ...(sport ? { sport } : {}) }, { pollingInterval: poll });
  // The tabs come from the unfiltered reply, so they stay while one sport is shown.
  const all = bettingApi.useLineQuery({ live }, { pollingInterval: poll, skip: !sport }).data ?? data;
  const sports = (all?.sports ?? []).filter((s) => (live ? s.live : s.events - s.live) > 0);

  const groups = useMemo(() => {
    const map = new Map<string, { title: string; events: SbEvent[] }>();
    for (const e of data?.events ?? []) {
      const key = `${e.sport_id}|${e.category}|${e.tournament}`;
      let g = map.get(key);
      if (!g) {
        g = { title: `${e.category} · ${e.tournament}`, events: [] };
        map.set(key, g);
      }
      g.events.push(e);
    }
    return [...map.values()];
  }, [data]);

  return (
    <div className={css.page}>
      <header className={css.pageHead}>
        <h1>{t('title')}</h1>
        <div className={css.switch} role="tablist" aria-label={t('title')}>
          {[true, false].map((v) => (
            <button
              key={String(v)}
              type="button"
              role="tab"
              aria-selected={live === v}
              className={css.switchItem}
              data-testid={v ? 'tab-live' : 'tab-upcoming'}
              onClick={() => setLive(v)}
            >
              {v && <span className={css.liveDot} aria-hidden="true" />}
              {t(v ? 'live' : 'upcoming')}
            </button>
          ))}
        </div>
      </header>
      <nav className={css.sports} aria-label={t('sport')}>
        <button type="button" className={css.sportTab} aria-pressed={!sport} onClick={() => setSport(undefined)}>
          {t('all')}
        </button>
        {sports.map((s) => (
          <button key={s.id} type="button" className={css.sportTab} aria-pressed={sport === s.id} onClick={() => setSport(s.id)}>
            <bdi>{s.name}</bdi> <span className={css.badge}>{live ? s.live : s.events - s.live}</span>
          </button>
        ))}
      </nav>
      {isLoading && <Spinner />}
      {!isLoading && groups.length === 0 && <p className={css.empty}>{t('noEvents')}</p>}
      <div className={css.groups} aria-busy={isFetching}>
        {groups.map((g) => (
          <section key={g.title} className={css.group}>
            <h2 className={css.groupTitle}><bdi>{g.title}</bdi></h2>
            {g.events.map((e) => (
              <EventCard key={e.id} event={e} />
            ))}
          </section>
        ))}
      </div>
    </div>
  );
}
