import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, fromIsoDay, isoDay, parseDay } from './dates';
import css from './ui.module.css';

/** A date field shown and typed as dd-MM-yyyy, with the platform's calendar on the icon. */
export function DatePicker({
  label,
  value,
  onChange,
  min,
  max,
}: {
  label: string;
  value: Date;
  onChange: (d: Date) => void;
  min?: Date;
  max?: Date;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(formatDay(value));
  const native = useRef<HTMLInputElement>(null);
  useEffect(() => setText(formatDay(value)), [value]);
  const invalid = parseDay(text) === null;

  return (
    <div className={css.field}>
      <label htmlFor={id} className={css.label}>
        {label}
      </label>
      <div className={css.inputWrap}>
        <input
          id={id}
          className={css.input}
          inputMode="numeric"
          placeholder={t('datePlaceholder')}
          dir="ltr"
          value={text}
          aria-invalid={invalid}
          onChange={(e) => {
            setText(e.target.value);
            const d = parseDay(e.target.value);
            if (d) onChange(d);
          }}
          onBlur={() => setText(formatDay(value))}
        />
        <button
          type="button"
          className={css.inputAddon}
          aria-label={t('openCalendar')}
          onClick={() => {
            const el = native.current;
            if (!el) return;
            try {
              el.showPicker();
            } catch {
              el.focus();
            }
          }}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M3 10h18M8 3v4M16 3v4" />
          </svg>
        </button>
        <input
          ref={native}
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          className={css.nativeDate}
          value={isoDay(value)}
          min={min ? isoDay(min) : undefined}
          max={max ? isoDay(max) : undefined}
          onChange={(e) => {
            const d = fromIsoDay(e.target.value);
            if (d) onChange(d);
          }}
        />
      </div>
    </div>
  );
}
