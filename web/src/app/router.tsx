import { lazy } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { AppShell } from './layout/AppShell';
import { RootError, RouteError } from './layout/RouteError';
import { SpinnerOverlay } from '../components/Spinner';
import { settled } from './chunkReload';

type Loader = () => Promise<{ default: React.ComponentType }>;
/** A lazy route: its module loads when the route is first visited. */
const page = (load: Loader): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await settled(load())).default }),
});

// /home shows the casino's strips; the app composes the two features (neither imports the other).
const HomeCasino = lazy(() => settled(import('../features/casino/components/HomeCasino')));
// The payments parts of /home (top-up block, withdraw banner) and /profile (deposit/withdraw).
const HomePayments = lazy(() => settled(import('../features/payments/components/HomePayments')));
// The jackpot widget on /home (features/promotions), loaded after the first paint.
const HomeJackpots = lazy(() => settled(import('../features/promotions/home/HomeJackpots')));
const ProfilePayments = lazy(() => settled(import('../features/payments/components/ProfilePayments')));
const PayHistory = lazy(() => settled(import('../features/payments/components/PayHistory')));
// The withdrawal page's open-bonus notice (features/promotions) inside the cashier's page.
const WithdrawalBonusNotice = lazy(() => settled(import('../features/promotions/components/WithdrawalBonusNotice')));

const comingSoon = page(() => import('../features/content/routes/ComingSoonPage'));
const casino = page(() => import('../features/casino/routes/CasinoRoutes'));
// The partner sportsbooks in frames (features/partners/routes/PartnersRoutes.tsx), loaded on a visit.
const partners = page(() => import('../features/partners/routes/PartnersRoutes'));

