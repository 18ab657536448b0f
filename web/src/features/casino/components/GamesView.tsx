import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { categoriesOf, filterGames } from '../logic';
import { openGamePopup } from '../popup';
import type { Game } from '../types';
import { Chips } from './Chips';
import { TileSkeleton } from './GameTile';
import { VirtualGrid } from './VirtualGrid';
import css from './Casino.module.css';

/** A game list with category chips (`category` query parameter) over the virtualised grid. */
export function GamesView({ games, loading, isAuth, empty }: { games: readonly Game[]; loading: boolean; isAuth: boolean; empty: React.ReactNode }) {
  const { t } = useTranslation('casino');
  const [params, setParams] = useSearchParams();
  const categories = useMemo(() => categoriesOf(games), [games]);
  const wanted = params.get('category');
  const category = wanted && categories.includes(wanted) ? wanted : null;
  const shown = useMemo(() => filterGames(games, { category }), [games, category]);

  const select = (c: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (c) next.set('category', c);
        else next.delete('category');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  if (loading) {
    return (
      <div className={css.skeletonGrid} aria-busy="true">
        {Array.from({ length: 9 }, (_, i) => (
          <TileSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (games.length === 0) return <>{empty}</>;
  return (
    <>
      {categories.length > 0 && (
        <Chips
          label={t('categories')}
          testId="category-chips"
          chips={[
            { id: 'all', label: t('tabs.all'), active: category === null, onSelect: () => select(null) },
            ...categories.map((c) => ({ id: c, label: t(`category.${c}`), active: category === c, onSelect: () => select(c) })),
          ]}
        />
      )}
      <p className={css.resultCount}>{t('gameCount', { count: shown.length })}</p>
      <VirtualGrid games={shown} isAuth={isAuth} onOpen={(g) => openGamePopup(g, shown)} />
    </>
  );
}
