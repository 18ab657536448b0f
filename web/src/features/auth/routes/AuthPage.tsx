import { Navigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { useAppSelector } from '../../../app/store';
import { AuthViews } from '../components/AuthModal';
import css from '../components/Auth.module.css';

const TYPES = {
  login: 'login',
  signin: 'login',
  registration: 'registration',
  register: 'registration',
  signup: 'registration',
  restore: 'restore1',
  restore1: 'restore1',
  restore2: 'restore2',
} as const;

/** /auth/:type — the auth forms as a page. */
export default function AuthPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const { type = 'login' } = useParams();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const view = TYPES[type.toLowerCase() as keyof typeof TYPES];
  if (isAuth) return <Navigate to="/profile" replace />;
  if (!view) return <Navigate to="/auth/login" replace />;
  return (
    <section className={css.page}>
      <h1>{view === 'registration' ? t('registrationTitle') : view === 'login' ? t('signInTitle') : t('restoreTitle')}</h1>
      <div className={css.card}>
        <AuthViews type={view} />
      </div>
    </section>
  );
}
