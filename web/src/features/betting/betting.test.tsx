import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testUser } from '../../test/render';
import en from '../../locales/en/betting.json';
import fr from '../../locales/fr/betting.json';
import ar from '../../locales/ar/betting.json';
import { formatOdds, oddsFromWire, parseStake, potentialPayout, stakeForRequest, stakeLimits, stakePresets, totalOdds } from './odds';
import { changesOf, initialSlip, slipPrices, slipSlice, slipActions, type Selection, type SlipState } from './slipSlice';
import { clockLabel } from './clock';
import { applyMessage, applyToEvent, cachedRowKey, liveTopics, MAX_LIST_TOPICS, topicChanges } from './live';
import type { SbEvent } from './api';
import { api } from '../../api/api';

/** The header's balance subscription (app/startup.ts polls it). */
function BalanceProbe() {
  api.useBalanceQuery();
  return null;
}
import BettingPage from './routes/BettingPage';
import MyBetsPage from './routes/MyBetsPage';
import { BetSlip } from './components/BetSlip';

beforeAll(() => {
  i18n.addResourceBundle('en', 'betting', en);
});
afterEach(() => vi.unstubAllGlobals());

const sel = (eventId: string, outcomeId = '1', odds = 1850): Selection => ({
  eventId,
  eventName: `${eventId} home – away`,
  market: '1',
  marketName: '1X2',
  outcomeId,
  outcomeName: `Outcome ${outcomeId}`,
  odds,
  live: true,
});
const reduce = (actions: Parameters<typeof slipSlice.reducer>[1][], from: SlipState = initialSlip()) =>
  actions.reduce((s, a) => slipSlice.reducer(s, a), from);

describe('odds and money in integers', () => {
  it('formats thousandths with two or three decimals', () => {
    expect(formatOdds(1850)).toBe('1.85');
    expect(formatOdds(2000)).toBe('2.00');
    expect(formatOdds(1875)).toBe('1.875');
    expect(formatOdds(12050)).toBe('12.05');
  });
  it('reads odds from the wire: decimals or thousandths', () => {
    expect(oddsFromWire(1.8)).toBe(1800);
    expect(oddsFromWire(1800)).toBe(1800);
    expect(oddsFromWire(1000)).toBe(1_000_000);
  });
  it('computes total odds and payout floored, like the server', () => {
    expect(totalOdds([1850, 2100])).toBe(3885);
    expect(totalOdds([1333, 1333, 1333])).toBe(2368); // 2.368593… floored
    expect(potentialPayout(5000, [1850])).toBe(9250);
    expect(potentialPayout(1000, [1333, 1333, 1333])).toBe(2368);
    expect(potentialPayout(0, [1850])).toBe(0);
  });
  it('parses stakes to minor units without floats', () => {
    expect(parseStake('5', 3)).toBe(5000);
    expect(parseStake('0,1', 3)).toBe(100);
    expect(parseStake('12.345', 3)).toBe(12345);
    expect(parseStake('12.3456', 3)).toBeNull();
    expect(parseStake('0', 3)).toBeNull();
    expect(parseStake('abc', 3)).toBeNull();
    expect(stakeForRequest(12345, 3)).toBe(12.345);
  });
});

