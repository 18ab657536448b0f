/*
 * A chart of money by day (uPlot, https://github.com/leeoniya/uPlot, ~20 KiB brotli): lines over
 * a time axis of the operator's days. uPlot is imported when the chart first mounts, so it lives
 * in its own chunk that only the reports page asks for (never the player app nor the console's
 * first load). The chart is for the eye: a visually hidden summary (given by the caller) and the
 * page's table are what assistive technology reads, and the canvas is hidden from it.
 *
 * Values are integer minor units (exact: the readout writes them with the money format); the
 * axes write them short ("12.3K"). The time axis reads left to right in every language (a time
 * axis is not mirrored); the legend and readout around it follow the page's direction.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMinorMoney } from '../../components/money';
import { compactMoney } from '../reports';
import css from './TimeChart.module.css';

export interface ChartLine {
  key: string;
  label: string;
  /** A design token of src/styles.css (`--c-gold`), read when the chart is drawn. */
  color: string;
  /** Integer minor units, one per day. */
  values: number[];
  /** Drawn dashed: the second line of a pair, seen where it runs over the first (NGR equals GGR without bonuses). */
  dashed?: boolean;
}

export interface TimeChartProps {
  /** The chart's visible title (its figure's caption). */
  title: string;
  /** What the chart shows, in words, for assistive technology (visually hidden). */
  summary: string;
  /** A line under the legend while no day is pointed at ("touch the chart to read a day"). */
  hint?: string;
  /** Said in place of the chart when its code could not be loaded (the table still has the figures). */
  unavailable: string;
  /** Seconds since the epoch of each day's UTC midnight. */
  x: number[];
  /** `YYYY-MM-DD` of each point (the readout's date). */
  days: string[];
  lines: ChartLine[];
  currency: string;
  lang: string;
  testId?: string;
}

const DAY = 86_400;
/** Day-sized steps only: a report has one point a day, never a tick between two. */
const X_INCRS = [DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 60 * DAY, 90 * DAY, 180 * DAY, 365 * DAY, 2 * 365 * DAY, 5 * 365 * DAY];

let loading: Promise<{ default: typeof uPlot }> | null = null;
/** uPlot's chunk, asked once for every chart of the page (a failed load is asked again next time). */
function loadUPlot() {
  loading ??= import('uplot').catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** The chart's height for its width: shorter on a phone. */
export const chartHeight = (width: number) => (width < 480 ? 200 : 260);

const latn = (lang: string) => `${(lang || 'en').slice(0, 2)}-u-nu-latn`;

/** A design token's value on this element (a fallback where there is no style sheet: tests). */
function token(el: Element, name: string, fallback: string): string {
  const v = getComputedStyle(el).getPropertyValue(name).trim();
  return v || fallback;
}

/** The options of the chart: series from `lines`, axes in the reader's language and money. */
export function chartOptions(
  p: Pick<TimeChartProps, 'lines' | 'currency' | 'lang' | 'x'>,
  size: { width: number; height: number },
  colors: { line: (l: ChartLine) => string; axis: string; grid: string; font: string },
  UPlot: typeof uPlot,
  onCursor: (idx: number | null) => void,
): uPlot.Options {
  const span = p.x.length > 1 ? p.x[p.x.length - 1]! - p.x[0]! : 0;
  const dateFmt = new Intl.DateTimeFormat(latn(p.lang), span > 120 * DAY ? { month: 'short', year: '2-digit', timeZone: 'UTC' } : { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const axis = {
    stroke: colors.axis,
    font: `12px ${colors.font}`,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1, size: 4 },
  };
  return {
    ...size,
    // The days are UTC midnights: write them as UTC dates, whatever the browser's zone.
    tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { show: false },
    cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 8 } },
    scales: { x: { time: true } },
    axes: [
      { ...axis, space: 64, incrs: X_INCRS, values: (_u, splits) => splits.map((s) => dateFmt.format(new Date(s * 1000))) },
      {
        ...axis,
        space: 36,
        values: (_u, splits) => splits.map((v) => compactMoney(v, p.currency, p.lang)),
        // As wide as its longest figure ("-12.3K"): no empty band on a phone.
        size: (_u, values) => (values?.length ? Math.max(32, Math.ceil(Math.max(...values.map((v) => String(v ?? '').length)) * 7.5) + 14) : 32),
      },
    ],
    series: [
      {},
      ...p.lines.map((l) => ({
        label: l.label,
        stroke: colors.line(l),
        width: 2,
        ...(l.dashed ? { dash: [6, 5] } : {}),
        // A dot a day while the days are few enough to tell apart.
        points: { show: p.x.length <= 16, size: 5 },
      })),
    ],
    hooks: {
      setCursor: [(u) => onCursor(u.cursor.idx ?? null)],
    },
  };
}

