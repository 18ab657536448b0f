import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useRouteError, type RouteObject } from 'react-router-dom';
import { isApiError } from '../app/errors';
import { EmptyState, Page, PageHeader } from '../components/Page';
import { consoleApi, type StaffMe } from './api';
import { can, sectionPermission, sectionsFor, SIGNED_OUT_CODES, type Section } from './logic';
import { fullName, Shell } from './Shell';
import { SignInPage } from './pages/SignInPage';
import { Button, QueryState, Spinner } from './ui';
import css from './Shell.module.css';

/** The signed-in staff member (the root renders pages only once it is known). */
export function useMe(): StaffMe {
  const { data } = consoleApi.useMeQuery();
  if (!data) throw new Error('useMe outside the signed-in console');
  return data;
}

/**
 * The console's root: asks the server who is signed in. No console session (23) or one
 * without the second factor (142): the sign-in page, at the address asked for (it opens once
 * signed in). Signed in: the shell and the page.
 */
export function ConsoleRoot() {
  const { t } = useTranslation('console');
  const me = consoleApi.useMeQuery();
  if (me.isLoading) {
    return (
      <div className={css.center}>
        <Spinner label={t('state.loading')} />
      </div>
    );
  }
  if (me.error) {
    const code = isApiError(me.error) ? me.error.code : -1;
    if (SIGNED_OUT_CODES.has(code) || code === 24) return <SignInPage notStaff={code === 24} onSignedIn={() => me.refetch()} />;
    return (
      <div className={css.center}>
        <div className={css.narrow}>
          <QueryState isLoading={false} error={me.error} onRetry={() => void me.refetch()}>
            {null}
          </QueryState>
        </div>
      </div>
    );
  }
  if (!me.data) return null;
  return (
    <Shell me={me.data}>
      <Outlet />
    </Shell>
  );
}

/** `/console`: the first section this role may open. */
export function Home() {
  const { t } = useTranslation('console');
  const me = useMe();
  const first = sectionsFor(me.permissions)[0];
  if (first) return <Navigate to={`/${first}`} replace />;
  return (
    <Page>
      <PageHeader title={t('home.title', { name: fullName(me) })} />
      <EmptyState icon="∅" title={t('home.nothing')}>
        <p>{t('home.nothingLead')}</p>
      </EmptyState>
    </Page>
  );
}

/** A section this role may not open (an address typed by hand). */
export function Guard({ section, children }: { section: Section; children: ReactNode }) {
  const { t } = useTranslation('console');
  const me = useMe();
  if (can(me.permissions, sectionPermission(section))) return <>{children}</>;
  return (
    <Page>
      <EmptyState icon="🔒" tone="attention" title={t('guard.title')} headingLevel={1} data-testid="console-forbidden">
        <p>{t('guard.lead', { section: t(`nav.${section}`) })}</p>
      </EmptyState>
    </Page>
  );
}

export function NotFound() {
  const { t } = useTranslation('console');
  return (
    <Page>
      <EmptyState icon="?" title={t('notFound.title')} headingLevel={1}>
        <p>{t('notFound.lead')}</p>
      </EmptyState>
    </Page>
  );
}

/** A route that failed to render or to load its code: what happened and a way out. */
export function RouteFailure() {
  const { t } = useTranslation('console');
  const error = useRouteError();
  const chunk = error instanceof Error && /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(error.message);
  return (
    <div className={css.center}>
      <EmptyState className={css.narrow} icon="!" tone="danger" title={t('failure.title')} headingLevel={1} data-testid="console-route-error">
        <p>{chunk ? t('failure.newVersion') : t('failure.lead')}</p>
        <Button tone="primary" onClick={() => window.location.reload()}>
          {t('failure.reload')}
        </Button>
      </EmptyState>
    </div>
  );
}

type PageModule = { default: ComponentType };

/**
 * A lazy page of a section: its code loads on the first visit, behind the section's permission.
 * A chunk that failed to preload resolves to undefined (Vite): wait for the reload it started.
 */
const section = (id: Section, load: () => Promise<PageModule | undefined>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const m = await load();
    if (!m) return new Promise<never>(() => {});
    const Page = m.default;
    return {
      Component: () => (
        <Guard section={id}>
          <Page />
        </Guard>
      ),
    };
  },
});

/** The console's routes, under the basename `/console` (main.tsx; the tests use a memory router). */
export const consoleRoutes: RouteObject[] = [
  {
    path: '/',
    element: <ConsoleRoot />,
    errorElement: <RouteFailure />,
    children: [
      { index: true, element: <Home /> },
      { path: 'players', ...section('players', () => import('./pages/PlayersPage')) },
      { path: 'players/:id', ...section('players', () => import('./pages/PlayerCardPage')) },
      { path: 'withdrawals', ...section('withdrawals', () => import('./pages/WithdrawalsPage')) },
      { path: 'adjustments', ...section('adjustments', () => import('./pages/AdjustmentsPage')) },
      { path: 'audit', ...section('audit', () => import('./pages/AuditPage')) },
      { path: 'reports', ...section('reports', () => import('./pages/ReportsPage')) },
      { path: '*', element: <NotFound /> },
    ],
  },
];
