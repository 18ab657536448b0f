import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testUser } from '../../test/render';
import { AuthViews } from './components/AuthModal';
import { verificationCode } from './routes/VerifyPage';

afterEach(() => vi.unstubAllGlobals());

const settings = ok({ lang: 'en-US', currencies: ['TND', 'USDT'], defaultCurrency: 'TND', phoneCodeSalt: 's', phoneLength: 8 });

describe('registration form', () => {
  it('enables submit only when the phone form is valid, with a live strength rule and the repeat mismatch under its field', async () => {
    mockApi({ '/api/site/settings': settings });
    renderApp(<AuthViews type="registration" />);
    const submit = screen.getByRole('button', { name: 'Create account' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '20000001' } });
    fireEvent.change(screen.getByLabelText('SMS code'), { target: { value: '1234' } });
    const password = screen.getByLabelText('Password');
    const strength = screen.getByTestId('password-strength');
    expect(password.getAttribute('aria-describedby')).toContain(strength.id);
    fireEvent.change(password, { target: { value: 'abc1' } });
    expect(strength.dataset.level).toBe('weak');
    expect(screen.getByTestId('password-strength-status').textContent).toBe('Weak password');
    fireEvent.change(password, { target: { value: 'abc12' } });
    expect(strength.dataset.level).toBe('fair');
    expect(screen.getByTestId('password-strength-status').textContent).toBe('Almost there');
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc13' } });
    const repeatField = screen.getByLabelText('Repeat password').closest('[data-field="repeat"]')!;
    expect(repeatField.querySelector('[data-testid="field-error"]')?.textContent).toContain('The repeated password does not match.');
    expect(screen.getByLabelText('Repeat password').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc12' } });
    // Weak (5 characters): not sent.
    expect(submit.disabled).toBe(true);
    fireEvent.change(password, { target: { value: 'abc123' } });
    expect(strength.dataset.level).toBe('strong');
    expect(screen.getByTestId('password-strength-status').textContent).toBe('Strong password');
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc123' } });
    expect(repeatField.querySelector('[data-testid="field-error"]')).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it('shows a refused SMS code under the code field with the attempts left', async () => {
    mockApi({
      '/api/site/settings': settings,
      'POST /api/user/signup/phone': { status: 12, result: { field: 'phoneCode', reason: 'code_mismatch', attemptsLeft: 3 }, error_message: 'x' },
    });
    const { store } = renderApp(<AuthViews type="registration" />);
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '20000001' } });
    fireEvent.change(screen.getByLabelText('SMS code'), { target: { value: '1234' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc123' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc123' } });
    fireEvent.click(screen.getByRole('checkbox'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    const error = await screen.findByTestId('field-error');
    expect(error.textContent).toBe('The code does not match. 3 attempts left.');
    const input = screen.getByLabelText('SMS code');
    expect(input.getAttribute('aria-describedby')).toBe(error.id);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(store.getState().notifications.items).toHaveLength(0);
  });

  it('signs up by phone with the hash and code, then signs in', async () => {
    const fetchMock = mockApi({
      '/api/site/settings': settings,
      'POST /api/user/phone/code': ok({ phone: '21620000001', id: 1 }),
      'POST /api/user/signup/phone': ok({ token: 't', expiresAt: '', user: testUser }),
      '/api/user/check': ok(testUser),
    });
    const { store } = renderApp(<AuthViews type="registration" />);
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '20000001' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send code' })));
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/user/phone/code')).toBe(true));
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/user/phone/code')!;
    const body = JSON.parse(String(call[1]!.body)) as { phone: string; hash: string };
    expect(body.phone).toBe('21620000001');
    expect(body.hash).toMatch(/^[0-9a-f]{64}$/);
    fireEvent.change(screen.getByLabelText('SMS code'), { target: { value: '1234' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc123' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc123' } });
    fireEvent.click(screen.getByRole('checkbox'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    await waitFor(() => expect(store.getState().auth.isAuth).toBe(true));
    const signup = fetchMock.mock.calls.find(([u]) => String(u) === '/api/user/signup/phone')!;
    expect(JSON.parse(String(signup[1]!.body))).toMatchObject({
      phone: '21620000001',
      phoneCode: '1234',
      login: '21620000001',
      currency: 'TND',
      promocode: null,
    });
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'successAuth' });
  });
});

describe('sign-up promo code (spec §5: state 2 valid, 1 invalid)', () => {
  const fill = async () => {
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '20000001' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send code' })));
    fireEvent.change(screen.getByLabelText('SMS code'), { target: { value: '1234' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc123' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc123' } });
    fireEvent.click(screen.getByRole('checkbox'));
  };
  const signupBody = (fetchMock: ReturnType<typeof mockApi>) =>
    JSON.parse(String(fetchMock.mock.calls.find(([u]) => String(u) === '/api/user/signup/phone')![1]!.body)) as { promocode: unknown };

  it('checks the code as typed, shows it valid inline and sends it with the sign-up', async () => {
    const fetchMock = mockApi({
      '/api/site/settings': settings,
      'POST /api/user/phone/code': ok({ phone: '21620000001', id: 1 }),
      'POST /api/payment/promocode/check_promocode': ok({ success: true, state: 2, code: 'WELCOME', kind: 'bonus' }),
      'POST /api/user/signup/phone': ok({ token: 't', expiresAt: '', user: testUser }),
      '/api/user/check': ok(testUser),
    });
    const { store } = renderApp(<AuthViews type="registration" />);
    await fill();
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'welcome' } });
    expect(await screen.findByTestId('promo-valid', {}, { timeout: 3000 })).toBeTruthy();
    const check = fetchMock.mock.calls.filter(([u]) => String(u) === '/api/payment/promocode/check_promocode');
    expect(check.map(([, init]) => JSON.parse(String(init!.body)))).toEqual([{ code: 'WELCOME' }]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    await waitFor(() => expect(store.getState().auth.isAuth).toBe(true));
    expect(signupBody(fetchMock).promocode).toBe('WELCOME');
  });

  it('shows a refused code inline with its message and signs up without it', async () => {
    const fetchMock = mockApi({
      '/api/site/settings': settings,
      'POST /api/user/phone/code': ok({ phone: '21620000001', id: 1 }),
      'POST /api/payment/promocode/check_promocode': { status: 2200, result: null, error_message: 'no such code' },
      'POST /api/user/signup/phone': ok({ token: 't', expiresAt: '', user: testUser }),
      '/api/user/check': ok(testUser),
    });
    const { store, container } = renderApp(<AuthViews type="registration" />);
    await fill();
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'NOPE' } });
    await waitFor(() => expect(container.querySelector('[data-field="promocode"]')?.getAttribute('data-promo-state')).toBe('1'), { timeout: 3000 });
    expect(container.querySelector('[data-field="promocode"] [data-testid="field-error"]')?.textContent).toBe('Promo code not found.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    await waitFor(() => expect(store.getState().auth.isAuth).toBe(true));
    expect(signupBody(fetchMock).promocode).toBeNull();
  });

  it('checks a code typed just before submitting, then sends it only if valid', async () => {
    const fetchMock = mockApi({
      '/api/site/settings': settings,
      'POST /api/user/phone/code': ok({ phone: '21620000001', id: 1 }),
      'POST /api/payment/promocode/check_promocode': ok({ success: true, state: 2, code: 'FREEBET', kind: 'free_bets' }),
      'POST /api/user/signup/phone': ok({ token: 't', expiresAt: '', user: testUser }),
      '/api/user/check': ok(testUser),
    });
    const { store } = renderApp(<AuthViews type="registration" />);
    await fill();
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'freebet' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    await waitFor(() => expect(store.getState().auth.isAuth).toBe(true));
    expect(signupBody(fetchMock).promocode).toBe('FREEBET');
  });
});

