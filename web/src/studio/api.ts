import { fetchEnvelope, type EnvelopeResult } from '../api/envelope';
import type {
  CrashFairness,
  CrashRoundSummary,
  DiceResult,
  HistoryRound,
  RotateReply,
  RouletteBet,
  RouletteResult,
  RoundReply,
  Seed,
  StudioSession,
} from './types';
import type { SlotInfo, SlotRound } from './slots/model';

/** A failed call: the catalogue code (63 = the game session is gone) and the server's message. */
export class StudioError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const SESSION_EXPIRED = 63;

/** The studio API over the game session token (header X-Game-Session). */
export function createApi(token: string, onExpired: () => void) {
  async function call<T>(path: string, body?: unknown): Promise<T> {
    const init: RequestInit = { headers: { 'X-Game-Session': token } };
    if (body !== undefined) {
      init.method = 'POST';
      init.body = JSON.stringify(body);
      init.headers = { 'X-Game-Session': token, 'Content-Type': 'application/json' };
    }
    const r: EnvelopeResult<T> = await fetchEnvelope<T>(path, init);
    if (r.ok) return r.data;
    if (r.code === SESSION_EXPIRED) onExpired();
    throw new StudioError(r.code, r.message, r.data);
  }

  return {
    token,
    session: () => call<StudioSession>('/api/studio/session'),
    seeds: () => call<Seed>('/api/studio/seeds'),
    setClientSeed: (clientSeed: string) => call<Seed>('/api/studio/seeds/client', { clientSeed }),
    rotate: () => call<RotateReply>('/api/studio/seeds/rotate', {}),
    rounds: (limit = 10) => call<HistoryRound[]>(`/api/studio/rounds?limit=${limit}`),
    slotInfo: () => call<SlotInfo>('/api/studio/slots/info'),
    slotSpin: (bet: number) =>
      call<RoundReply<SlotRound>>('/api/studio/slots/spin', { bet }).then((r) => ({ ...r, round: r.round ?? (r.outcome as SlotRound) })),
    rouletteSpin: (bets: RouletteBet[]) =>
      call<RoundReply<RouletteResult>>('/api/studio/roulette/spin', { bets }).then(withResult),
    diceRoll: (amount: number, target: number, over: boolean) =>
      call<RoundReply<DiceResult>>('/api/studio/dice/roll', { amount, target, over }).then(withResult),
    crashFairness: () => call<CrashFairness>('/api/studio/crash/fairness'),
    crashRounds: (limit = 20) => call<CrashRoundSummary[]>(`/api/studio/crash/rounds?limit=${limit}`),
  };
}

/** CASINO.md names the settled result `result` (slots: `round`); the server may send it as `outcome` ({bet(s), result}). */
function withResult<R>(r: RoundReply<R>): RoundReply<R> {
  const outcome = r.outcome as { result?: R } | undefined;
  return { ...r, result: r.result ?? outcome?.result };
}

export type StudioApi = ReturnType<typeof createApi>;

/** `location` of the page: `/studio/<gameId>?token=…&lang=…`. */
export function launchParams(loc: Pick<Location, 'pathname' | 'search'>) {
  const q = new URLSearchParams(loc.search);
  const m = /^\/studio\/([^/?#]+)/.exec(loc.pathname);
  return {
    gameId: m ? decodeURIComponent(m[1]!) : (q.get('game') ?? ''),
    token: q.get('token') ?? '',
    lang: q.get('lang') ?? '',
  };
}
