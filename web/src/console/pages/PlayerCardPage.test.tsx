import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/render';
import { bodiesOf, meReply, refusal, renderConsole } from '../testing';

afterEach(() => vi.unstubAllGlobals());

const player = { id: 42, email: 'ali@example.tn', phone: '21620555111', firstName: 'Ali', lastName: 'Ben Salah', currency: 'TND', isBanned: false, isPartner: false, createdAt: Date.UTC(2026, 0, 5) };
const card = (over: Record<string, unknown> = {}) => ({
  player,
  lang: 'fr',
  emailVerified: true,
  registeredVia: 'phone',
  balances: [
    { kind: 'real', currency: 'TND', amount: 1234.5 },
    { kind: 'bonus', currency: 'TND', amount: 0.001 },
  ],
  liveSessions: 1,
  selfExcludedUntil: null,
  coolOffUntil: null,
  audit: [{ seq: 9, actor: 'admin:1', action: 'player.ban', subject: 'user:42', details: { reason: 'fraud', before: { banned: false }, after: { banned: true } }, createdAt: Date.UTC(2026, 10, 1), hash: 'h', prevHash: 'p' }],
  notes: [{ id: 1, author: 'support:5', body: 'Called about KYC.\nWill send documents.', createdAt: Date.UTC(2026, 10, 2) }],
  providerBlocks: ['pragmatic'],
  bonuses: [{ id: 'b1', template: 'WELCOME', product: 'casino', status: 'active', currency: 'TND', amount: 50, required: 500, wagered: 120.25, remaining: 379.75, maxBet: 5, maxConversion: 0, converted: 0, minOdds: 0, grantedAt: Date.UTC(2026, 10, 1), expiresAt: null, closedAt: null }],
  devices: [{ ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (Linux; Android 14)', sessions: 3, firstSeen: Date.UTC(2026, 9, 1), lastSeen: Date.UTC(2026, 10, 1), otherAccounts: 2 }],
  payments: [{ id: 301, created_at: '2026-11-01T10:00:00Z', value: 100, currency: 'TND', type: 'payment', status: 'succeeded', is_closed: true, payment_mode: 16, purse: 'sandbox', comment: '' }],
  rounds: [{ roundId: 'r-77', transactionId: 77, provider: 'studio', providerName: 'Carthage Studio', gameId: 'dice', gameName: 'Dice', stake: 2.5, win: 0, refunded: 0, net: -2.5, status: 'lost', createdAt: '2026-11-01T10:00:00Z', currency: 'TND', verifiable: true }],
  sportBets: [{ id: 555, kind: 'express', funding: 'real', currency: 'TND', stake: 10, total_odds: 3.7, potential_payout: 37, status: 'open', payout: 0, created_at: '2026-11-02T10:00:00Z', settled_at: null, replayed: false, legs: [
    { event_id: 'e1', market: '1x2', outcome_id: '1', odds: 1.85, live: false, event_name: 'Espérance – Club Africain', market_name: 'Match result', outcome_name: 'Espérance', sport_id: 'football', tournament: 'Ligue 1', start_time: '2026-11-03T18:00:00Z', result: null },
    { event_id: 'e2', market: '1x2', outcome_id: '2', odds: 2, live: false, event_name: 'CSS – ESS', market_name: 'Match result', outcome_name: 'ESS', sport_id: 'football', tournament: 'Ligue 1', start_time: '2026-11-03T20:00:00Z', result: null },
  ] }],
  transactions: [{ id: 900, transaction_id: 77, created_at: '2026-11-01T10:00:00Z', value: -2.5, currency: 'TND', type: 'withdrawal', is_closed: true, payment_mode: 201, purse: 'real', comment: 'Bet', verifiable: false, balance_after: 97.5, game: { provider: 'studio', provider_name: 'Studio', game_id: 'dice', game_name: 'Dice' }, bet: null, payment: null, round_id: 'r1' }],
  ...over,
});

describe("the player's card", () => {
  it('shows every section of the card, money in the currency exponent', async () => {
    mockApi({ '/api/admin/me': meReply('support'), '/api/admin/players/42': ok(card()) });
    renderConsole('/players/42');
    expect((await screen.findByTestId('card-name')).textContent).toBe('Ali Ben Salah #42');
    expect(screen.getByTestId('balance-real').textContent).toBe('1,234.500 TND');
    expect(screen.getByTestId('balance-bonus').textContent).toBe('0.001 TND');
    expect(screen.getByTestId('notes').textContent).toContain('Will send documents.');
    expect(screen.getByText('2 other accounts')).toBeTruthy();
    expect(screen.getByText('WELCOME')).toBeTruthy();
    expect(screen.getByText('120.250 TND')).toBeTruthy();
    expect(screen.getByTestId('card-audit').textContent).toContain('player.ban');
    // The casino rounds and the sports bets.
    expect(screen.getByText('Dice')).toBeTruthy();
    expect(screen.getAllByText('-2.500 TND').length).toBe(2);
    expect(screen.getByText('Accumulator')).toBeTruthy();
    expect(screen.getByText('Espérance – Club Africain:', { exact: false })).toBeTruthy();
    expect(screen.getByText('37.000 TND')).toBeTruthy();
    // Support reads and writes notes, nothing else.
    expect(screen.getByTestId('note-form')).toBeTruthy();
    expect(screen.queryByTestId('ban-card')).toBeNull();
    expect(screen.queryByTestId('adjust-card')).toBeNull();
    expect(screen.queryByTestId('blocks-card')).toBeNull();
  });

  it('bans only with a reason, confirmed in a dialog', async () => {
    let banned = false;
    const fetchMock = mockApi({
      '/api/admin/me': meReply('admin'),
      '/api/admin/players/42': () => ok(card({ player: { ...player, isBanned: banned } })),
      'POST /api/admin/players/42/ban': () => {
        banned = true;
        return ok({ isBanned: true, changed: true });
      },
    });
    renderConsole('/players/42');
    fireEvent.click(await screen.findByTestId('ban-open'));
    const dialog = await screen.findByRole('dialog', { name: 'Ban \u2068Ali Ben Salah\u2069?' });
    expect((within(dialog).getByTestId('dialog-confirm') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('reason-input'), { target: { value: 'chargeback fraud' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('dialog-confirm')));
    expect((await screen.findByTestId('ban-done')).textContent).toBe('The player is banned; their sessions have ended.');
    await waitFor(() => expect(screen.getByTestId('card-status').textContent).toBe('Banned'));
    await screen.findByTestId('unban-open');
    expect(bodiesOf(fetchMock, '/api/admin/players/42/ban')).toEqual([{ reason: 'chargeback fraud' }]);
  });

  it('sends a manual adjustment above the four-eyes amount and says it waits for approval', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('admin'),
      '/api/admin/players/42': ok(card()),
      'POST /api/admin/wallet/adjust': ok({ status: 'pending', replayed: false, kind: 'real', currency: 'TND', balance: null, transactionId: null, request: { id: 31, userId: 42, currency: 'TND', kind: 'real', amount: 1500, reason: 'x', requestedBy: 12, status: 'pending', createdAt: 0 } }),
    });
    renderConsole('/players/42');
    await screen.findByTestId('adjust-card');
    expect(screen.getByText('Type an amount first.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('adjust-amount'), { target: { value: '1500.0001' } });
    expect(screen.getByText('A positive amount with at most the decimals of TND.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('adjust-amount'), { target: { value: '1 500' } });
    fireEvent.change(screen.getByTestId('adjust-reason'), { target: { value: 'jackpot paid by hand' } });
    fireEvent.click(screen.getByTestId('adjust-submit'));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the adjustment' });
    expect(dialog.textContent).toContain('1,500.000 TND');
    await act(async () => fireEvent.click(within(dialog).getByTestId('adjust-confirm')));
    expect((await screen.findByTestId('adjust-pending')).textContent).toContain('request #31 waits for another staff member');
    const [body] = bodiesOf(fetchMock, '/api/admin/wallet/adjust') as { idempotencyKey: string }[];
    expect(body).toMatchObject({ userId: 42, kind: 'real', amount: '1500.000', reason: 'jackpot paid by hand' });
    expect(body!.idempotencyKey).toBeTruthy();
  });

  it('debits and says it posted, with the balance after; a network failure keeps the key for the retry', async () => {
    let calls = 0;
    const fetchMock = mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/players/42': ok(card()),
      'POST /api/admin/wallet/adjust': () => {
        calls += 1;
        if (calls === 1) return Promise.reject(new TypeError('Failed to fetch'));
        return ok({ status: 'done', replayed: false, kind: 'real', currency: 'TND', balance: 1222, transactionId: 5, request: null });
      },
    });
    renderConsole('/players/42');
    await screen.findByTestId('adjust-card');
    fireEvent.click(screen.getByTestId('adjust-debit'));
    fireEvent.change(screen.getByTestId('adjust-amount'), { target: { value: '12,5' } });
    fireEvent.change(screen.getByTestId('adjust-reason'), { target: { value: 'duplicate bonus' } });
    fireEvent.click(screen.getByTestId('adjust-submit'));
    await act(async () => fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('adjust-confirm')));
    expect((await screen.findByTestId('adjust-error')).textContent).toContain('the same adjustment is never posted twice');
    fireEvent.click(screen.getByTestId('adjust-submit'));
    await act(async () => fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('adjust-confirm')));
    expect((await screen.findByTestId('adjust-done')).textContent).toBe('Posted to the Real balance. Balance now: 1,222.000 TND');
    const calls2 = fetchMock.mock.calls.filter(([u]) => String(u) === '/api/admin/wallet/adjust');
    const bodies = calls2.map(([, init]) => JSON.parse(String(init!.body)) as { amount: string; idempotencyKey: string });
    expect(bodies.map((b) => b.amount)).toEqual(['-12.500', '-12.500']);
    expect(bodies[1]!.idempotencyKey).toBe(bodies[0]!.idempotencyKey);
    expect(new Headers(calls2[0]![1]!.headers).get('idempotency-key')).toBe(bodies[0]!.idempotencyKey);
  });

  it('adds a note and blocks a provider with a reason', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('admin'),
      '/api/admin/players/42': ok(card()),
      'POST /api/admin/players/42/notes': ok({ id: 2, author: 'admin:12', body: 'x', createdAt: 0 }),
      'POST /api/admin/players/42/provider-blocks': ok({ changed: true, providerBlocks: ['pragmatic', 'evolution'] }),
    });
    renderConsole('/players/42');
    await screen.findByTestId('note-form');
    fireEvent.change(screen.getByTestId('note-input'), { target: { value: '  Asked to close the account.  ' } });
    await act(async () => fireEvent.click(screen.getByTestId('note-submit')));
    await screen.findByTestId('note-saved');
    expect(bodiesOf(fetchMock, '/api/admin/players/42/notes')).toEqual([{ body: 'Asked to close the account.' }]);
    fireEvent.change(screen.getByTestId('block-provider'), { target: { value: 'Evolution' } });
    expect((screen.getByTestId('block-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('block-reason'), { target: { value: 'asked by the player' } });
    await act(async () => fireEvent.click(screen.getByTestId('block-submit')));
    expect((await screen.findByTestId('blocks-note')).textContent).toBe('evolution is blocked for this player.');
    expect(bodiesOf(fetchMock, '/api/admin/players/42/provider-blocks')).toEqual([{ provider: 'evolution', blocked: true, reason: 'asked by the player' }]);
  });

  it('says so when the id is no player', async () => {
    mockApi({ '/api/admin/me': meReply('admin'), '/api/admin/players/999': refusal(3) });
    renderConsole('/players/999');
    expect((await screen.findByTestId('card-not-found')).textContent).toContain('No player has this id.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('No such player');
  });

  it('offers to try again when the card could not load', async () => {
    mockApi({ '/api/admin/me': meReply('admin'), '/api/admin/players/5': refusal(1000) });
    renderConsole('/players/5');
    const failed = await screen.findByTestId('console-query-error');
    expect(within(failed).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
