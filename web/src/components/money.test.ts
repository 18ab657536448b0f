import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { errorText } from '../app/errors';
import arErrors from '../locales/ar/errors.json';
import enErrors from '../locales/en/errors.json';
import frErrors from '../locales/fr/errors.json';
import { currencyExponent, formatMinorMoney, formatMoney, majorToMinor, moneyText } from './money';

// Issue 18 item 13: every amount shows its currency and its exponent, in the language's format.
const NNBSP = '\u202f';
const LRI = '\u2066';
const PDI = '\u2069';

describe('money format', () => {
  it('uses the platform exponents (crates/kernel/src/money.rs)', () => {
    expect(['TND', 'PYG', 'USDT', 'TMT', 'HTG', 'RUB', 'USD', 'EUR'].map(currencyExponent)).toEqual([3, 0, 6, 2, 2, 2, 2, 2]);
  });

  it.each([
    ['en', '1,234,567.890 TND', '-0.005 TND', '50.000 TND', '700 PYG', '0.010000 USDT'],
    ['fr', `1${NNBSP}234${NNBSP}567,890 TND`, '-0,005 TND', '50,000 TND', '700 PYG', '0,010000 USDT'],
    ['ar', '1,234,567.890 TND', '-0.005 TND', '50.000 TND', '700 PYG', '0.010000 USDT'],
  ])('formats minor units with exponent and code in %s', (lang, big, small, fifty, pyg, usdt) => {
    expect(formatMinorMoney(1_234_567_890, 'TND', lang)).toBe(big);
    expect(formatMinorMoney(-5, 'TND', lang)).toBe(small);
    expect(formatMinorMoney(50_000n, 'TND', lang)).toBe(fifty);
    expect(formatMinorMoney(700, 'PYG', lang)).toBe(pyg);
    expect(formatMinorMoney(10_000, 'USDT', lang)).toBe(usdt);
    // The API's major units give the same text.
    expect(formatMoney(1234567.89, 'TND', lang)).toBe(big);
    expect(formatMoney('-0.005', 'TND', lang)).toBe(small);
    expect(formatMoney(50, 'TND', lang)).toBe(fifty);
  });

  it('reads major units exactly, without float arithmetic', () => {
    expect(majorToMinor(97.5, 'TND')).toBe(97_500n);
    expect(majorToMinor(0.1 + 0.2, 'TND')).toBe(300n); // 0.30000000000000004: rounded on the digits
    expect(majorToMinor(12.345, 'TND')).toBe(12_345n);
    expect(majorToMinor(123456789012.345, 'TND')).toBe(123_456_789_012_345n);
    expect(majorToMinor(1e21, 'PYG')).toBe(10n ** 21n);
    expect(majorToMinor('-0.0015', 'TND')).toBe(-2n);
    expect(majorToMinor('abc', 'TND')).toBeNull();
    expect(majorToMinor(Number.NaN, 'TND')).toBeNull();
  });

  it('isolates an amount for a sentence (Arabic keeps its order and sign)', () => {
    expect(moneyText(-15, 'TND', 'ar')).toBe(`${LRI}-15.000 TND${PDI}`);
  });
});

describe('refusal texts carry formatted amounts with their currency', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });
  const catalogues = { en: enErrors, fr: frErrors, ar: arErrors };
  const say = (lang: keyof typeof catalogues, text: { key: string[]; params?: Record<string, string> }) => {
    i18n.addResourceBundle(lang, 'errors', catalogues[lang], true, true);
    return i18n.getFixedT(lang)(text.key, text.params);
  };

  it.each([
    ['en', `To withdraw, you still need to wager ${LRI}97.500 TND${PDI}.`, `you can deposit ${LRI}0.000 TND${PDI} more`],
    ['fr', `Pour retirer, vous devez encore miser ${LRI}97,500 TND${PDI}.`, `vous pouvez encore déposer ${LRI}0,000 TND${PDI}`],
    ['ar', `${LRI}97.500 TND${PDI}`, `${LRI}0.000 TND${PDI}`],
  ] as const)('%s: "wager 97.5" and "deposit 0 more" name the amount as money', async (lang, wager, deposit) => {
    await i18n.changeLanguage(lang);
    // Today's replies: 6252 with a bare major-unit number, 120 with {period, limit, used, remaining}.
    expect(say(lang, errorText({ code: 6252, data: 97.5 }, 'default', { currency: 'TND' }))).toContain(wager);
    expect(say(lang, errorText({ code: 120, data: { period: 'day', limit: 100, used: 100, remaining: 0 } }, 'default', { currency: 'TND' }))).toContain(deposit);
  });

  it('uses the currency the refusal names over the player’s', async () => {
    await i18n.changeLanguage('en');
    expect(say('en', errorText({ code: 6252, data: { amount: 1.5, currency: 'USDT' } }, 'default', { currency: 'TND' }))).toContain(
      `${LRI}1.500000 USDT${PDI}`,
    );
    expect(say('en', errorText({ code: 6252, data: { remaining: { amount: '2.5', currency: 'EUR' } } }))).toContain(`${LRI}2.50 EUR${PDI}`);
    expect(say('en', errorText({ code: 120, data: { remaining: 12.5, currency: 'TND' } }))).toContain(`${LRI}12.500 TND${PDI}`);
  });

  it('never shows an amount without its currency', async () => {
    await i18n.changeLanguage('en');
    // No currency known: the requirement or the limit without the figure.
    expect(say('en', errorText({ code: 6252, data: 97.5 }))).toBe('To withdraw, you still need to wager the rest of your deposit.');
    expect(say('en', errorText({ code: 120, data: { remaining: 0 } }))).toBe('This deposit is above your deposit limit.');
    // Withdrawals blocked for the moment: its own message.
    expect(say('en', errorText({ code: 6252, data: { reason: 'pending', until: '2026-01-01T00:00:00Z' } }))).toBe(
      'Withdrawal is blocked at the moment, please wait.',
    );
  });
});
