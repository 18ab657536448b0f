import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadStudioEnglish, plain, renderStudio } from '../testing';
import { ACTION_GUARD_MS } from '../ui/actionGuard';
import { CrashGame } from './Crash';
import type { ServerMessage, SocketEvents } from './crashSocket';

// The WebSocket replaced by a fake: the test pushes server messages and reads what was sent.
const sock = vi.hoisted(() => ({ on: null as SocketEvents | null, sent: [] as Record<string, unknown>[] }));
vi.mock('./crashSocket', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./crashSocket')>()),
  connectCrash: (_token: string, on: SocketEvents) => {
    sock.on = on;
    return {
      send: (m: Record<string, unknown>) => {
        sock.sent.push(m);
        return `r${sock.sent.length}`;
      },
      close: () => {},
    };
  },
}));

const push = (m: ServerMessage) => act(() => sock.on!.message(m));
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const action = () => screen.getByTestId('crash-action') as HTMLButtonElement;
const bets = () => sock.sent.filter((m) => m.type === 'bet');
const autoField = () => screen.getByTestId('crash-auto') as HTMLInputElement;

let roundId = 0;
function openRound() {
  roundId += 1;
  push({ type: 'round', id: roundId, phase: 'betting', bettingEndsAt: Date.now() + 5000, serverTime: Date.now() });
}
function startRound() {
  push({ type: 'start', id: roundId, startedAt: Date.now(), serverTime: Date.now() });
}
function crashRound(point = 137) {
  push({ type: 'crash', id: roundId, crashPoint: point, hash: 'ab'.repeat(32), serverTime: Date.now() });
}
function accept(amount: number, autoCashOut: number | null = null) {
  push({ type: 'betAccepted', requestId: `r${sock.sent.length}`, roundId, amount, autoCashOut, balance: 10000 - amount });
}

function mount() {
  const r = renderStudio(<CrashGame />);
  act(() => sock.on!.status('open'));
  push({ type: 'hello', playerId: 1, currency: 'TND', exponent: 3, balance: 10000, minBet: 100, maxBet: 100000, maxWin: 100000000, serverTime: Date.now() });
  return r;
}

/** A bet of 1.000 TND (the default level) accepted in a betting window, the round running. */
function betAndStart(auto: number | null = null) {
  openRound();
  wait(ACTION_GUARD_MS);
  fireEvent.click(action());
  expect(bets().at(-1)).toMatchObject({ type: 'bet', amount: 1000, autoCashOut: auto });
  accept(1000, auto);
  expect(action().dataset.meaning).toBe('placed');
  startRound();
}

