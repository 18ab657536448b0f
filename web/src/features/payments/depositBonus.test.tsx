import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { makeStore } from '../../app/store';
import { mockApi, ok, testBalance, testUser } from '../../test/render';
import enPayments from '../../locales/en/payments.json';
import frPayments from '../../locales/fr/payments.json';
import arPayments from '../../locales/ar/payments.json';
import { bonusPreview, DepositBonusGranted, percentText } from './components/DepositBonusToggle';
import TopUpPage from './routes/TopUpPage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'payments', enPayments, true, true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SETTINGS = ok({ lang: 'en-US', currencies: ['TND'], defaultCurrency: 'TND', limits: { payment: { topUp: { min: 5, max: 20000 } } } });

const OFFER = {
  enabled: false,
  percent: 25,
  maxBonus: 1000,
  currency: 'TND',
  maxDeposits: 20,
  depositsMade: 1,
  depositsLeft: 19,
  wageringMultiple: 10,
  maxBet: 5,
  lifeDays: 30,
};

const strip = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069]/g, '').replace(/\u00a0/g, ' ');

function renderTopUp() {
  const store = makeStore({ auth: { ...initialAuthState, checked: true, isAuth: true, user: testUser, balance: testBalance } });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/profile/top-up']}>
        <Routes>
          <Route path="/profile/top-up" element={<TopUpPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

describe('the deposit bonus opt-in on /profile/top-up', () => {
  it('is off until the player turns it on, with the figures the server gives, and previews this deposit', async () => {
    let enabled = false;
    const fetchMock = mockApi({
      '/api/site/settings': SETTINGS,
      '/api/user/balance': ok(testBalance),
      'GET /api/user/deposit-bonus': () => ok({ ...OFFER, enabled }),
      'POST /api/user/deposit-bonus': () => {
        enabled = true;
        return ok({ ...OFFER, enabled: true });
      },
    });
    renderTopUp();
    const sw = (await screen.findByTestId('deposit-bonus-switch', {}, { timeout: 5000 })) as HTMLInputElement;
    expect(sw.checked).toBe(false);
    expect(sw.getAttribute('role')).toBe('switch');
    expect(strip(screen.getByTestId('deposit-bonus-offer').textContent)).toBe(
      '+25% of this deposit, up to 1,000.000 TND, to wager 10× before withdrawing.',
    );
    expect(screen.getByTestId('deposit-bonus-state').textContent).toMatch(/^Off:/);
    // Off: no preview whatever the amount.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '50' } });
    expect(screen.queryByTestId('deposit-bonus-preview')).toBeNull();

    fireEvent.click(sw);
    await waitFor(() => expect((screen.getByTestId('deposit-bonus-switch') as HTMLInputElement).checked).toBe(true));
    const posts = fetchMock.mock.calls.filter(([url, init]) => String(url) === '/api/user/deposit-bonus' && init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]!.body))).toEqual({ enabled: true });
    expect(screen.getByTestId('deposit-bonus-state').textContent).toBe('On: 19 of your first 20 deposits still earn it.');
    expect(strip(screen.getByTestId('deposit-bonus-preview').textContent)).toBe('This deposit earns a bonus of 12.500 TND');
    // Capped at the maximum.
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '4000.004' } });
    expect(strip(screen.getByTestId('deposit-bonus-preview').textContent)).toBe('This deposit earns a bonus of 1,000.000 TND');
    // The terms say what it costs before the player relies on it.
    expect(strip(screen.getByText(/kept apart from your money/).textContent)).toContain('the most you can stake while wagering is 5.000 TND');
  });

  it('shows another operator’s figures as they are, never the spec’s', async () => {
    mockApi({
      '/api/site/settings': SETTINGS,
      '/api/user/balance': ok(testBalance),
      '/api/user/deposit-bonus': ok({ ...OFFER, percent: 12.5, maxBonus: 250, wageringMultiple: 5, enabled: true, depositsLeft: 3, maxDeposits: 5 }),
    });
    renderTopUp();
    const offer = await screen.findByTestId('deposit-bonus-offer', {}, { timeout: 5000 });
    expect(strip(offer.textContent)).toBe('+12.5% of this deposit, up to 250.000 TND, to wager 5× before withdrawing.');
    expect(screen.getByTestId('deposit-bonus-state').textContent).toBe('On: 3 of your first 5 deposits still earn it.');
  });

  it('cannot be turned on once the first deposits are used, and says a refused change', async () => {
    mockApi({
      '/api/site/settings': SETTINGS,
      '/api/user/balance': ok(testBalance),
      '/api/user/deposit-bonus': ok({ ...OFFER, depositsMade: 20, depositsLeft: 0 }),
    });
    renderTopUp();
    const sw = (await screen.findByTestId('deposit-bonus-switch', {}, { timeout: 5000 })) as HTMLInputElement;
    expect(sw.disabled).toBe(true);
    expect(screen.getByTestId('deposit-bonus-state').textContent).toBe('The deposit bonus is for your first 20 deposits: all used.');
  });

  it('keeps the server’s state when the change is refused', async () => {
    mockApi({
      '/api/site/settings': SETTINGS,
      '/api/user/balance': ok(testBalance),
      'GET /api/user/deposit-bonus': ok(OFFER),
      'POST /api/user/deposit-bonus': { status: 24, result: null, error_message: 'Forbidden.' },
    });
    renderTopUp();
    fireEvent.click(await screen.findByTestId('deposit-bonus-switch', {}, { timeout: 5000 }));
    expect((await screen.findByRole('alert')).textContent).toBe('The deposit bonus could not be changed. Try again.');
    expect((screen.getByTestId('deposit-bonus-switch') as HTMLInputElement).checked).toBe(false);
  });

  it('is absent when the server has no offer (an older server)', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    renderTopUp();
    await screen.findAllByTestId('amount-preset', {}, { timeout: 5000 });
    expect(screen.queryByTestId('deposit-bonus')).toBeNull();
  });
});

