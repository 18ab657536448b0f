//! Final outcomes: the conditional transition and its posting, exactly once (see the
//! crate docs, "Why a retry or a race can never pay twice").

use crate::model::{Intent, IntentKind, IntentStatus};
use crate::{Outcome, Payments, CRYPTO};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{AppError, ErrorCode};
use futures::FutureExt;
use store::sqlx;
use store::sqlx::AnyConnection;
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

impl Payments {

    /// Moves an intent to a final state and posts what that state owes, exactly once.
    /// Answers the status the intent ends in (`Err(90)`: the outcome contradicts a final
    /// state — e.g. a success for a withdrawal already released; nothing changes).
    pub async fn finish(&self, intent: &Intent, outcome: Outcome, source: &str, detail: &str) -> Result<IntentStatus, AppError> {
        self.finish_recording(intent, outcome, source, detail, None).await.map(|(s, _)| s)
    }

    /// [`Self::finish`], recording the callback `(provider, event id)` that caused it in
    /// the transition's transaction; answers whether it was recorded now (false: a replay,
    /// or not the winning transition).
    pub(crate) async fn finish_recording(
        &self,
        intent: &Intent,
        outcome: Outcome,
        source: &str,
        detail: &str,
        record: Option<(&str, &str)>,
    ) -> Result<(IntentStatus, bool), AppError> {
        self.finish_with(intent, outcome, source, detail, record, None, None).await
    }

    /// [`Self::finish`] of an intent in `from` only, by a staff member (`actor`, as the audit
    /// trail names them): the transition and its audit record (`action`, `details`) are one
    /// transaction. (A rejection is taken from `review` only: never from a `created` intent
    /// that an approval has just handed to the provider.)
    pub(crate) async fn finish_audited(
        &self,
        intent: &Intent,
        outcome: Outcome,
        from: &[IntentStatus],
        detail: &str,
        audit: (&str, &str, serde_json::Value),
    ) -> Result<IntentStatus, AppError> {
        let (actor, action, details) = audit;
        let audit = Some((actor.to_string(), action.to_string(), details.to_string()));
        self.finish_with(intent, outcome, "staff", detail, None, audit, Some(from)).await.map(|(s, _)| s)
    }

    async fn finish_with(
        &self,
        intent: &Intent,
        outcome: Outcome,
        source: &str,
        detail: &str,
        record: Option<(&str, &str)>,
        audit: Option<(String, String, String)>,
        only_from: Option<&[IntentStatus]>,
    ) -> Result<(IntentStatus, bool), AppError> {
        let to = outcome.status();
        let from: &[IntentStatus] = if let Some(only) = only_from { only } else { match (intent.kind, outcome) {
            // Money that really arrived is credited, even after expiry or a failure.
            (IntentKind::Deposit, Outcome::Succeeded) => {
                &[IntentStatus::Created, IntentStatus::Pending, IntentStatus::Expired, IntentStatus::Failed, IntentStatus::Cancelled]
            }
            // A withdrawal waiting for staff is rejected (failed) or withdrawn by the player
            // (cancelled); it never succeeds from there (the provider never had it).
            (IntentKind::Withdrawal, Outcome::Failed | Outcome::Cancelled) => &[IntentStatus::Created, IntentStatus::Review, IntentStatus::Pending],
            _ => &[IntentStatus::Created, IntentStatus::Pending],
        } };
        // A deposit's credit is posted *before* its transition: a success may follow any
        // state but `succeeded` (nothing else posts for a deposit), so no exclusion is needed,
        // and the status never says `succeeded` before the balance does (the payment frame
        // refreshes the balance on it). A crash after the posting leaves the intent
        // unfinished: the provider's retry or the reconciliation finishes it, the posting
        // replaying under its key.
        let late = intent.kind == IntentKind::Deposit && outcome == Outcome::Succeeded;
        if late && !(intent.status == IntentStatus::Succeeded && intent.settled_at.is_some()) {
            self.ledger.post(self.credit_posting(intent)).await?;
        }
        // A final state with nothing (more) to post is settled at once.
        let nothing_to_post = intent.kind == IntentKind::Deposit;
        // The transition is conditional on the status last seen (`WHERE status = $seen`), so
        // the event records exactly where it came from; a concurrent change re-reads (inside
        // the same transaction) and tries again (a few times at most: every state has at
        // most two successors). It runs in the write batch: on SQLite many callbacks'
        // transitions share one commit (one fsync), each under its own savepoint.
        let work = Transition {
            intent: intent.clone(),
            from: from.to_vec(),
            to,
            succeeded: outcome == Outcome::Succeeded,
            late,
            nothing_to_post,
            source: source.to_string(),
            detail: detail.to_string(),
            record: record.map(|(p, e)| (p.to_string(), e.to_string())),
            audit,
        };
        let (seen, won) = self
            .shared
            .batch
            .run(move |conn| work.apply(conn).boxed())
            .await
            .map_err(AppError::internal)??;
        if let Some((_, _, true)) = &won {
            tracing::warn!(intent = intent.id, "payments: a deposit succeeded after it was final; credited and flagged for review");
        }
        let won = won.map(|(i, recorded, _)| (i, recorded));
        let (current, recorded) = match won {
            Some(w) => w,
            None => {
                if seen.status != to {
                    tracing::warn!(intent = intent.id, status = seen.status.as_str(), wanted = to.as_str(), "payments: outcome refused by the intent's state");
                    if outcome == Outcome::Succeeded && intent.kind == IntentKind::Withdrawal {
                        self.flag_review(intent.id).await?;
                    }
                    return Err(ErrorCode::PaymentStateConflict.into());
                }
                (seen, false)
            }
        };
        // The winner posts; a loser whose state already matches makes sure the posting exists
        // (idempotent by key: a replay, never a second movement).
        self.settle(&current).await?;
        Ok((current.status, recorded))
    }

