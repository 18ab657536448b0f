import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MobileButton } from '../../../components/MobileButton';
import { currencyExponent, formatMinorMoney } from '../../../components/money';
import { PopupModal } from '../../../components/PopupModal';
import type { JackpotWin } from '../api';
import { toMinor } from './fair';
import css from './Jackpots.module.css';
import { poolName } from './pools';

/** Spec §4/§9: the amount starts counting up from zero 2 s after the modal opens. */
export const JACKPOT_ANIMATION_DELAY_MS = 2000;
/** How long the count-up takes, in steps of STEP_MS. */
export const JACKPOT_COUNT_MS = 1500;
const STEP_MS = 50;

/** The amount shown at `elapsed` ms after the count-up started (minor units, exact at the end). */
export function countUp(total: bigint, elapsed: number): bigint {
  if (elapsed <= 0) return 0n;
  if (elapsed >= JACKPOT_COUNT_MS) return total;
  const steps = BigInt(Math.floor(JACKPOT_COUNT_MS / STEP_MS));
  const step = BigInt(Math.floor(elapsed / STEP_MS));
  return (total * step) / steps;
}

/** The jackpot win modal: the pool, the amount counting up from zero after 2 s, one button. */
export function JackpotWinModal({ win, onClose }: { win: JackpotWin; onClose: () => void }) {
  const { t, i18n } = useTranslation(['promotions', 'common']);
  const total = toMinor(win.amount, currencyExponent(win.currency));
  const [shown, setShown] = useState(0n);
  const [imageOk, setImageOk] = useState(true);
  useEffect(() => {
    setShown(0n);
    let started = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const delay = setTimeout(() => {
      started = Date.now();
      timer = setInterval(() => {
        const value = countUp(total, Date.now() - started);
        setShown(value);
        if (value === total && timer) clearInterval(timer);
      }, STEP_MS);
    }, JACKPOT_ANIMATION_DELAY_MS);
    return () => {
      clearTimeout(delay);
      if (timer) clearInterval(timer);
    };
  }, [win.id, total]);
  const name = poolName(t, win.name);
  return (
    <PopupModal title={t('jackpots.wonTitle')} onClose={onClose}>
      <div className={css.win} data-testid="jackpot-win" data-id={win.id}>
        {win.image && imageOk && <img src={win.image} alt="" className={css.winImage} onError={() => setImageOk(false)} />}
        <p>{t('jackpots.wonText', { name })}</p>
        <bdi dir="ltr" className={css.winAmount} data-testid="jackpot-win-amount" data-total={formatMinorMoney(total, win.currency, i18n.language)}>
          {formatMinorMoney(shown, win.currency, i18n.language)}
        </bdi>
        <p>{t('jackpots.wonPaid')}</p>
        <MobileButton block onClick={onClose} data-testid="jackpot-win-close">
          {t('jackpots.collect')}
        </MobileButton>
      </div>
    </PopupModal>
  );
}
