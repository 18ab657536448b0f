/**
 * Provably-fair verification maths (docs/FAIRNESS.md), pure and browser-side (WebCrypto).
 *
 * Outcome bytes: HMAC_SHA256(key = server seed as its raw 32 bytes, message = `${clientSeed}:${nonce}:${cursor}`)
 * for cursor 0, 1, …, concatenated. Words: successive 4-byte big-endian slices. A number in [0, n): the
 * first word w with w < floor(2^32 / n) * n, taken mod n (rejection sampling, no modulo bias).
 * Commitment: SHA256(raw server seed bytes). Crash: X = first 52 bits of HMAC_SHA256(key = round hash raw
 * bytes, message = salt); crash point (hundredths) = max(100, floor(99 * 2^52 / (2^52 - X))); chain:
 * SHA256(hash of round r) = hash of round r - 1.
 */

const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const c = globalThis.crypto?.subtle;
  if (!c) throw new Error('WebCrypto is not available (a secure context is needed)');
  return c;
}

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const clean = hex.trim().toLowerCase();
  if (clean.length % 2 !== 0 || !/^[0-9a-f]*$/.test(clean)) throw new Error('not a hex string');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = Number.parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

export const isHex64 = (s: string) => /^[0-9a-fA-F]{64}$/.test(s.trim());

export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await subtle().digest('SHA-256', bytes));
}

export async function hmacSha256(key: Uint8Array<ArrayBuffer>, message: string | Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const k = await subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const data = typeof message === 'string' ? encoder.encode(message) : message;
  return new Uint8Array(await subtle().sign('HMAC', k, data));
}

/** SHA256 of the raw server seed bytes, hex: what the server committed to before the rounds. */
export async function seedCommitment(serverSeedHex: string): Promise<string> {
  return bytesToHex(await sha256(hexToBytes(serverSeedHex)));
}

export async function commitmentMatches(serverSeedHex: string, serverSeedHash: string): Promise<boolean> {
  return (await seedCommitment(serverSeedHex)) === serverSeedHash.trim().toLowerCase();
}

/** The outcome words of one round (serverSeed, clientSeed, nonce), drawn lazily block by block. */
export class OutcomeStream {
  private readonly key: Uint8Array<ArrayBuffer>;
  private block: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private cursor = 0;

  constructor(
    serverSeedHex: string,
    private readonly clientSeed: string,
    private readonly nonce: number,
  ) {
    this.key = hexToBytes(serverSeedHex);
  }

  /** The next 32-bit big-endian word. */
  async word(): Promise<number> {
    if (this.offset + 4 > this.block.length) {
      this.block = await hmacSha256(this.key, `${this.clientSeed}:${this.nonce}:${this.cursor}`);
      this.cursor += 1;
      this.offset = 0;
    }
    const b = this.block;
    const o = this.offset;
    this.offset += 4;
    return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
  }

  /** A uniform integer in [0, n) by rejection sampling. */
  async below(n: number): Promise<number> {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new Error(`below(${n}): n out of range`);
    const limit = Math.floor(2 ** 32 / n) * n;
    for (;;) {
      const w = await this.word();
      if (w < limit) return w % n;
    }
  }
}

export interface RoundSeed {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
}

const stream = (s: RoundSeed) => new OutcomeStream(s.serverSeed, s.clientSeed, s.nonce);

/** European roulette: the pocket 0–36. */
export async function rouletteNumber(seed: RoundSeed): Promise<number> {
  return stream(seed).below(37);
}

/** Dice: the roll in hundredths, 0–10000 (0.00–100.00). */
export async function diceRoll(seed: RoundSeed): Promise<number> {
  return stream(seed).below(10001);
}

/**
 * Slots: the stop of every reel, reel by reel, for each spin of the round (the base spin, then every
 * feature spin, continuing the same stream). `spins[k]` lists the strip lengths of spin k's reels.
 */
export async function slotStops(seed: RoundSeed, spins: readonly (readonly number[])[]): Promise<number[][]> {
  const s = stream(seed);
  const out: number[][] = [];
  for (const lengths of spins) {
    const stops: number[] = [];
    for (const len of lengths) stops.push(await s.below(len));
    out.push(stops);
  }
  return out;
}

const TWO_52 = 2n ** 52n;

/** Crash point in hundredths from a round's hash and the published salt. */
export async function crashPoint(roundHashHex: string, salt: string): Promise<number> {
  const mac = await hmacSha256(hexToBytes(roundHashHex), salt);
  const x = BigInt(`0x${bytesToHex(mac).slice(0, 13)}`);
  const point = (99n * TWO_52) / (TWO_52 - x);
  return Number(point < 100n ? 100n : point);
}

/** The hash before `roundHashHex` in the chain: SHA256 of its raw bytes. */
export async function previousHash(roundHashHex: string): Promise<string> {
  return bytesToHex(await sha256(hexToBytes(roundHashHex)));
}

/**
 * Walks the chain from `roundHashHex` back (at most `maxSteps` hashes) until it meets `anchorHex` (a known
 * older round's hash or the published terminating hash). Returns the number of steps, or null.
 */
export async function chainDistance(roundHashHex: string, anchorHex: string, maxSteps = 10_000): Promise<number | null> {
  const target = anchorHex.trim().toLowerCase();
  let h = roundHashHex.trim().toLowerCase();
  for (let i = 1; i <= maxSteps; i += 1) {
    h = await previousHash(h);
    if (h === target) return i;
  }
  return null;
}

/** The crash multiplier (hundredths) at `elapsedMs` after the start: floor(100·e^(0.00006·t)). */
export function crashMultiplierAt(elapsedMs: number): number {
  return Math.floor(100 * Math.exp(0.00006 * Math.max(0, elapsedMs)));
}

/** Milliseconds after the start at which the curve reaches `m` hundredths (inverse of crashMultiplierAt). */
export function crashTimeOf(m: number): number {
  return Math.log(Math.max(100, m) / 100) / 0.00006;
}

/**
 * A whole slot round's draws: the base spin's stops (one per base reel), then for every feature spin
 * its stops on the feature reels followed, when the game lists several multipliers, by
 * `below(total weight)` picking the spin's multiplier by cumulative weight.
 */
export async function slotRoundDraws(
  seed: RoundSeed,
  baseLengths: readonly number[],
  featureLengths: readonly number[],
  featureSpins: number,
  multipliers: readonly { value: number; weight: number }[],
): Promise<{ stops: number[]; feature: { stops: number[]; multiplier: number }[] }> {
  const s = stream(seed);
  const stops: number[] = [];
  for (const len of baseLengths) stops.push(await s.below(len));
  const feature: { stops: number[]; multiplier: number }[] = [];
  const total = multipliers.reduce((a, m) => a + m.weight, 0);
  for (let k = 0; k < featureSpins; k += 1) {
    const fs: number[] = [];
    for (const len of featureLengths) fs.push(await s.below(len));
    let multiplier = multipliers[0]?.value ?? 1;
    if (multipliers.length > 1) {
      const draw = await s.below(total);
      let acc = 0;
      for (const m of multipliers) {
        acc += m.weight;
        if (draw < acc) {
          multiplier = m.value;
          break;
        }
      }
    }
    feature.push({ stops: fs, multiplier });
  }
  return { stops, feature };
}
