import { afterEach, describe, expect, it } from 'vitest';
import { idFromLaunchData, paymentPaths, telegramUserId } from './specialUser';

const fakeWindow = (over: { hash?: string; search?: string; telegram?: unknown } = {}) =>
  ({
    location: { hash: over.hash ?? '', search: over.search ?? '' },
    sessionStorage: window.sessionStorage,
    Telegram: over.telegram,
  }) as unknown as Window;

afterEach(() => sessionStorage.clear());

describe('the Telegram Mini App user', () => {
  it('comes from Telegram.WebApp.initDataUnsafe.user.id', () => {
    expect(telegramUserId(fakeWindow({ telegram: { WebApp: { initDataUnsafe: { user: { id: 279058397 } } } } }))).toBe(279058397);
  });
  it('else from the tgWebAppData launch parameter, remembered for the tab', () => {
    const initData = new URLSearchParams({ query_id: 'AAE', user: JSON.stringify({ id: 5551234, first_name: 'Sami' }), hash: 'x' });
    const hash = `#${new URLSearchParams({ tgWebAppData: initData.toString(), tgWebAppVersion: '7.0' }).toString()}`;
    expect(telegramUserId(fakeWindow({ hash }))).toBe(5551234);
    // The next page has no launch parameter any more.
    expect(telegramUserId(fakeWindow())).toBe(5551234);
  });
  it('is null in a browser, and ignores malformed data', () => {
    expect(telegramUserId(fakeWindow())).toBeNull();
    expect(idFromLaunchData('user=%7Bnot-json')).toBeNull();
    expect(idFromLaunchData('user=%7B%22id%22%3A-4%7D')).toBeNull();
    expect(telegramUserId(fakeWindow({ telegram: { WebApp: { initDataUnsafe: {} } } }))).toBeNull();
  });
});

describe('special-user routing (spec §4)', () => {
  it('sends a normal player to /profile/top-up and /profile/withdrawal', () => {
    const p = paymentPaths(true, { isOnPaykassmaPayment: false }, null);
    expect(p).toMatchObject({ kind: 'normal', deposit: '/profile/top-up', withdrawal: '/profile/withdrawal', direct: false });
    expect(p.onlineDepositButton).toBe(false);
  });
  it('gives a paykassma-flagged player its paths and the Online deposit button', () => {
    expect(paymentPaths(true, { isOnPaykassmaPayment: true }, null)).toEqual({
      kind: 'paykassma',
      deposit: '/profile/paykassma/deposit',
      withdrawal: '/profile/paykassma/withdrawal',
      direct: true,
      onlineDepositButton: true,
    });
    // Not signed in: no button, the ordinary paths.
    expect(paymentPaths(false, null, null).onlineDepositButton).toBe(false);
  });
  it('gives a Telegram user the USDT deposit and no withdrawal path', () => {
    const p = paymentPaths(true, { isOnPaykassmaPayment: true }, 42);
    expect(p).toMatchObject({ kind: 'telegram', deposit: '/profile/top-up-tg', withdrawal: null });
  });
});
