import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query/react';
import { envelopeBaseQuery } from '../api/api';
import type { ReplyOf, RequestBody } from '../api/types';

export type DeskMe = ReplyOf<'/api/desk/me', 'get'>;
export type DeskPlayer = ReplyOf<'/api/desk/player', 'get'>;
export type DeskDeposit = ReplyOf<'/api/desk/deposit', 'post'>;
export type DeskPayout = ReplyOf<'/api/desk/payout', 'post'>;
export type DeskReport = ReplyOf<'/api/desk/report', 'get'>;
export type DeskCashier = ReplyOf<'/api/desk/cashiers', 'get'>[number];
export type DeskFloat = ReplyOf<'/api/desk/float', 'post'>;
type FloatBody = RequestBody<'/api/desk/float', 'post'>;
type DepositBody = RequestBody<'/api/desk/deposit', 'post'>;

/** The desk API (docs/PAYMENTS.md "Cashier desk API"); the money calls carry an Idempotency-Key. */
export const deskApi = createApi({
  reducerPath: 'desk',
  baseQuery: envelopeBaseQuery,
  tagTypes: ['Me', 'Report', 'Cashiers'],
  endpoints: (build) => ({
    me: build.query<DeskMe, void>({ query: () => ({ url: '/api/desk/me' }), providesTags: ['Me'] }),
    login: build.mutation<unknown, RequestBody<'/api/user/login', 'post'>>({
      query: (body) => ({ url: '/api/user/login', method: 'POST', body }),
      invalidatesTags: ['Me', 'Report', 'Cashiers'],
    }),
    logout: build.mutation<unknown, void>({ query: () => ({ url: '/api/user/logout' }), invalidatesTags: ['Me'] }),
    player: build.query<DeskPlayer, string>({ query: (q) => ({ url: `/api/desk/player?${new URLSearchParams({ query: q }).toString()}` }) }),
    deposit: build.mutation<DeskDeposit, DepositBody & { key: string }>({
      query: ({ key, ...body }) => ({ url: '/api/desk/deposit', method: 'POST', body, headers: { 'Idempotency-Key': key } }),
      invalidatesTags: ['Me', 'Report'],
    }),
    payout: build.mutation<DeskPayout, string>({
      query: (code) => ({ url: '/api/desk/payout', method: 'POST', body: { code } }),
      invalidatesTags: ['Me', 'Report'],
    }),
    report: build.query<DeskReport, { from: string; to: string }>({
      query: ({ from, to }) => ({ url: `/api/desk/report?${new URLSearchParams({ date_from: from, date_to: to }).toString()}` }),
      providesTags: ['Report'],
    }),
    cashiers: build.query<DeskCashier[], void>({ query: () => ({ url: '/api/desk/cashiers' }), providesTags: ['Cashiers'] }),
    moveFloat: build.mutation<DeskFloat, FloatBody & { key: string }>({
      query: ({ key, ...body }) => ({ url: '/api/desk/float', method: 'POST', body, headers: { 'Idempotency-Key': key } }),
      invalidatesTags: ['Me', 'Cashiers'],
    }),
  }),
});

export const makeDeskStore = () =>
  configureStore({
    reducer: { [deskApi.reducerPath]: deskApi.reducer },
    middleware: (getDefault) => getDefault().concat(deskApi.middleware),
  });

/** A fresh idempotency key for one money operation (kept across its retries). */
export const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
