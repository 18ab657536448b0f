//! The spec's per-provider list and link endpoints (§7 "Favourites and games", §3 payloads
//! as read, §9 rules; docs/providers/endpoints.md). Thin: each list is the catalogue's
//! games of the provider (and its §9 aliases) with the fields its feed gave, shaped by
//! `casino::shapes`; each link is `Casino::launch` (guests and other roles 61, unknown
//! provider 60, unknown game 62, provider banned for the player 71) with the provider's
//! parameters added to the launch address. A provider without a catalogue here answers an
//! empty list, never an error.
//!
//! Some paths have no `/api` prefix (as the spec's app calls them): they are routes of the
//! API router, matched before the player app's fallback.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, MaybeSession, PathParam, QueryParams, ReplyLang, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use casino::shapes::{self, Listed, ProviderLink};
use casino::{Launch, Player};
use kernel::{AppError, ErrorCode};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/amatic/game_list", get(amatic_list))
        .route("/amatic/game_link", get(amatic_link))
        .route("/api/evolution/get_game_list", get(evolution_list))
        .route("/api/evolution/open_frame", get(evolution_frame))
        .route("/fiable/v1/game_list", get(fiable_list))
        .route("/fiable/v1/token", get(fiable_token))
        .route("/habanero/game/list", get(habanero_list))
        .route("/habanero/game/launch", get(habanero_launch))
        .route("/slotegrator/games/list", get(slotegrator_list))
        .route("/slotegrator/games/link", get(slotegrator_link))
        .route("/api/evoplay/game_list", get(evoplay_list))
        .route("/api/evoplay/frame", get(evoplay_frame))
        .route("/api/evoplay/images/{file}", get(evoplay_image))
        .route("/api/outcome/games/list", get(outcome_list))
        .route("/api/outcome/session/create", post(outcome_session))
        .route("/api/pragmatic/game_list", get(pragmatic_list))
        .route("/api/pragmatic/game_link", get(pragmatic_link))
        .route("/gitslotpark/game_list", get(gitslotpark_list))
        .route("/gitslotpark/game_link", get(gitslotpark_link))
        .route("/pgsoft/game_list", get(pgsoft_list))
        .route("/pgsoft/game_link", get(pgsoft_link))
        .route("/api/golden_race/game_list", get(golden_race_list))
        .route("/api/golden_race/open_frame", get(golden_race_frame))
        .route("/api/golden_race/create_session", post(golden_race_session))
        .route("/api/tvbet/tiles", get(tv_tiles))
        .route("/api/tvbet/token", get(tv_token))
        .route("/provider-images/{provider}/{file}", get(cached_image))
}

// The catalogue providers behind each endpoint (spec §9 aliases: pragmaticlive →
// pragmatic, evolutionlive → evolution, outcome_amatic → amatic; pragmaticf is served by
// the gitslotpark endpoints and reached from Pragmatic's list through the swap table).
const AMATIC: &[&str] = &["amatic", "outcome_amatic"];
const EVOLUTION: &[&str] = &["evolution", "evolutionlive"];
const PRAGMATIC: &[&str] = &["pragmatic", "pragmaticlive"];
const PRAGMATICF: &[&str] = &["pragmaticf"];

fn viewer(session: &Option<Session>) -> Option<Player> {
    session.as_ref().filter(|s| !s.user.is_banned).map(|s| Player { user_id: s.user.id, role: s.user.role.code(), currency: s.user.currency, session_id: s.session_id })
}

