import type { ApiError } from '../../api/types';
import type { AppDispatch } from '../../app/store';
import { paymentsApi, REDIRECT_CODE, type DepositReply, type IntentId, type WithdrawalReply } from './api';

/**
 * What the payment frame is asked to do (router state of /payment-frame, spec §4 "Payment frame":
 * on mount, if authenticated, an amount is given and no link exists, a deposit or withdrawal
 * starts; a withdrawal also needs a phone number). `key` names this one request: a reload or a
 * second mount (React's strict mode) answers the same intent instead of creating another one.
 */
export type FrameProvider = 'card' | 'paykassma' | 'telegram';
export interface FrameRequest {
  key: string;
  kind: 'deposit' | 'withdrawal';
  provider: FrameProvider;
  /** Major units as the API takes them (built from exact minor units). */
  amount: number;
  currency: string;
  /** Withdrawals: 216XXXXXXXX. */
  phone?: string;
  /** A deposit already created (Telegram): the frame only shows its link. */
  link?: { id: IntentId; invoice_url: string; status: string };
  /** What the balance receives when it differs from what is paid (Telegram: USDT converted). */
  credit?: { amount: number; currency: string };
}

export type StartOutcome =
  | { type: 'link'; id: IntentId; link: string; status: string }
  | { type: 'withdrawal'; id: IntentId; status: string; amount: number; currency: string; link: string | null }
  /**
   * Code 20: the page runs in the top-level window. `fresh` is false when the player comes back
   * (browser Back from the provider, a reload): the same intent is then followed, not restarted.
   */
  | { type: 'redirect'; url: string; id: IntentId | null; fresh: boolean }
  | { type: 'error'; error: ApiError };

export const newRequestKey = () =>
  globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export function isFrameRequest(v: unknown): v is FrameRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<FrameRequest>;
  return (
    typeof r.key === 'string' &&
    (r.kind === 'deposit' || r.kind === 'withdrawal') &&
    (r.provider === 'card' || r.provider === 'paykassma' || r.provider === 'telegram') &&
    typeof r.amount === 'number' &&
    r.amount > 0 &&
    typeof r.currency === 'string' &&
    (r.kind === 'deposit' || (typeof r.phone === 'string' && r.phone !== ''))
  );
}

