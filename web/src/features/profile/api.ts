import { api } from '../../api/api';
import type { ReplyOf } from '../../api/types';

export type RoundRecord = ReplyOf<'/api/studio/round', 'get'>;

/** The profile's own endpoints: a round's fairness record (history → "Fairness"). */
export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    roundRecord: build.query<RoundRecord, { game: string; round: string }>({
      query: ({ game, round }) => ({ url: `/api/studio/round?${new URLSearchParams({ game, round }).toString()}` }),
    }),
    crashFairness: build.query<{ salt: string; terminatingHash: string }, void>({
      query: () => ({ url: '/api/studio/crash/fairness' }),
    }),
  }),
});

export type SlotsHistory = ReplyOf<'/api/user/getSlotsBetHistory', 'post'>;
export type SlotsRound = SlotsHistory['items'][number];
/** The history's request (spec §7): pages from 0, filters as lists (slotsFilters.ts). */
export interface SlotsHistoryArgs {
  from: string;
  to: string;
  page: number;
  count: number;
  statuses: string[];
  providers: string[];
}
export type CasinoProvider = ReplyOf<'/api/casino/providers', 'get'>[number];

/** The slots bet history and the providers its filter offers. */
export const slotsHistoryApi = api.enhanceEndpoints({ addTagTypes: ['SlotsHistory'] }).injectEndpoints({
  endpoints: (build) => ({
    slotsHistory: build.query<SlotsHistory, SlotsHistoryArgs>({
      query: (body) => ({ url: '/api/user/getSlotsBetHistory', method: 'POST', body }),
      providesTags: ['SlotsHistory'],
    }),
    historyProviders: build.query<CasinoProvider[], void>({ query: () => ({ url: '/api/casino/providers' }) }),
  }),
});
