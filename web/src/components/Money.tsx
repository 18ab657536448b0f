import { useTranslation } from 'react-i18next';
import { formatMinorMoney, formatMoney } from './money';

/**
 * An amount with its currency in the player's language (components/money.ts): `amount` in major
 * units as the player API gives it, or `minor` in integer minor units. Isolated left-to-right so a
 * negative amount keeps its sign on the left in Arabic.
 */
export function Money({
  amount,
  minor,
  currency,
  className,
}: { currency: string; className?: string } & ({ amount: number | string; minor?: never } | { minor: number | bigint; amount?: never })) {
  const { i18n } = useTranslation();
  const text = minor !== undefined ? formatMinorMoney(minor, currency, i18n.language) : formatMoney(amount, currency, i18n.language);
  return (
    <bdi className={className} dir="ltr" data-testid="money">
      {text}
    </bdi>
  );
}
