//! The id generator's node number ([`kernel::ids`]): every process writing to one PostgreSQL
//! database holds a node no other process holds, so two instances never make the same id in
//! the same millisecond. Before this, the node was 4 random bits: with three instances two
//! shared one about one start in five, and under load their postings collided on the
//! primary keys of `ledger_transactions` and `ledger_entries` (refused with 503, nothing
//! wrong booked, but players' requests failed) — found by `benches/instances.sh`.
//!
//! The node is the session-level advisory lock `(LOCK_CLASS, node)` (the two-integer form,
//! which never meets the duties' one-bigint keys), taken with `pg_try_advisory_lock` on a
//! connection of its own that the process keeps: when the process dies PostgreSQL frees it at
//! once. The holder checks its connection every [`crate::lease::CHECK_EVERY`]; when it is lost
//! (a database restart) it takes a node again, its own first, and switches to whatever it
//! got. Between the loss and the new lock another process could start with that node: the
//! primary keys still refuse a collision (never a wrong answer), and the window is one check.
//! SQLite serves one instance: nothing to hold.

use crate::{Backend, Db, StoreError};
use sqlx::{AnyConnection, Connection, Row};

/// The first key of every node's advisory lock (the migrations' lock is the bigint 7 351 001).
pub const LOCK_CLASS: i32 = 7_351_002;

/// Holds this process's node for as long as it lives; dropping it frees the node.
pub struct IdNode {
    node: i64,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl IdNode {
    /// The node taken at start (the holder may switch after a lost connection:
    /// [`kernel::ids::node`] is the current one).
    pub fn node(&self) -> i64 {
        self.node
    }
}

impl Drop for IdNode {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            // Its connection closes with it, and PostgreSQL frees the lock.
            task.abort();
        }
    }
}

/// Takes a free node on `db` for this process (PostgreSQL), sets it as the id generator's,
/// and keeps it; on SQLite nothing is held. Fails when all [`kernel::ids::NODES`] are held:
/// that many processes write to the database already.
pub async fn hold_node(db: &Db) -> Result<IdNode, StoreError> {
    if db.backend() == Backend::Sqlite {
        return Ok(IdNode { node: kernel::ids::node(), task: None });
    }
    let url = db.url().to_string();
    let mut conn = AnyConnection::connect(&url).await?;
    let node = take(&mut conn, kernel::ids::node()).await?.ok_or_else(|| {
        StoreError::Config(format!(
            "all {} id nodes are held: at most that many processes (instances and CLI commands) may write to one database at once",
            kernel::ids::NODES
        ))
    })?;
    kernel::ids::set_node(node);
    tracing::info!(node, "id generator node held");
    let task = tokio::spawn(async move {
        let mut conn = Some(conn);
        loop {
            tokio::time::sleep(crate::lease::CHECK_EVERY).await;
            if let Some(c) = conn.as_mut() {
                let alive = tokio::time::timeout(crate::lease::CHECK_EVERY, sqlx::query("SELECT 1").execute(&mut *c)).await;
                if matches!(alive, Ok(Ok(_))) {
                    continue;
                }
                tracing::warn!("the id node's connection was lost; taking a node again");
                conn = None;
            }
            let Ok(mut c) = AnyConnection::connect(&url).await else { continue };
            match take(&mut c, kernel::ids::node()).await {
                Ok(Some(node)) => {
                    kernel::ids::set_node(node);
                    tracing::info!(node, "id generator node held again");
                    conn = Some(c);
                }
                Ok(None) => tracing::error!("every id node is held by another process; ids may collide (refused by the primary keys)"),
                Err(e) => tracing::warn!(error = %e, "taking an id node"),
            }
        }
    });
    Ok(IdNode { node, task: Some(task) })
}

/// Locks a free node on `conn`, `prefer` first: the node, or `None` when all are held.
async fn take(conn: &mut AnyConnection, prefer: i64) -> Result<Option<i64>, sqlx::Error> {
    let order = std::iter::once(prefer).chain((0..kernel::ids::NODES).filter(|n| *n != prefer));
    for node in order {
        let got = sqlx::query("SELECT CAST(pg_try_advisory_lock($1, $2) AS TEXT)")
            .bind(LOCK_CLASS)
            .bind(node as i32)
            .fetch_one(&mut *conn)
            .await?
            .get::<String, _>(0);
        if got == "true" || got == "t" {
            return Ok(Some(node));
        }
    }
    Ok(None)
}
