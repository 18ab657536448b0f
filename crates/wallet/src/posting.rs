//! Writing postings: one posting applied on a connection inside a transaction, and the
//! group-commit batcher.
//!
//! **Group commit.** SQLite has one writer and every durable commit costs an fsync, so
//! postings are queued to a single writer task that takes everything waiting (up to
//! [`MAX_BATCH`]), runs each posting inside its own `SAVEPOINT` in one transaction and
//! commits once. A posting that fails (insufficient funds, conflicting key, a statement
//! error) is rolled back to its savepoint alone; the others commit. Nobody is answered
//! before the commit is durable. The rules are unchanged: the conditional update, the
//! unique idempotency key and the entries all live in the same database transaction.
//! PostgreSQL has many writers and its own group commit, so it posts directly.
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
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{Currency, Minor};
use std::collections::HashMap;
use std::str::FromStr;
use store::sqlx::{self, AnyConnection, Row};
use store::Db;
use tokio::sync::{mpsc, oneshot};

pub const MAX_BATCH: usize = 256;

pub(crate) type HouseIds = HashMap<(HouseAccount, Currency), i64>;

/// What the writer does for a caller.
pub(crate) enum Op {
    Post { req: PostingRequest, hash: String, house: HouseIds },
    /// Postings with their request hashes; each succeeds or fails on its own.
    PostMany { items: Vec<(PostingRequest, String)>, house: HouseIds },
    Rollback(RollbackRequest),
}

pub(crate) enum Done {
    Posted(Receipt),
    PostedMany(Vec<Result<Receipt, LedgerError>>),
    RolledBack(RollbackOutcome),
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

async fn run_op(conn: &mut AnyConnection, op: &Op) -> Result<Done, LedgerError> {
    match op {
        Op::Post { req, hash, house } => apply(conn, req, hash, house).await.map(Done::Posted),
        Op::PostMany { items, house } => apply_many(conn, items, house).await.map(Done::PostedMany).map_err(LedgerError::from),
        Op::Rollback(req) => apply_rollback(conn, req).await.map(Done::RolledBack),
    }
}

/// A rollback on `conn` (inside a transaction or savepoint). First it tries to claim the
/// original key with a tombstone: the unique index decides the race with the original
/// posting on both databases. If the original exists, its entries are reversed under the
/// rollback key (so a retry replays the reversal).
pub(crate) async fn apply_rollback(conn: &mut AnyConnection, req: &RollbackRequest) -> Result<RollbackOutcome, LedgerError> {
    let tombstone = sqlx::query(
        "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
    )
    .bind(next_id())
    .bind(TxType::Tombstone.code())
    .bind(&req.original_key)
    .bind(TOMBSTONE_HASH)
    .bind(req.user_id)
    .bind(&req.comment)
    .bind(req.metadata.to_string())
    .bind(now_ms())
    .fetch_optional(&mut *conn)
    .await?;
    if tombstone.is_some() {
        return Ok(RollbackOutcome::Tombstoned);
    }
    let original = sqlx::query("SELECT id, request_hash FROM ledger_transactions WHERE idempotency_key = $1")
        .bind(&req.original_key)
        .fetch_one(&mut *conn)
        .await?;
    let (original_id, original_hash): (i64, String) = (original.get(0), original.get(1));
    if original_hash == TOMBSTONE_HASH {
        return Ok(RollbackOutcome::Tombstoned);
    }
    let rows = sqlx::query(
        "SELECT a.id, a.owner_id, a.kind, a.currency, a.is_house, e.amount FROM ledger_entries e \
         JOIN ledger_accounts a ON a.id = e.account_id WHERE e.tx_id = $1 ORDER BY e.id",
    )
    .bind(original_id)
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
    let reversal = PostingRequest {
        tx_type: TxType::Rollback,
        idempotency_key: req.rollback_key.clone(),
        user_id: req.user_id,
        comment: req.comment.clone(),
        metadata: serde_json::json!({ "rolls_back": req.original_key, "details": req.metadata }),
        legs,
        audit: None,
        fingerprint: None,
    };
    let hash = crate::ledger::request_hash(&reversal);
    apply(conn, &reversal, &hash, &house).await.map(RollbackOutcome::Reversed)
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

async fn update_player(
    conn: &mut AnyConnection,
    user_id: i64,
    kind: BalanceKind,
    currency: Currency,
    amount: i64,
    now: i64,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    let row = sqlx::query(
        "UPDATE ledger_accounts SET balance = balance + $1, updated_at = $2 \
         WHERE owner_id = $3 AND kind = $4 AND currency = $5 AND is_house = 0 AND balance + $1 >= 0 \
         RETURNING id, balance",
    )
    .bind(amount)
    .bind(now)
    .bind(user_id)
    .bind(kind.as_str())
    .bind(currency.code())
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|r| (r.get(0), r.get(1))))
}

