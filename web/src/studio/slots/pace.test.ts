import { afterEach, describe, expect, it } from 'vitest';
import {
  autoCounts,
  DEFAULT_PLAY_RULES,
  LANDING,
  landingPlan,
  planValid,
  playRules,
  readTurbo,
  stopAfterRound,
  stopBeforeSpin,
  turboKey,
  writeTurbo,
  type AutoPlan,
} from './pace';

const plan: AutoPlan = { count: 10, bet: 100, lossLimit: 500, winLimit: null, stopOnFeature: true };

describe('play rules', () => {
  it('defaults in one place; what the server sends overrides them, malformed values do not', () => {
    expect(playRules(undefined)).toEqual(DEFAULT_PLAY_RULES);
    expect(playRules({ turbo: false, minSpinMs: 2500 })).toEqual({ ...DEFAULT_PLAY_RULES, turbo: false, minSpinMs: 2500 });
    expect(playRules({ maxAutoSpins: -3, minSpinMs: Number.NaN, autoplay: 'no' as unknown as boolean })).toEqual(DEFAULT_PLAY_RULES);
    expect(playRules({ maxAutoSpins: 0 }).autoplay).toBe(false);
  });

  it('offers only the run sizes the rules allow, none without autoplay', () => {
    expect(autoCounts(DEFAULT_PLAY_RULES)).toEqual([10, 25, 50, 100]);
    expect(autoCounts(playRules({ maxAutoSpins: 50 }))).toEqual([10, 25, 50]);
    expect(autoCounts(playRules({ maxAutoSpins: 5 }))).toEqual([5]);
    expect(autoCounts(playRules({ autoplay: false }))).toEqual([]);
  });

  it('a plan needs a loss limit of at least one bet and a count within the rules', () => {
    expect(planValid(plan, DEFAULT_PLAY_RULES)).toBe(true);
    expect(planValid({ ...plan, lossLimit: 0 }, DEFAULT_PLAY_RULES)).toBe(false);
    expect(planValid({ ...plan, lossLimit: 99 }, DEFAULT_PLAY_RULES)).toBe(false);
    expect(planValid({ ...plan, count: 101 }, DEFAULT_PLAY_RULES)).toBe(false);
    expect(planValid({ ...plan, count: 25 }, playRules({ maxAutoSpins: 10 }))).toBe(false);
    expect(planValid(plan, playRules({ autoplay: false }))).toBe(false);
  });
});

describe('auto-spin limits', () => {
  it('stops at its count', () => {
    expect(stopBeforeSpin(plan, { played: 9, staked: 900, won: 900 }, 10_000)).toBeNull();
    expect(stopBeforeSpin(plan, { played: 10, staked: 1000, won: 1000 }, 10_000)).toBe('count');
  });

  it('never starts a spin that could take the net loss past the limit', () => {
    // net loss 400 + bet 100 = 500: allowed; 401 + 100 > 500: stop.
    expect(stopBeforeSpin(plan, { played: 4, staked: 400, won: 0 }, 10_000)).toBeNull();
    expect(stopBeforeSpin(plan, { played: 5, staked: 500, won: 99 }, 10_000)).toBe('loss');
    // Wins count against the loss.
    expect(stopBeforeSpin(plan, { played: 8, staked: 800, won: 600 }, 10_000)).toBeNull();
  });

  it('stops when the balance cannot cover the bet', () => {
    expect(stopBeforeSpin(plan, { played: 0, staked: 0, won: 0 }, 99)).toBe('balance');
  });

  it('stops after a feature when asked, and on a single win at the limit', () => {
    expect(stopAfterRound(plan, 0, true)).toBe('feature');
    expect(stopAfterRound({ ...plan, stopOnFeature: false }, 0, true)).toBeNull();
    expect(stopAfterRound({ ...plan, winLimit: 1000 }, 999, false)).toBeNull();
    expect(stopAfterRound({ ...plan, winLimit: 1000 }, 1000, false)).toBe('win');
  });
});

describe('landing plan', () => {
  it('staggers the reels by the pace, turbo under half a second, tap-to-stop shorter still', () => {
    expect(landingPlan('normal', 5, 0, 0)).toEqual([650, 840, 1030, 1220, 1410]);
    expect(Math.max(...landingPlan('turbo', 5, 0, 0))).toBeLessThanOrEqual(500);
    expect(Math.max(...landingPlan('stop', 5, 0, 0))).toBeLessThanOrEqual(300);
    expect(LANDING.stop.base).toBeLessThan(LANDING.turbo.base);
  });

  it('stretches every reel so the last rests no sooner than the minimum spin time', () => {
    // Spin started at 0 with minSpinMs 2500; the result lands at 1000 in turbo (last reel 400 ms): every reel waits 1100 ms more.
    expect(landingPlan('turbo', 5, 1000, 2500)).toEqual([1320, 1365, 1410, 1455, 1500]);
    // Already past the minimum: unchanged.
    expect(landingPlan('stop', 3, 3000, 2500)).toEqual([170, 195, 220]);
  });
});

describe('turbo choice', () => {
  afterEach(() => localStorage.clear());
  it('is remembered per player', () => {
    expect(readTurbo(7)).toBe(false);
    writeTurbo(7, true);
    expect(readTurbo(7)).toBe(true);
    expect(readTurbo(8)).toBe(false);
    expect(localStorage.getItem(turboKey(7))).toBe('1');
    writeTurbo(7, false);
    expect(readTurbo(7)).toBe(false);
  });
});
