import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../api/types';
import { useNotify } from '../../../app/notify';
import { useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import { MobileButton } from '../../../components/MobileButton';
import { SpinnerOverlay } from '../../../components/Spinner';
import { promotionsApi } from '../api';
import { formatDay, formatOdds } from '../components/format';
import { PageHead } from '../components/PageHead';
import { PromoCodeForm } from '../components/PromoCodeForm';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;
/** Spec §5: a free bet is used at total odds of at least 2.2. */
export const FREE_BET_MIN_ODDS = 2.2;

/** /profile/free-bets: this week's stats, the free bets with status, value, expiry and minimum odds, and their activation. */
export default function FreeBetsPage() {
  const { t, i18n } = useTranslation(NS);
  const notify = useNotify();
  const currency = useAppSelector((s) => s.auth.balance?.currency ?? s.auth.user?.currency ?? 'TND');
  const { data: list, isLoading, isError } = promotionsApi.useFreeBetsQuery(undefined, { refetchOnMountOrArgChange: true });
  const { data: stats } = promotionsApi.useFreeBetStatsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [activate, { isLoading: activating }] = promotionsApi.useActivateFreeBetsMutation();

  const onActivate = async () => {
    const res = await activate();
    if (res.error) notify.error(res.error as ApiError);
    else notify.success('promotions:freeBets.activated', { count: String(res.data.activated) });
  };

  return (
    <div className={css.page}>
      <PageHead title={t('freeBets.title')} />
      <section className={css.card} aria-labelledby="free-bet-stats">
        <h2 id="free-bet-stats" className={css.subtitle}>
          {t('freeBets.stats')}
        </h2>
        <div className={css.stats}>
          <div className={css.stat}>
            <span className={css.muted}>{t('freeBets.betsTotal')}</span>
            <strong data-testid="free-bet-stakes">{stats ? <Money amount={stats.bets_total_now} currency={currency} /> : '—'}</strong>
          </div>
          <div className={css.stat}>
            <span className={css.muted}>{t('freeBets.possible')}</span>
            <strong data-testid="free-bet-possible">{stats ? <bdi>{stats.possible_free_bets}</bdi> : '—'}</strong>
          </div>
        </div>
        <p className={css.muted}>{t('freeBets.text', { odds: formatOdds(FREE_BET_MIN_ODDS) })}</p>
        <MobileButton block onClick={() => void onActivate()} disabled={activating} data-testid="activate-free-bets">
          {t('freeBets.activate')}
        </MobileButton>
        {activating && <SpinnerOverlay />}
      </section>
      <section className={css.section}>
        {isLoading && <SpinnerOverlay />}
        {isError && <p className={css.empty}>{t('freeBets.failed')}</p>}
        {list && list.length === 0 && (
          <p className={css.empty} data-testid="no-free-bet">
            {t('freeBets.none')}
          </p>
        )}
        <ul className={css.list} data-testid="free-bets">
          {list?.map((f) => {
            const expires = formatDay(f.expiresAt, i18n.language);
            return (
              <li key={f.id} className={css.freeBet} data-testid="free-bet" data-status={f.status}>
                <div className={css.freeBetTop}>
                  <Money amount={f.amount} currency={f.currency} className={css.freeBetValue} />
                  <span className={`${css.status} ${css[`status_${f.status === 'active' ? 'ready' : f.status}`] ?? ''}`} data-testid="free-bet-status">
                    {t(`freeBets.status.${f.status}`, { defaultValue: f.status })}
                  </span>
                </div>
                <dl className={css.facts}>
                  <div>
                    <dt>{t('freeBets.minOdds')}</dt>
                    <dd>
                      <bdi dir="ltr">{formatOdds(f.minOdds || FREE_BET_MIN_ODDS)}</bdi>
                    </dd>
                  </div>
                  <div>
                    <dt>{t('freeBets.expires')}</dt>
                    <dd>{expires ? <bdi>{expires}</bdi> : '—'}</dd>
                  </div>
                </dl>
              </li>
            );
          })}
        </ul>
      </section>
      <PromoCodeForm />
    </div>
  );
}
