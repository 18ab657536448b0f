import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import { MobileButton } from '../../../components/MobileButton';
import { PageHead } from '../components/PageHead';
import css from '../components/Profile.module.css';

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
      <PageHead title={t('profile.balance')} />
      <dl className={css.list}>
        {rows.map(([key, amount]) => (
          <div key={key} className={css.listRow}>
            <dt>{t(key)}</dt>
            <dd data-testid={key}>
              <Money amount={amount} currency={balance!.currency} />
            </dd>
          </div>
        ))}
      </dl>
      <div className={css.actions}>
        <MobileButton to="/profile/top-up">{t('profile.deposit')}</MobileButton>
        <MobileButton to="/profile/withdrawal" color="secondary">
          {t('profile.withdraw')}
        </MobileButton>
      </div>
    </>
  );
}
