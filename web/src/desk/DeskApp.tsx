import { useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/types';
import { errorText } from '../app/errors';
import { LANGUAGES, type LanguageCode } from '../app/i18n';
import { Money } from '../components/Money';
import { Card, FormRow, List, ListRow, Muted, PageHeader, ValueRow } from '../components/Page';
import { currencyDecimals } from '../components/money';
import { deskApi, newKey, type DeskMe, type DeskPayout, type DeskPlayer } from './api';
import { switchDeskLanguage } from './i18n';
import { cleanCode, isoDay, parseAmount, tabsFor, type DeskTab } from './logic';
import css from './desk.module.css';

/** A labelled text, number or date field of the desk (the shared form row around a desk input). */
function InputRow({ label, rowClassName, ...input }: { label: string; rowClassName?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FormRow label={label} className={rowClassName}>
      {(c) => <input id={c.id} aria-describedby={c.describedBy} className={css.input} {...input} />}
    </FormRow>
  );
}

/** A refusal's translated message (the app's error catalogue). */
function useErrorMessage() {
  const { t } = useTranslation(['desk', 'errors']);
  return (e: unknown) => {
    const { key, params } = errorText(e as ApiError);
    return t(key, params ?? {});
  };
}

type Note = { kind: 'ok' | 'error'; text: string } | null;

function Notice({ note }: { note: Note }) {
  if (!note) return null;
  return (
    <p className={note.kind === 'ok' ? css.ok : css.error} role={note.kind === 'ok' ? 'status' : 'alert'} data-testid={`desk-${note.kind}`}>
      {note.text}
    </p>
  );
}

function LanguagePicker() {
  const { t, i18n } = useTranslation('desk');
  return (
    <select
      className={css.lang}
      aria-label={t('language')}
      value={i18n.language}
      onChange={(e) => void switchDeskLanguage(e.target.value as LanguageCode)}
      data-testid="desk-lang"
    >
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code}>
          {l.label}
        </option>
      ))}
    </select>
  );
}

function SignIn() {
  const { t } = useTranslation('desk');
  const message = useErrorMessage();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [note, setNote] = useState<Note>(null);
  const [signIn, { isLoading }] = deskApi.useLoginMutation();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const res = await signIn({ login: login.trim(), password });
    setNote(res.error ? { kind: 'error', text: message(res.error) } : null);
  };
  return (
    <Card as="form" onSubmit={(e) => void submit(e)} data-testid="desk-signin">
      <PageHeader title={t('signInTitle')} lead={t('signInHint')} />
      <InputRow
        label={t('login')}
        value={login}
        onChange={(e) => setLogin(e.target.value)}
        autoComplete="username"
        name="login"
        dir="ltr"
      />
      <InputRow
        label={t('password')}
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        name="password"
        dir="ltr"
      />
      <button className={css.primary} type="submit" disabled={isLoading || !login || !password}>
        {t('signIn')}
      </button>
      <Notice note={note} />
    </Card>
  );
}

function DepositPanel({ me }: { me: DeskMe }) {
  const { t } = useTranslation('desk');
  const message = useErrorMessage();
  const [query, setQuery] = useState('');
  const [player, setPlayer] = useState<DeskPlayer | null>(null);
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newKey);
  const [note, setNote] = useState<Note>(null);
  const [find, { isFetching }] = deskApi.useLazyPlayerQuery();
  const [deposit, { isLoading }] = deskApi.useDepositMutation();

  const search = async (e: React.FormEvent) => {
    e.preventDefault();
    setPlayer(null);
    const res = await find(query.trim());
    if (res.error || !res.data) setNote({ kind: 'error', text: message(res.error) });
    else {
      setPlayer(res.data);
      setNote(null);
    }
  };
  const pay = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!player) return;
    const value = parseAmount(amount, currencyDecimals(me.currency));
    if (value === null) {
      setNote({ kind: 'error', text: t('badAmount') });
      return;
    }
    const res = await deposit({ player_id: player.id, amount: value, key });
    if (res.error) {
      setNote({ kind: 'error', text: message(res.error) });
      return;
    }
    // Done: the next deposit gets a new key (a retry of this one kept the same).
    setKey(newKey());
    setAmount('');
    setNote({ kind: 'ok', text: t('deposited', { amount: `${res.data.amount} ${me.currency}`, player: player.id }) });
  };

  return (
    <Card title={t('tabs.deposit')} titleId="desk-deposit-title">
      <form className={css.row} onSubmit={(e) => void search(e)}>
        <InputRow
          label={t('findPlaceholder')}
          rowClassName={css.grow}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          inputMode="numeric"
          dir="ltr"
          data-testid="desk-find"
        />
        <button className={css.secondary} type="submit" disabled={isFetching || !query.trim()}>
          {t('find')}
        </button>
      </form>
      {player && (
        <Card as="form" inset onSubmit={(e) => void pay(e)} data-testid="desk-player">
          <strong>
            #{player.id} · {[player.first_name, player.last_name].filter(Boolean).join(' ') || player.login}
          </strong>
          <Muted as="span" dir="ltr">
            {player.phone ?? player.login}
          </Muted>
          <InputRow
            label={t('amount', { currency: me.currency })}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            inputMode="decimal"
            dir="ltr"
            data-testid="desk-deposit-amount"
          />
          <button className={css.primary} type="submit" disabled={isLoading || !amount} data-testid="desk-deposit-submit">
            {t('depositCash')}
          </button>
        </Card>
      )}
      <Notice note={note} />
    </Card>
  );
}

