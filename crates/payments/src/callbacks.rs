//! Provider callbacks: verified on the raw body, matched to their intent, checked
//! (amount, currency, kind), applied idempotently, recorded.

use crate::provider::{CallbackEvent, Headers, ProviderStatus};
use crate::{CallbackOutcome, Outcome, Payments};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use store::sqlx;

impl Payments {

    /// A provider's callback: verified on the raw body (64/65), matched to its intent (85),
    /// amount and currency checked (86/87), then applied idempotently.
    pub async fn handle_callback(&self, provider: &str, headers: &Headers, body: &[u8]) -> Result<CallbackOutcome, AppError> {
        let p = self.providers.get(provider).ok_or(ErrorCode::ProviderUnknown)?.clone();
        let ev = p.verify_callback(headers, body, now_ms() / 1000)?;
        self.apply_event(provider, ev).await
    }

    pub(crate) async fn apply_event(&self, provider: &str, ev: CallbackEvent) -> Result<CallbackOutcome, AppError> {
        let by_ref = match &ev.reference {
            Some(r) => self.intent_by_ref(provider, r).await?,
            None => None,
        };
        let intent = match (by_ref, ev.intent_id) {
            (Some(i), _) => i,
            (None, Some(id)) => match self.intent(id).await? {
                // A reference the intent does not have yet is recorded; another one is not it.
                Some(i) if i.provider == provider && (i.provider_ref.is_none() || i.provider_ref == ev.reference || ev.reference.is_none()) => i,
                _ => return Err(ErrorCode::PaymentNotFound.into()),
            },
            (None, None) => return Err(ErrorCode::PaymentNotFound.into()),
        };
        if ev.kind.is_some_and(|k| k != intent.kind) {
            return Err(ErrorCode::PaymentNotFound.into());
        }
        if ev.currency != intent.currency.code() {
            return Err(ErrorCode::PaymentCurrencyMismatch.into());
        }
        if ev.amount != intent.amount {
            return Err(ErrorCode::PaymentAmountMismatch.into());
        }
        if intent.provider_ref.is_none() {
            if let Some(r) = &ev.reference {
                self.record_ref(intent.id, r).await?;
            }
        }
        let record = Some((provider, ev.event_id.as_str()));
        let (status, mut recorded) = match &ev.outcome {
            ProviderStatus::Succeeded => self.finish_recording(&intent, Outcome::Succeeded, "callback", &ev.event_id, record).await?,
            ProviderStatus::Failed(reason) => self.finish_recording(&intent, Outcome::Failed, "callback", reason, record).await?,
            ProviderStatus::Pending | ProviderStatus::Unknown => {
                self.to_pending(&intent, ev.reference.as_deref(), None).await?;
                (self.intent(intent.id).await?.map(|i| i.status).unwrap_or(intent.status), false)
            }
        };
        // Not recorded with a transition (a replay, or a loser of a race): recorded now, after
        // it was applied — a crash before this makes the retry apply again (idempotent),
        // never skip. Already there: a duplicate.
        if !recorded {
            let mut tx = self.db().writer().begin().await.map_err(AppError::internal)?;
            recorded = crate::outcomes::record_callback(&mut tx, provider, &ev.event_id, intent.id, status, now_ms()).await?;
            tx.commit().await.map_err(AppError::internal)?;
        }
        let duplicate = !recorded;
        Ok(CallbackOutcome::Applied { intent_id: intent.id, status, duplicate })
    }

    pub(crate) async fn record_ref(&self, id: i64, reference: &str) -> Result<(), AppError> {
        let r = sqlx::query("UPDATE payment_intents SET provider_ref = $1 WHERE id = $2 AND provider_ref IS NULL")
            .bind(reference)
            .bind(id)
            .execute(self.db().writer())
            .await;
        match r {
            Ok(_) => Ok(()),
            // Another intent of this provider has that reference: not this one.
            Err(e) if store::is_unique_violation(&e) => Err(ErrorCode::PaymentNotFound.into()),
            Err(e) => Err(AppError::internal(e)),
        }
    }

}
