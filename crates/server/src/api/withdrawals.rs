//! The console's withdrawal queue (issue 22; docs/BACKOFFICE.md "Money queues"): withdrawals
//! above `WITHDRAWAL_REVIEW_ABOVE` wait, held, for a staff member (admin, finance) to approve
//! or reject them with a reason (`payments::review`), each decision audited in its own
//! transaction. Every row carries the player's risk signals.

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, PathParam, QueryParams};
use super::staff::{perm, valid_reason, Staff};
use crate::app::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::Router;
use kernel::clock::{now_ms, DAY_MS};
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode};
use payments::model::{Intent, IntentStatus};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/payments/withdrawals", get(list))
        .route("/api/admin/payments/withdrawals/{id}/approve", post(approve))
        .route("/api/admin/payments/withdrawals/{id}/reject", post(reject))
        .route("/api/admin/payments/withdrawals/decide", post(decide))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RiskSignals {
    /// Days since the player signed up.
    pub account_age_days: i64,
    /// Succeeded deposits and withdrawals through providers, in the withdrawal's currency.
    pub deposited: MajorUnits,
    pub withdrawn: MajorUnits,
    /// Withdrawals asked in the last 24 hours, this one included.
    pub withdrawals_24h: i64,
    /// The most other accounts seen at one of the player's addresses (multi-accounting).
    pub other_accounts_at_addresses: i64,
    /// An open bonus (its wagering not done).
    pub open_bonus: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WithdrawalRow {
    pub id: i64,
    pub user_id: i64,
    pub player: String,
    pub amount: MajorUnits,
    pub currency: String,
    pub provider: String,
    pub phone: Option<String>,
    /// `review` (waiting), `created`/`pending` (approved, at the provider), `failed`
    /// (rejected: `failureReason`), `cancelled` (by the player), `succeeded`.
    pub status: String,
    pub failure_reason: Option<String>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    pub signals: RiskSignals,
}

async fn row(state: &AppState, i: &Intent) -> Result<WithdrawalRow, AppError> {
    let user = state.accounts.user_by_id(i.user_id).await?.ok_or(ErrorCode::NoSuchUser)?;
    let paid = state.payments.payment_signals(i).await?;
    let devices = state.accounts.devices(i.user_id, 20).await?;
    let open_bonus = state.promotions.bonuses(i.user_id).await?.iter().any(|b| matches!(b.status.as_str(), "queued" | "active" | "met"));
    Ok(WithdrawalRow {
        id: i.id,
        user_id: i.user_id,
        player: user.login(),
        amount: MajorUnits::new(i.amount, i.currency),
        currency: i.currency.code().to_string(),
        provider: i.provider.clone(),
        phone: i.phone.clone(),
        status: i.status.as_str().to_string(),
        failure_reason: i.failure_reason.clone(),
        created_at: i.created_at,
        signals: RiskSignals {
            account_age_days: (now_ms() - user.created_at).max(0) / DAY_MS,
            deposited: MajorUnits::new(paid.deposited, i.currency),
            withdrawn: MajorUnits::new(paid.withdrawn, i.currency),
            withdrawals_24h: paid.withdrawals_24h,
            other_accounts_at_addresses: devices.iter().map(|d| d.other_accounts).max().unwrap_or(0),
            open_bonus,
        },
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QueueQuery {
    /// `review` (default: the queue), `created`, `pending`, `succeeded`, `failed`,
    /// `cancelled`.
    pub status: Option<String>,
}

/// Withdrawals in a status, oldest first (at most 100), with the players' risk signals
/// (admin, finance).
#[utoipa::path(get, path = "/api/admin/payments/withdrawals", tag = "admin", params(QueueQuery),
    responses((status = 200, body = Envelope<Vec<WithdrawalRow>>), (status = "default", description = "23, 24 not admin or finance, 47 unknown status", body = ErrorEnvelope)))]
pub async fn list(State(state): State<AppState>, _staff: Staff<perm::WithdrawalsDecide>, QueryParams(q): QueryParams<QueueQuery>) -> ApiResult<Vec<WithdrawalRow>> {
    let status = match q.status.as_deref() {
        None => IntentStatus::Review,
        Some(s) => IntentStatus::parse(s).ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "status"))?,
    };
    let mut out = Vec::new();
    for i in state.payments.withdrawals(status, 100).await? {
        out.push(row(&state, &i).await?);
    }
    ok(out)
}

