import { api } from '../../api/api';
import type { ReplyOf, RequestBody } from '../../api/types';

export type CashierOption = ReplyOf<'/api/payment/cashiers', 'get'>[number];
export type CashierWithdrawal = ReplyOf<'/api/payment/cashier_withdrawal_request', 'post'>;
export type WithdrawalHistory = ReplyOf<'/api/payment/cashier_withdrawal_request/history', 'get'>;
export type WithdrawalBody = RequestBody<'/api/payment/cashier_withdrawal_request', 'post'>;

/** The cashier network, player side (docs/PAYMENTS.md "Cashier network (player side)"). */
export const cashierApi = api.enhanceEndpoints({ addTagTypes: ['CashierWithdrawals'] }).injectEndpoints({
  endpoints: (build) => ({
    cashiers: build.query<CashierOption[], void>({
      query: () => ({ url: '/api/payment/cashiers' }),
    }),
    withdrawalHistory: build.query<WithdrawalHistory, string>({
      query: (search) => ({ url: `/api/payment/cashier_withdrawal_request/history${search}` }),
      providesTags: ['CashierWithdrawals'],
    }),
    requestWithdrawal: build.mutation<CashierWithdrawal, WithdrawalBody>({
      query: (body) => ({ url: '/api/payment/cashier_withdrawal_request', method: 'POST', body }),
      invalidatesTags: ['CashierWithdrawals', 'Balance', 'History'],
    }),
    cancelWithdrawal: build.mutation<CashierWithdrawal, number>({
      query: (id) => ({ url: '/api/payment/cashier_withdrawal_request/cancel', method: 'POST', body: { id } }),
      invalidatesTags: ['CashierWithdrawals', 'Balance', 'History'],
    }),
  }),
});
