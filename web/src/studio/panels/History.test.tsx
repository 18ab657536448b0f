import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStudioEnglish, plain, renderStudio } from '../testing';
import type { HistoryRound } from '../types';
import { HistoryPanel } from './History';

beforeAll(loadStudioEnglish);

const round = (r: Partial<HistoryRound>): HistoryRound => ({
  roundId: 1,
  time: '2026-11-24T10:00:00Z',
  bet: 500,
  win: 0,
  cashedOutAt: null,
  crashPoint: null,
  hash: null,
  status: 'open',
  ...r,
});

async function rows(list: HistoryRound[]) {
  renderStudio(<HistoryPanel />, { api: { rounds: vi.fn(async () => list) } });
  const items = await screen.findAllByTestId('history-crash-round');
  return items.map((li) => ({ li, text: plain(li.textContent) }));
}

describe('My last rounds (crash)', () => {
  it('a running round cashed out shows the cash-out and "in progress", no crash point', async () => {
    const [r] = await rows([round({ cashedOutAt: 115, win: 575, status: 'cashed' })]);
    expect(r!.text).toContain('Cashed out at 1.15×');
    expect(r!.text).toContain('Round in progress');
    expect(r!.text).not.toMatch(/crashed at/i);
    expect(r!.text).not.toContain('1.00×');
    expect(r!.text).toContain('+0.575 TND');
    expect(r!.li.dataset.over).toBe('false');
  });

  it('a running round not cashed out shows only "in progress" and no result yet', async () => {
    const [r] = await rows([round({ status: 'open' })]);
    expect(within(r!.li).getByTestId('history-in-progress').textContent).toBe('Round in progress');
    expect(r!.text).not.toMatch(/crashed at|Not cashed out/i);
    expect(r!.text).not.toContain('0.000 TND');
    expect(r!.text).toContain('—');
  });

  it('a round that crashed shows its crash point, the number isolated for right-to-left text', async () => {
    const [won, lost] = await rows([
      round({ roundId: 2, cashedOutAt: 150, win: 750, status: 'cashed', crashPoint: 260, hash: 'ab' }),
      round({ roundId: 1, status: 'lost', crashPoint: 112, hash: 'cd' }),
    ]);
    expect(won!.text).toContain('Cashed out at 1.50× · crashed at 2.60×');
    expect(won!.li.textContent).toContain('\u20662.60×\u2069');
    expect(won!.li.querySelector('[data-testid="history-in-progress"]')).toBeNull();
    expect(lost!.text).toContain('Not cashed out · crashed at 1.12×');
    expect(lost!.text).toContain('0.000 TND');
  });

  it('a refunded bet (void or interrupted round) says so, without a crash point', async () => {
    const [r] = await rows([round({ status: 'refunded', crashPoint: 340, hash: 'ef' })]);
    expect(r!.text).toContain('Stake refunded');
    expect(r!.text).not.toMatch(/crashed at|in progress/i);
  });
});
