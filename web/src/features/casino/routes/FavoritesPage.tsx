import { useTranslation } from 'react-i18next';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { MobileButton } from '../../../components/MobileButton';
import { casinoApi } from '../api';
import { EmptyState } from '../components/EmptyState';
import { GamesView } from '../components/GamesView';
import css from '../components/Casino.module.css';

/** /slots/favorites: GET /api/favorite_slots/get_list (signed-in players). */
export default function FavoritesPage() {
  const { t } = useTranslation('casino');
  const dispatch = useAppDispatch();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  const favorites = casinoApi.useFavoritesQuery(undefined, { skip: !isAuth });
  if (!isAuth) {
    return (
      <EmptyState icon="star" title={t('favoritesGuestTitle')} text={t('favoritesGuestText')} testId="favorites-guest">
        {checked && <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('logIn')}</MobileButton>}
      </EmptyState>
    );
  }
  return (
    <section className={css.section} data-testid="favorites">
      <GamesView
        games={favorites.data ?? []}
        loading={favorites.isLoading}
        isAuth
        empty={
          <EmptyState icon="star" title={t('favoritesEmptyTitle')} text={t('favoritesEmptyText')} testId="favorites-empty">
            <MobileButton to="/slots/lobby">{t('browseGames')}</MobileButton>
          </EmptyState>
        }
      />
    </section>
  );
}
