import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePaymentPaths } from '../usePaymentPaths';
import css from './Payments.module.css';

/** Spec §4: authenticated paykassma users see an 'Online deposit' button (the header's "+"). */
export default function OnlineDepositButton() {
  const { t } = useTranslation('payments');
  const paths = usePaymentPaths();
  if (!paths.onlineDepositButton) return null;
  return (
    <Link
      to={paths.deposit}
      className={css.headerDeposit}
      aria-label={t('links.onlineDeposit')}
      title={t('links.onlineDeposit')}
      data-testid="online-deposit"
    >
      <span aria-hidden="true">+</span>
    </Link>
  );
}