describe('login form', () => {
  it('enables submit only with login and password, and shows a wrong password under its field', async () => {
    mockApi({ 'POST /api/user/login': { status: 4, result: { field: 'password', reason: 'wrong' }, error_message: 'Incorrect password.' } });
    const { store } = renderApp(<AuthViews type="login" />);
    const submit = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Login or e-mail'), { target: { value: 'p@c.tn' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    expect(submit.disabled).toBe(false);
    await act(async () => fireEvent.click(submit));
    const field = screen.getByLabelText('Password').closest('[data-field="password"]')!;
    await waitFor(() => expect(field.querySelector('[data-testid="field-error"]')?.textContent).toBe('Incorrect password.'));
    expect(store.getState().notifications.items).toHaveLength(0);
    // Typing again clears it.
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'xy' } });
    expect(field.querySelector('[data-testid="field-error"]')).toBeNull();
  });

  it('toasts a refusal that names no field, once per cause', async () => {
    const fetchMock = mockApi({ 'POST /api/user/login': { status: 14, result: { retryAfterSeconds: 3 }, error_message: 'Too many.' } });
    const { store } = renderApp(<AuthViews type="login" />);
    fireEvent.change(screen.getByLabelText('Login or e-mail'), { target: { value: 'p@c.tn' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    const submit = screen.getByRole('button', { name: 'Sign in' });
    await act(async () => fireEvent.click(submit));
    await waitFor(() => expect(store.getState().notifications.items).toHaveLength(1));
    const firstId = store.getState().notifications.items[0]!.id;
    await act(async () => fireEvent.click(submit));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(store.getState().notifications.items[0]?.id).not.toBe(firstId));
    expect(store.getState().notifications.items).toHaveLength(1);
    expect(store.getState().notifications.items[0]).toMatchObject({ type: 'error', form: 'login', key: 'login|14' });
  });

  it('explains to a cashier where cashier accounts work, and signs them out', async () => {
    const fetchMock = mockApi({
      'POST /api/user/login': ok({ token: 't', expiresAt: '', user: { ...testUser, role: 2 } }),
      '/api/user/check': ok({ ...testUser, role: 2 }),
      '/api/user/logout': ok({ done: true }),
    });
    const { store } = renderApp(<AuthViews type="login" />);
    fireEvent.change(screen.getByLabelText('Login or e-mail'), { target: { value: 'cashier@carthage.local' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Cashier123' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in' })));
    const notice = await screen.findByTestId('staff-notice');
    expect(notice.textContent).toContain('cashier desk');
    expect(notice.textContent).toContain('signed out');
    expect(store.getState().auth.isAuth).toBe(false);
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/user/logout')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with another account' }));
    expect(screen.getByLabelText('Login or e-mail')).toBeTruthy();
  });
});

