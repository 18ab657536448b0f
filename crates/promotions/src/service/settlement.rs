//! What promotions do when sports bets settle (the sportsbook's [`betting::SettleHook`]):
//!
//! - **Sport-bonus wagering.** A bonus-funded bet (the slip's `bonus` funding: the sport bonus
//!   is staked from the bonus balance, docs/PROMOTIONS.md) counts toward the player's open
//!   sport bonus when it settles, if the odds it settled at ([`SettledBet::settled_odds`]: a
//!   single's odds, an express's total odds, void legs at 1.00) reach the bonus's `min_odds`
//!   (`limits.bonus.minCoef`, 1.80). What counts is the stake at risk to the end
//!   ([`SettledBet::risked_stake`]: a void bet nothing, a half result half) times the
//!   contribution table's sport share (100 %). Real-money and free-bet sports stakes count
//!   nothing toward a sport bonus (the maximum bet is enforced on bonus stakes only, so only
//!   they may count). One row per bet in `sport_wagering`, written in the transaction that
//!   writes the bets' settled state, one statement per settlement chunk: a settlement run
//!   twice, at once or replayed counts a bet once. A corrected result: to void, the
//!   contribution is taken back (while its bonus is open); otherwise the first count stays.
//!   A bonus met converts right after the commit (the `met` channel; the sweep otherwise).
//! - **Rakeback** (spec §5, §9): a lost real-money bet on at least 5 distinct events, every
//!   leg at odds ≥ 1.11, stake ≥ 1 major unit (1 TND), returns 10–25 % of its stake by the
//!   number of events ([`crate::cashback::rakeback_bps`]) into the cashback balance: a
//!   `Rakeback` posting keyed `rakeback:{bet}`, posted with the settlement's payouts before
//!   the bet's state is written (so paid exactly once, even when settlement is replayed). A
//!   correction that makes the bet no longer lost takes it back once (`RakebackReversal`,
//!   `rakeback:{bet}:reverse`); a later correction back to a loss pays nothing more.

use super::Inner;
use crate::cashback::rakeback_bps;
use betting::{AfterCommit, SettleHook, SettledBet};
use futures::future::BoxFuture;
use futures::FutureExt;
use kernel::clock::now_ms;
use kernel::{Currency, Minor};
use sportsbook::settle::BetOutcome;
use sportsbook::slip::{Funding, RakebackRule};
use std::collections::BTreeMap;
use std::sync::Weak;
use store::sqlx::{self, AnyConnection, Row};
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

pub(crate) struct Settle(pub Weak<Inner>);

/// The rakeback a settled bet earns (minor units), 0 when it does not qualify.
pub fn rakeback_of(bet: &SettledBet) -> Minor {
    let rule = RakebackRule::default();
    // The rule's minimum stake is written in TND millimes (1 TND): one major unit of the bet's currency.
    let min_stake = rule.min_stake * bet.currency.major(1) / Currency::Tnd.major(1);
    let events = bet.events();
    let qualifies = bet.funding == Funding::Real
        && bet.outcome == BetOutcome::Lost
        && events >= rule.min_events
        && bet.legs.iter().all(|(_, odds, _)| *odds >= rule.min_odds)
        && bet.stake >= min_stake;
    if qualifies {
        crate::bps_of(bet.stake, rakeback_bps(events))
    } else {
        0
    }
}

fn rakeback_posting(bet: &SettledBet, amount: Minor, reverse: bool) -> PostingRequest {
    let house = AccountRef::House(HouseAccount::Cashback);
    let player = AccountRef::Player { user_id: bet.user_id, kind: BalanceKind::Cashback };
    let events = bet.events();
    if reverse {
        PostingRequest::transfer(TxType::RakebackReversal, format!("rakeback:{}:reverse", bet.id), Some(bet.user_id), bet.currency, player, house, amount)
            .comment(format!("Rakeback taken back: sports bet {} no longer lost", bet.id))
            .metadata(serde_json::json!({ "bet": bet.id, "events": events }))
    } else {
        PostingRequest::transfer(TxType::Rakeback, format!("rakeback:{}", bet.id), Some(bet.user_id), bet.currency, house, player, amount)
            .comment(format!("Rakeback on lost express {} ({events} events)", bet.id))
            .metadata(serde_json::json!({ "bet": bet.id, "events": events, "bps": rakeback_bps(events) }))
    }
}

