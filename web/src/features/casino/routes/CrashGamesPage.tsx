import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { useAppSelector } from '../../../app/store';
import { casinoApi } from '../api';
import { EmptyState } from '../components/EmptyState';
import { GamesView } from '../components/GamesView';
import { isCrashGame, isProviderBanned } from '../logic';
import css from '../components/Casino.module.css';

/** /slots/crash-games: every provider's games carrying the crashGames tab. */
export default function CrashGamesPage() {
  const { t } = useTranslation('casino');
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const banned = api.useBlocklistQuery().data ?? [];
  const all = casinoApi.useAllGamesQuery('slots');
  const games = useMemo(() => (all.data ?? []).filter((g) => isCrashGame(g) && !isProviderBanned(g.provider, banned)), [all.data, banned]);
  return (
    <section className={css.section} data-testid="crash-games">
      <GamesView games={games} loading={all.isLoading} isAuth={isAuth} empty={<EmptyState icon="crash" title={t('noGames')} text={t('noGamesText')} />} />
    </section>
  );
}
