//! Writing postings: one posting applied on a connection inside a transaction, and the
//! group-commit batcher.
//!
//! **Group commit.** Every durable commit costs a WAL flush (an fsync on SQLite, a flush and
//! a round of backend work on PostgreSQL), so postings are queued to a writer task that
//! takes everything waiting (up to [`MAX_BATCH`]), applies the plain ones together set-wise
//! and every other one inside its own `SAVEPOINT`, all in one transaction, and commits once.
//! A posting that fails (insufficient funds, conflicting key, a statement error) is rolled
//! back to its savepoint alone; the others commit. Nobody is answered before the commit is
//! durable. The rules are unchanged: the conditional update, the unique idempotency key and
//! the entries all live in the same database transaction.
//!
//! The same code runs on both databases. SQLite has one writer connection, so one writer
//! task. PostgreSQL gets several ([`store::dialect::writers`]), each on its own connection,
//! and a posting goes to its player's writer, so one player's postings never wait on a
//! batch of the same instance's other writer. Several instances (each with its writers) may
//! still lock the same rows in opposite orders: a batch orders its operations by player,
//! and an operation that loses a deadlock or a serialization failure anyway (or a batch that
//! loses its connection) runs again ([`MAX_RETRIES`]); its idempotency key makes that safe.
//!
//! **Many postings at once** ([`apply_many`], `Ledger::post_many`): a game settling
//! thousands of players posts them as one operation. Simple transfers (one player leg, house
//! legs, no audit) are applied set-wise, a few statements for up to [`SET_CHUNK`] postings:
//! claim every key (`INSERT … ON CONFLICT DO NOTHING RETURNING id`), move every player
//! balance with one conditional `UPDATE … FROM (VALUES …)`, release the claims of postings
//! whose balance did not move, insert every entry. The rules are the same as one by one:
//! each posting's key, conditional update and entries are in the database transaction, and a
//! posting that fails leaves nothing. Anything else (a repeated key, an account that does not
//! exist yet, a posting with an audit record or several player legs) is applied one by one
//! in its own savepoint.

use crate::model::*;
use crate::observer::{Applied, Deferred, PostingObserver, Reversed};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{Currency, Minor};
use std::collections::HashMap;
use std::str::FromStr;
use store::sqlx::{self, AnyConnection, Row};
use store::Db;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tokio::sync::{mpsc, oneshot};

pub const MAX_BATCH: usize = 256;

/// What every ledger operation needs besides its connection: the limits and the posting
/// observer once one is set ([`crate::Ledger::set_observer`]).
#[derive(Clone)]
pub(crate) struct Cx {
    pub limits: LedgerLimits,
    pub observer: std::sync::Arc<std::sync::OnceLock<std::sync::Arc<dyn PostingObserver>>>,
    /// House account ids (the ledger's cache, shared).
    pub house: std::sync::Arc<std::sync::Mutex<HouseIds>>,
    /// The observer's rows deferred to the end of this operation's transaction
    /// ([`crate::Deferred`]): one buffer per operation ([`Cx::for_op`]).
    pub deferred: std::sync::Arc<std::sync::Mutex<Vec<Deferred>>>,
    /// The group-commit writer this context belongs to: the report rollups' shard
    /// ([`crate::rollup`]), so two writers never update the same rollup row.
    pub shard: i64,
}

impl Cx {
    /// This context with a fresh deferred-rows buffer of its own (one operation).
    pub(crate) fn for_op(&self) -> Cx {
        Cx { deferred: Default::default(), ..self.clone() }
    }

    /// Takes the deferred rows out of the buffer.
    fn take_deferred(&self) -> Vec<Deferred> {
        std::mem::take(&mut *self.deferred.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn deferred_len(&self) -> usize {
        self.deferred.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    fn truncate_deferred(&self, len: usize) {
        self.deferred.lock().unwrap_or_else(|p| p.into_inner()).truncate(len);
    }

    /// A posting's report rollup delta, deferred with the observer's rows: rolled back with
    /// its posting, written once before the commit ([`flush`]).
    fn defer_rollup(&self, delta: Option<crate::rollup::Delta>) {
        if let Some(d) = delta {
            self.deferred.lock().unwrap_or_else(|p| p.into_inner()).push(Box::new(d));
        }
    }

    /// The observer, if one is set and watches `tx_type`.
    fn observer(&self, tx_type: TxType) -> Option<&dyn PostingObserver> {
        self.observer.get().map(|o| o.as_ref()).filter(|o| o.watches(tx_type))
    }
}

pub(crate) type HouseIds = HashMap<(HouseAccount, Currency), i64>;

/// What the writer does for a caller.
pub(crate) enum Op {
    /// A posting, and the caller's writes that belong in its transaction, if any
    /// ([`crate::Ledger::post_with`]); the work runs once, after the posting applied.
    /// `attached`: whether it came with work (taken out of `then` when it runs).
    /// `rows`: the caller's rows as data ([`crate::Ledger::post_with_rows`]), written after
    /// the posting applied; a batch writes those of its set-wise postings together.
    Post { req: PostingRequest, hash: String, house: HouseIds, then: std::sync::Mutex<Option<Attached>>, attached: bool, rows: Option<AttachedRows> },
    /// Postings with their request hashes; each succeeds or fails on its own. `then`: the
    /// caller's writes for the postings that applied ([`crate::Ledger::post_many_with`]), run
    /// once in the same database transaction; taken out when it runs.
    PostMany { items: Vec<(PostingRequest, String)>, house: HouseIds, then: std::sync::Mutex<Option<AttachedMany>>, attached: bool },
    Rollback(RollbackRequest),
    /// Postings and rollbacks that succeed together or not at all (a partner's
    /// all-or-none batch): the first failure fails the operation, so its transaction (or
    /// savepoint) is rolled back whole; `failed` records which item failed.
    PostAll { items: Vec<AllItem>, house: HouseIds, failed: std::sync::Arc<std::sync::atomic::AtomicUsize> },
    /// Stops the SQLite writer task (tests of `/healthz`, and nothing else).
    Halt,
}

/// Writes of the caller that belong in a posting's database transaction (a bet's rows with
/// its stake): they run on the posting's connection after the posting applied, so both are
/// durable in the same commit or neither is. `Ok(false)` declines: the posting and the work's
/// writes are undone ([`LedgerError::Declined`]). The work must not wait on another write
/// (on SQLite it runs on the one writer connection).
pub type Attached = Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> futures::future::BoxFuture<'c, Result<bool, sqlx::Error>> + Send>;

/// Boxes a closure as [`Attached`] (a closure passed straight to `Box::new` does not infer
/// the higher-ranked lifetime).
pub fn attached<F>(work: F) -> Attached
where
    F: for<'c> FnOnce(&'c mut AnyConnection) -> futures::future::BoxFuture<'c, Result<bool, sqlx::Error>> + Send + 'static,
{
    Box::new(work)
}

/// Rows of the caller that belong in a posting's database transaction, given as data so a
/// batch can write those of many postings at once (a bet's row and legs with its stake: one
/// `INSERT` for the batch's bets instead of one per bet). [`RowSet::write`] is given the rows
/// of postings that applied now (not replays: the first request wrote them) and answers, per
/// row, whether it was written; `false` declines that posting ([`LedgerError::Declined`]:
/// the posting and its rows are undone). When a row of a set-wise group is declined, or the
/// group's statement fails, the group is undone together and its postings run again one by
/// one, each with its own row, so a decline undoes only its own posting. The rows may
/// therefore be written more than once in one transaction's life (an undone attempt, then
/// the real one): `write` must only write. It must not wait on another write.
pub trait RowSet: Send + Sync + 'static {
    type Row: Send + Sync + 'static;
    fn write<'c>(&'c self, conn: &'c mut AnyConnection, rows: Vec<&'c Self::Row>) -> futures::future::BoxFuture<'c, Result<Vec<bool>, sqlx::Error>>;
}

/// [`RowSet`] with its row type erased, so one batch can hold the rows of several sets.
trait ErasedRowSet: Send + Sync {
    fn write_erased<'c>(&'c self, conn: &'c mut AnyConnection, rows: Vec<&'c (dyn std::any::Any + Send + Sync)>) -> futures::future::BoxFuture<'c, Result<Vec<bool>, sqlx::Error>>;
}

impl<S: RowSet> ErasedRowSet for S {
    fn write_erased<'c>(&'c self, conn: &'c mut AnyConnection, rows: Vec<&'c (dyn std::any::Any + Send + Sync)>) -> futures::future::BoxFuture<'c, Result<Vec<bool>, sqlx::Error>> {
        // Every row was boxed with this set by `AttachedRows::new`, so each downcasts.
        match rows.into_iter().map(|r| r.downcast_ref::<S::Row>()).collect::<Option<Vec<_>>>() {
            Some(rows) => self.write(conn, rows),
            None => Box::pin(async { Err(sqlx::Error::Protocol("a row given to another row set".into())) }),
        }
    }
}

