//! The Paykassma adapter (docs/PAYMENTS.md "Paykassma", PROTOCOLS.md §7), and the Paykassma
//! emulation the sandbox serves in demo mode.
//!
//! * **Deposit**: the plugin page `{plugin}/?label={user id}&currency_code=&lang=
//!   &custom_transaction_id={intent id}&fixed_amount={major}` (top level in production: code 20).
//! * **Withdrawal**: `POST {api}/v2/withdrawal/create` JSON `{withdrawal_id: intent id,
//!   payment_system, amount (integer, major units), currency_code, is_test, label: user id,
//!   account_number: phone, account_name, bank_details: {}, payments_details: {}, signature}`
//!   with `signature = sha1(private_key . md5(withdrawal_id:payment_system:amount:
//!   currency_code:label:account_number))` — the published docs do not give the formula;
//!   this follows the one client implementation PROTOCOLS.md cites and must be confirmed with
//!   Paykassma before going live. `{status:"ok"}` → pending; `{status:"fail", message}` →
//!   failed (the hold returns).
//! * **Postback** (both directions): a JSON object `{transaction_id, custom_transaction_id,
//!   type: "deposit"|"withdrawal", status: "success"|"fail", amount (major units),
//!   currency_code, label, wallet_type, …, signature}`, signature `sha1(access_key .
//!   private_key . md5(data))`, `data` = the members other than `signature` as received
//!   ([`crate::signature::paykassma_data_text`]). Answered HTTP 200 `{"status":"ok"}` once
//!   applied (or already applied); anything else makes Paykassma resend it.
//! * **Status**: Paykassma publishes no status call: the reconciliation cannot query it and
//!   relies on the postback resends; a `created` withdrawal (its create call failed) is
//!   created again with the same `withdrawal_id`.

use crate::model::{Intent, IntentKind};
use crate::provider::{CallbackEvent, Created, Headers, Provider, ProviderStatus};
use crate::{signature, PaykassmaConfig, Shared};
use kernel::clock::now_ms;
use kernel::money::{format_major, parse_major};
use kernel::{AppError, Currency, ErrorCode};
use std::sync::Arc;
use store::sqlx;

pub struct Paykassma {
    shared: Arc<Shared>,
}

impl Paykassma {
    pub fn new(shared: Arc<Shared>) -> Paykassma {
        Paykassma { shared }
    }
    fn cfg(&self) -> &PaykassmaConfig {
        self.shared.cfg.paykassma.as_ref().expect("paykassma configured")
    }
    fn api(&self) -> String {
        self.cfg().api_url.clone().unwrap_or_else(|| format!("{}/pay/paykassma", self.shared.local_base()))
    }
}

/// The withdrawal request signature (see the module docs).
pub fn withdrawal_signature(private_key: &str, fields: [&str; 6]) -> String {
    signature::sha1_hex(format!("{private_key}{}", signature::md5_hex(fields.join(":").as_bytes())).as_bytes())
}

