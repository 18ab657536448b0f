import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Money';
import { Icon } from '../../components/Icon';
import { openAuthModal } from '../authSlice';
import { setSideMenu } from '../uiSlice';
import { useAppDispatch, useAppSelector } from '../store';
import css from './Shell.module.css';
import { settled } from '../chunkReload';

// Spec §4: authenticated paykassma users see an 'Online deposit' button (features/payments).
const OnlineDepositButton = lazy(() => settled(import('../../features/payments/components/OnlineDepositButton')));

export function Logo() {
  return (
    <Link to="/home" className={css.logo} aria-label="Carthage" data-testid="logo">
      <span className={css.logoMark} aria-hidden="true">
        <svg viewBox="0 0 32 32" width="30" height="30">
          <defs>
            <linearGradient id="lg" x1="0" y1="0" x2="1" y2="1">
              <stop offset="0" stopColor="#ffd66b" />
              <stop offset="1" stopColor="#e08a12" />
            </linearGradient>
          </defs>
          <path d="M16 2 29 9v14l-13 7L3 23V9z" fill="url(#lg)" />
          <path d="M20.5 11.5a6 6 0 1 0 0 9" fill="none" stroke="#1a1204" strokeWidth="3" strokeLinecap="round" />
        </svg>
      </span>
      <span className={css.logoText} data-testid="logo-text">
        Carthage
      </span>
    </Link>
  );
}

export function Header() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const user = useAppSelector((s) => s.auth.user);
  const balance = useAppSelector((s) => s.auth.balance);

  return (
    <header className={css.header}>
      <div className={css.headerInner}>
        <button type="button" className={css.burger} aria-label={t('openMenu')} data-testid="header-menu" onClick={() => dispatch(setSideMenu(true))}>
          <Icon name="menu" />
        </button>
        <Logo />
        <div className={css.headerEnd}>
          {isAuth && user?.isOnPaykassmaPayment ? (
            <Suspense fallback={null}>
              <OnlineDepositButton />
            </Suspense>
          ) : null}
          {isAuth && user ? (
            <Link to="/profile" className={css.account} data-testid="header-account" aria-label={t('myAccount')}>
              <span className={css.accountId}>
                {t('idLabel')} <bdi data-testid="header-id">{user.id}</bdi>
              </span>
              <span className={css.accountBalance} data-testid="header-balance">
                {balance ? <Money amount={balance.balance} currency={balance.currency} /> : '—'}
              </span>
            </Link>
          ) : (
            <>
              <button type="button" className={css.headerBtnGhost} data-testid="header-login" onClick={() => dispatch(openAuthModal('login'))}>
                {t('login')}
              </button>
              <button type="button" className={css.headerBtn} data-testid="header-register" onClick={() => dispatch(openAuthModal('registration'))}>
                {t('register')}
              </button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
