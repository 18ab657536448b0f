import { useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { StudioError } from '../api';
import { useStudio } from '../context';
import { crashMultiplierAt } from '../fair';
import { formatMinor, formatMultiplier, isolate, payoutOf } from '../money';
import { play } from '../sound';
import { ACTION_GUARD_MS, useActionGuard } from '../ui/actionGuard';
import { BetControl, useBetLevels } from '../ui/BetControl';
import { Ico } from '../ui/icons';
import { acceptAutoText, actionKindOf, AUTO_MAX, AUTO_MIN, autoValueOf } from './crashModel';
import { connectCrash, type CrashPhase, type CrashPlayer, type ServerMessage } from './crashSocket';
import css from './crash.module.css';
import g from './games.module.css';

interface RoundState {
  id: number;
  phase: CrashPhase;
  bettingEndsAt: number;
  startedAt: number;
  crashPoint: number | null;
  lastM: number;
}

interface MyBet {
  roundId: number;
  amount: number;
  autoCashOut: number | null;
  cashedOutAt: number | null;
  win: number | null;
}

/**
 * A bet for the next round. The protocol has no way to withdraw a bet the server has taken, so a
 * queued bet stays in this client until the next betting window opens and is sent then: until
 * that moment, Cancel simply drops it. Amount and auto cash-out are fixed when it is queued (the
 * controls are locked meanwhile), so what is sent is what the card shows.
 */
interface QueuedBet {
  amount: number;
  auto: number | null;
}

const SETTLED_CODES_EXPIRED = 63;
/** How long the "digits only" hint stays after a refused keystroke. */
const FORMAT_HINT_MS = 2500;

export function CrashGame() {
  const { t } = useTranslation('studio');
  const { api, money, settle, setBalance, toast, fail, lang, expire, balance } = useStudio();
  const levels = useBetLevels();
  const [bet, setBet] = useState(levels[Math.min(2, levels.length - 1)] ?? 100);
  const [autoOn, setAutoOn] = useState(false);
  const [autoText, setAutoText] = useState(() => formatMinor(200, 2, lang));
  const [formatHint, setFormatHint] = useState(false);
  const [status, setStatus] = useState<'connecting' | 'open' | 'closed'>('connecting');
  const [round, setRound] = useState<RoundState | null>(null);
  const [mine, setMine] = useState<MyBet | null>(null);
  const [queued, setQueued] = useState<QueuedBet | null>(null);
  const [players, setPlayers] = useState<{ list: CrashPlayer[]; count: number }>({ list: [], count: 0 });
  const [recent, setRecent] = useState<{ id: number; m: number }[]>([]);
  const [pendingReq, setPendingReq] = useState<string | null>(null);
  const [, setFrame] = useState(0);
  const offset = useRef(0);
  const sock = useRef<ReturnType<typeof connectCrash> | null>(null);
  const balanceRef = useRef(balance);
  balanceRef.current = balance;
  const mineRef = useRef<MyBet | null>(null);
  const queuedRef = useRef<QueuedBet | null>(null);
  const hintTimer = useRef<number | undefined>(undefined);
  const autoErrorId = useId();
  mineRef.current = mine;
  queuedRef.current = queued;

  const autoValue = autoValueOf(autoText);
  const autoValid = !autoOn || autoValue !== null;

  const serverNow = () => Date.now() + offset.current;

  // Recent crash points (public list), then live.
  useEffect(() => {
    api.crashRounds(20).then(
      (list) => setRecent((cur) => merge(cur, list.map((r) => ({ id: r.id, m: Math.round(r.crashPoint * 100) })))),
      () => {},
    );
  }, [api]);

  useEffect(() => () => window.clearTimeout(hintTimer.current), []);

  useEffect(() => {
    const placeBet = (amount: number, auto: number | null) => {
      // Never send what the server would refuse as malformed: the auto value is re-checked here.
      if (auto !== null && (!Number.isInteger(auto) || auto < AUTO_MIN || auto > AUTO_MAX)) return null;
      const id = sock.current?.send({ type: 'bet', amount, autoCashOut: auto });
      if (id) setPendingReq(id);
      return id;
    };
    const onMessage = (m: ServerMessage) => {
      if ('serverTime' in m && typeof m.serverTime === 'number') offset.current = m.serverTime - Date.now();
      switch (m.type) {
        case 'hello':
          setBalance(m.balance);
          break;
        case 'round': {
          const r: RoundState = {
            id: m.id,
            phase: m.phase,
            bettingEndsAt: m.bettingEndsAt ?? 0,
            startedAt: m.startedAt ?? 0,
            crashPoint: m.crashPoint ?? null,
            lastM: 100,
          };
          setRound(r);
          if (m.phase === 'betting') {
            if (mineRef.current && mineRef.current.roundId !== m.id) setMine(null);
            setPlayers({ list: [], count: 0 });
            const q = queuedRef.current;
            if (q) {
              queuedRef.current = null;
              setQueued(null);
              placeBet(q.amount, q.auto);
            }
          }
          break;
        }
        case 'start':
          setRound((r) => ({ id: m.id, phase: 'running', bettingEndsAt: r?.bettingEndsAt ?? 0, startedAt: m.startedAt, crashPoint: null, lastM: 100 }));
          play('spin');
          break;
        case 'tick':
          setRound((r) => (r && r.id === m.id ? { ...r, phase: 'running', lastM: m.m } : r));
          break;
        case 'crash': {
          setRound((r) => ({ id: m.id, phase: 'crashed', bettingEndsAt: r?.bettingEndsAt ?? 0, startedAt: r?.startedAt ?? 0, crashPoint: m.crashPoint, lastM: m.crashPoint }));
          setRecent((cur) => merge(cur, [{ id: m.id, m: m.crashPoint }]));
          const my = mineRef.current;
          if (my && my.roundId === m.id) {
            play(my.cashedOutAt === null ? 'crash' : 'stop');
            // The round is over for this player either way: the history now has its crash point.
            settle(balanceRef.current);
          } else play('stop');
          break;
        }
        case 'players':
          setPlayers({ list: m.players, count: m.count });
          break;
        case 'betAccepted':
          setPendingReq(null);
          setMine({ roundId: m.roundId, amount: m.amount, autoCashOut: m.autoCashOut, cashedOutAt: null, win: null });
          setBalance(m.balance);
          balanceRef.current = m.balance;
          play('bet');
          break;
        case 'cashedOut':
          setPendingReq(null);
          setMine((my) => (my && my.roundId === m.roundId ? { ...my, cashedOutAt: m.multiplier, win: m.win } : my));
          balanceRef.current = m.balance;
          settle(m.balance);
          play('cashout');
          break;
        case 'error':
          setPendingReq(null);
          if (m.status === SETTLED_CODES_EXPIRED) expire();
          else fail(new StudioError(m.status, m.message));
          break;
        default:
          break;
      }
    };
    // A socket that keeps closing before its hello may mean the session is gone: the session call
    // answers 63 then, and the studio shows its "reopen the game" state.
    let failures = 0;
    const onStatus = (st: 'connecting' | 'open' | 'closed') => {
      setStatus(st);
      if (st === 'open') failures = 0;
      if (st === 'closed') {
        failures += 1;
        if (failures === 2 || failures % 5 === 0) api.session().catch(() => {});
      }
    };
    sock.current = connectCrash(api.token, { message: onMessage, status: onStatus });
    return () => {
      sock.current?.close();
      sock.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api]);

  // Re-render ten times a second while a round runs or bets are open (countdown, payout label).
  useEffect(() => {
    const id = window.setInterval(() => setFrame((f) => f + 1), 100);
    return () => window.clearInterval(id);
  }, []);

  const now = serverNow();
  const phase = round?.phase ?? null;
  const liveM =
    phase === 'running' && round ? Math.max(round.lastM, crashMultiplierAt(now - round.startedAt)) : phase === 'crashed' && round?.crashPoint ? round.crashPoint : 100;
  const activeBet = mine && round && mine.roundId === round.id ? mine : null;
  const countdown = phase === 'betting' && round ? Math.max(0, round.bettingEndsAt - now) : 0;
  const kind = actionKindOf({ phase, hasActiveBet: activeBet !== null, cashedOut: activeBet?.cashedOutAt != null, queued: queued !== null });
  // Any change of what the button does (the round crashed under a "Cash out", the round started
  // under "Bet placed", a cash-out turned it into "Bet next round", …) makes it ignore taps a moment.
  const guard = useActionGuard(kind);

  const onAutoChange = (typed: string) => {
    const next = acceptAutoText(typed);
    window.clearTimeout(hintTimer.current);
    if (next === null) {
      // Refused: the field keeps its text and says why.
      setFormatHint(true);
      hintTimer.current = window.setTimeout(() => setFormatHint(false), FORMAT_HINT_MS);
      return;
    }
    setFormatHint(false);
    setAutoText(next);
    setAutoOn(true);
  };

  const onAction = () => {
    if (guard.isGuarded()) return;
    switch (kind) {
      case 'cashout': {
        const id = sock.current?.send({ type: 'cashout' });
        if (id) setPendingReq(id);
        return;
      }
      case 'bet':
      case 'betNext': {
        const auto = autoOn ? autoValue : null;
        if (autoOn && auto === null) return; // the inline error already says what is wrong
        if (kind === 'betNext') {
          setQueued({ amount: bet, auto });
          return;
        }
        const id = sock.current?.send({ type: 'bet', amount: bet, autoCashOut: auto });
        if (id) setPendingReq(id);
        return;
      }
      default:
        return;
    }
  };

  const cancelQueued = () => {
    queuedRef.current = null;
    setQueued(null);
    toast(t('crash.queuedCancelled'));
  };

  let actionLabel: string;
  let actionClass = '';
  switch (kind) {
    case 'cashout':
      actionLabel = t('crash.cashOut', { amount: isolate(money(payoutOf(activeBet?.amount ?? 0, liveM))) });
      actionClass = g.actionGo!;
      break;
    case 'placed':
      actionLabel = t('crash.betPlaced');
      break;
    case 'queued':
      actionLabel = t('crash.betQueued');
      break;
    case 'bet':
      actionLabel = t('crash.placeBet');
      break;
    default:
      actionLabel = t('crash.betNext');
  }
  const wantsBet = kind === 'bet' || kind === 'betNext';
  const baseDisabled = status !== 'open' || pendingReq !== null || kind === 'placed' || kind === 'queued' || (wantsBet && !autoValid);
  const actionDisabled = baseDisabled || guard.guarded;
  const inputsLocked = !!activeBet || queued !== null;

  let autoError: string | null = null;
  if (formatHint) autoError = t('crash.autoFormat');
  else if (autoOn && autoValue === null && !inputsLocked)
    autoError = t('crash.autoRange', { min: isolate(formatMultiplier(AUTO_MIN, lang)), max: isolate(formatMultiplier(AUTO_MAX, lang)) });

  return (
    <div className={g.game}>
      <div className={g.recent} aria-label={t('crash.recent')} data-testid="crash-recent">
        {recent.map(({ id, m }) => (
          <span key={id} dir="ltr" className={`${g.recentChip} ${m >= 200 ? (m >= 1000 ? g.hot : g.good) : g.bad}`}>
            {formatMultiplier(m, lang)}
          </span>
        ))}
        {recent.length === 0 && <span className={g.recentEmpty}>{t('crash.noRecent')}</span>}
      </div>

      <div className={css.stage} data-phase={phase ?? 'connecting'}>
        <CrashCanvas round={round} offset={offset} lang={lang} />
        <div className={css.overlay} aria-live="polite">
          {status !== 'open' && (
            <div className={css.reconnect} data-testid="crash-connecting">
              <span className={css.dot} /> {status === 'connecting' ? t('crash.connecting') : t('crash.reconnecting')}
            </div>
          )}
          {phase === 'betting' && (
            <div className={css.waiting}>
              <span className={css.waitLabel}>{t('crash.nextRound')}</span>
              <span className={css.countdown} data-testid="crash-countdown">
                {t('crash.seconds', { s: formatMinor(Math.round(countdown / 100), 1, lang) })}
              </span>
              <div className={css.progress}>
                <div style={{ inlineSize: `${Math.min(100, (countdown / 5000) * 100)}%` }} />
              </div>
            </div>
          )}
          {(phase === 'running' || phase === 'crashed') && (
            <div className={css.multiplier} data-crashed={phase === 'crashed'} data-testid="crash-multiplier">
              <bdi dir="ltr">{formatMultiplier(liveM, lang)}</bdi>
              {phase === 'crashed' && <span className={css.crashedLabel}>{t('crash.crashed')}</span>}
            </div>
          )}
          {activeBet?.cashedOutAt != null && (
            <div className={css.myWin} data-testid="crash-my-win">
              {t('crash.youCashedOut', { m: isolate(formatMultiplier(activeBet.cashedOutAt, lang)), amount: isolate(money(activeBet.win ?? 0)) })}
            </div>
          )}
        </div>
      </div>

      <div className={`${g.controls} ${css.controls}`}>
        {/* Above the panel, over the foot of the stage: appearing never moves the buttons below. */}
        {queued && (
          <div className={css.queued} data-testid="crash-queued">
            <span className={css.queuedIcon} aria-hidden="true">
              <Ico name="hourglass" size={18} />
            </span>
            <span className={css.queuedText}>
              <span className={css.queuedTitle}>{t('crash.queued')}</span>
              <span className={css.queuedDetail} data-testid="crash-queued-detail">
                <span>
                  <bdi dir="ltr">{money(queued.amount)}</bdi>
                  {queued.auto !== null && ' ·'}
                </span>
                {queued.auto !== null && <> <span>{t('crash.queuedAuto', { m: isolate(formatMultiplier(queued.auto, lang)) })}</span></>}
              </span>
            </span>
            <button type="button" className={css.queuedCancel} onClick={cancelQueued} aria-label={t('crash.queuedCancelLabel')} data-testid="crash-queued-cancel">
              {t('crash.queuedCancel')}
            </button>
          </div>
        )}
        {!queued && autoError && (
          <p id={autoErrorId} className={css.autoError} role="alert" data-testid="crash-auto-error">
            {autoError}
          </p>
        )}
        <div className={css.autoRow}>
          <label className={css.switch}>
            <input type="checkbox" checked={autoOn} onChange={(e) => setAutoOn(e.target.checked)} disabled={inputsLocked} data-testid="crash-auto-toggle" />
            <span className={css.switchTrack} aria-hidden="true" />
            <span>{t('crash.autoCashOut')}</span>
          </label>
          <div className={css.autoInput} data-invalid={autoError !== null} dir="ltr">
            <input
              inputMode="decimal"
              autoComplete="off"
              enterKeyHint="done"
              maxLength={10}
              value={autoText}
              onChange={(e) => onAutoChange(e.target.value)}
              disabled={inputsLocked}
              aria-label={t('crash.autoCashOutAt')}
              aria-invalid={autoError !== null}
              aria-describedby={autoError ? autoErrorId : undefined}
              data-testid="crash-auto"
            />
            <span>×</span>
          </div>
        </div>
        <BetControl value={bet} onChange={setBet} disabled={inputsLocked} />
        <button
          type="button"
          className={`${g.action} ${css.action} ${actionClass}`}
          onClick={onAction}
          disabled={actionDisabled}
          data-meaning={kind}
          data-guard={guard.guarded && !baseDisabled}
          style={{ '--guard-ms': `${ACTION_GUARD_MS}ms` } as CSSProperties}
          data-testid="crash-action"
        >
          {actionLabel}
        </button>
      </div>

      <section className={css.players} aria-label={t('crash.players')}>
        <div className={css.playersHead}>
          <span>
            <Ico name="users" size={16} /> {t('crash.playersCount', { count: players.count })}
          </span>
          <span>{t('bet')}</span>
          <span>{t('win')}</span>
        </div>
        <ul data-testid="crash-players">
          {players.list.map((p, i) => (
            <li key={`${p.name}-${i}`} data-out={p.cashedOutAt !== null}>
              {/* Cells take the page's direction; the values inside are isolated. */}
              <span className={css.pName}>
                <bdi>{p.name}</bdi>
              </span>
              <span>
                <bdi>{money(p.bet, true)}</bdi>
              </span>
              <span>
                <bdi dir="ltr">{p.cashedOutAt !== null ? `${formatMultiplier(p.cashedOutAt, lang)} · ${money(p.win ?? 0, true)}` : '—'}</bdi>
              </span>
            </li>
          ))}
          {players.list.length === 0 && <li className={css.empty}>{t('crash.noPlayers')}</li>}
        </ul>
      </section>
    </div>
  );
}

/** The curve, drawn every frame from the server clock (multiplier(t) = floor(100·e^(0.00006·t))). */
function CrashCanvas({ round, offset, lang }: { round: RoundState | null; offset: { current: number }; lang: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const roundRef = useRef(round);
  roundRef.current = round;

  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return undefined;
    let raf = 0;
    const draw = () => {
      raf = requestAnimationFrame(draw);
      const dpr = window.devicePixelRatio || 1;
      const w = canvas.clientWidth;
      const h = canvas.clientHeight;
      if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
        canvas.width = Math.round(w * dpr);
        canvas.height = Math.round(h * dpr);
      }
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, h);
      const r = roundRef.current;
      const now = Date.now() + offset.current;
      let elapsed = 0;
      let endM = 100;
      if (r && r.phase === 'running') {
        elapsed = Math.max(0, now - r.startedAt);
        endM = Math.max(r.lastM, crashMultiplierAt(elapsed));
      } else if (r && r.phase === 'crashed' && r.crashPoint) {
        endM = r.crashPoint;
        elapsed = Math.log(endM / 100) / 0.00006;
      }
      drawCurve(ctx, w, h, elapsed, endM, r?.phase ?? null, lang);
    };
    raf = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(raf);
  }, [offset, lang]);

  return <canvas ref={ref} className={css.canvas} aria-hidden="true" />;
}

