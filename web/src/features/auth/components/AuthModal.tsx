import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS, i18n, languageOf } from '../../../app/i18n';
import { api } from '../../../api/api';
import { closeAuthModal, openAuthModal, setLoginIsPhone, setOneClick, setRestoreTarget, signedIn, staffRefused } from '../../../app/authSlice';
import { useNotify } from '../../../app/notify';
import { completeSignIn, normalizeLogin } from '../../../app/session';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { refusalData, useFormErrors, type FieldRoutes } from '../../../app/fieldErrors';
import {
  canLogin,
  canRestore2,
  canSignUpEmail,
  canSignUpPhone,
  isValidField,
  isWeakPassword,
  phoneHash,
} from '../../../app/validation';
import { Field, FieldError, SelectField } from '../../../components/Field';
import { MobileButton } from '../../../components/MobileButton';
import { NewPasswordPair, PasswordInput } from '../../../components/PasswordInput';
import { COUNTRIES, fullPhone, isPhoneComplete, PhoneInput } from '../../../components/PhoneInput';
import { PopupModal } from '../../../components/PopupModal';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { errorText } from '../../../app/errors';
import { PROMO_VALID, usePromoCheck, type PromoField } from '../promoCheck';
import css from './Auth.module.css';

function Segmented<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
  label: string;
}) {
  return (
    <div className={css.segmented} role="tablist" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          aria-selected={o.value === value}
          className={css.segment}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** The repeated password differs (said once the player has typed as much or left the field). */
const repeatDiffers = (password: string, repeat: string, left: boolean) =>
  repeat !== '' && repeat !== password && (left || repeat.length >= password.length);

type LoginField = 'login' | 'phone' | 'password';
const LOGIN_ROUTES: FieldRoutes<LoginField> = {
  wire: { login: 'login', email: 'login', phone: 'phone', password: 'password' },
  byCode: { 4: 'password' },
};

/**
 * A partner, cashier, super agent or admin signed in to the player app: where their tools
 * are (none of those consoles is open in this app), and that they were signed out.
 */
function StaffNotice({ role, onAgain }: { role: number; onAgain: () => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = [1, 2, 3, 4].includes(role) ? t(`forms.staff${role}`) : t('forms.staffOther');
  return (
    <div className={css.staff} role="alert" data-testid="staff-notice" data-role={role}>
      <span className={css.staffIcon} aria-hidden="true">
        <svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" strokeWidth="1.8">
          <rect x="4" y="10" width="16" height="10" rx="2" />
          <path d="M8 10V7a4 4 0 0 1 8 0v3" />
        </svg>
      </span>
      <h3 className={css.staffTitle} tabIndex={-1} ref={heading}>
        {t('forms.staffTitle')}
      </h3>
      <p className={css.staffText}>{text}</p>
      <p className={css.staffMuted}>
        {t('forms.staffSignedOut')} {t('forms.staffPlayerHint')}
      </p>
      <MobileButton block onClick={onAgain}>
        {t('forms.staffAgain')}
      </MobileButton>
    </div>
  );
}

function LoginView() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const isPhone = useAppSelector((s) => s.auth.loginIsPhone);
  const [login, setLogin] = useState('');
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const staffRole = useAppSelector((s) => s.auth.staffNotice);
  const errors = useFormErrors<LoginField>('login', LOGIN_ROUTES);
  const country = COUNTRIES[0]!;
  const [loginUniversal] = api.useLoginMutation();
  const [loginPhone] = api.useLoginPhoneMutation();
  const valid = isPhone ? isPhoneComplete(country, phone) && password !== '' : canLogin(login, password);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setBusy(true);
    const res = isPhone
      ? await loginPhone({ phone: fullPhone(country, phone), password })
      : await loginUniversal({ login: normalizeLogin(login), password });
    if (res.error) {
      errors.fail(res.error as ApiError);
      setBusy(false);
      return;
    }
    errors.succeed();
    const outcome = await completeSignIn(dispatch);
    setBusy(false);
    if (!outcome.ok && outcome.role !== null) {
      setPassword('');
      dispatch(staffRefused(outcome.role));
    }
  };

  if (staffRole !== null) return <StaffNotice role={staffRole} onAgain={() => dispatch(staffRefused(null))} />;

  return (
    <form onSubmit={submit} noValidate className={css.form}>
      {busy && <SpinnerOverlay />}
      <Segmented
        label={t('loginMode')}
        value={isPhone ? 'phone' : 'login'}
        onChange={(v) => dispatch(setLoginIsPhone(v === 'phone'))}
        options={[
          { value: 'login', label: t('byLogin') },
          { value: 'phone', label: t('byPhone') },
        ]}
      />
      {isPhone ? (
        <PhoneInput
          label={t('phone')}
          value={phone}
          onChange={errors.edit('phone', setPhone)}
          country={country}
          error={errors.message('phone')}
        />
      ) : (
        <Field
          label={t('loginOrEmail')}
          value={login}
          onChange={errors.edit('login', setLogin)}
          autoComplete="username"
          name="login"
          error={errors.message('login')}
        />
      )}
      <PasswordInput
        label={t('password')}
        value={password}
        onChange={errors.edit('password', setPassword)}
        autoComplete="current-password"
        name="password"
        error={errors.message('password')}
      />
      <button type="button" className={css.linkBtn} onClick={() => dispatch(openAuthModal('restore1'))}>
        {t('forgotPassword')}
      </button>
      <MobileButton type="submit" block disabled={!valid || busy}>
        {t('signIn')}
      </MobileButton>
      <p className={css.switch}>
        {t('noAccount')}{' '}
        <button type="button" className={css.linkBtn} onClick={() => dispatch(openAuthModal('registration'))}>
          {t('register')}
        </button>
      </p>
    </form>
  );
}

function Terms({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  return (
    <label className={css.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {t('acceptTermsBefore')}{' '}
        <Link to="/flatpages/terms" onClick={() => dispatch(closeAuthModal())}>
          {t('termsLink')}
        </Link>
      </span>
    </label>
  );
}

function CurrencySelect({
  value,
  onChange,
  currencies,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  currencies: string[];
  error?: string | undefined;
}) {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <SelectField
      label={t('currency')}
      value={value}
      onChange={onChange}
      name="currency"
      error={error}
      options={currencies.map((c) => ({ value: c, label: c === 'FUN' ? 'RUB' : c }))}
    />
  );
}

type RegistrationField = 'phone' | 'email' | 'code' | 'password' | 'currency';
const REGISTRATION_PHONE_ROUTES: FieldRoutes<RegistrationField> = {
  wire: { phone: 'phone', phoneCode: 'code', code: 'code', password: 'password' },
  byCode: { 1: 'phone', 12: 'code', 15: 'phone', 17: 'currency', 231: 'password' },
};
const REGISTRATION_EMAIL_ROUTES: FieldRoutes<RegistrationField> = {
  wire: { email: 'email', password: 'password' },
  byCode: { 1: 'email', 17: 'currency', 18: 'email', 231: 'password' },
};

function RegistrationView() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const settings = api.useSettingsQuery().data;
  const { promocode, refId } = useAppSelector((s) => s.auth);
  const [mode, setMode] = useState<'phone' | 'email'>('phone');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [repeatLeft, setRepeatLeft] = useState(false);
  const [currency, setCurrency] = useState('');
  const [promo, setPromo] = useState(promocode ?? '');
  const promoCheck = usePromoCheck(promo);
  const [accept, setAccept] = useState(false);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors<RegistrationField>('registration', mode === 'phone' ? REGISTRATION_PHONE_ROUTES : REGISTRATION_EMAIL_ROUTES);
  const country = COUNTRIES[0]!;
  const currencies = settings?.currencies ?? ['TND'];
  const chosenCurrency = currency || settings?.defaultCurrency || 'TND';
  const [sendCode] = api.usePhoneCodeMutation();
  const [signupPhone] = api.useSignupPhoneMutation();
  const [signupEmail] = api.useSignupEmailMutation();
  const [oneClick] = api.useSignupOneClickMutation();
  const lang = languageOf(i18n.language)?.id ?? 'en-US';
  const repeatProblem = repeatDiffers(password, repeat, repeatLeft);
  const codeError = errors.message('code');
  const codeErrorId = `${useId()}-code-error`;

  const valid =
    !isWeakPassword(password) &&
    (mode === 'phone'
      ? canSignUpPhone({
          phone,
          phoneLength: country.length,
          code,
          password,
          repeatPassword: repeat,
          currency: chosenCurrency,
          isAccept: accept,
        })
      : canSignUpEmail({ email, password, repeatPassword: repeat, currency: chosenCurrency, isAccept: accept }));

  const requestCode = async () => {
    const number = fullPhone(country, phone);
    setBusy(true);
    const hash = await phoneHash(number, settings?.phoneCodeSalt ?? '');
    const res = await sendCode({ phone: number, hash });
    setBusy(false);
    if (res.error) errors.fail(res.error as ApiError);
    else {
      setCodeSent(true);
      errors.clear('code');
      notify.success('checkPhone');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (repeat !== password) {
      setRepeatLeft(true);
      return;
    }
    if (!valid) return;
    setBusy(true);
    // Spec §3: the code goes with the sign-up only when its check said valid (state 2).
    const promoValue = await promoCheck.payload();
    if (mode === 'phone') {
      const number = fullPhone(country, phone);
      const res = await signupPhone({
        phone: number,
        phoneCode: code.trim(),
        password,
        currency: chosenCurrency,
        login: number,
        promocode: promoValue,
        ref_id: refId,
        lang,
      });
      if (res.error) errors.fail(res.error as ApiError);
      else {
        errors.succeed();
        await completeSignIn(dispatch);
      }
    } else {
      const res = await signupEmail({
        email: email.trim(),
        password,
        currency: chosenCurrency,
        lang,
        promocode: promoValue,
        ref_id: refId,
        name: '',
      });
      if (res.error) errors.fail(res.error as ApiError);
      else {
        errors.succeed('checkEmail');
        dispatch(closeAuthModal());
      }
    }
    setBusy(false);
  };

  const registerOneClick = async () => {
    setBusy(true);
    const res = await oneClick({ currency: chosenCurrency, lang, promocode: await promoCheck.payload() });
    setBusy(false);
    if (res.error || !res.data) {
      errors.fail(res.error as ApiError);
      return;
    }
    errors.succeed();
    dispatch(setOneClick({ email: res.data.email, password: res.data.password }));
    dispatch(signedIn(res.data.user));
    dispatch(api.util.invalidateTags(['Balance', 'Profile', 'History']));
  };

  return (
    <form onSubmit={submit} noValidate className={css.form}>
      {busy && <SpinnerOverlay />}
      <Segmented
        label={t('registrationMode')}
        value={mode}
        onChange={setMode}
        options={[
          { value: 'phone', label: t('byPhone') },
          { value: 'email', label: t('byEmail') },
        ]}
      />
      {mode === 'phone' ? (
        <>
          <PhoneInput
            label={t('phone')}
            value={phone}
            onChange={errors.edit('phone', setPhone)}
            country={country}
            error={errors.message('phone')}
          />
          {/* The refusal spans the row (under the code and its button), tied to the input. */}
          <div data-field="code">
            <div className={css.codeRow}>
              <Field
                label={t('smsCode')}
                value={code}
                onChange={(v) => {
                  setCode(v.replace(/\D/g, '').slice(0, 8));
                  errors.clear('code');
                }}
                inputMode="numeric"
                autoComplete="one-time-code"
                name="code"
                aria-invalid={codeError ? true : undefined}
                aria-describedby={codeError ? codeErrorId : undefined}
              />
              <MobileButton color="secondary" disabled={!isPhoneComplete(country, phone) || busy} onClick={() => void requestCode()}>
                {codeSent ? t('resendCode') : t('sendCode')}
              </MobileButton>
            </div>
            {codeError ? (
              <div className={css.rowError}>
                <FieldError id={codeErrorId}>{codeError}</FieldError>
              </div>
            ) : null}
          </div>
        </>
      ) : (
        <Field
          label={t('email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={errors.edit('email', setEmail)}
          aria-invalid={email !== '' && !isValidField('email', email)}
          error={errors.message('email')}
        />
      )}
      <NewPasswordPair
        labels={[t('password'), t('repeatPassword')]}
        names={['password', 'repeat']}
        password={password}
        onPassword={errors.edit('password', setPassword)}
        repeat={repeat}
        onRepeat={setRepeat}
        onRepeatLeft={() => setRepeatLeft(true)}
        passwordError={errors.message('password')}
        repeatError={repeatProblem ? t('repeatPasswordMismatch') : undefined}
      />
      <div className={css.row2}>
        <CurrencySelect
          value={chosenCurrency}
          onChange={errors.edit('currency', setCurrency)}
          currencies={currencies}
          error={errors.message('currency')}
        />
        <PromoCodeInput value={promo} onChange={setPromo} check={promoCheck} />
      </div>
      <Terms checked={accept} onChange={setAccept} />
      <MobileButton type="submit" block disabled={!valid || busy}>
        {t('createAccount')}
      </MobileButton>
      <div className={css.or}>
        <span>{t('or')}</span>
      </div>
      <MobileButton color="ghost" block onClick={() => void registerOneClick()} disabled={busy}>
        {t('oneClickRegistration')}
      </MobileButton>
      <p className={css.switch}>
        {t('haveAccount')}{' '}
        <button type="button" className={css.linkBtn} onClick={() => dispatch(openAuthModal('login'))}>
          {t('login')}
        </button>
      </p>
    </form>
  );
}

/** The sign-up's promo code, checked as it is typed: valid (state 2) or the refusal, inline (spec §5). */
function PromoCodeInput({ value, onChange, check }: { value: string; onChange: (v: string) => void; check: PromoField }) {
  const { t } = useTranslation(ACCOUNT_NS);
  const { t: te } = useTranslation('errors', { useSuspense: false });
  const refusal = check.state !== PROMO_VALID && check.state !== 0 ? errorText(check.error, 'promocode') : null;
  return (
    <div data-field="promocode" data-promo-state={check.state}>
      <Field
        label={t('promocode')}
        value={value}
        onChange={onChange}
        name="promocode"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        hint={
          check.state === PROMO_VALID ? (
            <span className={css.promoValid} data-testid="promo-valid">
              ✓ {t('promocodeValid')}
            </span>
          ) : check.checking ? (
            t('promocodeChecking')
          ) : undefined
        }
        error={refusal ? te(refusal.key, refusal.params ?? {}) : undefined}
      />
    </div>
  );
}

type Restore1Field = 'phone' | 'email';
const RESTORE1_ROUTES: FieldRoutes<Restore1Field> = {
  wire: { phone: 'phone', email: 'email' },
  byCode: { 15: 'phone', 22: 'phone', 18: 'email', 21: 'email' },
};

function Restore1View() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const [mode, setMode] = useState<'phone' | 'email'>('phone');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors<Restore1Field>('restore1', RESTORE1_ROUTES);
  const country = COUNTRIES[0]!;
  const [restorePhone] = api.useRestorePhoneMutation();
  const [restoreEmail] = api.useRestoreEmailMutation();
  const valid = mode === 'phone' ? isPhoneComplete(country, phone) : isValidField('email', email);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setBusy(true);
    if (mode === 'phone') {
      const number = fullPhone(country, phone);
      const res = await restorePhone({ phone: number });
      setBusy(false);
      if (res.error) return void errors.fail(res.error as ApiError, 'recoveryFailed');
      errors.succeed('checkPhone');
      dispatch(setRestoreTarget({ channel: 'phone', value: res.data.user_phone || number }));
    } else {
      const res = await restoreEmail({ email: email.trim() });
      setBusy(false);
      if (res.error) return void errors.fail(res.error as ApiError, 'recoveryFailed');
      errors.succeed('checkEmail');
      dispatch(setRestoreTarget({ channel: 'email', value: email.trim() }));
    }
    dispatch(openAuthModal('restore2'));
  };

  return (
    <form onSubmit={submit} noValidate className={css.form}>
      {busy && <SpinnerOverlay />}
      <p className={css.lead}>{t('restoreInfo')}</p>
      <Segmented
        label={t('restoreMode')}
        value={mode}
        onChange={setMode}
        options={[
          { value: 'phone', label: t('byPhone') },
          { value: 'email', label: t('byEmail') },
        ]}
      />
      {mode === 'phone' ? (
        <PhoneInput
          label={t('phone')}
          value={phone}
          onChange={errors.edit('phone', setPhone)}
          country={country}
          error={errors.message('phone')}
        />
      ) : (
        <Field
          label={t('email')}
          type="email"
          name="email"
          value={email}
          onChange={errors.edit('email', setEmail)}
          autoComplete="email"
          error={errors.message('email')}
        />
      )}
      <MobileButton type="submit" block disabled={!valid || busy}>
        {t('sendCode')}
      </MobileButton>
      <p className={css.switch}>
        <button type="button" className={css.linkBtn} onClick={() => dispatch(openAuthModal('login'))}>
          {t('backToLogin')}
        </button>
      </p>
    </form>
  );
}

type Restore2Field = 'code' | 'password';
const RESTORE2_ROUTES: FieldRoutes<Restore2Field> = {
  wire: { code: 'code', new_password: 'password' },
  byCode: { 9: 'code', 10: 'code', 101: 'code', 102: 'code', 231: 'password' },
};

/** The code can no longer work: expired, used, superseded or out of attempts. */
const codeIsDead = (error: ApiError) => {
  const { reason, attemptsLeft } = refusalData(error);
  return error.code === 10 || error.code === 101 || reason === 'code_expired' || attemptsLeft === 0;
};

function Restore2View() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const target = useAppSelector((s) => s.auth.restoreTarget);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [confirmLeft, setConfirmLeft] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The code is dead: the form offers to send a new one. */
  const [needNewCode, setNeedNewCode] = useState(false);
  const errors = useFormErrors<Restore2Field>('restore2', RESTORE2_ROUTES);
  const [phoneNew] = api.useRestorePhoneNewMutation();
  const [emailNew] = api.useRestoreNewMutation();
  const [restorePhone] = api.useRestorePhoneMutation();
  const [restoreEmail] = api.useRestoreEmailMutation();
  const valid = canRestore2(code, password, confirm) && !isWeakPassword(password) && !needNewCode;
  const confirmProblem = repeatDiffers(password, confirm, confirmLeft);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setBusy(true);
    const res =
      target?.channel === 'phone'
        ? await phoneNew({ phone: target.value, new_password: password, code: code.trim() })
        : await emailNew({ code: code.trim(), new_password: password });
    setBusy(false);
    if (res.error) {
      // The modal stays open: the refusal shows under its field (with the attempts left).
      const error = res.error as ApiError;
      if (errors.fail(error, 'recoveryFailed') === 'code' && codeIsDead(error)) setNeedNewCode(true);
      return;
    }
    errors.succeed('recoverySuccess');
    dispatch(closeAuthModal());
    dispatch(setRestoreTarget(null));
  };

  const resend = async () => {
    if (!target) return;
    setBusy(true);
    const res = target.channel === 'phone' ? await restorePhone({ phone: target.value }) : await restoreEmail({ email: target.value });
    setBusy(false);
    if (res.error) return void errors.fail(res.error as ApiError, 'recoveryFailed');
    setNeedNewCode(false);
    setCode('');
    errors.succeed(target.channel === 'phone' ? 'checkPhone' : 'checkEmail');
  };

  return (
    <form onSubmit={submit} noValidate className={css.form}>
      {busy && <SpinnerOverlay />}
      {target && (
        <p className={css.lead}>
          {t('codeSentTo')} <bdi dir="ltr">{target.channel === 'phone' ? `+${target.value}` : target.value}</bdi>
        </p>
      )}
      <Field
        label={t('recoveryCode')}
        value={code}
        onChange={(v) => {
          setCode(v);
          if (!needNewCode) errors.clear('code');
        }}
        name="code"
        inputMode={target?.channel === 'phone' ? 'numeric' : 'text'}
        autoComplete="one-time-code"
        error={errors.message('code')}
      />
      {needNewCode && target && (
        <MobileButton color="secondary" block onClick={() => void resend()} disabled={busy} data-testid="send-new-code">
          {t('forms.sendNewCode')}
        </MobileButton>
      )}
      <NewPasswordPair
        labels={[t('newPassword'), t('confirmPassword')]}
        names={['new_password', 'confirm']}
        password={password}
        onPassword={errors.edit('password', setPassword)}
        repeat={confirm}
        onRepeat={setConfirm}
        onRepeatLeft={() => setConfirmLeft(true)}
        passwordError={errors.message('password')}
        repeatError={confirmProblem ? t('repeatPasswordMismatch') : undefined}
      />
      <MobileButton type="submit" block disabled={!valid || busy}>
        {t('savePassword')}
      </MobileButton>
      <p className={css.switch}>
        <button type="button" className={css.linkBtn} onClick={() => dispatch(openAuthModal('restore1'))}>
          {t('back')}
        </button>
      </p>
    </form>
  );
}

const TITLES = {
  login: 'signInTitle',
  registration: 'registrationTitle',
  restore1: 'restoreTitle',
  restore2: 'newPasswordTitle',
} as const;

export default function AuthModal() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const type = useAppSelector((s) => s.auth.authModal.type);
  return (
    <PopupModal title={t(TITLES[type])} onClose={() => dispatch(closeAuthModal())}>
      <div data-testid={`auth-${type}`}>
        <AuthViews type={type} />
      </div>
    </PopupModal>
  );
}

export function AuthViews({ type }: { type: keyof typeof TITLES }) {
  switch (type) {
    case 'login':
      return <LoginView />;
    case 'registration':
      return <RegistrationView />;
    case 'restore1':
      return <Restore1View />;
    case 'restore2':
      return <Restore2View />;
  }
}

