/** A date (epoch milliseconds) in the reader's language, Latin digits, isolated for a sentence. */
export function formatDay(ms: number | null | undefined, lang: string): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return new Intl.DateTimeFormat(`${(lang || 'en').slice(0, 2)}-u-nu-latn`, { dateStyle: 'medium' }).format(new Date(ms));
}

/** Odds as written everywhere in the app: two decimals, dot ("2.20"). */
export const formatOdds = (odds: number) => odds.toFixed(2);

const locale = (lang: string) => `${(lang || 'en').slice(0, 2)}-u-nu-latn`;

/** A rate in basis points as a percentage in the reader's language ("5%", French "5 %"). */
export function percentText(bps: number, lang: string): string {
  return new Intl.NumberFormat(locale(lang), { style: 'percent', maximumFractionDigits: 2 }).format(bps / 10_000);
}

/** A moment (epoch ms) as a weekday, date and time in a time zone (the operator's: payments). */
export function zonedDateTime(ms: number, zone: string, lang: string): string {
  const opts: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  try {
    return new Intl.DateTimeFormat(locale(lang), { ...opts, timeZone: zone }).format(new Date(ms));
  } catch {
    return new Intl.DateTimeFormat(locale(lang), opts).format(new Date(ms));
  }
}

/** A date and time (epoch ms) in the reader's language, Latin digits. */
export function formatDayTime(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(locale(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}
