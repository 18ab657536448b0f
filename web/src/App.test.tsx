import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';

import App from './App';

function envelopeResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch mock whose reply the test releases when it wants, to observe the loading state. */
function deferredFetch() {
  let release!: (response: Response) => void;
  const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (release = resolve)));
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, release: (response: Response) => release(response) };
}

describe('App', () => {
  it('shows the brand, a loading state, then the currencies and languages', async () => {
    const { fetchMock, release } = deferredFetch();

    render(<App />);

    expect(screen.getByText('Carthage')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/loading/i);
    expect(fetchMock).toHaveBeenCalledWith('/api/site/settings', expect.anything());

    release(
      envelopeResponse({
        status: 0,
        result: { lang: 'en', languages: ['en', 'fr'], currencies: ['EUR', 'USD', 'BTC'] },
        error_message: null,
      }),
    );

    const currencies = await screen.findByRole('list', { name: 'Available currencies' });
    expect(within(currencies).getAllByRole('listitem').map((li) => li.getAttribute('data-currency'))).toEqual([
      'EUR',
      'USD',
      'BTC',
    ]);
    expect(within(currencies).getByText('Euro')).toBeTruthy();

    const languages = screen.getByRole('list', { name: 'Available languages' });
    expect(within(languages).getAllByRole('listitem').map((li) => li.getAttribute('data-lang'))).toEqual([
      'en',
      'fr',
    ]);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an error when the API answers a non-zero status', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelopeResponse({ status: 5, result: null, error_message: 'Site is under maintenance' }, 503)),
    );

    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load site settings.');
    expect(alert.textContent).toContain('Site is under maintenance');
    expect(screen.queryByRole('list', { name: 'Available currencies' })).toBeNull();
  });

  it('shows an error on network failure and recovers on retry', async () => {
    const fetchMock = vi
      .fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(
        envelopeResponse({ status: 0, result: { lang: 'en', currencies: ['EUR'] }, error_message: null }),
      );
    vi.stubGlobal('fetch', fetchMock);

    render(<App />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Network error');

    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));

    const currencies = await screen.findByRole('list', { name: 'Available currencies' });
    expect(within(currencies).getByText('EUR')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
