//! The payment jobs, run by one owner at a time (ARCHITECTURE §7): `serve` runs
//! [`Payments::run_jobs`] as the duty `payment_jobs` (crates/store/src/lease.rs: a PostgreSQL
//! advisory lock on a connection the holder keeps; another instance takes over when it
//! dies); SQLite serves one instance. Every pass is idempotent (conditional transitions,
//! postings keyed by the intent), so a takeover or a repeated pass changes nothing twice.
//!
//! * **expiry** — a deposit still `created`/`pending` past `expires_at` (30 min): the
//!   provider is asked first (a payment completed but not yet reported is credited, not
//!   expired); otherwise `expired`.
//! * **reconciliation** — intents `created`/`pending` untouched for `reconcile_stale_ms`:
//!   the provider's status settles them (succeeded / failed) exactly once; a withdrawal the
//!   provider never accepted is offered to it again.
//! * **repair** — a final intent whose posting a crash interrupted (`settled_at IS NULL`),
//!   and a `created` withdrawal whose hold is unknown: finished under the same keys.
//! * **sandbox callbacks** — the embedded provider's outgoing callbacks (every instance may
//!   send: each row is claimed by one sender).

use crate::model::{Intent, IntentKind, IntentStatus, INTENT_COLUMNS};
use crate::provider::ProviderStatus;
use crate::{Outcome, Payments};
use kernel::clock::now_ms;
use kernel::AppError;
use store::sqlx;

/// What one reconciliation pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct JobReport {
    pub succeeded: u64,
    pub failed: u64,
    pub expired: u64,
    pub repaired: u64,
    pub resubmitted: u64,
}

impl Payments {
    async fn intents_where(&self, cond: &str, bind: i64) -> Result<Vec<Intent>, AppError> {
        let rows = sqlx::query(&format!("SELECT {INTENT_COLUMNS} FROM payment_intents WHERE {cond} ORDER BY updated_at LIMIT 200"))
            .bind(bind)
            .fetch_all(self.shared().db.reader())
            .await
            .map_err(AppError::internal)?;
        Ok(rows.iter().filter_map(Intent::from_row).collect())
    }

    /// Expires overdue deposits (asking the provider first).
    pub async fn expire_once(&self) -> Result<JobReport, AppError> {
        let mut report = JobReport::default();
        let now = now_ms();
        for intent in self.intents_where("kind = 'deposit' AND status IN ('created', 'pending') AND expires_at < $1", now).await? {
            let status = match self.provider(&intent.provider) {
                Ok(p) => p.query_status(&intent).await.unwrap_or(ProviderStatus::Unknown),
                Err(_) => ProviderStatus::Unknown,
            };
            let outcome = match status {
                ProviderStatus::Succeeded => Outcome::Succeeded,
                ProviderStatus::Failed(_) => Outcome::Failed,
                _ => Outcome::Expired,
            };
            if self.finish(&intent, outcome, "expiry", "not completed in time").await.is_ok() {
                match outcome {
                    Outcome::Succeeded => report.succeeded += 1,
                    Outcome::Failed => report.failed += 1,
                    _ => report.expired += 1,
                }
            }
        }
        Ok(report)
    }

