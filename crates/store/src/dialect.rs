//! The one place where SQLite and PostgreSQL differ.

use crate::{Backend, Db, StoreError};
use sqlx::AnyConnection;

/// Turns `sqlite://path` into a URL that creates the file and its folder if missing.
pub fn sqlite_url(url: &str) -> Result<String, StoreError> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .ok_or_else(|| StoreError::Config(format!("not a sqlite URL: {url}")))?;
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    if path.is_empty() || path == ":memory:" {
        return Err(StoreError::Config(
            "in-memory SQLite is not supported: several connections must share one file".into(),
        ));
    }
    if let Some(parent) = std::path::Path::new(path).parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent)
                .map_err(|e| StoreError::Config(format!("cannot create {}: {e}", parent.display())))?;
        }
    }
    let mut out = format!("sqlite://{path}");
    match query {
        Some(q) if q.contains("mode=") => out.push_str(&format!("?{q}")),
        Some(q) => out.push_str(&format!("?{q}&mode=rwc")),
        None => out.push_str("?mode=rwc"),
    }
    Ok(out)
}

/// Per-connection SQLite settings: WAL, durable commits for money (`synchronous=FULL`),
/// waiting instead of failing on a lock, and enforced foreign keys.
pub async fn sqlite_after_connect(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    for pragma in [
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = FULL",
        "PRAGMA busy_timeout = 10000",
        "PRAGMA foreign_keys = ON",
        "PRAGMA temp_store = MEMORY",
        "PRAGMA cache_size = -32000",
    ] {
        sqlx::query(pragma).execute(&mut *conn).await?;
    }
    Ok(())
}

/// The writer connection never checkpoints by itself (a checkpoint inside a commit adds
/// tens of milliseconds to the postings waiting on it); [`spawn_sqlite_checkpointer`]
/// checkpoints from a reader connection instead.
pub async fn sqlite_writer_after_connect(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    sqlite_after_connect(conn).await?;
    sqlx::query("PRAGMA wal_autocheckpoint = 0").execute(&mut *conn).await?;
    Ok(())
}

/// Whether an idle SQLite connection may serve again (the pools' `before_acquire`): not when
/// sqlx still counts a transaction open on it. SQLite rolls a whole transaction back by itself
/// on some errors (`SQLITE_FULL` when the disk fills, I/O errors); sqlx's `ROLLBACK` then fails
/// ("no transaction is active") and its count stays at 1, so the connection's next `begin()`
/// would be a `SAVEPOINT` and its `commit()` a `RELEASE`: after one rolled-back savepoint,
/// every later "commit" would stay inside a transaction that is never committed — answered as
/// durable, lost at shutdown. Such a connection is closed instead; the pool opens a fresh one.
/// (The pool's ping on release has already run the rollback a dropped transaction queued.)
pub fn sqlite_fit_for_reuse(conn: &mut AnyConnection) -> bool {
    use sqlx::Connection;
    if conn.is_in_transaction() {
        tracing::error!("SQLite: an idle connection still counts a transaction open (SQLite rolled it back after an error such as a full disk); closed, a new one replaces it");
        return false;
    }
    true
}

/// Copies the WAL back into the database every second with a PASSIVE checkpoint, which
/// never blocks the writer; keeps the WAL file from growing without bound.
pub fn spawn_sqlite_checkpointer(db: &Db) {
    let reader = db.reader().clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if reader.is_closed() {
                return;
            }
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&reader).await {
                tracing::warn!(error = %e, "WAL checkpoint failed");
            }
        }
    });
}

/// Serialises migrations across instances (PostgreSQL advisory lock; SQLite's single
/// writer already serialises them).
pub async fn lock_migrations(db: &Db, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    if db.backend() == Backend::Postgres {
        sqlx::query("SELECT CAST(pg_advisory_lock(7351001) AS TEXT)").execute(&mut *conn).await?;
    }
    Ok(())
}