describe('a deposit’s result', () => {
  const bonus = (over: Record<string, unknown>) => ({
    id: '1', template: 'deposit-standing-TND', product: 'casino', status: 'active', currency: 'TND', amount: 12.5, required: 125,
    wagered: 0, remaining: 125, maxBet: 5, maxConversion: 0, converted: 0, minOdds: 0, grantedAt: Date.now(), expiresAt: null, closedAt: null, ...over,
  });
  const renderGranted = () => {
    const store = makeStore({ auth: { ...initialAuthState, checked: true, isAuth: true, user: testUser, balance: testBalance } });
    render(
      <Provider store={store}>
        <MemoryRouter>
          <DepositBonusGranted />
        </MemoryRouter>
      </Provider>,
    );
  };

  it('shows the deposit bonus the deposit earned, linked to the bonuses', async () => {
    mockApi({
      '/api/user/deposit-bonus': ok({ ...OFFER, enabled: true }),
      // An older bonus of another kind, and this deposit's.
      '/api/user/bonuses': ok([bonus({ id: '2', template: 'welcome-50', amount: 50 }), bonus({})]),
    });
    renderGranted();
    const note = await screen.findByTestId('deposit-bonus-granted', {}, { timeout: 5000 });
    expect(strip(note.textContent)).toBe('Deposit bonus added: 12.500 TND My bonuses');
    expect(screen.getByRole('link', { name: 'My bonuses' }).getAttribute('href')).toBe('/profile/bonuses');
  });

  it('says nothing to a player who did not opt in', async () => {
    const fetchMock = mockApi({
      '/api/user/deposit-bonus': ok(OFFER),
      '/api/user/bonuses': ok([bonus({})]),
    });
    renderGranted();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('deposit-bonus-granted')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/user/bonuses')).toBe(false);
  });

  it('says nothing about a deposit bonus of an earlier deposit', async () => {
    const fetchMock = mockApi({
      '/api/user/deposit-bonus': ok({ ...OFFER, enabled: true }),
      '/api/user/bonuses': ok([bonus({ grantedAt: Date.now() - 3_600_000 })]),
    });
    renderGranted();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/user/bonuses')).toBe(true));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByTestId('deposit-bonus-granted')).toBeNull();
  });
});

describe('the deposit bonus figures', () => {
  it('are exact integer shares rounded down and capped', () => {
    const o = { percent: 25, maxBonus: 1000, currency: 'TND' };
    expect(bonusPreview(o, '20.004', 3)).toBe(5001);
    expect(bonusPreview(o, '0.003', 3)).toBe(0);
    expect(bonusPreview(o, '4000.004', 3)).toBe(1_000_000);
    expect(bonusPreview(o, 'abc', 3)).toBeNull();
    // USDT: 6 decimals; 0.33 of 1000 = 330.
    expect(bonusPreview({ percent: 25, maxBonus: 330, currency: 'USDT' }, '100', 6)).toBe(25_000_000);
    expect(bonusPreview({ percent: 25, maxBonus: 330, currency: 'USDT' }, '5000', 6)).toBe(330_000_000);
  });

  it('write the percentage as each language does, Latin digits', () => {
    expect(percentText(25, 'en')).toBe('25%');
    expect(percentText(25, 'fr').replace(/\s/g, ' ')).toBe('25 %');
    expect(percentText(25, 'ar')).toMatch(/^25/);
  });

  it('are translated in the three languages with the same placeholders', () => {
    const keys = (o: Record<string, string>) => Object.keys(o).sort();
    const en = enPayments.depositBonus as Record<string, string>;
    for (const other of [frPayments.depositBonus, arPayments.depositBonus] as Record<string, string>[]) {
      expect(keys(other)).toEqual(keys(en));
      for (const k of keys(en)) {
        const vars = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();
        expect(vars(other[k]!)).toEqual(vars(en[k]!));
      }
    }
  });
});
