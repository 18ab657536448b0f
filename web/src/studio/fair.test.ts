// @vitest-environment node
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  OutcomeStream,
  bytesToHex,
  chainDistance,
  commitmentMatches,
  crashMultiplierAt,
  crashPoint,
  crashTimeOf,
  diceRoll,
  hexToBytes,
  previousHash,
  rouletteNumber,
  seedCommitment,
  slotStops,
} from './fair';

const SERVER_SEED = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const CLIENT_SEED = 'lucky-carthage';

// --- an independent reference implementation with Node's crypto, written from the rules in fair.ts ---
function refWords(serverSeed: string, clientSeed: string, nonce: number) {
  let cursor = 0;
  let buf = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + 4 > buf.length) {
      buf = createHmac('sha256', Buffer.from(serverSeed, 'hex')).update(`${clientSeed}:${nonce}:${cursor}`).digest();
      cursor += 1;
      offset = 0;
    }
    const w = buf.readUInt32BE(offset);
    offset += 4;
    return w;
  };
}
function refBelow(next: () => number, n: number) {
  const limit = Math.floor(2 ** 32 / n) * n;
  for (;;) {
    const w = next();
    if (w < limit) return w % n;
  }
}
function refCrash(hash: string, salt: string) {
  const mac = createHmac('sha256', Buffer.from(hash, 'hex')).update(salt).digest('hex');
  const x = BigInt(`0x${mac.slice(0, 13)}`);
  const p = (99n * 2n ** 52n) / (2n ** 52n - x);
  return Number(p < 100n ? 100n : p);
}

describe('hex and hashes', () => {
  it('round-trips hex', () => {
    expect(bytesToHex(hexToBytes('00ff10Ab'))).toBe('00ff10ab');
    expect(() => hexToBytes('abc')).toThrow();
    expect(() => hexToBytes('zz')).toThrow();
  });

  it('commits to SHA256 of the raw seed bytes, not of its hex text', async () => {
    const expected = createHash('sha256').update(Buffer.from(SERVER_SEED, 'hex')).digest('hex');
    expect(await seedCommitment(SERVER_SEED)).toBe(expected);
    expect(await commitmentMatches(SERVER_SEED, expected.toUpperCase())).toBe(true);
    const ofText = createHash('sha256').update(SERVER_SEED).digest('hex');
    expect(await commitmentMatches(SERVER_SEED, ofText)).toBe(false);
  });
});

describe('outcome stream', () => {
  it('reads big-endian words from HMAC blocks, cursor after cursor', async () => {
    const s = new OutcomeStream(SERVER_SEED, CLIENT_SEED, 7);
    const ref = refWords(SERVER_SEED, CLIENT_SEED, 7);
    // 20 words: two and a half blocks.
    for (let i = 0; i < 20; i += 1) expect(await s.word()).toBe(ref());
  });

  it('first word of a known block', async () => {
    const block = createHmac('sha256', Buffer.from(SERVER_SEED, 'hex')).update(`${CLIENT_SEED}:0:0`).digest();
    expect(await new OutcomeStream(SERVER_SEED, CLIENT_SEED, 0).word()).toBe(block.readUInt32BE(0));
  });

  it('below(n) matches the reference over many nonces and sizes', async () => {
    for (let nonce = 0; nonce < 40; nonce += 1) {
      for (const n of [1, 2, 3, 37, 10001, 2 ** 31 + 1]) {
        const ref = refWords(SERVER_SEED, CLIENT_SEED, nonce);
        const s = new OutcomeStream(SERVER_SEED, CLIENT_SEED, nonce);
        const got = await s.below(n);
        expect(got).toBe(refBelow(ref, n));
        expect(got).toBeGreaterThanOrEqual(0);
        expect(got).toBeLessThan(n);
      }
    }
  });

  it('rejects words at or above the largest multiple of n (no modulo bias)', async () => {
    // n = 2^31 + 1: limit = 2^31 + 1, so about half the words are rejected; some nonce must show it.
    const n = 2 ** 31 + 1;
    let rejected = 0;
    for (let nonce = 0; nonce < 16; nonce += 1) {
      const ref = refWords(SERVER_SEED, CLIENT_SEED, nonce);
      if (ref() >= n) rejected += 1;
      const got = await new OutcomeStream(SERVER_SEED, CLIENT_SEED, nonce).below(n);
      expect(got).toBe(refBelow(refWords(SERVER_SEED, CLIENT_SEED, nonce), n));
    }
    expect(rejected).toBeGreaterThan(0);
  });
});

