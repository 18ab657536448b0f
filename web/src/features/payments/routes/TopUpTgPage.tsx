import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../app/notify';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Money } from '../../../components/Money';
import { Card, EmptyState, List, Page, PageHeader, ValueRow } from '../../../components/Page';
import { paymentsApi, type TelegramDepositReply } from '../api';
import { AmountPicker, formatMinor } from '../components/AmountPicker';
import { InfoNote } from '../components/InfoNote';
import css from '../components/Payments.module.css';
import { minorOf } from '../amount';
import { newRequestKey, safeUrl, type FrameRequest } from '../frame';
import { PATHS } from '../specialUser';
import { useAmountForm } from '../useAmountForm';
import { usePaymentPaths } from '../usePaymentPaths';

/**
 * /profile/top-up-tg: a Telegram Mini App user pays in USDT; the reply carries the rate recorded
 * on the intent and the amount the balance will receive, shown before paying in the frame.
 */
export default function TopUpTgPage() {
  const { t, i18n } = useTranslation('payments');
  const navigate = useNavigate();
  const notify = useNotify();
  const paths = usePaymentPaths();
  const form = useAmountForm(null, 'USDT');
  const [create, { isLoading }] = paymentsApi.useTelegramDepositMutation();
  const [quote, setQuote] = useState<{ reply: TelegramDepositReply; paid: number } | null>(null);
  const tgId = paths.telegramUserId;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const amount = form.submit();
    if (amount === null || tgId === null) return;
    const res = await create({ telegram_user_id: String(tgId), amount, payment_currency: 'USDT' });
    if ('error' in res) {
      notify.error(res.error as never, 'default', 'topUpTg');
      return;
    }
    notify.clearForm('topUpTg');
    setQuote({ reply: res.data, paid: amount });
  };

  const pay = () => {
    if (!quote) return;
    const link = safeUrl(quote.reply.invoice_url);
    if (!link) return;
    const req: FrameRequest = {
      key: newRequestKey(),
      kind: 'deposit',
      provider: 'telegram',
      amount: quote.paid,
      currency: 'USDT',
      link: { id: quote.reply.id, invoice_url: link, status: quote.reply.status },
      credit: { amount: quote.reply.credit_amount, currency: quote.reply.credit_currency },
    };
    void navigate(PATHS.frame, { state: { pay: req, prevPath: PATHS.topUpTg } });
  };

  const usdt = (major: number) => formatMinor(minorOf(major, form.decimals), 'USDT', form.decimals, i18n.language);
  // The recorded rate as the server wrote it (exact decimal text), trailing zeros dropped.
  const rate = (r: string | number) => {
    const s = String(r);
    return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
  };

  return (
    <Page>
      <PageHeader title={t('tg.title')} lead={t('tg.lead')} back={<BackButton fallback="/profile" />} />
      {tgId === null ? (
        <EmptyState data-testid="tg-missing">
          <p>{t('tg.noTelegram')}</p>
        </EmptyState>
      ) : quote ? (
        <Card data-testid="tg-quote">
          <List as="dl">
            <ValueRow label={t('tg.youPay')}>
              <bdi>{usdt(quote.paid)}</bdi>
            </ValueRow>
            <ValueRow label={t('tg.rate')} valueTestId="tg-rate">
              <bdi>{t('tg.rateValue', { rate: rate(quote.reply.rate), currency: quote.reply.credit_currency })}</bdi>
            </ValueRow>
            <ValueRow label={t('tg.credited')} valueTestId="tg-credit">
              <Money amount={quote.reply.credit_amount} currency={quote.reply.credit_currency} />
            </ValueRow>
          </List>
          <MobileButton block onClick={pay} data-testid="tg-pay">
            {t('tg.pay', { amount: usdt(quote.paid) })}
          </MobileButton>
          <MobileButton block color="ghost" onClick={() => setQuote(null)}>
            {t('tg.change')}
          </MobileButton>
        </Card>
      ) : (
        <Card as="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="tg-form">
          <div className={css.balanceRow}>
            <span>{t('tg.account')}</span>
            <strong>
              <bdi>{tgId}</bdi>
            </strong>
          </div>
          <AmountPicker
            currency="USDT"
            decimals={form.decimals}
            limit={form.limit}
            presets={form.presets}
            value={form.text}
            onChange={form.setText}
            problem={form.problem}
          />
          <MobileButton type="submit" block disabled={isLoading} data-testid="tg-submit">
            {t('tg.submit')}
          </MobileButton>
        </Card>
      )}
      <InfoNote kind="impostor" />
    </Page>
  );
}
