//! The partner sportsbooks (docs/PARTNERS.md, spec §7): the app's frame endpoints, the
//! partners' wallet endpoints (each in its partner's own dialect, not our envelope), the
//! GR8 public key, and demo mode's partner pages. Thin: the adapters are in
//! `crate::partners`.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{MaybeSession, PathParam, QueryParams, RawBody, Session};
use crate::app::AppState;
use crate::partners::{self, frame_base, frame_lang, urlencode, DIGITAIN, GR8};
use axum::extract::{FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::IpAddr;
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/digitain/front/token", get(digitain_token))
        .route("/gr8/game_link", get(gr8_game_link))
        .route("/gr8/frame", get(gr8_frame))
        .route("/gr8/public-key", get(gr8_public_key))
        .route("/api/v2/wallet/{player_id}/transactions", post(gr8_transaction))
        .route("/api/digitain/{method}", post(digitain_wallet))
        .route("/partners/assets/page.css", get(page_css))
        .route("/partners/{partner}/action", post(demo_action))
        .route("/partners/{partner}/{lang}", get(demo_page))
        .route("/partners/{partner}/{lang}/", get(demo_page))
        .route("/partners/{partner}/{lang}/{*rest}", get(demo_page_deep))
}

/// `GET /digitain/front/token`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DigitainToken {
    /// A Digitain game session token; `"anonymous"` for a guest (the frame opens view-only).
    pub token: String,
    /// The frame's base: the app opens `{url}/{lang}{framePath}?token={token}`.
    pub url: String,
}

/// `GET /gr8/game_link`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Gr8Link {
    /// `{iframe}/{lang}/?jwt={RS256 JWT}`.
    pub game_link: String,
}

/// `GET /gr8/frame`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Gr8Frame {
    /// `{iframe}/{lang}/` (view-only, no JWT).
    pub frame: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LangQuery {
    /// en, ru, he, fr, ar, es, pt (anything else → en).
    pub lang: Option<String>,
}

/// A partner's frame base, after the operator's switch (62 when disabled) and, for a
/// signed-in player, the role (61) and per-player block (71).
async fn base_for(state: &AppState, partner: &str, url: &str, session: Option<&Session>) -> Result<String, AppError> {
    let enabled = state.casino.catalogue().provider_config(partner).await?.map(|c| c.enabled);
    let base = frame_base(enabled, url)?;
    if let Some(s) = session {
        if s.user.role.code() != 0 {
            return Err(AppError::new(ErrorCode::BetsNotAllowed));
        }
        let banned = state.casino.catalogue().banned_set(Some(s.user.id)).await?;
        if casino::catalogue::is_banned(partner, &banned) {
            return Err(AppError::new(ErrorCode::ProviderBlocked));
        }
    }
    Ok(base)
}

/// A partner game session for the signed-in player (ends with the sign-in).
async fn open_session(state: &AppState, partner: &str, s: &Session, lang: &str) -> Result<String, AppError> {
    state
        .casino
        .sessions()
        .create(casino::sessions::NewSession {
            user_id: s.user.id,
            player_session_id: Some(s.session_id),
            provider: partner,
            game_id: partners::SPORTSBOOK_GAME,
            currency: s.user.currency,
            lang,
            platform: "mobile",
        })
        .await
}

/// Spec §7: the Digitain frame token. Signed in (role 0): a fresh game session token for
/// the Digitain wallet's `authenticate`. Guest: `"anonymous"` (not an error).
#[utoipa::path(get, path = "/digitain/front/token", tag = "partners",
    responses((status = 200, body = Envelope<DigitainToken>), (status = "default", description = "60, 61, 62, 71", body = ErrorEnvelope)))]
pub async fn digitain_token(State(state): State<AppState>, MaybeSession(session): MaybeSession) -> ApiResult<DigitainToken> {
    let url = base_for(&state, DIGITAIN, &state.partners.config.digitain_url, session.as_ref()).await?;
    let token = match &session {
        Some(s) => open_session(&state, DIGITAIN, s, "en").await?,
        None => partners::ANONYMOUS_TOKEN.to_string(),
    };
    ok(DigitainToken { token, url })
}

/// Spec §7: the GR8 iframe link with a login JWT (RS256, key at `/gr8/public-key`).
/// Signed in only (23 for guests: they use `/gr8/frame`).
#[utoipa::path(get, path = "/gr8/game_link", tag = "partners", params(LangQuery),
    responses((status = 200, body = Envelope<Gr8Link>), (status = "default", description = "23, 60, 61, 62, 71", body = ErrorEnvelope)))]
pub async fn gr8_game_link(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<LangQuery>) -> ApiResult<Gr8Link> {
    let cfg = state.partners.config.clone();
    let base = base_for(&state, GR8, &cfg.gr8_iframe_url, Some(&session)).await?;
    let lang = frame_lang(q.lang.as_deref());
    // The wallet's stakes need a live GR8 session of this player (GR8 names the player).
    open_session(&state, GR8, &session, lang).await?;
    let key = state.partners.gr8_key().await?;
    let now = kernel::clock::now_ms() / 1000;
    let u = &session.user;
    let claims = serde_json::json!({
        "defaultCurrency": u.currency.code(),
        "externalUserId": u.id.to_string(),
        "operatorUserId": u.id.to_string(),
        "operatorUserName": u.phone.clone().or(u.email.clone()).unwrap_or_else(|| format!("player{}", u.id)),
        "country": cfg.gr8_country,
        "lang": lang,
        "iat": now,
        "exp": now + cfg.gr8_jwt_ttl_s,
    });
    ok(Gr8Link { game_link: format!("{base}/{lang}/?jwt={}", urlencode(&key.sign(&claims))) })
}