/// The games of `codes` the viewer may see (spec §4/§6: guests nothing of an auth-required
/// provider, other roles nothing, a banned provider nothing), with their feeds' fields,
/// featured first; and whether one of the providers is temporarily unavailable.
async fn listed(state: &AppState, viewer: Option<Player>, lang: &str, codes: &[&str]) -> Result<(Vec<Listed>, bool), AppError> {
    let feeds = state.casino.feeds();
    let mut all = Vec::new();
    let mut unavailable = false;
    for code in codes {
        let games = match state.casino.game_list(code, viewer).await {
            Ok(g) => g,
            Err(e) if e.code == ErrorCode::ProviderNotConfigured => Vec::new(),
            Err(e) => return Err(e),
        };
        all.extend(feeds.listed(code, games.into_iter().map(|g| g.localised(lang)).collect()).await?);
        unavailable |= feeds.unavailable(code).await?;
    }
    shapes::featured_first(&feeds.rules().await?, &mut all);
    Ok((all, unavailable))
}

/// Launches `game_id` of the first of `codes` whose catalogue holds it (else of the first
/// configured one, so an unknown game is 62 and a provider nobody configured 60). Guests and
/// other roles are refused (61) before anything about the catalogue is looked up.
async fn launch(state: &AppState, viewer: Option<Player>, codes: &[&str], game_id: &str, lang: &str, platform: &str) -> Result<Launch, AppError> {
    if !viewer.is_some_and(|p| p.role == 0) {
        return Err(AppError::new(ErrorCode::BetsNotAllowed));
    }
    let catalogue = state.casino.catalogue();
    let mut chosen: Option<&str> = None;
    for code in codes {
        if catalogue.game(code, game_id).await?.is_some() {
            chosen = Some(code);
            break;
        }
    }
    if chosen.is_none() {
        for code in codes {
            if catalogue.provider_config(code).await?.is_some() {
                chosen = Some(code);
                break;
            }
        }
    }
    state.casino.launch(viewer, chosen.unwrap_or(codes[0]), game_id, lang, platform).await
}

fn link(l: Launch, params: &[(&str, &str)]) -> ProviderLink {
    ProviderLink { url: shapes::with_query(&l.url, params), token: l.session_token }
}

/// A provider's deployment URL host (Pragmatic's `game_server_domain`).
fn host_of(state: &AppState, provider: &str) -> String {
    let url = state.config.providers.iter().find(|s| s.name == provider).map(|s| s.url.as_str()).unwrap_or("");
    url.split_once("://").map(|(_, rest)| rest).unwrap_or(url).split('/').next().unwrap_or("").to_string()
}

/// Our partner name at a provider (`PROVIDER_<NAME>_PARTNER`, default `carthage`).
fn partner_of(state: &AppState, provider: &str) -> String {
    state.config.catalogue.feeds.get(provider).and_then(|f| f.partner.clone()).unwrap_or_else(|| "carthage".into())
}

fn reply_lang(given: Option<&str>, fallback: &str) -> String {
    let l = shapes::lang_prefix(given.unwrap_or(""));
    if matches!(l.as_str(), "en" | "fr" | "ar") {
        l
    } else {
        fallback.to_string()
    }
}

// ------------------------------------------------------------------------------ amatic

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AmaticLinkQuery {
    /// The game id (`gameid` of the list).
    pub gameid: Option<String>,
    /// `en`, `fr`, `ar` (or `fr-fr` …).
    pub lang: Option<String>,
    /// Where the game's lobby button leads (an http(s) URL or a path of ours).
    #[serde(rename = "lobbyUrl")]
    #[param(rename = "lobbyUrl")]
    pub lobby_url: Option<String>,
}

/// Amatic's games (and outcome_amatic's, shown as Amatic); tabs from the names.
#[utoipa::path(get, path = "/amatic/game_list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::AmaticList>)))]
pub async fn amatic_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::AmaticList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, AMATIC).await?;
    ok(shapes::amatic(unavailable, &games))
}

/// An Amatic game's launch link.
#[utoipa::path(get, path = "/amatic/game_link", tag = "providers", params(AmaticLinkQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47 bad parameter, 61 not a player, 60 unknown provider, 62 unknown game, 71 provider banned", body = ErrorEnvelope)))]
pub async fn amatic_link(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<AmaticLinkQuery>) -> ApiResult<ProviderLink> {
    let game = shapes::identifier("gameid", q.gameid.as_deref())?;
    let lobby = shapes::return_address("lobbyUrl", q.lobby_url.as_deref())?;
    let l = launch(&state, viewer(&session), AMATIC, &game, q.lang.as_deref().unwrap_or(""), "mobile").await?;
    ok(link(l, &[("lobbyUrl", &lobby)]))
}

