import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { errorText } from '../../app/errors';
import { mockApi, ok, renderApp, testUser } from '../../test/render';
import en from '../../locales/en/rg.json';
import fr from '../../locales/fr/rg.json';
import ar from '../../locales/ar/rg.json';
import { nextReminder, parseLimit, playedFor } from './api';
import RealityCheck from './components/RealityCheck';
import ResponsibleGamblingPage, { CONFIRM_ARM_MS } from './routes/ResponsibleGamblingPage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'rg', en);
});
afterEach(() => vi.unstubAllGlobals());

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser } };
const RG = '/api/user/responsible-gambling';

const state = (over: Record<string, unknown> = {}) => ({
  currency: 'TND',
  deposit_limits: {
    day: { amount: 50, pending_amount: 200, pending_from: '2030-01-02T10:00:00.000Z' },
    week: { amount: 300, pending_amount: null, pending_from: '2030-01-02T10:00:00.000Z' },
    month: null,
  },
  used: { day: 12.5, week: 40, month: 40 },
  self_excluded_until: null,
  self_excluded_permanent: false,
  cool_off_until: null,
  reality_check_minutes: 0,
  raise_delay_hours: 24,
  ...over,
});

describe('helpers', () => {
  it('parses limits: empty is none, positive decimals up to 3 places, nothing else', () => {
    expect(parseLimit('')).toBeNull();
    expect(parseLimit(' 12,5 ')).toBe(12.5);
    expect(parseLimit('100.125')).toBe(100.125);
    expect(parseLimit('0')).toBeUndefined();
    expect(parseLimit('-5')).toBeUndefined();
    expect(parseLimit('1.0001')).toBeUndefined();
    expect(parseLimit('ten')).toBeUndefined();
  });
  it('schedules reminders every interval from the sign-in, never in the past', () => {
    const start = '2030-01-01T10:00:00.000Z';
    const t0 = Date.parse(start);
    expect(nextReminder(start, 0, t0)).toBeNull();
    expect(nextReminder(start, 15, t0)).toBe(t0 + 15 * 60_000);
    expect(nextReminder(start, 15, t0 + 15 * 60_000)).toBe(t0 + 30 * 60_000);
    expect(nextReminder(start, 30, t0 + 61 * 60_000)).toBe(t0 + 90 * 60_000);
    expect(playedFor(start, t0 + 75 * 60_000 + 59_000)).toEqual({ h: 1, m: 15 });
  });
  it('has the same keys in English, French and Arabic', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(fr).sort()).toEqual(keys(en).sort());
    expect(keys(ar).sort()).toEqual(keys(en).sort());
  });
  it('says until when a break lasts and how much a limit leaves', () => {
    expect(errorText({ code: 122, data: { until: '2030-01-02T10:00:00.000Z' } })).toMatchObject({ key: ['errors:122-until', 'errors:122', 'errors:default', 'errors:default'] });
    expect(errorText({ code: 121, data: { until: null, permanent: true } }).key[0]).toBe('errors:121');
    // The amount with its currency and decimals (issue 18), in the player's currency.
    expect(errorText({ code: 120, data: { period: 'day', limit: 50, used: 45, remaining: 5 } }, 'default', { currency: 'TND' })).toMatchObject({
      params: { remaining: '\u20665.000 TND\u2069' },
    });
  });
});

