import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Spec §9: the app's languages; `id` is the platform's code, `code` the short one. */
export const LANGUAGES = [
  { id: 'en-US', code: 'en', label: 'English', slides: 'en' },
  { id: 'fr-fr', code: 'fr', label: 'Français', slides: 'fr' },
  { id: 'ar-ar', code: 'ar', label: 'العربية', slides: 'ar' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const DEFAULT_LANGUAGE: LanguageCode = 'en';
export const NAMESPACES = ['common', 'account', 'errors'] as const;
/** Forms and account pages: their own namespace, loaded with those routes; common as fallback. */
export const ACCOUNT_NS = ['account', 'common'] as const;
const STORAGE_KEY = 'carthage.lang';

export function languageOf(code: string | null | undefined) {
  const short = (code ?? '').slice(0, 2).toLowerCase();
  return LANGUAGES.find((l) => l.code === short);
}

export const isRtl = (code: string) => languageOf(code)?.code === 'ar';

// One chunk per locale file, fetched when a language is first used. The operator's console
// texts (console*.json) are the console's own (src/console/i18n.ts): not in this app's map.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/*/*.json', '!../locales/*/console*.json']);

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`no locale file ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (m) => callback(null, m.default as never),
      (err: unknown) => callback(err as Error, false),
    );
  },
};

export function applyDocumentLanguage(code: string) {
  const root = document.documentElement;
  root.lang = code;
  root.dir = isRtl(code) ? 'rtl' : 'ltr';
}

export function storedLanguage(): LanguageCode {
  try {
    return languageOf(localStorage.getItem(STORAGE_KEY))?.code ?? DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function storeLanguage(code: LanguageCode) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    /* private mode */
  }
}

export function initI18n(lng: LanguageCode = storedLanguage()) {
  if (!i18n.isInitialized) {
    i18n.on('languageChanged', applyDocumentLanguage);
    void i18n
      .use(lazyBackend)
      .use(initReactI18next)
      .init({
        lng,
        supportedLngs: LANGUAGES.map((l) => l.code),
        fallbackLng: false,
        load: 'currentOnly',
        // `errors` loads with the first error message (see notify.ts).
        ns: ['common'],
        defaultNS: 'common',
        interpolation: { escapeValue: false },
        returnNull: false,
        // useTranslation(['account', 'common']): keys are looked up in each namespace in turn.
        react: { useSuspense: true, nsMode: 'fallback' },
      });
    applyDocumentLanguage(lng);
  }
  return i18n;
}

export { i18n };
