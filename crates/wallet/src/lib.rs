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
mod posting;
mod verify;

pub use ledger::{HistoryEntry, HistoryQuery, Ledger, LedgerStats};
pub use model::*;
pub use verify::VerifyReport;
