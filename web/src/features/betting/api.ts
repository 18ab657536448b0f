import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/api';
import { useAppDispatch } from '../../app/store';
import type { ReplyOf, RequestBody } from '../../api/types';

export type Line = ReplyOf<'/api/sportsbook/line', 'get'>;
export type SbEvent = ReplyOf<'/api/sportsbook/event/{id}', 'get'>;
export type Market = SbEvent['markets'][number];
export type Outcome = Market['outcomes'][number];
export type Bet = ReplyOf<'/api/sportsbook/bets', 'post'>;
export type BetLeg = Bet['legs'][number];
export type PlaceBody = RequestBody<'/api/sportsbook/bets', 'post'>;
export type BetsStatus = 'open' | 'settled';
export type SlipFreeBet = ReplyOf<'/api/user/free-bets', 'get'>[number];
export type SlipBonus = ReplyOf<'/api/user/bonuses', 'get'>[number];
export interface LineArgs {
  live?: boolean;
  sport?: string;
}

const SB = '/api/sportsbook';

/** Our sportsbook (docs/SPORTSBOOK.md "The service and the HTTP API"). */
export const bettingApi = api.enhanceEndpoints({ addTagTypes: ['SbLine', 'SbBets', 'FreeBets', 'Bonuses'] }).injectEndpoints({
  endpoints: (build) => ({
    line: build.query<Line, LineArgs>({
      query: ({ live, sport }) => {
        const q = new URLSearchParams();
        if (live !== undefined) q.set('live', String(live));
        if (sport) q.set('sport', sport);
        const qs = q.toString();
        return { url: `${SB}/line${qs ? `?${qs}` : ''}` };
      },
      providesTags: ['SbLine'],
    }),
    event: build.query<SbEvent, string>({
      query: (id) => ({ url: `${SB}/event/${encodeURIComponent(id)}` }),
      providesTags: ['SbLine'],
    }),
    /** `key`: one Idempotency-Key per slip submission, sent again on a retry of it. */
    placeBet: build.mutation<Bet, { body: PlaceBody; key: string }>({
      query: ({ body, key }) => ({ url: `${SB}/bets`, method: 'POST', body, headers: { 'Idempotency-Key': key } }),
      // The stake left the balance: the header's balance and my bets refresh.
      invalidatesTags: (result) => (result ? ['Balance', 'SbBets', 'FreeBets', 'Bonuses'] : []),
    }),
    // What the slip's funding choice needs (the promotions screens read the same calls under
    // their own names; the tags keep both fresh after an activation or a bet).
    slipFreeBets: build.query<SlipFreeBet[], void>({ query: () => ({ url: '/api/user/free-bets' }), providesTags: ['FreeBets'] }),
    slipBonuses: build.query<SlipBonus[], void>({ query: () => ({ url: '/api/user/bonuses' }), providesTags: ['Bonuses'] }),
    myBets: build.query<Bet[], BetsStatus>({
      query: (status) => ({ url: `${SB}/bets?status=${status}&limit=50` }),
      providesTags: ['SbBets'],
    }),
  }),
});

export const newIdempotencyKey = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/**
 * Names of the line and of bets come in the app's language (the server reads Accept-Language):
 * a language change refetches them.
 */
export function useNamesFollowLanguage() {
  const dispatch = useAppDispatch();
  const { i18n } = useTranslation();
  useEffect(() => {
    const refetch = () => dispatch(bettingApi.util.invalidateTags(['SbLine', 'SbBets']));
    i18n.on('languageChanged', refetch);
    return () => i18n.off('languageChanged', refetch);
  }, [dispatch, i18n]);
}
