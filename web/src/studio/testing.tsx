/** Test helpers of the studio client (used by *.test.tsx only). */
import { render } from '@testing-library/react';
import i18n from 'i18next';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import studioEn from '../locales/en/studio.json';
import type { StudioApi } from './api';
import { StudioContext, type StudioContextValue } from './context';
import { formatMoney, formatShort } from './money';
import type { StudioSession } from './types';

/** The English studio texts in the test i18n instance. */
export function loadStudioEnglish() {
  i18n.addResourceBundle('en', 'studio', studioEn, true, true);
}

export const SESSION: StudioSession = {
  gameId: 'crash',
  name: 'Crash',
  kind: 'crash',
  provider: 'studio',
  currency: 'TND',
  exponent: 3,
  balance: 10000,
  minBet: 100,
  maxBet: 100000,
  betLevels: [100, 500, 1000],
  lang: 'en',
  playerId: 1,
};

/** Renders `ui` inside a studio context with a stubbed API; the spies are returned. */
export function renderStudio(ui: ReactNode, { session = SESSION, api = {} }: { session?: StudioSession; api?: Partial<StudioApi> } = {}) {
  const ctx = {
    api: { token: 't', session: vi.fn(async () => session), rounds: vi.fn(async () => []), crashRounds: vi.fn(async () => []), ...api } as unknown as StudioApi,
    session,
    balance: session.balance,
    lang: 'en',
    settle: vi.fn(),
    setBalance: vi.fn(),
    money: (minor: number, bare = false) => (bare ? formatShort(minor, session.exponent, 'en') : formatMoney(minor, session.exponent, session.currency, 'en')),
    short: (minor: number) => formatShort(minor, session.exponent, 'en'),
    toast: vi.fn(),
    fail: vi.fn(),
    roundsVersion: 0,
    expire: vi.fn(),
  } satisfies StudioContextValue;
  const utils = render(<StudioContext.Provider value={ctx}>{ui}</StudioContext.Provider>);
  return { ctx, ...utils };
}

/** Text without the bidi isolates (U+2066–U+2069) the studio puts around numbers. */
export function plain(text: string | null | undefined): string {
  return (text ?? '').replace(/[\u2066-\u2069]/g, '');
}