describe('the slip', () => {
  it('is a single with one selection and an express from two on different events', () => {
    let s = reduce([slipActions.toggle(sel('a'))]);
    expect(s.kind).toBe('single');
    s = reduce([slipActions.toggle(sel('b'))], s);
    expect(s.kind).toBe('express');
    expect(s.selections.map((x) => x.eventId)).toEqual(['a', 'b']);
    s = reduce([slipActions.remove({ eventId: 'a' })], s);
    expect(s.kind).toBe('single');
  });
  it('replaces the selection of an event already on the slip; the same outcome again removes it', () => {
    let s = reduce([slipActions.toggle(sel('a', '1')), slipActions.toggle(sel('b')), slipActions.toggle(sel('a', '3', 4200))]);
    expect(s.selections).toHaveLength(2);
    expect(s.selections[0]).toMatchObject({ eventId: 'a', outcomeId: '3', odds: 4200 });
    s = reduce([slipActions.toggle(sel('a', '3', 4200))], s);
    expect(s.selections.map((x) => x.eventId)).toEqual(['b']);
    expect(s.kind).toBe('single');
  });
  it('keeps the idempotency key for a retry and drops it when the slip changes', () => {
    let s = reduce([slipActions.toggle(sel('a')), slipActions.setStake('5'), slipActions.setKey('k1')]);
    expect(s.key).toBe('k1');
    s = reduce([slipActions.setStake('10')], s);
    expect(s.key).toBeNull();
  });
  it('on 604 shows the new odds and applies them only when accepted', () => {
    const data = { refusal: 'odds_changed', changes: [{ leg: 1, event_id: 'b', market: '1', outcome_id: '1', requested: 1850, current: 1700 }] };
    const changes = changesOf(data);
    expect(changes).toEqual([{ leg: 1, current: 1700 }]);
    expect(changesOf({ changes: [{ leg: 0, current: 2.05 }] })).toEqual([{ leg: 0, current: 2050 }]);
    expect(changesOf(null)).toEqual([]);
    let s = reduce([slipActions.toggle(sel('a')), slipActions.toggle(sel('b')), slipActions.setKey('k'), slipActions.oddsChanged(changes)]);
    expect(s.selections[1]!.odds).toBe(1850); // never auto-accepted
    s = reduce([slipActions.acceptChanges()], s);
    expect(s.selections[1]!.odds).toBe(1700);
    expect(s.changes).toEqual([]);
    expect(s.key).toBeNull(); // a new submission
  });
  it('remembers the odds-change policy', () => {
    reduce([slipActions.setPolicy('none')]);
    expect(initialSlip().policy).toBe('none');
    localStorage.removeItem('carthage.betting.policy');
  });
  it('accepts higher odds by default, what sportsbook players expect (issue 18)', () => {
    localStorage.removeItem('carthage.betting.policy');
    expect(initialSlip().policy).toBe('accept_higher');
  });
  it('takes live prices for its legs, marked up or down, and drops the key', () => {
    let s = reduce([slipActions.toggle(sel('a')), slipActions.toggle(sel('b')), slipActions.setKey('k')]);
    s = reduce([slipActions.livePrices([{ eventId: 'b', market: '1', outcomeId: '1', odds: 1900 }])], s);
    expect(s.selections.map((x) => [x.odds, x.moved])).toEqual([[1850, undefined], [1900, 'up']]);
    expect(s.key).toBeNull();
    s = reduce([slipActions.setKey('k2'), slipActions.livePrices([{ eventId: 'b', market: '1', outcomeId: '1', odds: 1900 }])], s);
    expect(s.key).toBe('k2'); // the same price: the same submission
    s = reduce([slipActions.livePrices([{ eventId: 'a', market: '1', outcomeId: '1', odds: 1700 }, { eventId: 'a', market: '1', outcomeId: '2', odds: 9000 }])], s);
    expect(s.selections.map((x) => [x.odds, x.moved])).toEqual([[1700, 'down'], [1900, 'up']]);
    expect(
      slipPrices(s.selections, [
        { type: 'odds_change', event_id: 'a', markets: [{ market: '1', outcomes: [{ id: '1', odds: 1650 }, { id: '3', odds: 5000 }] }] },
        { type: 'odds_change', event_id: 'z', markets: [{ market: '1', outcomes: [{ id: '1', odds: 1200 }] }] },
        { type: 'score_change', event_id: 'a' },
      ]),
    ).toEqual([{ eventId: 'a', market: '1', outcomeId: '1', odds: 1650 }]);
  });
});

const event = (id: string, over: Partial<SbEvent> = {}): SbEvent => ({
  id,
  home: `Home ${id}`,
  away: `Away ${id}`,
  category: 'England',
  tournament: 'Premier League',
  sport: 'Football',
  sport_id: 'sr:sport:1',
  kind: 'live',
  start_time: '2030-01-01T10:00:00Z',
  status: 'live',
  clock: "1st half 20'",
  score: { home: 1, away: 0 },
  markets_count: 12,
  markets: [
    {
      key: '1',
      name: '1X2',
      status: 'active',
      outcomes: [
        { id: '1', name: 'Home', odds: 1.85, active: true },
        { id: '2', name: 'Draw', odds: 3.4, active: true },
        { id: '3', name: 'Away', odds: 4.2, active: true },
      ],
    },
  ],
  ...over,
});