// ------------------------------------------------------------------------------ evolution

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EvolutionListQuery {
    /// `live`, `slots` (or `rng`); all games when absent.
    pub game_type: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EvolutionFrameQuery {
    pub language: Option<String>,
    /// The game's `PageCode`.
    pub page_id: Option<String>,
    /// The game's `System`.
    pub system: Option<String>,
    pub game_type: Option<String>,
}

/// Evolution-type games (merchants upgaming and betsolutions; a direct feed naming no
/// merchant is kept), by `game_type`.
#[utoipa::path(get, path = "/api/evolution/get_game_list", tag = "providers", params(EvolutionListQuery),
    responses((status = 200, body = Envelope<shapes::EvolutionList>), (status = "default", description = "47 unknown game_type", body = ErrorEnvelope)))]
pub async fn evolution_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang, QueryParams(q): QueryParams<EvolutionListQuery>) -> ApiResult<shapes::EvolutionList> {
    let game_type = shapes::EvolutionType::parse(q.game_type.as_deref())?;
    let (games, unavailable) = listed(&state, viewer(&session), lang, EVOLUTION).await?;
    ok(shapes::evolution(&state.casino.feeds().rules().await?, unavailable, game_type, &games))
}

/// An Evolution-type game's frame.
#[utoipa::path(get, path = "/api/evolution/open_frame", tag = "providers", params(EvolutionFrameQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn evolution_frame(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<EvolutionFrameQuery>) -> ApiResult<ProviderLink> {
    let page = shapes::identifier("page_id", q.page_id.as_deref())?;
    let game_type = shapes::EvolutionType::parse(q.game_type.as_deref())?;
    let system = match q.system.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => shapes::identifier("system", Some(s))?,
        None => String::new(),
    };
    let l = launch(&state, viewer(&session), EVOLUTION, &page, q.language.as_deref().unwrap_or(""), "mobile").await?;
    let game_type = match game_type {
        shapes::EvolutionType::Live => "live",
        shapes::EvolutionType::Slots => "slots",
        shapes::EvolutionType::All => "",
    };
    ok(link(l, &[("system", &system), ("game_type", game_type)]))
}

// ------------------------------------------------------------------------------ fiable

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FiableTokenQuery {
    /// `main` (the only type).
    pub game_type: Option<String>,
    /// The game to open (default: the first of the list).
    pub game_id: Option<String>,
    /// `fr-fr`, `en-US`, `ar-ar`: its part before the dash goes in the link.
    pub lang: Option<String>,
    /// The home address the game returns to.
    pub home: Option<String>,
}

/// Fiable's games (inactive ones are never imported).
#[utoipa::path(get, path = "/fiable/v1/game_list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::FiableList>)))]
pub async fn fiable_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::FiableList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["fiable"]).await?;
    ok(shapes::fiable(unavailable, &games))
}

