import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import CashbackPage, { canTransferCashback } from './routes/CashbackPage';
import ChangePasswordPage from './routes/ChangePasswordPage';

afterEach(() => vi.unstubAllGlobals());

const signedIn = (cashback: number) => ({
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, cashbackBalance: cashback } },
});

describe('change password', () => {
  it('refuses mismatched and weak passwords without calling the server', async () => {
    const fetchMock = mockApi({ 'POST /api/user/password/change': ok({ done: true }) });
    renderApp(<ChangePasswordPage />);
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old12pass' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'abc' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(screen.getByTestId('password-problem').textContent).toBe('Passwords do not match.');
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the password' }));
    expect(screen.getByTestId('password-problem').textContent).toMatch(/^Weak password/);
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New12pass' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'New12pass' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save the password' })));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({ password: 'Old12pass', new_password: 'New12pass' });
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
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('PATCH');
  });
});
