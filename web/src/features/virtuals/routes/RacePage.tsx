import { useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { openAuthModal } from '../../../app/authSlice';
import { errorText, isApiError } from '../../../app/errors';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { Money } from '../../../components/Money';
import { Spinner } from '../../../components/Spinner';
import { virtualsApi, type Lobby, type Race, type VirtualBet } from '../api';
import {
  clockOffset,
  complete,
  countdown,
  everyText,
  formatPrice,
  formPercent,
  isSport,
  newKey,
  parseStake,
  pickPrice,
  potentialWin,
  priceHundredths,
  raceTime,
  stageOf,
  stakePresets,
  stakeText,
  toggle,
  type BetKind,
  type Pick,
  type SportId,
} from '../logic';
import { Podium, Silk, SportIcon, useServerNow } from '../components/parts';
import { RaceTrack } from '../components/RaceTrack';
import css from '../Virtuals.module.css';

/** /virtual-games/studio/:sport — the race page of one studio race type. */
export default function RacePage() {
  const { sport } = useParams();
  if (!isSport(sport)) return <Navigate to="/virtual-games" replace />;
  return <RaceScreen key={sport} sport={sport} />;
}

const names = (race: Race | undefined) => new Map((race?.runners ?? []).map((r) => [r.number, r.name]));

function RaceScreen({ sport }: { sport: SportId }) {
  const { t, i18n } = useTranslation(['virtuals', 'errors']);
  const q = virtualsApi.useVirtualRacesQuery(sport, { pollingInterval: 2_000 });
  const lobby: Lobby | undefined = q.data;
  const view = lobby?.sports.find((s) => s.sport === sport);
  const offset = useMemo(() => (lobby && q.fulfilledTimeStamp ? clockOffset(lobby.serverTime, q.fulfilledTimeStamp) : 0), [lobby, q.fulfilledTimeStamp]);
  const [clockNow, setClockNow] = useState(0);
  // The race being shown: one that has closed and is not over yet on our clock.
  const shown = view?.running.find((r) => r.closesAt <= clockNow && clockNow < r.finishesAt) ?? null;
  const now = useServerNow(offset, !!shown);
  useEffect(() => setClockNow(now), [now]);

  const open = (view?.upcoming ?? []).filter((r) => r.closesAt > now);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = open.find((r) => r.id === selectedId) ?? open[0];
  const [kind, setKind] = useState<BetKind>('win');
  const [pick, setPick] = useState<Pick | null>(null);
  // A pick on a race that has closed is dropped.
  const activePick = pick && open.some((r) => r.id === pick.raceId) ? pick : null;
  // The last race over on our clock (shown, maybe not settled yet), else the last settled one.
  const lastResult = [...(view?.running ?? []).filter((r) => r.finishesAt <= now && r.result), ...(view?.results ?? [])].sort((a, b) => b.closesAt - a.closesAt)[0];
  const slipRef = useRef<HTMLDivElement>(null);

  if (q.isLoading) return <Spinner />;
  if (!view) {
    return (
      <section className={css.page}>
        <BackButton fallback="/virtual-games" />
        <p className={css.error}>{t('unavailable')}</p>
      </section>
    );
  }

  const next = open[0];
  const trackRace = shown ?? (next ? undefined : lastResult);
  const stage = shown ? stageOf(shown, now) : null;
  const progress = stage?.kind === 'running' ? stage.progress : 1;
  const runnersOf = (r: Race | undefined) => (r?.runners ?? []).map((x) => x.number);
  const finishedRecently = !shown && lastResult?.result ? lastResult : null;

  return (
    <section className={css.page} data-testid="virtual-race-page">
      <BackButton fallback="/virtual-games" />
      <div className={css.head}>
        <span className={css.badge}>
          <SportIcon sport={sport} />
        </span>
        <div>
          <h1>{t(`sport.${sport}`)}</h1>
          <p className={css.sub}>
            {everyText(view.everyMs, t)} · {t('placeTerms', { count: view.places })}
          </p>
        </div>
      </div>

      {/* The track: the race being run, else the next race's runners at the gate. */}
      <div className={css.panel}>
        <div className={css.panelHead}>
          <h2 className={css.sectionTitle}>
            {shown ? (
              <>
                <span className={css.liveDot} data-testid="race-live">{t('live')}</span> {t('race', { time: raceTime(shown.closesAt, i18n.language) })}
              </>
            ) : next ? (
              t('race', { time: raceTime(next.closesAt, i18n.language) })
            ) : (
              t('results')
            )}
          </h2>
        </div>
        {shown ? (
          <>
            <RaceTrack sport={sport} runners={runnersOf(shown)} order={shown.result ?? null} progress={progress} seed={shown.id % 4294967296} label={t('track.label')} />
            <div className={css.progress} aria-hidden="true">
              <span style={{ inlineSize: `${Math.round(progress * 100)}%` }} />
            </div>
            {progress >= 1 && shown.result && <Podium sport={sport} order={shown.result} names={names(shown)} />}
          </>
        ) : next ? (
          <>
            <RaceTrack sport={sport} runners={runnersOf(next)} order={null} progress={0} seed={next.id % 4294967296} startsIn={next.closesAt - now} label={t('track.label')} />
            {finishedRecently?.result && (
              <div className={css.fairItem}>
                <span>{t('lastRace', { time: raceTime(finishedRecently.closesAt, i18n.language) })}</span>
                <Podium sport={sport} order={finishedRecently.result} names={names(finishedRecently)} />
              </div>
            )}
          </>
        ) : trackRace?.result ? (
          <Podium sport={sport} order={trackRace.result} names={names(trackRace)} />
        ) : (
          <p className={css.muted}>{t('noRaces')}</p>
        )}
      </div>

      {/* The races open for betting. */}
      {open.length > 0 && (
        <div className={css.chips} role="group" aria-label={t('races')}>
          {open.map((r) => (
            <button key={r.id} type="button" className={css.chip} aria-pressed={r.id === selected?.id} onClick={() => setSelectedId(r.id)} data-testid="race-chip">
              <bdi className={css.chipTime}>{raceTime(r.closesAt, i18n.language)}</bdi>
              <small>
                <bdi>{countdown(r.closesAt - now)}</bdi>
              </small>
            </button>
          ))}
        </div>
      )}

      {selected && (
        <RunnersCard
          sport={sport}
          race={selected}
          kind={kind}
          onKind={(k) => {
            setKind(k);
            setPick(null);
          }}
          pick={activePick}
          onTap={(k, n) => setPick((p) => toggle(p, selected.id, k, n))}
          closesIn={selected.closesAt - now}
        />
      )}

      {activePick && complete(activePick) && (
        <button type="button" className={css.pickBar} onClick={() => slipRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' })} data-testid="pick-bar">
          <span>
            <strong>{t(`kinds.${activePick.kind}`)}</strong> · <bdi>{activePick.runners.join(' → ')}</bdi>
          </span>
          <span className={css.pickPrice}>
            {t('slip.title')} <span aria-hidden="true">↓</span>
          </span>
        </button>
      )}

      {selected && (
        <div ref={slipRef}>
          <Slip race={open.find((r) => r.id === activePick?.raceId) ?? selected} pick={activePick} limits={lobby?.limits ?? null} onDone={() => setPick(null)} />
        </div>
      )}

      <MyBets sport={sport} />

      <div className={css.panel}>
        <h2 className={css.sectionTitle}>{t('results')}</h2>
        {view.results.length === 0 ? (
          <p className={css.muted}>{t('noResults')}</p>
        ) : (
          <ul className={css.list} data-testid="virtual-results">
            {view.results.map((r) => (
              <li key={r.id} className={css.resultRow}>
                <strong>
                  <bdi>{raceTime(r.closesAt, i18n.language)}</bdi>
                </strong>
                {r.result && <Podium sport={sport} order={r.result} names={names(r)} compact />}
              </li>
            ))}
          </ul>
        )}
      </div>

      <Fairness race={selected} last={shown ?? lastResult} overround={selected?.overround ?? lastResult?.overround ?? 115} />
    </section>
  );
}

function RunnersCard({
  sport,
  race,
  kind,
  onKind,
  pick,
  onTap,
  closesIn,
}: {
  sport: SportId;
  race: Race;
  kind: BetKind;
  onKind: (k: BetKind) => void;
  pick: Pick | null;
  onTap: (k: BetKind, runner: number) => void;
  closesIn: number;
}) {
  const { t, i18n } = useTranslation('virtuals');
  const picked = (k: BetKind, n: number) => !!pick && pick.raceId === race.id && pick.kind === k && pick.runners.includes(n);
  return (
    <div className={css.panel} data-testid="runners-card">
      <div className={css.panelHead}>
        <h2 className={css.sectionTitle}>{t('race', { time: raceTime(race.closesAt, i18n.language) })}</h2>
        <span className={css.muted}>
          {t('closesIn')} <bdi className={css.clock}>{countdown(closesIn)}</bdi>
        </span>
      </div>
      <div className={css.kinds} role="group" aria-label={t('betType')}>
        {(['win', 'forecast'] as const).map((k) => (
          <button key={k} type="button" className={css.kind} aria-pressed={k === 'forecast' ? kind === 'forecast' : kind !== 'forecast'} onClick={() => onKind(k)}>
            {k === 'win' ? t('kinds.winPlace') : t('kinds.forecast')}
          </button>
        ))}
      </div>
      {kind === 'forecast' && <p className={css.hint}>{t('forecastHint')}</p>}
      <ul className={css.runners}>
        {race.runners.map((r) => (
          <li key={r.number} className={css.runner} data-testid="runner">
            <Silk sport={sport} number={r.number} />
            <span className={css.runnerName}>
              <strong>{r.name}</strong>
              <span className={css.form}>
                {t('strength')} <bdi>{r.strength}</bdi>
                <span className={css.formBar} aria-hidden="true">
                  <span style={{ inlineSize: `${formPercent(r.strength)}%` }} />
                </span>
              </span>
            </span>
            <span className={css.prices}>
              {kind === 'forecast' ? (
                <button type="button" className={css.price} aria-pressed={picked('forecast', r.number)} onClick={() => onTap('forecast', r.number)} data-testid="forecast-pick">
                  <small>{pick?.kind === 'forecast' && pick.raceId === race.id && pick.runners[0] === r.number ? t('first') : pick?.kind === 'forecast' && pick.raceId === race.id && pick.runners[1] === r.number ? t('second') : t('pick')}</small>
                  <b>{r.number}</b>
                </button>
              ) : (
                (['win', 'place'] as const).map((k) => {
                  const p = priceHundredths(k === 'win' ? r.win : r.place);
                  return (
                    <button key={k} type="button" className={css.price} aria-pressed={picked(k, r.number)} disabled={p === null} onClick={() => onTap(k, r.number)} data-testid={`price-${k}`}>
                      <small>{t(`kinds.${k}`)}</small>
                      <b>{p === null ? '—' : formatPrice(p)}</b>
                    </button>
                  );
                })
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Slip({ race, pick, limits, onDone }: { race: Race; pick: Pick | null; limits: Lobby['limits']; onDone: () => void }) {
  const { t } = useTranslation(['virtuals', 'errors']);
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const currency = limits?.currency ?? 'TND';
  const exponent = limits?.exponent ?? 3;
  const min = BigInt(limits?.minStake ?? 100);
  const max = BigInt(limits?.maxStake ?? 100_000);
  const [stake, setStake] = useState(() => stakeText(min * 10n, exponent));
  const [placed, setPlaced] = useState<VirtualBet | null>(null);
  const [place, { isLoading, error, reset }] = virtualsApi.usePlaceVirtualBetMutation();
  // One key per submission: kept until it succeeds or the bet changes, so a retry is the same bet.
  const key = useRef<string | null>(null);
  const what = pick ? `${pick.raceId}|${pick.kind}|${pick.runners.join('-')}|${stake}` : '';
  useEffect(() => {
    key.current = null;
    reset();
  }, [what, reset]);

  const price = pick && complete(pick) ? pickPrice(pick, race.runners, race.forecast) : null;
  const minor = parseStake(stake, exponent);
  const inLimits = minor !== null && minor >= min && minor <= max;
  const err = error && isApiError(error) ? errorText(error) : null;
  const name = (n: number) => race.runners.find((r) => r.number === n)?.name ?? `#${n}`;

  const submit = async () => {
    if (!isAuth) {
      dispatch(openAuthModal('login'));
      return;
    }
    if (!pick || !complete(pick) || minor === null || !inLimits) return;
    key.current ??= newKey();
    const res = await place({ body: { raceId: pick.raceId, kind: pick.kind, runners: pick.runners, stake: Number(minor) }, key: key.current });
    if ('data' in res && res.data) {
      setPlaced(res.data);
      key.current = null;
      onDone();
    }
  };

  return (
    <div className={`${css.panel} ${css.slip}`} data-testid="virtual-slip">
      <h2 className={css.sectionTitle}>{t('slip.title')}</h2>
      {placed && !pick && (
        <p className={css.success} role="status" data-testid="virtual-bet-placed">
          {t('slip.placed', { what: `${t(`kinds.${placed.kind}`)} · ${placed.runners.join(' → ')}`, price: formatPrice(priceHundredths(placed.price) ?? 0) })}
        </p>
      )}
      {!pick ? (
        <p className={css.muted}>{t('slip.empty')}</p>
      ) : (
        <>
          <div className={css.pick}>
            <span>
              <strong>{t(`kinds.${pick.kind}`)}</strong> · <bdi>{pick.runners.map((n) => `${n}. ${name(n)}`).join(' → ')}</bdi>
              {!complete(pick) && ` → ${t('second')}…`}
            </span>
            {price !== null && <bdi className={css.pickPrice}>{formatPrice(price)}</bdi>}
          </div>
          {complete(pick) && price === null && <p className={css.error}>{t('slip.notOffered')}</p>}
          <label className={css.fairItem}>
            <span>
              {t('slip.stake')} ({currency})
            </span>
            <span className={css.stakeRow}>
              <input className={css.stakeInput} inputMode="decimal" value={stake} onChange={(e) => setStake(e.target.value)} data-testid="virtual-stake" aria-invalid={!inLimits} />
            </span>
          </label>
          <div className={css.presets}>
            {stakePresets(min, max).map((v) => (
              <button key={v.toString()} type="button" className={css.preset} onClick={() => setStake(stakeText(v, exponent))}>
                <bdi>{stakeText(v, exponent)}</bdi>
              </button>
            ))}
          </div>
          {!inLimits && (
            <p className={css.error}>
              {t('slip.limits', { min: stakeText(min, exponent), max: stakeText(max, exponent), currency })}
            </p>
          )}
          <div className={css.summary}>
            <span className={css.muted}>{t('slip.potential')}</span>
            <strong data-testid="virtual-potential">{price !== null && minor !== null && inLimits ? <Money minor={potentialWin(minor, price)} currency={currency} /> : '—'}</strong>
          </div>
          {err && (
            <p className={css.error} role="alert" data-testid="virtual-slip-error">
              {t(err.key, err.params)}
            </p>
          )}
          <button type="button" className={css.primary} disabled={isAuth && (!complete(pick) || price === null || !inLimits || isLoading)} onClick={() => void submit()} data-testid="virtual-place">
            {!isAuth ? t('slip.signIn') : isLoading ? t('slip.placing') : t('slip.place')}
          </button>
        </>
      )}
    </div>
  );
}

function MyBets({ sport }: { sport: SportId }) {
  const { t, i18n } = useTranslation('virtuals');
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const { data } = virtualsApi.useMyVirtualBetsQuery(undefined, { skip: !isAuth, pollingInterval: 3_000 });
  const bets = (data ?? []).filter((b) => b.sport === sport).slice(0, 8);
  // A bet that settled since the last look: the balance in the header follows.
  const openIds = useRef<Set<number>>(new Set());
  useEffect(() => {
    const nowOpen = new Set((data ?? []).filter((b) => b.status === 'open' || b.status === 'placing').map((b) => b.id));
    const settled = [...openIds.current].some((id) => !nowOpen.has(id));
    openIds.current = nowOpen;
    if (settled) dispatch(api.util.invalidateTags(['Balance']));
  }, [data, dispatch]);
  if (!isAuth || bets.length === 0) return null;
  return (
    <div className={css.panel}>
      <h2 className={css.sectionTitle}>{t('myBets')}</h2>
      <ul className={css.list} data-testid="virtual-my-bets">
        {bets.map((b) => (
          <li key={b.id} className={css.row} data-testid="virtual-bet" data-status={b.status}>
            <span className={css.rowMain}>
              <strong>
                {t(`kinds.${b.kind}`)} · <bdi>{b.runners.join(' → ')}</bdi> · <bdi>{formatPrice(priceHundredths(b.price) ?? 0)}</bdi>
              </strong>
              <span className={css.muted}>
                <bdi>{raceTime(b.closesAt, i18n.language)}</bdi> · <Money minor={b.stake} currency={b.currency} />
              </span>
            </span>
            <span className={`${css.status} ${b.status === 'won' ? css.won : b.status === 'lost' ? css.lost : ''}`}>
              {t(`status.${b.status}`)}
              {b.status === 'won' && (
                <>
                  {' '}
                  <Money minor={b.win} currency={b.currency} />
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Fairness({ race, last, overround }: { race: Race | undefined; last: Race | undefined; overround: number }) {
  const { t, i18n } = useTranslation('virtuals');
  const [load, detail] = virtualsApi.useLazyVirtualRaceQuery();
  const [copied, setCopied] = useState(false);
  const recipe = detail.data?.recipe;
  const copy = async () => {
    if (!last) return;
    const res = await load(last.id, true);
    const text = res.data?.recipe;
    if (text && navigator.clipboard) {
      try {
        await navigator.clipboard.writeText(text);
        setCopied(true);
      } catch {
        setCopied(false);
      }
    }
  };
  return (
    <details className={`${css.panel} ${css.fair}`} data-testid="virtual-fairness">
      <summary>{t('fair.title')}</summary>
      <p className={css.hint}>{t('fair.intro', { pct: overround })}</p>
      <div className={css.fairGrid}>
        {race && (
          <>
            <strong>{t('race', { time: raceTime(race.closesAt, i18n.language) })}</strong>
            <div className={css.fairItem}>
              <span>{t('fair.commit')}</span>
              <code className={css.hash}>{race.commitHash}</code>
            </div>
            <div className={css.fairItem}>
              <span>{t('fair.seed')}</span>
              <span className={css.muted}>{t('fair.hidden')}</span>
            </div>
          </>
        )}
        {last?.seed && (
          <>
            <strong>{t('lastRace', { time: raceTime(last.closesAt, i18n.language) })}</strong>
            <div className={css.fairItem}>
              <span>{t('fair.commit')}</span>
              <code className={css.hash}>{last.commitHash}</code>
            </div>
            <div className={css.fairItem}>
              <span>{t('fair.seed')}</span>
              <code className={css.hash} data-testid="revealed-seed">
                {last.seed}
              </code>
            </div>
            <div className={css.fairItem}>
              <span>{t('fair.number')}</span>
              <bdi>{last.number}</bdi>
            </div>
            <div className={css.fairItem}>
              <span>{t('fair.terminating')}</span>
              <code className={css.hash}>{last.terminatingHash}</code>
            </div>
            <div className={css.fairItem}>
              <span>{t('fair.salt')}</span>
              <code className={css.hash}>{last.salt}</code>
            </div>
          </>
        )}
        <strong>{t('fair.how')}</strong>
        <ol className={css.steps}>
          <li>{t('fair.step1')}</li>
          <li>{t('fair.step2')}</li>
          <li>{t('fair.step3')}</li>
        </ol>
        {last?.seed && (
          <button type="button" className={css.secondary} onClick={() => void copy()} data-testid="copy-recipe">
            {copied ? t('fair.copied') : t('fair.copy')}
          </button>
        )}
        {recipe && <pre className={`${css.hash} ${css.recipe}`}>{recipe}</pre>}
      </div>
    </details>
  );
}
