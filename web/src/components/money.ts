/** Currencies the API uses that Intl may not know, with their decimals. */
const EXTRA_DECIMALS: Record<string, number> = { USDT: 2, FUN: 2, FNT: 2 };

/** Display aliases (spec §1: FUN and FNT show as RUB). */
export function displayCurrency(code: string): string {
  return code === 'FUN' || code === 'FNT' ? 'RUB' : code;
}

export function currencyDecimals(code: string): number {
  if (code in EXTRA_DECIMALS) return EXTRA_DECIMALS[code]!;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * Formats an amount the API gave in major units with exactly the currency's decimals.
 * Formatting only: no arithmetic is done on the value.
 */
export function formatMoney(amount: number, currency: string, locale = 'en'): string {
  const digits = currencyDecimals(currency);
  const number = new Intl.NumberFormat(`${locale}-u-nu-latn`, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
  return `${number} ${displayCurrency(currency)}`;
}
