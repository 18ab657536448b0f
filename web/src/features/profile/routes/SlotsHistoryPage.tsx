import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { errorText, isApiError } from '../../../app/errors';
import { DatePicker } from '../../../components/DatePicker';
import { isoDay, monthAgo } from '../../../components/dates';
import { SelectField } from '../../../components/Field';
import { Money } from '../../../components/Money';
import { OpItem, OpList, OpMessage } from '../../../components/Operations';
import { Paginator } from '../../../components/Paginator';
import { Spinner } from '../../../components/Spinner';
import { slotsHistoryApi, type SlotsRound } from '../api';
import { BackButton } from '../../../components/BackButton';
import { Muted, PageHeader } from '../../../components/Page';
import { providerOptions, providersFilter, ROUND_STATUSES, statusesFilter } from '../slotsFilters';
import css from '../components/Profile.module.css';

export const SLOTS_PAGE_SIZE = 10;

/**
 * The profile's slots bet history (spec §2, §7 `getSlotsBetHistory`): every casino round of the
 * player — the studio's games and the providers' — with its stake, win and result, filtered by
 * dates, provider and status, ten a page.
 */
export default function SlotsHistoryPage() {
  const { t, i18n } = useTranslation([...ACCOUNT_NS, 'errors']);
  const [from, setFrom] = useState(() => monthAgo());
  const [to, setTo] = useState(() => new Date());
  const [provider, setProvider] = useState('all');
  const [status, setStatus] = useState('all');
  const [page, setPage] = useState(1);
  const args = useMemo(
    () => ({
      from: isoDay(from),
      to: isoDay(to),
      page: page - 1,
      count: SLOTS_PAGE_SIZE,
      statuses: statusesFilter(status),
      providers: providersFilter(provider),
    }),
    [from, to, page, provider, status],
  );
  const { data, isFetching, isError, error, refetch } = slotsHistoryApi.useSlotsHistoryQuery(args);
  const providers = slotsHistoryApi.useHistoryProvidersQuery().data ?? [];
  const rows = data?.items ?? [];
  const dateFmt = new Intl.DateTimeFormat(`${i18n.language}-u-nu-latn`, { dateStyle: 'medium', timeStyle: 'short' });
  const err = isError ? errorText(isApiError(error) ? error : undefined) : null;
  const filtered = provider !== 'all' || status !== 'all';

  return (
    <>
      <PageHeader title={t('slots.title')} back={<BackButton fallback="/profile" />} />
      <div className={`${css.filters} ${css.filtersWide}`}>
        <DatePicker label={t('from')} value={from} max={to} onChange={(d) => (setFrom(d), setPage(1))} />
        <DatePicker label={t('to')} value={to} min={from} onChange={(d) => (setTo(d), setPage(1))} />
        <SelectField
          label={t('slots.provider')}
          name="provider"
          value={provider}
          onChange={(v) => (setProvider(v), setPage(1))}
          options={[{ value: 'all', label: t('slots.allProviders') }, ...providerOptions(providers, i18n.language)]}
        />
        <SelectField
          label={t('slots.status')}
          name="status"
          value={status}
          onChange={(v) => (setStatus(v), setPage(1))}
          options={[{ value: 'all', label: t('slots.allStatuses') }, ...ROUND_STATUSES.map((s) => ({ value: s, label: t(`slots.status_${s}`) }))]}
        />
      </div>
      {data && !isFetching && !isError && data.total > 0 && (
        <p className={css.hint} data-testid="slots-total">
          {t('slots.total', { count: data.total })}
        </p>
      )}
      <div className={css.historyWrap} aria-busy={isFetching}>
        {isFetching && (
          <div className={css.center}>
            <Spinner />
          </div>
        )}
        {!isFetching && err && (
          <div className={css.center}>
            <OpMessage testId="slots-error" alert>
              {t(err.key, err.params)}
            </OpMessage>
            <button type="button" className={css.opLink} onClick={() => void refetch()} data-testid="slots-retry">
              {t('slots.retry')}
            </button>
          </div>
        )}
        {!isFetching && !err && rows.length === 0 && <OpMessage testId="slots-empty">{t(filtered ? 'slots.noneFiltered' : 'slots.none')}</OpMessage>}
        {!isFetching && !err && rows.length > 0 && (
          <OpList testId="slots-rounds">
            {rows.map((r) => (
              <RoundRow key={`${r.provider}:${r.roundId}`} round={r} when={dateFmt.format(new Date(r.createdAt))} />
            ))}
          </OpList>
        )}
      </div>
      <Paginator page={page} pages={data?.pages ?? null} onChange={setPage} />
    </>
  );
}

function RoundRow({ round: r, when }: { round: SlotsRound; when: string }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const tone = r.status === 'refunded' ? 'void' : r.net < 0 ? 'out' : 'in';
  return (
    <OpItem
      tone={tone}
      amount={r.status === 'refunded' ? r.stake : r.net}
      currency={r.currency}
      testId="slots-round"
      below={
        <Muted as="small" data-testid="slots-status" data-status={r.status}>
          {t(`slots.status_${r.status}`, { defaultValue: r.status })}
        </Muted>
      }
    >
      <strong>
        <bdi>{r.gameName}</bdi>
      </strong>
      <small>
        <bdi>{r.providerName}</bdi> · {when}
      </small>
      <small data-testid="slots-amounts">
        {t('slots.stake')} <Money amount={r.stake} currency={r.currency} /> · {t('slots.win')} <Money amount={r.win} currency={r.currency} />
        {r.refunded > 0 && (
          <>
            {' · '}
            {t('slots.refunded')} <Money amount={r.refunded} currency={r.currency} />
          </>
        )}
      </small>
      <small className={css.opRound}>
        {t('history.round')} <bdi data-testid="slots-round-id">{r.roundId}</bdi>
        {r.verifiable && (
          <>
            {' · '}
            <Link to={`/profile/history/round?${new URLSearchParams({ game: r.gameId, round: r.roundId }).toString()}`} className={css.opLink}>
              {t('history.fairness')}
            </Link>
          </>
        )}
      </small>
    </OpItem>
  );
}
