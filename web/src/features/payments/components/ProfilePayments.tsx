import { useTranslation } from 'react-i18next';
import { MobileButton } from '../../../components/MobileButton';
import { usePaymentPaths } from '../usePaymentPaths';
import css from './Payments.module.css';

/** The profile's deposit and withdrawal entries, by kind of payer (spec §4 "Special users"). */
export default function ProfilePayments() {
  const { t } = useTranslation('payments');
  const paths = usePaymentPaths();
  if (!paths.isAuth) return null;
  const depositLabel =
    paths.kind === 'telegram' ? t('links.tgDeposit') : paths.onlineDepositButton ? t('links.onlineDeposit') : t('links.deposit');
  return (
    <div className={css.links} data-testid="profile-payments">
        <MobileButton to={paths.deposit}>
          {depositLabel}
        </MobileButton>
        {paths.withdrawal ? (
          <MobileButton to={paths.withdrawal} color="secondary">
            {t('links.withdraw')}
          </MobileButton>
        ) : null}
    </div>
  );
}

