import type { Settings } from '../api/types';
import { formatMoney } from './money';

/** The promotions page's welcome section: the welcome slide links to `/promotions#welcome`. */
export const WELCOME_ANCHOR = 'welcome';
export const WELCOME_HREF = `/promotions#${WELCOME_ANCHOR}`;

/**
 * The welcome offer the platform really grants: the settings' registration bonus in the default
 * currency (major units, as every settings limit). Null when there is none (0, missing, not a
 * positive finite number, or the settings are not loaded yet): then nothing may advertise one.
 */
export function welcomeOffer(settings: Settings | undefined): { amount: number; currency: string } | null {
  const amount = settings?.limits?.bonus?.registrationBonus;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return null;
  return { amount, currency: settings?.defaultCurrency ?? 'TND' };
}

/** The offer's amount in the app's one money format: "25.000 TND" (fr "12,500 TND"); Latin digits. */
export function formatOffer(offer: { amount: number; currency: string }, locale: string): string {
  return formatMoney(offer.amount, offer.currency, locale);
}