/// A JSON number or string member as text.
fn text_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[async_trait::async_trait]
impl Provider for Paykassma {
    fn name(&self) -> &'static str {
        crate::PAYKASSMA
    }
    fn framable(&self) -> bool {
        !self.cfg().top_level
    }
    async fn create_deposit(&self, intent: &Intent) -> Result<Created, AppError> {
        let base = self.cfg().plugin_url.clone().unwrap_or_else(|| "/pay/paykassma/plugin".into());
        let lang = intent.details.get("lang").and_then(|l| l.as_str()).unwrap_or("en");
        let url = format!(
            "{base}?label={}&currency_code={}&lang={}&custom_transaction_id={}&fixed_amount={}",
            intent.user_id,
            intent.currency.code(),
            crate::pages::lang_code(lang),
            intent.id,
            format_major(intent.amount, intent.currency)
        );
        Ok(Created { reference: None, url: Some(url), status: ProviderStatus::Pending })
    }
    async fn create_withdrawal(&self, intent: &Intent) -> Result<Created, AppError> {
        let cfg = self.cfg();
        let amount = (intent.amount / intent.currency.scale()).to_string();
        let id = intent.id.to_string();
        let label = intent.user_id.to_string();
        let phone = intent.phone.clone().unwrap_or_default();
        let sig = withdrawal_signature(&cfg.private_key, [&id, &cfg.wallet_type, &amount, intent.currency.code(), &label, &phone]);
        let body = serde_json::json!({
            "withdrawal_id": id,
            "payment_system": cfg.wallet_type,
            "amount": intent.amount / intent.currency.scale(),
            "currency_code": intent.currency.code(),
            "is_test": cfg.api_url.is_none() as i64,
            "label": label,
            "account_number": phone,
            "account_name": "",
            "bank_details": {},
            "payments_details": {},
            "signature": sig,
        });
        let resp = self
            .shared
            .http
            .post(format!("{}/v2/withdrawal/create", self.api().trim_end_matches('/')))
            .json(&body)
            .send()
            .await
            .map_err(|e| AppError::with_detail(ErrorCode::PaymentProviderUnavailable, format!("paykassma: {e}")))?;
        let reply: serde_json::Value = resp.json().await.unwrap_or(serde_json::Value::Null);
        match reply["status"].as_str() {
            Some("ok") => Ok(Created {
                reference: reply["data"]["id"].as_str().map(str::to_string).or_else(|| reply["data"]["id"].as_i64().map(|i| i.to_string())),
                url: None,
                status: ProviderStatus::Pending,
            }),
            Some("fail") => Ok(Created { reference: None, url: None, status: ProviderStatus::Failed(format!("paykassma: {}", reply["message"])) }),
            _ => Err(AppError::with_detail(ErrorCode::PaymentProviderUnavailable, "paykassma: unexpected reply")),
        }
    }
    fn verify_callback(&self, _headers: &Headers, body: &[u8], _now_s: i64) -> Result<CallbackEvent, AppError> {
        let cfg = self.cfg();
        let (data, sig) = paykassma_verify_body(cfg, body)?;
        let field = |k: &str| text_of(&data[k]);
        let currency = field("currency_code").unwrap_or_default();
        let amount_text = field("amount").ok_or_else(|| AppError::with_detail(ErrorCode::BadRequest, "amount missing"))?;
        let amount = match currency.parse::<Currency>() {
            Ok(c) => parse_major(&amount_text, c).map_err(|_| AppError::new(ErrorCode::PaymentAmountMismatch))?,
            Err(_) => return Err(ErrorCode::PaymentCurrencyMismatch.into()),
        };
        let status = field("status").unwrap_or_default();
        let outcome = match status.as_str() {
            "success" | "succeeded" | "ok" => ProviderStatus::Succeeded,
            "fail" | "failed" | "rejected" | "cancel" | "canceled" => ProviderStatus::Failed(format!("paykassma: {status}")),
            _ => ProviderStatus::Pending,
        };
        let kind = match field("type").as_deref() {
            Some("deposit") | Some("ingoing") => Some(IntentKind::Deposit),
            Some("withdrawal") | Some("outgoing") => Some(IntentKind::Withdrawal),
            _ => None,
        };
        let reference = field("transaction_id").filter(|s| !s.is_empty());
        let _ = sig;
        Ok(CallbackEvent {
            event_id: format!("{}:{status}", reference.clone().unwrap_or_default()),
            intent_id: field("custom_transaction_id").and_then(|s| s.parse().ok()),
            reference,
            kind,
            outcome,
            amount,
            currency,
        })
    }
    async fn query_status(&self, _intent: &Intent) -> Result<ProviderStatus, AppError> {
        Ok(ProviderStatus::Unknown)
    }
    fn ack_body(&self) -> Option<&'static str> {
        Some(r#"{"status":"ok"}"#)
    }
}

/// Checks a postback's signature on its raw body (64 when wrong or missing, 40 when the
/// body is not a JSON object) and answers its members.
pub fn paykassma_verify_body(cfg: &PaykassmaConfig, body: &[u8]) -> Result<(serde_json::Value, String), AppError> {
    let Some((data_text, sig)) = signature::paykassma_data_text(body) else {
        // Not an object, or no signature: a forged or broken postback.
        return Err(if serde_json::from_slice::<serde_json::Value>(body).is_ok_and(|v| v.is_object()) {
            AppError::new(ErrorCode::SignatureInvalid)
        } else {
            AppError::with_detail(ErrorCode::BadRequest, "the postback must be a JSON object")
        });
    };
    if !signature::paykassma_verify(&cfg.postback_access_key, &cfg.postback_private_key, &data_text, &sig) {
        return Err(ErrorCode::SignatureInvalid.into());
    }
    let data: serde_json::Value = serde_json::from_str(&data_text).map_err(|_| AppError::new(ErrorCode::BadRequest))?;
    Ok((data, sig))
}

/// Builds a signed postback body (the emulation, and the tests' fake, send these).
pub fn postback_body(cfg: &PaykassmaConfig, members: &[(&str, serde_json::Value)]) -> String {
    let mut data = String::from("{");
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            data.push(',');
        }
        data.push_str(&signature::php_string(k));
        data.push(':');
        data.push_str(&v.to_string());
    }
    data.push('}');
    let sig = signature::paykassma_sign(&cfg.postback_access_key, &cfg.postback_private_key, &data);
    format!("{},\"signature\":{}}}", &data[..data.len() - 1], signature::php_string(&sig))
}

