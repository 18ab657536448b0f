import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Money } from '../../../components/Money';
import { Card, Page, PageHeader } from '../../../components/Page';
import { COUNTRIES, fullPhone, isPhoneComplete, PhoneInput, type Country } from '../../../components/PhoneInput';
import { AmountPicker } from '../components/AmountPicker';
import { InfoNote } from '../components/InfoNote';
import { WagerLeft } from '../components/WagerLeft';
import css from '../components/Payments.module.css';
import { newRequestKey, type FrameRequest } from '../frame';
import { PATHS } from '../specialUser';
import { useAmountForm, usePlayerCurrency } from '../useAmountForm';
import { usePayerGuard } from '../usePayerGuard';

/** The local part of a registered phone (216XXXXXXXX) for `country`, or '' when it is another country's. */
export function localPhone(phone: string | null | undefined, country: Country): string {
  const digits = (phone ?? '').replace(/\D/g, '');
  const code = country.code.replace(/\D/g, '');
  return digits.startsWith(code) && digits.length === code.length + country.length ? digits.slice(code.length) : '';
}

/**
 * /profile/paykassma/withdrawal: to a phone's mobile wallet (limits `eWithdrawal`), the player's
 * registered phone filled in; a wagering refusal met in the payment frame is shown here too (the
 * frame's "Try again" comes back with it) with the amount still to wager and its currency.
 */
export default function PaykassmaWithdrawalPage() {
  const { t } = useTranslation('payments');
  const navigate = useNavigate();
  const location = useLocation();
  const { redirect } = usePayerGuard('withdrawal', ['paykassma']);
  const currency = usePlayerCurrency();
  // Paykassma pays out whole major units.
  const form = useAmountForm('eWithdrawal', currency, true);
  const balance = useAppSelector((s) => s.auth.balance);
  const registered = useAppSelector((s) => (s.auth.remembered ? undefined : s.auth.user?.phone));
  const settings = api.useSettingsQuery().data;
  const [country, setCountry] = useState<Country>(() => {
    const c = COUNTRIES[0]!;
    return settings ? { ...c, code: settings.phoneCountryCode, length: settings.phoneLength } : c;
  });
  const [phone, setPhone] = useState(() => localPhone(registered, country));
  const [touched, setTouched] = useState(false);
  // The registered phone may arrive after the first render (the server's user check): it fills
  // the field only while the player has not typed in it.
  useEffect(() => {
    if (touched || phone !== '') return;
    const local = localPhone(registered, country);
    if (local) setPhone(local);
  }, [registered, country, touched, phone]);
  const [tried, setTried] = useState(false);
  const wager = (location.state as { wager?: { amount: number; currency: string | null } } | null)?.wager ?? null;
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
    <Page>
      <PageHeader title={t('paykassma.withdrawalTitle')} lead={t('paykassma.withdrawalLead')} back={<BackButton fallback="/profile" />} />
      {wager ? <WagerLeft amount={wager.amount} currency={wager.currency ?? currency} /> : null}
      <Card as="form" onSubmit={onSubmit} noValidate data-testid="paykassma-withdrawal-form">
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
          onChange={(v) => {
            setTouched(true);
            setPhone(v);
          }}
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
      </Card>
      <InfoNote kind="impostor" />
    </Page>
  );
}
