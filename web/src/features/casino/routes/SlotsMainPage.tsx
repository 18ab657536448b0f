import { useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { casinoApi } from '../api';
import { Chips } from '../components/Chips';
import { EmptyState } from '../components/EmptyState';
import { GamesView } from '../components/GamesView';
import { isProviderBanned, providerDisplayName, withProvider } from '../logic';
import css from '../components/Casino.module.css';

/** /{casinoType}/main: every game, or one provider's (query sP); other query parameters kept. */
export function MainView({ casinoType }: { casinoType: 'slots' | 'casinolive' }) {
  const { t } = useTranslation('casino');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const sP = params.get('sP');
  const banned = api.useBlocklistQuery().data ?? [];
  const providers = casinoApi.useCasinoProvidersQuery(casinoType);
  const one = casinoApi.useGameListQuery(sP ?? '', { skip: !sP });
  const all = casinoApi.useAllGamesQuery(casinoType, { skip: Boolean(sP) });
  const source = sP ? one : all;
  const games = useMemo(() => (source.data ?? []).filter((g) => !isProviderBanned(g.provider, banned)), [source.data, banned]);
  const visibleProviders = (providers.data ?? []).filter((p) => !isProviderBanned(p.name, banned));
  const banner = sP ? visibleProviders.find((p) => p.name === sP) : undefined;
  const state = location.state as { prevPath?: string } | null;

  const pick = (provider: string | null) =>
    void navigate(`${location.pathname}${withProvider(location.search, provider)}`, { replace: true, state, preventScrollReset: true });

  return (
    <section className={css.section} data-testid="slots-main">
      {sP && (
        <div className={css.providerHead}>
          <BackButton fallback={`/${casinoType}/lobby`} />
          <h2>
            {banner?.logoUrl && <img src={banner.logoUrl} alt="" width={28} height={28} className={css.rowLogo} />}
            {providerDisplayName(sP, banner?.displayName)}
          </h2>
        </div>
      )}
      {visibleProviders.length > 1 && (
        <Chips
          label={t('providers')}
          testId="provider-chips"
          chips={[
            { id: '', label: t('allProviders'), active: !sP, onSelect: () => pick(null) },
            ...visibleProviders.map((p) => ({
              id: p.name,
              label: providerDisplayName(p.name, p.displayName),
              active: sP === p.name,
              onSelect: () => pick(p.name),
            })),
          ]}
        />
      )}
      <GamesView
        key={sP ?? ''}
        games={sP && isProviderBanned(sP, banned) ? [] : games}
        loading={source.isLoading}
        isAuth={isAuth}
        empty={<EmptyState icon="slots" title={source.isError ? t('loadFailed') : t('noGames')} text={source.isError ? undefined : t('noGamesText')} />}
      />
    </section>
  );
}

export default function SlotsMainPage() {
  return <MainView casinoType="slots" />;
}
