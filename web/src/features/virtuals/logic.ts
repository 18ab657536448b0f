/**
 * The pure part of the virtual races screens (docs/VIRTUALS.md): prices, stakes and wins in
 * exact integers, the bet slip's selection, countdowns on the server's clock, and the race
 * animation's positions — deterministic, so a reload mid-race draws the same race and the
 * runners cross the line in the published finishing order.
 */

export type SportId = 'horses' | 'greyhounds' | 'speedway';
export type BetKind = 'win' | 'place' | 'forecast';

/** The lobby's order (the Golden Race whitelist's: horses, dogs, …, speedway). */
export const SPORTS: readonly SportId[] = ['horses', 'greyhounds', 'speedway'];

export const isSport = (s: string | undefined): s is SportId => SPORTS.includes(s as SportId);

/** A price as the API gives it (a two-decimal JSON number) in hundredths, read from its text. */
export function priceHundredths(price: number | null | undefined): number | null {
  if (price === null || price === undefined || !Number.isFinite(price)) return null;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(price));
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Hundredths as a price text: 347 → "3.47" (the app shows prices with a point in every language). */
export function formatPrice(hundredths: number): string {
  const int = Math.floor(hundredths / 100);
  const frac = String(hundredths % 100).padStart(2, '0');
  return `${int}.${frac}`;
}

/** What a bet returns if it wins: floor(stake × price) in minor units, exactly as the server pays. */
export function potentialWin(stakeMinor: bigint, priceH: number): bigint {
  return (stakeMinor * BigInt(priceH)) / 100n;
}

/**
 * A stake typed by the player ("2", "2.5", "2,500") in minor units of a currency with `exponent`
 * decimals; null when it is not an amount or has more decimals than the currency.
 */
export function parseStake(text: string, exponent: number): bigint | null {
  const t = text.trim().replace(',', '.');
  const m = /^(\d{1,9})(?:\.(\d*))?$/.exec(t);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > exponent) return null;
  return BigInt(m[1]!) * 10n ** BigInt(exponent) + BigInt(frac.padEnd(exponent, '0') || '0');
}

