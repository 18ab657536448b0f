import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { openAuthModal } from '../../../app/authSlice';
import { ACCOUNT_NS } from '../../../app/i18n';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { WELCOME_ANCHOR, formatOffer, welcomeOffer } from '../../../components/welcomeOffer';
import css from '../components/Content.module.css';

/** The welcome offer the settings grant (none: no section), target of the home slide. */
function WelcomeOffer() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const offer = welcomeOffer(api.useSettingsQuery().data);
  const { hash } = useLocation();
  useEffect(() => {
    if (offer && hash === `#${WELCOME_ANCHOR}`) document.getElementById(WELCOME_ANCHOR)?.scrollIntoView({ block: 'start' });
  }, [offer, hash]);
  if (!offer) return null;
  return (
    <section id={WELCOME_ANCHOR} className={`${css.promo} ${css.promoViolet}`} aria-labelledby="welcome-title" data-testid="welcome-offer">
      <Icon name="gift" size={36} />
      <h2 id="welcome-title">{t('promo.welcomeTitle')}</h2>
      <p className={css.promoAmount} data-testid="welcome-amount">
        <bdi dir="ltr">{formatOffer(offer, i18n.language)}</bdi>
      </p>
      <p>{t('promo.welcomeText')}</p>
      {!isAuth && (
        <button type="button" className={css.promoCta} onClick={() => dispatch(openAuthModal('registration'))}>
          {t('promo.welcomeCta')}
        </button>
      )}
    </section>
  );
}

/** /promotions — the welcome offer (when there is one), the coupon machine and the cashback percent cards. */
export default function PromotionsPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <section className={css.page}>
      <h1>{t('promotions')}</h1>
      <div className={css.promos}>
        <WelcomeOffer />
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
