import { currencyDecimals } from '../../components/money';

/**
 * Money on the payment screens is handled as integer minor units (TND has 3 decimals, USDT 6 in
 * the payment contract); a JSON number is only made at the edge, from the exact decimal string.
 * No arithmetic is ever done on a float amount.
 */

/** The payment contract's exponents (docs/PAYMENTS.md): USDT is 6 there; others as money.ts. */
export function paymentDecimals(currency: string): number {
  return currency === 'USDT' ? 6 : currencyDecimals(currency);
}

export type AmountProblem = 'empty' | 'format' | 'decimals' | 'min' | 'max';

export type ParsedAmount = { ok: true; minor: number } | { ok: false; problem: AmountProblem };

/** Parses what a player typed ("50", "12.5", "12,500") into minor units, exactly. */
export function parseAmount(text: string, decimals: number): ParsedAmount {
  const t = text.trim().replace(/\s/g, '');
  if (t === '') return { ok: false, problem: 'empty' };
  const m = /^(\d+)(?:[.,](\d*))?$/.exec(t);
  if (!m) return { ok: false, problem: 'format' };
  const whole = m[1]!;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return { ok: false, problem: 'decimals' };
  const digits = `${whole}${frac.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return { ok: false, problem: 'max' };
  return { ok: true, minor };
}

/** A major-unit JSON number from settings (a limit, a preset) in minor units: via its decimal text. */
export function minorOf(major: number, decimals: number): number {
  if (!Number.isFinite(major) || major < 0) return 0;
  const [whole, frac = ''] = major.toFixed(decimals).split('.');
  return Number(`${whole}${frac}`);
}

/** The decimal text of minor units ("50.000" for 50000 at 3 decimals). */
export function majorText(minor: number, decimals: number): string {
  const s = String(Math.trunc(Math.abs(minor))).padStart(decimals + 1, '0');
  const whole = decimals === 0 ? s : s.slice(0, s.length - decimals);
  const frac = decimals === 0 ? '' : s.slice(s.length - decimals);
  return `${minor < 0 ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** The JSON number the API takes (major units, at most `decimals` decimals): parsed from exact text. */
export const majorNumber = (minor: number, decimals: number): number => Number(majorText(minor, decimals));

export interface Limit {
  min: number;
  max: number;
}

/** A `{min, max}` from settings (major units) in minor units; missing parts are open. */
export function limitMinor(raw: unknown, decimals: number): { min: number; max: number } {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Limit>;
  const min = typeof r.min === 'number' && r.min > 0 ? minorOf(r.min, decimals) : 1;
  const max = typeof r.max === 'number' && r.max > 0 ? minorOf(r.max, decimals) : Number.MAX_SAFE_INTEGER;
  return { min: Math.max(1, min), max: Math.max(min, max) };
}

/** Checks an amount in minor units against a limit. */
export function checkAmount(parsed: ParsedAmount, limit: { min: number; max: number }): ParsedAmount {
  if (!parsed.ok) return parsed;
  if (parsed.minor < limit.min) return { ok: false, problem: 'min' };
  if (parsed.minor > limit.max) return { ok: false, problem: 'max' };
  return parsed;
}

const LADDER = [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

/** Up to `count` round presets (minor units) inside the limit; at least the minimum. */
export function presets(limit: { min: number; max: number }, decimals: number, count = 6): number[] {
  const inside = LADDER.map((p) => minorOf(p, decimals)).filter((p) => p >= limit.min && p <= limit.max);
  const list = inside.length > 0 ? inside : [limit.min];
  return list.slice(0, count);
}

export type LimitPeriod = 'day' | 'week' | 'month';

/** The deposit limits part of the responsible-gambling reply (major units). */
export interface DepositLimitsLike {
  deposit_limits: Partial<Record<LimitPeriod, { amount?: number | null } | null | undefined>>;
  used: Partial<Record<LimitPeriod, number | null | undefined>>;
}

/**
 * What the deposit limits in force still allow (minor units) and the period that allows the
 * least; null when no limit is set. A pending raise is not in force yet and is ignored.
 */
export function depositAllowance(state: DepositLimitsLike | undefined, decimals: number): { period: LimitPeriod; remaining: number } | null {
  if (!state) return null;
  let best: { period: LimitPeriod; remaining: number } | null = null;
  for (const period of ['day', 'week', 'month'] as const) {
    const limit = state.deposit_limits?.[period];
    if (!limit || typeof limit.amount !== 'number') continue;
    const used = state.used?.[period];
    const remaining = Math.max(0, minorOf(limit.amount, decimals) - minorOf(typeof used === 'number' ? used : 0, decimals));
    if (!best || remaining < best.remaining) best = { period, remaining };
  }
  return best;
}