describe('responsible gambling page', () => {
  it('shows limits, what was deposited and the pending raise or removal', async () => {
    mockApi({ [`GET ${RG}`]: ok(state()) });
    renderApp(<ResponsibleGamblingPage />, { state: signedIn });
    expect(await screen.findByLabelText('Per day (24 h)')).toHaveProperty('value', '50');
    expect(screen.getByTestId('rg-pending-day').textContent).toMatch(/^Becomes \u2068200/);
    expect(screen.getByTestId('rg-pending-week').textContent).toMatch(/^Removed on/);
    expect(screen.queryByTestId('rg-pending-month')).toBeNull();
    expect(screen.getByText(/after 24 hours/)).toBeTruthy();
  });

  it('refuses a bad amount under its field without calling the server, then saves', async () => {
    const fetchMock = mockApi({ [`GET ${RG}`]: ok(state()), [`PUT ${RG}/deposit-limits`]: ok(state()) });
    renderApp(<ResponsibleGamblingPage />, { state: signedIn });
    const month = await screen.findByLabelText('Per month (30 days)');
    fireEvent.change(month, { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save my limits' }));
    expect(screen.getByText('Enter an amount above zero, or leave empty for no limit.')).toBeTruthy();
    const puts = () => fetchMock.mock.calls.filter((c) => (c[1] as RequestInit | undefined)?.method === 'PUT');
    expect(puts()).toHaveLength(0);
    fireEvent.change(month, { target: { value: '1000' } });
    fireEvent.change(screen.getByLabelText('Per week (7 days)'), { target: { value: '' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save my limits' })));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(String(puts()[0]![1]!.body))).toEqual({ day: 50, week: null, month: 1000 });
  });

  it('confirms a break in a dialog whose button is armed only after a moment, then signs out', async () => {
    const fetchMock = mockApi({
      [`GET ${RG}`]: ok(state()),
      [`POST ${RG}/cool-off`]: ok({ until: '2030-01-08T10:00:00.000Z', permanent: false }),
      'GET /api/user/logout': ok({ done: true }),
    });
    const { store } = renderApp(<ResponsibleGamblingPage />, { state: signedIn });
    fireEvent.click(await screen.findByLabelText('7 days'));
    fireEvent.click(screen.getByRole('button', { name: 'Take a cool-off' }));
    const confirm = screen.getByRole('button', { name: 'Start my break' }) as HTMLButtonElement;
    expect(screen.getByText('You will be signed out now and cannot play for 7 days.')).toBeTruthy();
    expect(confirm.disabled).toBe(true);
    await waitFor(() => expect(confirm.disabled).toBe(false), { timeout: CONFIRM_ARM_MS + 1000 });
    await act(async () => fireEvent.click(confirm));
    await waitFor(() => expect(store.getState().auth.isAuth).toBe(false));
    const post = fetchMock.mock.calls.find((c) => String(c[0]).endsWith('/cool-off'))!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ period: '7d' });
  });

  it('needs the password for a self-exclusion and shows a wrong one under the field', async () => {
    mockApi({
      [`GET ${RG}`]: ok(state()),
      [`POST ${RG}/self-exclusion`]: { status: 4, result: { field: 'password', reason: 'wrong' }, error_message: 'x' },
    });
    const { store } = renderApp(<ResponsibleGamblingPage />, { state: signedIn });
    fireEvent.click(await screen.findByLabelText('Permanently'));
    fireEvent.click(screen.getByRole('button', { name: 'Exclude me' }));
    expect(screen.getByText('You will be signed out now and can never sign in again.')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Start my break' }) as HTMLButtonElement;
    await new Promise((r) => setTimeout(r, CONFIRM_ARM_MS + 50));
    expect(confirm.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'Secret42' } });
    expect(confirm.disabled).toBe(false);
    await act(async () => fireEvent.click(confirm));
    await waitFor(() => expect(screen.getByText('Incorrect password.')).toBeTruthy());
    expect(store.getState().auth.isAuth).toBe(true);
    // "Keep playing" closes without a call.
    fireEvent.click(screen.getByRole('button', { name: 'Keep playing' }));
    expect(screen.queryByTestId('rg-confirm')).toBeNull();
  });
});

describe('reality check', () => {
  it('reminds at the interval with the time and the result, and continues', async () => {
    const started = new Date(Date.now() - 15 * 60_000 + 300).toISOString();
    mockApi({ [`GET ${RG}/session`]: ok({ started_at: started, net: -12.5, currency: 'TND', reality_check_minutes: 15 }) });
    renderApp(<RealityCheck />, { state: signedIn });
    expect(screen.queryByTestId('rg-reality-check')).toBeNull();
    const dialog = await screen.findByTestId('rg-reality-check', {}, { timeout: 3000 });
    expect(dialog.textContent).toContain('You have been signed in for 15 min.');
    await waitFor(() => expect(dialog.textContent).toMatch(/Result of your games since then: .*12[.,]5/));
    fireEvent.click(screen.getByRole('button', { name: 'Continue playing' }));
    expect(screen.queryByTestId('rg-reality-check')).toBeNull();
  });

  it('stays silent when off or signed out', async () => {
    const fetchMock = mockApi({ [`GET ${RG}/session`]: ok({ started_at: new Date(Date.now() - 3_600_000).toISOString(), net: 0, currency: 'TND', reality_check_minutes: 0 }) });
    renderApp(<RealityCheck />, { state: { auth: { ...initialAuthState, isAuth: false, checked: true } } });
    await new Promise((r) => setTimeout(r, 200));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByTestId('rg-reality-check')).toBeNull();
  });
});
