import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { BackButton } from '../../../components/BackButton';
import { Spinner } from '../../../components/Spinner';
import { virtualsApi, type SportView } from '../api';
import { clockOffset, countdown, everyText, isSport, raceTime, SPORTS } from '../logic';
import { SportIcon, useServerNow } from '../components/parts';
import css from '../Virtuals.module.css';

/** /virtual-games: the studio's race types in the whitelist's order, each with its next race. */
export default function VirtualsLobbyPage() {
  const { t, i18n } = useTranslation('virtuals');
  const { data, isLoading, isError, fulfilledTimeStamp } = virtualsApi.useVirtualRacesQuery(undefined, { pollingInterval: 5_000 });
  const offset = useMemo(() => (data && fulfilledTimeStamp ? clockOffset(data.serverTime, fulfilledTimeStamp) : 0), [data, fulfilledTimeStamp]);
  const now = useServerNow(offset);
  const sports = (data?.sports ?? []).filter((s) => isSport(s.sport)).sort((a, b) => SPORTS.indexOf(a.sport as never) - SPORTS.indexOf(b.sport as never));

  return (
    <section className={css.page} data-testid="virtuals-lobby">
      <BackButton fallback="/home" />
      <div className={css.head}>
        <h1>{t('title')}</h1>
      </div>
      <h2 className={css.sectionTitle}>{t('studio')}</h2>
      <p className={css.sub}>{t('studioText')}</p>
      {isLoading && <Spinner />}
      {isError && <p className={css.error}>{t('unavailable')}</p>}
      <div className={css.cards}>
        {sports.map((s) => (
          <SportCard key={s.sport} sport={s} now={now} locale={i18n.language} />
        ))}
      </div>
      <GoldenRaceSection />
    </section>
  );
}

/** Golden Race's games (spec §7, §9: its whitelist, in that order), each opening /virtual-games/goldenrace/{gameId}. */
function GoldenRaceSection() {
  const { t } = useTranslation('virtuals');
  const { data, isError } = virtualsApi.useGoldenRaceGamesQuery();
  const games = data?.gamesList ?? [];
  if (!isError && games.length === 0 && !data?.unavailable) return null;
  return (
    <>
      <h2 className={css.sectionTitle}>{t('goldenRace')}</h2>
      {data?.unavailable || isError ? (
        <p className={css.error} data-testid="goldenrace-unavailable">{t('providerUnavailable')}</p>
      ) : (
        <div className={css.grTiles} data-testid="goldenrace-games">
          {games.map((g) => (
            <Link key={g.gameId} to={`/virtual-games/goldenrace/${encodeURIComponent(g.gameId)}`} className={css.grTile} data-testid="goldenrace-game">
              {g.imageUrl ? <img src={g.imageUrl} alt="" loading="lazy" width={140} height={140} /> : <span className={css.grArt} aria-hidden="true" />}
              <span className={css.grName}>{g.name}</span>
            </Link>
          ))}
        </div>
      )}
    </>
  );
}

function SportCard({ sport, now, locale }: { sport: SportView; now: number; locale: string }) {
  const { t } = useTranslation('virtuals');
  const id = sport.sport as 'horses';
  const next = sport.upcoming.find((r) => r.closesAt > now) ?? sport.upcoming[0];
  const live = sport.running.some((r) => r.finishesAt > now && r.closesAt <= now);
  const last = sport.results[0];
  const winner = last?.result?.[0];
  const winnerName = winner ? last.runners.find((r) => r.number === winner)?.name : undefined;
  return (
    <Link to={`/virtual-games/studio/${sport.sport}`} className={`${css.card} ${css[id]}`} data-testid={`virtual-card-${sport.sport}`}>
      <span className={css.badge}>
        <SportIcon sport={id} />
      </span>
      <span className={css.cardBody}>
        <span className={css.cardTitle}>
          {t(`sport.${id}`)}
          {live && <span className={css.liveDot}>{t('live')}</span>}
        </span>
        <span className={css.cardLine}>
          {everyText(sport.everyMs, t)} · {t('runnersCount', { count: sport.runners })}
        </span>
        {next ? (
          <span className={css.cardNext}>
            <span className={css.cardLine}>{t('nextRace', { time: raceTime(next.closesAt, locale) })}</span>
            <bdi className={css.clock} data-testid="next-countdown">
              {next.closesAt > now ? countdown(next.closesAt - now) : t('starting')}
            </bdi>
          </span>
        ) : (
          <span className={css.cardLine}>{t('noRaces')}</span>
        )}
        {winner !== undefined && (
          <span className={css.cardLine}>
            {t('lastWinner')}: <bdi>{`${winner}. ${winnerName ?? ''}`}</bdi>
          </span>
        )}
      </span>
      <span className={css.cta}>{t('betNow')}</span>
    </Link>
  );
}
