import { useTranslation } from 'react-i18next';
import { Money } from '../../../components/Money';
import type { JackpotHistoryItem, JackpotView } from '../api';
import pcss from '../Promotions.module.css';
import css from './Jackpots.module.css';
import { ltr, poolName, poolOf } from './pools';
import { VerifyDrop } from './VerifyDrop';

/** One drop of the public history: name, amount, time, masked winner, and its proof. */
export function DropItem({ item, pools }: { item: JackpotHistoryItem; pools: JackpotView[] | undefined }) {
  const { t } = useTranslation('promotions');
  const pool = poolOf(pools, item.name);
  return (
    <li className={css.drop} data-testid="jackpot-drop" data-id={item.id}>
      <div className={css.dropTop}>
        <span className={css.dropName} data-testid="jackpot-drop-name">
          {poolName(t, item.name)}
        </span>
        <Money amount={item.amount} currency={item.currency} className={css.poolAmount} />
      </div>
      <div className={css.dropTop}>
        <bdi className={pcss.muted} dir="ltr">
          {item.updatedAt}
        </bdi>
        <span className={pcss.muted} data-testid="jackpot-drop-winner">
          {t('jackpots.winner', { id: ltr(item.userId) })}
        </span>
      </div>
      <dl className={pcss.facts}>
        <div>
          <dt>{t('jackpots.cycle')}</dt>
          <dd>
            <bdi>{item.cycle}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('jackpots.dropPoint')}</dt>
          <dd>
            <Money amount={item.dropPoint} currency={item.currency} />
          </dd>
        </div>
        <div className={css.wide}>
          <dt>{t('jackpots.seed')}</dt>
          <dd className={css.hash} dir="ltr">
            {item.serverSeed}
          </dd>
        </div>
        <div className={css.wide}>
          <dt>{t('jackpots.seedHash')}</dt>
          <dd className={css.hash} dir="ltr">
            {item.seedHash}
          </dd>
        </div>
      </dl>
      {pool && (
        <VerifyDrop
          drop={{
            serverSeed: item.serverSeed,
            seedHash: item.seedHash,
            pool: pool.pool,
            cycle: item.cycle,
            currency: item.currency,
            seedAmount: pool.startAmount,
            cap: pool.cap,
            dropPoint: item.dropPoint,
          }}
        />
      )}
    </li>
  );
}
