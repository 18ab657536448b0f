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

/**
 * After a successful sign-in (or phone sign-up): the auth check, then a player becomes
 * signed in, the modal closes, a success notice shows and the language is reapplied.
 * Returns false when the check refused the session (role other than 0: silent logout).
 */
export async function completeSignIn(dispatch: AppDispatch, notice: string | null = 'successAuth'): Promise<boolean> {
  const check = await dispatch(api.endpoints.check.initiate(undefined, { forceRefetch: true, subscribe: false }));
  const user = check.data;
  if (!user) return false;
  if (user.role !== 0) {
    void dispatch(api.endpoints.logout.initiate());
    dispatch(loggedOut());
    return false;
  }
  dispatch(api.util.invalidateTags(['Balance', 'Profile', 'History']));
  dispatch(signedIn(user));
  if (notice) dispatch(addNotification({ text: notice, type: 'success' }));
  const lang = languageOf(i18n.language);
  if (lang) void dispatch(api.endpoints.setLanguage.initiate({ languageId: lang.id }));
  return true;
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