/// One posting's rows and the set that writes them ([`crate::Ledger::post_with_rows`]).
pub struct AttachedRows {
    set: std::sync::Arc<dyn ErasedRowSet>,
    row: Box<dyn std::any::Any + Send + Sync>,
}

impl AttachedRows {
    pub fn new<S: RowSet>(set: std::sync::Arc<S>, row: S::Row) -> Self {
        AttachedRows { set, row: Box::new(row) }
    }

    /// The set's identity: rows of one set are written together.
    fn set_id(&self) -> usize {
        std::sync::Arc::as_ptr(&self.set) as *const u8 as usize
    }
}

/// Writes rows of one set: `Ok(true)` when every row was written, `Ok(false)` when one was
/// declined.
async fn write_rows(conn: &mut AnyConnection, rows: &[&AttachedRows]) -> Result<bool, sqlx::Error> {
    let Some(first) = rows.first() else { return Ok(true) };
    let written = first.set.write_erased(conn, rows.iter().map(|r| r.row.as_ref()).collect()).await?;
    Ok(written.len() == rows.len() && written.into_iter().all(|w| w))
}

/// Writes of the caller that belong in a [`crate::Ledger::post_many_with`]'s database
/// transaction (the bets' new states with their payouts). It is given, for each posting it
/// came with (in input order), whether that posting is booked (applied now or before, a
/// replay of its key) and runs on the postings' connection before their commit; an error
/// undoes the postings and the work together. The work must not wait on another write.
pub type AttachedMany = Box<dyn for<'c> FnOnce(&'c mut AnyConnection, Vec<bool>) -> futures::future::BoxFuture<'c, Result<(), sqlx::Error>> + Send>;

/// Boxes a closure as [`AttachedMany`].
pub fn attached_many<F>(work: F) -> AttachedMany
where
    F: for<'c> FnOnce(&'c mut AnyConnection, Vec<bool>) -> futures::future::BoxFuture<'c, Result<(), sqlx::Error>> + Send + 'static,
{
    Box::new(work)
}

pub(crate) enum Done {
    Posted(Receipt),
    PostedMany(Vec<Result<Receipt, LedgerError>>),
    RolledBack(RollbackOutcome),
    PostedAll(Vec<AllOutcome>),
}

/// One item of an all-or-none operation, with its request hash for postings.
pub(crate) enum AllItem {
    Post(PostingRequest, String),
    Rollback(RollbackRequest),
}

/// Most postings one set-wise step applies (statement parameters stay far below both
/// databases' limits: 16 per posting).
pub const SET_CHUNK: usize = 256;

pub(crate) struct Job {
    pub op: Op,
    pub reply: oneshot::Sender<Result<Done, LedgerError>>,
}

/// The request hash stored with a tombstone (no real posting hashes to it).
pub(crate) const TOMBSTONE_HASH: &str = "tombstone";

async fn run_op(conn: &mut AnyConnection, op: &Op, cx: &Cx) -> Result<Done, LedgerError> {
    match op {
        Op::Post { req, hash, house, then, rows, .. } => {
            let receipt = apply(conn, req, hash, house, cx).await?;
            if let Some(rows) = rows.as_ref().filter(|_| !receipt.replayed) {
                if !write_rows(conn, &[rows]).await? {
                    return Err(LedgerError::Declined);
                }
            }
            // Nothing more on a replay: the first request wrote the attached rows.
            let work = then.lock().unwrap_or_else(|p| p.into_inner()).take();
            match work {
                Some(work) if !receipt.replayed => {
                    if work(conn).await? {
                        Ok(Done::Posted(receipt))
                    } else {
                        Err(LedgerError::Declined)
                    }
                }
                _ => Ok(Done::Posted(receipt)),
            }
        }
        Op::PostMany { items, house, then, attached } => {
            let mut results = apply_many(conn, items, house, cx).await?;
            if !*attached {
                return Ok(Done::PostedMany(results));
            }
            // With attached work the operation is one unit: a posting that failed in the
            // database (not refused: short of funds, a key reused) fails it whole, before the
            // work runs, so it can run again from the start.
            if let Some(i) = results.iter().position(|r| matches!(r, Err(LedgerError::Store(_)))) {
                if let Err(e) = results.swap_remove(i) {
                    return Err(e);
                }
            }
            let booked = results.iter().map(Result::is_ok).collect();
            let work = then.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(work) = work {
                work(conn, booked).await?;
            }
            Ok(Done::PostedMany(results))
        }
        Op::Rollback(req) => apply_rollback(conn, req, cx).await.map(Done::RolledBack),
        Op::PostAll { items, house, failed } => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let result = match item {
                    AllItem::Post(req, hash) => apply(conn, req, hash, house, cx).await.map(AllOutcome::Posted),
                    AllItem::Rollback(req) => apply_rollback(conn, req, cx).await.map(AllOutcome::RolledBack),
                };
                match result {
                    Ok(o) => out.push(o),
                    Err(e) => {
                        failed.store(i, std::sync::atomic::Ordering::SeqCst);
                        return Err(e);
                    }
                }
            }
            Ok(Done::PostedAll(out))
        }
        Op::Halt => Err(LedgerError::Invalid("halt is not an operation".into())),
    }
}

/// The request hash stored with the rollback row that cancels a tombstone (no money moved).
const TOMBSTONE_ROLLBACK_HASH: &str = "tombstone-rollback";

/// A transaction row as rollbacks need it.
struct TxRow {
    id: i64,
    tx_type: i64,
    reverses: Option<i64>,
    group: Option<String>,
    metadata: Option<String>,
}

async fn tx_by_key(conn: &mut AnyConnection, key: &str) -> Result<Option<TxRow>, sqlx::Error> {
    let row = sqlx::query("SELECT id, tx_type, reverses_tx_id, group_key, metadata FROM ledger_transactions WHERE idempotency_key = $1")
        .bind(key)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.map(|r| TxRow { id: r.get(0), tx_type: r.get(1), reverses: r.get(2), group: r.get(3), metadata: r.get(4) }))
}

/// The rollback row that cancels `target`, if any (at most one: unique index).
async fn reversal_of(conn: &mut AnyConnection, target: i64) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query("SELECT id FROM ledger_transactions WHERE reverses_tx_id = $1").bind(target).fetch_optional(&mut *conn).await?;
    Ok(row.map(|r| r.get(0)))
}

/// Only bets and wins are reversible (never a rollback, a tombstone, a payment…): the
/// casino's and the partner sportsbooks' (both through the seamless wallet).
pub(crate) fn is_reversible(tx_type: i64) -> bool {
    [TxType::BetStake, TxType::BetWin, TxType::PartnerSportStake, TxType::PartnerSportPayout].iter().any(|t| t.code() == tx_type)
}

