import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import CashbackPage, { canTransferCashback } from './routes/CashbackPage';
import ChangePasswordPage from './routes/ChangePasswordPage';
import PersonalDataPage from './routes/PersonalDataPage';

afterEach(() => vi.unstubAllGlobals());

const signedIn = (cashback: number) => ({
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, cashbackBalance: cashback } },
});

describe('change password', () => {
  const problemUnder = (label: string) =>
    screen.getByLabelText(label).closest('[data-field]')!.querySelector('[data-testid="field-error"]')?.textContent ?? null;

  it('refuses mismatched and weak passwords under their field without calling the server', async () => {
    const fetchMock = mockApi({ 'POST /api/user/password/change': ok({ done: true }) });
    renderApp(<ChangePasswordPage />);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old12pass' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'abc' } });
    expect(screen.getByTestId('password-strength').dataset.level).toBe('weak');
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(problemUnder('Repeat password')).toBe('Passwords do not match.');
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc' } });
    expect(problemUnder('Repeat password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(problemUnder('New password')).toMatch(/^Weak password/);
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New12pass' } });
    expect(screen.getByTestId('password-strength').dataset.level).toBe('strong');
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'New12pass' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save the password' })));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({ password: 'Old12pass', new_password: 'New12pass' });
  });

  it('shows a wrong current password under its field', async () => {
    mockApi({ 'POST /api/user/password/change': { status: 4, result: { field: 'password', reason: 'wrong' }, error_message: 'x' } });
    const { store } = renderApp(<ChangePasswordPage />);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old12pass' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New12pass' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'New12pass' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save the password' })));
    await waitFor(() => expect(problemUnder('Current password')).toBe('Incorrect password.'));
    expect(store.getState().notifications.items).toHaveLength(0);
  });
});

describe('cashback', () => {
  it('disables the transfer below 10', () => {
    expect(canTransferCashback(9.999)).toBe(false);
    expect(canTransferCashback(10)).toBe(true);
    expect(canTransferCashback(undefined)).toBe(false);
    renderApp(<CashbackPage />, { state: signedIn(9.5) });
    expect((screen.getByRole('button', { name: 'Transfer to the real balance' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('transfers through the modal', async () => {
    const fetchMock = mockApi({ 'PATCH /api/user/balance/move_cashback_to_real': ok({ moved: 15 }) });
    const { store } = renderApp(<CashbackPage />, { state: signedIn(15) });
    expect(screen.getByTestId('cashback-amount').textContent).toBe('15.000 TND');
    fireEvent.click(screen.getByRole('button', { name: 'Transfer to the real balance' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Transfer' })));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)?.text).toBe('cashbackTransferred'));
    // The page also reads the cashback history (a GET); the transfer is the one PATCH.
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(1);
  });
});

describe('personal data', () => {
  it('never overwrites what the player typed when the profile arrives late', async () => {
    let answer: (v: unknown) => void = () => {};
    const late = new Promise((resolve) => (answer = resolve));
    mockApi({
      'GET /api/user/profile': () => late,
    });
    renderApp(<PersonalDataPage />, { state: signedIn(0) });
    const birth = document.querySelector<HTMLInputElement>('input[name="birth_date"]')!;
    fireEvent.change(birth, { target: { value: '2015-06-01' } });
    await act(async () => {
      answer(ok({ id: 7, firstName: 'Demo', lastName: 'Player', middleName: '', birthDate: '1990-05-17', numberDocument: null, gender: null }));
      await late;
    });
    await waitFor(() => expect(document.querySelector<HTMLInputElement>('input[name="first_name"]')!.value).toBe('Demo'));
    expect(birth.value).toBe('2015-06-01');
  });
});

describe('operations history tabs', () => {
  it('shows the deposits-and-withdrawals list given by the router in a second tab, for the same dates', async () => {
    const { default: HistoryPage } = await import('./routes/HistoryPage');
    mockApi({ '/api/user/transactions': ok([]) });
    const seen: string[] = [];
    const PayHistory = ({ begin, end }: { begin: string; end: string }) => {
      seen.push(`${begin}..${end}`);
      return <p data-testid="pay-history-stub">payments</p>;
    };
    renderApp(<HistoryPage payHistory={PayHistory} />, { state: signedIn(0) });
    expect(await screen.findByText('No operations in this period.')).toBeTruthy();
    expect(screen.queryByTestId('pay-history-stub')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Deposits and withdrawals' }));
    expect(screen.getByTestId('pay-history-stub')).toBeTruthy();
    expect(seen[0]).toMatch(/^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/);
    expect(screen.getByRole('tab', { name: 'Deposits and withdrawals' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('operations history rows (issue 18 item 11)', () => {
  const entry = (id: number, payment_mode: number, value: number, extra: Record<string, unknown> = {}) => ({
    id,
    transaction_id: id,
    created_at: '2026-11-24T10:00:00Z',
    value,
    currency: 'TND',
    type: value < 0 ? 'withdrawal' : 'payment',
    is_closed: true,
    payment_mode,
    purse: 'real',
    comment: '',
    balance_after: 100,
    game: null,
    round_id: null,
    verifiable: false,
    bet: null,
    payment: null,
    ...extra,
  });
  const single = { id: 123, kind: 'single', events: ['Espérance – Club Africain'] };
  const express = { id: 124, kind: 'express', events: ['A – B', 'C – D'] };

  it('say what each posting is: the bet and its event, the payout, the deposit and its method', async () => {
    const { default: HistoryPage } = await import('./routes/HistoryPage');
    mockApi({
      '/api/user/transactions': ok([
        entry(1, 211, -10, { bet: single }),
        entry(2, 212, 21, { bet: single }),
        entry(3, 211, -5, { bet: express }),
        entry(4, 16, 50, { payment: { id: 9, method: 'sandbox' } }),
        entry(5, 114, 7, { payment: { id: null, method: 'cashier' } }),
        entry(6, 10, -20, { payment: { id: 8, method: 'cashier' } }),
        entry(7, 207, 20, { payment: { id: 8, method: 'paykassma' } }),
      ]),
    });
    renderApp(<HistoryPage />, { state: signedIn(0) });
    await screen.findByTestId('operations');
    const titles = screen.getAllByTestId('op-title').map((t) => (t.textContent ?? '').replace(/[\u2068\u2069]/g, ''));
    expect(titles).toEqual([
      'Bet — Espérance – Club Africain',
      'Payout — Espérance – Club Africain',
      'Express bet',
      'Deposit — Card',
      'Deposit — Cashier',
      'Withdrawal — Cashier',
      'Withdrawal returned — Paykassma',
    ]);
    // Each sports row carries its bet's number; an express lists its events.
    expect(screen.getAllByTestId('op-bet').map((b) => b.textContent)).toEqual(['Bet #123', 'Bet #123', 'Bet #124']);
    expect(screen.getByTestId('op-events').textContent).toBe('A – B · C – D');
    expect(screen.queryByText('Operation')).toBeNull();
    expect(screen.queryByText('Payment service')).toBeNull();
  });
});

describe('opLabel', () => {
  it('falls back to what the type says when the posting names nothing', async () => {
    const { opLabel } = await import('./operations');
    const m = (c: string) => c;
    expect(opLabel({ payment_mode: 211 }, m)).toEqual({ key: 'op.sportAnyBet' });
    expect(opLabel({ payment_mode: 212, bet: { id: 5, kind: 'single', events: [] } }, m)).toEqual({ key: 'op.sportPayout', bet: '5' });
    expect(opLabel({ payment_mode: 16 }, m)).toEqual({ key: 'op.deposit' });
    expect(opLabel({ payment_mode: 114 }, m)).toEqual({ key: 'op.cashier' });
    expect(opLabel({ payment_mode: 214 }, m)).toEqual({ key: 'op.partnerBet' });
    expect(opLabel({ payment_mode: 999 }, m)).toEqual({ key: 'op.other' });
  });
});