function PayoutPanel({ me }: { me: DeskMe }) {
  const { t } = useTranslation('desk');
  const message = useErrorMessage();
  const [code, setCode] = useState('');
  const [paid, setPaid] = useState<DeskPayout | null>(null);
  const [note, setNote] = useState<Note>(null);
  const [payout, { isLoading }] = deskApi.usePayoutMutation();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setPaid(null);
    const clean = cleanCode(code);
    if (!clean) {
      setNote({ kind: 'error', text: t('badCode') });
      return;
    }
    const res = await payout(clean);
    if (res.error) setNote({ kind: 'error', text: message(res.error) });
    else {
      setPaid(res.data);
      setCode('');
      setNote(null);
    }
  };
  return (
    <Card title={t('tabs.payout')} titleId="desk-payout-title" lead={t('payoutHint')}>
      <form className={css.row} onSubmit={(e) => void submit(e)}>
        <input
          className={`${css.input} ${css.codeInput}`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder="0000 0000"
          aria-label={t('code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          dir="ltr"
          data-testid="desk-code"
        />
        <button className={css.primary} type="submit" disabled={isLoading || !code.trim()} data-testid="desk-payout-submit">
          {t('pay')}
        </button>
      </form>
      {paid && (
        <div className={css.paid} role="status" data-testid="desk-paid">
          <span>{t('handOver')}</span>
          <strong className={css.big}>
            <Money amount={paid.amount} currency={paid.currency} />
          </strong>
          <Muted as="span">
            {t('paidRef')} <bdi>#{paid.id}</bdi>
          </Muted>
        </div>
      )}
      <Notice note={note} />
      <Muted as="span">{t('currencyNote', { currency: me.currency })}</Muted>
    </Card>
  );
}

function ReportPanel() {
  const { t } = useTranslation('desk');
  const message = useErrorMessage();
  const today = isoDay(new Date());
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const { data, error, isFetching } = deskApi.useReportQuery({ from, to });
  return (
    <Card title={t('tabs.report')} titleId="desk-report-title">
      <div className={css.row}>
        <InputRow
          label={t('from')}
          rowClassName={css.grow}
          type="date"
          value={from}
          max={to}
          onChange={(e) => setFrom(e.target.value)}
          data-testid="desk-from"
        />
        <InputRow
          label={t('to')}
          rowClassName={css.grow}
          type="date"
          value={to}
          min={from}
          onChange={(e) => setTo(e.target.value)}
          data-testid="desk-to"
        />
      </div>
      {error && <Notice note={{ kind: 'error', text: message(error) }} />}
      {data && (
        <List as="dl" aria-busy={isFetching} data-testid="desk-report">
          <ValueRow label={t('deposits', { count: data.deposits.count })}>
            <Money amount={data.deposits.amount} currency={data.currency} />
          </ValueRow>
          <ValueRow label={t('payouts', { count: data.payouts.count })}>
            <Money amount={data.payouts.amount} currency={data.currency} />
          </ValueRow>
          <ValueRow label={t('net')} valueTestId="desk-net">
            <Money amount={data.net} currency={data.currency} />
          </ValueRow>
          <ValueRow label={t('float')}>
            <Money amount={data.float} currency={data.currency} />
          </ValueRow>
        </List>
      )}
    </Card>
  );
}

function NetworkPanel({ me }: { me: DeskMe }) {
  const { t } = useTranslation('desk');
  const message = useErrorMessage();
  const { data: cashiers } = deskApi.useCashiersQuery();
  const [cashierId, setCashierId] = useState('');
  const [amount, setAmount] = useState('');
  const [direction, setDirection] = useState<'to_cashier' | 'from_cashier'>('to_cashier');
  const [key, setKey] = useState(newKey);
  const [note, setNote] = useState<Note>(null);
  const [move, { isLoading }] = deskApi.useMoveFloatMutation();
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const value = parseAmount(amount, currencyDecimals(me.currency));
    if (value === null || !cashierId) {
      setNote({ kind: 'error', text: t('badAmount') });
      return;
    }
    const res = await move({ cashier_id: Number(cashierId), amount: value, direction, key });
    if (res.error) setNote({ kind: 'error', text: message(res.error) });
    else {
      setKey(newKey());
      setAmount('');
      setNote({ kind: 'ok', text: t('moved') });
    }
  };
  return (
    <Card title={t('tabs.network')} titleId="desk-network-title">
      {cashiers && (
        <List data-testid="desk-cashiers">
          {cashiers.map((c) => (
            <ListRow key={c.id} trailing={<Money amount={c.float} currency={c.currency} />}>
              {c.name}
            </ListRow>
          ))}
          {cashiers.length === 0 && (
            <ListRow>
              <Muted as="span">{t('noCashiers')}</Muted>
            </ListRow>
          )}
        </List>
      )}
      <Card as="form" inset onSubmit={(e) => void submit(e)}>
        <FormRow label={t('cashier')}>
          {(c) => (
            <select
              id={c.id}
              aria-describedby={c.describedBy}
              className={css.input}
              value={cashierId}
              onChange={(e) => setCashierId(e.target.value)}
              data-testid="desk-float-cashier"
            >
              <option value="">—</option>
              {cashiers?.map((k) => (
                <option key={k.id} value={String(k.id)}>
                  {k.name}
                </option>
              ))}
            </select>
          )}
        </FormRow>
        <fieldset className={css.radios}>
          <legend>
            <Muted as="span">{t('direction')}</Muted>
          </legend>
          {(['to_cashier', 'from_cashier'] as const).map((d) => (
            <label key={d}>
              <input type="radio" name="direction" value={d} checked={direction === d} onChange={() => setDirection(d)} /> {t(d)}
            </label>
          ))}
        </fieldset>
        <InputRow
          label={t('amount', { currency: me.currency })}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          inputMode="decimal"
          dir="ltr"
          data-testid="desk-float-amount"
        />
        <button className={css.primary} type="submit" disabled={isLoading} data-testid="desk-float-submit">
          {t('moveFloat')}
        </button>
      </Card>
      <Notice note={note} />
    </Card>
  );
}

/** The cashier desk: sign-in, then deposit, payout, report (and the network for super agents). */
export function DeskApp() {
  const { t } = useTranslation('desk');
  const message = useErrorMessage();
  const { data: me, error, isLoading } = deskApi.useMeQuery();
  const [logout] = deskApi.useLogoutMutation();
  const [tab, setTab] = useState<DeskTab>('deposit');
  const code = (error as ApiError | undefined)?.code;

  return (
    <div className={css.shell}>
      <header className={css.header}>
        <span className={css.brand}>{t('brand')}</span>
        <LanguagePicker />
      </header>
      <main className={css.main}>
        {isLoading && <Muted>{t('loading')}</Muted>}
        {!isLoading && !me && (code === 23 || code === undefined) && <SignIn />}
        {!isLoading && !me && code !== undefined && code !== 23 && (
          <Card data-testid="desk-refused">
            <p className={css.error} role="alert">
              {code === 24 ? t('notStaff') : message(error)}
            </p>
            <button className={css.secondary} type="button" onClick={() => void logout()}>
              {t('signOut')}
            </button>
          </Card>
        )}
        {me && (
          <>
            <section className={css.me} data-testid="desk-me">
              <div>
                <strong>{me.name}</strong>
                <Muted as="span">{t(`role.${me.role}`)}</Muted>
              </div>
              <div className={css.float}>
                <Muted as="span">{t('float')}</Muted>
                <strong data-testid="desk-float">
                  <Money amount={me.float} currency={me.currency} />
                </strong>
              </div>
              <button className={css.link} type="button" onClick={() => void logout()}>
                {t('signOut')}
              </button>
            </section>
            <nav className={css.tabs} aria-label={t('sections')}>
              {tabsFor(me.role).map((k) => (
                <button key={k} type="button" className={`${css.tab} ${tab === k ? css.tabOn : ''}`} aria-pressed={tab === k} onClick={() => setTab(k)} data-testid={`desk-tab-${k}`}>
                  {t(`tabs.${k}`)}
                </button>
              ))}
            </nav>
            {tab === 'deposit' && <DepositPanel me={me} />}
            {tab === 'payout' && <PayoutPanel me={me} />}
            {tab === 'report' && <ReportPanel />}
            {tab === 'network' && me.role === 'super_agent' && <NetworkPanel me={me} />}
          </>
        )}
      </main>
    </div>
  );
}
