//! Rate limits, shared by every instance through the database (table `rate_limits`,
//! migration 0026; docs/OPERATIONS.md "Rate limits").
//!
//! * Failed sign-ins per account and per IP: each sign-in attempt takes a cell of both
//!   buckets *before* the password is checked, and a right password gives them back, so
//!   the last cell can be taken by one attempt only, whichever instance serves it. When a
//!   bucket is empty the key is refused until a cell is back (code 16 for an account, 14
//!   for an IP). The account quota (burst 10, one cell every 40 s) caps failures at
//!   10 + 90 = 100 per hour and account. Before the lock, replies to repeated failures
//!   slow down (the account's failure count is in its row, shared too).
//! * SMS and e-mail sends per address and per IP.
//! * Unknown-account probes per IP: every sign-in and recovery lookup takes a cell, given
//!   back when the account exists; a lookup naming a login, e-mail or phone that does not
//!   exist (codes 3, 21, 22) keeps it. When the bucket is empty the IP is refused (14) on
//!   every sign-in and recovery lookup until a cell is back, so nobody learns which
//!   accounts exist faster than the quota (burst 30, one every 20 s: at most 210 names an
//!   hour and IP).
//!
//! Each bucket is a row holding a GCRA state (the algorithm governor used in memory when
//! the limits lived in each process): its theoretical arrival time `tat_ms`. A take is one
//! conditional upsert that allows it when `max(tat, now) + period - now <= burst × period`;
//! the cells of one request are taken in one transaction, all or none, in key order (so two
//! transactions never wait on each other in a cycle). The database is authoritative; the
//! only in-memory state is a cache of refusals this instance has seen (a key refused until
//! T is answered without a query until T: a brute force against a locked account costs no
//! database work). Cost per check: docs/PERFORMANCE.md "Shared rate limits".

use kernel::clock::now_ms;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use store::sqlx::{self, Row};
use store::Db;

#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub burst: u32,
    /// One cell comes back every `period`.
    pub period: Duration,
}

impl Limit {
    fn period_ms(self) -> i64 {
        (self.period.as_millis() as i64).max(1)
    }
    fn burst(self) -> i64 {
        i64::from(self.burst.max(1))
    }
}

#[derive(Debug, Clone, Copy)]
pub struct LimitsConfig {
    pub login_failures_per_account: Limit,
    pub login_failures_per_ip: Limit,
    pub sends_per_address: Limit,
    pub sends_per_ip: Limit,
    /// Sign-ins and recoveries that named no existing account, per IP.
    pub unknown_accounts_per_ip: Limit,
    /// Failures after which replies are delayed.
    pub slow_down_after: u32,
    pub slow_down_step: Duration,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            login_failures_per_account: Limit { burst: 10, period: Duration::from_secs(40) },
            login_failures_per_ip: Limit { burst: 50, period: Duration::from_secs(10) },
            sends_per_address: Limit { burst: 5, period: Duration::from_secs(12 * 60) },
            sends_per_ip: Limit { burst: 20, period: Duration::from_secs(60) },
            unknown_accounts_per_ip: Limit { burst: 30, period: Duration::from_secs(20) },
            slow_down_after: 3,
            slow_down_step: Duration::from_millis(250),
        }
    }
}

/// The slow-down counter forgets failures older than this.
const FAILURE_MEMORY_MS: i64 = 15 * 60_000;

/// Why a request was refused, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    AccountLocked(Duration),
    IpLimited(Duration),
}

