//! The wallet: a double-entry ledger (ARCHITECTURE §2). **The only code allowed to change
//! a balance.**
//!
//! * Every balance a player sees is a ledger account `(owner, kind, currency)`; the house
//!   has accounts too ([`HouseAccount`]).
//! * A posting is one transaction row plus two or more entries summing to zero per
//!   currency, written in one database transaction together with the cached balances.
//! * Player balances never go negative: `UPDATE … SET balance = balance + $d WHERE …
//!   AND balance + $d >= 0`, checked by the returned row, plus a `CHECK` constraint.
//! * House balances are derived from entries (no hot row).
//! * Every posting carries an idempotency key (unique index, same transaction): a repeat
//!   with the same parameters replays the original receipt, a repeat with different
//!   parameters is [`LedgerError::IdempotencyConflict`].

mod ledger;
mod model;
mod observer;
mod terms;
mod posting;
pub mod rollup;
mod verify;

pub use ledger::{adjust_posting, HistoryEntry, HistoryQuery, Ledger, LedgerStats};
pub use posting::{attached, attached_many, Attached, AttachedMany, AttachedRows, BatchCounts, RowSet, MAX_RETRIES};
pub use model::*;
pub use observer::{Applied, Checked, Deferred, PostingObserver, Reversed};
pub use terms::{clear_wager_terms, set_wager_terms, take_back_progress, wager_progress};
pub use verify::VerifyReport;

/// The player's balances as a read model joined on a user row aliased `u` (used by the
/// balance poll to authenticate and read balances in one database round trip).
pub const BALANCES_JOIN: (&str, &str) = (
    "LEFT JOIN ledger_accounts la ON la.owner_id = u.id AND la.is_house = 0",
    "la.kind, la.currency, la.balance",
);

/// Decodes the [`BALANCES_JOIN`] columns, starting at `first`, of each row.
pub fn balances_from_rows(rows: &[store::sqlx::any::AnyRow], first: usize) -> Vec<Balance> {
    use std::str::FromStr;
    use store::sqlx::Row;
    rows.iter()
        .filter_map(|r| {
            let kind: Option<String> = r.try_get(first).ok()?;
            let currency: Option<String> = r.try_get(first + 1).ok()?;
            let amount: Option<i64> = r.try_get(first + 2).ok()?;
            Some(Balance {
                kind: BalanceKind::from_str(&kind?).ok()?,
                currency: kernel::Currency::from_str(&currency?).ok()?,
                amount: amount?,
            })
        })
        .collect()
}
