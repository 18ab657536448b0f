import { configureStore } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { envelopeBaseQuery, type Request } from '../api/api';
import type { ApiError, Schemas } from '../api/types';

/*
 * The console's API (docs/BACKOFFICE.md): every call rides on the staff session cookie
 * (`carthage_staff`, set by POST /api/staff/login, same origin) and answers the envelope.
 */

/*
 * Types by schema name, not by path: the contract repeats operation ids (`me`, `list`, `login`,
 * `approve`… are each two operations), and src/api/schema.d.ts keys operations by id, so a
 * path's `ReplyOf` can name the other operation's reply.
 */

/** `GET /api/admin/me`: the signed-in staff member and what their role may do (`permissions`). */
export type StaffMe = Schemas['StaffMe'];
export type PlayerRow = Schemas['PlayerRow'];
export type PlayerCard = Schemas['PlayerCard'];
export type AuditRow = Schemas['AuditRow'];
export type AuditPage = Schemas['AuditPage'];
export type AuditCheck = Schemas['AuditCheck'];
export type WithdrawalRow = Schemas['WithdrawalRow'];
export type DecideOutcome = Schemas['DecideOutcome'];
export type AdjustReply = Schemas['AdjustReply'];
export type AdjustRequestView = Schemas['AdjustRequestView'];
export type BanReply = Schemas['BanReply'];
export type NoteRow = Schemas['NoteRow'];
export type ProviderBlockReply = Schemas['ProviderBlockReply'];
export type EnrolReply = Schemas['EnrolReply'];

type LoginBody = Schemas['StaffLoginRequest'];
type EnrolBody = Schemas['StaffEnrolRequest'];
type AdjustBody = Schemas['AdjustRequest'];
type DecideBody = Schemas['DecideRequest'];
type ProviderBlockBody = Schemas['ProviderBlockRequest'];

export interface AuditQuery {
  actor?: string;
  action?: string;
  subject?: string;
  before?: number;
  limit?: number;
}

/** A query string of the set values only. */
function qs(params: Record<string, string | number | undefined>): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') out.set(k, String(v));
  const text = out.toString();
  return text ? `?${text}` : '';
}

const post = (url: string, body: unknown = {}) => ({ url, method: 'POST' as const, body });

/** The calls that decide who is signed in themselves. */
const SESSION_ENDPOINTS = new Set(['me', 'login', 'enrol', 'logout']);

/**
 * The shared envelope query; a call answering "not signed in" (23) or "no second factor" (142)
 * — the console session ended (8 h, 30 min idle) or was ended elsewhere — asks again who is
 * signed in, and the root shows the sign-in page at the same address.
 */
const consoleBaseQuery: BaseQueryFn<Request, unknown, ApiError> = async (args, api, extra) => {
  const result = await envelopeBaseQuery(args, api, extra);
  if (result.error && (result.error.code === 23 || result.error.code === 142) && !SESSION_ENDPOINTS.has(api.endpoint)) {
    api.dispatch(consoleApi.util.invalidateTags(['Me']));
  }
  return result;
};

