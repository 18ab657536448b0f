import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { selectFullBalance } from '../../../app/authSlice';
import { logout } from '../../../app/session';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon, type IconName } from '../../../components/Icon';
import { Money } from '../../../components/Money';
import { List, ListRow, Muted } from '../../../components/Page';
import css from '../components/Profile.module.css';

const ITEMS: { to: string; icon: IconName; key: string }[] = [
  { to: 'personal', icon: 'user', key: 'profile.personal' },
  { to: 'balance', icon: 'wallet', key: 'profile.balance' },
  { to: 'bonuses', icon: 'gift', key: 'promotions:menu.bonuses' },
  { to: 'free-bets', icon: 'star', key: 'promotions:menu.freeBets' },
  { to: 'jackpots', icon: 'gift', key: 'promotions:menu.jackpots' },
  { to: 'cashback', icon: 'percent', key: 'profile.cashback' },
  { to: 'bets', icon: 'sport', key: 'betting:bets.title' },
  { to: 'history', icon: 'history', key: 'profile.history' },
  { to: 'slots-history', icon: 'slots', key: 'profile.slotsHistory' },
  { to: 'password', icon: 'lock', key: 'profile.changePassword' },
  { to: 'responsible-gambling', icon: 'history', key: 'rg:menu' },
];

/** `paymentsSection`: the deposit and withdrawal entries (features/payments), given by the router. */
export default function ProfileHome({ paymentsSection: PaymentsSection }: { paymentsSection?: React.ComponentType }) {
  const { t } = useTranslation([...ACCOUNT_NS, 'rg', 'betting', 'promotions']);
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.auth.user);
  const balance = useAppSelector(selectFullBalance);
  if (!user) return null;
  return (
    <>
      <section className={css.hero}>
        <span className={css.heroAvatar} aria-hidden="true">
          <Icon name="user" size={28} />
        </span>
        <div className={css.heroText}>
          <h1 className={css.heroName}>{[user.firstName, user.lastName].filter(Boolean).join(' ') || user.login}</h1>
          <Muted>
            {t('idLabel')} <bdi data-testid="profile-id">{user.id}</bdi> · <bdi>{user.login}</bdi>
          </Muted>
        </div>
      </section>
      <section className={css.balances} aria-label={t('profile.balance')}>
        <div className={css.balanceMain}>
          <Muted as="span">{t('profile.realBalance')}</Muted>
          <strong>{balance ? <Money amount={balance.balance} currency={balance.currency} /> : '—'}</strong>
        </div>
        <div className={css.balanceSide}>
          <Muted as="span">{t('profile.bonusBalance')}</Muted>
          <strong>{balance ? <Money amount={balance.bonusBalance} currency={balance.currency} /> : '—'}</strong>
        </div>
      </section>
      {PaymentsSection && (
        <Suspense fallback={null}>
          <PaymentsSection />
        </Suspense>
      )}
      <nav aria-label={t('profile.title')}>
        <List>
          {ITEMS.map((i) => (
            <ListRow key={i.to} icon={<Icon name={i.icon} />} action={<Link to={i.to} />} chevron>
              {t(i.key)}
            </ListRow>
          ))}
          <ListRow icon={<Icon name="logout" />} action={<button type="button" onClick={() => void logout(dispatch)} />} tone="danger">
            {t('logout')}
          </ListRow>
        </List>
      </nav>
    </>
  );
}
