import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testUser } from '../../test/render';
import en from '../../locales/en/virtuals.json';
import fr from '../../locales/fr/virtuals.json';
import ar from '../../locales/ar/virtuals.json';
import {
  clockOffset,
  complete,
  countdown,
  formatPrice,
  isSport,
  parseStake,
  pickPrice,
  positions,
  potentialWin,
  priceHundredths,
  runnerColors,
  stageOf,
  stakePresets,
  stakeText,
  toggle,
} from './logic';
import RacePage from './routes/RacePage';
import VirtualsLobbyPage from './routes/VirtualsLobbyPage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'virtuals', en);
});
afterEach(() => vi.unstubAllGlobals());

describe('prices, stakes and wins in integers', () => {
  it('reads two-decimal prices from the wire and writes them back', () => {
    expect(priceHundredths(3.47)).toBe(347);
    expect(priceHundredths(6.9)).toBe(690);
    expect(priceHundredths(1000)).toBe(100000);
    expect(priceHundredths(1.01)).toBe(101);
    expect(priceHundredths(null)).toBeNull();
    expect(priceHundredths(1.005)).toBeNull();
    expect(formatPrice(347)).toBe('3.47');
    expect(formatPrice(690)).toBe('6.90');
    expect(formatPrice(101)).toBe('1.01');
  });
  it('pays floor(stake × price) to the millime, as the server does', () => {
    expect(potentialWin(1000n, 347)).toBe(3470n);
    expect(potentialWin(333n, 347)).toBe(1155n); // 1155.51 floored
    expect(potentialWin(100000n, 100000)).toBe(100000000n);
  });
  it('parses stakes without floats and refuses extra decimals', () => {
    expect(parseStake('2', 3)).toBe(2000n);
    expect(parseStake('2,5', 3)).toBe(2500n);
    expect(parseStake('0.333', 3)).toBe(333n);
    expect(parseStake('0.3333', 3)).toBeNull();
    expect(parseStake('', 3)).toBeNull();
    expect(parseStake('-1', 3)).toBeNull();
    expect(parseStake('1e3', 3)).toBeNull();
    expect(parseStake('700', 0)).toBe(700n);
    expect(stakeText(2500n, 3)).toBe('2.5');
    expect(stakeText(100n, 3)).toBe('0.1');
    expect(stakeText(1000n, 3)).toBe('1');
    expect(stakeText(700n, 0)).toBe('700');
  });
  it('offers presets between the limits', () => {
    expect(stakePresets(100n, 100000n)).toEqual([1000n, 2000n, 5000n, 10000n]);
    expect(stakePresets(100n, 3000n)).toEqual([1000n, 2000n]);
  });
});

describe('the slip', () => {
  const runners = [
    { number: 1, win: 3.47, place: 1.52 },
    { number: 2, win: 6.95, place: null },
  ];
  const forecast = [
    [null, 48.69],
    [12.5, null],
  ];
  it('takes one runner for win and place, and replaces it on another tap', () => {
    let p = toggle(null, 9, 'win', 1);
    expect(p).toEqual({ raceId: 9, kind: 'win', runners: [1] });
    expect(complete(p)).toBe(true);
    expect(pickPrice(p!, runners, forecast)).toBe(347);
    p = toggle(p, 9, 'place', 1);
    expect(pickPrice(p!, runners, forecast)).toBe(152);
    expect(toggle(p, 9, 'place', 1)).toBeNull();
    expect(pickPrice(toggle(null, 9, 'place', 2)!, runners, forecast)).toBeNull();
  });
  it('builds a forecast from two taps in order', () => {
    let p = toggle(null, 9, 'forecast', 2);
    expect(complete(p)).toBe(false);
    p = toggle(p, 9, 'forecast', 1);
    expect(p?.runners).toEqual([2, 1]);
    expect(pickPrice(p!, runners, forecast)).toBe(1250);
    // A third tap starts again; tapping the first again removes it.
    expect(toggle(p, 9, 'forecast', 1)?.runners).toEqual([1]);
    expect(toggle(toggle(null, 9, 'forecast', 2), 9, 'forecast', 2)).toBeNull();
    // Another race starts a new pick.
    expect(toggle(toggle(null, 9, 'forecast', 2), 10, 'forecast', 1)).toEqual({ raceId: 10, kind: 'forecast', runners: [1] });
  });
});

