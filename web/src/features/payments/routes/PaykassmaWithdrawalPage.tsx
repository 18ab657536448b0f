import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { useAppSelector } from '../../../app/store';
import { MobileButton } from '../../../components/MobileButton';
import { Money } from '../../../components/Money';
import { COUNTRIES, fullPhone, isPhoneComplete, PhoneInput, type Country } from '../../../components/PhoneInput';
import { AmountPicker } from '../components/AmountPicker';
import { InfoNote } from '../components/InfoNote';
import { PayHead } from '../components/PayHead';
import css from '../components/Payments.module.css';
import { newRequestKey, type FrameRequest } from '../frame';
import { PATHS } from '../specialUser';
import { useAmountForm, usePlayerCurrency } from '../useAmountForm';
import { usePayerGuard } from '../usePayerGuard';

/** /profile/paykassma/withdrawal: to a phone's mobile wallet (limits `eWithdrawal`). */
export default function PaykassmaWithdrawalPage() {
  const { t } = useTranslation('payments');
  const navigate = useNavigate();
  const { redirect } = usePayerGuard('withdrawal', ['paykassma']);
  const currency = usePlayerCurrency();
  // Paykassma pays out whole major units.
  const form = useAmountForm('eWithdrawal', currency, true);
  const balance = useAppSelector((s) => s.auth.balance);
  const settings = api.useSettingsQuery().data;
  const [country, setCountry] = useState<Country>(() => {
    const c = COUNTRIES[0]!;
    return settings ? { ...c, code: settings.phoneCountryCode, length: settings.phoneLength } : c;
  });
  const [phone, setPhone] = useState('');
  const [tried, setTried] = useState(false);
  if (redirect) return redirect;
  const phoneOk = isPhoneComplete(country, phone);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    const amount = form.submit();
    if (amount === null || !phoneOk) return;
    const pay: FrameRequest = {
      key: newRequestKey(),
      kind: 'withdrawal',
      provider: 'paykassma',
      amount,
      currency,
      phone: fullPhone(country, phone),
    };
    void navigate(PATHS.frame, { state: { pay, prevPath: PATHS.paykassmaWithdrawal } });
  };
  return (
    <div className={css.page}>
      <PayHead title={t('paykassma.withdrawalTitle')} lead={t('paykassma.withdrawalLead')} />
      <form className={css.card} onSubmit={onSubmit} noValidate data-testid="paykassma-withdrawal-form">
        {balance ? (
          <div className={css.balanceRow}>
            <span>{t('topUp.balance')}</span>
            <strong>
              <Money amount={balance.balance} currency={balance.currency} />
            </strong>
          </div>
        ) : null}
        <PhoneInput
          label={t('paykassma.phone')}
          value={phone}
          onChange={setPhone}
          country={country}
          onCountryChange={setCountry}
          name="phone_number"
          error={tried && !phoneOk ? t('paykassma.phoneIncomplete', { length: country.length }) : undefined}
        />
        <AmountPicker
          currency={currency}
          decimals={form.decimals}
          limit={form.limit}
          presets={form.presets}
          value={form.text}
          onChange={form.setText}
          problem={form.problem}
        />
        <MobileButton type="submit" block disabled={!form.settingsLoaded} data-testid="paykassma-withdrawal-submit">
          {t('paykassma.submitWithdrawal')}
        </MobileButton>
      </form>
      <InfoNote kind="impostor" />
    </div>
  );
}
