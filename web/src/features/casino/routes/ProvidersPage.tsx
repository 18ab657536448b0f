import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { casinoApi } from '../api';
import { EmptyState } from '../components/EmptyState';
import { isProviderBanned, providerDisplayName, viewAllHref } from '../logic';
import css from '../components/Casino.module.css';

/** /slots/providers: every provider with its game count. */
export default function ProvidersPage() {
  const { t } = useTranslation('casino');
  const location = useLocation();
  const banned = api.useBlocklistQuery().data ?? [];
  const { data, isLoading, isError } = casinoApi.useCasinoProvidersQuery('slots');
  const providers = (data ?? []).filter((p) => !isProviderBanned(p.name, banned));
  if (isLoading) return <div className={css.skeletonList} aria-busy="true" />;
  if (providers.length === 0) return <EmptyState icon="casino" title={isError ? t('loadFailed') : t('noProviders')} />;
  return (
    <ul className={css.providerGrid} data-testid="providers">
      {providers.map((p) => {
        const name = providerDisplayName(p.name, p.displayName);
        return (
          <li key={p.name}>
            <Link to={viewAllHref(p.casinoType || 'slots', p.name)} state={{ prevPath: location.pathname }} className={css.providerCard}>
              {p.logoUrl ? (
                <img src={p.logoUrl} alt="" width={48} height={48} className={css.providerLogo} />
              ) : (
                <span className={`${css.rowMonogram} ${css.providerLogo}`} aria-hidden="true">
                  {name.charAt(0)}
                </span>
              )}
              <strong>{name}</strong>
              <small>{t('gameCount', { count: p.gameCount })}</small>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