impl SettleHook for Settle {
    fn first_posting(&self, bet: &SettledBet) -> Option<PostingRequest> {
        let amount = rakeback_of(bet);
        (amount > 0).then(|| rakeback_posting(bet, amount, false))
    }

    fn resettle_postings<'a>(&'a self, bet: &'a SettledBet) -> BoxFuture<'a, Vec<PostingRequest>> {
        async move {
            if bet.funding != Funding::Real || bet.events() < RakebackRule::default().min_events {
                return Vec::new();
            }
            let Some(inner) = self.0.upgrade() else { return Vec::new() };
            let due = rakeback_of(bet);
            if due > 0 {
                // Lost now: paid unless it was (the key replays).
                return vec![rakeback_posting(bet, due, false)];
            }
            // No longer lost: take back a rakeback paid before, once. Its amount is the one the
            // bet earned when lost (the same stake and legs).
            let paid = match inner.ledger.lookup(&format!("rakeback:{}", bet.id)).await {
                Ok(found) => found.is_some_and(|t| !t.tombstone),
                Err(e) => {
                    tracing::warn!(bet = bet.id, error = %e, "rakeback: lookup failed; not taken back now");
                    false
                }
            };
            let as_lost = SettledBet { outcome: BetOutcome::Lost, ..bet.clone() };
            let amount = rakeback_of(&as_lost);
            if paid && amount > 0 {
                vec![rakeback_posting(bet, amount, true)]
            } else {
                Vec::new()
            }
        }
        .boxed()
    }

