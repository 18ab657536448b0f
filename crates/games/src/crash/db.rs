//! Rows of rounds and bets, written by one persister task that batches every pending write
//! into one transaction (one durable commit for many bets: on SQLite there is one writer
//! connection, shared with the ledger's group commit). Writes are applied in the order they
//! were sent, so a bet's `open` or `cashed` always lands before its round's `lost` sweep.

use kernel::clock::now_ms;
use kernel::AppError;
use store::sqlx::{self, Row};
use store::Db;
use tokio::sync::{mpsc, oneshot};

#[derive(Debug, Clone)]
pub struct BetRow {
    pub round_id: i64,
    pub user_id: i64,
    pub session_id: i64,
    pub currency: String,
    pub amount: i64,
    pub auto_cash_out: Option<i64>,
}

#[derive(Debug)]
pub enum Op {
    NewRound { id: i64, chain_id: i64, number: i64, hash: String, crash_point: i64, betting_ends_at: i64 },
    Started { round_id: i64, started_at: i64 },
    Ended { round_id: i64, ended_at: i64 },
    Settled { round_id: i64, phase: Option<&'static str> },
    /// Bets staked together (one multi-row `INSERT` per 200).
    InsertBets(Vec<BetRow>),
    /// The status of many bets of a round (their stakes' answers).
    BetStatuses { round_id: i64, user_ids: Vec<i64>, status: &'static str },
    /// Cash-outs of a round: `(user, multiplier, win, forced)`, one `UPDATE … FROM (VALUES …)`
    /// per 200.
    Cashed { round_id: i64, rows: Vec<(i64, i64, i64, bool)> },
    /// Every bet still open (or placing) loses: the round crashed.
    Lost { round_id: i64 },
}

struct Job {
    op: Op,
    ack: Option<oneshot::Sender<Result<(), AppError>>>,
}

/// Handle on the persister task.
#[derive(Clone)]
pub struct Persister {
    tx: mpsc::UnboundedSender<Job>,
}

impl Persister {
    pub fn spawn(db: Db, on: &tokio::runtime::Handle) -> (Persister, tokio::task::JoinHandle<()>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let handle = on.spawn(run(db, rx));
        (Persister { tx }, handle)
    }

    /// Writes and waits for the durable commit.
    pub async fn write(&self, op: Op) -> Result<(), AppError> {
        let (ack, done) = oneshot::channel();
        self.tx.send(Job { op, ack: Some(ack) }).map_err(|_| AppError::internal("crash persister stopped"))?;
        done.await.map_err(|_| AppError::internal("crash persister stopped"))?
    }

    /// Queues a write (ordered after everything sent before it).
    pub fn send(&self, op: Op) {
        let _ = self.tx.send(Job { op, ack: None });
    }
}

const MAX_BATCH: usize = 1_000;

async fn run(db: Db, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let result = apply(&db, &batch).await;
        if let Err(e) = &result {
            tracing::error!(error = %e, ops = batch.len(), "crash: a batch of writes failed");
        }
        for job in batch.drain(..) {
            if let Some(ack) = job.ack {
                let _ = ack.send(result.clone());
            }
        }
    }
}

async fn apply(db: &Db, batch: &[Job]) -> Result<(), AppError> {
    let now = now_ms();
    let mut tx = db.writer().begin().await.map_err(AppError::internal)?;
    for job in batch {
        apply_one(&mut tx, &job.op, now).await?;
    }
    tx.commit().await.map_err(AppError::internal)?;
    Ok(())
}

type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

/// Rows per multi-row statement.
const ROWS: usize = 200;

async fn insert_bets(tx: &mut Tx<'_>, rows: &[BetRow], now: i64) -> Result<(), AppError> {
    for part in rows.chunks(ROWS) {
        let sql = format!(
            "INSERT INTO crash_bets (round_id, user_id, session_id, currency, amount, auto_cash_out, status, win, forced, created_at, updated_at) \
             SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, 'placing', 0, 0, $1, $1 FROM (VALUES {}) AS v",
            store::values(part.len(), 6, 2)
        );
        let mut q = sqlx::query(&sql).bind(now);
        for r in part {
            q = q.bind(r.round_id).bind(r.user_id).bind(r.session_id).bind(r.currency.clone()).bind(r.amount).bind(r.auto_cash_out);
        }
        q.execute(&mut **tx).await.map_err(AppError::internal)?;
    }
    Ok(())
}

async fn set_statuses(tx: &mut Tx<'_>, round_id: i64, user_ids: &[i64], status: &str, now: i64) -> Result<(), AppError> {
    for part in user_ids.chunks(ROWS) {
        let sql = format!(
            "UPDATE crash_bets SET status = $1, updated_at = $2 WHERE round_id = $3 AND user_id IN {}",
            store::values(1, part.len(), 4)
        );
        let mut q = sqlx::query(&sql).bind(status).bind(now).bind(round_id);
        for u in part {
            q = q.bind(*u);
        }
        q.execute(&mut **tx).await.map_err(AppError::internal)?;
    }
    Ok(())
}

async fn set_cashed(tx: &mut Tx<'_>, round_id: i64, rows: &[(i64, i64, i64, bool)], now: i64) -> Result<(), AppError> {
    for part in rows.chunks(ROWS) {
        let sql = format!(
            "UPDATE crash_bets SET status = 'cashed', cashed_out_at = v.column2, win = v.column3, forced = v.column4, updated_at = $1 \
             FROM (VALUES {}) AS v WHERE crash_bets.round_id = $2 AND crash_bets.user_id = v.column1",
            store::values(part.len(), 4, 3)
        );
        let mut q = sqlx::query(&sql).bind(now).bind(round_id);
        for (user_id, m, win, forced) in part {
            q = q.bind(*user_id).bind(*m).bind(*win).bind(*forced as i64);
        }
        q.execute(&mut **tx).await.map_err(AppError::internal)?;
    }
    Ok(())
}

async fn apply_one(tx: &mut Tx<'_>, op: &Op, now: i64) -> Result<(), AppError> {
    let q = match op {
        Op::NewRound { id, chain_id, number, hash, crash_point, betting_ends_at } => sqlx::query(
            "INSERT INTO crash_rounds (id, chain_id, number, hash, crash_point, phase, created_at, betting_ends_at) \
             VALUES ($1, $2, $3, $4, $5, 'betting', $6, $7)",
        )
        .bind(*id)
        .bind(*chain_id)
        .bind(*number)
        .bind(hash.clone())
        .bind(*crash_point)
        .bind(now)
        .bind(*betting_ends_at),
        Op::Started { round_id, started_at } => {
            sqlx::query("UPDATE crash_rounds SET phase = 'running', started_at = $1 WHERE id = $2").bind(*started_at).bind(*round_id)
        }
        Op::Ended { round_id, ended_at } => {
            sqlx::query("UPDATE crash_rounds SET phase = 'ended', ended_at = $1 WHERE id = $2").bind(*ended_at).bind(*round_id)
        }
        Op::Settled { round_id, phase: Some(phase) } => {
            sqlx::query("UPDATE crash_rounds SET phase = $1, settled_at = $2, ended_at = COALESCE(ended_at, $2) WHERE id = $3")
                .bind(*phase)
                .bind(now)
                .bind(*round_id)
        }
        Op::Settled { round_id, phase: None } => {
            sqlx::query("UPDATE crash_rounds SET settled_at = $1 WHERE id = $2").bind(now).bind(*round_id)
        }
        Op::InsertBets(rows) => return insert_bets(tx, rows, now).await,
        Op::BetStatuses { round_id, user_ids, status } => return set_statuses(tx, *round_id, user_ids, status, now).await,
        Op::Cashed { round_id, rows } => return set_cashed(tx, *round_id, rows, now).await,
        Op::Lost { round_id } => sqlx::query(
            "UPDATE crash_bets SET status = 'lost', updated_at = $1 WHERE round_id = $2 AND status IN ('open', 'placing')",
        )
        .bind(now)
        .bind(*round_id),
    };
    q.execute(&mut **tx).await.map_err(AppError::internal)?;
    Ok(())
}

// ------------------------------------------------------------------ reads

/// A round as stored.
#[derive(Debug, Clone)]
pub struct RoundRow {
    pub id: i64,
    pub chain_id: i64,
    pub number: i64,
    pub hash: String,
    pub crash_point: i64,
    pub phase: String,
    pub started_at: Option<i64>,
}

const ROUND_COLS: &str = "id, chain_id, number, hash, crash_point, phase, started_at";

fn round_row(r: &store::sqlx::any::AnyRow) -> RoundRow {
    RoundRow {
        id: r.get(0),
        chain_id: r.get(1),
        number: r.get(2),
        hash: r.get(3),
        crash_point: r.get(4),
        phase: r.get(5),
        started_at: r.get(6),
    }
}

/// Rounds not yet settled (at most one in normal operation), oldest first.
pub async fn unsettled_rounds(db: &Db) -> Result<Vec<RoundRow>, AppError> {
    let rows = sqlx::query(&format!("SELECT {ROUND_COLS} FROM crash_rounds WHERE settled_at IS NULL ORDER BY id"))
        .fetch_all(db.writer())
        .await
        .map_err(AppError::internal)?;
    Ok(rows.iter().map(round_row).collect())
}

/// The highest round number played on a chain (0 when none).
pub async fn last_number(db: &Db, chain_id: i64) -> Result<i64, AppError> {
    let row = sqlx::query("SELECT CAST(COALESCE(MAX(number), 0) AS BIGINT) FROM crash_rounds WHERE chain_id = $1")
        .bind(chain_id)
        .fetch_one(db.writer())
        .await
        .map_err(AppError::internal)?;
    Ok(row.get(0))
}

/// A bet as stored (recovery).
#[derive(Debug, Clone)]
pub struct StoredBet {
    pub user_id: i64,
    pub currency: String,
    pub amount: i64,
    pub auto_cash_out: Option<i64>,
    pub status: String,
    pub cashed_out_at: Option<i64>,
    pub win: i64,
}

pub async fn bets_of(db: &Db, round_id: i64) -> Result<Vec<StoredBet>, AppError> {
    let rows = sqlx::query(
        "SELECT user_id, currency, amount, auto_cash_out, status, cashed_out_at, win FROM crash_bets WHERE round_id = $1 ORDER BY user_id",
    )
    .bind(round_id)
    .fetch_all(db.writer())
    .await
    .map_err(AppError::internal)?;
    Ok(rows
        .iter()
        .map(|r| StoredBet {
            user_id: r.get(0),
            currency: r.get(1),
            amount: r.get(2),
            auto_cash_out: r.get(3),
            status: r.get(4),
            cashed_out_at: r.get(5),
            win: r.get(6),
        })
        .collect())
}

/// Finished rounds (crashed, voided or interrupted), newest first: `(id, hash, crash point)`.
pub async fn history(db: &Db, limit: i64) -> Result<Vec<(i64, String, i64)>, AppError> {
    let rows = sqlx::query(
        "SELECT id, hash, crash_point FROM crash_rounds WHERE phase IN ('ended', 'voided', 'interrupted') \
         ORDER BY chain_id DESC, number DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db.reader())
    .await
    .map_err(AppError::internal)?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
}

/// A player's last bets, newest first, with their round: the crash point and hash only once
/// the round is over (never before the reveal).
pub async fn player_history(db: &Db, user_id: i64, limit: i64) -> Result<Vec<serde_json::Value>, AppError> {
    let rows = sqlx::query(&format!(
        "{PLAYER_ROUND_SELECT} WHERE b.user_id = $1 AND b.status <> 'refused' ORDER BY b.round_id DESC LIMIT $2"
    ))
    .bind(user_id)
    .bind(limit)
    .fetch_all(db.reader())
    .await
    .map_err(AppError::internal)?;
    Ok(rows.iter().map(player_round_row).collect())
}

/// One round of the player (its fairness record); `None` when the player had no bet in it.
pub async fn player_round(db: &Db, user_id: i64, round_id: i64) -> Result<Option<serde_json::Value>, AppError> {
    let row = sqlx::query(&format!("{PLAYER_ROUND_SELECT} WHERE b.user_id = $1 AND b.round_id = $2"))
        .bind(user_id)
        .bind(round_id)
        .fetch_optional(db.reader())
        .await
        .map_err(AppError::internal)?;
    Ok(row.as_ref().map(player_round_row))
}

const PLAYER_ROUND_SELECT: &str = "SELECT b.round_id, b.created_at, b.amount, b.win, b.cashed_out_at, b.status, r.phase, \
     r.crash_point, r.hash FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id";

/// A row of [`PLAYER_ROUND_SELECT`]: the crash point and hash only once the round is over.
fn player_round_row(r: &store::sqlx::any::AnyRow) -> serde_json::Value {
    let phase: String = r.get(6);
    let over = matches!(phase.as_str(), "ended" | "voided" | "interrupted");
    let status: String = r.get(5);
    serde_json::json!({
        "roundId": r.get::<i64, _>(0),
        "time": kernel::clock::to_rfc3339(r.get::<i64, _>(1)),
        "bet": r.get::<i64, _>(2),
        "win": r.get::<i64, _>(3),
        "cashedOutAt": r.get::<Option<i64>, _>(4),
        "status": status,
        "crashPoint": if over { Some(r.get::<i64, _>(7)) } else { None },
        "hash": if over { Some(r.get::<String, _>(8)) } else { None },
    })
}
