//! Group commit for small write transactions that are not ledger postings (a payment
//! intent's transition and its event rows, later a bet's state): on SQLite every commit is
//! an fsync on the one writer connection, so one transaction per request caps a busy path
//! at the disk's fsyncs per second (about 700 here). [`WriteBatch::run`] queues the work;
//! one task takes what has queued (up to [`MAX_BATCH`]), runs each piece of work in its own
//! `SAVEPOINT` of one transaction, and commits once — the way the ledger's writer batches
//! postings (`wallet::posting::spawn_batcher`).
//!
//! Each piece of work is atomic on its own and fails alone: an `Err` (or a panic) rolls back
//! to its savepoint and the others still commit. When the commit itself fails, nothing of
//! the batch is durable and every piece answers [`BatchError::Unavailable`] (retry).
//! On PostgreSQL, whose connections commit concurrently, the work runs at once in its own
//! transaction: same semantics, no queue.
//!
//! A piece of work must not wait on another write (a ledger posting, another batch): on
//! SQLite it runs while holding the one writer connection, so that wait would never end.

use crate::{Backend, Db};
use futures::future::BoxFuture;
use futures::FutureExt;
use sqlx::AnyConnection;
use std::any::Any;
use std::panic::AssertUnwindSafe;
use tokio::sync::{mpsc, oneshot};

/// The most pieces of work one commit carries.
pub const MAX_BATCH: usize = 256;

/// Why a piece of work did not run to a durable end.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The transaction could not be opened or committed, or the batch task is gone: nothing
    /// of this work is durable; it may be retried.
    #[error("the write batch is unavailable: {0}")]
    Unavailable(String),
    /// The work panicked; its savepoint was rolled back.
    #[error("the write panicked")]
    Panicked,
}

type Erased = Result<Box<dyn Any + Send>, Box<dyn Any + Send>>;
type Work = Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Erased> + Send>;

struct Job {
    work: Work,
    reply: oneshot::Sender<Result<Erased, BatchError>>,
}

/// A handle on the group-commit writer. Cheap to clone.
#[derive(Clone)]
pub struct WriteBatch {
    db: Db,
    queue: Option<mpsc::Sender<Job>>,
}

impl WriteBatch {
    /// Starts the batch task on SQLite (on the database's write-path runtime); nothing to
    /// start on PostgreSQL.
    pub fn new(db: Db) -> WriteBatch {
        let queue = (db.backend() == Backend::Sqlite).then(|| spawn(db.clone()));
        WriteBatch { db, queue }
    }

    /// Whether the batch task still runs (always on PostgreSQL): for `/healthz`.
    pub fn alive(&self) -> bool {
        self.queue.as_ref().is_none_or(|q| !q.is_closed())
    }

    /// Runs `work` inside a write transaction (shared with other work on SQLite, under its
    /// own savepoint): `Ok(Ok(t))` once committed; `Ok(Err(e))` when the work answered `e`
    /// (its writes rolled back, nothing else affected); `Err` when nothing is durable.
    pub async fn run<T, E, F>(&self, work: F) -> Result<Result<T, E>, BatchError>
    where
        T: Send + 'static,
        E: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, E>> + Send + 'static,
    {
        let erased: Work = Box::new(move |conn| {
            work(conn).map(|r| r.map(|t| Box::new(t) as Box<dyn Any + Send>).map_err(|e| Box::new(e) as Box<dyn Any + Send>)).boxed()
        });
        let answer = match &self.queue {
            None => run_direct(&self.db, erased).await,
            Some(queue) => {
                let (reply, rx) = oneshot::channel();
                let gone = || BatchError::Unavailable("the write batch task stopped".into());
                queue.send(Job { work: erased, reply }).await.map_err(|_| gone())?;
                rx.await.map_err(|_| gone())?
            }
        }?;
        Ok(match answer {
            Ok(t) => Ok(*t.downcast::<T>().expect("the work's own type")),
            Err(e) => Err(*e.downcast::<E>().expect("the work's own type")),
        })
    }
}

fn unavailable(e: impl std::fmt::Display) -> BatchError {
    BatchError::Unavailable(e.to_string())
}

/// PostgreSQL: the work in its own transaction.
async fn run_direct(db: &Db, work: Work) -> Result<Erased, BatchError> {
    let mut tx = db.writer().begin().await.map_err(unavailable)?;
    let out = match AssertUnwindSafe(work(&mut tx)).catch_unwind().await {
        Ok(out) => out,
        Err(_) => {
            let _ = tx.rollback().await;
            return Err(BatchError::Panicked);
        }
    };
    match out {
        Ok(t) => {
            tx.commit().await.map_err(unavailable)?;
            Ok(Ok(t))
        }
        Err(e) => {
            let _ = tx.rollback().await;
            Ok(Err(e))
        }
    }
}

