import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import type { ApiError } from '../../../api/types';
import { selectFullBalance } from '../../../app/authSlice';
import { useNotify } from '../../../app/notify';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { DatePicker } from '../../../components/DatePicker';
import { isoDay, monthAgo } from '../../../components/dates';
import { Field, SelectField } from '../../../components/Field';
import { Money } from '../../../components/Money';
import { MobileButton } from '../../../components/MobileButton';
import { Actions, Card, EmptyState, List, ListRow, Muted, Page, PageHeader } from '../../../components/Page';
import { Paginator } from '../../../components/Paginator';
import { PopupModal } from '../../../components/PopupModal';
import { SpinnerOverlay } from '../../../components/Spinner';
import { currencyDecimals, formatMoney } from '../../../components/money';
import { addNotification } from '../../../app/notificationsSlice';
import { cashierApi, type CashierWithdrawal } from '../api';
import { checkAmount, groupCode, historySearch, STATUS_FILTERS, statusKey, withdrawalLimits, type StatusFilter } from '../logic';
import { wagerLeft, withdrawalRefusal } from '../refusal';
import css from '../Cashier.module.css';

const NS = ['cashier', 'common'] as const;
const FORM = 'cashier-withdrawal';
/** While a request is pending, its status is asked again this often (a desk pays it, the player sees it). */
export const PENDING_POLL_MS = 5000;

/**
 * /profile/withdrawal: a cashier withdrawal (cashier list, amount, request), its code, and the
 * history with cancel; a pending request's status follows the desk without a reload.
 */
