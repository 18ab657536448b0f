import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { Card, List, ListRow, Page, PageHeader } from '../../../components/Page';
import { SpinnerOverlay } from '../../../components/Spinner';
import { depositAllowance, paymentDecimals, type LimitPeriod } from '../amount';
import { paymentsApi } from '../api';
import type { AmountCap } from '../useAmountForm';
import { formatMinor } from './AmountPicker';
import { DepositBonusToggle } from './DepositBonusToggle';
import css from './Payments.module.css';

/**
 * What replaces a deposit page before its amount form (issue 18 item 9): a spinner while the
 * signed-in user is only the remembered one (the server has not said yet whether they may pay
 * online), and for a player who cannot deposit online (`canDepositOnline` false: not a website
 * sign-up, the server would answer 82 at the last step) the way that works for them — cash at a
 * cashier, with their player id and the cashiers' addresses. Null: the page is theirs.
 */
export function useDepositGate() {
  const { t } = useTranslation('payments');
  const remembered = useAppSelector((s) => s.auth.remembered);
  const user = useAppSelector((s) => s.auth.user);
  if (remembered) return <SpinnerOverlay />;
  if (user?.canDepositOnline === false) {
    // Titled "Deposit", not "Online deposit": this page is about the way that works offline.
    return (
      <Page>
        <PageHeader title={t('links.deposit')} back={<BackButton fallback="/profile" />} />
        <OfflineDeposit playerId={user.id} />
      </Page>
    );
  }
  return null;
}

function OfflineDeposit({ playerId }: { playerId: number }) {
  const { t } = useTranslation('payments');
  const { data: cashiers, isError, isLoading } = paymentsApi.useDepositCashiersQuery();
  return (
    <Card title={t('offline.title')} titleId="offline-title" lead={t('offline.text')} data-testid="offline-deposit">
      <div className={css.idBox}>
        <span>{t('offline.yourId')}</span>
        <strong dir="ltr" data-testid="offline-player-id">
          {playerId}
        </strong>
      </div>
      <DepositBonusToggle amountText="" decimals={0} />
      <h3 className={css.cardSubtitle}>{t('offline.cashiers')}</h3>
      {isLoading ? null : isError || !cashiers || cashiers.length === 0 ? (
        <p className={css.small}>{t('offline.noCashiers')}</p>
      ) : (
        <List data-testid="offline-cashiers">
          {cashiers.map((c) => (
            <ListRow key={c.id}>
              <strong>
                <bdi>{c.first_name || c.name}</bdi>
              </strong>
              {c.address ? (
                <small>
                  <bdi>{c.address}</bdi>
                </small>
              ) : null}
              {c.phone ? (
                <a href={`tel:${c.phone.replace(/[^\d+]/g, '')}`} dir="ltr" className={css.phone}>
                  {c.phone}
                </a>
              ) : null}
            </ListRow>
          ))}
        </List>
      )}
    </Card>
  );
}

/**
 * The deposit limits' allowance for the amount form (item 13: "the deposit form shows how much
 * the limit still allows"): asked afresh each time the form opens; the form's maximum is capped
 * to it once known. A failed look-up caps nothing (the server still checks).
 */
export function useDepositAllowance(currency: string): { cap: AmountCap; allowance: { period: LimitPeriod; remaining: number } | null } {
  const q = paymentsApi.useDepositLimitsQuery(undefined, { refetchOnMountOrArgChange: true });
  const decimals = paymentDecimals(currency);
  const allowance = q.data && q.data.currency === currency ? depositAllowance(q.data, decimals) : null;
  const ready = !q.isFetching || q.isError || q.data !== undefined;
  return { cap: { max: allowance ? allowance.remaining : null, ready }, allowance };
}

const PERIOD_KEY: Record<LimitPeriod, string> = { day: 'Day', week: 'Week', month: 'Month' };

/** "Your daily deposit limit still allows 40.000 TND." (or: it is reached). */
export function AllowanceLine({
  allowance,
  currency,
  min,
}: {
  allowance: { period: LimitPeriod; remaining: number } | null;
  currency: string;
  min: number;
}) {
  const { t, i18n } = useTranslation('payments');
  if (!allowance) return null;
  const reached = allowance.remaining < min;
  const amount = formatMinor(allowance.remaining, currency, paymentDecimals(currency), i18n.language);
  return (
    <p className={`${css.allowance} ${reached ? css.allowanceReached : ''}`} data-testid="deposit-allowance" role={reached ? 'alert' : undefined}>
      {reached ? t(`limit.reached${PERIOD_KEY[allowance.period]}`) : t(`limit.${allowance.period}`, { amount: `\u2068${amount}\u2069` })}
    </p>
  );
}
