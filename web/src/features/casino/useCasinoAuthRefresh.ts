import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { casinoApi } from './api';

/**
 * Game lists depend on who asks (authRequired providers, bans) and in which language (the
 * descriptions): reload them when either changes.
 */
export function useCasinoAuthRefresh() {
  const dispatch = useAppDispatch();
  const { i18n } = useTranslation();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const was = useRef({ isAuth, lang: i18n.language });
  useEffect(() => {
    if (was.current.isAuth !== isAuth || was.current.lang !== i18n.language) {
      dispatch(casinoApi.util.invalidateTags(['CasinoGames', 'Favorites']));
    }
    was.current = { isAuth, lang: i18n.language };
  }, [isAuth, i18n.language, dispatch]);
  return isAuth;
}