/// A Fiable session token; `url` is the game's address with the token, the language prefix
/// and the home address appended (spec §7).
#[utoipa::path(get, path = "/fiable/v1/token", tag = "providers", params(FiableTokenQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47 (game_type other than main), 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn fiable_token(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(reply): ReplyLang, QueryParams(q): QueryParams<FiableTokenQuery>) -> ApiResult<ProviderLink> {
    if !matches!(q.game_type.as_deref().map(str::trim), None | Some("") | Some("main")) {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "game_type (main)").into());
    }
    let home = shapes::return_address("home", q.home.as_deref())?;
    let v = viewer(&session);
    if !v.is_some_and(|p| p.role == 0) {
        return Err(AppError::new(ErrorCode::BetsNotAllowed).into());
    }
    let game = match q.game_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(g) => shapes::identifier("game_id", Some(g))?,
        None => listed(&state, v, reply, &["fiable"]).await?.0.first().map(|l| l.game.game_id.clone()).unwrap_or_default(),
    };
    let lang = q.lang.as_deref().unwrap_or("");
    let l = launch(&state, v, &["fiable"], &game, lang, "mobile").await?;
    let game_url = state.casino.feeds().meta("fiable").await?.get(&game).map(|m| shapes::meta_text(m, "url")).unwrap_or_default();
    let prefix = shapes::lang_prefix(lang);
    let url = if game_url.is_empty() {
        shapes::with_query(&l.url, &[("lang", &prefix), ("home", &home)])
    } else {
        shapes::with_query(&game_url, &[("token", &l.session_token), ("lang", &prefix), ("home", &home)])
    };
    ok(ProviderLink { url, token: l.session_token })
}

// ------------------------------------------------------------------------------ habanero

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HabaneroLaunchQuery {
    /// The game's `keyname`.
    pub game_id: Option<String>,
    pub lang: Option<String>,
}

/// Habanero's games.
#[utoipa::path(get, path = "/habanero/game/list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::HabaneroList>)))]
pub async fn habanero_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::HabaneroList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["habanero"]).await?;
    ok(shapes::habanero(unavailable, &games))
}

/// A Habanero game's launch link.
#[utoipa::path(get, path = "/habanero/game/launch", tag = "providers", params(HabaneroLaunchQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn habanero_launch(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<HabaneroLaunchQuery>) -> ApiResult<ProviderLink> {
    let game = shapes::identifier("game_id", q.game_id.as_deref())?;
    let l = launch(&state, viewer(&session), &["habanero"], &game, q.lang.as_deref().unwrap_or(""), "mobile").await?;
    ok(link(l, &[]))
}

// ------------------------------------------------------------------------------ slotegrator

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SlotegratorListQuery {
    /// Our project name at Slotegrator (spec §9 `{product}`).
    pub project_name: Option<String>,
    /// `mobile` (default: the app asks every list for mobile) or `desktop`: of a game with
    /// both versions, the platform's is listed.
    pub platform: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SlotegratorLinkQuery {
    pub project_name: Option<String>,
    /// Sent on mobile (where the game returns to); its presence makes the session mobile.
    pub return_url: Option<String>,
    pub game_uuid: Option<String>,
    pub language: Option<String>,
}

/// Slotegrator's games without the excluded studios ('lotto instant win', betsolutions,
/// betradar), one version per platform.
#[utoipa::path(get, path = "/slotegrator/games/list", tag = "providers", params(SlotegratorListQuery),
    responses((status = 200, body = Envelope<shapes::SlotegratorList>), (status = "default", description = "47 bad project_name or platform", body = ErrorEnvelope)))]
pub async fn slotegrator_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang, QueryParams(q): QueryParams<SlotegratorListQuery>) -> ApiResult<shapes::SlotegratorList> {
    let project = shapes::project_name(q.project_name.as_deref())?;
    let mobile = shapes::desktop_or_mobile(q.platform.as_deref())? == "mobile";
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["slotegrator"]).await?;
    ok(shapes::slotegrator(&state.casino.feeds().rules().await?, unavailable, &project, mobile, games))
}

/// A Slotegrator game's launch link.
#[utoipa::path(get, path = "/slotegrator/games/link", tag = "providers", params(SlotegratorLinkQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn slotegrator_link(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<SlotegratorLinkQuery>) -> ApiResult<ProviderLink> {
    let project = shapes::project_name(q.project_name.as_deref())?;
    let game = shapes::identifier("game_uuid", q.game_uuid.as_deref())?;
    let return_url = shapes::return_address("return_url", q.return_url.as_deref())?;
    let platform = if return_url.is_empty() { "desktop" } else { "mobile" };
    let l = launch(&state, viewer(&session), &["slotegrator"], &game, q.language.as_deref().unwrap_or(""), platform).await?;
    ok(link(l, &[("project_name", &project), ("return_url", &return_url)]))
}

