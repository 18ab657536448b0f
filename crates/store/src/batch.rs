//! Group commit for small write transactions that are not ledger postings (a payment
//! intent's transition and its event rows, a bet's state): one transaction per request caps
//! a busy path at the commits per second the database can make (on SQLite the disk's fsyncs,
//! about 700 here; on PostgreSQL each commit is a WAL flush and a round of work for a
//! backend). [`WriteBatch::run`] queues the work; a writer takes what has queued (up to
//! [`MAX_BATCH`]), runs each piece of work in its own `SAVEPOINT` of one transaction, and
//! commits once — the way the ledger's writers batch postings
//! (`wallet::posting::spawn_batcher`).
//!
//! Each piece of work is atomic on its own and fails alone: an `Err` (or a panic) rolls back
//! to its savepoint and the others still commit. When the commit itself fails, nothing of
//! the batch is durable and every piece answers [`BatchError::Unavailable`] (retry).
//!
//! The same code runs on both databases. SQLite has one writer; PostgreSQL runs
//! [`crate::dialect::writers`] of them on one queue, each committing on its own connection, so
//! a batch waiting on a row lock another instance holds does not stop the others. A piece of
//! work is a `FnOnce` and cannot be run twice: a piece whose statement is chosen as a
//! deadlock's victim fails alone with that error (its savepoint rolled back, the batch goes
//! on), as it did in a transaction of its own.
//!
//! A piece of work must not wait on another write (a ledger posting, another batch): on
//! SQLite it runs while holding the one writer connection, so that wait would never end.

use crate::Db;
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

/// A handle on the group-commit writers. Cheap to clone.
#[derive(Clone)]
pub struct WriteBatch {
    queue: mpsc::Sender<Job>,
}

impl WriteBatch {
    /// Starts the batch writers (on the database's write-path runtime): one on SQLite,
    /// [`crate::dialect::writers`] on PostgreSQL.
    pub fn new(db: Db) -> WriteBatch {
        let writers = crate::dialect::writers(&db);
        WriteBatch { queue: spawn(db, writers) }
    }

    /// Whether the batch writers still run: for `/healthz`.
    pub fn alive(&self) -> bool {
        !self.queue.is_closed()
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
        let answer = {
            let (reply, rx) = oneshot::channel();
            let gone = || BatchError::Unavailable("the write batch task stopped".into());
            self.queue.send(Job { work: erased, reply }).await.map_err(|_| gone())?;
            rx.await.map_err(|_| gone())?
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

/// A batch of one piece: the work in its own transaction (no savepoint to pay for).
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

/// `writers` tasks taking batches from one queue: whichever is free takes everything queued.
fn spawn(db: Db, writers: usize) -> mpsc::Sender<Job> {
    let (sender, receiver) = mpsc::channel::<Job>(MAX_BATCH * 8);
    let receiver = std::sync::Arc::new(tokio::sync::Mutex::new(receiver));
    for _ in 0..writers.max(1) {
        db.write_tasks().clone().spawn(writer(db.clone(), receiver.clone()));
    }
    sender
}

type Queue = std::sync::Arc<tokio::sync::Mutex<mpsc::Receiver<Job>>>;

/// One writer: takes everything queued (up to [`MAX_BATCH`]), commits it, again.
async fn writer(db: Db, receiver: Queue) {
    loop {
        let mut jobs = next_batch(&receiver).await;
        if jobs.is_empty() {
            return;
        }
        kernel::metrics::observe(kernel::metrics::WRITE_BATCH_SIZE, &[("path", "write_batch")], jobs.len() as f64);
        if jobs.len() == 1 {
            if let Some(job) = jobs.pop() {
                let out = run_direct(&db, job.work).await;
                let _ = job.reply.send(out);
            }
        } else {
            commit_batch(&db, &mut jobs).await;
        }
    }
}

/// What is queued (at least one piece, none once the queue is closed).
async fn next_batch(receiver: &Queue) -> Vec<Job> {
    let mut receiver = receiver.lock().await;
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    if let Some(first) = receiver.recv().await {
        jobs.push(first);
        while jobs.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
    }
    jobs
}

async fn exec(conn: &mut AnyConnection, sql: &str) -> Result<(), sqlx::Error> {
    crate::dialect::exec_script(conn, sql).await
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
        // One round trip closes the savepoint (kept, or rolled back first).
        let closed = exec(&mut tx, if keep { "RELEASE SAVEPOINT work" } else { "ROLLBACK TO SAVEPOINT work; RELEASE SAVEPOINT work" }).await;
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
