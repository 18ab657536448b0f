/** Pure rules of the withdrawal page (tested in logic.test.ts). */

export type StatusFilter = 'all' | 'CREATED' | 'PAID' | 'CANCELED';
export const STATUS_FILTERS: StatusFilter[] = ['all', 'CREATED', 'PAID', 'CANCELED'];

/** Spec §5: the history's defaults; a parameter is sent only when it differs from them. */
export const HISTORY_DEFAULTS = { count: 20, page: 0, statuses: 'all' as StatusFilter };

export interface HistoryParams {
  count?: number;
  page?: number;
  statuses?: StatusFilter;
  dateFrom?: string;
  dateTo?: string;
}

/** The history query string (with its leading `?`, or empty when every value is a default). */
export function historySearch(p: HistoryParams): string {
  const q = new URLSearchParams();
  if (p.count !== undefined && p.count !== HISTORY_DEFAULTS.count) q.set('count', String(p.count));
  if (p.page !== undefined && p.page !== HISTORY_DEFAULTS.page) q.set('page', String(p.page));
  if (p.dateFrom) q.set('date_from', p.dateFrom);
  if (p.dateTo) q.set('date_to', p.dateTo);
  if (p.statuses && p.statuses !== HISTORY_DEFAULTS.statuses) q.set('statuses', p.statuses);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Spec §4 cashier withdrawal status display: PAID completed, CANCELED rejected, CREATED pending. */
export function statusKey(status: string): 'completed' | 'rejected' | 'pending' {
  if (status === 'PAID') return 'completed';
  if (status === 'CANCELED') return 'rejected';
  return 'pending';
}

/** An 8-digit code shown in two groups of four, easier to read aloud at the desk. */
export function groupCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code;
}

export type AmountCheck = { ok: true; value: number } | { ok: false; reason: 'empty' | 'invalid' | 'decimals' | 'min' | 'max' };

/**
 * The amount field before sending: a positive decimal (`,` accepted as the separator) with at
 * most `decimals` digits, within the withdrawal limits when they are known. The server checks
 * again; this only spares a round trip and says why at once.
 */
export function checkAmount(text: string, decimals: number, min?: number, max?: number): AmountCheck {
  const t = text.trim().replace(',', '.');
  if (!t) return { ok: false, reason: 'empty' };
  if (!/^\d+(\.\d+)?$/.test(t)) return { ok: false, reason: 'invalid' };
  const frac = t.split('.')[1] ?? '';
  if (frac.replace(/0+$/, '').length > decimals) return { ok: false, reason: 'decimals' };
  const value = Number(t);
  if (!(value > 0)) return { ok: false, reason: 'invalid' };
  if (min !== undefined && value < min) return { ok: false, reason: 'min' };
  if (max !== undefined && value > max) return { ok: false, reason: 'max' };
  return { ok: true, value };
}

/** `limits.payment.withdrawal` of the settings, when present. */
export function withdrawalLimits(settings: unknown): { min?: number; max?: number } {
  const w = (settings as { limits?: { payment?: { withdrawal?: { min?: unknown; max?: unknown } } } } | undefined)?.limits?.payment
    ?.withdrawal;
  const out: { min?: number; max?: number } = {};
  if (typeof w?.min === 'number') out.min = w.min;
  if (typeof w?.max === 'number') out.max = w.max;
  return out;
}
