import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { MobileButton } from '../../../components/MobileButton';
import css from '../components/Content.module.css';

export default function NotFoundPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <section className={css.page} data-testid="not-found">
      <div className={css.emptyState}>
        <span className={css.code404}>404</span>
        <h1>{t('notFound.title')}</h1>
        <p>{t('notFound.text')}</p>
        <MobileButton to="/home">{t('goHome')}</MobileButton>
      </div>
    </section>
  );
}
