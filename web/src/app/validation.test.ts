import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canLogin,
  canRestore2,
  canSignUpEmail,
  canSignUpPhone,
  changePasswordProblem,
  isPhoneLogin,
  isValidField,
  isWeakPassword,
  passwordChecks,
  phoneHash,
} from './validation';

describe('spec §5 validation', () => {
  it('checks e-mail fields with the address pattern and other fields for non-emptiness', () => {
    expect(isValidField('email', 'a@b.tn')).toBe(true);
    expect(isValidField('email', 'a@b')).toBe(false);
    expect(isValidField('email', 'no at.tn')).toBe(false);
    expect(isValidField('login', ' x ')).toBe(true);
    expect(isValidField('login', '  ')).toBe(false);
  });

  it('treats a login without @ and dot as a phone', () => {
    expect(isPhoneLogin('21620000001')).toBe(true);
    expect(isPhoneLogin('a@b.tn')).toBe(false);
    expect(isPhoneLogin('john.doe')).toBe(false);
  });

  it('enables login only with a login and a password', () => {
    expect(canLogin('x', 'y')).toBe(true);
    expect(canLogin('', 'y')).toBe(false);
    expect(canLogin('x', '')).toBe(false);
  });

  const phoneDraft = {
    phone: '20000001',
    phoneLength: 8,
    code: '123456',
    password: 'abc12',
    repeatPassword: 'abc12',
    currency: 'TND',
    isAccept: true,
  };

  it('enables phone registration only when every condition holds', () => {
    expect(canSignUpPhone(phoneDraft)).toBe(true);
    expect(canSignUpPhone({ ...phoneDraft, phone: '2000000' })).toBe(false);
    expect(canSignUpPhone({ ...phoneDraft, code: '' })).toBe(false);
    expect(canSignUpPhone({ ...phoneDraft, password: '', repeatPassword: '' })).toBe(false);
    expect(canSignUpPhone({ ...phoneDraft, repeatPassword: 'abc13' })).toBe(false);
    expect(canSignUpPhone({ ...phoneDraft, currency: '' })).toBe(false);
    expect(canSignUpPhone({ ...phoneDraft, isAccept: false })).toBe(false);
  });

  it('enables e-mail registration only with a valid address, matching passwords and accepted terms', () => {
    const d = { email: 'a@b.tn', password: 'p', repeatPassword: 'p', currency: 'TND', isAccept: true };
    expect(canSignUpEmail(d)).toBe(true);
    expect(canSignUpEmail({ ...d, email: 'a@b' })).toBe(false);
    expect(canSignUpEmail({ ...d, repeatPassword: 'q' })).toBe(false);
    expect(canSignUpEmail({ ...d, isAccept: false })).toBe(false);
  });

  it('enables restore step 2 only with a code and equal passwords', () => {
    expect(canRestore2('1234', 'a1b2c3', 'a1b2c3')).toBe(true);
    expect(canRestore2('', 'a1b2c3', 'a1b2c3')).toBe(false);
    expect(canRestore2('1234', 'a1b2c3', 'a1b2c4')).toBe(false);
    expect(canRestore2('1234', '', '')).toBe(false);
  });

  it('calls a password weak below 6 characters, 2 digits or 2 letters', () => {
    expect(isWeakPassword('ab12cd')).toBe(false);
    expect(isWeakPassword('ab12')).toBe(true);
    expect(isWeakPassword('abcdef1')).toBe(true);
    expect(isWeakPassword('a123456')).toBe(true);
    expect(isWeakPassword('كلمة12')).toBe(false);
    // The server's rule: code points, ASCII digits, at most 128 bytes.
    expect(passwordChecks('ab1')).toEqual({ length: false, digits: false, letters: true, notTooLong: true });
    expect(passwordChecks('١٢abcd').digits).toBe(false);
    expect(isWeakPassword('a1'.repeat(64))).toBe(false);
    expect(isWeakPassword('a1'.repeat(65))).toBe(true);
  });

  it('reports a mismatch before weakness when changing the password', () => {
    expect(changePasswordProblem('abc', 'abd')).toBe('passwordsDoNotMatch');
    expect(changePasswordProblem('abc', 'abc')).toBe('weakPassword');
    expect(changePasswordProblem('Next12ab', 'Next12ab')).toBeNull();
  });

  it('hashes phone + salt as lowercase hex SHA-256', async () => {
    const expected = createHash('sha256').update('21620000001salt').digest('hex');
    expect(await phoneHash('21620000001', 'salt')).toBe(expected);
  });
});