/// A rollback on `conn` (inside a transaction or savepoint). The rules, each decided by
/// a unique index so they hold under concurrency on both databases:
/// * the rollback's own key is claimed like any posting's: a retry of the same rollback
///   replays its outcome; the key of another transaction (a bet, another rollback's
///   reversal of something else) is a conflict (26) and nothing is written;
/// * an original that has not arrived is claimed by a tombstone under its key (the late
///   posting is then refused) and the rollback row points at the tombstone;
/// * an original is reversed at most once (`reverses_tx_id` is unique): a second rollback
///   under a new key answers the first reversal's receipt and moves nothing;
/// * only bets and wins are reversible (a rollback of a rollback is refused).
pub(crate) async fn apply_rollback(
    conn: &mut AnyConnection,
    req: &RollbackRequest,
    cx: &Cx,
) -> Result<RollbackOutcome, LedgerError> {
    let mine = tx_by_key(conn, &req.rollback_key).await?;
    if matches!(&mine, Some(m) if m.tx_type != TxType::Rollback.code()) {
        return Err(LedgerError::IdempotencyConflict);
    }
    let mut original = tx_by_key(conn, &req.original_key).await?;
    if original.is_none() {
        if mine.is_some() {
            // This rollback key already cancelled another transaction.
            return Err(LedgerError::IdempotencyConflict);
        }
        if let Some(tombstone) = insert_tombstone(conn, req).await? {
            let claimed = claim(conn, &rollback_row(req, Vec::new()), TOMBSTONE_ROLLBACK_HASH, Some(tombstone)).await?;
            return match claimed {
                Some(_) => Ok(RollbackOutcome::Tombstoned),
                // The key was taken meanwhile by another transaction: nothing of this stays.
                None => Err(LedgerError::IdempotencyConflict),
            };
        }
        // The original arrived meanwhile.
        original = tx_by_key(conn, &req.original_key).await?;
    }
    let original = original.ok_or_else(|| LedgerError::Invalid("the original transaction vanished".into()))?;
    if let Some(m) = mine {
        if m.reverses != Some(original.id) {
            return Err(LedgerError::IdempotencyConflict);
        }
        // A retry of this very rollback.
        if original.tx_type == TxType::Tombstone.code() {
            return Ok(RollbackOutcome::Tombstoned);
        }
        return Ok(RollbackOutcome::Reversed(receipt_of(conn, m.id, true).await?));
    }
    if original.tx_type == TxType::Tombstone.code() {
        // Cancelled before it arrived, by a rollback under another key: same outcome.
        return Ok(RollbackOutcome::Tombstoned);
    }
    if !is_reversible(original.tx_type) {
        return Err(LedgerError::NotReversible);
    }
    if let Some(first) = reversal_of(conn, original.id).await? {
        return Ok(RollbackOutcome::AlreadyReversed(receipt_of(conn, first, true).await?));
    }
    let rows = sqlx::query(
        "SELECT a.id, a.owner_id, a.kind, a.currency, a.is_house, e.amount FROM ledger_entries e \
         JOIN ledger_accounts a ON a.id = e.account_id WHERE e.tx_id = $1 ORDER BY e.id",
    )
    .bind(original.id)
    .fetch_all(&mut *conn)
    .await?;
    let mut legs = Vec::with_capacity(rows.len());
    let mut house = HouseIds::new();
    for r in rows {
        let (account_id, owner, kind, currency, is_house, amount): (i64, i64, String, String, i64, i64) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5));
        let currency = Currency::from_str(&currency).map_err(|_| LedgerError::Invalid(format!("unknown currency {currency}")))?;
        if is_house != 0 {
            let h = HouseAccount::parse(&kind).ok_or_else(|| LedgerError::Invalid(format!("unknown house account {kind}")))?;
            house.insert((h, currency), account_id);
            legs.push(Leg::house(h, currency, -amount));
        } else {
            let k = BalanceKind::from_str(&kind).map_err(|_| LedgerError::Invalid(format!("unknown kind {kind}")))?;
            legs.push(Leg::player(owner, k, currency, -amount));
        }
    }
    let mut reversal = rollback_row(req, legs);
    reversal.group = original.group;
    let hash = crate::ledger::request_hash(&reversal);
    match claim(conn, &reversal, &hash, Some(original.id)).await? {
        Some(tx_id) => {
            let original_type = TxType::from_code(original.tx_type).ok_or(LedgerError::NotReversible)?;
            let original_metadata: serde_json::Value = original.metadata.as_deref().and_then(|m| serde_json::from_str(m).ok()).unwrap_or_default();
            let (receipt, _) = apply_claimed(conn, &reversal, tx_id, &house, cx, None, Some((original_type, &original_metadata))).await?;
            if let Some(observer) = cx.observer(original_type) {
                let reversed = Reversed { original_tx_id: original.id, original_type, reversal_tx_id: tx_id, user_id: req.user_id };
                let mut deferred = cx.take_deferred();
                let done = observer.reversed(conn, &reversed, &mut deferred).await;
                *cx.deferred.lock().unwrap_or_else(|p| p.into_inner()) = deferred;
                done?;
            }
            Ok(RollbackOutcome::Reversed(receipt))
        }
        // A concurrent rollback won the race: under this key (a retry) or another.
        None => match tx_by_key(conn, &req.rollback_key).await? {
            Some(m) if m.reverses == Some(original.id) => Ok(RollbackOutcome::Reversed(receipt_of(conn, m.id, true).await?)),
            Some(_) => Err(LedgerError::IdempotencyConflict),
            None => match reversal_of(conn, original.id).await? {
                Some(first) => Ok(RollbackOutcome::AlreadyReversed(receipt_of(conn, first, true).await?)),
                None => Err(LedgerError::Invalid("the reversal claim vanished".into())),
            },
        },
    }
}

/// The rollback posting of `req` with `legs` (none when it cancels a tombstone). Its
/// fingerprint names the original, so one rollback key reused for another original
/// conflicts even when the amounts are equal.
fn rollback_row(req: &RollbackRequest, legs: Vec<Leg>) -> PostingRequest {
    PostingRequest {
        tx_type: TxType::Rollback,
        idempotency_key: req.rollback_key.clone(),
        user_id: req.user_id,
        comment: req.comment.clone(),
        metadata: serde_json::json!({ "rolls_back": req.original_key, "details": req.metadata }),
        legs,
        audit: None,
        fingerprint: Some(format!("rollback|{}", req.original_key)),
        group: None,
    }
}

/// Claims the original key of `req` with a tombstone; `Some(id)` when it was free.
async fn insert_tombstone(conn: &mut AnyConnection, req: &RollbackRequest) -> Result<Option<i64>, sqlx::Error> {
    let tombstone = PostingRequest {
        tx_type: TxType::Tombstone,
        idempotency_key: req.original_key.clone(),
        user_id: req.user_id,
        comment: req.comment.clone(),
        metadata: req.metadata.clone(),
        legs: Vec::new(),
        audit: None,
        fingerprint: None,
        group: None,
    };
    claim(conn, &tombstone, TOMBSTONE_HASH, None).await
}

