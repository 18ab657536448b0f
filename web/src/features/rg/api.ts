import { api } from '../../api/api';
import type { ReplyOf, RequestBody } from '../../api/types';

export type RgState = ReplyOf<'/api/user/responsible-gambling', 'get'>;
export type RgSession = ReplyOf<'/api/user/responsible-gambling/session', 'get'>;
export type BlockReply = ReplyOf<'/api/user/responsible-gambling/cool-off', 'post'>;
export type LimitsBody = RequestBody<'/api/user/responsible-gambling/deposit-limits', 'put'>;
export type CoolOffPeriod = '24h' | '7d' | '30d';
export type ExclusionPeriod = '6m' | '1y' | 'permanent';

export const COOL_OFF_PERIODS: CoolOffPeriod[] = ['24h', '7d', '30d'];
export const EXCLUSION_PERIODS: ExclusionPeriod[] = ['6m', '1y', 'permanent'];
export const REALITY_CHECK_MINUTES = [0, 15, 30, 60, 120] as const;
export const PERIODS = ['day', 'week', 'month'] as const;
export type LimitPeriod = (typeof PERIODS)[number];

const RG = '/api/user/responsible-gambling';

/** Responsible gambling: limits, breaks and the reality check (docs/PAYMENTS.md). */
export const rgApi = api.enhanceEndpoints({ addTagTypes: ['Rg'] }).injectEndpoints({
  endpoints: (build) => ({
    rgState: build.query<RgState, void>({ query: () => ({ url: RG }), providesTags: ['Rg'] }),
    rgSession: build.query<RgSession, void>({ query: () => ({ url: `${RG}/session` }), providesTags: ['Rg'] }),
    setDepositLimits: build.mutation<RgState, LimitsBody>({
      query: (body) => ({ url: `${RG}/deposit-limits`, method: 'PUT', body }),
      invalidatesTags: ['Rg'],
    }),
    setRealityCheck: build.mutation<RgState, { minutes: number }>({
      query: (body) => ({ url: `${RG}/reality-check`, method: 'PUT', body }),
      invalidatesTags: ['Rg'],
    }),
    coolOff: build.mutation<BlockReply, { period: CoolOffPeriod }>({
      query: (body) => ({ url: `${RG}/cool-off`, method: 'POST', body }),
    }),
    selfExclude: build.mutation<BlockReply, { period: ExclusionPeriod; password: string }>({
      query: (body) => ({ url: `${RG}/self-exclusion`, method: 'POST', body }),
    }),
  }),
});

/** "12.5" → 12.5; "" → null (no limit); anything else (0, negative, text) → undefined. */
export function parseLimit(text: string): number | null | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  if (!/^\d+(\.\d{1,3})?$/.test(t)) return undefined;
  const n = Number(t);
  return n > 0 ? n : undefined;
}

/** Whole minutes since `startedAt` (ISO) at `now` (ms) as hours and minutes. */
export function playedFor(startedAt: string, now: number): { h: number; m: number } {
  const minutes = Math.max(0, Math.floor((now - Date.parse(startedAt)) / 60_000));
  return { h: Math.floor(minutes / 60), m: minutes % 60 };
}

/**
 * When the next reminder is due (ms): every `minutes` from the session's start, never before
 * `after` (the last reminder closed, or now). `null` when the reminder is off.
 */
export function nextReminder(startedAt: string, minutes: number, after: number): number | null {
  if (minutes <= 0) return null;
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return null;
  const step = minutes * 60_000;
  const k = Math.max(1, Math.floor((after - start) / step) + 1);
  return start + k * step;
}

/** Text isolated from the sentence's direction (an amount or a date inside Arabic text). */
export const isolate = (text: string) => `\u2068${text}\u2069`;