const storeKey = (key: string, part: string) => `carthage.pay.${key}.${part}`;
function read<T>(key: string, part: string): T | null {
  try {
    const raw = sessionStorage.getItem(storeKey(key, part));
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}
function write(key: string, part: string, value: unknown) {
  try {
    sessionStorage.setItem(storeKey(key, part), JSON.stringify(value));
  } catch {
    /* private mode: a reload then starts afresh */
  }
}

/** Only http(s) URLs are followed (a code-20 reply's `url`, a provider's link). */
export function safeUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw === '') return null;
  try {
    const u = new URL(raw, window.location.href);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * Our own hosted pages (the sandbox and the Paykassma emulation, same origin under /pay/) are
 * shown in the app's language; a third party's link is never changed.
 */
export function localizedLink(link: string, lang: string): string {
  try {
    const u = new URL(link);
    if (u.origin !== window.location.origin || !u.pathname.startsWith('/pay/')) return link;
    u.searchParams.set('lang', lang);
    return u.href;
  } catch {
    return link;
  }
}

/** The top-level navigation of a code-20 reply (a seam for tests: jsdom cannot navigate). */
export const topLevel = {
  assign(url: string) {
    window.location.assign(url);
  },
};

type Unwrapped<T> = { data: T } | { error: ApiError };
async function call<T>(p: PromiseLike<unknown>): Promise<Unwrapped<T>> {
  const res = (await p) as { data?: T; error?: unknown };
  if ('error' in res && res.error !== undefined) {
    const e = res.error as Partial<ApiError>;
    return { error: typeof e.code === 'number' ? (e as ApiError) : { code: -2, message: String(e.message ?? 'error') } };
  }
  return { data: res.data as T };
}

function fromError(error: ApiError): StartOutcome {
  if (error.code === REDIRECT_CODE) {
    const url = safeUrl((error.data as { url?: unknown } | undefined)?.url);
    const id = (error.data as { id?: unknown } | undefined)?.id;
    if (url) return { type: 'redirect', url, id: typeof id === 'number' || typeof id === 'string' ? id : null, fresh: true };
  }
  return { type: 'error', error };
}

async function start(req: FrameRequest, dispatch: AppDispatch): Promise<StartOutcome> {
  if (req.link) return { type: 'link', id: req.link.id, link: req.link.invoice_url, status: req.link.status };
  const ep = paymentsApi.endpoints;
  // The card (operator's default provider) calls take a single-use token, which is also their
  // idempotency key: kept for this request so a retry or reload answers the same intent.
  let token: string | null = null;
  if (req.provider === 'card') {
    token = read<string>(req.key, 'token');
    if (!token) {
      const t = await call<{ token: string }>(dispatch(ep.paymentToken.initiate()));
      if ('error' in t) return fromError(t.error);
      token = t.data.token;
      write(req.key, 'token', token);
    }
  }
  if (req.kind === 'deposit') {
    const res =
      req.provider === 'paykassma'
        ? await call<DepositReply>(
            dispatch(ep.paykassmaDeposit.initiate({ amount: req.amount })),
          )
        : await call<DepositReply>(
            dispatch(ep.deposit.initiate({ amount: req.amount, sessionToken: token! })),
          );
    if ('error' in res) return fromError(res.error);
    const link = safeUrl(res.data.invoice_url);
    if (!link) return { type: 'error', error: { code: -2, message: 'no payment link' } };
    return { type: 'link', id: res.data.id, link, status: res.data.status };
  }
  const body = { amount: req.amount, phone_number: req.phone! };
  const res =
    req.provider === 'paykassma'
      ? await call<WithdrawalReply>(dispatch(ep.paykassmaWithdrawal.initiate(body)))
      : await call<WithdrawalReply>(dispatch(ep.withdrawal.initiate({ ...body, sessionToken: token! })));
  if ('error' in res) return fromError(res.error);
  return {
    type: 'withdrawal',
    id: res.data.id,
    status: res.data.status,
    amount: res.data.user_amount,
    currency: res.data.user_currency,
    link: safeUrl(res.data.invoice_url),
  };
}

const inflight = new Map<string, Promise<StartOutcome>>();

/**
 * Starts the request once: a second mount, a reload or a return to the page gets the same
 * outcome (kept for the tab) instead of a second intent. A refusal is not kept: the next visit
 * may try again.
 */
export function startOnce(req: FrameRequest, dispatch: AppDispatch): Promise<StartOutcome> {
  const kept = read<StartOutcome>(req.key, 'outcome');
  if (kept && (kept.type === 'link' || kept.type === 'withdrawal')) return Promise.resolve(kept);
  if (kept && kept.type === 'redirect') return Promise.resolve({ ...kept, fresh: false });
  let p = inflight.get(req.key);
  if (!p) {
    p = start(req, dispatch).then((outcome) => {
      if (outcome.type === 'link' || outcome.type === 'withdrawal' || outcome.type === 'redirect') {
        write(req.key, 'outcome', outcome);
      } else inflight.delete(req.key);
      return outcome;
    });
    inflight.set(req.key, p);
  }
  return p;
}

/** Leaving the frame: the in-memory start is forgotten (the kept outcome stays for the tab). */
export function forget(key: string) {
  inflight.delete(key);
}

/** A message of the framed page: Telegram's `web_app_expand`, or the hosted page's result. */
export type FrameMessage = { type: 'expand' } | { type: 'payment'; id: string; status: string } | null;

export function parseFrameMessage(data: unknown): FrameMessage {
  let d = data;
  if (typeof d === 'string') {
    try {
      d = JSON.parse(d);
    } catch {
      return d === 'web_app_expand' ? { type: 'expand' } : null;
    }
  }
  if (typeof d !== 'object' || d === null) return null;
  const o = d as Record<string, unknown>;
  if (o.type === 'web_app_expand' || o.eventType === 'web_app_expand') return { type: 'expand' };
  if (o.type === 'carthage:payment' && (typeof o.id === 'string' || typeof o.id === 'number')) {
    return { type: 'payment', id: String(o.id), status: typeof o.status === 'string' ? o.status : '' };
  }
  return null;
}