/** Minor units as the text a stake field shows ("2.500" → "2.5"; no grouping). */
export function stakeText(minor: bigint, exponent: number): string {
  const s = minor.toString().padStart(exponent + 1, '0');
  if (exponent === 0) return s;
  const int = s.slice(0, s.length - exponent);
  const frac = s.slice(s.length - exponent).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** Quick stakes between the limits: 1, 2, 5, 10 … times the minimum, at most four. */
export function stakePresets(min: bigint, max: bigint): bigint[] {
  const out: bigint[] = [];
  for (const m of [10n, 20n, 50n, 100n, 200n, 500n, 1000n]) {
    const v = min * m;
    if (v <= max) out.push(v);
    if (out.length === 4) break;
  }
  return out;
}

/** What the slip holds. A forecast is built by picking the first, then the second runner. */
export interface Pick {
  raceId: number;
  kind: BetKind;
  runners: number[];
}

/**
 * The slip after tapping a runner's button of `kind`: a win or place pick replaces the slip; a
 * forecast tap adds the runner as first, then second (a third tap starts over, tapping the
 * chosen first again removes it).
 */
export function toggle(pick: Pick | null, raceId: number, kind: BetKind, runner: number): Pick | null {
  if (kind !== 'forecast') {
    if (pick && pick.raceId === raceId && pick.kind === kind && pick.runners[0] === runner) return null;
    return { raceId, kind, runners: [runner] };
  }
  if (!pick || pick.raceId !== raceId || pick.kind !== 'forecast' || pick.runners.length === 2) {
    return { raceId, kind, runners: [runner] };
  }
  if (pick.runners[0] === runner) return null;
  return { raceId, kind, runners: [pick.runners[0]!, runner] };
}

/** A pick is ready to bet: one runner for win and place, two for a forecast. */
export const complete = (p: Pick | null): p is Pick => !!p && p.runners.length === (p.kind === 'forecast' ? 2 : 1);

export interface PricedRunner {
  number: number;
  win?: number | null;
  place?: number | null;
}

/** The pick's price in hundredths from the race's prices (null: not offered or incomplete). */
export function pickPrice(pick: Pick, runners: PricedRunner[], forecast: (number | null)[][]): number | null {
  if (!complete(pick)) return null;
  const [a, b] = pick.runners;
  if (pick.kind === 'forecast') return priceHundredths(forecast[a! - 1]?.[b! - 1]);
  const r = runners.find((x) => x.number === a);
  return priceHundredths(pick.kind === 'win' ? r?.win : r?.place);
}

/** "mm:ss" (or "h:mm:ss") of a duration in ms, never negative. */
export function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h > 0 ? `${h}:` : ''}${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** A race's close time as "HH:MM" in the player's zone (races are named by their start). */
export function raceTime(epochMs: number, locale = 'en'): string {
  return new Date(epochMs).toLocaleTimeString(`${locale.slice(0, 2)}-u-nu-latn`, { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** A small deterministic generator (mulberry32): the animation's variety, never an outcome. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The race animation: each runner's share of the distance (0 … 1) at `progress` (0 … 1 of the
 * run time), for a race whose published finishing order is `order`. The winner reaches the line
 * at 88 % of the run, each next runner a little later, the last before the end; on the way the
 * field bunches and overtakes (a wobble that vanishes at the start and at each runner's finish),
 * so the line is crossed exactly in `order`.
 */
export function positions(order: number[], progress: number, seed: number): Map<number, number> {
  const rnd = seeded(seed);
  const n = order.length;
  const p = Math.min(1, Math.max(0, progress));
  const out = new Map<number, number>();
  let finish = 0.88;
  order.forEach((runner, place) => {
    if (place > 0) finish += (0.1 / Math.max(1, n - 1)) * (0.5 + 0.5 * rnd());
    const t = Math.min(1, p / finish);
    const amp = 0.05 + 0.05 * rnd();
    const waves = 1 + Math.floor(rnd() * 3);
    const phase = rnd() * Math.PI;
    // Eased run (a start, a cruise) plus a wobble that is 0 at t = 0 and t = 1.
    const base = t < 1 ? 1 - (1 - t) * (1 - t) * 0.35 - (1 - t) * 0.65 : 1;
    const wobble = amp * Math.sin(Math.PI * waves * t + phase) * t * (1 - t);
    out.set(runner, Math.min(1, Math.max(0, base + wobble)));
  });
  return out;
}

/** Where a race is on the player's clock: before its start, running (with progress), or over. */
export type Stage = { kind: 'open'; left: number } | { kind: 'running'; progress: number } | { kind: 'over' };

export function stageOf(race: { closesAt: number; finishesAt: number }, now: number): Stage {
  if (now < race.closesAt) return { kind: 'open', left: race.closesAt - now };
  if (now < race.finishesAt) return { kind: 'running', progress: (now - race.closesAt) / (race.finishesAt - race.closesAt) };
  return { kind: 'over' };
}

/** A runner's colours: horse silks, greyhound trap colours (1 red … 6 black-and-white), speedway helmets. */
export function runnerColors(sport: SportId, number: number): { bg: string; fg: string } {
  const tables: Record<SportId, [string, string][]> = {
    horses: [
      ['#e53935', '#fff'],
      ['#1e88e5', '#fff'],
      ['#fdd835', '#1a1204'],
      ['#43a047', '#fff'],
      ['#8e24aa', '#fff'],
      ['#fb8c00', '#1a1204'],
      ['#00acc1', '#fff'],
      ['#f5f5f5', '#1a1204'],
    ],
    greyhounds: [
      ['#d32f2f', '#fff'],
      ['#1565c0', '#fff'],
      ['#fafafa', '#111'],
      ['#212121', '#fff'],
      ['#ef6c00', '#111'],
      ['repeating-linear-gradient(90deg, #111 0 5px, #fafafa 5px 10px)', '#d32f2f'],
    ],
    speedway: [
      ['#d32f2f', '#fff'],
      ['#1565c0', '#fff'],
      ['#fafafa', '#111'],
      ['#fdd835', '#111'],
    ],
  };
  const row = tables[sport][(number - 1) % tables[sport].length] ?? ['#777', '#fff'];
  return { bg: row[0], fg: row[1] };
}

/** Strength as a share of the strongest possible (the form bar), 10 … 100 → 10 … 100 %. */
export const formPercent = (strength: number): number => Math.max(0, Math.min(100, strength));

/** Milliseconds to add to `Date.now()` to read the server's clock, from a reply's `serverTime`. */
export const clockOffset = (serverTime: number, receivedAt: number): number => serverTime - receivedAt;

/** A fresh Idempotency-Key for one bet submission. */
export const newKey = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/** "A race every …": minutes, or seconds for a timetable under a minute (fast test servers). */
export function everyText(everyMs: number, t: (key: string, o: { count: number }) => string): string {
  return everyMs < 60_000 ? t('everySeconds', { count: Math.round(everyMs / 1000) }) : t('every', { count: Math.round(everyMs / 60_000) });
}
