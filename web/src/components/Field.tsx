import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import css from './ui.module.css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  addon?: ReactNode;
  /** A refusal of this field (translated), shown under it and tied to the input. */
  error?: string | undefined;
};

/** The message under a refused field: announced when it appears, and describing the input. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className={css.fieldError} role="alert" data-testid="field-error">
      {children}
    </p>
  );
}

/** `aria-describedby` of the ids that are set. */
export const describedBy = (...ids: (string | false | null | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

export function Field({ label, value, onChange, hint, addon, error, id, ...rest }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  return (
    <div className={css.field} data-field={rest.name}>
      <label htmlFor={inputId} className={css.label}>
        {label}
      </label>
      <div className={`${css.inputWrap} ${error || rest['aria-invalid'] === true ? css.inputWrapInvalid : ''}`}>
        <input
          {...rest}
          id={inputId}
          className={css.input}
          value={value}
          aria-invalid={error ? true : rest['aria-invalid']}
          aria-describedby={describedBy(rest['aria-describedby'], hint ? hintId : null, error ? errorId : null)}
          onChange={(e) => onChange(e.target.value)}
        />
        {addon}
      </div>
      {hint ? (
        <p id={hintId} className={css.hint}>
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

/** A labelled native select (currency, gender…), styled like `Field`. */
export function SelectField({
  label,
  value,
  onChange,
  options,
  name,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  name?: string;
  error?: string | undefined;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`${css.field} ${css.selectField}`} data-field={name}>
      <label htmlFor={id} className={css.label}>
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={`${css.select} ${error ? css.selectInvalid : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
