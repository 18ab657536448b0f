import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import enCasino from '../../locales/en/casino.json';
import { TvTiles } from './components/TvTiles';
import { game } from './fixtures';
import { loaderApi } from './loader';
import GamePage from './routes/GamePage';
import { tvTileGames } from './tv';

beforeAll(() => {
  i18n.addResourceBundle('en', 'casino', enCasino, true, true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as { InbetLoader?: unknown }).InbetLoader;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: testBalance } };
const tiles = [
  { id: 'purple', color: '#6c2bd9', gameId: null },
  { id: 'red', color: '#d7263d', gameId: 'tv-duel' },
  { id: 'black', color: '#111111' },
];
const tvGames = [
  game({ gameId: 'tv-lucky7', name: 'Lucky 7 Studio', provider: 'tvbet', routeProvider: 'tvbet' }),
  game({ gameId: 'tv-wheel', name: 'Colour Wheel Studio', provider: 'tvbet', routeProvider: 'tvbet' }),
  game({ gameId: 'tv-duel', name: 'Card Duel Studio', provider: 'tvbet', routeProvider: 'tvbet' }),
];

describe('TV tiles', () => {
  it('give each tile its own game, else the games in order; no games, no tiles', () => {
    expect(tvTileGames(tiles, tvGames).map(({ tile, game }) => `${tile.id}:${game.gameId}`)).toEqual(['purple:tv-lucky7', 'red:tv-duel', 'black:tv-duel']);
    expect(tvTileGames([{ id: 'x', color: 'red', gameId: 'gone' }], tvGames.slice(0, 1)).map((t) => t.game.gameId)).toEqual(['tv-lucky7']);
    expect(tvTileGames(tiles, [])).toEqual([]);
  });

  it('show the three coloured tiles, each opening its TV game', async () => {
    mockApi({ '/api/tvbet/tiles': ok({ provider: 'tvbet', unavailable: false, tiles }), '/api/casino/game_list': ok(tvGames) });
    renderApp(<TvTiles />, { state: signedIn });
    const purple = await screen.findByTestId('tv-tile-purple');
    expect(purple.getAttribute('href')).toBe('/casinolive/tvbet/tv-lucky7');
    expect(purple.textContent).toContain('Lucky 7 Studio');
    expect(purple.getAttribute('style')).toContain('--tv-colour: #6c2bd9');
    expect(screen.getByTestId('tv-tile-red').getAttribute('href')).toBe('/casinolive/tvbet/tv-duel');
    expect(screen.getByTestId('tv-tile-black').getAttribute('href')).toBe('/casinolive/tvbet/tv-duel');
    expect(screen.getByRole('heading', { name: 'TV games' })).toBeTruthy();
  });

  it('say the provider is unavailable when it is down, and show nothing when it is banned', async () => {
    mockApi({ '/api/tvbet/tiles': ok({ provider: 'tvbet', unavailable: true, tiles }), '/api/casino/game_list': ok(tvGames) });
    const first = renderApp(<TvTiles />, { state: signedIn });
    expect((await screen.findByRole('status')).textContent).toBe('This provider is temporarily unavailable. Please try again later.');
    expect(screen.queryByTestId('tv-tile-purple')).toBeNull();
    first.unmount();
    const fetchMock = mockApi({ '/api/user/blocklist': ok(['tvbet']), '/api/tvbet/tiles': ok({ provider: 'tvbet', unavailable: false, tiles }), '/api/casino/game_list': ok(tvGames) });
    const { container } = renderApp(<TvTiles />, { state: signedIn });
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).startsWith('/api/user/blocklist'))).toBe(true));
    await act(async () => {});
    expect(container.querySelector('[data-testid="tv-tiles"]')).toBeNull();
  });
});

describe('TV and loader game pages', () => {
  const open = (path: string, routes: Record<string, unknown>) => {
    const fetchMock = mockApi(routes);
    renderApp(
      <Routes>
        <Route path="/casinolive/:provider/:gameId" element={<GamePage />} />
        <Route path="/slots/:provider/:gameId" element={<GamePage />} />
      </Routes>,
      { path, state: signedIn },
    );
    return fetchMock;
  };

  it('opens a TV game with a TV betting token, not a casino session', async () => {
    const fetchMock = open('/casinolive/tvbet/tv-wheel', {
      '/api/tvbet/token': ok({ url: '/demo-providers/tvbet/play?game=tv-wheel&token=tv1', token: 'tv1' }),
      '/api/casino/game_list': ok(tvGames),
    });
    const frame = await screen.findByTestId('game-frame');
    expect(frame.getAttribute('src')).toBe('/demo-providers/tvbet/play?game=tv-wheel&token=tv1');
    const token = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/tvbet/token'))!;
    expect(String(token[0])).toBe('/api/tvbet/token?game_id=tv-wheel&lang=en');
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/casino/session')).toBe(false);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Colour Wheel Studio'));
  });

  const script = () => document.head.querySelector<HTMLScriptElement>('script[src="/inbet/media/loader.js"]');

  it('mounts an InBet game with the provider loader script from /inbet/media', async () => {
    const mount = vi.fn((box: HTMLElement, o: { url: string; onReady?: () => void }) => {
      const el = document.createElement('iframe');
      el.src = o.url;
      el.dataset.testid = 'inbet-frame';
      box.appendChild(el);
      return { destroy: () => el.remove() };
    });
    open('/slots/inbet/inbet-sahara', { 'POST /api/casino/session': ok({ url: '/demo-providers/inbet/play?game=inbet-sahara&token=s1', sessionToken: 's1' }) });
    await waitFor(() => expect(script()).not.toBeNull());
    expect(screen.queryByTestId('game-frame')).toBeNull();
    (window as { InbetLoader?: unknown }).InbetLoader = { version: 1, mount };
    await act(async () => script()!.dispatchEvent(new Event('load')));
    await waitFor(() => expect(mount).toHaveBeenCalledTimes(1));
    expect(mount.mock.calls[0]![1].url).toBe('/demo-providers/inbet/play?game=inbet-sahara&token=s1');
    expect(screen.getByTestId('game-loader').querySelector('iframe')?.getAttribute('src')).toBe('/demo-providers/inbet/play?game=inbet-sahara&token=s1');
    // Still loading until the loader says the game is ready.
    expect(screen.getByRole('status').textContent).toContain('Loading');
    await act(async () => mount.mock.calls[0]![1].onReady?.());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the provider is unavailable when its loader script fails, and a retry loads it again', async () => {
    const fetchMock = open('/slots/inbet/inbet-sahara', { 'POST /api/casino/session': ok({ url: '/demo-providers/inbet/play?game=inbet-sahara&token=s1', sessionToken: 's1' }) });
    await waitFor(() => expect(script()).not.toBeNull());
    await act(async () => script()!.dispatchEvent(new Event('error')));
    const box = await screen.findByTestId('game-unavailable');
    expect(box.textContent).toContain('This provider is temporarily unavailable.');
    expect(script()).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/casino/session')).toHaveLength(2));
    await waitFor(() => expect(script()).not.toBeNull());
  });

  it('reads only a loader that can mount', () => {
    expect(loaderApi('InbetLoader', {})).toBeNull();
    expect(loaderApi('InbetLoader', { InbetLoader: { mount: 1 } })).toBeNull();
    expect(loaderApi('InbetLoader', { InbetLoader: { mount: () => ({ destroy() {} }) } })).not.toBeNull();
  });
});
