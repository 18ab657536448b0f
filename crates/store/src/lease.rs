//! Single owners with fail-over (ARCHITECTURE §7): a *duty* (the crash round loop, the
//! virtual races' scheduler, a scheduled job…) runs in exactly one instance, the one that
//! holds its lease; the others stand by and one of them takes over within a few seconds
//! when the owner dies.
//!
//! * **PostgreSQL**: the lease is the session-level advisory lock [`lock_key`]`(duty)`, taken
//!   with `pg_try_advisory_lock` on a connection of its own that is kept for as long as the
//!   duty is held. When the owner process dies its connection closes and PostgreSQL frees
//!   the lock at once; a standby instance tries every [`RETRY_EVERY`] and gets it. The
//!   holder checks its connection every [`CHECK_EVERY`] (`SELECT 1` on it) and cancels the
//!   duty's task when the connection is lost (the lock may then already be someone else's).
//!   No consensus of our own: the database's lock table is the only truth.
//! * **SQLite** serves one instance by design: a duty is held at once.
//! * Both write a row of `duty_leases` (owner, acquired, heartbeat every
//!   [`HEARTBEAT_EVERY`]) purely for visibility (`carthage duties`, metrics).
//! * A duty's task gets a [`Cancel`]; on release (shutdown, lost connection) it is cancelled
//!   and awaited for at most [`STOP_GRACE`], then aborted, and only then is the lock
//!   released: so a rolling restart hands over at once and two owners never run at once.
//! * A task that ends by itself (a panic, a loop that returned) marks the duty *failed*:
//!   the lock is released so another instance takes over, this instance does not take the
//!   duty again, and `/healthz` fails so a supervisor restarts it.
//!
//! Between a lost connection and the holder noticing it there is up to one
//! [`CHECK_EVERY`]; a new owner therefore waits [`TAKEOVER_DELAY`] (longer than a check
//! plus the time to stop) after taking the lock before it starts the task.

use crate::{Backend, Db};
use kernel::clock::now_ms;
use sqlx::{AnyConnection, Connection, Row};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How often a standby instance tries to take a duty.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);
/// How often the holder checks the connection that holds the lock.
pub const CHECK_EVERY: Duration = Duration::from_secs(1);
/// How often the holder refreshes `duty_leases.heartbeat_at`.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(5);
/// The longest a cancelled task is waited for before it is aborted.
pub const STOP_GRACE: Duration = Duration::from_secs(5);
/// PostgreSQL: a new owner waits this long after taking the lock, so a previous owner whose
/// connection was cut (and who notices it within [`CHECK_EVERY`]) has stopped first. Not
/// used when the previous owner released the duty itself (the row says so).
pub const TAKEOVER_DELAY: Duration = Duration::from_millis(1_500);

/// The advisory-lock key of a duty: FNV-1a (64 bits) of `carthage.duty.` + the duty's name,
/// as a signed 64-bit integer. Stable across versions and machines (never `std`'s hasher),
/// and distinct from the fixed keys of migrations (7 351 001).
pub fn lock_key(duty: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in "carthage.duty.".bytes().chain(duty.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h as i64
}

/// This process's owner id: `host:pid:random`, unique per start.
pub fn instance_id() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.trim().is_empty())
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok().map(|h| h.trim().to_string()))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    format!("{host}:{}:{:04x}", std::process::id(), rand::random::<u16>())
}

/// Handed to a duty's task: resolves when the task must stop (the duty is released).
#[derive(Clone)]
pub struct Cancel(watch::Receiver<Stop>);

/// Why a duty's task is asked to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Running,
    /// The lease's connection was lost: another instance may own the duty in a moment; stop
    /// at once.
    Now,
    /// A graceful shutdown: the task may finish what it is doing (a crash round) within the
    /// duty's grace ([`Duties::run_with_grace`]); nobody else takes the duty meanwhile.
    Graceful,
}

impl Cancel {
    pub fn is_cancelled(&self) -> bool {
        *self.0.borrow() != Stop::Running
    }