describe('live messages', () => {
  it('applies odds (thousandths), market status and the score', () => {
    const e = event('e1');
    applyToEvent(e, { type: 'odds_change', event_id: 'e1', markets: [{ market: '1', status: 'suspended', outcomes: [{ id: '1', odds: 1920 }] }] } as never);
    expect(e.markets[0]!.status).toBe('suspended');
    expect(e.markets[0]!.outcomes[0]!.odds).toBe(1.92);
    applyToEvent(e, { type: 'score_change', event_id: 'e1', status: 'live', score: { home: 2, away: 1 }, clock: { period: '2nd half', time: "67'" } } as never);
    expect(e.score).toEqual({ home: 2, away: 1 });
    expect(e.clock).toBe("2nd half 67'");
  });
});

const signedIn = {
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { balance: 100, currency: 'TND' } },
};
const line = { sports: [{ id: 'sr:sport:1', name: 'Football', kind: 'football', events: 2, live: 2 }], events: [event('e1'), event('e2')] };
const bet = (over: Record<string, unknown> = {}) => ({
  id: 42,
  kind: 'single',
  stake: 5,
  currency: 'TND',
  funding: 'real',
  total_odds: 1.85,
  potential_payout: 9.25,
  payout: 0,
  status: 'open',
  replayed: false,
  created_at: '2030-01-01T10:00:00Z',
  legs: [],
  ...over,
});

describe('the line and the slip', () => {
  it('shows live events grouped by tournament; a tap selects, the slip places the bet with one key per submission', async () => {
    const keys: string[] = [];
    let calls = 0;
    const fetchMock = mockApi({
      '/api/sportsbook/line': ok(line),
      'POST /api/sportsbook/bets': () => {
        calls += 1;
        return calls === 1
          ? { status: 604, result: { refusal: 'odds_changed', changes: [{ leg: 0, current: 1700 }] }, error_message: 'The odds have changed.' }
          : ok(bet({ total_odds: 1.7, potential_payout: 8.5 }));
      },
      '/api/user/balance': ok({ balance: 95, currency: 'TND' }),
      '/api/site/settings': ok({}),
    });
    renderApp(
      <>
        <BalanceProbe />
        <BettingPage />
        <BetSlip />
      </>,
      { state: signedIn },
    );
    expect(await screen.findByText('Home e1')).toBeTruthy();
    expect(screen.getByText('England · Premier League')).toBeTruthy();
    const odds = screen.getAllByTestId('odds');
    expect(odds[0]!.textContent).toContain('1.85');
    fireEvent.click(odds[0]!);
    expect(odds[0]!.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.click(screen.getByRole('button', { name: '5.000 TND' }));
    expect(screen.getByTestId('payout').textContent).toContain('9.250');
    fireEvent.click(screen.getByTestId('place-bet'));
    // 604: the new odds are shown, the bet is not placed until the player accepts.
    expect((await screen.findByTestId('new-odds')).textContent).toBe('1.70');
    expect((screen.getByTestId('place-bet') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: en.slip.accept }));
    expect(screen.getByTestId('payout').textContent).toContain('8.500');
    await act(async () => {
      fireEvent.click(screen.getByTestId('place-bet'));
    });
    expect(await screen.findByTestId('bet-placed')).toBeTruthy();
    expect(screen.getByTestId('bet-id').textContent).toContain('42');
    for (const [url, init] of fetchMock.mock.calls) {
      if (String(url).endsWith('/api/sportsbook/bets') && init?.method === 'POST') {
        keys.push((init.headers as Record<string, string>)['Idempotency-Key'] ?? new Headers(init.headers).get('Idempotency-Key') ?? '');
      }
    }
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]); // accepting new odds is a new submission
    const body = JSON.parse(String(fetchMock.mock.calls.filter(([u, i]) => String(u).endsWith('/bets') && i?.method === 'POST')[1]![1]!.body));
    expect(body).toMatchObject({ kind: 'single', stake: 5, legs: [{ event_id: 'e1', market: '1', outcome_id: '1', odds: 1.7 }] });
    // The balance refreshes.
    await waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => String(u).includes('/api/user/balance'))).toHaveLength(2));
  });

  it('shows a refusal by its code', async () => {
    mockApi({
      '/api/sportsbook/line': ok(line),
      'POST /api/sportsbook/bets': { status: 607, result: null, error_message: 'suspended' },
      '/api/site/settings': ok({}),
    });
    renderApp(
      <>
        <BettingPage />
        <BetSlip />
      </>,
      { state: signedIn },
    );
    fireEvent.click((await screen.findAllByTestId('odds'))[0]!);
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.change(screen.getByTestId('stake'), { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('place-bet'));
    expect(await screen.findByTestId('slip-error')).toBeTruthy();
  });
});

