import { api } from '../../api/api';
import type { ApiError } from '../../api/types';
import type { Game, GameLink, GameSession, Provider, SessionRequest, TvTiles } from './types';

/** Defensive normalisation: the lists drive layout, a missing field must not break a tile. */
export function normalizeGame(raw: unknown): Game | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const g = raw as Partial<Game> & Record<string, unknown>;
  if (typeof g.gameId !== 'string' || typeof g.provider !== 'string') return null;
  const name = typeof g.name === 'string' && g.name ? g.name : typeof g.gameName === 'string' ? g.gameName : g.gameId;
  return {
    ...g,
    id: typeof g.id === 'number' ? g.id : Number(g.id ?? 0),
    gameId: g.gameId,
    gameName: typeof g.gameName === 'string' ? g.gameName : name,
    name,
    tab: Array.isArray(g.tab) ? g.tab.filter((t): t is string => typeof t === 'string') : ['slotMachines'],
    provider: g.provider,
    routeProvider: typeof g.routeProvider === 'string' && g.routeProvider ? g.routeProvider : g.provider,
    imageUrl: typeof g.imageUrl === 'string' ? g.imageUrl : '',
    rtp: typeof g.rtp === 'number' ? g.rtp : null,
    volatility: g.volatility === 'low' || g.volatility === 'medium' || g.volatility === 'high' ? g.volatility : null,
  };
}

export const normalizeGames = (raw: unknown): Game[] =>
  Array.isArray(raw) ? raw.map(normalizeGame).filter((g): g is Game => g !== null) : [];

const normalizeProviders = (raw: unknown): Provider[] =>
  Array.isArray(raw)
    ? raw
        .filter((p): p is Provider => typeof p === 'object' && p !== null && typeof (p as Provider).name === 'string')
        .map((p) => ({
          ...p,
          displayName: p.displayName || p.name,
          gameCount: typeof p.gameCount === 'number' ? p.gameCount : 0,
          authRequired: Boolean(p.authRequired),
        }))
    : [];

const base = api.enhanceEndpoints({ addTagTypes: ['CasinoGames', 'Favorites'] }).injectEndpoints({
  endpoints: (build) => ({
    casinoProviders: build.query<Provider[], string>({
      query: (casinoType) => ({ url: `/api/casino/providers?casinoType=${encodeURIComponent(casinoType)}` }),
      transformResponse: normalizeProviders,
      providesTags: ['CasinoGames'],
    }),
    gameList: build.query<Game[], string>({
      query: (provider) => ({ url: `/api/casino/game_list?provider=${encodeURIComponent(provider)}` }),
      transformResponse: normalizeGames,
      providesTags: ['CasinoGames'],
    }),
    searchGames: build.query<Game[], { q: string; limit?: number }>({
      query: ({ q, limit = 50 }) => ({
        url: `/api/casino/search?${new URLSearchParams({ q, limit: String(limit) }).toString()}`,
      }),
      transformResponse: normalizeGames,
      providesTags: ['CasinoGames'],
    }),
    favorites: build.query<Game[], void>({
      query: () => ({ url: '/api/favorite_slots/get_list' }),
      transformResponse: normalizeGames,
      providesTags: ['Favorites'],
    }),
    addFavorite: build.mutation<unknown, number>({
      query: (slot) => ({ url: '/api/favorite_slots/add', method: 'POST', body: { slot } }),
      invalidatesTags: ['Favorites'],
    }),
    removeFavorite: build.mutation<unknown, number>({
      query: (id) => ({ url: '/api/favorite_slots/remove', method: 'POST', body: { id } }),
      invalidatesTags: ['Favorites'],
    }),
    startSession: build.mutation<GameSession, SessionRequest>({
      query: (body) => ({ url: '/api/casino/session', method: 'POST', body }),
    }),
    /** The TV betting tiles (spec §9: purple, red and black by default). */
    tvTiles: build.query<TvTiles, void>({
      query: () => ({ url: '/api/tvbet/tiles' }),
      providesTags: ['CasinoGames'],
    }),
    /** A TV betting session (spec §7 "TV betting provider token generation"): a new one per opening. */
    tvToken: build.mutation<GameLink, { gameId: string; lang: string }>({
      query: ({ gameId, lang }) => ({ url: `/api/tvbet/token?${new URLSearchParams({ game_id: gameId, lang }).toString()}` }),
    }),
  }),
});

/**
 * Every provider's games of one casino type ("an array of providers: each one loads", spec §4),
 * through the per-provider list queries, so the rows and the strips share one cache entry each.
 */
const casinoApi = base.injectEndpoints({
  endpoints: (build) => ({
    allGames: build.query<Game[], string>({
      async queryFn(casinoType, { dispatch }) {
        const load = <T,>(sub: { unwrap: () => Promise<T>; unsubscribe: () => void }) =>
          sub.unwrap().finally(() => sub.unsubscribe());
        try {
          const providers = await load(dispatch(base.endpoints.casinoProviders.initiate(casinoType)));
          const lists = await Promise.all(
            providers.map((p) => load(dispatch(base.endpoints.gameList.initiate(p.name))).catch(() => [] as Game[])),
          );
          return { data: lists.flat() };
        } catch (error) {
          return { error: error as ApiError };
        }
      },
      providesTags: ['CasinoGames'],
    }),
  }),
});

export { casinoApi };
export type { ApiError };
