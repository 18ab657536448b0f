import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyDocumentLanguage, languageOf, storedLanguage, storeLanguage, type LanguageCode } from '../app/i18n';

// The desk's own texts and the error catalogue, per language, loaded when first used.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/{desk,errors}.json');

async function bundles(lng: LanguageCode) {
  const [desk, errors] = await Promise.all(['desk', 'errors'].map((ns) => loaders[`../locales/${lng}/${ns}.json`]!().then((m) => m.default)));
  return { desk: desk!, errors: errors! };
}

/** The desk's language: the one chosen in either app (same storage key), else the browser's. */
export function deskLanguage(): LanguageCode {
  return languageOf(localStorage.getItem('carthage.lang'))?.code ?? languageOf(navigator.language)?.code ?? storedLanguage();
}

export async function initDeskI18n(lng: LanguageCode) {
  applyDocumentLanguage(lng);
  await i18n.use(initReactI18next).init({
    lng,
    resources: { [lng]: await bundles(lng) },
    ns: ['desk', 'errors'],
    defaultNS: 'desk',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  return i18n;
}

export async function switchDeskLanguage(lng: LanguageCode) {
  if (!i18n.hasResourceBundle(lng, 'desk')) {
    const b = await bundles(lng);
    i18n.addResourceBundle(lng, 'desk', b.desk);
    i18n.addResourceBundle(lng, 'errors', b.errors);
  }
  storeLanguage(lng);
  applyDocumentLanguage(lng);
  await i18n.changeLanguage(lng);
}