describe('a live express (issue 18)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });
  it('shows the new prices before the tap and is placed at the first tap with the prices shown', async () => {
    localStorage.removeItem('carthage.betting.policy');
    const three = { ...line, events: [event('e1'), event('e2'), event('e3')] };
    const fetchMock = mockApi({
      '/api/sportsbook/line': ok(three),
      'POST /api/sportsbook/bets': ok(bet({ kind: 'express' })),
      '/api/site/settings': ok({}),
    });
    const { store } = renderApp(
      <>
        <BettingPage />
        <BetSlip />
      </>,
      { state: signedIn },
    );
    await screen.findByText('Home e3');
    const rows = screen.getAllByTestId('odds');
    // Home in e1, draw in e2, away in e3 (three outcomes a row).
    for (const i of [0, 4, 8]) fireEvent.click(rows[i]!);
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.change(screen.getByTestId('stake'), { target: { value: '2' } });
    // The prices move while the player looks at the slip: shown at once, up or down.
    await act(async () => {
      applyMessage(store.dispatch, store.getState, {
        type: 'odds_change',
        event_id: 'e1',
        markets: [{ market: '1', outcomes: [{ id: '1', odds: 1950 }] }],
      } as never);
      applyMessage(store.dispatch, store.getState, {
        type: 'odds_change',
        event_id: 'e2',
        markets: [{ market: '1', outcomes: [{ id: '2', odds: 3100 }] }],
      } as never);
    });
    const legOdds = screen.getAllByTestId('leg-odds').map((x) => x.textContent);
    expect(legOdds).toEqual(['1.95', '3.10', '4.20']);
    expect(screen.getAllByTestId('odds-moved').map((x) => x.getAttribute('data-moved'))).toEqual(['up', 'down']);
    expect(screen.getAllByTestId('odds-moved')[0]!.getAttribute('aria-label')).toBe(en.slip.oddsUp);
    // 1.95 × 3.10 × 4.20 = 25.389
    expect(screen.getByTestId('slip-total').textContent).toBe('25.389');
    await act(async () => {
      fireEvent.click(screen.getByTestId('place-bet'));
    });
    expect(await screen.findByTestId('bet-placed')).toBeTruthy();
    const posts = fetchMock.mock.calls.filter(([u, i]) => String(u).endsWith('/api/sportsbook/bets') && i?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]!.body))).toMatchObject({
      kind: 'express',
      odds_policy: 'accept_higher',
      legs: [{ odds: 1.95 }, { odds: 3.1 }, { odds: 4.2 }],
    });
  });
  it('writes the stake limits and presets as money in the language (French: "0,500 TND")', async () => {
    i18n.addResourceBundle('fr', 'betting', fr, true, true);
    i18n.addResourceBundle('ar', 'betting', ar, true, true);
    mockApi({
      '/api/sportsbook/line': ok(line),
      '/api/site/settings': ok({ limits: { bets: { default: 5, max: 5000, min: 0.5 } }, inbetKf: { TND: 1 } }),
    });
    renderApp(
      <>
        <BettingPage />
        <BetSlip />
      </>,
      { state: signedIn },
    );
    fireEvent.click((await screen.findAllByTestId('odds'))[0]!);
    fireEvent.click(screen.getByTestId('slip-bar'));
    await waitFor(() => expect(screen.getByTestId('stake-limits').textContent).toContain('0.500 TND'));
    expect(screen.getByTestId('stake-limits').textContent).toContain('5,000.000 TND');
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    const nb = (x: string) => x.replace(/[\u2066\u2069]/g, '').replace(/[\u00a0\u202f]/g, ' ');
    expect(nb(screen.getByTestId('stake-limits').textContent!)).toBe('Mise de 0,500 TND à 5 000,000 TND');
    expect(screen.getAllByTestId('stake-preset').map((b) => nb(b.textContent!))).toEqual(['5,000 TND', '25,000 TND', '50,000 TND', '250,000 TND']);
    await act(async () => {
      await i18n.changeLanguage('ar');
    });
    expect(nb(screen.getByTestId('stake-limits').textContent!)).toBe('المبلغ من 0.500 TND إلى 5,000.000 TND');
  });
});

