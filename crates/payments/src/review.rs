//! Staff review of large withdrawals (issue 22; docs/BACKOFFICE.md "Money queues").
//!
//! A withdrawal above `withdrawal_review_above` is written as `review` and held at once
//! (`create.rs`): the money has left the player's balance, the provider has heard nothing.
//! - **Approve**: `review → created` conditioned on `review`, its event and the audit record
//!   (`payment.withdrawal.approve`) in one transaction; then the provider is asked, as for
//!   any withdrawal (unreachable: the reconciliation offers it again). Two approvals: one
//!   wins, the other gets 141. A withdrawal whose hold was never posted (a crash between the
//!   row and its hold) fails instead: there is nothing to pay from.
//! - **Reject** with a reason: `review → failed` only from `review` (never from a `created`
//!   intent an approval has just handed to the provider), with the audit record
//!   (`payment.withdrawal.reject`) in the transition's transaction; the failure posting
//!   returns the hold. The player may also cancel it while it waits.
//! - The jobs leave `review` alone (reconciliation and expiry look at `created`/`pending`,
//!   repair at final states).

use crate::model::{Intent, IntentKind, IntentStatus, INTENT_COLUMNS};
use crate::outcomes::event;
use crate::{Outcome, Payments};
use kernel::clock::{now_ms, DAY_MS};
use kernel::{AppError, ErrorCode, Minor};
use store::sqlx::{self, Row};

/// What the player's payments say about a withdrawal (the queue's risk signals).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaymentSignals {
    /// Succeeded deposits through providers, in the withdrawal's currency.
    pub deposited: Minor,
    /// Succeeded withdrawals through providers.
    pub withdrawn: Minor,
    /// Withdrawals asked in the last 24 hours (this one included), whatever became of them.
    pub withdrawals_24h: i64,
}

impl Payments {
    /// Withdrawals in `status`, oldest first (the queue), at most `limit`.
    pub async fn withdrawals(&self, status: IntentStatus, limit: i64) -> Result<Vec<Intent>, AppError> {
        let rows = sqlx::query(&format!(
            "SELECT {INTENT_COLUMNS} FROM payment_intents WHERE kind = 'withdrawal' AND status = $1 ORDER BY created_at, id LIMIT $2"
        ))
        .bind(status.as_str())
        .bind(limit)
        .fetch_all(self.db().reader())
        .await
        .map_err(AppError::internal)?;
        Ok(rows.iter().filter_map(Intent::from_row).collect())
    }

    /// The risk signals of `intent`'s player from their payments. (PostgreSQL sums BIGINTs
    /// as NUMERIC: cast back.)
    pub async fn payment_signals(&self, intent: &Intent) -> Result<PaymentSignals, AppError> {
        let row = sqlx::query(
            "SELECT \
               CAST(COALESCE(SUM(CASE WHEN kind = 'deposit' AND status = 'succeeded' AND credit_currency = $2 THEN credit_amount ELSE 0 END), 0) AS BIGINT), \
               CAST(COALESCE(SUM(CASE WHEN kind = 'withdrawal' AND status = 'succeeded' AND currency = $2 THEN amount ELSE 0 END), 0) AS BIGINT), \
               CAST(COALESCE(SUM(CASE WHEN kind = 'withdrawal' AND created_at >= $3 THEN 1 ELSE 0 END), 0) AS BIGINT) \
             FROM payment_intents WHERE user_id = $1",
        )
        .bind(intent.user_id)
        .bind(intent.currency.code())
        .bind(now_ms() - DAY_MS)
        .fetch_one(self.db().reader())
        .await
        .map_err(AppError::internal)?;
        Ok(PaymentSignals { deposited: row.get(0), withdrawn: row.get(1), withdrawals_24h: row.get(2) })
    }

    async fn reviewed_withdrawal(&self, id: i64) -> Result<Intent, AppError> {
        let intent = self.intent(id).await?.filter(|i| i.kind == IntentKind::Withdrawal).ok_or(ErrorCode::PaymentNotFound)?;
        if intent.status != IntentStatus::Review {
            return Err(ErrorCode::RequestDecided.into());
        }
        Ok(intent)
    }

    /// Approves a withdrawal waiting for staff (`actor`: `finance:12`); answers it as the
    /// provider left it (`pending`, or `created` when the provider is unreachable). 85 no
    /// such withdrawal; 141 not waiting for approval (decided, cancelled).
    pub async fn approve_withdrawal(&self, id: i64, actor: &str) -> Result<Intent, AppError> {
        let intent = self.reviewed_withdrawal(id).await?;
        let provider = self.provider(&intent.provider)?.clone();
        let now = now_ms();
        let mut tx = self.db().writer().begin().await.map_err(AppError::internal)?;
        let moved = sqlx::query("UPDATE payment_intents SET status = 'created', updated_at = $1 WHERE id = $2 AND status = 'review'")
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(AppError::internal)?
            .rows_affected();
        if moved != 1 {
            return Err(ErrorCode::RequestDecided.into());
        }
        event(&mut tx, id, Some(IntentStatus::Review), IntentStatus::Created, "staff", &format!("approved by {actor}"), now).await?;
        let details = serde_json::json!({
            "user": intent.user_id, "amount": kernel::money::format_major(intent.amount, intent.currency), "currency": intent.currency.code(), "provider": intent.provider,
        })
        .to_string();
        let record = store::audit::Record { actor, action: "payment.withdrawal.approve", subject: &format!("payment:{id}"), details: &details };
        store::audit::append(&mut tx, &record, now).await.map_err(AppError::internal)?;
        tx.commit().await.map_err(AppError::internal)?;
        let intent = Intent { status: IntentStatus::Created, updated_at: now, ..intent };
        let held = intent.held || self.ledger.lookup(&intent.key("hold")).await?.is_some_and(|t| !t.tombstone);
        if !held {
            // A crash between the row and its hold: nothing was taken, nothing is paid.
            let _ = self.finish(&intent, Outcome::Failed, "repair", "no hold was posted").await;
            return self.intent(id).await?.ok_or_else(|| ErrorCode::PaymentNotFound.into());
        }
        let intent = Intent { held: true, ..intent };
        self.after_create(&*provider, intent, false).await
    }

    /// Rejects a withdrawal waiting for staff with `reason` (shown to the player as the
    /// failure's reason); the hold returns to the player's balance. 85, 141 as
    /// [`Self::approve_withdrawal`].
    pub async fn reject_withdrawal(&self, id: i64, actor: &str, reason: &str) -> Result<Intent, AppError> {
        let intent = self.reviewed_withdrawal(id).await?;
        let details = serde_json::json!({
            "user": intent.user_id, "amount": kernel::money::format_major(intent.amount, intent.currency), "currency": intent.currency.code(), "reason": reason,
        });
        match self.finish_audited(&intent, Outcome::Failed, &[IntentStatus::Review], reason, (actor, "payment.withdrawal.reject", details)).await {
            Ok(_) => {}
            Err(e) if e.code == ErrorCode::PaymentStateConflict => return Err(ErrorCode::RequestDecided.into()),
            Err(e) => return Err(e),
        }
        self.intent(id).await?.ok_or_else(|| ErrorCode::PaymentNotFound.into())
    }
}
