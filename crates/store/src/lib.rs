//! Storage: one [`Db`] handle over SQLite or PostgreSQL, one migration tree, one set of
//! queries in the SQL subset both accept (ARCHITECTURE §1).
//!
//! Everything that differs between the two databases lives in [`dialect`].
//!
//! Pools: PostgreSQL uses one pool for reads and writes. SQLite allows one writer at a
//! time, so it gets a single-connection *writer* pool (every write transaction queues
//! there in the application instead of spinning on `SQLITE_BUSY`) and a pool of reader
//! connections that see the last committed state through WAL.

pub mod audit;
pub mod batch;
pub mod bus;
pub mod dialect;
pub mod ids;
pub mod lease;
pub mod migrate;
pub mod testing;

use sqlx::any::AnyPoolOptions;
use sqlx::AnyPool;
use std::sync::Arc;
use std::time::Duration;

pub use batch::{BatchError, WriteBatch};
pub use sqlx;
pub use sqlx::Row;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn from_url(url: &str) -> Result<Backend, StoreError> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Backend::Postgres)
        } else {
            Err(StoreError::Config(format!("unsupported DATABASE_URL scheme: {url}")))
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    #[error("migration {version} failed: {source}")]
    Migration { version: i64, source: sqlx::Error },
}

/// A handle on the database: cheap to clone.
#[derive(Clone)]
pub struct Db {
    backend: Backend,
    reader: AnyPool,
    writer: AnyPool,
    write_tasks: Arc<WriteTasks>,
    /// The connection URL (PostgreSQL: the bus's listening connection opens its own).
    url: Arc<str>,
}

/// Where write-path tasks run ([`Db::write_tasks`]).
struct WriteTasks {
    handle: tokio::runtime::Handle,
    /// SQLite: stops the writer thread when the last `Db` clone is gone.
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for WriteTasks {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl WriteTasks {
    /// SQLite: a thread of its own with a current-thread runtime. Every commit waits on the
    /// single writer connection; on a box busy with thousands of socket tasks, each wake-up
    /// of a writer-path task on the shared runtime queued behind them (a one-row commit took
    /// 0.3 s during a 10,000-player crash round). The SQLite driver does its work on its own
    /// worker threads, so these tasks only orchestrate.
    fn dedicated() -> Result<WriteTasks, StoreError> {
        let (handle_tx, handle_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = handle_tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let _ = handle_tx.send(Ok(rt.handle().clone()));
                rt.block_on(async move {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| StoreError::Config(format!("cannot start the SQLite writer thread: {e}")))?;
        let handle = handle_rx
            .recv()
            .map_err(|_| StoreError::Config("the SQLite writer thread did not start".into()))?
            .map_err(|e| StoreError::Config(format!("the SQLite writer runtime: {e}")))?;
        Ok(WriteTasks { handle, stop: Some(stop) })
    }
}

#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// Connections for PostgreSQL (shared), or SQLite readers.
    pub max_connections: u32,
    pub acquire_timeout: Duration,
}

impl Default for PoolConfig {
    fn default() -> Self {
        Self { max_connections: 16, acquire_timeout: Duration::from_secs(10) }
    }
}

impl Db {
    pub async fn connect(url: &str) -> Result<Db, StoreError> {
        Db::connect_with(url, PoolConfig::default()).await
    }

    pub async fn connect_with(url: &str, config: PoolConfig) -> Result<Db, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::from_url(url)?;
        match backend {
            Backend::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(config.max_connections)
                    .acquire_timeout(config.acquire_timeout)
                    .connect(url)
                    .await?;
                let write_tasks = Arc::new(WriteTasks { handle: tokio::runtime::Handle::current(), stop: None });
                Ok(Db { backend, reader: pool.clone(), writer: pool, write_tasks, url: url.into() })
            }
            Backend::Sqlite => {
                let url = dialect::sqlite_url(url)?;
                let writer = AnyPoolOptions::new()
                    .max_connections(1)
                    .min_connections(1)
                    .acquire_timeout(config.acquire_timeout)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .after_connect(|conn, _| Box::pin(async move { dialect::sqlite_writer_after_connect(conn).await }))
                    .before_acquire(|conn, _| Box::pin(async move { Ok(dialect::sqlite_fit_for_reuse(conn)) }))
                    .connect(&url)
                    .await?;
                let reader = AnyPoolOptions::new()
                    .max_connections(config.max_connections.clamp(1, 8))
                    .acquire_timeout(config.acquire_timeout)
                    .after_connect(|conn, _| Box::pin(async move { dialect::sqlite_after_connect(conn).await }))
                    .before_acquire(|conn, _| Box::pin(async move { Ok(dialect::sqlite_fit_for_reuse(conn)) }))
                    .connect(&url)
                    .await?;
                let db = Db { backend, reader, writer, write_tasks: Arc::new(WriteTasks::dedicated()?), url: url.as_str().into() };
                dialect::spawn_sqlite_checkpointer(&db);
                Ok(db)
            }
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The URL this handle connected with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The pool for reads that need no transaction.
    pub fn reader(&self) -> &AnyPool {
        &self.reader
    }

    /// The runtime for tasks on the write path (the ledger's group-commit writer, a game's
    /// persister and settlement tasks): a dedicated thread on SQLite, the caller's runtime
    /// on PostgreSQL (its connections belong to it).
    pub fn write_tasks(&self) -> &tokio::runtime::Handle {
        &self.write_tasks.handle
    }

    /// The pool for writes and for reads inside a write transaction.
    pub fn writer(&self) -> &AnyPool {
        &self.writer
    }

    /// Applies pending migrations; returns the versions applied now.
    pub async fn migrate(&self) -> Result<Vec<i64>, StoreError> {
        migrate::run(self).await
    }

    pub async fn close(&self) {
        self.writer.close().await;
        self.reader.close().await;
    }
}

/// True when the error is a unique-constraint violation (both databases).
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Database(db) => {
            matches!(db.kind(), sqlx::error::ErrorKind::UniqueViolation)
                || db.code().as_deref() == Some("23505")
                || db.message().contains("UNIQUE constraint failed")
        }
        _ => false,
    }
}

/// Placeholders of a multi-row `VALUES` list: `rows` tuples of `cols` parameters numbered
/// from `$first`, e.g. `values(2, 3, 1)` = `($1, $2, $3), ($4, $5, $6)`. Used by multi-row
/// `INSERT`s and `UPDATE … FROM (VALUES …) AS v` (columns `v.column1`, `v.column2`, … on
/// both databases); one row of `n` is an `IN` list: `WHERE id IN {values(1, n, 1)}`.
pub fn values(rows: usize, cols: usize, first: usize) -> String {
    let mut out = String::with_capacity(rows * cols * 6);
    for r in 0..rows {
        if r > 0 {
            out.push_str(", ");
        }
        out.push('(');
        for c in 0..cols {
            if c > 0 {
                out.push_str(", ");
            }
            out.push('$');
            out.push_str(&(first + r * cols + c).to_string());
        }
        out.push(')');
    }
    out
}

/// `sql` as the connection's database binds it fastest. SQLite keeps the names of numbered
/// parameters (`$1`) in a list that sqlx searches once per parameter to bind by name, so a
/// statement with `n` of them costs O(n²) to bind: a 3,000-parameter multi-row `INSERT` spent
/// more time there than in SQLite itself (57 % of a 100,000-bet settlement). A statement whose
/// parameters are exactly `$1, $2, … $n` in text order binds the same values positionally as
/// plain `?` instead, with no names to search. Anything else, and every statement on
/// PostgreSQL, is returned unchanged. (No `$` may appear in the statement's literals.)
pub fn positional<'a>(conn: &sqlx::AnyConnection, sql: &'a str) -> std::borrow::Cow<'a, str> {
    if conn.backend_name() != "SQLite" {
        return std::borrow::Cow::Borrowed(sql);
    }
    positional_sqlite(sql)
}

