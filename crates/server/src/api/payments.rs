//! Payments (docs/PAYMENTS.md): payment tokens, deposits and withdrawals through payment
//! providers, intent status, provider callbacks, and the sandbox provider's hosted pages
//! (and, in demo mode, its Paykassma emulation). Thin handlers over `payments::Payments`.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, PathParam, RawBody, Session};
use crate::app::AppState;
use accounts::{Role, User};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use kernel::clock::to_rfc3339;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode};
use payments::pages;
use payments::{Intent, Payer};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/payment/token", post(token))
        .route("/api/payment/deposit", post(deposit))
        .route("/api/payment/withdrawal", post(withdrawal))
        .route("/api/payment/telegram/deposit", post(telegram_deposit))
        .route("/paykassma/deposit/init", post(paykassma_deposit))
        .route("/paykassma/withdrawal/init", post(paykassma_withdrawal))
        .route("/api/payment/intent/{id}", get(intent))
        .route("/api/payment/callback/{provider}", post(callback))
        // The sandbox provider's pages and the Paykassma emulation (not part of the API).
        .route("/pay/sandbox/{reference}", get(sandbox_page).post(sandbox_action))
        .route("/pay/paykassma/plugin", get(paykassma_plugin).post(paykassma_plugin_pay))
        .route("/pay/paykassma/v2/withdrawal/create", post(paykassma_emulated_withdrawal))
        .route("/pay/assets/page.css", get(page_css))
        .route("/pay/assets/page.js", get(page_js))
}

// ---------------------------------------------------------------------- types

