import { memo, type CSSProperties, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyImage } from '../../../components/LazyImage';
import { gameHref, providerDisplayName } from '../logic';
import type { Game } from '../types';
import css from './Casino.module.css';

export const isNewGame = (g: Game) => Boolean(g.isNew) || g.tab.includes('new');

/** A game tile: artwork, "new" badge, name and provider. Pressing it opens the game pop-up. */
export const GameTile = memo(function GameTile({
  game,
  isAuth,
  onOpen,
  style,
  eager = false,
}: {
  game: Game;
  isAuth: boolean;
  onOpen: (game: Game) => void;
  style?: CSSProperties;
  eager?: boolean;
}) {
  const { t } = useTranslation('casino');
  const onClick = (e: MouseEvent) => {
    e.preventDefault();
    onOpen(game);
  };
  return (
    <a
      href={gameHref(game, isAuth)}
      className={css.tile}
      style={style}
      onClick={onClick}
      data-testid="game-tile"
      data-game={`${game.provider}/${game.gameId}`}
      aria-label={game.name}
    >
      <span className={css.tileArt}>
        <LazyImage src={game.imageUrl} alt="" className={css.tileImg} eager={eager} width={240} height={240} />
        {isNewGame(game) && <span className={css.newBadge}>{t('newBadge')}</span>}
      </span>
      {/* Catalogue text from the server, in whatever language it comes: isolated from the page's direction. */}
      <span className={css.tileName} dir="auto">
        {game.name}
      </span>
      <span className={css.tileProvider}>{providerDisplayName(game.provider)}</span>
    </a>
  );
});

export function TileSkeleton({ style }: { style?: CSSProperties }) {
  return (
    <span className={`${css.tile} ${css.tileSkeleton}`} style={style} aria-hidden="true">
      <span className={`${css.tileArt} ${css.shimmer}`} />
      <span className={`${css.skeletonLine} ${css.shimmer}`} />
    </span>
  );
}
