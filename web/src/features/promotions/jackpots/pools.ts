import type { TFunction } from 'i18next';
import type { JackpotView } from '../api';

/** A pool's name in the reader's language (the API's names are English; the history's lower-case). */
export function poolName(t: TFunction, name: string): string {
  const key = name.trim().toLowerCase();
  return t(`promotions:jackpots.pools.${key}`, { defaultValue: name });
}

/** The pool a history item belongs to (it carries the pool's name in lower case, spec §3). */
export function poolOf(pools: JackpotView[] | undefined, name: string): JackpotView | undefined {
  const key = name.trim().toLowerCase();
  return pools?.find((p) => p.name.toLowerCase() === key || p.pool.toLowerCase() === key);
}

/** A masked id (digits and asterisks) kept left-to-right inside a sentence (Arabic included). */
export const ltr = (text: string) => `\u2066${text}\u2069`;
