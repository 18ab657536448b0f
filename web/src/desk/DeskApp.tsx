import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/types';
import { errorText } from '../app/errors';
import { LANGUAGES, type LanguageCode } from '../app/i18n';
import { Money } from '../components/Money';
import { currencyDecimals } from '../components/money';
import { deskApi, newKey, type DeskMe, type DeskPayout, type DeskPlayer } from './api';
import { switchDeskLanguage } from './i18n';
import { cleanCode, isoDay, parseAmount, tabsFor, type DeskTab } from './logic';
import css from './desk.module.css';

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
    <form className={css.card} onSubmit={(e) => void submit(e)} data-testid="desk-signin">
      <h1 className={css.title}>{t('signInTitle')}</h1>
      <p className={css.muted}>{t('signInHint')}</p>
      <label className={css.field}>
        <span>{t('login')}</span>
        <input className={css.input} value={login} onChange={(e) => setLogin(e.target.value)} autoComplete="username" name="login" dir="ltr" />
      </label>
      <label className={css.field}>
        <span>{t('password')}</span>
        <input
          className={css.input}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
          name="password"
          dir="ltr"
        />
      </label>
      <button className={css.primary} type="submit" disabled={isLoading || !login || !password}>
        {t('signIn')}
      </button>
      <Notice note={note} />
    </form>
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
    <section className={css.card} aria-labelledby="desk-deposit-title">
      <h2 id="desk-deposit-title" className={css.subtitle}>
        {t('tabs.deposit')}
      </h2>
      <form className={css.row} onSubmit={(e) => void search(e)}>
        <label className={css.field}>
          <span>{t('findPlaceholder')}</span>
          <input
            className={css.input}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            inputMode="numeric"
            dir="ltr"
            data-testid="desk-find"
          />
        </label>
        <button className={css.secondary} type="submit" disabled={isFetching || !query.trim()}>
          {t('find')}
        </button>
      </form>
      {player && (
        <form className={css.player} onSubmit={(e) => void pay(e)} data-testid="desk-player">
          <strong>
            #{player.id} · {[player.first_name, player.last_name].filter(Boolean).join(' ') || player.login}
          </strong>
          <span className={css.muted} dir="ltr">
            {player.phone ?? player.login}
          </span>
          <label className={css.field}>
            <span>{t('amount', { currency: me.currency })}</span>
            <input
              className={css.input}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              inputMode="decimal"
              dir="ltr"
              data-testid="desk-deposit-amount"
            />
          </label>
          <button className={css.primary} type="submit" disabled={isLoading || !amount} data-testid="desk-deposit-submit">
            {t('depositCash')}
          </button>
        </form>
      )}
      <Notice note={note} />
    </section>
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
    <section className={css.card} aria-labelledby="desk-payout-title">
      <h2 id="desk-payout-title" className={css.subtitle}>
        {t('tabs.payout')}
      </h2>
      <p className={css.muted}>{t('payoutHint')}</p>
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
          <span className={css.muted}>
            {t('paidRef')} <bdi>#{paid.id}</bdi>
          </span>
        </div>
      )}
      <Notice note={note} />
      <span className={css.muted}>{t('currencyNote', { currency: me.currency })}</span>
    </section>
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
    <section className={css.card} aria-labelledby="desk-report-title">
      <h2 id="desk-report-title" className={css.subtitle}>
        {t('tabs.report')}
      </h2>
      <div className={css.row}>
        <label className={css.field}>
          <span>{t('from')}</span>
          <input className={css.input} type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} data-testid="desk-from" />
        </label>
        <label className={css.field}>
          <span>{t('to')}</span>
          <input className={css.input} type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} data-testid="desk-to" />
        </label>
      </div>
      {error && <Notice note={{ kind: 'error', text: message(error) }} />}
      {data && (
        <dl className={css.report} aria-busy={isFetching} data-testid="desk-report">
          <dt>{t('deposits', { count: data.deposits.count })}</dt>
          <dd>
            <Money amount={data.deposits.amount} currency={data.currency} />
          </dd>
          <dt>{t('payouts', { count: data.payouts.count })}</dt>
          <dd>
            <Money amount={data.payouts.amount} currency={data.currency} />
          </dd>
          <dt>{t('net')}</dt>
          <dd data-testid="desk-net">
            <Money amount={data.net} currency={data.currency} />
          </dd>
          <dt>{t('float')}</dt>
          <dd>
            <Money amount={data.float} currency={data.currency} />
          </dd>
        </dl>
      )}
    </section>
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
    <section className={css.card} aria-labelledby="desk-network-title">
      <h2 id="desk-network-title" className={css.subtitle}>
        {t('tabs.network')}
      </h2>
      <ul className={css.list} data-testid="desk-cashiers">
        {cashiers?.map((c) => (
          <li key={c.id} className={css.listItem}>
            <span>{c.name}</span>
            <Money amount={c.float} currency={c.currency} />
          </li>
        ))}
        {cashiers?.length === 0 && <li className={css.muted}>{t('noCashiers')}</li>}
      </ul>
      <form className={css.player} onSubmit={(e) => void submit(e)}>
        <label className={css.field}>
          <span>{t('cashier')}</span>
          <select className={css.input} value={cashierId} onChange={(e) => setCashierId(e.target.value)} data-testid="desk-float-cashier">
            <option value="">—</option>
            {cashiers?.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <fieldset className={css.radios}>
          <legend className={css.muted}>{t('direction')}</legend>
          {(['to_cashier', 'from_cashier'] as const).map((d) => (
            <label key={d}>
              <input type="radio" name="direction" value={d} checked={direction === d} onChange={() => setDirection(d)} /> {t(d)}
            </label>
          ))}
        </fieldset>
        <label className={css.field}>
          <span>{t('amount', { currency: me.currency })}</span>
          <input className={css.input} value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" dir="ltr" data-testid="desk-float-amount" />
        </label>
        <button className={css.primary} type="submit" disabled={isLoading} data-testid="desk-float-submit">
          {t('moveFloat')}
        </button>
      </form>
      <Notice note={note} />
    </section>
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
        {isLoading && <p className={css.muted}>{t('loading')}</p>}
        {!isLoading && !me && (code === 23 || code === undefined) && <SignIn />}
        {!isLoading && !me && code !== undefined && code !== 23 && (
          <section className={css.card} data-testid="desk-refused">
            <p className={css.error} role="alert">
              {code === 24 ? t('notStaff') : message(error)}
            </p>
            <button className={css.secondary} type="button" onClick={() => void logout()}>
              {t('signOut')}
            </button>
          </section>
        )}
        {me && (
          <>
            <section className={css.me} data-testid="desk-me">
              <div>
                <strong>{me.name}</strong>
                <span className={css.muted}>{t(`role.${me.role}`)}</span>
              </div>
              <div className={css.float}>
                <span className={css.muted}>{t('float')}</span>
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
