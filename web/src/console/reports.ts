/*
 * The reports page's pure rules (docs/BACKOFFICE.md "Reports with rollups in the posting
 * transaction"): the operator's day, the filters kept in the URL, the quick ranges, the report's
 * address (JSON and CSV), sorting and paging the rows, the active players' peak and average, and
 * the charts' series. Money stays exact: the API's major-unit numbers become integer minor units
 * (BigInt, components/money.ts) for sorting and for the charts' points; no float arithmetic on
 * amounts. No React here.
 */
import { currencyExponent, majorToMinor } from '../components/money';
import type { Schemas } from '../api/types';

export type ReportLine = Schemas['ReportLine'];

/** How a report groups its rows (`by`). */
export const GROUPINGS = ['day', 'product', 'provider', 'game'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface ReportFilters {
  from: string;
  to: string;
  by: Grouping;
  /** One currency, or '' for every currency (a row per currency). */
  currency: string;
}

/** The operator's day is Tunis's: UTC+1 all year (wallet::rollup `DAY_OFFSET_MS`). */
export const DAY_OFFSET_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The server's longest range (crates/server/src/api/reports.rs `MAX_DAYS`). */
export const MAX_DAYS = 3660;

/** The table's page: a month of days. */
export const PAGE_SIZE = 31;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since the epoch of a `YYYY-MM-DD` that is a real date, else null. */
export function dayNumber(date: string): number | null {
  const m = DATE.exec(date);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const back = new Date(ms);
  if (back.getUTCFullYear() !== Number(m[1]) || back.getUTCMonth() !== Number(m[2]) - 1 || back.getUTCDate() !== Number(m[3])) return null;
  return ms / DAY_MS;
}

/** The `YYYY-MM-DD` of a day number. */
export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Today in the operator's day (Tunis). */
export const operatorToday = (now = Date.now()) => dateOfDay(Math.floor((now + DAY_OFFSET_MS) / DAY_MS));

export const addDays = (date: string, n: number) => dateOfDay((dayNumber(date) ?? 0) + n);

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysIn(from: string, to: string): number {
  const a = dayNumber(from);
  const b = dayNumber(to);
  return a === null || b === null || b < a ? 0 : b - a + 1;
}

export const QUICK_RANGES = ['7d', '30d', 'month', 'year'] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

/** A quick range ending today: the last 7 or 30 days, this month or this year so far. */
export function quickRange(kind: QuickRange, today: string): { from: string; to: string } {
  switch (kind) {
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'year':
      return { from: `${today.slice(0, 5)}01-01`, to: today };
  }
}

/** The quick range these dates are, if any (its button shows as chosen). */
export function currentQuickRange(f: Pick<ReportFilters, 'from' | 'to'>, today: string): QuickRange | null {
  return QUICK_RANGES.find((k) => {
    const r = quickRange(k, today);
    return r.from === f.from && r.to === f.to;
  }) ?? null;
}

/**
 * The filters of the address (`?from=&to=&by=&currency=`): a date that is not a real
 * `YYYY-MM-DD` is the default's (the last 30 days ending today), an unknown grouping is `day`.
 * The range itself is the server's to judge (47: `to` before `from`, more than ten years).
 */
export function parseFilters(params: URLSearchParams, today: string): ReportFilters {
  const fallback = quickRange('30d', today);
  const date = (name: 'from' | 'to') => {
    const v = params.get(name)?.trim() ?? '';
    return dayNumber(v) !== null ? v : fallback[name];
  };
  const by = params.get('by');
  const currency = (params.get('currency') ?? '').trim().toUpperCase();
  return {
    from: date('from'),
    to: date('to'),
    by: (GROUPINGS as readonly string[]).includes(by ?? '') ? (by as Grouping) : 'day',
    currency: /^[A-Z]{3,5}$/.test(currency) ? currency : '',
  };
}

/** The query string of the report's filters (and the CSV format). */
export function reportQuery(f: ReportFilters, format?: 'csv'): string {
  const q = new URLSearchParams({ from: f.from, to: f.to, by: f.by });
  if (f.currency) q.set('currency', f.currency);
  if (format) q.set('format', format);
  return q.toString();
}

/** `GET /api/admin/reports` with these filters (`format=csv`: the file). */
export const reportPath = (f: ReportFilters, format?: 'csv') => `/api/admin/reports?${reportQuery(f, format)}`;

/** The amounts of a report line, as the page shows and sorts them. */
export const MONEY_FIELDS = ['ggr', 'ngr', 'stakes', 'wins', 'bonusCost', 'deposits', 'withdrawals'] as const;
export type MoneyField = (typeof MONEY_FIELDS)[number];

/** An amount of a line in exact minor units (an amount the API never sends as a number counts 0). */
export const minorOf = (line: ReportLine, field: MoneyField): bigint => majorToMinor(line[field], line.currency) ?? 0n;

/** The columns a grouping adds before the figures. */
export function groupColumns(by: Grouping): ('date' | 'product' | 'provider' | 'game')[] {
  switch (by) {
    case 'day':
      return ['date'];
    case 'product':
      return ['product'];
    case 'provider':
      return ['product', 'provider'];
    case 'game':
      return ['product', 'provider', 'game'];
  }
}

export type SortKey = 'date' | 'product' | 'provider' | 'game' | 'currency' | 'bets' | 'activePlayers' | MoneyField;
export type SortDir = 'asc' | 'desc';

/** The keys the table may sort on for a grouping. */
export function sortKeys(by: Grouping): SortKey[] {
  return [...groupColumns(by), 'currency', 'ggr', 'ngr', 'stakes', 'wins', 'bonusCost', 'deposits', 'withdrawals', 'bets', ...(by === 'day' ? (['activePlayers'] as const) : [])];
}

/** The table's first order: the latest day first by day, the largest GGR first otherwise. */
export const defaultSort = (by: Grouping): { key: SortKey; dir: SortDir } => (by === 'day' ? { key: 'date', dir: 'desc' } : { key: 'ggr', dir: 'desc' });

const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rows in the asked order (a copy). Amounts compare as exact minor units, texts in
 * code-point order (ids and dates), ties keep the server's order.
 */
export function sortRows(rows: readonly ReportLine[], key: SortKey, dir: SortDir): ReportLine[] {
  const sign = dir === 'asc' ? 1 : -1;
  const compare = (a: ReportLine, b: ReportLine): number => {
    switch (key) {
      case 'date':
      case 'product':
      case 'provider':
      case 'game':
      case 'currency': {
        const x = a[key] ?? '';
        const y = b[key] ?? '';
        return x < y ? -1 : x > y ? 1 : 0;
      }
      case 'bets':
        return a.bets - b.bets;
      case 'activePlayers':
        return (a.activePlayers ?? 0) - (b.activePlayers ?? 0);
      default:
        return cmpBig(minorOf(a, key), minorOf(b, key));
    }
  };
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => sign * compare(a.row, b.row) || a.i - b.i)
    .map((x) => x.row);
}