describe('games', () => {
  const seed = { serverSeed: SERVER_SEED, clientSeed: CLIENT_SEED, nonce: 3 };

  it('roulette and dice draw one number from the stream', async () => {
    expect(await rouletteNumber(seed)).toBe(refBelow(refWords(SERVER_SEED, CLIENT_SEED, 3), 37));
    expect(await diceRoll(seed)).toBe(refBelow(refWords(SERVER_SEED, CLIENT_SEED, 3), 10001));
  });

  it('slot stops: reel order, feature spins continue the stream', async () => {
    const spins = [
      [32, 32, 32, 32, 32],
      [30, 30, 30, 30, 30],
      [30, 30, 30, 30, 30],
    ];
    const ref = refWords(SERVER_SEED, CLIENT_SEED, 3);
    const expected = spins.map((lens) => lens.map((n) => refBelow(ref, n)));
    expect(await slotStops(seed, spins)).toEqual(expected);
  });

  it('the same inputs give the same outcome; another nonce another stream', async () => {
    const a = await slotStops(seed, [[1000, 1000, 1000]]);
    expect(await slotStops(seed, [[1000, 1000, 1000]])).toEqual(a);
    expect(await slotStops({ ...seed, nonce: 4 }, [[1000, 1000, 1000]])).not.toEqual(a);
  });
});

describe('crash', () => {
  it('crash point matches the reference for a chain of hashes', async () => {
    let h = createHash('sha256').update('carthage terminating').digest('hex');
    for (let i = 0; i < 50; i += 1) {
      const p = await crashPoint(h, 'salt-0001');
      expect(p).toBe(refCrash(h, 'salt-0001'));
      expect(p).toBeGreaterThanOrEqual(100);
      h = createHash('sha256').update(Buffer.from(h, 'hex')).digest('hex');
    }
  });

  it('edge values of X: 0 gives 1.00x, half gives 1.98x', async () => {
    // Find hashes whose HMAC starts with specific bits is impractical; check the formula via BigInt directly.
    const f = (x: bigint) => {
      const p = (99n * 2n ** 52n) / (2n ** 52n - x);
      return p < 100n ? 100n : p;
    };
    expect(f(0n)).toBe(100n);
    expect(f(2n ** 51n)).toBe(198n);
  });

  it('chain: SHA256(hash of round r) is the hash of round r - 1', async () => {
    // The server generates the chain backwards from a secret: hash_{k+1} = SHA256(hash_k); the last one is
    // published as the terminating hash and rounds are played in reverse generation order.
    let h = createHash('sha256').update('seed').digest('hex');
    const hashes = [h];
    for (let i = 0; i < 5; i += 1) {
      h = createHash('sha256').update(Buffer.from(h, 'hex')).digest('hex');
      hashes.push(h);
    }
    const terminating = createHash('sha256').update('elsewhere').digest('hex');
    expect(await previousHash(hashes[0]!)).toBe(hashes[1]);
    expect(await chainDistance(hashes[0]!, hashes[5]!)).toBe(5);
    expect(await chainDistance(hashes[0]!, terminating, 20)).toBeNull();
  });

  it('curve: floor(100·e^(0.00006 t)) and its inverse', () => {
    expect(crashMultiplierAt(0)).toBe(100);
    expect(crashMultiplierAt(-50)).toBe(100);
    expect(crashMultiplierAt(10_000)).toBe(Math.floor(100 * Math.exp(0.6)));
    const t = crashTimeOf(237);
    expect(crashMultiplierAt(t + 1)).toBeGreaterThanOrEqual(237);
    expect(crashMultiplierAt(t - 5)).toBeLessThan(237);
  });
});

