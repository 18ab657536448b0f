/** Pure rules of the crash client: what the main button means, and the auto cash-out field. */
import type { CrashPhase } from './crashSocket';

/**
 * The auto cash-out the server accepts, in hundredths (crates/games/src/crash/mod.rs: a bet's
 * `autoCashOut` must be an integer 101 ..= 100,000,000, i.e. 1.01× to 1,000,000×; anything else is
 * refused with 68 or 40).
 */
export const AUTO_MIN = 101;
export const AUTO_MAX = 100_000_000;
/** Digits before the separator that can still be within AUTO_MAX (1000000). */
const AUTO_INT_DIGITS = 7;

/**
 * What the main button does now. Its label follows from this; the action guard watches it (the
 * cash-out amount in the label changes every tick, the meaning does not).
 */
export type ActionKind = 'cashout' | 'placed' | 'queued' | 'bet' | 'betNext';

export function actionKindOf(s: { phase: CrashPhase | null; hasActiveBet: boolean; cashedOut: boolean; queued: boolean }): ActionKind {
  if (s.phase === 'running' && s.hasActiveBet && !s.cashedOut) return 'cashout';
  if (s.phase === 'betting' && s.hasActiveBet) return 'placed';
  if (s.queued) return 'queued';
  if (s.phase === 'betting') return 'bet';
  return 'betNext';
}

/** Arabic-Indic and extended (Persian) digits and the Arabic decimal separator, to ASCII. */
function asciiDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\u066B/g, '.');
}

/**
 * The field's new text if `typed` is still a multiplier being written — digits, at most one
 * decimal separator ("." or ","), at most 2 decimals, at most 7 integer digits — else null (the
 * keystroke or paste is refused and the field keeps its text). Arabic-Indic digits are accepted
 * and shown as ASCII digits. Being in range is checked separately: "1" is on its way to "1.50".
 */
export function acceptAutoText(typed: string): string | null {
  const text = asciiDigits(typed);
  return new RegExp(`^\\d{0,${AUTO_INT_DIGITS}}(?:[.,]\\d{0,2})?$`).test(text) ? text : null;
}

/** The field's value in hundredths when it is a complete multiplier the server accepts, else null. */
export function autoValueOf(text: string): number | null {
  const m = /^(\d{1,7})(?:[.,](\d{0,2}))?$/.exec(asciiDigits(text).trim());
  if (!m) return null;
  const value = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return value >= AUTO_MIN && value <= AUTO_MAX ? value : null;
}
