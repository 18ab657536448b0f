/**
 * What pays for a bet (docs/PROMOTIONS.md "Free bets", "The bonus model"): real money, the sport
 * bonus balance, or a free bet. The server decides (1489, 615, 506, 507); the slip says the same
 * rules before a tap so a bet is never refused for a reason the player could not see.
 * Odds in thousandths, money in minor units (odds.ts).
 */

export type Funding = 'real' | 'bonus' | 'free_bet';

/** Spec §5 / §9: a free bet's total odds at least 2.20 (1489 below). */
export const FREE_BET_MIN_ODDS = 2200;
/** Spec §5: bonus bets below odds 1.80 are rejected — every selection (615). */
export const BONUS_MIN_ODDS = 1800;

/** Why the slip cannot be placed with this funding now; null when it can. */
export type FundingBlock =
  | { reason: 'freeBetOdds'; min: number; total: number }
  | { reason: 'bonusOdds'; min: number; legs: number[] }
  | { reason: 'noFreeBet' }
  | { reason: 'freeBetTooBig'; balance: number }
  | { reason: 'bonusShort'; balance: number };

/**
 * The free-bet values the player can choose, in minor units: each distinct value of their active
 * free bets that the free-bet balance still covers, smallest first; when none fits but the balance
 * holds something (a free bet partly used), the balance itself.
 */
export function freeBetChoices(activeMinor: readonly number[], balanceMinor: number): number[] {
  if (!(balanceMinor > 0)) return [];
  const values = [...new Set(activeMinor.filter((v) => v > 0 && v <= balanceMinor))].sort((a, b) => a - b);
  return values.length > 0 ? values : [balanceMinor];
}

/** A free bet pays its winnings only: the potential payout less the stake (never negative). */
export const freeBetWinnings = (payoutMinor: number, stakeMinor: number): number => Math.max(0, payoutMinor - stakeMinor);

/**
 * The rule a funding breaks for this slip, if any: free bet — total odds below the minimum, no
 * free bet chosen, a stake above the free-bet balance; bonus — a selection below the minimum
 * odds (their positions), a stake above the bonus balance.
 */
export function fundingBlock(args: {
  funding: Funding;
  total: number;
  legs: readonly number[];
  stakeMinor: number | null;
  freeBetBalance: number;
  bonusBalance: number;
  freeBetMinOdds?: number;
  bonusMinOdds?: number;
}): FundingBlock | null {
  const { funding, total, legs, stakeMinor } = args;
  if (funding === 'free_bet') {
    const min = args.freeBetMinOdds ?? FREE_BET_MIN_ODDS;
    if (total < min) return { reason: 'freeBetOdds', min, total };
    if (stakeMinor === null) return { reason: 'noFreeBet' };
    if (stakeMinor > args.freeBetBalance) return { reason: 'freeBetTooBig', balance: args.freeBetBalance };
    return null;
  }
  if (funding === 'bonus') {
    const min = args.bonusMinOdds ?? BONUS_MIN_ODDS;
    const low = legs.flatMap((o, i) => (o < min ? [i] : []));
    if (low.length > 0) return { reason: 'bonusOdds', min, legs: low };
    if (stakeMinor !== null && stakeMinor > args.bonusBalance) return { reason: 'bonusShort', balance: args.bonusBalance };
    return null;
  }
  return null;
}

/** A decimal amount of the API (major units) → minor units, exactly (no float rounding drift). */
export function majorToMinor(value: number, decimals: number): number {
  const [int = '0', frac = ''] = value.toFixed(decimals).split('.');
  const sign = int.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(int)) * 10 ** decimals + Number(frac || '0'));
}
