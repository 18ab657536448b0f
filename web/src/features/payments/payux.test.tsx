/**
 * Issue 18 (items 9, 11, 13, 14, 15 and the withdrawal side of 4) on the payment screens: a
 * player who cannot deposit online is told before the amount form, the deposit form says what
 * the limits still allow, refusals carry their currency, the pay history never shows a payment
 * that did not happen as money and follows an open one, the profile links both withdrawals and
 * the phone withdrawal starts from the registered phone.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { readFileSync } from 'node:fs';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState, type SessionUser } from '../../app/authSlice';
import { makeStore } from '../../app/store';
import enErrors from '../../locales/en/errors.json';
import frErrors from '../../locales/fr/errors.json';
import arErrors from '../../locales/ar/errors.json';
import enPayments from '../../locales/en/payments.json';
import { mockApi, ok, testBalance, testUser } from '../../test/render';
import { depositAllowance } from './amount';
import PayHistory, { PAY_HISTORY_POLL_MS, payTone } from './components/PayHistory';
import ProfilePayments from './components/ProfilePayments';
import type { FrameRequest } from './frame';
import { paymentRefusal, wagerLeft } from './refusal';
import PaykassmaDepositPage from './routes/PaykassmaDepositPage';
import PaykassmaWithdrawalPage, { localPhone } from './routes/PaykassmaWithdrawalPage';
import PaymentFramePage from './routes/PaymentFramePage';
import TopUpPage from './routes/TopUpPage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'payments', enPayments, true, true);
  i18n.addResourceBundle('en', 'errors', enErrors, true, true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  sessionStorage.clear();
});

const SETTINGS = ok({
  lang: 'en-US',
  currencies: ['TND'],
  defaultCurrency: 'TND',
  phoneCountryCode: '+216',
  phoneLength: 8,
  limits: { payment: { withdrawal: { min: 10, max: 10000 }, topUp: { min: 5, max: 20000 }, eTopUp: { min: 10, max: 5000 }, eWithdrawal: { min: 20, max: 5000 } } },
});
const CASHIERS = ok([
  { id: 31, name: 'Demo cashier, 12 Avenue Habib Bourguiba, Tunis, +216 71 000 000', first_name: 'Demo cashier', address: '12 Avenue Habib Bourguiba, Tunis', phone: '+216 71 000 000' },
]);
const rg = (day: number | null, usedDay: number) =>
  ok({
    currency: 'TND',
    deposit_limits: { day: day === null ? null : { amount: day, pending_amount: null, pending_from: null }, week: null, month: null },
    used: { day: usedDay, week: usedDay, month: usedDay },
    self_excluded_until: null,
    self_excluded_permanent: false,
    cool_off_until: null,
    reality_check_minutes: 0,
    raise_delay_hours: 24,
  });

function renderAt(ui: ReactNode, { path, state, user = {} }: { path: string; state?: unknown; user?: Partial<SessionUser> }) {
  const store = makeStore({
    auth: { ...initialAuthState, checked: true, isAuth: true, user: { ...testUser, ...user }, balance: testBalance },
  });
  return {
    store,
    ...render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[{ pathname: path, state }]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="/payment-frame" element={<p>frame</p>} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    ),
  };
}

/** Text without the Unicode isolates that keep an amount in one piece inside Arabic. */
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2068\u2069]/g, '');

describe('a player who cannot deposit online (item 9)', () => {
  for (const [name, Page, path] of [
    ['/profile/top-up', TopUpPage, '/profile/top-up'],
    ['/profile/paykassma/deposit', PaykassmaDepositPage, '/profile/paykassma/deposit'],
  ] as const) {
    it(`is told before the amount form on ${name}, with their player id and the cashiers`, async () => {
      const fetchMock = mockApi({ '/api/site/settings': SETTINGS, '/api/payment/cashiers': CASHIERS, '/api/user/balance': ok(testBalance) });
      renderAt(<Page />, { path, user: { canDepositOnline: false, isOnPaykassmaPayment: path.includes('paykassma') } });
      const box = await screen.findByTestId('offline-deposit');
      expect(box.textContent).toContain('Online deposits are for players who signed up on our website');
      expect(within(box).getByTestId('offline-player-id').textContent).toBe('7');
      expect((await within(box).findByTestId('offline-cashiers')).textContent).toContain('12 Avenue Habib Bourguiba');
      // No amount to type, nothing that would be refused with 82.
      expect(screen.queryByTestId('amount-input')).toBeNull();
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    });
  }

  it('gets the form when the server says they may deposit online', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    renderAt(<TopUpPage />, { path: '/profile/top-up', user: { canDepositOnline: true } });
    await screen.findByTestId('amount-input');
    expect(screen.queryByTestId('offline-deposit')).toBeNull();
  });
});

