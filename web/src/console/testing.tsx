/* Test helpers of the console (never imported by the app). */
import { render } from '@testing-library/react';
import i18n from 'i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import consoleEn from '../locales/en/console.json';
import { ok } from '../test/render';
import { makeConsoleStore, type StaffMe } from './api';
import { consoleRoutes } from './App';

i18n.addResourceBundle('en', 'console', consoleEn, true, true);

const ROLE_PERMISSIONS: Record<string, string[]> = {
  admin: ['audit.read', 'money.adjust', 'promotions.manage', 'players.read', 'players.ban', 'players.note', 'withdrawals.decide', 'console', 'reports.read'],
  support: ['audit.read', 'players.read', 'players.note', 'console'],
  finance: ['audit.read', 'money.adjust', 'players.read', 'players.note', 'withdrawals.decide', 'console', 'reports.read'],
  content: ['console'],
};

/** `GET /api/admin/me` of a staff member of this role (the server's matrix, as the tests expect it). */
export const staffMe = (role: keyof typeof ROLE_PERMISSIONS, id = 12): StaffMe => ({
  id,
  email: `${role}@carthage.local`,
  firstName: role === 'admin' ? 'Amira' : 'Sami',
  lastName: 'Ben Ali',
  role,
  actor: `${role}:${id}`,
  permissions: ROLE_PERMISSIONS[role]!,
});

export const meReply = (role: keyof typeof ROLE_PERMISSIONS, id = 12) => ok(staffMe(role, id));
export const refusal = (status: number, result: unknown = null) => ({ status, result, error_message: `refused ${status}` });

/** The console at `path` (under /console) with a fresh store and a memory router. */
export function renderConsole(path = '/') {
  const store = makeConsoleStore();
  const router = createMemoryRouter(consoleRoutes, { initialEntries: [`/console${path}`], basename: '/console' });
  const utils = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router, ...utils };
}

/** The JSON body of the calls to `path` with `method`. */
export function bodiesOf(fetchMock: { mock: { calls: unknown[][] } }, path: string, method = 'POST'): unknown[] {
  return fetchMock.mock.calls
    .filter(([u, init]) => String(u).split('?')[0] === path && ((init as RequestInit | undefined)?.method ?? 'GET') === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body ?? 'null')));
}