    /// Settles stuck intents from the provider's status, exactly once.
    pub async fn reconcile_once(&self, stale_ms: i64) -> Result<JobReport, AppError> {
        let mut report = JobReport::default();
        let before = now_ms() - stale_ms;
        for intent in self.intents_where("status IN ('created', 'pending') AND updated_at <= $1", before).await? {
            let Ok(p) = self.provider(&intent.provider).cloned() else { continue };
            if intent.status == IntentStatus::Created && intent.kind == IntentKind::Withdrawal {
                if !intent.held {
                    continue; // the repair pass decides first
                }
                // The provider never accepted it: offer it again (same id).
                match p.create_withdrawal(&intent).await {
                    Ok(c) => match c.status {
                        ProviderStatus::Failed(reason) => {
                            if self.finish(&intent, Outcome::Failed, "reconcile", &reason).await.is_ok() {
                                report.failed += 1;
                            }
                        }
                        _ => {
                            self.to_pending_pub(&intent, c.reference.as_deref()).await?;
                            report.resubmitted += 1;
                        }
                    },
                    Err(e) => tracing::warn!(intent = intent.id, error = %e.text(), "payments: provider still unavailable"),
                }
                continue;
            }
            match p.query_status(&intent).await {
                Ok(ProviderStatus::Succeeded) => {
                    if self.finish(&intent, Outcome::Succeeded, "reconcile", "provider status").await.is_ok() {
                        report.succeeded += 1;
                    }
                }
                Ok(ProviderStatus::Failed(reason)) => {
                    if self.finish(&intent, Outcome::Failed, "reconcile", &reason).await.is_ok() {
                        report.failed += 1;
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(intent = intent.id, error = %e.text(), "payments: status query failed"),
            }
        }
        Ok(report)
    }

    /// Finishes postings a crash interrupted.
    pub async fn repair_once(&self, older_than_ms: i64) -> Result<JobReport, AppError> {
        let mut report = JobReport::default();
        let before = now_ms() - older_than_ms;
        for intent in self.intents_where("status NOT IN ('created', 'review', 'pending') AND settled_at IS NULL AND updated_at <= $1", before).await? {
            self.settle(&intent).await?;
            report.repaired += 1;
        }
        for intent in self.intents_where("kind = 'withdrawal' AND status = 'created' AND held = 0 AND updated_at <= $1", before).await? {
            let held = self.ledger.lookup(&intent.key("hold")).await?.is_some_and(|t| !t.tombstone);
            if held {
                sqlx::query("UPDATE payment_intents SET held = 1 WHERE id = $1")
                    .bind(intent.id)
                    .execute(self.shared().db.writer())
                    .await
                    .map_err(AppError::internal)?;
            } else {
                let _ = self.finish(&intent, Outcome::Failed, "repair", "no hold was posted").await;
            }
            report.repaired += 1;
        }
        Ok(report)
    }

    /// One pass of every job (the caller holds the `payment_jobs` duty).
    pub async fn jobs_once(&self) -> JobReport {
        let mut total = JobReport::default();
        let stale = self.config().reconcile_stale_ms;
        let passes = [
            ("payments_repair", self.repair_once(stale / 2).await),
            ("payments_reconcile", self.reconcile_once(stale).await),
            ("payments_expire", self.expire_once().await),
        ];
        for (job, pass) in passes {
            let outcome = if pass.is_ok() { "ok" } else { "error" };
            kernel::metrics::inc(kernel::metrics::JOB_RUNS, &[("job", job), ("outcome", outcome)]);
            match pass {
                Ok(r) => {
                    total.succeeded += r.succeeded;
                    total.failed += r.failed;
                    total.expired += r.expired;
                    total.repaired += r.repaired;
                    total.resubmitted += r.resubmitted;
                }
                Err(e) => tracing::error!(error = %e.text(), "payments: job pass failed"),
            }
        }
        if total != JobReport::default() {
            tracing::info!(?total, "payments: jobs settled intents");
        }
        total
    }

    /// The jobs' worker (`serve` runs it as the duty `payment_jobs`): a pass every
    /// `jobs_every` until `cancel` resolves (a pass in progress finishes first).
    pub async fn run_jobs(self, cancel: store::lease::Cancel) {
        let mut tick = tokio::time::interval(self.config().jobs_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = cancel.cancelled() => return,
                _ = tick.tick() => {}
            }
            self.jobs_once().await;
        }
    }

    /// The sandbox's outgoing callbacks (every instance runs it: each row is claimed by one
    /// sender), as soon as they are queued and on their back-off.
    pub async fn run_callbacks(self) {
        loop {
            let pass = crate::sandbox::deliver_once(self.shared()).await;
            let outcome = if pass.is_ok() { "ok" } else { "error" };
            kernel::metrics::inc(kernel::metrics::JOB_RUNS, &[("job", "payment_callbacks"), ("outcome", outcome)]);
            if let Err(e) = pass {
                tracing::error!(error = %e.text(), "sandbox: callback delivery failed");
            }
            let wait = std::time::Duration::from_millis(500);
            let _ = tokio::time::timeout(wait, self.shared().wake.notified()).await;
        }
    }
}

impl Payments {
    pub(crate) async fn to_pending_pub(&self, intent: &Intent, reference: Option<&str>) -> Result<bool, AppError> {
        self.to_pending(intent, reference, None).await
    }
}