describe('the deposit form and the deposit limits (item 13)', () => {
  it('says what the daily limit still allows, in money, and caps the amount to it', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance), '/api/user/responsible-gambling': rg(100, 60) });
    renderAt(<TopUpPage />, { path: '/profile/top-up' });
    expect(plain((await screen.findByTestId('deposit-allowance')).textContent)).toBe('Your daily deposit limit still allows 40.000 TND.');
    // Presets above the allowance are not offered; a larger amount is refused before the server.
    await waitFor(() => expect(screen.getAllByTestId('amount-preset').map((b) => b.getAttribute('aria-label'))).toEqual(['5.000 TND', '10.000 TND', '20.000 TND']));
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '50' } });
    expect(plain(screen.getByTestId('field-error').textContent)).toBe('The maximum is 40.000 TND.');
  });

  it('says when the limit is reached and offers no payment', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance), '/api/user/responsible-gambling': rg(100, 100) });
    renderAt(<TopUpPage />, { path: '/profile/top-up' });
    expect((await screen.findByTestId('deposit-allowance')).textContent).toBe(enPayments.limit.reachedDay);
    await waitFor(() => expect((screen.getByTestId('top-up-submit') as HTMLButtonElement).disabled).toBe(true));
  });

  it('shows nothing without a limit', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance), '/api/user/responsible-gambling': rg(null, 0) });
    renderAt(<TopUpPage />, { path: '/profile/top-up' });
    await waitFor(() => expect(screen.getAllByTestId('amount-preset')).toHaveLength(6));
    expect(screen.queryByTestId('deposit-allowance')).toBeNull();
  });

  it('computes the least allowance of the limits in force, exactly', () => {
    const state = {
      deposit_limits: { day: { amount: 100 }, week: { amount: 150.5 }, month: null },
      used: { day: 20.25, week: 120.3, month: 500 },
    };
    expect(depositAllowance(state, 3)).toEqual({ period: 'week', remaining: 30_200 });
    expect(depositAllowance({ deposit_limits: {}, used: {} }, 3)).toBeNull();
    expect(depositAllowance({ deposit_limits: { month: { amount: 10 } }, used: { month: 12 } }, 3)).toEqual({ period: 'month', remaining: 0 });
  });
});