/// Opens every balance of a player in a currency (idempotent), on `conn`.
pub(crate) async fn open_accounts_on(conn: &mut AnyConnection, user_id: i64, currency: Currency) -> Result<(), sqlx::Error> {
    let now = now_ms();
    let mut sql = String::from(
        "INSERT INTO ledger_accounts (id, owner_id, kind, currency, balance, is_house, created_at, updated_at) VALUES ",
    );
    for i in 0..BalanceKind::ALL.len() {
        let b = i * 5;
        if i > 0 {
            sql.push(',');
        }
        sql.push_str(&format!("(${}, ${}, ${}, ${}, 0, 0, ${}, ${})", b + 1, b + 2, b + 3, b + 4, b + 5, b + 5));
    }
    sql.push_str(" ON CONFLICT (owner_id, kind, currency) DO NOTHING");
    let mut q = sqlx::query(&sql);
    for kind in BalanceKind::ALL {
        q = q.bind(next_id()).bind(user_id).bind(kind.as_str()).bind(currency.code()).bind(now);
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

/// The bounds a player balance must be within for `amount` to apply: at least `-amount`
/// (never below zero) and, for a credit, at most `max_balance - amount`. Comparing the
/// balance with bounds computed here keeps every SQL expression far from 64-bit overflow
/// (SQLite would turn `balance + amount` into a float; PostgreSQL would fail the statement).
fn bounds(amount: Minor, currency: Currency, limits: &LedgerLimits) -> (Minor, Minor) {
    let upper = if amount > 0 { limits.max_balance(currency).saturating_sub(amount) } else { i64::MAX };
    (amount.saturating_neg(), upper)
}

/// A stake's wagering terms as the observer's check gave them ([`crate::Checked`]): applied
/// to the posting's one player debit by [`update_player`], at no statement of their own.
#[derive(Clone, Copy, Default)]
pub(crate) struct Terms {
    pub capped: bool,
    pub progress: Minor,
}

/// A player account after its conditional update: id, balance, and whether the update took
/// the account's wagering progress to its target.
type Updated = (i64, i64, bool);

#[allow(clippy::too_many_arguments)]
async fn update_player(
    conn: &mut AnyConnection,
    user_id: i64,
    kind: BalanceKind,
    currency: Currency,
    amount: i64,
    now: i64,
    limits: &LedgerLimits,
    terms: Terms,
) -> Result<Option<Updated>, sqlx::Error> {
    let (lower, upper) = bounds(amount, currency, limits);
    // The stake cap and the wagering progress (crate::terms) ride on the same statement: a
    // capped stake must be at most the account's cap (caps are positive: 0 always passes), and
    // the progress moves only while the account has a target.
    let cap_stake = if terms.capped { amount.saturating_neg().max(0) } else { 0 };
    let row = sqlx::query(
        "UPDATE ledger_accounts SET balance = balance + $1, updated_at = $2, \
         wager_progress = wager_progress + CASE WHEN wager_target IS NULL THEN 0 ELSE CAST($8 AS BIGINT) END \
         WHERE owner_id = $3 AND kind = $4 AND currency = $5 AND is_house = 0 AND balance >= $6 AND balance <= $7 \
         AND (stake_cap IS NULL OR stake_cap >= $9) \
         RETURNING id, balance, wager_progress, wager_target",
    )
    .bind(amount)
    .bind(now)
    .bind(user_id)
    .bind(kind.as_str())
    .bind(currency.code())
    .bind(lower)
    .bind(upper)
    .bind(terms.progress.max(0))
    .bind(cap_stake)
    .fetch_optional(&mut *conn)
    .await?;
    row.map(|r| {
        let (progress, target): (i64, Option<i64>) = (r.try_get(2)?, r.try_get(3)?);
        Ok((r.try_get(0)?, r.try_get(1)?, target.is_some_and(|t| progress >= t)))
    })
    .transpose()
}

/// The cap a stake of `stake` is above on its account, if that is why its update missed.
async fn cap_exceeded(conn: &mut AnyConnection, user_id: i64, kind: BalanceKind, currency: Currency, stake: Minor) -> Result<Option<Minor>, sqlx::Error> {
    let row = sqlx::query("SELECT stake_cap FROM ledger_accounts WHERE owner_id = $1 AND kind = $2 AND currency = $3 AND is_house = 0")
        .bind(user_id)
        .bind(kind.as_str())
        .bind(currency.code())
        .fetch_optional(&mut *conn)
        .await?;
    let cap: Option<i64> = match row {
        Some(r) => r.try_get(0)?,
        None => None,
    };
    Ok(cap.filter(|&c| stake > c))
}

/// Claims `req`'s key: inserts its transaction row, `Some(id)` when the key was free. For
/// a reversal (`reverses`), the row also claims the reversed transaction: the unique index
/// on `reverses_tx_id` makes a second reversal of it answer `None` like a taken key.
///
/// The write comes first: it takes the write lock (SQLite), and on PostgreSQL the unique
/// indexes make a concurrent claim of the same key (or reversal) wait for the first to
/// commit, then answer `DO NOTHING`.
async fn claim(conn: &mut AnyConnection, req: &PostingRequest, hash: &str, reverses: Option<i64>) -> Result<Option<i64>, sqlx::Error> {
    let conflict = if reverses.is_some() { "ON CONFLICT DO NOTHING" } else { "ON CONFLICT (idempotency_key) DO NOTHING" };
    let sql = format!(
        "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at, reverses_tx_id, group_key) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) {conflict} RETURNING id"
    );
    let tx_id = next_id();
    let inserted = sqlx::query(&sql)
        .bind(tx_id)
        .bind(req.tx_type.code())
        .bind(&req.idempotency_key)
        .bind(hash)
        .bind(req.user_id)
        .bind(&req.comment)
        .bind(req.metadata.to_string())
        .bind(now_ms())
        .bind(reverses)
        .bind(req.group.as_deref())
        .fetch_optional(&mut *conn)
        .await?;
    Ok(inserted.map(|_| tx_id))
}

/// Applies one posting on `conn`, which must be inside a transaction (or savepoint) that
/// the caller commits on `Ok` and rolls back on `Err`. A repeated key answers the
/// stored receipt (`replayed`) and writes nothing.
pub(crate) async fn apply(
    conn: &mut AnyConnection,
    req: &PostingRequest,
    hash: &str,
    house: &HouseIds,
    cx: &Cx,
) -> Result<Receipt, LedgerError> {
    match claim(conn, req, hash, None).await? {
        Some(tx_id) => match cx.observer(req.tx_type) {
            None => Ok(apply_claimed(conn, req, tx_id, house, cx, None, None).await?.0),
            Some(observer) => {
                let checked = observer.check(req)?;
                let terms = Terms { capped: checked.capped, progress: checked.progress };
                if checked.extra.is_empty() {
                    let (receipt, met) = apply_claimed(conn, req, tx_id, house, cx, Some((observer, terms)), None).await?;
                    let mut deferred = cx.take_deferred();
                    let done = observer.applied(conn, &[Applied { tx_id, req, met }], &mut deferred).await;
                    *cx.deferred.lock().unwrap_or_else(|p| p.into_inner()) = deferred;
                    done?;
                    return Ok(receipt);
                }
                let merged = with_extra_legs(req, &checked.extra, cx)?;
                let mut house = house.clone();
                resolve_house_on(conn, &merged, &mut house, cx).await?;
                let (receipt, met) = apply_claimed(conn, &merged, tx_id, &house, cx, Some((observer, terms)), None).await?;
                let mut deferred = cx.take_deferred();
                let done = observer.applied(conn, &[Applied { tx_id, req: &merged, met }], &mut deferred).await;
                *cx.deferred.lock().unwrap_or_else(|p| p.into_inner()) = deferred;
                done?;
                Ok(receipt)
            }
        },
        None => replay(conn, &req.idempotency_key, hash).await,
    }
}

/// Moves the balances and writes the entries of a posting whose key `tx_id` claimed.
/// `terms`: a watched posting's stake terms and its observer (the refusal of a stake above
/// its cap); they apply to the posting's first player debit. Also answers whether that stake
/// met its account's wagering target.
async fn apply_claimed(
    conn: &mut AnyConnection,
    req: &PostingRequest,
    tx_id: i64,
    house: &HouseIds,
    cx: &Cx,
    terms: Option<(&dyn PostingObserver, Terms)>,
    rollback_of: Option<(TxType, &serde_json::Value)>,
) -> Result<(Receipt, bool), LedgerError> {
    let now = now_ms();
    let stake_leg = req.legs.iter().position(|l| matches!(l.account, AccountRef::Player { .. }) && l.amount < 0);
    let mut met = false;
    // Player legs in a fixed order (deadlock-free on PostgreSQL).
    let mut legs: Vec<(usize, &Leg)> = req.legs.iter().enumerate().collect();
    legs.sort_by_key(|(_, l)| (l.account, l.currency));
    let mut rows: Vec<(i64, i64, Option<i64>)> = Vec::with_capacity(legs.len());
    let mut balances = Vec::new();
    for (i, leg) in legs {
        match leg.account {
            AccountRef::House(acc) => {
                let id = *house.get(&(acc, leg.currency)).ok_or_else(|| LedgerError::Invalid("house account not resolved".into()))?;
                rows.push((id, leg.amount, None));
            }
            AccountRef::Player { user_id, kind } => {
                let leg_terms = match terms {
                    Some((_, t)) if stake_leg == Some(i) => t,
                    _ => Terms::default(),
                };
                let mut updated = update_player(conn, user_id, kind, leg.currency, leg.amount, now, &cx.limits, leg_terms).await?;
                if updated.is_none() && leg.amount >= 0 {
                    // A credit misses when the account does not exist yet: open the
                    // player's accounts in that currency (same transaction) and retry.
                    open_accounts_on(conn, user_id, leg.currency).await?;
                    updated = update_player(conn, user_id, kind, leg.currency, leg.amount, now, &cx.limits, leg_terms).await?;
                }
                let Some((account_id, balance, reached)) = updated else {
                    if let (Some((observer, _)), true) = (terms, leg_terms.capped) {
                        if let Some(cap) = cap_exceeded(conn, user_id, kind, leg.currency, -leg.amount).await? {
                            return Err(observer.capped(req, cap));
                        }
                    }
                    // A credit that still misses would take the balance above its maximum.
                    return Err(if leg.amount > 0 { LedgerError::BalanceLimit } else { LedgerError::Insufficient(kind) });
                };
                met |= reached && stake_leg == Some(i);
                rows.push((account_id, leg.amount, Some(balance)));
                balances.push(LegBalance { user_id, kind, currency: leg.currency, amount: leg.amount, balance_after: balance });
            }
        }
    }

    let entries: Vec<Entry> = rows.into_iter().map(|(account_id, amount, balance_after)| (tx_id, account_id, amount, balance_after)).collect();
    insert_entries(conn, &entries, now).await?;

    if let Some(audit) = &req.audit {
        let details = serde_json::json!({ "tx_id": tx_id, "details": audit.details }).to_string();
        let record = store::audit::Record { actor: &audit.actor, action: &audit.action, subject: &audit.subject, details: &details };
        store::audit::append(conn, &record, now).await?;
    }
    cx.defer_rollup(crate::rollup::delta(req.tx_type, &req.metadata, &req.legs, req.user_id, now, rollback_of));
    Ok((Receipt { tx_id, created_at: now, replayed: false, balances }, met))
}

/// An entry to write: `(transaction id, account id, amount, balance after)` (no balance
/// after on house accounts, whose balances are derived from their entries).
type Entry = (i64, i64, Minor, Option<Minor>);

async fn insert_entries(conn: &mut AnyConnection, entries: &[Entry], now: i64) -> Result<(), sqlx::Error> {
    for part in entries.chunks(SET_CHUNK * 2) {
        let sql = format!(
            "INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) VALUES {}",
            store::values(part.len(), 6, 1)
        );
        let sql = store::positional(conn, &sql);
        let mut q = sqlx::query(&sql);
        for (tx_id, account_id, amount, balance_after) in part {
            q = q.bind(next_id()).bind(*tx_id).bind(*account_id).bind(*amount).bind(*balance_after).bind(now);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// The player leg of a posting applied set-wise: `(user, kind, currency, amount)`.
type SetLeg = (i64, BalanceKind, Currency, Minor);

/// The player leg of a posting the set-wise path can apply: exactly one player leg, every
/// other leg on a house account, no audit record.
fn set_leg(req: &PostingRequest) -> Option<SetLeg> {
    if req.audit.is_some() {
        return None;
    }
    let mut player = None;
    for leg in &req.legs {
        if let AccountRef::Player { user_id, kind } = leg.account {
            if player.is_some() {
                return None;
            }
            player = Some((user_id, kind, leg.currency, leg.amount));
        }
    }
    player
}

/// Applies many postings on `conn` (inside a transaction or savepoint): each posting's
/// result, in input order. `Err` means a statement failed and the caller must roll the whole
/// operation back (nothing of it is durable). Postings on one account apply in input order
/// among themselves; across accounts the order is unspecified.
pub(crate) async fn apply_many(
    conn: &mut AnyConnection,
    items: &[(PostingRequest, String)],
    house: &HouseIds,
    cx: &Cx,
) -> Result<Vec<Result<Receipt, LedgerError>>, sqlx::Error> {
    let mut results: Vec<Option<Result<Receipt, LedgerError>>> = (0..items.len()).map(|_| None).collect();
    let legs: Vec<Option<SetLeg>> = items.iter().map(|(req, _)| set_leg(req)).collect();
    let (mut pending, mut one_by_one): (Vec<usize>, Vec<usize>) = (0..items.len()).partition(|&i| legs[i].is_some());
    // Each step takes every account and key at most once (one UPDATE row per account);
    // later postings on the same account wait for the next step.
    while !pending.is_empty() {
        let mut accounts = std::collections::HashSet::new();
        let mut keys = std::collections::HashSet::new();
        let (mut step, mut later) = (Vec::new(), Vec::new());
        for i in pending {
            let Some((user_id, kind, currency, _)) = legs[i] else { continue };
            let account = (user_id, kind, currency);
            let key = items[i].0.idempotency_key.as_str();
            if step.len() < SET_CHUNK && !accounts.contains(&account) && !keys.contains(key) {
                accounts.insert(account);
                keys.insert(key);
                step.push(i);
            } else {
                later.push(i);
            }
        }
        one_by_one.extend(apply_set(conn, items, &legs, &step, house, cx, &mut results).await?);
        pending = later;
    }
    one_by_one.sort_unstable();
    for i in one_by_one {
        let (req, hash) = &items[i];
        results[i] = Some(apply_isolated(conn, req, hash, house, cx).await?);
    }
    Ok(results.into_iter().map(|r| r.unwrap_or_else(|| Err(LedgerError::Invalid("posting not applied".into())))).collect())
}

/// One posting in its own savepoint: a failure rolls back only its own writes.
async fn apply_isolated(
    conn: &mut AnyConnection,
    req: &PostingRequest,
    hash: &str,
    house: &HouseIds,
    cx: &Cx,
) -> Result<Result<Receipt, LedgerError>, sqlx::Error> {
    savepoint(conn, "SAVEPOINT single_posting").await?;
    let kept = cx.deferred_len();
    let result = apply(conn, req, hash, house, cx).await;
    if result.is_err() {
        savepoint(conn, "ROLLBACK TO SAVEPOINT single_posting").await?;
        // Its deferred rows go with it.
        cx.truncate_deferred(kept);
    }
    savepoint(conn, "RELEASE SAVEPOINT single_posting").await?;
    Ok(result)
}

/// The set-wise step of [`apply_many`] for `step` (distinct accounts and keys). Writes the
/// results it decides into `results`; returns the postings left for the one-by-one path
/// (a key already used, a credit to an account not opened yet).
async fn apply_set(
    conn: &mut AnyConnection,
    items: &[(PostingRequest, String)],
    legs: &[Option<SetLeg>],
    step: &[usize],
    house: &HouseIds,
    cx: &Cx,
    results: &mut [Option<Result<Receipt, LedgerError>>],
) -> Result<Vec<usize>, sqlx::Error> {
    if step.is_empty() {
        return Ok(Vec::new());
    }
    let now = now_ms();
    let ids: Vec<i64> = step.iter().map(|_| next_id()).collect();
    // 1. Claim the keys: the unique index decides between repeats, as for one posting.
    let sql = format!(
        "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at, group_key) \
         VALUES {} ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
        store::values(step.len(), 9, 1)
    );
    let sql = store::positional(conn, &sql);
    let mut q = sqlx::query(&sql);
    for (k, &i) in step.iter().enumerate() {
        let (req, hash) = &items[i];
        q = q
            .bind(ids[k])
            .bind(req.tx_type.code())
            .bind(req.idempotency_key.as_str())
            .bind(hash.as_str())
            .bind(req.user_id)
            .bind(req.comment.as_str())
            .bind(req.metadata.to_string())
            .bind(now)
            .bind(req.group.as_deref());
    }
    let claimed: std::collections::HashSet<i64> = q.fetch_all(&mut *conn).await?.iter().map(|r| r.get::<i64, _>(0)).collect();
    let mut one_by_one = Vec::new();
    let mut moving = Vec::new();
    for (k, &i) in step.iter().enumerate() {
        if claimed.contains(&ids[k]) {
            moving.push(k);
        } else {
            // The key exists: the one-by-one path answers the replay, conflict or tombstone.
            one_by_one.push(i);
        }
    }
    // Watched postings pass the observer's check before any balance moves; a refused one
    // releases its claim like a posting whose balance did not move.
    let mut refused = Vec::new();
    // Postings the observer extended with extra house legs, as applied.
    let mut merged: HashMap<usize, PostingRequest> = HashMap::new();
    // Their stake terms (cap, wagering progress).
    let mut terms: HashMap<usize, Terms> = HashMap::new();
    let mut house = house.clone();
    if cx.observer.get().is_some() {
        let mut kept = Vec::with_capacity(moving.len());
        for k in moving {
            let i = step[k];
            let Some(observer) = cx.observer(items[i].0.tx_type) else {
                kept.push(k);
                continue;
            };
            match observer.check(&items[i].0) {
                Ok(checked) => {
                    terms.insert(k, Terms { capped: checked.capped, progress: checked.progress });
                    if !checked.extra.is_empty() {
                        let m = with_extra_legs(&items[i].0, &checked.extra, cx).map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
                        resolve_house_on(conn, &m, &mut house, cx).await.map_err(|e| match e {
                            LedgerError::Store(e) => e,
                            other => sqlx::Error::Protocol(other.to_string()),
                        })?;
                        merged.insert(k, m);
                    }
                    kept.push(k)
                }
                Err(LedgerError::Store(e)) => return Err(e),
                Err(e) => {
                    refused.push(ids[k]);
                    results[i] = Some(Err(e));
                }
            }
        }
        moving = kept;
    }
    if moving.is_empty() {
        release(conn, &refused).await?;
        return Ok(one_by_one);
    }
    // 2. Move every player balance, each on its own condition (never below zero, never
    //    above the maximum: the bounds of [`bounds`], columns 5 and 6).
    //    A watched stake's terms ride along as in [`update_player`]: column 7 its wagering
    //    progress, column 8 what its account's stake cap must allow.
    let sql = format!(
        "UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.column4, updated_at = $1, \
         wager_progress = ledger_accounts.wager_progress + CASE WHEN ledger_accounts.wager_target IS NULL THEN 0 ELSE v.column7 END \
         FROM (VALUES {}) AS v \
         WHERE ledger_accounts.owner_id = v.column1 AND ledger_accounts.kind = v.column2 \
         AND ledger_accounts.currency = v.column3 AND ledger_accounts.is_house = 0 \
         AND ledger_accounts.balance >= v.column5 AND ledger_accounts.balance <= v.column6 \
         AND (ledger_accounts.stake_cap IS NULL OR ledger_accounts.stake_cap >= v.column8) \
         RETURNING ledger_accounts.owner_id, ledger_accounts.kind, ledger_accounts.currency, ledger_accounts.id, ledger_accounts.balance, \
         ledger_accounts.wager_progress, ledger_accounts.wager_target",
        store::values(moving.len(), 8, 2)
    );
    let sql = store::positional(conn, &sql);
    let mut q = sqlx::query(&sql).bind(now);
    let leg = |k: usize| legs[step[k]].expect("only postings with a set leg are in a step");
    for &k in &moving {
        let (user_id, kind, currency, amount) = leg(k);
        let (lower, upper) = bounds(amount, currency, &cx.limits);
        let t = terms.get(&k).copied().unwrap_or_default();
        let (progress, cap_stake) = if amount < 0 { (t.progress.max(0), if t.capped { -amount } else { 0 }) } else { (0, 0) };
        q = q.bind(user_id).bind(kind.as_str()).bind(currency.code()).bind(amount).bind(lower).bind(upper).bind(progress).bind(cap_stake);
    }
    // Keyed as the database spells them: `(owner, kind, currency)` → `(account id, balance,
    // wagering target met)`.
    let mut moved: HashMap<(i64, String, String), (i64, i64, bool)> = HashMap::new();
    for r in q.fetch_all(&mut *conn).await? {
        let (progress, target): (i64, Option<i64>) = (r.try_get(5)?, r.try_get(6)?);
        moved.insert((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?), (r.try_get(3)?, r.try_get(4)?, target.is_some_and(|t| progress >= t)));
    }
    // 3. Release the claims of postings whose balance did not move; 4. write the entries.
    let mut released = refused;
    let mut watched = Vec::new();
    let mut entries: Vec<Entry> = Vec::with_capacity(moving.len() * 2);
    for &k in &moving {
        let i = step[k];
        let req = merged.get(&k).unwrap_or(&items[i].0);
        let (user_id, kind, currency, amount) = leg(k);
        let Some(&(account_id, balance, met)) = moved.get(&(user_id, kind.as_str().to_string(), currency.code().to_string())) else {
            released.push(ids[k]);
            if amount < 0 && terms.get(&k).is_some_and(|t| t.capped) {
                // Short of funds or above the stake cap: the one-by-one path tells which.
                one_by_one.push(i);
            } else if amount < 0 {
                results[i] = Some(Err(LedgerError::Insufficient(kind)));
            } else {
                // A credit misses when the account does not exist yet (or would pass the
                // maximum): the one-by-one path opens it, or answers the limit.
                one_by_one.push(i);
            }
            continue;
        };
        for leg in &req.legs {
            match leg.account {
                AccountRef::Player { .. } => entries.push((ids[k], account_id, leg.amount, Some(balance))),
                AccountRef::House(acc) => match house.get(&(acc, leg.currency)) {
                    Some(&id) => entries.push((ids[k], id, leg.amount, None)),
                    None => return Err(sqlx::Error::Protocol("house account not resolved".into())),
                },
            }
        }
        if cx.observer(req.tx_type).is_some() {
            watched.push(Applied { tx_id: ids[k], req, met: met && amount < 0 });
        }
        cx.defer_rollup(crate::rollup::delta(req.tx_type, &req.metadata, &req.legs, req.user_id, now, None));
        results[i] = Some(Ok(Receipt {
            tx_id: ids[k],
            created_at: now,
            replayed: false,
            balances: vec![LegBalance { user_id, kind, currency, amount, balance_after: balance }],
        }));
    }
    release(conn, &released).await?;
    insert_entries(conn, &entries, now).await?;
    if !watched.is_empty() {
        if let Some(observer) = cx.observer.get() {
            let mut deferred = cx.take_deferred();
            let done = observer.applied(conn, &watched, &mut deferred).await;
            *cx.deferred.lock().unwrap_or_else(|p| p.into_inner()) = deferred;
            done.map_err(|e| match e {
                LedgerError::Store(e) => e,
                other => sqlx::Error::Protocol(format!("a posting observer failed: {other}")),
            })?;
        }
    }
    Ok(one_by_one)
}

/// `req` with an observer's extra house legs merged in (amounts on the same account added,
/// legs that come to zero dropped), validated like any posting.
fn with_extra_legs(req: &PostingRequest, extra: &[Leg], cx: &Cx) -> Result<PostingRequest, LedgerError> {
    if extra.iter().any(|l| matches!(l.account, AccountRef::Player { .. })) {
        return Err(LedgerError::Invalid("an observer adds house legs only".into()));
    }
    let mut merged = req.clone();
    for leg in extra {
        match merged.legs.iter_mut().find(|l| l.account == leg.account && l.currency == leg.currency) {
            Some(l) => l.amount += leg.amount,
            None => merged.legs.push(leg.clone()),
        }
    }
    merged.legs.retain(|l| l.amount != 0);
    crate::ledger::validate(&merged, &cx.limits)?;
    Ok(merged)
}

/// Adds the ids of `req`'s house accounts missing from `house`, read on `conn`.
async fn resolve_house_on(conn: &mut AnyConnection, req: &PostingRequest, house: &mut HouseIds, cx: &Cx) -> Result<(), LedgerError> {
    for leg in &req.legs {
        if let AccountRef::House(acc) = leg.account {
            if !house.contains_key(&(acc, leg.currency)) {
                house.insert((acc, leg.currency), house_id_on(conn, acc, leg.currency, cx, false).await?);
            }
        }
    }
    Ok(())
}

/// A house account's id, opened if needed, on `conn` (cached once seen committed; one opened
/// here is cached only when `conn` commits by itself, `autocommit`).
pub(crate) async fn house_id_on(conn: &mut AnyConnection, account: HouseAccount, currency: Currency, cx: &Cx, autocommit: bool) -> Result<i64, sqlx::Error> {
    if let Some(id) = cx.house.lock().unwrap_or_else(|p| p.into_inner()).get(&(account, currency)) {
        return Ok(*id);
    }
    let find = "SELECT id FROM ledger_accounts WHERE owner_id = 0 AND kind = $1 AND currency = $2";
    if let Some(r) = sqlx::query(find).bind(account.as_str()).bind(currency.code()).fetch_optional(&mut *conn).await? {
        let id: i64 = r.try_get(0)?;
        cx.house.lock().unwrap_or_else(|p| p.into_inner()).insert((account, currency), id);
        return Ok(id);
    }
    // Opened here: inside a transaction not cached (it might still roll back).
    let now = now_ms();
    sqlx::query(
        "INSERT INTO ledger_accounts (id, owner_id, kind, currency, balance, is_house, created_at, updated_at) \
         VALUES ($1, 0, $2, $3, 0, 1, $4, $4) ON CONFLICT (owner_id, kind, currency) DO NOTHING",
    )
    .bind(next_id())
    .bind(account.as_str())
    .bind(currency.code())
    .bind(now)
    .execute(&mut *conn)
    .await?;
    let id: i64 = sqlx::query(find).bind(account.as_str()).bind(currency.code()).fetch_one(&mut *conn).await?.try_get(0)?;
    if autocommit {
        cx.house.lock().unwrap_or_else(|p| p.into_inner()).insert((account, currency), id);
    }
    Ok(id)
}

/// Deletes claimed transaction rows that did not apply (no entries point at them).
async fn release(conn: &mut AnyConnection, ids: &[i64]) -> Result<(), sqlx::Error> {
    if ids.is_empty() {
        return Ok(());
    }
    let sql = format!("DELETE FROM ledger_transactions WHERE id IN {}", store::values(1, ids.len(), 1));
    let sql = store::positional(conn, &sql);
    let mut q = sqlx::query(&sql);
    for id in ids {
        q = q.bind(*id);
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

/// The receipt of the posting already stored under `key`, if its parameters match.
async fn replay(conn: &mut AnyConnection, key: &str, hash: &str) -> Result<Receipt, LedgerError> {
    let row = sqlx::query("SELECT id, request_hash FROM ledger_transactions WHERE idempotency_key = $1")
        .bind(key)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| LedgerError::Invalid("idempotency key vanished".into()))?;
    let (tx_id, stored_hash): (i64, String) = (row.try_get(0)?, row.try_get(1)?);
    if stored_hash == TOMBSTONE_HASH {
        return Err(LedgerError::Tombstoned);
    }
    if stored_hash != hash {
        return Err(LedgerError::IdempotencyConflict);
    }
    receipt_of(conn, tx_id, true).await
}

/// The receipt of a stored posting, rebuilt from its entries.
async fn receipt_of(conn: &mut AnyConnection, tx_id: i64, replayed: bool) -> Result<Receipt, LedgerError> {
    let created_at: i64 =
        sqlx::query("SELECT created_at FROM ledger_transactions WHERE id = $1").bind(tx_id).fetch_one(&mut *conn).await?.try_get(0)?;
    let rows = sqlx::query(
        "SELECT a.owner_id, a.kind, a.currency, e.amount, e.balance_after FROM ledger_entries e \
         JOIN ledger_accounts a ON a.id = e.account_id WHERE e.tx_id = $1 AND a.is_house = 0 ORDER BY e.id",
    )
    .bind(tx_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut balances = Vec::new();
    for r in rows {
        let kind: String = r.try_get(1)?;
        let currency: String = r.try_get(2)?;
        balances.push(LegBalance {
            user_id: r.try_get(0)?,
            kind: BalanceKind::from_str(&kind).map_err(|_| LedgerError::Invalid(format!("unknown kind {kind}")))?,
            currency: Currency::from_str(&currency).map_err(|_| LedgerError::Invalid(format!("unknown currency {currency}")))?,
            amount: r.try_get(3)?,
            balance_after: r.try_get::<Option<i64>, _>(4)?.unwrap_or(0),
        });
    }
    Ok(Receipt { tx_id, created_at, replayed, balances })
}

/// Runs one operation, turning a panic into an error of that operation alone: one bad
/// posting must never stop the shared writer (a balance that overflowed into a float once
/// panicked the SQLite writer and refused every later posting of every player).
async fn run_guarded(conn: &mut AnyConnection, op: &Op, cx: &Cx) -> Result<Done, LedgerError> {
    use futures::FutureExt;
    match std::panic::AssertUnwindSafe(run_op(conn, op, cx)).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => {
            let what = panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned());
            tracing::error!(panic = what.as_deref().unwrap_or("?"), "a ledger operation panicked; it is refused and rolled back");
            Err(LedgerError::Invalid("the posting could not be applied".into()))
        }
    }
}

/// Writes the report rollups of the postings that stay and hands the observer its
/// deferred rows, before the commit.
async fn flush(conn: &mut AnyConnection, cx: &Cx, deferred: Vec<Deferred>) -> Result<(), LedgerError> {
    let mut rollups = Vec::new();
    let mut observed = Vec::new();
    for d in deferred {
        match d.downcast::<crate::rollup::Delta>() {
            Ok(delta) => rollups.push(*delta),
            Err(other) => observed.push(other),
        }
    }
    crate::rollup::flush(conn, cx.shard, rollups).await?;
    match cx.observer.get() {
        Some(observer) if !observed.is_empty() => observer.flush(conn, observed).await,
        _ => Ok(()),
    }
}

async fn savepoint(conn: &mut AnyConnection, sql: &str) -> Result<(), sqlx::Error> {
    sqlx::query(sql).execute(&mut *conn).await.map(|_| ())
}

/// Counters of the group-commit writers since start (for `/metrics` and the tests).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BatchCounts {
    /// Transactions the writers committed (or tried to: a retried batch counts again).
    pub batches: u64,
    /// Operations (postings, rollbacks, all-or-none groups) the writers ran.
    pub operations: u64,
    /// Postings applied set-wise (a few statements for the whole batch).
    pub set_wise: u64,
    /// Operations run again after a deadlock, a serialization failure or a lost connection.
    pub retried: u64,
    /// The most operations one batch carried.
    pub largest: u64,
}

#[derive(Default)]
pub(crate) struct BatchStats {
    batches: AtomicU64,
    operations: AtomicU64,
    set_wise: AtomicU64,
    retried: AtomicU64,
    largest: AtomicU64,
}

impl BatchStats {
    pub(crate) fn counts(&self) -> BatchCounts {
        BatchCounts {
            batches: self.batches.load(Relaxed),
            operations: self.operations.load(Relaxed),
            set_wise: self.set_wise.load(Relaxed),
            retried: self.retried.load(Relaxed),
            largest: self.largest.load(Relaxed),
        }
    }
}

/// How many times an operation is run again after a transient failure of its batch (a
/// deadlock, a serialization failure, a lost connection) before it answers `Unavailable`.
pub const MAX_RETRIES: u32 = 5;

impl Op {
    /// The player an operation is about (its writer on PostgreSQL, its place in the batch's
    /// lock order); 0 when none.
    pub(crate) fn player(&self) -> i64 {
        fn of(req: &PostingRequest) -> i64 {
            req.user_id
                .or_else(|| req.legs.iter().find_map(|l| match l.account {
                    AccountRef::Player { user_id, .. } => Some(user_id),
                    AccountRef::House(_) => None,
                }))
                .unwrap_or(0)
        }
        match self {
            Op::Post { req, .. } => of(req),
            Op::PostMany { items, .. } => items.first().map(|(r, _)| of(r)).unwrap_or(0),
            Op::Rollback(r) => r.user_id.unwrap_or(0),
            Op::PostAll { items, .. } => match items.first() {
                Some(AllItem::Post(r, _)) => of(r),
                Some(AllItem::Rollback(r)) => r.user_id.unwrap_or(0),
                None => 0,
            },
            Op::Halt => 0,
        }
    }

    /// Whether the operation can run again from the start: everything but a posting whose
    /// attached work (a `FnOnce`) already ran.
    fn rerunnable(&self) -> bool {
        match self {
            Op::Post { then, attached, .. } => !attached || then.lock().unwrap_or_else(|p| p.into_inner()).is_some(),
            // Its work, when it came with one, has not run yet (taken out when it runs).
            Op::PostMany { then, attached, .. } => !attached || then.lock().unwrap_or_else(|p| p.into_inner()).is_some(),
            Op::Halt => false,
            _ => true,
        }
    }

    /// A posting the set-wise path can take with others of its batch ([`apply_many`]): no
    /// attached work (rows as data are written set-wise too), one player leg, no audit record.
    fn set_wise(&self) -> Option<(&PostingRequest, &String, &HouseIds)> {
        match self {
            Op::Post { req, hash, house, attached: false, .. } if set_leg(req).is_some() => Some((req, hash, house)),
            _ => None,
        }
    }
}

/// Starts the group-commit writers ([`store::dialect::writers`]: one on SQLite, several on
/// PostgreSQL); an operation goes to the writer of its player ([`Op::player`]).
pub(crate) fn spawn_batchers(db: &Db, cx: &Cx, stats: &std::sync::Arc<BatchStats>) -> Vec<mpsc::Sender<Job>> {
    (0..store::dialect::writers(db)).map(|i| spawn_batcher(db.clone(), Cx { shard: i as i64, ..cx.clone() }, stats.clone())).collect()
}

/// One group-commit writer task; operations are sent to the returned channel.
fn spawn_batcher(db: Db, cx: Cx, stats: std::sync::Arc<BatchStats>) -> mpsc::Sender<Job> {
    let (sender, mut receiver) = mpsc::channel::<Job>(MAX_BATCH * 8);
    let on = db.write_tasks().clone();
    on.spawn(async move {
        let mut jobs: Vec<Job> = Vec::with_capacity(MAX_BATCH);
        while let Some(first) = receiver.recv().await {
            if matches!(first.op, Op::Halt) {
                tracing::error!("the ledger writer was halted");
                return;
            }
            jobs.push(first);
            let mut halted = false;
            while jobs.len() < MAX_BATCH {
                match receiver.try_recv() {
                    Ok(job) if matches!(job.op, Op::Halt) => {
                        receiver.close();
                        halted = true;
                        break;
                    }
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            kernel::metrics::observe(kernel::metrics::WRITE_BATCH_SIZE, &[("path", "ledger")], jobs.len() as f64);
            write_batch(&db, std::mem::take(&mut jobs), &cx, &stats).await;
            if halted {
                tracing::error!("the ledger writer was halted");
                return;
            }
        }
    });
    sender
}

/// Whether an operation's result is a transient failure ([`store::dialect::is_transient`]),
/// its own or one of its postings' (`post_many`): the operation was rolled back to its
/// savepoint and may run again.
fn transient(db: &Db, result: &Result<Done, LedgerError>) -> bool {
    let store_transient = |r: &Result<Receipt, LedgerError>| matches!(r, Err(LedgerError::Store(e)) if store::dialect::is_transient(db, e));
    match result {
        Err(LedgerError::Store(e)) => store::dialect::is_transient(db, e),
        Ok(Done::PostedMany(rs)) => rs.iter().any(store_transient),
        _ => false,
    }
}

/// Commits a batch and answers every operation. The operations are ordered by player
/// (stably: one player's operations keep their order of arrival), so two batches — of two
/// writers, or of two instances — lock player rows in the same order. On PostgreSQL a batch
/// can still lose a deadlock (a posting on two players, a set-wise statement's plan) or a
/// serialization failure, or its connection: the operations that failed that way (all of
/// them when the commit itself failed) run again in a new transaction, up to
/// [`MAX_RETRIES`] times; every posting is idempotent under its key, so one whose first
/// commit did land (a connection lost during `COMMIT`) is answered as a replay.
async fn write_batch(db: &Db, mut jobs: Vec<Job>, cx: &Cx, stats: &BatchStats) {
    jobs.sort_by_key(|j| j.op.player());
    let mut attempt = 0u32;
    while !jobs.is_empty() {
        stats.batches.fetch_add(1, Relaxed);
        stats.operations.fetch_add(jobs.len() as u64, Relaxed);
        stats.largest.fetch_max(jobs.len() as u64, Relaxed);
        let mut again = Vec::new();
        match commit_batch(db, &jobs, cx, stats).await {
            Ok(results) => {
                for (job, result) in jobs.drain(..).zip(results) {
                    if transient(db, &result) {
                        if attempt < MAX_RETRIES && job.op.rerunnable() {
                            again.push(job);
                        } else {
                            let why = match &result {
                                Err(e) => e.to_string(),
                                Ok(_) => "a posting of the operation lost a deadlock".into(),
                            };
                            let _ = job.reply.send(Err(LedgerError::Unavailable(why)));
                        }
                    } else {
                        let _ = job.reply.send(result);
                    }
                }
            }
            Err(e) => {
                // Nothing of the batch is durable.
                let retry = store::dialect::is_transient(db, &e) && attempt < MAX_RETRIES;
                for job in jobs.drain(..) {
                    if retry && job.op.rerunnable() {
                        again.push(job);
                    } else {
                        let _ = job.reply.send(Err(LedgerError::Unavailable(e.to_string())));
                    }
                }
            }
        }
        if !again.is_empty() {
            attempt += 1;
            stats.retried.fetch_add(again.len() as u64, Relaxed);
            tracing::warn!(operations = again.len(), attempt, "ledger batch: running operations again after a transient failure");
            // Let the other transaction finish; a little jitter so two writers that
            // collided do not collide again in step.
            let jitter = (next_id() as u64) % 4;
            tokio::time::sleep(std::time::Duration::from_millis((1u64 << attempt.min(6)) + jitter)).await;
        }
        jobs = again;
    }
}

/// Runs a batch in one transaction. `Err`: nothing of it is durable (begin, a savepoint
/// statement or the commit failed). `Ok`: committed; each operation's result, a failed one
/// (or a transient one, see [`transient`]) rolled back to its savepoint alone.
///
/// Plain postings (no attached work, one player leg: a provider's bet or win) are first
/// applied together, set-wise ([`apply_many`]: claim every key, move every balance, write
/// every entry in a few statements), under one savepoint; if that statement group fails as a
/// whole they fall back to one by one. Every other operation runs in its own savepoint. One
/// savepoint name serves them all: `ROLLBACK TO` leaves it in place for the next operation,
/// and `RELEASE … ; SAVEPOINT …` is one round trip.
async fn commit_batch(db: &Db, jobs: &[Job], cx: &Cx, stats: &BatchStats) -> Result<Vec<Result<Done, LedgerError>>, sqlx::Error> {
    let mut tx = db.writer().begin().await?;
    if jobs.len() == 1 {
        // A batch of one: no savepoint to pay for.
        let job_cx = cx.for_op();
        let result = run_guarded(&mut tx, &jobs[0].op, &job_cx).await;
        let write = match &result {
            Ok(Done::Posted(r)) => !r.replayed,
            Ok(_) => true,
            Err(_) => false,
        };
        if !write || transient(db, &result) {
            let _ = tx.rollback().await;
            return Ok(vec![result]);
        }
        if let Err(e) = flush(&mut tx, cx, job_cx.take_deferred()).await {
            let _ = tx.rollback().await;
            return Ok(vec![Err(e)]);
        }
        tx.commit().await?;
        return Ok(vec![result]);
    }
    let mut results: Vec<Option<Result<Done, LedgerError>>> = (0..jobs.len()).map(|_| None).collect();
    // The observer's rows of every operation that stays, written once before the commit.
    let mut deferred: Vec<Deferred> = Vec::new();
    savepoint(&mut tx, "SAVEPOINT posting").await?;

    let plain: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].op.set_wise().is_some()).collect();
    if plain.len() > 1 {
        let mut items = Vec::with_capacity(plain.len());
        let mut house = HouseIds::new();
        for &i in &plain {
            if let Some((req, hash, h)) = jobs[i].op.set_wise() {
                items.push((req.clone(), hash.clone()));
                house.extend(h.iter().map(|(k, v)| (*k, *v)));
            }
        }
        let set_cx = cx.for_op();
        *set_cx.deferred.lock().unwrap_or_else(|p| p.into_inner()) = std::mem::take(&mut deferred);
        let before = set_cx.deferred_len();
        let out = {
            use futures::FutureExt;
            std::panic::AssertUnwindSafe(apply_many(&mut tx, &items, &house, &set_cx)).catch_unwind().await
        };
        deferred = set_cx.take_deferred();
        // The rows of the postings that applied now, one write per set.
        let out = match out {
            Ok(Ok(rs)) if !rs.iter().any(|r| matches!(r, Err(LedgerError::Store(e)) if store::dialect::is_transient(db, e))) => {
                let mut sets: Vec<(usize, Vec<&AttachedRows>)> = Vec::new();
                for (&i, r) in plain.iter().zip(&rs) {
                    let (Op::Post { rows: Some(rows), .. }, Ok(receipt)) = (&jobs[i].op, r) else { continue };
                    if receipt.replayed {
                        continue;
                    }
                    match sets.iter_mut().find(|(id, _)| *id == rows.set_id()) {
                        Some((_, of_set)) => of_set.push(rows),
                        None => sets.push((rows.set_id(), vec![rows])),
                    }
                }
                let mut written = Ok(true);
                for (_, of_set) in &sets {
                    // A panic in the caller's rows must not stop the writer: the group runs
                    // again one by one, where each operation's panic is its own refusal.
                    use futures::FutureExt;
                    written = std::panic::AssertUnwindSafe(write_rows(&mut tx, of_set))
                        .catch_unwind()
                        .await
                        .unwrap_or_else(|_| Err(sqlx::Error::Protocol("the rows of the set-wise postings panicked".into())));
                    if !matches!(written, Ok(true)) {
                        break;
                    }
                }
                match written {
                    Ok(true) => Ok(Ok(rs)),
                    Ok(false) => Ok(Err(sqlx::Error::Protocol("a row of the set-wise postings was declined".into()))),
                    Err(e) => Ok(Err(e)),
                }
            }
            other => other,
        };
        match out {
            Ok(Ok(rs)) if !rs.iter().any(|r| matches!(r, Err(LedgerError::Store(e)) if store::dialect::is_transient(db, e))) => {
                store::dialect::exec_script(&mut tx, "RELEASE SAVEPOINT posting; SAVEPOINT posting").await?;
                stats.set_wise.fetch_add(plain.len() as u64, Relaxed);
                for (&i, r) in plain.iter().zip(rs) {
                    results[i] = Some(r.map(Done::Posted));
                }
            }
            other => {
                if let Ok(Err(e)) = &other {
                    // A declined row is an expected case (a double tap: two bets under one key
                    // in one batch): one by one, only its own posting is undone.
                    tracing::debug!(error = %e, "ledger batch: the set-wise postings (or their rows) failed together; one by one instead");
                }
                deferred.truncate(before);
                store::dialect::exec_script(&mut tx, "ROLLBACK TO SAVEPOINT posting").await?;
            }
        }
    }

    for (i, job) in jobs.iter().enumerate() {
        if results[i].is_some() {
            continue;
        }
        // The rows deferred so far are this job's to see (a rollback of a stake of the same
        // commit cancels its rows); they come back with what the job added, or as they were.
        let job_cx = cx.for_op();
        let before = deferred.len();
        *job_cx.deferred.lock().unwrap_or_else(|p| p.into_inner()) = std::mem::take(&mut deferred);
        let result = run_guarded(&mut tx, &job.op, &job_cx).await;
        deferred = job_cx.take_deferred();
        let keep = result.is_ok() && !transient(db, &result);
        if keep {
            store::dialect::exec_script(&mut tx, "RELEASE SAVEPOINT posting; SAVEPOINT posting").await?;
        } else {
            deferred.truncate(before);
            // The savepoint stays in place for the next operation.
            store::dialect::exec_script(&mut tx, "ROLLBACK TO SAVEPOINT posting").await?;
        }
        results[i] = Some(result);
    }
    if let Err(e) = flush(&mut tx, cx, deferred).await {
        let _ = tx.rollback().await;
        return Err(match e {
            LedgerError::Store(e) => e,
            other => sqlx::Error::Protocol(format!("the posting observer's rows: {other}")),
        });
    }
    // The open (empty) savepoint is committed with the rest.
    tx.commit().await?;
    Ok(results.into_iter().map(|r| r.unwrap_or_else(|| Err(LedgerError::Invalid("posting not applied".into())))).collect())
}
