/** European roulette: the table layout (3 columns × 12 rows, zero above), bet spots and payouts. */

export type RouletteKind =
  | 'straight'
  | 'split'
  | 'street'
  | 'corner'
  | 'sixLine'
  | 'trio'
  | 'firstFour'
  | 'dozen'
  | 'column'
  | 'red'
  | 'black'
  | 'odd'
  | 'even'
  | 'low'
  | 'high';

/** Winnings to one. */
export const PAYS: Record<RouletteKind, number> = {
  straight: 35,
  split: 17,
  street: 11,
  corner: 8,
  sixLine: 5,
  trio: 11,
  firstFour: 8,
  dozen: 2,
  column: 2,
  red: 1,
  black: 1,
  odd: 1,
  even: 1,
  low: 1,
  high: 1,
};

export const WHEEL_ORDER = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12,
  35, 3, 26,
];

const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
export const colorOf = (n: number): 'red' | 'black' | 'green' => (n === 0 ? 'green' : RED.has(n) ? 'red' : 'black');

/** A bet spot on the table: what it bets, and where its chip sits (fractions of the number grid). */
export interface Spot {
  key: string;
  kind: RouletteKind;
  numbers: number[];
  /** Centre in the number grid: x in columns (0–3), y in rows (0–12); y < 0 is the zero's edge. */
  x: number;
  y: number;
}

export const spotKey = (kind: RouletteKind, numbers: readonly number[]) => `${kind}:${[...numbers].sort((a, b) => a - b).join('-')}`;

const numAt = (row: number, col: number) => row * 3 + col + 1;

/** Every inside spot of the number grid, with its chip position. */
export function insideSpots(): Spot[] {
  const out: Spot[] = [];
  const add = (kind: RouletteKind, numbers: number[], x: number, y: number) => out.push({ key: spotKey(kind, numbers), kind, numbers, x, y });
  for (let r = 0; r < 12; r += 1) {
    for (let c = 0; c < 3; c += 1) {
      add('straight', [numAt(r, c)], c + 0.5, r + 0.5);
      if (c < 2) add('split', [numAt(r, c), numAt(r, c + 1)], c + 1, r + 0.5);
      if (r < 11) add('split', [numAt(r, c), numAt(r + 1, c)], c + 0.5, r + 1);
      if (c < 2 && r < 11) add('corner', [numAt(r, c), numAt(r, c + 1), numAt(r + 1, c), numAt(r + 1, c + 1)], c + 1, r + 1);
    }
    add('street', [numAt(r, 0), numAt(r, 1), numAt(r, 2)], 0, r + 0.5);
    if (r < 11) add('sixLine', [0, 1, 2, 3, 4, 5].map((i) => numAt(r, 0) + i), 0, r + 1);
  }
  // Along the zero.
  for (let c = 0; c < 3; c += 1) add('split', [0, c + 1], c + 0.5, 0);
  add('trio', [0, 1, 2], 1, 0);
  add('trio', [0, 2, 3], 2, 0);
  add('firstFour', [0, 1, 2, 3], 0, 0);
  return out;
}

export function covers(kind: RouletteKind, numbers: readonly number[], n: number): boolean {
  switch (kind) {
    case 'dozen':
      return n !== 0 && Math.floor((n - 1) / 12) + 1 === numbers[0];
    case 'column':
      return n !== 0 && ((n - 1) % 3) + 1 === numbers[0];
    case 'red':
      return colorOf(n) === 'red';
    case 'black':
      return colorOf(n) === 'black';
    case 'odd':
      return n !== 0 && n % 2 === 1;
    case 'even':
      return n !== 0 && n % 2 === 0;
    case 'low':
      return n >= 1 && n <= 18;
    case 'high':
      return n >= 19 && n <= 36;
    default:
      return numbers.includes(n);
  }
}

/** Stake plus winnings of a bet on number `n` (0 when it loses). */
export const returnOf = (kind: RouletteKind, numbers: readonly number[], amount: number, n: number) =>
  covers(kind, numbers, n) ? amount * (PAYS[kind] + 1) : 0;
