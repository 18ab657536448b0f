import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { applyDocumentLanguage, languageOf, type LanguageCode } from '../app/i18n';

// Only the studio's own texts and the error catalogue, loaded for the one language of the launch.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/{studio,errors}.json');

export function studioLanguage(param: string | null | undefined): LanguageCode {
  return languageOf(param)?.code ?? languageOf(navigator.language)?.code ?? 'en';
}

export async function initStudioI18n(lng: LanguageCode) {
  applyDocumentLanguage(lng);
  const [studio, errors] = await Promise.all(
    ['studio', 'errors'].map((ns) => loaders[`../locales/${lng}/${ns}.json`]!().then((m) => m.default)),
  );
  await i18n.use(initReactI18next).init({
    lng,
    resources: { [lng]: { studio: studio!, errors: errors! } },
    ns: ['studio', 'errors'],
    defaultNS: 'studio',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  return i18n;
}