    /// The stop is a graceful shutdown (SIGTERM), not a lost lease: finishing the work in
    /// hand is safe and wanted.
    pub fn is_graceful(&self) -> bool {
        *self.0.borrow() == Stop::Graceful
    }

    /// Resolves once the duty is released (or its holder is gone).
    pub async fn cancelled(&self) {
        let mut rx = self.0.clone();
        let _ = rx.wait_for(|c| *c != Stop::Running).await;
    }
}

/// One duty as this instance sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DutyStatus {
    pub duty: String,
    /// This instance holds it and its task runs.
    pub held: bool,
    /// Its task ended by itself while held: why (the duty is left to other instances).
    pub failed: Option<String>,
}

#[derive(Default)]
struct DutyState {
    held: AtomicBool,
    failed: Mutex<Option<String>>,
    /// Times this instance took the duty.
    acquisitions: AtomicI64,
    /// How long its task may take to stop at a graceful shutdown.
    grace: Mutex<Option<Duration>>,
}

struct Inner {
    db: Db,
    owner: String,
    duties: Mutex<BTreeMap<String, Arc<DutyState>>>,
    supervisors: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    stop: watch::Sender<bool>,
}

/// The duties of this instance: cheap to clone.
#[derive(Clone)]
pub struct Duties {
    inner: Arc<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Duties {
    /// `owner`: this instance's id ([`instance_id`]), shown in `duty_leases`.
    pub fn new(db: Db, owner: impl Into<String>) -> Duties {
        let (stop, _) = watch::channel(false);
        Duties {
            inner: Arc::new(Inner {
                db,
                owner: owner.into(),
                duties: Mutex::new(BTreeMap::new()),
                supervisors: Mutex::new(Vec::new()),
                stop,
            }),
        }
    }

    pub fn owner(&self) -> &str {
        &self.inner.owner
    }

    /// Runs `task` as the duty `name` whenever this instance holds it: `task(cancel)` is
    /// started each time the duty is taken and must return soon after `cancel` resolves.
    /// Returns once the first attempt to take the duty is done (so a single instance has its
    /// duties running when it starts answering). One call per name.
    pub async fn run<F, Fut>(&self, name: &str, task: F)
    where
        F: Fn(Cancel) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.run_with_grace(name, STOP_GRACE, task).await
    }

    /// [`Self::run`] whose task may take up to `grace` to stop at a graceful shutdown
    /// ([`Cancel::is_graceful`]: the crash loop finishes its round). A lost lease still
    /// stops it within [`STOP_GRACE`].
    pub async fn run_with_grace<F, Fut>(&self, name: &str, grace: Duration, task: F)
    where
        F: Fn(Cancel) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let state = {
            let mut duties = lock(&self.inner.duties);
            if duties.contains_key(name) {
                tracing::error!(duty = name, "duty started twice; ignored");
                return;
            }
            let state = Arc::new(DutyState::default());
            *lock(&state.grace) = Some(grace);
            duties.insert(name.to_string(), state.clone());
            state
        };
        let (first_tx, first_rx) = tokio::sync::oneshot::channel();
        let handle = tokio::spawn(supervise(self.inner.clone(), name.to_string(), state, task, first_tx));
        lock(&self.inner.supervisors).push(handle);
        let _ = tokio::time::timeout(Duration::from_secs(10), first_rx).await;
    }

    /// Whether this instance holds `name` now.
    pub fn held(&self, name: &str) -> bool {
        lock(&self.inner.duties).get(name).is_some_and(|s| s.held.load(Ordering::SeqCst))
    }

    /// How many times this instance took `name` (tests, metrics).
    pub fn acquisitions(&self, name: &str) -> i64 {
        lock(&self.inner.duties).get(name).map_or(0, |s| s.acquisitions.load(Ordering::SeqCst))
    }

    /// Every duty this instance runs or stands by for, by name.
    pub fn status(&self) -> Vec<DutyStatus> {
        lock(&self.inner.duties)
            .iter()
            .map(|(name, s)| DutyStatus { duty: name.clone(), held: s.held.load(Ordering::SeqCst), failed: lock(&s.failed).clone() })
            .collect()
    }

    /// The duties whose task died while this instance held them (`/healthz`).
    pub fn failed(&self) -> Vec<(String, String)> {
        self.status().into_iter().filter_map(|s| s.failed.map(|f| (s.duty, f))).collect()
    }

    /// Releases every duty: cancels the tasks, waits for them (each at most [`STOP_GRACE`],
    /// then aborted), unlocks. Standby instances take over within [`RETRY_EVERY`].
    pub async fn shutdown(&self) {
        let _ = self.inner.stop.send(true);
        let handles: Vec<_> = std::mem::take(&mut *lock(&self.inner.supervisors));
        let grace = lock(&self.inner.duties).values().filter_map(|s| *lock(&s.grace)).max().unwrap_or(STOP_GRACE).max(STOP_GRACE);
        let until = tokio::time::Instant::now() + grace + Duration::from_secs(3);
        for h in handles {
            let _ = tokio::time::timeout_at(until, h).await;
        }
    }
}

