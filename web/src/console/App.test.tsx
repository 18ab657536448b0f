import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../test/render';
import { bodiesOf, meReply, refusal, renderConsole } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  document.documentElement.dir = 'ltr';
  document.documentElement.lang = 'en';
});

const fill = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('the console sign-in', () => {
  it('shows the sign-in page without a console session and a one-time-code field', async () => {
    mockApi({ '/api/admin/me': refusal(23) });
    renderConsole('/players');
    await screen.findByTestId('console-signin');
    const code = screen.getByTestId('signin-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByLabelText('Authenticator code')).toBe(code);
    // Nothing typed: the button says why it cannot sign in yet.
    const submit = screen.getByTestId('signin-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(screen.getByText('Type your e-mail (or phone) and password first.')).toBeTruthy();
    // A pasted code keeps its six digits.
    fill('signin-code', '123 456 7');
    expect((code as HTMLInputElement).value).toBe('123456');
  });

  it('a session without the second factor (142) is sent to the sign-in page too', async () => {
    mockApi({ '/api/admin/me': refusal(142) });
    renderConsole('/');
    await screen.findByTestId('console-signin');
  });

  it('explains a wrong or used code (143), clears it, then signs in and opens the page asked for', async () => {
    let signedIn = false;
    let attempts = 0;
    const fetchMock = mockApi({
      '/api/admin/me': () => (signedIn ? meReply('admin') : refusal(23)),
      'POST /api/staff/login': () => {
        attempts += 1;
        if (attempts === 1) return refusal(143);
        signedIn = true;
        return ok({ token: 't', expiresAt: '', user: {} });
      },
      '/api/admin/players': ok([]),
    });
    renderConsole('/players?q=ali');
    await screen.findByTestId('console-signin');
    fill('signin-login', ' admin@carthage.local ');
    fill('signin-password', 'Admin1234');
    fill('signin-code', '111111');
    await act(async () => fireEvent.click(screen.getByTestId('signin-submit')));
    expect((await screen.findByTestId('signin-error')).textContent).toBe('This code is wrong or was already used. Wait for the next code and type it.');
    expect((screen.getByTestId('signin-code') as HTMLInputElement).value).toBe('');
    // The refusal asks nothing more of the server: what was typed stays.
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/admin/me')).toHaveLength(1);
    expect((screen.getByTestId('signin-login') as HTMLInputElement).value).toBe(' admin@carthage.local ');
    fill('signin-code', '222222');
    await act(async () => fireEvent.click(screen.getByTestId('signin-submit')));
    await screen.findByTestId('console-me');
    // The address asked for opens: the search with its query.
    expect((await screen.findByTestId('players-search') as HTMLInputElement).value).toBe('ali');
    expect(bodiesOf(fetchMock, '/api/staff/login')).toEqual([
      { login: 'admin@carthage.local', password: 'Admin1234', code: '111111' },
      { login: 'admin@carthage.local', password: 'Admin1234', code: '222222' },
    ]);
  });

  it('offers the enrolment when no authenticator is set up (144) and shows the secret to type', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': refusal(23),
      'POST /api/staff/login': refusal(144),
      'POST /api/staff/totp/enrol': ok({ secret: 'INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB', otpauthUri: 'otpauth://totp/Carthage:new?secret=INQX' }),
    });
    renderConsole('/');
    await screen.findByTestId('console-signin');
    fill('signin-login', 'new@carthage.local');
    fill('signin-password', 'Secret42');
    await act(async () => fireEvent.click(screen.getByTestId('signin-submit')));
    expect((await screen.findByTestId('signin-error')).textContent).toBe('Your account has no authenticator yet: set one up below.');
    await act(async () => fireEvent.click(screen.getByTestId('enrol-start')));
    expect((await screen.findByTestId('enrol-secret')).textContent).toBe('INQX E5DI MFTW KRDF NVXU CZDN NFXC CIJB');
    expect(screen.getByRole('link', { name: /Open the key/ }).getAttribute('href')).toBe('otpauth://totp/Carthage:new?secret=INQX');
    expect(bodiesOf(fetchMock, '/api/staff/totp/enrol')).toEqual([{ login: 'new@carthage.local', password: 'Secret42' }]);
    expect(bodiesOf(fetchMock, '/api/staff/login')).toEqual([{ login: 'new@carthage.local', password: 'Secret42', code: null }]);
  });

  it.each([
    [24, 'This account is not a staff account: it cannot use the console.'],
    [4, 'Wrong e-mail, phone or password.'],
    [16, 'Too many failed attempts: this account is locked for a while. Try again later.'],
    [145, 'An authenticator is already set up for this account: sign in with its code. Lost it? An administrator can reset it.'],
    [5555, 'Request execution failed.'],
  ])('says what refusal %i means', async (code, text) => {
    mockApi({ '/api/admin/me': refusal(23), 'POST /api/staff/login': refusal(code) });
    renderConsole('/');
    await screen.findByTestId('console-signin');
    fill('signin-login', 'x@carthage.local');
    fill('signin-password', 'pw');
    await act(async () => fireEvent.click(screen.getByTestId('signin-submit')));
    expect((await screen.findByTestId('signin-error')).textContent).toBe(text);
    expect(screen.queryByTestId('enrol-offer')).toBeNull();
  });
});

