import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DatePicker } from '../../../components/DatePicker';
import { Paginator } from '../../../components/Paginator';
import { SpinnerOverlay } from '../../../components/Spinner';
import { promotionsApi } from '../api';
import { PageHead } from '../components/PageHead';
import pcss from '../Promotions.module.css';
import { DropItem } from './DropItem';
import css from './Jackpots.module.css';
import { defaultRange, JACKPOT_PAGE_SIZE, listArgs } from './range';

/**
 * /profile/jackpots-history: the public history of drops (spec §2, §5, §9): from and to dates
 * (dd-MM-yyyy, default a month ago → today, the request's end plus one day), pages of 8
 * numbered from 1, each drop with its name, amount, time, masked winner and its proof.
 */
export default function JackpotHistoryPage() {
  const { t } = useTranslation(['promotions', 'common']);
  const [range, setRange] = useState(() => defaultRange());
  const [page, setPage] = useState(1);
  const args = useMemo(() => listArgs(range.from, range.to, page), [range, page]);
  const { data, isFetching, isError } = promotionsApi.useJackpotListQuery(args, { refetchOnMountOrArgChange: true });
  const { data: pools } = promotionsApi.useJackpotsQuery();
  const pages = data ? Math.max(1, Math.ceil(data.total / JACKPOT_PAGE_SIZE)) : null;

  return (
    <div className={pcss.page}>
      <PageHead title={t('jackpots.historyTitle')} fallback="/profile/jackpots" />
      <div className={css.range}>
        <DatePicker
          label={t('jackpots.from')}
          value={range.from}
          max={range.to}
          onChange={(from) => {
            setRange((r) => ({ ...r, from }));
            setPage(1);
          }}
        />
        <DatePicker
          label={t('jackpots.to')}
          value={range.to}
          min={range.from}
          onChange={(to) => {
            setRange((r) => ({ ...r, to }));
            setPage(1);
          }}
        />
      </div>
      {isFetching && <SpinnerOverlay />}
      {isError && <p className={pcss.empty}>{t('jackpots.failed')}</p>}
      {data && data.items.length === 0 && (
        <p className={pcss.empty} data-testid="jackpot-history-empty">
          {t('jackpots.none')}
        </p>
      )}
      <ul className={pcss.list} data-testid="jackpot-history">
        {data?.items.map((item) => (
          <DropItem key={item.id} item={item} pools={pools} />
        ))}
      </ul>
      <Paginator page={page} pages={pages} onChange={setPage} />
    </div>
  );
}
