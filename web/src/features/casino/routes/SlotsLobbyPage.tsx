import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/store';
import { casinoApi } from '../api';
import { ProviderList } from '../components/ProviderList';
import { ProviderRow } from '../components/ProviderRow';
import { FAVORITE } from '../logic';

/** /slots/lobby: the player's favourites row, then every provider's row. */
export default function SlotsLobbyPage() {
  const { t } = useTranslation('casino');
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const favorites = casinoApi.useFavoritesQuery(undefined, { skip: !isAuth });
  return (
    <div data-testid="slots-lobby">
      {isAuth && favorites.data && favorites.data.length > 0 && (
        <ProviderRow provider={{ name: FAVORITE }} title={t('tabs.favorites')} games={favorites.data} isAuth={isAuth} href="/slots/favorites" />
      )}
      <ProviderList casinoType="slots" isAuth={isAuth} />
    </div>
  );
}