export const consoleApi = createApi({
  reducerPath: 'console',
  baseQuery: consoleBaseQuery,
  tagTypes: ['Me', 'Player', 'Players', 'Withdrawals', 'Requests', 'Audit'],
  endpoints: (build) => ({
    me: build.query<StaffMe, void>({ query: () => ({ url: '/api/admin/me' }), providesTags: ['Me'] }),
    login: build.mutation<unknown, LoginBody>({
      query: (body) => post('/api/staff/login', body),
      // A new person may be signed in now: nothing cached for the last one stays. Only on
      // success: a refused sign-in asking "who is signed in?" again would reload the sign-in
      // page under the person typing (and lose what they typed).
      invalidatesTags: (result) => (result ? ['Me', 'Player', 'Players', 'Withdrawals', 'Requests', 'Audit'] : []),
    }),
    enrol: build.mutation<EnrolReply, EnrolBody>({ query: (body) => post('/api/staff/totp/enrol', body) }),
    logout: build.mutation<unknown, void>({ query: () => post('/api/staff/logout') }),

    players: build.query<PlayerRow[], string>({
      query: (q) => ({ url: `/api/admin/players${qs({ q })}` }),
      providesTags: ['Players'],
    }),
    player: build.query<PlayerCard, number>({
      query: (id) => ({ url: `/api/admin/players/${id}` }),
      providesTags: (_r, _e, id) => [{ type: 'Player', id }],
    }),
    setBanned: build.mutation<BanReply, { id: number; banned: boolean; reason: string }>({
      query: ({ id, banned, reason }) => post(`/api/admin/players/${id}/${banned ? 'ban' : 'unban'}`, { reason }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Player', id }, 'Players', 'Audit'],
    }),
    addNote: build.mutation<NoteRow, { id: number; body: string }>({
      query: ({ id, body }) => post(`/api/admin/players/${id}/notes`, { body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Player', id }, 'Audit'],
    }),
    providerBlock: build.mutation<ProviderBlockReply, ProviderBlockBody & { id: number }>({
      query: ({ id, ...body }) => post(`/api/admin/players/${id}/provider-blocks`, body),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Player', id }, 'Audit'],
    }),
    /** The key is in the body (the contract's `idempotencyKey`) and in the header, kept across a retry. */
    adjust: build.mutation<AdjustReply, AdjustBody>({
      query: (body) => ({ ...post('/api/admin/wallet/adjust', body), headers: { 'Idempotency-Key': body.idempotencyKey } }),
      invalidatesTags: (_r, _e, { userId }) => [{ type: 'Player', id: userId }, 'Requests', 'Audit'],
    }),

    withdrawals: build.query<WithdrawalRow[], string>({
      query: (status) => ({ url: `/api/admin/payments/withdrawals${qs({ status })}` }),
      providesTags: ['Withdrawals'],
    }),
    approveWithdrawal: build.mutation<WithdrawalRow, number>({
      query: (id) => post(`/api/admin/payments/withdrawals/${id}/approve`),
      invalidatesTags: ['Withdrawals', 'Player', 'Audit'],
    }),
    rejectWithdrawal: build.mutation<WithdrawalRow, { id: number; reason: string }>({
      query: ({ id, reason }) => post(`/api/admin/payments/withdrawals/${id}/reject`, { reason }),
      invalidatesTags: ['Withdrawals', 'Player', 'Audit'],
    }),
    decideWithdrawals: build.mutation<DecideOutcome[], DecideBody>({
      query: (body) => post('/api/admin/payments/withdrawals/decide', body),
      invalidatesTags: ['Withdrawals', 'Player', 'Audit'],
    }),

    adjustRequests: build.query<AdjustRequestView[], string>({
      query: (status) => ({ url: `/api/admin/wallet/adjust-requests${qs({ status })}` }),
      providesTags: ['Requests'],
    }),
    approveRequest: build.mutation<AdjustRequestView, number>({
      query: (id) => post(`/api/admin/wallet/adjust-requests/${id}/approve`),
      invalidatesTags: ['Requests', 'Player', 'Audit'],
    }),
    /**
     * The server reads `{note}` here (crates/server/src/api/admin.rs). The contract's
     * `RejectRequest` schema is the withdrawals' `{reason}` (two Rust types of one name), so the
     * body is typed by hand.
     */
    rejectRequest: build.mutation<AdjustRequestView, { id: number; note: string }>({
      query: ({ id, note }) => post(`/api/admin/wallet/adjust-requests/${id}/reject`, { note }),
      invalidatesTags: ['Requests', 'Audit'],
    }),

    audit: build.query<AuditPage, AuditQuery>({
      query: (q) => ({ url: `/api/admin/audit${qs({ ...q })}` }),
      providesTags: ['Audit'],
    }),
    verifyAudit: build.query<AuditCheck, void>({ query: () => ({ url: '/api/admin/audit/verify' }) }),
  }),
});

export const makeConsoleStore = () =>
  configureStore({
    reducer: { [consoleApi.reducerPath]: consoleApi.reducer },
    middleware: (getDefault) => getDefault().concat(consoleApi.middleware),
  });

export type ConsoleStore = ReturnType<typeof makeConsoleStore>;

/** A fresh idempotency key for one money operation (kept across its retries). */
export const newKey = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
