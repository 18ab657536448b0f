//! Back-office (admin and finance): manual, audited balance adjustments. The same ledger
//! operation as `carthage wallet adjust`.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::JsonBody;
use crate::app::AppState;
use super::staff::{perm, Staff};
use axum::extract::State;
use axum::routing::post;
use axum::Router;
use kernel::money::{parse_major, MajorUnits};
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::ToSchema;
use wallet::BalanceKind;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/admin/wallet/adjust", post(adjust))
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
    pub transaction_id: i64,
    pub replayed: bool,
    pub kind: String,
    pub currency: String,
    /// The balance after the adjustment.
    pub balance: MajorUnits,
}

/// Credits (positive) or debits (negative) a player's balance, audited.
#[utoipa::path(post, path = "/api/admin/wallet/adjust", tag = "admin", request_body = AdjustRequest,
    responses((status = 200, body = Envelope<AdjustReply>),
              (status = "default", description = "3 no such user, 23 not signed in, 24 not admin or finance, 26 key reused, 40/47 invalid, 501/506/507 insufficient", body = ErrorEnvelope)))]
pub async fn adjust(State(state): State<AppState>, staff: Staff<perm::MoneyAdjust>, JsonBody(req): JsonBody<AdjustRequest>) -> ApiResult<AdjustReply> {
    let actor = staff.actor;
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
    let receipt = state
        .ledger
        .adjust(user.id, user.currency, kind, amount, &actor, req.reason.trim(), format!("admin-adjust:{key}"))
        .await
        .map_err(ApiError::from)?;
    ok(AdjustReply {
        transaction_id: receipt.tx_id,
        replayed: receipt.replayed,
        kind: kind.as_str().to_string(),
        currency: user.currency.code().to_string(),
        balance: MajorUnits::new(receipt.balance_after(user.id, kind).unwrap_or(0), user.currency),
    })
}