// ------------------------------------------------------------------------------ evoplay

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EvoplayFrameQuery {
    pub project_name: Option<String>,
    pub game_id: Option<String>,
    pub language: Option<String>,
    /// The player's country (two letters).
    pub user_geo: Option<String>,
}

/// Evoplay's games, an object keyed by game id (`order` gives the display order).
#[utoipa::path(get, path = "/api/evoplay/game_list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::EvoplayList>)))]
pub async fn evoplay_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::EvoplayList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["evoplay"]).await?;
    ok(shapes::evoplay(unavailable, &games))
}

/// An Evoplay game's frame.
#[utoipa::path(get, path = "/api/evoplay/frame", tag = "providers", params(EvoplayFrameQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn evoplay_frame(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<EvoplayFrameQuery>) -> ApiResult<ProviderLink> {
    let project = shapes::project_name(q.project_name.as_deref())?;
    let game = shapes::identifier("game_id", q.game_id.as_deref())?;
    let geo = shapes::geo(q.user_geo.as_deref())?;
    let l = launch(&state, viewer(&session), &["evoplay"], &game, q.language.as_deref().unwrap_or(""), "mobile").await?;
    ok(link(l, &[("project_name", &project), ("user_geo", &geo)]))
}

/// An Evoplay game's image by its name (`/api/evoplay/images/{Name}.jpg`), from our cache
/// (43 when there is none). An image, not a JSON reply: not in the OpenAPI document.
pub async fn evoplay_image(State(state): State<AppState>, PathParam(file): PathParam<String>) -> Response {
    let Some(name) = file.strip_suffix(".jpg").or_else(|| file.strip_suffix(".JPG")).filter(|n| !n.is_empty() && n.len() <= 256) else {
        return ApiError(AppError::new(ErrorCode::NotFound)).into_response();
    };
    match state.casino.feeds().image_by_name("evoplay", name).await {
        Ok(Some(cached)) => image_reply(&state, "evoplay", &cached).await,
        Ok(None) => ApiError(AppError::new(ErrorCode::NotFound)).into_response(),
        Err(e) => ApiError(e).into_response(),
    }
}

// ------------------------------------------------------------------------------ outcome

#[derive(Debug, Deserialize, ToSchema)]
pub struct OutcomeSessionRequest {
    /// The game's `Id`.
    pub game_id: String,
}

/// Outcome's games, Evoplay's section left out.
#[utoipa::path(get, path = "/api/outcome/games/list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::OutcomeList>)))]
pub async fn outcome_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::OutcomeList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["outcome"]).await?;
    ok(shapes::outcome(&state.casino.feeds().rules().await?, unavailable, &games))
}

/// An Outcome game session (the language is the request's `Accept-Language`).
#[utoipa::path(post, path = "/api/outcome/session/create", tag = "providers", request_body = OutcomeSessionRequest,
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn outcome_session(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang, JsonBody(req): JsonBody<OutcomeSessionRequest>) -> ApiResult<ProviderLink> {
    let game = shapes::identifier("game_id", Some(&req.game_id))?;
    let v = viewer(&session);
    // An Evoplay game reached through Outcome is refused like an unknown one (§9).
    if v.is_some_and(|p| p.role == 0) {
        let rules = state.casino.feeds().rules().await?;
        let meta = state.casino.feeds().meta("outcome").await?;
        if let (Some(m), Some((g, _))) = (meta.get(&game), state.casino.catalogue().game("outcome", &game).await?) {
            if !rules.outcome_allowed(&shapes::meta_text(m, "SectionId"), &g.name) {
                return Err(AppError::new(ErrorCode::GameNotFound).into());
            }
        }
    }
    let l = launch(&state, v, &["outcome"], &game, lang, "mobile").await?;
    ok(link(l, &[]))
}

