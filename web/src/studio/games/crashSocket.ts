/** The crash WebSocket (docs/CASINO.md §2): JSON frames, reconnect with backoff, server clock offset. */

export type CrashPhase = 'betting' | 'running' | 'crashed';

export interface CrashPlayer {
  name: string;
  bet: number;
  cashedOutAt: number | null;
  win: number | null;
}

export type ServerMessage =
  | { type: 'hello'; playerId: number; currency: string; exponent: number; balance: number; minBet: number; maxBet: number; maxWin: number; serverTime: number }
  | { type: 'round'; id: number; phase: CrashPhase; bettingEndsAt?: number; startedAt?: number; crashPoint?: number; hash?: string; serverTime: number }
  | { type: 'start'; id: number; startedAt: number; serverTime: number }
  | { type: 'tick'; id: number; m: number; serverTime: number }
  | { type: 'crash'; id: number; crashPoint: number; hash: string; serverTime: number }
  | { type: 'players'; id: number; players: CrashPlayer[]; count: number }
  | { type: 'betAccepted'; requestId: string | null; roundId: number; amount: number; autoCashOut: number | null; balance: number }
  | { type: 'cashedOut'; requestId: string | null; roundId: number; multiplier: number; win: number; balance: number; forced?: boolean }
  | { type: 'error'; requestId: string | null; status: number; message: string };

export type ClientMessage =
  | { type: 'bet'; requestId: string; amount: number; autoCashOut: number | null }
  | { type: 'cashout'; requestId: string };

export interface SocketEvents {
  message: (m: ServerMessage) => void;
  status: (s: 'connecting' | 'open' | 'closed') => void;
}

/** Backoff before reconnect attempt `n` (0-based): 0.5 s, 1 s, 2 s, 4 s, … capped at 10 s, with jitter. */
export function backoffMs(n: number, random = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** n);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A self-reconnecting socket. `close()` stops it for good. */
export function connectCrash(token: string, on: SocketEvents) {
  let ws: WebSocket | null = null;
  let attempts = 0;
  let timer: number | undefined;
  let stopped = false;
  let seq = 0;

  const url = () => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/api/studio/crash/ws?token=${encodeURIComponent(token)}`;
  };

  const open = () => {
    if (stopped) return;
    on.status('connecting');
    const socket = new WebSocket(url());
    ws = socket;
    socket.onmessage = (ev) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === 'hello') {
        attempts = 0;
        on.status('open');
      }
      on.message(msg);
    };
    socket.onclose = () => {
      if (ws !== socket) return;
      ws = null;
      on.status('closed');
      if (stopped) return;
      timer = window.setTimeout(open, backoffMs(attempts));
      attempts += 1;
    };
    socket.onerror = () => {
      /* onclose follows */
    };
  };

  open();

  return {
    send(m: Omit<ClientMessage, 'requestId'> & { type: ClientMessage['type'] } & Record<string, unknown>): string | null {
      if (!ws || ws.readyState !== WebSocket.OPEN) return null;
      seq += 1;
      const requestId = `r${seq}`;
      ws.send(JSON.stringify({ ...m, requestId }));
      return requestId;
    },
    close() {
      stopped = true;
      window.clearTimeout(timer);
      const s = ws;
      ws = null;
      s?.close();
    },
  };
}
