use crate::model::*;
use crate::observer::PostingObserver;
use crate::posting::{open_accounts_on, spawn_batchers, AllItem, Attached, AttachedMany, AttachedRows, BatchCounts, BatchStats, Cx, Done, Job, Op};
use kernel::{Currency, Minor};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use store::sqlx::{self, Row};
use store::Db;
use tokio::sync::{mpsc, oneshot};

/// The ledger service. Cheap to clone.
#[derive(Clone)]
pub struct Ledger {
    db: Db,
    house_ids: Arc<Mutex<HashMap<(HouseAccount, Currency), i64>>>,
    stats: Arc<Mutex<BTreeMap<(TxType, &'static str), u64>>>,
    /// The group-commit writers (one on SQLite; several on PostgreSQL, by player).
    writers: Arc<Vec<mpsc::Sender<Job>>>,
    batch_stats: Arc<BatchStats>,
    cx: Cx,
}

/// Postings counted by type and outcome since start (for `/metrics`).
pub type LedgerStats = BTreeMap<(TxType, &'static str), u64>;

#[derive(Debug, Clone)]
pub struct HistoryQuery {
    pub user_id: i64,
    pub from_ms: i64,
    pub to_ms: i64,
    pub limit: i64,
    pub offset: i64,
    /// Only the entries on this balance (e.g. the cashback page's cashback history).
    pub kind: Option<BalanceKind>,
}

/// One entry on a player account, with its transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub entry_id: i64,
    pub tx_id: i64,
    pub tx_type: i64,
    pub kind: BalanceKind,
    pub currency: Currency,
    pub amount: Minor,
    pub balance_after: Option<Minor>,
    pub comment: String,
    pub created_at: i64,
    /// What the posting was for, as its poster recorded it (a casino posting: provider,
    /// gameId, roundId; a rollback: `{rolls_back, details}`); `Null` when unreadable.
    pub metadata: serde_json::Value,
}

pub(crate) fn request_hash(req: &PostingRequest) -> String {
    let mut h = Sha256::new();
    h.update(req.tx_type.code().to_le_bytes());
    h.update(req.user_id.unwrap_or(0).to_le_bytes());
    for leg in &req.legs {
        match leg.account {
            AccountRef::Player { user_id, kind } => {
                h.update(b"P");
                h.update(user_id.to_le_bytes());
                h.update(kind.as_str().as_bytes());
            }
            AccountRef::House(acc) => {
                h.update(b"H");
                h.update(acc.as_str().as_bytes());
            }
        }
        h.update(b"|");
        h.update(leg.currency.code().as_bytes());
        h.update(leg.amount.to_le_bytes());
    }
    if let Some(f) = &req.fingerprint {
        h.update(b"#");
        h.update(f.as_bytes());
    }
    hex::encode(h.finalize())
}

/// How a posting ended, for the metrics.
fn outcome(result: &Result<Receipt, LedgerError>) -> &'static str {
    match result {
        Ok(r) if r.replayed => "replayed",
        Ok(_) => "posted",
        Err(LedgerError::Insufficient(_)) => "insufficient",
        Err(LedgerError::IdempotencyConflict) => "conflict",
        Err(LedgerError::Tombstoned) => "tombstoned",
        Err(LedgerError::AmountTooLarge | LedgerError::BalanceLimit) => "limit",
        Err(LedgerError::Declined) => "declined",
        Err(LedgerError::Refused(_)) => "refused",
        Err(_) => "error",
    }
}

