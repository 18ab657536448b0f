/*
 * The console's pure rules: which sections a staff member sees, amounts typed by hand, the
 * sign-in's refusals, the bulk decisions' outcomes and the audit trail's paging. No React here.
 */
import { currencyExponent, formatMinor, majorToMinor } from '../components/money';

/** Permission names of `GET /api/admin/me` (crates/server/src/api/staff.rs `Permission::name`). */
export const PERM = {
  auditRead: 'audit.read',
  moneyAdjust: 'money.adjust',
  promotionsManage: 'promotions.manage',
  playersRead: 'players.read',
  playersBan: 'players.ban',
  playersNote: 'players.note',
  withdrawalsDecide: 'withdrawals.decide',
  console: 'console',
  reportsRead: 'reports.read',
} as const;

export type Section = 'players' | 'withdrawals' | 'adjustments' | 'audit' | 'reports';

/** The console's sections in navigation order, each with the permission it needs. */
export const SECTIONS: readonly { id: Section; permission: string }[] = [
  { id: 'players', permission: PERM.playersRead },
  { id: 'withdrawals', permission: PERM.withdrawalsDecide },
  { id: 'adjustments', permission: PERM.moneyAdjust },
  { id: 'audit', permission: PERM.auditRead },
  { id: 'reports', permission: PERM.reportsRead },
];

export const can = (permissions: readonly string[] | undefined, permission: string) => Boolean(permissions?.includes(permission));

/** The sections these permissions open, in navigation order. */
export function sectionsFor(permissions: readonly string[] | undefined): Section[] {
  return SECTIONS.filter((s) => can(permissions, s.permission)).map((s) => s.id);
}

export const sectionPermission = (section: Section) => SECTIONS.find((s) => s.id === section)!.permission;

/** The sign-in's refusals that send the person back to the sign-in page. */
export const SIGNED_OUT_CODES = new Set([23, 142]);

/** What the sign-in form does after a refusal (docs/BACKOFFICE.md "Staff sign-in"). */
export type SignInStep = 'code' | 'enrol' | 'retry';
export function afterSignInError(code: number): SignInStep {
  if (code === 144) return 'enrol';
  if (code === 142 || code === 143) return 'code';
  return 'retry';
}

/** A 6-digit authenticator code from what was typed or pasted ("123 456", "123-456"). */
export function cleanTotp(text: string): string {
  return text.replace(/\D/g, '').slice(0, 6);
}

/** The base32 secret in groups of four, easier to type into an authenticator by hand. */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * An amount typed by hand in the currency's major units ("1500", "1 500,5", "12.345") as exact
 * minor units (never floats). Null when it is not a positive amount with at most the
 * currency's decimals. A comma is the decimal separator when there is no dot.
 */
export function parseAmount(text: string, currency: string): bigint | null {
  const exponent = currencyExponent(currency);
  let t = text.replace(/[\s\u00a0\u202f_]/g, '');
  if (!t.includes('.') && (t.match(/,/g) ?? []).length === 1) t = t.replace(',', '.');
  else t = t.replace(/,/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > exponent) return null;
  const minor = BigInt(m[1]!) * 10n ** BigInt(exponent) + BigInt(frac.padEnd(exponent, '0') || '0');
  return minor > 0n ? minor : null;
}

/** Minor units as the API's signed decimal text ("-1500.000"), in the currency's exponent. */
export function minorToDecimal(minor: bigint, currency: string): string {
  return formatMinor(minor, currencyExponent(currency), 'en').replace(/,/g, '');
}

/** UTF-8 length: the server counts a reason's bytes in places (`len()` in Rust). */
export const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** A staff reason: 1 to 500 characters (and bytes) once trimmed. */
export const validReason = (text: string) => {
  const t = text.trim();
  return t.length > 0 && utf8Length(t) <= 500;
};

export interface DecideSummary {
  decided: number[];
  refused: { id: number; status: number; message: string | null }[];
}

/** The bulk answer split into the ids decided and the ids refused with their codes. */
export function summariseDecisions(outcomes: readonly { id: number; status: number; errorMessage?: string | null }[]): DecideSummary {
  const decided: number[] = [];
  const refused: DecideSummary['refused'] = [];
  for (const o of outcomes) {
    if (o.status === 0) decided.push(o.id);
    else refused.push({ id: o.id, status: o.status, message: o.errorMessage ?? null });
  }
  return { decided, refused };
}

