import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import { MobileButton } from '../../../components/MobileButton';
import { BackButton } from '../../../components/BackButton';
import { Actions, List, PageHeader, ValueRow } from '../../../components/Page';

export default function BalancePage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const balance = useAppSelector(selectFullBalance);
  const rows = balance
    ? ([
        ['profile.realBalance', balance.balance],
        ['profile.bonusBalance', balance.bonusBalance],
        ['profile.cashbackBalance', balance.cashbackBalance],
        ['profile.freeBetBalance', balance.freeBetBalance],
        ['profile.weeklyCashback', balance.weeklyCashback],
      ] as const)
    : [];
  return (
    <>
      <PageHeader title={t('profile.balance')} back={<BackButton fallback="/profile" />} />
      <List as="dl">
        {rows.map(([key, amount]) => (
          <ValueRow key={key} label={t(key)} valueTestId={key}>
            <Money amount={amount} currency={balance!.currency} />
          </ValueRow>
        ))}
      </List>
      <Actions>
        <MobileButton to="/profile/top-up">{t('profile.deposit')}</MobileButton>
        <MobileButton to="/profile/withdrawal" color="secondary">
          {t('profile.withdraw')}
        </MobileButton>
      </Actions>
    </>
  );
}