// ------------------------------------------------------------------------------ pragmatic

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PragmaticListQuery {
    /// The names' language (`en`, `fr`, `ar`; default the request's `Accept-Language`).
    pub lang: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PragmaticLinkQuery {
    /// The game's `gameID`.
    pub symbol: Option<String>,
    /// `WEB` or `MOBILE` (default).
    pub platform: Option<String>,
    pub lang: Option<String>,
    /// Default `H5`.
    pub technology: Option<String>,
}

/// Pragmatic's games (`gameTypeID` `lg` is live); a game of the swap table that
/// pragmaticf holds is flagged `pragmaticf`.
#[utoipa::path(get, path = "/api/pragmatic/game_list", tag = "providers", params(PragmaticListQuery),
    responses((status = 200, body = Envelope<shapes::PragmaticList>)))]
pub async fn pragmatic_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(accept): ReplyLang, QueryParams(q): QueryParams<PragmaticListQuery>) -> ApiResult<shapes::PragmaticList> {
    let lang = reply_lang(q.lang.as_deref(), accept);
    let v = viewer(&session);
    let (games, unavailable) = listed(&state, v, &lang, PRAGMATIC).await?;
    let swap_ids: Vec<String> = listed(&state, v, &lang, PRAGMATICF).await?.0.into_iter().map(|l| l.game.game_id).collect();
    ok(shapes::pragmatic(&state.casino.feeds().rules().await?, unavailable, &host_of(&state, "pragmatic"), &lang, &games, &swap_ids))
}

/// A Pragmatic game's launch link (through pragmaticf for a game of the swap table that
/// pragmaticf holds).
#[utoipa::path(get, path = "/api/pragmatic/game_link", tag = "providers", params(PragmaticLinkQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn pragmatic_link(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<PragmaticLinkQuery>) -> ApiResult<ProviderLink> {
    let symbol = shapes::identifier("symbol", q.symbol.as_deref())?;
    let platform = shapes::pragmatic_platform(q.platform.as_deref())?;
    let technology = shapes::technology(q.technology.as_deref())?;
    let v = viewer(&session);
    let swapped = v.is_some_and(|p| p.role == 0)
        && state.casino.feeds().rules().await?.is_swapped(&symbol)
        && state.casino.catalogue().game("pragmaticf", &symbol).await?.is_some();
    let codes = if swapped { PRAGMATICF } else { PRAGMATIC };
    let l = launch(&state, v, codes, &symbol, q.lang.as_deref().unwrap_or(""), if platform == "WEB" { "desktop" } else { "mobile" }).await?;
    ok(link(l, &[("symbol", &symbol), ("platform", platform), ("technology", &technology)]))
}

// ------------------------------------------------------------------------------ gitslotpark (pragmaticf)

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GitslotparkLinkQuery {
    #[serde(rename = "lobbyUrl")]
    #[param(rename = "lobbyUrl")]
    pub lobby_url: Option<String>,
    /// The game id (`gameid` of the list); `symbol` when absent.
    pub gameid: Option<String>,
    pub symbol: Option<String>,
    /// `WEB` or `MOBILE` (default).
    pub platform: Option<String>,
    pub lang: Option<String>,
    /// Default `H5`.
    pub technology: Option<String>,
}

/// pragmaticf's games (Pragmatic titles through GitSlotPark, shown as Pragmatic).
#[utoipa::path(get, path = "/gitslotpark/game_list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::PragmaticfList>)))]
pub async fn gitslotpark_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::PragmaticfList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, PRAGMATICF).await?;
    ok(shapes::pragmaticf(unavailable, &games))
}

