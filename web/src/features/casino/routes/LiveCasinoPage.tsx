import { useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { MobileButton } from '../../../components/MobileButton';
import { casinoApi } from '../api';
import { EmptyState } from '../components/EmptyState';
import { ProviderList } from '../components/ProviderList';
import { TvTiles } from '../components/TvTiles';
import { isProviderBanned } from '../logic';
import { MainView } from './SlotsMainPage';
import css from '../components/Casino.module.css';

/** /casinolive/main, /casinolive/lobby and any other sub-path: live providers, or an honest empty state. */
export default function LiveCasinoPage() {
  const { t } = useTranslation('casino');
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  const dispatch = useAppDispatch();
  const banned = api.useBlocklistQuery().data ?? [];
  const { data, isLoading, isError } = casinoApi.useCasinoProvidersQuery('casinolive');
  const providers = (data ?? []).filter((p) => !isProviderBanned(p.name, banned));
  if (isLoading) return <div className={css.skeletonList} aria-busy="true" />;
  if (providers.length === 0) {
    return (
      <EmptyState icon="live" title={isError ? t('loadFailed') : t('liveEmptyTitle')} text={isError ? undefined : t('liveEmptyText')} testId="live-empty">
        <MobileButton to="/slots/lobby">{t('toSlots')}</MobileButton>
      </EmptyState>
    );
  }
  // Every live table needs an account (spec §6): a guest is asked to log in, not shown empty rows.
  if (!isAuth && providers.every((p) => p.authRequired)) {
    return (
      <EmptyState icon="live" title={t('liveGuestTitle')} text={t('liveGuestText')} testId="live-guest">
        {checked && <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('logIn')}</MobileButton>}
      </EmptyState>
    );
  }
  if (pathname === '/casinolive/main' && params.get('sP')) return <MainView casinoType="casinolive" />;
  return (
    <div className={css.rows}>
      <TvTiles />
      <ProviderList casinoType="casinolive" isAuth={isAuth} providers={providers} />
    </div>
  );
}