describe('refusals carry their currency and decimals (item 13)', () => {
  const text = (error: { code: number; data?: unknown }, lang = 'en') => {
    const { key, params } = paymentRefusal(error, 'TND', lang);
    const bundle = (lang === 'fr' ? frErrors : lang === 'ar' ? arErrors : enErrors) as unknown as Record<string, string>;
    const k = key.map((x) => x.replace('errors:', '')).find((x) => bundle[x] !== undefined)!;
    return plain(bundle[k]!.replace(/\{\{(\w+)\}\}/g, (_, p: string) => params?.[p] ?? ''));
  };
  it('in English, French and Arabic', () => {
    expect(text({ code: 6252, data: 97.5 })).toBe('To withdraw, you still need to wager 97.500 TND.');
    expect(text({ code: 6252, data: 97.5 }, 'fr')).toBe('Pour retirer, vous devez encore miser 97,500 TND.');
    expect(text({ code: 6252, data: 1250 }, 'fr')).toContain('1\u202f250,000 TND');
    expect(text({ code: 6252, data: 97.5 }, 'ar')).toContain('97.500 TND');
    expect(text({ code: 120, data: { period: 'day', limit: 100, used: 100, remaining: 0 } })).toBe(
      'This deposit is above your deposit limit: you can deposit 0.000 TND more for now.',
    );
    expect(text({ code: 81, data: { min: 10 } })).toBe('The minimum deposit is 10.000 TND.');
    expect(text({ code: 83, data: { max: 5000 } }, 'fr')).toBe('Le dépôt maximum est de 5\u202f000,000 TND.');
    expect(text({ code: 106, data: { min: 20 } })).toBe('The minimum withdrawal is 20.000 TND.');
    expect(text({ code: 84, data: { max: 5000 } })).toBe('The maximum withdrawal is 5,000.000 TND.');
    // A reply that names its currency is followed; the block (an object without an amount) is not an amount.
    expect(text({ code: 6252, data: { amount: 12.5, currency: 'USD' } })).toBe('To withdraw, you still need to wager 12.50 USD.');
    expect(text({ code: 6252, data: { reason: 'recovery', until: '2026-11-25T10:00:00Z' } })).toBe(enErrors['6252-1']);
    expect(wagerLeft({ code: 6252, data: 97.5 })).toEqual({ amount: 97.5, currency: null });
    expect(wagerLeft({ code: 6252, data: { reason: 'recovery' } })).toBeNull();
  });

  it('shows the amount still to wager in the payment frame and brings it back to the withdrawal form', async () => {
    mockApi({
      '/api/site/settings': SETTINGS,
      '/api/user/balance': ok(testBalance),
      'POST /paykassma/withdrawal/init': { status: 6252, result: 97.5, error_message: 'wager first' },
    });
    const pay: FrameRequest = { key: 'k-wager', kind: 'withdrawal', provider: 'paykassma', amount: 30, currency: 'TND', phone: '21620000001' };
    const store = makeStore({ auth: { ...initialAuthState, checked: true, isAuth: true, user: { ...testUser, isOnPaykassmaPayment: true }, balance: testBalance } });
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[{ pathname: '/payment-frame', state: { pay, prevPath: '/profile/paykassma/withdrawal' } }]}>
          <Routes>
            <Route path="/payment-frame" element={<PaymentFramePage />} />
            <Route path="/profile/paykassma/withdrawal" element={<PaykassmaWithdrawalPage />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    expect(plain((await screen.findByTestId('frame-error-text')).textContent)).toBe('To withdraw, you still need to wager 97.500 TND.');
    expect(screen.getByTestId('wager-left').textContent).toContain('97.500 TND');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('paykassma-withdrawal-form')).isConnected).toBe(true);
    expect(screen.getByTestId('wager-left').textContent).toContain('97.500 TND');
  });
});

describe('the pay history (item 11)', () => {
  const row = (over: Record<string, unknown>) => ({
    id: 1,
    created_at: '2026-11-24T10:00:00Z',
    value: 50,
    currency: 'TND',
    type: 'payment',
    status: 'succeeded',
    is_closed: true,
    payment_mode: 16,
    purse: 'sandbox',
    comment: '',
    ...over,
  });

  it('shows a rejected deposit as no money at all, and names each payment and its method', async () => {
    mockApi({
      '/api/payment/history/payment-with-withdrawal': ok([
        row({ id: 3, status: 'failed' }),
        row({ id: 2, status: 'succeeded' }),
        row({ id: 1, type: 'withdrawal', value: -20, status: 'CANCELED', payment_mode: 10, purse: 'cashier' }),
      ]),
    });
    renderAt(<PayHistory begin="2026-11-01" end="2026-11-24" />, { path: '/profile/history' });
    const [rejected, done, cancelled] = await screen.findAllByTestId('pay-entry');
    expect(rejected!.getAttribute('data-tone')).toBe('void');
    expect(within(rejected!).getByTestId('pay-status').textContent).toBe('Rejected');
    expect(within(rejected!).getByTestId('op-amount').querySelector('s')).not.toBeNull();
    expect(rejected!.textContent).not.toContain('+');
    expect(within(rejected!).getByTestId('pay-title').textContent).toBe('Deposit — Card');
    expect(done!.getAttribute('data-tone')).toBe('in');
    expect(cancelled!.getAttribute('data-tone')).toBe('void');
    expect(within(cancelled!).getByTestId('pay-title').textContent).toBe('Withdrawal — Cashier');
    expect(payTone({ type: 'payment', status: 'expired' })).toBe('void');
    expect(payTone({ type: 'withdrawal', status: 'pending' })).toBe('out');
  });

  it('follows an open payment until it is settled, without a reload', async () => {
    let paid = false;
    mockApi({
      '/api/payment/history/payment-with-withdrawal': () =>
        ok([row({ type: 'withdrawal', value: -30, payment_mode: 10, purse: 'cashier', status: paid ? 'PAID' : 'CREATED', is_closed: paid })]),
    });
    renderAt(<PayHistory begin="2026-11-01" end="2026-11-24" />, { path: '/profile/history' });
    expect((await screen.findByTestId('pay-status')).textContent).toBe('Pending');
    // The desk pays it.
    paid = true;
    await waitFor(() => expect(screen.getByTestId('pay-status').textContent).toBe('Completed'), { timeout: PAY_HISTORY_POLL_MS + 3000 });
  }, 15_000);
});