// ---------------------------------------------------------------------- the emulation

/// The emulation's side of a plugin payment: the player paid (or was declined) on the
/// emulated plugin page; a postback is queued to our callback URL.
pub async fn emulated_deposit(shared: &Shared, user_id: i64, intent_id: i64, amount_text: &str, currency: Currency, succeeded: bool) -> Result<String, AppError> {
    let cfg = shared.cfg.paykassma.clone().ok_or(ErrorCode::PaymentMethodUnavailable)?;
    let amount = parse_major(amount_text, currency).map_err(|_| AppError::new(ErrorCode::PaymentAmountInvalid))?;
    let reference = format!("pk_{}", hex::encode(rand::random::<[u8; 10]>()));
    let status = if succeeded { "success" } else { "fail" };
    emulated_record(shared, &cfg, &reference, intent_id, user_id, "deposit", amount, currency, None, status, 0).await?;
    Ok(reference)
}

#[allow(clippy::too_many_arguments)]
async fn emulated_record(
    shared: &Shared,
    cfg: &PaykassmaConfig,
    reference: &str,
    intent_id: i64,
    user_id: i64,
    kind: &str,
    amount: i64,
    currency: Currency,
    phone: Option<&str>,
    status: &str,
    delay_ms: i64,
) -> Result<(), AppError> {
    let now = now_ms();
    let url = shared.callback_url(crate::PAYKASSMA);
    let mut tx = shared.db.writer().begin().await.map_err(AppError::internal)?;
    sqlx::query(
        "INSERT INTO sandbox_payments (reference, dialect, intent_id, kind, amount, currency, phone, status, callback_url, created_at, updated_at) \
         VALUES ($1, 'paykassma', $2, $3, $4, $5, $6, $7, $8, $9, $9)",
    )
    .bind(reference)
    .bind(intent_id)
    .bind(kind)
    .bind(amount)
    .bind(currency.code())
    .bind(phone)
    .bind(if status == "success" { "succeeded" } else { "failed" })
    .bind(&url)
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(AppError::internal)?;
    let body = postback_body(
        cfg,
        &[
            ("transaction_id", reference.into()),
            ("custom_transaction_id", intent_id.to_string().into()),
            ("type", kind.into()),
            ("status", status.into()),
            ("amount", serde_json::from_str(&format_major(amount, currency)).unwrap_or(serde_json::Value::Null)),
            ("currency_code", currency.code().into()),
            ("label", user_id.to_string().into()),
            ("wallet_type", cfg.wallet_type.clone().into()),
        ],
    );
    crate::sandbox::queue_callback(&mut tx, "paykassma", &url, &body, now + delay_ms).await?;
    tx.commit().await.map_err(AppError::internal)?;
    shared.wake.notify_one();
    Ok(())
}

/// The emulation's `POST /v2/withdrawal/create`: checks the request signature, records the
/// payout (a repeat of a `withdrawal_id` answers ok again), and queues its success postback
/// two seconds later. Answers Paykassma's reply body.
pub async fn emulated_withdrawal(shared: &Shared, body: &[u8]) -> serde_json::Value {
    let fail = |m: &str| serde_json::json!({ "status": "fail", "message": m });
    let Some(cfg) = shared.cfg.paykassma.clone() else {
        return fail("not configured");
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
        return fail("invalid JSON");
    };
    let f = |k: &str| text_of(&v[k]).unwrap_or_default();
    let (id, system, amount, currency, label, account) = (f("withdrawal_id"), f("payment_system"), f("amount"), f("currency_code"), f("label"), f("account_number"));
    let expected = withdrawal_signature(&cfg.private_key, [&id, &system, &amount, &currency, &label, &account]);
    if !signature::same(&f("signature").to_ascii_lowercase(), &expected) {
        return fail("invalid signature");
    }
    let (Ok(intent_id), Ok(cur), Ok(user_id)) = (id.parse::<i64>(), currency.parse::<Currency>(), label.parse::<i64>()) else {
        return fail("invalid withdrawal");
    };
    let Ok(minor) = parse_major(&amount, cur) else {
        return fail("invalid amount");
    };
    let reference = format!("pkw_{intent_id}");
    match emulated_record(shared, &cfg, &reference, intent_id, user_id, "withdrawal", minor, cur, Some(&account), "success", 2000).await {
        Ok(()) => serde_json::json!({ "status": "ok", "data": { "id": reference } }),
        // Already recorded (a retried create): the same answer.
        Err(_) if crate::sandbox::payment(shared, &reference).await.ok().flatten().is_some() => {
            serde_json::json!({ "status": "ok", "data": { "id": reference } })
        }
        Err(_) => fail("could not record"),
    }
}
