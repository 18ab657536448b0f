import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OpItem, OpList, OpMessage, type OpTone } from '../../../components/Operations';
import { Paginator } from '../../../components/Paginator';
import { Spinner } from '../../../components/Spinner';
import { payHistoryApi, type PayHistoryEntry } from '../api';
import css from './Payments.module.css';

export const PAY_HISTORY_PAGE_SIZE = 10;
/** While a payment on the page is still open, the list asks again this often (a desk payout, a provider's answer). */
export const PAY_HISTORY_POLL_MS = 5000;
const DONE = ['succeeded', 'PAID'];
const BAD = ['failed', 'expired', 'cancelled', 'CANCELED'];

/** How an entry touched the balance: a payment that did not happen moved nothing. */
export function payTone(entry: Pick<PayHistoryEntry, 'type' | 'status'>): OpTone {
  if (BAD.includes(entry.status)) return 'void';
  return entry.type === 'withdrawal' ? 'out' : 'in';
}

/**
 * The player's deposits and withdrawals with their status (spec §3 pay history, §4 status
 * display), for the dates the operations history page has chosen (`begin`, `end`: days). Each
 * row says what it is and how ("Deposit — Card"); a payment that did not happen is neither a
 * credit nor a debit; while one is still open the list refreshes by itself.
 */
export default function PayHistory({ begin, end }: { begin: string; end: string }) {
  const { t, i18n } = useTranslation('payments');
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [begin, end]);
  const query = useMemo(
    () => ({ begin, end, limit: PAY_HISTORY_PAGE_SIZE + 1, offset: (page - 1) * PAY_HISTORY_PAGE_SIZE }),
    [begin, end, page],
  );
  const [open, setOpen] = useState(false);
  const { data, isFetching, isError } = payHistoryApi.usePayHistoryQuery(query, {
    pollingInterval: open ? PAY_HISTORY_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const rows = (data ?? []).slice(0, PAY_HISTORY_PAGE_SIZE);
  const anyOpen = rows.some((r) => !r.is_closed);
  useEffect(() => setOpen(anyOpen), [anyOpen]);
  const hasNext = (data?.length ?? 0) > PAY_HISTORY_PAGE_SIZE;
  const dateFmt = new Intl.DateTimeFormat(`${i18n.language}-u-nu-latn`, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <>
      <div className={css.historyWrap} aria-busy={isFetching}>
        {isFetching && !data ? (
          <div className={css.center}>
            <Spinner />
          </div>
        ) : isError ? (
          <OpMessage>{t('history.failed')}</OpMessage>
        ) : rows.length === 0 ? (
          <OpMessage testId="pay-history-empty">{t('history.empty')}</OpMessage>
        ) : (
          <OpList testId="pay-history">
            {rows.map((r) => {
              const out = r.type === 'withdrawal';
              const tone = DONE.includes(r.status) ? css.stDone : BAD.includes(r.status) ? css.stBad : css.stWait;
              const method = t(`purse.${r.purse}`, { defaultValue: r.purse });
              return (
                <OpItem
                  key={`${r.type}-${r.id}`}
                  tone={payTone(r)}
                  amount={r.value}
                  currency={r.currency}
                  testId="pay-entry"
                  below={
                    <span className={`${css.chip} ${tone}`} data-testid="pay-status" data-status={r.status}>
                      {t(`status.${r.status}`, { defaultValue: r.status })}
                    </span>
                  }
                >
                  <strong data-testid="pay-title">
                    {t(out ? 'history.withdrawalVia' : 'history.depositVia', { method })}
                  </strong>
                  <small>
                    {dateFmt.format(new Date(r.created_at))} · {t('history.reference', { id: String(r.id) })}
                  </small>
                </OpItem>
              );
            })}
          </OpList>
        )}
      </div>
      <Paginator page={page} pages={null} hasNext={hasNext} onChange={setPage} />
    </>
  );
}
