import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import { PopupModal } from '../../../components/PopupModal';
import { usePaymentPaths } from '../usePaymentPaths';
import css from './Payments.module.css';

/**
 * The /home top-up block (spec §4): a signed-in user on a direct payment route (paykassma, or
 * the Telegram Mini App) goes straight to their deposit page; anyone else gets an attention
 * modal with an OK button (a signed-in player is also offered the online top-up).
 */
export function TopUpBlock() {
  const { t } = useTranslation(['payments', 'common']);
  const navigate = useNavigate();
  const paths = usePaymentPaths();
  const [attention, setAttention] = useState(false);
  const onTopUp = () => {
    if (paths.isAuth && paths.direct) void navigate(paths.deposit);
    else setAttention(true);
  };
  return (
    <section className={css.topUp} aria-labelledby="topup-title" data-testid="home-top-up">
      <div>
        <h2 id="topup-title" className={css.topUpTitle}>
          {t('common:home.topUpTitle')}
        </h2>
        <p className={css.topUpText}>{t('common:home.topUpText')}</p>
      </div>
      <MobileButton onClick={onTopUp} data-testid="home-top-up-button">
        <Icon name="wallet" size={18} /> {t('common:home.topUp')}
      </MobileButton>
      {attention && (
        <PopupModal title={t('common:attention')} onClose={() => setAttention(false)}>
          <p className={css.modalText} data-testid="top-up-attention">
            {paths.isAuth ? t('home.cashierText') : t('home.guestText')}
          </p>
          <div className={css.modalActions}>
            {paths.isAuth ? (
              <MobileButton block to={paths.deposit}>
                {t('home.depositOnline')}
              </MobileButton>
            ) : null}
            <MobileButton block color={paths.isAuth ? 'secondary' : 'primary'} onClick={() => setAttention(false)}>
              {t('common:ok')}
            </MobileButton>
          </div>
        </PopupModal>
      )}
    </section>
  );
}
