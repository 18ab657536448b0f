import { describe, expect, it } from 'vitest';
import { applyDocumentLanguage, isRtl, languageOf, LANGUAGES } from './i18n';

describe('languages', () => {
  it('maps platform ids and short codes (spec §9)', () => {
    expect(languageOf('ar-ar')?.id).toBe('ar-ar');
    expect(languageOf('fr')?.id).toBe('fr-fr');
    expect(languageOf('en-US')?.slides).toBe('en');
    expect(languageOf('ru-ru')).toBeUndefined();
    expect(LANGUAGES.map((l) => l.id)).toEqual(['en-US', 'fr-fr', 'ar-ar']);
  });
  it('sets <html lang dir>: Arabic is right-to-left', () => {
    applyDocumentLanguage('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(isRtl('ar-ar')).toBe(true);
    applyDocumentLanguage('fr');
    expect(document.documentElement.dir).toBe('ltr');
  });
});
