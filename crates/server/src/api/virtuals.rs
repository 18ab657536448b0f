//! The studio's virtual races (docs/VIRTUALS.md): the lobby and a race with its
//! verification (public), bets on a race and the player's bets (signed in). The service is
//! `games::races::Virtuals` (`AppState::virtuals`).

use super::desk::client_key;
use super::envelope::{bad_request, ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, MaybeSession, PathParam, QueryParams, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::routing::get;
use axum::Router;
use games::races::maths::Sport;
use games::races::{BetRequest, VirtualBet, Bettor, VirtualsLobby, VirtualRaceDetail};
use kernel::{AppError, ErrorCode};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/virtuals/races", get(races))
        .route("/api/virtuals/races/{id}", get(race))
        .route("/api/virtuals/bets", get(bets).post(place))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct RacesQuery {
    /// `horses`, `greyhounds` or `speedway` (all three when absent).
    pub sport: Option<String>,
}

/// The race types with their open races (runners, strengths, prices, the committed hash),
/// the races being shown and the last results, in the lobby's order; for a signed-in player,
/// their stake limits.
#[utoipa::path(get, operation_id = "virtuals_races", path = "/api/virtuals/races", tag = "virtuals", params(RacesQuery),
    responses((status = 200, body = Envelope<VirtualsLobby>), (status = "default", description = "40 malformed query, 47 unknown sport", body = ErrorEnvelope)))]
pub async fn races(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<RacesQuery>) -> ApiResult<VirtualsLobby> {
    let only = match q.sport.as_deref() {
        None => None,
        Some(s) => Some(Sport::parse(s).ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "sport: horses, greyhounds or speedway"))?),
    };
    ok(state.virtuals.lobby(only, session.map(|s| s.user.currency)).await?)
}

/// One race; once betting has closed, with its finishing order, its revealed seed and a
/// script that verifies both.
#[utoipa::path(get, operation_id = "virtuals_race", path = "/api/virtuals/races/{id}", tag = "virtuals", params(("id" = i64, Path, description = "The race's id")),
    responses((status = 200, body = Envelope<VirtualRaceDetail>), (status = "default", description = "40 malformed id, 43 no such race", body = ErrorEnvelope)))]
pub async fn race(State(state): State<AppState>, PathParam(id): PathParam<i64>) -> ApiResult<VirtualRaceDetail> {
    ok(state.virtuals.race(id).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlaceVirtualBetRequest {
    pub race_id: i64,
    /// `win`, `place` or `forecast`.
    pub kind: String,
    /// One runner number (win, place), or two in finishing order (forecast); a number the
    /// race does not have → 68.
    pub runners: Vec<i64>,
    /// Minor units of the player's currency, within the studio's limits.
    pub stake: i64,
}

/// Places a win, place or forecast bet at the race's published price; the stake leaves the
/// balance at once. A retry with the same `Idempotency-Key` answers the same bet (`replayed`).
#[utoipa::path(post, operation_id = "virtuals_place", path = "/api/virtuals/bets", tag = "virtuals", request_body = PlaceVirtualBetRequest,
    params(("Idempotency-Key" = String, Header, description = "A retry with the same key answers the same bet")),
    responses((status = 200, body = Envelope<VirtualBet>),
              (status = "default", description = "23, 26 key reused for another bet, 40 malformed or no key, 47 invalid key, 43 no such race, 68 selection or stake refused, 69 betting closed, 501 balance, 5 banned, 61 not a player, 121/122 blocked", body = ErrorEnvelope)))]
pub async fn place(State(state): State<AppState>, session: Session, parts: Parts, JsonBody(req): JsonBody<PlaceVirtualBetRequest>) -> ApiResult<VirtualBet> {
    let key = client_key(&parts)?;
    let user = &session.user;
    let who = Bettor { user_id: user.id, player_session_id: session.session_id, currency: user.currency, lang: user.lang.clone() };
    // A number no runner can have (negative, too large) is a selection the race refuses (68).
    let runners = req.runners.iter().map(|r| u32::try_from(*r).unwrap_or(0)).collect();
    let req = BetRequest { race_id: req.race_id, kind: req.kind, runners, stake: req.stake };
    ok(state.virtuals.place(&who, &req, &key).await?)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VirtualBetsQuery {
    /// Only the bets on this race.
    pub race_id: Option<i64>,
    /// 1–100, default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// The player's bets on virtual races, newest first.
#[utoipa::path(get, operation_id = "virtuals_bets", path = "/api/virtuals/bets", tag = "virtuals", params(VirtualBetsQuery),
    responses((status = 200, body = Envelope<Vec<VirtualBet>>), (status = "default", description = "23, 40 malformed query or limit", body = ErrorEnvelope)))]
pub async fn bets(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<VirtualBetsQuery>) -> ApiResult<Vec<VirtualBet>> {
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(bad_request("limit must be between 1 and 100"));
    }
    ok(state.virtuals.bets(session.user.id, q.race_id, limit).await?)
}
