import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import css from '../components/Content.module.css';

export default function CashbackPercentPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <article className={css.page}>
      <BackButton fallback="/promotions" />
      <div className={`${css.banner} ${css.promoGreen}`}>
        <span className={css.bannerFigure}>8%</span>
        <h1>{t('promo.cashbackTitle')}</h1>
        <p>{t('promo.cashbackText')}</p>
      </div>
      <ol className={css.steps}>
        <li>{t('promo.cashbackStep1')}</li>
        <li>{t('promo.cashbackStep2')}</li>
        <li>{t('promo.cashbackStep3')}</li>
      </ol>
      <MobileButton to="/profile/cashback" block>
        {t('profile.cashback')}
      </MobileButton>
    </article>
  );
}
