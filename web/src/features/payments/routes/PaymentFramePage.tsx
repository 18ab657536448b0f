import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { api } from '../../../api/api';
import { openAuthModal } from '../../../app/authSlice';
import { addNotification } from '../../../app/notificationsSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Money } from '../../../components/Money';
import { EmptyState, List, Page, PageHeader, ValueRow } from '../../../components/Page';
import { Spinner, SpinnerOverlay } from '../../../components/Spinner';
import { formatMoney } from '../../../components/money';
import { isFinal, paymentsApi } from '../api';
import { DepositBonusGranted } from '../components/DepositBonusToggle';
import { paymentRefusal, wagerLeft } from '../refusal';
import { WagerLeft } from '../components/WagerLeft';
import css from '../components/Payments.module.css';
import { isFrameRequest, localizedLink, parseFrameMessage, startOnce, topLevel, type FrameRequest, type StartOutcome } from '../frame';
import { expandTelegram, PATHS } from '../specialUser';
import { usePaymentPaths } from '../usePaymentPaths';

/** How often the intent's status is asked while the payment is open (docs/PAYMENTS.md: 2 s). */
export const POLL_MS = 2000;
/** …and while a withdrawal waits for staff approval (hours, not seconds). */
export const REVIEW_POLL_MS = 30_000;

// Notices already shown for a request (a second mount or a return does not repeat them).
const noticed = new Set<string>();

/**
 * /payment-frame (spec §4): starts the deposit or withdrawal on mount, frames the payment link,
 * follows a code-20 reply to the top-level window, answers Telegram's `web_app_expand`, listens
 * for the hosted page's result message and polls the intent; the balance and the history
 * refresh as soon as the money moved.
 */
