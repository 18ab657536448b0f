import { useTranslation } from 'react-i18next';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import { SpinnerOverlay } from '../../../components/Spinner';
import { isOpen, promotionsApi } from '../api';
import { BonusCard } from '../components/BonusCard';
import { PageHead } from '../components/PageHead';
import { PromoCodeForm } from '../components/PromoCodeForm';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;

/**
 * /profile/bonuses: real money and bonus money apart, the promo code entry, each open bonus with
 * its wagering bar and the one-tap give-up, then the closed ones.
 */
export default function BonusesPage() {
  const { t } = useTranslation(NS);
  const balance = useAppSelector(selectFullBalance);
  const { data: bonuses, isLoading, isError } = promotionsApi.useBonusesQuery(undefined, { refetchOnMountOrArgChange: true });
  const open = bonuses?.filter(isOpen) ?? [];
  const closed = bonuses?.filter((b) => !isOpen(b)) ?? [];
  return (
    <div className={css.page}>
      <PageHead title={t('bonuses.title')} />
      <section className={css.balances} aria-label={t('bonuses.apart')}>
        <div className={css.balance}>
          <span className={css.muted}>{t('bonuses.real')}</span>
          <strong data-testid="real-balance">{balance ? <Money amount={balance.balance} currency={balance.currency} /> : '—'}</strong>
        </div>
        <div className={`${css.balance} ${css.balanceBonus}`}>
          <span className={css.muted}>{t('bonuses.bonus')}</span>
          <strong data-testid="bonus-balance">{balance ? <Money amount={balance.bonusBalance} currency={balance.currency} /> : '—'}</strong>
        </div>
      </section>
      <p className={css.muted}>{t('bonuses.apart')}</p>
      <PromoCodeForm />
      <section className={css.section} aria-labelledby="open-bonuses">
        <h2 id="open-bonuses" className={css.subtitle}>
          {t('bonuses.open')}
        </h2>
        {isLoading && <SpinnerOverlay />}
        {isError && <p className={css.empty}>{t('bonuses.failed')}</p>}
        {bonuses && open.length === 0 && (
          <p className={css.empty} data-testid="no-bonus">
            {t('bonuses.none')}
          </p>
        )}
        {open.map((b) => (
          <BonusCard key={b.id} bonus={b} />
        ))}
      </section>
      {closed.length > 0 && (
        <section className={css.section} aria-labelledby="closed-bonuses">
          <h2 id="closed-bonuses" className={css.subtitle}>
            {t('bonuses.closed')}
          </h2>
          {closed.map((b) => (
            <BonusCard key={b.id} bonus={b} />
          ))}
        </section>
      )}
    </div>
  );
}
