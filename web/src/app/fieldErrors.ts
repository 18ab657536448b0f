import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/types';
import { i18n } from './i18n';
import { useNotify } from './notify';

/**
 * Server field refusals (docs/API.md "Field refusals"): `result` names the field as the
 * client sent it and a stable reason code; codes 12 and 102 add `attemptsLeft`.
 */
export interface RefusalData {
  field?: string;
  reason?: string;
  attemptsLeft?: number;
}

export function refusalData(error: Pick<ApiError, 'data'> | undefined): RefusalData {
  const d = error?.data;
  if (typeof d !== 'object' || d === null) return {};
  const o = d as Record<string, unknown>;
  const out: RefusalData = {};
  if (typeof o.field === 'string') out.field = o.field;
  if (typeof o.reason === 'string') out.reason = o.reason;
  if (typeof o.attemptsLeft === 'number') out.attemptsLeft = o.attemptsLeft;
  return out;
}

/** Reasons whose code text says more than the reason alone ("The phone number is invalid."). */
const GENERIC_REASONS = new Set(['invalid', 'taken', 'weak', 'wrong', 'unknown']);

/**
 * i18n keys of the text shown under a field, first found wins: the reason for this very
 * field (`too_long_number_document`), then the reason's own text or the code's.
 */
export function fieldErrorKeys(code: number, reason?: string, wireField?: string): string[] {
  const byCode = `errors:${code}`;
  if (!reason) return [byCode, 'errors:default'];
  const byReason = `errors:field.${reason}`;
  const general = GENERIC_REASONS.has(reason) ? [byCode, byReason] : [byReason, byCode];
  return [...(wireField ? [`errors:field.${reason}_${wireField}`] : []), ...general, 'errors:default'];
}

export interface FieldRoutes<F extends string> {
  /** Wire field name (as this form sends it) → form field. */
  wire?: Partial<Record<string, F>>;
  /** Codes about one field of this form when the reply names none (e.g. 231 → password). */
  byCode?: Partial<Record<number, F>>;
}

/** The form field a refusal is about, or null when it is not a field refusal. */
export function fieldOf<F extends string>(error: Pick<ApiError, 'code' | 'data'>, routes: FieldRoutes<F>): F | null {
  const { field } = refusalData(error);
  const byWire = field !== undefined ? routes.wire?.[field] : undefined;
  return byWire ?? routes.byCode?.[error.code] ?? null;
}

export interface FieldMessage {
  keys: string[];
  params?: Record<string, string | number>;
  /** Guesses left for an SMS code (codes 12, 102): said after the message. */
  attemptsLeft?: number;
}

/**
 * Errors of one form: a refusal about a field shows under it (translated by reason or
 * code); any other refusal is a toast whose cause is the form and the code, removed by
 * the form's success.
 */
export function useFormErrors<F extends string>(form: string, routes: FieldRoutes<F>) {
  const notify = useNotify();
  // Not suspending: the `errors` namespace loads on the first refusal.
  const { t } = useTranslation(['errors', 'account', 'common'], { useSuspense: false });
  const [errors, setErrors] = useState<Partial<Record<F, FieldMessage>>>({});

  const set = useCallback((field: F, message: FieldMessage | null) => {
    setErrors((prev) => {
      if (message === null && !(field in prev)) return prev;
      const next = { ...prev };
      if (message === null) delete next[field];
      else next[field] = message;
      return next;
    });
  }, []);

  const fail = useCallback(
    (error: ApiError | undefined, fallback?: string): F | null => {
      void i18n.loadNamespaces('errors');
      const field = error ? fieldOf(error, routes) : null;
      if (error && field !== null) {
        const { reason, field: wire, attemptsLeft } = refusalData(error);
        set(field, { keys: fieldErrorKeys(error.code, reason, wire), ...(attemptsLeft !== undefined ? { attemptsLeft } : {}) });
        return field;
      }
      notify.error(error, fallback, form);
      return null;
    },
    // `routes` is a module constant of each form.
    [form, routes, notify, set],
  );

  const succeed = useCallback(
    (text?: string) => {
      setErrors({});
      if (text) notify.formSuccess(form, text);
      else notify.clearForm(form);
    },
    [form, notify],
  );

  const message = useCallback(
    (field: F): string | undefined => {
      const m = errors[field];
      if (!m) return undefined;
      const text = t(m.keys, { ...m.params, defaultValue: '' });
      if (m.attemptsLeft === undefined) return text || undefined;
      return `${text} ${t('account:forms.attemptsLeft', { count: m.attemptsLeft })}`.trim();
    },
    [errors, t],
  );

  return useMemo(
    () => ({
      errors,
      message,
      set,
      clear: (field: F) => set(field, null),
      /** An input's change handler: stores the value and clears the field's message. */
      edit:
        <V,>(field: F, store: (value: V) => void) =>
        (value: V) => {
          store(value);
          set(field, null);
        },
      fail,
      succeed,
    }),
    [errors, message, set, fail, succeed],
  );
}
