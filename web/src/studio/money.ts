/**
 * Money of the studio: integer minor units with the currency's exponent (TND: 3, 1500 = 1.500 TND).
 * Never floats: formatting and parsing work on digit strings and BigInt. The number format is the
 * app's one (components/money.ts), so a game shows an amount exactly as the app around it does.
 */
import { formatMinor, separators } from '../components/money';

/** `minor` as a plain decimal string in major units, e.g. (1500, 3) → "1.500", (-5, 2) → "-0.05". */
export function minorToDecimal(minor: number | bigint, exponent: number): string {
  const v = BigInt(minor);
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(exponent + 1, '0');
  const int = digits.slice(0, digits.length - exponent);
  const frac = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${neg ? '-' : ''}${int}${frac}`;
}

/** Localised amount without the currency, grouped: (1234500, 3, 'fr') → "1 234,500" (components/money.ts). */
export { formatMinor };

export function formatMoney(minor: number | bigint, exponent: number, currency: string, locale = 'en'): string {
  return `${formatMinor(minor, exponent, locale)} ${currency}`;
}

/** Compact for chips and buttons: trailing fraction zeros dropped (1500, 3) → "1.5", (100000, 3) → "100". */
export function formatShort(minor: number | bigint, exponent: number, locale = 'en'): string {
  const { decimal } = separators(locale);
  const plain = minorToDecimal(minor, exponent);
  const [int = '0', frac = ''] = plain.split('.');
  const trimmed = frac.replace(/0+$/, '');
  return trimmed ? `${int}${decimal}${trimmed}` : int;
}

/**
 * Parses an amount typed in major units ("1.5", "1,5", "  2 ") into minor units; null if it is not a
 * non-negative amount with at most `exponent` decimals.
 */
export function parseMajor(text: string, exponent: number): number | null {
  const t = text.trim().replace(',', '.');
  const m = /^(\d{1,12})(?:\.(\d*))?$/.exec(t);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > exponent) return null;
  const minor = BigInt(m[1]!) * 10n ** BigInt(exponent) + BigInt(frac.padEnd(exponent, '0') || '0');
  return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor);
}

/** bet × multiplier (hundredths) in minor units, rounded down: integer arithmetic only. */
export function payoutOf(bet: number, multiplierHundredths: number): number {
  return Number((BigInt(bet) * BigInt(multiplierHundredths)) / 100n);
}

/** A multiplier in hundredths as text: 237 → "2.37×". */
export function formatMultiplier(hundredths: number, locale = 'en'): string {
  return `${formatMinor(hundredths, 2, locale)}×`;
}

/**
 * Wraps a number (with its unit) in a left-to-right isolate (U+2066 … U+2069) for use inside a
 * translated sentence: in Arabic "2.60×" or "0.500 TND" then keeps its order and its sign on the
 * right side, whatever surrounds it. In JSX, `<bdi dir="ltr">` does the same.
 */
export function isolate(text: string): string {
  return `\u2066${text}\u2069`;
}
