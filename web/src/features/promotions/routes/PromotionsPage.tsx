import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { WELCOME_ANCHOR, formatOffer, welcomeOffer } from '../../../components/welcomeOffer';
import css from '../Promotions.module.css';

const NS = ['promotions', 'account', 'common'] as const;

/** The welcome offer the settings grant (none: no section), target of the home slide. */
function WelcomeOffer() {
  const { t, i18n } = useTranslation(NS);
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
      <h2 id="welcome-title">{t('account:promo.welcomeTitle')}</h2>
      <p className={css.promoAmount} data-testid="welcome-amount">
        <bdi dir="ltr">{formatOffer(offer, i18n.language)}</bdi>
      </p>
      <p>{t('account:promo.welcomeText')}</p>
      {!isAuth && (
        <button type="button" className={css.promoCta} onClick={() => dispatch(openAuthModal('registration'))}>
          {t('account:promo.welcomeCta')}
        </button>
      )}
    </section>
  );
}

/** The promo code entry point: to the bonuses screen (signed in) or to sign-up with a code. */
function PromoCodeCard() {
  const { t } = useTranslation(NS);
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  return (
    <section className={`${css.promo} ${css.promoViolet}`} aria-labelledby="promo-code-title" data-testid="promo-entry">
      <Icon name="star" size={36} />
      <h2 id="promo-code-title">{t('page.promoTitle')}</h2>
      <p>{t('page.promoText')}</p>
      <div className={css.promoLinks}>
        {isAuth ? (
          <>
            <Link to="/profile/bonuses" className={css.promoCta}>
              {t('page.promoCta')}
            </Link>
            <Link to="/profile/free-bets" className={css.promoCta}>
              {t('page.freeBetsCta')}
            </Link>
          </>
        ) : (
          <button type="button" className={css.promoCta} onClick={() => dispatch(openAuthModal('registration'))}>
            {t('page.signUpCta')}
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * /promotions — spec §2: the coupon machine and cashback percent cards; with them the welcome
 * offer (when the settings grant one), the promo code entry and the way to the player's bonuses.
 */
export default function PromotionsPage() {
  const { t } = useTranslation(NS);
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  return (
    <section className={css.page}>
      <h1 className={css.title}>{t('page.title')}</h1>
      <div className={css.promos}>
        <WelcomeOffer />
        <Link to="/promotions/coupon-machine" className={`${css.promo} ${css.promoGold}`} data-testid="promo-coupon">
          <Icon name="gift" size={36} />
          <h2>{t('account:promo.couponTitle')}</h2>
          <p>{t('account:promo.couponText')}</p>
          <span className={css.promoCta}>{t('page.learnMore')}</span>
        </Link>
        <Link to="/promotions/cashback-percent" className={`${css.promo} ${css.promoGreen}`} data-testid="promo-cashback">
          <Icon name="percent" size={36} />
          <h2>{t('account:promo.cashbackTitle')}</h2>
          <p>{t('account:promo.cashbackText')}</p>
          <span className={css.promoCta}>{t('page.learnMore')}</span>
        </Link>
        <PromoCodeCard />
        {isAuth && (
          <Link to="/profile/bonuses" className={css.promoCta} data-testid="promo-bonuses">
            {t('page.bonusesCta')}
          </Link>
        )}
      </div>
    </section>
  );
}