/// A pragmaticf game's launch link; the partner name gets `_PYG` when the player's
/// currency is PYG.
#[utoipa::path(get, path = "/gitslotpark/game_link", tag = "providers", params(GitslotparkLinkQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn gitslotpark_link(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<GitslotparkLinkQuery>) -> ApiResult<ProviderLink> {
    let id = q.gameid.as_deref().map(str::trim).filter(|s| !s.is_empty()).or(q.symbol.as_deref());
    let game = shapes::identifier("gameid", id)?;
    let symbol = match q.symbol.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => shapes::identifier("symbol", Some(s))?,
        None => game.clone(),
    };
    let platform = shapes::pragmatic_platform(q.platform.as_deref())?;
    let technology = shapes::technology(q.technology.as_deref())?;
    let lobby = shapes::return_address("lobbyUrl", q.lobby_url.as_deref())?;
    let v = viewer(&session);
    let l = launch(&state, v, PRAGMATICF, &game, q.lang.as_deref().unwrap_or(""), if platform == "WEB" { "desktop" } else { "mobile" }).await?;
    let partner = shapes::partner_name(&partner_of(&state, "pragmaticf"), v.map(|p| p.currency).unwrap_or(kernel::Currency::Tnd));
    ok(link(l, &[("partner", &partner), ("symbol", &symbol), ("platform", platform), ("technology", &technology), ("lobbyUrl", &lobby)]))
}

// ------------------------------------------------------------------------------ pgsoft

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PgsoftLinkQuery {
    pub gameid: Option<String>,
    #[serde(rename = "lobbyUrl")]
    #[param(rename = "lobbyUrl")]
    pub lobby_url: Option<String>,
    pub lang: Option<String>,
}

/// PG Soft's games.
#[utoipa::path(get, path = "/pgsoft/game_list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::PgsoftList>)))]
pub async fn pgsoft_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::PgsoftList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["pgsoft"]).await?;
    ok(shapes::pgsoft(unavailable, &games))
}

/// A PG Soft game's launch link.
#[utoipa::path(get, path = "/pgsoft/game_link", tag = "providers", params(PgsoftLinkQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn pgsoft_link(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<PgsoftLinkQuery>) -> ApiResult<ProviderLink> {
    let game = shapes::identifier("gameid", q.gameid.as_deref())?;
    let lobby = shapes::return_address("lobbyUrl", q.lobby_url.as_deref())?;
    let l = launch(&state, viewer(&session), &["pgsoft"], &game, q.lang.as_deref().unwrap_or(""), "mobile").await?;
    ok(link(l, &[("lobbyUrl", &lobby)]))
}

// ------------------------------------------------------------------------------ golden race

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GoldenRaceFrameQuery {
    pub game_id: Option<String>,
    /// `desktop` or `mobile` (default).
    pub platform: Option<String>,
    pub lang: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GoldenRaceSessionRequest {
    pub game_id: String,
    /// `desktop` or `mobile`.
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub lang: Option<String>,
}

/// Golden Race's virtual games: the whitelist's titles, in its order.
#[utoipa::path(get, path = "/api/golden_race/game_list", tag = "providers",
    responses((status = 200, body = Envelope<shapes::GoldenRaceList>)))]
pub async fn golden_race_list(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(lang): ReplyLang) -> ApiResult<shapes::GoldenRaceList> {
    let (games, unavailable) = listed(&state, viewer(&session), lang, &["goldenrace"]).await?;
    ok(shapes::golden_race(&state.casino.feeds().rules().await?, unavailable, games))
}

async fn golden_race_launch(state: &AppState, session: &Option<Session>, game_id: Option<&str>, platform: Option<&str>, lang: Option<&str>) -> Result<ProviderLink, AppError> {
    let game = shapes::identifier("game_id", game_id)?;
    let platform = shapes::desktop_or_mobile(platform)?;
    let v = viewer(session);
    // A title outside the whitelist is not offered, so it does not open either (62).
    if v.is_some_and(|p| p.role == 0) {
        if let Some((g, _)) = state.casino.catalogue().game("goldenrace", &game).await? {
            if state.casino.feeds().rules().await?.golden_race_rank(&g.name).is_none() {
                return Err(AppError::new(ErrorCode::GameNotFound));
            }
        }
    }
    let l = launch(state, v, &["goldenrace"], &game, lang.unwrap_or(""), platform).await?;
    Ok(link(l, &[("platform", platform)]))
}

