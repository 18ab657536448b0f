//! The embedded sandbox provider (the default; `make run` needs no other server).
//!
//! It is a provider like any other: it keeps its own records (`sandbox_payments`), serves
//! hosted pages (server-rendered, see [`crate::pages`]: a card form with test cards, a
//! 3-D-Secure-style confirmation step, an e-wallet payout page, a crypto transfer page) and
//! tells the platform the outcome only by **signed HTTP callbacks** to
//! `/api/payment/callback/{sandbox|crypto}` (`Carthage-Signature: t=…,v1=…`), persisted in
//! `sandbox_callbacks` and retried with back-off until answered 200 (a restart resumes them).
//!
//! Test cards: `4242 4242 4242 4242` succeeds, `4000 0000 0000 0002` is declined,
//! `4000 0000 0000 3220` needs the confirmation step; any other number is refused by the
//! form (nothing happens).

use crate::model::{Intent, IntentKind};
use crate::provider::{CallbackEvent, Created, Headers, Provider, ProviderStatus};
use crate::{signature, Shared};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{AppError, ErrorCode};
use serde::Deserialize;
use std::sync::Arc;
use store::sqlx::{self, Row};

pub const CARD_OK: &str = "4242424242424242";
pub const CARD_DECLINED: &str = "4000000000000002";
pub const CARD_3DS: &str = "4000000000003220";

/// The hosted page of a sandbox payment (relative: same origin as the app, framable by it).
pub fn page_path(reference: &str, lang: &str) -> String {
    format!("/pay/sandbox/{reference}?lang={}", crate::pages::lang_code(lang))
}

pub struct Sandbox {
    shared: Arc<Shared>,
    name: &'static str,
}

impl Sandbox {
    pub fn new(shared: Arc<Shared>, name: &'static str) -> Sandbox {
        Sandbox { shared, name }
    }

    async fn open(&self, intent: &Intent) -> Result<Created, AppError> {
        let prefix = if self.name == crate::CRYPTO { "cry" } else { "sbx" };
        let reference = format!("{prefix}_{}", hex::encode(rand::random::<[u8; 16]>()));
        let now = now_ms();
        sqlx::query(
            "INSERT INTO sandbox_payments (reference, dialect, intent_id, kind, amount, currency, phone, status, callback_url, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $9)",
        )
        .bind(&reference)
        .bind(self.name)
        .bind(intent.id)
        .bind(intent.kind.as_str())
        .bind(intent.amount)
        .bind(intent.currency.code())
        .bind(intent.phone.as_deref())
        .bind(self.shared.callback_url(self.name))
        .bind(now)
        .execute(self.shared.db.writer())
        .await
        .map_err(AppError::internal)?;
        let lang = intent.details.get("lang").and_then(|l| l.as_str()).unwrap_or("en");
        Ok(Created { url: Some(page_path(&reference, lang)), reference: Some(reference), status: ProviderStatus::Pending })
    }
}

#[derive(Deserialize)]
struct SandboxEvent {
    id: String,
    data: SandboxEventData,
}

#[derive(Deserialize)]
struct SandboxEventData {
    reference: String,
    intent_id: String,
    kind: String,
    status: String,
    amount: i64,
    currency: String,
    #[serde(default)]
    reason: Option<String>,
}

