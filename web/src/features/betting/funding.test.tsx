import { act, fireEvent, screen, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import en from '../../locales/en/betting.json';
import enErrors from '../../locales/en/errors.json';
import type { SbEvent } from './api';
import { BetSlip } from './components/BetSlip';
import { freeBetChoices, freeBetWinnings, fundingBlock, majorToMinor } from './funding';
import BettingPage from './routes/BettingPage';
import { initialSlip, slipActions, slipSlice } from './slipSlice';

beforeAll(() => {
  i18n.addResourceBundle('en', 'betting', en, true, true);
  i18n.addResourceBundle('en', 'errors', enErrors, true, true);
});

describe('funding rules', () => {
  it('offers each active free-bet value the balance covers, else the balance left', () => {
    expect(freeBetChoices([10_000, 50_000, 10_000], 60_000)).toEqual([10_000, 50_000]);
    expect(freeBetChoices([10_000, 50_000], 20_000)).toEqual([10_000]);
    // A free bet partly used: the balance itself.
    expect(freeBetChoices([10_000], 4_000)).toEqual([4_000]);
    expect(freeBetChoices([10_000], 0)).toEqual([]);
  });
  it('a free bet needs total odds of 2.20, a free bet chosen and the balance for it', () => {
    const base = { legs: [2190], freeBetBalance: 10_000, bonusBalance: 0 };
    expect(fundingBlock({ ...base, funding: 'free_bet', total: 2190, stakeMinor: 10_000 })).toEqual({ reason: 'freeBetOdds', min: 2200, total: 2190 });
    expect(fundingBlock({ ...base, funding: 'free_bet', total: 2200, stakeMinor: 10_000 })).toBeNull();
    expect(fundingBlock({ ...base, funding: 'free_bet', total: 2200, stakeMinor: null })).toEqual({ reason: 'noFreeBet' });
    expect(fundingBlock({ ...base, funding: 'free_bet', total: 2200, stakeMinor: 10_001 })).toEqual({ reason: 'freeBetTooBig', balance: 10_000 });
    // Real money is never held to these rules.
    expect(fundingBlock({ ...base, funding: 'real', total: 1010, stakeMinor: 99_000 })).toBeNull();
  });
  it('a bonus bet needs 1.80 on every selection, whatever the total', () => {
    const base = { freeBetBalance: 0, bonusBalance: 20_000, stakeMinor: 5_000 };
    expect(fundingBlock({ ...base, funding: 'bonus', total: 9000, legs: [3000, 1790, 1800, 1500] })).toEqual({ reason: 'bonusOdds', min: 1800, legs: [1, 3] });
    expect(fundingBlock({ ...base, funding: 'bonus', total: 3240, legs: [1800, 1800] })).toBeNull();
    expect(fundingBlock({ ...base, funding: 'bonus', total: 3240, legs: [1800, 1800], stakeMinor: 20_001 })).toEqual({ reason: 'bonusShort', balance: 20_000 });
  });
  it('pays a free bet its winnings only and reads amounts exactly', () => {
    expect(freeBetWinnings(42_000, 10_000)).toBe(32_000);
    expect(freeBetWinnings(0, 10_000)).toBe(0);
    expect(majorToMinor(0.3, 3)).toBe(300);
    expect(majorToMinor(10.005, 3)).toBe(10_005);
    expect(majorToMinor(-0.5, 2)).toBe(-50);
  });
  it('a free bet is chosen, never typed: moving to or from it empties the stake; clear goes back to real money', () => {
    let s = slipSlice.reducer(initialSlip(), slipActions.setStake('7'));
    s = slipSlice.reducer({ ...s, key: 'k' }, slipActions.setFunding('free_bet'));
    expect((({ funding, stake, key }) => ({ funding, stake, key }))(s)).toEqual({ funding: 'free_bet', stake: '', key: null });
    s = slipSlice.reducer(s, slipActions.setStake('10'));
    s = slipSlice.reducer(s, slipActions.setFunding('bonus'));
    expect(s.stake).toBe('');
    s = slipSlice.reducer(s, slipActions.setStake('3'));
    s = slipSlice.reducer(s, slipActions.clear());
    expect((({ funding, stake }) => ({ funding, stake }))(s)).toEqual({ funding: 'real', stake: '' });
  });
});

const event = (id: string, odds: [number, number, number]): SbEvent => ({
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
        { id: '1', name: 'Home', odds: odds[0], active: true },
        { id: '2', name: 'Draw', odds: odds[1], active: true },
        { id: '3', name: 'Away', odds: odds[2], active: true },
      ],
    },
  ],
});
const line = { sports: [{ id: 'sr:sport:1', name: 'Football', kind: 'football', events: 2, live: 2 }], events: [event('e1', [1.85, 3.4, 4.2]), event('e2', [1.5, 3.1, 5])] };
const freeBet = { id: 'fb1', amount: 10, currency: 'TND', status: 'active', minOdds: 2.2, expiresAt: 1_900_000_000_000 };
const sportBonus = {
  id: 'b1', amount: 20, closedAt: null, converted: 0, currency: 'TND', expiresAt: null, grantedAt: 1, maxBet: 0, maxConversion: 0,
  minOdds: 1.8, product: 'sport', remaining: 100, required: 100, status: 'active', template: 'sport', wagered: 0,
};
const placed = (over: Record<string, unknown> = {}) => ({
  id: 77, kind: 'single', stake: 10, currency: 'TND', funding: 'free_bet', total_odds: 4.2, potential_payout: 32, payout: 0,
  status: 'open', replayed: false, created_at: '2030-01-01T10:00:00Z', legs: [], ...over,
});
const withBalance = (over: Partial<typeof testBalance>) => ({
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, ...over } },
});

