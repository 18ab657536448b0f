import { addNotification, type NewNotification } from './notificationsSlice';
import { errorText } from './errors';
import type { ApiError } from '../api/types';
import { useAppDispatch } from './store';
import { useMemo } from 'react';
import { i18n } from './i18n';

/** Toast helpers bound to the store: success/info by i18n key, errors by API code. */
export function useNotify() {
  const dispatch = useAppDispatch();
  return useMemo(
    () => ({
      success: (text: string, params?: Record<string, string>) =>
        dispatch(addNotification({ text, type: 'success', ...(params ? { params } : {}) })),
      info: (text: string, params?: Record<string, string>) =>
        dispatch(addNotification({ text, ...(params ? { params } : {}) })),
      errorKey: (text: string) => dispatch(addNotification({ text, type: 'error' })),
      error: (error: ApiError | undefined, fallback?: string) => {
        void i18n.loadNamespaces('errors');
        const { key, params } = errorText(error, fallback);
        const n: NewNotification = { text: key, type: 'error' };
        if (params) n.params = params;
        dispatch(addNotification(n));
      },
    }),
    [dispatch],
  );
}
