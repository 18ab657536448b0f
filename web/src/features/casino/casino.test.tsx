import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import enCasino from '../../locales/en/casino.json';
import frCasino from '../../locales/fr/casino.json';
import arCasino from '../../locales/ar/casino.json';
import { GamePopup } from './components/GamePopup';
import { ProviderList } from './components/ProviderList';
import { ProviderRow } from './components/ProviderRow';
import { VirtualGrid } from './components/VirtualGrid';
import { gridLayout } from './grid';
import { game } from './fixtures';
import GamePage, { isBalanceMessage, isFrameMessage, REOPEN_MESSAGE } from './routes/GamePage';
import type { Game } from './types';

beforeAll(() => {
  i18n.addResourceBundle('en', 'casino', enCasino, true, true);
});
afterEach(() => {
  (window as { scrollY: number }).scrollY = 0;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.scrollTo = () => {};
});

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: testBalance } };
const guest = { auth: { ...initialAuthState, checked: true } };

function Where() {
  const l = useLocation();
  return <output data-testid="where">{`${l.pathname}${l.search}|${JSON.stringify(l.state)}`}</output>;
}

/** jsdom has no layout: the grid's box is given by its position on a page scrolled by `window.scrollY`. */
function fakeLayout(gridTop: number, width = 358) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const top = this.dataset.testid === 'game-grid' ? gridTop - window.scrollY : 0;
    return { top, left: 0, right: width, bottom: top + 100, width, height: 100, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
  });
}

describe('virtualised grid', () => {
  const many: Game[] = Array.from({ length: 5000 }, (_, i) => game({ gameId: `g${i}`, name: `Game ${i}`, id: i + 1 }));

  it('keeps a bounded number of the 5,000 tiles in the DOM and recycles them on scroll', async () => {
    fakeLayout(120);
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 844 });
    Object.defineProperty(window, 'scrollY', { configurable: true, writable: true, value: 0 });
    renderApp(<VirtualGrid games={many} isAuth onOpen={() => {}} />);
    const grid = screen.getByTestId('game-grid');
    const tiles = () => within(grid).getAllByTestId('game-tile');
    expect(tiles().length).toBeGreaterThan(9);
    expect(tiles().length).toBeLessThanOrEqual(40);
    expect(tiles()[0]!.getAttribute('aria-label')).toBe('Game 0');
    // The container is as tall as all 1,667 rows.
    expect(parseFloat(grid.style.blockSize)).toBeGreaterThan(1667 * 100);

    await act(async () => {
      (window as { scrollY: number }).scrollY = 100_000;
      window.dispatchEvent(new Event('scroll'));
      await new Promise((r) => setTimeout(r, 40));
    });
    const after = tiles();
    expect(after.length).toBeLessThanOrEqual(40);
    const first = Number(after[0]!.getAttribute('aria-label')!.replace('Game ', ''));
    expect(first).toBeGreaterThan(1500);
    expect(screen.queryByLabelText('Game 0')).toBeNull();
    // Tiles sit at their row's offset.
    const { rowHeight } = gridLayout(358);
    expect(after[0]!.style.insetBlockStart).toBe(`${Math.floor(first / 3) * rowHeight}px`);

    await act(async () => {
      // The end of the page.
      (window as { scrollY: number }).scrollY = 120 + parseFloat(grid.style.blockSize) - 844;
      window.dispatchEvent(new Event('scroll'));
      await new Promise((r) => setTimeout(r, 40));
    });
    expect(screen.getByLabelText('Game 4999')).toBeTruthy();
    expect(tiles().length).toBeLessThanOrEqual(40);
  });

  it('opens the pop-up instead of following the link; guests get # links', () => {
    fakeLayout(0);
    const onOpen = vi.fn();
    renderApp(<VirtualGrid games={many.slice(0, 4)} isAuth={false} onOpen={onOpen} />);
    const tile = screen.getByLabelText('Game 2');
    expect(tile.getAttribute('href')).toBe('#');
    fireEvent.click(tile);
    expect(onOpen).toHaveBeenCalledWith(many[2]);
  });
});

