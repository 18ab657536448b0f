import { Suspense, useMemo, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { DatePicker } from '../../../components/DatePicker';
import { isoDay, monthAgo } from '../../../components/dates';
import { OpItem, OpList, OpMessage } from '../../../components/Operations';
import { Paginator } from '../../../components/Paginator';
import { Spinner } from '../../../components/Spinner';
import { BackButton } from '../../../components/BackButton';
import { PageHeader } from '../../../components/Page';
import { opLabel } from '../operations';
import css from '../components/Profile.module.css';

export const HISTORY_PAGE_SIZE = 10;


/**
 * `payHistory`: the deposits and withdrawals with their status (features/payments), given by the
 * app's router; shown in a second tab for the same dates.
 */
export default function HistoryPage({ payHistory: PayHistory }: { payHistory?: ComponentType<{ begin: string; end: string }> }) {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const [from, setFrom] = useState(() => monthAgo());
  const [to, setTo] = useState(() => new Date());
  const [page, setPage] = useState(1);
  const [tab, setTab] = useState<'all' | 'payments'>('all');
  const query = useMemo(
    () => ({ begin: isoDay(from), end: isoDay(to), limit: HISTORY_PAGE_SIZE + 1, offset: (page - 1) * HISTORY_PAGE_SIZE }),
    [from, to, page],
  );
  const { data, isFetching, isError } = api.useHistoryQuery(query, { skip: tab !== 'all' });
  const rows = (data ?? []).slice(0, HISTORY_PAGE_SIZE);
  const hasNext = (data?.length ?? 0) > HISTORY_PAGE_SIZE;
  const dateFmt = new Intl.DateTimeFormat(`${i18n.language}-u-nu-latn`, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <>
      <PageHeader title={t('profile.history')} back={<BackButton fallback="/profile" />} />
      <div className={css.filters}>
        <DatePicker label={t('from')} value={from} max={to} onChange={(d) => (setFrom(d), setPage(1))} />
        <DatePicker label={t('to')} value={to} min={from} onChange={(d) => (setTo(d), setPage(1))} />
      </div>
      {PayHistory && (
        <div className={css.tabs} role="tablist" aria-label={t('profile.history')}>
          {(['all', 'payments'] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={tab === k}
              className={css.tab}
              data-testid={`history-tab-${k}`}
              onClick={() => setTab(k)}
            >
              {t(k === 'all' ? 'history.tabAll' : 'history.tabPayments')}
            </button>
          ))}
        </div>
      )}
      {PayHistory && tab === 'payments' ? (
        <Suspense fallback={null}>
          <PayHistory begin={isoDay(from)} end={isoDay(to)} />
        </Suspense>
      ) : (
        <>
          <div className={css.historyWrap} aria-busy={isFetching}>
            {isFetching && (
              <div className={css.center}>
                <Spinner />
              </div>
            )}
            {!isFetching && isError && <OpMessage>{t('loadFailed')}</OpMessage>}
            {!isFetching && !isError && rows.length === 0 && <OpMessage>{t('noOperations')}</OpMessage>}
            {!isFetching && rows.length > 0 && (
              <OpList testId="operations">
                {rows.map((r) => {
                  const label = opLabel(r, (m) => t(`method.${m}`, { defaultValue: m }));
                  const what = t(label.key, label.params);
                  return (
                  <OpItem key={r.id} tone={r.value < 0 ? 'out' : 'in'} amount={r.value} currency={r.currency} testId="op">
                      {r.game ? (
                        <>
                          <strong>
                            <bdi>{r.game.game_name}</bdi>
                          </strong>
                          <small>
                            {what} · <bdi>{r.game.provider_name}</bdi>
                          </small>
                        </>
                      ) : (
                        <strong data-testid="op-title">{what}</strong>
                      )}
                      {label.bet && (
                        <small data-testid="op-bet">
                          {t('op.betNumber', { id: label.bet })}
                        </small>
                      )}
                      {label.events && label.events.length > 0 && (
                        <small data-testid="op-events">
                          {label.events.map((e, i) => (
                            <span key={i}>
                              {i > 0 ? ' · ' : ''}
                              <bdi>{e}</bdi>
                            </span>
                          ))}
                        </small>
                      )}
                      <small>
                        {dateFmt.format(new Date(r.created_at))} · {t(`purse.${r.purse}`, { defaultValue: r.purse })}
                      </small>
                      {r.round_id && (
                        <small className={css.opRound}>
                          {t('history.round')} <bdi data-testid="op-round">{r.round_id}</bdi>
                          {r.verifiable && r.game && (
                            <>
                              {' · '}
                              <Link
                                to={`/profile/history/round?${new URLSearchParams({ game: r.game.game_id, round: r.round_id }).toString()}`}
                                className={css.opLink}
                                data-testid="op-fairness"
                              >
                                {t('history.fairness')}
                              </Link>
                            </>
                          )}
                        </small>
                      )}
                  </OpItem>
                  );
                })}
              </OpList>
            )}
          </div>
          <Paginator page={page} pages={null} hasNext={hasNext} onChange={setPage} />
        </>
      )}
    </>
  );
}
