import { describe, expect, it } from 'vitest';
import type { Settings } from '../api/types';
import { WELCOME_HREF, formatOffer, welcomeOffer } from './welcomeOffer';

const base: Settings = {
  lang: 'en-US', languages: [], currencies: ['TND'], defaultCurrency: 'TND', phoneCodeSalt: '', phoneCountryCode: '+216', phoneLength: 8,
};

describe('welcome offer', () => {
  it('is the settings registration bonus in the default currency', () => {
    expect(welcomeOffer({ ...base, limits: { bonus: { registrationBonus: 50 } } })).toEqual({ amount: 50, currency: 'TND' });
    expect(WELCOME_HREF).toBe('/promotions#welcome');
  });
  it('is advertised without trailing zeros, in the locale', () => {
    expect(formatOffer({ amount: 25, currency: 'TND' }, 'en')).toBe('25.000 TND');
    expect(formatOffer({ amount: 12.5, currency: 'TND' }, 'fr')).toBe('12,500 TND');
  });
  it('is nothing when the platform grants nothing', () => {
    expect(welcomeOffer(undefined)).toBeNull();
    expect(welcomeOffer(base)).toBeNull();
    expect(welcomeOffer({ ...base, limits: { bonus: { registrationBonus: 0 } } })).toBeNull();
    expect(welcomeOffer({ ...base, limits: { bonus: { registrationBonus: -5 } } })).toBeNull();
  });
});
