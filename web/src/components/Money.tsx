import { useTranslation } from 'react-i18next';
import { formatMoney } from './money';

export function Money({ amount, currency, className }: { amount: number; currency: string; className?: string }) {
  const { i18n } = useTranslation();
  return (
    <bdi className={className} data-testid="money">
      {formatMoney(amount, currency, i18n.language)}
    </bdi>
  );
}