/** Risk signals worth a second look (the queue highlights them). */
export function riskFlags(
  s: {
    accountAgeDays: number;
    deposited: number;
    withdrawn: number;
    withdrawals24h: number;
    otherAccountsAtAddresses: number;
    openBonus: boolean;
  },
  amount: number,
  currency: string,
): string[] {
  const flags: string[] = [];
  if (s.accountAgeDays < 7) flags.push('newAccount');
  if (s.otherAccountsAtAddresses > 0) flags.push('sharedAddress');
  if (s.openBonus) flags.push('openBonus');
  if (s.withdrawals24h > 1) flags.push('manyWithdrawals');
  // This withdrawal with the ones paid before it, against the deposits: exact minor units.
  const withdrawn = majorToMinor(s.withdrawn, currency);
  const asked = majorToMinor(amount, currency);
  const deposited = majorToMinor(s.deposited, currency);
  if (withdrawn !== null && asked !== null && deposited !== null && withdrawn + asked > deposited) flags.push('aboveDeposits');
  return flags;
}

/**
 * The audit trail's pages (cursor `before`, newest first): the cursors of the pages seen before
 * this one (0: the newest page), so "newer" steps back without asking the server. Kept in the
 * URL as `trail`.
 */
export function parseTrail(text: string | null): number[] {
  if (!text) return [];
  return text
    .split(',')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : NaN))
    .filter((n) => Number.isSafeInteger(n) && n >= 0);
}

/** The page after this one: its cursor, and this page's cursor added to the trail. */
export function olderPage(before: number | null, trail: number[], nextBefore: number) {
  return { before: nextBefore, trail: [...trail, before ?? 0] };
}

/** The page before this one (from the trail); null on the newest page. */
export function newerPage(trail: number[]): { before: number | null; trail: number[] } | null {
  if (trail.length === 0) return null;
  const last = trail[trail.length - 1]!;
  return { before: last === 0 ? null : last, trail: trail.slice(0, -1) };
}

/** A player id named by an audit subject (`user:42`), else null. */
export function subjectUserId(subject: string): number | null {
  const m = /^user:(\d+)$/.exec(subject);
  return m ? Number(m[1]) : null;
}

/** Before and after of an audit row's details, when it recorded them. */
export function beforeAfter(details: unknown): { before: unknown; after: unknown } | null {
  if (typeof details !== 'object' || details === null) return null;
  const d = details as Record<string, unknown>;
  return 'before' in d || 'after' in d ? { before: d.before, after: d.after } : null;
}

/** The language's tag with Latin digits, as the whole app writes numbers and dates. */
export const latn = (lang: string) => `${(lang || 'en').slice(0, 2)}-u-nu-latn`;

/** A time (ms since the epoch, or an API date text) in the reader's language; "—" when there is none. */
export function formatTime(value: number | string | null | undefined, lang: string): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = typeof value === 'number' ? new Date(value) : new Date(value.includes('T') || !value.includes(' ') ? value : value.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(latn(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The player's name, else their e-mail or phone, else their id. */
export const playerName = (p: { id: number; firstName: string; lastName: string; email?: string | null; phone?: string | null }) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || p.email || (p.phone ? `+${p.phone.replace(/^\+/, '')}` : `#${p.id}`);

/** A name, e-mail or phone placed inside a translated sentence: isolated, so Arabic keeps its order. */
export const isolate = (text: string) => `\u2068${text}\u2069`;

/** The colour of a payment's or a request's status. */
export function statusTone(status: string): 'ok' | 'danger' | 'warn' | 'neutral' {
  const s = status.toLowerCase();
  if (s === 'succeeded' || s === 'paid' || s === 'approved' || s === 'done') return 'ok';
  if (s === 'failed' || s === 'cancelled' || s === 'canceled' || s === 'expired' || s === 'rejected') return 'danger';
  if (s === 'review' || s === 'pending' || s === 'created') return 'warn';
  return 'neutral';
}