#[async_trait::async_trait]
impl Provider for Sandbox {
    fn name(&self) -> &'static str {
        self.name
    }
    fn framable(&self) -> bool {
        self.shared.cfg.sandbox_framable
    }
    async fn create_deposit(&self, intent: &Intent) -> Result<Created, AppError> {
        self.open(intent).await
    }
    async fn create_withdrawal(&self, intent: &Intent) -> Result<Created, AppError> {
        self.open(intent).await
    }
    fn verify_callback(&self, headers: &Headers, body: &[u8], now_s: i64) -> Result<CallbackEvent, AppError> {
        signature::verify_header(&self.shared.cfg.sandbox_secret, headers.get(signature::HEADER).map(String::as_str), body, now_s)?;
        let ev: SandboxEvent = serde_json::from_slice(body).map_err(|e| AppError::with_detail(ErrorCode::BadRequest, format!("invalid callback: {e}")))?;
        let outcome = match ev.data.status.as_str() {
            "succeeded" => ProviderStatus::Succeeded,
            "failed" => ProviderStatus::Failed(ev.data.reason.unwrap_or_else(|| "failed".into())),
            "pending" => ProviderStatus::Pending,
            _ => return Err(AppError::with_detail(ErrorCode::BadRequest, "unknown status")),
        };
        Ok(CallbackEvent {
            event_id: ev.id,
            reference: Some(ev.data.reference),
            intent_id: ev.data.intent_id.parse().ok(),
            kind: IntentKind::parse(&ev.data.kind),
            outcome,
            amount: ev.data.amount,
            currency: ev.data.currency,
        })
    }
    async fn query_status(&self, intent: &Intent) -> Result<ProviderStatus, AppError> {
        let Some(reference) = &intent.provider_ref else {
            return Ok(ProviderStatus::Unknown);
        };
        let row = sqlx::query("SELECT status FROM sandbox_payments WHERE reference = $1")
            .bind(reference)
            .fetch_optional(self.shared.db.reader())
            .await
            .map_err(AppError::internal)?;
        Ok(match row.map(|r| r.get::<String, _>(0)).as_deref() {
            Some("succeeded") => ProviderStatus::Succeeded,
            Some("failed") => ProviderStatus::Failed("declined".into()),
            Some(_) => ProviderStatus::Pending,
            None => ProviderStatus::Unknown,
        })
    }
}

// ---------------------------------------------------------------------- the provider's side

/// A sandbox payment as its pages show it.
#[derive(Debug, Clone)]
pub struct SandboxPayment {
    pub reference: String,
    pub dialect: String,
    pub intent_id: i64,
    pub kind: String,
    pub amount: i64,
    pub currency: kernel::Currency,
    pub phone: Option<String>,
    /// `open`, `challenge` (3-D Secure step), `succeeded`, `failed`.
    pub status: String,
    pub callback_url: String,
}

pub async fn payment(shared: &Shared, reference: &str) -> Result<Option<SandboxPayment>, AppError> {
    let row = sqlx::query("SELECT reference, dialect, intent_id, kind, amount, currency, phone, status, callback_url FROM sandbox_payments WHERE reference = $1")
        .bind(reference)
        .fetch_optional(shared.db.reader())
        .await
        .map_err(AppError::internal)?;
    Ok(row.and_then(|r| {
        Some(SandboxPayment {
            reference: r.get(0),
            dialect: r.get(1),
            intent_id: r.get(2),
            kind: r.get(3),
            amount: r.get(4),
            currency: r.get::<String, _>(5).parse().ok()?,
            phone: r.get(6),
            status: r.get(7),
            callback_url: r.get(8),
        })
    }))
}

/// `open → challenge` (the card needs the confirmation step).
pub async fn challenge(shared: &Shared, reference: &str) -> Result<bool, AppError> {
    let n = sqlx::query("UPDATE sandbox_payments SET status = 'challenge', updated_at = $1 WHERE reference = $2 AND status = 'open'")
        .bind(now_ms())
        .bind(reference)
        .execute(shared.db.writer())
        .await
        .map_err(AppError::internal)?
        .rows_affected();
    Ok(n == 1)
}

/// Completes a payment (`succeeded` or `failed`) once, and queues its signed callback.
pub async fn complete(shared: &Shared, p: &SandboxPayment, succeeded: bool, reason: &str) -> Result<bool, AppError> {
    let status = if succeeded { "succeeded" } else { "failed" };
    let now = now_ms();
    let mut tx = shared.db.writer().begin().await.map_err(AppError::internal)?;
    let won = sqlx::query("UPDATE sandbox_payments SET status = $1, updated_at = $2 WHERE reference = $3 AND status IN ('open', 'challenge')")
        .bind(status)
        .bind(now)
        .bind(&p.reference)
        .execute(&mut *tx)
        .await
        .map_err(AppError::internal)?
        .rows_affected()
        == 1;
    if won {
        let body = serde_json::json!({
            "id": format!("evt_{}", hex::encode(rand::random::<[u8; 12]>())),
            "type": format!("payment.{status}"),
            "created": now / 1000,
            "data": {
                "reference": p.reference,
                "intent_id": p.intent_id.to_string(),
                "kind": p.kind,
                "status": status,
                "amount": p.amount,
                "currency": p.currency.code(),
                "reason": (!succeeded).then_some(reason),
            }
        });
        queue_callback(&mut tx, "sandbox", &p.callback_url, &body.to_string(), now).await?;
    }
    tx.commit().await.map_err(AppError::internal)?;
    if won {
        shared.wake.notify_one();
    }
    Ok(won)
}

