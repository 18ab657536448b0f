import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OpItem, OpList, OpMessage } from '../../../components/Operations';
import { Paginator } from '../../../components/Paginator';
import { Spinner } from '../../../components/Spinner';
import { payHistoryApi } from '../api';
import css from './Payments.module.css';

export const PAY_HISTORY_PAGE_SIZE = 10;
const DONE = ['succeeded', 'PAID'];
const BAD = ['failed', 'expired', 'cancelled', 'CANCELED'];

/**
 * The player's deposits and withdrawals with their status (spec §3 pay history, §4 status
 * display), for the dates the operations history page has chosen (`begin`, `end`: days).
 */
export default function PayHistory({ begin, end }: { begin: string; end: string }) {
  const { t, i18n } = useTranslation('payments');
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [begin, end]);
  const query = useMemo(
    () => ({ begin, end, limit: PAY_HISTORY_PAGE_SIZE + 1, offset: (page - 1) * PAY_HISTORY_PAGE_SIZE }),
    [begin, end, page],
  );
  const { data, isFetching, isError } = payHistoryApi.usePayHistoryQuery(query);
  const rows = (data ?? []).slice(0, PAY_HISTORY_PAGE_SIZE);
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
              return (
                <OpItem
                  key={`${r.type}-${r.id}`}
                  out={out}
                  amount={r.value}
                  currency={r.currency}
                  testId="pay-entry"
                  below={
                    <span className={`${css.status} ${tone}`} data-testid="pay-status" data-status={r.status}>
                      {t(`status.${r.status}`, { defaultValue: r.status })}
                    </span>
                  }
                >
                  <strong>{out ? t('history.withdrawal') : t('history.deposit')}</strong>
                  <small>
                    {dateFmt.format(new Date(r.created_at))} · {t(`purse.${r.purse}`, { defaultValue: r.purse })}
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
