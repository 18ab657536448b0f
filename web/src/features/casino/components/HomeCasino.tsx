import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { Icon } from '../../../components/Icon';
import { casinoApi } from '../api';
import { useCasinoAuthRefresh } from '../useCasinoAuthRefresh';
import { GamePopupHost } from './GamePopupHost';
import { ProviderList } from './ProviderList';
import { ProviderRow } from './ProviderRow';
import { isCrashGame, isProviderBanned } from '../logic';
import css from './HomeCasino.module.css';

/**
 * /home game strips (top games, casino, live casino) and the provider list (spec §2).
 * The app's router hands it to the home page, which mounts it after its first paint.
 */
export default function HomeCasino() {
  const { t } = useTranslation('casino');
  const isAuth = useCasinoAuthRefresh();
  const banned = api.useBlocklistQuery().data ?? [];
  const slots = casinoApi.useAllGamesQuery('slots');
  const live = casinoApi.useAllGamesQuery('casinolive');
  const games = useMemo(() => (slots.data ?? []).filter((g) => !isProviderBanned(g.provider, banned)), [slots.data, banned]);
  const top = useMemo(() => {
    const tagged = games.filter((g) => g.tab.includes('top'));
    return tagged.length > 0 ? tagged : games;
  }, [games]);
  const casino = useMemo(() => games.filter((g) => !isCrashGame(g)), [games]);
  const liveGames = useMemo(() => (live.data ?? []).filter((g) => !isProviderBanned(g.provider, banned)), [live.data, banned]);

  return (
    <div className={css.casino} data-testid="home-casino">
      <ProviderRow
        provider={{ name: 'top', gameCount: top.length }}
        title={t('homeTopGames')}
        icon={<Icon name="star" size={18} />}
        games={top}
        loading={slots.isLoading}
        isAuth={isAuth}
        href="/slots/lobby"
      />
      <ProviderRow
        provider={{ name: 'casino', gameCount: casino.length }}
        title={t('homeCasino')}
        icon={<Icon name="slots" size={18} />}
        games={casino}
        loading={slots.isLoading}
        isAuth={isAuth}
        href="/slots/main"
      />
      {liveGames.length > 0 ? (
        <ProviderRow
          provider={{ name: 'live', gameCount: liveGames.length }}
          title={t('homeLiveCasino')}
          icon={<Icon name="live" size={18} />}
          games={liveGames}
          isAuth={isAuth}
          href="/casinolive/main"
        />
      ) : (
        !live.isLoading && (
          <Link to="/casinolive/main" state={{ prevPath: '/home' }} className={css.liveTeaser} data-testid="home-live">
            <span className={css.liveTeaserIcon} aria-hidden="true">
              <Icon name="live" size={24} />
            </span>
            <span>
              <strong>{t('homeLiveCasino')}</strong>
              <small>{t('homeLiveSoon')}</small>
            </span>
            <span className={css.liveTeaserArrow} aria-hidden="true">
              ›
            </span>
          </Link>
        )
      )}
      <section aria-labelledby="home-providers" className={css.providers}>
        <div className={css.sectionHead}>
          <h2 id="home-providers">{t('homeProviders')}</h2>
          <Link to="/slots/providers" className={css.sectionLink}>
            {t('viewAll')}
          </Link>
        </div>
        <ProviderList casinoType="slots" isAuth={isAuth} />
      </section>
      <GamePopupHost />
    </div>
  );
}
