import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import en from '../../locales/en/account.json';
import fr from '../../locales/fr/account.json';
import ar from '../../locales/ar/account.json';
import SlotsHistoryPage from './routes/SlotsHistoryPage';
import { providerOptions, providersFilter, statusesFilter } from './slotsFilters';

afterEach(() => vi.unstubAllGlobals());

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: testBalance } };

const round = (over: Record<string, unknown> = {}) => ({
  roundId: '101',
  transactionId: 9001,
  provider: 'studio',
  providerName: 'Carthage Studio',
  gameId: 'desert-gold',
  gameName: 'Desert Gold',
  stake: 1,
  win: 2.5,
  refunded: 0,
  net: 1.5,
  status: 'won',
  createdAt: '2030-01-02T10:00:00.000Z',
  currency: 'TND',
  verifiable: true,
  ...over,
});
const providers = [
  { name: 'studio', displayName: 'Carthage Studio', casinoType: 'slots', authRequired: false, gameCount: 9, logoUrl: null },
  { name: 'pragmatic', displayName: 'Pragmatic Play', casinoType: 'slots', authRequired: false, gameCount: 9, logoUrl: null },
  { name: 'pragmaticf', displayName: 'Pragmatic F', casinoType: 'slots', authRequired: false, gameCount: 9, logoUrl: null },
];

const bodies = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([u, i]) => String(u).endsWith('/api/user/getSlotsBetHistory') && i?.method === 'POST').map(([, i]) => JSON.parse(String(i!.body)));

describe('slots history filters (spec §5)', () => {
  it("drops 'all' and adds PRAGMATIC-NEW to PRAGMATIC", () => {
    expect(providersFilter('all')).toEqual([]);
    expect(providersFilter('ALL')).toEqual([]);
    expect(providersFilter('studio')).toEqual(['STUDIO']);
    expect(providersFilter('pragmatic')).toEqual(['PRAGMATIC', 'PRAGMATIC-NEW']);
    expect(providersFilter('all,Pragmatic,PRAGMATIC-NEW')).toEqual(['PRAGMATIC', 'PRAGMATIC-NEW']);
  });
  it('sends a status or none', () => {
    expect(statusesFilter('all')).toEqual([]);
    expect(statusesFilter('refunded')).toEqual(['refunded']);
    expect(statusesFilter('pending')).toEqual([]);
  });
  it('offers Pragmatic once: pragmaticf is reached through PRAGMATIC-NEW', () => {
    expect(providerOptions(providers, 'en')).toEqual([
      { value: 'studio', label: 'Carthage Studio' },
      { value: 'pragmatic', label: 'Pragmatic Play' },
    ]);
  });
  it('has the same texts in English, French and Arabic', () => {
    const keys = (o: object) => Object.keys(o).sort();
    expect(keys(fr.slots)).toEqual(keys(en.slots));
    expect(keys(ar.slots)).toEqual(keys(en.slots));
    expect(fr.profile.slotsHistory && ar.profile.slotsHistory).toBeTruthy();
  });
});

describe('the slots history page', () => {
  it('lists rounds with their amounts and status, filters by provider and status, pages from 0', async () => {
    const fetchMock = mockApi({
      'POST /api/user/getSlotsBetHistory': ok({
        items: [round(), round({ roundId: 'r-9', provider: 'pragmatic', providerName: 'Pragmatic Play', gameId: 'vs20', gameName: 'Gates', stake: 2, win: 0, net: -2, status: 'lost', verifiable: false }), round({ roundId: 'r-8', status: 'refunded', win: 0, refunded: 1, net: 0, verifiable: false })],
        total: 23,
        pages: 3,
      }),
      '/api/casino/providers': ok(providers),
    });
    renderApp(<SlotsHistoryPage />, { state: signedIn });
    const rows = await screen.findAllByTestId('slots-round');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Desert Gold')).toBeTruthy();
    expect(within(rows[0]!).getByTestId('slots-status').textContent).toBe(en.slots.status_won);
    expect(within(rows[0]!).getByTestId('op-amount').textContent).toContain('1.500');
    expect(within(rows[0]!).getByTestId('slots-amounts').textContent).toContain('1.000');
    expect(within(rows[0]!).getByRole('link', { name: en.history.fairness }).getAttribute('href')).toBe('/profile/history/round?game=desert-gold&round=101');
    expect(rows[1]!.dataset.tone).toBe('out');
    expect(within(rows[1]!).queryByRole('link')).toBeNull();
    expect(rows[2]!.dataset.tone).toBe('void');
    expect(within(rows[2]!).getByTestId('slots-amounts').textContent).toContain(en.slots.refunded);
    expect(screen.getByTestId('slots-total').textContent).toBe('23 rounds');
    expect(bodies(fetchMock)[0]).toMatchObject({ page: 0, count: 10, statuses: [], providers: [] });
    expect(bodies(fetchMock)[0].from).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // Page 2 of 3 is page 1 on the wire.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Next page' })));
    await waitFor(() => expect(bodies(fetchMock).at(-1)).toMatchObject({ page: 1 }));
    // A provider: back to the first page, PRAGMATIC with PRAGMATIC-NEW; a status.
    await screen.findByRole('option', { name: 'Pragmatic Play' });
    await act(async () => fireEvent.change(screen.getByLabelText(en.slots.provider), { target: { value: 'pragmatic' } }));
    await waitFor(() => expect(bodies(fetchMock).at(-1)).toMatchObject({ page: 0, providers: ['PRAGMATIC', 'PRAGMATIC-NEW'] }));
    await act(async () => fireEvent.change(screen.getByLabelText(en.slots.status), { target: { value: 'lost' } }));
    await waitFor(() => expect(bodies(fetchMock).at(-1)).toMatchObject({ statuses: ['lost'], providers: ['PRAGMATIC', 'PRAGMATIC-NEW'] }));
  });

  it('says when there is nothing, and when the filters leave nothing', async () => {
    mockApi({ 'POST /api/user/getSlotsBetHistory': ok({ items: [], total: 0, pages: 0 }), '/api/casino/providers': ok(providers) });
    renderApp(<SlotsHistoryPage />, { state: signedIn });
    expect((await screen.findByTestId('slots-empty')).textContent).toBe(en.slots.none);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    await act(async () => fireEvent.change(screen.getByLabelText(en.slots.status), { target: { value: 'open' } }));
    await waitFor(() => expect(screen.getByTestId('slots-empty').textContent).toBe(en.slots.noneFiltered));
  });

  it('shows a failure by its code and tries again', async () => {
    let calls = 0;
    mockApi({
      'POST /api/user/getSlotsBetHistory': () => (++calls === 1 ? { status: 46, result: null, error_message: 'The date range is invalid.' } : ok({ items: [round()], total: 1, pages: 1 })),
      '/api/casino/providers': ok(providers),
    });
    renderApp(<SlotsHistoryPage />, { state: signedIn });
    const failed = await screen.findByTestId('slots-error');
    expect(failed.getAttribute('role')).toBe('alert');
    expect(failed.textContent).not.toBe('');
    await act(async () => fireEvent.click(screen.getByTestId('slots-retry')));
    expect(await screen.findAllByTestId('slots-round')).toHaveLength(1);
  });
});
