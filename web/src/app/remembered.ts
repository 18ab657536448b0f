import { api } from '../api/api';
import { restored, type AuthState, type RememberedSession } from './authSlice';
import type { AppStore } from './store';

/**
 * The last signed-in player, remembered across reloads so that a reload of a signed-in page
 * never shows the guest header: id, login, names, role, real balance and currency, and when the
 * server last confirmed them. Never the session token (an HttpOnly cookie the app cannot read)
 * nor anything else secret. The app shows it at once and confirms it with the server straight
 * away (app/startup.ts); a refused session, a logout or a ban drops it, another user replaces it.
 */
export const REMEMBERED_KEY = 'carthage.session';
/** Older records are not shown (the server's session is long gone by then). */
export const REMEMBERED_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const optionalString = (v: unknown) => v === undefined || isString(v);

/** The stored record, when there is one, well formed, of a player and recent enough. */
export function readRemembered(now = Date.now()): RememberedSession | null {
  const raw = storage()?.getItem(REMEMBERED_KEY);
  if (!raw) return null;
  let r: Partial<Record<keyof RememberedSession, unknown>>;
  try {
    r = JSON.parse(raw) as typeof r;
  } catch {
    return null;
  }
  if (!r || typeof r !== 'object') return null;
  const b = r.balance as { balance?: unknown; currency?: unknown } | null | undefined;
  const balanceOk = b === null || (!!b && typeof b === 'object' && Number.isFinite(b.balance) && isString(b.currency));
  const ok =
    Number.isSafeInteger(r.id) &&
    isString(r.login) &&
    optionalString(r.firstName) &&
    optionalString(r.lastName) &&
    r.role === 0 &&
    balanceOk &&
    typeof r.at === 'number' &&
    now - r.at < REMEMBERED_MAX_AGE_MS &&
    r.at <= now + 60_000;
  return ok ? (r as RememberedSession) : null;
}

/** The record for a signed-in player whose user the server confirmed; null otherwise. */
export function recordOf(auth: AuthState, now = Date.now()): RememberedSession | null {
  const { user, balance } = auth;
  if (!auth.isAuth || auth.remembered || !user || user.role !== 0) return null;
  return {
    id: user.id,
    login: user.login,
    ...(user.firstName ? { firstName: user.firstName } : {}),
    ...(user.lastName ? { lastName: user.lastName } : {}),
    role: 0,
    balance: balance ? { balance: balance.balance, currency: balance.currency } : null,
    at: now,
  };
}

/**
 * Shows the remembered player (if any) at once, then keeps the record in step with the store:
 * written when the server's user or balance changes, removed once the app is a guest.
 */
export function rememberSession(store: AppStore) {
  const stored = readRemembered();
  if (stored) {
    store.dispatch(restored(stored));
    // Confirm at once, before the first render: the session check and the balance start while the
    // locale and route chunks load (app/startup.ts's hooks then share these requests).
    void store.dispatch(api.endpoints.check.initiate(undefined, { subscribe: false }));
    void store.dispatch(api.endpoints.balance.initiate(undefined, { subscribe: false }));
  } else storage()?.removeItem(REMEMBERED_KEY);

  let last: string | null = stored ? JSON.stringify({ ...stored, at: 0 }) : null;
  let lastAuth = store.getState().auth;
  store.subscribe(() => {
    const auth = store.getState().auth;
    if (auth === lastAuth) return;
    lastAuth = auth;
    const s = storage();
    if (!s) return;
    if (!auth.isAuth) {
      if (last !== null) {
        s.removeItem(REMEMBERED_KEY);
        last = null;
      }
      return;
    }
    const record = recordOf(auth);
    if (!record) return;
    const key = JSON.stringify({ ...record, at: 0 });
    if (key === last) return;
    last = key;
    try {
      s.setItem(REMEMBERED_KEY, JSON.stringify(record));
    } catch {
      /* storage full or refused: the next reload shows the guest header until the check */
    }
  });
}
