import i18n, { type BackendModule, type ResourceKey } from 'i18next';
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

// The console's texts and the error catalogue, per language, loaded when first used; a
// section's own texts (`console-reports`) when its page first asks for them.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/{console,console-reports,errors}.json');

/**
 * i18next's backend for the namespaces a page brings (`useTranslation('console-reports')`
 * waits for it: `ready`): read from their own chunk, in the language shown, and again in
 * another language when the reader switches (i18next loads every namespace in use).
 */
const sectionTexts: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, done) {
    const load = loaders[`../locales/${lng}/${ns}.json`];
    if (!load) return done(new Error(`no texts ${lng}/${ns}`), false);
    load().then(
      (m) => done(null, m.default as ResourceKey),
      (e: unknown) => done(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

async function bundles(lng: ConsoleLanguage) {
  const [own, errors] = await Promise.all(['console', 'errors'].map((ns) => loaders[`../locales/${lng}/${ns}.json`]!().then((m) => m.default)));
  return { console: own!, errors: errors! };
}

export async function initConsoleI18n(lng: ConsoleLanguage) {
  applyDocumentLanguage(lng);
  await i18n.use(initReactI18next).use(sectionTexts).init({
    lng,
    resources: { [lng]: await bundles(lng) },
    // The bundled namespaces above, the sections' own from the backend.
    partialBundledLanguages: true,
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
