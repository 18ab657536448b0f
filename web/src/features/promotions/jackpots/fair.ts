/**
 * The provably fair must-drop point, recomputed in the browser (the same algorithm as
 * crates/promotions/src/fair.rs over crates/studio/src/fair.rs `FairDraws`):
 *
 *   block i = HMAC-SHA256(key = server seed bytes, "jackpot:{pool}:{cycle}:{i}")
 *   words   = successive 4-byte big-endian slices of blocks 0, 1, 2, …
 *   x       = (w0 << 32) | w1; accepted when x < floor((2^64 − 1) / range) × range, else the next two words
 *   drop    = seed + 1 + x mod range, range = cap − seed (minor units)
 *
 * and the commitment: SHA-256(seed bytes) is the hash published when the cycle began.
 */

const enc = new TextEncoder();
const U64_MAX = (1n << 64n) - 1n;

/** Bytes of a hex string; null when it is not hex of even length. */
export function fromHex(hex: string): Uint8Array | null {
  const h = hex.trim().toLowerCase();
  if (h.length === 0 || h.length % 2 !== 0 || !/^[0-9a-f]+$/.test(h)) return null;
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export const toHex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
}

/** The drop point (minor units) of `pool`'s cycle `cycle`, uniform in (seed, cap]. */
export async function dropPoint(seed: Uint8Array, pool: string, cycle: number | bigint, seedAmount: bigint, cap: bigint): Promise<bigint> {
  if (cap <= seedAmount) throw new RangeError('a pool’s cap must be above its seed amount');
  const key = await crypto.subtle.importKey('raw', seed as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const range = cap - seedAmount;
  const limit = (U64_MAX / range) * range;
  const words: number[] = [];
  let block = 0;
  const next = async () => {
    if (words.length === 0) {
      const mac = new DataView(await crypto.subtle.sign('HMAC', key, enc.encode(`jackpot:${pool}:${cycle}:${block}`)));
      block += 1;
      for (let i = 0; i < 32; i += 4) words.push(mac.getUint32(i, false));
    }
    return BigInt(words.shift() as number);
  };
  for (;;) {
    const x = ((await next()) << 32n) | (await next());
    if (x < limit) return seedAmount + 1n + (x % range);
  }
}

/** Major units as the API sends them → exact minor units (the currency's exponent). */
export function toMinor(major: number, exponent: number): bigint {
  const [int, frac = ''] = Math.abs(major).toFixed(exponent).split('.');
  const v = BigInt(int + frac.padEnd(exponent, '0'));
  return major < 0 ? -v : v;
}

export type Verdict = { ok: boolean; hashOk: boolean; dropOk: boolean; computed: bigint | null };

/**
 * Checks a revealed drop: the seed's SHA-256 is the published hash, and the drop point
 * recomputed from (seed, pool, cycle, seed amount, cap) is the one the server announced.
 */
export async function verifyDrop(d: {
  serverSeed: string;
  seedHash: string;
  pool: string;
  cycle: number;
  seedAmount: bigint;
  cap: bigint;
  dropPoint: bigint;
}): Promise<Verdict> {
  const seed = fromHex(d.serverSeed);
  if (!seed) return { ok: false, hashOk: false, dropOk: false, computed: null };
  const hashOk = (await sha256Hex(seed)) === d.seedHash.trim().toLowerCase();
  let computed: bigint | null = null;
  try {
    computed = await dropPoint(seed, d.pool, d.cycle, d.seedAmount, d.cap);
  } catch {
    computed = null;
  }
  const dropOk = computed !== null && computed === d.dropPoint;
  return { ok: hashOk && dropOk, hashOk, dropOk, computed };
}
