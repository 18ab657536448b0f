import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/Field';
import { displayCurrency, formatMoney } from '../../../components/money';
import { majorNumber, majorText, type AmountProblem } from '../amount';
import css from './Payments.module.css';

/** Minor units shown with the currency's decimals (USDT: only the decimals it has). */
export function formatMinor(minor: number, currency: string, decimals: number, lang: string): string {
  if (currency === 'USDT') {
    const n = new Intl.NumberFormat(`${lang}-u-nu-latn`, { maximumFractionDigits: decimals }).format(majorNumber(minor, decimals));
    return `${n} USDT`;
  }
  return formatMoney(majorNumber(minor, decimals), currency, lang);
}

/**
 * Presets within the limit and a free amount (spec §2 /profile/top-up). `value` is the text the
 * player typed; a preset writes its exact decimal text.
 */
export function AmountPicker({
  currency,
  decimals,
  limit,
  presets,
  value,
  onChange,
  problem,
}: {
  currency: string;
  decimals: number;
  limit: { min: number; max: number };
  presets: number[];
  value: string;
  onChange: (text: string) => void;
  problem: AmountProblem | null;
}) {
  const open = limit.min <= 1 && limit.max >= Number.MAX_SAFE_INTEGER;
  const { t, i18n } = useTranslation('payments');
  const fmt = (minor: number) => formatMinor(minor, currency, decimals, i18n.language);
  const presetsId = useId();
  // A chip shows the number without trailing zero decimals ("50", "12.5"); its name is the full amount.
  const compact = (minor: number) =>
    new Intl.NumberFormat(`${i18n.language}-u-nu-latn`, { maximumFractionDigits: decimals }).format(majorNumber(minor, decimals));
  const text = (minor: number) => {
    const s = majorText(minor, decimals);
    return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
  };
  // Inside a sentence each amount is isolated, so "20.000 TND" stays in one piece in Arabic.
  const inText = (minor: number) => `\u2068${fmt(minor)}\u2069`;
  const error = problem
    ? t(`amount.${problem === 'decimals' && decimals === 0 ? 'whole' : problem}`, { min: inText(limit.min), max: inText(limit.max), decimals })
    : undefined;
  return (
    <div className={css.form}>
      <p className={css.presetsLabel} id={presetsId}>
        {t('amount.presets')}
      </p>
      <ul className={css.presets} aria-labelledby={presetsId}>
        {presets.map((p) => (
          <li key={p}>
            <button
              type="button"
              className={css.preset}
              aria-pressed={value === text(p)}
              data-testid="amount-preset"
              onClick={() => onChange(text(p))}
              aria-label={fmt(p)}
            >
              <bdi className={css.presetNumber}>{compact(p)}</bdi>
              <small className={css.presetCurrency}>{displayCurrency(currency)}</small>
            </button>
          </li>
        ))}
      </ul>
      <Field
        label={t('amount.label', { currency })}
        name="amount"
        value={value}
        onChange={(v) => onChange(v.replace(/[^\d.,]/g, ''))}
        inputMode="decimal"
        autoComplete="off"
        dir="ltr"
        data-testid="amount-input"
        hint={open ? undefined : t('amount.limits', { min: inText(limit.min), max: inText(limit.max) })}
        error={error}
      />
    </div>
  );
}
