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
