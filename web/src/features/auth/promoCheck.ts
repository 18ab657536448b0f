import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/api';
import type { ApiError, ReplyOf } from '../../api/types';

export type PromoCheck = ReplyOf<'/api/payment/promocode/check_promocode', 'post'>;

/** Spec §5: a checked code is valid (2) or invalid (1); 0 while nothing is checked yet. */
export type PromoState = 0 | 1 | 2;
export const PROMO_VALID = 2;
export const PROMO_INVALID = 1;
/** Typing pauses this long before the code is checked (codes are limited to 10 wrong a hour). */
export const PROMO_CHECK_DELAY_MS = 600;

/** `check_promocode` (works for guests): the sign-up form's inline check. */
export const promoCheckApi = api.injectEndpoints({
  endpoints: (build) => ({
    checkPromocode: build.mutation<PromoCheck, { code: string }>({
      query: (body) => ({ url: '/api/payment/promocode/check_promocode', method: 'POST', body }),
    }),
  }),
});

/** A code as the server compares it: no spaces, upper case. */
export const normalizePromo = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/** The state of a reply: valid only when the reply says success (spec §5); any refusal is invalid. */
export function promoStateOf(reply: { data?: PromoCheck; error?: unknown }): PromoState {
  if (reply.data && reply.data.success && reply.data.state === PROMO_VALID) return PROMO_VALID;
  return PROMO_INVALID;
}

export interface PromoField {
  state: PromoState;
  checking: boolean;
  error: ApiError | undefined;
  /** The code to send with the sign-up: only a valid one (state 2), else null (spec §3). */
  payload: () => Promise<string | null>;
}

/**
 * Checks the typed promo code after a pause in typing; the last code typed wins (a late reply
 * for an older text is dropped). `payload()` checks at once a code not yet checked.
 */
export function usePromoCheck(text: string): PromoField {
  const [check] = promoCheckApi.useCheckPromocodeMutation();
  const code = normalizePromo(text);
  const [result, setResult] = useState<{ code: string; state: PromoState; error: ApiError | undefined } | null>(null);
  const latest = useRef(code);
  latest.current = code;

  const run = async (c: string) => {
    const res = await check({ code: c });
    const state = promoStateOf(res);
    const error = res.error ? (res.error as ApiError) : undefined;
    if (latest.current === c) setResult({ code: c, state, error });
    return state;
  };

  useEffect(() => {
    if (!code) return;
    const timer = setTimeout(() => void run(code), PROMO_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code]);

  const current = result && result.code === code ? result : null;
  return {
    state: code ? (current?.state ?? 0) : 0,
    checking: code !== '' && !current,
    error: current?.error,
    payload: async () => {
      if (!code) return null;
      const state = current ? current.state : await run(code);
      return state === PROMO_VALID ? code : null;
    },
  };
}
