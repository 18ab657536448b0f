import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../../../app/errors';
import { NETWORK_ERROR } from '../../../api/envelope';
import { Money } from '../../../components/Money';
import { Card } from '../../../components/Page';
import { formatMinorMoney } from '../../../components/money';
import { consoleApi, newKey, type AdjustReply, type PlayerRow } from '../../api';
import { isolate, minorToDecimal, parseAmount, playerName, utf8Length } from '../../logic';
import { Button, Dialog, Notice, SelectRow, TextRow, useErrorText } from '../../ui';
import css from '../pages.module.css';

const KINDS = ['real', 'bonus', 'free_bet', 'cashback', 'weekly_cashback', 'points'] as const;

/**
 * A manual adjustment (admin, finance): credit or debit a balance with a reason, confirmed in a
 * dialog. Above the four-eyes amount the server files a request instead of posting (`pending`):
 * the form says which happened. One idempotency key per adjustment, kept across a retry of
 * the same one (a network failure), new once the form changes or the server answered.
 */
export function AdjustForm({ player }: { player: PlayerRow }) {
  const { t, i18n } = useTranslation('console');
  const message = useErrorText();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [kind, setKind] = useState<string>('real');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(newKey);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<AdjustReply | null>(null);
  const [adjust, adjusting] = consoleApi.useAdjustMutation();

  const currency = player.currency;
  const minor = parseAmount(amount, currency);
  const signed = minor === null ? null : direction === 'debit' ? -minor : minor;
  const reasonOk = reason.trim().length > 0 && utf8Length(reason.trim()) <= 500;
  const amountError = amount.trim() && minor === null ? t('adjust.badAmount', { currency }) : null;
  const why = minor === null ? t('adjust.needAmount') : !reasonOk ? t('reason.required') : null;

  /** Anything changed: another adjustment, another key. */
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setKey(newKey());
    setResult(null);
    setError(null);
  };

  const send = async () => {
    if (signed === null) return;
    setError(null);
    const res = await adjust({ userId: player.id, kind, amount: minorToDecimal(signed, currency), reason: reason.trim(), idempotencyKey: key });
    setConfirming(false);
    if (res.error) {
      // A lost answer may have posted: the retry with this key answers what happened.
      if (isApiError(res.error) && res.error.code === NETWORK_ERROR) setError(`${message(res.error)} ${t('adjust.retrySafe')}`);
      else {
        setError(message(res.error));
        setKey(newKey());
      }
      return;
    }
    setResult(res.data);
    setAmount('');
    setReason('');
    setKey(newKey());
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!why) setConfirming(true);
  };

  const shown = signed === null ? '' : formatMinorMoney(signed, currency, i18n.language);
  const kindLabel = t(`kind.${kind}`, { defaultValue: kind });

  return (
    <Card title={t('adjust.title')} lead={t('adjust.lead')} data-testid="adjust-card">
      <form className={css.formGrid} onSubmit={submit} noValidate>
        <fieldset className={css.segmented}>
          <legend className={css.srOnly}>{t('adjust.direction')}</legend>
          {(['credit', 'debit'] as const).map((d) => (
            <label key={d} className={direction === d ? css.segmentOn : css.segment}>
              <input type="radio" name="direction" value={d} checked={direction === d} onChange={() => edit(setDirection)(d)} data-testid={`adjust-${d}`} />
              {t(`adjust.${d}`)}
            </label>
          ))}
        </fieldset>
        <SelectRow
          label={t('adjust.kind')}
          value={kind}
          onChange={(e) => edit(setKind)(e.target.value)}
          options={KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          data-testid="adjust-kind"
        />
        <TextRow
          label={t('adjust.amount', { currency })}
          hint={t('adjust.amountHint')}
          error={amountError}
          value={amount}
          onChange={(e) => edit(setAmount)(e.target.value)}
          inputMode="decimal"
          dir="ltr"
          autoComplete="off"
          data-testid="adjust-amount"
        />
        <TextRow label={t('adjust.reason')} value={reason} onChange={(e) => edit(setReason)(e.target.value)} maxLength={500} data-testid="adjust-reason" />
        <div className={css.formActions}>
          <Button tone="primary" type="submit" disabledReason={why} busy={adjusting.isLoading} data-testid="adjust-submit">
            {direction === 'credit' ? t('adjust.submitCredit') : t('adjust.submitDebit')}
          </Button>
        </div>
      </form>
      {error ? (
        <Notice tone="error" testId="adjust-error">
          {error}
        </Notice>
      ) : null}
      {result?.status === 'done' ? (
        <Notice tone="ok" testId="adjust-done">
          {t('adjust.done', { kind: t(`kind.${result.kind}`, { defaultValue: result.kind }) })}{' '}
          {result.balance !== null && result.balance !== undefined ? (
            <>
              {t('adjust.balanceNow')} <Money amount={result.balance} currency={result.currency} />
            </>
          ) : null}
        </Notice>
      ) : null}
      {result?.status === 'pending' ? (
        <Notice tone="warn" testId="adjust-pending">
          {t('adjust.pending', { id: result.request?.id ?? '?' })} <Link to="/adjustments?status=pending">{t('adjust.openRequests')}</Link>
        </Notice>
      ) : null}
      {confirming ? (
        <Dialog title={t('adjust.confirmTitle')} onClose={() => setConfirming(false)} testId="adjust-dialog">
          <div className={css.formGrid}>
            <p className={css.confirmLine}>
              {t(direction === 'credit' ? 'adjust.confirmCredit' : 'adjust.confirmDebit', { name: isolate(playerName(player)), id: player.id, kind: kindLabel })}
            </p>
            <p className={css.confirmAmount} dir="ltr">
              {shown}
            </p>
            <p className={css.muted}>
              {t('adjust.reason')}: {reason.trim()}
            </p>
            <div className={css.formActions}>
              <Button tone="ghost" onClick={() => setConfirming(false)}>
                {t('action.cancel')}
              </Button>
              <Button tone="primary" busy={adjusting.isLoading} onClick={() => void send()} data-testid="adjust-confirm">
                {t('adjust.confirm')}
              </Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </Card>
  );
}
