import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { casinoApi } from './api';

/** Game lists depend on who asks (authRequired providers, bans): reload them when that changes. */
export function useCasinoAuthRefresh() {
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const was = useRef(isAuth);
  useEffect(() => {
    if (was.current !== isAuth) dispatch(casinoApi.util.invalidateTags(['CasinoGames']));
    was.current = isAuth;
  }, [isAuth, dispatch]);
  return isAuth;
}