/// A Golden Race game's frame (`url`).
#[utoipa::path(get, path = "/api/golden_race/open_frame", tag = "providers", params(GoldenRaceFrameQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn golden_race_frame(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<GoldenRaceFrameQuery>) -> ApiResult<ProviderLink> {
    ok(golden_race_launch(&state, &session, q.game_id.as_deref(), q.platform.as_deref(), q.lang.as_deref()).await?)
}

/// A Golden Race game session (the app reads `url`).
#[utoipa::path(post, path = "/api/golden_race/create_session", tag = "providers", request_body = GoldenRaceSessionRequest,
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn golden_race_session(State(state): State<AppState>, MaybeSession(session): MaybeSession, JsonBody(req): JsonBody<GoldenRaceSessionRequest>) -> ApiResult<ProviderLink> {
    ok(golden_race_launch(&state, &session, Some(&req.game_id), req.platform.as_deref(), req.lang.as_deref()).await?)
}

// ------------------------------------------------------------------------------ TV betting

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TvTokenQuery {
    /// A TV game (a tile's `gameId`); the first of the TV provider's list when absent.
    pub game_id: Option<String>,
    pub lang: Option<String>,
}

/// The TV betting tiles (spec §9: purple, red and black by default; the rules document's
/// `tvTiles`).
#[utoipa::path(get, path = "/api/tvbet/tiles", tag = "providers",
    responses((status = 200, body = Envelope<shapes::TvTiles>)))]
pub async fn tv_tiles(State(state): State<AppState>) -> ApiResult<shapes::TvTiles> {
    let rules = state.casino.feeds().rules().await?;
    ok(shapes::TvTiles { provider: "tvbet".into(), unavailable: state.casino.feeds().unavailable("tvbet").await?, tiles: rules.tv_tiles })
}

/// A TV betting session token (provider `tvbet`) and the frame's address.
#[utoipa::path(get, path = "/api/tvbet/token", tag = "providers", params(TvTokenQuery),
    responses((status = 200, body = Envelope<ProviderLink>), (status = "default", description = "47, 61, 60, 62, 71", body = ErrorEnvelope)))]
pub async fn tv_token(State(state): State<AppState>, MaybeSession(session): MaybeSession, ReplyLang(reply): ReplyLang, QueryParams(q): QueryParams<TvTokenQuery>) -> ApiResult<ProviderLink> {
    let v = viewer(&session);
    if !v.is_some_and(|p| p.role == 0) {
        return Err(AppError::new(ErrorCode::BetsNotAllowed).into());
    }
    let game = match q.game_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(g) => shapes::identifier("game_id", Some(g))?,
        None => listed(&state, v, reply, &["tvbet"]).await?.0.first().map(|l| l.game.game_id.clone()).unwrap_or_default(),
    };
    let l = launch(&state, v, &["tvbet"], &game, q.lang.as_deref().unwrap_or(reply), "mobile").await?;
    ok(link(l, &[]))
}

// ------------------------------------------------------------------------------ images

async fn image_reply(state: &AppState, provider: &str, file: &str) -> Response {
    match crate::catalogue_refresh::read_image(&state.config.catalogue.image_dir, provider, file).await {
        Some((bytes, content_type)) => {
            let mut r = bytes.into_response();
            let h = r.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
            // A provider's SVG is data to draw, never a document to run.
            h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"));
            r
        }
        None => ApiError(AppError::new(ErrorCode::NotFound)).into_response(),
    }
}

/// A cached provider image (`/provider-images/{provider}/{file}`, written by the catalogue
/// refresh job). Not in the OpenAPI document: a static file.
async fn cached_image(State(state): State<AppState>, PathParam((provider, file)): PathParam<(String, String)>) -> Response {
    image_reply(&state, &provider, &file).await
}
