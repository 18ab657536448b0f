import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MobileButton } from '../../../components/MobileButton';
import { moneyText } from '../../../components/money';
import { activeBonus, promotionsApi } from '../api';
import { GiveUpDialog } from './GiveUpDialog';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;

/**
 * The withdrawal page's part (given by the router): with a bonus being wagered, it says before the
 * player confirms what withdrawing needs and offers the give-up; once given up, it goes and the
 * withdrawal can proceed (`onGivenUp`).
 */
export default function WithdrawalBonusNotice({ onGivenUp }: { onGivenUp?: () => void }) {
  const { t, i18n } = useTranslation(NS);
  const { data } = promotionsApi.useBonusesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [confirming, setConfirming] = useState(false);
  const bonus = activeBonus(data);
  if (!bonus) return null;
  return (
    <section className={css.notice} data-testid="withdrawal-bonus" aria-live="polite">
      <h2>{t('withdrawal.title')}</h2>
      <p>{t('withdrawal.text', { amount: moneyText(bonus.remaining, bonus.currency, i18n.language) })}</p>
      <MobileButton color="secondary" onClick={() => setConfirming(true)} data-testid="withdrawal-give-up">
        {t('withdrawal.giveUp')}
      </MobileButton>
      {confirming && <GiveUpDialog bonus={bonus} onClose={() => setConfirming(false)} onDone={onGivenUp} />}
    </section>
  );
}
