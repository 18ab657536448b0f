import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import i18n from 'i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/api';
import { initialAuthState } from '../../app/authSlice';
import { makeStore } from '../../app/store';
import { mockApi, ok, testBalance, testUser } from '../../test/render';
import enPayments from '../../locales/en/payments.json';
import frPayments from '../../locales/fr/payments.json';
import arPayments from '../../locales/ar/payments.json';
import HomePayments from './components/HomePayments';
import OnlineDepositButton from './components/OnlineDepositButton';
import ProfilePayments from './components/ProfilePayments';
import { topLevel, type FrameRequest } from './frame';
import PaykassmaWithdrawalPage from './routes/PaykassmaWithdrawalPage';
import PaymentFramePage, { POLL_MS, REVIEW_POLL_MS } from './routes/PaymentFramePage';
import TopUpPage from './routes/TopUpPage';
import TopUpTgPage from './routes/TopUpTgPage';
import PayHistory from './components/PayHistory';

beforeAll(() => {
  i18n.addResourceBundle('en', 'payments', enPayments, true, true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  delete (window as { Telegram?: unknown }).Telegram;
});

const SETTINGS = ok({
  lang: 'en-US',
  currencies: ['TND'],
  defaultCurrency: 'TND',
  limits: {
    payment: {
      withdrawal: { min: 10, max: 10000 },
      topUp: { min: 5, max: 20000 },
      eTopUp: { min: 10, max: 5000 },
      eWithdrawal: { min: 20, max: 5000 },
    },
  },
});

/** Where the router is, for assertions. */
function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname}</output>;
}

/** The balance query as the app shell keeps it subscribed (app/startup.ts). */
function BalanceSubscriber() {
  api.useBalanceQuery();
  return null;
}

function renderAt(
  ui: ReactNode,
  { path, state, user = testUser, strict = false }: { path: string; state?: unknown; user?: Partial<typeof testUser> | null; strict?: boolean },
) {
  const store = makeStore({
    auth: {
      ...initialAuthState,
      checked: true,
      isAuth: user !== null,
      user: user ? { ...testUser, ...user } : null,
      balance: user ? testBalance : null,
    },
  });
  const tree = (
    <Provider store={store}>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        {user ? <BalanceSubscriber /> : null}
        <Where />
        <Routes>
          <Route path={path} element={ui} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>
  );
  return { store, ...render(strict ? <StrictMode>{tree}</StrictMode> : tree) };
}

