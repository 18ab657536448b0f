import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { casinoApi } from '../api';
import { isProviderBanned } from '../logic';
import { TV_PROVIDER, tvTileGames } from '../tv';
import css from './Casino.module.css';

/**
 * Spec §9: the TV betting tiles (purple, red and black by default; the operator's rules
 * document may change them). Each opens its TV game at /casinolive/tvbet/:gameId; a tile
 * without a game of its own opens the TV provider's games in order. Nothing when the TV
 * provider is banned or has no games for this viewer; a clear line when it is down.
 */
export function TvTiles() {
  const { t } = useTranslation('casino');
  const banned = api.useBlocklistQuery().data ?? [];
  const off = isProviderBanned(TV_PROVIDER, banned);
  const tiles = casinoApi.useTvTilesQuery(undefined, { skip: off });
  const games = casinoApi.useGameListQuery(TV_PROVIDER, { skip: off || !tiles.data });
  if (off || !tiles.data) return null;
  const shown = tvTileGames(tiles.data.tiles, games.data ?? []);
  if (!tiles.data.unavailable && shown.length === 0) return null;
  return (
    <section className={css.row} aria-labelledby="tv-tiles-title" data-testid="tv-tiles">
      <div className={css.rowHead}>
        <h2 id="tv-tiles-title" className={`${css.rowName} ${css.tvHeading}`}>
          {t('tvTitle')}
        </h2>
      </div>
      {tiles.data.unavailable ? (
        <p className={css.tvNote} role="status">
          {t('providerUnavailable')}
        </p>
      ) : (
        <div className={css.tvGrid}>
          {shown.map(({ tile, game }) => (
            <Link
              key={tile.id}
              to={`/casinolive/${TV_PROVIDER}/${encodeURIComponent(game.gameId)}`}
              className={css.tvTile}
              style={{ '--tv-colour': tile.color } as React.CSSProperties}
              data-testid={`tv-tile-${tile.id}`}
            >
              <span className={css.tvScreen} aria-hidden="true">
                <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="1.8">
                  <rect x="3" y="6" width="18" height="12" rx="2" />
                  <path d="M8 21h8M9 3l3 3 3-3" />
                </svg>
              </span>
              <span className={css.tvName}>{game.name}</span>
              <span className={css.tvLive}>{t('tvLive')}</span>
            </Link>
          ))}
        </div>
      )}
    </section>
  );
}
