import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../api/api';
import { setPromocode, staffRefused } from './authSlice';
import { DEFAULT_LANGUAGE, languageOf } from './i18n';
import { PROMO_STORAGE_KEY, usePartnerPromocode } from './partnerPromo';
import { completeSignIn, decodeCharCodes, logout, normalizeLogin } from './session';
import { useAppDispatch, useAppSelector } from './store';

export const AUTH_CHECK_DELAY_MS = 500;
export const BALANCE_POLL_MS = 15_000;

/** Spec §4 App start, polling and query parameters. */
export function useAppStart() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { i18n } = useTranslation();
  const lang = languageOf(i18n.language) ?? languageOf(DEFAULT_LANGUAGE)!;
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const user = useAppSelector((s) => s.auth.user);

  // A guest's auth check waits 500 ms (spec §4); a remembered player (shown at once from the
  // record of app/remembered.ts) is confirmed straight away, with the balance fetched alongside.
  const remembered = useAppSelector((s) => s.auth.remembered);
  const [checkDue, setCheckDue] = useState(remembered);
  useEffect(() => {
    if (checkDue) return;
    const timer = setTimeout(() => setCheckDue(true), AUTH_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const check = api.useCheckQuery(undefined, { skip: !checkDue });
  const settings = api.useSettingsQuery();
  api.useFlatPagesQuery(lang.id);
  const blocklist = api.useBlocklistQuery();
  api.useBalanceQuery(undefined, { skip: !isAuth, pollingInterval: BALANCE_POLL_MS, skipPollingIfUnfocused: false });

  // A check answering a non-player ends that session silently.
  useEffect(() => {
    if (check.data && check.data.role !== 0) void logout(dispatch, true);
  }, [check.data, dispatch]);

  // Becoming signed in: the banned list reloads, and the settings too.
  const wasAuth = useRef(isAuth);
  useEffect(() => {
    if (isAuth && !wasAuth.current) {
      void blocklist.refetch();
      void settings.refetch();
    }
    wasAuth.current = isAuth;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isAuth]);

  // Query parameters: betting + ref_id (promo code), log + pas (automatic sign-in).
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const params = new URLSearchParams(location.search);
    const betting = params.get('betting');
    if (betting) {
      dispatch(setPromocode({ promocode: betting, refId: params.get('ref_id') }));
      try {
        sessionStorage.setItem(PROMO_STORAGE_KEY, JSON.stringify({ betting, ref_id: params.get('ref_id') }));
      } catch {
        /* ignore */
      }
    } else {
      try {
        const saved = JSON.parse(sessionStorage.getItem(PROMO_STORAGE_KEY) ?? 'null') as {
          betting?: string;
          ref_id?: string | null;
        } | null;
        if (saved?.betting) dispatch(setPromocode({ promocode: saved.betting, refId: saved.ref_id ?? null }));
      } catch {
        /* ignore */
      }
    }
    const log = params.get('log');
    const pas = params.get('pas');
    if (log && pas) {
      void (async () => {
        const res = await dispatch(
          api.endpoints.login.initiate({ login: normalizeLogin(decodeCharCodes(log)), password: decodeCharCodes(pas) }),
        );
        if ('data' in res && res.data) {
          // A staff account is signed out again, and told where its tools are (login modal).
          const outcome = await completeSignIn(dispatch);
          if (!outcome.ok && outcome.role !== null) dispatch(staffRefused(outcome.role));
        }
        void navigate('/', { replace: true });
      })();
    }
  }, [dispatch, location.search, navigate]);

  // A partner's link (`?betting=CODE&ref_id=…`): applied once the player is signed in.
  usePartnerPromocode();

  // A signed-in partner is kept in the partner area (spec §4).
  useEffect(() => {
    if (isAuth && user?.isPartner && !location.pathname.toLowerCase().startsWith('/partner')) {
      void navigate('/partner', { replace: true });
    }
  }, [isAuth, user, location.pathname, navigate]);

  // Scroll to top on path change (spec §2).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);
}