pub(crate) fn validate(req: &PostingRequest, limits: &LedgerLimits) -> Result<(), LedgerError> {
    if req.idempotency_key.trim().is_empty() || req.idempotency_key.len() > 200 {
        return Err(LedgerError::Invalid("idempotency key must be 1 to 200 characters".into()));
    }
    if req.legs.len() < 2 {
        return Err(LedgerError::Invalid("a posting needs at least two legs".into()));
    }
    // A posting whose legs are all zero is a *record*: it moves nothing but claims its key
    // (a provider's zero stake, so the same id cannot come back later with an amount).
    let record = req.legs.iter().all(|l| l.amount == 0);
    let mut sums: BTreeMap<Currency, i128> = BTreeMap::new();
    for leg in &req.legs {
        if leg.amount == 0 && !record {
            return Err(LedgerError::Invalid("a leg cannot be zero".into()));
        }
        if leg.amount.unsigned_abs() > limits.max_amount(leg.currency).unsigned_abs() {
            return Err(LedgerError::AmountTooLarge);
        }
        *sums.entry(leg.currency).or_default() += leg.amount as i128;
    }
    if sums.values().any(|s| *s != 0) {
        return Err(LedgerError::Invalid("legs must sum to zero per currency".into()));
    }
    let mut seen = std::collections::BTreeSet::new();
    for leg in &req.legs {
        if !seen.insert((leg.account, leg.currency)) {
            return Err(LedgerError::Invalid("an account appears twice in one posting".into()));
        }
    }
    Ok(())
}

impl Ledger {
    /// Must be called inside a Tokio runtime (the group-commit writers start here).
    pub fn new(db: Db) -> Ledger {
        Ledger::with_limits(db, LedgerLimits::default())
    }

    /// [`Self::new`] with the per-posting and per-balance maxima from the settings.
    pub fn with_limits(db: Db, limits: LedgerLimits) -> Ledger {
        let house_ids: Arc<Mutex<HashMap<(HouseAccount, Currency), i64>>> = Default::default();
        let cx = Cx { limits, observer: Default::default(), house: house_ids.clone(), deferred: Default::default(), shard: 0 };
        let batch_stats: Arc<BatchStats> = Default::default();
        let writers = Arc::new(spawn_batchers(&db, &cx, &batch_stats));
        Ledger { db, house_ids, stats: Default::default(), writers, batch_stats, cx }
    }

    pub fn limits(&self) -> LedgerLimits {
        self.cx.limits
    }

    /// Sets the one posting observer (promotions; [`crate::PostingObserver`]): from now on
    /// every posting of a type it watches runs its check and writes in its own transaction.
    /// Clones of this ledger share it. `false` when one was already set (it stays).
    pub fn set_observer(&self, observer: Arc<dyn PostingObserver>) -> bool {
        self.cx.observer.set(observer).is_ok()
    }

