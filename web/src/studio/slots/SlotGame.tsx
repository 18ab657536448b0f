import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { play } from '../sound';
import { useActionGuard } from '../ui/actionGuard';
import { BetControl, useBetLevels } from '../ui/BetControl';
import { Ico } from '../ui/icons';
import { Sheet } from '../ui/Sheet';
import { AutoPanel } from './AutoPanel';
import { slotLevels, windowAt, type LineWin, type SlotInfo, type SlotRound } from './model';
import {
  AUTO_GAP_MS,
  BANNER_MS,
  landingPlan,
  playRules,
  readTurbo,
  SHOW_MS,
  stopAfterRound,
  stopBeforeSpin,
  writeTurbo,
  type AutoPlan,
  type AutoProgress,
  type AutoStop,
  type Landing,
} from './pace';
import { Reel, type ReelHandle } from './Reel';
import { SymbolDefs } from './symbols';
import { useSlotInfo } from './useSlotInfo';
import css from './slots.module.css';
import g from '../games/games.module.css';

interface Shown {
  window: number[][];
  lineWins: LineWin[];
  scatterHit: boolean;
  expanded: number[];
  multiplier: number | null;
}

/** `idle`: the last result is shown; `spinning`: reels moving; `feature`: free spins playing. */
type SpinState = 'idle' | 'spinning' | 'feature';

export function SlotGame() {
  const { api } = useStudio();
  const info = useSlotInfo(api);
  if (!info) {
    return (
      <div className={css.loading} role="status">
        <span className={css.spinner} />
      </div>
    );
  }
  return <Machine info={info} />;
}

