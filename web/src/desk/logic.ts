/** Pure rules of the desk (tested in logic.test.ts). */

/** `YYYY-MM-DD` of a date in the desk's local time (the report's default range is today). */
export function isoDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The payout code as typed (spaces and dashes allowed) when it is 8 digits, else null. */
export function cleanCode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{8}$/.test(digits) ? digits : null;
}

/** A positive amount with at most `decimals` decimals (`,` accepted), else null. */
export function parseAmount(input: string, decimals: number): number | null {
  const t = input.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  if ((t.split('.')[1] ?? '').replace(/0+$/, '').length > decimals) return null;
  const v = Number(t);
  return v > 0 ? v : null;
}

export type DeskTab = 'deposit' | 'payout' | 'report' | 'network';

/** The desk's tabs: the network tab for super agents only. */
export function tabsFor(role: string): DeskTab[] {
  return role === 'super_agent' ? ['deposit', 'payout', 'report', 'network'] : ['deposit', 'payout', 'report'];
}
