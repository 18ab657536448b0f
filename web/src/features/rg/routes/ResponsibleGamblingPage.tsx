import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../../app/session';
import { useNotify } from '../../../app/notify';
import { useAppDispatch } from '../../../app/store';
import type { ApiError } from '../../../api/types';
import { BackButton } from '../../../components/BackButton';
import { Field, SelectField } from '../../../components/Field';
import { MobileButton } from '../../../components/MobileButton';
import { formatMoney } from '../../../components/money';
import { Actions, Card, Muted, Page, PageHeader } from '../../../components/Page';
import { PasswordInput } from '../../../components/PasswordInput';
import { PopupModal } from '../../../components/PopupModal';
import { SpinnerOverlay } from '../../../components/Spinner';
import {
  COOL_OFF_PERIODS,
  EXCLUSION_PERIODS,
  isolate,
  parseLimit,
  PERIODS,
  REALITY_CHECK_MINUTES,
  rgApi,
  type CoolOffPeriod,
  type ExclusionPeriod,
  type LimitPeriod,
  type RgState,
} from '../api';
import css from '../Rg.module.css';

const NS = ['rg', 'common', 'account'] as const;
/** The confirmation's button takes taps only after this long: a tap meant for the button that
 * opened the dialog can never land on it. */
export const CONFIRM_ARM_MS = 800;

type Pending = { kind: 'coolOff'; period: CoolOffPeriod } | { kind: 'exclusion'; period: ExclusionPeriod };

function useDate() {
  const { i18n } = useTranslation();
  return (iso: string) => isolate(new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)));
}

export default function ResponsibleGamblingPage() {
  const { t } = useTranslation(NS);
  const { data, isLoading } = rgApi.useRgStateQuery();
  return (
    <Page>
      <PageHeader title={t('title')} lead={t('intro')} back={<BackButton fallback="/profile" />} />
      {isLoading || !data ? (
        <SpinnerOverlay />
      ) : (
        <>
          <LimitsSection state={data} />
          <BreakSection />
          <RealityCheckSection minutes={data.reality_check_minutes} />
        </>
      )}
    </Page>
  );
}

function LimitsSection({ state }: { state: RgState }) {
  const { t } = useTranslation(NS);
  const notify = useNotify();
  const date = useDate();
  const { i18n } = useTranslation();
  const money = (amount: number, currency: string) => isolate(formatMoney(amount, currency, i18n.language));
  const [save, { isLoading }] = rgApi.useSetDepositLimitsMutation();
  const initial = () =>
    Object.fromEntries(PERIODS.map((p) => [p, state.deposit_limits[p]?.amount?.toString() ?? ''])) as Record<LimitPeriod, string>;
  const [values, setValues] = useState(initial);
  const [invalid, setInvalid] = useState<LimitPeriod[]>([]);
  // A pending change applied, or another tab saved: show what is in force.
  const key = JSON.stringify(state.deposit_limits);
  useEffect(() => setValues(initial()), [key]); // eslint-disable-line react-hooks/exhaustive-deps

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = PERIODS.map((p) => [p, parseLimit(values[p])] as const);
    const bad = parsed.filter(([, v]) => v === undefined).map(([p]) => p);
    setInvalid(bad);
    if (bad.length > 0) return;
    const res = await save(Object.fromEntries(parsed));
    if (res.error) notify.error(res.error as ApiError, undefined, 'rgLimits');
    else notify.formSuccess('rgLimits', 'rg:limits.saved');
  };

  return (
    <Card title={t('limits.title')} titleId="rg-limits" lead={t('limits.hint', { hours: state.raise_delay_hours })}>
      <form onSubmit={submit} noValidate className={css.form}>
        {isLoading && <SpinnerOverlay />}
        {PERIODS.map((p) => {
          const limit = state.deposit_limits[p];
          const pending = limit?.pending_from
            ? limit.pending_amount !== null && limit.pending_amount !== undefined
              ? t('limits.pending', { amount: money(limit.pending_amount, state.currency), date: date(limit.pending_from) })
              : t('limits.pendingRemoval', { date: date(limit.pending_from) })
            : null;
          return (
            <div key={p} className={css.limit} data-testid={`rg-limit-${p}`}>
              <Field
                label={t(`limits.${p}`)}
                name={p}
                inputMode="decimal"
                placeholder={t('limits.placeholder')}
                value={values[p]}
                onChange={(v) => {
                  setValues((s) => ({ ...s, [p]: v }));
                  setInvalid((s) => s.filter((x) => x !== p));
                }}
                addon={<span className={css.currency}>{state.currency}</span>}
                error={invalid.includes(p) ? t('limits.invalid') : undefined}
                hint={t('limits.used', { amount: money(state.used[p], state.currency) })}
              />
              {pending && (
                <p className={css.pending} data-testid={`rg-pending-${p}`}>
                  {pending}
                </p>
              )}
            </div>
          );
        })}
        <MobileButton type="submit" block disabled={isLoading}>
          {t('limits.save')}
        </MobileButton>
      </form>
    </Card>
  );
}


