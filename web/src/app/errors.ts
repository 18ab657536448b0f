import { BAD_RESPONSE, NETWORK_ERROR } from '../api/envelope';
import type { ApiError } from '../api/types';
import { moneyText } from '../components/money';
import { i18n } from './i18n';

export interface ErrorText {
  key: string[];
  params?: Record<string, string>;
}

/** What the caller knows that a refusal may not say: the player's currency. */
export interface ErrorContext {
  currency?: string | null | undefined;
}

/** Codes with their own message in locales/{en,fr,ar}/errors.json (a test keeps them in step). */
export const MESSAGE_CODES = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
  27, 28, 29, 30, 31, 32, 33, 36, 37, 40, 41, 42, 43, 44, 45, 46, 47, 48, 60, 61, 62, 63, 64, 65,
  66, 67, 68, 69, 70, 71, 72, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 95, 96, 97, 98,
  99, 101, 102, 103, 105, 106, 110, 111, 112, 113, 120, 121, 122, 123, 130, 131, 132, 140, 141, 142, 143, 144, 145, 231, 501, 506, 507, 508,
  600, 601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611, 612, 613, 614, 615, 616, 617, 999,
  1000, 1489, 2200, 2201, 2202, 2203, 2204, 2205, 2206, 2207, 2208, 2209, 2210, 2211, 2212, 2213,
  2214, 2215, 3301, 6252,
];
const known = new Set(MESSAGE_CODES.map(String));

/**
 * The message of a failed call (spec §8): by code, with the bet (600–702) and promo code
 * (2200–2215) ranges, 6252 with the amount still to wager, and "Request execution failed."
 * otherwise. Amounts in a message carry their currency and its decimals in the reader's number
 * format (components/money.ts): the refusal's own currency when it names one, else the player's
 * (`context.currency`); an amount with no currency to show is left out (the plain message).
 */
export function errorText(error: Pick<ApiError, 'code' | 'data'> | undefined, fallback = 'default', context: ErrorContext = {}): ErrorText {
  const last = [`errors:${fallback}`, 'errors:default'];
  if (!error) return { key: last };
  const { code, data } = error;
  if (code === NETWORK_ERROR || code === BAD_RESPONSE) return { key: ['errors:network', ...last] };
  if (code === 6252) {
    const left = amountOf(data, ['amount', 'value', 'remaining', 'left'], context);
    if (left) return { key: ['errors:6252', ...last], params: { value: left } };
    // An amount with no currency to show it in: the requirement without the figure.
    if (isAmount(data) || amountOf(data, ['amount', 'value', 'remaining', 'left'], { currency: 'XXX' })) {
      return { key: ['errors:6252-wager', ...last] };
    }
    return { key: ['errors:6252-1', ...last] };
  }
  const rg = rgErrorText(code, data, last, context);
  if (rg) return rg;
  if (known.has(String(code))) return { key: [`errors:${code}`, ...last] };
  if (code >= 600 && code <= 702) return { key: ['errors:bet', ...last] };
  if (code >= 2200 && code <= 2215) return { key: ['errors:promocode', ...last] };
  return { key: last };
}

const isAmount = (v: unknown): v is number | string =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()));

/**
 * An amount a refusal carries, formatted with its currency: the data itself (a number: the
 * player's currency) or its first `fields` that is one, with the data's `currency` if it has one.
 * `{amount, currency}` objects inside the field are read too. Null when there is no amount or no
 * currency to show it in.
 */
function amountOf(data: unknown, fields: string[], context: ErrorContext): string | null {
  const lang = i18n.language || 'en';
  const own = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null;
  const currencyOf = (v: unknown) => (typeof v === 'string' && /^[A-Z]{3,5}$/i.test(v) ? v.toUpperCase() : null);
  const fallbackCurrency = currencyOf(own?.currency) ?? currencyOf(context.currency);
  let value: unknown = own ? fields.map((f) => own[f]).find((v) => v !== undefined) : data;
  let currency = fallbackCurrency;
  if (typeof value === 'object' && value !== null) {
    const inner = value as Record<string, unknown>;
    currency = currencyOf(inner.currency) ?? currency;
    value = inner.amount ?? inner.value;
  }
  if (!isAmount(value) || !currency) return null;
  return moneyText(value, currency, lang);
}

export function isApiError(e: unknown): e is ApiError {
  return typeof e === 'object' && e !== null && typeof (e as ApiError).code === 'number';
}

/**
 * Responsible gambling (120–122): the limit's remaining amount, the end of a self-exclusion
 * or cool-off in the reader's language; the plain message when the data is missing.
 */
function rgErrorText(code: number, data: unknown, last: string[], context: ErrorContext): ErrorText | null {
  if (code !== 120 && code !== 121 && code !== 122) return null;
  const d = (typeof data === 'object' && data !== null ? data : {}) as { until?: unknown; remaining?: unknown };
  if (code === 120) {
    const remaining = amountOf(data, ['remaining'], context);
    if (remaining) return { key: ['errors:120-detail', 'errors:120', ...last], params: { remaining } };
    return { key: ['errors:120', ...last] };
  }
  if (typeof d.until === 'string' && !Number.isNaN(Date.parse(d.until))) {
    const until = new Intl.DateTimeFormat(i18n.language || 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(d.until));
    return { key: [`errors:${code}-until`, `errors:${code}`, ...last], params: { until: `\u2068${until}\u2069` } };
  }
  return { key: [`errors:${code}`, ...last] };
}
