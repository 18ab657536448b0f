import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import css from './HomeJackpots.module.css';

/** What the widget shows of a pool: `/api/jackpots` and the balance reply's `jackpots` both carry it. */
type Pool = { id: number; pool: string; name: string; amount: number; currency: string };

/** Spec §9: the jackpot widget refreshes every 60 s. */
export const JACKPOT_WIDGET_REFRESH_MS = 60_000;

// Its own endpoint (not features/promotions/api.ts): this chunk is on /home's first load, and
// must not pull in a chunk shared with the promotion pages.
const widgetApi = api.injectEndpoints({
  endpoints: (build) => ({
    jackpotPools: build.query<Pool[], void>({ query: () => ({ url: '/api/jackpots' }) }),
  }),
});

/**
 * /home's jackpot widget (mounted after the first paint; strings in `common`, already loaded):
 * the three pools with their amounts, to /profile/jackpots. A signed-in player's balance poll
 * (every 15 s) carries the pools; a guest's widget asks `/api/jackpots` every 60 s.
 */
export default function HomeJackpots() {
  const { t } = useTranslation();
  const fromBalance = useAppSelector(selectFullBalance)?.jackpots;
  const polled = widgetApi.useJackpotPoolsQuery(undefined, { pollingInterval: JACKPOT_WIDGET_REFRESH_MS, skip: !!fromBalance?.length });
  const pools: Pool[] = fromBalance?.length ? fromBalance : (polled.data ?? []);
  // Loading: the widget's empty frame (the same height); no pools configured: nothing.
  if (pools.length === 0) return polled.isLoading ? <div className={css.widget} aria-hidden="true" /> : null;
  return (
    <Link to="/profile/jackpots" className={css.widget} data-testid="home-jackpots" aria-label={t('home.jackpotsLabel')}>
      <span className={css.head}>
        <strong>{t('home.jackpots')}</strong>
        <small>{t('viewAll')}</small>
      </span>
      <span className={css.pools}>
        {pools.map((p, i) => (
          <span key={p.pool} className={`${css.pool} ${css[`tone${i}`] ?? ''}`} data-testid={`home-jackpot-${p.pool}`}>
            <small>{t(`home.jackpotPools.${p.pool}`, { defaultValue: p.name })}</small>
            <Money amount={p.amount} currency={p.currency} className={css.amount} />
          </span>
        ))}
      </span>
    </Link>
  );
}
