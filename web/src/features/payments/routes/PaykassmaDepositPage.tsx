import type { FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Card, Page, PageHeader } from '../../../components/Page';
import { AmountPicker } from '../components/AmountPicker';
import { AllowanceLine, useDepositAllowance, useDepositGate } from '../components/DepositGate';
import { DepositBonusToggle } from '../components/DepositBonusToggle';
import { InfoNote } from '../components/InfoNote';
import { newRequestKey, type FrameRequest } from '../frame';
import { PATHS } from '../specialUser';
import { useAmountForm, usePlayerCurrency } from '../useAmountForm';

/**
 * /profile/paykassma/deposit: a paykassma-flagged player's online deposit (limits `eTopUp`, and
 * what the deposit limits still allow); a player who cannot deposit online is told the way that works.
 */
export default function PaykassmaDepositPage() {
  const gate = useDepositGate();
  return gate ?? <PaykassmaDepositForm />;
}

function PaykassmaDepositForm() {
  const { t } = useTranslation('payments');
  const navigate = useNavigate();
  const currency = usePlayerCurrency();
  const { cap, allowance } = useDepositAllowance(currency);
  const form = useAmountForm('eTopUp', currency, false, cap);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const amount = form.submit();
    if (amount === null) return;
    const pay: FrameRequest = { key: newRequestKey(), kind: 'deposit', provider: 'paykassma', amount, currency };
    void navigate(PATHS.frame, { state: { pay, prevPath: PATHS.paykassmaDeposit } });
  };
  return (
    <Page>
      <PageHeader title={t('paykassma.depositTitle')} lead={t('paykassma.depositLead')} back={<BackButton fallback="/profile" />} />
      <Card as="form" onSubmit={onSubmit} noValidate data-testid="paykassma-deposit-form">
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
        <MobileButton type="submit" block disabled={!form.settingsLoaded || (allowance !== null && allowance.remaining < form.limit.min)} data-testid="paykassma-deposit-submit">
          {t('paykassma.submitDeposit')}
        </MobileButton>
      </Card>
      <InfoNote kind="impostor" />
    </Page>
  );
}
