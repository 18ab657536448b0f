import { Navigate } from 'react-router-dom';
import { SpinnerOverlay } from '../../components/Spinner';
import { useAppSelector } from '../../app/store';
import type { PayerKind } from './specialUser';
import { usePaymentPaths } from './usePaymentPaths';

/**
 * Keeps each kind of payer on its own payment pages (spec §4 "Special users"): returns what to
 * render instead of the page (a redirect, or a spinner while the user is not confirmed yet),
 * or null when the page is theirs.
 */
export function usePayerGuard(page: 'deposit' | 'withdrawal', kinds: PayerKind[]) {
  const remembered = useAppSelector((s) => s.auth.remembered);
  const paths = usePaymentPaths();
  if (remembered) return { paths, redirect: <SpinnerOverlay /> };
  if (kinds.includes(paths.kind)) return { paths, redirect: null };
  const to = page === 'deposit' ? paths.deposit : (paths.withdrawal ?? '/profile');
  return { paths, redirect: <Navigate to={to} replace /> };
}
