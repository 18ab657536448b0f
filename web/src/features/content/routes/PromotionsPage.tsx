import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { Icon } from '../../../components/Icon';
import css from '../components/Content.module.css';

/** /promotions — the coupon machine and the cashback percent cards. */
export default function PromotionsPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <section className={css.page}>
      <h1>{t('promotions')}</h1>
      <div className={css.promos}>
        <Link to="/promotions/coupon-machine" className={`${css.promo} ${css.promoGold}`}>
          <Icon name="gift" size={36} />
          <h2>{t('promo.couponTitle')}</h2>
          <p>{t('promo.couponText')}</p>
          <span className={css.promoCta}>{t('learnMore')}</span>
        </Link>
        <Link to="/promotions/cashback-percent" className={`${css.promo} ${css.promoGreen}`}>
          <Icon name="percent" size={36} />
          <h2>{t('promo.cashbackTitle')}</h2>
          <p>{t('promo.cashbackText')}</p>
          <span className={css.promoCta}>{t('learnMore')}</span>
        </Link>
      </div>
    </section>
  );
}