describe('clock and stages', () => {
  it('counts down in mm:ss, never below zero', () => {
    expect(countdown(83_000)).toBe('01:23');
    expect(countdown(82_001)).toBe('01:23');
    expect(countdown(0)).toBe('00:00');
    expect(countdown(-5_000)).toBe('00:00');
    expect(countdown(3_723_000)).toBe('1:02:03');
  });
  it('places a race on the server clock', () => {
    const race = { closesAt: 10_000, finishesAt: 50_000 };
    expect(stageOf(race, 4_000)).toEqual({ kind: 'open', left: 6_000 });
    expect(stageOf(race, 30_000)).toEqual({ kind: 'running', progress: 0.5 });
    expect(stageOf(race, 50_000)).toEqual({ kind: 'over' });
    expect(clockOffset(1_000_500, 1_000_000)).toBe(500);
  });
  it('knows the three race types', () => {
    expect(isSport('horses') && isSport('greyhounds') && isSport('speedway')).toBe(true);
    expect(isSport('camels')).toBe(false);
    expect(runnerColors('greyhounds', 1).bg).toBe('#d32f2f');
    expect(runnerColors('speedway', 4).bg).toBe('#fdd835');
  });
});

describe('the race animation', () => {
  const order = [4, 2, 7, 1, 3, 5, 6, 8];
  it('starts everyone at the gate and ends everyone at the line', () => {
    const start = positions(order, 0, 123);
    const end = positions(order, 1, 123);
    for (const n of order) {
      expect(start.get(n)).toBe(0);
      expect(end.get(n)).toBe(1);
    }
  });
  it('crosses the line exactly in the published order, whatever the seed', () => {
    for (const seed of [1, 42, 987654, 2 ** 31 + 5]) {
      const crossed: number[] = [];
      for (let step = 0; step <= 2000; step += 1) {
        const at = positions(order, step / 2000, seed);
        for (const n of order) if (at.get(n) === 1 && !crossed.includes(n)) crossed.push(n);
      }
      expect(crossed).toEqual(order);
    }
  });
  it('is the same race on every render (a reload draws it again identically)', () => {
    expect([...positions(order, 0.4, 7)]).toEqual([...positions(order, 0.4, 7)]);
    const mid = positions(order, 0.5, 7);
    expect([...mid.values()].every((d) => d > 0 && d < 1)).toBe(true);
  });
});

/** Every key path, plural suffixes folded (each language has its own plural forms). */
function keys(o: unknown, prefix = ''): string[] {
  if (typeof o !== 'object' || o === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return [...new Set(Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k)))].sort();
}

describe('texts', () => {
  it('French and Arabic have every English key, and no other', () => {
    expect(keys(fr)).toEqual(keys(en));
    expect(keys(ar)).toEqual(keys(en));
  });
});

// ------------------------------------------------------------------ screens

const NOW = Date.now();
const runner = (number: number, name: string, strength: number, win: number, place: number | null) => ({ number, name, strength, win, place });
const race = (id: number, closesIn: number, over: Record<string, unknown> = {}) => ({
  id,
  sport: 'horses',
  number: id,
  phase: 'open',
  opensAt: NOW - 60_000,
  closesAt: NOW + closesIn,
  finishesAt: NOW + closesIn + 40_000,
  runners: [runner(1, 'Carthage Star', 80, 3.47, 1.52), runner(2, 'Desert Wind', 20, 13.91, 4.1), runner(3, 'Medina Gold', 50, 5.56, 2.2)],
  forecast: [
    [null, 9.9, 7.1],
    [22.3, null, 30.4],
    [8.8, 15.2, null],
  ],
  places: 3,
  overround: 115,
  commitHash: 'ab'.repeat(32),
  terminatingHash: 'cd'.repeat(32),
  salt: 'salt',
  seed: null,
  result: null,
  ...over,
});
const sportView = (sport: string, upcoming: unknown[], results: unknown[] = []) => ({
  sport,
  everyMs: 180_000,
  runMs: 40_000,
  runners: 3,
  places: 3,
  upcoming,
  running: [],
  results,
});
const settledRace = race(5, -120_000, { phase: 'settled', seed: 'ef'.repeat(32), result: [3, 1, 2] });
const lobby = (limits: unknown = null) => ({
  serverTime: NOW,
  limits,
  sports: [
    sportView('horses', [race(10, 83_000), race(11, 263_000)], [settledRace]),
    sportView('greyhounds', [{ ...race(20, 40_000), sport: 'greyhounds' }]),
    sportView('speedway', [{ ...race(30, 200_000), sport: 'speedway' }]),
  ],
});
const signedIn = {
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { balance: 100, currency: 'TND' } },
};

