/**
 * Casino catalogue types, typed by hand from docs/CASINO.md §1 until the generated
 * schema (src/api/schema.d.ts) carries them.
 */
export type CasinoType = 'slots' | 'casinolive' | 'virtual-games';
export type Volatility = 'low' | 'medium' | 'high';

/** A normalised game (spec §3). Identity: `provider` + `gameId`. */
export interface Game {
  id: number;
  gameId: string;
  gameName: string;
  name: string;
  description?: string;
  tab: string[];
  provider: string;
  routeProvider: string;
  imageUrl: string;
  casinoType?: CasinoType | string;
  isNew?: boolean;
  /** Declared RTP in percent (two decimals), or null when the provider publishes none. */
  rtp?: number | null;
  volatility?: Volatility | null;
  authRequired?: boolean;
  isLiveGame?: boolean;
}

export interface Provider {
  name: string;
  displayName: string;
  casinoType: CasinoType | string;
  authRequired: boolean;
  gameCount: number;
  logoUrl?: string | null;
}

export interface GameSession {
  url: string;
  sessionToken: string;
}

export interface SessionRequest {
  provider: string;
  gameId: string;
  lang: string;
  platform: 'mobile' | 'desktop';
}
