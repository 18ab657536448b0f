import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../app/errors';
import { Card, Muted } from '../../components/Page';
import { consoleApi, type EnrolReply } from '../api';
import { afterSignInError, cleanTotp, groupSecret } from '../logic';
import { LanguagePicker } from '../Shell';
import { Button, Ltr, Notice, TextRow, useErrorText } from '../ui';
import css from './pages.module.css';

/** The sign-in's own words for its refusals (the shared catalogue for the rest). */
const SIGN_IN_MESSAGES = [2, 3, 4, 16, 24, 142, 143, 144, 145];
const overrides = (code: number) => (SIGN_IN_MESSAGES.includes(code) ? [`console:signIn.error.${code}`] : []);

/**
 * Staff sign-in: login, password and the authenticator's 6-digit code (docs/BACKOFFICE.md
 * "Staff sign-in with a second factor"). An account without an authenticator (144) is offered
 * the enrolment: the secret to type into the app, then a sign-in with its first code.
 */
export function SignInPage({ notStaff = false, onSignedIn }: { notStaff?: boolean; onSignedIn: () => Promise<unknown> }) {
  const { t } = useTranslation('console');
  const message = useErrorText();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ code: number; text: string } | null>(null);
  const [offerEnrol, setOfferEnrol] = useState(false);
  const [enrolled, setEnrolled] = useState<EnrolReply | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [entering, setEntering] = useState(false);
  const [signIn, signing] = consoleApi.useLoginMutation();
  const [enrol, enrolling] = consoleApi.useEnrolMutation();

  const why = !login.trim() || !password ? t('signIn.needCredentials') : code.length > 0 && code.length < 6 ? t('signIn.needSixDigits') : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (why) return;
    setError(null);
    const res = await signIn({ login: login.trim(), password, code: code || null });
    if (!res.error) {
      // Who is signed in now, and what they may do: the root then shows the console.
      setEntering(true);
      await onSignedIn();
      setEntering(false);
      return;
    }
    const c = isApiError(res.error) ? res.error.code : -1;
    setError({ code: c, text: message(res.error, overrides(c)) });
    const next = afterSignInError(c);
    if (next === 'enrol') setOfferEnrol(true);
    if (next === 'code') {
      setCode('');
      codeRef.current?.focus();
    }
  };

  const startEnrol = async () => {
    setError(null);
    const res = await enrol({ login: login.trim(), password });
    if (res.error) {
      const c = isApiError(res.error) ? res.error.code : -1;
      setError({ code: c, text: message(res.error, overrides(c)) });
      return;
    }
    setEnrolled(res.data);
    setOfferEnrol(false);
    setCode('');
    codeRef.current?.focus();
  };

  return (
    <div className={css.signInScreen}>
      <div className={css.signInTop}>
        <span className={css.signInBrand}>
          Carthage
          <span>{t('shell.console')}</span>
        </span>
        <LanguagePicker />
      </div>
      <Card as="form" className={css.signInCard} onSubmit={(e) => void submit(e)} aria-labelledby="console-signin-title" data-testid="console-signin" noValidate>
        <h1 id="console-signin-title" className={css.signInTitle}>
          {t('signIn.title')}
        </h1>
        <Muted>{t('signIn.lead')}</Muted>
        {notStaff ? <Notice tone="warn">{t('signIn.error.24')}</Notice> : null}
        <TextRow
          label={t('signIn.login')}
          value={login}
          onChange={(e) => setLogin(e.target.value)}
          autoComplete="username"
          name="login"
          dir="ltr"
          autoFocus
          data-testid="signin-login"
        />
        <TextRow
          label={t('signIn.password')}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          name="password"
          dir="ltr"
          data-testid="signin-password"
        />
        {enrolled ? <EnrolSteps enrolled={enrolled} /> : null}
        <TextRow
          ref={codeRef}
          label={t('signIn.code')}
          hint={enrolled ? t('signIn.codeHintEnrolled') : t('signIn.codeHint')}
          value={code}
          onChange={(e) => setCode(cleanTotp(e.target.value))}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          name="code"
          dir="ltr"
          className={css.codeInput}
          data-testid="signin-code"
        />
        {error ? (
          <Notice tone="error" testId="signin-error">
            {error.text}
          </Notice>
        ) : null}
        {offerEnrol && !enrolled ? (
          <div className={css.enrolOffer} data-testid="enrol-offer">
            <p>{t('signIn.enrolOffer')}</p>
            <Button tone="secondary" busy={enrolling.isLoading} onClick={() => void startEnrol()} data-testid="enrol-start">
              {t('signIn.enrolStart')}
            </Button>
          </div>
        ) : null}
        <Button tone="primary" type="submit" busy={signing.isLoading || entering} disabledReason={why} className={css.block} data-testid="signin-submit">
          {t('signIn.submit')}
        </Button>
      </Card>
    </div>
  );
}

/** The enrolment's secret, to type into the authenticator app (or open on the phone). */
function EnrolSteps({ enrolled }: { enrolled: EnrolReply }) {
  const { t } = useTranslation('console');
  return (
    <Card inset data-testid="enrol-steps" as="div">
      <strong>{t('signIn.enrolTitle')}</strong>
      <ol className={css.steps}>
        <li>{t('signIn.enrolStep1')}</li>
        <li>
          {t('signIn.enrolStep2')}
          <Ltr className={css.secret}>
            <span data-testid="enrol-secret">{groupSecret(enrolled.secret)}</span>
          </Ltr>
        </li>
        <li>{t('signIn.enrolStep3')}</li>
      </ol>
      <a href={enrolled.otpauthUri} className={css.otpLink}>
        {t('signIn.enrolOpen')}
      </a>
    </Card>
  );
}
