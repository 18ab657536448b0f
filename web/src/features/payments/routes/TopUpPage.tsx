import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Money } from '../../../components/Money';
import { Card, Page, PageHeader } from '../../../components/Page';
import { AmountPicker } from '../components/AmountPicker';
import { AllowanceLine, useDepositAllowance, useDepositGate } from '../components/DepositGate';
import { DepositBonusToggle } from '../components/DepositBonusToggle';
import { InfoNote } from '../components/InfoNote';
import css from '../components/Payments.module.css';
import { newRequestKey, type FrameRequest } from '../frame';
import { PATHS } from '../specialUser';
import { useAmountForm, usePlayerCurrency } from '../useAmountForm';

/**
 * /profile/top-up: an amount within `limits.payment.topUp` and what the deposit limits still
 * allow, then the payment frame; a player who cannot deposit online is told the way that works.
 */
export default function TopUpPage() {
  const gate = useDepositGate();
  return gate ?? <TopUpForm />;
}

function TopUpForm() {
  const { t } = useTranslation('payments');
  const navigate = useNavigate();
  const currency = usePlayerCurrency();
  const { cap, allowance } = useDepositAllowance(currency);
  const form = useAmountForm('topUp', currency, false, cap);
  const balance = useAppSelector((s) => s.auth.balance);
  const userId = useAppSelector((s) => s.auth.user?.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const amount = form.submit();
    if (amount === null) return;
    const pay: FrameRequest = { key: newRequestKey(), kind: 'deposit', provider: 'card', amount, currency };
    void navigate(PATHS.frame, { state: { pay, prevPath: PATHS.topUp } });
  };

  return (
    <Page>
      <PageHeader title={t('topUp.title')} lead={t('topUp.lead')} back={<BackButton fallback="/profile" />} />
      <Card as="form" onSubmit={onSubmit} noValidate data-testid="top-up-form">
        {balance ? (
          <div className={css.balanceRow}>
            <span>{t('topUp.balance')}</span>
            <strong>
              <Money amount={balance.balance} currency={balance.currency} />
            </strong>
          </div>
        ) : null}
        <AllowanceLine allowance={allowance} currency={currency} min={form.limit.min} />
        <AmountPicker
          currency={currency}
          decimals={form.decimals}
          limit={form.limit}
          presets={form.presets}
          value={form.text}
          onChange={form.setText}
          problem={form.problem}
        />
        <DepositBonusToggle amountText={form.text} decimals={form.decimals} />
        <MobileButton type="submit" block disabled={!form.settingsLoaded || (allowance !== null && allowance.remaining < form.limit.min)} data-testid="top-up-submit">
          {t('topUp.submit')}
        </MobileButton>
      </Card>
      <div className={css.notes}>
        <InfoNote kind="replenishment" />
        <InfoNote kind="impostor" />
        {userId !== undefined ? <InfoNote kind="cashier" params={{ id: userId }} /> : null}
        <InfoNote kind="webmoney" />
      </div>
    </Page>
  );
}
