import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The console's languages (the player app's three); Arabic reads right to left. */
export const CONSOLE_LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'fr', label: 'Français' },
  { code: 'ar', label: 'العربية' },
] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number]['code'];

/** The choice is remembered under the player app's key: one language per browser. */
export const LANGUAGE_KEY = 'carthage.lang';

export function languageOf(text: string | null | undefined): ConsoleLanguage | null {
  const short = (text ?? '').slice(0, 2).toLowerCase();
  return CONSOLE_LANGUAGES.find((l) => l.code === short)?.code ?? null;
}

/** The remembered language, else the browser's, else English. */
export function consoleLanguage(): ConsoleLanguage {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    /* storage off */
  }
  return languageOf(stored) ?? languageOf(typeof navigator === 'undefined' ? null : navigator.language) ?? 'en';
}

/** `<html lang dir>`: Arabic turns the whole console right to left (logical properties do the rest). */
export function applyDocumentLanguage(lng: ConsoleLanguage) {
  const root = document.documentElement;
  root.lang = lng;
  root.dir = lng === 'ar' ? 'rtl' : 'ltr';
}

// The console's texts and the error catalogue, per language, loaded when first used.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/{console,errors}.json');

async function bundles(lng: ConsoleLanguage) {
  const [own, errors] = await Promise.all(['console', 'errors'].map((ns) => loaders[`../locales/${lng}/${ns}.json`]!().then((m) => m.default)));
  return { console: own!, errors: errors! };
}

export async function initConsoleI18n(lng: ConsoleLanguage) {
  applyDocumentLanguage(lng);
  await i18n.use(initReactI18next).init({
    lng,
    resources: { [lng]: await bundles(lng) },
    ns: ['console', 'errors'],
    defaultNS: 'console',
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  return i18n;
}

export async function switchConsoleLanguage(lng: ConsoleLanguage) {
  if (!i18n.hasResourceBundle(lng, 'console')) {
    const b = await bundles(lng);
    i18n.addResourceBundle(lng, 'console', b.console);
    i18n.addResourceBundle(lng, 'errors', b.errors);
  }
  try {
    localStorage.setItem(LANGUAGE_KEY, lng);
  } catch {
    /* private mode */
  }
  applyDocumentLanguage(lng);
  await i18n.changeLanguage(lng);
}