/// A payment amount: major units as a JSON number (at most the currency's decimals).
#[derive(Debug, Deserialize, ToSchema)]
pub struct DepositRequest {
    #[schema(value_type = f64, example = 50)]
    pub amount: serde_json::Number,
    /// A payment token (`POST /api/payment/token`): single use; a retry with it answers the same payment.
    #[serde(rename = "sessionToken")]
    pub session_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AmountRequest {
    #[schema(value_type = f64, example = 50)]
    pub amount: serde_json::Number,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WithdrawalRequest {
    #[schema(value_type = f64, example = 50)]
    pub amount: serde_json::Number,
    /// The e-wallet (mobile money) number to pay out to.
    pub phone_number: String,
    #[serde(rename = "sessionToken")]
    pub session_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneWithdrawalRequest {
    #[schema(value_type = f64, example = 50)]
    pub amount: serde_json::Number,
    pub phone_number: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TelegramDepositRequest {
    /// The player's Telegram user id (a string or an integer).
    #[schema(schema_with = telegram_id_schema)]
    pub telegram_user_id: serde_json::Value,
    /// USDT (up to 6 decimals).
    #[schema(value_type = f64, example = 10)]
    pub amount: serde_json::Number,
    /// `USDT`.
    pub payment_currency: String,
}

/// `telegram_user_id`: a string or an integer.
fn telegram_id_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::String).min_length(Some(1)).max_length(Some(64)))
        .item(ObjectBuilder::new().schema_type(Type::Integer))
        .description(Some("The player's Telegram user id (a string or an integer)."))
        .build()
        .into()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentTokenReply {
    pub token: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DepositReply {
    /// The hosted payment page (the payment frame shows it).
    pub invoice_url: Option<String>,
    pub id: i64,
    pub status: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TelegramDepositReply {
    pub invoice_url: Option<String>,
    pub id: i64,
    pub status: &'static str,
    /// Player-currency major units per USDT.
    pub rate: String,
    /// What the wallet will be credited at success (major units of `credit_currency`).
    pub credit_amount: MajorUnits,
    pub credit_currency: String,
}

/// Spec §3 withdrawal result.
#[derive(Debug, Serialize, ToSchema)]
pub struct WithdrawalReply {
    pub id: i64,
    pub status: &'static str,
    pub user_amount: MajorUnits,
    pub user_currency: String,
    /// The provider's page, when the payout needs one (the sandbox's e-wallet page).
    pub invoice_url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct IntentReply {
    pub id: i64,
    /// `deposit` or `withdrawal`.
    pub kind: &'static str,
    pub provider: String,
    /// `created`, `pending`, `succeeded`, `failed`, `expired` or `cancelled`.
    pub status: &'static str,
    pub amount: MajorUnits,
    pub currency: String,
    /// What the wallet moves (differs from `amount` for converted crypto deposits).
    pub credit_amount: MajorUnits,
    pub credit_currency: String,
    pub failure_reason: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A callback's acknowledgement (the sandbox's; Paykassma gets `{"status":"ok"}`).
#[derive(Debug, Serialize, ToSchema)]
pub struct CallbackReply {
    pub id: i64,
    pub status: &'static str,
    /// The same notification was applied before: nothing changed now.
    pub duplicate: bool,
}

/// Spec §3 payment history entry (source field names): a deposit (`type` `payment`) or a
/// withdrawal.
#[derive(Debug, Serialize, ToSchema)]
pub struct PayHistoryEntryReply {
    pub id: i64,
    pub created_at: String,
    /// Major units: positive for a deposit, negative for a withdrawal.
    pub value: MajorUnits,
    pub currency: String,
    /// `payment` or `withdrawal`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The payment's status (`created`, `pending`, `succeeded`, `failed`, `expired`,
    /// `cancelled`; cashier withdrawals `CREATED`, `PAID`, `CANCELED`).
    pub status: String,
    /// True once the payment is final.
    pub is_closed: bool,
    /// The payment type: 16 provider, 11 crypto, 114 cashier, 10 withdrawal.
    pub payment_mode: i64,
    /// The provider (`sandbox`, `paykassma`, `crypto`) or `cashier`.
    pub purse: String,
    pub comment: String,
}

impl PayHistoryEntryReply {
    pub fn of(e: &payments::PayHistoryEntry) -> PayHistoryEntryReply {
        PayHistoryEntryReply {
            id: e.id,
            created_at: to_rfc3339(e.created_at),
            value: e.major(),
            currency: e.currency.code().to_string(),
            kind: e.kind,
            status: e.status.clone(),
            is_closed: e.is_closed,
            payment_mode: e.payment_mode,
            purse: e.purse.clone(),
            comment: e.comment.clone(),
        }
    }
}

// ---------------------------------------------------------------------- helpers

fn payer(user: &User) -> Result<Payer, ApiError> {
    if user.role != Role::Player {
        return Err(ErrorCode::Forbidden.into());
    }
    Ok(Payer { id: user.id, currency: user.currency, registered_via: user.registered_via.clone(), phone: user.phone.clone(), lang: user.lang.clone() })
}

fn deposit_reply(state: &AppState, intent: &Intent, url: Option<String>) -> ApiResult<DepositReply> {
    // A provider whose page may not be framed: the browser goes there (spec §4, code 20).
    if let (Some(u), Ok(p)) = (&url, state.payments.provider(&intent.provider)) {
        if !p.framable() && !intent.status.is_final() {
            return Err(ApiError(AppError::new(ErrorCode::PaymentRedirect).data(serde_json::json!({ "url": u, "id": intent.id }))));
        }
    }
    ok(DepositReply { invoice_url: url, id: intent.id, status: intent.status.as_str() })
}

fn withdrawal_reply(intent: &Intent) -> WithdrawalReply {
    let url = match intent.provider.as_str() {
        payments::SANDBOX => intent.provider_ref.as_ref().map(|r| payments::sandbox::page_path(r, intent.details["lang"].as_str().unwrap_or("en"))),
        _ => None,
    };
    WithdrawalReply {
        id: intent.id,
        status: intent.status.as_str(),
        user_amount: MajorUnits::new(intent.amount, intent.currency),
        user_currency: intent.currency.code().to_string(),
        invoice_url: url,
    }
}

// ---------------------------------------------------------------------- player API

/// A single-use payment token (10 min) for the deposit and withdrawal calls (spec §7 "create token").
#[utoipa::path(post, path = "/api/payment/token", tag = "payments",
    responses((status = 200, body = Envelope<PaymentTokenReply>), (status = "default", description = "23 not signed in, 24 not a player", body = ErrorEnvelope)))]
pub async fn token(State(state): State<AppState>, session: Session) -> ApiResult<PaymentTokenReply> {
    let p = payer(&session.user)?;
    ok(PaymentTokenReply { token: state.payments.create_token(p.id).await? })
}

/// A deposit through the operator's payment provider (the sandbox in demo mode): answers
/// the hosted page for the payment frame, or code 20 with `{url}` when the page must run
/// in the top-level window.
#[utoipa::path(post, path = "/api/payment/deposit", tag = "payments", request_body = DepositRequest,
    responses((status = 200, body = Envelope<DepositReply>),
              (status = "default", description = "20 redirect, 80 token, 81/83 limits, 82 not a web sign-up, 88 provider, 89 method, 91 amount, 26 token reused, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn deposit(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<DepositRequest>) -> ApiResult<DepositReply> {
    let p = payer(&session.user)?;
    let (intent, url) = state.payments.deposit(&p, payments::SANDBOX, &req.amount.to_string(), Some(&req.session_token)).await?;
    deposit_reply(&state, &intent, url)
}

/// A deposit through Paykassma (its plugin page; limits `eTopUp`).
#[utoipa::path(post, path = "/paykassma/deposit/init", tag = "payments", request_body = AmountRequest,
    responses((status = 200, body = Envelope<DepositReply>),
              (status = "default", description = "20 redirect, 81/83 limits, 82 not a web sign-up, 89 not configured, 91 amount, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn paykassma_deposit(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<AmountRequest>) -> ApiResult<DepositReply> {
    let p = payer(&session.user)?;
    let (intent, url) = state.payments.deposit(&p, payments::PAYKASSMA, &req.amount.to_string(), None).await?;
    deposit_reply(&state, &intent, url)
}

/// A Telegram USDT deposit (crypto provider): the USDT → player-currency rate is recorded
/// now and applied at success.
#[utoipa::path(post, path = "/api/payment/telegram/deposit", tag = "payments", request_body = TelegramDepositRequest,
    responses((status = 200, body = Envelope<TelegramDepositReply>),
              (status = "default", description = "81/83 limits, 89 not USDT or no rate, 91 amount, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn telegram_deposit(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<TelegramDepositRequest>) -> ApiResult<TelegramDepositReply> {
    let p = payer(&session.user)?;
    let tg = match &req.telegram_user_id {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
        _ => return Err(super::envelope::bad_request("telegram_user_id must be a string or an integer")),
    };
    let (intent, url) = state.payments.telegram_deposit(&p, &tg, &req.amount.to_string(), &req.payment_currency).await?;
    let (num, den) = (intent.rate_num, intent.rate_den);
    // Major per major: num/den · 10^6 / 10^exp, shown with 6 decimals (exact for the configured rates).
    let micro = (num as i128 * 1_000_000i128 * Currency::Usdt.scale() as i128 / intent.credit_currency.scale() as i128 / den as i128) as i64;
    let rate = kernel::money::format_major(micro, Currency::Usdt);
    ok(TelegramDepositReply {
        invoice_url: url,
        id: intent.id,
        status: intent.status.as_str(),
        rate,
        credit_amount: MajorUnits::new(intent.credit_amount, intent.credit_currency),
        credit_currency: intent.credit_currency.code().to_string(),
    })
}

/// A withdrawal to an e-wallet through the operator's provider (the sandbox in demo mode).
/// The funds are held at once (type 10).
#[utoipa::path(post, path = "/api/payment/withdrawal", tag = "payments", request_body = WithdrawalRequest,
    responses((status = 200, body = Envelope<WithdrawalReply>),
              (status = "default", description = "106 below the minimum, 84 above the maximum, 508 insufficient funds, 6252 wagering (number) or blocked (object), 80 token, 92 phone, 91 amount, 26, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn withdrawal(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<WithdrawalRequest>) -> ApiResult<WithdrawalReply> {
    let p = payer(&session.user)?;
    let intent = state.payments.withdraw(&p, payments::SANDBOX, &req.amount.to_string(), &req.phone_number, Some(&req.session_token)).await?;
    ok(withdrawal_reply(&intent))
}

/// A withdrawal to a phone through Paykassma (whole major units).
#[utoipa::path(post, path = "/paykassma/withdrawal/init", tag = "payments", request_body = PhoneWithdrawalRequest,
    responses((status = 200, body = Envelope<WithdrawalReply>),
              (status = "default", description = "106, 84, 508, 6252, 89 not configured, 92 phone, 91 amount, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn paykassma_withdrawal(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<PhoneWithdrawalRequest>) -> ApiResult<WithdrawalReply> {
    let p = payer(&session.user)?;
    let intent = state.payments.withdraw(&p, payments::PAYKASSMA, &req.amount.to_string(), &req.phone_number, None).await?;
    ok(withdrawal_reply(&intent))
}

/// One of the player's payments (the payment frame polls it).
#[utoipa::path(get, path = "/api/payment/intent/{id}", tag = "payments", params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<IntentReply>), (status = "default", description = "85 not found, 23, 40", body = ErrorEnvelope)))]
pub async fn intent(State(state): State<AppState>, session: Session, PathParam(id): PathParam<i64>) -> ApiResult<IntentReply> {
    let i = state.payments.player_intent(session.user.id, id).await?;
    // A final state is shown once its money has moved (`settled_at`): the frame refreshes
    // the balance when it sees it.
    let status = if i.status.is_final() && i.settled_at.is_none() { payments::IntentStatus::Pending } else { i.status };
    ok(IntentReply {
        id: i.id,
        kind: i.kind.as_str(),
        provider: i.provider.clone(),
        status: status.as_str(),
        amount: MajorUnits::new(i.amount, i.currency),
        currency: i.currency.code().to_string(),
        credit_amount: MajorUnits::new(i.credit_amount, i.credit_currency),
        credit_currency: i.credit_currency.code().to_string(),
        failure_reason: i.failure_reason.clone(),
        created_at: to_rfc3339(i.created_at),
        updated_at: to_rfc3339(i.updated_at),
    })
}

// ---------------------------------------------------------------------- callbacks

/// A payment provider's callback, verified on the raw body before it is parsed: `sandbox`
/// and `crypto` sign Stripe-style (`Carthage-Signature: t=…,v1=…`, 300 s), `paykassma` with
/// its postback signature (answered `{"status":"ok"}`). Idempotent: a replay changes nothing.
#[utoipa::path(post, path = "/api/payment/callback/{provider}", tag = "payments", params(("provider" = String, Path),
        ("Carthage-Signature" = Option<String>, Header, description = "t=<unix s>,v1=hex(HMAC_SHA256(secret, t + \".\" + raw body))")),
    request_body(content = Object, description = "The provider's notification"),
    responses((status = 200, body = Envelope<CallbackReply>),
              (status = "default", description = "64 bad signature, 65 stale, 66 unknown provider, 85 unknown payment, 86 amount, 87 currency, 90 final, 40 malformed", body = ErrorEnvelope)))]
pub async fn callback(State(state): State<AppState>, PathParam(provider): PathParam<String>, headers: HeaderMap, RawBody(body): RawBody) -> Response {
    let headers: HashMap<String, String> =
        headers.iter().filter_map(|(k, v)| v.to_str().ok().map(|v| (k.as_str().to_ascii_lowercase(), v.to_string()))).collect();
    let provider = provider.trim().to_ascii_lowercase();
    let result = state.payments.handle_callback(&provider, &headers, &body).await;
    // The provider label stays a closed set: the path is anybody's to write.
    let known = if state.payments.provider(&provider).is_ok() { provider.as_str() } else { "unknown" };
    let outcome = match &result {
        Ok(_) => "ok",
        Err(e) if e.code.http_status() >= 500 => "error",
        Err(_) => "refused",
    };
    kernel::metrics::inc(kernel::metrics::PROVIDER_CALLBACKS, &[("kind", "payment"), ("provider", known), ("outcome", outcome)]);
    let ack = state.payments.provider(&provider).ok().and_then(|p| p.ack_body());
    match (result, ack) {
        (Ok(payments::CallbackOutcome::Applied { intent_id, status, duplicate }), None) => {
            ok(CallbackReply { id: intent_id, status: status.as_str(), duplicate }).into_response()
        }
        // Paykassma: acknowledged once applied, and when the payment is already final (a
        // resend would change nothing either).
        (Ok(_), Some(ack)) => paykassma_reply(StatusCode::OK, ack.to_string()),
        (Err(e), Some(ack)) if e.code == ErrorCode::PaymentStateConflict => paykassma_reply(StatusCode::OK, ack.to_string()),
        // Anything but HTTP 200 {"status":"ok"} makes Paykassma resend: a refusal is our error
        // envelope with a 4xx status (400 for the codes answered with 200 elsewhere).
        (Err(e), Some(_)) => {
            let mut resp = ApiError(e).into_response();
            if resp.status() == StatusCode::OK {
                *resp.status_mut() = StatusCode::BAD_REQUEST;
            }
            resp
        }
        (Err(e), None) => ApiError(e).into_response(),
    }
}

fn paykassma_reply(status: StatusCode, body: String) -> Response {
    let mut resp = (status, body).into_response();
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

// ---------------------------------------------------------------------- sandbox pages

#[derive(Deserialize, Default)]
pub struct PageQuery {
    #[serde(default)]
    lang: Option<String>,
}

fn html(status: StatusCode, body: String) -> Response {
    let mut resp = (status, Html(body)).into_response();
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

async fn sandbox_page(State(state): State<AppState>, PathParam(reference): PathParam<String>, uri: axum::http::Uri) -> Response {
    let lang = query::<PageQuery>(&uri).lang.unwrap_or_else(|| "en".into());
    match payments::sandbox::payment(state.payments.shared(), &reference).await {
        Ok(Some(p)) if p.dialect != payments::PAYKASSMA => {
            html(StatusCode::OK, pages::payment_page(&p, &lang, None, &format!("/pay/sandbox/{}", p.reference)))
        }
        Ok(_) => html(StatusCode::NOT_FOUND, pages::not_found_page(&lang)),
        Err(e) => ApiError(e).into_response(),
    }
}

#[derive(Deserialize, Default)]
pub struct PageForm {
    #[serde(default)]
    action: String,
    #[serde(default)]
    card: String,
    #[serde(default)]
    lang: String,
    // The emulated Paykassma plugin carries its query in hidden fields.
    #[serde(default)]
    label: String,
    #[serde(default)]
    currency_code: String,
    #[serde(default)]
    custom_transaction_id: String,
    #[serde(default)]
    fixed_amount: String,
}

/// An `application/x-www-form-urlencoded` body (a query string's encoding); anything
/// unreadable is an empty form (the page answers it with itself).
fn form(body: &[u8]) -> PageForm {
    std::str::from_utf8(body)
        .ok()
        .and_then(|b| format!("/?{b}").parse::<axum::http::Uri>().ok())
        .and_then(|u| Query::<PageForm>::try_from_uri(&u).ok())
        .map(|Query(f)| f)
        .unwrap_or_default()
}

/// The query string, or defaults when it is unreadable.
fn query<T: serde::de::DeserializeOwned + Default>(uri: &axum::http::Uri) -> T {
    Query::<T>::try_from_uri(uri).map(|Query(q)| q).unwrap_or_default()
}

/// The sandbox page's buttons: pay by card (test cards), confirm / cancel the 3-D Secure
/// step, confirm / reject an e-wallet payout, confirm a crypto transfer. The outcome goes to
/// the platform only by the signed callback.
async fn sandbox_action(State(state): State<AppState>, PathParam(reference): PathParam<String>, RawBody(body): RawBody) -> Response {
    let f = form(&body);
    let lang = if f.lang.is_empty() { "en".to_string() } else { f.lang.clone() };
    let shared = state.payments.shared();
    let p = match payments::sandbox::payment(shared, &reference).await {
        Ok(Some(p)) if p.dialect != payments::PAYKASSMA => p,
        Ok(_) => return html(StatusCode::NOT_FOUND, pages::not_found_page(&lang)),
        Err(e) => return ApiError(e).into_response(),
    };
    let action_url = format!("/pay/sandbox/{}", p.reference);
    let card: String = f.card.chars().filter(|c| c.is_ascii_digit()).collect();
    let outcome = match (f.action.as_str(), p.status.as_str(), p.kind.as_str()) {
        (_, "succeeded" | "failed", _) => None,
        ("card", "open", "deposit") if card == payments::sandbox::CARD_OK => Some((true, "")),
        ("card", "open", "deposit") if card == payments::sandbox::CARD_DECLINED => Some((false, "card declined")),
        ("card", "open", "deposit") if card == payments::sandbox::CARD_3DS => {
            if let Err(e) = payments::sandbox::challenge(shared, &p.reference).await {
                return ApiError(e).into_response();
            }
            None
        }
        ("card", "open", "deposit") => {
            return html(StatusCode::OK, pages::payment_page(&p, &lang, Some(pages::unknown_card(&lang)), &action_url));
        }
        ("confirm", "challenge", _) => Some((true, "")),
        ("cancel", _, _) => Some((false, "cancelled on the payment page")),
        ("payout", "open", "withdrawal") => Some((true, "")),
        ("reject", "open", "withdrawal") => Some((false, "payout rejected")),
        ("paid", "open", "deposit") if p.dialect == payments::CRYPTO => Some((true, "")),
        _ => None,
    };
    if let Some((succeeded, reason)) = outcome {
        if let Err(e) = payments::sandbox::complete(shared, &p, succeeded, reason).await {
            return ApiError(e).into_response();
        }
    }
    let p = match payments::sandbox::payment(shared, &reference).await {
        Ok(Some(p)) => p,
        _ => return html(StatusCode::NOT_FOUND, pages::not_found_page(&lang)),
    };
    html(StatusCode::OK, pages::payment_page(&p, &lang, None, &action_url))
}

#[derive(Deserialize, Default)]
pub struct PluginQuery {
    #[serde(default)]
    label: String,
    #[serde(default)]
    currency_code: String,
    #[serde(default)]
    lang: String,
    #[serde(default)]
    custom_transaction_id: String,
    #[serde(default)]
    fixed_amount: String,
}

/// The Paykassma emulation's plugin page (demo mode): a card form.
async fn paykassma_plugin(State(state): State<AppState>, uri: axum::http::Uri) -> Response {
    plugin_page(&state, query::<PluginQuery>(&uri), false)
}

/// The plugin's card form, or (`challenge`) the confirmation step of the 3-D-Secure test card.
fn plugin_page(state: &AppState, q: PluginQuery, challenge: bool) -> Response {
    if state.payments.config().paykassma.as_ref().is_none_or(|k| k.plugin_url.is_some()) {
        return html(StatusCode::NOT_FOUND, pages::not_found_page(&q.lang));
    }
    let currency: Option<Currency> = q.currency_code.parse().ok();
    let Some(currency) = currency else {
        return html(StatusCode::NOT_FOUND, pages::not_found_page(&q.lang));
    };
    let esc = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    let hidden = format!(
        "<input type=\"hidden\" name=\"lang\" value=\"{}\"><input type=\"hidden\" name=\"label\" value=\"{}\">\
         <input type=\"hidden\" name=\"currency_code\" value=\"{}\"><input type=\"hidden\" name=\"custom_transaction_id\" value=\"{}\">\
         <input type=\"hidden\" name=\"fixed_amount\" value=\"{}\">",
        pages::lang_code(&q.lang),
        esc(&q.label),
        currency.code(),
        esc(&q.custom_transaction_id),
        esc(&q.fixed_amount)
    );
    // The amount in the app's number format for the page's language (as the sandbox's page).
    let amount = match kernel::money::parse_major(&q.fixed_amount, currency) {
        Ok(minor) => pages::amount_row(&q.lang, "Paykassma", minor, currency),
        Err(_) => format!("<p class=\"amount\"><span>Paykassma</span> <bdi>{} {}</bdi></p>", esc(&q.fixed_amount), currency.code()),
    };
    if challenge {
        return html(StatusCode::OK, pages::challenge_page(&q.lang, &amount, "/pay/paykassma/plugin", &hidden));
    }
    html(StatusCode::OK, pages::card_form(&q.lang, &amount, "", "/pay/paykassma/plugin", &hidden))
}

/// The emulated plugin's payment: a Paykassma-style postback is queued to our callback.
async fn paykassma_plugin_pay(State(state): State<AppState>, RawBody(body): RawBody) -> Response {
    let f = form(&body);
    let shared = state.payments.shared();
    let (Ok(user_id), Ok(intent_id), Ok(currency)) = (f.label.parse::<i64>(), f.custom_transaction_id.parse::<i64>(), f.currency_code.parse::<Currency>()) else {
        return html(StatusCode::NOT_FOUND, pages::not_found_page(&f.lang));
    };
    if state.payments.config().paykassma.as_ref().is_none_or(|k| k.plugin_url.is_some()) {
        return html(StatusCode::NOT_FOUND, pages::not_found_page(&f.lang));
    }
    let card: String = f.card.chars().filter(|c| c.is_ascii_digit()).collect();
    // The test cards of the sandbox's page: 3220 asks for the confirmation step first.
    let succeeded = match (f.action.as_str(), card.as_str()) {
        ("cancel", _) => false,
        ("confirm", _) => true,
        (_, payments::sandbox::CARD_DECLINED) => false,
        (_, c) if c.len() >= 12 && c != payments::sandbox::CARD_3DS => true,
        (_, c) => {
            let challenge = c == payments::sandbox::CARD_3DS;
            let q = PluginQuery { label: f.label, currency_code: f.currency_code, lang: f.lang, custom_transaction_id: f.custom_transaction_id, fixed_amount: f.fixed_amount };
            return plugin_page(&state, q, challenge);
        }
    };
    match payments::paykassma::emulated_deposit(shared, user_id, intent_id, &f.fixed_amount, currency, succeeded).await {
        Ok(reference) => match payments::sandbox::payment(shared, &reference).await {
            Ok(Some(p)) => html(StatusCode::OK, pages::result_page(&p, &f.lang)),
            _ => html(StatusCode::NOT_FOUND, pages::not_found_page(&f.lang)),
        },
        Err(e) => ApiError(e).into_response(),
    }
}

/// The emulation's `POST /v2/withdrawal/create` (demo mode only).
async fn paykassma_emulated_withdrawal(State(state): State<AppState>, RawBody(body): RawBody) -> Response {
    if state.payments.config().paykassma.as_ref().is_none_or(|k| k.api_url.is_some()) {
        return ApiError(AppError::new(ErrorCode::NotFound)).into_response();
    }
    let reply = payments::paykassma::emulated_withdrawal(state.payments.shared(), &body).await;
    paykassma_reply(StatusCode::OK, reply.to_string())
}

async fn page_css() -> Response {
    let mut r = pages::PAGE_CSS.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/css; charset=utf-8"));
    r
}

async fn page_js() -> Response {
    let mut r = pages::PAGE_JS.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"));
    r
}
