import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describedBy, FieldError } from './Field';
import css from './ui.module.css';

export interface Country {
  iso: string;
  code: string;
  length: number;
}

/** Spec §5: Tunisia, +216, 8 digits. */
export const COUNTRIES: Country[] = [{ iso: 'TN', code: '+216', length: 8 }];

/** Flags drawn inline: emoji flags do not render on every system. */
function Flag({ iso }: { iso: string }) {
  if (iso !== 'TN') return <span className={css.flag}>{iso}</span>;
  return (
    <svg className={css.flag} viewBox="0 0 30 20" aria-hidden="true">
      <rect width="30" height="20" fill="#e70013" />
      <circle cx="15" cy="10" r="5.6" fill="#fff" />
      <circle cx="15.9" cy="10" r="4.1" fill="#e70013" />
      <circle cx="16.9" cy="10" r="3.3" fill="#fff" />
      <path d="m15.2 10 3.4-1.1-2.1 2.9V8.2l2.1 2.9z" fill="#e70013" />
    </svg>
  );
}

export const onlyDigits = (text: string, max: number) => text.replace(/\D/g, '').slice(0, max);

/** Full number as the API wants it: country code digits + local number (216XXXXXXXX). */
export const fullPhone = (country: Country, local: string) => `${country.code.replace(/\D/g, '')}${local}`;

export function isPhoneComplete(country: Country, local: string) {
  return local.length === country.length && /^\d+$/.test(local);
}

export function PhoneInput({
  label,
  value,
  onChange,
  country,
  onCountryChange,
  countries = COUNTRIES,
  id,
  name = 'phone',
  error,
}: {
  label: string;
  value: string;
  onChange: (digits: string) => void;
  country: Country;
  onCountryChange?: (c: Country) => void;
  countries?: Country[];
  id?: string;
  /** The wire name of the field (`data-field`, for refusals naming it). */
  name?: string;
  /** A refusal of this field (translated), shown under it. */
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const autoId = useId();
  const inputId = id ?? autoId;
  const [open, setOpen] = useState(false);
  const many = countries.length > 1;
  const errorId = `${inputId}-error`;
  return (
    <div className={css.field} data-field={name}>
      <label htmlFor={inputId} className={css.label}>
        {label}
      </label>
      <div className={`${css.inputWrap} ${error ? css.inputWrapInvalid : ''}`} dir="ltr">
        <div className={css.country} onMouseLeave={() => setOpen(false)}>
          <button
            type="button"
            className={css.countryBtn}
            aria-haspopup="listbox"
            aria-expanded={open}
            aria-label={t('countryCode', { code: country.code })}
            onClick={() => many && setOpen((o) => !o)}
            data-testid="country-toggle"
          >
            <Flag iso={country.iso} />
            <span>{country.code}</span>
            {many ? <span aria-hidden="true">▾</span> : null}
          </button>
          {open && (
            <ul className={css.countryList} role="listbox">
              {countries.map((c) => (
                <li key={c.iso} role="option" aria-selected={c.iso === country.iso}>
                  <button
                    type="button"
                    onClick={() => {
                      onCountryChange?.(c);
                      onChange(onlyDigits(value, c.length));
                      setOpen(false);
                    }}
                  >
                    <Flag iso={c.iso} /> {c.code}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <input
          id={inputId}
          className={css.input}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder={'0'.repeat(country.length).replace(/0/g, '•')}
          value={value}
          maxLength={country.length}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(error ? errorId : null)}
          onChange={(e) => onChange(onlyDigits(e.target.value, country.length))}
        />
      </div>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
