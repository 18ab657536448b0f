import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS, i18n, languageOf } from '../../../app/i18n';
import { api } from '../../../api/api';
import { closeAuthModal, openAuthModal, setLoginIsPhone, setOneClick, setRestoreTarget, signedIn } from '../../../app/authSlice';
import { useNotify } from '../../../app/notify';
import { completeSignIn, normalizeLogin } from '../../../app/session';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import {
  canLogin,
  canRestore2,
  canSignUpEmail,
  canSignUpPhone,
  isValidField,
  phoneHash,
} from '../../../app/validation';
import { Field, SelectField } from '../../../components/Field';
import { MobileButton } from '../../../components/MobileButton';
import { PasswordInput } from '../../../components/PasswordInput';
import { COUNTRIES, fullPhone, isPhoneComplete, PhoneInput } from '../../../components/PhoneInput';
import { PopupModal } from '../../../components/PopupModal';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
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

function LoginView() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const isPhone = useAppSelector((s) => s.auth.loginIsPhone);
  const [login, setLogin] = useState('');
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
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
      notify.error(res.error as ApiError);
      setBusy(false);
      return;
    }
    await completeSignIn(dispatch);
    setBusy(false);
  };

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
        <PhoneInput label={t('phone')} value={phone} onChange={setPhone} country={country} />
      ) : (
        <Field label={t('loginOrEmail')} value={login} onChange={setLogin} autoComplete="username" name="login" />
      )}
      <PasswordInput label={t('password')} value={password} onChange={setPassword} autoComplete="current-password" />
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

function CurrencySelect({ value, onChange, currencies }: { value: string; onChange: (v: string) => void; currencies: string[] }) {
  const { t } = useTranslation(ACCOUNT_NS);
  return (
    <SelectField
      label={t('currency')}
      value={value}
      onChange={onChange}
      options={currencies.map((c) => ({ value: c, label: c === 'FUN' ? 'RUB' : c }))}
    />
  );
}

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
  const [currency, setCurrency] = useState('');
  const [promo, setPromo] = useState(promocode ?? '');
  const [accept, setAccept] = useState(false);
  const [busy, setBusy] = useState(false);
  const country = COUNTRIES[0]!;
  const currencies = settings?.currencies ?? ['TND'];
  const chosenCurrency = currency || settings?.defaultCurrency || 'TND';
  const [sendCode] = api.usePhoneCodeMutation();
  const [signupPhone] = api.useSignupPhoneMutation();
  const [signupEmail] = api.useSignupEmailMutation();
  const [oneClick] = api.useSignupOneClickMutation();
  const lang = languageOf(i18n.language)?.id ?? 'en-US';

  const valid =
    mode === 'phone'
      ? canSignUpPhone({
          phone,
          phoneLength: country.length,
          code,
          password,
          repeatPassword: repeat,
          currency: chosenCurrency,
          isAccept: accept,
        })
      : canSignUpEmail({ email, password, repeatPassword: repeat, currency: chosenCurrency, isAccept: accept });

  const requestCode = async () => {
    const number = fullPhone(country, phone);
    setBusy(true);
    const hash = await phoneHash(number, settings?.phoneCodeSalt ?? '');
    const res = await sendCode({ phone: number, hash });
    setBusy(false);
    if (res.error) notify.error(res.error as ApiError);
    else {
      setCodeSent(true);
      notify.success('checkPhone');
    }
  };

  const checkRepeat = () => {
    if (repeat !== '' && repeat !== password) notify.errorKey('repeatPasswordMismatch');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (repeat !== password) {
      notify.errorKey('repeatPasswordMismatch');
      return;
    }
    if (!valid) return;
    setBusy(true);
    const promoValue = promo.trim() === '' ? null : promo.trim();
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
      if (res.error) notify.error(res.error as ApiError);
      else await completeSignIn(dispatch);
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
      if (res.error) notify.error(res.error as ApiError);
      else {
        notify.success('checkEmail');
        dispatch(closeAuthModal());
      }
    }
    setBusy(false);
  };

  const registerOneClick = async () => {
    setBusy(true);
    const res = await oneClick({ currency: chosenCurrency, lang, promocode: promo.trim() || null });
    setBusy(false);
    if (res.error || !res.data) {
      notify.error(res.error as ApiError);
      return;
    }
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
          <PhoneInput label={t('phone')} value={phone} onChange={setPhone} country={country} />
          <div className={css.codeRow}>
            <Field
              label={t('smsCode')}
              value={code}
              onChange={(v) => setCode(v.replace(/\D/g, '').slice(0, 8))}
              inputMode="numeric"
              autoComplete="one-time-code"
              name="code"
            />
            <MobileButton color="secondary" disabled={!isPhoneComplete(country, phone) || busy} onClick={() => void requestCode()}>
              {codeSent ? t('resendCode') : t('sendCode')}
            </MobileButton>
          </div>
        </>
      ) : (
        <Field
          label={t('email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          aria-invalid={email !== '' && !isValidField('email', email)}
        />
      )}
      <PasswordInput label={t('password')} value={password} onChange={setPassword} autoComplete="new-password" />
      <PasswordInput
        label={t('repeatPassword')}
        value={repeat}
        onChange={setRepeat}
        onBlur={checkRepeat}
        autoComplete="new-password"
      />
      <div className={css.row2}>
        <CurrencySelect value={chosenCurrency} onChange={setCurrency} currencies={currencies} />
        <Field label={t('promocode')} value={promo} onChange={setPromo} name="promocode" />
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

function Restore1View() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const [mode, setMode] = useState<'phone' | 'email'>('phone');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
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
      if (res.error) return notify.error(res.error as ApiError, 'recoveryFailed');
      notify.success('checkPhone');
      dispatch(setRestoreTarget({ channel: 'phone', value: res.data.user_phone || number }));
    } else {
      const res = await restoreEmail({ email: email.trim() });
      setBusy(false);
      if (res.error) return notify.error(res.error as ApiError, 'recoveryFailed');
      notify.success('checkEmail');
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
        <PhoneInput label={t('phone')} value={phone} onChange={setPhone} country={country} />
      ) : (
        <Field label={t('email')} type="email" name="email" value={email} onChange={setEmail} autoComplete="email" />
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

function Restore2View() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const target = useAppSelector((s) => s.auth.restoreTarget);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [phoneNew] = api.useRestorePhoneNewMutation();
  const [emailNew] = api.useRestoreNewMutation();
  const valid = canRestore2(code, password, confirm);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setBusy(true);
    const res =
      target?.channel === 'phone'
        ? await phoneNew({ phone: target.value, new_password: password, code: code.trim() })
        : await emailNew({ code: code.trim(), new_password: password });
    setBusy(false);
    dispatch(closeAuthModal());
    if (res.error) notify.error(res.error as ApiError, 'recoveryFailed');
    else {
      notify.success('recoverySuccess');
      dispatch(setRestoreTarget(null));
    }
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
        onChange={setCode}
        name="code"
        inputMode={target?.channel === 'phone' ? 'numeric' : 'text'}
        autoComplete="one-time-code"
      />
      <PasswordInput label={t('newPassword')} value={password} onChange={setPassword} autoComplete="new-password" />
      <PasswordInput label={t('confirmPassword')} value={confirm} onChange={setConfirm} autoComplete="new-password" />
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