describe('a suspended selection', () => {
  it('is marked on the slip and the bet cannot be placed until it reopens', async () => {
    mockApi({ '/api/sportsbook/line': ok(line), '/api/site/settings': ok({}) });
    const { store } = renderApp(
      <>
        <BettingPage />
        <BetSlip />
      </>,
      { state: signedIn },
    );
    fireEvent.click((await screen.findAllByTestId('odds'))[0]!);
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.change(screen.getByTestId('stake'), { target: { value: '2' } });
    expect((screen.getByTestId('place-bet') as HTMLButtonElement).disabled).toBe(false);
    const suspend = (status: string) =>
      act(async () => {
        applyMessage(store.dispatch, store.getState, { type: 'odds_change', event_id: 'e1', markets: [{ market: '1', status }] } as never);
      });
    await suspend('suspended');
    expect(await screen.findByTestId('leg-suspended')).toBeTruthy();
    expect((screen.getByTestId('place-bet') as HTMLButtonElement).disabled).toBe(true);
    await suspend('active');
    await waitFor(() => expect(screen.queryByTestId('leg-suspended')).toBeNull());
    // A goal's bet_stop suspends the markets at once (before: only the next odds_change did,
    // and a tap in between was refused with 607).
    await act(async () => {
      applyMessage(store.dispatch, store.getState, { type: 'bet_stop', event_id: 'e1' } as never);
    });
    expect(await screen.findByTestId('leg-suspended')).toBeTruthy();
    expect((screen.getByTestId('place-bet') as HTMLButtonElement).disabled).toBe(true);
    await suspend('active');
    await waitFor(() => expect(screen.queryByTestId('leg-suspended')).toBeNull());
    expect(screen.queryByTestId('leg-suspended')).toBeNull();
    expect((screen.getByTestId('place-bet') as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('live topics', () => {
  it('are the rows shown (list form) and the open event, or `live` when the rows are many', () => {
    expect(liveTopics(['e2', 'e1', 'e2'])).toEqual(['list:e1', 'list:e2']);
    expect(liveTopics(['sim:1'], 'sim:9')).toEqual(['list:sim:1', 'event:sim:9']);
    expect(liveTopics([], 'e1')).toEqual(['event:e1']);
    const many = Array.from({ length: MAX_LIST_TOPICS + 1 }, (_, i) => `e${i}`);
    expect(liveTopics(many, 'e1')).toEqual(['live', 'event:e1']);
    expect(liveTopics(many.slice(1))).toHaveLength(MAX_LIST_TOPICS);
    // The slip's events whole, whatever page is shown: a leg on any market gets its price.
    expect(liveTopics(['e1'], 'e2', ['e2', 'e7'])).toEqual(['list:e1', 'event:e2', 'event:e7']);
  });
  it('change by what is added and what is dropped only', () => {
    expect(topicChanges([], ['list:a', 'event:x'])).toEqual({ subscribe: ['list:a', 'event:x'], unsubscribe: [] });
    expect(topicChanges(['list:a', 'list:b', 'event:x'], ['list:b', 'list:c'])).toEqual({ subscribe: ['list:c'], unsubscribe: ['list:a', 'event:x'] });
    expect(topicChanges(['list:a'], ['live'])).toEqual({ subscribe: ['live'], unsubscribe: ['list:a'] });
    expect(topicChanges(['live'], ['live'])).toEqual({ subscribe: [], unsubscribe: [] });
  });
  it('follow the events of the cached line', async () => {
    mockApi({ '/api/sportsbook/line': ok(line), '/api/site/settings': ok({}) });
    const { store } = renderApp(<BettingPage />, { state: signedIn });
    await screen.findAllByTestId('odds');
    const ids = line.events.map((e) => e.id).sort();
    expect(cachedRowKey(store.getState()).split('\n')).toEqual(ids);
    expect(liveTopics(cachedRowKey(store.getState()).split('\n'))).toEqual(ids.map((id) => `list:${id}`));
  });
});

describe('names in the app language', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });
  it('are asked again in the new language when the player changes it', async () => {
    const fetchMock = mockApi({ '/api/sportsbook/bets': ok([]), '/api/site/settings': ok({}) });
    renderApp(<MyBetsPage />, { state: signedIn });
    const betCalls = () => fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/sportsbook/bets'));
    await waitFor(() => expect(betCalls().length).toBeGreaterThan(0));
    const before = betCalls().length;
    await act(async () => {
      await i18n.changeLanguage('fr');
    });
    // Refetched (the request carries the new <html lang> as Accept-Language: api/envelope.ts).
    await waitFor(() => expect(betCalls().length).toBeGreaterThan(before));
  });
});

describe('the live clock', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });
  it("names the feed's periods in the app language and keeps the minutes", async () => {
    i18n.addResourceBundle('ar', 'betting', ar, true, true);
    i18n.addResourceBundle('fr', 'betting', fr, true, true);
    await i18n.changeLanguage('fr');
    const t = i18n.getFixedT('fr', 'betting');
    expect(clockLabel('2nd half 57:01', t)).toBe('2e mi-temps 57:01');
    expect(clockLabel('Game 3', t)).toBe('Manche 3');
    expect(clockLabel('OT1 02:00', t)).toBe('Prolongation 1 02:00');
    const ta = i18n.getFixedT('ar', 'betting');
    expect(clockLabel('1st half 12:30', ta)).toBe('الشوط الأول 12:30');
    expect(clockLabel('Set 2', ta)).toBe('المجموعة 2');
    expect(clockLabel('Half-time 45:00', ta)).toBe('استراحة بين الشوطين 45:00');
    // A period the app does not know is shown as the feed sent it.
    expect(clockLabel('Penalties', ta)).toBe('Penalties');
    expect(clockLabel('Settled', ta)).toBe('Settled');
  });
});

