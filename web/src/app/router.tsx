import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { AppShell } from './layout/AppShell';
import { SpinnerOverlay } from '../components/Spinner';

type Loader = () => Promise<{ default: React.ComponentType }>;
/** A lazy route: its module loads when the route is first visited. */
const page = (load: Loader): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

// /home shows the casino's strips; the app composes the two features (neither imports the other).
const HomeCasino = lazy(() => import('../features/casino/components/HomeCasino'));

const comingSoon = page(() => import('../features/content/routes/ComingSoonPage'));
const casino = page(() => import('../features/casino/routes/CasinoRoutes'));

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    hydrateFallbackElement: <SpinnerOverlay fullscreen />,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      {
        path: 'home',
        lazy: async () => {
          const { default: HomePage } = await import('../features/home/routes/HomePage');
          return { Component: () => <HomePage casinoSection={HomeCasino} /> };
        },
      },
      { path: 'auth/:type', ...page(() => import('../features/auth/routes/AuthPage')) },
      { path: 'verify', ...page(() => import('../features/auth/routes/VerifyPage')) },
      {
        path: 'profile',
        ...page(() => import('../features/profile/routes/ProfileLayout')),
        children: [
          { index: true, ...page(() => import('../features/profile/routes/ProfileHome')) },
          { path: 'personal', ...page(() => import('../features/profile/routes/PersonalDataPage')) },
          { path: 'balance', ...page(() => import('../features/profile/routes/BalancePage')) },
          { path: 'password', ...page(() => import('../features/profile/routes/ChangePasswordPage')) },
          { path: 'history', ...page(() => import('../features/profile/routes/HistoryPage')) },
          { path: 'cashback', ...page(() => import('../features/profile/routes/CashbackPage')) },
          { path: '*', ...comingSoon },
        ],
      },
      { path: 'flatPages/:flatPageName', ...page(() => import('../features/content/routes/FlatPageRoute')) },
      { path: 'contacts', ...page(() => import('../features/content/routes/ContactsPage')) },
      { path: 'promotions', ...page(() => import('../features/content/routes/PromotionsPage')) },
      { path: 'promotions/cashback-percent', ...page(() => import('../features/content/routes/CashbackPercentPage')) },
      { path: 'partner', ...page(() => import('../features/content/routes/PartnerPage')) },
      // The casino's own routes (features/casino/routes/CasinoRoutes.tsx).
      { path: 'slots/*', ...casino },
      { path: 'casinolive/*', ...casino },
      ...['virtual-games/*', 'digsport/*', 'betting/*', 'payment-frame', 'promotions/coupon-machine'].map((path) => ({
        path,
        ...comingSoon,
      })),
      { path: '*', ...page(() => import('../features/content/routes/NotFoundPage')) },
    ],
  },
];

export const createRouter = () =>
  createBrowserRouter(routes, {
    future: {
      v7_relativeSplatPath: true,
      v7_fetcherPersist: true,
      v7_normalizeFormMethod: true,
      v7_partialHydration: true,
      v7_skipActionErrorRevalidation: true,
    },
  });