pub async fn unlock_migrations(db: &Db, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    if db.backend() == Backend::Postgres {
        sqlx::query("SELECT CAST(pg_advisory_unlock(7351001) AS TEXT)").execute(&mut *conn).await?;
    }
    Ok(())
}

/// Whether a failed write may succeed when run again as it was: PostgreSQL's deadlock
/// (40P01) and serialization failure (40001), and a connection lost under the statement
/// (`Io`; the outcome of a `COMMIT` lost that way is unknown, so only work that is
/// idempotent, a ledger posting under its key, is run again). Never on SQLite: its one
/// writer connection neither deadlocks nor serialises against another writer, and an I/O
/// error there is the disk's (full, failing), not a reason to try again at once.
pub fn is_transient(db: &Db, err: &sqlx::Error) -> bool {
    if db.backend() != Backend::Postgres {
        return false;
    }
    match err {
        sqlx::Error::Database(e) => matches!(e.code().as_deref(), Some("40P01") | Some("40001")),
        sqlx::Error::Io(_) => true,
        _ => false,
    }
}

/// How many group-commit writers a write path runs: one on SQLite (it has one writer
/// connection); on PostgreSQL `WRITERS` (env `LEDGER_WRITERS`, default [`PG_WRITERS`]):
/// batches of different writers commit on their own connections at once.
pub fn writers(db: &Db) -> usize {
    match db.backend() {
        Backend::Sqlite => 1,
        Backend::Postgres => std::env::var("LEDGER_WRITERS").ok().and_then(|v| v.parse().ok()).filter(|n| (1..=64).contains(n)).unwrap_or(PG_WRITERS),
    }
}

/// The default number of group-commit writers on PostgreSQL (docs/PERFORMANCE.md,
/// "PostgreSQL group commit": measured on 2 cores).
pub const PG_WRITERS: usize = 2;

/// The statements that close a piece of a batch and open the next one's savepoint, sent
/// as one round trip (simple query protocol: no parameters, several statements).
/// (Boxed: an `async fn` over the executor trips the compiler's check that the write tasks'
/// futures are `Send` for every lifetime.)
pub fn exec_script<'c>(conn: &'c mut AnyConnection, sql: &'c str) -> futures::future::BoxFuture<'c, Result<(), sqlx::Error>> {
    use sqlx::Executor;
    Box::pin(async move { conn.execute(sql).await.map(|_| ()) })
}

/// The audit trail's guards ([`crate::audit`]): triggers that refuse to change or delete a
/// chained row of `audit_log` (a row written before the chain may be updated once, by
/// [`crate::audit::adopt`], to receive its place). Checked at every migration run and created
/// when missing (on PostgreSQL only then: replacing a trigger locks `audit_log` against every
/// instance's appends). PostgreSQL 14 or later (`CREATE OR REPLACE TRIGGER`); `TRUNCATE` is
/// refused too. Whoever can drop a trigger can still change a row: the chain then shows it
/// (`carthage audit verify`).
pub async fn protect_audit(db: &Db, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    use sqlx::Executor;
    let script = match db.backend() {
        Backend::Sqlite => {
            "CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log WHEN OLD.seq IS NOT NULL \
             BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;\n\
             CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log \
             BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;"
        }
        Backend::Postgres => {
            "CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$\n\
             BEGIN\n\
               IF TG_OP = 'UPDATE' THEN\n\
                 IF OLD.seq IS NULL THEN RETURN NEW; END IF;\n\
               END IF;\n\
               RAISE EXCEPTION 'audit_log is append-only';\n\
             END $$;\n\
             CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log \
             FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();\n\
             CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log \
             FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();"
        }
    };
    if db.backend() == Backend::Postgres {
        let present: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = 'audit_log'::regclass \
             AND tgname IN ('audit_log_append_only', 'audit_log_no_truncate') AND NOT tgisinternal",
        )
        .fetch_one(&mut *conn)
        .await?;
        if present == 2 {
            return Ok(());
        }
    }
    conn.execute(script).await.map(|_| ())
}
