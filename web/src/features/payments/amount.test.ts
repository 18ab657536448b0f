import { describe, expect, it } from 'vitest';
import { checkAmount, limitMinor, majorNumber, majorText, minorOf, parseAmount, paymentDecimals, presets } from './amount';

describe('payment amounts in exact minor units', () => {
  it('parses what a player types, with the currency decimals', () => {
    expect(parseAmount('50', 3)).toEqual({ ok: true, minor: 50_000 });
    expect(parseAmount(' 12.5 ', 3)).toEqual({ ok: true, minor: 12_500 });
    expect(parseAmount('12,125', 3)).toEqual({ ok: true, minor: 12_125 });
    expect(parseAmount('0.001', 3)).toEqual({ ok: true, minor: 1 });
    expect(parseAmount('007', 3)).toEqual({ ok: true, minor: 7_000 });
    // 0.1 + 0.2 style float traps never happen: digits are joined, not multiplied.
    expect(parseAmount('0.3', 3)).toEqual({ ok: true, minor: 300 });
    expect(parseAmount('1.000001', 6)).toEqual({ ok: true, minor: 1_000_001 });
  });
  it('refuses what is not an amount', () => {
    expect(parseAmount('', 3)).toEqual({ ok: false, problem: 'empty' });
    expect(parseAmount('12a', 3)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('-5', 3)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('1e3', 3)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('1.2.3', 3)).toEqual({ ok: false, problem: 'format' });
    expect(parseAmount('1.2345', 3)).toEqual({ ok: false, problem: 'decimals' });
    expect(parseAmount('99999999999999999999', 3)).toEqual({ ok: false, problem: 'max' });
  });
  it('converts limits and back without float drift', () => {
    expect(minorOf(0.1, 3)).toBe(100);
    expect(minorOf(20000, 3)).toBe(20_000_000);
    expect(minorOf(1.005, 3)).toBe(1_005);
    expect(majorText(50_000, 3)).toBe('50.000');
    expect(majorText(1, 3)).toBe('0.001');
    expect(majorText(123, 0)).toBe('123');
    expect(majorNumber(12_345, 3)).toBe(12.345);
    expect(majorNumber(1_000_001, 6)).toBe(1.000001);
  });
  it('checks against limits.payment entries', () => {
    const limit = limitMinor({ min: 5, max: 20000 }, 3);
    expect(limit).toEqual({ min: 5_000, max: 20_000_000 });
    expect(checkAmount(parseAmount('4.999', 3), limit)).toEqual({ ok: false, problem: 'min' });
    expect(checkAmount(parseAmount('5', 3), limit)).toEqual({ ok: true, minor: 5_000 });
    expect(checkAmount(parseAmount('20000.001', 3), limit)).toEqual({ ok: false, problem: 'max' });
    // A missing limit is open (the server still checks).
    expect(limitMinor(undefined, 3)).toEqual({ min: 1, max: Number.MAX_SAFE_INTEGER });
  });
  it('offers round presets inside the limit', () => {
    expect(presets(limitMinor({ min: 5, max: 20000 }, 3), 3)).toEqual([5, 10, 20, 50, 100, 200].map((n) => n * 1000));
    expect(presets(limitMinor({ min: 20, max: 100 }, 3), 3)).toEqual([20, 50, 100].map((n) => n * 1000));
    expect(presets(limitMinor({ min: 7, max: 9 }, 3), 3)).toEqual([7_000]);
  });
  it('uses the payment contract exponents (USDT 6)', () => {
    expect(paymentDecimals('TND')).toBe(3);
    expect(paymentDecimals('USDT')).toBe(6);
  });
});
