/**
 * A coupon draw recomputed in the browser (the same algorithm as
 * crates/promotions/src/coupons.rs `draw`):
 *
 *   ticket(number) = HMAC-SHA256(key = seed bytes, "coupon:{number}")
 *   winners        = the `winnersCount` numbers with the smallest tickets (bytes compared in order,
 *                    then the number), best first
 *
 * and the commitment: SHA-256(seed bytes) is the hash published when the draw was announced.
 */
import { fromHex, sha256Hex, toHex } from '../jackpots/fair';

const enc = new TextEncoder();

/** The winning numbers of a draw with this seed, best ticket first. */
export async function couponWinners(seed: Uint8Array, numbers: readonly string[], winners: number): Promise<string[]> {
  const key = await crypto.subtle.importKey('raw', seed as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const tickets = await Promise.all(
    numbers.map(async (n) => ({ n, ticket: toHex(await crypto.subtle.sign('HMAC', key, enc.encode(`coupon:${n}`))) })),
  );
  // Lower-case hex of equal length sorts as the bytes do.
  tickets.sort((a, b) => (a.ticket < b.ticket ? -1 : a.ticket > b.ticket ? 1 : a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  return tickets.slice(0, Math.max(0, winners)).map((t) => t.n);
}

export interface DrawToVerify {
  seedHash: string;
  seed?: string | null;
  winnersCount: number;
  coupons?: string[] | null;
  winners?: string[] | null;
}

/**
 * `true` when the revealed seed hashes to the published hash and gives exactly the published
 * winners from the published coupons; `false` otherwise (or when the draw has not happened).
 */
export async function verifyCouponDraw(d: DrawToVerify): Promise<boolean> {
  const seed = d.seed ? fromHex(d.seed) : null;
  if (!seed || !d.coupons || !d.winners) return false;
  if ((await sha256Hex(seed)) !== d.seedHash.trim().toLowerCase()) return false;
  const again = await couponWinners(seed, d.coupons, d.winnersCount);
  return again.length === d.winners.length && again.every((n, i) => n === d.winners![i]);
}