/// Applies one posting on `conn`, which must be inside a transaction (or savepoint) that
/// the caller commits on `Ok` and rolls back on `Err`. A repeated key answers the
/// stored receipt (`replayed`) and writes nothing.
pub(crate) async fn apply(conn: &mut AnyConnection, req: &PostingRequest, hash: &str, house: &HouseIds) -> Result<Receipt, LedgerError> {
    let now = now_ms();
    let tx_id = next_id();
    // The write comes first: it takes the write lock (SQLite) and the unique index
    // decides between concurrent repeats of one key (PostgreSQL blocks the second until
    // the first commits, then answers DO NOTHING).
    let inserted = sqlx::query(
        "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
    )
    .bind(tx_id)
    .bind(req.tx_type.code())
    .bind(&req.idempotency_key)
    .bind(hash)
    .bind(req.user_id)
    .bind(&req.comment)
    .bind(req.metadata.to_string())
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    if inserted.is_none() {
        return replay(conn, &req.idempotency_key, hash).await;
    }

    // Player legs in a fixed order (deadlock-free on PostgreSQL).
    let mut legs: Vec<&Leg> = req.legs.iter().collect();
    legs.sort_by_key(|l| (l.account, l.currency));
    let mut rows: Vec<(i64, i64, Option<i64>)> = Vec::with_capacity(legs.len());
    let mut balances = Vec::new();
    for leg in legs {
        match leg.account {
            AccountRef::House(acc) => {
                let id = *house.get(&(acc, leg.currency)).ok_or_else(|| LedgerError::Invalid("house account not resolved".into()))?;
                rows.push((id, leg.amount, None));
            }
            AccountRef::Player { user_id, kind } => {
                let mut updated = update_player(conn, user_id, kind, leg.currency, leg.amount, now).await?;
                if updated.is_none() && leg.amount > 0 {
                    // A credit only misses when the account does not exist yet: open the
                    // player's accounts in that currency (same transaction) and retry.
                    open_accounts_on(conn, user_id, leg.currency).await?;
                    updated = update_player(conn, user_id, kind, leg.currency, leg.amount, now).await?;
                }
                let Some((account_id, balance)) = updated else {
                    return Err(LedgerError::Insufficient(kind));
                };
                rows.push((account_id, leg.amount, Some(balance)));
                balances.push(LegBalance { user_id, kind, currency: leg.currency, amount: leg.amount, balance_after: balance });
            }
        }
    }

    let entries: Vec<Entry> = rows.into_iter().map(|(account_id, amount, balance_after)| (tx_id, account_id, amount, balance_after)).collect();
    insert_entries(conn, &entries, now).await?;

    if let Some(audit) = &req.audit {
        sqlx::query("INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(next_id())
            .bind(&audit.actor)
            .bind(&audit.action)
            .bind(&audit.subject)
            .bind(serde_json::json!({ "tx_id": tx_id, "details": audit.details }).to_string())
            .bind(now)
            .execute(&mut *conn)
            .await?;
    }
    Ok(Receipt { tx_id, created_at: now, replayed: false, balances })
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
        one_by_one.extend(apply_set(conn, items, &legs, &step, house, &mut results).await?);
        pending = later;
    }
    one_by_one.sort_unstable();
    for i in one_by_one {
        let (req, hash) = &items[i];
        results[i] = Some(apply_isolated(conn, req, hash, house).await?);
    }
    Ok(results.into_iter().map(|r| r.unwrap_or_else(|| Err(LedgerError::Invalid("posting not applied".into())))).collect())
}

