import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderApp, testUser } from '../../test/render';
import { AuthViews } from './components/AuthModal';
import { verificationCode } from './routes/VerifyPage';

afterEach(() => vi.unstubAllGlobals());

const settings = ok({ lang: 'en-US', currencies: ['TND', 'USDT'], defaultCurrency: 'TND', phoneCodeSalt: 's', phoneLength: 8 });

describe('registration form', () => {
  it('enables submit only when the phone form is valid, and toasts a mismatched repeat password', async () => {
    mockApi({ '/api/site/settings': settings });
    const { store } = renderApp(<AuthViews type="registration" />);
    const submit = screen.getByRole('button', { name: 'Create account' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Phone number'), { target: { value: '20000001' } });
    fireEvent.change(screen.getByLabelText('SMS code'), { target: { value: '1234' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc12' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc13' } });
    fireEvent.blur(screen.getByLabelText('Repeat password'));
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'repeatPasswordMismatch', type: 'error' });
    fireEvent.click(screen.getByRole('checkbox'));
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc12' } });
    expect(submit.disabled).toBe(false);
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
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc12' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'abc12' } });
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

describe('login form', () => {
  it('enables submit only with login and password, and shows the coded error', async () => {
    mockApi({ 'POST /api/user/login': { status: 4, result: null, error_message: 'Incorrect password.' } });
    const { store } = renderApp(<AuthViews type="login" />);
    const submit = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Login or e-mail'), { target: { value: 'p@c.tn' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    expect(submit.disabled).toBe(false);
    await act(async () => fireEvent.click(submit));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)?.text).toContain('errors:4'));
  });
});

describe('restore step 2', () => {
  it('needs the code and equal passwords', () => {
    renderApp(<AuthViews type="restore2" />);
    const save = screen.getByRole('button', { name: 'Save the password' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a1b2c3' } });
    fireEvent.change(screen.getByLabelText('Confirm the new password'), { target: { value: 'a1b2c3' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: '99' } });
    expect(save.disabled).toBe(false);
  });
});

describe('verify', () => {
  it('reads the value after the equals sign', () => {
    expect(verificationCode('?code=abc123')).toBe('abc123');
    expect(verificationCode('?abc')).toBe('');
  });
});
