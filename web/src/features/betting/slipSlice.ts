import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useLayoutEffect } from 'react';
import { useStore } from 'react-redux';
import { injectReducer, type AppStore, type RootState } from '../../app/store';
import type { Funding } from './funding';
import { oddsFromWire } from './odds';

export interface Selection {
  eventId: string;
  eventName: string;
  market: string;
  marketName: string;
  outcomeId: string;
  outcomeName: string;
  /** Thousandths: what the player saw (sent back as the leg's odds). */
  odds: number;
  live: boolean;
  /** The price moved since it was added (live updates): the slip shows which way. */
  moved?: 'up' | 'down';
}

/** A price from the live feed for one outcome (thousandths). */
export interface LivePrice {
  eventId: string;
  market: string;
  outcomeId: string;
  odds: number;
}

export type BetKind = 'single' | 'express';
export type OddsPolicy = 'none' | 'accept_higher' | 'accept_any';
export const POLICIES: OddsPolicy[] = ['accept_higher', 'none', 'accept_any'];
/**
 * What sportsbook players expect (issue 18): a better price is taken, a worse one asks. With
 * "ask me" as the default, 3 of 3 three-leg live expresses were refused on the first tap.
 */
export const DEFAULT_POLICY: OddsPolicy = 'accept_higher';
const POLICY_KEY = 'carthage.betting.policy';

/** A 604 leg: its position in the slip and the odds the line has now (thousandths). */
export interface OddsChange {
  leg: number;
  current: number;
}

export interface SlipState {
  selections: Selection[];
  kind: BetKind;
  stake: string;
  policy: OddsPolicy;
  /** The Idempotency-Key of the submission in flight or to retry; reset when the slip changes. */
  key: string | null;
  /** Odds moved (604): shown until the player accepts them. */
  changes: OddsChange[];
  /** What pays: real money (default), the sport bonus balance or a free bet (funding.ts). */
  funding: Funding;
}

function storedPolicy(): OddsPolicy {
  try {
    const v = localStorage.getItem(POLICY_KEY);
    return POLICIES.includes(v as OddsPolicy) ? (v as OddsPolicy) : DEFAULT_POLICY;
  } catch {
    return DEFAULT_POLICY;
  }
}

export const initialSlip = (): SlipState => ({
  selections: [],
  kind: 'single',
  stake: '',
  policy: storedPolicy(),
  key: null,
  changes: [],
  funding: 'real',
});

/** Single with one selection, express from two (an express needs ≥ 2 legs on different events). */
const fitKind = (s: SlipState) => {
  if (s.selections.length >= 2) s.kind = 'express';
  else s.kind = 'single';
};

const changed = (s: SlipState) => {
  s.key = null;
  s.changes = [];
};

