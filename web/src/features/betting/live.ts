import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { bettingApi, type LineArgs, type SbEvent, type Line } from './api';
import { formatOdds } from './odds';
import { selectSlip, slipActions, slipPrices } from './slipSlice';

/** The feed messages the app applies (docs/SPORTSBOOK.md "The feed format"). */
interface OddsChangeMsg {
  type: 'odds_change';
  event_id: string;
  markets: { market: string; status?: string; outcomes?: { id: string; odds?: number; active?: boolean }[] }[];
}
interface ScoreChangeMsg {
  type: 'score_change';
  event_id: string;
  status?: string;
  score?: { home: number; away: number };
  clock?: { period?: string; time?: string } | null;
}
/** A goal: the named markets (all when absent) are suspended until an odds_change reopens them. */
interface BetStopMsg {
  type: 'bet_stop';
  event_id: string;
  markets?: string[] | null;
}
export type LiveMsg = OddsChangeMsg | ScoreChangeMsg | BetStopMsg | { type: string; event_id?: string };

const OVER = ['ended', 'closed', 'cancelled'];

/** Applies one message to an event (line or event page). Odds in the feed are thousandths. */
export function applyToEvent(ev: SbEvent, msg: LiveMsg) {
  if (msg.type === 'odds_change') {
    for (const m of (msg as OddsChangeMsg).markets) {
      const market = ev.markets.find((x) => x.key === m.market);
      if (!market) continue;
      if (m.status) market.status = m.status;
      for (const o of m.outcomes ?? []) {
        const out = market.outcomes.find((x) => x.id === o.id);
        if (!out) continue;
        if (typeof o.odds === 'number') out.odds = Number(formatOdds(o.odds));
        if (typeof o.active === 'boolean') out.active = o.active;
      }
    }
  } else if (msg.type === 'bet_stop') {
    // Marked on the slip at once (a tap would only be refused with 607).
    const names = (msg as BetStopMsg).markets;
    for (const market of ev.markets) {
      if (market.status === 'active' && (!names || names.includes(market.key))) market.status = 'suspended';
    }
  } else if (msg.type === 'score_change') {
    const s = msg as ScoreChangeMsg;
    if (s.status) ev.status = s.status;
    if (s.score) ev.score = { home: s.score.home, away: s.score.away };
    if (s.clock) ev.clock = [s.clock.period, s.clock.time ? `${s.clock.time}` : ''].filter(Boolean).join(' ');
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDispatch = (action: any) => unknown;

const applies = (msg: LiveMsg) => !!msg.event_id && (msg.type === 'odds_change' || msg.type === 'score_change' || msg.type === 'bet_stop');

/**
 * Applies messages (one frame of the socket, in order) to every cached line and event query:
 * one cache update per query for the whole frame.
 */
export function applyMessages(dispatch: AnyDispatch, getState: () => unknown, all: LiveMsg[]) {
  const msgs = all.filter(applies);
  if (msgs.length === 0) return;
  // The slip's legs take their new prices before the player taps (issue 18: a live express
  // was refused with "odds have changed" because the slip still sent the price first seen).
  const prices = slipPrices(selectSlip(getState() as never).selections, msgs);
  if (prices.length > 0) dispatch(slipActions.livePrices(prices));
  const state = getState() as Parameters<typeof bettingApi.util.selectCachedArgsForQuery>[0];
  for (const args of bettingApi.util.selectCachedArgsForQuery(state, 'line') as LineArgs[]) {
    dispatch(
      bettingApi.util.updateQueryData('line', args, (draft: Line) => {
        for (const msg of msgs) {
          const i = draft.events.findIndex((e) => e.id === msg.event_id);
          if (i < 0) continue;
          applyToEvent(draft.events[i]!, msg);
          if (OVER.includes(draft.events[i]!.status)) draft.events.splice(i, 1);
        }
      }),
    );
  }
  for (const id of bettingApi.util.selectCachedArgsForQuery(state, 'event') as string[]) {
    const mine = msgs.filter((m) => m.event_id === id);
    if (mine.length === 0) continue;
    dispatch(
      bettingApi.util.updateQueryData('event', id, (draft: SbEvent) => {
        for (const msg of mine) applyToEvent(draft, msg);
      }),
    );
  }
}

/** [`applyMessages`] for one message. */
export function applyMessage(dispatch: AnyDispatch, getState: () => unknown, msg: LiveMsg) {
  applyMessages(dispatch, getState, [msg]);
}

/** Most list topics a socket holds before it takes `live` instead (the server allows 200). */
export const MAX_LIST_TOPICS = 150;

/**
 * The topics for what the app shows: each cached line row as `list:<id>` (its main market, score
 * and status: all a row shows), or `live` when there are more rows than MAX_LIST_TOPICS; and the
 * open event whole (`event:<id>`). A sport page of 20 rows then receives those 20 rows' changes,
 * not every match in play.
 */
export function liveTopics(rowIds: readonly string[], eventId?: string, slipEventIds: readonly string[] = []): string[] {
  const unique = [...new Set(rowIds)].sort();
  const rows = unique.length > MAX_LIST_TOPICS ? ['live'] : unique.map((id) => `list:${id}`);
  // The slip's events whole: a leg on any market gets its price (a list row has the main market only).
  const events = [...new Set([...(eventId ? [eventId] : []), ...slipEventIds])].map((id) => `event:${id}`);
  return [...rows, ...events];
}

/** What to send to go from the topics held to the topics wanted. */
export function topicChanges(held: readonly string[], wanted: readonly string[]) {
  const h = new Set(held);
  const w = new Set(wanted);
  return { subscribe: wanted.filter((t) => !h.has(t)), unsubscribe: held.filter((t) => !w.has(t)) };
}

/** The ids of the events of every cached line query, sorted, one per line (a stable value for React). */
export function cachedRowKey(state: unknown): string {
  const s = state as Parameters<typeof bettingApi.util.selectCachedArgsForQuery>[0];
  const ids = new Set<string>();
  for (const args of bettingApi.util.selectCachedArgsForQuery(s, 'line') as LineArgs[]) {
    for (const e of bettingApi.endpoints.line.select(args)(s as never).data?.events ?? []) ids.add(e.id);
  }
  return [...ids].sort().join('\n');
}

/**
 * One WebSocket to /api/sportsbook/ws for the betting pages: subscribes to the rows the app holds
 * (`liveTopics`: `list:<id>` each, or `live` when there are many) and `event:<id>` on an event page, applies the messages to the cache, refetches on `resync` and
 * after a reconnect, and reconnects with back-off (1 s doubling to 30 s). Returns whether the
 * socket is up: while it is not, the pages poll the line every 30 s.
 */
export function useLiveUpdates(eventId: string | undefined): boolean {
  const dispatch = useAppDispatch();
  const [socket, setSocket] = useState<WebSocket | null>(null);
  const [up, setUp] = useState(false);
  const rowKey = useAppSelector(cachedRowKey);
  const slipKey = useAppSelector((s) => [...new Set(selectSlip(s).selections.map((x) => x.eventId))].sort().join('\n'));
  /** The topics the current socket holds. */
  const held = useRef<string[]>([]);

  useEffect(() => {
    if (typeof WebSocket === 'undefined') return;
    let stopped = false;
    let delay = 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: WebSocket | null = null;
    let opened = 0;
    const refetch = () => dispatch(bettingApi.util.invalidateTags(['SbLine']));
    const connect = () => {
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      const ws = new WebSocket(`${scheme}://${location.host}/api/sportsbook/ws`);
      current = ws;
      ws.onopen = () => {
        delay = 1000;
        opened += 1;
        if (opened > 1) refetch(); // missed messages while down
        held.current = [];
        setUp(true);
        setSocket(ws);
      };
      ws.onmessage = (e) => {
        // One frame per feed tick: an array of feed messages; control messages are objects.
        let data: LiveMsg | LiveMsg[];
        try {
          data = JSON.parse(String(e.data)) as LiveMsg | LiveMsg[];
        } catch {
          return;
        }
        if (!Array.isArray(data) && data.type === 'resync') refetch();
        else {
          const msgs = Array.isArray(data) ? data : [data];
          dispatch((d, getState) => applyMessages(d as AnyDispatch, getState, msgs));
        }
      };
      ws.onclose = () => {
        setUp(false);
        setSocket(null);
        if (stopped) return;
        timer = setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30_000);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      current?.close();
    };
  }, [dispatch]);

  // Topics follow what is shown: the cached rows and the open event.
  useEffect(() => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const wanted = liveTopics(rowKey ? rowKey.split('\n') : [], eventId, slipKey ? slipKey.split('\n') : []);
    const { subscribe, unsubscribe } = topicChanges(held.current, wanted);
    if (unsubscribe.length > 0) socket.send(JSON.stringify({ type: 'unsubscribe', topics: unsubscribe }));
    if (subscribe.length > 0) socket.send(JSON.stringify({ type: 'subscribe', topics: subscribe }));
    held.current = wanted;
  }, [socket, eventId, rowKey, slipKey]);

  return up;
}

/**
 * Whether a slip selection can be bet now, from the cached line and event: false when its market
 * is suspended or closed or the outcome inactive, true when open, undefined when not cached.
 */
export function selectionOpen(state: unknown, sel: { eventId: string; market: string; outcomeId: string }): boolean | undefined {
  const s = state as Parameters<typeof bettingApi.util.selectCachedArgsForQuery>[0];
  const events: SbEvent[] = [];
  for (const id of bettingApi.util.selectCachedArgsForQuery(s, 'event') as string[]) {
    const ev = id === sel.eventId ? bettingApi.endpoints.event.select(id)(s as never).data : undefined;
    if (ev) events.push(ev);
  }
  for (const args of bettingApi.util.selectCachedArgsForQuery(s, 'line') as LineArgs[]) {
    const ev = bettingApi.endpoints.line.select(args)(s as never).data?.events.find((e) => e.id === sel.eventId);
    if (ev) events.push(ev);
  }
  for (const ev of events) {
    const market = ev.markets.find((m) => m.key === sel.market);
    const outcome = market?.outcomes.find((o) => o.id === sel.outcomeId);
    if (market && outcome) return market.status === 'active' && outcome.active;
  }
  return undefined;
}
