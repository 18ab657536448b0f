// @vitest-environment node
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backoffMs } from './games/crashSocket';
import { chanceBp, clampTarget, diceReturn, multiplierBp, targetBounds } from './games/diceMath';
import { PAYS, WHEEL_ORDER, colorOf, covers, insideSpots, returnOf, spotKey } from './games/rouletteModel';
import { pickMultiplier, slotLevels, windowAt } from './slots/model';
import { verifyRound } from './verify';
import type { SlotInfo } from './slots/model';

describe('roulette layout', () => {
  const spots = insideSpots();
  const count = (k: string) => spots.filter((s) => s.kind === k).length;

  it('has every inside bet of the European table exactly once', () => {
    expect(count('straight')).toBe(36); // zero is its own cell
    expect(count('split')).toBe(24 + 33 + 3); // horizontal, vertical, along the zero
    expect(count('street')).toBe(12);
    expect(count('corner')).toBe(22);
    expect(count('sixLine')).toBe(11);
    expect(count('trio')).toBe(2);
    expect(count('firstFour')).toBe(1);
    expect(new Set(spots.map((s) => s.key)).size).toBe(spots.length);
  });

  it('spots cover the numbers the server validates', () => {
    const byKey = new Map(spots.map((s) => [s.key, s]));
    expect(byKey.get(spotKey('corner', [1, 2, 4, 5]))).toBeTruthy();
    expect(byKey.get(spotKey('split', [17, 18]))).toBeTruthy();
    expect(byKey.get(spotKey('split', [3, 4]))).toBeUndefined(); // not adjacent on the table
    expect(byKey.get(spotKey('street', [34, 35, 36]))).toBeTruthy();
    expect(byKey.get(spotKey('sixLine', [31, 32, 33, 34, 35, 36]))).toBeTruthy();
    for (const s of spots) {
      const v = [...s.numbers].sort((a, b) => a - b);
      if (s.kind === 'corner') expect(v).toEqual([v[0], v[0]! + 1, v[0]! + 3, v[0]! + 4]);
      if (s.kind === 'street') expect(v[0]! % 3).toBe(1);
    }
  });

  it('colours, wheel and payouts', () => {
    expect(WHEEL_ORDER).toHaveLength(37);
    expect(new Set(WHEEL_ORDER).size).toBe(37);
    expect(colorOf(0)).toBe('green');
    expect(colorOf(32)).toBe('red');
    expect(colorOf(15)).toBe('black');
    expect(covers('dozen', [2], 13)).toBe(true);
    expect(covers('column', [1], 34)).toBe(true);
    expect(covers('red', [], 0)).toBe(false);
    expect(returnOf('straight', [17], 1000, 17)).toBe(36000);
    expect(returnOf('split', [17, 18], 1000, 18)).toBe(18000);
    expect(PAYS.sixLine).toBe(5);
  });
});

describe('dice maths (docs/FAIRNESS.md)', () => {
  it('multiplier, chance and return', () => {
    expect(multiplierBp(5000, true)).toBe(19801);
    expect(chanceBp(5000, true)).toBe(4999);
    expect(diceReturn(1000, 5000, true)).toBe(1980);
    expect(diceReturn(1000, 100, false)).toBe(99009);
  });
  it('target bounds per direction', () => {
    expect(targetBounds(true)).toEqual([200, 9900]);
    expect(targetBounds(false)).toEqual([100, 9800]);
    expect(clampTarget(50, false)).toBe(100);
    expect(clampTarget(9950, true)).toBe(9900);
  });
});

