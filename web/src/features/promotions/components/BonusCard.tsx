import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../../components/Money';
import { MobileButton } from '../../../components/MobileButton';
import { moneyText } from '../../../components/money';
import { isOpen, progressPercent, type Bonus } from '../api';
import { formatDay, formatOdds } from './format';
import { GiveUpDialog } from './GiveUpDialog';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;

/** A bonus: its amount, the wagering bar (wagered / required, what is left), its terms, and the give-up. */
export function BonusCard({ bonus }: { bonus: Bonus }) {
  const { t, i18n } = useTranslation(NS);
  const lang = i18n.language;
  const [confirming, setConfirming] = useState(false);
  const open = isOpen(bonus);
  const percent = progressPercent(bonus.wagered, bonus.required);
  const money = (v: number) => moneyText(v, bonus.currency, lang);
  const expires = formatDay(bonus.expiresAt, lang);
  return (
    <article className={`${css.bonus} ${open ? '' : css.bonusClosed}`} data-testid="bonus" data-status={bonus.status}>
      <div className={css.bonusTop}>
        <h3 className={css.bonusName}>{t(`bonuses.product.${bonus.product === 'sport' ? 'sport' : 'casino'}`)}</h3>
        <span className={`${css.status} ${css[`status_${bonus.status}`] ?? ''}`} data-testid="bonus-status">
          {t(`bonuses.status.${bonus.status}`, { defaultValue: bonus.status })}
        </span>
      </div>
      <Money amount={bonus.amount} currency={bonus.currency} className={css.bonusAmount} />
      {bonus.status === 'active' && (
        <div className={css.progress}>
          <div
            className={css.bar}
            role="progressbar"
            aria-label={t('bonuses.wagered', { wagered: money(bonus.wagered), required: money(bonus.required) })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            data-testid="wagering-bar"
          >
            <div className={css.barFill} style={{ inlineSize: `${percent}%` }} />
          </div>
          <div className={css.progressText}>
            <span>{t('bonuses.wagered', { wagered: money(bonus.wagered), required: money(bonus.required) })}</span>
            <strong data-testid="wagering-left">{t('bonuses.remaining', { remaining: money(bonus.remaining) })}</strong>
          </div>
        </div>
      )}
      {bonus.status === 'queued' && <p className={css.muted}>{t('bonuses.queuedText')}</p>}
      {bonus.status === 'converted' && (
        <p className={css.muted}>
          {t('bonuses.converted')} <Money amount={bonus.converted} currency={bonus.currency} />
        </p>
      )}
      {open && (
        <dl className={css.facts}>
          <div>
            <dt>{t('bonuses.maxBet')}</dt>
            <dd data-testid="bonus-max-bet">{bonus.maxBet > 0 ? <Money amount={bonus.maxBet} currency={bonus.currency} /> : t('bonuses.noMaxBet')}</dd>
          </div>
          <div>
            <dt>{t('bonuses.expires')}</dt>
            <dd>{expires ? <bdi>{expires}</bdi> : t('bonuses.noExpiry')}</dd>
          </div>
          {bonus.maxConversion > 0 && (
            <div>
              <dt>{t('bonuses.maxConversion')}</dt>
              <dd>
                <Money amount={bonus.maxConversion} currency={bonus.currency} />
              </dd>
            </div>
          )}
          {bonus.product === 'sport' && bonus.minOdds > 0 && (
            <div>
              <dt>{t('bonuses.minOdds')}</dt>
              <dd>
                <bdi dir="ltr">{formatOdds(bonus.minOdds)}</bdi>
              </dd>
            </div>
          )}
        </dl>
      )}
      {open && (
        <MobileButton color="secondary" onClick={() => setConfirming(true)} data-testid="give-up">
          {t('bonuses.giveUp')}
        </MobileButton>
      )}
      {confirming && <GiveUpDialog bonus={bonus} onClose={() => setConfirming(false)} />}
    </article>
  );
}
