import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Money } from '../../../components/Money';
import { moneyText } from '../../../components/money';
import { SpinnerOverlay } from '../../../components/Spinner';
import { promotionsApi } from '../api';
import { PageHead } from '../components/PageHead';
import pcss from '../Promotions.module.css';
import { DropItem } from './DropItem';
import css from './Jackpots.module.css';
import { ltr, poolName } from './pools';
import { defaultRange, listArgs } from './range';

/**
 * /profile/jackpots: the three must-drop pools (amount, cap, cycle, the published seed hash),
 * how the drop point is committed and checked, and the latest drops with "Verify".
 */
export default function JackpotsPage() {
  const { t, i18n } = useTranslation(['promotions', 'common']);
  const { data: pools, isLoading, isError } = promotionsApi.useJackpotsQuery(undefined, { refetchOnMountOrArgChange: true, pollingInterval: 60_000 });
  const args = useMemo(() => {
    const { from, to } = defaultRange();
    return listArgs(from, to, 1);
  }, []);
  const { data: history } = promotionsApi.useJackpotListQuery(args, { refetchOnMountOrArgChange: true });

  return (
    <div className={pcss.page}>
      <PageHead title={t('jackpots.title')} />
      {isLoading && <SpinnerOverlay />}
      {isError && <p className={pcss.empty}>{t('jackpots.failed')}</p>}
      <ul className={css.pools} data-testid="jackpot-pools">
        {pools?.map((p) => (
          <li key={p.pool} className={css.pool} data-testid="jackpot-pool" data-pool={p.pool}>
            <div className={css.poolTop}>
              <h2 className={css.poolName}>{poolName(t, p.name)}</h2>
              <Money amount={p.amount} currency={p.currency} className={css.poolAmount} />
            </div>
            <p className={pcss.muted} data-testid="jackpot-cap">
              {t('jackpots.cap', { amount: moneyText(p.cap, p.currency, i18n.language) })}
            </p>
            <dl className={pcss.facts}>
              <div>
                <dt>{t('jackpots.cycle')}</dt>
                <dd>
                  <bdi>{p.cycle}</bdi>
                </dd>
              </div>
              {p.lastWinner && (
                <div>
                  <dt>{t('jackpots.lastWinner')}</dt>
                  <dd>{t('jackpots.winner', { id: ltr(p.lastWinner) })}</dd>
                </div>
              )}
              <div className={css.wide}>
                <dt>{t('jackpots.seedHash')}</dt>
                <dd className={css.hash} dir="ltr" data-testid="jackpot-seed-hash">
                  {p.seedHash}
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <section className={pcss.card} aria-labelledby="jackpot-how">
        <h2 id="jackpot-how" className={pcss.subtitle}>
          {t('jackpots.howTitle')}
        </h2>
        <p className={pcss.muted}>{t('jackpots.how1')}</p>
        <p className={pcss.muted}>{t('jackpots.how2')}</p>
      </section>
      <section className={pcss.section} aria-labelledby="jackpot-last">
        <div className={css.dropTop}>
          <h2 id="jackpot-last" className={pcss.subtitle}>
            {t('jackpots.lastDrops')}
          </h2>
          <Link to="/profile/jackpots-history" className={css.link} data-testid="jackpot-history-link">
            {t('jackpots.allHistory')}
          </Link>
        </div>
        {history && history.items.length === 0 && <p className={pcss.empty}>{t('jackpots.none')}</p>}
        <ul className={pcss.list}>
          {history?.items.map((item) => (
            <DropItem key={item.id} item={item} pools={pools} />
          ))}
        </ul>
      </section>
    </div>
  );
}
