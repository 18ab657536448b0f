import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { fetchEnvelope } from './envelope';
import type {
  ApiError,
  Balance,
  FlatPage,
  HistoryEntry,
  OneClick,
  Profile,
  ReplyOf,
  RequestBody,
  Session,
  Settings,
  Slide,
  User,
} from './types';

export interface Request {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
}

/** Same-origin fetch (the `carthage_session` cookie rides along) unwrapping the envelope. */
export const envelopeBaseQuery: BaseQueryFn<Request, unknown, ApiError> = async (req, { signal }) => {
  const headers: Record<string, string> = { ...req.headers };
  const init: RequestInit = { method: req.method ?? 'GET', credentials: 'same-origin', signal, headers };
  if (req.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(req.body);
  }
  const reply = await fetchEnvelope<unknown>(req.url, init);
  if (reply.ok) return { data: reply.data };
  const error: ApiError = { code: reply.code, message: reply.message };
  if (reply.data !== undefined) error.data = reply.data;
  return { error };
};

const post = <B,>(url: string, body: B): Request => ({ url, method: 'POST', body });

function normalizeSettings(raw: unknown): Settings {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<Settings> & Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    ...r,
    lang: typeof r.lang === 'string' ? r.lang : 'en-US',
    languages: strings(r.languages),
    // FUN is never offered (spec §1).
    currencies: strings(r.currencies).filter((c) => c !== 'FUN'),
    defaultCurrency: typeof r.defaultCurrency === 'string' ? r.defaultCurrency : 'TND',
    phoneCodeSalt: typeof r.phoneCodeSalt === 'string' ? r.phoneCodeSalt : '',
    phoneCountryCode: typeof r.phoneCountryCode === 'string' ? r.phoneCountryCode : '+216',
    phoneLength: typeof r.phoneLength === 'number' ? r.phoneLength : 8,
  };
}

export interface HistoryQuery {
  begin: string;
  end: string;
  limit: number;
  offset: number;
  /** Only the entries on one balance (`cashback`: the cashback page's history). */
  purse?: string;
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery: envelopeBaseQuery,
  tagTypes: ['User', 'Balance', 'Profile', 'History', 'Settings', 'Blocklist'],
  endpoints: (build) => ({
    settings: build.query<Settings, void>({
      query: () => ({ url: '/api/site/settings' }),
      transformResponse: normalizeSettings,
      providesTags: ['Settings'],
    }),
    flatPages: build.query<FlatPage[], string>({
      query: (lang) => ({ url: `/api/site/flatpages/list/${encodeURIComponent(lang)}` }),
      // Sorted by priority, highest first (the server does it too).
      transformResponse: (pages: FlatPage[]) => [...pages].sort((a, b) => b.priority - a.priority),
    }),
    slides: build.query<Slide[], string>({
      query: (lang) => ({ url: `/api/site/slides?lang=${encodeURIComponent(lang)}` }),
    }),
    /** Banned providers (lower case). The endpoint may not exist: a failure is an empty list. */
    blocklist: build.query<string[], void>({
      async queryFn(_arg, api) {
        const res = await envelopeBaseQuery({ url: '/api/user/blocklist' }, api, {});
        const list = Array.isArray(res.data) ? res.data : [];
        return { data: list.filter((p): p is string => typeof p === 'string').map((p) => p.toLowerCase()) };
      },
      providesTags: ['Blocklist'],
    }),
    check: build.query<ReplyOf<'/api/user/check', 'get'>, void>({
      query: () => ({ url: '/api/user/check' }),
      providesTags: ['User'],
    }),
    balance: build.query<Balance, void>({
      query: () => ({ url: '/api/user/balance' }),
      providesTags: ['Balance'],
    }),
    profile: build.query<Profile, void>({
      query: () => ({ url: '/api/user/profile' }),
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<Profile, RequestBody<'/api/user/profile/additional/update', 'put'>>({
      query: (body) => ({ url: '/api/user/profile/additional/update', method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
    login: build.mutation<Session, RequestBody<'/api/user/login', 'post'>>({
      query: (body) => post('/api/user/login', body),
    }),
    loginPhone: build.mutation<Session, RequestBody<'/api/user/login/phone', 'post'>>({
      query: (body) => post('/api/user/login/phone', body),
    }),
    logout: build.mutation<unknown, void>({
      query: () => ({ url: '/api/user/logout' }),
    }),
    phoneCode: build.mutation<ReplyOf<'/api/user/phone/code', 'post'>, RequestBody<'/api/user/phone/code', 'post'>>({
      query: (body) => post('/api/user/phone/code', body),
    }),
    signupPhone: build.mutation<Session, RequestBody<'/api/user/signup/phone', 'post'>>({
      query: (body) => post('/api/user/signup/phone', body),
    }),
    signupEmail: build.mutation<ReplyOf<'/api/user/signup', 'post'>, RequestBody<'/api/user/signup', 'post'>>({
      query: (body) => post('/api/user/signup', body),
    }),
    signupOneClick: build.mutation<OneClick, RequestBody<'/api/user/signup/one-click', 'post'>>({
      query: (body) => post('/api/user/signup/one-click', body),
    }),
    restoreEmail: build.mutation<unknown, RequestBody<'/api/user/password/restore', 'post'>>({
      query: (body) => post('/api/user/password/restore', body),
    }),
    restorePhone: build.mutation<
      ReplyOf<'/api/user/password/restore/phone', 'post'>,
      RequestBody<'/api/user/password/restore/phone', 'post'>
    >({
      query: (body) => post('/api/user/password/restore/phone', body),
    }),
    restoreNew: build.mutation<unknown, RequestBody<'/api/user/password/restore/new', 'post'>>({
      query: (body) => post('/api/user/password/restore/new', body),
    }),
    restorePhoneNew: build.mutation<unknown, RequestBody<'/api/user/password/restore/phone/new', 'post'>>({
      query: (body) => post('/api/user/password/restore/phone/new', body),
    }),
    verifyEmail: build.mutation<ReplyOf<'/api/user/email/verify/{code}', 'get'>, string>({
      query: (code) => ({ url: `/api/user/email/verify/${encodeURIComponent(code)}` }),
    }),
    changePassword: build.mutation<unknown, RequestBody<'/api/user/password/change', 'post'>>({
      query: (body) => post('/api/user/password/change', body),
    }),
    moveCashback: build.mutation<unknown, void>({
      query: () => ({
        url: '/api/user/balance/move_cashback_to_real',
        method: 'PATCH',
        headers: { 'Idempotency-Key': crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}` },
      }),
      invalidatesTags: ['Balance', 'History'],
    }),
    history: build.query<HistoryEntry[], HistoryQuery>({
      query: ({ begin, end, limit, offset, purse }) => ({
        url: `/api/user/transactions?${new URLSearchParams({
          begin,
          end,
          limit: String(limit),
          offset: String(offset),
          ...(purse ? { purse } : {}),
        }).toString()}`,
      }),
      providesTags: ['History'],
    }),
    setLanguage: build.mutation<unknown, RequestBody<'/api/bs3/remote/SetLanguage', 'post'>>({
      query: (body) => post('/api/bs3/remote/SetLanguage', body),
    }),
  }),
});

export type { User };
