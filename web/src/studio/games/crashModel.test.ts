// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { acceptAutoText, actionKindOf, AUTO_MAX, AUTO_MIN, autoValueOf } from './crashModel';

describe('auto cash-out field', () => {
  it('accepts a multiplier being typed: digits, one separator, at most 2 decimals', () => {
    for (const ok of ['', '1', '1.', '1.5', '1.50', '2,5', '.5', '1000000', '1000000.00']) expect(acceptAutoText(ok)).toBe(ok);
  });

  it('refuses letters, signs, spaces, a second separator, a third decimal, an 8th integer digit', () => {
    for (const bad of ['a', '2a', '2.5x', 'e', '1e3', '-1', '+2', ' 2', '2 ', '1.2.3', '1,2,', '1.234', '12345678', '2×', 'Infinity', 'NaN', '0x1'])
      expect(acceptAutoText(bad), bad).toBeNull();
  });

  it('takes Arabic-Indic digits and the Arabic decimal separator as ASCII', () => {
    expect(acceptAutoText('٢٫٥٠')).toBe('2.50');
    expect(acceptAutoText('۳.۵')).toBe('3.5');
    expect(autoValueOf('١٫٠١')).toBe(101);
  });

  it('values in hundredths within what the server accepts (101 ..= 100,000,000)', () => {
    expect(AUTO_MIN).toBe(101);
    expect(AUTO_MAX).toBe(100_000_000);
    expect(autoValueOf('2')).toBe(200);
    expect(autoValueOf('2.5')).toBe(250);
    expect(autoValueOf('2,05')).toBe(205);
    expect(autoValueOf('1.01')).toBe(101);
    expect(autoValueOf('1000000')).toBe(100_000_000);
    for (const out of ['', '.', '1', '1.00', '0.99', '1000000.01', '9999999', '1.234', 'abc']) expect(autoValueOf(out), out).toBeNull();
  });
});

describe('main button meaning', () => {
  const base = { phase: null, hasActiveBet: false, cashedOut: false, queued: false } as const;
  it('follows phase, bet and queue', () => {
    expect(actionKindOf({ ...base, phase: 'betting' })).toBe('bet');
    expect(actionKindOf({ ...base, phase: 'betting', hasActiveBet: true })).toBe('placed');
    expect(actionKindOf({ ...base, phase: 'running', hasActiveBet: true })).toBe('cashout');
    expect(actionKindOf({ ...base, phase: 'running', hasActiveBet: true, cashedOut: true })).toBe('betNext');
    expect(actionKindOf({ ...base, phase: 'crashed', hasActiveBet: true })).toBe('betNext');
    expect(actionKindOf({ ...base, phase: 'running' })).toBe('betNext');
    expect(actionKindOf({ ...base, phase: 'running', queued: true })).toBe('queued');
    expect(actionKindOf(base)).toBe('betNext');
  });
});