describe('provider row', () => {
  const games = [
    ...Array.from({ length: 9 }, (_, i) => game({ gameId: `s${i}`, name: `Slot ${i}`, isNew: i === 0 })),
    game({ gameId: 'fav', name: 'Fav', tab: ['slotMachines', 'favorite'] }),
  ];

  it('shows up to 6 tiles, the count, the new badge and "view all" with sP, query and previous path', () => {
    renderApp(
      <>
        <ProviderRow provider={{ name: 'pragmaticf', gameCount: 120, casinoType: 'slots' }} games={games} isAuth />
        <Where />
      </>,
      { path: '/home?ref=abc' },
    );
    const row = screen.getByTestId('provider-row');
    expect(within(row).getAllByTestId('game-tile')).toHaveLength(6);
    expect(within(row).queryByLabelText('Fav')).toBeNull();
    expect(within(row).getByText('Pragmatic')).toBeTruthy();
    expect(within(row).getByText('120')).toBeTruthy();
    expect(within(row).getAllByText('New')).toHaveLength(1);
    const viewAll = within(row).getByTestId('view-all');
    expect(viewAll.getAttribute('href')).toBe('/slots/main?ref=abc&sP=pragmaticf');
    fireEvent.click(viewAll);
    expect(screen.getByTestId('where').textContent).toBe('/slots/main?ref=abc&sP=pragmaticf|{"prevPath":"/home?ref=abc"}');
  });

  it('keeps only favourites on the favorite row, and renders nothing for an empty list', () => {
    const { container } = renderApp(
      <>
        <ProviderRow provider={{ name: 'favorite' }} games={games} isAuth href="/slots/favorites" title="Favourites" />
        <ProviderRow provider={{ name: 'empty' }} games={[]} isAuth />
      </>,
    );
    expect(screen.getAllByTestId('provider-row')).toHaveLength(1);
    expect(within(container).getAllByTestId('game-tile').map((a) => a.getAttribute('aria-label'))).toEqual(['Fav']);
    expect(screen.getByTestId('view-all').getAttribute('href')).toBe('/slots/favorites');
  });
});

