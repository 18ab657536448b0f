import { combineReducers, configureStore, type Reducer } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from '../api/api';
import { authSlice } from './authSlice';
import { notificationsSlice } from './notificationsSlice';
import { uiSlice } from './uiSlice';

const staticReducers = {
  [api.reducerPath]: api.reducer,
  auth: authSlice.reducer,
  notifications: notificationsSlice.reducer,
  ui: uiSlice.reducer,
};
export const rootReducer = combineReducers(staticReducers);

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;

const injected = new WeakMap<AppStore, Record<string, Reducer>>();
/**
 * Adds a feature's own slice when its routes load (features/betting's slip), so /home's bundle
 * does not carry it. Idempotent; the slice's state is `undefined` until then.
 */
export function injectReducer(store: AppStore, key: string, reducer: Reducer) {
  const extra = injected.get(store) ?? {};
  if (extra[key]) return;
  injected.set(store, { ...extra, [key]: reducer });
  store.replaceReducer(combineReducers({ ...staticReducers, ...extra, [key]: reducer }) as unknown as typeof rootReducer);
}
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