const calls = (fetchMock: ReturnType<typeof mockApi>, method: string, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET') === method);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>;

describe('/profile/top-up', () => {
  it('offers presets within limits.payment.topUp, validates the free amount, then opens the frame', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    let framed: FrameRequest | null = null;
    function Frame() {
      framed = (useLocation().state as { pay: FrameRequest }).pay;
      return <p>frame</p>;
    }
    const store = makeStore({ auth: { ...initialAuthState, checked: true, isAuth: true, user: testUser, balance: testBalance } });
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/profile/top-up']}>
          <Routes>
            <Route path="/profile/top-up" element={<TopUpPage />} />
            <Route path="/payment-frame" element={<Frame />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    await waitFor(() => expect(screen.getAllByTestId('amount-preset')).toHaveLength(6), { timeout: 5000 });
    expect(screen.getAllByTestId('amount-preset').map((b) => b.getAttribute('aria-label'))).toEqual([
      '5.000 TND',
      '10.000 TND',
      '20.000 TND',
      '50.000 TND',
      '100.000 TND',
      '200.000 TND',
    ]);
    expect(screen.getByRole('button', { name: '200.000 TND' }).textContent).toBe('200TND');
    expect(await screen.findByText(/^From \u2068?5\.000 TND\u2069? to \u2068?20,000\.000 TND\u2069?$/)).toBeTruthy();
    const input = screen.getByTestId('amount-input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '12.3456' } });
    expect(screen.getByTestId('field-error').textContent).toBe('At most 3 digits after the decimal point.');
    fireEvent.change(input, { target: { value: '4.999' } });
    expect(screen.getByTestId('field-error').textContent?.replace(/[\u2068\u2069]/g, '')).toBe('The minimum is 5.000 TND.');
    fireEvent.change(input, { target: { value: '20000.001' } });
    expect(screen.getByTestId('field-error').textContent?.replace(/[\u2068\u2069]/g, '')).toBe('The maximum is 20,000.000 TND.');
    fireEvent.click(screen.getByTestId('top-up-submit'));
    expect(framed).toBeNull();
    fireEvent.click(screen.getAllByTestId('amount-preset')[3]!);
    expect(input.value).toBe('50');
    expect(screen.getAllByTestId('amount-preset')[3]!.getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(input, { target: { value: '50.125' } });
    fireEvent.click(screen.getByTestId('top-up-submit'));
    await screen.findByText('frame');
    expect(framed).toMatchObject({ kind: 'deposit', provider: 'card', amount: 50.125, currency: 'TND' });
    // The information pop-ups: replenishment and impostor open, webmoney closed.
    expect(screen.queryByTestId('info-webmoney')).toBeNull();
  }, 20_000);

  it('shows the information pop-ups as the spec starts them', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    renderAt(<TopUpPage />, { path: '/profile/top-up' });
    await screen.findAllByTestId('amount-preset', {}, { timeout: 5000 });
    expect((screen.getByTestId('info-replenishment') as HTMLDetailsElement).open).toBe(true);
    expect((screen.getByTestId('info-impostor') as HTMLDetailsElement).open).toBe(true);
    expect((screen.getByTestId('info-cashier') as HTMLDetailsElement).open).toBe(true);
    expect(screen.getByTestId('info-cashier').textContent).toContain('ID 7');
    expect((screen.getByTestId('info-webmoney') as HTMLDetailsElement).open).toBe(false);
  });
});

const depositRequest = (over: Partial<FrameRequest> = {}): FrameRequest => ({
  key: `k-${Math.random()}`,
  kind: 'deposit',
  provider: 'card',
  amount: 50,
  currency: 'TND',
  ...over,
});

/** A server whose intent succeeds once `paid()` is called, and whose balance follows. */
function depositServer(overrides: Record<string, unknown> = {}) {
  let paid = false;
  const fetchMock = mockApi({
    '/api/site/settings': SETTINGS,
    'POST /api/payment/token': ok({ token: 'tok-1' }),
    'POST /api/payment/deposit': ok({ invoice_url: 'http://pay.test/sandbox/pay/42', id: 42, status: 'pending' }),
    '/api/payment/intent/42': () =>
      ok({
        id: 42,
        kind: 'deposit',
        provider: 'sandbox',
        status: paid ? 'succeeded' : 'pending',
        amount: 50,
        currency: 'TND',
        created_at: '2026-11-24T10:00:00Z',
        updated_at: '2026-11-24T10:00:00Z',
      }),
    '/api/user/balance': () => ok({ ...testBalance, balance: paid ? 550 : 500 }),
    ...overrides,
  });
  return { fetchMock, pay: () => (paid = true) };
}

const fromFrame = (data: unknown) => {
  const frame = screen.getByTestId('payment-frame') as HTMLIFrameElement;
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, source: frame.contentWindow }));
  });
};

