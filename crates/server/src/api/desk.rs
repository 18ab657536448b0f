//! The cashier desk API (docs/PAYMENTS.md "Cashier desk API"). Every call resolves the
//! signed-in user to a desk identity first ([`payments::cashier::Cashier::staff`]): a
//! cashier (role 2) or a super agent (3); anyone else gets 24.

use super::cashier::{amount_of, range, CashierWithdrawalReply};
use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, QueryParams, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::routing::{get, post};
use axum::Router;
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode};
use payments::cashier::{FloatDirection, Staff};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/desk/me", get(me))
        .route("/api/desk/player", get(player))
        .route("/api/desk/deposit", post(deposit))
        .route("/api/desk/payout", post(payout))
        .route("/api/desk/report", get(report))
        .route("/api/desk/cashiers", get(cashiers))
        .route("/api/desk/float", post(move_float))
}

async fn staff(state: &AppState, session: &Session) -> Result<Staff, AppError> {
    state.cashier.staff(session.user.id).await
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeskMe {
    pub id: i64,
    /// `cashier` or `super_agent`.
    pub role: String,
    pub name: String,
    pub currency: String,
    pub float: MajorUnits,
}

/// Who is at the desk, with the float.
#[utoipa::path(get, path = "/api/desk/me", tag = "desk",
    responses((status = 200, body = Envelope<DeskMe>), (status = "default", description = "23 not signed in, 24 not a cashier or super agent", body = ErrorEnvelope)))]
pub async fn me(State(state): State<AppState>, session: Session) -> ApiResult<DeskMe> {
    let s = staff(&state, &session).await?;
    let float = state.cashier.float(&s).await?;
    ok(DeskMe {
        id: s.id,
        role: if s.is_super_agent() { "super_agent" } else { "cashier" }.into(),
        name: s.name.clone(),
        currency: s.currency.code().into(),
        float: MajorUnits::new(float, s.currency),
    })
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlayerQuery {
    /// A player id or phone number.
    pub query: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeskPlayer {
    pub id: i64,
    /// The player's login, masked (`a***@g***.com` or `+216 ** *** 456`).
    pub login: String,
    /// The player's phone, masked (`+216 ** *** 456`).
    pub phone: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub currency: String,
}

/// Finds a player by id or phone. The e-mail and phone come masked (`a***@g***.com`,
/// `+216 ** *** 456`); a desk's searches are throttled (14 with `retryAfterSeconds`).
#[utoipa::path(get, path = "/api/desk/player", tag = "desk", params(PlayerQuery),
    responses((status = 200, body = Envelope<DeskPlayer>), (status = "default", description = "14 too many searches, 23, 24, 40 no query, 111 no such player", body = ErrorEnvelope)))]
pub async fn player(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<PlayerQuery>) -> ApiResult<DeskPlayer> {
    let s = staff(&state, &session).await?;
    let p = state.cashier.desk_lookup(&s, &q.query).await?;
    ok(DeskPlayer { id: p.id, login: p.login, phone: p.phone, first_name: p.first_name, last_name: p.last_name, currency: p.currency.code().into() })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DeskDepositRequest {
    pub player_id: i64,
    /// Major units of the desk's currency.
    #[schema(value_type = f64)]
    pub amount: serde_json::Number,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeskDepositReply {
    pub tx_id: i64,
    /// The desk's float after the deposit.
    pub float: MajorUnits,
    pub player_id: i64,
    pub amount: MajorUnits,
    /// True when this answers an earlier request with the same Idempotency-Key.
    pub replayed: bool,
}

/// The request's `Idempotency-Key` (1 to 100 characters), required by the desk's money calls.
/// Without the header: 40 (HTTP 400); with one that is empty, longer than 100 characters or
/// not visible ASCII: 47.
pub(crate) fn client_key(parts: &Parts) -> Result<String, AppError> {
    let value = parts
        .headers
        .get("idempotency-key")
        .ok_or_else(|| AppError::with_detail(ErrorCode::BadRequest, "the Idempotency-Key header is required"))?;
    value
        .to_str()
        .ok()
        .map(str::trim)
        .filter(|k| !k.is_empty() && k.len() <= 100)
        .map(str::to_string)
        .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "Idempotency-Key: 1 to 100 visible characters"))
}

/// Cash deposited at the desk: the desk's float → the player's balance (type 114).
#[utoipa::path(post, operation_id = "desk_deposit", path = "/api/desk/deposit", tag = "desk", request_body = DeskDepositRequest,
    params(("Idempotency-Key" = String, Header, description = "A retry with the same key answers the same deposit")),
    responses((status = 200, body = Envelope<DeskDepositReply>),
              (status = "default", description = "23, 24, 26 key reused, 40 malformed or no key, 47 invalid amount or key, 67 currency, 110 float too low, 111 no such player", body = ErrorEnvelope)))]
