import type { Game, TvTile } from './types';

/** The TV betting provider (spec §9's live providers). */
export const TV_PROVIDER = 'tvbet';

/**
 * The game each TV tile opens: its own `gameId` when the provider lists it, else the
 * provider's games in order (tile i → game i, wrapping). No games: no tiles.
 */
export function tvTileGames(tiles: readonly TvTile[], games: readonly Game[]): { tile: TvTile; game: Game }[] {
  const out: { tile: TvTile; game: Game }[] = [];
  tiles.forEach((tile, i) => {
    const game = games.find((g) => tile.gameId != null && g.gameId === tile.gameId) ?? games[i % games.length];
    if (game) out.push({ tile, game });
  });
  return out;
}