describe('texts', () => {
  it('has the same keys in English, French and Arabic', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(fr).sort()).toEqual(keys(en).sort());
    expect(keys(ar).sort()).toEqual(keys(en).sort());
  });
});

describe('stake limits from the settings', () => {
  const settings = { limits: { bets: { default: 1, max: 5000, min: 0.5 } }, inbetKf: { TND: 1, HTG: 45, USDT: 0.33 } };
  it('are limits.bets in minor units, scaled exactly by inbetKf as the server does', () => {
    expect(stakeLimits(settings, 'TND', 3)).toEqual({ min: 500, max: 5_000_000, def: 1_000 });
    expect(stakeLimits(settings, 'HTG', 2)).toEqual({ min: 2_250, max: 22_500_000, def: 4_500 });
    // 0.5 × 0.33 = 0.165 USDT exactly (no float: 0.5 * 0.33 * 1e6 would not be an integer here).
    expect(stakeLimits(settings, 'USDT', 6)).toEqual({ min: 165_000, max: 1_650_000_000, def: 330_000 });
    expect(stakeLimits({}, 'TND', 3)).toBeNull();
  });
  it('presets are the default and its multiples within the maximum', () => {
    expect(stakePresets(stakeLimits(settings, 'TND', 3), 3)).toEqual([1_000, 5_000, 10_000, 50_000]);
    expect(stakePresets({ min: 100, max: 6_000, def: 1_000 }, 3)).toEqual([1_000, 5_000]);
    expect(stakePresets(null, 2)).toEqual([100, 500, 1_000, 5_000]);
  });
});
