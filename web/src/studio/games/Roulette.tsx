import { useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../context';
import { play } from '../sound';
import { useBetLevels } from '../ui/BetControl';
import { Ico } from '../ui/icons';
import { WHEEL_ORDER, colorOf, insideSpots, spotKey, type RouletteKind, type Spot } from './rouletteModel';
import css from './roulette.module.css';
import g from './games.module.css';

interface Placed {
  key: string;
  kind: RouletteKind;
  numbers: number[];
  amount: number;
}

const SPIN_MS = 4200;
const STEP = 360 / 37;

const OUTSIDE: { kind: RouletteKind; numbers: number[]; label: string }[] = [
  { kind: 'low', numbers: [], label: '1–18' },
  { kind: 'even', numbers: [], label: 'even' },
  { kind: 'red', numbers: [], label: 'red' },
  { kind: 'black', numbers: [], label: 'black' },
  { kind: 'odd', numbers: [], label: 'odd' },
  { kind: 'high', numbers: [], label: '19–36' },
];

export function RouletteGame() {
  const { t } = useTranslation('studio');
  const { api, money, short, settle, fail, toast, balance, session } = useStudio();
  const levels = useBetLevels();
  const chips = useMemo(() => pickChips(levels), [levels]);
  const [chip, setChip] = useState(chips[Math.min(1, chips.length - 1)] ?? session.minBet);
  const [placed, setPlaced] = useState<Placed[]>([]);
  const [lastBets, setLastBets] = useState<Placed[]>([]);
  const [spinning, setSpinning] = useState(false);
  const [result, setResult] = useState<{ number: number; winKeys: Set<string>; win: number } | null>(null);
  const [history, setHistory] = useState<number[]>([]);
  const [wheelRot, setWheelRot] = useState(0);
  const [ballRot, setBallRot] = useState(0);
  const rot = useRef({ wheel: 0, ball: 0 });
  const spots = useMemo(insideSpots, []);

  const bets = useMemo(() => {
    const m = new Map<string, Placed>();
    for (const p of placed) {
      const cur = m.get(p.key);
      m.set(p.key, cur ? { ...cur, amount: cur.amount + p.amount } : { ...p });
    }
    return m;
  }, [placed]);
  const total = placed.reduce((s, p) => s + p.amount, 0);

  const place = (kind: RouletteKind, numbers: number[]) => {
    if (spinning) return;
    const key = spotKey(kind, numbers);
    const onSpot = bets.get(key)?.amount ?? 0;
    if (onSpot + chip > session.maxBet) {
      toast(t('roulette.maxOnSpot', { amount: money(session.maxBet) }), 'error');
      return;
    }
    if (total + chip > balance) {
      toast(t('insufficient'), 'error');
      return;
    }
    play('click');
    setResult(null);
    setPlaced((list) => [...list, { key, kind, numbers, amount: chip }]);
  };

  const spin = async () => {
    if (spinning || placed.length === 0) return;
    const list = [...bets.values()];
    setSpinning(true);
    setResult(null);
    play('spin');
    try {
      const r = await api.rouletteSpin(list.map(({ kind, numbers, amount }) => ({ kind, numbers, amount })));
      const res = r.result!;
      // The wheel turns so the winning pocket stops under the ball, which ends at the top.
      const idx = WHEEL_ORDER.indexOf(res.number);
      const wheelTarget = rot.current.wheel - (rot.current.wheel % 360) + 360 * 5 + (360 - idx * STEP);
      const ballTarget = rot.current.ball - (rot.current.ball % 360) - 360 * 7;
      rot.current = { wheel: wheelTarget, ball: ballTarget };
      setWheelRot(wheelTarget);
      setBallRot(ballTarget);
      await new Promise((ok) => setTimeout(ok, SPIN_MS));
      const winKeys = new Set(res.wins.map((w) => list[w.index]?.key).filter((k): k is string => !!k));
      setResult({ number: res.number, winKeys, win: r.win });
      setHistory((h) => [res.number, ...h].slice(0, 14));
      setLastBets(list);
      settle(r.balance);
      play(r.win > 0 ? 'win' : 'lose');
    } catch (e) {
      fail(e);
    } finally {
      setSpinning(false);
    }
  };

  const chipOn = (key: string) => {
    const b = bets.get(key);
    if (!b) return null;
    return (
      <span className={`${css.chip} ${result?.winKeys.has(key) ? css.chipWin : ''}`} data-chip={chipTone(b.amount, chips)}>
        {short(b.amount)}
      </span>
    );
  };

  const hit = (n: number) => result?.number === n;
  const spotLabel = (kind: RouletteKind, numbers: number[]) =>
    `${t(`roulette.kinds.${kind}`)} ${numbers.join('-')}`.trim();

  return (
    <div className={`${g.game} ${css.game}`}>
      <div className={css.top}>
        <div className={css.wheelBox}>
          <Wheel rotation={wheelRot} ball={ballRot} spinning={spinning} />
          <div className={css.wheelCenter} data-testid="roulette-result" aria-live="polite">
            {result && !spinning ? (
              <span className={css.centerNum} data-color={colorOf(result.number)}>
                {result.number}
              </span>
            ) : null}
          </div>
        </div>
        <div className={css.side}>
          <div className={css.historyTitle}>{t('roulette.last')}</div>
          <div className={css.history}>
            {history.length === 0 && <span className={g.recentEmpty}>—</span>}
            {history.map((n, i) => (
              <span key={`${i}-${n}`} className={css.histNum} data-color={colorOf(n)}>
                {n}
              </span>
            ))}
          </div>
          <div className={css.totals}>
            <span>{t('roulette.totalBet')}</span>
            <bdi data-testid="roulette-total">{money(total)}</bdi>
          </div>
          {result && !spinning && (
            <div className={css.totals} data-testid="roulette-win">
              <span>{t('win')}</span>
              <bdi className={result.win > 0 ? css.winText : ''}>{money(result.win)}</bdi>
            </div>
          )}
        </div>
      </div>

      <div className={css.table} data-spinning={spinning} data-testid="roulette-table">
        <button type="button" className={`${css.cell} ${css.zero} ${hit(0) ? css.hit : ''}`} data-color="green"
          onClick={() => place('straight', [0])} aria-label={spotLabel('straight', [0])}>
          <span className={css.num}>0</span>
          {chipOn(spotKey('straight', [0]))}
        </button>

        <div className={css.numbers}>
          {Array.from({ length: 36 }, (_, i) => i + 1).map((n) => (
            <button key={n} type="button" className={`${css.cell} ${hit(n) ? css.hit : ''}`} data-color={colorOf(n)}
              onClick={() => place('straight', [n])} aria-label={spotLabel('straight', [n])} data-testid={`roulette-n${n}`}>
              <span className={css.num}>{n}</span>
            </button>
          ))}
          {spots.map((s) => (
            <SpotButton key={s.key} spot={s} label={spotLabel(s.kind, s.numbers)} onClick={() => place(s.kind, s.numbers)}>
              {chipOn(s.key)}
            </SpotButton>
          ))}
        </div>

        {[1, 2, 3].map((d) => (
          <button key={`d${d}`} type="button" className={`${css.cell} ${css.dozen}`} style={{ gridRow: `${2 + (d - 1) * 4} / span 4` }}
            onClick={() => place('dozen', [d])} aria-label={t('roulette.dozenN', { n: d })}>
            <span className={css.vertical} dir="ltr">{`${(d - 1) * 12 + 1}–${d * 12}`}</span>
            {chipOn(spotKey('dozen', [d]))}
          </button>
        ))}
        {OUTSIDE.map((o, i) => (
          <button key={o.kind} type="button" className={`${css.cell} ${css.outside}`} style={{ gridRow: `${2 + i * 2} / span 2` }}
            data-kind={o.kind} onClick={() => place(o.kind, [])} aria-label={t(`roulette.kinds.${o.kind}`)} data-testid={`roulette-${o.kind}`}>
            {o.kind === 'red' || o.kind === 'black' ? (
              <span className={css.diamond} data-color={o.kind} />
            ) : (
              <span className={css.vertical} {...(o.kind === 'low' || o.kind === 'high' ? { dir: 'ltr' } : {})}>
                {o.kind === 'low' || o.kind === 'high' ? o.label : t(`roulette.kinds.${o.kind}`)}
              </span>
            )}
            {chipOn(spotKey(o.kind, []))}
          </button>
        ))}
        {[1, 2, 3].map((c) => (
          <button key={`c${c}`} type="button" className={`${css.cell} ${css.column}`} style={{ gridColumn: `${c} / span 1` }}
            onClick={() => place('column', [c])} aria-label={t('roulette.columnN', { n: c })}>
            <span dir="ltr">2:1</span>
            {chipOn(spotKey('column', [c]))}
          </button>
        ))}
      </div>

      <div className={g.controls}>
        <div className={css.chips} role="radiogroup" aria-label={t('roulette.chip')}>
          {chips.map((c) => (
            <button key={c} type="button" role="radio" aria-checked={chip === c} className={css.chipPick} data-chip={chipTone(c, chips)}
              onClick={() => { setChip(c); play('click'); }} disabled={spinning}>
              {short(c)}
            </button>
          ))}
        </div>
        <div className={g.controlRow}>
          <div className={css.tableActions}>
            <button type="button" className={css.iconBtn} onClick={() => setPlaced((l) => l.slice(0, -1))} disabled={spinning || placed.length === 0} aria-label={t('roulette.undo')}>
              <Ico name="undo" size={18} />
            </button>
            <button type="button" className={css.iconBtn} onClick={() => { setPlaced([]); setResult(null); }} disabled={spinning || placed.length === 0} aria-label={t('roulette.clear')}>
              <Ico name="trash" size={18} />
            </button>
            <button type="button" className={css.textBtn} disabled={spinning || (placed.length === 0 && lastBets.length === 0)}
              onClick={() => {
                const base = placed.length ? [...bets.values()] : lastBets;
                const sum = base.reduce((s, b) => s + b.amount, 0) * (placed.length ? 2 : 1);
                if (sum > balance) return toast(t('insufficient'), 'error');
                setResult(null);
                setPlaced(placed.length ? [...placed, ...base] : base);
              }}>
              {placed.length ? <bdi dir="ltr">×2</bdi> : t('roulette.rebet')}
            </button>
          </div>
          <button type="button" className={`${g.action} ${spinning ? g.actionBusy : ''}`} onClick={spin} disabled={spinning || placed.length === 0} data-testid="roulette-spin">
            {spinning ? t('spinning') : t('spin')}
          </button>
        </div>
      </div>
    </div>
  );
}

function SpotButton({ spot, label, onClick, children }: { spot: Spot; label: string; onClick: () => void; children: ReactNode }) {
  const style: CSSProperties = {
    insetInlineStart: `${(spot.x / 3) * 100}%`,
    insetBlockStart: `${(spot.y / 12) * 100}%`,
  };
  return (
    <button type="button" className={css.spot} data-kind={spot.kind} data-edge={`${Number.isInteger(spot.x) ? 'x' : ''}${Number.isInteger(spot.y) ? 'y' : ''}`}
      style={style} onClick={onClick} aria-label={label}>
      {children}
    </button>
  );
}

/** Up to six chip values from the bet levels, spread from the smallest. */
function pickChips(levels: number[]): number[] {
  if (levels.length <= 6) return levels;
  const out = new Set<number>();
  for (let i = 0; i < 6; i += 1) out.add(levels[Math.round((i * (levels.length - 1)) / 5)]!);
  return [...out];
}

function chipTone(amount: number, chips: number[]): number {
  let tone = 0;
  chips.forEach((c, i) => {
    if (amount >= c) tone = i;
  });
  return tone;
}

function Wheel({ rotation, ball, spinning }: { rotation: number; ball: number; spinning: boolean }) {
  const R = 100;
  const pockets = WHEEL_ORDER.map((n, i) => {
    const a0 = ((i - 0.5) * STEP * Math.PI) / 180;
    const a1 = ((i + 0.5) * STEP * Math.PI) / 180;
    const p = (r: number, a: number) => `${(r * Math.sin(a)).toFixed(2)} ${(-r * Math.cos(a)).toFixed(2)}`;
    const d = `M ${p(R, a0)} A ${R} ${R} 0 0 1 ${p(R, a1)} L ${p(62, a1)} A 62 62 0 0 0 ${p(62, a0)} Z`;
    const fill = n === 0 ? '#16a34a' : colorOf(n) === 'red' ? '#d62839' : '#14161f';
    const am = (i * STEP * Math.PI) / 180;
    return (
      <g key={n}>
        <path d={d} fill={fill} stroke="#c9a24a" strokeWidth="0.8" />
        <text x={(88 * Math.sin(am)).toFixed(2)} y={(-88 * Math.cos(am)).toFixed(2)} transform={`rotate(${i * STEP} ${(88 * Math.sin(am)).toFixed(2)} ${(-88 * Math.cos(am)).toFixed(2)})`}
          textAnchor="middle" dominantBaseline="central" fontSize="9.5" fontWeight="800" fill="#fff">
          {n}
        </text>
      </g>
    );
  });
  const ms = spinning ? SPIN_MS : 0;
  return (
    <svg className={css.wheel} viewBox="-118 -118 236 236" aria-hidden="true">
      <defs>
        <radialGradient id="rw-rim" cx="50%" cy="50%" r="50%">
          <stop offset="85%" stopColor="#5a3a12" />
          <stop offset="100%" stopColor="#2a1a07" />
        </radialGradient>
        <radialGradient id="rw-hub" cx="40%" cy="35%" r="70%">
          <stop offset="0%" stopColor="#ffe7a3" />
          <stop offset="60%" stopColor="#c08a2a" />
          <stop offset="100%" stopColor="#6b4710" />
        </radialGradient>
        <radialGradient id="rw-cone" cx="50%" cy="50%" r="50%">
          <stop offset="0%" stopColor="#2b1d0c" />
          <stop offset="100%" stopColor="#5e3f17" />
        </radialGradient>
      </defs>
      <circle r="116" fill="url(#rw-rim)" stroke="#e0b659" strokeWidth="2" />
      <g style={{ transform: `rotate(${rotation}deg)`, transition: `transform ${ms}ms cubic-bezier(0.15, 0.7, 0.15, 1)` }}>
        {pockets}
        <circle r="62" fill="url(#rw-cone)" stroke="#c9a24a" strokeWidth="1.5" />
        {[0, 45, 90, 135].map((a) => (
          <rect key={a} x="-3" y="-46" width="6" height="92" rx="3" fill="url(#rw-hub)" transform={`rotate(${a})`} />
        ))}
        <circle r="18" fill="url(#rw-hub)" />
      </g>
      <g style={{ transform: `rotate(${ball}deg)`, transition: `transform ${ms}ms cubic-bezier(0.2, 0.6, 0.1, 1)` }}>
        <circle className={spinning ? css.ballSpin : undefined} cx="0" cy="-76" r="6" fill="#fff" stroke="#bbb" strokeWidth="1" />
      </g>
      <path d="M -7 -118 L 7 -118 L 0 -104 Z" fill="#ffd66b" />
    </svg>
  );
}
