/** The slot machine as `GET /api/studio/slots/info` describes it, and a round (`SlotRound`). */

export type SymbolKind = 'regular' | 'wild' | 'scatter';

export interface SlotSymbol {
  index: number;
  id: string;
  name: string;
  kind: SymbolKind;
}

export interface SlotInfo {
  id: string;
  name: string;
  theme: string;
  volatility: string;
  declaredRtpBp: number;
  betMultiple: number;
  reels: number;
  rows: number;
  symbols: SlotSymbol[];
  wild: number;
  scatter: number;
  /** Row of each reel, reel 0 first. */
  lines: number[][];
  /** Pays as multiples of the line bet. */
  paytable: { symbol: number; count: number; pay: number; betBp: number }[];
  /** Pays as multiples of the total bet. */
  scatterPays: { count: number; pay: number }[];
  baseReels: number[][];
  featureReels: number[][];
  feature: {
    kind: string;
    name: string;
    description: string;
    triggerCount: number;
    spins: number;
    retrigger: number;
    multipliers: { value: number; weight: number }[];
    expandingWildReels: number[];
    maxSpins: number;
  };
}

export interface LineWin {
  line: number;
  symbol: number;
  count: number;
  rows: number[];
  pay: number;
  win: number;
}

export interface FeatureSpin {
  stops: number[];
  window: number[][];
  expandedReels: number[];
  lineWins: LineWin[];
  scatterCount: number;
  scatterWin: number;
  multiplier: number;
  retrigger: boolean;
  win: number;
}

export interface SlotRound {
  game: string;
  bet: number;
  stops: number[];
  /** Reel-major, rows top to bottom, symbol indices. */
  window: number[][];
  lineWins: LineWin[];
  scatterCount: number;
  scatterWin: number;
  feature: null | {
    kind: string;
    name: string;
    spinsAwarded: number;
    spinsPlayed: number;
    spins: FeatureSpin[];
    win: number;
  };
  win: number;
}

/** The window a strip shows at a stop: positions stop, stop+1, stop+2 (cyclic), top to bottom. */
export function windowAt(strip: readonly number[], stop: number, rows = 3): number[] {
  return Array.from({ length: rows }, (_, r) => strip[(stop + r) % strip.length]!);
}

/** Bet levels the machine accepts (multiples of its bet multiple). */
export function slotLevels(levels: number[], betMultiple: number): number[] {
  const ok = levels.filter((l) => betMultiple <= 1 || l % betMultiple === 0);
  return ok.length ? ok : levels;
}

/** The multiplier a feature spin draws: `below(total weight)` picks by cumulative weight. */
export function pickMultiplier(multipliers: { value: number; weight: number }[], draw: number): number {
  let acc = 0;
  for (const m of multipliers) {
    acc += m.weight;
    if (draw < acc) return m.value;
  }
  return multipliers[multipliers.length - 1]?.value ?? 1;
}
