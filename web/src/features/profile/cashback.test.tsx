import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import frAccount from '../../locales/fr/account.json';
import arAccount from '../../locales/ar/account.json';
import frCommon from '../../locales/fr/common.json';
import arCommon from '../../locales/ar/common.json';
import en from '../../locales/en/account.json';
import CashbackPage from './routes/CashbackPage';

beforeAll(() => {
  i18n.addResourceBundle('fr', 'account', frAccount, true, true);
  i18n.addResourceBundle('ar', 'account', arAccount, true, true);
  i18n.addResourceBundle('fr', 'common', frCommon, true, true);
  i18n.addResourceBundle('ar', 'common', arCommon, true, true);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069]/g, '').replace(/[\u202f\u00a0]/g, ' ');
const signedIn = (cashback: number, weekly = 0) => ({
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, cashbackBalance: cashback, weeklyCashback: weekly } },
});
const row = (id: number, mode: number, value: number, at: string) => ({
  id,
  transaction_id: id,
  created_at: at,
  value,
  currency: 'TND',
  type: value >= 0 ? 'payment' : 'withdrawal',
  is_closed: true,
  payment_mode: mode,
  purse: 'cashback',
  comment: '',
  balance_after: null,
  game: null,
  round_id: null,
  verifiable: false,
  bet: null,
});

describe('the cashback page', () => {
  const cases = [
    ['en', 'At least 10.000 TND is needed to transfer; you have 9.500 TND.', '12.250 TND'],
    ['fr', 'Il faut au moins 10,000 TND pour transférer ; vous avez 9,500 TND.', '12,250 TND'],
    ['ar', 'يلزم 10.000 TND على الأقل للتحويل؛ لديك 9.500 TND.', '12.250 TND'],
  ] as const;
  for (const [lang, why, weekly] of cases) {
    it(`disables the transfer below 10 and says why; shows this week's weekly cashback (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      mockApi({ '/api/user/transactions': ok([]) });
      renderApp(<CashbackPage />, { state: signedIn(9.5, 12.25) });
      const button = screen.getByTestId('cashback-transfer') as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(plain(screen.getByTestId('cashback-why').textContent)).toBe(why);
      expect(button.getAttribute('aria-describedby')).toBe('cashback-why');
      expect(plain(screen.getByTestId('weekly-cashback').textContent)).toBe(weekly);
      expect(await screen.findByTestId('cashback-history-empty')).toBeTruthy();
    });
  }

  it('transfers at exactly 10 only after the confirmation modal, which names the amount', async () => {
    const fetchMock = mockApi({
      '/api/user/transactions': ok([]),
      'PATCH /api/user/balance/move_cashback_to_real': ok({ ...testBalance, cashbackBalance: 0, balance: 510 }),
    });
    const { store } = renderApp(<CashbackPage />, { state: signedIn(10) });
    expect(screen.queryByTestId('cashback-why')).toBeNull();
    fireEvent.click(screen.getByTestId('cashback-transfer'));
    const dialog = await screen.findByRole('dialog', { name: en.cashback.modalTitle });
    expect(plain(dialog.textContent)).toContain('10.000 TND');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(0);
    await act(async () => fireEvent.click(within(dialog).getByTestId('cashback-confirm')));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)?.text).toBe('cashbackTransferred'));
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(1);
  });

  it('lists the cashback balance history: weekly payouts in, transfers out, from the cashback purse only', async () => {
    const fetchMock = mockApi({
      '/api/user/transactions': ok([row(3, 201, -41, '2026-11-24T08:00:00Z'), row(2, 221, 36, '2026-11-23T23:00:30Z'), row(1, 221, 5, '2026-11-16T23:00:30Z')]),
    });
    renderApp(<CashbackPage />, { state: signedIn(0) });
    const rows = await screen.findAllByTestId('cashback-row');
    expect(rows.map((r) => r.querySelector('strong')?.textContent)).toEqual([en.cashback.moved, en.cashback.weeklyPaid, en.cashback.weeklyPaid]);
    expect(plain(rows[1]!.textContent)).toContain('36.000 TND');
    const url = new URL(String(fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/user/transactions'))![0]), 'http://x');
    expect(url.searchParams.get('purse')).toBe('cashback');
  });
});