describe('provider list', () => {
  it('loads 6 providers, then 6 more every 500 ms while the end marker is visible; banned ones are left out', async () => {
    let visible: ((v: boolean) => void) | undefined;
    class IO {
      constructor(private cb: IntersectionObserverCallback) {}
      observe(el: Element) {
        // The end marker's observer (tiles' lazy images have their own).
        if (el.getAttribute('data-testid') === 'provider-list-end') {
          visible = (v) => this.cb([{ isIntersecting: v } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
        }
      }
      disconnect() {}
      unobserve() {}
    }
    vi.stubGlobal('IntersectionObserver', IO);
    const providers = Array.from({ length: 20 }, (_, i) => ({
      name: `p${i}`,
      displayName: `Provider ${i}`,
      casinoType: 'slots',
      authRequired: false,
      gameCount: 1,
      unavailable: false,
    }));
    mockApi({
      '/api/user/blocklist': ok(['p1']),
      '/api/casino/game_list': ok([game({ gameId: 'one', name: 'One' })]),
    });
    vi.useFakeTimers();
    renderApp(<ProviderList casinoType="slots" isAuth providers={providers} />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    const rows = () => screen.getAllByTestId('provider-row').map((r) => r.dataset.provider);
    expect(rows()).toEqual(['p0', 'p2', 'p3', 'p4', 'p5', 'p6']);
    // Not visible: nothing more.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1500);
    });
    expect(rows()).toHaveLength(6);
    expect(visible).toBeDefined();
    act(() => visible?.(true));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(450);
    });
    expect(rows()).toHaveLength(6);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(rows()).toHaveLength(12);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(rows()).toHaveLength(18);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(rows()).toHaveLength(19);
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('game pop-up', () => {
  const desert = game({ gameId: 'desert-gold', name: 'Desert Gold', id: 42, rtp: 96.12, volatility: 'medium', tab: ['slotMachines', 'top'] });
  const others = ['neon-fruits', 'atlantis-pearls', 'crash', 'roulette', 'dice', 'extra'].map((id, i) => game({ gameId: id, name: id, id: i + 1 }));

  it('shows the declared RTP, volatility, provider and 5 similar games; guests pressing play are blocked', async () => {
    mockApi({ '/api/casino/game_list': ok([desert, ...others]) });
    const onClose = vi.fn();
    const { store } = renderApp(<GamePopup game={desert} pool={[desert, ...others]} onClose={onClose} onOpen={() => {}} />, { state: guest });
    const dialog = screen.getByRole('dialog', { name: 'Desert Gold' });
    expect(within(dialog).getByTestId('game-rtp').textContent).toBe('96.12%');
    expect(within(dialog).getByText('Medium')).toBeTruthy();
    expect(within(dialog).getByText('Carthage Studio')).toBeTruthy();
    const similar = within(dialog).getByRole('region', { name: 'Similar games' });
    expect(within(similar).getAllByRole('button')).toHaveLength(5);
    expect(within(similar).queryByRole('button', { name: 'Desert Gold' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Play' }));
    expect(onClose).toHaveBeenCalled();
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'pleaseAuth', type: 'error' });
  });

  it('falls back to the name/hour RTP and volatility "high" when none is declared; no favourite for virtual games', () => {
    mockApi({});
    const v = game({ gameId: 'horses', name: 'Horse Races', provider: 'goldenrace', casinoType: 'virtual-games' });
    renderApp(<GamePopup game={v} pool={[]} onClose={() => {}} onOpen={() => {}} />, { state: guest });
    expect(screen.getByTestId('game-rtp').textContent).toMatch(/^9[678]%$/);
    expect(screen.getByText('High')).toBeTruthy();
    expect(screen.queryByTestId('favorite-toggle')).toBeNull();
  });

  it('adds and removes a favourite with the notices', async () => {
    let favorites: Game[] = [];
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      let result: unknown = [];
      if (url.startsWith('/api/favorite_slots/get_list')) result = favorites;
      if (url.startsWith('/api/favorite_slots/add')) {
        favorites = [{ ...desert, tab: [...desert.tab, 'favorite'] }];
        result = favorites[0];
      }
      if (url.startsWith('/api/favorite_slots/remove')) {
        favorites = [];
        result = true;
      }
      void init;
      return new Response(JSON.stringify(ok(result)), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    const { store } = renderApp(<GamePopup game={desert} pool={[]} onClose={() => {}} onOpen={() => {}} />, { state: signedIn });
    const toggle = await screen.findByRole('button', { name: 'Add to favourites' });
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    await act(async () => fireEvent.click(toggle));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)?.text).toBe('slotSuccessfullyAdded'));
    const add = fetchMock.mock.calls.find(([u]) => String(u) === '/api/favorite_slots/add')!;
    expect(JSON.parse(String(add[1]!.body))).toEqual({ slot: 42 });
    const remove = await screen.findByRole('button', { name: 'Remove from favourites' });
    await waitFor(() => expect((remove as HTMLButtonElement).disabled).toBe(false));
    await act(async () => fireEvent.click(remove));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)?.text).toBe('slotSuccessfullyRemoved'));
    const rm = fetchMock.mock.calls.find(([u]) => String(u) === '/api/favorite_slots/remove')!;
    expect(JSON.parse(String(rm[1]!.body))).toEqual({ id: 42 });
  });
});

