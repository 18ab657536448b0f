import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/store';
import { MobileButton } from '../../../components/MobileButton';
import { Actions } from '../../../components/Page';
import { PATHS } from '../specialUser';
import { usePaymentPaths } from '../usePaymentPaths';

/**
 * The profile's deposit and withdrawal entries, by kind of payer (spec §4 "Special users"). A
 * website sign-up (paykassma-flagged) withdraws to a phone or in cash at a cashier
 * (/profile/withdrawal): both are offered.
 */
export default function ProfilePayments() {
  const { t } = useTranslation('payments');
  const paths = usePaymentPaths();
  const online = useAppSelector((s) => s.auth.user?.canDepositOnline !== false);
  if (!paths.isAuth) return null;
  const depositLabel =
    paths.kind === 'telegram'
      ? t('links.tgDeposit')
      : paths.onlineDepositButton && online
        ? t('links.onlineDeposit')
        : t('links.deposit');
  return (
    <Actions data-testid="profile-payments">
      <MobileButton to={paths.deposit}>{depositLabel}</MobileButton>
      {paths.kind === 'paykassma' ? (
        <>
          <MobileButton to={PATHS.paykassmaWithdrawal} color="secondary">
            {t('links.withdrawPhone')}
          </MobileButton>
          <MobileButton to={PATHS.withdrawal} color="secondary">
            {t('links.withdrawCashier')}
          </MobileButton>
        </>
      ) : paths.withdrawal ? (
        <MobileButton to={paths.withdrawal} color="secondary">
          {t('links.withdraw')}
        </MobileButton>
      ) : null}
    </Actions>
  );
}
