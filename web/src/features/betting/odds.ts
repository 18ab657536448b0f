/**
 * Odds and money on the slip, in integers only: odds in thousandths (1.85 → 1850), money in
 * minor units of the player's currency. Decimal numbers from the API are converted once.
 */

/** Decimal odds from the HTTP API (1.85) → thousandths (1850). */
export const toThousandths = (decimal: number): number => Math.round(decimal * 1000);

/**
 * Odds in a refusal's `changes` may be thousandths (the core's `Odds`) or decimals: decimal odds
 * are at most 1000, thousandths at least 1001, so the two never overlap.
 */
export const oddsFromWire = (value: number): number => (Number.isInteger(value) && value > 1000 ? value : toThousandths(value));

/** 1850 → "1.85", 1875 → "1.875", 2000 → "2.00" (at least two decimals, no float arithmetic). */
export function formatOdds(thousandths: number): string {
  const whole = Math.floor(thousandths / 1000);
  let frac = String(thousandths % 1000).padStart(3, '0');
  if (frac.endsWith('0')) frac = frac.slice(0, 2);
  return `${whole}.${frac}`;
}

/** The express's total odds: ⌊Π odds⌋ in thousandths, as the server computes them. */
export function totalOdds(odds: number[]): number {
  if (odds.length === 0) return 0;
  let acc = 1n;
  for (const o of odds) acc *= BigInt(o);
  return Number(acc / 1000n ** BigInt(odds.length - 1));
}

/** Potential payout in minor units: ⌊stake × Π odds⌋. */
export function potentialPayout(stakeMinor: number, odds: number[]): number {
  if (odds.length === 0 || stakeMinor <= 0) return 0;
  let acc = BigInt(stakeMinor);
  for (const o of odds) acc *= BigInt(o);
  return Number(acc / 1000n ** BigInt(odds.length));
}

/**
 * A typed stake ("12.5", "12,5") → minor units with the currency's `decimals`; null when it is not
 * a positive amount with at most that many decimals.
 */
export function parseStake(text: string, decimals: number): number | null {
  const t = text.trim().replace(',', '.');
  const m = /^(\d{1,9})(?:\.(\d*))?$/.exec(t);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > decimals) return null;
  const minor = Number(m[1]) * 10 ** decimals + Number(frac.padEnd(decimals, '0') || '0');
  return minor > 0 ? minor : null;
}

/** Minor units → the major-unit number the Money component formats (display only). */
export const toMajor = (minor: number, decimals: number): number => minor / 10 ** decimals;

/** Minor units → the decimal string sent as `stake` ("12.500" → 12.5 exactly as typed). */
export const stakeForRequest = (minor: number, decimals: number): number =>
  Number(`${Math.floor(minor / 10 ** decimals)}.${String(minor % 10 ** decimals).padStart(decimals, '0')}`);

/** A decimal JSON number or text (0.33, "1.5") → [mantissa, scale], exactly; null if not one. */
function decimalOf(v: unknown): [bigint, number] | null {
  const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  const m = /^(\d{0,18})(?:\.(\d{0,12}))?$/.exec(text);
  if (!m || (!m[1] && !m[2])) return null;
  const frac = m[2] ?? '';
  return [BigInt(`${m[1] || '0'}${frac}`), frac.length];
}

export interface StakeLimits {
  min: number;
  max: number;
  /** The stake the slip proposes. */
  def: number;
}

/**
 * The slip's stake limits in minor units of `currency`, as the server computes them
 * (crates/betting/src/limits.rs): `limits.bets` (major units of TND) × `inbetKf[currency]`,
 * each rounded down to the currency's minor unit. Null when the settings carry no limits.
 */
export function stakeLimits(settings: unknown, currency: string, decimals: number): StakeLimits | null {
  const s = (settings ?? {}) as { limits?: { bets?: Record<string, unknown> }; inbetKf?: Record<string, unknown> };
  const bets = s.limits?.bets;
  if (!bets) return null;
  const kf = decimalOf(s.inbetKf?.[currency]);
  const [km, ks] = kf && kf[0] > 0n ? kf : [1n, 0];
  const minor = (v: unknown): number | null => {
    const d = decimalOf(v);
    if (!d) return null;
    const millimes = (d[0] * 1000n) / 10n ** BigInt(d[1]);
    return Number((millimes * km * 10n ** BigInt(decimals)) / 10n ** BigInt(3 + ks));
  };
  const min = Math.max(minor(bets.min) ?? 1, 1);
  const max = minor(bets.max);
  if (max === null || max < min) return null;
  const def = Math.min(Math.max(minor(bets.default) ?? min, min), max);
  return { min, max, def };
}

/** Stake presets in minor units: the default and 5, 10 and 50 times it, within the maximum. */
export function stakePresets(limits: StakeLimits | null, decimals: number): number[] {
  const base = limits?.def ?? 10 ** decimals;
  const all = [1, 5, 10, 50].map((k) => base * k).filter((v) => !limits || v <= limits.max);
  return [...new Set(all)];
}
