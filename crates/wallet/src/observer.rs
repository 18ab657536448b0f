//! The one place outside the wallet that sees postings as they are written: promotions count
//! wagering, jackpot contributions and coupon spins from every stake, whatever the product,
//! without any game calling them (docs/PROMOTIONS.md).
//!
//! An observer names the transaction types it watches; postings of other types never reach it.
//! For a watched posting, on the posting's own connection and inside its database transaction:
//!
//! 1. [`PostingObserver::check`] runs once the posting's key is claimed and before any balance
//!    moves, without touching the database (it runs for every watched posting: keep it to
//!    memory). An error refuses the posting: the claim is rolled back with it. Replays of a key
//!    that was already posted do not reach it: they answer the stored receipt.
//!    It answers [`Checked`]: extra house legs summing to zero (a jackpot contribution: the
//!    stake's house account gives a share to `house:jackpots`), merged into the posting's own
//!    legs (same account: amounts added), so the contribution is part of the stake's posting —
//!    reversed with it by a rollback, replayed with it by a retry (the request hash is the
//!    caller's, without them); and the stake's **wagering terms**: whether the debited
//!    account's stake cap applies, and what the stake adds to its wagering progress. Both ride
//!    on the conditional `UPDATE` that moves the stake's balance (no statement of their own): a
//!    stake above the cap is refused by that update — nothing moves, the claim is released —
//!    and answered with [`PostingObserver::capped`]'s error.
//! 2. [`PostingObserver::applied`] runs after the posting's balances and entries are written
//!    (postings applied set-wise arrive together, in one call), with whether the stake took the
//!    account's wagering progress to its target ([`Applied::met`]); its writes commit with the
//!    posting or not at all. An error undoes the posting (set-wise: the whole operation, which
//!    then answers `Unavailable` to be retried with the same keys).
//! 3. [`PostingObserver::reversed`] runs after a rollback of a watched posting applied.
//!
//! The observer must not wait on another write (on SQLite it runs on the one writer
//! connection) and must be quick: it runs inside every watched posting's transaction.

use crate::model::{Leg, LedgerError, PostingRequest, TxType};
use kernel::Minor;
use futures::future::BoxFuture;
use store::sqlx::AnyConnection;

/// A row an observer asks the ledger to write at the end of the posting's database
/// transaction ([`PostingObserver::flush`]), opaque to the ledger: on SQLite's group commit
/// the rows of every posting of the commit are written together (one statement for hundreds
/// of stakes) and a posting rolled back to its savepoint takes its rows with it.
pub type Deferred = Box<dyn std::any::Any + Send>;

/// A posting as an observer sees it once applied: its transaction id and request.
pub struct Applied<'a> {
    pub tx_id: i64,
    pub req: &'a PostingRequest,
    /// The stake took its account's wagering progress to the target set by
    /// [`crate::set_wager_terms`] (the account's terms are still set: the observer closes them).
    pub met: bool,
}

/// What [`PostingObserver::check`] answers for a watched posting.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Extra house legs summing to zero, merged into the posting.
    pub extra: Vec<Leg>,
    /// The stake (the posting's one player debit) is held to its account's stake cap.
    pub capped: bool,
    /// What the stake adds to its account's wagering progress (counted only while the account
    /// has a wagering target).
    pub progress: Minor,
}

/// A rollback of a watched posting, once applied.
pub struct Reversed {
    /// The cancelled posting.
    pub original_tx_id: i64,
    pub original_type: TxType,
    /// The rollback posting that cancelled it.
    pub reversal_tx_id: i64,
    pub user_id: Option<i64>,
}

pub trait PostingObserver: Send + Sync + 'static {
    /// Whether postings of `tx_type` reach this observer (called for every posting: keep it cheap).
    fn watches(&self, tx_type: TxType) -> bool;

    /// Before a watched posting moves money, in memory; `Err` refuses it (use
    /// [`LedgerError::Refused`]).
    fn check(&self, req: &PostingRequest) -> Result<Checked, LedgerError>;

    /// The refusal of a capped stake above its account's cap (`cap`, minor units).
    fn capped(&self, req: &PostingRequest, cap: Minor) -> LedgerError;

    /// After watched postings applied (one, or every posting of a set-wise step); `req` holds
    /// the legs as applied (extra legs merged). Rows pushed to `deferred` are written by
    /// [`Self::flush`] at the end of the transaction, if the posting is still part of it.
    fn applied<'c>(&'c self, conn: &'c mut AnyConnection, postings: &'c [Applied<'c>], deferred: &'c mut Vec<Deferred>) -> BoxFuture<'c, Result<(), LedgerError>>;

    /// After a rollback of a watched posting applied. `deferred`: the rows deferred so far in
    /// this transaction (the rolled-back posting's may still be there, not written yet).
    fn reversed<'c>(&'c self, conn: &'c mut AnyConnection, reversal: &'c Reversed, deferred: &'c mut Vec<Deferred>) -> BoxFuture<'c, Result<(), LedgerError>>;

    /// Writes the rows `applied` deferred (see [`Deferred`]), once, right before the
    /// transaction commits; an error fails the whole transaction (nothing is durable).
    fn flush<'c>(&'c self, conn: &'c mut AnyConnection, deferred: Vec<Deferred>) -> BoxFuture<'c, Result<(), LedgerError>>;
}
