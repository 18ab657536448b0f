import type { TFunction } from 'i18next';

/**
 * The live clock in the app's language. The feed names periods in its own vocabulary (the
 * simulator's, docs/SPORTSBOOK.md "The feed format": `1st half`, `2nd period`, `Q3`, `OT1`,
 * `Half-time`, `Break`, `End`, `Set 2`, `Game 4`), followed by the minutes played; a period this
 * list does not know (a real feed's own text) is shown as sent.
 */
export function clockLabel(clock: string, t: TFunction): string {
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/^(1st|2nd) half\b/, (m) => t(`clock.half_${m[1]![0]}`)],
    [/^(1st|2nd|3rd) period\b/, (m) => t(`clock.period_${m[1]![0]}`)],
    [/^Q([1-4])\b/, (m) => t('clock.quarter', { n: Number(m[1]) })],
    [/^OT(\d+)\b/, (m) => t('clock.overtime', { n: Number(m[1]) })],
    [/^Half-time\b/, () => t('clock.halftime')],
    [/^Break\b/, () => t('clock.break')],
    [/^End\b/, () => t('clock.end')],
    [/^Set (\d+)\b/, (m) => t('clock.set', { n: Number(m[1]) })],
    [/^Game (\d+)\b/, (m) => t('clock.game', { n: Number(m[1]) })],
  ];
  for (const [re, label] of rules) {
    const m = clock.match(re);
    if (m) return `${label(m)}${clock.slice(m[0].length)}`;
  }
  return clock;
}
