import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { makeStore, type RootState } from '../app/store';

/** Renders with a fresh store and a memory router. */
export function renderApp(ui: ReactNode, { path = '/', state }: { path?: string; state?: Partial<RootState> } = {}) {
  const store = makeStore(state);
  const utils = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </Provider>,
  );
  return { store, ...utils };
}

/** Stubs fetch: `routes` maps a path prefix (optionally "METHOD path") to an envelope (or a function returning one). */
export function mockApi(routes: Record<string, unknown>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const key =
      Object.keys(routes).find((k) => k === `${method} ${url.split('?')[0]}`) ??
      Object.keys(routes).find((k) => !k.includes(' ') && url.startsWith(k));
    const route = key ? routes[key] : { status: 43, result: null, error_message: 'Not found.' };
    // A function answers each call anew (e.g. a counter); it may return a promise (a late reply).
    const body: unknown = typeof route === 'function' ? await (route as () => unknown)() : route;
    return new Response(JSON.stringify(body), { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export const ok = (result: unknown) => ({ status: 0, result, error_message: null });

export const testUser = {
  id: 7,
  login: 'p@c.tn',
  currency: 'TND',
  firstName: 'Demo',
  lastName: 'Player',
  role: 0,
  isBannedOnBetroute: false,
  isPartner: false,
  isOnPaykassmaPayment: false,
  canDepositOnline: true,
  emailVerified: true,
  lang: 'en-US',
};

export const testBalance = {
  currency: 'TND',
  balance: 500,
  bonusBalance: 0,
  cashbackBalance: 15,
  freeBetBalance: 0,
  pointBalance: 0,
  weeklyCashback: 0,
  isBanned: false,
  freeBets: { active: [], inactive: [] },
  jackpots: [],
  wonJackpots: [],
};
