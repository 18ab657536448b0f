import { useMemo, useState } from 'react';
import { api } from '../../api/api';
import { useAppSelector } from '../../app/store';
import { checkAmount, limitMinor, majorNumber, parseAmount, paymentDecimals, presets } from './amount';

/** `limits.payment` of the settings (spec §3): topUp, withdrawal, eTopUp, eWithdrawal. */
export type LimitKey = 'topUp' | 'withdrawal' | 'eTopUp' | 'eWithdrawal';

/** The player's currency: the balance's, else the user's, else the operator's default. */
export function usePlayerCurrency(): string {
  const settings = api.useSettingsQuery().data;
  const balance = useAppSelector((s) => s.auth.balance);
  const user = useAppSelector((s) => s.auth.user);
  return balance?.currency ?? user?.currency ?? settings?.defaultCurrency ?? 'TND';
}

/**
 * What else bounds the amount: `max` (minor units, null for nothing) once `ready` — the deposit
 * limits' allowance; presets wait for it so that none disappears under the player's finger.
 */
export interface AmountCap {
  max: number | null;
  ready: boolean;
}

/** An amount field checked against a `limits.payment` entry (and a cap), in exact minor units. */
export function useAmountForm(limitKey: LimitKey | null, currency: string, wholeUnits = false, cap: AmountCap = { max: null, ready: true }) {
  const settings = api.useSettingsQuery().data;
  // Some providers take whole major units only (Paykassma payouts).
  const decimals = wholeUnits ? 0 : paymentDecimals(currency);
  const raw = limitKey
    ? (settings as { limits?: { payment?: Record<string, unknown> } } | undefined)?.limits?.payment?.[limitKey]
    : undefined;
  const capMax = cap.max;
  const limit = useMemo(() => {
    const l = limitMinor(raw, decimals);
    // The cap lowers the maximum, never below the minimum (below it nothing is possible: the page says so).
    return capMax !== null && capMax >= l.min && capMax < l.max ? { min: l.min, max: capMax } : l;
  }, [raw, decimals, capMax]);
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const parsed = checkAmount(parseAmount(text, decimals), limit);
  // A problem shows once the player tried to continue, or as soon as something wrong is typed.
  const problem = parsed.ok ? null : submitted || (text !== '' && parsed.problem !== 'empty') ? parsed.problem : null;
  return {
    decimals,
    limit,
    // Presets wait for the limits (no list that changes under the player's finger).
    presets: useMemo(
      () => ((limitKey === null || settings !== undefined) && cap.ready ? presets(limit, decimals) : []),
      [limit, decimals, limitKey, settings, cap.ready],
    ),
    text,
    setText,
    problem,
    settingsLoaded: settings !== undefined && cap.ready,
    /** Marks the form submitted; the major-unit JSON number when the amount is valid. */
    submit(): number | null {
      setSubmitted(true);
      return parsed.ok ? majorNumber(parsed.minor, decimals) : null;
    },
  };
}
