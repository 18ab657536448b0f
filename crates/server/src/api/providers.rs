//! The game providers' wallet callbacks (issue 20, docs/PROVIDERS.md): every provider's own
//! method path under `/api/providers/{provider}/` (`/api/providers/pragmatic/bet.html`,
//! `/api/providers/evolution/debit`, …), answered in that provider's format by its adapter
//! in `crates/providers`. Thin: the route finds the adapter and hands it the raw call.

use super::envelope::ApiError;
use super::extract::RawBody;
use crate::app::AppState;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use kernel::{AppError, ErrorCode};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/providers/{provider}/{*path}", any(callback))
}

/// One provider callback, in the provider's dialect (not our envelope). An unknown or
/// disabled provider gets our envelope's 66 (nobody but a provider calls here).
async fn callback(State(state): State<AppState>, Path((provider, path)): Path<(String, String)>, uri: Uri, headers: HeaderMap, RawBody(body): RawBody) -> Response {
    let Some(adapter) = state.providers.get(&provider) else {
        // The provider label stays a closed set: the path is anybody's to write.
        kernel::metrics::inc(kernel::metrics::PROVIDER_CALLBACKS, &[("kind", "game"), ("provider", "unknown"), ("outcome", "refused")]);
        return ApiError(AppError::new(ErrorCode::ProviderUnknown)).into_response();
    };
    let ctx = providers::Ctx { casino: state.casino.clone() };
    let req = providers::Inbound { path: &path, query: uri.query().unwrap_or(""), headers: &headers, body: &body };
    let out = adapter.callback(&ctx, req).await;
    // By HTTP status: most dialects answer a refusal with 200 and an error in the body.
    let outcome = match out.status {
        200..=299 => "ok",
        400..=499 => "refused",
        _ => "error",
    };
    kernel::metrics::inc(kernel::metrics::PROVIDER_CALLBACKS, &[("kind", "game"), ("provider", &provider), ("outcome", outcome)]);
    let mut response = (StatusCode::from_u16(out.status).unwrap_or(StatusCode::OK), out.body).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(out.content_type));
    response
}
