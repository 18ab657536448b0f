import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import DigitainPage from './DigitainPage';
import Gr8Page from './Gr8Page';

/** Under /digsport/* (spec §2): the index, a category, or a category with an id (event/:id). */
export const DIGITAIN_ROUTES: RouteObject[] = [
  { index: true, element: <DigitainPage /> },
  { path: ':category', element: <DigitainPage /> },
  { path: ':category/:id', element: <DigitainPage /> },
  { path: '*', element: <Navigate to="/digsport" replace /> },
];

/** Under /betting/gr/*: the index or a category (live, uefa, mybets). */
export const GR8_ROUTES: RouteObject[] = [
  { index: true, element: <Gr8Page /> },
  { path: ':category', element: <Gr8Page /> },
  { path: '*', element: <Navigate to="/betting/gr" replace /> },
];

/**
 * Every /digsport/* and /betting/gr/* page, as descendant routes (useRoutes), like the casino's:
 * the app router holds one lazy entry for both sections, so /home's chunk carries one import and
 * no route table of the partners.
 */
export default function PartnersRoutes() {
  const { pathname } = useLocation();
  return useRoutes(pathname.toLowerCase().startsWith('/digsport') ? DIGITAIN_ROUTES : GR8_ROUTES);
}