describe('withdrawals for a website sign-up (item 15)', () => {
  it('are offered to a phone and at a cashier', () => {
    mockApi({ '/api/user/balance': ok(testBalance) });
    renderAt(<ProfilePayments />, { path: '/profile', user: { isOnPaykassmaPayment: true } });
    expect(screen.getByRole('link', { name: 'Withdraw to phone' }).getAttribute('href')).toBe('/profile/paykassma/withdrawal');
    expect(screen.getByRole('link', { name: 'Withdraw at a cashier' }).getAttribute('href')).toBe('/profile/withdrawal');
  });

  it('start from the registered phone, which the player may change', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    renderAt(<PaykassmaWithdrawalPage />, { path: '/profile/paykassma/withdrawal', user: { isOnPaykassmaPayment: true, phone: '21620000001' } });
    const input = (await screen.findByLabelText('Phone number')) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('20000001'));
    fireEvent.change(input, { target: { value: '' } });
    await act(async () => {});
    expect(input.value).toBe('');
    expect(localPhone('21620000001', { iso: 'TN', code: '+216', length: 8 })).toBe('20000001');
    expect(localPhone('33612345678', { iso: 'TN', code: '+216', length: 8 })).toBe('');
    expect(localPhone(null, { iso: 'TN', code: '+216', length: 8 })).toBe('');
  });
});

describe('the payment styles (item 14)', () => {
  /** Class selectors defined at the top level of a CSS module, with how often. */
  const topLevelClasses = (path: string) => {
    const css = readFileSync(new URL(path, import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const seen = new Map<string, number>();
    let depth = 0;
    let selector = '';
    let inMedia = false;
    for (const ch of css) {
      if (ch === '{') {
        const sel = selector.trim();
        if (depth === 0 && sel.startsWith('@')) inMedia = true;
        else if ((depth === 0 || (depth === 1 && inMedia)) && !sel.startsWith('@')) {
          for (const part of sel.split(',')) {
            const m = /^\.([\w-]+)$/.exec(part.trim());
            if (m && !(depth === 1 && inMedia)) seen.set(m[1]!, (seen.get(m[1]!) ?? 0) + 1);
          }
        }
        depth += 1;
        selector = '';
      } else if (ch === '}') {
        depth -= 1;
        if (depth === 0) inMedia = false;
        selector = '';
      } else if (ch === ';' && depth === 0) selector = '';
      else selector += ch;
    }
    return [...seen].filter(([, n]) => n > 1).map(([c]) => c);
  };
  it('define each class once (a second .status made the frame status line nowrap: 442 px on 390)', () => {
    expect(topLevelClasses('./components/Payments.module.css')).toEqual([]);
    expect(topLevelClasses('../cashier/Cashier.module.css')).toEqual([]);
    expect(topLevelClasses('../../components/Operations.module.css')).toEqual([]);
    expect(topLevelClasses('../../components/Page.module.css')).toEqual([]);
  });
});
