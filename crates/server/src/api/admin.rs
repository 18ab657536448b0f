//! Back-office (admin and finance): manual, audited balance adjustments. The same ledger
//! operation as `carthage wallet adjust`.

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, PathParam, QueryParams};
use crate::adjustments::{self, AdjustRequestView, Adjusted};
use crate::app::AppState;
use super::staff::{perm, Staff};
use axum::extract::State;
use axum::routing::{get, post};
use axum::Router;
use kernel::money::{parse_major, MajorUnits};
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::{IntoParams, ToSchema};
use wallet::BalanceKind;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/wallet/adjust", post(adjust))
        .route("/api/admin/wallet/adjust-requests", get(list_requests))
        .route("/api/admin/wallet/adjust-requests/{id}/approve", post(approve))
        .route("/api/admin/wallet/adjust-requests/{id}/reject", post(reject))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustRequest {
    pub user_id: i64,
    /// real, bonus, free_bet, cashback, weekly_cashback or points.
    pub kind: String,
    /// Signed decimal text in major units of the user's currency, e.g. "12.500" or "-3".
    pub amount: String,
    pub reason: String,
    /// Retry-safe: the same key answers the original result.
    pub idempotency_key: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustReply {
    /// `done` (posted) or `pending` (above the four-eyes amount: `request` waits for a second
    /// staff member; nothing moved).
    pub status: String,
    /// The adjustment's ledger transaction (done).
    pub transaction_id: Option<i64>,
    pub replayed: bool,
    pub kind: String,
    pub currency: String,
    /// The balance after the adjustment (done).
    pub balance: Option<MajorUnits>,
    pub request: Option<AdjustRequestView>,
}

/// Credits (positive) or debits (negative) a player's balance, audited.
#[utoipa::path(post, path = "/api/admin/wallet/adjust", tag = "admin", request_body = AdjustRequest,
    responses((status = 200, body = Envelope<AdjustReply>),
              (status = "default", description = "3 no such user, 23 not signed in, 24 not admin or finance, 26 key reused, 40/47 invalid, 501/506/507 insufficient (above ADJUST_FOUR_EYES_ABOVE: a pending request, nothing moves)", body = ErrorEnvelope)))]
pub async fn adjust(State(state): State<AppState>, staff: Staff<perm::MoneyAdjust>, JsonBody(req): JsonBody<AdjustRequest>) -> ApiResult<AdjustReply> {
    let actor = staff.actor.clone();
    let kind = BalanceKind::from_str(&req.kind).map_err(|_| AppError::with_detail(ErrorCode::InvalidField, "kind: unknown balance kind"))?;
    let key = req.idempotency_key.trim();
    if key.is_empty() || key.len() > 100 {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "idempotencyKey: 1 to 100 characters").into());
    }
    if req.reason.trim().is_empty() || req.reason.len() > 500 {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "reason: 1 to 500 characters").into());
    }
    let user = state.accounts.user_by_id(req.user_id).await?.ok_or(ErrorCode::NoSuchUser)?;
    let amount = parse_major(&req.amount, user.currency)
        .ok()
        .filter(|a| *a != 0)
        .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "amount: a non-zero decimal in the user's currency"))?;
    let reply = match adjustments::adjust(&state, &user, kind, amount, req.reason.trim(), key, staff.session.user.id, &actor).await? {
        Adjusted::Posted(receipt) => AdjustReply {
            status: "done".into(),
            transaction_id: Some(receipt.tx_id),
            replayed: receipt.replayed,
            kind: kind.as_str().to_string(),
            currency: user.currency.code().to_string(),
            balance: Some(MajorUnits::new(receipt.balance_after(user.id, kind).unwrap_or(0), user.currency)),
            request: None,
        },
        Adjusted::Requested { request, replayed } => AdjustReply {
            status: "pending".into(),
            transaction_id: None,
            replayed,
            kind: kind.as_str().to_string(),
            currency: user.currency.code().to_string(),
            balance: None,
            request: Some(request),
        },
    };
    ok(reply)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RequestsQuery {
    /// pending, approved or rejected (all when absent).
    pub status: Option<String>,
}

/// Four-eyes adjustment requests, newest first (admin, finance).
#[utoipa::path(get, path = "/api/admin/wallet/adjust-requests", tag = "admin", params(RequestsQuery),
    responses((status = 200, body = Envelope<Vec<AdjustRequestView>>), (status = "default", description = "23 not signed in, 24 not admin or finance, 47 unknown status", body = ErrorEnvelope)))]
pub async fn list_requests(State(state): State<AppState>, _staff: Staff<perm::MoneyAdjust>, QueryParams(q): QueryParams<RequestsQuery>) -> ApiResult<Vec<AdjustRequestView>> {
    let status = q.status.as_deref().map(str::trim).filter(|s| !s.is_empty());
    if status.is_some_and(|s| !["pending", "approved", "rejected"].contains(&s)) {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "status: pending, approved or rejected").into());
    }
    ok(adjustments::list(&state, status).await?)
}

/// Approves a four-eyes request: the adjustment posts and the request is approved in one
/// transaction (admin, finance; never the requester).
#[utoipa::path(post, path = "/api/admin/wallet/adjust-requests/{id}/approve", tag = "admin", params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<AdjustRequestView>),
              (status = "default", description = "23, 24 not admin or finance, 40 bad id, 43 no such request, 140 the requester's own request, 141 already decided, 501/506/507 insufficient", body = ErrorEnvelope)))]
pub async fn approve(State(state): State<AppState>, staff: Staff<perm::MoneyAdjust>, PathParam(id): PathParam<i64>) -> ApiResult<AdjustRequestView> {
    ok(adjustments::approve(&state, id, staff.session.user.id, &staff.actor).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RejectRequest {
    /// Why (1 to 500 characters).
    pub note: String,
}

/// Rejects a four-eyes request (admin, finance; the requester may withdraw their own).
#[utoipa::path(post, path = "/api/admin/wallet/adjust-requests/{id}/reject", tag = "admin", params(("id" = i64, Path)), request_body = RejectRequest,
    responses((status = 200, body = Envelope<AdjustRequestView>),
              (status = "default", description = "23, 24 not admin or finance, 40 bad id, 43 no such request, 47 note, 141 already decided", body = ErrorEnvelope)))]
pub async fn reject(State(state): State<AppState>, staff: Staff<perm::MoneyAdjust>, PathParam(id): PathParam<i64>, JsonBody(req): JsonBody<RejectRequest>) -> ApiResult<AdjustRequestView> {
    let note = req.note.trim();
    if note.is_empty() || note.len() > 500 {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "note: 1 to 500 characters").into());
    }
    ok(adjustments::reject(&state, id, staff.session.user.id, &staff.actor, note).await?)
}
