import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useNotify } from '../../../app/notify';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import { MobileButton } from '../../../components/MobileButton';
import { PopupModal } from '../../../components/PopupModal';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { PageHead } from '../components/PageHead';
import css from '../components/Profile.module.css';

/** Spec §5: the transfer needs at least 10 (a comparison, not arithmetic, on the amount). */
export const CASHBACK_MIN_TRANSFER = 10;

export function canTransferCashback(amount: number | undefined): boolean {
  return amount !== undefined && amount >= CASHBACK_MIN_TRANSFER;
}

export default function CashbackPage() {
  const { t } = useTranslation(ACCOUNT_NS);
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
      <PageHead title={t('profile.cashback')} />
      <section className={css.cashCard}>
        <span className={css.muted}>{t('profile.cashbackBalance')}</span>
        <strong className={css.cashAmount} data-testid="cashback-amount">
          {balance ? <Money amount={balance.cashbackBalance} currency={balance.currency} /> : '—'}
        </strong>
        <p className={css.muted}>{t('cashback.rule', { min: CASHBACK_MIN_TRANSFER })}</p>
        <MobileButton block disabled={!enabled} onClick={() => setOpen(true)}>
          {t('cashback.transfer')}
        </MobileButton>
      </section>
      {open && balance && (
        <PopupModal title={t('cashback.modalTitle')} onClose={() => setOpen(false)}>
          {isLoading && <SpinnerOverlay />}
          <p className={css.modalText}>
            {t('cashback.confirm')} <Money amount={balance.cashbackBalance} currency={balance.currency} />
          </p>
          <div className={css.actions}>
            <MobileButton onClick={() => void transfer()} disabled={isLoading}>
              {t('cashback.confirmButton')}
            </MobileButton>
            <MobileButton color="secondary" onClick={() => setOpen(false)}>
              {t('cancel')}
            </MobileButton>
          </div>
        </PopupModal>
      )}
    </>
  );
}
