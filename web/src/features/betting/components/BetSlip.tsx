import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { errorText, isApiError } from '../../../app/errors';
import { addNotification } from '../../../app/notificationsSlice';
import { selectFullBalance } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Money } from '../../../components/Money';
import { currencyDecimals, formatMinorMoney, moneyText } from '../../../components/money';
import { bettingApi, newIdempotencyKey, type Bet } from '../api';
import { formatOdds, parseStake, potentialPayout, stakeForRequest, stakeLimits, stakePresets, toMajor, toThousandths, totalOdds } from '../odds';
import { selectionOpen } from '../live';
import { changesOf, POLICIES, selectSlip, slipActions, useSlipReducer } from '../slipSlice';
import { BONUS_MIN_ODDS, FREE_BET_MIN_ODDS, freeBetChoices, freeBetWinnings, fundingBlock, majorToMinor, type Funding, type FundingBlock } from '../funding';
import css from '../Betting.module.css';

/** The bet slip: a bar above the bottom menu (count, total odds) that opens into a drawer. */
export function BetSlip() {
  const { t, i18n } = useTranslation(['betting', 'errors', 'common']);
  const dispatch = useAppDispatch();
  useSlipReducer();
  const slip = useAppSelector(selectSlip);
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const balanceCurrency = useAppSelector((s) => s.auth.balance?.currency);
  const settings = api.useSettingsQuery().data;
  const currency = balanceCurrency ?? settings?.defaultCurrency ?? 'TND';
  const decimals = currencyDecimals(currency);
  const [open, setOpen] = useState(false);
  const [placed, setPlaced] = useState<Bet | null>(null);
  const [place, { isLoading, error, reset }] = bettingApi.usePlaceBetMutation();
  // Which selections are suspended now (from the live cache): a string, so the selector is stable.
  const closed = useAppSelector((s) => slip.selections.map((x) => (selectionOpen(s, x) === false ? '1' : '0')).join(''));

  // Funding (funding.ts): a free bet or the sport bonus when the player has one.
  const full = useAppSelector(selectFullBalance);
  const freeBetBalance = isAuth && full ? majorToMinor(full.freeBetBalance, decimals) : 0;
  const bonusBalance = isAuth && full ? majorToMinor(full.bonusBalance, decimals) : 0;
  const freeBets = bettingApi.useSlipFreeBetsQuery(undefined, { skip: !open || freeBetBalance <= 0 }).data;
  const bonuses = bettingApi.useSlipBonusesQuery(undefined, { skip: !open || bonusBalance <= 0 }).data;
  const activeFree = (freeBets ?? []).filter((f) => f.status === 'active' && f.currency === currency);
  const choices = freeBetChoices(activeFree.map((f) => majorToMinor(f.amount, decimals)), freeBetBalance);
  const freeMin = activeFree[0] && activeFree[0].minOdds > 0 ? toThousandths(activeFree[0].minOdds) : FREE_BET_MIN_ODDS;
  const sportBonus = bonuses?.find((b) => b.product === 'sport' && b.status === 'active');
  const bonusMin = sportBonus && sportBonus.minOdds > 0 ? toThousandths(sportBonus.minOdds) : BONUS_MIN_ODDS;
  const offered: Funding[] = ['real', ...(sportBonus && bonusBalance > 0 ? (['bonus'] as const) : []), ...(freeBetBalance > 0 ? (['free_bet'] as const) : [])];
  const funding: Funding = offered.includes(slip.funding) ? slip.funding : 'real';

  const n = slip.selections.length;
  if (n === 0 && !placed) return null;

  const odds = slip.selections.map((s) => s.odds);
  const total = slip.kind === 'express' ? totalOdds(odds) : (odds[0] ?? 0);
  // `limits.bets` of the settings, in this currency (the server checks the same: 606 / 610).
  const limits = stakeLimits(settings, currency, decimals);
  const presets = stakePresets(limits, decimals);
  const stakeMinor = parseStake(slip.stake, decimals);
  const outOfLimits = stakeMinor !== null && limits !== null && (stakeMinor < limits.min || stakeMinor > limits.max);
  const payout = stakeMinor ? potentialPayout(stakeMinor, slip.kind === 'express' ? odds : odds.slice(0, 1)) : 0;
  const kindOk = slip.kind === 'single' ? n === 1 : n >= 2;
  const pending = slip.changes.length > 0;
  const anyClosed = closed.includes('1');
  const legOdds = slip.kind === 'express' ? odds : odds.slice(0, 1);
  const block = fundingBlock({ funding, total, legs: legOdds, stakeMinor, freeBetBalance, bonusBalance, freeBetMinOdds: freeMin, bonusMinOdds: bonusMin });
  const lowLegs = block?.reason === 'bonusOdds' ? block.legs : [];
  const canPlace = kindOk && stakeMinor !== null && !outOfLimits && !pending && !anyClosed && !block && !isLoading;
  const balanceOf = (f: Funding) => (f === 'free_bet' ? freeBetBalance : f === 'bonus' ? bonusBalance : full ? majorToMinor(full.balance, decimals) : null);

  const submit = async () => {
    if (!isAuth) {
      dispatch(addNotification({ text: 'pleaseAuthoriseToBet', type: 'error' }));
      return;
    }
    if (!stakeMinor) return;
    // One key per submission: kept in the slip, so a retry after a lost reply is the same bet.
    const key = slip.key ?? newIdempotencyKey();
    if (!slip.key) dispatch(slipActions.setKey(key));
    const body = {
      kind: slip.kind,
      stake: stakeForRequest(stakeMinor, decimals),
      odds_policy: slip.policy,
      funding,
      legs: slip.selections.map((s) => ({ event_id: s.eventId, market: s.market, outcome_id: s.outcomeId, odds: s.odds / 1000 })),
    };
    const res = await place({ body, key });
    if ('data' in res && res.data) {
      setPlaced(res.data);
      dispatch(slipActions.clear());
      reset();
    } else if ('error' in res && isApiError(res.error) && res.error.code === 604) {
      dispatch(slipActions.oddsChanged(changesOf(res.error.data)));
    }
  };

  const err = error && isApiError(error) && error.code !== 604 ? errorText(error) : null;
  const changeOf = (i: number) => slip.changes.find((c) => c.leg === i);

  return (
    <>
      {open && <div className={css.backdrop} onClick={() => setOpen(false)} />}
      <section className={`${css.slip} ${open ? css.slipOpen : ''}`} aria-label={t('slip.title')} data-testid="bet-slip">
        <button
          type="button"
          className={css.slipBar}
          aria-expanded={open}
          aria-label={open ? t('slip.close') : t('slip.open')}
          data-testid="slip-bar"
          onClick={() => setOpen((o) => !o)}
        >
          {placed && n === 0 ? (
            <span className={`${css.slipCount} ${css.slipDone}`} aria-hidden="true">✓</span>
          ) : (
            <span className={css.slipCount}>{n}</span>
          )}
          <span className={css.slipTitle}>
            {t('slip.title')}
            <small>{placed && n === 0 ? t('slip.placed') : t('slip.count', { count: n })}</small>
          </span>
          {n > 0 && (
            <span className={css.slipTotal} data-testid="slip-total">
              <bdi>{formatOdds(total)}</bdi>
            </span>
          )}
          <span className={css.chevron} aria-hidden="true">{open ? '▾' : '▴'}</span>
        </button>

        {open && placed && (
          <div className={css.slipBody} data-testid="bet-placed">
            <div className={css.placed}>
              <span className={css.placedIcon} aria-hidden="true">✓</span>
              <strong>{t('slip.placed')}</strong>
              <span data-testid="bet-id">{t('slip.betId', { id: placed.id })}</span>
              <span>
                <Money amount={placed.stake} currency={placed.currency} /> · <bdi>{formatOdds(toThousandths(placed.total_odds))}</bdi>
              </span>
              {placed.funding === 'free_bet' && <span data-testid="placed-free-bet">{t('slip.placedFreeBet')}</span>}
            </div>
            <div className={css.slipActions}>
              <Link to="/profile/bets" className={css.secondary} onClick={() => { setPlaced(null); setOpen(false); }}>
                {t('slip.myBets')}
              </Link>
              <button type="button" className={css.primary} onClick={() => { setPlaced(null); setOpen(false); }}>
                {t('slip.done')}
              </button>
            </div>
          </div>
        )}

        {open && !placed && (
          <div className={css.slipBody}>
            <div className={css.switch} role="group" aria-label={t('slip.title')}>
              {(['single', 'express'] as const).map((k) => (
                <button key={k} type="button" aria-pressed={slip.kind === k} disabled={k === 'single' ? n !== 1 : n < 2} className={css.switchItem}>
                  {t(`slip.${k}`)}
                </button>
              ))}
            </div>
            {n === 1 && <p className={css.hint}>{t('slip.expressHint')}</p>}
            <ul className={css.legs}>
              {slip.selections.map((s, i) => {
                const c = changeOf(i);
                return (
                  <li key={s.eventId} className={css.leg} data-testid="slip-leg">
                    <div className={css.legText}>
                      <strong>{s.outcomeName}</strong>
                      <span>{s.marketName}</span>
                      <small><bdi>{s.eventName}</bdi></small>
                      {closed[i] === '1' && <em className={css.legSuspended} data-testid="leg-suspended">{t('suspended')}</em>}
                      {lowLegs.includes(i) && (
                        <em className={css.legSuspended} data-testid="leg-below-bonus">
                          {t('slip.legBelow', { min: formatOdds(bonusMin) })}
                        </em>
                      )}
                    </div>
                    <div className={css.legOdds}>
                      {s.moved && !c && (
                        <span
                          className={s.moved === 'up' ? css.upText : css.downText}
                          data-testid="odds-moved"
                          data-moved={s.moved}
                          role="img"
                          aria-label={t(s.moved === 'up' ? 'slip.oddsUp' : 'slip.oddsDown')}
                          title={t(s.moved === 'up' ? 'slip.oddsUp' : 'slip.oddsDown')}
                        >
                          {s.moved === 'up' ? '▲' : '▼'}
                        </span>
                      )}
                      <bdi className={c ? css.oldOdds : undefined} data-testid="leg-odds">{formatOdds(s.odds)}</bdi>
                      {c && <bdi className={c.current > s.odds ? css.upText : css.downText} data-testid="new-odds">{formatOdds(c.current)}</bdi>}
                    </div>
                    <button type="button" className={css.remove} aria-label={t('slip.remove')} onClick={() => dispatch(slipActions.remove({ eventId: s.eventId }))}>
                      ×
                    </button>
                  </li>
                );
              })}
            </ul>
            {pending && (
              <div className={css.changed} role="alert" data-testid="odds-changed">
                <strong>{t('slip.changedTitle')}</strong>
                <button type="button" className={css.secondary} onClick={() => { dispatch(slipActions.acceptChanges()); reset(); }}>
                  {t('slip.accept')}
                </button>
              </div>
            )}
            {offered.length > 1 && (
              <fieldset className={css.policy} data-testid="funding">
                <legend>{t('slip.fundingTitle')}</legend>
                <div className={css.fundingRow}>
                  {offered.map((f) => {
                    const have = balanceOf(f);
                    return (
                      <label key={f} className={css.fundingItem}>
                        <input type="radio" name="funding" checked={funding === f} data-testid={`funding-${f}`} onChange={() => dispatch(slipActions.setFunding(f))} />
                        <span>{t(`slip.funding_${f}`)}</span>
                        {have !== null && (
                          <small>
                            <Money amount={toMajor(have, decimals)} currency={currency} />
                          </small>
                        )}
                      </label>
                    );
                  })}
                </div>
                {funding === 'free_bet' && (
                  <p className={css.hint} data-testid="free-bet-rules">
                    {t('slip.freeBetRules', { min: formatOdds(freeMin) })}
                  </p>
                )}
                {funding === 'bonus' && (
                  <p className={css.hint} data-testid="bonus-rules">
                    {t('slip.bonusRules', { min: formatOdds(bonusMin) })}
                  </p>
                )}
              </fieldset>
            )}
            {funding === 'free_bet' ? (
              <div className={css.stakeLabel} role="group" aria-labelledby="free-bet-choice">
                <span id="free-bet-choice">{t('slip.chooseFreeBet')}</span>
                <div className={css.presets}>
                  {choices.map((v) => {
                    const value = String(stakeForRequest(v, decimals));
                    return (
                      <button
                        key={v}
                        type="button"
                        className={css.preset}
                        aria-pressed={stakeMinor === v}
                        data-testid="free-bet-choice"
                        onClick={() => dispatch(slipActions.setStake(value))}
                      >
                        <bdi dir="ltr">{formatMinorMoney(v, currency, i18n.language)}</bdi>
                      </button>
                    );
                  })}
                </div>
              </div>
            ) : (
              <>
                <label className={css.stakeLabel}>
                  <span>{t('slip.stake')}</span>
                  <span className={css.stakeBox}>
                    <input
                      inputMode="decimal"
                      value={slip.stake}
                      data-testid="stake"
                      onChange={(e) => dispatch(slipActions.setStake(e.target.value))}
                      placeholder={limits ? String(stakeForRequest(limits.def, decimals)) : '0'}
                      aria-describedby="stake-limits"
                    />
                    <span className={css.currency}>{currency}</span>
                  </span>
                </label>
                {limits && (
                  <p id="stake-limits" className={outOfLimits ? `${css.limits} ${css.limitsBad}` : css.limits} data-testid="stake-limits">
                    {t('slip.limits', {
                      min: moneyText(stakeForRequest(limits.min, decimals), currency, i18n.language),
                      max: moneyText(stakeForRequest(limits.max, decimals), currency, i18n.language),
                    })}
                  </p>
                )}
                <div className={css.presets}>
                  {presets.map((p) => (
                    <button key={p} type="button" className={css.preset} data-testid="stake-preset" onClick={() => dispatch(slipActions.setStake(String(stakeForRequest(p, decimals))))}>
                      <bdi dir="ltr">{formatMinorMoney(p, currency, i18n.language)}</bdi>
                    </button>
                  ))}
                </div>
              </>
            )}
            <fieldset className={css.policy}>
              <legend>{t('slip.policy')}</legend>
              <div className={css.policyRow}>
                {POLICIES.map((p) => (
                  <label key={p} className={css.policyItem}>
                    <input type="radio" name="odds-policy" checked={slip.policy === p} onChange={() => dispatch(slipActions.setPolicy(p))} />
                    <span>{t(`slip.policy_${p}`)}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <dl className={css.summary}>
              <div>
                <dt>{t('slip.totalOdds')}</dt>
                <dd><bdi>{formatOdds(total)}</bdi></dd>
              </div>
              <div>
                <dt>{t(funding === 'free_bet' ? 'slip.winnings' : 'slip.payout')}</dt>
                <dd data-testid="payout">
                  <Money amount={toMajor(funding === 'free_bet' ? freeBetWinnings(payout, stakeMinor ?? 0) : payout, decimals)} currency={currency} />
                </dd>
              </div>
            </dl>
            {block && (
              <p className={`${css.limits} ${css.limitsBad}`} role="status" id="funding-block" data-testid="funding-block" data-reason={block.reason}>
                {blockText(block, t, (m) => moneyText(stakeForRequest(m, decimals), currency, i18n.language))}
              </p>
            )}
            {err && <p className={css.error} role="alert" data-testid="slip-error">{t(err.key, err.params)}</p>}
            <div className={`${css.slipActions} ${css.slipActionsSticky}`}>
              <button type="button" className={css.secondary} onClick={() => { dispatch(slipActions.clear()); setOpen(false); }}>
                {t('slip.clear')}
              </button>
              <button type="button" className={css.primary} disabled={!canPlace} aria-describedby={block ? 'funding-block' : undefined} data-testid="place-bet" onClick={() => void submit()}>
                {isLoading ? t('slip.placing') : t('slip.place')}
              </button>
            </div>
          </div>
        )}
      </section>
    </>
  );
}

/** Why the slip cannot be placed with its funding, in words (`money`: minor units → text). */
function blockText(block: FundingBlock, t: (key: string, params?: Record<string, string>) => string, money: (minor: number) => string): string {
  switch (block.reason) {
    case 'freeBetOdds':
      return t('slip.blockFreeBetOdds', { min: formatOdds(block.min), total: formatOdds(block.total) });
    case 'bonusOdds':
      return t('slip.blockBonusOdds', { min: formatOdds(block.min) });
    case 'noFreeBet':
      return t('slip.blockNoFreeBet');
    case 'freeBetTooBig':
      return t('slip.blockFreeBetBalance', { balance: money(block.balance) });
    case 'bonusShort':
      return t('slip.blockBonusBalance', { balance: money(block.balance) });
  }
}