/// Approves a withdrawal waiting for staff: it goes to the provider (admin, finance).
#[utoipa::path(post, path = "/api/admin/payments/withdrawals/{id}/approve", tag = "admin", params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<WithdrawalRow>), (status = "default", description = "23, 24 not admin or finance, 40 bad id, 85 no such withdrawal, 141 not waiting (decided or cancelled)", body = ErrorEnvelope)))]
pub async fn approve(State(state): State<AppState>, staff: Staff<perm::WithdrawalsDecide>, PathParam(id): PathParam<i64>) -> ApiResult<WithdrawalRow> {
    let intent = state.payments.approve_withdrawal(id, &staff.actor).await?;
    ok(row(&state, &intent).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WithdrawalRejectRequest {
    /// Why (1 to 500 characters): the player sees it as the failure's reason; audited.
    pub reason: String,
}

/// Rejects a withdrawal waiting for staff: the held money returns to the player's balance
/// (admin, finance).
#[utoipa::path(post, path = "/api/admin/payments/withdrawals/{id}/reject", tag = "admin", params(("id" = i64, Path)), request_body = WithdrawalRejectRequest,
    responses((status = 200, body = Envelope<WithdrawalRow>), (status = "default", description = "23, 24 not admin or finance, 40 bad id, 47 reason, 85 no such withdrawal, 141 not waiting", body = ErrorEnvelope)))]
pub async fn reject(State(state): State<AppState>, staff: Staff<perm::WithdrawalsDecide>, PathParam(id): PathParam<i64>, JsonBody(req): JsonBody<WithdrawalRejectRequest>) -> ApiResult<WithdrawalRow> {
    let reason = valid_reason(&req.reason)?;
    let intent = state.payments.reject_withdrawal(id, &staff.actor, reason).await?;
    ok(row(&state, &intent).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DecideRequest {
    /// 1 to 100 withdrawals (a repeated id is decided once).
    pub ids: Vec<i64>,
    /// `approve` or `reject`.
    pub decision: String,
    /// Required to reject (1 to 500 characters), the same for every withdrawal.
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DecideOutcome {
    pub id: i64,
    /// 0 decided; otherwise the refusal's code for this one (85, 141…), the others going on.
    pub status: i64,
    pub error_message: Option<String>,
    pub withdrawal: Option<WithdrawalRow>,
}

/// Approves or rejects several withdrawals waiting for staff (admin, finance), each on its
/// own exactly as one at a time — one refused does not stop the others.
#[utoipa::path(post, path = "/api/admin/payments/withdrawals/decide", tag = "admin", request_body = DecideRequest,
    responses((status = 200, body = Envelope<Vec<DecideOutcome>>), (status = "default", description = "23, 24 not admin or finance, 47 ids, decision or reason", body = ErrorEnvelope)))]
pub async fn decide(State(state): State<AppState>, staff: Staff<perm::WithdrawalsDecide>, JsonBody(req): JsonBody<DecideRequest>) -> ApiResult<Vec<DecideOutcome>> {
    let mut ids = req.ids.clone();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() || ids.len() > 100 {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "ids: 1 to 100").into());
    }
    let reject = match req.decision.as_str() {
        "approve" => None,
        "reject" => Some(valid_reason(req.reason.as_deref().unwrap_or(""))?),
        _ => return Err(AppError::with_detail(ErrorCode::InvalidField, "decision: approve or reject").into()),
    };
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let decided = match reject {
            None => state.payments.approve_withdrawal(id, &staff.actor).await,
            Some(reason) => state.payments.reject_withdrawal(id, &staff.actor, reason).await,
        };
        out.push(match decided {
            Ok(intent) => DecideOutcome { id, status: 0, error_message: None, withdrawal: Some(row(&state, &intent).await?) },
            Err(e) => DecideOutcome { id, status: i64::from(e.code.code()), error_message: Some(e.text()), withdrawal: None },
        });
    }
    ok(out)
}
