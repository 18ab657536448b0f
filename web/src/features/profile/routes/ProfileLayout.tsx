import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import { SpinnerOverlay } from '../../../components/Spinner';
import css from '../components/Profile.module.css';

/** /profile and its sub-routes: signed-in players only. */
export default function ProfileLayout() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  if (!isAuth && !checked) return <SpinnerOverlay />;
  if (!isAuth) {
    return (
      <section className={css.guest}>
        <span className={css.guestIcon}>
          <Icon name="lock" size={32} />
        </span>
        <h1>{t('profile.signInTitle')}</h1>
        <p>{t('profile.signInText')}</p>
        <div className={css.guestActions}>
          <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('login')}</MobileButton>
          <MobileButton color="secondary" onClick={() => dispatch(openAuthModal('registration'))}>
            {t('register')}
          </MobileButton>
        </div>
      </section>
    );
  }
  return (
    <div className={css.profile}>
      <Outlet />
    </div>
  );
}
