//! The settlement hook: what another context (promotions) does when bets settle, without this
//! crate knowing it. Set once with [`crate::Betting::set_settle_hook`].
//!
//! - [`SettleHook::first_posting`]: a posting that goes with a bet's first settlement (a
//!   rakeback), posted in the same `post_many` as the payouts, **before** the bet's state is
//!   written: keyed, so a settlement replayed after a crash replays it and moves nothing; a
//!   failed one leaves the bet open like a failed payout (retried).
//! - [`SettleHook::resettle_postings`]: the same for a bet settled again (a corrected result):
//!   the posting due now, or the reversal of one paid before.
//! - [`SettleHook::settled`]: runs **inside the database transaction that writes the bets'
//!   settled state** (one per settlement chunk, set-based), e.g. the bonus wagering rows; the
//!   [`AfterCommit`] it returns runs once that transaction committed.

use futures::future::BoxFuture;
use kernel::{Currency, Minor};
use sportsbook::settle::{BetOutcome, LegOutcome};
use sportsbook::slip::Funding;
use sportsbook::{Odds, OutcomeResult};
use store::sqlx::{self, AnyConnection};
use wallet::PostingRequest;

/// Work to run once the settlement's transaction committed.
pub type AfterCommit = Box<dyn FnOnce() + Send>;

/// A bet as it settled (first time or again).
#[derive(Debug, Clone)]
pub struct SettledBet {
    pub id: i64,
    pub user_id: i64,
    pub currency: Currency,
    pub funding: Funding,
    pub stake: Minor,
    pub outcome: BetOutcome,
    /// What the bet returns now, stake included (a free bet: its winnings only).
    pub payout: Minor,
    /// The outcome it had before (a resettlement), `None` for a first settlement.
    pub previous: Option<BetOutcome>,
    /// Each leg: its event, the odds accepted, its result (`None`: undecided — an express
    /// settled lost early).
    pub legs: Vec<(String, Odds, Option<OutcomeResult>)>,
}

impl SettledBet {
    /// The odds the bet settled at, in thousandths (floored): the product of the odds of its
    /// legs that were not void in full (a void leg counts at 1.00, as the payout does; a leg
    /// still undecided counts at its odds). A single: its leg's odds; an express: the total
    /// odds. (Systems do not exist here; one would count each combination at its own odds.)
    pub fn settled_odds(&self) -> u64 {
        let mut total: u128 = 1_000;
        for (_, odds, result) in &self.legs {
            if result.is_some_and(|r| r.leg_outcome() == LegOutcome::Void) {
                continue;
            }
            // Capped far above any minimum odds: twenty long shots cannot overflow.
            total = (total * odds.thousandths() as u128 / 1_000).min(1 << 60);
        }
        total as u64
    }

    /// The share of the stake that was at risk to the end: nothing for a void bet (refunded),
    /// half for a single half won or half lost (half refunded), the stake otherwise.
    pub fn risked_stake(&self) -> Minor {
        match self.outcome {
            BetOutcome::Void => 0,
            BetOutcome::HalfWon | BetOutcome::HalfLost => self.stake / 2,
            _ => self.stake,
        }
    }

    /// Distinct events among the legs.
    pub fn events(&self) -> usize {
        let set: std::collections::BTreeSet<&str> = self.legs.iter().map(|(e, _, _)| e.as_str()).collect();
        set.len()
    }
}

pub trait SettleHook: Send + Sync + 'static {
    /// A posting to make with the first settlement of `bet` (keyed by the bet), if any.
    fn first_posting(&self, bet: &SettledBet) -> Option<PostingRequest>;

    /// The postings due when `bet` settles again (its previous outcome in `bet.previous`).
    fn resettle_postings<'a>(&'a self, bet: &'a SettledBet) -> BoxFuture<'a, Vec<PostingRequest>>;

    /// Runs in the transaction that writes these bets' settled state (`first`: first
    /// settlements of a chunk; else one resettled bet). An error rolls that write back.
    fn settled<'c>(
        &'c self,
        conn: &'c mut AnyConnection,
        bets: &'c [SettledBet],
        first: bool,
    ) -> BoxFuture<'c, Result<Option<AfterCommit>, sqlx::Error>>;
}
