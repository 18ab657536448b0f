import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { isApiError } from '../../app/errors';
import { Money } from '../../components/Money';
import { Card, Page, PageHeader } from '../../components/Page';
import { useMe } from '../App';
import { consoleApi, type AdjustRequestView } from '../api';
import { formatTime, statusTone } from '../logic';
import { Badge, Button, DataTable, Empty, LinkTabs, Ltr, Notice, QueryState, ReasonDialog, useErrorText, type Column } from '../ui';
import { IdAndTime } from './cells';
import css from './pages.module.css';

export const REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;

/** The four-eyes refusals, in the console's own words (why, and what to do). */
const REQUEST_MESSAGES = [140, 141];

/**
 * Four-eyes adjustment requests (`?status=pending` by default): another staff member with money
 * rights approves (the requester cannot: 140) or rejects with a note; the requester may
 * withdraw their own. A request decided meanwhile answers 141.
 */
export default function AdjustmentsPage() {
  const { t, i18n } = useTranslation('console');
  const message = useErrorText();
  const me = useMe();
  const [params] = useSearchParams();
  const asked = params.get('status') ?? 'pending';
  const status = (REQUEST_STATUSES as readonly string[]).includes(asked) ? asked : 'pending';
  const list = consoleApi.useAdjustRequestsQuery(status);
  const [approve] = consoleApi.useApproveRequestMutation();
  const [reject] = consoleApi.useRejectRequestMutation();
  const [busyId, setBusyId] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<AdjustRequestView | null>(null);
  const [note, setNote] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  const explain = (error: unknown) => {
    const code = isApiError(error) ? error.code : -1;
    return message(error, REQUEST_MESSAGES.includes(code) ? [`console:requests.error.${code}`] : []);
  };

  const approveOne = async (r: AdjustRequestView) => {
    setNote(null);
    setBusyId(r.id);
    const res = await approve(r.id);
    setBusyId(null);
    setNote(res.error ? { tone: 'error', text: explain(res.error) } : { tone: 'ok', text: t('requests.approved', { id: r.id }) });
  };

  const mine = (r: AdjustRequestView) => r.requestedBy === me.id;

  const columns: Column<AdjustRequestView>[] = [
    {
      key: 'id',
      label: t('requests.col.request'),
      render: (r) => <IdAndTime id={r.id} at={r.createdAt} lang={i18n.language} />,
    },
    {
      key: 'player',
      label: t('requests.col.player'),
      render: (r) => (
        <Link to={`/players/${r.userId}`} state={{ from: `/adjustments?status=${status}` }} className={css.id}>
          <Ltr>#{r.userId}</Ltr>
        </Link>
      ),
    },
    {
      key: 'amount',
      label: t('requests.col.amount'),
      align: 'end',
      render: (r) => (
        <span className={css.stack}>
          <Money amount={r.amount} currency={r.currency} className={r.amount < 0 ? css.debit : css.credit} />
          <small className={css.muted}>{t(`kind.${r.kind}`, { defaultValue: r.kind })}</small>
        </span>
      ),
    },
    { key: 'reason', label: t('requests.col.reason'), render: (r) => <span className={css.reasonText}>{r.reason}</span> },
    {
      key: 'by',
      label: t('requests.col.requestedBy'),
      render: (r) => (mine(r) ? <Badge tone="accent">{t('requests.you')}</Badge> : <span className={css.nowrap}>{t('requests.staff', { id: r.requestedBy })}</span>),
    },
    status === 'pending'
      ? {
          key: 'decide',
          label: t('requests.col.decide'),
          render: (r) => (
            <span className={css.rowActions}>
              <Button
                small
                tone="primary"
                busy={busyId === r.id}
                disabledReason={mine(r) ? t('requests.ownRequest') : null}
                onClick={() => void approveOne(r)}
                data-testid={`approve-request-${r.id}`}
              >
                {t('requests.approve')}
              </Button>
              <Button small tone="danger" onClick={() => setRejecting(r)} data-testid={`reject-request-${r.id}`}>
                {mine(r) ? t('requests.withdraw') : t('requests.reject')}
              </Button>
            </span>
          ),
        }
      : {
          key: 'decision',
          label: t('requests.col.decision'),
          render: (r) => (
            <span className={css.stack}>
              <Badge tone={statusTone(r.status)}>{t(`requests.status.${r.status}`, { defaultValue: r.status })}</Badge>
              <small className={css.muted}>
                {r.decidedBy ? t('requests.staff', { id: r.decidedBy }) : ''} {formatTime(r.decidedAt ?? null, i18n.language)}
              </small>
              {r.decisionNote ? <small>{r.decisionNote}</small> : null}
              {r.transactionId ? (
                <small className={css.muted}>
                  {t('requests.tx')} <Ltr>#{r.transactionId}</Ltr>
                </small>
              ) : null}
            </span>
          ),
        },
  ];

  return (
    <Page>
      <PageHeader title={t('requests.title')} lead={t('requests.lead')} />
      <LinkTabs
        label={t('requests.statusLabel')}
        current={status}
        tabs={REQUEST_STATUSES.map((s) => ({ id: s, label: t(`requests.status.${s}`), to: `?status=${s}` }))}
      />
      {note ? (
        <Notice tone={note.tone} testId="requests-note">
          {note.text}
        </Notice>
      ) : null}
      <QueryState isLoading={list.isFetching && !list.currentData} error={list.error} onRetry={() => void list.refetch()}>
        {list.currentData && list.currentData.length > 0 ? (
          <Card>
            <DataTable columns={columns} rows={list.currentData} rowKey={(r) => r.id} caption={t('requests.title')} rowTestId={(r) => `request-${r.id}`} />
          </Card>
        ) : (
          <Empty title={t(`requests.empty.${status}`)} testId="requests-empty" />
        )}
      </QueryState>
      {rejecting ? (
        <ReasonDialog
          title={mine(rejecting) ? t('requests.withdrawTitle', { id: rejecting.id }) : t('requests.rejectTitle', { id: rejecting.id })}
          lead={t('requests.rejectLead')}
          label={t('requests.note')}
          confirmLabel={mine(rejecting) ? t('requests.withdraw') : t('requests.reject')}
          tone="danger"
          testId="reject-request-dialog"
          onClose={() => setRejecting(null)}
          onConfirm={async (text) => {
            setNote(null);
            const res = await reject({ id: rejecting.id, note: text });
            if (res.error) return explain(res.error);
            setNote({ tone: 'ok', text: t('requests.rejected', { id: rejecting.id }) });
            return null;
          }}
        />
      ) : null}
    </Page>
  );
}
