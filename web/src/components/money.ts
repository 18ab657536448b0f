/**
 * Money shown to the player: one format everywhere (issue 18). An amount carries its currency's
 * exponent (TND 3 decimals, PYG 0, USDT 6: the platform's table, crates/kernel/src/money.rs) and
 * its currency code, and is written in the language's number format — French "1 234,500 TND",
 * English and Arabic "1,234.500 TND" (Latin digits, as the whole app writes numbers). Nothing here
 * computes in floating point: amounts become exact integer minor units (BigInt) from the API's
 * major-unit numbers or decimal strings, and are written digit by digit.
 *
 *   formatMinorMoney(1234500, 'TND', 'fr')  → "1 234,500 TND"   (minor units: the studio, the ledger)
 *   formatMoney(97.5, 'TND', 'en')          → "97.500 TND"      (major units: the player API's replies)
 *   moneyText(97.5, 'TND', 'ar')            → the same, isolated left-to-right for a translated sentence
 */

/** Exponents of the platform's currencies (crates/kernel/src/money.rs) and the display aliases. */
const EXPONENTS: Record<string, number> = {
  TND: 3,
  PYG: 0,
  USDT: 6,
  TMT: 2,
  HTG: 2,
  RUB: 2,
  USD: 2,
  EUR: 2,
  FUN: 2,
  FNT: 2,
};

/** Display aliases (spec §1: FUN and FNT show as RUB). */
export function displayCurrency(code: string): string {
  return code === 'FUN' || code === 'FNT' ? 'RUB' : code;
}

/** The currency's minor-unit exponent: the platform's table, else ISO 4217 as Intl knows it, else 2. */
export function currencyExponent(code: string): number {
  const known = EXPONENTS[code.toUpperCase()];
  if (known !== undefined) return known;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Same as [currencyExponent] (the name the features use). */
export const currencyDecimals = currencyExponent;

const separatorCache = new Map<string, { group: string; decimal: string }>();

/** The language's group and decimal separators, Latin digits ("fr" → narrow no-break space and comma). */
export function separators(locale: string): { group: string; decimal: string } {
  const lang = (locale || 'en').slice(0, 2).toLowerCase();
  let seps = separatorCache.get(lang);
  if (!seps) {
    let parts: Intl.NumberFormatPart[];
    try {
      parts = new Intl.NumberFormat(`${lang}-u-nu-latn`).formatToParts(1234567.5);
    } catch {
      parts = new Intl.NumberFormat('en').formatToParts(1234567.5);
    }
    seps = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    };
    separatorCache.set(lang, seps);
  }
  return seps;
}

/**
 * A major-unit amount as the API gives it (a JSON number such as 97.5 or 12.345, or a decimal
 * string "-0.001") in exact minor units; null when it is not a finite amount. More decimals than
 * the currency has are rounded half away from zero, on the digits.
 */
export function majorToMinor(amount: number | string, currency: string): bigint | null {
  const exponent = currencyExponent(currency);
  let text: string;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    // The shortest text that reads back as this number (what the JSON said); no arithmetic.
    text = String(amount);
    if (/e/i.test(text)) text = Number.isInteger(amount) ? BigInt(amount).toString() : amount.toFixed(Math.min(20, exponent + 1));
  } else {
    text = amount.trim();
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (!m[2] && !m[3])) return null;
  const neg = m[1] === '-';
  const int = m[2] || '0';
  const frac = m[3] ?? '';
  let minor = BigInt(int) * 10n ** BigInt(exponent) + BigInt(frac.slice(0, exponent).padEnd(exponent, '0') || '0');
  const next = frac.charCodeAt(exponent) - 48;
  if (next >= 5 && next <= 9) minor += 1n;
  return neg && minor !== 0n ? -minor : minor;
}

/** Minor units as a grouped decimal in the language's format, without the currency: "1 234,500". */
export function formatMinor(minor: number | bigint, exponent: number, locale = 'en'): string {
  const { group, decimal } = separators(locale);
  const v = BigInt(minor);
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(exponent + 1, '0');
  const int = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const frac = exponent > 0 ? `${decimal}${digits.slice(digits.length - exponent)}` : '';
  return `${neg ? '-' : ''}${int}${frac}`;
}

/**
 * THE money format: integer minor units with the currency's exponent and its code, in the
 * language's format — (1234500, 'TND', 'fr') → "1 234,500 TND", (-15000, 'TND', 'en') → "-15.000 TND".
 */
export function formatMinorMoney(minor: number | bigint, currency: string, locale = 'en'): string {
  return `${formatMinor(minor, currencyExponent(currency), locale)} ${displayCurrency(currency)}`;
}

/**
 * A major-unit amount from the API (number or decimal string) in the money format: (97.5, 'TND',
 * 'en') → "97.500 TND". An amount that is not a number is shown as it came, with the code.
 */
export function formatMoney(amount: number | string, currency: string, locale = 'en'): string {
  const minor = majorToMinor(amount, currency);
  if (minor === null) return `${String(amount)} ${displayCurrency(currency)}`;
  return formatMinorMoney(minor, currency, locale);
}

/**
 * The money format wrapped in a left-to-right isolate (U+2066 … U+2069), for an amount placed
 * inside a translated sentence: in Arabic "97.500 TND" keeps its order and its minus sign.
 */
export function moneyText(amount: number | string, currency: string, locale = 'en'): string {
  return `\u2066${formatMoney(amount, currency, locale)}\u2069`;
}
