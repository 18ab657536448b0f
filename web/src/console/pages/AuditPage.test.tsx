import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/render';
import { meReply, renderConsole } from '../testing';

afterEach(() => vi.unstubAllGlobals());

const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    seq: from - i,
    actor: 'admin:1',
    action: 'player.ban',
    subject: 'user:42',
    details: { reason: 'fraud', before: { banned: false }, after: { banned: true } },
    createdAt: Date.UTC(2026, 10, 28),
    hash: 'ab'.repeat(32),
    prevHash: 'cd'.repeat(32),
  }));

describe('the audit trail', () => {
  it('pages through older rows and back, filters in the URL', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('support'),
      '/api/admin/audit': () => {
        const url = String(fetchMock.mock.calls.at(-1)![0]);
        const before = new URL(url, 'http://x').searchParams.get('before');
        return before ? ok({ rows: rows(Number(before) - 1, 2), nextBefore: null }) : ok({ rows: rows(120, 50), nextBefore: 71 });
      },
    });
    const { router } = renderConsole('/audit?action=player.');
    await screen.findByTestId('audit-row-120');
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/admin/audit?action=player.&limit=50')).toBe(true);
    expect((screen.getByTestId('audit-newer') as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId('audit-older')));
    await screen.findByTestId('audit-row-70');
    expect(router.state.location.search).toBe('?action=player.&before=71&trail=0');
    expect((screen.getByTestId('audit-older') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getAllByText('These are the oldest rows.').length).toBeGreaterThan(0);
    await act(async () => fireEvent.click(screen.getByTestId('audit-newer')));
    await screen.findByTestId('audit-row-120');
    expect(router.state.location.search).toBe('?action=player.');
    // Before and after, folded.
    expect(screen.getAllByTestId('audit-details-toggle')[0]!.textContent).toBe('Before and after');
  });

  it('verifies the chain and shows the result', async () => {
    mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/audit/verify': ok({ intact: false, rows: 12, headSeq: 12, headHash: 'ff'.repeat(32), unchained: 1, breakSeq: 7, breakReason: 'hash mismatch' }),
      '/api/admin/audit': ok({ rows: rows(12, 12), nextBefore: null }),
    });
    renderConsole('/audit');
    await screen.findByTestId('audit-row-12');
    await act(async () => fireEvent.click(screen.getByTestId('audit-verify')));
    const check = await screen.findByTestId('audit-check');
    expect(check.getAttribute('data-intact')).toBe('false');
    expect(check.textContent).toContain('The chain first breaks at row #7.');
    expect(check.textContent).toContain('hash mismatch');
  });
});