    fn settled<'c>(
        &'c self,
        conn: &'c mut AnyConnection,
        bets: &'c [SettledBet],
        first: bool,
    ) -> BoxFuture<'c, Result<Option<AfterCommit>, sqlx::Error>> {
        async move {
            let Some(inner) = self.0.upgrade() else { return Ok(None) };
            let share = inner.table.sport;
            let mut moved: BTreeMap<i64, Minor> = BTreeMap::new();
            if !first {
                // A correction to void: the bet's contribution leaves its bonus, while open.
                for b in bets.iter().filter(|b| b.funding == Funding::Bonus && b.outcome == BetOutcome::Void) {
                    let gone = sqlx::query(
                        "DELETE FROM sport_wagering WHERE bet_id = $1 AND bonus_id IN (SELECT id FROM bonuses WHERE status = 'active') RETURNING bonus_id, counted",
                    )
                    .bind(b.id)
                    .fetch_optional(&mut *conn)
                    .await?;
                    if let Some(r) = gone {
                        *moved.entry(r.get(0)).or_default() -= r.get::<i64, _>(1);
                    }
                }
            }
            // Bonus bets that count something, by the bonus's own minimum odds (in the statement).
            let items: Vec<(&SettledBet, Minor, i64)> = bets
                .iter()
                .filter(|b| b.funding == Funding::Bonus)
                .map(|b| (b, crate::bps_of(b.risked_stake(), share), b.settled_odds() as i64))
                .filter(|(_, counted, _)| *counted > 0)
                .collect();
            if !items.is_empty() {
                // One statement for the chunk: each bet joins its own player's open sport bonus
                // in its currency; a bet counted before (another run, a replay) conflicts.
                let sql = format!(
                    "INSERT INTO sport_wagering (bet_id, bonus_id, user_id, stake, counted, odds, created_at) \
                     SELECT v.column1, b.id, v.column2, v.column3, v.column4, v.column5, $1 \
                     FROM (VALUES {}) AS v JOIN bonuses b ON b.user_id = v.column2 AND b.product = 'sport' \
                     AND b.status = 'active' AND b.currency = v.column6 AND v.column5 >= b.min_odds \
                     WHERE 1 = 1 ON CONFLICT (bet_id) DO NOTHING RETURNING bonus_id, counted",
                    store::values(items.len(), 6, 2)
                );
                let sql = store::positional(conn, &sql).into_owned();
                let mut q = sqlx::query(&sql).bind(now_ms());
                for (b, counted, odds) in &items {
                    q = q.bind(b.id).bind(b.user_id).bind(b.stake).bind(*counted).bind(*odds).bind(b.currency.code());
                }
                for r in q.fetch_all(&mut *conn).await? {
                    *moved.entry(r.get(0)).or_default() += r.get::<i64, _>(1);
                }
            }
            // Each bonus's progress in one statement for the chunk.
            let moved: Vec<(i64, Minor)> = moved.into_iter().filter(|(_, d)| *d != 0).collect();
            let mut met = Vec::new();
            if !moved.is_empty() {
                let sql = format!(
                    "UPDATE bonuses SET wagered = bonuses.wagered + v.column2, \
                     status = CASE WHEN bonuses.wagered + v.column2 >= bonuses.required THEN 'met' ELSE bonuses.status END \
                     FROM (VALUES {}) AS v WHERE bonuses.id = v.column1 AND bonuses.status = 'active' RETURNING bonuses.id, bonuses.status",
                    store::values(moved.len(), 2, 1)
                );
                let sql = store::positional(conn, &sql).into_owned();
                let mut q = sqlx::query(&sql);
                for (bonus_id, delta) in &moved {
                    q = q.bind(*bonus_id).bind(*delta);
                }
                for r in q.fetch_all(&mut *conn).await? {
                    if r.get::<String, _>(1) == "met" {
                        met.push(r.get::<i64, _>(0));
                    }
                }
            }
            if met.is_empty() {
                return Ok(None);
            }
            let sender = inner.met.clone();
            Ok(Some(Box::new(move || {
                for id in met {
                    let _ = sender.send(id);
                }
            }) as AfterCommit))
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sportsbook::{Odds, OutcomeResult};

    fn bet(events: usize, odds: u32, stake: Minor, funding: Funding, outcome: BetOutcome) -> SettledBet {
        SettledBet {
            id: 1,
            user_id: 7,
            currency: Currency::Tnd,
            funding,
            stake,
            outcome,
            payout: 0,
            previous: None,
            legs: (0..events).map(|i| (format!("e{i}"), Odds::new(odds).unwrap(), Some(OutcomeResult::LOSE))).collect(),
        }
    }

    #[test]
    fn rakeback_only_for_lost_qualifying_real_money_expresses() {
        use BetOutcome::*;
        use Funding::*;
        assert_eq!(rakeback_of(&bet(4, 1_500, 10_000, Real, Lost)), 0);
        assert_eq!(rakeback_of(&bet(5, 1_100, 10_000, Real, Lost)), 0);
        assert_eq!(rakeback_of(&bet(5, 1_110, 10_000, Real, Lost)), 1_000);
        assert_eq!(rakeback_of(&bet(9, 1_500, 10_000, Real, Lost)), 2_500);
        assert_eq!(rakeback_of(&bet(12, 1_500, 10_000, Real, Lost)), 2_500);
        assert_eq!(rakeback_of(&bet(9, 1_500, 999, Real, Lost)), 0);
        assert_eq!(rakeback_of(&bet(9, 1_500, 10_000, Real, Won)), 0);
        assert_eq!(rakeback_of(&bet(9, 1_500, 10_000, Bonus, Lost)), 0);
        assert_eq!(rakeback_of(&bet(9, 1_500, 10_000, FreeBet, Lost)), 0);
        // Five legs on four events are four events.
        let mut same = bet(5, 1_500, 10_000, Real, Lost);
        same.legs[4].0 = "e0".into();
        assert_eq!(rakeback_of(&same), 0);
    }

    #[test]
    fn settled_odds_skip_void_legs_and_half_results_risk_half() {
        let mut b = bet(2, 1_900, 10_000, Funding::Bonus, BetOutcome::Won);
        assert_eq!(b.settled_odds(), 3_610);
        b.legs[1].2 = Some(OutcomeResult::VOID);
        assert_eq!(b.settled_odds(), 1_900);
        b.outcome = BetOutcome::HalfWon;
        assert_eq!(b.risked_stake(), 5_000);
        b.outcome = BetOutcome::Void;
        assert_eq!(b.risked_stake(), 0);
    }
}