function drawCurve(ctx: CanvasRenderingContext2D, w: number, h: number, elapsed: number, endM: number, phase: CrashPhase | null, lang: string) {
  const padL = 36;
  const padB = 24;
  const padT = 16;
  const padR = 16;
  const maxT = Math.max(8000, elapsed * 1.15);
  const maxM = Math.max(200, endM * 1.2);
  const x = (t: number) => padL + (t / maxT) * (w - padL - padR);
  const y = (m: number) => h - padB - ((m - 100) / (maxM - 100)) * (h - padB - padT);

  // Grid with multiplier labels.
  ctx.font = '600 10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const stepM = niceStep((maxM - 100) / 4);
  for (let m = 100; m <= maxM; m += stepM) {
    const yy = y(m);
    ctx.strokeStyle = 'rgba(255,255,255,0.07)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(padL, yy);
    ctx.lineTo(w - padR, yy);
    ctx.stroke();
    ctx.fillStyle = 'rgba(200,210,235,0.55)';
    // The locale's separator, as everywhere in the game (1.5× / 1,5×).
    ctx.fillText(`${m % 100 === 0 ? formatMinor(m / 100, 0, lang) : formatMinor(Math.round(m / 10), 1, lang)}×`, 4, yy);
  }
  const stepT = niceStep(maxT / 4 / 1000) * 1000;
  ctx.textBaseline = 'top';
  for (let t = 0; t <= maxT; t += stepT) {
    ctx.fillStyle = 'rgba(200,210,235,0.45)';
    ctx.fillText(`${Math.round(t / 1000)}s`, x(t) - 6, h - padB + 8);
  }
  if (phase !== 'running' && phase !== 'crashed') return;

  const crashed = phase === 'crashed';
  const color = crashed ? '#ff5c6c' : '#2ecc8f';
  const steps = 80;
  ctx.beginPath();
  ctx.moveTo(x(0), y(100));
  for (let i = 1; i <= steps; i += 1) {
    const t = (elapsed * i) / steps;
    ctx.lineTo(x(t), y(Math.min(endM, 100 * Math.exp(0.00006 * t))));
  }
  const tipX = x(elapsed);
  const tipY = y(endM);
  // Fill under the curve.
  ctx.save();
  ctx.lineTo(tipX, y(100));
  ctx.closePath();
  const fill = ctx.createLinearGradient(0, tipY, 0, y(100));
  fill.addColorStop(0, crashed ? 'rgba(255,92,108,0.35)' : 'rgba(46,204,143,0.35)');
  fill.addColorStop(1, 'rgba(0,0,0,0)');
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.restore();
  // The line.
  ctx.beginPath();
  ctx.moveTo(x(0), y(100));
  for (let i = 1; i <= steps; i += 1) {
    const t = (elapsed * i) / steps;
    ctx.lineTo(x(t), y(Math.min(endM, 100 * Math.exp(0.00006 * t))));
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = 4;
  ctx.lineCap = 'round';
  ctx.shadowColor = color;
  ctx.shadowBlur = 14;
  ctx.stroke();
  ctx.shadowBlur = 0;
  // The tip: a glowing comet, or a burst when crashed.
  ctx.beginPath();
  ctx.arc(tipX, tipY, crashed ? 9 : 7, 0, Math.PI * 2);
  ctx.fillStyle = crashed ? '#ff5c6c' : '#eafff5';
  ctx.shadowColor = color;
  ctx.shadowBlur = 24;
  ctx.fill();
  ctx.shadowBlur = 0;
  if (crashed) {
    ctx.strokeStyle = 'rgba(255,92,108,0.8)';
    ctx.lineWidth = 2;
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      ctx.beginPath();
      ctx.moveTo(tipX + Math.cos(a) * 12, tipY + Math.sin(a) * 12);
      ctx.lineTo(tipX + Math.cos(a) * 20, tipY + Math.sin(a) * 20);
      ctx.stroke();
    }
  }
}

/** Recent crash points by round id, newest first, without duplicates. */
function merge(cur: { id: number; m: number }[], add: { id: number; m: number }[]) {
  const byId = new Map(cur.map((r) => [r.id, r]));
  for (const r of add) byId.set(r.id, r);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, 30);
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}
