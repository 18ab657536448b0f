import { useTranslation } from 'react-i18next';
import { Money } from '../../../components/Money';
import css from './Payments.module.css';

/** The amount still to wager before a withdrawal (the 6252 refusal's), with its currency. */
export function WagerLeft({ amount, currency }: { amount: number; currency: string }) {
  const { t } = useTranslation('payments');
  return (
    <section className={css.wager} data-testid="wager-left" aria-live="polite">
      <span>{t('wager.title')}</span>
      <strong>
        <Money amount={amount} currency={currency} />
      </strong>
      <span>{t('wager.text')}</span>
    </section>
  );
}
