import { api } from '../../api/api';
import type { ReplyOf } from '../../api/types';

export type Bonus = ReplyOf<'/api/user/bonuses', 'get'>[number];
export type FreeBet = ReplyOf<'/api/user/free-bets', 'get'>[number];
export type FreeBetStats = ReplyOf<'/api/user/actualFreeBetStats', 'get'>;
export type Activated = ReplyOf<'/api/payment/promocode/activation', 'post'>;
export type ActivatedFreeBets = ReplyOf<'/api/user/activate-free-bets', 'post'>;
export type JackpotView = ReplyOf<'/api/jackpots', 'get'>[number];
export type JackpotData = ReplyOf<'/api/user/jackpot_data', 'get'>;
export type JackpotWin = JackpotData['wonJackpots'][number];
export type JackpotHistory = ReplyOf<'/api/user/jackpot_list', 'get'>;
export type JackpotHistoryItem = JackpotHistory['items'][number];
export type WeeklyCashbackRule = ReplyOf<'/api/promotions/weekly-cashback', 'get'>;
export type CouponMachine = ReplyOf<'/api/user/coupon-machine', 'get'>;
export type CouponDraw = ReplyOf<'/api/promotions/coupon-draws/{id}', 'get'>;
/** The history's query: dd-MM-yyyy bounds (the end already plus one day, spec §5), page size 8 (§9). */
export type JackpotListArgs = { date_from: string; date_to: string; limit: number; offset: number };

/** The player's promotions (docs/PROMOTIONS.md): bonuses with wagering, promo codes, free bets. */
export const promotionsApi = api.enhanceEndpoints({ addTagTypes: ['Bonuses', 'FreeBets', 'Jackpots', 'Coupons'] }).injectEndpoints({
  endpoints: (build) => ({
    bonuses: build.query<Bonus[], void>({ query: () => ({ url: '/api/user/bonuses' }), providesTags: ['Bonuses'] }),
    giveUpBonus: build.mutation<Bonus[], string>({
      query: (id) => ({ url: `/api/user/bonuses/${encodeURIComponent(id)}/give-up`, method: 'POST' }),
      // The answer is the list again: no second request for it.
      async onQueryStarted(_id, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(promotionsApi.util.upsertQueryData('bonuses', undefined, data));
        } catch {
          /* the refusal is shown by the caller */
        }
      },
      invalidatesTags: ['Balance', 'History'],
    }),
    activatePromocode: build.mutation<Activated, { code: string }>({
      query: (body) => ({ url: '/api/payment/promocode/activation', method: 'POST', body }),
      invalidatesTags: ['Bonuses', 'FreeBets', 'Balance'],
    }),
    freeBets: build.query<FreeBet[], void>({ query: () => ({ url: '/api/user/free-bets' }), providesTags: ['FreeBets'] }),
    freeBetStats: build.query<FreeBetStats, void>({ query: () => ({ url: '/api/user/actualFreeBetStats' }), providesTags: ['FreeBets'] }),
    activateFreeBets: build.mutation<ActivatedFreeBets, void>({
      query: () => ({ url: '/api/user/activate-free-bets', method: 'POST' }),
      invalidatesTags: ['FreeBets', 'Balance'],
    }),
    // Jackpots (docs/PROMOTIONS.md "Jackpots"): the pools for anyone, the widget's data with the
    // player's unshown drops, the modal's close, the public history with revealed seeds.
    jackpots: build.query<JackpotView[], void>({ query: () => ({ url: '/api/jackpots' }), providesTags: ['Jackpots'] }),
    jackpotData: build.query<JackpotData, void>({ query: () => ({ url: '/api/user/jackpot_data' }), providesTags: ['Jackpots'] }),
    jackpotIsShown: build.mutation<JackpotData, string>({
      query: (id) => ({ url: '/api/user/jackpot_is_shown', method: 'POST', body: { JackpotId: id } }),
      // Spec §4: a success reloads the list; a failure changes nothing (the manual-delete state).
      invalidatesTags: (result) => (result ? ['Jackpots', 'Balance'] : []),
    }),
    jackpotList: build.query<JackpotHistory, JackpotListArgs>({
      // The base query takes a whole URL (no `params`).
      query: (args) => ({ url: `/api/user/jackpot_list?${new URLSearchParams(Object.entries(args).map(([k, v]) => [k, String(v)]))}` }),
      providesTags: ['Jackpots'],
    }),
    // Weekly cashback: the tiers, cap and next payment as the payer applies them (public).
    weeklyCashbackRule: build.query<WeeklyCashbackRule, void>({ query: () => ({ url: '/api/promotions/weekly-cashback' }) }),
    // The coupon machine: the player's spins today and coupons; the draws anyone can check.
    couponMachine: build.query<CouponMachine, void>({ query: () => ({ url: '/api/user/coupon-machine' }), providesTags: ['Coupons'] }),
    couponDraws: build.query<CouponDraw[], void>({ query: () => ({ url: '/api/promotions/coupon-draws' }) }),
    couponDraw: build.query<CouponDraw, string>({ query: (id) => ({ url: `/api/promotions/coupon-draws/${encodeURIComponent(id)}` }) }),
  }),
});

/** A bonus still being wagered (or waiting behind one) — what the player can give up. */
export const isOpen = (b: Pick<Bonus, 'status'>) => b.status === 'active' || b.status === 'queued';

/** The bonus being wagered now, if any (the withdrawal page's warning). */
export const activeBonus = (list: Bonus[] | undefined) => list?.find((b) => b.status === 'active');

/** Wagering progress in whole percent, 0–100 (a requirement of 0 is met). */
export function progressPercent(wagered: number, required: number): number {
  if (!(required > 0)) return 100;
  const p = Math.floor((Math.max(0, wagered) / required) * 100);
  return Math.min(100, Math.max(0, p));
}

/** A promo code as typed: trimmed, no inner spaces, upper case (codes are case-insensitive). */
export const normalizeCode = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/** Text isolated from the sentence's direction (a code or a date inside Arabic text). */
export const isolate = (text: string) => `\u2068${text}\u2069`;
