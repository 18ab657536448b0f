import { useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { play } from '../sound';
import { BetControl, useBetLevels } from '../ui/BetControl';
import { slotLevels, windowAt, type LineWin, type SlotInfo, type SlotRound } from './model';
import { SymbolArt, SymbolDefs } from './symbols';
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

const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

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
  const { api, session, money, settle, setBalance, fail, balance } = useStudio();
  const levels = slotLevels(useBetLevels(), info.betMultiple);
  const [bet, setBet] = useState(levels[Math.min(2, levels.length - 1)] ?? session.minBet);
  const [busy, setBusy] = useState(false);
  const [spinKey, setSpinKey] = useState(0);
  const [fast, setFast] = useState(false);
  const [shown, setShown] = useState<Shown>(() => ({
    window: info.baseReels.map((strip, i) => windowAt(strip, (i * 7) % strip.length, info.rows)),
    lineWins: [],
    scatterHit: false,
    expanded: [],
    multiplier: null,
  }));
  const [presenting, setPresenting] = useState(false);
  const [lastWin, setLastWin] = useState<number | null>(null);
  const [banner, setBanner] = useState<{ kind: 'win' | 'big' | 'feature' | 'featureEnd'; text: string; sub?: string } | null>(null);
  const [feature, setFeature] = useState<{ name: string; spin: number; of: number; total: number } | null>(null);
  const skip = useRef(false);
  const [reelsDone, setReelsDone] = useState(0);
  const waitReels = useRef<(() => void) | null>(null);
  const featureStrips = useRef(false);

  useEffect(() => {
    if (reelsDone >= info.reels && waitReels.current) {
      const f = waitReels.current;
      waitReels.current = null;
      f();
    }
  }, [reelsDone, info.reels]);

  const spinTo = (next: Shown, onFeatureReels: boolean) =>
    new Promise<void>((resolve) => {
      featureStrips.current = onFeatureReels;
      setReelsDone(0);
      waitReels.current = resolve;
      setShown({ ...next, lineWins: [], scatterHit: false });
      setSpinKey((k) => k + 1);
      play('spin');
    });

  const present = async (s: Shown) => {
    setShown(s);
    if (s.lineWins.length > 0 || s.scatterHit) await sleep(skip.current ? 250 : 1100);
  };

  const spin = async () => {
    if (busy) {
      skip.current = true;
      setFast(true);
      return;
    }
    skip.current = false;
    setFast(false);
    setBusy(true);
    setBanner(null);
    setLastWin(null);
    try {
      const r = await api.slotSpin(bet);
      const round = r.round!;
      setBalance(r.balance - r.win);
      setPresenting(true);
      await spinTo({ window: round.window, lineWins: [], scatterHit: false, expanded: [], multiplier: null }, false);
      const baseWin = round.lineWins.reduce((a, w) => a + w.win, 0) + round.scatterWin;
      await present({
        window: round.window,
        lineWins: round.lineWins,
        scatterHit: round.scatterWin > 0 || !!round.feature,
        expanded: [],
        multiplier: null,
      });
      if (baseWin > 0) play(baseWin >= bet * 10 ? 'bigWin' : 'win');
      if (round.feature) await playFeature(round);
      const total = r.win;
      setLastWin(total);
      if (total > 0) {
        const big = total >= bet * 15;
        setBanner({ kind: big ? 'big' : 'win', text: big ? t('slots.bigWin') : t('win'), sub: money(total) });
        if (!round.feature) play(big ? 'bigWin' : 'win');
      } else play('stop');
      settle(r.balance);
    } catch (e) {
      fail(e);
    } finally {
      setPresenting(false);
      setBusy(false);
      setFast(false);
    }
  };

  const playFeature = async (round: SlotRound) => {
    const f = round.feature!;
    const name = t(`slots.featureName.${info.id}`, { defaultValue: f.name });
    setBanner({ kind: 'feature', text: name, sub: t('slots.freeSpinsWon', { n: f.spinsAwarded }) });
    play('bigWin');
    await sleep(skip.current ? 300 : 1800);
    setBanner(null);
    let total = 0;
    let of = f.spinsAwarded;
    for (let i = 0; i < f.spins.length; i += 1) {
      const s = f.spins[i]!;
      setFeature({ name, spin: i + 1, of, total });
      await spinTo({ window: s.window, lineWins: [], scatterHit: false, expanded: [], multiplier: s.multiplier }, true);
      await present({ window: s.window, lineWins: s.lineWins, scatterHit: s.retrigger, expanded: s.expandedReels, multiplier: s.multiplier });
      total += s.win;
      if (s.retrigger) {
        of += info.feature.retrigger;
        setBanner({ kind: 'feature', text: t('slots.retrigger'), sub: `+${info.feature.retrigger}` });
        await sleep(skip.current ? 200 : 1200);
        setBanner(null);
      }
      if (s.win > 0) play('win');
      setFeature({ name, spin: i + 1, of, total });
    }
    setBanner({ kind: 'featureEnd', text: t('slots.featureWin'), sub: money(f.win) });
    await sleep(skip.current ? 300 : 1800);
    setFeature(null);
  };

  const winCells = useMemo(() => {
    const set = new Set<string>();
    for (const w of shown.lineWins) w.rows.forEach((row, reel) => set.add(`${reel}:${row}`));
    if (shown.scatterHit)
      shown.window.forEach((col, reel) => col.forEach((sym, row) => sym === info.scatter && set.add(`${reel}:${row}`)));
    return set;
  }, [shown, info.scatter]);

  const strips = featureStrips.current && info.featureReels.length ? info.featureReels : info.baseReels;

  return (
    <div className={`${g.game} ${css.game}`} data-theme={info.id}>
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

      <div className={css.frame} data-feature={!!feature}>
        <div className={css.reels} style={{ '--reels': info.reels, '--rows': info.rows } as CSSProperties} data-testid="slot-reels">
          {shown.window.map((col, reel) => (
            <Reel
              key={reel}
              reel={reel}
              symbols={col}
              strip={strips[reel] ?? []}
              spinKey={spinKey}
              fast={fast || !!feature}
              info={info}
              expanded={shown.expanded.includes(reel)}
              winCells={winCells}
              onStopped={() => {
                play('stop');
                setReelsDone((n) => n + 1);
              }}
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
        <div className={g.payoutLine}>
          <span>{t('slots.lastWin')}</span>
          <bdi data-testid="slot-win">{lastWin === null ? '—' : money(lastWin)}</bdi>
        </div>
        <div className={g.controlRow}>
          <BetControl value={bet} onChange={(v) => setBet(slotLevels([v], info.betMultiple)[0] ?? v)} disabled={busy} />
          <button
            type="button"
            className={`${css.spinBtn} ${busy ? css.spinBusy : ''}`}
            onClick={() => void spin()}
            disabled={(!busy && bet > balance) || (busy && !presenting)}
            aria-label={busy ? t('slots.skip') : t('spin')}
            data-testid="slot-spin"
          >
            <svg viewBox="0 0 48 48" aria-hidden="true" className={busy ? css.flip : undefined}>
              {busy ? (
                <path d="M14 12l14 12-14 12zM28 12l10 12-10 12" fill="currentColor" />
              ) : (
                <path d="M38 22a14 14 0 1 0-4 11M38 10v12H26" fill="none" stroke="currentColor" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
              )}
            </svg>
          </button>
        </div>
      </div>
    </div>
  );
}

function Reel({
  reel,
  symbols,
  strip,
  spinKey,
  fast,
  info,
  expanded,
  winCells,
  onStopped,
}: {
  reel: number;
  symbols: number[];
  strip: number[];
  spinKey: number;
  fast: boolean;
  info: SlotInfo;
  expanded: boolean;
  winCells: Set<string>;
  onStopped: () => void;
}) {
  const [list, setList] = useState<number[]>(symbols);
  const [style, setStyle] = useState<CSSProperties>({});
  const prev = useRef(symbols);
  const lastKey = useRef(spinKey);
  const stripRef = useRef<HTMLDivElement>(null);
  const onStoppedRef = useRef(onStopped);
  onStoppedRef.current = onStopped;

  useLayoutEffect(() => {
    if (spinKey === lastKey.current) {
      // A presentation update without a spin.
      setList(symbols);
      prev.current = symbols;
      return undefined;
    }
    lastKey.current = spinKey;
    const filler = Array.from({ length: fast ? 6 : 12 + reel * 3 }, (_, i) => strip[(i * 5 + reel * 11 + spinKey * 3) % Math.max(1, strip.length)] ?? 0);
    const full = [...symbols, ...filler, ...prev.current];
    const shift = full.length - symbols.length;
    setList(full);
    setStyle({ transform: `translateY(calc(var(--cell-h) * ${-shift}))`, transition: 'none' });
    const duration = fast ? 380 + reel * 90 : 650 + reel * 190;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      setList(symbols);
      setStyle({ transform: 'translateY(0)', transition: 'none' });
      prev.current = symbols;
      onStoppedRef.current();
    };
    const raf = requestAnimationFrame(() => {
      // Force the start position to apply before the transition.
      void stripRef.current?.offsetHeight;
      requestAnimationFrame(() =>
        setStyle({ transform: 'translateY(0)', transition: `transform ${duration}ms cubic-bezier(0.3, 0.1, 0.3, 1.12)` }),
      );
    });
    const timer = window.setTimeout(finish, duration + 60);
    return () => {
      cancelAnimationFrame(raf);
      window.clearTimeout(timer);
      if (!done) finish();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [spinKey, symbols]);

  const spinning = list.length > symbols.length;
  return (
    <div className={css.reel} data-expanded={expanded}>
      <div ref={stripRef} className={`${css.strip} ${spinning ? css.blur : ''}`} style={style}>
        {list.map((sym, i) => {
          const s = info.symbols[sym];
          const win = !spinning && winCells.has(`${reel}:${i}`);
          return (
            <div key={i} className={`${css.cell} ${win ? css.win : ''}`} data-kind={s?.kind}>
              {s && <SymbolArt symbol={s} className={css.art} />}
            </div>
          );
        })}
      </div>
      {expanded && !spinning && info.symbols[info.wild] && (
        <div className={css.expandedWild}>
          <SymbolArt symbol={info.symbols[info.wild]!} className={css.art} />
        </div>
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
