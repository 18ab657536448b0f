import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { casinoApi } from '../api';
import { providerDisplayName, rowGames, viewAllHref, FAVORITE, ROW_SIZE } from '../logic';
import { openGamePopup } from '../popup';
import type { Game } from '../types';
import { GameTile, TileSkeleton } from './GameTile';
import css from './Casino.module.css';

export interface RowProvider {
  name: string;
  displayName?: string | null;
  logoUrl?: string | null;
  casinoType?: string | null;
  gameCount?: number;
}

/** The provider's own list when `games` is not given. */
function useRowGames(provider: string, games: readonly Game[] | undefined, loading: boolean) {
  const own = games === undefined && !loading;
  const query = casinoApi.useGameListQuery(provider, { skip: !own });
  return { list: own ? query.data : games, loading: loading || (own && query.isLoading) };
}

/**
 * Spec §2 provider row: up to 6 tiles, a title with the provider's icon or name, a count,
 * an arrow and "view all" to /{casinoType}/main?sP=<provider> (query kept, previous path
 * passed as navigation state). An empty list renders nothing.
 */
export function ProviderRow({
  provider,
  games,
  isAuth,
  href,
  title,
  icon,
  loading: loadingGiven = false,
}: {
  provider: RowProvider;
  /** The row's games; without them (and not `loading`) the provider's own list is fetched. */
  games?: readonly Game[];
  /** The given games are still loading: skeleton tiles. */
  loading?: boolean;
  isAuth: boolean;
  /** Overrides "view all" (e.g. the favourites row goes to /slots/favorites). */
  href?: string;
  title?: string;
  /** Replaces the provider's logo in the title. */
  icon?: React.ReactNode;
}) {
  const { t } = useTranslation('casino');
  const location = useLocation();
  const { list, loading } = useRowGames(provider.name, games, loadingGiven);
  const tiles = useMemo(() => rowGames(provider.name, list ?? [], ROW_SIZE), [provider.name, list]);
  const name = title ?? providerDisplayName(provider.name, provider.displayName);
  if (!loading && tiles.length === 0) return null;

  const count = provider.name === FAVORITE || !provider.gameCount ? (list?.length ?? 0) : provider.gameCount;
  const to = href ?? viewAllHref(provider.casinoType, provider.name, location.search);
  const state = { prevPath: `${location.pathname}${location.search}` };
  return (
    <section className={css.row} data-testid="provider-row" data-provider={provider.name} aria-label={name}>
      <div className={css.rowHead}>
        <Link to={to} state={state} className={css.rowTitle} aria-label={t('viewAllOf', { name })}>
          {icon ? (
            <span className={css.rowIcon} aria-hidden="true">
              {icon}
            </span>
          ) : provider.logoUrl ? (
            <img src={provider.logoUrl} alt="" className={css.rowLogo} width={28} height={28} />
          ) : (
            <span className={css.rowMonogram} aria-hidden="true">
              {name.charAt(0)}
            </span>
          )}
          <span className={css.rowName}>{name}</span>
          {count > 0 && <span className={css.count}>{count}</span>}
        </Link>
        <Link to={to} state={state} className={css.viewAll} data-testid="view-all">
          {t('viewAll')}
          <span className={css.arrow} aria-hidden="true">
            ›
          </span>
        </Link>
      </div>
      <div className={css.rowTrack}>
        {loading
          ? Array.from({ length: 3 }, (_, i) => <TileSkeleton key={i} />)
          : tiles.map((g, i) => (
              <GameTile key={`${g.provider}/${g.gameId}`} game={g} isAuth={isAuth} eager={i < 3} onOpen={(game) => openGamePopup(game, list ?? tiles)} />
            ))}
      </div>
    </section>
  );
}
