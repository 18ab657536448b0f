import { describe, expect, it } from 'vitest';
import { formatMinor, formatMoney, formatMultiplier, formatShort, minorToDecimal, parseMajor, payoutOf } from './money';

describe('studio money', () => {
  it('minor units to decimal text', () => {
    expect(minorToDecimal(1500, 3)).toBe('1.500');
    expect(minorToDecimal(5, 2)).toBe('0.05');
    expect(minorToDecimal(-5, 2)).toBe('-0.05');
    expect(minorToDecimal(0, 3)).toBe('0.000');
    expect(minorToDecimal(42, 0)).toBe('42');
    expect(minorToDecimal(9007199254740991n * 10n, 3)).toBe('90071992547409.910');
  });

  it('formats per locale, with grouping', () => {
    expect(formatMinor(1234500, 3, 'en')).toBe('1,234.500');
    expect(formatMoney(500000, 3, 'TND', 'en')).toBe('500.000 TND');
    expect(formatMinor(1234500, 3, 'fr')).toMatch(/^1\s234,500$/u);
    expect(formatMinor(1234500, 3, 'ar')).toMatch(/^1.234.500$/u);
    expect(formatMinor(1234500, 3, 'ar')).not.toMatch(/[٠-٩]/u);
  });

  it('short form drops trailing zeros', () => {
    expect(formatShort(1500, 3)).toBe('1.5');
    expect(formatShort(100000, 3)).toBe('100');
    expect(formatShort(100, 3)).toBe('0.1');
  });

  it('parses typed amounts without floats', () => {
    expect(parseMajor('1.5', 3)).toBe(1500);
    expect(parseMajor('1,25', 3)).toBe(1250);
    expect(parseMajor(' 2 ', 3)).toBe(2000);
    expect(parseMajor('0.1', 2)).toBe(10);
    expect(parseMajor('1.2345', 3)).toBeNull();
    expect(parseMajor('-1', 3)).toBeNull();
    expect(parseMajor('abc', 3)).toBeNull();
    expect(parseMajor('', 3)).toBeNull();
  });

  it('payouts and multipliers', () => {
    expect(payoutOf(1000, 237)).toBe(2370);
    expect(payoutOf(333, 101)).toBe(336);
    expect(formatMultiplier(237)).toBe('2.37×');
  });
});