/// One posting in its own savepoint: a failure rolls back only its own writes.
async fn apply_isolated(
    conn: &mut AnyConnection,
    req: &PostingRequest,
    hash: &str,
    house: &HouseIds,
) -> Result<Result<Receipt, LedgerError>, sqlx::Error> {
    savepoint(conn, "SAVEPOINT single_posting").await?;
    let result = apply(conn, req, hash, house).await;
    if result.is_err() {
        savepoint(conn, "ROLLBACK TO SAVEPOINT single_posting").await?;
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
    results: &mut [Option<Result<Receipt, LedgerError>>],
) -> Result<Vec<usize>, sqlx::Error> {
    if step.is_empty() {
        return Ok(Vec::new());
    }
    let now = now_ms();
    let ids: Vec<i64> = step.iter().map(|_| next_id()).collect();
    // 1. Claim the keys: the unique index decides between repeats, as for one posting.
    let sql = format!(
        "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at) \
         VALUES {} ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
        store::values(step.len(), 8, 1)
    );
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
            .bind(now);
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
    if moving.is_empty() {
        return Ok(one_by_one);
    }
    // 2. Move every player balance, each on its own condition (never below zero).
    let sql = format!(
        "UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.column4, updated_at = $1 \
         FROM (VALUES {}) AS v \
         WHERE ledger_accounts.owner_id = v.column1 AND ledger_accounts.kind = v.column2 \
         AND ledger_accounts.currency = v.column3 AND ledger_accounts.is_house = 0 \
         AND ledger_accounts.balance + v.column4 >= 0 \
         RETURNING ledger_accounts.owner_id, ledger_accounts.kind, ledger_accounts.currency, ledger_accounts.id, ledger_accounts.balance",
        store::values(moving.len(), 4, 2)
    );
    let mut q = sqlx::query(&sql).bind(now);
    let leg = |k: usize| legs[step[k]].expect("only postings with a set leg are in a step");
    for &k in &moving {
        let (user_id, kind, currency, amount) = leg(k);
        q = q.bind(user_id).bind(kind.as_str()).bind(currency.code()).bind(amount);
    }
    // Keyed as the database spells them: `(owner, kind, currency)` → `(account id, balance)`.
    let mut moved: HashMap<(i64, String, String), (i64, i64)> = HashMap::new();
    for r in q.fetch_all(&mut *conn).await? {
        moved.insert((r.get(0), r.get(1), r.get(2)), (r.get(3), r.get(4)));
    }
    // 3. Release the claims of postings whose balance did not move; 4. write the entries.
    let mut released = Vec::new();
    let mut entries: Vec<Entry> = Vec::with_capacity(moving.len() * 2);
    for &k in &moving {
        let i = step[k];
        let req = &items[i].0;
        let (user_id, kind, currency, amount) = leg(k);
        let Some(&(account_id, balance)) = moved.get(&(user_id, kind.as_str().to_string(), currency.code().to_string())) else {
            released.push(ids[k]);
            if amount < 0 {
                results[i] = Some(Err(LedgerError::Insufficient(kind)));
            } else {
                // A credit only misses when the account does not exist yet.
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
        results[i] = Some(Ok(Receipt {
            tx_id: ids[k],
            created_at: now,
            replayed: false,
            balances: vec![LegBalance { user_id, kind, currency, amount, balance_after: balance }],
        }));
    }
    if !released.is_empty() {
        let sql = format!("DELETE FROM ledger_transactions WHERE id IN {}", store::values(1, released.len(), 1));
        let mut q = sqlx::query(&sql);
        for id in &released {
            q = q.bind(*id);
        }
        q.execute(&mut *conn).await?;
    }
    insert_entries(conn, &entries, now).await?;
    Ok(one_by_one)
}

/// The receipt of the posting already stored under `key`, if its parameters match.
async fn replay(conn: &mut AnyConnection, key: &str, hash: &str) -> Result<Receipt, LedgerError> {
    let row = sqlx::query("SELECT id, request_hash, created_at FROM ledger_transactions WHERE idempotency_key = $1")
        .bind(key)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| LedgerError::Invalid("idempotency key vanished".into()))?;
    let (tx_id, stored_hash, created_at): (i64, String, i64) = (row.get(0), row.get(1), row.get(2));
    if stored_hash == TOMBSTONE_HASH {
        return Err(LedgerError::Tombstoned);
    }
    if stored_hash != hash {
        return Err(LedgerError::IdempotencyConflict);
    }
    let rows = sqlx::query(
        "SELECT a.owner_id, a.kind, a.currency, e.amount, e.balance_after FROM ledger_entries e \
         JOIN ledger_accounts a ON a.id = e.account_id WHERE e.tx_id = $1 AND a.is_house = 0 ORDER BY e.id",
    )
    .bind(tx_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut balances = Vec::new();
    for r in rows {
        let kind: String = r.get(1);
        let currency: String = r.get(2);
        balances.push(LegBalance {
            user_id: r.get(0),
            kind: BalanceKind::from_str(&kind).map_err(|_| LedgerError::Invalid(format!("unknown kind {kind}")))?,
            currency: Currency::from_str(&currency).map_err(|_| LedgerError::Invalid(format!("unknown currency {currency}")))?,
            amount: r.get(3),
            balance_after: r.get::<Option<i64>, _>(4).unwrap_or(0),
        });
    }
    Ok(Receipt { tx_id, created_at, replayed: true, balances })
}

/// One operation in its own transaction (PostgreSQL).
pub(crate) async fn run_direct(db: &Db, op: &Op) -> Result<Done, LedgerError> {
    let mut tx = db.writer().begin().await?;
    match run_op(&mut tx, op).await {
        Ok(done) => {
            if matches!(&done, Done::Posted(r) if r.replayed) {
                // nothing was written
                tx.rollback().await?;
            } else {
                tx.commit().await?;
            }
            Ok(done)
        }
        Err(e) => {
            tx.rollback().await?;
            Err(e)
        }
    }
}

/// Starts the group-commit writer task; postings are sent to the returned channel.
pub(crate) fn spawn_batcher(db: Db) -> mpsc::Sender<Job> {
    let (sender, mut receiver) = mpsc::channel::<Job>(MAX_BATCH * 8);
    let on = db.write_tasks().clone();
    on.spawn(async move {
        let mut jobs: Vec<Job> = Vec::with_capacity(MAX_BATCH);
        while let Some(first) = receiver.recv().await {
            jobs.push(first);
            while jobs.len() < MAX_BATCH {
                match receiver.try_recv() {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            let results = commit_batch(&db, &jobs).await;
            for (job, result) in jobs.drain(..).zip(results) {
                let _ = job.reply.send(result);
            }
        }
    });
    sender
}

async fn savepoint(conn: &mut AnyConnection, sql: &str) -> Result<(), sqlx::Error> {
    sqlx::query(sql).execute(&mut *conn).await.map(|_| ())
}

async fn commit_batch(db: &Db, jobs: &[Job]) -> Vec<Result<Done, LedgerError>> {
    let unavailable = |e: &dyn std::fmt::Display| LedgerError::Unavailable(e.to_string());
    let mut tx = match db.writer().begin().await {
        Ok(tx) => tx,
        Err(e) => return jobs.iter().map(|_| Err(unavailable(&e))).collect(),
    };
    let mut results = Vec::with_capacity(jobs.len());
    for job in jobs {
        if let Err(e) = savepoint(&mut tx, "SAVEPOINT posting").await {
            return jobs.iter().map(|_| Err(unavailable(&e))).collect();
        }
        let result = run_op(&mut tx, &job.op).await;
        let closed = match &result {
            Ok(_) => savepoint(&mut tx, "RELEASE SAVEPOINT posting").await,
            Err(_) => match savepoint(&mut tx, "ROLLBACK TO SAVEPOINT posting").await {
                Ok(()) => savepoint(&mut tx, "RELEASE SAVEPOINT posting").await,
                Err(e) => Err(e),
            },
        };
        if let Err(e) = closed {
            let _ = tx.rollback().await;
            return jobs.iter().map(|_| Err(unavailable(&e))).collect();
        }
        results.push(result);
    }
    match tx.commit().await {
        Ok(()) => results,
        // Nothing of this batch is durable: every posting fails and may be retried with
        // its idempotency key.
        Err(e) => jobs.iter().map(|_| Err(unavailable(&e))).collect(),
    }
}