describe('/payment-frame', () => {
  it('starts the deposit once (strict mode), frames the link, and shows the new balance as soon as it succeeds', async () => {
    const server = depositServer();
    const { store } = renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest() }, strict: true });
    const frame = (await screen.findByTestId('payment-frame')) as HTMLIFrameElement;
    expect(frame.src).toBe('http://pay.test/sandbox/pay/42');
    expect(calls(server.fetchMock, 'POST', '/api/payment/token')).toHaveLength(1);
    const deposits = calls(server.fetchMock, 'POST', '/api/payment/deposit');
    expect(deposits).toHaveLength(1);
    expect(bodyOf(deposits[0]!)).toEqual({ amount: 50, sessionToken: 'tok-1' });
    const balanceCallsBefore = calls(server.fetchMock, 'GET', '/api/user/balance').length;

    // The hosted page reports the result: the frame asks the server (never trusts the message).
    server.pay();
    fromFrame({ type: 'carthage:payment', id: 42, status: 'succeeded' });
    expect(await screen.findByTestId('frame-succeeded')).toBeTruthy();
    expect(screen.queryByTestId('payment-frame')).toBeNull();
    await waitFor(() => expect(store.getState().auth.balance?.balance).toBe(550));
    expect(calls(server.fetchMock, 'GET', '/api/user/balance').length).toBeGreaterThan(balanceCallsBefore);
    // The store has it: the page shows it at its next render.
    await waitFor(() => expect(screen.getByTestId('frame-balance').textContent).toBe('550.000 TND'));
    expect(screen.getByTestId('frame-succeeded').textContent).toContain('50.000 TND has been added to your balance.');
  });

  it('polls the intent every 2 s without any message', async () => {
    const server = depositServer();
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest() } });
    await screen.findByTestId('payment-frame');
    server.pay();
    expect(await screen.findByTestId('frame-succeeded', {}, { timeout: 5000 })).toBeTruthy();
  }, 10_000);

  it('ignores messages that do not come from the framed page or name another intent', async () => {
    const server = depositServer();
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest() } });
    await screen.findByTestId('payment-frame');
    await waitFor(() => expect(calls(server.fetchMock, 'GET', '/api/payment/intent/42')).toHaveLength(1));
    server.pay();
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'carthage:payment', id: 42, status: 'succeeded' }, source: window }));
    });
    fromFrame({ type: 'carthage:payment', id: 43, status: 'succeeded' });
    fromFrame({ type: 'web_app_expand_not' });
    await new Promise((r) => setTimeout(r, 200));
    expect(calls(server.fetchMock, 'GET', '/api/payment/intent/42')).toHaveLength(1);
    expect(screen.getByTestId('payment-frame')).toBeTruthy();
  });

  it('reuses the same intent on a reload of the same request', async () => {
    const server = depositServer();
    const pay = depositRequest();
    const first = renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay } });
    await screen.findByTestId('payment-frame');
    first.unmount();
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay } });
    await screen.findByTestId('payment-frame');
    expect(calls(server.fetchMock, 'POST', '/api/payment/deposit')).toHaveLength(1);
    expect(calls(server.fetchMock, 'POST', '/api/payment/token')).toHaveLength(1);
  });

  it('follows a code-20 reply to result.url in the top-level window', async () => {
    const assign = vi.spyOn(topLevel, 'assign').mockImplementation(() => {});
    const server = depositServer({
      'POST /api/payment/deposit': { status: 20, result: { url: 'https://bank.test/3ds?x=1', id: 42 }, error_message: 'Continue at the URL' },
    });
    const pay = depositRequest();
    const first = renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay } });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://bank.test/3ds?x=1'));
    expect(screen.getByText('Opening the payment page…')).toBeTruthy();
    first.unmount();
    // Back from the provider (browser Back, a reload): the same intent is followed, nothing restarts.
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay } });
    expect(await screen.findByTestId('frame-at-provider')).toBeTruthy();
    expect(assign).toHaveBeenCalledTimes(1);
    expect(calls(server.fetchMock, 'POST', '/api/payment/deposit')).toHaveLength(1);
    await waitFor(() => expect(calls(server.fetchMock, 'GET', '/api/payment/intent/42').length).toBeGreaterThan(0));
    fireEvent.click(screen.getByRole('button', { name: 'Open the payment page' }));
    expect(assign).toHaveBeenLastCalledWith('https://bank.test/3ds?x=1');
    // Paid at the provider: the result shows here.
    server.pay();
    expect(await screen.findByTestId('frame-succeeded', {}, { timeout: 5000 })).toBeTruthy();
  }, 10_000);

  it('answers web_app_expand by going to the paykassma deposit route', async () => {
    depositServer();
    const expand = vi.fn();
    (window as { Telegram?: unknown }).Telegram = { WebApp: { expand } };
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest() } });
    await screen.findByTestId('payment-frame');
    fromFrame(JSON.stringify({ eventType: 'web_app_expand', eventData: {} }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/profile/paykassma/deposit'));
    expect(expand).toHaveBeenCalled();
  });

  it('shows a refusal with its message and starts nothing more', async () => {
    const server = depositServer({
      'POST /api/payment/deposit': { status: 106, result: null, error_message: 'Output less than minimum' },
    });
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest() } });
    expect(await screen.findByTestId('frame-error')).toBeTruthy();
    expect(screen.getByTestId('frame-error-text').textContent).not.toBe('');
    expect(calls(server.fetchMock, 'GET', '/api/payment/intent/42')).toHaveLength(0);
  });

  it('shows a declined card and offers to try again', async () => {
    depositServer({
      '/api/payment/intent/42': ok({ id: 42, kind: 'deposit', provider: 'sandbox', status: 'failed', amount: 50, currency: 'TND', created_at: '', updated_at: '' }),
    });
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest(), prevPath: '/profile/top-up' } });
    expect(await screen.findByTestId('frame-failed')).toBeTruthy();
    expect(screen.getByText('Payment not completed')).toBeTruthy();
    expect(screen.getByText('Try again').closest('a')?.getAttribute('href')).toBe('/profile/top-up');
  });

  it('starts nothing for a guest or without a request', async () => {
    const fetchMock = depositServer().fetchMock;
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay: depositRequest() }, user: null });
    expect(await screen.findByText('Please sign in to make a payment.')).toBeTruthy();
    expect(calls(fetchMock, 'POST', '/api/payment/deposit')).toHaveLength(0);
  });

  it('says so when no payment was asked for', async () => {
    depositServer();
    renderAt(<PaymentFramePage />, { path: '/payment-frame' });
    expect(await screen.findByTestId('frame-nothing')).toBeTruthy();
  });
});