export const pageCount = (n: number, size = PAGE_SIZE) => Math.max(1, Math.ceil(n / size));

/** The rows of page `page` (1-based, clamped to the pages there are). */
export function pageOf<T>(rows: readonly T[], page: number, size = PAGE_SIZE): { rows: T[]; page: number; pages: number } {
  const pages = pageCount(rows.length, size);
  const p = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { rows: rows.slice((p - 1) * size, p * size), page: p, pages };
}

/**
 * Active players by day (every currency counts once a day, so a day's figure is taken once
 * however many currency rows it has): the peak, its day, and the average per day (two decimals:
 * one player in a month is 0.03 a day, not 0).
 */
export function activeStats(rows: readonly ReportLine[]): { peak: number; peakDate: string | null; average: number; days: number } {
  const byDay = new Map<string, number>();
  for (const r of rows) if (r.date) byDay.set(r.date, Math.max(byDay.get(r.date) ?? 0, r.activePlayers ?? 0));
  let peak = 0;
  let peakDate: string | null = null;
  let sum = 0;
  for (const [date, n] of [...byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
    sum += n;
    if (n > peak) {
      peak = n;
      peakDate = date;
    }
  }
  const days = byDay.size;
  return { peak, peakDate, average: days ? Math.round((sum * 100) / days) / 100 : 0, days };
}

/** The currency the charts show: the one filtered on, else TND when the report has it, else its first. */
export function chartCurrency(filter: string, totals: readonly ReportLine[]): string | null {
  if (filter) return filter;
  const codes = totals.map((t) => t.currency);
  return codes.includes('TND') ? 'TND' : (codes[0] ?? null);
}

export interface DaySeries {
  /** `YYYY-MM-DD` of each point. */
  days: string[];
  /** Seconds since the epoch at each day's UTC midnight (the charts' x; they print UTC dates). */
  x: number[];
  /** Integer minor units per day (exact below 2^53: nine thousand billion TND). */
  values: Record<MoneyField, number[]>;
}

/** One currency's rows by day as the charts' series, in date order. */
export function daySeries(rows: readonly ReportLine[], currency: string): DaySeries {
  const mine = rows.filter((r) => r.currency === currency && r.date).sort((a, b) => (a.date! < b.date! ? -1 : a.date! > b.date! ? 1 : 0));
  const values = Object.fromEntries(MONEY_FIELDS.map((f) => [f, mine.map((r) => Number(minorOf(r, f)))])) as Record<MoneyField, number[]>;
  return { days: mine.map((r) => r.date!), x: mine.map((r) => (dayNumber(r.date!) ?? 0) * 86_400), values };
}

/** The day with the largest value of a series (its first one on a tie), or null when all are zero. */
export function peakDay(series: DaySeries, field: MoneyField): { date: string; minor: number } | null {
  let best: { date: string; minor: number } | null = null;
  const values = series.values[field];
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!;
    if (v !== 0 && (!best || v > best.minor)) best = { date: series.days[i]!, minor: v };
  }
  return best;
}

/** A line that moved something: a bet, an active player or an amount (a day by day's zero rows did not). */
export const hasActivity = (l: ReportLine) => l.bets !== 0 || (l.activePlayers ?? 0) !== 0 || MONEY_FIELDS.some((f) => minorOf(l, f) !== 0n);

/** Nothing happened in the range: no line moved a figure (by day the zero rows are still there). */
export function isEmptyReport(reply: { rows: readonly ReportLine[]; totals: readonly ReportLine[] }): boolean {
  if (reply.rows.length === 0) return true;
  return !reply.rows.some(hasActivity) && !reply.totals.some(hasActivity);
}

/**
 * A chart axis' figure: minor units written short in the reader's language ("12.3K", "1,2 M"),
 * Latin digits. For the axis only: the exact figures are in the table and the readout.
 */
export function compactMoney(minor: number, currency: string, lang: string): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat(`${(lang || 'en').slice(0, 2)}-u-nu-latn`, { notation: 'compact', maximumFractionDigits: 1 }).format(minor / 10 ** exponent);
}
