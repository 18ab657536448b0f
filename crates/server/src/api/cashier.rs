//! The cashier network, player side (docs/PAYMENTS.md "Cashier network (player side)"):
//! the cashier list, cashier withdrawal requests, their history and cancellation.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, QueryParams, Session};
use crate::app::AppState;
use accounts::Role;
use axum::extract::State;
use axum::routing::{get, post};
use axum::Router;
use kernel::clock::{now_ms, parse_bound, to_rfc3339, DAY_MS};
use kernel::money::{parse_major, MajorUnits};
use kernel::{AppError, Currency, ErrorCode, Minor};
use payments::cashier::{HistoryQuery, Withdrawal, WithdrawalStatus};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/payment/cashiers", get(cashiers))
        .route("/api/payment/cashier_withdrawal_request", post(request))
        .route("/api/payment/cashier_withdrawal_request/history", get(history))
        .route("/api/payment/cashier_withdrawal_request/cancel", post(cancel))
}

/// Spec §3 cashier option.
#[derive(Debug, Serialize, ToSchema)]
pub struct CashierReply {
    pub id: i64,
    /// First name, address and phone joined.
    pub name: String,
    pub first_name: String,
    pub address: String,
    pub phone: String,
}

/// An amount in major units as a JSON number (at most the currency's decimals).
pub fn amount_of(n: &serde_json::Number, currency: Currency) -> Result<Minor, ApiError> {
    parse_major(&n.to_string(), currency)
        .ok()
        .filter(|a| *a > 0)
        .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "amount: a positive number with at most the currency's decimals").into())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CashierWithdrawalRequest {
    /// Major units of the player's currency.
    #[schema(value_type = f64)]
    pub amount: serde_json::Number,
    /// The cashier the player will collect the cash from (any cashier when absent).
    pub cashier_id: Option<i64>,
}

/// One cashier withdrawal (spec §3 cashier withdrawal entry).
#[derive(Debug, Serialize, ToSchema)]
pub struct CashierWithdrawalReply {
    pub id: i64,
    /// When it was requested (RFC 3339).
    pub date: String,
    pub created_at: String,
    pub amount: MajorUnits,
    pub currency: String,
    /// CREATED (pending), PAID (completed) or CANCELED (rejected).
    pub status: String,
    pub cancel_reason: Option<String>,
    /// The one-time payout code while CREATED; null once paid or cancelled.
    pub code: Option<String>,
    /// The chosen cashier's name, if one was chosen.
    pub cashier: Option<String>,
    pub cashier_id: Option<i64>,
}

impl From<Withdrawal> for CashierWithdrawalReply {
    fn from(w: Withdrawal) -> Self {
        CashierWithdrawalReply {
            id: w.id,
            date: to_rfc3339(w.created_at),
            created_at: to_rfc3339(w.created_at),
            amount: MajorUnits::new(w.amount, w.currency),
            currency: w.currency.code().to_string(),
            status: w.status.as_str().to_string(),
            cancel_reason: w.cancel_reason,
            code: w.code,
            cashier: w.cashier_name,
            cashier_id: w.cashier_id,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WithdrawalHistoryQuery {
    /// Page size, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub count: Option<i64>,
    /// Page number from 0 (default 0).
    #[param(minimum = 0, maximum = 100000)]
    pub page: Option<i64>,
    /// Start (a date or RFC 3339). Default: 90 days ago.
    pub date_from: Option<String>,
    /// End (a date includes that whole day). Default: now.
    pub date_to: Option<String>,
    /// `all` (default) or a comma list of CREATED, PAID, CANCELED.
    pub statuses: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WithdrawalHistoryReply {
    pub items: Vec<CashierWithdrawalReply>,
    pub total: i64,
    pub pages: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CancelRequest {
    pub id: i64,
}

fn player_only(session: &Session) -> Result<(), ApiError> {
    if session.user.role != Role::Player {
        return Err(ErrorCode::Forbidden.into());
    }
    Ok(())
}

/// The cashiers a player may collect a withdrawal from, in the order of spec §9.
#[utoipa::path(get, path = "/api/payment/cashiers", tag = "cashier",
    responses((status = 200, body = Envelope<Vec<CashierReply>>)))]
pub async fn cashiers(State(state): State<AppState>) -> ApiResult<Vec<CashierReply>> {
    let list = state.cashier.cashiers().await?;
    ok(list
        .into_iter()
        .map(|c| CashierReply { id: c.id, name: c.name, first_name: c.first_name, address: c.address, phone: c.phone })
        .collect())
}

/// Requests a cashier withdrawal: the amount is held at once and a one-time payout code is
/// sent by SMS (and shown in the history) to give at the cashier.
#[utoipa::path(post, path = "/api/payment/cashier_withdrawal_request", tag = "cashier", request_body = CashierWithdrawalRequest,
    responses((status = 200, body = Envelope<CashierWithdrawalReply>),
              (status = "default", description = "23 not signed in, 24 not a player, 40/47 invalid amount, 84 above the maximum, 95 no such cashier, 106 below the minimum, 508 insufficient funds, 6252 wagering", body = ErrorEnvelope)))]
pub async fn request(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<CashierWithdrawalRequest>) -> ApiResult<CashierWithdrawalReply> {
    player_only(&session)?;
    let player = state.cashier.player(session.user.id).await?;
    let amount = amount_of(&req.amount, player.currency)?;
    let settings = state.content.settings().await?;
    let w = state.cashier.request_withdrawal(&player, amount, req.cashier_id, &settings).await?;
    ok(w.into())
}

/// The player's cashier withdrawals, newest first (spec §3 cashier history query).
#[utoipa::path(get, operation_id = "cashier_withdrawal_history", path = "/api/payment/cashier_withdrawal_request/history", tag = "cashier", params(WithdrawalHistoryQuery),
    responses((status = 200, body = Envelope<WithdrawalHistoryReply>),
              (status = "default", description = "23 not signed in, 40 bad paging, 46 invalid range, 47 unknown status", body = ErrorEnvelope)))]