    /// Stops the group-commit writers as a crash of them would: for tests of what the
    /// platform does then (`/healthz` fails).
    #[doc(hidden)]
    pub async fn halt_writer(&self) {
        for writer in self.writers.iter() {
            let (reply, _answer) = oneshot::channel();
            let _ = writer.send(Job { op: Op::Halt, reply }).await;
        }
        for _ in 0..100 {
            if self.writers.iter().all(|w| w.is_closed()) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// False once a group-commit writer has stopped (its players' postings would fail):
    /// `/healthz` reports it so the instance is taken out of service and restarted.
    pub fn writer_alive(&self) -> bool {
        self.writers.iter().all(|w| !w.is_closed())
    }

    /// The group-commit writers' counters since start (batches, their sizes, retries).
    pub fn batch_counts(&self) -> BatchCounts {
        self.batch_stats.counts()
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Postings queued for the group-commit writers, all together: `/metrics`.
    pub fn queue_depth(&self) -> usize {
        self.writers.iter().map(|w| w.max_capacity().saturating_sub(w.capacity())).sum()
    }

    pub fn stats(&self) -> LedgerStats {
        self.stats.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn count(&self, tx_type: TxType, outcome: &'static str) {
        *self.stats.lock().unwrap_or_else(|p| p.into_inner()).entry((tx_type, outcome)).or_default() += 1;
    }

    /// Opens every balance of a player in a currency (idempotent).
    pub async fn open_accounts(&self, user_id: i64, currency: Currency) -> Result<(), LedgerError> {
        let mut conn = self.db.writer().acquire().await?;
        open_accounts_on(&mut conn, user_id, currency).await?;
        Ok(())
    }

    async fn house_id(&self, account: HouseAccount, currency: Currency) -> Result<i64, LedgerError> {
        if let Some(id) = self.house_ids.lock().unwrap_or_else(|p| p.into_inner()).get(&(account, currency)) {
            return Ok(*id);
        }
        // Opening a house account races another instance's opening of it; at SERIALIZABLE
        // PostgreSQL may refuse one with a serialization failure (`ON CONFLICT` over a row
        // its snapshot cannot see): run again, like the writers do, then answer `Unavailable`
        // (retry) rather than the database's error.
        let mut attempt = 0u32;
        loop {
            let mut conn = self.db.writer().acquire().await?;
            match crate::posting::house_id_on(&mut conn, account, currency, &self.cx, true).await {
                Ok(id) => return Ok(id),
                Err(e) if store::dialect::is_transient(&self.db, &e) => {
                    drop(conn);
                    attempt += 1;
                    if attempt > crate::posting::MAX_RETRIES {
                        return Err(LedgerError::Unavailable(e.to_string()));
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(1 << attempt.min(6))).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Posts a balanced transaction atomically and idempotently.
    pub async fn post(&self, req: PostingRequest) -> Result<Receipt, LedgerError> {
        self.post_counted(req, None, None).await
    }

    /// Posts a transaction and writes the caller's rows that go with it in the same database
    /// transaction (one commit): a bet's rows with its stake, so a bet exists exactly when
    /// its stake moved. `then` runs on the posting's connection once the posting applied
    /// (not on a replay of its key: the first request wrote them); `Ok(false)` from it, or an
    /// error, undoes both (`Declined`, or the error). Otherwise as [`Self::post`].
    pub async fn post_with(&self, req: PostingRequest, then: Attached) -> Result<Receipt, LedgerError> {
        self.post_counted(req, Some(then), None).await
    }

    /// [`Self::post_with`] with the caller's rows given as data ([`crate::RowSet`]): the
    /// group-commit writer writes the rows of many such postings of a batch in one statement
    /// per set (a batch's bets and their legs), each posting still applied or refused alone.
    /// A row declined undoes its own posting only (`Declined`).
    pub async fn post_with_rows(&self, req: PostingRequest, rows: AttachedRows) -> Result<Receipt, LedgerError> {
        self.post_counted(req, None, Some(rows)).await
    }

    async fn post_counted(&self, req: PostingRequest, then: Option<Attached>, rows: Option<AttachedRows>) -> Result<Receipt, LedgerError> {
        let tx_type = req.tx_type;
        let result = self.post_inner(req, then, rows).await;
        self.count(tx_type, outcome(&result));
        result
    }

    async fn post_inner(&self, req: PostingRequest, then: Option<Attached>, rows: Option<AttachedRows>) -> Result<Receipt, LedgerError> {
        validate(&req, &self.cx.limits)?;
        // House account ids are resolved before the transaction (cached after first use)
        // so the posting itself is: INSERT transaction, one conditional UPDATE per player
        // leg, one multi-row INSERT of entries (and the attached work, if any).
        let mut house = HashMap::new();
        self.resolve_house(&req, &mut house).await?;
        let hash = request_hash(&req);
        let attached = then.is_some();
        match self.run(Op::Post { req, hash, house, then: std::sync::Mutex::new(then), attached, rows }).await? {
            Done::Posted(receipt) => Ok(receipt),
            _ => Err(LedgerError::Invalid("unexpected outcome".into())),
        }
    }

    /// Posts many transactions in one operation (one commit on SQLite's writer, one
    /// database transaction on PostgreSQL) and answers each in input order: every posting
    /// is atomic and idempotent on its own and fails alone, exactly as with [`Self::post`]
    /// (a game settling thousands of players at once). Postings on the same account apply in
    /// input order; across accounts the order is unspecified, so two postings that depend
    /// on each other's effect across accounts belong in separate calls. When the operation
    /// as a whole cannot be made durable, every posting answers `Unavailable` (retry with
    /// the same keys).
    pub async fn post_many(&self, reqs: Vec<PostingRequest>) -> Vec<Result<Receipt, LedgerError>> {
        let n = reqs.len();
        self.post_many_inner(reqs, None)
            .await
            .unwrap_or_else(|e| (0..n).map(|_| Err(LedgerError::Unavailable(e.to_string()))).collect())
    }

    /// [`Self::post_many`], and the caller's writes that go with the postings in the same
    /// database transaction (one commit): the bets a result settles, with their payouts.
    /// `then` is told, for each of `reqs` in order, whether that posting is booked (applied
    /// now, or before under its key) and runs once, before the commit. A posting refused
    /// (short of funds, a key reused with another body) is only marked not booked; a
    /// database failure, or the work's own error, undoes everything: `Err` (nothing is
    /// booked, nothing written; retry with the same keys).
    pub async fn post_many_with(&self, reqs: Vec<PostingRequest>, then: AttachedMany) -> Result<Vec<Result<Receipt, LedgerError>>, LedgerError> {
        self.post_many_inner(reqs, Some(then)).await
    }

    /// `Err`: the operation as a whole was not made durable.
    async fn post_many_inner(&self, reqs: Vec<PostingRequest>, then: Option<AttachedMany>) -> Result<Vec<Result<Receipt, LedgerError>>, LedgerError> {
        let mut out: Vec<Option<Result<Receipt, LedgerError>>> = (0..reqs.len()).map(|_| None).collect();
        let mut items = Vec::with_capacity(reqs.len());
        let mut at = Vec::with_capacity(reqs.len());
        let mut types = Vec::with_capacity(reqs.len());
        let mut house = HashMap::new();
        for (i, req) in reqs.into_iter().enumerate() {
            types.push(req.tx_type);
            if let Err(e) = validate(&req, &self.cx.limits) {
                out[i] = Some(Err(e));
                continue;
            }
            if let Err(e) = self.resolve_house(&req, &mut house).await {
                out[i] = Some(Err(e));
                continue;
            }
            let hash = request_hash(&req);
            items.push((req, hash));
            at.push(i);
        }
        // With work attached the operation runs even without a posting (every bet of a
        // chunk lost: only their states are written).
        if !items.is_empty() || then.is_some() {
            let n = items.len();
            let attached = then.is_some();
            let then = then.map(|work| {
                // The work hears about every request: refused before the writer = not booked.
                let (total, at) = (out.len(), at.clone());
                crate::posting::attached_many(move |conn, booked| {
                    let mut all = vec![false; total];
                    for (&i, b) in at.iter().zip(booked) {
                        all[i] = b;
                    }
                    work(conn, all)
                })
            });
            let op = Op::PostMany { items, house, then: Mutex::new(then), attached };
            let results = match self.run(op).await {
                Ok(Done::PostedMany(r)) if r.len() == n => r,
                Ok(_) => (0..n).map(|_| Err(LedgerError::Invalid("unexpected outcome".into()))).collect(),
                Err(e) => {
                    for tx_type in types {
                        self.count(tx_type, "error");
                    }
                    return Err(LedgerError::Unavailable(e.to_string()));
                }
            };
            for (i, r) in at.into_iter().zip(results) {
                out[i] = Some(r);
            }
        }
        Ok(out
            .into_iter()
            .zip(types)
            .map(|(r, tx_type)| {
                let r = r.unwrap_or_else(|| Err(LedgerError::Invalid("posting not applied".into())));
                self.count(tx_type, outcome(&r));
                r
            })
            .collect())
    }

    /// Adds the ids of the house accounts `req` names to `house` (cached after first use).
    async fn resolve_house(&self, req: &PostingRequest, house: &mut HashMap<(HouseAccount, Currency), i64>) -> Result<(), LedgerError> {
        for leg in &req.legs {
            if let AccountRef::House(acc) = leg.account {
                house.insert((acc, leg.currency), self.house_id(acc, leg.currency).await?);
            }
        }
        Ok(())
    }

    /// Runs an operation on its player's group-commit writer.
    async fn run(&self, op: Op) -> Result<Done, LedgerError> {
        let writer = &self.writers[op.player().rem_euclid(self.writers.len() as i64) as usize];
        let (reply, answer) = oneshot::channel();
        writer.send(Job { op, reply }).await.map_err(|_| LedgerError::Unavailable("the ledger writer stopped".into()))?;
        answer.await.map_err(|_| LedgerError::Unavailable("the ledger writer stopped".into()))?
    }

    /// Cancels the posting stored under `original_key` (a provider's rollback): reverses
    /// it, or — when it is unknown — leaves a tombstone that refuses it if it arrives
    /// later (no money moves). Idempotent: a retry answers the same outcome.
    pub async fn rollback(&self, req: RollbackRequest) -> Result<RollbackOutcome, LedgerError> {
        if req.original_key.trim().is_empty() || req.rollback_key.trim().is_empty() || req.original_key == req.rollback_key {
            return Err(LedgerError::Invalid("rollback needs two distinct keys".into()));
        }
        let result = match self.run(Op::Rollback(req)).await {
            Ok(Done::RolledBack(outcome)) => Ok(outcome),
            Ok(_) => Err(LedgerError::Invalid("unexpected posting outcome".into())),
            Err(e) => Err(e),
        };
        let outcome = match &result {
            Ok(RollbackOutcome::Tombstoned) => "tombstoned",
            Ok(RollbackOutcome::Reversed(r)) if r.replayed => "replayed",
            Ok(RollbackOutcome::Reversed(_)) => "posted",
            Ok(RollbackOutcome::AlreadyReversed(_)) => "already_reversed",
            Err(LedgerError::NotReversible) => "not_reversible",
            Err(LedgerError::IdempotencyConflict) => "conflict",
            Err(LedgerError::Insufficient(_)) => "insufficient",
            Err(_) => "error",
        };
        self.count(TxType::Rollback, outcome);
        result
    }

    /// Postings and rollbacks that all succeed or none does (a partner's all-or-none batch):
    /// one database transaction (one savepoint of the SQLite writer's commit), applied in
    /// input order. Each item keeps its own idempotency key, so a replay of the whole batch
    /// replays every item and moves nothing. `Err((i, e))`: item `i` failed with `e` and
    /// nothing of the operation was written (when the operation as a whole could not be made
    /// durable, `i` is 0 and `e` is `Unavailable`: retry with the same keys).
    pub async fn post_all(&self, reqs: Vec<AllRequest>) -> Result<Vec<AllOutcome>, (usize, LedgerError)> {
        let mut house = HashMap::new();
        let mut items = Vec::with_capacity(reqs.len());
        for (i, req) in reqs.into_iter().enumerate() {
            match req {
                AllRequest::Post(p) => {
                    validate(&p, &self.cx.limits).map_err(|e| (i, e))?;
                    self.resolve_house(&p, &mut house).await.map_err(|e| (i, e))?;
                    let hash = request_hash(&p);
                    items.push(AllItem::Post(p, hash));
                }
                AllRequest::Rollback(r) => {
                    if r.original_key.trim().is_empty() || r.rollback_key.trim().is_empty() || r.original_key == r.rollback_key {
                        return Err((i, LedgerError::Invalid("rollback needs two distinct keys".into())));
                    }
                    items.push(AllItem::Rollback(r));
                }
            }
        }
        if items.is_empty() {
            return Ok(Vec::new());
        }
        let n = items.len();
        let failed = Arc::new(std::sync::atomic::AtomicUsize::new(usize::MAX));
        match self.run(Op::PostAll { items, house, failed: failed.clone() }).await {
            Ok(Done::PostedAll(out)) if out.len() == n => Ok(out),
            Ok(_) => Err((0, LedgerError::Invalid("unexpected outcome".into()))),
            Err(e) => {
                let at = failed.load(std::sync::atomic::Ordering::SeqCst);
                Err((if at < n { at } else { 0 }, e))
            }
        }
    }

    /// A manual, audited adjustment: `amount` (signed, minor units) is credited to or
    /// debited from a player's balance against the house account that funds that kind.
    /// The audit record is written in the same database transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn adjust(
        &self,
        user_id: i64,
        currency: Currency,
        kind: BalanceKind,
        amount: Minor,
        actor: &str,
        reason: &str,
        idempotency_key: String,
    ) -> Result<Receipt, LedgerError> {
        let posting = adjust_posting(user_id, currency, kind, amount, actor, reason, idempotency_key, serde_json::Value::Null)?;
        self.post(posting).await
    }

    /// Every balance of a player.
    ///
    /// The balance poll reads them in the same query as the session instead, through
    /// [`crate::BALANCES_JOIN`] and [`crate::balances_from_rows`].
    pub async fn balances(&self, user_id: i64) -> Result<Vec<Balance>, LedgerError> {
        let rows = sqlx::query("SELECT kind, currency, balance FROM ledger_accounts WHERE owner_id = $1 AND is_house = 0")
            .bind(user_id)
            .fetch_all(self.db.reader())
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let kind: String = r.get(0);
            let currency: String = r.get(1);
            if let (Ok(kind), Ok(currency)) = (BalanceKind::from_str(&kind), Currency::from_str(&currency)) {
                out.push(Balance { kind, currency, amount: r.get(2) });
            }
        }
        Ok(out)
    }

    /// One balance (0 when the account does not exist).
    pub async fn balance(&self, user_id: i64, kind: BalanceKind, currency: Currency) -> Result<Minor, LedgerError> {
        let row = sqlx::query("SELECT balance FROM ledger_accounts WHERE owner_id = $1 AND kind = $2 AND currency = $3 AND is_house = 0")
            .bind(user_id)
            .bind(kind.as_str())
            .bind(currency.code())
            .fetch_optional(self.db.reader())
            .await?;
        Ok(row.map(|r| r.get(0)).unwrap_or(0))
    }

    /// A player's entries in `[from, to)`, newest first.
    pub async fn history(&self, q: &HistoryQuery) -> Result<Vec<HistoryEntry>, LedgerError> {
        let sql = format!(
            "SELECT e.id, e.tx_id, t.tx_type, a.kind, a.currency, e.amount, e.balance_after, t.comment, e.created_at, t.metadata \
             FROM ledger_entries e \
             JOIN ledger_accounts a ON a.id = e.account_id \
             JOIN ledger_transactions t ON t.id = e.tx_id \
             WHERE a.owner_id = $1 AND a.is_house = 0 AND e.created_at >= $2 AND e.created_at < $3{} \
             ORDER BY e.created_at DESC, e.id DESC LIMIT $4 OFFSET $5",
            if q.kind.is_some() { " AND a.kind = $6" } else { "" }
        );
        let mut query = sqlx::query(&sql).bind(q.user_id).bind(q.from_ms).bind(q.to_ms).bind(q.limit).bind(q.offset);
        if let Some(kind) = q.kind {
            query = query.bind(kind.as_str());
        }
        let rows = query
        .fetch_all(self.db.reader())
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let kind: String = r.get(3);
            let currency: String = r.get(4);
            let (Ok(kind), Ok(currency)) = (BalanceKind::from_str(&kind), Currency::from_str(&currency)) else {
                continue;
            };
            out.push(HistoryEntry {
                entry_id: r.get(0),
                tx_id: r.get(1),
                tx_type: r.get(2),
                kind,
                currency,
                amount: r.get(5),
                balance_after: r.get(6),
                comment: r.get(7),
                created_at: r.get(8),
                metadata: serde_json::from_str(&r.get::<String, _>(9)).unwrap_or(serde_json::Value::Null),
            });
        }
        Ok(out)
    }

    /// The posting (or tombstone) stored under an idempotency key, if any (read on the
    /// writer's connection: it sees the writer's own uncommitted work).
    pub async fn lookup(&self, key: &str) -> Result<Option<PostedTx>, LedgerError> {
        self.lookup_on(key, self.db.writer()).await
    }

    /// [`Self::lookup`] of what is committed, on the readers' pool: never queued behind the
    /// group-commit writer (SQLite's one writer connection). For checks made before a
    /// posting (a provider's "is this bet known, was it reversed"), which see every posting
    /// answered before they started.
    pub async fn lookup_committed(&self, key: &str) -> Result<Option<PostedTx>, LedgerError> {
        self.lookup_on(key, self.db.reader()).await
    }

    async fn lookup_on(&self, key: &str, pool: &sqlx::AnyPool) -> Result<Option<PostedTx>, LedgerError> {
        let row = sqlx::query(
            "SELECT id, tx_type, user_id, metadata, created_at, request_hash FROM ledger_transactions WHERE idempotency_key = $1",
        )
        .bind(key)
        .fetch_optional(pool)
        .await?;
        Ok(row.map(|r| {
            let metadata: String = r.get(3);
            let hash: String = r.get(5);
            PostedTx {
                tx_id: r.get(0),
                tx_type: r.get(1),
                user_id: r.get(2),
                metadata: serde_json::from_str(&metadata).unwrap_or(serde_json::Value::Null),
                created_at: r.get(4),
                tombstone: hash == crate::posting::TOMBSTONE_HASH,
            }
        }))
    }

    /// Whether a posting of `tx_type` for `user_id` exists in `group` (a provider's round):
    /// a win of a provider whose wins need a bet checks its round with this.
    pub async fn group_has(&self, group: &str, tx_type: TxType, user_id: i64) -> Result<bool, LedgerError> {
        let row = sqlx::query("SELECT id FROM ledger_transactions WHERE group_key = $1 AND tx_type = $2 AND user_id = $3 LIMIT 1")
            .bind(group)
            .bind(tx_type.code())
            .bind(user_id)
            .fetch_optional(self.db.reader())
            .await?;
        Ok(row.is_some())
    }

    /// Whether the posting `tx_id` has been reversed (a rollback names it), as committed
    /// (the readers' pool).
    pub async fn is_reversed(&self, tx_id: i64) -> Result<bool, LedgerError> {
        let row = sqlx::query("SELECT id FROM ledger_transactions WHERE reverses_tx_id = $1 LIMIT 1")
            .bind(tx_id)
            .fetch_optional(self.db.reader())
            .await?;
        Ok(row.is_some())
    }

    /// Recomputes every balance and checks every transaction (see [`crate::VerifyReport`]).
    pub async fn verify(&self) -> Result<crate::VerifyReport, LedgerError> {
        crate::verify::run(&self.db).await
    }
}

/// The posting of a manual, audited adjustment (what [`Ledger::adjust`] posts): `amount`
/// (signed, minor units) credited to or debited from the player's `kind` against the house
/// account that funds it, with its audit record (`wallet.adjust`; `extra` joins the record's
/// details, e.g. the four-eyes request it carries out). Post it with [`Ledger::post_with`] to
/// write the caller's rows in the same transaction.
#[allow(clippy::too_many_arguments)]
pub fn adjust_posting(
    user_id: i64,
    currency: Currency,
    kind: BalanceKind,
    amount: Minor,
    actor: &str,
    reason: &str,
    idempotency_key: String,
    extra: serde_json::Value,
) -> Result<PostingRequest, LedgerError> {
    if amount == 0 {
        return Err(LedgerError::Invalid("the amount must not be zero".into()));
    }
    if reason.trim().is_empty() {
        return Err(LedgerError::Invalid("a reason is required".into()));
    }
    let player = AccountRef::Player { user_id, kind };
    let house = AccountRef::House(kind.funding_house());
    let (from, to) = if amount > 0 { (house, player) } else { (player, house) };
    let mut details = serde_json::json!({
        "kind": kind.as_str(), "amount": amount, "currency": currency.code(), "reason": reason, "key": idempotency_key
    });
    if let (Some(d), serde_json::Value::Object(more)) = (details.as_object_mut(), extra) {
        d.extend(more);
    }
    Ok(PostingRequest::transfer(TxType::ManualAdjustment, idempotency_key.clone(), Some(user_id), currency, from, to, amount.abs())
        .comment(format!("Manual adjustment: {reason}"))
        .metadata(serde_json::json!({ "actor": actor, "reason": reason }))
        .audit(Audit { actor: actor.to_string(), action: "wallet.adjust".into(), subject: format!("user:{user_id}"), details }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(legs: Vec<Leg>) -> PostingRequest {
        PostingRequest {
            tx_type: TxType::ManualAdjustment,
            idempotency_key: "k".into(),
            user_id: Some(1),
            comment: String::new(),
            metadata: serde_json::json!({}),
            legs,
            audit: None,
            fingerprint: None,
            group: None,
        }
    }

    fn validate_default(r: &PostingRequest) -> Result<(), LedgerError> {
        validate(r, &LedgerLimits::default())
    }

    #[test]
    fn validation_rejects_unbalanced_and_degenerate_postings() {
        let tnd = Currency::Tnd;
        assert!(validate_default(&req(vec![Leg::player(1, BalanceKind::Real, tnd, 5)])).is_err());
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, 5),
            Leg::house(HouseAccount::Adjustments, tnd, -4)
        ]))
        .is_err());
        // All legs zero: a record (moves nothing, claims its key); one zero leg among
        // others is degenerate.
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, 0),
            Leg::house(HouseAccount::Adjustments, tnd, 0)
        ]))
        .is_ok());
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, 5),
            Leg::player(1, BalanceKind::Bonus, tnd, 0),
            Leg::house(HouseAccount::Adjustments, tnd, -5)
        ]))
        .is_err());
        // Above the per-transaction maximum (in minor units of the leg's currency).
        let max = LedgerLimits::default().max_amount(tnd);
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, max),
            Leg::house(HouseAccount::Adjustments, tnd, -max)
        ]))
        .is_ok());
        assert!(matches!(
            validate_default(&req(vec![
                Leg::player(1, BalanceKind::Real, tnd, max + 1),
                Leg::house(HouseAccount::Adjustments, tnd, -max - 1)
            ])),
            Err(LedgerError::AmountTooLarge)
        ));
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, 5),
            Leg::house(HouseAccount::Adjustments, Currency::Tmt, -5)
        ]))
        .is_err());
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, 5),
            Leg::player(1, BalanceKind::Real, tnd, -5)
        ]))
        .is_err());
        assert!(validate_default(&req(vec![
            Leg::player(1, BalanceKind::Real, tnd, 5),
            Leg::house(HouseAccount::Adjustments, tnd, -5)
        ]))
        .is_ok());
    }

    #[test]
    fn request_hash_depends_on_parameters() {
        let a = req(vec![Leg::player(1, BalanceKind::Real, Currency::Tnd, 5), Leg::house(HouseAccount::Adjustments, Currency::Tnd, -5)]);
        let mut b = a.clone();
        b.legs[0].amount = 6;
        b.legs[1].amount = -6;
        assert_ne!(request_hash(&a), request_hash(&b));
        let mut c = a.clone();
        c.comment = "other comment".into();
        assert_eq!(request_hash(&a), request_hash(&c));
        // A fingerprint (a provider's round) takes part; its absence keeps old hashes.
        let d = a.clone().fingerprint("round-1");
        assert_ne!(request_hash(&a), request_hash(&d));
        assert_ne!(request_hash(&d), request_hash(&a.clone().fingerprint("round-2")));
    }
}