describe('paykassma withdrawal', () => {
  it('takes a phone and an amount within eWithdrawal, holds the funds and reports the withdrawal', async () => {
    let status = 'pending';
    const fetchMock = mockApi({
      '/api/site/settings': SETTINGS,
      'POST /paykassma/withdrawal/init': ok({ id: 77, status: 'pending', user_amount: 25, user_currency: 'TND' }),
      '/api/payment/intent/77': () =>
        ok({ id: 77, kind: 'withdrawal', provider: 'paykassma', status, amount: 25, currency: 'TND', created_at: '', updated_at: '' }),
      '/api/user/balance': () => ok({ ...testBalance, balance: 475 }),
    });
    const store = makeStore({
      auth: { ...initialAuthState, checked: true, isAuth: true, user: { ...testUser, isOnPaykassmaPayment: true }, balance: testBalance },
    });
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/profile/paykassma/withdrawal']}>
          <BalanceSubscriber />
          <Routes>
            <Route path="/profile/paykassma/withdrawal" element={<PaykassmaWithdrawalPage />} />
            <Route path="/payment-frame" element={<PaymentFramePage />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    await screen.findAllByTestId('amount-preset');
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '25' } });
    fireEvent.click(screen.getByTestId('paykassma-withdrawal-submit'));
    expect(screen.getByText('Enter the 8 digits of your phone number.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '12 345 678' } });
    fireEvent.click(screen.getByTestId('paykassma-withdrawal-submit'));
    expect(await screen.findByTestId('frame-withdrawalPending')).toBeTruthy();
    const init = calls(fetchMock, 'POST', '/paykassma/withdrawal/init');
    expect(init).toHaveLength(1);
    expect(bodyOf(init[0]!)).toEqual({ amount: 25, phone_number: '21612345678' });
    // The hold shows at once.
    await waitFor(() => expect(store.getState().auth.balance?.balance).toBe(475));
    expect(store.getState().notifications.items.some((n) => n.text === 'withdrawalInitiated')).toBe(true);
    status = 'succeeded';
    expect(await screen.findByTestId('frame-withdrawalSucceeded', {}, { timeout: 5000 })).toBeTruthy();
  }, 10_000);

  it('says a large withdrawal is being checked while staff review it', async () => {
    mockApi({
      '/api/site/settings': SETTINGS,
      'POST /paykassma/withdrawal/init': ok({ id: 79, status: 'review', user_amount: 2000, user_currency: 'TND' }),
      '/api/payment/intent/79': ok({ id: 79, kind: 'withdrawal', provider: 'paykassma', status: 'review', amount: 2000, currency: 'TND', created_at: '', updated_at: '' }),
      '/api/user/balance': ok(testBalance),
    });
    const pay: FrameRequest = { key: 'w79', kind: 'withdrawal', provider: 'paykassma', amount: 2000, currency: 'TND', phone: '21612345678' };
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay }, user: { isOnPaykassmaPayment: true } });
    expect(await screen.findByTestId('frame-withdrawalReview')).toBeTruthy();
    expect(screen.getByText('Withdrawal being checked')).toBeTruthy();
    expect(await screen.findByText(/Reference 79 · In review/)).toBeTruthy();
    expect(REVIEW_POLL_MS).toBeGreaterThan(POLL_MS * 10);
  });

  it('frames the provider page of a withdrawal that has one', async () => {
    mockApi({
      '/api/site/settings': SETTINGS,
      'POST /paykassma/withdrawal/init': ok({ id: 78, status: 'pending', user_amount: 30, user_currency: 'TND', invoice_url: 'http://pay.test/pay/sandbox/w78' }),
      '/api/payment/intent/78': ok({ id: 78, kind: 'withdrawal', provider: 'sandbox', status: 'pending', amount: 30, currency: 'TND', created_at: '', updated_at: '' }),
      '/api/user/balance': ok(testBalance),
    });
    const pay: FrameRequest = { key: 'w78', kind: 'withdrawal', provider: 'paykassma', amount: 30, currency: 'TND', phone: '21612345678' };
    renderAt(<PaymentFramePage />, { path: '/payment-frame', state: { pay }, user: { isOnPaykassmaPayment: true } });
    expect(((await screen.findByTestId('payment-frame')) as HTMLIFrameElement).src).toBe('http://pay.test/pay/sandbox/w78');
  });

  it('is not a normal player’s page', async () => {
    mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    renderAt(<PaykassmaWithdrawalPage />, { path: '/profile/paykassma/withdrawal' });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/profile/withdrawal'));
  });
});