pub(crate) async fn queue_callback(tx: &mut sqlx::Transaction<'_, sqlx::Any>, dialect: &str, url: &str, body: &str, at: i64) -> Result<(), AppError> {
    sqlx::query("INSERT INTO sandbox_callbacks (id, dialect, url, body, attempts, next_at, claimed_until, created_at) VALUES ($1, $2, $3, $4, 0, $5, 0, $6)")
        .bind(next_id())
        .bind(dialect)
        .bind(url)
        .bind(body)
        .bind(at)
        .bind(now_ms())
        .execute(&mut **tx)
        .await
        .map_err(AppError::internal)?;
    Ok(())
}

/// The delay before attempt `n + 1` (1 s, 2 s, 4 s … capped at 5 min).
pub fn backoff_ms(attempts: i64) -> i64 {
    (1000i64 << attempts.clamp(0, 9)).min(300_000)
}

/// Sends the due callbacks once (each claimed by one worker); answers how many were delivered.
pub async fn deliver_once(shared: &Shared) -> Result<usize, AppError> {
    let now = now_ms();
    let due = sqlx::query("SELECT id, dialect, url, body, attempts FROM sandbox_callbacks WHERE delivered_at IS NULL AND next_at <= $1 AND claimed_until < $1 ORDER BY next_at LIMIT 100")
        .bind(now)
        .fetch_all(shared.db.reader())
        .await
        .map_err(AppError::internal)?;
    let mut tasks = tokio::task::JoinSet::new();
    for r in due {
        let (id, dialect, url, body, attempts): (i64, String, String, String, i64) = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        let claimed = sqlx::query("UPDATE sandbox_callbacks SET claimed_until = $1 WHERE id = $2 AND delivered_at IS NULL AND claimed_until < $3")
            .bind(now + 30_000)
            .bind(id)
            .bind(now)
            .execute(shared.db.writer())
            .await
            .map_err(AppError::internal)?
            .rows_affected()
            == 1;
        if !claimed {
            continue;
        }
        let http = shared.http.clone();
        let secret = shared.cfg.sandbox_secret.clone();
        tasks.spawn(async move {
            let mut req = http.post(&url).header("content-type", "application/json").body(body.clone());
            if dialect == "sandbox" {
                req = req.header("Carthage-Signature", signature::sign_header(&secret, now_ms() / 1000, body.as_bytes()));
            }
            let result = match req.send().await {
                Ok(resp) => {
                    let status = resp.status();
                    let text = resp.text().await.unwrap_or_default();
                    let acked = status.as_u16() == 200
                        && (dialect != "paykassma"
                            || serde_json::from_str::<serde_json::Value>(&text).ok().is_some_and(|v| v["status"] == "ok"));
                    if acked {
                        Ok(())
                    } else {
                        Err(format!("HTTP {status}: {}", text.chars().take(200).collect::<String>()))
                    }
                }
                Err(e) => Err(e.to_string()),
            };
            (id, attempts, result)
        });
    }
    let mut delivered = 0;
    while let Some(joined) = tasks.join_next().await {
        let Ok((id, attempts, result)) = joined else { continue };
        let now = now_ms();
        let q = match &result {
            Ok(()) => {
                delivered += 1;
                sqlx::query("UPDATE sandbox_callbacks SET delivered_at = $1, attempts = attempts + 1, claimed_until = 0 WHERE id = $2").bind(now).bind(id)
            }
            Err(e) => {
                tracing::info!(callback = id, attempts = attempts + 1, error = %e, "sandbox: callback not acknowledged; retrying later");
                sqlx::query("UPDATE sandbox_callbacks SET attempts = attempts + 1, next_at = $1, claimed_until = 0, last_error = $2 WHERE id = $3")
                    .bind(now + backoff_ms(attempts))
                    .bind(e.chars().take(300).collect::<String>())
                    .bind(id)
            }
        };
        q.execute(shared.db.writer()).await.map_err(AppError::internal)?;
    }
    Ok(delivered)
}
