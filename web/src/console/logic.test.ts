import { describe, expect, it } from 'vitest';
import {
  afterSignInError,
  beforeAfter,
  cleanTotp,
  formatTime,
  groupSecret,
  minorToDecimal,
  newerPage,
  olderPage,
  parseAmount,
  parseTrail,
  riskFlags,
  sectionsFor,
  subjectUserId,
  summariseDecisions,
  validReason,
} from './logic';
import { staffMe } from './testing';

describe('sections by permission', () => {
  it('opens to each role only what its permissions allow, in navigation order', () => {
    expect(sectionsFor(staffMe('admin').permissions)).toEqual(['players', 'withdrawals', 'adjustments', 'audit', 'reports']);
    expect(sectionsFor(staffMe('finance').permissions)).toEqual(['players', 'withdrawals', 'adjustments', 'audit', 'reports']);
    expect(sectionsFor(staffMe('support').permissions)).toEqual(['players', 'audit']);
    expect(sectionsFor(staffMe('content').permissions)).toEqual([]);
    expect(sectionsFor(['withdrawals.decide'])).toEqual(['withdrawals']);
    expect(sectionsFor(undefined)).toEqual([]);
  });
});

describe('amounts typed by hand', () => {
  it('reads major units as exact minor units in the currency exponent', () => {
    expect(parseAmount('1500', 'TND')).toBe(1_500_000n);
    expect(parseAmount('1 500,5', 'TND')).toBe(1_500_500n);
    expect(parseAmount('1,500.25', 'TND')).toBe(1_500_250n);
    expect(parseAmount('12.345', 'TND')).toBe(12_345n);
    expect(parseAmount('0.001', 'TND')).toBe(1n);
    expect(parseAmount('12.34', 'USD')).toBe(1234n);
    expect(parseAmount('9007199254740993', 'PYG')).toBe(9007199254740993n);
  });

  it('refuses what is not a positive amount in the currency', () => {
    expect(parseAmount('12.3456', 'TND')).toBeNull();
    expect(parseAmount('12.345', 'USD')).toBeNull();
    expect(parseAmount('1.5', 'PYG')).toBeNull();
    expect(parseAmount('0', 'TND')).toBeNull();
    expect(parseAmount('0.000', 'TND')).toBeNull();
    expect(parseAmount('-5', 'TND')).toBeNull();
    expect(parseAmount('1e3', 'TND')).toBeNull();
    expect(parseAmount('', 'TND')).toBeNull();
    expect(parseAmount('abc', 'TND')).toBeNull();
  });

  it('writes the signed decimal text the API reads, with every decimal of the currency', () => {
    expect(minorToDecimal(-1_500_000n, 'TND')).toBe('-1500.000');
    expect(minorToDecimal(1n, 'TND')).toBe('0.001');
    expect(minorToDecimal(123_456_789n, 'USD')).toBe('1234567.89');
    expect(minorToDecimal(7n, 'PYG')).toBe('7');
  });
});

describe('staff reasons', () => {
  it('needs 1 to 500 bytes once trimmed', () => {
    expect(validReason('  ')).toBe(false);
    expect(validReason('fraud')).toBe(true);
    expect(validReason('a'.repeat(500))).toBe(true);
    expect(validReason('a'.repeat(501))).toBe(false);
    // Arabic letters are two bytes each: the server counts bytes.
    expect(validReason('ب'.repeat(250))).toBe(true);
    expect(validReason('ب'.repeat(251))).toBe(false);
  });
});

describe('the sign-in', () => {
  it('goes to the code after 142/143, to the enrolment after 144, else lets the person retry', () => {
    expect(afterSignInError(142)).toBe('code');
    expect(afterSignInError(143)).toBe('code');
    expect(afterSignInError(144)).toBe('enrol');
    expect(afterSignInError(4)).toBe('retry');
    expect(afterSignInError(16)).toBe('retry');
  });

  it('keeps the six digits of a pasted code and groups a secret by four', () => {
    expect(cleanTotp('123 456')).toBe('123456');
    expect(cleanTotp('12-34-567')).toBe('123456');
    expect(cleanTotp('abc')).toBe('');
    expect(groupSecret('INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB')).toBe('INQX E5DI MFTW KRDF NVXU CZDN NFXC CIJB');
  });
});

describe('bulk decisions', () => {
  it('splits the answer into decided ids and refused ids with their codes', () => {
    const s = summariseDecisions([
      { id: 3, status: 0 },
      { id: 5, status: 141, errorMessage: 'already decided' },
      { id: 9, status: 85, errorMessage: null },
      { id: 11, status: 0 },
    ]);
    expect(s.decided).toEqual([3, 11]);
    expect(s.refused).toEqual([
      { id: 5, status: 141, message: 'already decided' },
      { id: 9, status: 85, message: null },
    ]);
  });
});

describe('risk signals', () => {
  const calm = { accountAgeDays: 400, deposited: 5000, withdrawn: 1000, withdrawals24h: 1, otherAccountsAtAddresses: 0, openBonus: false };
  it('flags nothing for an old account cashing out less than it deposited', () => {
    expect(riskFlags(calm, 1500, 'TND')).toEqual([]);
  });
  it('flags a new account, shared addresses, an open bonus, repeated withdrawals and cashing out above deposits', () => {
    expect(riskFlags({ accountAgeDays: 0, deposited: 100, withdrawn: 0, withdrawals24h: 3, otherAccountsAtAddresses: 2, openBonus: true }, 1500, 'TND')).toEqual([
      'newAccount',
      'sharedAddress',
      'openBonus',
      'manyWithdrawals',
      'aboveDeposits',
    ]);
  });
  it('compares money exactly: 0.1 + 0.2 is not above 0.3', () => {
    expect(riskFlags({ ...calm, deposited: 0.3, withdrawn: 0.1 }, 0.2, 'TND')).toEqual([]);
    expect(riskFlags({ ...calm, deposited: 0.3, withdrawn: 0.1 }, 0.201, 'TND')).toEqual(['aboveDeposits']);
  });
});

describe('audit trail pages', () => {
  it('steps to older pages and back through the trail kept in the URL', () => {
    const second = olderPage(null, [], 951);
    expect(second).toEqual({ before: 951, trail: [0] });
    const third = olderPage(second.before, second.trail, 901);
    expect(third).toEqual({ before: 901, trail: [0, 951] });
    expect(newerPage(third.trail)).toEqual({ before: 951, trail: [0] });
    expect(newerPage([0])).toEqual({ before: null, trail: [] });
    expect(newerPage([])).toBeNull();
    expect(parseTrail('0,951,x,-3,12')).toEqual([0, 951, 12]);
    expect(parseTrail(null)).toEqual([]);
  });

  it('links a user subject and shows before/after when recorded', () => {
    expect(subjectUserId('user:42')).toBe(42);
    expect(subjectUserId('code:WELCOME')).toBeNull();
    expect(beforeAfter({ before: { banned: false }, after: { banned: true }, reason: 'x' })).toEqual({ before: { banned: false }, after: { banned: true } });
    expect(beforeAfter({ reason: 'x' })).toBeNull();
    expect(beforeAfter('text')).toBeNull();
  });
});

describe('times', () => {
  it('writes Latin digits in every language, and a dash for none', () => {
    const at = Date.UTC(2026, 10, 28, 9, 5);
    expect(formatTime(at, 'ar')).toMatch(/2026/);
    expect(formatTime(at, 'ar')).not.toMatch(/[٠-٩]/);
    expect(formatTime('2026-11-28T09:05:00Z', 'fr')).toMatch(/2026/);
    expect(formatTime(null, 'en')).toBe('—');
  });
});