describe('/profile/top-up-tg', () => {
  it('creates the USDT deposit for the Telegram user, shows the recorded rate and the credit, then frames it', async () => {
    (window as { Telegram?: unknown }).Telegram = { WebApp: { initDataUnsafe: { user: { id: 5551234 } } } };
    const fetchMock = mockApi({
      '/api/site/settings': SETTINGS,
      'POST /api/payment/telegram/deposit': ok({
        invoice_url: 'http://pay.test/crypto/9',
        id: 9,
        status: 'pending',
        rate: '3.105000',
        credit_amount: 31.05,
        credit_currency: 'TND',
      }),
      '/api/payment/intent/9': ok({ id: 9, kind: 'deposit', provider: 'crypto', status: 'pending', amount: 10, currency: 'USDT', created_at: '', updated_at: '' }),
      '/api/user/balance': ok(testBalance),
    });
    const store = makeStore({ auth: { ...initialAuthState, checked: true, isAuth: true, user: testUser, balance: testBalance } });
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/profile/top-up-tg']}>
          <Routes>
            <Route path="/profile/top-up-tg" element={<TopUpTgPage />} />
            <Route path="/payment-frame" element={<PaymentFramePage />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    );
    await screen.findByTestId('tg-form');
    fireEvent.change(screen.getByTestId('amount-input'), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('tg-submit'));
    expect(await screen.findByTestId('tg-quote')).toBeTruthy();
    expect(bodyOf(calls(fetchMock, 'POST', '/api/payment/telegram/deposit')[0]!)).toEqual({
      telegram_user_id: '5551234',
      amount: 10,
      payment_currency: 'USDT',
    });
    expect(screen.getByTestId('tg-rate').textContent).toBe('1 USDT = 3.105 TND');
    expect(screen.getByTestId('tg-credit').textContent).toBe('31.050 TND');
    fireEvent.click(screen.getByTestId('tg-pay'));
    const frame = (await screen.findByTestId('payment-frame')) as HTMLIFrameElement;
    expect(frame.src).toBe('http://pay.test/crypto/9');
    // The deposit existed already: the frame started nothing.
    expect(calls(fetchMock, 'POST', '/api/payment/token')).toHaveLength(0);
    expect(calls(fetchMock, 'POST', '/api/payment/telegram/deposit')).toHaveLength(1);
  });

  it('explains itself outside Telegram and asks nothing', async () => {
    const fetchMock = mockApi({ '/api/site/settings': SETTINGS, '/api/user/balance': ok(testBalance) });
    renderAt(<TopUpTgPage />, { path: '/profile/top-up-tg' });
    expect((await screen.findByTestId('tg-missing')).textContent).toBe(enPayments.tg.noTelegram);
    expect(calls(fetchMock, 'POST', '/api/payment/telegram/deposit')).toHaveLength(0);
  });
});