function renderSlip(routes: Record<string, unknown>, balance: Partial<typeof testBalance>) {
  const fetchMock = mockApi({ '/api/sportsbook/line': ok(line), '/api/site/settings': ok({}), ...routes });
  renderApp(
    <>
      <BettingPage />
      <BetSlip />
    </>,
    { state: withBalance(balance) },
  );
  return fetchMock;
}

const placedBodies = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([u, i]) => String(u).endsWith('/api/sportsbook/bets') && i?.method === 'POST').map(([, i]) => JSON.parse(String(i!.body)));

describe('a free bet in the slip', () => {
  it('explains 2.20 before the tap, then places the chosen free bet showing winnings only', async () => {
    const fetchMock = renderSlip(
      { '/api/user/free-bets': ok([freeBet, { ...freeBet, id: 'old', status: 'used', amount: 50 }]), 'POST /api/sportsbook/bets': ok(placed()) },
      { freeBetBalance: 10 },
    );
    fireEvent.click((await screen.findAllByTestId('odds'))[0]!); // Home e1 at 1.85
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.click(await screen.findByTestId('funding-free_bet'));
    expect(screen.getByTestId('free-bet-rules').textContent).toContain('stake is not returned');
    // Only the active free bet is offered; the stake is not typed.
    const chips = await screen.findAllByTestId('free-bet-choice');
    expect(chips.map((c) => c.textContent)).toEqual(['10.000 TND']);
    expect(screen.queryByTestId('stake')).toBeNull();
    fireEvent.click(chips[0]!);
    // 1.85 < 2.20: said, and the bet cannot go.
    const block = screen.getByTestId('funding-block');
    expect(block.dataset.reason).toBe('freeBetOdds');
    expect(block.textContent).toContain('2.20');
    expect(block.textContent).toContain('1.85');
    const button = screen.getByTestId('place-bet') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe('funding-block');
    // Away e1 at 4.20 replaces it: 10 × 4.20 = 42, the winnings 32.
    fireEvent.click(screen.getAllByTestId('odds')[2]!);
    expect(screen.queryByTestId('funding-block')).toBeNull();
    expect(screen.getByText(en.slip.winnings)).toBeTruthy();
    expect(screen.getByTestId('payout').textContent).toContain('32.000');
    await act(async () => {
      fireEvent.click(screen.getByTestId('place-bet'));
    });
    expect(await screen.findByTestId('placed-free-bet')).toBeTruthy();
    expect(placedBodies(fetchMock)).toEqual([expect.objectContaining({ funding: 'free_bet', stake: 10, legs: [expect.objectContaining({ outcome_id: '3', odds: 4.2 })] })]);
  });

  it.each([
    [1489, enErrors['1489']],
    [506, enErrors['506']],
  ])('shows the refusal %i in words', async (code, text) => {
    renderSlip(
      { '/api/user/free-bets': ok([freeBet]), 'POST /api/sportsbook/bets': { status: code, result: null, error_message: 'refused' } },
      { freeBetBalance: 10 },
    );
    fireEvent.click((await screen.findAllByTestId('odds'))[2]!);
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.click(await screen.findByTestId('funding-free_bet'));
    fireEvent.click((await screen.findAllByTestId('free-bet-choice'))[0]!);
    fireEvent.click(screen.getByTestId('place-bet'));
    expect((await screen.findByTestId('slip-error')).textContent).toBe(text);
  });

  it('is not offered without a free-bet balance, nor a bonus without a sport bonus', async () => {
    const fetchMock = renderSlip({ '/api/user/bonuses': ok([{ ...sportBonus, product: 'casino' }]) }, { freeBetBalance: 0, bonusBalance: 50 });
    fireEvent.click((await screen.findAllByTestId('odds'))[0]!);
    fireEvent.click(screen.getByTestId('slip-bar'));
    await screen.findByTestId('stake');
    await act(async () => {});
    expect(screen.queryByTestId('funding')).toBeNull();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/api/user/free-bets'))).toBe(false);
  });
});