describe('the lobby', () => {
  it('lists the three studio race types in order with their next race', async () => {
    mockApi({ '/api/virtuals/races': ok(lobby()) });
    renderApp(<VirtualsLobbyPage />, { path: '/virtual-games' });
    const cards = await screen.findAllByRole('link');
    const studio = cards.filter((c) => c.getAttribute('href')?.startsWith('/virtual-games/studio/'));
    expect(studio.map((c) => c.getAttribute('href'))).toEqual(['/virtual-games/studio/horses', '/virtual-games/studio/greyhounds', '/virtual-games/studio/speedway']);
    expect(screen.getByTestId('virtual-card-horses').textContent).toContain('Horse racing');
    expect(screen.getByTestId('virtual-card-horses').textContent).toContain('Last winner: 3. Medina Gold');
    const clocks = screen.getAllByTestId('next-countdown').map((c) => c.textContent);
    expect(clocks[0]).toMatch(/^01:2[23]$/);
  });
});

describe('the race page', () => {
  const page = (state?: typeof signedIn) =>
    renderApp(
      <Routes>
        <Route path="/virtual-games/studio/:sport" element={<RacePage />} />
      </Routes>,
      { path: '/virtual-games/studio/horses', ...(state ? { state } : {}) },
    );

  it('shows the runners with their prices and the committed hash', async () => {
    mockApi({ '/api/virtuals/races': ok(lobby()) });
    page();
    const rows = await screen.findAllByTestId('runner');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Carthage Star');
    expect(rows[0]!.textContent).toContain('3.47');
    expect(rows[0]!.textContent).toContain('1.52');
    expect(screen.getAllByTestId('race-chip')).toHaveLength(2);
    expect(screen.getByTestId('virtual-fairness').textContent).toContain('ab'.repeat(32));
    expect(screen.getByTestId('revealed-seed').textContent).toBe('ef'.repeat(32));
    expect(screen.getByTestId('track-countdown').textContent).toMatch(/^01:2[23]$/);
  });

  it('places a win bet with an idempotency key and shows it placed', async () => {
    const placed = {
      id: 99,
      raceId: 10,
      sport: 'horses',
      kind: 'win',
      runners: [1],
      price: 3.47,
      stake: 2000,
      potentialWin: 6940,
      win: 0,
      currency: 'TND',
      exponent: 3,
      status: 'open',
      placedAt: NOW,
      closesAt: NOW + 83_000,
      finishesAt: NOW + 123_000,
      racePhase: 'open',
      replayed: false,
      balance: 98000,
    };
    const fetchMock = mockApi({
      '/api/virtuals/races': ok(lobby({ currency: 'TND', exponent: 3, minStake: 100, maxStake: 100000 })),
      'POST /api/virtuals/bets': ok(placed),
      '/api/virtuals/bets': ok([placed]),
      '/api/user/balance': ok({ balance: 98, currency: 'TND' }),
    });
    page(signedIn);
    fireEvent.click((await screen.findAllByTestId('price-win'))[0]!);
    fireEvent.change(screen.getByTestId('virtual-stake'), { target: { value: '2' } });
    expect(screen.getByTestId('virtual-potential').textContent).toContain('6.940 TND');
    fireEvent.click(screen.getByTestId('virtual-place'));
    await screen.findByTestId('virtual-bet-placed');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ raceId: 10, kind: 'win', runners: [1], stake: 2000 });
    expect(new Headers(post[1]!.headers).get('Idempotency-Key')).toMatch(/.{8,}/);
    await waitFor(() => expect(screen.getByTestId('virtual-my-bets').textContent).toContain('3.47'));
  });

  it('refuses a stake outside the limits before sending it', async () => {
    const fetchMock = mockApi({ '/api/virtuals/races': ok(lobby({ currency: 'TND', exponent: 3, minStake: 100, maxStake: 100000 })) });
    page(signedIn);
    fireEvent.click((await screen.findAllByTestId('price-place'))[1]!);
    fireEvent.change(screen.getByTestId('virtual-stake'), { target: { value: '101' } });
    expect((screen.getByTestId('virtual-place') as HTMLButtonElement).disabled).toBe(true);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
