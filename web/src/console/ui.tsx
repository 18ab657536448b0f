/*
 * The console's own controls on top of the shared page primitives (components/Page.tsx):
 * buttons that say why they are disabled, notices, a dialog asking for a reason, a table that
 * becomes cards on a narrow screen, tabs kept in the URL, loading / error / empty states.
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ApiError } from '../api/types';
import { errorText, isApiError } from '../app/errors';
import { EmptyState, FormRow } from '../components/Page';
import css from './ui.module.css';

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ');

/** A refusal's message in the reader's language, by code (the shared catalogue, errors.json). */
export function useErrorText() {
  const { t } = useTranslation(['console', 'errors']);
  return (error: unknown, overrides: string[] = []) => {
    const { key, params } = errorText(isApiError(error) ? (error as ApiError) : { code: -1 });
    return t([...overrides, ...key], params ?? {});
  };
}

export type ButtonTone = 'primary' | 'secondary' | 'danger' | 'ghost';

/**
 * A button. `disabledReason`: disabled, and says why under it (tied to it by
 * aria-describedby). `busy`: disabled while its call runs, with a spinner.
 */
export function Button({
  tone = 'secondary',
  busy,
  disabledReason,
  small,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: ButtonTone; busy?: boolean; disabledReason?: string | null; small?: boolean }) {
  const reasonId = useId();
  const reason = !busy && disabledReason ? disabledReason : null;
  const button = (
    <button
      {...rest}
      type={type}
      className={cx(css.btn, css[`btn_${tone}`], small && css.btnSmall, !reason && className)}
      disabled={Boolean(disabled || busy || reason)}
      aria-busy={busy || undefined}
      aria-describedby={cx(rest['aria-describedby'], reason && reasonId) || undefined}
      title={reason ?? rest.title}
    >
      {busy ? <span className={css.spinner} aria-hidden="true" /> : null}
      {children}
    </button>
  );
  if (!reason) return button;
  return (
    <span className={cx(css.withReason, className)}>
      {button}
      <small id={reasonId} className={css.reason}>
        {reason}
      </small>
    </span>
  );
}

export type NoticeTone = 'ok' | 'error' | 'info' | 'warn';

