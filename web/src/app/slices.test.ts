import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/api';
import { loggedOut, openAuthModal, setPromocode, signedIn } from './authSlice';
import { addNotification, clearFormErrors, deleteNotification } from './notificationsSlice';
import { decodeCharCodes, normalizeLogin } from './session';
import { makeStore } from './store';
import { setSideMenu } from './uiSlice';
import { testBalance, testUser } from '../test/render';

const user = testUser;
const balance = testBalance;

function mockApi(routes: Record<string, unknown>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const key = Object.keys(routes).find((k) => url.startsWith(k));
    const body = key ? routes[key] : { status: 43, result: null, error_message: 'Not found.' };
    return new Response(JSON.stringify(body), { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('auth slice', () => {
  it('signs a player in on a check with role 0', async () => {
    mockApi({ '/api/user/check': { status: 0, result: user, error_message: null } });
    const store = makeStore();
    await store.dispatch(api.endpoints.check.initiate());
    expect(store.getState().auth).toMatchObject({ isAuth: true, checked: true, user: { id: 7 } });
  });

  it('logs out silently on a check with another role', async () => {
    mockApi({ '/api/user/check': { status: 0, result: { ...user, role: 1 }, error_message: null } });
    const store = makeStore();
    store.dispatch(signedIn(user));
    await store.dispatch(api.endpoints.check.initiate());
    expect(store.getState().auth.isAuth).toBe(false);
    expect(store.getState().notifications.items).toHaveLength(0);
  });

  it('stays a guest when the check answers 23', async () => {
    mockApi({ '/api/user/check': { status: 23, result: null, error_message: 'Please sign in.' } });
    const store = makeStore();
    await store.dispatch(api.endpoints.check.initiate());
    expect(store.getState().auth).toMatchObject({ isAuth: false, checked: true });
  });

  it('stores the balance and logs out when the balance says isBanned', async () => {
    mockApi({ '/api/user/balance': { status: 0, result: balance, error_message: null } });
    const store = makeStore();
    store.dispatch(signedIn(user));
    await store.dispatch(api.endpoints.balance.initiate());
    expect(store.getState().auth.balance?.cashbackBalance).toBe(15);

    mockApi({ '/api/user/balance': { status: 0, result: { ...balance, isBanned: true }, error_message: null } });
    await store.dispatch(api.endpoints.balance.initiate(undefined, { forceRefetch: true }));
    expect(store.getState().auth).toMatchObject({ isAuth: false, user: null, balance: null });
  });

  it('opens and closes the auth modal and keeps the promo code', () => {
    const store = makeStore();
    store.dispatch(openAuthModal('restore1'));
    expect(store.getState().auth.authModal).toEqual({ type: 'restore1', isOpen: true });
    store.dispatch(setPromocode({ promocode: 'WELCOME', refId: '42' }));
    store.dispatch(signedIn(user));
    expect(store.getState().auth.authModal.isOpen).toBe(false);
    store.dispatch(loggedOut());
    expect(store.getState().auth).toMatchObject({ isAuth: false, promocode: 'WELCOME', refId: '42' });
  });

  it('treats a missing banned-providers endpoint as an empty list', async () => {
    mockApi({});
    const store = makeStore();
    const res = await store.dispatch(api.endpoints.blocklist.initiate());
    expect(res.data).toEqual([]);
    expect(store.getState().notifications.items).toHaveLength(0);
  });

  it('drops FUN from the settings currencies', async () => {
    mockApi({ '/api/site/settings': { status: 0, result: { lang: 'en-US', currencies: ['TND', 'FUN'] }, error_message: null } });
    const store = makeStore();
    const res = await store.dispatch(api.endpoints.settings.initiate());
    expect(res.data?.currencies).toEqual(['TND']);
    expect(res.data?.phoneLength).toBe(8);
  });
});

describe('notifications slice', () => {
  it('adds notices with the spec defaults and removes them by id', () => {
    const store = makeStore();
    store.dispatch(addNotification({ text: 'successAuth' }));
    const [n] = store.getState().notifications.items;
    expect(n).toMatchObject({ text: 'successAuth', type: 'default', needClose: true, timeToCloseMs: 7000 });
    expect(n!.id).toMatch(/^\d{4}-\d\d-\d\dT/);
    store.dispatch(deleteNotification(n!.id));
    expect(store.getState().notifications.items).toHaveLength(0);
  });

  it('shows one toast per cause: a repeat replaces it (new id, timer restarts)', () => {
    const store = makeStore();
    store.dispatch(addNotification({ text: ['errors:14'], type: 'error', form: 'login', key: 'login|14' }));
    store.dispatch(addNotification({ text: 'checkPhone', type: 'success' }));
    const first = store.getState().notifications.items[0]!.id;
    store.dispatch(addNotification({ text: ['errors:14'], type: 'error', form: 'login', key: 'login|14' }));
    const items = store.getState().notifications.items;
    expect(items).toHaveLength(2);
    expect(items[0]!.key).toBe('login|14');
    expect(items[0]!.id).not.toBe(first);
    // Without a key, the cause is the type, text and parameters.
    store.dispatch(addNotification({ text: 'checkPhone', type: 'success' }));
    store.dispatch(addNotification({ text: 'checkPhone', type: 'success', params: { n: '1' } }));
    expect(store.getState().notifications.items).toHaveLength(3);
  });

  it("removes a form's error toasts when that form succeeds", () => {
    const store = makeStore();
    store.dispatch(addNotification({ text: 'a', type: 'error', form: 'profile', key: 'profile|1000' }));
    store.dispatch(addNotification({ text: 'b', type: 'error', form: 'login', key: 'login|14' }));
    store.dispatch(addNotification({ text: 'c', type: 'success', form: 'profile' }));
    store.dispatch(clearFormErrors('profile'));
    expect(store.getState().notifications.items.map((n) => n.text)).toEqual(['b', 'c']);
  });
});

describe('ui slice', () => {
  it('opens and closes the side menu', () => {
    const store = makeStore();
    store.dispatch(setSideMenu(true));
    expect(store.getState().ui.sideMenuOpened).toBe(true);
  });
});

describe('session helpers', () => {
  it('decodes log/pas character-code lists', () => {
    expect(decodeCharCodes('80,108,97,121')).toBe('Play');
    expect(decodeCharCodes('[49, 50]')).toBe('12');
  });
  it('strips + from phone logins only', () => {
    expect(normalizeLogin('+21620000001')).toBe('21620000001');
    expect(normalizeLogin('a+b@c.tn')).toBe('a+b@c.tn');
  });
});
