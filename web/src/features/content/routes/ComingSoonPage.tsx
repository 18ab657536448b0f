import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { BackButton } from '../../../components/BackButton';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import css from '../components/Content.module.css';

/** Game, sport and wallet routes that a later release fills in. */
export default function ComingSoonPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <section className={css.page} data-testid="coming-soon">
      <BackButton fallback="/home" />
      <div className={css.emptyState}>
        <span className={css.bigIcon}>
          <Icon name="star" size={36} />
        </span>
        <h1>{t('comingSoon.title')}</h1>
        <p>{t('comingSoon.text')}</p>
        <MobileButton to="/home">{t('goHome')}</MobileButton>
      </div>
    </section>
  );
}
