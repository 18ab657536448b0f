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
