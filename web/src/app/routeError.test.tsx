import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import arCommon from '../locales/ar/common.json';
import frCommon from '../locales/fr/common.json';
import { mockApi } from '../test/render';
import { isChunkLoadError, page, RELOAD_WINDOW_MS } from './chunkReload';
import { i18n } from './i18n';
import { routerOptions, routes } from './router';
import { makeStore } from './store';

// The contacts page stands for any lazy route: its chunk is gone (a deploy replaced it) or its
// code throws, as `failure` says.
const failure = vi.hoisted(() => ({ error: null as Error | null }));
vi.mock('../features/content/routes/ContactsPage', () => ({
  default: () => {
    if (failure.error) throw failure.error;
    return <h1>Contacts page</h1>;
  },
}));

// The promotions page's module itself cannot be imported (its lazy() rejects on the first load).
vi.mock('../features/promotions/routes/PromotionsPage', () => {
  throw new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/PromotionsPage-Q2.js');
});

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/ContactsPage-Dx1.js');

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: [path] });
  const store = makeStore();
  return render(
    <Provider store={store}>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </Provider>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
  mockApi({});
  i18n.addResourceBundle('fr', 'common', frCommon, true, true);
  i18n.addResourceBundle('ar', 'common', arCommon, true, true);
});
afterEach(async () => {
  failure.error = null;
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('route errors', { timeout: 20_000 }, () => {
  it('recognises chunk-load failures of every browser', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /a.js'))).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new Error('x is not a function'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });

  it('a chunk that no longer exists reloads the app once, then shows the error screen inside the shell', async () => {
    failure.error = chunkError();
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => {});
    const first = renderAt('/contacts');
    await waitFor(() => expect(screen.getByTestId('route-error').dataset.kind).toBe('reloading'), { timeout: 8000 });
    expect(reload).toHaveBeenCalledTimes(1);
    first.unmount();

    // The reloaded page (same tab: same sessionStorage) fails again: no second reload.
    failure.error = chunkError();
    renderAt('/contacts');
    const screenEl = await screen.findByRole('alert', {}, { timeout: 8000 });
    expect(screenEl.dataset.kind).toBe('update');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { name: 'This page could not load' })).toBeTruthy();
    expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
    // The shell stays: header and navigation.
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    // The Reload button reloads.
    act(() => screen.getByRole('button', { name: 'Reload' }).click());
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('reloads automatically again for a later deploy, once the window has passed', async () => {
    failure.error = chunkError();
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => {});
    const now = Date.now();
    const clock = vi.spyOn(page, 'now').mockReturnValue(now);
    const first = renderAt('/contacts');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 8000 });
    first.unmount();
    clock.mockReturnValue(now + RELOAD_WINDOW_MS + 1);
    failure.error = chunkError();
    renderAt('/contacts');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(2), { timeout: 8000 });
  });

  it.each([
    ['en', 'Something went wrong', 'Reload', 'ltr'],
    ['fr', 'Un problème est survenu', 'Recharger', 'ltr'],
    ['ar', 'حدث خطأ ما', 'إعادة التحميل', 'rtl'],
  ])('any other failure shows the error screen in the player’s language (%s), without reloading', async (lang, title, button) => {
    await i18n.changeLanguage(lang);
    failure.error = new Error('boom');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => {});
    renderAt('/contacts');
    expect(await screen.findByRole('heading', { name: title }, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: button })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it('a route whose module cannot be imported on the first load shows the error screen, not a spinner forever', async () => {
    const reload = vi.spyOn(page, 'reload').mockImplementation(() => {});
    sessionStorage.setItem('carthage.chunkReload', JSON.stringify({ path: '/promotions', at: Date.now() }));
    renderAt('/promotions');
    const alert = await screen.findByRole('alert', {}, { timeout: 8000 });
    expect(alert.dataset.kind).toBe('update');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('a route that loads renders normally', async () => {
    renderAt('/contacts');
    expect(await screen.findByRole('heading', { name: 'Contacts page' }, { timeout: 8000 })).toBeTruthy();
  });
});
