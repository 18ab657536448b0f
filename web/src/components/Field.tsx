import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
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

/** What a form row hands its control: the id its label points at, and the ids describing it. */
export type FormControl = { id: string; describedBy: string | undefined; invalid: boolean };

/**
 * A form row: a label, the control (`children`, given the ids to wear), a hint and a refusal under
 * it, announced when it appears. `name`: the wire name (`data-field`, for refusals naming it; the
 * attribute is there without a name too: a card finds its field rows by it).
 * `spaced`: the space after it that the app's stacked fields keep (a card spaces its rows itself).
 */
export function FormRow({
  label,
  hint,
  error,
  id,
  name,
  spaced,
  className,
  describedBy: described,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  id?: string;
  name?: string | undefined;
  spaced?: boolean;
  className?: string;
  /** Ids describing the control besides the hint and the refusal (first). */
  describedBy?: string | undefined;
  children: (control: FormControl) => ReactNode;
}) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  return (
    <div className={[spaced ? css.field : css.formRow, className].filter(Boolean).join(' ')} data-field={name ?? ''}>
      <label htmlFor={controlId} className={css.label}>
        {label}
      </label>
      {children({ id: controlId, describedBy: describedBy(described, hint ? hintId : null, error ? errorId : null), invalid: Boolean(error) })}
      {hint ? (
        <p id={hintId} className={css.hint}>
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

export function Field({ label, value, onChange, hint, addon, error, id, ...rest }: Props) {
  return (
    <FormRow label={label} hint={hint} error={error} id={id} name={rest.name} describedBy={rest['aria-describedby']} spaced>
      {(control) => (
        <div className={`${css.inputWrap} ${error || rest['aria-invalid'] === true ? css.inputWrapInvalid : ''}`}>
          <input
            {...rest}
            id={control.id}
            className={css.input}
            value={value}
            aria-invalid={error ? true : rest['aria-invalid']}
            aria-describedby={control.describedBy}
            onChange={(e) => onChange(e.target.value)}
          />
          {addon}
        </div>
      )}
    </FormRow>
  );
}

/** A labelled native select (currency, gender, cashier…), styled like `Field`. */
export function SelectField({
  label,
  value,
  onChange,
  options,
  name,
  error,
  hint,
  id,
  className,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'children'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  name?: string;
  error?: string | undefined;
  hint?: ReactNode;
}) {
  return (
    <FormRow label={label} hint={hint} error={error} id={id} name={name} className={css.selectField} spaced>
      {(control) => (
        <select
          {...rest}
          id={control.id}
          name={name}
          className={[css.select, error ? css.selectInvalid : '', className].filter(Boolean).join(' ')}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={control.describedBy}
          onChange={(e) => onChange(e.target.value)}
        >
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
