import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { Icon } from '../../../components/Icon';
import css from '../components/Content.module.css';

export default function ContactsPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <section className={css.page}>
      <h1>{t('contacts')}</h1>
      <p className={css.lead}>{t('contactsPage.lead')}</p>
      <ul className={css.cards}>
        <li id="support" className={css.card}>
          <span className={css.cardIcon}>
            <Icon name="chat" />
          </span>
          <div>
            <h2>{t('writeToSupport')}</h2>
            <p>{t('contactsPage.chat')}</p>
            <a href="mailto:support@carthage.example">support@carthage.example</a>
          </div>
        </li>
        <li className={css.card}>
          <span className={css.cardIcon}>
            <Icon name="send" />
          </span>
          <div>
            <h2>{t('social.telegram')}</h2>
            <p>{t('contactsPage.telegram')}</p>
            <a href="https://t.me/carthage_bet" target="_blank" rel="noopener noreferrer">
              @carthage_bet
            </a>
          </div>
        </li>
        <li className={css.card}>
          <span className={css.cardIcon}>
            <Icon name="mail" />
          </span>
          <div>
            <h2>{t('contactsPage.partnersTitle')}</h2>
            <p>{t('contactsPage.partners')}</p>
            <a href="mailto:partners@carthage.example">partners@carthage.example</a>
          </div>
        </li>
      </ul>
    </section>
  );
}
