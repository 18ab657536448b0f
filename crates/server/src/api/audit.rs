//! The staff audit trail (issue 22; `store::audit`): browse it newest first and check its
//! chain (admin, support, finance). Read-only: the trail is written by the actions themselves, in their own
//! transactions.

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::QueryParams;
use crate::app::AppState;
use super::staff::{perm, Staff};
use axum::extract::State;
use axum::routing::get;
use axum::Router;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/admin/audit", get(list)).route("/api/admin/audit/verify", get(verify))
}


#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AuditQuery {
    /// Who: `admin:{id}`, `cli:{user}`… (exact).
    pub actor: Option<String>,
    /// What: an action name, or a prefix ending in `.` (`promo.` for every promotions action).
    pub action: Option<String>,
    /// On what: `user:{id}`, `code:{code}`… (exact).
    pub subject: Option<String>,
    /// The next page: rows before this place in the chain (the last row's `seq`).
    pub before: Option<i64>,
    /// 1 to 500 (default 50).
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditRow {
    /// The row's place in the chain (1, 2, 3… with no gap).
    pub seq: i64,
    pub actor: String,
    pub action: String,
    pub subject: String,
    /// What the action recorded (JSON; before and after where something changed).
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// SHA-256 (hex) of the previous row's hash and this row's content.
    pub hash: String,
    pub prev_hash: String,
}

impl From<store::audit::Chained> for AuditRow {
    fn from(r: store::audit::Chained) -> AuditRow {
        AuditRow {
            seq: r.seq,
            details: serde_json::from_str(&r.details).unwrap_or(serde_json::Value::String(r.details)),
            actor: r.actor,
            action: r.action,
            subject: r.subject,
            created_at: r.created_at,
            hash: r.hash,
            prev_hash: r.prev_hash,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    pub rows: Vec<AuditRow>,
    /// Pass as `before` for the next page; absent on the last page.
    pub next_before: Option<i64>,
}

fn bounded(name: &str, v: Option<String>) -> Result<Option<String>, AppError> {
    match v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
        Some(s) if s.len() > 200 => Err(AppError::with_detail(ErrorCode::InvalidField, format!("{name}: at most 200 characters"))),
        other => Ok(other),
    }
}

/// The audit trail, newest first, filtered by actor, action (or prefix) and subject (admin, support, finance).
#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", params(AuditQuery),
    responses((status = 200, body = Envelope<AuditPage>), (status = "default", description = "23 not signed in, 24 not admin, support or finance, 47 a filter too long or a limit out of 1–500", body = ErrorEnvelope)))]
pub async fn list(State(state): State<AppState>, _staff: Staff<perm::AuditRead>, QueryParams(q): QueryParams<AuditQuery>) -> ApiResult<AuditPage> {
    let limit = q.limit.unwrap_or(50);
    if !(1..=500).contains(&limit) {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "limit: 1 to 500").into());
    }
    let filter = store::audit::Filter { actor: bounded("actor", q.actor)?, action: bounded("action", q.action)?, subject: bounded("subject", q.subject)? };
    let rows = store::audit::page(&state.db, &filter, q.before, limit).await.map_err(|e| AppError::internal(e.to_string()))?;
    let next_before = if rows.len() as i64 == limit { rows.last().map(|r| r.seq) } else { None };
    let rows = rows.into_iter().map(AuditRow::from).collect();
    ok(AuditPage { rows, next_before })
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditCheck {
    /// True when every row follows the one before it, matches its hash, the head names the
    /// last row and no row was written around the chain.
    pub intact: bool,
    pub rows: i64,
    pub head_seq: i64,
    pub head_hash: String,
    /// Rows written outside the chain.
    pub unchained: i64,
    /// Where the chain first breaks.
    pub break_seq: Option<i64>,
    pub break_reason: Option<String>,
}

/// Recomputes the audit chain (what `carthage audit verify` does): admin, support, finance.
#[utoipa::path(get, path = "/api/admin/audit/verify", tag = "admin",
    responses((status = 200, body = Envelope<AuditCheck>), (status = "default", description = "23 not signed in, 24 not admin, support or finance", body = ErrorEnvelope)))]
pub async fn verify(State(state): State<AppState>, _staff: Staff<perm::AuditRead>) -> ApiResult<AuditCheck> {
    let r = store::audit::verify(&state.db).await.map_err(|e| AppError::internal(e.to_string()))?;
    ok(AuditCheck {
        intact: r.is_consistent(),
        rows: r.rows,
        head_seq: r.head_seq,
        head_hash: r.head_hash.clone(),
        unchained: r.unchained,
        break_seq: r.first_break.as_ref().map(|b| b.seq),
        break_reason: r.first_break.map(|b| b.reason),
    })
}