function BreakSection() {
  const { t } = useTranslation(NS);
  const [coolOff, setCoolOff] = useState<CoolOffPeriod>('24h');
  const [exclusion, setExclusion] = useState<ExclusionPeriod>('6m');
  const [pending, setPending] = useState<Pending | null>(null);
  return (
    <Card title={t('break.title')} titleId="rg-break" lead={t('break.hint')}>
      <fieldset className={css.choices}>
        <legend className={css.legend}>{t('break.coolOff')}</legend>
        <div className={css.options}>
          {COOL_OFF_PERIODS.map((p) => (
            <label key={p} className={css.option}>
              <input type="radio" name="coolOff" value={p} checked={coolOff === p} onChange={() => setCoolOff(p)} />
              <span>{t(`break.${p}`)}</span>
            </label>
          ))}
        </div>
        <MobileButton color="secondary" block onClick={() => setPending({ kind: 'coolOff', period: coolOff })} data-testid="rg-cool-off">
          {t('break.takeCoolOff')}
        </MobileButton>
      </fieldset>
      <fieldset className={css.choices}>
        <legend className={css.legend}>{t('break.selfExclusion')}</legend>
        <Muted>{t('break.exclusionHint')}</Muted>
        <div className={css.options}>
          {EXCLUSION_PERIODS.map((p) => (
            <label key={p} className={css.option}>
              <input type="radio" name="exclusion" value={p} checked={exclusion === p} onChange={() => setExclusion(p)} />
              <span>{t(`break.${p}`)}</span>
            </label>
          ))}
        </div>
        <MobileButton color="danger" block onClick={() => setPending({ kind: 'exclusion', period: exclusion })} data-testid="rg-exclude">
          {t('break.exclude')}
        </MobileButton>
      </fieldset>
      {pending && <ConfirmBreak pending={pending} onClose={() => setPending(null)} />}
    </Card>
  );
}

/**
 * The confirmation of a break. Its buttons never change label or place: "keep playing"
 * closes, "start my break" (armed after CONFIRM_ARM_MS, and for a self-exclusion only with a
 * password typed) starts it. On success the player is signed out at once.
 */
export function ConfirmBreak({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const { t } = useTranslation(NS);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const notify = useNotify();
  const date = useDate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [armed, setArmed] = useState(false);
  const [coolOff, coolState] = rgApi.useCoolOffMutation();
  const [exclude, excludeState] = rgApi.useSelfExcludeMutation();
  const busy = coolState.isLoading || excludeState.isLoading;
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), CONFIRM_ARM_MS);
    return () => clearTimeout(timer);
  }, []);

  const period = t(`break.${pending.period}`);
  const text =
    pending.kind === 'coolOff'
      ? t('break.confirmCoolOff', { period })
      : pending.period === 'permanent'
        ? t('break.confirmPermanent')
        : t('break.confirmExclusion', { period });
  const needsPassword = pending.kind === 'exclusion';

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!armed || busy || (needsPassword && password === '')) return;
    const res =
      pending.kind === 'coolOff' ? await coolOff({ period: pending.period }) : await exclude({ period: pending.period, password });
    if (res.error) {
      const err = res.error as ApiError;
      if (err.code === 4) setError(t('errors:4'));
      else notify.error(err, undefined, 'rgBreak');
      return;
    }
    // Every session has ended on the server: leave quietly, then say until when.
    await logout(dispatch, true);
    if (res.data.until) notify.success('rg:break.started', { date: date(res.data.until) });
    else notify.success('rg:break.startedPermanent');
    onClose();
    navigate('/', { replace: true });
  };

  return (
    <PopupModal title={t('break.confirmTitle')} onClose={onClose}>
      <form onSubmit={confirm} className={css.confirm} noValidate data-testid="rg-confirm">
        {busy && <SpinnerOverlay />}
        <p>{text}</p>
        <p className={css.warning}>{t('break.irreversible')}</p>
        {needsPassword && (
          <PasswordInput
            label={t('break.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(v) => {
              setPassword(v);
              setError(undefined);
            }}
            error={error}
          />
        )}
        <Actions>
          <MobileButton color="secondary" onClick={onClose}>
            {t('break.cancel')}
          </MobileButton>
          <MobileButton type="submit" color="danger" disabled={!armed || busy || (needsPassword && password === '')} data-testid="rg-confirm-break">
            {t('break.confirm')}
          </MobileButton>
        </Actions>
      </form>
    </PopupModal>
  );
}

function RealityCheckSection({ minutes }: { minutes: number }) {
  const { t } = useTranslation(NS);
  const notify = useNotify();
  const [save, { isLoading }] = rgApi.useSetRealityCheckMutation();
  const change = async (value: number) => {
    const res = await save({ minutes: value });
    if (res.error) notify.error(res.error as ApiError, undefined, 'rgReality');
    else notify.formSuccess('rgReality', 'rg:reality.saved');
  };
  return (
    <Card title={t('reality.title')} titleId="rg-reality" lead={t('reality.hint')}>
      <SelectField
        label={t('reality.interval')}
        name="minutes"
        value={String(minutes)}
        disabled={isLoading}
        onChange={(v) => void change(Number(v))}
        options={REALITY_CHECK_MINUTES.map((m) => ({ value: String(m), label: m === 0 ? t('reality.off') : t('reality.every', { count: m }) }))}
      />
    </Card>
  );
}