impl Refusal {
    pub fn wait(self) -> Duration {
        match self {
            Refusal::AccountLocked(d) | Refusal::IpLimited(d) => d,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error("rate limited: {0:?}")]
    Refused(Refusal),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Account,
    Ip,
}

/// One bucket of a request: its row key, its quota, and the refusal when it is empty.
struct Cell {
    key: String,
    limit: Limit,
    kind: Kind,
}

impl Cell {
    fn refusal(&self, wait: Duration) -> Refusal {
        match self.kind {
            Kind::Account => Refusal::AccountLocked(wait),
            Kind::Ip => Refusal::IpLimited(wait),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Take {
    AllOrNone,
    UpToRefusal,
}

/// The cells a sign-in or a lookup took, to be settled by its outcome.
#[derive(Debug)]
#[must_use = "settle the attempt (Limits::settle) so its cells are given back when due"]
pub struct Attempt {
    /// `la:` key of the account (sign-ins only).
    account: Option<String>,
    /// `li:` key of the IP's failure bucket (sign-ins only).
    ip: Option<String>,
    /// `pi:` key of the IP's probe bucket.
    probe: String,
}

/// How an [`Attempt`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// No such account: the probe cell stays taken, the sign-in cells come back.
    Missing,
    /// The account exists (a recovery lookup): the probe cell comes back.
    Found,
    /// A wrong password: the failure cells stay taken, the probe cell comes back.
    WrongPassword,
    /// The right password: every cell comes back and the slow-down restarts.
    RightPassword,
}

pub struct Limits {
    cfg: LimitsConfig,
    db: Db,
    /// Refusals seen by this instance: key → refused until. A cache only (a lock never ends
    /// earlier than the database said, but for attempts given back meanwhile).
    refused: Mutex<HashMap<String, Instant>>,
}

impl Limits {
    pub fn new(cfg: LimitsConfig, db: Db) -> Limits {
        Limits { cfg, db, refused: Mutex::new(HashMap::new()) }
    }

    fn refused_for(&self, key: &str) -> Option<Duration> {
        let mut refused = self.refused.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        match refused.get(key) {
            Some(until) if *until > now => Some(*until - now),
            Some(_) => {
                refused.remove(key);
                None
            }
            None => None,
        }
    }

    fn remember_refusal(&self, key: &str, wait: Duration) {
        self.refused.lock().unwrap_or_else(|p| p.into_inner()).insert(key.to_string(), Instant::now() + wait);
    }

    /// A write transaction for buckets. PostgreSQL: with an asynchronous commit — the row
    /// locks and the check are the same, only durability is relaxed: a database crash may
    /// forget the last fraction of a second of counts (a few tries), and a check costs 0.6 ms
    /// instead of a WAL flush (4 ms here; docs/PERFORMANCE.md "Shared rate limits").
    async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        let mut tx = self.db.writer().begin().await?;
        if self.db.backend() == store::Backend::Postgres {
            sqlx::query("SET LOCAL synchronous_commit TO OFF").execute(&mut *tx).await?;
        }
        Ok(tx)
    }

    /// Takes one cell of every bucket of `cells`, in their order of precedence (the first
    /// empty bucket names the refusal). [`Take::AllOrNone`]: a refusal takes nothing;
    /// [`Take::UpToRefusal`]: the cells before the first empty bucket stay taken (a refused
    /// send still counts against its IP, as it did with governor).
    async fn take(&self, cells: &[Cell], mode: Take) -> Result<(), LimitError> {
        let cached = match mode {
            Take::AllOrNone => cells.len(),
            Take::UpToRefusal => 1,
        };
        for cell in cells.iter().take(cached) {
            if let Some(wait) = self.refused_for(&cell.key) {
                count_refusal(&cell.key);
                return Err(LimitError::Refused(cell.refusal(wait)));
            }
        }
        let mut order: Vec<&Cell> = cells.iter().collect();
        order.sort_by(|a, b| a.key.cmp(&b.key));
        order.dedup_by(|a, b| a.key == b.key);
        let now = now_ms();
        let sql = format!(
            "INSERT INTO rate_limits (key, tat_ms, period_ms, burst) VALUES {} \
             ON CONFLICT (key) DO UPDATE SET \
               tat_ms = (CASE WHEN rate_limits.tat_ms > $1 THEN rate_limits.tat_ms ELSE $1 END) + excluded.period_ms, \
               period_ms = excluded.period_ms, burst = excluded.burst \
             WHERE (CASE WHEN rate_limits.tat_ms > $1 THEN rate_limits.tat_ms ELSE $1 END) + excluded.period_ms - $1 \
                   <= excluded.period_ms * excluded.burst \
             RETURNING key",
            store::values(order.len(), 4, 2)
        );
        let mut q = sqlx::query(&sql).bind(now);
        for cell in &order {
            let p = cell.limit.period_ms();
            q = q.bind(cell.key.as_str()).bind(now + p).bind(p).bind(cell.limit.burst());
        }
        let mut tx = self.begin().await?;
        let taken: Vec<String> = q.fetch_all(&mut *tx).await?.iter().map(|r| r.get::<String, _>(0)).collect();
        if taken.len() == order.len() {
            tx.commit().await?;
            return Ok(());
        }
        // Refused: read why (still in the transaction), then undo what must not stay taken.
        let mut waits = Vec::new();
        for cell in cells.iter().filter(|c| !taken.contains(&c.key)) {
            let row = sqlx::query("SELECT tat_ms, period_ms, burst FROM rate_limits WHERE key = $1")
                .bind(cell.key.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let wait_ms = row.map(|r| r.get::<i64, _>(0) - now - (r.get::<i64, _>(2) - 1) * r.get::<i64, _>(1)).unwrap_or(0);
            waits.push((cell, Duration::from_millis(wait_ms.max(1) as u64)));
        }
        match mode {
            Take::AllOrNone => tx.rollback().await?,
            Take::UpToRefusal => {
                let first = cells.iter().position(|c| !taken.contains(&c.key)).unwrap_or(0);
                let mut undo: Vec<&str> = cells[first..].iter().map(|c| c.key.as_str()).filter(|k| taken.iter().any(|t| t == k)).collect();
                undo.sort();
                for key in undo {
                    sqlx::query("UPDATE rate_limits SET tat_ms = tat_ms - period_ms WHERE key = $1").bind(key).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            }
        }
        for (cell, wait) in &waits {
            self.remember_refusal(&cell.key, *wait);
        }
        let (cell, wait) = waits.first().copied().expect("a refused cell");
        count_refusal(&cell.key);
        Err(LimitError::Refused(cell.refusal(wait)))
    }

    /// Gives one cell back to each key of `keys` (taken earlier by this request), one row at
    /// a time in key order within one transaction; `reset` clears the account's failures.
    async fn give_back(&self, keys: &[&str], failed: Option<&str>, reset: Option<&str>) -> Result<u32, sqlx::Error> {
        let mut all: Vec<&str> = keys.iter().copied().chain(failed).chain(reset).collect();
        all.sort();
        all.dedup();
        if all.is_empty() {
            return Ok(0);
        }
        let now = now_ms();
        let mut failures = 0u32;
        let mut tx = self.begin().await?;
        for key in all {
            let back: i64 = if keys.contains(&key) { 1 } else { 0 };
            if failed == Some(key) {
                let row = sqlx::query(
                    "UPDATE rate_limits SET tat_ms = tat_ms - $2 * period_ms, \
                       failures = (CASE WHEN failed_at_ms > $3 THEN failures + 1 ELSE 1 END), failed_at_ms = $4 \
                     WHERE key = $1 RETURNING failures",
                )
                .bind(key)
                .bind(back)
                .bind(now - FAILURE_MEMORY_MS)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
                failures = row.map(|r| r.get::<i64, _>(0).clamp(0, u32::MAX as i64) as u32).unwrap_or(1);
            } else {
                let sql = if reset == Some(key) {
                    "UPDATE rate_limits SET tat_ms = tat_ms - $2 * period_ms, failures = 0 WHERE key = $1"
                } else {
                    "UPDATE rate_limits SET tat_ms = tat_ms - $2 * period_ms WHERE key = $1"
                };
                sqlx::query(sql).bind(key).bind(back).execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
        Ok(failures)
    }

    fn account_key(account: &str) -> String {
        format!("la:{account}")
    }
    fn ip_key(ip: &str) -> String {
        format!("li:{ip}")
    }
    fn probe_key(ip: &str) -> String {
        format!("pi:{ip}")
    }

    /// Before a sign-in's lookup: takes a cell of the account's and the IP's failure buckets
    /// and of the IP's probe bucket (all or none). Refused with the account's lock (16)
    /// first, then the IP's (14).
    pub async fn begin_sign_in(&self, account: &str, ip: &str) -> Result<Attempt, LimitError> {
        let attempt = Attempt { account: Some(Self::account_key(account)), ip: Some(Self::ip_key(ip)), probe: Self::probe_key(ip) };
        let cells = [
            Cell { key: Self::account_key(account), limit: self.cfg.login_failures_per_account, kind: Kind::Account },
            Cell { key: Self::ip_key(ip), limit: self.cfg.login_failures_per_ip, kind: Kind::Ip },
            Cell { key: Self::probe_key(ip), limit: self.cfg.unknown_accounts_per_ip, kind: Kind::Ip },
        ];
        self.take(&cells, Take::AllOrNone).await?;
        Ok(attempt)
    }

    /// Before a recovery's lookup: takes a cell of the IP's probe bucket. (The refusal does
    /// not depend on the account asked for, so it tells nothing about it.)
    pub async fn begin_lookup(&self, ip: &str) -> Result<Attempt, LimitError> {
        let probe = Self::probe_key(ip);
        self.take(&[Cell { key: probe.clone(), limit: self.cfg.unknown_accounts_per_ip, kind: Kind::Ip }], Take::AllOrNone).await?;
        Ok(Attempt { account: None, ip: None, probe })
    }

    /// Settles an attempt by its outcome; returns the delay to apply before answering (a
    /// wrong password after `slow_down_after` recent failures).
    pub async fn settle(&self, attempt: Attempt, outcome: Outcome) -> Result<Duration, sqlx::Error> {
        let sign_in: Vec<&str> = [attempt.account.as_deref(), attempt.ip.as_deref()].into_iter().flatten().collect();
        let probe = attempt.probe.as_str();
        match outcome {
            Outcome::Missing => self.give_back(&sign_in, None, None).await.map(|_| Duration::ZERO),
            Outcome::Found => self.give_back(&[probe], None, None).await.map(|_| Duration::ZERO),
            Outcome::RightPassword => {
                let all: Vec<&str> = sign_in.iter().copied().chain([probe]).collect();
                self.give_back(&all, None, attempt.account.as_deref()).await.map(|_| Duration::ZERO)
            }
            Outcome::WrongPassword => {
                let failures = self.give_back(&[probe], attempt.account.as_deref(), None).await?;
                let over = failures.saturating_sub(self.cfg.slow_down_after);
                Ok(self.cfg.slow_down_step * over.min(8))
            }
        }
    }

    /// Before sending an SMS or e-mail to `address` on behalf of `ip`: takes a cell of both
    /// buckets (the IP's refusal first); the wait when refused.
    pub async fn check_send(&self, address: &str, ip: &str) -> Result<(), LimitError> {
        let cells = [
            Cell { key: format!("si:{ip}"), limit: self.cfg.sends_per_ip, kind: Kind::Ip },
            Cell { key: format!("sa:{address}"), limit: self.cfg.sends_per_address, kind: Kind::Ip },
        ];
        self.take(&cells, Take::UpToRefusal).await
    }

    /// Drops this instance's cache of refusals that ended (called every minute).
    pub fn housekeeping(&self) {
        let now = Instant::now();
        self.refused.lock().unwrap_or_else(|p| p.into_inner()).retain(|_, until| *until > now);
    }
}

/// Counts a refusal by its bucket (`/metrics`: `carthage_rate_limited_total`).
fn count_refusal(key: &str) {
    let bucket = match key.split(':').next().unwrap_or("") {
        "la" => "sign_in_account",
        "li" => "sign_in_ip",
        "pi" => "probe_ip",
        "sa" => "send_address",
        _ => "send_ip",
    };
    kernel::metrics::inc(kernel::metrics::RATE_LIMITED, &[("bucket", bucket)]);
}

/// Deletes the buckets that are full again and whose failures are forgotten (the
/// housekeeping duty, one instance, every minute); returns how many.
pub async fn purge_expired(db: &Db) -> Result<u64, sqlx::Error> {
    let now = now_ms();
    let done = sqlx::query("DELETE FROM rate_limits WHERE tat_ms <= $1 AND failed_at_ms <= $2")
        .bind(now)
        .bind(now - FAILURE_MEMORY_MS)
        .execute(db.writer())
        .await;
    // Called from the housekeeping duty's pass: its count shows that pass runs.
    let outcome = if done.is_ok() { "ok" } else { "error" };
    kernel::metrics::inc(kernel::metrics::JOB_RUNS, &[("job", "housekeeping_rate_limits"), ("outcome", outcome)]);
    Ok(done?.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::testing::with_each_backend;

    fn locked(r: Result<Attempt, LimitError>) -> Refusal {
        match r {
            Err(LimitError::Refused(r)) => r,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn account_is_locked_after_its_burst_and_never_exceeds_100_an_hour() {
        with_each_backend(|db| async move {
            let limits = Limits::new(LimitsConfig::default(), db);
            let mut failures = 0;
            for i in 0..200 {
                match limits.begin_sign_in("acc", &format!("ip{i}")).await {
                    Ok(a) => {
                        limits.settle(a, Outcome::WrongPassword).await.unwrap();
                        failures += 1;
                    }
                    Err(LimitError::Refused(Refusal::AccountLocked(wait))) => {
                        assert!(wait > Duration::from_secs(30), "{wait:?}");
                        break;
                    }
                    Err(other) => panic!("unexpected {other:?}"),
                }
            }
            assert_eq!(failures, 10);
            assert!(matches!(locked(limits.begin_sign_in("acc", "other").await), Refusal::AccountLocked(_)));
            // The quota itself bounds an hour: burst + 3600 s / period.
            let cfg = LimitsConfig::default().login_failures_per_account;
            assert!(cfg.burst as u64 + 3600 / cfg.period.as_secs() <= 100);
            // Another account is not affected.
            let a = limits.begin_sign_in("other", "ip").await.unwrap();
            limits.settle(a, Outcome::RightPassword).await.unwrap();
        })
        .await;
    }

    #[tokio::test]
    async fn replies_slow_down_before_the_lock_and_a_success_gives_the_cells_back() {
        with_each_backend(|db| async move {
            let limits = Limits::new(LimitsConfig::default(), db);
            let mut delays = Vec::new();
            for _ in 0..5 {
                let a = limits.begin_sign_in("a", "ip").await.unwrap();
                delays.push(limits.settle(a, Outcome::WrongPassword).await.unwrap());
            }
            assert_eq!(delays[0], Duration::ZERO);
            assert!(delays[4] > delays[3]);
            let a = limits.begin_sign_in("a", "ip").await.unwrap();
            limits.settle(a, Outcome::RightPassword).await.unwrap();
            let a = limits.begin_sign_in("a", "ip").await.unwrap();
            assert_eq!(limits.settle(a, Outcome::WrongPassword).await.unwrap(), Duration::ZERO);
            // Successes cost nothing: many more than the burst.
            for _ in 0..30 {
                let a = limits.begin_sign_in("b", "ip2").await.unwrap();
                limits.settle(a, Outcome::RightPassword).await.unwrap();
            }
        })
        .await;
    }

    #[tokio::test]
    async fn unknown_account_probes_are_limited_per_ip() {
        with_each_backend(|db| async move {
            let cfg = LimitsConfig { unknown_accounts_per_ip: Limit { burst: 3, period: Duration::from_secs(3600) }, ..LimitsConfig::default() };
            let limits = Limits::new(cfg, db);
            for _ in 0..3 {
                let a = limits.begin_lookup("ip").await.unwrap();
                limits.settle(a, Outcome::Missing).await.unwrap();
            }
            let wait = locked(limits.begin_lookup("ip").await).wait();
            assert!(wait > Duration::from_secs(3000), "{wait:?}");
            assert!(matches!(locked(limits.begin_sign_in("acc", "ip").await), Refusal::IpLimited(_)), "the IP stays refused");
            // Found accounts give their cell back.
            for _ in 0..10 {
                let a = limits.begin_lookup("other").await.unwrap();
                limits.settle(a, Outcome::Found).await.unwrap();
            }
        })
        .await;
    }

    #[tokio::test]
    async fn sends_are_limited_per_address() {
        with_each_backend(|db| async move {
            let limits = Limits::new(LimitsConfig::default(), db);
            for _ in 0..5 {
                limits.check_send("216", "ip").await.unwrap();
            }
            assert!(matches!(limits.check_send("216", "ip").await, Err(LimitError::Refused(_))));
            limits.check_send("217", "ip").await.unwrap();
        })
        .await;
    }

    /// Two `Limits` on one database (two instances) share the buckets, and racing attempts
    /// never take more than the burst.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_instances_share_the_buckets_and_race_for_the_last_cell() {
        with_each_backend(|db| async move {
            let cfg = LimitsConfig {
                login_failures_per_account: Limit { burst: 5, period: Duration::from_secs(3600) },
                slow_down_step: Duration::ZERO,
                ..LimitsConfig::default()
            };
            let a = std::sync::Arc::new(Limits::new(cfg, db.clone()));
            let b = std::sync::Arc::new(Limits::new(cfg, db.clone()));
            let tasks: Vec<_> = (0..40)
                .map(|i| {
                    let l = if i % 2 == 0 { a.clone() } else { b.clone() };
                    tokio::spawn(async move {
                        match l.begin_sign_in("victim", &format!("10.0.0.{i}")).await {
                            Ok(t) => {
                                l.settle(t, Outcome::WrongPassword).await.unwrap();
                                true
                            }
                            Err(LimitError::Refused(Refusal::AccountLocked(_))) => false,
                            Err(e) => panic!("{e:?}"),
                        }
                    })
                })
                .collect();
            let mut passed = 0;
            for t in tasks {
                passed += t.await.unwrap() as u32;
            }
            assert_eq!(passed, 5, "five tries across both instances");
            assert!(matches!(locked(b.begin_sign_in("victim", "x").await), Refusal::AccountLocked(_)));
            // Housekeeping keeps live buckets (the probe cells given back are gone).
            purge_expired(&db).await.unwrap();
            let live: i64 = sqlx::query("SELECT COUNT(*) FROM rate_limits WHERE key = 'la:victim' OR key LIKE 'li:%'").fetch_one(db.reader()).await.unwrap().get(0);
            assert_eq!(live, 6);
        })
        .await;
    }

    #[tokio::test]
    async fn housekeeping_deletes_full_buckets_only() {
        with_each_backend(|db| async move {
            let cfg = LimitsConfig { sends_per_address: Limit { burst: 2, period: Duration::from_millis(1) }, ..LimitsConfig::default() };
            let limits = Limits::new(cfg, db.clone());
            limits.check_send("216", "ip").await.unwrap();
            tokio::time::sleep(Duration::from_millis(5)).await;
            // The address's bucket is full again; the IP's (one a minute) is not.
            assert_eq!(purge_expired(&db).await.unwrap(), 1);
            let left: i64 = sqlx::query("SELECT COUNT(*) FROM rate_limits").fetch_one(db.reader()).await.unwrap().get(0);
            assert_eq!(left, 1);
        })
        .await;
    }
}
