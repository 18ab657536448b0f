import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/api';
import { mockApi, ok, testBalance, testUser } from '../test/render';
import { loggedOut, selectFullBalance, signedIn } from './authSlice';
import { readRemembered, recordOf, REMEMBERED_KEY, REMEMBERED_MAX_AGE_MS, rememberSession } from './remembered';
import { makeStore } from './store';

const stored = () => JSON.parse(localStorage.getItem(REMEMBERED_KEY) ?? 'null') as Record<string, unknown> | null;
const record = (over: Record<string, unknown> = {}) => ({
  id: 7,
  login: 'p@c.tn',
  role: 0,
  balance: { balance: 123.5, currency: 'TND' },
  at: Date.now() - 1000,
  ...over,
});
const fail = (status: number) => ({ status, result: null, error_message: 'x' });

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('remembered session record', () => {
  it('reads only a well-formed, recent record of a player', () => {
    localStorage.setItem(REMEMBERED_KEY, JSON.stringify(record()));
    expect(readRemembered()).toMatchObject({ id: 7, login: 'p@c.tn', balance: { balance: 123.5 } });
    for (const bad of [
      record({ role: 1 }),
      record({ id: '7' }),
      record({ balance: { balance: 'lots', currency: 'TND' } }),
      record({ at: Date.now() - REMEMBERED_MAX_AGE_MS - 1 }),
      record({ login: undefined }),
    ]) {
      localStorage.setItem(REMEMBERED_KEY, JSON.stringify(bad));
      expect(readRemembered()).toBeNull();
    }
    localStorage.setItem(REMEMBERED_KEY, '{not json');
    expect(readRemembered()).toBeNull();
  });

  it('holds id, login, names, role, real balance, currency and a time: nothing else', () => {
    const store = makeStore();
    store.dispatch(signedIn({ ...testUser, firstName: 'Ali', email: 'secret@x.tn', phone: '21620000000' }));
    const r = recordOf(store.getState().auth, 42)!;
    expect(Object.keys(r).sort()).toEqual(['at', 'balance', 'firstName', 'id', 'lastName', 'login', 'role']);
    expect(r).toMatchObject({ id: 7, login: 'p@c.tn', firstName: 'Ali', role: 0, balance: null, at: 42 });
  });

  it('shows the remembered player at once, then the server confirms and the record follows', async () => {
    localStorage.setItem(REMEMBERED_KEY, JSON.stringify(record()));
    mockApi({ '/api/user/check': ok(testUser), '/api/user/balance': ok({ ...testBalance, balance: 600 }) });
    const fetchMock = vi.mocked(fetch);
    const store = makeStore();
    rememberSession(store);
    const auth = store.getState().auth;
    expect(auth).toMatchObject({ isAuth: true, remembered: true, checked: false, user: { id: 7 }, balance: { balance: 123.5 } });
    // The check and the balance are asked for at once, before any component renders.
    const asked = fetchMock.mock.calls.map(([u]) => String(u));
    expect(asked.some((u) => u.startsWith('/api/user/check'))).toBe(true);
    expect(asked.some((u) => u.startsWith('/api/user/balance'))).toBe(true);
    // Only the real balance is known: pages needing the full reply wait for the server's.
    expect(selectFullBalance(store.getState())).toBeNull();
    await store.dispatch(api.endpoints.check.initiate());
    await store.dispatch(api.endpoints.balance.initiate());
    expect(store.getState().auth).toMatchObject({ isAuth: true, remembered: false, checked: true });
    expect(selectFullBalance(store.getState())?.balance).toBe(600);
    // RTK Query's answers reach subscribers batched (next frame).
    await vi.waitFor(() => expect(stored()).toMatchObject({ id: 7, balance: { balance: 600, currency: 'TND' } }));
  });

  it('drops the record and shows the guest when the server says the session is gone', async () => {
    localStorage.setItem(REMEMBERED_KEY, JSON.stringify(record()));
    mockApi({ '/api/user/check': fail(23), '/api/user/balance': fail(23) });
    const store = makeStore();
    rememberSession(store);
    await store.dispatch(api.endpoints.check.initiate());
    expect(store.getState().auth).toMatchObject({ isAuth: false, user: null, balance: null, remembered: false });
    await vi.waitFor(() => expect(localStorage.getItem(REMEMBERED_KEY)).toBeNull());
  });

  it('keeps the record through a network failure of the check', async () => {
    localStorage.setItem(REMEMBERED_KEY, JSON.stringify(record()));
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    const store = makeStore();
    rememberSession(store);
    await store.dispatch(api.endpoints.check.initiate());
    expect(store.getState().auth).toMatchObject({ isAuth: true, remembered: true });
    expect(stored()).toMatchObject({ id: 7 });
  });

  it('a ban or a logout clears it; another user signing in replaces it without the old balance', async () => {
    mockApi({ '/api/user/balance': ok({ ...testBalance, isBanned: true }) });
    const store = makeStore();
    rememberSession(store);
    store.dispatch(signedIn(testUser));
    expect(stored()).toMatchObject({ id: 7 });
    await store.dispatch(api.endpoints.balance.initiate());
    expect(store.getState().auth.isAuth).toBe(false);
    await vi.waitFor(() => expect(stored()).toBeNull());

    localStorage.setItem(REMEMBERED_KEY, JSON.stringify(record()));
    const next = makeStore();
    rememberSession(next);
    next.dispatch(signedIn({ ...testUser, id: 8, login: 'other@c.tn' }));
    expect(next.getState().auth.balance).toBeNull();
    expect(stored()).toMatchObject({ id: 8, login: 'other@c.tn', balance: null });
    next.dispatch(loggedOut());
    expect(stored()).toBeNull();
  });
});
