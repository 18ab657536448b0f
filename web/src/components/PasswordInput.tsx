import { useId, useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordChecks } from '../app/validation';
import { describedBy, FieldError } from './Field';
import css from './ui.module.css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A refusal of this field (translated), shown under it. */
  error?: string | undefined;
  /** A new password: the strength rule is checked live as the player types. */
  strength?: boolean;
};

export type StrengthLevel = 'weak' | 'fair' | 'strong';

/** 'strong' exactly when the server's rule holds (6+ characters, 2 digits, 2 letters, ≤ 128 bytes). */
export function strengthOf(password: string): { level: StrengthLevel | null; met: number } {
  const c = passwordChecks(password);
  const met = [c.length, c.digits, c.letters].filter(Boolean).length;
  if (password === '') return { level: null, met };
  if (!c.notTooLong) return { level: 'weak', met };
  return { level: met === 3 ? 'strong' : met === 2 ? 'fair' : 'weak', met };
}

/**
 * The password rule, live: a three-step meter, a spoken status (aria-live) and the three
 * rules, each marked as met or not. The input refers to it with aria-describedby.
 */
export function PasswordStrength({ id, value }: { id: string; value: string }) {
  const { t } = useTranslation();
  const c = passwordChecks(value);
  const { level, met } = strengthOf(value);
  const rules: [string, boolean][] = [
    ['passwordStrength.ruleLength', c.length],
    ['passwordStrength.ruleDigits', c.digits],
    ['passwordStrength.ruleLetters', c.letters],
  ];
  if (!c.notTooLong) rules.push(['passwordStrength.ruleMax', false]);
  return (
    <div id={id} className={css.strength} data-testid="password-strength" data-level={level ?? 'empty'}>
      <div className={css.strengthHead}>
        <span className={css.meter} aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <span key={i} className={css.meterStep} data-on={level !== null && i < met ? level : undefined} />
          ))}
        </span>
        <span className={css.strengthStatus} aria-live="polite" data-testid="password-strength-status">
          {level ? t(`passwordStrength.${level}`) : t('passwordStrength.empty')}
        </span>
      </div>
      <ul className={css.rules}>
        {rules.map(([key, ok]) => (
          <li key={key} className={css.rule} data-met={ok}>
            <span aria-hidden="true" className={css.ruleMark}>
              {ok ? '✓' : '○'}
            </span>
            <span>
              {t(key)}
              <span className={css.srOnly}> ({ok ? t('passwordStrength.met') : t('passwordStrength.notMet')})</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A password field with a show/hide toggle (and, for a new password, the live strength rule). */
export function PasswordInput({ label, value, onChange, id, error, strength = false, ...rest }: Props) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const autoId = useId();
  const inputId = id ?? autoId;
  const strengthId = `${inputId}-strength`;
  const errorId = `${inputId}-error`;
  return (
    <div className={css.field} data-field={rest.name}>
      <label htmlFor={inputId} className={css.label}>
        {label}
      </label>
      <div className={`${css.inputWrap} ${error ? css.inputWrapInvalid : ''}`}>
        <input
          {...rest}
          id={inputId}
          className={css.input}
          type={visible ? 'text' : 'password'}
          value={value}
          aria-invalid={error ? true : rest['aria-invalid']}
          aria-describedby={describedBy(rest['aria-describedby'], strength ? strengthId : null, error ? errorId : null)}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className={css.inputAddon}
          aria-pressed={visible}
          aria-label={visible ? t('hidePassword') : t('showPassword')}
          onClick={() => setVisible((v) => !v)}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
            <circle cx="12" cy="12" r="3" />
            {visible ? null : <path d="M4 4l16 16" />}
          </svg>
        </button>
      </div>
      {strength ? <PasswordStrength id={strengthId} value={value} /> : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

/** A new password with its live strength check, and its repeat (sign-up, recovery, change of password). */
export function NewPasswordPair(p: {
  labels: [string, string];
  names: [string, string];
  password: string;
  onPassword: (v: string) => void;
  repeat: string;
  onRepeat: (v: string) => void;
  onRepeatLeft?: () => void;
  passwordError: string | undefined;
  repeatError: string | undefined;
}) {
  return (
    <>
      <PasswordInput
        label={p.labels[0]}
        value={p.password}
        onChange={p.onPassword}
        autoComplete="new-password"
        name={p.names[0]}
        strength
        error={p.passwordError}
      />
      <PasswordInput
        label={p.labels[1]}
        value={p.repeat}
        onChange={p.onRepeat}
        onBlur={p.onRepeatLeft}
        autoComplete="new-password"
        name={p.names[1]}
        error={p.repeatError}
      />
    </>
  );
}
