import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { Provider } from 'react-redux';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import deskEn from '../locales/en/desk.json';
import { mockApi, ok } from '../test/render';
import { makeDeskStore } from './api';
import { DeskApp } from './DeskApp';

beforeAll(() => {
  i18n.addResourceBundle('en', 'desk', deskEn);
});
afterEach(() => vi.unstubAllGlobals());

const me = (role: string, float = 5000) => ok({ id: 9, role, name: 'Amel, Tunis', currency: 'TND', float });
const renderDesk = () =>
  render(
    <Provider store={makeDeskStore()}>
      <DeskApp />
    </Provider>,
  );

describe('the cashier desk', () => {
  it('asks a signed-out visitor to sign in, and refuses a player account', async () => {
    let signedIn = false;
    const fetchMock = mockApi({
      '/api/desk/me': () => (signedIn ? { status: 24, result: null, error_message: 'no' } : { status: 23, result: null, error_message: 'no' }),
      'POST /api/user/login': () => {
        signedIn = true;
        return ok({ token: 't' });
      },
    });
    renderDesk();
    await screen.findByTestId('desk-signin');
    fireEvent.change(screen.getByLabelText('E-mail or phone'), { target: { value: 'p@x.tn' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret42' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    await screen.findByText('This account is not a cashier or super agent account.');
    const login = fetchMock.mock.calls.find(([u]) => String(u) === '/api/user/login');
    expect(JSON.parse(String(login![1]!.body))).toEqual({ login: 'p@x.tn', password: 'Secret42' });
  });

  it('deposits cash with one idempotency key per deposit, kept across a retry', async () => {
    let attempts = 0;
    const fetchMock = mockApi({
      '/api/desk/me': me('cashier'),
      '/api/desk/player': ok({ id: 42, login: 'ali@x.tn', phone: '21650000001', first_name: 'Ali', last_name: '', currency: 'TND' }),
      'POST /api/desk/deposit': () => {
        attempts += 1;
        // The first attempt fails on our side; the retry goes through.
        return attempts === 1 ? { status: 1000, result: null, error_message: 'x' } : ok({ tx_id: 1, float: 4975, player_id: 42, amount: 25, replayed: false });
      },
    });
    renderDesk();
    await screen.findByTestId('desk-me');
    expect(screen.queryByTestId('desk-tab-network')).toBeNull();
    fireEvent.change(screen.getByTestId('desk-find'), { target: { value: '50000001' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Find' })));
    await screen.findByTestId('desk-player');
    fireEvent.change(screen.getByTestId('desk-deposit-amount'), { target: { value: '25' } });
    await act(async () => fireEvent.click(screen.getByTestId('desk-deposit-submit')));
    await screen.findByTestId('desk-error');
    await act(async () => fireEvent.click(screen.getByTestId('desk-deposit-submit')));
    await screen.findByText('25 TND deposited to player #42.');
    fireEvent.change(screen.getByTestId('desk-deposit-amount'), { target: { value: '10' } });
    await act(async () => fireEvent.click(screen.getByTestId('desk-deposit-submit')));
    await waitFor(() => expect(attempts).toBe(3));
    const keys = fetchMock.mock.calls
      .filter(([u, init]) => String(u) === '/api/desk/deposit' && init?.method === 'POST')
      .map(([, init]) => new Headers(init!.headers).get('idempotency-key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/desk/player?query=50000001')).toBe(true);
  });

  it('refuses a malformed payout code before calling the server', async () => {
    const fetchMock = mockApi({ '/api/desk/me': me('super_agent'), '/api/desk/cashiers': ok([]) });
    renderDesk();
    await screen.findByTestId('desk-me');
    expect(screen.getByTestId('desk-tab-network')).toBeTruthy();
    fireEvent.click(screen.getByTestId('desk-tab-payout'));
    fireEvent.change(screen.getByTestId('desk-code'), { target: { value: '1234' } });
    await act(async () => fireEvent.click(screen.getByTestId('desk-payout-submit')));
    expect(screen.getByTestId('desk-error').textContent).toBe('The code has 8 digits.');
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/desk/payout')).toBe(false);
  });
});
