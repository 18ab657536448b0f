import { useTranslation } from 'react-i18next';
import { countdown, positions, runnerColors, type SportId } from '../logic';
import css from '../Virtuals.module.css';

interface Props {
  sport: SportId;
  runners: number[];
  /** The published finishing order (null before the close: runners wait at the start). */
  order: number[] | null;
  /** 0 … 1 of the run; 1 when the race is over. */
  progress: number;
  /** Drives the animation's variety (the race id): the same race draws the same way. */
  seed: number;
  /** Ms before the start, shown over the track while waiting. */
  startsIn?: number | null;
  label: string;
}

/**
 * The animated race (CSS positions driven by `logic.positions`): lanes for horses and
 * greyhounds, an oval of four laps for speedway. The runners cross the line in the published
 * order; before the start they wait at the gate under a countdown.
 */
export function RaceTrack({ sport, runners, order, progress, seed, startsIn, label }: Props) {
  const { t } = useTranslation('virtuals');
  const at = order ? positions(order, progress, seed) : new Map<number, number>();
  const waiting = !order && startsIn !== null && startsIn !== undefined;
  const overlay = waiting ? (
    <div className={css.trackOverlay}>
      <span>{t('track.startsIn')}</span>
      <strong data-testid="track-countdown">{startsIn! > 0 ? countdown(startsIn!) : t('starting')}</strong>
    </div>
  ) : null;

  if (sport === 'speedway') {
    const laps = 4;
    return (
      <div className={css.ovalWrap} role="img" aria-label={label} data-testid="race-track">
        <svg className={css.oval} viewBox="0 0 320 160">
          <ellipse cx="160" cy="80" rx="138" ry="66" fill="#5b3b22" />
          <ellipse cx="160" cy="80" rx="100" ry="30" fill="#1f6b3a" stroke="#fff" strokeOpacity="0.5" strokeWidth="2" />
          <line x1="160" y1="110" x2="160" y2="146" stroke="#fff" strokeWidth="3" strokeDasharray="4 3" />
          {runners.map((n, lane) => {
            const d = at.get(n) ?? 0;
            const theta = Math.PI / 2 + 2 * Math.PI * laps * d;
            const rx = 108 + lane * 8;
            const ry = 38 + lane * 7;
            // Anticlockwise, as speedway is ridden: from the start line (bottom) to the right.
            const x = 160 + rx * Math.sin(theta - Math.PI / 2);
            const y = 80 + ry * Math.cos(theta - Math.PI / 2);
            const c = runnerColors(sport, n);
            return (
              <g key={n} transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}>
                <circle r="9" fill={c.bg} stroke="#000" strokeOpacity="0.45" strokeWidth="2" />
                <text textAnchor="middle" dominantBaseline="central" fontSize="10" fontWeight="800" fill={c.fg}>
                  {n}
                </text>
              </g>
            );
          })}
        </svg>
        {overlay}
      </div>
    );
  }

  return (
    <div className={`${css.track} ${sport === 'horses' ? css.trackTurf : css.trackSand}`} role="img" aria-label={label} data-testid="race-track">
      {runners.map((n) => {
        const c = runnerColors(sport, n);
        const d = at.get(n) ?? 0;
        return (
          <div key={n} className={css.lane}>
            <span className={css.finishLine} />
            <span className={css.token} style={{ background: c.bg, color: c.fg, insetInlineStart: `calc(${d.toFixed(4)} * (100% - 50px))` }}>
              {n}
            </span>
          </div>
        );
      })}
      {overlay}
    </div>
  );
}
