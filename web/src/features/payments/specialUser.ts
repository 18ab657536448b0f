import type { SessionUser } from '../../app/authSlice';

/**
 * Special users (spec §1, §4): a Telegram Mini App user or a paykassma-flagged user
 * (`isOnPaykassmaPayment` of the user check) gets their own deposit and withdrawal paths.
 */

interface TelegramWindow {
  Telegram?: { WebApp?: { initDataUnsafe?: { user?: { id?: unknown } }; expand?: () => void } };
}

const TG_KEY = 'carthage.tgUserId';

const positiveId = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The user id inside a `tgWebAppData` launch parameter (Telegram's URL-encoded init data). */
export function idFromLaunchData(data: string | null): number | null {
  if (!data) return null;
  try {
    const user = new URLSearchParams(data).get('user');
    if (!user) return null;
    return positiveId((JSON.parse(user) as { id?: unknown }).id);
  } catch {
    return null;
  }
}

/**
 * The Telegram Mini App user: `window.Telegram.WebApp.initDataUnsafe.user.id`, else the
 * `tgWebAppData` launch parameter (in the hash or the query), remembered for the tab because
 * the launch parameter is gone after the first navigation.
 */
export function telegramUserId(win: Window = window): number | null {
  const fromApp = positiveId((win as unknown as TelegramWindow).Telegram?.WebApp?.initDataUnsafe?.user?.id);
  if (fromApp) return fromApp;
  const params = (s: string) => new URLSearchParams(s.replace(/^[#?]/, ''));
  const launch = params(win.location.hash).get('tgWebAppData') ?? params(win.location.search).get('tgWebAppData');
  const fromLaunch = idFromLaunchData(launch);
  try {
    if (fromLaunch) win.sessionStorage.setItem(TG_KEY, String(fromLaunch));
    else return positiveId(win.sessionStorage.getItem(TG_KEY));
  } catch {
    /* storage unavailable */
  }
  return fromLaunch;
}

/** Asks the Telegram Mini App to take the whole screen (the `web_app_expand` event). */
export function expandTelegram(win: Window = window) {
  try {
    (win as unknown as TelegramWindow).Telegram?.WebApp?.expand?.();
  } catch {
    /* not in Telegram */
  }
}

export type PayerKind = 'telegram' | 'paykassma' | 'normal';

export interface PaymentPaths {
  kind: PayerKind;
  deposit: string;
  /** Null: no withdrawal in the app (a Telegram user). */
  withdrawal: string | null;
  /** The deposit is online and direct (the /home top-up block goes straight there). */
  direct: boolean;
  /** Spec §4: authenticated paykassma users see an 'Online deposit' button. */
  onlineDepositButton: boolean;
}

export const PATHS = {
  topUp: '/profile/top-up',
  topUpTg: '/profile/top-up-tg',
  withdrawal: '/profile/withdrawal',
  paykassmaDeposit: '/profile/paykassma/deposit',
  paykassmaWithdrawal: '/profile/paykassma/withdrawal',
  frame: '/payment-frame',
} as const;

/** Where this user deposits and withdraws (spec §4 "Special users"). */
export function paymentPaths(isAuth: boolean, user: Pick<SessionUser, 'isOnPaykassmaPayment'> | null, tgUserId: number | null): PaymentPaths {
  if (tgUserId !== null) {
    return { kind: 'telegram', deposit: PATHS.topUpTg, withdrawal: null, direct: isAuth, onlineDepositButton: false };
  }
  if (isAuth && user?.isOnPaykassmaPayment) {
    return {
      kind: 'paykassma',
      deposit: PATHS.paykassmaDeposit,
      withdrawal: PATHS.paykassmaWithdrawal,
      direct: true,
      onlineDepositButton: true,
    };
  }
  return { kind: 'normal', deposit: PATHS.topUp, withdrawal: PATHS.withdrawal, direct: false, onlineDepositButton: false };
}
