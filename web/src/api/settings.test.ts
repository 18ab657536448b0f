import { describe, expect, it } from 'vitest';
import { normalizeSettings } from './settings';

describe('normalizeSettings', () => {
  it('accepts a single default language', () => {
    expect(normalizeSettings({ lang: 'en', currencies: ['EUR', 'USD'] })).toEqual({
      defaultLang: 'en',
      languages: ['en'],
      currencies: ['EUR', 'USD'],
    });
  });

  it('accepts a list of languages and merges `languages`, dropping duplicates', () => {
    expect(
      normalizeSettings({ lang: ['fr', 'en'], languages: ['en', 'de'], currencies: ['EUR', 'EUR', 'BTC'] }),
    ).toEqual({
      defaultLang: 'fr',
      languages: ['fr', 'en', 'de'],
      currencies: ['EUR', 'BTC'],
    });
  });

  it('tolerates missing or malformed fields', () => {
    const wire = JSON.parse('{"lang": null, "currencies": "EUR"}');
    expect(normalizeSettings(wire)).toEqual({ defaultLang: 'en', languages: [], currencies: ['EUR'] });
  });
});