/// A row of `duty_leases` (`carthage duties`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRow {
    pub duty: String,
    /// `None`: released.
    pub owner: Option<String>,
    pub acquired_at: i64,
    pub heartbeat_at: i64,
}

/// Every lease row, by duty.
pub async fn leases(db: &Db) -> Result<Vec<LeaseRow>, sqlx::Error> {
    let rows = sqlx::query("SELECT duty, owner, acquired_at, heartbeat_at FROM duty_leases ORDER BY duty").fetch_all(db.reader()).await?;
    Ok(rows
        .iter()
        .map(|r| LeaseRow { duty: r.get(0), owner: r.get(1), acquired_at: r.get(2), heartbeat_at: r.get(3) })
        .collect())
}

/// PostgreSQL: which duties are locked right now, by any session (the truth behind the
/// rows). SQLite: `None`.
pub async fn locked(db: &Db, duties: &[&str]) -> Result<Option<Vec<bool>>, sqlx::Error> {
    if db.backend() != Backend::Postgres {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(duties.len());
    for d in duties {
        let key = lock_key(d);
        // A bigint key is stored as (classid = high 32 bits, objid = low 32 bits, objsubid = 1).
        let row = sqlx::query(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM pg_locks WHERE locktype = 'advisory' AND granted \
             AND objsubid = 1 AND classid = CAST($1 AS BIGINT) AND objid = CAST($2 AS BIGINT)",
        )
        .bind(((key as u64) >> 32) as i64)
        .bind((key as u64 & 0xffff_ffff) as i64)
        .fetch_one(db.reader())
        .await?;
        out.push(row.get::<i64, _>(0) > 0);
    }
    Ok(Some(out))
}

// ------------------------------------------------------------------ the two backends

/// What holds a duty: the PostgreSQL session with the advisory lock, or nothing (SQLite).
enum Hold {
    Session(AnyConnection),
    Local,
}

/// One attempt to take the duty: `None` when another session holds it.
async fn try_take(db: &Db, key: i64) -> Result<Option<Hold>, sqlx::Error> {
    match db.backend() {
        Backend::Sqlite => Ok(Some(Hold::Local)),
        Backend::Postgres => {
            let mut conn = db.writer().acquire().await?;
            let got = sqlx::query("SELECT CAST(pg_try_advisory_lock($1) AS TEXT)")
                .bind(key)
                .fetch_one(&mut *conn)
                .await?
                .get::<String, _>(0);
            if got == "true" || got == "t" {
                // The connection leaves the pool (which opens another): it lives as long as
                // the duty is held, and closing the pool does not keep it from being closed.
                Ok(Some(Hold::Session(conn.detach())))
            } else {
                Ok(None)
            }
        }
    }
}

impl Hold {
    /// Still ours? PostgreSQL: the session answers (within a check period).
    async fn alive(&mut self, db: &Db) -> bool {
        if db.writer().is_closed() {
            return false;
        }
        match self {
            Hold::Local => true,
            Hold::Session(conn) => matches!(
                tokio::time::timeout(CHECK_EVERY, sqlx::query("SELECT 1").execute(&mut *conn)).await,
                Ok(Ok(_))
            ),
        }
    }

    /// Runs a visibility write on the holding session (PostgreSQL: it proves the session
    /// too) or on the writer pool (SQLite). Failures are logged, never fatal.
    async fn record(&mut self, db: &Db, sql: &str, duty: &str, owner: &str, now: i64) {
        let q = sqlx::query(sql).bind(duty).bind(owner).bind(now);
        let r = match self {
            Hold::Session(conn) => tokio::time::timeout(CHECK_EVERY, q.execute(&mut *conn)).await,
            Hold::Local => tokio::time::timeout(CHECK_EVERY * 5, q.execute(db.writer())).await,
        };
        match r {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!(duty, error = %e, "duties: the lease row was not written"),
            Err(_) => tracing::warn!(duty, "duties: the lease row write timed out"),
        }
    }

    /// Releases the lock (PostgreSQL: unlock, then close the session, which would release
    /// it anyway).
    async fn release(self, key: i64) {
        if let Hold::Session(mut conn) = self {
            let unlock = sqlx::query("SELECT CAST(pg_advisory_unlock($1) AS TEXT)").bind(key);
            let _ = tokio::time::timeout(CHECK_EVERY, unlock.execute(&mut conn)).await;
            let _ = tokio::time::timeout(CHECK_EVERY, conn.close()).await;
        }
    }
}

// Parameters: $1 duty, $2 owner, $3 now.
const ACQUIRED_SQL: &str = "INSERT INTO duty_leases (duty, owner, acquired_at, heartbeat_at) VALUES ($1, $2, $3, $3) \
     ON CONFLICT (duty) DO UPDATE SET owner = excluded.owner, acquired_at = excluded.acquired_at, heartbeat_at = excluded.heartbeat_at";
const HEARTBEAT_SQL: &str = "UPDATE duty_leases SET heartbeat_at = $3 WHERE duty = $1 AND owner = $2";
const RELEASED_SQL: &str = "UPDATE duty_leases SET owner = NULL, heartbeat_at = $3 WHERE duty = $1 AND owner = $2";

/// Whether the last owner released the duty itself (no wait needed before taking over).
async fn released_cleanly(conn: &mut AnyConnection, duty: &str) -> bool {
    let q = sqlx::query("SELECT owner FROM duty_leases WHERE duty = $1").bind(duty);
    match tokio::time::timeout(CHECK_EVERY, q.fetch_optional(conn)).await {
        Ok(Ok(None)) => true,
        Ok(Ok(Some(row))) => row.try_get::<Option<String>, _>(0).ok().flatten().is_none(),
        _ => false,
    }
}

// ------------------------------------------------------------------ the supervisor

enum Why {
    Shutdown,
    Lost,
    Ended(String),
}

/// Tells [`Duties::run`] that the first attempt is done.
fn signal(first: &mut Option<tokio::sync::oneshot::Sender<()>>) {
    if let Some(f) = first.take() {
        let _ = f.send(());
    }
}

/// Resolves when `stop` says so (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

async fn supervise<F, Fut>(inner: Arc<Inner>, name: String, state: Arc<DutyState>, task: F, first: tokio::sync::oneshot::Sender<()>)
where
    F: Fn(Cancel) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let key = lock_key(&name);
    let db = inner.db.clone();
    let owner = inner.owner.clone();
    let mut stop = inner.stop.subscribe();
    let mut first = Some(first);
    loop {
        if *stop.borrow() || db.writer().is_closed() {
            break;
        }
        let taken = match try_take(&db, key).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(duty = %name, error = %e, "duties: cannot try the lease");
                None
            }
        };
        let Some(mut hold) = taken else {
            signal(&mut first);
            tokio::select! {
                _ = stopped(&mut stop) => break,
                _ = tokio::time::sleep(RETRY_EVERY) => {}
            }
            continue;
        };
        // PostgreSQL: a previous owner that did not release the duty (died, or lost its
        // connection and is noticing it now) gets the time to stop first.
        if let Hold::Session(conn) = &mut hold {
            if !released_cleanly(conn, &name).await {
                tracing::info!(duty = %name, "duties: taking over from an owner that did not release");
                signal(&mut first);
                tokio::select! {
                    _ = stopped(&mut stop) => { hold.release(key).await; break; }
                    _ = tokio::time::sleep(TAKEOVER_DELAY) => {}
                }
            }
        }
        hold.record(&db, ACQUIRED_SQL, &name, &owner, now_ms()).await;
        tracing::info!(duty = %name, owner = %owner, "duties: duty taken");
        let (cancel_tx, cancel_rx) = watch::channel(Stop::Running);
        let mut running = tokio::spawn(task(Cancel(cancel_rx)));
        state.acquisitions.fetch_add(1, Ordering::SeqCst);
        state.held.store(true, Ordering::SeqCst);
        signal(&mut first);
        let mut last_beat = tokio::time::Instant::now();
        let why = loop {
            tokio::select! {
                _ = stopped(&mut stop) => break Why::Shutdown,
                r = &mut running => break Why::Ended(match r {
                    Ok(()) => "the task ended".to_string(),
                    Err(e) if e.is_panic() => "the task panicked".to_string(),
                    Err(e) => format!("the task failed: {e}"),
                }),
                _ = tokio::time::sleep(CHECK_EVERY) => {
                    if !hold.alive(&db).await {
                        break Why::Lost;
                    }
                    if last_beat.elapsed() >= HEARTBEAT_EVERY {
                        last_beat = tokio::time::Instant::now();
                        hold.record(&db, HEARTBEAT_SQL, &name, &owner, now_ms()).await;
                    }
                }
            }
        };
        // Stop the task before the lock goes: never two owners at once.
        let (stop_as, grace) = match why {
            Why::Shutdown => (Stop::Graceful, lock(&state.grace).unwrap_or(STOP_GRACE)),
            _ => (Stop::Now, STOP_GRACE),
        };
        let _ = cancel_tx.send(stop_as);
        if !matches!(why, Why::Ended(_)) && tokio::time::timeout(grace, &mut running).await.is_err() {
            tracing::warn!(duty = %name, "duties: the task did not stop in time; aborted");
            running.abort();
            let _ = running.await;
        }
        state.held.store(false, Ordering::SeqCst);
        match &why {
            Why::Shutdown => tracing::info!(duty = %name, "duties: duty released (shutdown)"),
            Why::Lost => tracing::error!(duty = %name, "duties: the lease's connection was lost; duty stopped"),
            Why::Ended(reason) => {
                tracing::error!(duty = %name, reason = %reason, "duties: the duty's task ended; released to other instances");
                *lock(&state.failed) = Some(reason.clone());
            }
        }
        if !matches!(why, Why::Lost) {
            hold.record(&db, RELEASED_SQL, &name, &owner, now_ms()).await;
        }
        hold.release(key).await;
        match why {
            Why::Shutdown => break,
            Why::Ended(_) => {
                // Not taken again by this instance: `/healthz` fails, a supervisor restarts it.
                stopped(&mut stop).await;
                break;
            }
            Why::Lost => {}
        }
    }
    signal(&mut first);
    state.held.store(false, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_keys_are_stable_and_distinct() {
        // Fixed forever: instances of different versions must agree on them.
        assert_eq!(lock_key("crash"), lock_key("crash"));
        assert_ne!(lock_key("crash"), lock_key("virtual_races"));
        assert_ne!(lock_key("crash"), 7_351_001);
    }
}