pub async fn history(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<WithdrawalHistoryQuery>) -> ApiResult<WithdrawalHistoryReply> {
    let count = q.count.unwrap_or(20);
    let page = q.page.unwrap_or(0);
    if !(1..=100).contains(&count) || !(0..=100_000).contains(&page) {
        return Err(super::envelope::bad_request("count must be 1 to 100 and page 0 to 100000"));
    }
    let (from_ms, to_ms) = range(&q.date_from, &q.date_to, 90)?;
    let statuses = match q.statuses.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => vec![],
        Some(s) if s.eq_ignore_ascii_case("all") => vec![],
        Some(s) => s
            .split(',')
            .map(|p| WithdrawalStatus::parse(&p.trim().to_ascii_uppercase()).filter(|v| WithdrawalStatus::VISIBLE.contains(v)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "statuses: all, or a comma list of CREATED, PAID, CANCELED"))?,
    };
    let page = state.cashier.history(session.user.id, &HistoryQuery { count, page, from_ms, to_ms, statuses }).await?;
    ok(WithdrawalHistoryReply { items: page.items.into_iter().map(Into::into).collect(), total: page.total, pages: page.pages })
}

/// A date range of a query: `[from, to)` in epoch ms (46 when unreadable or reversed).
pub fn range(from: &Option<String>, to: &Option<String>, default_days: i64) -> Result<(i64, i64), ApiError> {
    let now = now_ms();
    let bound = |v: &Option<String>, end: bool, default: i64| -> Result<i64, ApiError> {
        match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(default),
            Some(text) => parse_bound(text, end).ok_or_else(|| ApiError(AppError::new(ErrorCode::InvalidDateRange))),
        }
    };
    let from_ms = bound(from, false, now - default_days * DAY_MS)?;
    let to_ms = bound(to, true, now + 1)?;
    if to_ms < from_ms {
        return Err(ErrorCode::InvalidDateRange.into());
    }
    Ok((from_ms, to_ms))
}

/// Cancels a pending (CREATED) cashier withdrawal: the held amount returns to the balance.
#[utoipa::path(post, path = "/api/payment/cashier_withdrawal_request/cancel", tag = "cashier", request_body = CancelRequest,
    responses((status = 200, body = Envelope<CashierWithdrawalReply>),
              (status = "default", description = "23 not signed in, 40 malformed, 98 not found, 99 no longer pending", body = ErrorEnvelope)))]
pub async fn cancel(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<CancelRequest>) -> ApiResult<CashierWithdrawalReply> {
    let w = state.cashier.cancel_withdrawal(session.user.id, req.id).await?;
    ok(w.into())
}
