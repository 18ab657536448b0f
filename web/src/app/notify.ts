import { addNotification, clearFormErrors, type NewNotification } from './notificationsSlice';
import { errorText } from './errors';
import type { ApiError } from '../api/types';
import { useAppDispatch, type RootState } from './store';
import { useMemo } from 'react';
import { useStore } from 'react-redux';
import { i18n } from './i18n';

/** Toast helpers bound to the store: success/info by i18n key, errors by API code. */
export function useNotify() {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  return useMemo(
    () => ({
      success: (text: string, params?: Record<string, string>) =>
        dispatch(addNotification({ text, type: 'success', ...(params ? { params } : {}) })),
      info: (text: string, params?: Record<string, string>) =>
        dispatch(addNotification({ text, ...(params ? { params } : {}) })),
      /** An error by i18n key; with `form`, one toast per form and key. */
      errorKey: (text: string, form?: string) =>
        dispatch(addNotification({ text, type: 'error', ...(form ? { form, key: `${form}|${text}` } : {}) })),
      /**
       * An API error; with `form`, its cause is the form and the code (a repeat replaces
       * the shown toast) and the form's success removes it.
       */
      error: (error: ApiError | undefined, fallback?: string, form?: string) => {
        void i18n.loadNamespaces('errors');
        // Amounts in the message are shown in the player's currency unless the refusal names one.
        const { auth } = store.getState();
        const { key, params } = errorText(error, fallback, { currency: auth.balance?.currency ?? auth.user?.currency });
        const n: NewNotification = { text: key, type: 'error' };
        if (params) n.params = params;
        if (form) {
          n.form = form;
          n.key = `${form}|${error?.code ?? 'unknown'}`;
        }
        dispatch(addNotification(n));
      },
      /** A form succeeded: its stale error toasts go, then the success notice shows. */
      formSuccess: (form: string, text: string, params?: Record<string, string>) => {
        dispatch(clearFormErrors(form));
        dispatch(addNotification({ text, type: 'success', ...(params ? { params } : {}) }));
      },
      clearForm: (form: string) => dispatch(clearFormErrors(form)),
    }),
    [dispatch, store],
  );
}