const tree: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    hydrateFallbackElement: <SpinnerOverlay fullscreen />,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      {
        path: 'home',
        lazy: async () => {
          const { default: HomePage } = await settled(import('../features/home/routes/HomePage'));
          return { Component: () => <HomePage casinoSection={HomeCasino} paymentsSection={HomePayments} jackpotsSection={HomeJackpots} /> };
        },
      },
      { path: 'auth/:type', ...page(() => import('../features/auth/routes/AuthPage')) },
      { path: 'verify', ...page(() => import('../features/auth/routes/VerifyPage')) },
      {
        path: 'profile',
        ...page(() => import('../features/profile/routes/ProfileLayout')),
        children: [
          {
            index: true,
            lazy: async () => {
              const { default: ProfileHome } = await settled(import('../features/profile/routes/ProfileHome'));
              return { Component: () => <ProfileHome paymentsSection={ProfilePayments} /> };
            },
          },
          { path: 'personal', ...page(() => import('../features/profile/routes/PersonalDataPage')) },
          { path: 'balance', ...page(() => import('../features/profile/routes/BalancePage')) },
          { path: 'password', ...page(() => import('../features/profile/routes/ChangePasswordPage')) },
          {
            path: 'history',
            lazy: async () => {
              const { default: HistoryPage } = await settled(import('../features/profile/routes/HistoryPage'));
              return { Component: () => <HistoryPage payHistory={PayHistory} /> };
            },
          },
          { path: 'history/round', ...page(() => import('../features/profile/routes/RoundPage')) },
          // Spec §2: the slots bet history (every casino round: studio and providers).
          { path: 'slots-history', ...page(() => import('../features/profile/routes/SlotsHistoryPage')) },
          { path: 'bets', ...page(() => import('../features/betting/routes/MyBetsPage')) },
          { path: 'cashback', ...page(() => import('../features/profile/routes/CashbackPage')) },
          { path: 'responsible-gambling', ...page(() => import('../features/rg/routes/ResponsibleGamblingPage')) },
          {
            path: 'withdrawal',
            lazy: async () => {
              const { default: WithdrawalPage } = await settled(import('../features/cashier/routes/WithdrawalPage'));
              return { Component: () => <WithdrawalPage bonusSection={WithdrawalBonusNotice} /> };
            },
          },
          // Promotions (features/promotions): bonuses with their wagering, promo codes, free bets.
          { path: 'bonuses', ...page(() => import('../features/promotions/routes/BonusesPage')) },
          { path: 'free-bets', ...page(() => import('../features/promotions/routes/FreeBetsPage')) },
          // Jackpots: the pools with their published seed hashes, the history with revealed seeds.
          { path: 'jackpots', ...page(() => import('../features/promotions/jackpots/JackpotsPage')) },
          { path: 'jackpots-history', ...page(() => import('../features/promotions/jackpots/JackpotHistoryPage')) },
          // Deposits (features/payments); /profile/withdrawal belongs to the cashier feature.
          { path: 'top-up', ...page(() => import('../features/payments/routes/TopUpPage')) },
          { path: 'top-up-tg', ...page(() => import('../features/payments/routes/TopUpTgPage')) },
          { path: 'paykassma/deposit', ...page(() => import('../features/payments/routes/PaykassmaDepositPage')) },
          { path: 'paykassma/withdrawal', ...page(() => import('../features/payments/routes/PaykassmaWithdrawalPage')) },
          { path: '*', ...comingSoon },
        ],
      },
      { path: 'flatPages/:flatPageName', ...page(() => import('../features/content/routes/FlatPageRoute')) },
      { path: 'contacts', ...page(() => import('../features/content/routes/ContactsPage')) },
      { path: 'promotions', ...page(() => import('../features/promotions/routes/PromotionsPage')) },
      { path: 'promotions/cashback-percent', ...page(() => import('../features/promotions/routes/CashbackPercentPage')) },
      { path: 'promotions/coupon-machine', ...page(() => import('../features/promotions/routes/CouponMachinePage')) },
      { path: 'partner', ...page(() => import('../features/content/routes/PartnerPage')) },
      // The casino's own routes (features/casino/routes/CasinoRoutes.tsx).
      { path: 'slots/*', ...casino },
      { path: 'casinolive/*', ...casino },
      // Our sportsbook (features/betting): one layout holds the live socket and the bet slip.
      {
        path: 'betting',
        ...page(() => import('../features/betting/routes/BettingLayout')),
        children: [
          { index: true, ...page(() => import('../features/betting/routes/BettingPage')) },
          { path: 'event/:id', ...page(() => import('../features/betting/routes/EventPage')) },
        ],
      },
      // The partner sportsbooks (features/partners): GR8 and Digitain in frames.
      { path: 'betting/gr/*', ...partners },
      { path: 'digsport/*', ...partners },
      { path: 'payment-frame', ...page(() => import('../features/payments/routes/PaymentFramePage')) },
      // The studio's own virtual races (features/virtuals): the lobby and a race type's page.
      { path: 'virtual-games', ...page(() => import('../features/virtuals/routes/VirtualsLobbyPage')) },
      { path: 'virtual-games/studio/:sport', ...page(() => import('../features/virtuals/routes/RacePage')) },
      { path: 'virtual-games/goldenrace/:gameId', ...page(() => import('../features/virtuals/routes/GoldenRacePage')) },
      ...['virtual-games/*'].map((path) => ({
        path,
        ...comingSoon,
      })),
      { path: '*', ...page(() => import('../features/content/routes/NotFoundPage')) },
    ],
  },
];

/**
 * Every route gets an error screen (layout/RouteError.tsx): a failing route shows it in its
 * parent's outlet, inside the shell and in the player's language; the root's draws the shell
 * itself. Never React Router's developer page ("Unexpected Application Error!").
 */
function withErrorScreens(list: RouteObject[], root: boolean): RouteObject[] {
  return list.map((route) => {
    const withChildren = route.children ? { ...route, children: withErrorScreens(route.children, false) } : route;
    const lazy = route.lazy;
    const safe = lazy ? { lazy: renderLazyFailure(lazy) } : {};
    return { errorElement: root ? <RootError /> : <RouteError />, ...withChildren, ...safe } as RouteObject;
  });
}

/**
 * A route's module that failed to load becomes a component that throws the failure: the error
 * screen then shows in the route's place. (React Router 6 leaves a route whose `lazy` rejected
 * during the first load on the hydrate fallback for good: the spinner, forever.)
 */
function renderLazyFailure(load: NonNullable<RouteObject['lazy']>): NonNullable<RouteObject['lazy']> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      return {
        Component: () => {
          throw error;
        },
      };
    }
  };
}

export const routes: RouteObject[] = withErrorScreens(tree, true);

/** The router's options (tests build a memory router with the same). */
export const routerOptions = {
  future: {
    v7_relativeSplatPath: true,
    v7_fetcherPersist: true,
    v7_normalizeFormMethod: true,
    v7_partialHydration: true,
    v7_skipActionErrorRevalidation: true,
  },
} as const;

export const createRouter = () => createBrowserRouter(routes, routerOptions);
