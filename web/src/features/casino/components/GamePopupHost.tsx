import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { closeGamePopup, openGamePopup, useOpenedGame } from '../popup';

const GamePopup = lazy(() => import('./GamePopup'));

/** Renders the open game pop-up (loaded with the first opening); closes it on navigation. */
export function GamePopupHost() {
  const opened = useOpenedGame();
  const { pathname } = useLocation();
  useEffect(() => closeGamePopup, [pathname]);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <GamePopup
        key={`${opened.game.provider}/${opened.game.gameId}`}
        game={opened.game}
        pool={opened.pool}
        onClose={closeGamePopup}
        onOpen={(g) => openGamePopup(g, opened.pool)}
      />
    </Suspense>
  );
}
