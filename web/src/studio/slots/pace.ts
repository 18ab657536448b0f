/**
 * Pace of the studio slots: how long a spin lasts (normal, turbo, tap-to-stop, free spins), the
 * auto-spin limits, and the play rules a jurisdiction may restrict (docs/CASINO.md "Slot pace and
 * play rules"). The round itself is decided by the server; everything here only paces its display.
 */

/**
 * What the player may use to speed play up. Responsible-gambling rules (coming with payments) can
 * switch features off per jurisdiction: the server will send these in the game session
 * (`StudioSession.playRules`, any subset); what it leaves out keeps the default below. Defaults
 * live here and nowhere else.
 *
 * - `autoplay`: auto-spin offered at all.
 * - `maxAutoSpins`: the most spins one auto-spin run may take (larger choices are not offered).
 * - `turbo`: the turbo toggle offered.
 * - `quickStop`: tap-to-stop (a tap during the spin brings the reels to rest at once) offered.
 * - `minSpinMs`: the shortest time from a spin's start to its result shown, whatever the player
 *   does (turbo and tap-to-stop never go below it; e.g. 2500 where a 2.5 s spin is required).
 */
export interface PlayRules {
  autoplay: boolean;
  maxAutoSpins: number;
  turbo: boolean;
  quickStop: boolean;
  minSpinMs: number;
}

export const DEFAULT_PLAY_RULES: Readonly<PlayRules> = Object.freeze({
  autoplay: true,
  maxAutoSpins: 100,
  turbo: true,
  quickStop: true,
  minSpinMs: 0,
});

/** The rules of a session: what the server sent over the defaults; malformed values keep the default. */
export function playRules(sent?: Partial<PlayRules> | null): PlayRules {
  const r = { ...DEFAULT_PLAY_RULES };
  if (!sent) return r;
  if (typeof sent.autoplay === 'boolean') r.autoplay = sent.autoplay;
  if (typeof sent.turbo === 'boolean') r.turbo = sent.turbo;
  if (typeof sent.quickStop === 'boolean') r.quickStop = sent.quickStop;
  if (Number.isInteger(sent.maxAutoSpins) && sent.maxAutoSpins! >= 0) r.maxAutoSpins = sent.maxAutoSpins!;
  if (Number.isFinite(sent.minSpinMs) && sent.minSpinMs! >= 0) r.minSpinMs = Math.min(10_000, sent.minSpinMs!);
  if (r.maxAutoSpins === 0) r.autoplay = false;
  return r;
}

/**
 * How a spin lands, from the moment the server's result is there: reel `i` comes to rest after
 * `base + i × perReel` ms. `stop` is a tap-to-stop (or a skipped free spin): what is left of every
 * reel's run is squeezed into it.
 */
export const LANDING = {
  normal: { base: 650, perReel: 190 },
  turbo: { base: 220, perReel: 45 },
  feature: { base: 380, perReel: 90 },
  stop: { base: 170, perReel: 25 },
} as const;

export type Landing = keyof typeof LANDING;

/** How long wins stay on screen before the game moves on (free spins, auto-spin). */
export const SHOW_MS = { normal: 1100, turbo: 380, stop: 200 } as const;

/** Banners of the free-spins feature (start, retrigger, end). */
export const BANNER_MS = { normal: 1800, retrigger: 1200, turbo: 700, stop: 250 } as const;

/** The pause between two auto-spins without a win to show. */
export const AUTO_GAP_MS = { normal: 350, turbo: 120 } as const;

/**
 * Landing time of each reel, from `now`: the pace of `kind`, stretched so the last reel rests no
 * sooner than `earliestEnd` (the spin's start + `minSpinMs`).
 */
export function landingPlan(kind: Landing, reels: number, now: number, earliestEnd: number): number[] {
  const p = LANDING[kind];
  const plan = Array.from({ length: reels }, (_, i) => p.base + i * p.perReel);
  const last = plan[reels - 1] ?? 0;
  const extra = Math.max(0, earliestEnd - (now + last));
  return plan.map((ms) => ms + extra);
}

/** Auto-spin run sizes offered (the rules' maximum cuts the list). */
export const AUTO_COUNTS = [10, 25, 50, 100] as const;
/** Loss limits offered, as multiples of the bet. */
export const LOSS_LIMITS = [2, 5, 10, 25, 50, 100] as const;
/** Single-win limits offered, as multiples of the bet (none is an option too). */
export const WIN_LIMITS = [10, 50, 100] as const;

export function autoCounts(rules: PlayRules): number[] {
  if (!rules.autoplay) return [];
  const list: number[] = AUTO_COUNTS.filter((n) => n <= rules.maxAutoSpins);
  if (list.length === 0 && rules.maxAutoSpins > 0) list.push(rules.maxAutoSpins);
  return list;
}

/** What the player set for one auto-spin run; amounts in minor units, fixed when it starts. */
export interface AutoPlan {
  count: number;
  bet: number;
  /** Required: the run never starts a spin that could take its net loss past this. */
  lossLimit: number;
  /** Stop after a round that wins at least this much (null: no such limit). */
  winLimit: number | null;
  stopOnFeature: boolean;
}

/** A run in progress. */
export interface AutoProgress {
  played: number;
  staked: number;
  won: number;
}

export type AutoStop = 'count' | 'loss' | 'win' | 'feature' | 'balance' | 'error' | 'hidden' | 'player';

/** A plan the game may start: a positive count within the rules, a positive bet and a loss limit that covers one bet. */
export function planValid(plan: AutoPlan, rules: PlayRules): boolean {
  return (
    rules.autoplay &&
    Number.isInteger(plan.count) &&
    plan.count > 0 &&
    plan.count <= rules.maxAutoSpins &&
    plan.bet > 0 &&
    Number.isInteger(plan.lossLimit) &&
    plan.lossLimit >= plan.bet &&
    (plan.winLimit === null || plan.winLimit > 0)
  );
}

/** Before each spin: why the run must not take it (null: go on). */
export function stopBeforeSpin(plan: AutoPlan, p: AutoProgress, balance: number): AutoStop | null {
  if (p.played >= plan.count) return 'count';
  const netLoss = p.staked - p.won;
  if (netLoss + plan.bet > plan.lossLimit) return 'loss';
  if (balance < plan.bet) return 'balance';
  return null;
}

/** After a settled round (`win` includes its free spins): why the run stops there (null: go on). */
export function stopAfterRound(plan: AutoPlan, win: number, feature: boolean): AutoStop | null {
  if (plan.stopOnFeature && feature) return 'feature';
  if (plan.winLimit !== null && win >= plan.winLimit) return 'win';
  return null;
}

/** The localStorage key of a player's turbo choice. */
export function turboKey(playerId: number | string): string {
  return `carthage.studio.slots.turbo.${playerId}`;
}

export function readTurbo(playerId: number | string): boolean {
  try {
    return localStorage.getItem(turboKey(playerId)) === '1';
  } catch {
    return false;
  }
}

export function writeTurbo(playerId: number | string, on: boolean) {
  try {
    if (on) localStorage.setItem(turboKey(playerId), '1');
    else localStorage.removeItem(turboKey(playerId));
  } catch {
    /* storage refused (private mode): the choice lasts for this visit only */
  }
}