/// Spec §7: the GR8 frame without a login (guests allowed).
#[utoipa::path(get, path = "/gr8/frame", tag = "partners", params(LangQuery),
    responses((status = 200, body = Envelope<Gr8Frame>), (status = "default", description = "60, 62, 71", body = ErrorEnvelope)))]
pub async fn gr8_frame(State(state): State<AppState>, MaybeSession(session): MaybeSession, QueryParams(q): QueryParams<LangQuery>) -> ApiResult<Gr8Frame> {
    let session = session.filter(|s| s.user.role.code() == 0);
    let base = base_for(&state, GR8, &state.partners.config.gr8_iframe_url, session.as_ref()).await?;
    ok(Gr8Frame { frame: format!("{base}/{}/", frame_lang(q.lang.as_deref())) })
}

/// GR8's `get-public-key`: the JWT key's public half, SPKI PEM (`text/plain`), with its
/// key id in `X-Key-Id` (the JWT header's `kid`).
async fn gr8_public_key(State(state): State<AppState>) -> Response {
    match state.partners.gr8_key().await {
        Ok(key) => {
            let mut r = key.public_pem.clone().into_response();
            let h = r.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
            if let Ok(kid) = HeaderValue::from_str(&key.kid) {
                h.insert("x-key-id", kid);
            }
            r
        }
        Err(e) => ApiError(e).into_response(),
    }
}

fn json_reply(status: u16, body: String) -> Response {
    let mut r = (StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), body).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// The address a partner's call comes from: the peer, or behind our own proxy
/// (`TRUST_PROXY`) the last `X-Forwarded-For` entry — the one our proxy appended, the
/// address that connected to it (the entries before it are the client's own word).
pub struct PeerAddr(pub Option<IpAddr>);

impl FromRequestParts<AppState> for PeerAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(PeerAddr(super::extract::client_ip(parts, state.config.trust_proxy)))
    }
}

/// GR8's perform-transaction (its format; see `partners::gr8`).
async fn gr8_transaction(State(state): State<AppState>, PeerAddr(peer): PeerAddr, PathParam(player_id): PathParam<String>, headers: HeaderMap, RawBody(body): RawBody) -> Response {
    if !state.partners.config.gr8_allowed.allows(peer) {
        tracing::warn!(peer = ?peer, "gr8: a wallet call from an address not in GR8_ALLOWED_IPS");
        let refused = partners::gr8::Gr8Error { http: 403, code: "auth.address", message: "this address may not call the wallet".into() };
        return json_reply(403, refused.body().to_string());
    }
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let h = partners::gr8::Gr8Headers {
        brand: header("x-brand"),
        operator_id: header("x-operator-id"),
        timestamp: header("x-timestamp"),
        signature: header("x-signature"),
    };
    let (status, reply) = partners::gr8::perform(&state.partner_state(), &player_id, &h, &body).await;
    json_reply(status, reply.to_string())
}

/// Digitain's wallet methods (its format; see `partners::digitain`). A call from an address
/// not in `DIGITAIN_ALLOWED_IPS` is answered 403 `{"errorCode": 12}` and goes no further.
async fn digitain_wallet(State(state): State<AppState>, PeerAddr(peer): PeerAddr, PathParam(method): PathParam<String>, RawBody(body): RawBody) -> Response {
    if !state.partners.config.digitain_allowed.allows(peer) {
        tracing::warn!(peer = ?peer, "digitain: a wallet call from an address not in DIGITAIN_ALLOWED_IPS");
        return json_reply(403, serde_json::json!({ "errorCode": partners::digitain::INVALID_SIGNATURE }).to_string());
    }
    json_reply(200, partners::digitain::handle(&state.partner_state(), &method, &body).await)
}

// ---------------------------------------------------------------- demo pages

fn html(body: String) -> Response {
    let mut r = (StatusCode::OK, Html(body)).into_response();
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn known(state: &AppState, partner: &str) -> bool {
    state.is_demo() && (partner == GR8 || partner == DIGITAIN)
}

#[derive(Deserialize, Default)]
pub struct FrameQuery {
    #[serde(default)]
    token: String,
    #[serde(default)]
    jwt: String,
}

async fn demo_page(State(state): State<AppState>, PathParam((partner, lang)): PathParam<(String, String)>, uri: axum::http::Uri) -> Response {
    if !known(&state, &partner) {
        return ApiError(AppError::new(ErrorCode::NotFound)).into_response();
    }
    let q = Query::<FrameQuery>::try_from_uri(&uri).map(|Query(q)| q).unwrap_or_default();
    let credential = if partner == GR8 { q.jwt } else { q.token };
    html(partners::demo::page(&state, &partner, &lang, &credential).await)
}

/// The Digitain frame paths (`/Live/1`, `/SportEvent`, `/Favorite`, …) show the same page.
async fn demo_page_deep(State(state): State<AppState>, PathParam((partner, lang, _rest)): PathParam<(String, String, String)>, uri: axum::http::Uri) -> Response {
    demo_page(State(state), PathParam((partner, lang)), uri).await
}

async fn demo_action(State(state): State<AppState>, PathParam(partner): PathParam<String>, RawBody(body): RawBody) -> Response {
    if !known(&state, &partner) {
        return ApiError(AppError::new(ErrorCode::NotFound)).into_response();
    }
    let form: HashMap<String, String> = std::str::from_utf8(&body)
        .ok()
        .and_then(|b| format!("/?{b}").parse::<axum::http::Uri>().ok())
        .and_then(|u| Query::<HashMap<String, String>>::try_from_uri(&u).ok())
        .map(|Query(f)| f)
        .unwrap_or_default();
    html(partners::demo::action(&state, &partner, &form).await)
}

async fn page_css() -> Response {
    let mut r = partners::demo::PAGE_CSS.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/css; charset=utf-8"));
    r
}
