//! The multiplayer crash game (docs/CASINO.md §2 "Crash WebSocket", docs/CRASH.md): the
//! WebSocket players bet and cash out on, and the public fairness and round history.
//! The engine is `games::crash::CrashEngine` (`AppState::crash`).

use super::envelope::{bad_request, ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::QueryParams;
use crate::app::AppState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use games::crash::{EndedRound, Fairness, MAX_FRAME};
use kernel::{AppError, ErrorCode};
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;
use utoipa::IntoParams;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/studio/crash/ws", get(ws))
        .route("/api/studio/crash/fairness", get(fairness))
        .route("/api/studio/crash/rounds", get(rounds))
        .route("/api/dev/crash/stats", get(stats))
}

/// The public values of the active hash chain: the terminating hash (SHA-256 of round 1's
/// hash) and the salt of every round's crash point.
#[utoipa::path(get, path = "/api/studio/crash/fairness", tag = "studio",
    responses((status = 200, body = Envelope<Fairness>), (status = "default", description = "43 before the first round", body = ErrorEnvelope)))]
pub async fn fairness(State(state): State<AppState>) -> ApiResult<Fairness> {
    ok(state.crash.fairness().await?)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct CrashRoundsQuery {
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// Ended rounds, newest first: each round's hash (SHA-256 of it is the previous round's
/// hash) and its crash point.
#[utoipa::path(get, path = "/api/studio/crash/rounds", tag = "studio", params(CrashRoundsQuery),
    responses((status = 200, body = Envelope<Vec<EndedRound>>), (status = "default", description = "40 bad limit", body = ErrorEnvelope)))]
pub async fn rounds(State(state): State<AppState>, QueryParams(q): QueryParams<CrashRoundsQuery>) -> ApiResult<Vec<EndedRound>> {
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(bad_request("limit must be between 1 and 100"));
    }
    ok(state.crash.rounds(limit).await?)
}

/// Demo mode only: the engine's figures (tick lateness, settlement time) for benchmarks.
async fn stats(State(state): State<AppState>) -> ApiResult<games::crash::EngineStats> {
    if !state.is_demo() {
        return Err(ApiError(AppError::new(ErrorCode::NotFound)));
    }
    ok(state.crash.stats())
}

#[derive(Debug, Deserialize)]
struct WsQuery {
    token: Option<String>,
}

/// `GET /api/studio/crash/ws?token=<game session token>`. A request that is not a
/// WebSocket upgrade gets the envelope 40; an unknown or expired session is told in the
/// socket (`{"type":"error","status":63}`) and the socket closes.
async fn ws(
    State(state): State<AppState>,
    query: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(_) => return bad_request("this endpoint takes a WebSocket upgrade").into_response(),
    };
    let token = query.ok().and_then(|Query(q)| q.token).unwrap_or_default();
    upgrade
        .max_message_size(MAX_FRAME * 4)
        .max_frame_size(MAX_FRAME * 4)
        // tungstenite zero-fills its whole read buffer before every read attempt, and the
        // socket is polled for reading each time a message goes out: with the default
        // 128 KiB that was 30 % of the server's CPU at 10,000 players (docs/CRASH.md).
        // Client frames are tiny; the buffer still grows for a larger one.
        .read_buffer_size(crate::sockets::READ_BUFFER)
        .on_upgrade(move |socket| play(state, socket, token))
}

async fn play(state: AppState, mut socket: WebSocket, token: String) {
    let mut player = match state.crash.connect(&token).await {
        Ok(p) => p,
        Err(e) => {
            let msg = json!({ "type": "error", "requestId": null, "status": e.code.code(), "message": e.text() });
            let _ = socket.send(Message::Text(msg.to_string().into())).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
    };
    for m in player.initial() {
        if socket.send(Message::Text((&*m).into())).await.is_err() {
            return;
        }
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(t))) => player.handle(t.as_str()),
                Some(Ok(Message::Binary(_))) => player.handle("\u{0}binary"),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
            },
            out = player.next() => match out {
                Some(m) => {
                    // A client that cannot take a message within 10 s is dropped.
                    match tokio::time::timeout(Duration::from_secs(10), socket.send(Message::Text((&*m).into()))).await {
                        Ok(Ok(())) => {}
                        _ => return,
                    }
                }
                None => return,
            },
        }
    }
}