describe('a bonus bet in the slip', () => {
  it('marks each selection below 1.80 and places from the bonus balance once every one is above', async () => {
    const fetchMock = renderSlip(
      { '/api/user/bonuses': ok([sportBonus]), 'POST /api/sportsbook/bets': ok(placed({ funding: 'bonus', kind: 'express', stake: 5 })) },
      { bonusBalance: 20 },
    );
    const odds = await screen.findAllByTestId('odds');
    fireEvent.click(odds[0]!); // e1 Home 1.85
    fireEvent.click(odds[3]!); // e2 Home 1.50
    fireEvent.click(screen.getByTestId('slip-bar'));
    fireEvent.click(await screen.findByTestId('funding-bonus'));
    expect(screen.getByTestId('bonus-rules').textContent).toContain('1.80');
    fireEvent.change(screen.getByTestId('stake'), { target: { value: '5' } });
    expect(screen.getByTestId('funding-block').dataset.reason).toBe('bonusOdds');
    const legs = screen.getAllByTestId('slip-leg');
    expect(within(legs[0]!).queryByTestId('leg-below-bonus')).toBeNull();
    expect(within(legs[1]!).getByTestId('leg-below-bonus').textContent).toContain('1.80');
    expect((screen.getByTestId('place-bet') as HTMLButtonElement).disabled).toBe(true);
    // e2 Draw 3.10 instead.
    fireEvent.click(screen.getAllByTestId('odds')[4]!);
    expect(screen.queryByTestId('funding-block')).toBeNull();
    // More than the bonus balance is said too.
    fireEvent.change(screen.getByTestId('stake'), { target: { value: '25' } });
    expect(screen.getByTestId('funding-block').dataset.reason).toBe('bonusShort');
    fireEvent.change(screen.getByTestId('stake'), { target: { value: '5' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('place-bet'));
    });
    await screen.findByTestId('bet-placed');
    expect(placedBodies(fetchMock)).toEqual([expect.objectContaining({ funding: 'bonus', kind: 'express', stake: 5 })]);
  });
});
