/** Pure casino rules (spec §2, §3, §4, §9), kept out of components so they are tested directly. */
import type { CasinoType, Game } from './types';

export const ROW_SIZE = 6;
export const SIMILAR_COUNT = 5;
export const PROVIDER_STEP = 6;
export const PROVIDER_STEP_MS = 500;
export const FAVORITE = 'favorite';

/** Spec §9 provider aliases. */
const ALIASES: Record<string, string> = {
  pragmaticlive: 'pragmatic',
  pragmaticf: 'pragmatic',
  evolutionlive: 'evolution',
  outcome_amatic: 'amatic',
};

export const providerAlias = (name: string): string => ALIASES[name.toLowerCase()] ?? name.toLowerCase();

/** Spec §3 provider display names (brand spellings). */
const DISPLAY: Record<string, string> = {
  bsw: 'BSW',
  egt: 'EGT',
  netent: 'NetEnt',
  igt: 'IGT',
  relaxgaming: 'Relax Gaming',
  playngo: "Play'n GO",
  pragmatic: 'Pragmatic',
  amatic: 'Amatic',
  evolution: 'Evolution',
  pgsoft: 'PG Soft',
  studio: 'Carthage Studio',
};

/**
 * The name a provider is shown under: pragmaticf and outcome_amatic always read Pragmatic and
 * Amatic (spec §2); otherwise the server's display name, else the known brand, else the name.
 */