function Machine({ info }: { info: SlotInfo }) {
  const { t } = useTranslation('studio');
  const { api, session, money, settle, setBalance, fail, toast, balance } = useStudio();
  const rules = useMemo(() => playRules(session.playRules), [session.playRules]);
  const levels = slotLevels(useBetLevels(), info.betMultiple);
  const [bet, setBet] = useState(levels[Math.min(2, levels.length - 1)] ?? session.minBet);
  const [state, setState] = useState<SpinState>('idle');
  const [rounds, setRounds] = useState(0);
  const [turbo, setTurbo] = useState(() => rules.turbo && readTurbo(session.playerId));
  const [shown, setShown] = useState<Shown>(() => ({
    window: info.baseReels.map((strip, i) => windowAt(strip, (i * 7) % strip.length, info.rows)),
    lineWins: [],
    scatterHit: false,
    expanded: [],
    multiplier: null,
  }));
  const [lastWin, setLastWin] = useState<number | null>(null);
  const [banner, setBanner] = useState<{ kind: 'win' | 'big' | 'feature' | 'featureEnd'; text: string; sub?: string } | null>(null);
  const [feature, setFeature] = useState<{ name: string; spin: number; of: number; total: number } | null>(null);
  const [autoLeft, setAutoLeft] = useState<number | null>(null);
  const [autoOpen, setAutoOpen] = useState(false);
  const [autoStopped, setAutoStopped] = useState<AutoStop | null>(null);
  const [featureStrips, setFeatureStrips] = useState(false);

  const reels = useRef<(ReelHandle | null)[]>([]);
  const windowRef = useRef(shown.window);
  windowRef.current = shown.window;
  const turboRef = useRef(turbo);
  turboRef.current = turbo;
  const balanceRef = useRef(balance);
  balanceRef.current = balance;
  /** A round (base spin and its free spins) is being played. Set before any await. */
  const busy = useRef(false);
  /** The player asked to stop (tap-to-stop / skip): holds for the rest of the round. */
  const stopAsked = useRef(false);
  /** The reels are landing now, and not before this moment may the last one rest. */
  const landing = useRef<{ earliestEnd: number } | null>(null);
  /** Cuts the pause in progress short (a skip, or auto-spin stopped). */
  const wake = useRef<((now: boolean) => void) | null>(null);
  const autoRun = useRef<{ plan: AutoPlan; progress: AutoProgress; stop: AutoStop | null } | null>(null);

  const pace = (): 'stop' | 'turbo' | 'normal' => (stopAsked.current && rules.quickStop ? 'stop' : turboRef.current ? 'turbo' : 'normal');

  /** A pause that a skip shortens to SHOW_MS.stop from the tap. */
  const pause = (ms: number) =>
    new Promise<void>((ok) => {
      let id = window.setTimeout(done, ms);
      const end = performance.now() + ms;
      function done() {
        window.clearTimeout(id);
        if (wake.current === cut) wake.current = null;
        ok();
      }
      function cut(now: boolean) {
        window.clearTimeout(id);
        id = window.setTimeout(done, now ? 0 : Math.min(SHOW_MS.stop, Math.max(0, end - performance.now())));
      }
      wake.current = cut;
    });

  const landAll = async (target: number[][], kind: Landing, earliestEnd: number) => {
    const plan = landingPlan(stopAsked.current && rules.quickStop ? 'stop' : kind, info.reels, performance.now(), earliestEnd);
    landing.current = { earliestEnd };
    try {
      await Promise.all(reels.current.map((r, i) => r?.land(target[i] ?? [], plan[i] ?? 0).then(() => play('stop'))));
    } finally {
      landing.current = null;
    }
  };

  /** Tap-to-stop: landing reels hurry to rest, a spin still waiting for the server lands fast when it answers. */
  const requestStop = useCallback(() => {
    if (!busy.current || !rules.quickStop) return;
    stopAsked.current = true;
    const l = landing.current;
    if (l) {
      const plan = landingPlan('stop', info.reels, performance.now(), l.earliestEnd);
      reels.current.forEach((r, i) => r?.hurry(plan[i] ?? 0));
    }
    wake.current?.(false);
  }, [info.reels, rules.quickStop]);

  /** One paid round, its free spins included; throws what the server refused. */
  const playRound = async (stake: number): Promise<{ win: number; feature: boolean; balance: number }> => {
    busy.current = true;
    stopAsked.current = false;
    const earliestEnd = performance.now() + rules.minSpinMs;
    setState('spinning');
    setBanner(null);
    setLastWin(null);
    setFeatureStrips(false);
    setShown((s) => ({ ...s, lineWins: [], scatterHit: false, expanded: [], multiplier: null }));
    reels.current.forEach((r) => r?.spin());
    play('spin');
    try {
      let r;
      try {
        r = await api.slotSpin(stake);
      } catch (e) {
        stopAsked.current = true;
        await landAll(windowRef.current, 'stop', 0);
        throw e;
      }
      const round = r.round!;
      setBalance(r.balance - r.win);
      setShown((s) => ({ ...s, window: round.window }));
      await landAll(round.window, turboRef.current ? 'turbo' : 'normal', earliestEnd);
      const baseWin = round.lineWins.reduce((a, w) => a + w.win, 0) + round.scatterWin;
      setShown({ window: round.window, lineWins: round.lineWins, scatterHit: round.scatterWin > 0 || !!round.feature, expanded: [], multiplier: null });
      if (round.feature) {
        setState('feature');
        if (baseWin > 0) play(baseWin >= stake * 10 ? 'bigWin' : 'win');
        await pause(SHOW_MS[pace()]);
        await playFeature(round);
      }
      const total = r.win;
      setLastWin(total);
      if (total > 0) {
        const big = total >= stake * 15;
        setBanner({ kind: big ? 'big' : 'win', text: big ? t('slots.bigWin') : t('win'), sub: money(total) });
        if (!round.feature) play(big ? 'bigWin' : 'win');
      }
      settle(r.balance);
      setRounds((n) => n + 1);
      return { win: total, feature: !!round.feature, balance: r.balance };
    } finally {
      busy.current = false;
      stopAsked.current = false;
      setState('idle');
    }
  };

  const playFeature = async (round: SlotRound) => {
    const f = round.feature!;
    const name = t(`slots.featureName.${info.id}`, { defaultValue: f.name });
    setBanner({ kind: 'feature', text: name, sub: t('slots.freeSpinsWon', { n: f.spinsAwarded }) });
    play('bigWin');
    await pause(stopAsked.current ? BANNER_MS.stop : turboRef.current ? BANNER_MS.turbo : BANNER_MS.normal);
    setBanner(null);
    setFeatureStrips(true);
    let total = 0;
    let of = f.spinsAwarded;
    for (let i = 0; i < f.spins.length; i += 1) {
      const s = f.spins[i]!;
      setFeature({ name, spin: i + 1, of, total });
      setShown((v) => ({ ...v, window: s.window, lineWins: [], scatterHit: false, expanded: [], multiplier: s.multiplier }));
      await landAll(s.window, turboRef.current ? 'turbo' : 'feature', 0);
      setShown({ window: s.window, lineWins: s.lineWins, scatterHit: s.retrigger, expanded: s.expandedReels, multiplier: s.multiplier });
      total += s.win;
      if (s.win > 0) play('win');
      if (s.lineWins.length > 0 || s.retrigger) await pause(SHOW_MS[pace()]);
      if (s.retrigger) {
        of += info.feature.retrigger;
        setBanner({ kind: 'feature', text: t('slots.retrigger'), sub: `+${info.feature.retrigger}` });
        await pause(stopAsked.current ? BANNER_MS.stop : turboRef.current ? BANNER_MS.turbo : BANNER_MS.retrigger);
        setBanner(null);
      }
      setFeature({ name, spin: i + 1, of, total });
    }
    setBanner({ kind: 'featureEnd', text: t('slots.featureWin'), sub: money(f.win) });
    await pause(stopAsked.current ? BANNER_MS.stop : turboRef.current ? BANNER_MS.turbo : BANNER_MS.normal);
    setFeature(null);
    setFeatureStrips(false);
  };

  const manualSpin = async () => {
    if (busy.current || autoRun.current || bet > balanceRef.current) return;
    setAutoStopped(null);
    try {
      await playRound(bet);
    } catch (e) {
      fail(e);
    }
  };

  const endAuto = useCallback((why: AutoStop) => {
    const run = autoRun.current;
    if (!run || run.stop) return;
    run.stop = why;
    wake.current?.(true);
  }, []);

  const startAuto = async (plan: AutoPlan) => {
    if (busy.current || autoRun.current) return;
    setAutoOpen(false);
    setAutoStopped(null);
    const run = { plan, progress: { played: 0, staked: 0, won: 0 }, stop: null as AutoStop | null };
    autoRun.current = run;
    setAutoLeft(plan.count);
    let funds = balanceRef.current;
    let reason: AutoStop | null = null;
    for (;;) {
      reason = run.stop ?? stopBeforeSpin(plan, run.progress, funds);
      if (reason) break;
      let res;
      try {
        res = await playRound(plan.bet);
      } catch (e) {
        fail(e);
        reason = 'error';
        break;
      }
      run.progress.played += 1;
      run.progress.staked += plan.bet;
      run.progress.won += res.win;
      funds = res.balance;
      setAutoLeft(plan.count - run.progress.played);
      reason = run.stop ?? stopAfterRound(plan, res.win, res.feature);
      if (reason) break;
      await pause(res.win > 0 ? SHOW_MS[turboRef.current ? 'turbo' : 'normal'] : AUTO_GAP_MS[turboRef.current ? 'turbo' : 'normal']);
    }
    autoRun.current = null;
    setAutoLeft(null);
    setAutoStopped(reason);
    toast(t(`slots.autoStopped.${reason}`), reason === 'error' ? 'error' : 'info');
  };

  // Auto-spin stops when the game is hidden (another tab, the app in the background) or left.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') endAuto('hidden');
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      endAuto('player');
    };
  }, [endAuto]);

  const closeAuto = useCallback(() => setAutoOpen(false), []);

  const toggleTurbo = () => {
    const on = !turbo;
    setTurbo(on);
    writeTurbo(session.playerId, on);
  };

  // What the big button does now; a change makes it ignore taps a moment (no spin-then-skip, no
  // skip-then-spin from one double tap).
  const meaning = autoLeft !== null ? 'autoStop' : state !== 'idle' ? 'stop' : 'spin';
  const guard = useActionGuard(meaning);
  const onMainButton = () => {
    // A tap in the moment after the button changed meaning (the reels just stopped: "Stop" became
    // "Spin") is refused — it may have been meant for the old meaning — and says so.
    if (guard.isGuarded()) {
      guard.refuse();
      return;
    }
    if (autoRun.current) {
      endAuto('player');
      requestStop();
    } else if (busy.current) requestStop();
    else void manualSpin();
  };

  const winCells = useMemo(() => {
    const set = new Set<string>();
    for (const w of shown.lineWins) w.rows.forEach((row, reel) => set.add(`${reel}:${row}`));
    if (shown.scatterHit)
      shown.window.forEach((col, reel) => col.forEach((sym, row) => sym === info.scatter && set.add(`${reel}:${row}`)));
    return set;
  }, [shown, info.scatter]);

  const strips = featureStrips && info.featureReels.length ? info.featureReels : info.baseReels;
  const mainLabel = meaning === 'autoStop' ? t('slots.autoStop', { n: autoLeft ?? 0 }) : meaning === 'stop' ? (state === 'feature' ? t('slots.skip') : t('slots.stop')) : t('spin');
  const mainDisabled = (meaning === 'spin' && bet > balance) || (meaning === 'stop' && !rules.quickStop);

  return (
    <div
      className={`${g.game} ${css.game}`}
      data-theme={info.id}
      data-testid="slot-game"
      data-spin={state}
      data-rounds={rounds}
      data-turbo={turbo}
      data-auto-stopped={autoStopped ?? ''}
    >
      <SymbolDefs />
      <Backdrop theme={info.id} />
      <div className={css.machine}>
      <div className={css.marquee}>
        {feature ? (
          <div className={css.featureBar} data-testid="slot-feature">
            <span className={css.featureName}>{feature.name}</span>
            <span>{t('slots.spinOf', { n: feature.spin, of: feature.of })}</span>
            {shown.multiplier !== null && shown.multiplier > 1 && <span className={css.mult}>×{shown.multiplier}</span>}
            <bdi className={css.featureTotal}>{money(feature.total)}</bdi>
          </div>
        ) : (
          <div className={css.title}>
            <span className={css.titleText}>{info.name}</span>
            <span className={css.sub}>{t('slots.linesPays', { n: info.lines.length })}</span>
          </div>
        )}
      </div>

      {/* A tap on the reels during a spin is a tap-to-stop (it never starts a spin). */}
      <div className={css.frame} data-feature={!!feature} onClick={requestStop}>
        <div className={css.reels} style={{ '--reels': info.reels, '--rows': info.rows } as CSSProperties} data-testid="slot-reels">
          {shown.window.map((col, reel) => (
            <Reel
              key={reel}
              ref={(h) => {
                reels.current[reel] = h;
              }}
              reel={reel}
              rows={info.rows}
              symbols={col}
              strip={strips[reel] ?? []}
              info={info}
              expanded={shown.expanded.includes(reel)}
              winCells={winCells}
            />
          ))}
          <Paylines info={info} wins={shown.lineWins} />
        </div>
        {banner && (
          <div className={css.banner} data-kind={banner.kind} data-testid="slot-banner">
            <span className={css.bannerText}>{banner.text}</span>
            {banner.sub && <bdi className={css.bannerSub}>{banner.sub}</bdi>}
          </div>
        )}
      </div>
      </div>

      <div className={g.controls}>
        <div className={css.toolRow}>
          <div className={css.lastWin}>
            <span>{t('slots.lastWin')}</span>
            <bdi data-testid="slot-win">{lastWin === null ? '—' : money(lastWin)}</bdi>
          </div>
          {rules.turbo && (
            <button type="button" className={css.pill} aria-pressed={turbo} onClick={toggleTurbo} data-testid="slot-turbo">
              <Ico name="bolt" size={16} />
              <span>{t('slots.turbo')}</span>
            </button>
          )}
          {rules.autoplay && (
            <button
              type="button"
              className={css.pill}
              aria-haspopup="dialog"
              aria-pressed={autoLeft !== null}
              onClick={() => setAutoOpen(true)}
              disabled={state !== 'idle' || autoLeft !== null}
              data-testid="slot-auto"
            >
              <Ico name="refresh" size={16} />
              <span>{t('slots.auto')}</span>
            </button>
          )}
        </div>
        <div className={`${g.controlRow} ${css.spinRow}`}>
          <BetControl value={bet} onChange={(v) => setBet(slotLevels([v], info.betMultiple)[0] ?? v)} disabled={state !== 'idle' || autoLeft !== null} />
          <button
            type="button"
            className={`${css.spinBtn} ${meaning !== 'spin' ? css.spinBusy : ''}`}
            onClick={onMainButton}
            disabled={mainDisabled}
            data-guard={guard.guarded}
            data-refused={guard.refused}
            data-meaning={meaning}
            aria-label={mainLabel}
            title={mainLabel}
            data-testid="slot-spin"
          >
            {meaning === 'autoStop' ? (
              <span className={css.autoCount} data-testid="slot-auto-left">
                <svg viewBox="0 0 48 48" aria-hidden="true">
                  <rect x="17" y="17" width="14" height="14" rx="2" fill="currentColor" />
                </svg>
                <bdi>{autoLeft}</bdi>
              </span>
            ) : (
              <svg viewBox="0 0 48 48" aria-hidden="true" className={meaning === 'stop' ? css.flip : undefined}>
                {meaning === 'stop' && state === 'feature' ? (
                  <path d="M14 12l14 12-14 12zM28 12l10 12-10 12" fill="currentColor" />
                ) : meaning === 'stop' ? (
                  <rect x="14" y="14" width="20" height="20" rx="3" fill="currentColor" />
                ) : (
                  <path d="M38 22a14 14 0 1 0-4 11M38 10v12H26" fill="none" stroke="currentColor" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
                )}
              </svg>
            )}
          </button>
          {/* Over the foot of the reels: showing it never moves a control. */}
          {guard.refused && (
            <span key={guard.refusals} className={css.guardHint} role="status" data-testid="slot-guard-hint">
              {t(meaning === 'spin' ? 'slots.guardSpin' : 'slots.guardWait')}
            </span>
          )}
        </div>
      </div>
      {rules.autoplay && (
        <Sheet open={autoOpen} title={t('slots.autoTitle')} onClose={closeAuto}>
          <AutoPanel bet={bet} rules={rules} onStart={(plan) => void startAuto(plan)} />
        </Sheet>
      )}
    </div>
  );
}

