import type { ApiError } from '../../api/types';
import { errorText, type ErrorText } from '../../app/errors';
import { formatMoney } from '../../components/money';

/**
 * A withdrawal refusal's text with its amounts as money in the player's currency (issue 18
 * item 13): 6252 the amount still to wager, 106 the minimum, 84 the maximum. The refusals
 * answer major units (docs/PAYMENTS.md); a reply naming its currency is followed. The payments
 * feature has the same rule for its screens (features do not import each other).
 */
export function withdrawalRefusal(error: Pick<ApiError, 'code' | 'data'> | undefined, currency: string, lang: string): ErrorText {
  const base = errorText(error);
  if (!error) return base;
  const obj = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as Record<string, unknown>;
  const cur = typeof obj.currency === 'string' && obj.currency !== '' ? obj.currency : currency;
  const money = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `\u2068${formatMoney(v, cur, lang)}\u2069` : null);
  if (error.code === 6252) {
    const left = wagerLeft(error);
    return left ? { key: ['errors:6252', ...base.key.slice(1)], params: { value: money(left.amount)! } } : base;
  }
  if (error.code === 106 && money(obj.min)) return { key: ['errors:106-detail', ...base.key], params: { min: money(obj.min)! } };
  if (error.code === 84 && money(obj.max)) return { key: ['errors:84-detail', ...base.key], params: { max: money(obj.max)! } };
  return base;
}

/** The amount still to wager of a 6252 refusal (a number, or an object naming it); null for a block. */
export function wagerLeft(error: Pick<ApiError, 'code' | 'data'> | undefined): { amount: number; currency: string | null } | null {
  if (!error || error.code !== 6252) return null;
  const d = error.data;
  if (typeof d === 'number') return Number.isFinite(d) ? { amount: d, currency: null } : null;
  if (typeof d === 'object' && d !== null) {
    const o = d as Record<string, unknown>;
    const v = o.amount ?? o.remaining ?? o.value;
    if (typeof v === 'number' && Number.isFinite(v)) {
      return { amount: v, currency: typeof o.currency === 'string' && o.currency ? o.currency : null };
    }
  }
  return null;
}
