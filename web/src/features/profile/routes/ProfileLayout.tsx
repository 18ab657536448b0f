import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import { EmptyState, Page } from '../../../components/Page';
import { SpinnerOverlay } from '../../../components/Spinner';

/** /profile and its sub-routes: signed-in players only. */
export default function ProfileLayout() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  if (!isAuth && !checked) return <SpinnerOverlay />;
  if (!isAuth) {
    return (
      <EmptyState
        icon={<Icon name="lock" size={32} />}
        tone="attention"
        title={t('profile.signInTitle')}
        headingLevel={1}
        actions={
          <>
            <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('login')}</MobileButton>
            <MobileButton color="secondary" onClick={() => dispatch(openAuthModal('registration'))}>
              {t('register')}
            </MobileButton>
          </>
        }
      >
        <p>{t('profile.signInText')}</p>
      </EmptyState>
    );
  }
  return (
    <Page>
      <Outlet />
    </Page>
  );
}
