import { render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import studio from '../locales/en/studio.json';
import { StudioApp } from './StudioApp';

beforeAll(() => {
  i18n.addResourceBundle('en', 'studio', studio, true, true);
});

const envelope = (status: number, result: unknown = null) =>
  new Response(JSON.stringify({ status, result, error_message: status ? 'refused' : null }), { headers: { 'Content-Type': 'application/json' } });

describe('StudioApp', () => {
  it('an expired game session (63) shows the reopen state', async () => {
    const fetchMock = vi.fn(async () => envelope(63));
    vi.stubGlobal('fetch', fetchMock);
    render(<StudioApp token="gone" lang="en" />);
    await screen.findByText('Your game session has ended');
    expect(screen.getByRole('button', { name: 'Reopen the game' })).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/studio/session');
    expect(new Headers(init.headers).get('X-Game-Session')).toBe('gone');
  });

  it('no token at all is the same state, without a request', async () => {
    const fetchMock = vi.fn(async () => envelope(0));
    vi.stubGlobal('fetch', fetchMock);
    render(<StudioApp token="" lang="en" />);
    await screen.findByText('Your game session has ended');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a live session shows the balance in currency units (minor units, exponent 3)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/studio/session'
          ? envelope(0, { gameId: 'dice', name: 'Dice', kind: 'dice', provider: 'studio', currency: 'TND', exponent: 3, balance: 1234567, minBet: 100, maxBet: 100000, betLevels: [100, 500, 1000], lang: 'en', playerId: 1 })
          : envelope(0, []),
      ),
    );
    render(<StudioApp token="t" lang="en" />);
    await waitFor(() => expect(screen.getByTestId('studio-balance').textContent).toContain('1,234.567 TND'));
    expect(screen.getByTestId('dice-roll')).toBeTruthy();
    expect(screen.getByTestId('studio-sound').getAttribute('aria-pressed')).toBe('false');
  });
});
