import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { casinoApi } from '../api';
import { isNewGame } from '../components/GameTile';
import { ProviderList } from '../components/ProviderList';
import { ProviderRow } from '../components/ProviderRow';
import { FAVORITE, isProviderBanned } from '../logic';
import css from '../components/Casino.module.css';

/** /slots/lobby: the player's favourites, top and new games, then every provider's row. */
export default function SlotsLobbyPage() {
  const { t } = useTranslation('casino');
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const banned = api.useBlocklistQuery().data ?? [];
  const favorites = casinoApi.useFavoritesQuery(undefined, { skip: !isAuth });
  const all = casinoApi.useAllGamesQuery('slots');
  const games = useMemo(() => (all.data ?? []).filter((g) => !isProviderBanned(g.provider, banned)), [all.data, banned]);
  const top = useMemo(() => games.filter((g) => g.tab.includes('top')), [games]);
  const fresh = useMemo(() => games.filter(isNewGame), [games]);
  return (
    <div className={css.rows} data-testid="slots-lobby">
      {isAuth && favorites.data && favorites.data.length > 0 && (
        <ProviderRow
          provider={{ name: FAVORITE }}
          title={t('tabs.favorites')}
          icon={<Icon name="star" size={18} />}
          games={favorites.data}
          isAuth={isAuth}
          href="/slots/favorites"
        />
      )}
      {top.length > 0 && (
        <ProviderRow provider={{ name: 'top', gameCount: top.length }} title={t('homeTopGames')} icon={<Icon name="crash" size={18} />} games={top} isAuth={isAuth} href="/slots/main?category=top" />
      )}
      {fresh.length > 0 && (
        <ProviderRow provider={{ name: 'new', gameCount: fresh.length }} title={t('newGames')} icon={<Icon name="gift" size={18} />} games={fresh} isAuth={isAuth} href="/slots/main?category=new" />
      )}
      <ProviderList casinoType="slots" isAuth={isAuth} />
    </div>
  );
}