pub async fn deposit(State(state): State<AppState>, session: Session, parts: Parts, JsonBody(req): JsonBody<DeskDepositRequest>) -> ApiResult<DeskDepositReply> {
    let s = staff(&state, &session).await?;
    let key = client_key(&parts)?;
    let amount = amount_of(&req.amount, s.currency)?;
    let receipt = state.cashier.cash_deposit(&s, req.player_id, amount, &key).await?;
    let float = state.cashier.float(&s).await?;
    ok(DeskDepositReply {
        tx_id: receipt.tx_id,
        float: MajorUnits::new(float, s.currency),
        player_id: req.player_id,
        amount: MajorUnits::new(amount, s.currency),
        replayed: receipt.replayed,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PayoutRequest {
    /// The player's 8-digit payout code.
    pub code: String,
}

/// Pays a cashier withdrawal in cash against its code: the held amount goes to the desk's float.
#[utoipa::path(post, path = "/api/desk/payout", tag = "desk", request_body = PayoutRequest,
    responses((status = 200, body = Envelope<CashierWithdrawalReply>),
              (status = "default", description = "23, 24, 40, 67 currency, 96 wrong or no longer payable code, 97 another cashier's, 113 too many wrong codes", body = ErrorEnvelope)))]
pub async fn payout(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<PayoutRequest>) -> ApiResult<CashierWithdrawalReply> {
    let s = staff(&state, &session).await?;
    let w = state.cashier.payout(&s, &req.code).await?;
    ok(w.into())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportQuery {
    /// Start (a date or RFC 3339). Default: the last 24 hours.
    pub date_from: Option<String>,
    /// End (a date includes that whole day). Default: now.
    pub date_to: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReportLineReply {
    pub count: i64,
    pub amount: MajorUnits,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeskReportReply {
    pub currency: String,
    pub deposits: ReportLineReply,
    pub payouts: ReportLineReply,
    /// Cash the till gained: deposits − payouts.
    pub net: MajorUnits,
    pub float: MajorUnits,
}

/// The desk's shift report for a date range.
#[utoipa::path(get, path = "/api/desk/report", tag = "desk", params(ReportQuery),
    responses((status = 200, body = Envelope<DeskReportReply>), (status = "default", description = "23, 24, 46 invalid range", body = ErrorEnvelope)))]
pub async fn report(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<ReportQuery>) -> ApiResult<DeskReportReply> {
    let s = staff(&state, &session).await?;
    let (from_ms, to_ms) = range(&q.date_from, &q.date_to, 1)?;
    let r = state.cashier.report(&s, from_ms, to_ms).await?;
    let c = r.currency;
    ok(DeskReportReply {
        currency: c.code().into(),
        deposits: ReportLineReply { count: r.deposits.count, amount: MajorUnits::new(r.deposits.amount, c) },
        payouts: ReportLineReply { count: r.payouts.count, amount: MajorUnits::new(r.payouts.amount, c) },
        net: MajorUnits::new(r.net, c),
        float: MajorUnits::new(r.float, c),
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeskCashier {
    pub id: i64,
    pub name: String,
    pub currency: String,
    pub float: MajorUnits,
}

/// A super agent's cashiers with their floats.
#[utoipa::path(get, operation_id = "desk_cashiers", path = "/api/desk/cashiers", tag = "desk",
    responses((status = 200, body = Envelope<Vec<DeskCashier>>), (status = "default", description = "23, 24 not a super agent", body = ErrorEnvelope)))]
pub async fn cashiers(State(state): State<AppState>, session: Session) -> ApiResult<Vec<DeskCashier>> {
    let s = staff(&state, &session).await?;
    let list = state.cashier.agent_cashiers(&s).await?;
    ok(list.into_iter().map(|c| DeskCashier { id: c.id, name: c.name, currency: c.currency.code().into(), float: MajorUnits::new(c.float, c.currency) }).collect())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FloatRequest {
    pub cashier_id: i64,
    #[schema(value_type = f64)]
    pub amount: serde_json::Number,
    /// `to_cashier` or `from_cashier`.
    pub direction: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FloatReply {
    pub tx_id: i64,
    /// The super agent's float after the move.
    pub float: MajorUnits,
    pub cashier_id: i64,
    pub cashier_float: MajorUnits,
    pub replayed: bool,
}

/// A super agent moves float to or from one of its cashiers (type 209).
#[utoipa::path(post, path = "/api/desk/float", tag = "desk", request_body = FloatRequest,
    params(("Idempotency-Key" = String, Header, description = "A retry with the same key answers the same move")),
    responses((status = 200, body = Envelope<FloatReply>),
              (status = "default", description = "23, 24 not a super agent, 26 key reused, 40 malformed or no key, 47 invalid amount, direction or key, 67 currency, 110 float too low, 112 not your cashier", body = ErrorEnvelope)))]
pub async fn move_float(State(state): State<AppState>, session: Session, parts: Parts, JsonBody(req): JsonBody<FloatRequest>) -> ApiResult<FloatReply> {
    let s = staff(&state, &session).await?;
    if !s.is_super_agent() {
        return Err(ErrorCode::Forbidden.into());
    }
    let key = client_key(&parts)?;
    let direction = FloatDirection::parse(&req.direction)
        .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "direction: to_cashier or from_cashier"))?;
    let amount = amount_of(&req.amount, s.currency)?;
    let receipt = state.cashier.move_float(&s, req.cashier_id, amount, direction, &key).await?;
    let float = state.cashier.float(&s).await?;
    let cashier_float = state.ledger.balance(req.cashier_id, wallet::BalanceKind::Float, s.currency).await?;
    ok(FloatReply {
        tx_id: receipt.tx_id,
        float: MajorUnits::new(float, s.currency),
        cashier_id: req.cashier_id,
        cashier_float: MajorUnits::new(cashier_float, s.currency),
        replayed: receipt.replayed,
    })
}
