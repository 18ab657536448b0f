import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/render';
import { bodiesOf, meReply, renderConsole } from '../testing';

afterEach(() => vi.unstubAllGlobals());

const withdrawal = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  userId: 100 + id,
  player: `Player ${id}`,
  phone: '21620555111',
  amount: 1500,
  currency: 'TND',
  provider: 'sandbox',
  status: 'review',
  createdAt: Date.UTC(2026, 10, 28, 9),
  failureReason: null,
  signals: { accountAgeDays: 400, deposited: 5000, withdrawn: 0, withdrawals24h: 1, otherAccountsAtAddresses: 0, openBonus: false },
  ...over,
});

describe('the withdrawal queue', () => {
  it('shows each withdrawal with its amount and risk signals, the worrying ones flagged', async () => {
    mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/payments/withdrawals': ok([
        withdrawal(1),
        withdrawal(2, { amount: 2500.5, signals: { accountAgeDays: 0, deposited: 100, withdrawn: 0, withdrawals24h: 2, otherAccountsAtAddresses: 3, openBonus: true } }),
      ]),
    });
    renderConsole('/withdrawals');
    const row = await screen.findByTestId('withdrawal-2');
    expect(within(row).getByText('2,500.500 TND')).toBeTruthy();
    const signals = screen.getByTestId('signals-2');
    expect(signals.textContent).toContain('Account 0 days old');
    expect(signals.textContent).toContain('3 other accounts at an address');
    expect(signals.textContent).toContain('Open bonus');
    // Flagged: the new account, the shared address, the open bonus, two withdrawals, above deposits.
    expect(signals.querySelectorAll('[class*="flag"]')).toHaveLength(5);
    expect(screen.getByTestId('signals-1').querySelectorAll('[class*="flag"]')).toHaveLength(0);
  });

  it('decides several at once and shows each id its own result code', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/payments/withdrawals': ok([withdrawal(1), withdrawal(2), withdrawal(3)]),
      'POST /api/admin/payments/withdrawals/decide': ok([
        { id: 1, status: 0, errorMessage: null, withdrawal: withdrawal(1, { status: 'pending' }) },
        { id: 3, status: 141, errorMessage: 'This request has already been decided.', withdrawal: null },
      ]),
    });
    renderConsole('/withdrawals');
    await screen.findByTestId('withdrawal-1');
    // Nothing chosen: the bulk buttons say why they wait.
    expect((screen.getByTestId('bulk-approve') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Tick withdrawals to decide several at once.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('pick-1'));
    fireEvent.click(screen.getByTestId('pick-3'));
    expect(screen.getByTestId('bulk-approve').textContent).toBe('Approve selected (2)');
    await act(async () => fireEvent.click(screen.getByTestId('bulk-approve')));
    const result = await screen.findByTestId('bulk-result');
    expect(result.textContent).toContain('1 withdrawal approved.');
    expect(result.textContent).toContain('1 refused: see why below.');
    expect(screen.getByTestId('outcome-1').textContent).toContain('Approved');
    expect(screen.getByTestId('outcome-3').textContent).toContain('Code 141');
    expect(screen.getByTestId('outcome-3').textContent).toContain('This request has already been decided.');
    expect(bodiesOf(fetchMock, '/api/admin/payments/withdrawals/decide')).toEqual([{ ids: [1, 3], decision: 'approve', reason: null }]);
  });

  it('rejects several with one reason, asked in a dialog that needs it', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('admin'),
      '/api/admin/payments/withdrawals': ok([withdrawal(4), withdrawal(5)]),
      'POST /api/admin/payments/withdrawals/decide': ok([
        { id: 4, status: 0, errorMessage: null, withdrawal: null },
        { id: 5, status: 0, errorMessage: null, withdrawal: null },
      ]),
    });
    renderConsole('/withdrawals');
    await screen.findByTestId('withdrawal-4');
    fireEvent.click(screen.getByTestId('pick-all'));
    fireEvent.click(screen.getByTestId('bulk-reject'));
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 withdrawals?' });
    const confirm = within(dialog).getByTestId('dialog-confirm') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    expect(within(dialog).getByText('Write a reason first: it is kept in the audit trail.')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('reason-input'), { target: { value: '  documents missing  ' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('dialog-confirm')));
    expect((await screen.findByTestId('bulk-result')).textContent).toContain('2 withdrawals rejected.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bodiesOf(fetchMock, '/api/admin/payments/withdrawals/decide')).toEqual([{ ids: [4, 5], decision: 'reject', reason: 'documents missing' }]);
  });

  it('keeps the status filter in the URL and offers no decision outside the queue', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/payments/withdrawals': ok([withdrawal(7, { status: 'failed', failureReason: 'documents missing' })]),
    });
    renderConsole('/withdrawals?status=failed');
    await screen.findByTestId('withdrawal-7');
    expect(screen.getByTestId('tab-failed').getAttribute('aria-current')).toBe('page');
    expect(screen.queryByTestId('bulk-bar')).toBeNull();
    expect(screen.queryByTestId('approve-7')).toBeNull();
    expect(screen.getByText('documents missing')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/admin/payments/withdrawals?status=failed')).toBe(true);
  });

  it("never shows one tab's rows and buttons under another while it loads", async () => {
    let release: () => void = () => {};
    const fetchMock = mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/payments/withdrawals': () => {
        const url = String(fetchMock.mock.calls.at(-1)![0]);
        if (!url.includes('status=failed')) return ok([withdrawal(1)]);
        return new Promise((resolve) => {
          release = () => resolve(ok([withdrawal(9, { status: 'failed' })]));
        });
      },
    });
    renderConsole('/withdrawals');
    await screen.findByTestId('approve-1');
    await act(async () => fireEvent.click(screen.getByTestId('tab-failed')));
    await screen.findByText('Loading…');
    expect(screen.queryByTestId('withdrawal-1')).toBeNull();
    expect(screen.queryByTestId('approve-1')).toBeNull();
    await act(async () => release());
    await screen.findByTestId('withdrawal-9');
  });
});
