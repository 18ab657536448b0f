import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import cashierEn from '../../locales/en/cashier.json';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import WithdrawalPage, { PENDING_POLL_MS } from './routes/WithdrawalPage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'cashier', cashierEn);
});
afterEach(() => vi.unstubAllGlobals());

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, balance: 100 } } };
const cashier = { id: 7, name: 'Amel, Tunis, 71000000', first_name: 'Amel', address: 'Tunis', phone: '71000000' };
const entry = (status: string, code: string | null, id = 1) => ({
  id,
  date: '2026-11-24T10:00:00.000Z',
  created_at: '2026-11-24T10:00:00.000Z',
  amount: 30,
  currency: 'TND',
  status,
  cancel_reason: status === 'CANCELED' ? 'player' : null,
  code,
  cashier: cashier.name,
  cashier_id: 7,
});

function routes(history: unknown[]) {
  return {
    '/api/site/settings': ok({ limits: { payment: { withdrawal: { min: 10, max: 10000 } } } }),
    '/api/payment/cashiers': ok([cashier]),
    '/api/payment/cashier_withdrawal_request/history': () => ok({ items: history, total: history.length, pages: 1 }),
    '/api/user/balance': ok({ ...testBalance, balance: 70 }),
    'POST /api/payment/cashier_withdrawal_request': ok(entry('CREATED', '12345678')),
    'POST /api/payment/cashier_withdrawal_request/cancel': ok(entry('CANCELED', null)),
  };
}

const posts = (fetchMock: ReturnType<typeof mockApi>, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => init?.method === 'POST' && String(url) === path).map(([, init]) => JSON.parse(String(init!.body)));

describe('the withdrawal page', () => {
  it('checks the amount against the minimum without calling the server, then requests and shows the code', async () => {
    const history: unknown[] = [];
    const fetchMock = mockApi(routes(history));
    renderApp(<WithdrawalPage />, { state: signedIn });
    await screen.findByRole('option', { name: cashier.name });
    fireEvent.change(screen.getByTestId('cashier-select'), { target: { value: '7' } });
    fireEvent.change(screen.getByTestId('withdrawal-amount'), { target: { value: '5' } });
    await act(async () => fireEvent.click(screen.getByTestId('withdrawal-submit')));
    expect(screen.getByTestId('field-error').textContent?.replace(/[\u2068\u2069]/g, '')).toBe('The minimum withdrawal is 10.000 TND.');
    expect(posts(fetchMock, '/api/payment/cashier_withdrawal_request')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('withdrawal-amount'), { target: { value: '30' } });
    history.push(entry('CREATED', '12345678'));
    await act(async () => fireEvent.click(screen.getByTestId('withdrawal-submit')));
    await waitFor(() => expect(screen.getByTestId('withdrawal-code').textContent).toBe('1234 5678'));
    expect(posts(fetchMock, '/api/payment/cashier_withdrawal_request')).toEqual([{ amount: 30, cashier_id: 7 }]);
    const item = await screen.findByTestId('withdrawal-item');
    expect(within(item).getByTestId('withdrawal-status').textContent).toBe('Pending');
  }, 20_000);

  it('cancels a pending request after confirmation and shows the statuses of spec §4', async () => {
    const history = [entry('CREATED', '12345678', 1), entry('PAID', null, 2), entry('CANCELED', null, 3)];
    const fetchMock = mockApi(routes(history));
    renderApp(<WithdrawalPage />, { state: signedIn });
    const items = await screen.findAllByTestId('withdrawal-item');
    expect(items.map((i) => within(i).getByTestId('withdrawal-status').textContent)).toEqual(['Pending', 'Completed', 'Rejected']);
    // Only the pending one can be cancelled, and shows its code.
    expect(screen.getAllByTestId('withdrawal-cancel')).toHaveLength(1);
    expect(screen.getAllByTestId('withdrawal-item-code').map((c) => c.textContent)).toEqual(['1234 5678']);
    fireEvent.click(screen.getByTestId('withdrawal-cancel'));
    await act(async () => fireEvent.click(screen.getByTestId('withdrawal-cancel-confirm')));
    await waitFor(() => expect(posts(fetchMock, '/api/payment/cashier_withdrawal_request/cancel')).toEqual([{ id: 1 }]));
  }, 20_000);

  it('sends the status filter only when it is not the default', async () => {
    const fetchMock = mockApi(routes([]));
    renderApp(<WithdrawalPage />, { state: signedIn });
    await screen.findByText('No withdrawal requests yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Completed' }));
    const historyCalls = () =>
      fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/payment/cashier_withdrawal_request/history'));
    await waitFor(() => expect(historyCalls().some((u) => u.includes('statuses=PAID'))).toBe(true));
    // The first load: the date range only (count, page and statuses are the defaults).
    const first = new URL(historyCalls()[0]!, 'http://x').searchParams;
    expect([...first.keys()]).toEqual(['date_from', 'date_to']);
    expect(first.get('date_to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('the withdrawal page (issue 18)', () => {
  const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2068\u2069]/g, '');

  it('writes the limits as money', async () => {
    mockApi(routes([]));
    renderApp(<WithdrawalPage />, { state: signedIn });
    expect(await screen.findByText('From \u206810.000 TND\u2069 to \u206810,000.000 TND\u2069')).toBeTruthy();
  });

  it('shows the amount still to wager, with its currency, when a withdrawal is refused for wagering', async () => {
    mockApi({ ...routes([]), 'POST /api/payment/cashier_withdrawal_request': { status: 6252, result: 97.5, error_message: 'wager' } });
    const { store } = renderApp(<WithdrawalPage />, { state: signedIn });
    await screen.findByRole('option', { name: cashier.name });
    fireEvent.change(screen.getByTestId('withdrawal-amount'), { target: { value: '30' } });
    await act(async () => fireEvent.click(screen.getByTestId('withdrawal-submit')));
    expect((await screen.findByTestId('wager-left')).textContent).toContain('97.500 TND');
    const toast = store.getState().notifications.items.at(-1)!;
    expect(toast.text).toContain('errors:6252');
    expect(plain(toast.params?.value)).toBe('97.500 TND');
  });

  it('follows a pending request until the desk pays it, without a reload', async () => {
    const history = [entry('CREATED', '12345678', 1)];
    mockApi(routes(history));
    renderApp(<WithdrawalPage />, { state: signedIn });
    expect(within(await screen.findByTestId('withdrawal-item')).getByTestId('withdrawal-status').textContent).toBe('Pending');
    history[0] = entry('PAID', null, 1);
    await waitFor(() => expect(screen.getByTestId('withdrawal-status').textContent).toBe('Completed'), { timeout: PENDING_POLL_MS + 3000 });
    expect(screen.queryByTestId('withdrawal-cancel')).toBeNull();
  }, 15_000);
});
