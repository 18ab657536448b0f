import { api } from '../api/api';
import type { ApiError } from '../api/types';
import { loggedOut, signedIn } from './authSlice';
import { i18n, languageOf, storeLanguage, type LanguageCode } from './i18n';
import { addNotification } from './notificationsSlice';
import type { AppDispatch } from './store';

/** Applies a language: i18next (html lang/dir follow), storage and the platform (spec §7 SetLanguage). */
export async function changeLanguage(dispatch: AppDispatch, code: LanguageCode) {
  storeLanguage(code);
  await i18n.changeLanguage(code);
  const lang = languageOf(code);
  if (lang) void dispatch(api.endpoints.setLanguage.initiate({ languageId: lang.id }));
}

/** How a sign-in ended: a player is in; `role` is set when another role was signed out. */
export type SignInOutcome = { ok: true } | { ok: false; role: number | null };

/**
 * After a successful sign-in (or phone sign-up): the auth check, then a player becomes
 * signed in, the modal closes, a success notice shows and the language is reapplied.
 * Another role (partner, cashier, super agent, admin) may not stay signed in to the
 * player app (spec §4 "Auth"): its session is ended and its role returned, for the form
 * to say where that account's tools are.
 */
export async function completeSignIn(dispatch: AppDispatch, notice: string | null = 'successAuth'): Promise<SignInOutcome> {
  const check = await dispatch(api.endpoints.check.initiate(undefined, { forceRefetch: true, subscribe: false }));
  const user = check.data;
  if (!user) return { ok: false, role: null };
  if (user.role !== 0) {
    await dispatch(api.endpoints.logout.initiate());
    dispatch(loggedOut());
    return { ok: false, role: user.role };
  }
  dispatch(api.util.invalidateTags(['Balance', 'Profile', 'History']));
  dispatch(signedIn(user));
  if (notice) dispatch(addNotification({ text: notice, type: 'success' }));
  const lang = languageOf(i18n.language);
  if (lang) void dispatch(api.endpoints.setLanguage.initiate({ languageId: lang.id }));
  return { ok: true };
}

export async function logout(dispatch: AppDispatch, silent = false) {
  await dispatch(api.endpoints.logout.initiate());
  // Signed-in queries stop (their hooks skip); the next sign-in invalidates their data.
  dispatch(loggedOut());
  if (!silent) dispatch(addNotification({ text: 'logoutSuccess', type: 'success' }));
}

/** `log`/`pas` query values: a list of character codes ("104,105" → "hi"). */
export function decodeCharCodes(value: string): string {
  const codes = value.match(/\d+/g) ?? [];
  return codes.map((c) => String.fromCharCode(Number(c))).join('');
}

/** A login is a phone when it has neither @ nor a dot; a leading + is stripped (spec §5). */
export function normalizeLogin(login: string): string {
  const trimmed = login.trim();
  const isPhone = !trimmed.includes('@') && !trimmed.includes('.');
  return isPhone ? trimmed.replace(/^\+/, '') : trimmed;
}

export type { ApiError };
