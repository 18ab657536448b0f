/**
 * The two partner sportsbooks shown in frames (spec §2 "Sports frame routes" / "Sports deep links",
 * §4 "Digitain token" / "Second-provider link", §9 sports frame language map). Pure functions only:
 * the pages (routes/) and the tests share them.
 */

/** Spec §9: the languages the sports frames are offered in. */
export const FRAME_LANGUAGES = ['en', 'ru', 'he', 'fr', 'ar', 'es', 'pt'] as const;
export type FrameLanguage = (typeof FRAME_LANGUAGES)[number];
export const DEFAULT_FRAME_LANGUAGE: FrameLanguage = 'en';

/**
 * The frame's language for the app's language: the short code ("fr-fr" → "fr", "ar" → "ar") when
 * the frames have it, English for anything else (e.g. "kk-KZ", "de", an empty value).
 */
export function frameLanguage(appLanguage: string | null | undefined): FrameLanguage {
  const short = (appLanguage ?? '').trim().slice(0, 2).toLowerCase();
  return (FRAME_LANGUAGES as readonly string[]).includes(short) ? (short as FrameLanguage) : DEFAULT_FRAME_LANGUAGE;
}

/* ---------------------------------------------------------------- Digitain */

/** Spec §4: a guest's token is this placeholder; the server's token replaces it once signed in. */
export const DIGITAIN_GUEST_TOKEN = 'anonymous';

/**
 * Where a guest's frame comes from: `GET /digitain/front/token` is only called when signed in (spec §4),
 * so a guest has no server-given base. The server serves the partner (or, in demo mode, its demo page)
 * under this path; a build may point it elsewhere with VITE_DIGITAIN_GUEST_URL.
 */
export const DIGITAIN_GUEST_URL: string =
  (import.meta.env.VITE_DIGITAIN_GUEST_URL as string | undefined) || '/partners/digitain';

/** Spec "Sports frame routes": our category → the frame's path. */
export const DIGITAIN_PATHS = {
  home: '/',
  live: '/Live/1',
  line: '/SportEvent',
  favorite: '/Favorite',
  results: '/Results',
  calendar: '/Calendar',
  search: '/Search',
  mybets: '/?popup=MyBets',
  events: '/SportEvents',
} as const;
export type DigitainCategory = keyof typeof DIGITAIN_PATHS | 'event';

/** The single-event page: /digsport/event/:id → the frame's /events/:id. */
export const DIGITAIN_EVENT_PATH = '/events';

export function isDigitainCategory(c: string): c is DigitainCategory {
  return c === 'event' || Object.prototype.hasOwnProperty.call(DIGITAIN_PATHS, c);
}

/**
 * The frame path of /digsport, /digsport/:category and /digsport/:category/:id; null for a path the
 * frame has no page for (an unknown category, an event without its id, an id on a list page).
 */
export function digitainFramePath(category: string | undefined, id?: string): string | null {
  if (category === undefined || category === '') return id ? null : DIGITAIN_PATHS.home;
  if (category === 'event') return id ? `${DIGITAIN_EVENT_PATH}/${encodeURIComponent(id)}` : null;
  if (id !== undefined && id !== '') return null;
  return isDigitainCategory(category) ? DIGITAIN_PATHS[category as keyof typeof DIGITAIN_PATHS] : null;
}

/**
 * The frame's address: `{url}/{lang}{path}?token={token}` (`&token=` when the path has a query
 * already, e.g. "/?popup=MyBets"). A trailing slash of `url` is not doubled.
 */
export function digitainFrameSrc({ url, lang, path, token }: { url: string; lang: FrameLanguage; path: string; token: string }): string {
  const base = url.replace(/\/+$/, '');
  const p = path.startsWith('/') ? path : `/${path}`;
  return `${base}/${lang}${p}${p.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/* --------------------------------------------------------------------- GR8 */

/**
 * Spec "Sports deep links": /betting/gr/:category → a path of the GR8 frame. "uefa" opens "a
 * football play-offs prematch page"; the spec gives no address, so this is our choice: the Champions
 * League play-offs as a sport/tournament/stage path (to confirm against the partner's real paths; one
 * constant to change). The index route (/betting/gr) opens the frame's own home.
 */
export const GR8_DEEP_LINKS = {
  live: 'all-live',
  uefa: 'football/uefa-champions-league/play-offs',
  mybets: 'my-bets/open',
} as const;
export type Gr8Category = keyof typeof GR8_DEEP_LINKS;

export function isGr8Category(c: string): c is Gr8Category {
  return Object.prototype.hasOwnProperty.call(GR8_DEEP_LINKS, c);
}

/** The deep link of /betting/gr/:category: '' for the index, null for an unknown category. */
export function gr8DeepLink(category: string | undefined): string | null {
  if (category === undefined || category === '') return '';
  return isGr8Category(category) ? GR8_DEEP_LINKS[category] : null;
}

/**
 * The GR8 link with a deep link: its segments go right after the link's language segment (the
 * requested language, else the first segment that is a frame language), the rest of the path and
 * the query (`?jwt=…`) kept: `https://gr8.example/en?jwt=x` + "all-live" →
 * `https://gr8.example/en/all-live?jwt=x`. A link without a language segment gets the deep link at
 * the end of its path. Null when the link is not an http(s) address.
 */
export function gr8FrameSrc(link: string, lang: string, deepLink: string, base = currentOrigin()): string | null {
  let u: URL;
  try {
    u = new URL(link, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const deep = deepLink.split('/').filter(Boolean);
  if (deep.length === 0) return u.href;
  const trailingSlash = u.pathname.length > 1 && u.pathname.endsWith('/');
  const segments = u.pathname.split('/').filter(Boolean);
  let at = segments.findIndex((s) => s.toLowerCase() === lang.toLowerCase());
  if (at < 0) at = segments.findIndex((s) => (FRAME_LANGUAGES as readonly string[]).includes(s.toLowerCase()));
  const insertAt = at < 0 ? segments.length : at + 1;
  // "/en/" + "all-live" is "/en/all-live"; a slash that ended a longer path stays where it was.
  const keepSlash = trailingSlash && insertAt < segments.length;
  segments.splice(insertAt, 0, ...deep.map(encodeSegment));
  u.pathname = `/${segments.join('/')}${keepSlash ? '/' : ''}`;
  return u.href;
}

// Deep links are our constants; a segment is encoded only where it needs it (an already encoded
// "%20" stays as it is).
const encodeSegment = (s: string) => (/^[\w.~%-]+$/.test(s) ? s : encodeURIComponent(s));

function currentOrigin(): string {
  return typeof window !== 'undefined' && window.location?.href ? window.location.href : 'http://localhost/';
}

/**
 * A frame base or link from the server, checked before it becomes an iframe's src: an http(s)
 * address or a same-origin path; anything else (javascript:, data:) is refused.
 */
export function isSafeFrameUrl(raw: unknown, base = currentOrigin()): raw is string {
  if (typeof raw !== 'string' || raw.trim() === '') return false;
  try {
    const u = new URL(raw, base);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