// Published vectors of docs/FAIRNESS.md (the ```vectors block), once the document exists.
const fairnessDoc = fileURLToPath(new URL('../../../docs/FAIRNESS.md', import.meta.url));
describe.skipIf(!existsSync(fairnessDoc))('docs/FAIRNESS.md vectors', () => {
  const vectors = () => {
    const text = readFileSync(fairnessDoc, 'utf8');
    const block = /```vectors\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
    const v = new Map<string, string>();
    for (const line of block.split('\n')) {
      const m = /^([\w.]+)\s*=\s*(.*)$/.exec(line.trim());
      if (m) v.set(m[1]!, m[2]!.trim());
    }
    return (k: string) => {
      const x = v.get(k);
      if (x === undefined) throw new Error(`FAIRNESS.md has no vector ${k}`);
      return x;
    };
  };

  it('seed commitment, blocks, words, roulette, dice and Neon Fruits stops', async () => {
    const v = vectors();
    const serverSeed = v('server_seed');
    const clientSeed = v('client_seed');
    expect(await seedCommitment(serverSeed)).toBe(v('server_seed_sha256'));
    for (const nonce of [0, 1, 2]) {
      const { hmacSha256 } = await import('./fair');
      expect(v(`nonce${nonce}.message0`)).toBe(`${clientSeed}:${nonce}:0`);
      expect(bytesToHex(await hmacSha256(hexToBytes(serverSeed), `${clientSeed}:${nonce}:0`))).toBe(v(`nonce${nonce}.block0`));
      const s = new OutcomeStream(serverSeed, clientSeed, nonce);
      const words = [await s.word(), await s.word(), await s.word()];
      expect(words.join(',')).toBe(v(`nonce${nonce}.words`));
      const seed = { serverSeed, clientSeed, nonce };
      expect(String(await rouletteNumber(seed))).toBe(v(`nonce${nonce}.roulette`));
      expect(String(await diceRoll(seed))).toBe(v(`nonce${nonce}.dice_roll`));
      const [stops] = await slotStops(seed, [[26, 26, 26, 21, 29]]);
      expect(stops!.join(',')).toBe(v(`nonce${nonce}.neon_fruits_stops`));
    }
    expect(String(Math.floor(2 ** 32 / 37) * 37)).toBe(v('below37_limit'));
    expect(String(Math.floor(2 ** 32 / 10001) * 10001)).toBe(v('below10001_limit'));
  });

  it('dice returns', async () => {
    const v = vectors();
    const { diceReturn } = await import('./games/diceMath');
    expect(String(diceReturn(1000, 5000, true))).toBe(v('dice.over5000.amount1000.returned'));
    expect(String(diceReturn(1000, 100, false))).toBe(v('dice.under100.amount1000.returned'));
  });

  it('crash point, chain and curve', async () => {
    const v = vectors();
    expect(String(await crashPoint(v('crash.hash'), v('crash.salt')))).toBe(v('crash.point'));
    for (const k of [0, 1, 2]) expect(await previousHash(v(`chain.c${k}`))).toBe(v(`chain.c${k + 1}`));
    expect(v('chain.terminating')).toBe(v('chain.c3'));
    // Round r uses c_{N-r}: round 1 → c2, round 2 → c1, round 3 → c0.
    for (const r of [1, 2, 3]) {
      expect(String(await crashPoint(v(`chain.c${3 - r}`), v('crash.salt')))).toBe(v(`chain.round${r}.point`));
    }
    expect(await chainDistance(v('chain.c0'), v('chain.terminating'))).toBe(3);
    for (const ms of [0, 1000, 5000, 11553, 30000, 60000]) expect(String(crashMultiplierAt(ms))).toBe(v(`curve.ms${ms}`));
    for (const m of [101, 200, 1000, 10000]) {
      const t = Number(v(`curve.time_to_reach${m}`));
      expect(crashMultiplierAt(t)).toBeGreaterThanOrEqual(m);
      expect(crashMultiplierAt(t - 1)).toBeLessThan(m);
      expect(Math.ceil(crashTimeOf(m))).toBe(t);
    }
  });
});

describe('slot rounds with a feature', () => {
  it('base stops, then feature stops and a weighted multiplier per spin, one stream', async () => {
    const seed = { serverSeed: SERVER_SEED, clientSeed: CLIENT_SEED, nonce: 11 };
    const base = [30, 31, 32, 33, 34];
    const feat = [20, 21, 22, 23, 24];
    const mults = [
      { value: 1, weight: 60 },
      { value: 2, weight: 25 },
      { value: 5, weight: 15 },
    ];
    const ref = refWords(SERVER_SEED, CLIENT_SEED, 11);
    const stops = base.map((n) => refBelow(ref, n));
    const feature = [0, 1, 2].map(() => {
      const fs = feat.map((n) => refBelow(ref, n));
      const d = refBelow(ref, 100);
      const multiplier = d < 60 ? 1 : d < 85 ? 2 : 5;
      return { stops: fs, multiplier };
    });
    const { slotRoundDraws } = await import('./fair');
    expect(await slotRoundDraws(seed, base, feat, 3, mults)).toEqual({ stops, feature });
    // One multiplier: no draw for it.
    const ref2 = refWords(SERVER_SEED, CLIENT_SEED, 11);
    const stops2 = base.map((n) => refBelow(ref2, n));
    const f2 = [feat.map((n) => refBelow(ref2, n)), feat.map((n) => refBelow(ref2, n))];
    expect(await slotRoundDraws(seed, base, feat, 2, [{ value: 3, weight: 1 }])).toEqual({
      stops: stops2,
      feature: f2.map((s) => ({ stops: s, multiplier: 3 })),
    });
  });
});
