import { api } from '../../api/api';
import type { ReplyOf, RequestBody, Schemas } from '../../api/types';

/**
 * The payment calls of docs/PAYMENTS.md ("Player API"). Amounts are major units as JSON numbers
 * (built from exact minor units by amount.ts, never by float arithmetic); ids are the server's
 * 64-bit ids.
 */
export type IntentId = number | string;
export type IntentStatus = 'created' | 'review' | 'pending' | 'succeeded' | 'failed' | 'expired' | 'cancelled';
export const FINAL_STATUSES: readonly IntentStatus[] = ['succeeded', 'failed', 'expired', 'cancelled'];
export const isFinal = (s: string | undefined): boolean => FINAL_STATUSES.includes(s as IntentStatus);

/** `POST /api/payment/token`: single-use, bound to the player, the deposit's idempotency key. */
export type PaymentToken = ReplyOf<'/api/payment/token', 'post'>;
/** `POST /api/payment/deposit` and `POST /paykassma/deposit/init`. */
export type DepositReply = ReplyOf<'/api/payment/deposit', 'post'>;
/** `POST /api/payment/telegram/deposit`: `rate` (decimal text) is recorded on the intent at creation. */
export type TelegramDepositReply = ReplyOf<'/api/payment/telegram/deposit', 'post'>;
/** `POST /api/payment/withdrawal` and `POST /paykassma/withdrawal/init` (spec §3 withdrawal result). */
export type WithdrawalReply = ReplyOf<'/api/payment/withdrawal', 'post'>;
/** `GET /api/payment/intent/{id}`: polled by the payment frame. */
export type Intent = ReplyOf<'/api/payment/intent/{id}', 'get'>;
/** `GET /api/payment/history/payment-with-withdrawal` (spec §3 payment history entry). */
export type PayHistoryEntry = Schemas['PayHistoryEntryReply'];

/** `GET /api/user/responsible-gambling`: the deposit limits in force and what the windows used. */
export type DepositLimitsState = ReplyOf<'/api/user/responsible-gambling', 'get'>;
/** `GET /api/payment/cashiers`: where a player deposits in cash. */
export type CashierLocation = ReplyOf<'/api/payment/cashiers', 'get'>[number];

/** Reply code 20 on a deposit/withdrawal start: continue at `result.url` in the top-level window (spec §4). */
export const REDIRECT_CODE = 20;

export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    paymentToken: build.mutation<PaymentToken, void>({
      query: () => ({ url: '/api/payment/token', method: 'POST', body: {} }),
    }),
    deposit: build.mutation<DepositReply, RequestBody<'/api/payment/deposit', 'post'>>({
      query: (body) => ({ url: '/api/payment/deposit', method: 'POST', body }),
    }),
    withdrawal: build.mutation<WithdrawalReply, RequestBody<'/api/payment/withdrawal', 'post'>>({
      query: (body) => ({ url: '/api/payment/withdrawal', method: 'POST', body }),
      // The funds are held at once: the balance and the history change.
      invalidatesTags: ['Balance', 'History'],
    }),
    paykassmaDeposit: build.mutation<ReplyOf<'/paykassma/deposit/init', 'post'>, RequestBody<'/paykassma/deposit/init', 'post'>>({
      query: (body) => ({ url: '/paykassma/deposit/init', method: 'POST', body }),
    }),
    paykassmaWithdrawal: build.mutation<
      ReplyOf<'/paykassma/withdrawal/init', 'post'>,
      RequestBody<'/paykassma/withdrawal/init', 'post'>
    >({
      query: (body) => ({ url: '/paykassma/withdrawal/init', method: 'POST', body }),
      invalidatesTags: ['Balance', 'History'],
    }),
    telegramDeposit: build.mutation<TelegramDepositReply, RequestBody<'/api/payment/telegram/deposit', 'post'>>({
      query: (body) => ({ url: '/api/payment/telegram/deposit', method: 'POST', body }),
    }),
    intent: build.query<Intent, IntentId>({
      query: (id) => ({ url: `/api/payment/intent/${encodeURIComponent(String(id))}` }),
    }),
    /** The deposit form's allowance (asked afresh each time the form opens). */
    depositLimits: build.query<DepositLimitsState, void>({
      query: () => ({ url: '/api/user/responsible-gambling' }),
    }),
    /** The cashiers, for a player who deposits in cash. */
    depositCashiers: build.query<CashierLocation[], void>({
      query: () => ({ url: '/api/payment/cashiers' }),
    }),
  }),
});

export const payHistoryApi = paymentsApi.injectEndpoints({
  endpoints: (build) => ({
    payHistory: build.query<PayHistoryEntry[], { begin: string; end: string; limit: number; offset: number }>({
      query: ({ begin, end, limit, offset }) => ({
        url: `/api/payment/history/payment-with-withdrawal?${new URLSearchParams({
          begin,
          end,
          limit: String(limit),
          offset: String(offset),
        }).toString()}`,
      }),
      // A deposit that succeeds invalidates 'History': this list refreshes with the balance.
      providesTags: ['History'],
    }),
  }),
});

/** `GET`/`POST /api/user/deposit-bonus`: the standing deposit bonus, off until the player turns it on. */
export type DepositBonusOffer = ReplyOf<'/api/user/deposit-bonus', 'get'>;
/** A bonus of `GET /api/user/bonuses` (the standing deposit bonus's template is `deposit-standing-{CUR}`). */
export type RecentBonus = ReplyOf<'/api/user/bonuses', 'get'>[number];

/**
 * The deposit bonus offer and the player's choice. A grant arrives after a deposit's commit, so a
 * deposit that succeeded refreshes the offer (`DepositBonus`) and the bonuses list (`Bonuses`).
 */
export const depositBonusApi = api.enhanceEndpoints({ addTagTypes: ['DepositBonus', 'Bonuses'] }).injectEndpoints({
  endpoints: (build) => ({
    depositBonus: build.query<DepositBonusOffer, void>({
      query: () => ({ url: '/api/user/deposit-bonus' }),
      providesTags: ['DepositBonus'],
    }),
    /** The player's bonuses (`GET /api/user/bonuses`), for the deposit's result: the bonus it earned. */
    bonusesAfterDeposit: build.query<RecentBonus[], void>({
      query: () => ({ url: '/api/user/bonuses' }),
      providesTags: ['Bonuses'],
    }),
    setDepositBonus: build.mutation<DepositBonusOffer, boolean>({
      query: (enabled) => ({ url: '/api/user/deposit-bonus', method: 'POST', body: { enabled } }),
      async onQueryStarted(_enabled, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(depositBonusApi.util.upsertQueryData('depositBonus', undefined, data));
        } catch {
          // The toggle shows the refusal; the cached state stays what the server said.
        }
      },
    }),
  }),
});
