import { describe, expect, it } from 'vitest';
import { cleanCode, isoDay, parseAmount, tabsFor } from './logic';

describe('desk rules', () => {
  it('formats a local day', () => {
    expect(isoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
  it('accepts codes typed with separators', () => {
    expect(cleanCode('1234 5678')).toBe('12345678');
    expect(cleanCode('1234-5678')).toBe('12345678');
    expect(cleanCode('1234567')).toBeNull();
    expect(cleanCode('1234567a')).toBeNull();
  });
  it('parses amounts exactly to the currency decimals', () => {
    expect(parseAmount('25,5', 3)).toBe(25.5);
    expect(parseAmount('0.001', 3)).toBe(0.001);
    expect(parseAmount('0.0001', 3)).toBeNull();
    expect(parseAmount('0', 3)).toBeNull();
    expect(parseAmount('-1', 3)).toBeNull();
    expect(parseAmount('1e3', 3)).toBeNull();
  });
  it('shows the network tab to super agents only', () => {
    expect(tabsFor('cashier')).toEqual(['deposit', 'payout', 'report']);
    expect(tabsFor('super_agent')).toContain('network');
  });
});