describe('game page', () => {
  const renderGame = (state: object, routes: Record<string, unknown>) => {
    const fetchMock = mockApi(routes);
    const utils = renderApp(
      <Routes>
        <Route path="/slots/:provider/:gameId" element={<GamePage />} />
      </Routes>,
      { path: '/slots/studio/desert-gold', state },
    );
    return { fetchMock, ...utils };
  };

  it('starts a session and frames its url; a balance message from the frame refreshes the balance', async () => {
    const { fetchMock } = renderGame(signedIn, {
      'POST /api/casino/session': ok({ url: '/studio/desert-gold?token=t1&lang=en', sessionToken: 't1' }),
      '/api/casino/game_list': ok([game({ gameId: 'desert-gold', name: 'Desert Gold' })]),
      '/api/user/balance': ok(testBalance),
    });
    const frame = (await screen.findByTestId('game-frame')) as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe('/studio/desert-gold?token=t1&lang=en');
    expect(frame.getAttribute('allow')).toBe('autoplay; fullscreen');
    await waitFor(() => expect(frame.title).toBe('Game: Desert Gold'));
    const session = fetchMock.mock.calls.find(([u]) => String(u) === '/api/casino/session')!;
    expect(JSON.parse(String(session[1]!.body))).toEqual({ provider: 'studio', gameId: 'desert-gold', lang: 'en', platform: 'mobile' });

    const balanceCalls = () => fetchMock.mock.calls.filter(([u]) => String(u) === '/api/user/balance').length;
    const before = balanceCalls();
    // Another origin is ignored.
    await act(async () => {
      window.dispatchEvent(new MessageEvent('message', { origin: 'https://evil.example', data: { type: 'carthage:balance', balance: 1 } }));
    });
    expect(balanceCalls()).toBe(before);
    expect(isBalanceMessage({ origin: window.location.origin, data: { type: 'carthage:balance' }, source: null }, window.location.origin, null)).toBe(true);
    expect(isBalanceMessage({ origin: window.location.origin, data: { type: 'other' }, source: null }, window.location.origin, null)).toBe(false);
    expect(isFrameMessage({ origin: window.location.origin, data: { type: REOPEN_MESSAGE }, source: null }, REOPEN_MESSAGE, window.location.origin, null)).toBe(true);
    expect(isFrameMessage({ origin: 'https://evil.example', data: { type: REOPEN_MESSAGE }, source: null }, REOPEN_MESSAGE, window.location.origin, null)).toBe(false);
    expect(isBalanceMessage({ origin: window.location.origin, data: 'carthage:balance', source: null }, window.location.origin, null)).toBe(false);
  });

  it('shows the translated error of a refused session; a passing failure can be retried', async () => {
    const { fetchMock } = renderGame(signedIn, { 'POST /api/casino/session': { status: 63, result: null, error_message: 'expired' } });
    const error = await screen.findByTestId('game-error');
    expect(error.textContent).toContain('The game session has expired. Please reopen the game.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/casino/session')).toHaveLength(2));
  });

  it('offers no retry for an unknown game (62), only the way back', async () => {
    renderGame(signedIn, { 'POST /api/casino/session': { status: 62, result: null, error_message: 'unknown game' } });
    const error = await screen.findByTestId('game-error');
    expect(error.textContent).toContain('This game is not available.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the lobby' }).getAttribute('href')).toBe('/slots/lobby');
  });

  it('blocks guests with the "please auth" notice and never asks for a session', async () => {
    const { fetchMock, store } = renderGame(guest, {});
    expect(await screen.findByTestId('game-guest')).toBeTruthy();
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'pleaseAuth', type: 'error' });
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/casino/session')).toBe(false);
  });
});

describe('casino locales', () => {
  const keys = (obj: object, prefix = ''): string[] =>
    Object.entries(obj).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`]));
  // Plural forms differ by language (Arabic has six): compare the base keys.
  const base = (obj: object) => [...new Set(keys(obj).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();
  it('have the same keys in English, French and Arabic, with every plural form', () => {
    expect(base(frCasino)).toEqual(base(enCasino));
    expect(base(arCasino)).toEqual(base(enCasino));
    for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) expect(arCasino).toHaveProperty(`gameCount_${form}`);
    for (const form of ['one', 'many', 'other']) expect(frCasino).toHaveProperty(`gameCount_${form}`);
  });
});
