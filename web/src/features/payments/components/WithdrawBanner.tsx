import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { usePaymentPaths } from '../usePaymentPaths';
import css from './Payments.module.css';

/**
 * The withdraw-money banner (spec §2): for signed-in users only, and only when the link check
 * allows — the user has a withdrawal path (a Telegram user has none); it leads to that path
 * (/profile/withdrawal for a normal player).
 */
export function WithdrawBanner() {
  const { t } = useTranslation('payments');
  const paths = usePaymentPaths();
  if (!paths.isAuth || !paths.withdrawal) return null;
  return (
    <Link to={paths.withdrawal} className={css.banner} data-testid="withdraw-banner">
      <span className={css.bannerIcon} aria-hidden="true">
        <Icon name="wallet" />
      </span>
      <span className={css.bannerText}>
        <strong>{t('banner.title')}</strong>
        <small>{t('banner.text')}</small>
      </span>
      <span className={css.bannerCta} aria-hidden="true">
        {t('banner.cta')}
      </span>
    </Link>
  );
}