/** A line saying how something ended: a status (ok, info) or an alert (error, warn). */
export function Notice({ tone, children, testId, className }: { tone: NoticeTone; children: ReactNode; testId?: string; className?: string }) {
  return (
    <div className={cx(css.notice, css[`notice_${tone}`], className)} role={tone === 'error' || tone === 'warn' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}

/** A small coloured label (a status, a role, a risk signal). */
export function Badge({ tone = 'neutral', children, testId }: { tone?: 'neutral' | 'ok' | 'danger' | 'warn' | 'accent'; children: ReactNode; testId?: string }) {
  return (
    <span className={cx(css.badge, css[`badge_${tone}`])} data-testid={testId}>
      {children}
    </span>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <div className={css.loading} role="status">
      <span className={css.spinner} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** What a query shows while it loads, when it failed (with "Try again"), or its content. */
export function QueryState({
  isLoading,
  error,
  onRetry,
  children,
}: {
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('console');
  const message = useErrorText();
  if (isLoading) return <Spinner label={t('state.loading')} />;
  if (error) {
    return (
      <EmptyState icon="!" tone="danger" title={t('state.failed')} live data-testid="console-query-error">
        <p>{message(error)}</p>
        <Button tone="secondary" onClick={onRetry}>
          {t('state.retry')}
        </Button>
      </EmptyState>
    );
  }
  return <>{children}</>;
}

export function Empty({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <EmptyState icon="∅" title={title} headingLevel={3} data-testid={testId}>
      {children}
    </EmptyState>
  );
}

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Numbers and amounts line up at the end. */
  align?: 'end';
  /** Hidden header text (a checkbox column). */
  hideLabel?: boolean;
  className?: string;
}

/**
 * A table while its container is wide enough; below 40 rem each row becomes a card of label and
 * value lines (a container query: the side navigation's width counts), so nothing ever scrolls
 * the page sideways.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  caption,
  rowTestId,
  rowClassName,
}: {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  caption: string;
  rowTestId?: (row: T) => string;
  rowClassName?: (row: T) => string | undefined;
}) {
  return (
    <div className={css.tableWrap}>
      <table className={css.table}>
        <caption className={css.srOnly}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={cx(c.align === 'end' && css.end, c.className)}>
                {c.hideLabel ? <span className={css.srOnly}>{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId?.(row)} className={rowClassName?.(row)}>
              {columns.map((c) => (
                <td key={c.key} data-label={c.hideLabel ? undefined : c.label} className={cx(c.align === 'end' && css.end, c.className)}>
                  <div className={css.cell}>{c.render(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Tabs that are links (the choice lives in the URL: `?status=`), one marked current. */
export function LinkTabs({ label, tabs, current }: { label: string; tabs: { id: string; label: string; to: string }[]; current: string }) {
  return (
    <nav className={css.tabs} aria-label={label}>
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          to={tab.to}
          className={cx(css.tab, tab.id === current && css.tabCurrent)}
          aria-current={tab.id === current ? 'page' : undefined}
          data-testid={`tab-${tab.id}`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}

/**
 * A modal dialog (role=dialog, aria-modal): focus moves into it, Escape and the backdrop close
 * it, and focus returns to what opened it.
 */
export function Dialog({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId?: string }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('textarea, input, select, button:not([data-close])');
    (first ?? ref.current)?.focus();
    return () => opener?.focus?.();
  }, []);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
    }
    if (e.key !== 'Tab' || !ref.current) return;
    // Keep Tab inside the dialog.
    const items = [...ref.current.querySelectorAll<HTMLElement>('button, textarea, input, select, a[href]')].filter((el) => !el.hasAttribute('disabled'));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <div className={css.backdrop} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className={css.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={onKey} data-testid={testId}>
        <h2 id={titleId} className={css.dialogTitle}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}

/**
 * A decision that needs a reason (ban, reject…): a dialog with the reason field (1 to 500
 * characters), the confirm button disabled until there is one, the call's refusal shown inside.
 * `onConfirm` answers the error to show, or null when done (the dialog then closes).
 */
export function ReasonDialog({
  title,
  lead,
  label,
  confirmLabel,
  tone = 'primary',
  required = true,
  onConfirm,
  onClose,
  testId,
}: {
  title: string;
  lead?: ReactNode;
  label: string;
  confirmLabel: string;
  tone?: ButtonTone;
  required?: boolean;
  onConfirm: (reason: string) => Promise<string | null>;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useTranslation('console');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const trimmed = reason.trim();
  const tooLong = new TextEncoder().encode(trimmed).length > 500;
  const why = required && !trimmed ? t('reason.required') : tooLong ? t('reason.tooLong') : null;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (why) return;
    setBusy(true);
    setError(null);
    const failed = await onConfirm(trimmed);
    setBusy(false);
    if (failed) setError(failed);
    else onClose();
  };
  return (
    <Dialog title={title} onClose={onClose} testId={testId}>
      <form className={css.dialogBody} onSubmit={(e) => void submit(e)}>
        {lead ? <div className={css.dialogLead}>{lead}</div> : null}
        <label htmlFor={fieldId} className={css.label}>
          {label}
        </label>
        <textarea
          id={fieldId}
          className={css.textarea}
          value={reason}
          rows={3}
          maxLength={500}
          required={required}
          onChange={(e) => setReason(e.target.value)}
          data-testid="reason-input"
        />
        {error ? (
          <Notice tone="error" testId="dialog-error">
            {error}
          </Notice>
        ) : null}
        <div className={css.dialogActions}>
          <Button tone="ghost" onClick={onClose} data-close>
            {t('action.cancel')}
          </Button>
          <Button tone={tone} type="submit" busy={busy} disabledReason={why} data-testid="dialog-confirm">
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A label and value pair in a grid of facts (the player card's profile). */
export function Facts({ items }: { items: { label: string; value: ReactNode; testId?: string }[] }) {
  return (
    <dl className={css.facts}>
      {items.map((item) => (
        <div key={item.label} className={css.fact}>
          <dt>{item.label}</dt>
          <dd data-testid={item.testId}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Text that must stay left to right inside any sentence (ids, e-mails, hashes, IPs). */
export function Ltr({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <bdi dir="ltr" className={className}>
      {children}
    </bdi>
  );
}

type RowOwn = { label: ReactNode; hint?: ReactNode; error?: string | null; rowClassName?: string };

/** A labelled text field (the shared form row around a console input). */
export function TextRow({
  label,
  hint,
  error,
  rowClassName,
  className,
  ref,
  ...input
}: RowOwn & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <FormRow label={label} hint={hint} error={error ?? undefined} className={rowClassName}>
      {(c) => (
        <input
          ref={ref}
          id={c.id}
          aria-describedby={c.describedBy}
          aria-invalid={c.invalid || undefined}
          className={cx(css.input, className)}
          {...input}
        />
      )}
    </FormRow>
  );
}

/** A labelled multi-line field. */
export function TextAreaRow({ label, hint, error, rowClassName, className, ...area }: RowOwn & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FormRow label={label} hint={hint} error={error ?? undefined} className={rowClassName}>
      {(c) => (
        <textarea
          id={c.id}
          aria-describedby={c.describedBy}
          aria-invalid={c.invalid || undefined}
          className={cx(css.textarea, className)}
          {...area}
        />
      )}
    </FormRow>
  );
}

/** A labelled native select. */
export function SelectRow({
  label,
  hint,
  error,
  rowClassName,
  options,
  className,
  ...select
}: RowOwn & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  return (
    <FormRow label={label} hint={hint} error={error ?? undefined} className={rowClassName}>
      {(c) => (
        <select id={c.id} aria-describedby={c.describedBy} className={cx(css.select, className)} {...select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormRow>
  );
}

export { cx };