describe('restore step 2', () => {
  it('needs the code, a strong password and equal passwords', () => {
    renderApp(<AuthViews type="restore2" />);
    const save = screen.getByRole('button', { name: 'Save the password' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a1b2c3' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'a1b2c3' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: '99' } });
    expect(save.disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a1b2c' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'a1b2c' } });
    expect(save.disabled).toBe(true);
  });

  it('keeps the modal open on a wrong code, with the attempts left, then offers a new code', async () => {
    let left = 1;
    const fetchMock = mockApi({
      'POST /api/user/password/restore/phone/new': () => ({
        status: 102,
        result: { field: 'code', reason: 'code_mismatch', attemptsLeft: left-- },
        error_message: 'x',
      }),
      'POST /api/user/password/restore/phone': ok({ user_phone: '21620000001', request_id: 2 }),
    });
    const { store } = renderApp(<AuthViews type="restore2" />, {
      state: { auth: { ...initialAuthState, authModal: { type: 'restore2', isOpen: true }, restoreTarget: { channel: 'phone', value: '21620000001' } } },
    });
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: '000000' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New12pass' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'New12pass' } });
    const save = screen.getByRole('button', { name: 'Save the password' });
    await act(async () => fireEvent.click(save));
    const field = screen.getByLabelText('Recovery code').closest('[data-field="code"]')!;
    await waitFor(() => expect(field.querySelector('[data-testid="field-error"]')?.textContent).toBe('The code does not match. 1 attempt left.'));
    expect(store.getState().auth.authModal.isOpen).toBe(true);
    expect(screen.queryByTestId('send-new-code')).toBeNull();
    await act(async () => fireEvent.click(save));
    await waitFor(() => expect(field.querySelector('[data-testid="field-error"]')?.textContent).toBe('The code does not match. No attempts left.'));
    expect(store.getState().auth.authModal.isOpen).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId('send-new-code')));
    await waitFor(() => expect(screen.queryByTestId('send-new-code')).toBeNull());
    expect((screen.getByLabelText('Recovery code') as HTMLInputElement).value).toBe('');
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/user/password/restore/phone')).toHaveLength(1);
  });
});

describe('verify', () => {
  it('reads the value after the equals sign', () => {
    expect(verificationCode('?code=abc123')).toBe('abc123');
    expect(verificationCode('?abc')).toBe('');
  });
});
