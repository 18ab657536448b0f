//! Casino for the player app (docs/CASINO.md §1, spec §4/§7 "Favourites and games"):
//! providers, game lists, search, favourites, the blocklist and game launch.

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, MaybeSession, QueryParams, ReplyLang, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::Router;
use casino::{Game, Launch, Player, Provider};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/casino/providers", get(providers))
        .route("/api/casino/game_list", get(game_list))
        .route("/api/casino/search", get(search))
        .route("/api/casino/session", post(session))
        .route("/api/user/blocklist", get(blocklist))
        .route("/api/favorite_slots/add", post(favourite_add))
        .route("/api/favorite_slots/remove", post(favourite_remove))
        .route("/api/favorite_slots/get_list", get(favourite_list))
}

fn player(s: &Session) -> Player {
    Player { user_id: s.user.id, role: s.user.role.code(), currency: s.user.currency, session_id: s.session_id }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ProvidersQuery {
    /// `slots` or `casinolive` (all when absent).
    pub casino_type: Option<String>,
}

/// Providers in display order with their game counts; banned providers of the signed-in
/// player are left out.
#[utoipa::path(get, path = "/api/casino/providers", tag = "casino", params(ProvidersQuery),
    responses((status = 200, body = Envelope<Vec<Provider>>)))]
pub async fn providers(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<ProvidersQuery>) -> ApiResult<Vec<Provider>> {
    let user = session.map(|s| s.user);
    let banned = state.casino.catalogue().banned_set(user.as_ref().map(|u| u.id)).await?;
    let guest = user.is_none();
    let mut list = state.casino.catalogue().providers(q.casino_type.as_deref(), &banned).await?;
    if guest {
        for p in list.iter_mut().filter(|p| p.auth_required) {
            p.game_count = 0;
        }
    }
    ok(list)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameListQuery {
    /// Provider code (lower case).
    pub provider: String,
}

/// Spec §4 game list: unknown provider → 60; auth-required provider and guest → `[]`;
/// role other than 0 → `[]`; provider banned for the player → `[]`. Featured first.
#[utoipa::path(get, path = "/api/casino/game_list", tag = "casino", params(GameListQuery),
    responses((status = 200, body = Envelope<Vec<Game>>), (status = "default", description = "60 unknown provider", body = ErrorEnvelope)))]
pub async fn game_list(
    State(state): State<AppState>,
    MaybeSession(session): MaybeSession,
    ReplyLang(lang): ReplyLang,
    QueryParams(q): QueryParams<GameListQuery>,
) -> ApiResult<Vec<Game>> {
    ok(localised(state.casino.game_list(&q.provider, session.as_ref().map(player)).await?, lang))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// Part of a game name (case-insensitive); empty or longer than 64 characters finds nothing.
    pub q: String,
    /// At most this many games (1–200, default 50).
    pub limit: Option<i64>,
}

/// Games whose name contains `q`, across the providers the caller may see.
#[utoipa::path(get, path = "/api/casino/search", tag = "casino", params(SearchQuery),
    responses((status = 200, body = Envelope<Vec<Game>>)))]
pub async fn search(
    State(state): State<AppState>,
    MaybeSession(session): MaybeSession,
    ReplyLang(lang): ReplyLang,
    QueryParams(q): QueryParams<SearchQuery>,
) -> ApiResult<Vec<Game>> {
    let user = session.map(|s| s.user);
    let text = q.q.trim();
    if text.is_empty() || text.chars().count() > 64 {
        return ok(Vec::new());
    }
    if user.as_ref().is_some_and(|u| u.role.code() != 0) {
        return ok(Vec::new());
    }
    let banned = state.casino.catalogue().banned_set(user.as_ref().map(|u| u.id)).await?;
    ok(localised(state.casino.catalogue().search(text, q.limit.unwrap_or(50), user.is_none(), &banned).await?, lang))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionRequest {
    pub provider: String,
    pub game_id: String,
    /// `en`, `fr` or `ar` (or a platform language id such as `fr-fr`).
    #[serde(default)]
    pub lang: String,
    /// `mobile` or `desktop`.
    #[serde(default)]
    pub platform: String,
}

/// Spec §4 session start: creates a game session and returns the URL the game page frames.
/// Guests and roles other than player → 61; unknown provider → 60; unknown game → 62;
/// provider banned for the player → 71.
#[utoipa::path(post, path = "/api/casino/session", tag = "casino", request_body = SessionRequest,
    responses((status = 200, body = Envelope<Launch>), (status = "default", description = "61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn session(State(state): State<AppState>, MaybeSession(session): MaybeSession, JsonBody(req): JsonBody<SessionRequest>) -> ApiResult<Launch> {
    let viewer = session.as_ref().filter(|s| !s.user.is_banned).map(player);
    ok(state.casino.launch(viewer, &req.provider, &req.game_id, &req.lang, &req.platform).await?)
}

/// Lower-case names of the providers banned for the signed-in player (guests: empty).
#[utoipa::path(get, path = "/api/user/blocklist", tag = "casino",
    responses((status = 200, body = Envelope<Vec<String>>)))]
pub async fn blocklist(State(state): State<AppState>, MaybeSession(session): MaybeSession) -> ApiResult<Vec<String>> {
    match session {
        None => ok(Vec::new()),
        Some(s) => ok(state.casino.catalogue().blocklist(s.user.id).await?),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FavouriteAdd {
    /// The game's catalogue id (`Game.id`).
    pub slot: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FavouriteRemove {
    /// The game's catalogue id (`Game.id`).
    pub id: i64,
}

/// Adds a game to the favourites (idempotent); answers the game with the `favorite` tab.
#[utoipa::path(post, path = "/api/favorite_slots/add", tag = "casino", request_body = FavouriteAdd,
    responses((status = 200, body = Envelope<Game>), (status = "default", description = "23 not signed in, 62 unknown game", body = ErrorEnvelope)))]
pub async fn favourite_add(State(state): State<AppState>, s: Session, ReplyLang(lang): ReplyLang, JsonBody(req): JsonBody<FavouriteAdd>) -> ApiResult<Game> {
    ok(state.casino.catalogue().add_favourite(s.user.id, req.slot).await?.localised(lang))
}

/// Removes a game from the favourites (idempotent).
#[utoipa::path(post, path = "/api/favorite_slots/remove", tag = "casino", request_body = FavouriteRemove,
    responses((status = 200, body = Envelope<bool>), (status = "default", description = "23 not signed in", body = ErrorEnvelope)))]
pub async fn favourite_remove(State(state): State<AppState>, s: Session, JsonBody(req): JsonBody<FavouriteRemove>) -> ApiResult<bool> {
    state.casino.catalogue().remove_favourite(s.user.id, req.id).await?;
    ok(true)
}

/// The player's favourite games, newest first, each with the `favorite` tab.
#[utoipa::path(get, path = "/api/favorite_slots/get_list", tag = "casino",
    responses((status = 200, body = Envelope<Vec<Game>>), (status = "default", description = "23 not signed in", body = ErrorEnvelope)))]
pub async fn favourite_list(State(state): State<AppState>, s: Session, ReplyLang(lang): ReplyLang) -> ApiResult<Vec<Game>> {
    let banned = state.casino.catalogue().banned_set(Some(s.user.id)).await?;
    ok(localised(state.casino.catalogue().favourites(s.user.id, &banned).await?, lang))
}

/// Catalogue texts in the reply's language (Accept-Language; English by default).
fn localised(games: Vec<Game>, lang: &str) -> Vec<Game> {
    games.into_iter().map(|g| g.localised(lang)).collect()
}
