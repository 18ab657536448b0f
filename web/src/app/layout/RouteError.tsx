import { Component, useEffect, type ReactNode } from 'react';
import { Link, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError, page, reloadOnceFor } from '../chunkReload';
import { BottomMenu } from './BottomMenu';
import { Header } from './Header';
import css from './Shell.module.css';

/*
 * The error screens of the router: every route has one (app/router.tsx), so a route that fails —
 * its code, its lazy chunk, its render — shows this inside the app shell (header and navigation
 * stay), in the player's language, never React Router's developer page. A chunk that no longer
 * exists (a deploy replaced it) reloads the app once to the new build first (app/chunkReload.ts).
 * English defaults stand in when the strings themselves could not load.
 */

function ErrorPanel({ error }: { error: unknown }) {
  const { t } = useTranslation('common', { useSuspense: false });
  const chunk = isChunkLoadError(error);
  // A failed chunk reloads the page once (decided once per error, before anything else shows).
  const reloading = chunk && reloadOnceFor(error);
  useEffect(() => {
    if (!chunk) console.error(error);
  }, [chunk, error]);

  if (reloading) {
    return (
      <section className={css.errorScreen} role="status" data-testid="route-error" data-kind="reloading">
        <span className={css.errorSpinner} aria-hidden="true" />
        <p className={css.errorText}>{t('routeError.updating', 'Loading the new version…')}</p>
      </section>
    );
  }
  return (
    <section className={css.errorScreen} role="alert" aria-labelledby="route-error-title" data-testid="route-error" data-kind={chunk ? 'update' : 'error'}>
      <h1 id="route-error-title" className={css.errorTitle}>
        {chunk ? t('routeError.updateTitle', 'This page could not load') : t('routeError.title', 'Something went wrong')}
      </h1>
      <p className={css.errorText}>
        {chunk
          ? t('routeError.updateText', 'The app may have been updated, or the connection dropped. Reload to get the latest version.')
          : t('routeError.text', 'This page could not be shown. Reload to try again.')}
      </p>
      <div className={css.errorActions}>
        <button type="button" className={css.errorReload} onClick={() => page.reload()} data-testid="route-error-reload">
          {t('routeError.reload', 'Reload')}
        </button>
        <Link to="/home" className={css.errorHome} reloadDocument={chunk}>
          {t('goHome', 'Go to the home page')}
        </Link>
      </div>
    </section>
  );
}

/** The error element of every route below the shell: shown in the shell's main area. */
export function RouteError() {
  return <ErrorPanel error={useRouteError()} />;
}

/** Renders `children`, or `fallback` when they throw (a shell part that broke with the rest). */
class Guard extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * The root's error element: the shell itself failed (or an error escaped every route), so this
 * draws the header and the navigation again around the panel, each guarded: if they are what
 * broke, a plain header with the home link stands in.
 */
export function RootError() {
  const error = useRouteError();
  const plainHeader = (
    <header className={css.header}>
      <div className={css.headerInner}>
        <a href="/home" className={css.logo}>
          Carthage
        </a>
      </div>
    </header>
  );
  return (
    <div className={css.app}>
      <Guard fallback={plainHeader}>
        <Header />
      </Guard>
      <main id="main" className={css.main} tabIndex={-1}>
        <ErrorPanel error={error} />
      </main>
      <Guard fallback={null}>
        <BottomMenu />
      </Guard>
    </div>
  );
}
