import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/render';
import { bodiesOf, meReply, refusal, renderConsole } from '../testing';

afterEach(() => vi.unstubAllGlobals());

const request = (id: number, requestedBy: number, over: Record<string, unknown> = {}) => ({
  id,
  userId: 42,
  currency: 'TND',
  kind: 'real',
  amount: 1500,
  reason: 'a large win paid by hand',
  requestedBy,
  status: 'pending',
  createdAt: Date.UTC(2026, 10, 28, 9),
  decidedAt: null,
  decidedBy: null,
  decisionNote: null,
  transactionId: null,
  ...over,
});

describe('adjustment requests', () => {
  it('lets nobody approve their own request, and says why', async () => {
    mockApi({ '/api/admin/me': meReply('finance', 12), '/api/admin/wallet/adjust-requests': ok([request(1, 12), request(2, 7)]) });
    renderConsole('/adjustments');
    const own = await screen.findByTestId('approve-request-1');
    expect((own as HTMLButtonElement).disabled).toBe(true);
    expect(within(screen.getByTestId('request-1')).getByText('You asked for it: another staff member must approve it.')).toBeTruthy();
    expect(within(screen.getByTestId('request-1')).getByTestId('reject-request-1').textContent).toBe('Withdraw');
    expect((screen.getByTestId('approve-request-2') as HTMLButtonElement).disabled).toBe(false);
    expect(within(screen.getByTestId('request-2')).getByText('1,500.000 TND')).toBeTruthy();
  });

  it('explains 140 and 141 from the server in its own words', async () => {
    let answer = refusal(140);
    mockApi({
      '/api/admin/me': meReply('admin', 3),
      '/api/admin/wallet/adjust-requests': ok([request(5, 9)]),
      'POST /api/admin/wallet/adjust-requests/5/approve': () => answer,
    });
    renderConsole('/adjustments?status=pending');
    const approve = await screen.findByTestId('approve-request-5');
    await act(async () => fireEvent.click(approve));
    expect((await screen.findByTestId('requests-note')).textContent).toBe('You asked for this adjustment: another staff member must approve it.');
    answer = refusal(141);
    await act(async () => fireEvent.click(screen.getByTestId('approve-request-5')));
    expect((await screen.findByTestId('requests-note')).textContent).toBe('Someone has already decided this request. The list is up to date now.');
  });

  it('approves, and rejects with the note the server reads', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('admin', 3),
      '/api/admin/wallet/adjust-requests': ok([request(5, 9), request(6, 9)]),
      'POST /api/admin/wallet/adjust-requests/5/approve': ok(request(5, 9, { status: 'approved', decidedBy: 3, transactionId: 77 })),
      'POST /api/admin/wallet/adjust-requests/6/reject': ok(request(6, 9, { status: 'rejected' })),
    });
    renderConsole('/adjustments');
    const approve = await screen.findByTestId('approve-request-5');
    await act(async () => fireEvent.click(approve));
    expect((await screen.findByTestId('requests-note')).textContent).toBe('Request #5 is approved: the adjustment is posted.');
    fireEvent.click(screen.getByTestId('reject-request-6'));
    const dialog = await screen.findByRole('dialog', { name: 'Reject request #6?' });
    fireEvent.change(within(dialog).getByTestId('reason-input'), { target: { value: 'no proof of the win' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('dialog-confirm')));
    expect((await screen.findByTestId('requests-note')).textContent).toBe('Request #6 is closed: nothing was posted.');
    expect(bodiesOf(fetchMock, '/api/admin/wallet/adjust-requests/6/reject')).toEqual([{ note: 'no proof of the win' }]);
    expect(bodiesOf(fetchMock, '/api/admin/wallet/adjust-requests/5/approve')).toHaveLength(1);
  });

  it('shows who decided an approved request and its transaction', async () => {
    mockApi({
      '/api/admin/me': meReply('finance', 12),
      '/api/admin/wallet/adjust-requests': ok([request(8, 3, { status: 'approved', decidedBy: 12, decidedAt: Date.UTC(2026, 10, 28, 10), transactionId: 991, amount: -20.5 })]),
    });
    renderConsole('/adjustments?status=approved');
    const row = await screen.findByTestId('request-8');
    expect(row.textContent).toContain('Staff #12');
    expect(row.textContent).toContain('#991');
    expect(row.textContent).toContain('-20.500 TND');
    expect(screen.queryByTestId('approve-request-8')).toBeNull();
  });
});