fn spawn(db: Db) -> mpsc::Sender<Job> {
    let (sender, mut receiver) = mpsc::channel::<Job>(MAX_BATCH * 8);
    db.write_tasks().clone().spawn(async move {
        let mut jobs: Vec<Job> = Vec::with_capacity(MAX_BATCH);
        while let Some(first) = receiver.recv().await {
            jobs.push(first);
            while jobs.len() < MAX_BATCH {
                match receiver.try_recv() {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            kernel::metrics::observe(kernel::metrics::WRITE_BATCH_SIZE, &[("path", "write_batch")], jobs.len() as f64);
            commit_batch(&db, &mut jobs).await;
        }
    });
    sender
}

async fn exec(conn: &mut AnyConnection, sql: &str) -> Result<(), sqlx::Error> {
    sqlx::query(sql).execute(conn).await.map(|_| ())
}

/// Runs the queued work in one transaction, each piece under its own savepoint, commits
/// once and answers every piece.
async fn commit_batch(db: &Db, jobs: &mut Vec<Job>) {
    let fail_all = |jobs: &mut Vec<Job>, e: BatchError| {
        for job in jobs.drain(..) {
            let _ = job.reply.send(Err(e.clone()));
        }
    };
    let mut tx = match db.writer().begin().await {
        Ok(tx) => tx,
        Err(e) => return fail_all(jobs, unavailable(e)),
    };
    let mut answers: Vec<(oneshot::Sender<Result<Erased, BatchError>>, Result<Erased, BatchError>)> = Vec::with_capacity(jobs.len());
    for job in jobs.drain(..) {
        if let Err(e) = exec(&mut tx, "SAVEPOINT work").await {
            let _ = tx.rollback().await;
            let e = unavailable(e);
            for (reply, _) in answers {
                let _ = reply.send(Err(e.clone()));
            }
            let _ = job.reply.send(Err(e));
            return;
        }
        let out = match AssertUnwindSafe((job.work)(&mut tx)).catch_unwind().await {
            Ok(out) => Ok(out),
            Err(_) => Err(BatchError::Panicked),
        };
        let keep = matches!(out, Ok(Ok(_)));
        let closed = if keep {
            exec(&mut tx, "RELEASE SAVEPOINT work").await
        } else {
            match exec(&mut tx, "ROLLBACK TO SAVEPOINT work").await {
                Ok(()) => exec(&mut tx, "RELEASE SAVEPOINT work").await,
                Err(e) => Err(e),
            }
        };
        answers.push((job.reply, out));
        if let Err(e) = closed {
            let _ = tx.rollback().await;
            let e = unavailable(e);
            for (reply, _) in answers {
                let _ = reply.send(Err(e.clone()));
            }
            return;
        }
    }
    match tx.commit().await {
        Ok(()) => {
            for (reply, out) in answers {
                let _ = reply.send(out);
            }
        }
        Err(e) => {
            // Nothing of this batch is durable.
            let e = unavailable(e);
            for (reply, _) in answers {
                let _ = reply.send(Err(e.clone()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{backends, TestDb};
    use futures::future::join_all;

    async fn count(db: &Db) -> i64 {
        use sqlx::Row;
        sqlx::query("SELECT COUNT(*) FROM t").fetch_one(db.reader()).await.unwrap().get(0)
    }

    /// Many concurrent pieces of work: the ones that answer `Ok` are all durable, one that
    /// answers `Err` after writing leaves nothing, one that panics leaves nothing and stops
    /// nothing, and a conflicting write fails alone.
    #[tokio::test]
    async fn each_piece_of_work_commits_or_fails_alone() {
        for backend in backends() {
            let t = TestDb::new(backend).await.unwrap();
            let db = Db::connect(&t.url).await.unwrap();
            sqlx::query("CREATE TABLE t (id BIGINT PRIMARY KEY, v TEXT NOT NULL)").execute(db.writer()).await.unwrap();
            let batch = WriteBatch::new(db.clone());
            let runs = (0..200i64).map(|i| {
                let batch = batch.clone();
                async move {
                    batch
                        .run(move |conn| {
                            async move {
                                sqlx::query("INSERT INTO t (id, v) VALUES ($1, 'x')").bind(i).execute(&mut *conn).await.map_err(|e| e.to_string())?;
                                if i % 10 == 3 {
                                    return Err("refused after writing".to_string());
                                }
                                if i == 77 {
                                    panic!("a bug in one piece of work");
                                }
                                // Id 5 again from 105: a unique violation, failing alone.
                                if i == 105 {
                                    sqlx::query("INSERT INTO t (id, v) VALUES (5, 'dup')").execute(&mut *conn).await.map_err(|e| e.to_string())?;
                                }
                                Ok(i)
                            }
                            .boxed()
                        })
                        .await
                }
            });
            let out = join_all(runs).await;
            let mut committed = 0;
            for (i, r) in out.iter().enumerate() {
                match (i, r) {
                    (77, r) => assert_eq!(r, &Err(BatchError::Panicked), "{backend:?}"),
                    (i, Ok(Err(_))) => assert!(i % 10 == 3 || i == 105, "{backend:?} {i}"),
                    (i, Ok(Ok(v))) => {
                        assert_eq!(*v, i as i64);
                        committed += 1;
                    }
                    (i, r) => panic!("{backend:?} {i}: {r:?}"),
                }
            }
            // 200 − 20 refused − the panic − the duplicate.
            assert_eq!(committed, 178, "{backend:?}");
            assert_eq!(count(&db).await, 178, "{backend:?}");
            assert!(batch.alive());
            // Still serving after the panic.
            assert_eq!(batch.run(|_| async { Ok::<_, ()>(1) }.boxed()).await, Ok(Ok(1)));
            db.close().await;
            t.cleanup().await;
        }
    }
}
