import { useCallback, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { casinoApi } from '../api';
import { isProviderBanned } from '../logic';
import { openGamePopup } from '../popup';
import { useCasinoAuthRefresh } from '../useCasinoAuthRefresh';
import { EmptyState } from './EmptyState';
import { GamePopupHost } from './GamePopupHost';
import { SearchBox, SEARCH_MIN } from './SearchBox';
import { VirtualGrid } from './VirtualGrid';
import css from './Casino.module.css';

const SLOT_TABS = [
  { to: '/slots/lobby', key: 'lobby' },
  { to: '/slots/main', key: 'allGames' },
  { to: '/slots/favorites', key: 'favorites' },
  { to: '/slots/crash-games', key: 'crashGames' },
  { to: '/slots/providers', key: 'providers' },
] as const;

function SearchResults({ q, casinoType, isAuth }: { q: string; casinoType: string; isAuth: boolean }) {
  const { t } = useTranslation('casino');
  const banned = api.useBlocklistQuery().data ?? [];
  const { data, isFetching, isError } = casinoApi.useSearchGamesQuery({ q, limit: 50 });
  const games = (data ?? []).filter((g) => (g.casinoType ?? 'slots') === casinoType && !isProviderBanned(g.provider, banned));
  return (
    <section aria-label={t('searchResults')} data-testid="search-results">
      <p className={css.resultCount} aria-live="polite">
        {isFetching ? t('searching') : t('resultCount', { count: games.length })}
      </p>
      {!isFetching && games.length === 0 ? (
        <EmptyState icon="slots" title={isError ? t('loadFailed') : t('noResults', { q })} />
      ) : (
        <VirtualGrid games={games} isAuth={isAuth} onOpen={(g) => openGamePopup(g, games)} />
      )}
    </section>
  );
}

/** The casino chrome: title, section tabs (slots), search, the page, and the game pop-up. */
export function CasinoLayout({ casinoType }: { casinoType: 'slots' | 'casinolive' }) {
  const { t } = useTranslation('casino');
  const isAuth = useCasinoAuthRefresh();
  const [q, setQ] = useState('');
  const onSearch = useCallback((text: string) => setQ(text.length >= SEARCH_MIN ? text : ''), []);
  const tabs = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // Keep the current section's tab in view on narrow screens.
  useEffect(() => {
    tabs.current?.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  return (
    <div className={css.page} data-testid={`casino-${casinoType}`}>
      <div className={css.pageHead}>
        <h1>{t(casinoType === 'slots' ? 'slotsTitle' : 'liveTitle')}</h1>
        {casinoType === 'slots' && (
          <nav className={css.tabs} aria-label={t('sections')} ref={tabs}>
            {SLOT_TABS.map((tab) => (
              <NavLink key={tab.to} to={tab.to} className={({ isActive }) => `${css.tab} ${isActive ? css.tabOn : ''}`}>
                {t(`tabs.${tab.key}`)}
              </NavLink>
            ))}
          </nav>
        )}
        <SearchBox onSearch={onSearch} />
      </div>
      {q ? <SearchResults q={q} casinoType={casinoType} isAuth={isAuth} /> : <Outlet />}
      <GamePopupHost />
    </div>
  );
}
