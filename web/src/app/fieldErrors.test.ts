import { describe, expect, it } from 'vitest';
import enErrors from '../locales/en/errors.json';
import frErrors from '../locales/fr/errors.json';
import arErrors from '../locales/ar/errors.json';
import { fieldErrorKeys, fieldOf, refusalData } from './fieldErrors';

/** The reason codes of crates/accounts/src/validate.rs `Reason` (docs/API.md). */
const SERVER_REASONS = [
  'too_long', 'bad_characters', 'invalid_date', 'too_old', 'underage', 'invalid_choice', 'cannot_change',
  'invalid', 'weak', 'taken', 'wrong', 'unknown', 'code_mismatch', 'code_expired',
];

describe('field refusals', () => {
  it('reads field, reason and attempts left', () => {
    expect(refusalData({ data: { field: 'code', reason: 'code_mismatch', attemptsLeft: 2 } })).toEqual({
      field: 'code',
      reason: 'code_mismatch',
      attemptsLeft: 2,
    });
    expect(refusalData({ data: null })).toEqual({});
    expect(refusalData({ data: 12 })).toEqual({});
  });

  it('routes by wire name first, then by code', () => {
    const routes = { wire: { birth_date: 'birthDate', gander: 'gender' }, byCode: { 231: 'password' } } as const;
    expect(fieldOf({ code: 47, data: { field: 'birth_date', reason: 'underage' } }, routes)).toBe('birthDate');
    expect(fieldOf({ code: 231, data: null }, routes)).toBe('password');
    expect(fieldOf({ code: 14, data: { retryAfterSeconds: 3 } }, routes)).toBeNull();
    expect(fieldOf({ code: 47, data: { field: 'elsewhere', reason: 'too_long' } }, routes)).toBeNull();
  });

  it('prefers the reason text, except for reasons the code says better', () => {
    expect(fieldErrorKeys(47, 'underage', 'birth_date')[1]).toBe('errors:field.underage');
    expect(fieldErrorKeys(15, 'invalid', 'phone').slice(1, 3)).toEqual(['errors:15', 'errors:field.invalid']);
    expect(fieldErrorKeys(231)).toEqual(['errors:231', 'errors:default']);
  });

  it('translates every server reason in every language', () => {
    for (const errors of [enErrors, frErrors, arErrors]) {
      for (const reason of SERVER_REASONS) expect(errors.field[reason as keyof typeof errors.field], reason).toBeTruthy();
    }
  });
});
