import { api } from '../../api/api';
import type { ReplyOf, RequestBody, Schemas } from '../../api/types';

export type Lobby = ReplyOf<'/api/virtuals/races', 'get'>;
export type SportView = Schemas['VirtualSport'];
export type Race = Schemas['VirtualRace'];
export type Runner = Schemas['VirtualRunner'];
export type RaceDetail = ReplyOf<'/api/virtuals/races/{id}', 'get'>;
export type VirtualBet = ReplyOf<'/api/virtuals/bets', 'post'>;
export type PlaceBody = RequestBody<'/api/virtuals/bets', 'post'>;
export type GoldenRaceList = ReplyOf<'/api/golden_race/game_list', 'get'>;
export type GoldenRaceLink = ReplyOf<'/api/golden_race/create_session', 'post'>;
export type GoldenRaceSessionBody = RequestBody<'/api/golden_race/create_session', 'post'>;

const V = '/api/virtuals';

/** The studio's virtual races (docs/VIRTUALS.md "Endpoints"). */
export const virtualsApi = api.enhanceEndpoints({ addTagTypes: ['VirtualRaces', 'VirtualBets'] }).injectEndpoints({
  endpoints: (build) => ({
    virtualRaces: build.query<Lobby, string | void>({
      query: (sport) => ({ url: `${V}/races${sport ? `?sport=${encodeURIComponent(sport)}` : ''}` }),
      providesTags: ['VirtualRaces'],
    }),
    virtualRace: build.query<RaceDetail, number>({
      query: (id) => ({ url: `${V}/races/${id}` }),
    }),
    /** `key`: one Idempotency-Key per slip submission, sent again on a retry of it. */
    placeVirtualBet: build.mutation<VirtualBet, { body: PlaceBody; key: string }>({
      query: ({ body, key }) => ({ url: `${V}/bets`, method: 'POST', body, headers: { 'Idempotency-Key': key } }),
      invalidatesTags: (result) => (result ? ['Balance', 'VirtualBets'] : []),
    }),
    /** Golden Race's virtual games (spec §7), in its whitelist's order. */
    goldenRaceGames: build.query<GoldenRaceList, void>({
      query: () => ({ url: '/api/golden_race/game_list' }),
    }),
    /** A Golden Race game session: the app frames `url`. */
    goldenRaceSession: build.mutation<GoldenRaceLink, GoldenRaceSessionBody>({
      query: (body) => ({ url: '/api/golden_race/create_session', method: 'POST', body }),
    }),
    myVirtualBets: build.query<VirtualBet[], void>({
      query: () => ({ url: `${V}/bets?limit=30` }),
      providesTags: ['VirtualBets'],
    }),
  }),
});
