import { useImperativeHandle, useLayoutEffect, useRef, useState, type Ref } from 'react';
import type { SlotInfo } from './model';
import { SymbolArt } from './symbols';
import css from './slots.module.css';

/**
 * One reel, driven by the machine: `spin()` when the player taps (the server's result is not
 * there yet: the reel runs over filler symbols), `land(symbols, ms)` once it is, and `hurry(ms)` to
 * bring a landing reel to rest sooner (tap-to-stop). Motion is a Web Animation on the strip, so a
 * landing can be sped up where it is (its playback rate) instead of restarting.
 */
export interface ReelHandle {
  spin(): void;
  land(symbols: number[], ms: number): Promise<void>;
  hurry(ms: number): void;
}

/** Filler cells of one turn of the waiting loop, and how long each takes to pass. */
const LOOP_CELLS = 10;
const LOOP_CELL_MS = 45;
/** A landing decelerates and overshoots a little, like a reel settling on its stop. */
const LAND_EASING = 'cubic-bezier(0.3, 0.1, 0.3, 1.12)';

type Motion = { kind: 'loop' | 'land'; anim: Animation } | null;

export function Reel({
  ref,
  reel,
  rows,
  symbols,
  strip,
  info,
  expanded,
  winCells,
}: {
  ref: Ref<ReelHandle>;
  reel: number;
  rows: number;
  symbols: number[];
  strip: number[];
  info: SlotInfo;
  expanded: boolean;
  winCells: Set<string>;
}) {
  // While moving the strip shows `list`; at rest it shows `symbols`.
  const [list, setList] = useState<number[] | null>(null);
  const listRef = useRef<number[] | null>(null);
  const stripRef = useRef<HTMLDivElement>(null);
  const motion = useRef<Motion>(null);
  const afterCommit = useRef<(() => void) | null>(null);
  const symbolsRef = useRef(symbols);
  symbolsRef.current = symbols;
  const stripSyms = useRef(strip);
  stripSyms.current = strip;

  const show = (next: number[] | null) => {
    listRef.current = next;
    setList(next);
  };

  useLayoutEffect(() => {
    const f = afterCommit.current;
    afterCommit.current = null;
    f?.();
  });

  useLayoutEffect(
    () => () => {
      motion.current?.anim.cancel();
      motion.current = null;
    },
    [],
  );

  const filler = (n: number) => {
    const s = stripSyms.current;
    const start = Math.floor(Math.random() * Math.max(1, s.length));
    return Array.from({ length: n }, (_, i) => s[(start + i) % Math.max(1, s.length)] ?? 0);
  };

  const cellPx = () => (stripRef.current?.firstElementChild as HTMLElement | null)?.getBoundingClientRect().height || 100;
  const canAnimate = () => typeof stripRef.current?.animate === 'function';

  /** The rows on screen now: where the running animation has the strip, rounded to a cell. */
  const visibleRows = (): number[] => {
    const cur = listRef.current;
    const el = stripRef.current;
    if (!cur || !el) return symbolsRef.current;
    const m = /matrix\(([^)]+)\)/.exec(getComputedStyle(el).transform);
    const ty = m ? Number(m[1]!.split(',')[5]) : 0;
    const top = Math.max(0, Math.min(cur.length - rows, Math.round(-ty / cellPx())));
    return cur.slice(top, top + rows);
  };

  useImperativeHandle(
    ref,
    (): ReelHandle => ({
      spin() {
        if (!canAnimate()) return;
        motion.current?.anim.cancel();
        const from = visibleRows();
        const loop = filler(LOOP_CELLS);
        // First turn starts from what is on screen; later turns wrap seamlessly over the loop.
        show([...loop, ...from]);
        afterCommit.current = () => {
          const el = stripRef.current;
          if (!el) return;
          const h = cellPx();
          const first = el.animate([{ transform: `translateY(${-LOOP_CELLS * h}px)` }, { transform: 'translateY(0)' }], {
            duration: LOOP_CELLS * LOOP_CELL_MS * 1.4,
            easing: 'cubic-bezier(0.5, 0, 1, 1)',
          });
          motion.current = { kind: 'loop', anim: first };
          first.onfinish = () => {
            if (motion.current?.anim !== first) return;
            show([...loop, ...loop.slice(0, rows)]);
            afterCommit.current = () => {
              if (motion.current?.anim !== first || !stripRef.current) return;
              const turn = stripRef.current.animate(
                [{ transform: `translateY(${-LOOP_CELLS * cellPx()}px)` }, { transform: 'translateY(0)' }],
                { duration: LOOP_CELLS * LOOP_CELL_MS, iterations: Infinity },
              );
              motion.current = { kind: 'loop', anim: turn };
            };
          };
        };
      },
      land(target, ms) {
        if (!canAnimate()) {
          show(null);
          return Promise.resolve();
        }
        const from = visibleRows();
        motion.current?.anim.cancel();
        motion.current = null;
        const passing = Math.max(3, Math.min(28, Math.round(ms / 50)));
        const full = [...target, ...filler(passing), ...from];
        show(full);
        return new Promise<void>((resolve) => {
          afterCommit.current = () => {
            const el = stripRef.current;
            if (!el) return resolve();
            const shift = full.length - rows;
            const anim = el.animate([{ transform: `translateY(${-shift * cellPx()}px)` }, { transform: 'translateY(0)' }], {
              duration: Math.max(1, ms),
              easing: LAND_EASING,
            });
            motion.current = { kind: 'land', anim };
            const done = () => {
              if (motion.current?.anim === anim) {
                motion.current = null;
                show(null);
              }
              resolve();
            };
            anim.finished.then(done, done);
          };
        });
      },
      hurry(ms) {
        const m = motion.current;
        if (!m || m.kind !== 'land') return;
        const total = Number(m.anim.effect?.getTiming().duration ?? 0);
        const at = Number(m.anim.currentTime ?? 0);
        const left = (total - at) / (m.anim.playbackRate || 1);
        if (left > ms) m.anim.updatePlaybackRate(Math.max(1, (total - at) / Math.max(1, ms)));
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows],
  );

  const cells = list ?? symbols;
  const moving = list !== null;
  return (
    <div className={css.reel} data-expanded={expanded} data-moving={moving}>
      <div ref={stripRef} className={`${css.strip} ${moving ? css.blur : ''}`}>
        {cells.map((sym, i) => {
          const s = info.symbols[sym];
          const win = !moving && winCells.has(`${reel}:${i}`);
          return (
            <div key={i} className={`${css.cell} ${win ? css.win : ''}`} data-kind={s?.kind}>
              {s && <SymbolArt symbol={s} className={css.art} />}
            </div>
          );
        })}
      </div>
      {expanded && !moving && info.symbols[info.wild] && (
        <div className={css.expandedWild}>
          <SymbolArt symbol={info.symbols[info.wild]!} className={css.art} />
        </div>
      )}
    </div>
  );
}
