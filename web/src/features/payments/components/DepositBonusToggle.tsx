import { useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch } from '../../../app/store';
import { Link } from 'react-router-dom';
import { skipToken as skip } from '@reduxjs/toolkit/query/react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../../components/Money';
import { currencyExponent, moneyText } from '../../../components/money';
import { parseAmount } from '../amount';
import { depositBonusApi } from '../api';
import css from './Payments.module.css';

/** The share as the language writes a percentage, Latin digits ("25 %" in French, "25%" in English). */
export function percentText(percent: number, lang: string): string {
  const short = (lang || 'en').slice(0, 2);
  try {
    return new Intl.NumberFormat(`${short}-u-nu-latn`, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
  } catch {
    return `${percent}%`;
  }
}

/**
 * The bonus a deposit of `text` (typed at `decimals`) would earn, in minor units of the offer's
 * currency: `min(deposit × percent, maxBonus)`, rounded down as the server does; null when the
 * amount is not a number yet. Integer arithmetic only (the share in basis points).
 */
export function bonusPreview(offer: { percent: number; maxBonus: number; currency: string }, text: string, decimals: number): number | null {
  const parsed = parseAmount(text, decimals);
  if (!parsed.ok) return null;
  const exp = currencyExponent(offer.currency);
  const minor = exp >= decimals ? BigInt(parsed.minor) * 10n ** BigInt(exp - decimals) : BigInt(parsed.minor) / 10n ** BigInt(decimals - exp);
  const bps = BigInt(Math.round(offer.percent * 100));
  const [whole, frac = ''] = String(offer.maxBonus).split('.');
  const cap = BigInt(`${whole}${frac.padEnd(exp, '0').slice(0, exp)}`);
  const bonus = (minor * bps) / 10_000n;
  return Number(bonus < cap ? bonus : cap);
}

/**
 * The deposit page's opt-in to the standing deposit bonus (docs/PROMOTIONS.md "Standing offers"):
 * off until the player turns it on, since the bonus holds withdrawals until it is wagered. Every
 * figure is the server's (`GET /api/user/deposit-bonus`); with the amount typed, what this
 * deposit would earn.
 */
export function DepositBonusToggle({ amountText, decimals }: { amountText: string; decimals: number }) {
  const { t, i18n } = useTranslation('payments');
  const lang = i18n.language;
  const ids = { title: useId(), text: useId() };
  const offer = depositBonusApi.useDepositBonusQuery();
  const [setChoice, choice] = depositBonusApi.useSetDepositBonusMutation();
  const o = offer.data;
  if (!o) return null;
  // An amount never breaks between its digits and its currency.
  const money = (v: number) => moneyText(v, o.currency, lang).replace(/ /g, '\u00a0');
  // "+25 %" kept whole and left-to-right inside an Arabic sentence.
  const share = `\u2066+${percentText(o.percent, lang)}\u2069`;
  const usedUp = o.depositsLeft <= 0;
  const preview = o.enabled && !usedUp ? bonusPreview(o, amountText, decimals) : null;
  return (
    <section className={css.bonusOffer} aria-labelledby={ids.title} data-testid="deposit-bonus">
      <label className={css.bonusSwitchRow}>
        <span className={css.bonusTitle} id={ids.title}>
          {t('depositBonus.title')}
        </span>
        <input
          type="checkbox"
          role="switch"
          className={css.bonusSwitch}
          checked={o.enabled}
          disabled={choice.isLoading || (usedUp && !o.enabled)}
          aria-describedby={ids.text}
          onChange={(e) => void setChoice(e.target.checked)}
          data-testid="deposit-bonus-switch"
        />
      </label>
      <p className={css.bonusText} id={ids.text} data-testid="deposit-bonus-offer">
        {t('depositBonus.offer', { percent: share, max: money(o.maxBonus), multiple: o.wageringMultiple })}
      </p>
      <p className={css.small} data-testid="deposit-bonus-state">
        {usedUp
          ? t('depositBonus.usedUp', { count: o.maxDeposits })
          : o.enabled
            ? t('depositBonus.on', { left: o.depositsLeft, count: o.maxDeposits })
            : t('depositBonus.off')}
      </p>
      {preview !== null && preview > 0 ? (
        <p className={css.bonusPreview} data-testid="deposit-bonus-preview">
          {t('depositBonus.preview')} <Money minor={preview} currency={o.currency} />
        </p>
      ) : null}
      {choice.isError ? (
        <p className={css.bonusError} role="alert">
          {t('depositBonus.failed')}
        </p>
      ) : null}
      <details className={css.bonusTerms}>
        <summary>{t('depositBonus.termsTitle')}</summary>
        <p>{t('depositBonus.terms', { maxBet: money(o.maxBet), days: o.lifeDays, count: o.maxDeposits })}</p>
        <Link to="/profile/bonuses">{t('depositBonus.myBonuses')}</Link>
      </details>
    </section>
  );
}

/** How long after a deposit the result looks for its bonus (granted right after the deposit's commit). */
const LOOK_MS = 8000;
const POLL_BONUS_MS = 1500;

/**
 * A succeeded deposit's result: the deposit bonus it earned (a standing deposit bonus granted
 * since the page opened, within a few minutes of clock difference), linked to /profile/bonuses.
 * Nothing while the player has not opted in.
 */
export function DepositBonusGranted() {
  const { t } = useTranslation('payments');
  const [since] = useState(() => Date.now() - 5 * 60_000);
  const [looking, setLooking] = useState(true);
  const offer = depositBonusApi.useDepositBonusQuery(undefined, { refetchOnMountOrArgChange: true });
  const enabled = offer.data?.enabled === true;
  const list = depositBonusApi.useBonusesAfterDepositQuery(enabled ? undefined : skip, {
    pollingInterval: enabled && looking ? POLL_BONUS_MS : 0,
    refetchOnMountOrArgChange: true,
  });
  useEffect(() => {
    const id = setTimeout(() => setLooking(false), LOOK_MS);
    return () => clearTimeout(id);
  }, []);
  const bonus = enabled
    ? list.data?.find((b) => b.template.startsWith('deposit-standing') && b.grantedAt >= since && b.status !== 'given_up')
    : undefined;
  const dispatch = useAppDispatch();
  const told = useRef(false);
  useEffect(() => {
    if (!bonus || told.current) return;
    told.current = true;
    setLooking(false);
    // The bonuses page (and the balance's bonus line) show it at once.
    dispatch(depositBonusApi.util.invalidateTags(['Bonuses', 'DepositBonus', 'Balance']));
  }, [bonus, dispatch]);
  if (!bonus) return null;
  return (
    <p className={css.bonusPreview} data-testid="deposit-bonus-granted">
      {t('depositBonus.grantedAmount')} <Money amount={bonus.amount} currency={bonus.currency} />{' '}
      <Link to="/profile/bonuses">{t('depositBonus.myBonuses')}</Link>
    </p>
  );
}
