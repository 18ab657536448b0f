import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../api/types';
import { useNotify } from '../../../app/notify';
import { MobileButton } from '../../../components/MobileButton';
import { PopupModal } from '../../../components/PopupModal';
import { SpinnerOverlay } from '../../../components/Spinner';
import { moneyText } from '../../../components/money';
import { promotionsApi, type Bonus } from '../api';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;

/**
 * The one-tap give-up's confirmation: it says exactly what is lost (the bonus amount) and what
 * is kept (all real money). `onDone` runs after the server gave the bonus up.
 */
export function GiveUpDialog({ bonus, onClose, onDone }: { bonus: Bonus; onClose: () => void; onDone?: () => void }) {
  const { t, i18n } = useTranslation(NS);
  const notify = useNotify();
  const [giveUp, { isLoading }] = promotionsApi.useGiveUpBonusMutation();
  const confirm = async () => {
    const res = await giveUp(bonus.id);
    onClose();
    if (res.error) notify.error(res.error as ApiError);
    else {
      notify.success('promotions:bonuses.givenUp');
      onDone?.();
    }
  };
  return (
    <PopupModal title={t('bonuses.giveUpTitle')} onClose={onClose}>
      {isLoading && <SpinnerOverlay />}
      <ul className={css.modalList} data-testid="give-up-terms">
        <li className={css.lose}>{t('bonuses.giveUpLose', { amount: moneyText(bonus.amount, bonus.currency, i18n.language) })}</li>
        <li className={css.keep}>{t('bonuses.giveUpKeep')}</li>
      </ul>
      <div className={css.actions}>
        <MobileButton color="danger" onClick={() => void confirm()} disabled={isLoading} data-testid="give-up-confirm">
          {t('bonuses.giveUpConfirm')}
        </MobileButton>
        <MobileButton color="secondary" onClick={onClose}>
          {t('bonuses.keep')}
        </MobileButton>
      </div>
    </PopupModal>
  );
}
