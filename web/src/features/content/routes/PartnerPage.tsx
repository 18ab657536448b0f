import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import css from '../components/Content.module.css';

export default function PartnerPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <section className={css.page}>
      <div className={css.emptyState}>
        <span className={css.bigIcon}>
          <Icon name="group" size={36} />
        </span>
        <h1>{t('partner.title')}</h1>
        <p>{t('partner.text')}</p>
        <MobileButton to="/contacts">{t('contacts')}</MobileButton>
      </div>
    </section>
  );
}
