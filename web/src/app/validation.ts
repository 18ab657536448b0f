/** Spec §5 validation rules of the sign-in and sign-up forms. */

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** A field named email must match the address pattern; any other is valid when not empty. */
export function isValidField(name: string, value: string): boolean {
  return name === 'email' ? EMAIL_RE.test(value.trim()) : value.trim() !== '';
}

/** A login is a phone when it has neither @ nor a dot. */
export const isPhoneLogin = (login: string) => !login.includes('@') && !login.includes('.');

export function canLogin(login: string, password: string): boolean {
  return login.trim() !== '' && password !== '';
}

export interface PhoneSignupDraft {
  phone: string;
  phoneLength: number;
  code: string;
  password: string;
  repeatPassword: string;
  currency: string;
  isAccept: boolean;
}

export function canSignUpPhone(d: PhoneSignupDraft): boolean {
  return (
    d.phone.length === d.phoneLength &&
    d.code.trim() !== '' &&
    d.password !== '' &&
    d.repeatPassword === d.password &&
    d.currency !== '' &&
    d.isAccept
  );
}

export interface EmailSignupDraft {
  email: string;
  password: string;
  repeatPassword: string;
  currency: string;
  isAccept: boolean;
}

export function canSignUpEmail(d: EmailSignupDraft): boolean {
  return (
    isValidField('email', d.email) &&
    d.password !== '' &&
    d.repeatPassword === d.password &&
    d.currency !== '' &&
    d.isAccept
  );
}

/** Restore step 2: new password equals its confirmation, and it and the code are not empty. */
export function canRestore2(code: string, password: string, confirm: string): boolean {
  return code.trim() !== '' && password !== '' && password === confirm;
}

/** The password rule, checked as the player types (crates/accounts validate.rs `password_is_strong`). */
export const PASSWORD_MIN_CHARS = 6;
export const PASSWORD_MIN_DIGITS = 2;
export const PASSWORD_MIN_LETTERS = 2;
/** The server bounds a password to 128 bytes (UTF-8) so hashing stays bounded. */
export const PASSWORD_MAX_BYTES = 128;

export interface PasswordChecks {
  /** At least 6 characters (code points, like the server's `chars().count()`). */
  length: boolean;
  /** At least 2 ASCII digits. */
  digits: boolean;
  /** At least 2 letters (Unicode alphabetic, like Rust's `is_alphabetic`). */
  letters: boolean;
  /** At most 128 bytes. */
  notTooLong: boolean;
}

export function passwordChecks(password: string): PasswordChecks {
  const digits = (password.match(/[0-9]/g) ?? []).length;
  const letters = (password.match(/\p{Alphabetic}/gu) ?? []).length;
  return {
    length: [...password].length >= PASSWORD_MIN_CHARS,
    digits: digits >= PASSWORD_MIN_DIGITS,
    letters: letters >= PASSWORD_MIN_LETTERS,
    notTooLong: new TextEncoder().encode(password).length <= PASSWORD_MAX_BYTES,
  };
}

/** Weak: fewer than 6 characters, or fewer than 2 digits, or fewer than 2 letters (or over 128 bytes). */
export function isWeakPassword(password: string): boolean {
  const c = passwordChecks(password);
  return !(c.length && c.digits && c.letters && c.notTooLong);
}

/** Change password: the i18n key of the problem, or null when it may be sent. */
export function changePasswordProblem(newPassword: string, repeat: string): 'passwordsDoNotMatch' | 'weakPassword' | null {
  if (newPassword !== repeat) return 'passwordsDoNotMatch';
  if (isWeakPassword(newPassword)) return 'weakPassword';
  return null;
}

/** Lowercase hex SHA-256 of the phone followed by the salt (the `phone/code` hash). */
export async function phoneHash(phone: string, salt: string): Promise<string> {
  const bytes = new TextEncoder().encode(phone + salt);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
