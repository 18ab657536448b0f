import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Money } from '../../components/Money';
import { Card, Page, PageHeader } from '../../components/Page';
import { consoleApi, type DecideOutcome, type WithdrawalRow } from '../api';
import { riskFlags, statusTone, summariseDecisions } from '../logic';
import { Badge, Button, DataTable, Empty, LinkTabs, Ltr, Notice, QueryState, ReasonDialog, useErrorText, type Column } from '../ui';
import { IdAndTime } from './cells';
import css from './pages.module.css';

export const WITHDRAWAL_STATUSES = ['review', 'created', 'pending', 'succeeded', 'failed', 'cancelled'] as const;

type Pending = { kind: 'reject'; ids: number[] } | null;

/**
 * The withdrawal queue (`?status=review` by default): the players' risk signals, approve or
 * reject one, or several at once (`decide`: each id answers its own code, shown per row).
 */
export default function WithdrawalsPage() {
  const { t, i18n } = useTranslation('console');
  const message = useErrorText();
  const [params] = useSearchParams();
  const asked = params.get('status') ?? 'review';
  const status = (WITHDRAWAL_STATUSES as readonly string[]).includes(asked) ? asked : 'review';
  const list = consoleApi.useWithdrawalsQuery(status);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [dialog, setDialog] = useState<Pending>(null);
  const [outcomes, setOutcomes] = useState<{ decision: 'approve' | 'reject'; rows: DecideOutcome[] } | null>(null);
  const [rowNote, setRowNote] = useState<Record<number, { tone: 'ok' | 'error'; text: string }>>({});
  const [busyId, setBusyId] = useState<number | null>(null);
  const [approve] = consoleApi.useApproveWithdrawalMutation();
  const [reject] = consoleApi.useRejectWithdrawalMutation();
  const [decide, deciding] = consoleApi.useDecideWithdrawalsMutation();

  // This status's rows only: another tab's rows (and their buttons) never show while it loads.
  const rows = useMemo(() => list.currentData ?? [], [list.currentData]);
  const decidable = status === 'review';
  // Only what is on the screen can stay selected (a refetch drops the decided ones).
  const chosen = rows.filter((r) => selected.has(r.id)).map((r) => r.id);
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = rows.length > 0 && chosen.length === rows.length;

  /** How a decision on one withdrawal ended (the last five stay on the page). */
  const note = (id: number, n: { tone: 'ok' | 'error'; text: string }) =>
    setRowNote((all) => Object.fromEntries([...Object.entries(all).filter(([k]) => k !== String(id)), [String(id), n]].slice(-5)));

  const approveOne = async (id: number) => {
    setBusyId(id);
    const res = await approve(id);
    setBusyId(null);
    note(id, res.error ? { tone: 'error', text: message(res.error) } : { tone: 'ok', text: t('withdrawals.approvedOne', { id }) });
  };

  const bulk = async (decision: 'approve' | 'reject', ids: number[], reason?: string) => {
    const res = await decide({ ids, decision, reason: reason ?? null });
    if (res.error) return message(res.error);
    setOutcomes({ decision, rows: res.data });
    setSelected(new Set());
    return null;
  };

  const columns: Column<WithdrawalRow>[] = [
    ...(decidable
      ? [
          {
            key: 'pick',
            label: t('withdrawals.select'),
            hideLabel: true,
            render: (r: WithdrawalRow) => (
              <input
                type="checkbox"
                className={css.check}
                checked={selected.has(r.id)}
                onChange={() => toggle(r.id)}
                aria-label={t('withdrawals.selectOne', { id: r.id })}
                data-testid={`pick-${r.id}`}
              />
            ),
          },
        ]
      : []),
    {
      key: 'id',
      label: t('withdrawals.col.withdrawal'),
      render: (r) => <IdAndTime id={r.id} at={r.createdAt} lang={i18n.language} />,
    },
    {
      key: 'player',
      label: t('withdrawals.col.player'),
      render: (r) => (
        <span className={css.stack}>
          <Link to={`/players/${r.userId}`} state={{ from: `/withdrawals?status=${status}` }} className={css.nowrap}>
            {/^\d+$/.test(r.player) ? <Ltr>+{r.player}</Ltr> : r.player || <Ltr>#{r.userId}</Ltr>}
          </Link>
          {r.phone && !r.player.replace(/\D/g, '').endsWith(r.phone.replace(/\D/g, '')) ? (
            <small className={css.muted}>
              <Ltr>+{r.phone.replace(/^\+/, '')}</Ltr>
            </small>
          ) : null}
        </span>
      ),
    },
    { key: 'amount', label: t('withdrawals.col.amount'), align: 'end', render: (r) => <Money amount={r.amount} currency={r.currency} className={css.amount} /> },
    { key: 'provider', label: t('withdrawals.col.provider'), render: (r) => <span className={css.nowrap}>{r.provider}</span> },
    { key: 'signals', label: t('withdrawals.col.signals'), render: (r) => <Signals row={r} /> },
    ...(decidable
      ? [
          {
            key: 'decide',
            label: t('withdrawals.col.decide'),
            render: (r: WithdrawalRow) => (
              <span className={css.rowActions}>
                <Button small tone="primary" busy={busyId === r.id} onClick={() => void approveOne(r.id)} data-testid={`approve-${r.id}`}>
                  {t('withdrawals.approve')}
                </Button>
                <Button small tone="danger" onClick={() => setDialog({ kind: 'reject', ids: [r.id] })} data-testid={`reject-${r.id}`}>
                  {t('withdrawals.reject')}
                </Button>
              </span>
            ),
          },
        ]
      : [
          {
            key: 'status',
            label: t('withdrawals.col.status'),
            render: (r: WithdrawalRow) => (
              <span className={css.stack}>
                <Badge tone={statusTone(r.status)}>{t(`paymentStatus.${r.status}`, { defaultValue: r.status })}</Badge>
                {r.failureReason ? <small className={css.muted}>{r.failureReason}</small> : null}
              </span>
            ),
          },
        ]),
  ];

  const summary = outcomes ? summariseDecisions(outcomes.rows) : null;

  return (
    <Page>
      <PageHeader title={t('withdrawals.title')} lead={t('withdrawals.lead')} />
      <LinkTabs
        label={t('withdrawals.statusLabel')}
        current={status}
        tabs={WITHDRAWAL_STATUSES.map((s) => ({ id: s, label: t(`withdrawals.status.${s}`), to: `?status=${s}` }))}
      />
      {summary && outcomes ? (
        <Card title={t('withdrawals.bulkResult')} data-testid="bulk-result">
          <Notice tone={summary.refused.length ? 'warn' : 'ok'}>
            {t(outcomes.decision === 'approve' ? 'withdrawals.bulkApproved' : 'withdrawals.bulkRejected', { count: summary.decided.length })}
            {summary.refused.length ? ` ${t('withdrawals.bulkRefused', { count: summary.refused.length })}` : ''}
          </Notice>
          <ul className={css.outcomes}>
            {outcomes.rows.map((o) => (
              <li key={o.id} data-testid={`outcome-${o.id}`} data-status={o.status}>
                <Ltr>#{o.id}</Ltr>{' '}
                {o.status === 0 ? (
                  <Badge tone="ok">{outcomes.decision === 'approve' ? t('withdrawals.outcomeApproved') : t('withdrawals.outcomeRejected')}</Badge>
                ) : (
                  <>
                    <Badge tone="danger">{t('withdrawals.code', { code: o.status })}</Badge> <span>{message({ code: o.status })}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
          <div>
            <Button small tone="ghost" onClick={() => setOutcomes(null)}>
              {t('action.dismiss')}
            </Button>
          </div>
        </Card>
      ) : null}
      <QueryState isLoading={list.isFetching && !list.currentData} error={list.error} onRetry={() => void list.refetch()}>
        {rows.length === 0 ? (
          <Empty title={t(`withdrawals.empty.${status}`, { defaultValue: t('withdrawals.emptyOther') })} testId="withdrawals-empty" />
        ) : (
          <Card>
            {decidable ? (
              <div className={css.bulkBar} data-testid="bulk-bar">
                <label className={css.checkLabel}>
                  <input
                    type="checkbox"
                    className={css.check}
                    checked={allChosen}
                    onChange={() => setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.id)))}
                    data-testid="pick-all"
                  />
                  {t('withdrawals.selectAll')}
                </label>
                <span className={css.bulkCount} aria-live="polite">
                  {t('withdrawals.selected', { count: chosen.length })}
                </span>
                <span className={css.rowActions}>
                  <Button
                    small
                    tone="primary"
                    busy={deciding.isLoading}
                    disabled={chosen.length === 0}
                    aria-describedby={chosen.length === 0 ? 'bulk-why' : undefined}
                    onClick={() => void bulk('approve', chosen)}
                    data-testid="bulk-approve"
                  >
                    {t('withdrawals.approveSelected', { n: chosen.length })}
                  </Button>
                  <Button
                    small
                    tone="danger"
                    disabled={chosen.length === 0}
                    aria-describedby={chosen.length === 0 ? 'bulk-why' : undefined}
                    onClick={() => setDialog({ kind: 'reject', ids: chosen })}
                    data-testid="bulk-reject"
                  >
                    {t('withdrawals.rejectSelected', { n: chosen.length })}
                  </Button>
                </span>
                {chosen.length === 0 ? (
                  <small id="bulk-why" className={css.bulkWhy}>
                    {t('withdrawals.selectFirst')}
                  </small>
                ) : null}
              </div>
            ) : null}
            {Object.entries(rowNote).map(([id, n]) => (
              <Notice key={id} tone={n.tone} testId={`row-note-${id}`}>
                {n.text}
              </Notice>
            ))}
            <DataTable
              columns={columns}
              rows={rows}
              rowKey={(r) => r.id}
              caption={t('withdrawals.title')}
              rowTestId={(r) => `withdrawal-${r.id}`}
              rowClassName={(r) => (selected.has(r.id) ? css.rowSelected : undefined)}
            />
          </Card>
        )}
      </QueryState>
      {dialog ? (
        <ReasonDialog
          title={dialog.ids.length === 1 ? t('withdrawals.rejectOneTitle', { id: dialog.ids[0] }) : t('withdrawals.rejectManyTitle', { count: dialog.ids.length })}
          lead={t('withdrawals.rejectLead')}
          label={t('withdrawals.reason')}
          confirmLabel={t('withdrawals.reject')}
          tone="danger"
          testId="reject-dialog"
          onClose={() => setDialog(null)}
          onConfirm={async (reason) => {
            if (dialog.ids.length > 1) return bulk('reject', dialog.ids, reason);
            const id = dialog.ids[0]!;
            const res = await reject({ id, reason });
            if (res.error) return message(res.error);
            note(id, { tone: 'ok', text: t('withdrawals.rejectedOne', { id }) });
            return null;
          }}
        />
      ) : null}
    </Page>
  );
}

/** The risk signals of one withdrawal, the ones worth a second look marked. */
function Signals({ row }: { row: WithdrawalRow }) {
  const { t } = useTranslation('console');
  const s = row.signals;
  const flags = new Set(riskFlags(s, row.amount, row.currency));
  return (
    <span className={css.signals} data-testid={`signals-${row.id}`}>
      <span className={flags.has('newAccount') ? css.flag : undefined}>{t('signals.age', { count: s.accountAgeDays })}</span>
      <span className={flags.has('aboveDeposits') ? css.flag : undefined}>
        {t('signals.deposited')} <Money amount={s.deposited} currency={row.currency} /> · {t('signals.withdrawn')}{' '}
        <Money amount={s.withdrawn} currency={row.currency} />
      </span>
      <span className={flags.has('manyWithdrawals') ? css.flag : undefined}>{t('signals.last24h', { count: s.withdrawals24h })}</span>
      <span className={flags.has('sharedAddress') ? css.flag : undefined}>{t('signals.others', { count: s.otherAccountsAtAddresses })}</span>
      {s.openBonus ? <span className={css.flag}>{t('signals.openBonus')}</span> : null}
    </span>
  );
}
