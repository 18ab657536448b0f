/** A date (epoch milliseconds) in the reader's language, Latin digits, isolated for a sentence. */
export function formatDay(ms: number | null | undefined, lang: string): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return new Intl.DateTimeFormat(`${(lang || 'en').slice(0, 2)}-u-nu-latn`, { dateStyle: 'medium' }).format(new Date(ms));
}

/** Odds as written everywhere in the app: two decimals, dot ("2.20"). */
export const formatOdds = (odds: number) => odds.toFixed(2);
