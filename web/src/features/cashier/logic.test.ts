import { describe, expect, it } from 'vitest';
import { checkAmount, groupCode, historySearch, statusKey, withdrawalLimits } from './logic';

describe('withdrawal page rules', () => {
  it('sends history parameters only when they differ from the defaults (spec §5)', () => {
    expect(historySearch({})).toBe('');
    expect(historySearch({ count: 20, page: 0, statuses: 'all' })).toBe('');
    expect(historySearch({ page: 2, statuses: 'PAID' })).toBe('?page=2&statuses=PAID');
    expect(historySearch({ count: 5, dateFrom: '2026-01-01', dateTo: '2026-01-31' })).toBe(
      '?count=5&date_from=2026-01-01&date_to=2026-01-31',
    );
  });

  it('maps statuses as spec §4 shows them', () => {
    expect(statusKey('PAID')).toBe('completed');
    expect(statusKey('CANCELED')).toBe('rejected');
    expect(statusKey('CREATED')).toBe('pending');
  });

  it('groups the code in fours', () => {
    expect(groupCode('12345678')).toBe('1234 5678');
    expect(groupCode('123')).toBe('123');
  });

  it('checks the amount against decimals and limits', () => {
    expect(checkAmount('', 3)).toEqual({ ok: false, reason: 'empty' });
    expect(checkAmount('abc', 3)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAmount('-5', 3)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAmount('0', 3)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAmount('1.2345', 3)).toEqual({ ok: false, reason: 'decimals' });
    expect(checkAmount('1.2340', 3)).toEqual({ ok: true, value: 1.234 });
    expect(checkAmount('12,5', 3)).toEqual({ ok: true, value: 12.5 });
    expect(checkAmount('5', 3, 10, 100)).toEqual({ ok: false, reason: 'min' });
    expect(checkAmount('500', 3, 10, 100)).toEqual({ ok: false, reason: 'max' });
    expect(checkAmount('10', 3, 10, 100)).toEqual({ ok: true, value: 10 });
  });

  it('reads the withdrawal limits of the settings', () => {
    expect(withdrawalLimits({ limits: { payment: { withdrawal: { min: 10, max: 10000 } } } })).toEqual({ min: 10, max: 10000 });
    expect(withdrawalLimits({})).toEqual({});
    expect(withdrawalLimits(undefined)).toEqual({});
  });
});