/** Scenery behind the machine, per theme. */
function Backdrop({ theme }: { theme: string }) {
  if (theme === 'neon-fruits') {
    return (
      <svg className={css.backdrop} viewBox="0 0 390 300" preserveAspectRatio="xMidYMax slice" aria-hidden="true">
        <defs>
          <linearGradient id="bd-sun" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stopColor="#ffd166" />
            <stop offset="0.55" stopColor="#ff5fa2" />
            <stop offset="1" stopColor="#a020f0" />
          </linearGradient>
        </defs>
        <circle cx="195" cy="150" r="74" fill="url(#bd-sun)" opacity="0.5" />
        {[0, 1, 2, 3, 4].map((i) => (
          <rect key={`s${i}`} x="110" y={140 + i * 11} width="170" height={2 + i * 1.6} fill="#07030d" />
        ))}
        <rect x="0" y="168" width="390" height="132" fill="#07030d" opacity="0.6" />
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <line key={`h${i}`} x1="0" x2="390" y1={170 + i * i * 6} y2={170 + i * i * 6} stroke="#ff3fd8" strokeOpacity="0.35" />
        ))}
        {Array.from({ length: 13 }, (_, i) => (
          <line key={`v${i}`} x1={195 + (i - 6) * 14} y1="170" x2={195 + (i - 6) * 90} y2="300" stroke="#3ff4ff" strokeOpacity="0.3" />
        ))}
      </svg>
    );
  }
  if (theme === 'desert-gold') {
    return (
      <svg className={css.backdrop} viewBox="0 0 390 300" preserveAspectRatio="xMidYMax slice" aria-hidden="true">
        <circle cx="300" cy="130" r="40" fill="#ffd66b" opacity="0.12" />
        <circle cx="300" cy="130" r="26" fill="#ffe7a3" opacity="0.18" />
        <path d="M20 250 110 130 200 250z" fill="#7a4d16" opacity="0.55" />
        <path d="M150 250 230 150 310 250z" fill="#8d5a1b" opacity="0.5" />
        <path d="M260 250 320 180 380 250z" fill="#6b4211" opacity="0.55" />
        <path d="M0 240c80-30 160-10 230-20s120-20 160-10v90H0z" fill="#4a2f0d" opacity="0.8" />
      </svg>
    );
  }
  if (theme === 'atlantis-pearls') {
    return (
      <svg className={css.backdrop} viewBox="0 0 390 300" preserveAspectRatio="xMidYMax slice" aria-hidden="true">
        {[60, 140, 230, 320].map((x, i) => (
          <path key={x} d={`M${x} 0 L${x - 30 + i * 8} 300 L${x + 10 + i * 8} 300 L${x + 24} 0z`} fill="#bff7ff" opacity="0.05" />
        ))}
        <path d="M40 300V190h24v-30h20v30h24v110zM280 300V200h18v-40l14-20 14 20v40h18v100z" fill="#0b4d66" opacity="0.6" />
        <path d="M0 270c60-20 120 0 190-10s140-10 200 0v40H0z" fill="#06283f" />
        {[[70, 120, 4], [90, 80, 3], [320, 110, 5], [300, 60, 3], [200, 40, 2]].map(([x, y, r]) => (
          <circle key={`${x}${y}`} cx={x} cy={y} r={r} fill="none" stroke="#bff7ff" strokeOpacity="0.45" className={css.bubble} />
        ))}
      </svg>
    );
  }
  return null;
}

const LINE_COLORS = ['#ffd66b', '#3ff4ff', '#ff3fd8', '#7dffc9', '#ff8a5c', '#a78bff', '#ffffff', '#5fb3ff'];

function Paylines({ info, wins }: { info: SlotInfo; wins: LineWin[] }) {
  if (wins.length === 0) return null;
  const w = info.reels * 100;
  const h = info.rows * 100;
  return (
    <svg className={css.paylines} viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" aria-hidden="true">
      {wins.map((win, i) => {
        const rows = info.lines[win.line] ?? win.rows;
        const pts = rows.map((row, reel) => `${reel * 100 + 50},${row * 100 + 50}`).join(' ');
        const color = LINE_COLORS[i % LINE_COLORS.length];
        return (
          <g key={`${win.line}-${i}`} style={{ animationDelay: `${i * 120}ms` }} className={css.line}>
            <polyline points={pts} fill="none" stroke="rgba(0,0,0,0.5)" strokeWidth="14" strokeLinejoin="round" strokeLinecap="round" />
            <polyline points={pts} fill="none" stroke={color} strokeWidth="7" strokeLinejoin="round" strokeLinecap="round" />
          </g>
        );
      })}
    </svg>
  );
}