/**
 * The chart. Its width is its container's (a ResizeObserver follows it); a failed load of the
 * chart's code says so and leaves the table as the source.
 */
export function TimeChart({ title, summary, hint, unavailable, x, days, lines, currency, lang, testId }: TimeChartProps) {
  const titleId = useId();
  const summaryId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  // Redrawn when the data, the currency or the language change (a new chart: cheap at this size).
  const key = JSON.stringify([x, lines.map((l) => [l.key, l.label, l.color, l.values, l.dashed]), currency, lang]);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let gone = false;
    setCursor(null);
    loadUPlot().then(
      ({ default: UPlot }) => {
        if (gone) return;
        const width = Math.max(160, Math.floor(box.clientWidth));
        const colors = {
          line: (l: ChartLine) => token(box, l.color, '#f5b82e'),
          axis: token(box, '--c-muted', '#a3acc4'),
          grid: token(box, '--c-border', '#2c3652'),
          font: token(box, '--font', 'system-ui, sans-serif'),
        };
        const opts = chartOptions({ lines, currency, lang, x }, { width, height: chartHeight(width) }, colors, UPlot, (idx) => setCursor(idx));
        plot = new UPlot(opts, [x, ...lines.map((l) => l.values)], box);
        if (typeof ResizeObserver !== 'undefined') {
          let last = width;
          observer = new ResizeObserver((entries) => {
            const w = Math.max(160, Math.floor(entries[0]?.contentRect.width ?? box.clientWidth));
            if (w === last || !plot) return;
            last = w;
            plot.setSize({ width: w, height: chartHeight(w) });
          });
          observer.observe(box);
        }
      },
      () => !gone && setFailed(true),
    );
    return () => {
      gone = true;
      observer?.disconnect();
      plot?.destroy();
    };
    // `key` stands for x, lines, currency and lang.
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  const at = cursor !== null && cursor >= 0 && cursor < days.length ? cursor : null;
  const dayFmt = new Intl.DateTimeFormat(latn(lang), { dateStyle: 'medium', timeZone: 'UTC' });
  return (
    <figure className={css.figure} aria-labelledby={titleId} aria-describedby={summaryId} data-testid={testId}>
      <figcaption id={titleId} className={css.title}>
        {title}
      </figcaption>
      <p id={summaryId} className={css.srOnly}>
        {summary}
      </p>
      <ul className={css.legend} aria-hidden="true">
        {lines.map((l) => (
          <li key={l.key} className={css.legendItem}>
            <span className={`${css.swatch} ${l.dashed ? css.swatchDashed : ''}`} style={{ color: `var(${l.color})` }} />
            <span>{l.label}</span>
            {at !== null ? (
              <bdi dir="ltr" className={css.value} data-testid={testId ? `${testId}-value-${l.key}` : undefined}>
                {formatMinorMoney(l.values[at] ?? 0, currency, lang)}
              </bdi>
            ) : null}
          </li>
        ))}
      </ul>
      <p className={css.readout} aria-hidden="true">
        {at !== null ? dayFmt.format(new Date(x[at]! * 1000)) : (hint ?? '\u00a0')}
      </p>
      {failed ? (
        <p className={css.failed} role="status">
          {unavailable}
        </p>
      ) : (
        <div ref={boxRef} className={css.plot} dir="ltr" aria-hidden="true" data-testid={testId ? `${testId}-plot` : undefined} />
      )}
    </figure>
  );
}
