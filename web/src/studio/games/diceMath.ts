/**
 * Dice (docs/FAIRNESS.md): the roll is 0–10000 hundredths (10001 outcomes). "Over t" wins on roll > t,
 * "under t" on roll < t. The multiplier pays 99 % of the fair odds, in basis points (10000 = 1×).
 */
export const ROLLS = 10001;
export const RTP_BP = 9900;

/** Winning outcomes of a bet. */
export function winningRolls(target: number, over: boolean): number {
  return over ? 10000 - target : target;
}

/** The chance in hundredths of a percent (e.g. 4950 = 49.50 %), rounded down. */
export function chanceBp(target: number, over: boolean): number {
  return Math.floor((winningRolls(target, over) * 10000) / ROLLS);
}

/** The multiplier in basis points: floor(RTP · outcomes / winning outcomes). 0 when nothing wins. */
export function multiplierBp(target: number, over: boolean): number {
  const w = winningRolls(target, over);
  if (w <= 0) return 0;
  return Math.floor((RTP_BP * ROLLS) / w);
}

export const isWin = (roll: number, target: number, over: boolean) => (over ? roll > target : roll < target);

/** Returned on a win (stake included): floor(amount · 99 · 10001 / (100 · winning)), exact in BigInt. */
export function diceReturn(amount: number, target: number, over: boolean): number {
  const w = winningRolls(target, over);
  if (w <= 0) return 0;
  return Number((BigInt(amount) * 99n * BigInt(ROLLS)) / (100n * BigInt(w)));
}

/** Allowed targets (hundredths, inclusive): 100–9800 winning outcomes. */
export function targetBounds(over: boolean): [number, number] {
  return over ? [200, 9900] : [100, 9800];
}

export const clampTarget = (target: number, over: boolean) => {
  const [lo, hi] = targetBounds(over);
  return Math.min(hi, Math.max(lo, target));
};
