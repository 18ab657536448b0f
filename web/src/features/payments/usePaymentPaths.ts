import { useMemo } from 'react';
import { useAppSelector } from '../../app/store';
import { paymentPaths, telegramUserId } from './specialUser';

/** The signed-in user's payment paths (spec §4), with the Telegram Mini App user if any. */
export function usePaymentPaths() {
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const user = useAppSelector((s) => s.auth.user);
  const tg = useMemo(() => telegramUserId(), []);
  return useMemo(() => ({ ...paymentPaths(isAuth, user, tg), isAuth, telegramUserId: tg }), [isAuth, user, tg]);
}
