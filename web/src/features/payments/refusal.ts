import type { ApiError } from '../../api/types';
import { errorText, type ErrorText } from '../../app/errors';
import { formatMoney } from '../../components/money';

/**
 * The text of a payment refusal with its amounts as money (issue 18 item 13: "wager 97.5",
 * "you can deposit 0 more", "from 10" carried neither the currency nor its decimals). The
 * refusals answer major units without a currency (docs/PAYMENTS.md); the amounts are the
 * player's currency unless the reply names another one. Anything else is `errorText`.
 */
export function paymentRefusal(error: Pick<ApiError, 'code' | 'data'> | undefined, currency: string, lang: string): ErrorText {
  const base = errorText(error);
  if (!error) return base;
  const data = error.data;
  const obj = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const cur = typeof obj.currency === 'string' && obj.currency !== '' ? obj.currency : currency;
  const money = (v: unknown): string | null => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    // Isolated (<bdi>-like) so that "50.000 TND" stays in one piece inside Arabic text.
    return Number.isFinite(n) ? `\u2068${formatMoney(n, cur, lang)}\u2069` : null;
  };
  switch (error.code) {
    case 6252: {
      // The amount still to wager: a number today; an object naming it (and its currency) is read too.
      const left = typeof data === 'number' || typeof data === 'string' ? money(data) : money(obj.amount ?? obj.remaining ?? obj.value);
      return left ? { key: ['errors:6252', ...base.key.slice(1)], params: { value: left } } : base;
    }
    case 120: {
      const remaining = money(obj.remaining);
      return remaining ? { key: ['errors:120-detail', 'errors:120', ...base.key.slice(1)], params: { remaining } } : base;
    }
    case 81:
    case 106: {
      const min = money(obj.min);
      return min ? { key: [`errors:${error.code}-detail`, ...base.key], params: { min } } : base;
    }
    case 83:
    case 84: {
      const max = money(obj.max);
      return max ? { key: [`errors:${error.code}-detail`, ...base.key], params: { max } } : base;
    }
    default:
      return base;
  }
}

/**
 * The amount still to wager before a withdrawal, from a 6252 refusal: `amount` in major units,
 * `currency` when the reply names one. Null for the other 6252 (withdrawals blocked for a while).
 */
export function wagerLeft(error: Pick<ApiError, 'code' | 'data'> | undefined): { amount: number; currency: string | null } | null {
  if (!error || error.code !== 6252) return null;
  const d = error.data;
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
  if (typeof d === 'number' || typeof d === 'string') {
    const n = num(d);
    return Number.isFinite(n) ? { amount: n, currency: null } : null;
  }
  if (typeof d === 'object' && d !== null) {
    const o = d as Record<string, unknown>;
    const n = num(o.amount ?? o.remaining ?? o.value);
    return Number.isFinite(n) ? { amount: n, currency: typeof o.currency === 'string' && o.currency ? o.currency : null } : null;
  }
  return null;
}
