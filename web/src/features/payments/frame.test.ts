import { describe, expect, it } from 'vitest';
import { isFrameRequest, localizedLink, parseFrameMessage, safeUrl } from './frame';

describe('payment frame helpers', () => {
  it('reads Telegram web_app_expand in its shapes and the hosted page result', () => {
    expect(parseFrameMessage({ type: 'web_app_expand' })).toEqual({ type: 'expand' });
    expect(parseFrameMessage(JSON.stringify({ eventType: 'web_app_expand', eventData: {} }))).toEqual({ type: 'expand' });
    expect(parseFrameMessage('web_app_expand')).toEqual({ type: 'expand' });
    expect(parseFrameMessage({ type: 'carthage:payment', id: 42, status: 'succeeded' })).toEqual({
      type: 'payment',
      id: '42',
      status: 'succeeded',
    });
    expect(parseFrameMessage({ type: 'carthage:payment' })).toBeNull();
    expect(parseFrameMessage('hello')).toBeNull();
    expect(parseFrameMessage(null)).toBeNull();
  });
  it('follows only http(s) links', () => {
    expect(safeUrl('https://pay.example/p/1')).toBe('https://pay.example/p/1');
    expect(safeUrl('/sandbox/pay/1')).toMatch(/^http:\/\/localhost(:\d+)?\/sandbox\/pay\/1$/);
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,x')).toBeNull();
    expect(safeUrl(7)).toBeNull();
  });
  it('shows our own hosted pages in the app language, never touching a third party link', () => {
    const own = `${window.location.origin}/pay/sandbox/ref1?lang=en`;
    expect(localizedLink(own, 'ar')).toBe(`${window.location.origin}/pay/sandbox/ref1?lang=ar`);
    expect(localizedLink(`${window.location.origin}/pay/paykassma/plugin?label=7`, 'fr')).toBe(
      `${window.location.origin}/pay/paykassma/plugin?label=7&lang=fr`,
    );
    expect(localizedLink('https://psp.example/pay/x?sig=abc', 'fr')).toBe('https://psp.example/pay/x?sig=abc');
    expect(localizedLink(`${window.location.origin}/other`, 'fr')).toBe(`${window.location.origin}/other`);
  });
  it('accepts only complete requests (a withdrawal needs a phone)', () => {
    const base = { key: 'k', kind: 'deposit', provider: 'card', amount: 50, currency: 'TND' };
    expect(isFrameRequest(base)).toBe(true);
    expect(isFrameRequest({ ...base, amount: 0 })).toBe(false);
    expect(isFrameRequest({ ...base, provider: 'bank' })).toBe(false);
    expect(isFrameRequest({ ...base, kind: 'withdrawal' })).toBe(false);
    expect(isFrameRequest({ ...base, kind: 'withdrawal', phone: '21612345678' })).toBe(true);
    expect(isFrameRequest(null)).toBe(false);
  });
});
