import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useNotify } from '../../../app/notify';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppSelector } from '../../../app/store';
import { isoDay } from '../../../components/dates';
import { Money } from '../../../components/Money';
import { moneyText } from '../../../components/money';
import { MobileButton } from '../../../components/MobileButton';
import { OpItem, OpList, OpMessage } from '../../../components/Operations';
import { PopupModal } from '../../../components/PopupModal';
import { Spinner, SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { BackButton } from '../../../components/BackButton';
import { Actions, Muted, PageHeader } from '../../../components/Page';
import css from '../components/Profile.module.css';

/** Spec §5: the transfer needs at least 10 (a comparison, not arithmetic, on the amount). */
export const CASHBACK_MIN_TRANSFER = 10;

/** Ledger types on the cashback balance: the weekly payout (221) and the move to real (201). */
export const WEEKLY_PAYOUT = 221;
export const CASHBACK_TRANSFER = 201;

/** How far back the cashback history reaches (the server's history takes a date range). */
const HISTORY_DAYS = 182;

export function canTransferCashback(amount: number | undefined): boolean {
  return amount !== undefined && amount >= CASHBACK_MIN_TRANSFER;
}

/** The cashback balance's postings of the last six months: weekly payouts in, transfers out. */
function CashbackHistory() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const query = useMemo(() => {
    const now = new Date();
    const from = new Date(now.getTime() - HISTORY_DAYS * 86_400_000);
    return { begin: isoDay(from), end: isoDay(now), limit: 50, offset: 0, purse: 'cashback' };
  }, []);
  const { data, isLoading, isError } = api.useHistoryQuery(query);
  const day = new Intl.DateTimeFormat(`${i18n.language.slice(0, 2)}-u-nu-latn`, { dateStyle: 'medium' });
  return (
    <section className={css.cashSection} aria-labelledby="cashback-history">
      <h2 id="cashback-history">
        {t('cashback.historyTitle')}
      </h2>
      {isLoading ? (
        <Spinner />
      ) : isError ? (
        <OpMessage alert>{t('loadFailed')}</OpMessage>
      ) : !data?.length ? (
        <OpMessage testId="cashback-history-empty">{t('cashback.historyEmpty')}</OpMessage>
      ) : (
        <OpList testId="cashback-history">
          {data.map((row) => (
            <OpItem key={row.id} tone={row.value >= 0 ? 'in' : 'out'} amount={row.value} currency={row.currency} testId="cashback-row">
              <strong>
                {row.payment_mode === WEEKLY_PAYOUT
                  ? t('cashback.weeklyPaid')
                  : row.payment_mode === CASHBACK_TRANSFER
                    ? t('cashback.moved')
                    : row.comment || t('cashback.other')}
              </strong>
              <small>{day.format(new Date(row.created_at))}</small>
            </OpItem>
          ))}
        </OpList>
      )}
    </section>
  );
}

/**
 * /profile/cashback — spec §2 cashback and cashback transfer modal, §5 minimum 10: the cashback
 * balance and its transfer to real money (a confirmation; disabled below the minimum, with the
 * reason), the weekly cashback accrued this week, and the cashback balance's history (weekly
 * payouts in, transfers out).
 */
export default function CashbackPage() {
  const { t, i18n } = useTranslation(ACCOUNT_NS);
  const notify = useNotify();
  const balance = useAppSelector(selectFullBalance);
  const [open, setOpen] = useState(false);
  const [move, { isLoading }] = api.useMoveCashbackMutation();
  const enabled = canTransferCashback(balance?.cashbackBalance);

  const transfer = async () => {
    const res = await move();
    setOpen(false);
    if (res.error) notify.error(res.error as ApiError);
    else notify.success('cashbackTransferred');
  };

  return (
    <>
      <PageHeader title={t('profile.cashback')} back={<BackButton fallback="/profile" />} />
      <section className={css.cashCard}>
        <Muted as="span">{t('profile.cashbackBalance')}</Muted>
        <strong className={css.cashAmount} data-testid="cashback-amount">
          {balance ? <Money amount={balance.cashbackBalance} currency={balance.currency} /> : '—'}
        </strong>
        <Muted>{t('cashback.rule', { min: CASHBACK_MIN_TRANSFER })}</Muted>
        <MobileButton block disabled={!enabled} onClick={() => setOpen(true)} aria-describedby={!enabled && balance ? 'cashback-why' : undefined} data-testid="cashback-transfer">
          {t('cashback.transfer')}
        </MobileButton>
        {!enabled && balance && (
          <Muted id="cashback-why" data-testid="cashback-why">
            {t('cashback.belowMinimum', {
              min: moneyText(CASHBACK_MIN_TRANSFER, balance.currency, i18n.language),
              amount: moneyText(balance.cashbackBalance, balance.currency, i18n.language),
            })}
          </Muted>
        )}
      </section>
      <section className={css.weekCard} data-testid="weekly-card">
        <Muted as="span">{t('cashback.weeklyTitle')}</Muted>
        <strong className={css.weekAmount} data-testid="weekly-cashback">
          {balance ? <Money amount={balance.weeklyCashback} currency={balance.currency} /> : '—'}
        </strong>
        <Muted>{t('cashback.weeklyText')}</Muted>
        <Link to="/promotions/cashback-percent" className={css.opLink}>
          {t('cashback.weeklyHow')}
        </Link>
      </section>
      <CashbackHistory />
      {open && balance && (
        <PopupModal title={t('cashback.modalTitle')} onClose={() => setOpen(false)}>
          {isLoading && <SpinnerOverlay />}
          <p className={css.modalText}>
            {t('cashback.confirm')} <Money amount={balance.cashbackBalance} currency={balance.currency} />
          </p>
          <Actions>
            <MobileButton onClick={() => void transfer()} disabled={isLoading} data-testid="cashback-confirm">
              {t('cashback.confirmButton')}
            </MobileButton>
            <MobileButton color="secondary" onClick={() => setOpen(false)}>
              {t('cancel')}
            </MobileButton>
          </Actions>
        </PopupModal>
      )}
    </>
  );
}