describe('home top-up block, withdraw banner, profile entries, Online deposit', () => {
  it('gives a guest the attention modal and no banner', async () => {
    mockApi({});
    renderAt(<HomePayments />, { path: '/home', user: null });
    expect(screen.queryByTestId('withdraw-banner')).toBeNull();
    fireEvent.click(screen.getByTestId('home-top-up-button'));
    expect((await screen.findByTestId('top-up-attention')).textContent).toBe(enPayments.home.guestText);
    fireEvent.click(screen.getByText('OK'));
    expect(screen.queryByTestId('top-up-attention')).toBeNull();
  });

  it('gives a normal player the attention modal with the online top-up, and the withdraw banner', async () => {
    mockApi({ '/api/user/balance': ok(testBalance) });
    renderAt(<HomePayments />, { path: '/home' });
    expect(screen.getByTestId('withdraw-banner').getAttribute('href')).toBe('/profile/withdrawal');
    fireEvent.click(screen.getByTestId('home-top-up-button'));
    expect(await screen.findByTestId('top-up-attention')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Deposit online' }).getAttribute('href')).toBe('/profile/top-up');
  });

  it('sends a paykassma player straight to the paykassma deposit', async () => {
    mockApi({ '/api/user/balance': ok(testBalance) });
    renderAt(<HomePayments />, { path: '/home', user: { isOnPaykassmaPayment: true } });
    expect(screen.getByTestId('withdraw-banner').getAttribute('href')).toBe('/profile/paykassma/withdrawal');
    fireEvent.click(screen.getByTestId('home-top-up-button'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/profile/paykassma/deposit'));
  });

  it('gives a Telegram user the USDT deposit and no withdrawal anywhere', async () => {
    (window as { Telegram?: unknown }).Telegram = { WebApp: { initDataUnsafe: { user: { id: 8 } } } };
    mockApi({ '/api/user/balance': ok(testBalance) });
    renderAt(
      <>
        <HomePayments />
        <ProfilePayments />
      </>,
      { path: '/home' },
    );
    expect(screen.queryByTestId('withdraw-banner')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Withdraw' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Deposit in USDT' }).getAttribute('href')).toBe('/profile/top-up-tg');
  });

  it('shows the Online deposit button to paykassma players only', () => {
    mockApi({ '/api/user/balance': ok(testBalance) });
    const normal = renderAt(<OnlineDepositButton />, { path: '/home' });
    expect(screen.queryByTestId('online-deposit')).toBeNull();
    normal.unmount();
    renderAt(
      <>
        <OnlineDepositButton />
        <ProfilePayments />
      </>,
      { path: '/home', user: { isOnPaykassmaPayment: true } },
    );
    expect(screen.getByTestId('online-deposit').getAttribute('href')).toBe('/profile/paykassma/deposit');
    expect(screen.getByTestId('profile-payments').querySelector('a')?.textContent).toBe('Online deposit');
    // A website sign-up withdraws to a phone or at a cashier (issue 18 item 15).
    expect(screen.getByRole('link', { name: 'Withdraw to phone' }).getAttribute('href')).toBe('/profile/paykassma/withdrawal');
    expect(screen.getByRole('link', { name: 'Withdraw at a cashier' }).getAttribute('href')).toBe('/profile/withdrawal');
  });
});

describe('pay history', () => {
  it('lists deposits and withdrawals with their status, and refreshes when a deposit succeeds', async () => {
    let succeeded = false;
    const fetchMock = mockApi({
      '/api/payment/history/payment-with-withdrawal': () =>
        ok([
          { id: 2, created_at: '2026-11-24T10:05:00Z', value: -25, currency: 'TND', type: 'withdrawal', status: 'pending', is_closed: false, payment_mode: 10, purse: 'paykassma', comment: '' },
          { id: 1, created_at: '2026-11-24T10:00:00Z', value: 50, currency: 'TND', type: 'payment', status: succeeded ? 'succeeded' : 'pending', is_closed: succeeded, payment_mode: 16, purse: 'sandbox', comment: '' },
          { id: 3, created_at: '2026-11-23T10:00:00Z', value: -10, currency: 'TND', type: 'withdrawal', status: 'CANCELED', is_closed: true, payment_mode: 10, purse: 'cashier', comment: '' },
        ]),
    });
    const { store } = renderAt(<PayHistory begin="2026-11-01" end="2026-11-24" />, { path: '/profile/history' });
    await screen.findByTestId('pay-history');
    expect(screen.getAllByTestId('pay-status').map((s) => s.textContent)).toEqual(['Pending', 'Pending', 'Rejected']);
    expect(screen.getAllByTestId('pay-entry')[1]!.textContent).toContain('Deposit');
    expect(screen.getAllByTestId('pay-entry')[1]!.textContent).toContain('Card');
    expect(screen.getAllByTestId('pay-entry')[0]!.textContent).toContain('−25.000 TND'.replace('−', '-'));
    const url = String(calls(fetchMock, 'GET', '/api/payment/history/payment-with-withdrawal')[0]![0]);
    expect(url).toContain('begin=2026-11-01');
    expect(url).toContain('end=2026-11-24');
    // The payment frame's success invalidates 'History': the list asks again.
    succeeded = true;
    act(() => {
      store.dispatch(api.util.invalidateTags(['History']));
    });
    await waitFor(() => expect(screen.getAllByTestId('pay-status')[1]!.textContent).toBe('Completed'));
  });
});

describe('payments locales', () => {
  const keys = (obj: object, prefix = ''): string[] =>
    Object.entries(obj).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]));
  const value = (obj: object, key: string) => key.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], obj);
  it('have the same keys and placeholders in English, French and Arabic', () => {
    const en = keys(enPayments).sort();
    expect(keys(frPayments).sort()).toEqual(en);
    expect(keys(arPayments).sort()).toEqual(en);
    const holes = (s: unknown) => [...String(s).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const k of en) {
      expect(holes(value(frPayments, k)), `fr ${k}`).toEqual(holes(value(enPayments, k)));
      expect(holes(value(arPayments, k)), `ar ${k}`).toEqual(holes(value(enPayments, k)));
    }
  });
  it('write Arabic in Arabic script', () => {
    const arabic = keys(arPayments).filter((k) => /[\u0600-\u06FF]/.test(String(value(arPayments, k))));
    expect(arabic.length / keys(arPayments).length).toBeGreaterThan(0.9);
  });
});
