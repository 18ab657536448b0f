import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { CasinoLayout } from '../components/CasinoLayout';
import CrashGamesPage from './CrashGamesPage';
import FavoritesPage from './FavoritesPage';
import GamePage from './GamePage';
import LiveCasinoPage from './LiveCasinoPage';
import ProvidersPage from './ProvidersPage';
import SlotsLobbyPage from './SlotsLobbyPage';
import SlotsMainPage from './SlotsMainPage';

const gamePage: RouteObject = { path: ':provider/:gameId', element: <GamePage /> };

/** Under /slots/* (spec §2). */
export const SLOTS_ROUTES: RouteObject[] = [
  gamePage,
  {
    element: <CasinoLayout casinoType="slots" />,
    children: [
      { index: true, element: <Navigate to="/slots/lobby" replace /> },
      { path: 'main', element: <SlotsMainPage /> },
      { path: 'lobby', element: <SlotsLobbyPage /> },
      { path: 'favorites', element: <FavoritesPage /> },
      { path: 'crash-games', element: <CrashGamesPage /> },
      { path: 'providers', element: <ProvidersPage /> },
      { path: '*', element: <SlotsLobbyPage /> },
    ],
  },
];

/** Under /casinolive/*: main, lobby and any other sub-path show the live lobby. */
export const LIVE_ROUTES: RouteObject[] = [
  gamePage,
  {
    element: <CasinoLayout casinoType="casinolive" />,
    children: [
      { index: true, element: <LiveCasinoPage /> },
      { path: '*', element: <LiveCasinoPage /> },
    ],
  },
];

/**
 * Every /slots/* and /casinolive/* page, as descendant routes (useRoutes): the app router
 * holds one lazy entry per section, so the casino's route table stays out of the initial chunk.
 */
export default function CasinoRoutes() {
  const { pathname } = useLocation();
  return useRoutes(pathname.toLowerCase().startsWith('/casinolive') ? LIVE_ROUTES : SLOTS_ROUTES);
}