export function providerDisplayName(name: string, serverName?: string | null): string {
  const lower = name.toLowerCase();
  if (lower in ALIASES) return DISPLAY[ALIASES[lower]!]!;
  if (serverName && serverName.trim()) return serverName;
  const known = DISPLAY[lower];
  if (known) return known;
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/**
 * Whether a provider is banned for the player: by its name, its alias, or (outcome_amatic,
 * spec §9) when either outcome or amatic is banned.
 */
export function isProviderBanned(name: string, banned: readonly string[]): boolean {
  if (banned.length === 0) return false;
  const lower = name.toLowerCase();
  if (banned.includes(lower) || banned.includes(providerAlias(lower))) return true;
  return lower === 'outcome_amatic' && (banned.includes('outcome') || banned.includes('amatic'));
}

/** A stable 32-bit string hash (FNV-1a). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Spec §4: a pseudo-random RTP from the game name and the current UTC hour, always 96, 97 or 98. */
export function pseudoRtp(name: string, now: Date): 96 | 97 | 98 {
  const n = hashString(`${name}#${now.getUTCHours()}`) % 3;
  return (96 + n) as 96 | 97 | 98;
}

/** The RTP shown for a game: its declared value where present, else the spec §4 rule. */
export function gameRtp(game: Pick<Game, 'name' | 'rtp'>, now: Date): { value: number; declared: boolean } {
  if (typeof game.rtp === 'number' && Number.isFinite(game.rtp)) return { value: game.rtp, declared: true };
  return { value: pseudoRtp(game.name, now), declared: false };
}

/** "96.50%" (fr "96,50 %"): the locale's decimal separator, Latin digits. */
export function formatRtp(rtp: { value: number; declared: boolean }, locale = 'en'): string {
  const digits = rtp.declared ? 2 : 0;
  return new Intl.NumberFormat(`${locale}-u-nu-latn`, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(rtp.value / 100);
}

/**
 * Spec §2 provider row: for the 'favorite' provider only favourite-tab games, otherwise the
 * favourite-tab games are left out; if nothing matches, all games. At most `limit` tiles.
 */
export function rowGames(provider: string, games: readonly Game[], limit = ROW_SIZE): Game[] {
  const isFavorite = (g: Game) => g.tab.includes(FAVORITE);
  const kept = provider === FAVORITE ? games.filter(isFavorite) : games.filter((g) => !isFavorite(g));
  return (kept.length > 0 ? kept : games).slice(0, limit);
}

/** The query string with `sP` set to `provider` (or removed with null), other parameters kept. */
export function withProvider(search: string, provider: string | null): string {
  const params = new URLSearchParams(search);
  if (provider) params.set('sP', provider);
  else params.delete('sP');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Spec §2 "view all": /{casinoType}/main?sP=<provider>, the current query kept (casinoType defaults to slots). */
export function viewAllHref(casinoType: string | undefined | null, provider: string, search = ''): string {
  return `/${casinoType || 'slots'}/main${withProvider(search, provider)}`;
}

export const isVirtualGame = (g: Pick<Game, 'provider' | 'casinoType'>) =>
  g.casinoType === 'virtual-games' || g.provider.toLowerCase() === 'goldenrace';

export const gameKey = (g: Pick<Game, 'provider' | 'gameId'>) => `${g.provider}/${g.gameId}`;

/** A game's page; '#' for guests (spec §4: unauthenticated game links resolve to '#'). */
export function gameHref(g: Pick<Game, 'casinoType' | 'routeProvider' | 'provider' | 'gameId'>, isAuth: boolean): string {
  if (!isAuth) return '#';
  const type = (g.casinoType as CasinoType | undefined) || 'slots';
  if (type === 'virtual-games') return `/virtual-games/${encodeURIComponent(g.routeProvider || g.provider)}/${encodeURIComponent(g.gameId)}`;
  return `/${type}/${encodeURIComponent(g.routeProvider || g.provider)}/${encodeURIComponent(g.gameId)}`;
}

/** Spec §2 game categories derived from names; the first rule that matches wins. */
const CATEGORY_RULES: [string, RegExp][] = [
  ['dragonTiger', /dragon\s*tiger/i],
  ['casinoHoldem', /hold'?\s*em/i],
  ['blackJack', /black\s*jack/i],
  ['baccarat', /baccarat/i],
  ['roulette', /roulette/i],
  ['sikBo', /si[ck]\s*bo/i],
  ['poker', /poker/i],
  ['liveCasino', /\blive\b/i],
  ['tableGames', /\btable\b/i],
  ['dice', /\bdice\b|craps/i],
  ['card', /\bcards?\b/i],
];

export function categoryOf(name: string): string {
  for (const [category, pattern] of CATEGORY_RULES) if (pattern.test(name)) return category;
  return 'otherGames';
}

/** The tabs a game is filed under: its own, plus the category its name gives (unless 'other'). */
export function gameCategories(g: Pick<Game, 'tab' | 'name' | 'isNew'>): string[] {
  const derived = categoryOf(g.name);
  const tabs = g.isNew && !g.tab.includes('new') ? [...g.tab, 'new'] : g.tab;
  return derived === 'otherGames' || tabs.includes(derived) ? tabs : [...tabs, derived];
}

/** Chip order; tabs not listed here are not offered as filters. */
export const CATEGORY_ORDER = [
  'top',
  'new',
  'popular',
  'hot',
  'slotMachines',
  'crashGames',
  'megaways',
  'jackpot',
  'roulette',
  'blackJack',
  'baccarat',
  'poker',
  'casinoHoldem',
  'cardGames',
  'card',
  'dice',
  'sikBo',
  'dragonTiger',
  'tableGames',
  'liveCasino',
  'lotto',
  'jokers',
  'animals',
] as const;

/** The categories that split a list (some of its games, not all), in chip order. */
export function categoriesOf(games: readonly Game[]): string[] {
  const seen = new Map<string, number>();
  for (const g of games) for (const c of gameCategories(g)) seen.set(c, (seen.get(c) ?? 0) + 1);
  return CATEGORY_ORDER.filter((c) => {
    const n = seen.get(c) ?? 0;
    return n > 0 && n < games.length;
  });
}

export const isCrashGame = (g: Pick<Game, 'tab'>) => g.tab.includes('crashGames') || g.tab.includes('crash');

export function filterGames(games: readonly Game[], { category, query }: { category?: string | null; query?: string | null }): Game[] {
  const q = query?.trim().toLowerCase() ?? '';
  return games.filter(
    (g) =>
      (!category || category === 'all' || gameCategories(g).includes(category) || (category === 'crashGames' && isCrashGame(g))) &&
      (!q || g.name.toLowerCase().includes(q)),
  );
}

/**
 * Spec §2: up to `n` random games similar to `game`: same provider or sharing a specific tab
 * (not the catch-all slotMachines/favorite), never the game itself, each game once.
 */
export function similarGames(game: Game, pool: readonly Game[], n = SIMILAR_COUNT, random: () => number = Math.random): Game[] {
  const tabs = new Set(game.tab.filter((t) => t !== 'slotMachines' && t !== FAVORITE));
  const key = gameKey(game);
  const seen = new Set<string>([key]);
  const candidates: Game[] = [];
  for (const g of pool) {
    const k = gameKey(g);
    if (seen.has(k)) continue;
    if (g.provider === game.provider || g.tab.some((t) => tabs.has(t))) {
      seen.add(k);
      candidates.push(g);
    }
  }
  // Partial Fisher-Yates: the first n are a uniform random sample.
  for (let i = 0; i < Math.min(n, candidates.length); i += 1) {
    const j = i + Math.floor(random() * (candidates.length - i));
    [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
  }
  return candidates.slice(0, n);
}
