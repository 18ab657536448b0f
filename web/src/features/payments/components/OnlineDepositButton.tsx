import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/store';
import { usePaymentPaths } from '../usePaymentPaths';
import css from './Payments.module.css';

/** Spec §4: authenticated paykassma users see an 'Online deposit' button (the header's "+"). */
export default function OnlineDepositButton() {
  const { t } = useTranslation('payments');
  const paths = usePaymentPaths();
  // Not for a player who cannot deposit online (their deposit page shows the cashier way).
  const online = useAppSelector((s) => s.auth.user?.canDepositOnline !== false);
  if (!paths.onlineDepositButton || !online) return null;
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