export default function PaymentFramePage() {
  const { t, i18n } = useTranslation(['payments', 'common', 'errors']);
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  const paths = usePaymentPaths();
  const state = location.state as { pay?: unknown; prevPath?: string } | null;
  const req: FrameRequest | null = isFrameRequest(state?.pay) ? state.pay : null;
  const back = state?.prevPath ?? (req?.kind === 'withdrawal' ? (paths.withdrawal ?? '/profile') : paths.deposit);
  const [outcome, setOutcome] = useState<StartOutcome | null>(null);
  const frameRef = useRef<HTMLIFrameElement>(null);

  // Start (once per request), and clear the link when leaving.
  const key = req?.key;
  useEffect(() => {
    if (!isAuth || !req) return;
    let alive = true;
    void startOnce(req, dispatch).then((o) => {
      if (!alive) return;
      if (o.type === 'redirect' && o.fresh) topLevel.assign(o.url);
      setOutcome(o);
    });
    return () => {
      alive = false;
      setOutcome(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isAuth, key, dispatch]);

  const id =
    outcome && (outcome.type === 'link' || outcome.type === 'withdrawal' || outcome.type === 'redirect') ? outcome.id : null;
  const [stopped, setStopped] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const intent = paymentsApi.useIntentQuery(id ?? skipToken, {
    pollingInterval: stopped ? 0 : reviewing ? REVIEW_POLL_MS : POLL_MS,
    skipPollingIfUnfocused: false,
    refetchOnMountOrArgChange: true,
  });
  const current = intent.data && String(intent.data.id) === String(id) ? intent.data : undefined;
  const status: string | undefined =
    current?.status ?? (outcome?.type === 'link' || outcome?.type === 'withdrawal' ? outcome.status : undefined);
  const final = isFinal(status);
  useEffect(() => setReviewing(status === 'review'), [status]);

  // The money moved: the balance and the history refresh at once (RTK Query tags).
  useEffect(() => {
    setStopped(final);
    if (!final || !req) return;
    if (status === 'succeeded' || req.kind === 'withdrawal') dispatch(api.util.invalidateTags(['Balance', 'History']));
  }, [final, status, req?.kind, dispatch]); // eslint-disable-line react-hooks/exhaustive-deps

  // "Withdrawal (amount) successfully initiated" once per request (spec §8).
  useEffect(() => {
    if (outcome?.type !== 'withdrawal' || !key || noticed.has(key)) return;
    noticed.add(key);
    dispatch(
      addNotification({
        text: 'withdrawalInitiated',
        type: 'success',
        params: { amount: formatMoney(outcome.amount, outcome.currency, i18n.language) },
      }),
    );
  }, [outcome, key, dispatch, i18n.language]);

  // Messages of the framed page: Telegram's web_app_expand, and the hosted page's result.
  const refetch = intent.refetch;
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      const framed = frameRef.current?.contentWindow;
      if (!framed || e.source !== framed) return;
      const m = parseFrameMessage(e.data);
      if (!m) return;
      if (m.type === 'expand') {
        expandTelegram();
        void navigate(PATHS.paykassmaDeposit);
      } else if (id !== null && m.id === String(id)) {
        // The server is the truth: the message only asks for its status now.
        void refetch();
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [id, navigate, refetch]);

  const title = req?.kind === 'withdrawal' ? t('frame.withdrawalTitle') : t('frame.depositTitle');
  const head = <PageHeader title={title} back={<BackButton fallback={back} />} />;

  if (!isAuth && !checked) return <SpinnerOverlay />;
  if (!isAuth) {
    return (
      <Page>
        {head}
        <EmptyState actions={<MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('common:login')}</MobileButton>}>
          <p>{t('frame.signIn')}</p>
        </EmptyState>
      </Page>
    );
  }
  if (!req) {
    return (
      <Page>
        {head}
        <EmptyState data-testid="frame-nothing" actions={<MobileButton to={paths.deposit}>{t('frame.chooseAmount')}</MobileButton>}>
          <p>{t('frame.nothing')}</p>
        </EmptyState>
      </Page>
    );
  }

  const amountOf = () => {
    if (req.credit) return <Money amount={req.credit.amount} currency={req.credit.currency} />;
    if (outcome?.type === 'withdrawal') return <Money amount={outcome.amount} currency={outcome.currency} />;
    return current && req.provider !== 'telegram' ? (
      <Money amount={current.amount} currency={current.currency} />
    ) : (
      <Money amount={req.amount} currency={req.currency} />
    );
  };

  let body: React.ReactNode;
  if (outcome?.type === 'redirect' && !outcome.fresh && !final) {
    // Back from the provider's page: the same payment is followed; its page can be reopened.
    body = (
      <Result
        tone="wait"
        title={t('frame.atProvider')}
        testId="frame-at-provider"
        actions={
          <>
            <MobileButton onClick={() => topLevel.assign(outcome.url)}>{t('frame.reopen')}</MobileButton>
            <MobileButton to="/profile" color="secondary">
              {t('frame.toProfile')}
            </MobileButton>
          </>
        }
      >
        <p>{t('frame.atProviderText')}</p>
      </Result>
    );
  } else if (!outcome || (outcome.type === 'redirect' && !final)) {
    body = (
      <div className={css.center} data-testid="frame-starting">
        <Spinner />
        <p className={css.small}>{outcome ? t('frame.redirecting') : t('frame.starting')}</p>
      </div>
    );
  } else if (outcome.type === 'error') {
    const { key: k, params } = paymentRefusal(outcome.error, req.currency, i18n.language);
    // A withdrawal refused for open wagering: the amount still to wager, here and on the form.
    const wager = req.kind === 'withdrawal' ? wagerLeft(outcome.error) : null;
    body = (
      <Result
        tone="bad"
        title={t('frame.failedStart')}
        testId="frame-error"
        actions={
          <>
            {wager ? (
              <MobileButton onClick={() => void navigate(back, { state: { wager } })}>{t('frame.tryAgain')}</MobileButton>
            ) : (
              <MobileButton to={back}>{t('frame.tryAgain')}</MobileButton>
            )}
            <MobileButton to="/profile" color="secondary">
              {t('frame.toProfile')}
            </MobileButton>
          </>
        }
      >
        <p data-testid="frame-error-text">{t(k, params)}</p>
        {wager ? <WagerLeft amount={wager.amount} currency={wager.currency ?? req.currency} /> : null}
      </Result>
    );
  } else if ((outcome.type === 'link' || (outcome.type === 'withdrawal' && outcome.link)) && !final) {
    body = (
      <>
        <div className={css.frameWrap}>
          <iframe
            ref={frameRef}
            className={css.frame}
            src={outcome.link ? localizedLink(outcome.link, i18n.language) : undefined}
            title={t('frame.frameTitle')}
            allow="payment"
            referrerPolicy="origin"
            data-testid="payment-frame"
          />
        </div>
        <p className={css.status} role="status" data-testid="frame-status">
          <Spinner size={16} />
          <span>{t('frame.waiting')}</span>
        </p>
      </>
    );
  } else if (req.kind === 'deposit') {
    body =
      status === 'succeeded' ? (
        <Result
          tone="ok"
          title={t('frame.succeeded')}
          testId="frame-succeeded"
          actions={
            <>
              <MobileButton to="/slots/lobby">{t('frame.toGames')}</MobileButton>
              <MobileButton to="/profile/history" color="secondary">
                {t('frame.history')}
              </MobileButton>
            </>
          }
        >
          <p>
            <Interpolated text={t('frame.succeededText', { amount: '\u0000' })} value={amountOf()} />
          </p>
          <NewBalance />
          <DepositBonusGranted />
        </Result>
      ) : (
        <Result
          tone="bad"
          title={t(`frame.${status ?? 'failed'}`)}
          testId="frame-failed"
          actions={
            <>
              <MobileButton to={back}>{t('frame.tryAgain')}</MobileButton>
              <MobileButton to="/profile" color="secondary">
                {t('frame.toProfile')}
              </MobileButton>
            </>
          }
        >
          <p>{t(`frame.${status ?? 'failed'}Text`)}</p>
        </Result>
      );
  } else {
    const ok = status === 'succeeded';
    const tone = !final ? 'wait' : ok ? 'ok' : 'bad';
    const name = !final ? (status === 'review' ? 'withdrawalReview' : 'withdrawalPending') : ok ? 'withdrawalSucceeded' : 'withdrawalFailed';
    body = (
      <Result
        tone={tone}
        title={t(`frame.${name}`)}
        testId={`frame-${name}`}
        actions={
          <>
            <MobileButton to="/profile/history">{t('frame.history')}</MobileButton>
            <MobileButton to="/profile" color="secondary">
              {t('frame.toProfile')}
            </MobileButton>
          </>
        }
      >
        <p>
          <Interpolated text={t(`frame.${name}Text`, { amount: '\u0000' })} value={amountOf()} />
        </p>
        <NewBalance />
      </Result>
    );
  }

  return (
    <Page>
      {head}
      {body}
      {id !== null ? (
        <p className={css.small}>
          {t('frame.reference', { id: String(id) })}
          {status && !final ? ` · ${t(`status.${status}`)}` : ''}
        </p>
      ) : null}
    </Page>
  );
}

/** A translated sentence with a component (the amount) where `{{amount}}` was. */
function Interpolated({ text, value }: { text: string; value: React.ReactNode }) {
  const [before, after = ''] = text.split('\u0000');
  return (
    <>
      {before}
      {value}
      {after}
    </>
  );
}

function NewBalance() {
  const { t } = useTranslation('payments');
  const balance = useAppSelector((s) => s.auth.balance);
  if (!balance) return null;
  return (
    <List as="dl">
      <ValueRow label={t('frame.newBalance')} valueTestId="frame-balance">
        <Money amount={balance.balance} currency={balance.currency} />
      </ValueRow>
    </List>
  );
}

const TONES = { ok: 'success', bad: 'danger', wait: 'attention' } as const;

/** How the payment ended (or stands): a badge for its tone, the title, the words, what to do next. */
function Result({
  tone,
  title,
  testId,
  actions,
  children,
}: {
  tone: 'ok' | 'bad' | 'wait';
  title: string;
  testId: string;
  actions: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <EmptyState
      icon={tone === 'ok' ? '✓' : tone === 'bad' ? '✕' : '…'}
      tone={TONES[tone]}
      title={title}
      data-testid={testId}
      actions={actions}
      live
    >
      {children}
    </EmptyState>
  );
}