describe('slots model', () => {
  it('window wraps round the strip', () => {
    expect(windowAt([1, 2, 3, 4], 3)).toEqual([4, 1, 2]);
  });
  it('bet levels are multiples of the lines', () => {
    expect(slotLevels([100, 150, 200, 500], 20)).toEqual([100, 200, 500]);
  });
  it('multiplier by cumulative weight', () => {
    const m = [
      { value: 2, weight: 40 },
      { value: 3, weight: 30 },
      { value: 25, weight: 5 },
    ];
    expect(pickMultiplier(m, 0)).toBe(2);
    expect(pickMultiplier(m, 39)).toBe(2);
    expect(pickMultiplier(m, 40)).toBe(3);
    expect(pickMultiplier(m, 74)).toBe(25);
  });
});

describe('crash socket backoff', () => {
  it('doubles from 0.5 s up to 10 s, with ±20 % jitter', () => {
    expect(backoffMs(0, () => 0.5)).toBe(500);
    expect(backoffMs(1, () => 0.5)).toBe(1000);
    expect(backoffMs(10, () => 0.5)).toBe(10000);
    expect(backoffMs(3, () => 0)).toBe(3200);
    expect(backoffMs(3, () => 1)).toBe(4800);
  });
});

describe('verifyRound', () => {
  const serverSeed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const hash = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';
  const seed = { serverSeed, clientSeed: 'carthage', nonce: 0 };

  it('dice: matches the recorded roll and the commitment (FAIRNESS.md nonce 0 → 3101)', async () => {
    const ok = await verifyRound('dice', seed, { serverSeedHash: hash, outcome: { bet: {}, result: { roll: 3101 } } });
    expect(ok.ok).toBe(true);
    expect(ok.commitment).toBe(true);
    const bad = await verifyRound('dice', seed, { serverSeedHash: hash, outcome: { result: { roll: 3102 } } });
    expect(bad.ok).toBe(false);
    const wrongHash = await verifyRound('dice', seed, { serverSeedHash: 'ab'.repeat(32), outcome: { result: { roll: 3101 } } });
    expect(wrongHash.ok).toBe(false);
  });

  it('roulette: FAIRNESS.md nonce 0 → 22', async () => {
    expect((await verifyRound('roulette', seed, { outcome: { result: { number: 22 } } })).ok).toBe(true);
  });

  it('slots: base stops then feature stops and multiplier draws', async () => {
    const strip = (n: number) => Array.from({ length: n }, (_, i) => i % 5);
    const info = {
      baseReels: [26, 26, 26, 21, 29].map(strip),
      featureReels: [20, 20, 20, 20, 20].map(strip),
      feature: { multipliers: [{ value: 2, weight: 40 }, { value: 3, weight: 60 }] },
    } as unknown as SlotInfo;
    // Reference draws with Node's crypto.
    let cursor = 0;
    let buf = Buffer.alloc(0);
    let off = 0;
    const word = () => {
      if (off + 4 > buf.length) {
        buf = createHmac('sha256', Buffer.from(serverSeed, 'hex')).update(`carthage:0:${cursor}`).digest();
        cursor += 1;
        off = 0;
      }
      off += 4;
      return buf.readUInt32BE(off - 4);
    };
    const below = (n: number) => {
      const limit = Math.floor(2 ** 32 / n) * n;
      for (;;) {
        const w = word();
        if (w < limit) return w % n;
      }
    };
    const stops = [26, 26, 26, 21, 29].map(below);
    expect(stops).toEqual([1, 4, 3, 3, 27]); // FAIRNESS.md nonce0.neon_fruits_stops
    const fs = [20, 20, 20, 20, 20].map(below);
    const multiplier = below(100) < 40 ? 2 : 3;
    const outcome = { stops, feature: { spins: [{ stops: fs, multiplier }] } };
    const res = await verifyRound('slot', seed, { serverSeedHash: hash, outcome, slotInfo: info });
    expect(res.rows.map((r) => r.label)).toEqual(['stops', 'featureStops', 'multiplier']);
    expect(res.ok).toBe(true);
    const tampered = await verifyRound('slot', seed, { outcome: { ...outcome, stops: [0, 0, 0, 0, 0] }, slotInfo: info });
    expect(tampered.ok).toBe(false);
  });
});