describe('the console shell', () => {
  it('shows support only the players and the audit trail', async () => {
    mockApi({ '/api/admin/me': meReply('support'), '/api/admin/players': ok([]) });
    renderConsole('/');
    const nav = await screen.findByTestId('console-nav');
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Players', 'Audit trail']);
    expect(screen.getByTestId('console-role').textContent).toBe('Support');
    expect(screen.getByTestId('console-me').textContent).toContain('Sami Ben Ali');
    // The index opens the first section.
    await screen.findByTestId('players-search');
  });

  it('shows finance the five sections, and refuses support a section typed by hand', async () => {
    mockApi({ '/api/admin/me': meReply('finance'), '/api/admin/payments/withdrawals': ok([]) });
    const { unmount } = renderConsole('/withdrawals');
    const nav = await screen.findByTestId('console-nav');
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Players', 'Withdrawals', 'Adjustments', 'Audit trail', 'Reports']);
    await screen.findByTestId('withdrawals-empty');
    unmount();

    const fetchMock = mockApi({ '/api/admin/me': meReply('support') });
    renderConsole('/withdrawals');
    await screen.findByTestId('console-forbidden');
    expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/admin/payments'))).toBe(false);
  });

  it('counts what waits for a decision beside its section', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/payments/withdrawals': ok([{ id: 1 }, { id: 2 }]),
      '/api/admin/wallet/adjust-requests': ok([{ id: 5 }]),
      '/api/admin/players': ok([]),
    });
    renderConsole('/players');
    expect((await screen.findByTestId('nav-count-withdrawals')).textContent).toBe('2');
    expect((await screen.findByTestId('nav-count-adjustments')).textContent).toBe('1');
    expect(screen.getByRole('link', { name: 'Withdrawals, 2 waiting' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/admin/payments/withdrawals?status=review')).toBe(true);
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/admin/wallet/adjust-requests?status=pending')).toBe(true);
  });

  it('a role with no section gets a page that says so', async () => {
    mockApi({ '/api/admin/me': meReply('content') });
    renderConsole('/');
    await screen.findByText('Nothing to open here yet');
    expect(screen.queryByTestId('console-nav')).toBeNull();
  });

  it('signs out and returns to the sign-in page', async () => {
    let signedIn = true;
    const fetchMock = mockApi({
      '/api/admin/me': () => (signedIn ? meReply('admin') : refusal(23)),
      'POST /api/staff/logout': () => {
        signedIn = false;
        return ok({ done: true });
      },
      '/api/admin/players': ok([]),
    });
    renderConsole('/players');
    await screen.findByTestId('console-me');
    await act(async () => fireEvent.click(screen.getByTestId('console-signout')));
    await screen.findByTestId('console-signin');
    expect(bodiesOf(fetchMock, '/api/staff/logout')).toHaveLength(1);
  });

  it('shows the sign-in page at the same address when the session ends while a page is open', async () => {
    let session = true;
    mockApi({
      '/api/admin/me': () => (session ? meReply('finance') : refusal(23)),
      '/api/admin/wallet/adjust-requests': () => (session ? ok([]) : refusal(23)),
      '/api/admin/payments/withdrawals': () => refusal(23),
    });
    const { router } = renderConsole('/adjustments');
    await screen.findByTestId('requests-empty');
    // 30 minutes idle: the next call is refused.
    session = false;
    await act(async () => fireEvent.click(screen.getByTestId('nav-withdrawals')));
    await screen.findByTestId('console-signin');
    expect(router.state.location.pathname).toBe('/console/withdrawals');
  });

  it('switches to Arabic right to left and remembers it', async () => {
    mockApi({ '/api/admin/me': meReply('admin'), '/api/admin/players': ok([]) });
    renderConsole('/players');
    await screen.findByTestId('console-me');
    await act(async () => fireEvent.change(screen.getByTestId('console-lang'), { target: { value: 'ar' } }));
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(document.documentElement.lang).toBe('ar');
    expect(localStorage.getItem('carthage.lang')).toBe('ar');
    await screen.findByText('اللاعبون', { selector: 'h1' });
    await act(async () => fireEvent.change(screen.getByTestId('console-lang'), { target: { value: 'en' } }));
    await waitFor(() => expect(document.documentElement.dir).toBe('ltr'));
  });
});
