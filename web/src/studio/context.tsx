import { createContext, useContext } from 'react';
import type { StudioApi } from './api';
import type { StudioSession } from './types';

export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error' | 'win';
}

export interface StudioContextValue {
  api: StudioApi;
  session: StudioSession;
  balance: number;
  lang: string;
  /** A round settled: new balance, parent notified, history stale. */
  settle: (balance: number) => void;
  /** Balance change without a settled round (e.g. a crash bet taken). */
  setBalance: (balance: number) => void;
  /** Formats minor units with the session's exponent (and the currency unless `bare`). */
  money: (minor: number, bare?: boolean) => string;
  /** Short chip label of an amount. */
  short: (minor: number) => string;
  toast: (text: string, tone?: Toast['tone']) => void;
  /** A failed call's message (catalogue code), as a toast. */
  fail: (e: unknown) => void;
  /** Bumped after each settled round: history and seeds refetch. */
  roundsVersion: number;
  /** The game session is gone (63): show the reopen state. */
  expire: () => void;
}

export const StudioContext = createContext<StudioContextValue | null>(null);

export function useStudio(): StudioContextValue {
  const v = useContext(StudioContext);
  if (!v) throw new Error('useStudio outside StudioContext');
  return v;
}
