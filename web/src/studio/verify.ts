import { commitmentMatches, diceRoll, rouletteNumber, slotRoundDraws, type RoundSeed } from './fair';
import type { SlotInfo, SlotRound } from './slots/model';
import type { GameKind } from './types';

export interface CheckRow {
  /** i18n key of the compared value (studio:fair.check.*). */
  label: string;
  expected: string | null;
  computed: string;
  match: boolean | null;
}

export interface Verification {
  commitment: boolean | null;
  rows: CheckRow[];
  /** Every comparison (and the commitment, when a hash was given) holds. */
  ok: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;

/** The game-specific part of a recorded outcome (the round reply's `result`/`round`, or the object itself). */
function inner(outcome: unknown): Obj | null {
  if (!isObj(outcome)) return null;
  if (isObj(outcome.result)) return outcome.result;
  if (isObj(outcome.round)) return outcome.round;
  return outcome;
}

const row = (label: string, expected: unknown, computed: string | number): CheckRow => {
  const c = String(computed);
  const e = expected === undefined || expected === null ? null : Array.isArray(expected) ? expected.join(', ') : String(expected);
  return { label, expected: e, computed: c, match: e === null ? null : e === c };
};

/**
 * Recomputes a round from its seeds and compares it with the recorded outcome (when given), and the
 * server seed with its commitment (when a hash is given).
 */
export async function verifyRound(
  kind: GameKind,
  seed: RoundSeed,
  opts: { serverSeedHash?: string | null; outcome?: unknown; slotInfo?: SlotInfo | null } = {},
): Promise<Verification> {
  const commitment = opts.serverSeedHash ? await commitmentMatches(seed.serverSeed, opts.serverSeedHash) : null;
  const out = inner(opts.outcome);
  const rows: CheckRow[] = [];
  if (kind === 'dice') {
    const roll = await diceRoll(seed);
    rows.push(row('roll', out?.roll, roll));
  } else if (kind === 'roulette') {
    const n = await rouletteNumber(seed);
    rows.push(row('number', out?.number, n));
  } else if (kind === 'slot' && opts.slotInfo) {
    const info = opts.slotInfo;
    const round = out as Partial<SlotRound> | null;
    const spins = round?.feature?.spins ?? [];
    const draws = await slotRoundDraws(
      seed,
      info.baseReels.map((r) => r.length),
      info.featureReels.map((r) => r.length),
      spins.length,
      info.feature.multipliers,
    );
    rows.push(row('stops', round?.stops, draws.stops.join(', ')));
    draws.feature.forEach((f, i) => {
      rows.push(row('featureStops', spins[i]?.stops, f.stops.join(', ')));
      if (info.feature.multipliers.length > 1) rows.push(row('multiplier', spins[i]?.multiplier, f.multiplier));
    });
  }
  const ok = commitment !== false && rows.length > 0 && rows.every((r) => r.match !== false);
  return { commitment, rows, ok };
}
