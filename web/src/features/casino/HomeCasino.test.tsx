import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp } from '../../test/render';
import enCasino from '../../locales/en/casino.json';
import { game } from './fixtures';
import HomeCasino from './components/HomeCasino';

beforeAll(() => {
  i18n.addResourceBundle('en', 'casino', enCasino, true, true);
});
afterEach(() => vi.unstubAllGlobals());

const provider = (name: string, displayName: string) => ({ name, displayName, casinoType: 'slots', authRequired: false, gameCount: 2, logoUrl: null });

describe('home casino', () => {
  it('shows the top games and casino strips, the live teaser and the provider rows without banned providers', async () => {
    const fetchMock = mockApi({
      '/api/user/blocklist': ok(['netent']),
      '/api/casino/providers?casinoType=slots': ok([provider('studio', 'Carthage Studio'), provider('netent', 'NetEnt')]),
      '/api/casino/providers?casinoType=casinolive': ok([]),
      '/api/casino/game_list?provider=studio': ok([
        game({ gameId: 'desert-gold', name: 'Desert Gold', tab: ['slotMachines', 'top'] }),
        game({ gameId: 'crash', name: 'Crash', tab: ['slotMachines', 'crashGames'] }),
      ]),
      '/api/casino/game_list?provider=netent': ok([game({ gameId: 'starburst', name: 'Starburst', provider: 'netent' })]),
    });
    renderApp(<HomeCasino />, { state: { auth: { ...initialAuthState, checked: true } } });
    const top = await screen.findByRole('region', { name: 'Top games' });
    await waitFor(() => expect(within(top).getAllByTestId('game-tile').map((t) => t.getAttribute('aria-label'))).toEqual(['Desert Gold']));
    expect(within(top).getByTestId('view-all').getAttribute('href')).toBe('/slots/lobby');
    const casino = screen.getByRole('region', { name: 'Casino' });
    await waitFor(() => expect(within(casino).getAllByTestId('game-tile').map((t) => t.getAttribute('aria-label'))).toEqual(['Desert Gold']));
    expect(within(casino).getByTestId('view-all').getAttribute('href')).toBe('/slots/main');
    expect((await screen.findByTestId('home-live')).getAttribute('href')).toBe('/casinolive/main');
    const list = screen.getByTestId('provider-list');
    await waitFor(() => expect(within(list).getAllByTestId('provider-row').map((r) => r.dataset.provider)).toEqual(['studio']));
    expect(within(list).getByTestId('view-all').getAttribute('href')).toBe('/slots/main?sP=studio');
    expect(screen.queryByText('Starburst')).toBeNull();
    // The strips are built from the providers' lists: no list is asked for a strip's name.
    const lists = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/casino/game_list'));
    expect(lists.every((u) => /provider=(studio|netent)$/.test(u))).toBe(true);
    // Strips and rows share the per-provider cache: each list is fetched once.
    expect(lists.filter((u) => u.endsWith('provider=studio'))).toHaveLength(1);
  });
});
