import type { HistoryEntry } from '../../api/types';

/**
 * What one row of the operations history says it is (issue 18 item 11: sports stakes and
 * payouts read "Operation", deposits "Payment service"): an i18n key of account.json and its
 * values, plus the events of a sports bet. Pure, so each kind of posting is tested.
 */
export interface OpLabel {
  key: string;
  params?: Record<string, string>;
  /** A sports bet's events (shown under the title), in leg order. */
  events?: string[];
  /**
   * A sports bet's number, on its own line under the title: ids have 15 digits, which a
   * 320 px row cannot hold beside a title without breaking the number.
   */
  bet?: string;
}

/** The ledger types (docs/PAYMENTS.md, docs/SPORTSBOOK.md) the history names. */
const PLAIN: Record<number, string> = {
  1: 'op.refill',
  6: 'op.betWin',
  200: 'op.adjustment',
  201: 'op.cashbackTransfer',
  202: 'op.demoCredit',
  203: 'op.betStake',
  204: 'op.rollback',
  214: 'op.partnerBet',
  215: 'op.partnerPayout',
};
const DEPOSITS = [11, 16, 114];

type Row = Pick<HistoryEntry, 'payment_mode'> & Partial<Pick<HistoryEntry, 'bet' | 'payment'>>;

/** `method`: the payment method's name in the reader's language (card, Paykassma, cashier…). */
export function opLabel(row: Row, method: (code: string) => string): OpLabel {
  const type = row.payment_mode;
  const bet = row.bet ?? null;
  if (bet && (type === 211 || type === 212 || type === 213)) {
    const id = String(bet.id);
    const events = bet.events ?? [];
    const what = type === 211 ? 'Bet' : type === 212 ? 'Payout' : 'Resettle';
    // A single names its event in the title; an express lists its events below.
    if (bet.kind === 'express' || events.length > 1) return { key: `op.sport${what}Express`, events, bet: id };
    // The event isolated: team names in Latin letters stay in one piece inside Arabic.
    if (events.length === 1) return { key: `op.sport${what}Event`, params: { event: `\u2068${events[0]!}\u2069` }, bet: id };
    return { key: `op.sport${what}`, bet: id };
  }
  // A sports posting whose bet is unknown still says what it is.
  if (type === 211) return { key: 'op.sportAnyBet' };
  if (type === 212) return { key: 'op.sportAnyPayout' };
  if (type === 213) return { key: 'op.sportAnyResettle' };
  const pay = row.payment ?? null;
  if (DEPOSITS.includes(type)) {
    if (pay) return { key: 'op.depositVia', params: { method: method(pay.method) } };
    return { key: type === 114 ? 'op.cashier' : 'op.deposit' };
  }
  if (type === 10) return pay ? { key: 'op.withdrawalVia', params: { method: method(pay.method) } } : { key: 'op.withdrawal' };
  if (type === 207) return pay ? { key: 'op.withdrawalReturnedVia', params: { method: method(pay.method) } } : { key: 'op.withdrawalReturned' };
  return { key: PLAIN[type] ?? 'op.other' };
}