export default function WithdrawalPage({
  bonusSection: BonusSection,
}: {
  /** The open bonus and its give-up (features/promotions), given by the router: shown before the player confirms. */
  bonusSection?: React.ComponentType<{ onGivenUp?: () => void }>;
} = {}) {
  const { t, i18n } = useTranslation(NS);
  const notify = useNotify();
  const dispatch = useAppDispatch();
  const balance = useAppSelector(selectFullBalance);
  const currency = balance?.currency ?? 'TND';
  const { data: settings } = api.useSettingsQuery();
  const limits = withdrawalLimits(settings);
  const { data: cashiers, isError: cashiersFailed } = cashierApi.useCashiersQuery();
  const [cashierId, setCashierId] = useState('');
  const [amount, setAmount] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [created, setCreated] = useState<CashierWithdrawal | null>(null);
  const [filter, setFilter] = useState<StatusFilter>('all');
  const [from, setFrom] = useState(() => monthAgo());
  const [to, setTo] = useState(() => new Date());
  const [page, setPage] = useState(0);
  const [cancelling, setCancelling] = useState<CashierWithdrawal | null>(null);
  const [request, { isLoading: sending }] = cashierApi.useRequestWithdrawalMutation();
  const [cancel, { isLoading: cancelBusy }] = cashierApi.useCancelWithdrawalMutation();
  const [pending, setPending] = useState(false);
  const { data: history, isFetching } = cashierApi.useWithdrawalHistoryQuery(
    historySearch({ page, statuses: filter, dateFrom: isoDay(from), dateTo: isoDay(to) }),
    { pollingInterval: pending ? PENDING_POLL_MS : 0, skipPollingIfUnfocused: true },
  );
  const anyPending = history?.items.some((w) => w.status === 'CREATED') ?? false;
  useEffect(() => setPending(anyPending), [anyPending]);
  const [wager, setWager] = useState<{ amount: number; currency: string } | null>(null);
  // An amount inside a sentence, isolated so that it stays in one piece in Arabic.
  const money = (major: number | undefined) => (major === undefined ? '' : `\u2068${formatMoney(major, currency, i18n.language)}\u2069`);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const check = checkAmount(amount, currencyDecimals(currency), limits.min, limits.max);
    if (!check.ok) {
      setFieldError(t(`amountError.${check.reason}`, { min: money(limits.min), max: money(limits.max) }));
      return;
    }
    setFieldError(undefined);
    const res = await request(cashierId ? { amount: check.value, cashier_id: Number(cashierId) } : { amount: check.value });
    if (res.error) {
      const error = res.error as ApiError;
      // Amounts in refusals carry the currency (6252: the amount still to wager, also shown on the page).
      const left = wagerLeft(error);
      setWager(left ? { amount: left.amount, currency: left.currency ?? currency } : null);
      const { key, params } = withdrawalRefusal(error, currency, i18n.language);
      dispatch(addNotification({ text: key, type: 'error', form: FORM, key: `${FORM}|${error.code}`, ...(params ? { params } : {}) }));
      return;
    }
    setWager(null);
    setCreated(res.data);
    setAmount('');
    setPage(0);
    notify.formSuccess(FORM, 'cashier:requestSent');
  };

  const confirmCancel = async () => {
    if (!cancelling) return;
    const res = await cancel(cancelling.id);
    setCancelling(null);
    if (res.error) notify.error(res.error as ApiError);
    else {
      if (created?.id === res.data.id) setCreated(null);
      notify.success('cashier:cancelled');
    }
  };

  return (
    <Page>
      <PageHeader title={t('title')} back={<BackButton fallback="/profile" />} />

      {wager && (
        <section className={css.wager} data-testid="wager-left" aria-live="polite">
          <span>{t('wager.title')}</span>
          <strong>
            <Money amount={wager.amount} currency={wager.currency} />
          </strong>
          <span>{t('wager.text')}</span>
        </section>
      )}

      {BonusSection && (
        <Suspense fallback={null}>
          <BonusSection onGivenUp={() => setWager(null)} />
        </Suspense>
      )}

      <Card as="form" onSubmit={(e) => void submit(e)} noValidate data-testid="withdrawal-form">
        {balance && (
          <Muted>
            {t('available')} <Money amount={balance.balance} currency={balance.currency} />
          </Muted>
        )}
        <SelectField
          label={t('cashier')}
          id="cashier-select"
          value={cashierId}
          onChange={setCashierId}
          options={[{ value: '', label: t('anyCashier') }, ...(cashiers ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
          hint={cashiersFailed ? t('cashiersFailed') : undefined}
          data-testid="cashier-select"
        />
        <Field
          label={t('amount', { currency })}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(v) => {
            setAmount(v);
            setFieldError(undefined);
          }}
          error={fieldError}
          hint={limits.min !== undefined ? t('limits', { min: money(limits.min), max: limits.max !== undefined ? money(limits.max) : '—' }) : undefined}
          data-testid="withdrawal-amount"
        />
        <MobileButton type="submit" block disabled={sending} data-testid="withdrawal-submit">
          {t('submit')}
        </MobileButton>
        <Muted>{t('howItWorks')}</Muted>
      </Card>

      {created && created.code && (
        <section className={css.codeCard} data-testid="withdrawal-code-card" aria-live="polite">
          <Muted as="span">{t('yourCode')}</Muted>
          <strong className={css.code} data-testid="withdrawal-code" dir="ltr">
            {groupCode(created.code)}
          </strong>
          <Muted as="span">
            <Money amount={created.amount} currency={created.currency} /> · {t('codeHint')}
          </Muted>
        </section>
      )}

      <Card title={t('history')} titleId="withdrawal-history-title">
        <div className={css.period}>
          <DatePicker label={t('from')} value={from} max={to} onChange={(d) => (setFrom(d), setPage(0))} />
          <DatePicker label={t('to')} value={to} min={from} onChange={(d) => (setTo(d), setPage(0))} />
        </div>
        <div className={css.filters} role="group" aria-label={t('filter')}>
          {STATUS_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className={`${css.chip} ${filter === f ? css.chipOn : ''}`}
              aria-pressed={filter === f}
              onClick={() => {
                setFilter(f);
                setPage(0);
              }}
            >
              {t(`filters.${f}`)}
            </button>
          ))}
        </div>
        {isFetching && !history && <SpinnerOverlay />}
        {history && history.items.length === 0 && (
          <EmptyState>
            <p>{t('empty')}</p>
          </EmptyState>
        )}
        {history && history.items.length > 0 && (
          <List data-testid="withdrawal-history">
            {history.items.map((w) => (
              <ListRow key={w.id} data-testid="withdrawal-item" data-status={w.status}>
                <div className={css.itemTop}>
                  <Money amount={w.amount} currency={w.currency} className={css.amount} />
                  <span className={`${css.status} ${css[`status_${statusKey(w.status)}`]}`} data-testid="withdrawal-status">
                    {t(`status.${statusKey(w.status)}`)}
                  </span>
                </div>
                <Muted as="span">
                  <time dateTime={w.date}>{new Date(w.date).toLocaleString(`${i18n.language}-u-nu-latn`)}</time>
                  {w.cashier && (
                    <>
                      {' · '}
                      <bdi>{w.cashier}</bdi>
                    </>
                  )}
                </Muted>
                {w.code && (
                  <span className={css.itemCode}>
                    {t('code')}{' '}
                    <bdi dir="ltr" data-testid="withdrawal-item-code">
                      {groupCode(w.code)}
                    </bdi>
                  </span>
                )}
                {w.status === 'CREATED' && (
                  <MobileButton color="secondary" className={css.cancel} onClick={() => setCancelling(w)} data-testid="withdrawal-cancel">
                    {t('cancel')}
                  </MobileButton>
                )}
              </ListRow>
            ))}
          </List>
        )}
        {history && <Paginator page={page + 1} pages={Math.max(history.pages, 1)} onChange={(p) => setPage(p - 1)} />}
      </Card>

      {cancelling && (
        <PopupModal title={t('cancelTitle')} onClose={() => setCancelling(null)}>
          {cancelBusy && <SpinnerOverlay />}
          <Muted>
            {t('cancelConfirm')} <Money amount={cancelling.amount} currency={cancelling.currency} />
          </Muted>
          <Actions className={css.modalActions}>
            <MobileButton color="danger" onClick={() => void confirmCancel()} disabled={cancelBusy} data-testid="withdrawal-cancel-confirm">
              {t('cancelYes')}
            </MobileButton>
            <MobileButton color="secondary" onClick={() => setCancelling(null)}>
              {t('keep')}
            </MobileButton>
          </Actions>
        </PopupModal>
      )}
    </Page>
  );
}
