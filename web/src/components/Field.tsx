import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import css from './ui.module.css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  addon?: ReactNode;
};

export function Field({ label, value, onChange, hint, addon, id, ...rest }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={css.field}>
      <label htmlFor={inputId} className={css.label}>
        {label}
      </label>
      <div className={css.inputWrap}>
        <input {...rest} id={inputId} className={css.input} value={value} onChange={(e) => onChange(e.target.value)} />
        {addon}
      </div>
      {hint ? <p className={css.hint}>{hint}</p> : null}
    </div>
  );
}

/** A labelled native select (currency, gender…), styled like `Field`. */
export function SelectField({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  const id = useId();
  return (
    <div className={`${css.field} ${css.selectField}`}>
      <label htmlFor={id} className={css.label}>
        {label}
      </label>
      <select id={id} className={css.select} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