    pub(crate) async fn flag_review(&self, id: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE payment_intents SET needs_review = 1 WHERE id = $1")
            .bind(id)
            .execute(self.db().writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }

    /// Posts what a final intent owes (if anything, once: keyed) and sets `settled_at`.
    pub(crate) async fn settle(&self, intent: &Intent) -> Result<(), AppError> {
        if !intent.status.is_final() || intent.settled_at.is_some() {
            return Ok(());
        }
        let player = AccountRef::Player { user_id: intent.user_id, kind: BalanceKind::Real };
        let pending = AccountRef::House(HouseAccount::WithdrawalsPending);
        let payments = AccountRef::House(HouseAccount::Payments);
        let meta = serde_json::json!({ "intent": intent.id, "provider": intent.provider, "reference": intent.provider_ref });
        let posting = match (intent.kind, intent.status) {
            (IntentKind::Deposit, IntentStatus::Succeeded) => Some(self.credit_posting(intent)),
            (IntentKind::Deposit, _) => None,
            (IntentKind::Withdrawal, status) => {
                // The hold may be posted without `held` set (a crash in between).
                let held = intent.held || self.ledger.lookup(&intent.key("hold")).await?.is_some_and(|t| !t.tombstone);
                match (held, status) {
                    (false, _) => None,
                    (true, IntentStatus::Succeeded) => Some(
                        PostingRequest::transfer(TxType::WithdrawalSettled, intent.key("settle"), Some(intent.user_id), intent.currency, pending, payments, intent.amount)
                            .comment(format!("Withdrawal paid out via {}", intent.provider)),
                    ),
                    (true, _) => Some(
                        PostingRequest::transfer(TxType::WithdrawalReleased, intent.key("release"), Some(intent.user_id), intent.currency, pending, player, intent.amount)
                            .comment(format!("Withdrawal {}: funds returned", status.as_str())),
                    ),
                }
            }
        };
        if let Some(p) = posting {
            self.ledger.post(p.metadata(meta)).await?;
        }
        sqlx::query("UPDATE payment_intents SET settled_at = $1 WHERE id = $2 AND settled_at IS NULL")
            .bind(now_ms())
            .bind(intent.id)
            .execute(self.db().writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }

    /// A succeeded deposit's credit (type 16; crypto 11), keyed `pay:{id}:credit`.
    pub(crate) fn credit_posting(&self, intent: &Intent) -> PostingRequest {
        let tx_type = if intent.provider == CRYPTO { TxType::Deposit } else { TxType::PaymentService };
        PostingRequest::transfer(
            tx_type,
            intent.key("credit"),
            Some(intent.user_id),
            intent.credit_currency,
            AccountRef::House(HouseAccount::Payments),
            AccountRef::Player { user_id: intent.user_id, kind: BalanceKind::Real },
            intent.credit_amount,
        )
        .comment(format!("Deposit via {}", intent.provider))
        .metadata(serde_json::json!({ "intent": intent.id, "provider": intent.provider, "reference": intent.provider_ref }))
    }

    /// The player cancels an intent still `created` or `pending` (a withdrawal's hold returns).
    pub async fn cancel(&self, user_id: i64, id: i64) -> Result<Intent, AppError> {
        let intent = self.player_intent(user_id, id).await?;
        self.finish(&intent, Outcome::Cancelled, "player", "cancelled by the player").await?;
        self.player_intent(user_id, id).await
    }

}

/// One conditional transition of an intent, run inside a write transaction.
struct Transition {
    intent: Intent,
    from: Vec<IntentStatus>,
    to: IntentStatus,
    succeeded: bool,
    late: bool,
    nothing_to_post: bool,
    source: String,
    detail: String,
    record: Option<(String, String)>,
    /// A staff decision's audit record `(actor, action, details)`, written with the transition.
    audit: Option<(String, String, String)>,
}

impl Transition {
    /// Answers the intent as last seen and, when this transition won, the intent after it,
    /// whether the callback was recorded now and whether it was flagged for review.
    async fn apply(self, conn: &mut AnyConnection) -> Result<(Intent, Option<(Intent, bool, bool)>), AppError> {
        let Transition { intent, from, to, succeeded, late, nothing_to_post, source, detail, record, audit } = self;
        let mut seen = intent.clone();
        for _ in 0..4 {
            if !from.contains(&seen.status) {
                break;
            }
            let now = now_ms();
            let review = late && seen.status.is_final();
            let changed = sqlx::query(
                "UPDATE payment_intents SET status = $1, updated_at = $2, failure_reason = $3, settled_at = $4, \
                 needs_review = CASE WHEN $5 = 1 THEN 1 ELSE needs_review END WHERE id = $6 AND status = $7",
            )
            .bind(to.as_str())
            .bind(now)
            .bind((!succeeded).then_some(detail.as_str()))
            .bind(nothing_to_post.then_some(now))
            .bind(review as i64)
            .bind(intent.id)
            .bind(seen.status.as_str())
            .execute(&mut *conn)
            .await
            .map_err(AppError::internal)?
            .rows_affected()
                == 1;
            if !changed {
                let row = sqlx::query(&format!("SELECT {} FROM payment_intents WHERE id = $1", crate::model::INTENT_COLUMNS))
                    .bind(intent.id)
                    .fetch_optional(&mut *conn)
                    .await
                    .map_err(AppError::internal)?;
                seen = row.as_ref().and_then(Intent::from_row).ok_or(ErrorCode::PaymentNotFound)?;
                continue;
            }
            let detail = if review { format!("{detail} (after {}: logged for reconciliation)", seen.status.as_str()) } else { detail };
            event(conn, intent.id, Some(seen.status), to, &source, &detail, now).await?;
            let recorded = match &record {
                Some((provider, event_id)) => record_callback(conn, provider, event_id, intent.id, to, now).await?,
                None => false,
            };
            if let Some((actor, action, details)) = &audit {
                let record = store::audit::Record { actor, action, subject: &format!("payment:{}", intent.id), details };
                store::audit::append(&mut *conn, &record, now).await.map_err(AppError::internal)?;
            }
            let won = Intent {
                status: to,
                updated_at: now,
                settled_at: nothing_to_post.then_some(now),
                failure_reason: (!succeeded).then(|| detail.clone()),
                ..seen.clone()
            };
            return Ok((seen, Some((won, recorded, review))));
        }
        Ok((seen, None))
    }
}

pub(crate) async fn event(
    conn: &mut AnyConnection,
    intent_id: i64,
    from: Option<IntentStatus>,
    to: IntentStatus,
    source: &str,
    detail: &str,
    now: i64,
) -> Result<(), AppError> {
    sqlx::query("INSERT INTO payment_intent_events (id, intent_id, from_status, to_status, source, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(next_id())
        .bind(intent_id)
        .bind(from.map(|f| f.as_str()))
        .bind(to.as_str())
        .bind(source)
        .bind(detail.chars().take(500).collect::<String>())
        .bind(now)
        .execute(&mut *conn)
        .await
        .map_err(AppError::internal)?;
    Ok(())
}

/// Records a callback `(provider, event id)` in `tx`; false when it was recorded before.
pub(crate) async fn record_callback(
    conn: &mut AnyConnection,
    provider: &str,
    event_id: &str,
    intent_id: i64,
    status: IntentStatus,
    now: i64,
) -> Result<bool, AppError> {
    let n = sqlx::query(
        "INSERT INTO payment_callbacks (provider, event_id, intent_id, outcome, received_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (provider, event_id) DO NOTHING",
    )
    .bind(provider)
    .bind(event_id)
    .bind(intent_id)
    .bind(status.as_str())
    .bind(now)
    .execute(&mut *conn)
    .await
    .map_err(AppError::internal)?
    .rows_affected();
    Ok(n == 1)
}
