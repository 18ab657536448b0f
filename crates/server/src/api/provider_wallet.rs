//! The seamless wallet for game providers (docs/CASINO.md §3, docs/API.md):
//! `POST /api/wallet/v1/{balance,bet,win,rollback}`. The signature is checked on the raw
//! body before it is parsed; then the call goes to `casino::ProviderWallet`, the same
//! service the studio uses in-process.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use crate::app::AppState;
use super::extract::RawBody;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use axum::Router;
use casino::{BalanceCall, ProviderConfig, RollbackCall, WalletCall, WalletReply};
use kernel::{AppError, ErrorCode};
use serde::de::DeserializeOwned;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/wallet/v1/balance", post(balance))
        .route("/api/wallet/v1/bet", post(bet))
        .route("/api/wallet/v1/win", post(win))
        .route("/api/wallet/v1/rollback", post(rollback))
}

/// Authenticates the provider and parses the body: unknown provider → 66, stale or missing
/// timestamp → 65, bad signature → 64, then malformed body → 40.
async fn authenticated<T: DeserializeOwned>(state: &AppState, headers: &HeaderMap, body: &Bytes) -> Result<(ProviderConfig, T), ApiError> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let provider = header("x-provider").map(|p| p.trim().to_ascii_lowercase()).unwrap_or_default();
    if provider.is_empty() || provider.len() > 64 {
        return Err(AppError::new(ErrorCode::ProviderUnknown).into());
    }
    let config = state.casino.catalogue().provider_config(&provider).await?.filter(|c| c.enabled && c.wallet_secret.is_some());
    let Some(config) = config else {
        return Err(AppError::new(ErrorCode::ProviderUnknown).into());
    };
    let secret = config.wallet_secret.as_deref().unwrap_or_default();
    casino::signature::verify(secret, header("x-timestamp"), header("x-signature"), body, kernel::clock::now_ms() / 1000)?;
    let call: T = super::extract::json_object(body)?;
    Ok((config, call))
}

/// The player's real balance (minor units).
#[utoipa::path(post, path = "/api/wallet/v1/balance", tag = "provider wallet", request_body = casino::BalanceCall,
    params(("X-Provider" = String, Header, description = "Provider code"),
           ("X-Timestamp" = String, Header, description = "Unix seconds; ±300 s"),
           ("X-Signature" = String, Header, description = "hex HMAC_SHA256(secret, X-Timestamp + \".\" + raw body)")),
    responses((status = 200, body = Envelope<WalletReply>), (status = "default", description = "64, 65, 66, 63, 40", body = ErrorEnvelope)))]
pub async fn balance(State(state): State<AppState>, headers: HeaderMap, RawBody(body): RawBody) -> ApiResult<WalletReply> {
    let (provider, call): (ProviderConfig, BalanceCall) = authenticated(&state, &headers, &body).await?;
    ok(state.casino.wallet().balance(&provider.name, &call).await?)
}

/// A stake. Needs a live session; replays answer the original reply; the same
/// transaction id with other parameters → 26; after its rollback → 28; 501 insufficient.
#[utoipa::path(post, path = "/api/wallet/v1/bet", tag = "provider wallet", request_body = casino::WalletCall,
    params(("X-Provider" = String, Header), ("X-Timestamp" = String, Header), ("X-Signature" = String, Header)),
    responses((status = 200, body = Envelope<WalletReply>), (status = "default", description = "501, 26, 28, 63, 67, 68, 64, 65, 66", body = ErrorEnvelope)))]
pub async fn bet(State(state): State<AppState>, headers: HeaderMap, RawBody(body): RawBody) -> ApiResult<WalletReply> {
    let (provider, call): (ProviderConfig, WalletCall) = authenticated(&state, &headers, &body).await?;
    ok(state.casino.wallet().bet(&provider.name, &call).await?)
}

/// A win: honoured with an expired session or a banned player.
#[utoipa::path(post, path = "/api/wallet/v1/win", tag = "provider wallet", request_body = casino::WalletCall,
    params(("X-Provider" = String, Header), ("X-Timestamp" = String, Header), ("X-Signature" = String, Header)),
    responses((status = 200, body = Envelope<WalletReply>), (status = "default", description = "26, 63, 67, 64, 65, 66", body = ErrorEnvelope)))]
pub async fn win(State(state): State<AppState>, headers: HeaderMap, RawBody(body): RawBody) -> ApiResult<WalletReply> {
    let (provider, call): (ProviderConfig, WalletCall) = authenticated(&state, &headers, &body).await?;
    ok(state.casino.wallet().win(&provider.name, &call).await?)
}

/// Cancels a bet or win; an unknown reference leaves a tombstone (no money moves) that
/// refuses the transaction if it arrives later. Honoured with an expired session.
#[utoipa::path(post, path = "/api/wallet/v1/rollback", tag = "provider wallet", request_body = casino::RollbackCall,
    params(("X-Provider" = String, Header), ("X-Timestamp" = String, Header), ("X-Signature" = String, Header)),
    responses((status = 200, body = Envelope<WalletReply>), (status = "default", description = "72, 26, 63, 64, 65, 66", body = ErrorEnvelope)))]
pub async fn rollback(State(state): State<AppState>, headers: HeaderMap, RawBody(body): RawBody) -> ApiResult<WalletReply> {
    let (provider, call): (ProviderConfig, RollbackCall) = authenticated(&state, &headers, &body).await?;
    ok(state.casino.wallet().rollback(&provider.name, &call).await?)
}
