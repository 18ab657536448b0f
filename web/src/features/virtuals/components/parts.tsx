import { useEffect, useState } from 'react';
import { runnerColors, type SportId } from '../logic';
import css from '../Virtuals.module.css';

/** The race types' marks (drawn: no emoji font is assumed): a horseshoe, a paw, a wheel. */
export function SportIcon({ sport, size = 30 }: { sport: SportId; size?: number }) {
  const common = { width: size, height: size, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const, 'aria-hidden': true };
  if (sport === 'horses') {
    return (
      <svg {...common}>
        <path d="M5 4v7.5a7 7 0 0 0 14 0V4h-3.6v7.5a3.4 3.4 0 0 1-6.8 0V4z" />
        <path d="M6.8 7.5h.01M6.8 11h.01M17.2 7.5h.01M17.2 11h.01" strokeWidth={2.6} />
      </svg>
    );
  }
  if (sport === 'greyhounds') {
    return (
      <svg {...common}>
        <ellipse cx="12" cy="16" rx="4.2" ry="3.6" />
        <ellipse cx="6" cy="10.5" rx="1.8" ry="2.3" />
        <ellipse cx="9.6" cy="6.6" rx="1.8" ry="2.4" />
        <ellipse cx="14.4" cy="6.6" rx="1.8" ry="2.4" />
        <ellipse cx="18" cy="10.5" rx="1.8" ry="2.3" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="8.5" />
      <circle cx="12" cy="12" r="2.2" />
      <path d="M12 3.5v6.3M12 14.2v6.3M3.5 12h6.3M14.2 12h6.3M6 6l4.4 4.4M13.6 13.6 18 18M18 6l-4.4 4.4M10.4 13.6 6 18" />
    </svg>
  );
}

/** A runner's number in its colours (silk, trap or helmet). */
export function Silk({ sport, number, className }: { sport: SportId; number: number; className?: string }) {
  const c = runnerColors(sport, number);
  return (
    <span className={className ?? css.silk} style={{ background: c.bg, color: c.fg }} aria-hidden="true">
      {number}
    </span>
  );
}

/**
 * The server's clock (`Date.now() + offset`), re-read every `everyMs` (a countdown: 250 ms; the
 * running race: every animation frame when `frames`).
 */
export function useServerNow(offset: number, frames = false, everyMs = 250): number {
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    setNow(Date.now() + offset);
    if (frames && typeof requestAnimationFrame === 'function') {
      let id = 0;
      let last = 0;
      const loop = (t: number) => {
        // About 30 frames a second is smooth enough for the tokens and half the work.
        if (t - last >= 32) {
          last = t;
          setNow(Date.now() + offset);
        }
        id = requestAnimationFrame(loop);
      };
      id = requestAnimationFrame(loop);
      return () => cancelAnimationFrame(id);
    }
    const timer = setInterval(() => setNow(Date.now() + offset), everyMs);
    return () => clearInterval(timer);
  }, [offset, frames, everyMs]);
  return now;
}

/** The first `count` finishers: place, colours, name (`compact`: the winner's name only). */
export function Podium({ sport, order, names, count = 3, compact = false }: { sport: SportId; order: number[]; names: Map<number, string>; count?: number; compact?: boolean }) {
  return (
    <ol className={css.podium}>
      {order.slice(0, count).map((n, i) => (
        <li key={n}>
          <span className={css.place}>{i + 1}</span>
          <Silk sport={sport} number={n} className={css.silkSmall} />
          {(!compact || i === 0) && <bdi>{names.get(n) ?? `#${n}`}</bdi>}
        </li>
      ))}
    </ol>
  );
}
