import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/render';
import { meReply, renderConsole } from '../testing';

afterEach(() => vi.unstubAllGlobals());

const row = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  email: null,
  phone: '21620555111',
  firstName: 'Ali',
  lastName: 'Ben Salah',
  currency: 'TND',
  isBanned: false,
  isPartner: false,
  createdAt: Date.UTC(2026, 0, 5),
  ...over,
});

describe('player search', () => {
  it('keeps the search in the URL and opens a card from the results', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('support'),
      '/api/admin/players/7': ok({ player: row(7), lang: 'en', emailVerified: false, registeredVia: 'phone', balances: [], liveSessions: 0, audit: [], notes: [], providerBlocks: [], bonuses: [], devices: [], payments: [], transactions: [] }),
      '/api/admin/players': ok([row(7), row(8, { isBanned: true, firstName: '', lastName: '', email: 'x@y.tn', phone: null })]),
    });
    const { router } = renderConsole('/players');
    const box = await screen.findByTestId('players-search');
    // One character: the search waits, and says why.
    fireEvent.change(box, { target: { value: 'a' } });
    expect((screen.getByTestId('players-search-submit') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Type at least 2 characters.')).toBeTruthy();
    fireEvent.change(box, { target: { value: ' +216 20 555 111 ' } });
    await act(async () => fireEvent.click(screen.getByTestId('players-search-submit')));
    await screen.findByTestId('player-row-8');
    expect(router.state.location.search).toBe('?q=%2B216+20+555+111');
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/admin/players?q=%2B216+20+555+111')).toBe(true);
    expect(screen.getByTestId('player-row-8').textContent).toContain('Banned');
    await act(async () => fireEvent.click(screen.getAllByTestId('player-link')[0]!));
    await screen.findByTestId('card-name');
    expect(router.state.location.pathname).toBe('/console/players/7');
    // The way back returns to the same search.
    expect(screen.getByTestId('card-back').getAttribute('href')).toBe('/console/players?q=%2B216%2020%20555%20111');
  });

  it('says when nothing matches', async () => {
    mockApi({ '/api/admin/me': meReply('admin'), '/api/admin/players': ok([]) });
    renderConsole('/players?q=zz');
    expect((await screen.findByTestId('players-none')).textContent).toContain('No player matches “zz”');
  });
});