fn positional_sqlite(sql: &str) -> std::borrow::Cow<'_, str> {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let (mut next, mut i, mut copied) = (1u64, 0usize, 0usize);
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            if end == start || sql[start..end].parse::<u64>().ok() != Some(next) {
                return std::borrow::Cow::Borrowed(sql);
            }
            out.push_str(&sql[copied..i]);
            out.push('?');
            next += 1;
            copied = end;
            i = end;
        } else {
            i += 1;
        }
    }
    if next == 1 {
        return std::borrow::Cow::Borrowed(sql);
    }
    out.push_str(&sql[copied..]);
    std::borrow::Cow::Owned(out)
}

/// Converts a 0/1 BIGINT flag (the Any driver cannot decode SQLite BOOLEAN).
pub fn flag(v: i64) -> bool {
    v != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_placeholders_become_positional() {
        assert_eq!(positional_sqlite("INSERT INTO t VALUES ($1, $2), ($3, $4)"), "INSERT INTO t VALUES (?, ?), (?, ?)");
        assert_eq!(positional_sqlite(&format!("UPDATE t SET a = $1 FROM (VALUES {}) v", values(2, 2, 2))), "UPDATE t SET a = ? FROM (VALUES (?, ?), (?, ?)) v");
        // Out of order, repeated or absent: unchanged.
        for sql in ["SELECT $2, $1", "SELECT $1, $1", "SELECT 1", "SELECT $1 WHERE a = $3"] {
            assert_eq!(positional_sqlite(sql), sql);
        }
    }

    #[test]
    fn values_numbers_placeholders_row_by_row() {
        assert_eq!(super::values(2, 3, 1), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(super::values(1, 2, 5), "($5, $6)");
        assert_eq!(super::values(0, 2, 1), "");
    }
}
