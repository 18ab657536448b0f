//! The one place outside the wallet that sees postings as they are written: promotions count
//! wagering, jackpot contributions and coupon spins from every stake, whatever the product,
//! without any game calling them (docs/PROMOTIONS.md).
//!
//! An observer names the transaction types it watches; postings of other types never reach it.
//! For a watched posting, on the posting's own connection and inside its database transaction:
//!
//! 1. [`PostingObserver::check`] runs once the posting's key is claimed and before any balance
//!    moves. An error refuses the posting: the claim and everything the check wrote are rolled
//!    back with it (a stake above a bonus's maximum bet leaves no trace). Replays of a key that
//!    was already posted do not reach it: they answer the stored receipt.
//! 2. [`PostingObserver::applied`] runs after the posting's balances and entries are written
//!    (postings applied set-wise arrive together, in one call); its writes commit with the
//!    posting or not at all. It may answer follow-up postings (a jackpot contribution between
//!    house accounts): the ledger applies them in the same transaction, each under its own
//!    key, never observed again. An error undoes the posting (set-wise: the whole operation,
//!    which then answers `Unavailable` to be retried with the same keys).
//! 3. [`PostingObserver::reversed`] runs after a rollback of a watched posting applied.
//!
//! The observer must not wait on another write (on SQLite it runs on the one writer
//! connection) and must be quick: it runs inside every watched posting's transaction.

use crate::model::{LedgerError, PostingRequest, TxType};
use futures::future::BoxFuture;
use store::sqlx::AnyConnection;

/// A posting as an observer sees it once applied: its transaction id and request.
pub struct Applied<'a> {
    pub tx_id: i64,
    pub req: &'a PostingRequest,
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

    /// Before a watched posting moves money; `Err` refuses it (use [`LedgerError::Refused`]).
    fn check<'c>(&'c self, conn: &'c mut AnyConnection, req: &'c PostingRequest) -> BoxFuture<'c, Result<(), LedgerError>>;

    /// After watched postings applied (one, or every posting of a set-wise step): the
    /// follow-up postings to apply in the same transaction (none, usually).
    fn applied<'c>(&'c self, conn: &'c mut AnyConnection, postings: &'c [Applied<'c>]) -> BoxFuture<'c, Result<Vec<PostingRequest>, LedgerError>>;

    /// After a rollback of a watched posting applied.
    fn reversed<'c>(&'c self, conn: &'c mut AnyConnection, reversal: &'c Reversed) -> BoxFuture<'c, Result<(), LedgerError>>;
}
