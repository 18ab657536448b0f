/** Test fixtures (used by the tests only). */
import type { Game } from './types';

export const game = (over: Partial<Game> & { gameId: string }): Game => ({
  id: over.id ?? Math.abs([...over.gameId].reduce((h, c) => h * 31 + c.charCodeAt(0), 7)) % 1_000_000,
  gameName: over.name ?? over.gameId,
  name: over.gameId,
  tab: ['slotMachines'],
  provider: 'studio',
  routeProvider: 'studio',
  imageUrl: `/games/studio/${over.gameId}.svg`,
  casinoType: 'slots',
  rtp: null,
  volatility: null,
  ...over,
});
