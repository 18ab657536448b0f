//! Demo mode only: the message outbox. Not routed at all in production.

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::QueryParams;
use super::types::OutboxQuery;
use crate::app::AppState;
use accounts::notify::{Outbox, OutboxMessage};
use axum::extract::State;
use axum::routing::get;
use axum::Router;
use kernel::AppError;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/dev/outbox", get(outbox))
}

/// Demo mode: the SMS and e-mails sent to an address, newest first (at most 50).
#[utoipa::path(get, path = "/api/dev/outbox", tag = "dev", params(OutboxQuery),
    responses((status = 200, body = Envelope<Vec<OutboxMessageDoc>>), (status = "default", description = "40 missing `to`; 43 in production", body = ErrorEnvelope)))]
pub async fn outbox(State(state): State<AppState>, QueryParams(q): QueryParams<OutboxQuery>) -> ApiResult<Vec<OutboxMessage>> {
    let list = Outbox::list(&state.db, &q.to, 50).await.map_err(AppError::internal)?;
    ok(list)
}

/// A message in the demo outbox.
#[derive(utoipa::ToSchema, serde::Serialize)]
#[allow(dead_code)]
pub struct OutboxMessageDoc {
    to: String,
    /// `sms` or `email`.
    channel: String,
    text: String,
    code: Option<String>,
    link: Option<String>,
    #[serde(rename = "createdAt")]
    created_at: String,
}
