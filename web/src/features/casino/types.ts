/**
 * Casino catalogue types, from the generated API schema (src/api/schema.d.ts, docs/CASINO.md §1).
 * The client's Game is the schema's with the fields a list may omit made optional (lists are
 * normalised in api.ts) and volatility narrowed to its three values.
 */
import type { Schemas, ReplyOf, RequestBody } from '../../api/types';

export type CasinoType = 'slots' | 'casinolive' | 'virtual-games';
export type Volatility = 'low' | 'medium' | 'high';

type SchemaGame = Schemas['Game'];
type Optional = 'description' | 'casinoType' | 'isNew' | 'authRequired' | 'rtp' | 'volatility';

/** A normalised game (spec §3). Identity: `provider` + `gameId`. */
export type Game = Omit<SchemaGame, Optional> &
  Partial<Pick<SchemaGame, 'description' | 'casinoType' | 'isNew' | 'authRequired' | 'rtp'>> & {
    volatility?: Volatility | null;
    isLiveGame?: boolean;
  };

export type Provider = Schemas['Provider'];
export type GameSession = ReplyOf<'/api/casino/session', 'post'>;
export type SessionRequest = RequestBody<'/api/casino/session', 'post'>;
export type TvTiles = ReplyOf<'/api/tvbet/tiles', 'get'>;
export type TvTile = TvTiles['tiles'][number];
export type GameLink = ReplyOf<'/api/tvbet/token', 'get'>;