beforeAll(() => {
  loadStudioEnglish();
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
});
beforeEach(() => {
  vi.useFakeTimers();
  sock.on = null;
  sock.sent = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('crash main button: no change of meaning under the finger', () => {
  it('a tap just after the round crashes under "Cash out" queues nothing', () => {
    mount();
    betAndStart();
    wait(2000);
    expect(action().dataset.meaning).toBe('cashout');
    expect(plain(action().textContent)).toMatch(/^Cash out \d/);
    crashRound();
    // The same button now reads "Bet next round", disabled and visibly in transition.
    expect(action().textContent).toBe('Bet next round');
    expect(action().disabled).toBe(true);
    expect(action().dataset.guard).toBe('true');
    fireEvent.click(action());
    wait(ACTION_GUARD_MS - 1);
    fireEvent.click(action());
    expect(screen.queryByTestId('crash-queued')).toBeNull();
    expect(action().dataset.meaning).toBe('betNext');
    // The next window opens: nothing goes out, nothing was sent since the first bet.
    wait(1);
    expect(action().disabled).toBe(false);
    expect(action().dataset.guard).toBe('false');
    wait(3000);
    openRound();
    expect(bets()).toHaveLength(1);
    expect(sock.sent.filter((m) => m.type === 'cashout')).toHaveLength(0);
  });

  it('a tap just after the round starts under "Bet placed" does not cash out at 1.00×', () => {
    mount();
    betAndStart();
    expect(action().dataset.meaning).toBe('cashout');
    fireEvent.click(action());
    expect(sock.sent.filter((m) => m.type === 'cashout')).toHaveLength(0);
    wait(ACTION_GUARD_MS);
    fireEvent.click(action());
    expect(sock.sent.filter((m) => m.type === 'cashout')).toHaveLength(1);
  });

  it('a double tap on "Cash out" does not queue a bet with the second tap', () => {
    mount();
    betAndStart();
    wait(ACTION_GUARD_MS + 500);
    fireEvent.click(action());
    push({ type: 'cashedOut', requestId: 'r2', roundId, multiplier: 103, win: 1030, balance: 10030 });
    expect(action().dataset.meaning).toBe('betNext');
    fireEvent.click(action());
    expect(screen.queryByTestId('crash-queued')).toBeNull();
  });

  it('"Place bet" turning into "Bet next round" as the window closes is guarded too', () => {
    mount();
    openRound();
    wait(ACTION_GUARD_MS + 4000);
    startRound();
    expect(action().dataset.meaning).toBe('betNext');
    fireEvent.click(action());
    expect(screen.queryByTestId('crash-queued')).toBeNull();
  });
});

describe('crash queued bet', () => {
  it('shows amount and "queued for next round"; Cancel drops it and nothing is sent', () => {
    const { ctx } = mount();
    openRound();
    startRound();
    wait(ACTION_GUARD_MS);
    fireEvent.click(action());
    const card = screen.getByTestId('crash-queued');
    expect(plain(card.textContent)).toContain('Queued for next round');
    expect(plain(screen.getByTestId('crash-queued-detail').textContent)).toBe('1.000 TND');
    expect(action().textContent).toBe('Bet queued');
    expect(action().disabled).toBe(true);
    // What is queued is what is shown: the controls are locked.
    expect(autoField().disabled).toBe(true);
    const less = screen.getByTestId('bet-control').querySelector('button') as HTMLButtonElement;
    expect(less.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the bet queued for next round' }));
    expect(screen.queryByTestId('crash-queued')).toBeNull();
    expect(ctx.toast).toHaveBeenCalledWith('Next-round bet cancelled');
    crashRound();
    wait(3000);
    openRound();
    expect(bets()).toHaveLength(0);
    expect(action().dataset.meaning).toBe('bet');
  });

  it('is sent as shown when the next window opens (amount and auto cash-out)', () => {
    mount();
    openRound();
    startRound();
    fireEvent.change(autoField(), { target: { value: '2.6' } });
    wait(ACTION_GUARD_MS);
    fireEvent.click(action());
    expect(plain(screen.getByTestId('crash-queued-detail').textContent)).toBe('1.000 TND · auto 2.60×');
    crashRound();
    openRound();
    expect(bets()).toEqual([{ type: 'bet', amount: 1000, autoCashOut: 260 }]);
    expect(screen.queryByTestId('crash-queued')).toBeNull();
  });
});

describe('crash auto cash-out field', () => {
  it('refuses letters as they are typed, with an inline error', () => {
    mount();
    fireEvent.change(autoField(), { target: { value: '2.00a' } });
    expect(autoField().value).toBe('2.00');
    expect(screen.getByTestId('crash-auto-error').textContent).toBe('Digits only, one decimal point, up to 2 decimals (e.g. 2.50)');
    expect(autoField().getAttribute('aria-invalid')).toBe('true');
    for (const bad of ['x', '2.5e', '1.234', '1.2.3', '-2', '12345678']) {
      fireEvent.change(autoField(), { target: { value: bad } });
      expect(autoField().value).toBe('2.00');
    }
    fireEvent.change(autoField(), { target: { value: '3,5' } });
    expect(autoField().value).toBe('3,5');
    expect(screen.queryByTestId('crash-auto-error')).toBeNull();
    expect((screen.getByTestId('crash-auto-toggle') as HTMLInputElement).checked).toBe(true);
    // The hint also goes by itself.
    fireEvent.change(autoField(), { target: { value: '3,5z' } });
    expect(screen.getByTestId('crash-auto-error')).toBeTruthy();
    wait(3000);
    expect(screen.queryByTestId('crash-auto-error')).toBeNull();
  });

  it('says the range outside 1.01× – 1,000,000.00× and never sends such a value', () => {
    mount();
    openRound();
    wait(ACTION_GUARD_MS);
    for (const out of ['1', '0.5', '1000000.01', '']) {
      fireEvent.change(autoField(), { target: { value: out } });
      expect(plain(screen.getByTestId('crash-auto-error').textContent)).toBe('Auto cash-out from 1.01× to 1,000,000.00×');
      expect(action().disabled).toBe(true);
      fireEvent.click(action());
    }
    expect(bets()).toHaveLength(0);
    // Turning auto cash-out off makes the bet valid again (no auto value sent).
    fireEvent.click(screen.getByTestId('crash-auto-toggle'));
    expect(screen.queryByTestId('crash-auto-error')).toBeNull();
    fireEvent.click(action());
    expect(bets()).toEqual([{ type: 'bet', amount: 1000, autoCashOut: null }]);
  });

  it('sends a valid value in hundredths, Arabic-Indic digits included', () => {
    mount();
    openRound();
    wait(ACTION_GUARD_MS);
    fireEvent.change(autoField(), { target: { value: '١٫٥' } });
    expect(autoField().value).toBe('1.5');
    fireEvent.click(action());
    expect(bets()).toEqual([{ type: 'bet', amount: 1000, autoCashOut: 150 }]);
  });
});
