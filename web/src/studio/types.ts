/** The studio API (docs/CASINO.md §2). Money in integer minor units; multipliers in hundredths. */
import type { PlayRules } from './slots/pace';

export type GameKind = 'slot' | 'roulette' | 'dice' | 'crash';

export interface StudioSession {
  gameId: string;
  name: string;
  kind: GameKind;
  provider: string;
  currency: string;
  exponent: number;
  balance: number;
  minBet: number;
  maxBet: number;
  betLevels: number[];
  lang: string;
  playerId: number;
  /** Responsible-gambling play rules of the slots (slots/pace.ts); absent or partial: the defaults. */
  playRules?: Partial<PlayRules> | null;
}

export interface Seed {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

export interface RotateReply {
  revealed: { serverSeed: string; serverSeedHash: string; clientSeed: string; nonces: number };
  next: Seed;
}

/** A settled round of slots, roulette or dice. */
export interface RoundReply<R> {
  roundId: string | number;
  bet: number;
  win: number;
  balance: number;
  seed: Seed;
  round?: R;
  result?: R;
  /** The server's name for the game-specific part (the slot round, or `{bet(s), result}`). */
  outcome?: unknown;
}

export interface RouletteBet {
  kind: string;
  numbers: number[];
  amount: number;
}
export interface RouletteResult {
  number: number;
  color: string;
  returned: number;
  wins: { index: number; returned: number }[];
}

export interface DiceResult {
  roll: number;
  win: boolean;
  returned: number;
  multiplierBp: number;
}

export interface HistoryRound {
  roundId: string | number;
  time: string;
  bet: number;
  win: number;
  outcome?: unknown;
  serverSeedHash?: string;
  serverSeed?: string | null;
  clientSeed?: string;
  nonce?: number;
  // crash (docs/CRASH.md "Wiring"): crash point and hash are null until the round is over
  cashedOutAt?: number | null;
  crashPoint?: number | null;
  hash?: string | null;
  /** The bet: placing, open, cashed, lost, refunded (round void or interrupted). */
  status?: string;
}

export interface CrashFairness {
  terminatingHash: string;
  salt: string;
}

export interface CrashRoundSummary {
  id: number;
  hash: string;
  crashPoint: number;
}
