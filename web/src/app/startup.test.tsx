import { act, screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { initialAuthState } from './authSlice';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderApp, testBalance, testUser } from '../test/render';
import { AUTH_CHECK_DELAY_MS, BALANCE_POLL_MS, useAppStart } from './startup';

function Start() {
  useAppStart();
  return <span data-testid="path">{useLocation().pathname}</span>;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const calls = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([u]) => String(u).startsWith(path)).length;

describe('app start (spec §4)', () => {
  it('checks the session after 500 ms, then polls the balance every 15 s', async () => {
    vi.useFakeTimers();
    const fetchMock = mockApi({
      '/api/site/settings': ok({ lang: 'en-US', currencies: ['TND'] }),
      '/api/site/flatpages': ok([]),
      '/api/user/check': ok(testUser),
      '/api/user/balance': ok(testBalance),
    });
    const { store } = renderApp(<Start />);
    await act(async () => vi.advanceTimersByTime(AUTH_CHECK_DELAY_MS - 10));
    expect(calls(fetchMock, '/api/user/check')).toBe(0);
    expect(calls(fetchMock, '/api/site/settings')).toBe(1);
    expect(calls(fetchMock, '/api/site/flatpages/list/en-US')).toBe(1);
    expect(calls(fetchMock, '/api/user/blocklist')).toBe(1);
    await act(async () => vi.advanceTimersByTime(20));
    await act(async () => vi.advanceTimersByTime(1));
    expect(calls(fetchMock, '/api/user/check')).toBe(1);
    expect(store.getState().auth.isAuth).toBe(true);
    // Newly signed in: banned list and settings reload.
    await act(async () => vi.advanceTimersByTime(10));
    expect(calls(fetchMock, '/api/site/settings')).toBe(2);
    expect(calls(fetchMock, '/api/user/blocklist')).toBe(2);
    const first = calls(fetchMock, '/api/user/balance');
    expect(first).toBe(1);
    await act(async () => vi.advanceTimersByTime(BALANCE_POLL_MS + 10));
    expect(calls(fetchMock, '/api/user/balance')).toBe(2);
  });

  it('confirms a remembered player at once: check and balance without the 500 ms wait', async () => {
    vi.useFakeTimers();
    const fetchMock = mockApi({ '/api/user/check': ok(testUser), '/api/user/balance': ok(testBalance) });
    const remembered = { ...initialAuthState, isAuth: true, remembered: true, user: { id: 7, login: 'p@c.tn', role: 0 } };
    const { store } = renderApp(<Start />, { state: { auth: remembered } });
    await act(async () => vi.advanceTimersByTime(1));
    expect(calls(fetchMock, '/api/user/check')).toBe(1);
    expect(calls(fetchMock, '/api/user/balance')).toBe(1);
    await act(async () => vi.advanceTimersByTime(AUTH_CHECK_DELAY_MS + 100));
    expect(calls(fetchMock, '/api/user/check')).toBe(1);
    expect(store.getState().auth).toMatchObject({ isAuth: true, remembered: false, checked: true });
  });

  it('stores a promo code from betting + ref_id', async () => {
    mockApi({});
    const { store } = renderApp(<Start />, { path: '/home?betting=PROMO1&ref_id=77' });
    await act(async () => {});
    expect(store.getState().auth).toMatchObject({ promocode: 'PROMO1', refId: '77' });
  });

  it('signs in from log + pas character codes', async () => {
    const fetchMock = mockApi({ 'POST /api/user/login': ok({ token: 't', expiresAt: '', user: testUser }), '/api/user/check': ok(testUser) });
    const { store } = renderApp(<Start />, { path: '/home?log=112,64,99,46,116,110&pas=120,49' });
    await vi.waitFor(() => expect(store.getState().auth.isAuth).toBe(true));
    const login = fetchMock.mock.calls.find(([u]) => String(u) === '/api/user/login')!;
    expect(JSON.parse(String(login[1]!.body))).toEqual({ login: 'p@c.tn', password: 'x1' });
  });
});

describe('partner redirect', () => {
  it('keeps a signed-in partner in /partner', async () => {
    mockApi({});
    const partner = { ...testUser, isPartner: true };
    renderApp(<Start />, { path: '/profile', state: { auth: { ...initialAuthState, isAuth: true, checked: true, user: partner } } });
    await act(async () => {});
    expect(screen.getByTestId('path').textContent).toBe('/partner');
  });
});