export const slipSlice = createSlice({
  name: 'betSlip',
  initialState: initialSlip,
  reducers: {
    /**
     * Tapping an outcome: the same outcome again removes it; another outcome of an event already
     * on the slip replaces that event's selection (an express takes one leg per event).
     */
    toggle(s, { payload }: PayloadAction<Selection>) {
      const same = s.selections.findIndex((x) => x.eventId === payload.eventId);
      const existing = same >= 0 ? s.selections[same] : undefined;
      if (existing && existing.market === payload.market && existing.outcomeId === payload.outcomeId) {
        s.selections.splice(same, 1);
      } else if (existing) {
        s.selections[same] = payload;
      } else {
        s.selections.push(payload);
      }
      fitKind(s);
      changed(s);
    },
    remove(s, { payload }: PayloadAction<{ eventId: string }>) {
      s.selections = s.selections.filter((x) => x.eventId !== payload.eventId);
      fitKind(s);
      changed(s);
    },
    setStake(s, { payload }: PayloadAction<string>) {
      s.stake = payload;
      changed(s);
    },
    /**
     * What pays for the bet. A free bet's stake is the free bet chosen (never typed), so moving
     * to or from a free bet empties the stake.
     */
    setFunding(s, { payload }: PayloadAction<Funding>) {
      if (payload === s.funding) return;
      if (payload === 'free_bet' || s.funding === 'free_bet') s.stake = '';
      s.funding = payload;
      changed(s);
    },
    setPolicy(s, { payload }: PayloadAction<OddsPolicy>) {
      s.policy = payload;
      s.key = null;
      try {
        localStorage.setItem(POLICY_KEY, payload);
      } catch {
        /* private mode: remembered for this visit only */
      }
    },
    /**
     * Prices from the live feed: a selection whose price moved takes it (what the player sees is
     * what is sent), marked up or down, and a refusal's pending change for it is settled by it.
     */
    livePrices(s, { payload }: PayloadAction<LivePrice[]>) {
      let moved = false;
      s.selections.forEach((sel, i) => {
        for (const p of payload) {
          if (p.eventId !== sel.eventId || p.market !== sel.market || p.outcomeId !== sel.outcomeId) continue;
          if (p.odds !== sel.odds) {
            sel.moved = p.odds > sel.odds ? 'up' : 'down';
            sel.odds = p.odds;
            moved = true;
          }
          s.changes = s.changes.filter((c) => c.leg !== i);
        }
      });
      if (moved) s.key = null;
    },
    /** The key of this submission: kept for a retry of the same slip. */
    setKey(s, { payload }: PayloadAction<string>) {
      s.key = payload;
    },
    /** A 604: remember the moved legs; the slip keeps the player's odds until they accept. */
    oddsChanged(s, { payload }: PayloadAction<OddsChange[]>) {
      s.changes = payload;
    },
    /** The player accepted the new odds: the slip now sends them (a new submission, a new key). */
    acceptChanges(s) {
      for (const c of s.changes) {
        const sel = s.selections[c.leg];
        if (sel) {
          if (c.current !== sel.odds) sel.moved = c.current > sel.odds ? 'up' : 'down';
          sel.odds = c.current;
        }
      }
      changed(s);
    },
    clear(s) {
      s.selections = [];
      s.stake = '';
      s.funding = 'real';
      fitKind(s);
      changed(s);
    },
  },
});

export const slipActions = slipSlice.actions;

/** The prices of the slip's selections in a frame of live messages (odds_change, thousandths). */
export function slipPrices(selections: readonly Selection[], msgs: readonly unknown[]): LivePrice[] {
  if (selections.length === 0) return [];
  const out: LivePrice[] = [];
  for (const raw of msgs) {
    const m = raw as { type?: string; event_id?: string; markets?: { market: string; outcomes?: { id: string; odds?: number }[] }[] };
    if (m.type !== 'odds_change' || !m.event_id || !selections.some((s) => s.eventId === m.event_id)) continue;
    for (const mk of m.markets ?? []) {
      for (const o of mk.outcomes ?? []) {
        if (typeof o.odds !== 'number') continue;
        if (selections.some((s) => s.eventId === m.event_id && s.market === mk.market && s.outcomeId === o.id)) {
          out.push({ eventId: m.event_id, market: mk.market, outcomeId: o.id, odds: o.odds });
        }
      }
    }
  }
  return out;
}

/** `result.changes` of a 604 refusal → the moved legs (thousandths); [] when it is not there. */
export function changesOf(data: unknown): OddsChange[] {
  const list = (data as { changes?: unknown } | null | undefined)?.changes;
  if (!Array.isArray(list)) return [];
  return list.flatMap((c: { leg?: unknown; current?: unknown }) =>
    typeof c?.leg === 'number' && typeof c?.current === 'number' ? [{ leg: c.leg, current: oddsFromWire(c.current) }] : [],
  );
}

const EMPTY = initialSlip();
/** The slip; an empty one until the slice is injected (useSlipReducer). */
export const selectSlip = (state: RootState): SlipState =>
  (state as RootState & { betSlip?: SlipState }).betSlip ?? EMPTY;

/** Adds the slip's slice to the store when the betting screens mount (not in /home's bundle). */
export function useSlipReducer() {
  const store = useStore() as AppStore;
  useLayoutEffect(() => injectReducer(store, slipSlice.name, slipSlice.reducer), [store]);
}
