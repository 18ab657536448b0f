//! Extractors whose every rejection is an envelope with a catalogue code (never axum's
//! plain-text rejections): JSON bodies, query strings, path parameters, the session and
//! the client's address.

use super::envelope::{bad_request, ApiError};
use crate::app::AppState;
use accounts::{Client, User};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, FromRef, FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use kernel::{AppError, ErrorCode};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;

pub const SESSION_COOKIE: &str = "carthage_session";
/// The console's session (opened with the second factor): a cookie of its own, so a staff
/// member's console and a player app in the same browser never end each other's session.
pub const STAFF_COOKIE: &str = "carthage_staff";

/// A JSON body. Malformed JSON, a top level other than an object (serde would read a
/// struct from an array), missing or mistyped fields → 40; a body over the limit → 42; a
/// body that is not `application/json` → 45.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !json_content_type(req.headers()) {
            return Err(ApiError(AppError::new(ErrorCode::UnsupportedMediaType)));
        }
        let bytes = match axum::body::Bytes::from_request(req, state).await {
            Ok(b) => b,
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                return Err(ApiError(AppError::new(ErrorCode::PayloadTooLarge)))
            }
            Err(_) => return Err(bad_request("the body could not be read")),
        };
        json_object(&bytes).map(JsonBody)
    }
}

/// Parses a JSON object body into `T`. JSON does not tell `5` from `5.0` (JSON Schema calls
/// both integers), so when the strict parse fails on a number, integral floats are read as
/// integers and the parse is tried again; anything else keeps its first error (40).
pub fn json_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(bad_request("the body must be a JSON object"));
    }
    match serde_json::from_slice::<T>(bytes) {
        Ok(v) => Ok(v),
        Err(e) if e.is_data() => {
            let retried = serde_json::from_slice::<serde_json::Value>(bytes).ok().and_then(|mut v| {
                integral_floats_to_integers(&mut v).then(|| serde_json::from_value::<T>(v).ok()).flatten()
            });
            retried.ok_or_else(|| bad_request(format!("invalid field: {e}")))
        }
        Err(_) => Err(bad_request("the body is not valid JSON")),
    }
}

/// Rewrites every float with no fractional part (within ±2^53, where a float is exact) as
/// an integer; true when something changed.
fn integral_floats_to_integers(v: &mut serde_json::Value) -> bool {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match v {
        serde_json::Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() <= EXACT => {
                *v = serde_json::Value::from(f as i64);
                true
            }
            _ => false,
        },
        serde_json::Value::Array(items) => items.iter_mut().fold(false, |changed, x| integral_floats_to_integers(x) | changed),
        serde_json::Value::Object(map) => map.values_mut().fold(false, |changed, x| integral_floats_to_integers(x) | changed),
        _ => false,
    }
}

/// `application/json` or `application/…+json`, with any parameters.
fn json_content_type(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// A query string; bad parameters → 40.
pub struct QueryParams<T>(pub T);

impl<S, T> FromRequestParts<S> for QueryParams<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(QueryParams(v)),
            Err(QueryRejection::FailedToDeserializeQueryString(e)) => Err(bad_request(format!("invalid query: {}", e.body_text()))),
            Err(e) => Err(bad_request(e.body_text())),
        }
    }
}

/// Path parameters; bad ones → 40.
pub struct PathParam<T>(pub T);

impl<S, T> FromRequestParts<S> for PathParam<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(PathParam(v)),
            Err(PathRejection::FailedToDeserializePathParams(e)) => Err(bad_request(e.body_text())),
            Err(e) => Err(bad_request(e.body_text())),
        }
    }
}

/// The session token: the `carthage_session` cookie, or `Authorization: Bearer <token>`
/// (a bare token in `Authorization` is accepted too, as the spec's clients send it).
pub fn session_token(parts: &Parts) -> Option<String> {
    bearer_token(parts).or_else(|| cookie(parts, SESSION_COOKIE))
}

/// The console's token: the `Authorization` header, else the staff cookie, else the player
/// cookie (whose session has no second factor: the console answers 142 to it).
pub fn staff_session_token(parts: &Parts) -> Option<String> {
    bearer_token(parts).or_else(|| cookie(parts, STAFF_COOKIE)).or_else(|| cookie(parts, SESSION_COOKIE))
}

pub(crate) fn bearer_token(parts: &Parts) -> Option<String> {
    let auth = parts.headers.get(axum::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok())?;
    let t = auth.trim();
    let t = t.strip_prefix("Bearer ").or_else(|| t.strip_prefix("bearer ")).unwrap_or(t).trim();
    (!t.is_empty()).then(|| t.to_string())
}

pub(crate) fn cookie(parts: &Parts, name: &str) -> Option<String> {
    for header in parts.headers.get_all(axum::http::header::COOKIE) {
        let Ok(text) = header.to_str() else { continue };
        for pair in text.split(';') {
            if let Some((k, v)) = pair.trim().split_once('=') {
                if k == name && !v.is_empty() {
                    return Some(v.to_string());
                }
            }
        }
    }
    None
}

/// A signed-in user (any role, not banned). 23 without a live session, 5 when banned.
pub struct Session {
    pub user: User,
    pub token: String,
    /// The session's id (a game launched now ends with it).
    pub session_id: i64,
}

impl<S> FromRequestParts<S> for Session
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let token = session_token(parts).ok_or(ErrorCode::NotAuthenticated)?;
        let (user, session_id) = state.accounts.authenticate_session(&token).await?;
        Ok(Session { user, token, session_id })
    }
}

/// The client's address and agent (for rate limits and session records).
pub struct ClientInfo(pub Client);

/// The address a request comes from: the peer, or behind our own proxy (`TRUST_PROXY`) the
/// **last** `X-Forwarded-For` entry — the one our proxy appended, the address that connected
/// to it. The entries before it are the client's own word (a client sending
/// `X-Forwarded-For: 1.2.3.4` must not get a fresh rate-limit bucket per request). An
/// unparsable last entry reads as unknown, never as the peer (the proxy's own address).
pub fn client_ip(parts: &Parts, trust_proxy: bool) -> Option<std::net::IpAddr> {
    let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    if !trust_proxy {
        return peer;
    }
    let forwarded = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .last()
        .map(|v| v.parse::<std::net::IpAddr>().ok());
    match forwarded {
        Some(parsed) => parsed,
        None => peer,
    }
}

impl<S> FromRequestParts<S> for ClientInfo
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let ip = client_ip(parts, state.config.trust_proxy).map(|ip| ip.to_string()).unwrap_or_else(|| "unknown".into());
        let user_agent = parts
            .headers
            .get(axum::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let lang = parts
            .headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .and_then(content::lang::from_accept_language)
            .map(str::to_string);
        Ok(ClientInfo(Client { ip, user_agent, lang }))
    }
}

/// The signed-in session when there is one (catalogue reads work for guests too). An
/// absent, expired or revoked session reads as a guest.
pub struct MaybeSession(pub Option<Session>);


impl<S> FromRequestParts<S> for MaybeSession
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Session::from_request_parts(parts, state).await {
            Ok(session) => Ok(MaybeSession(Some(session))),
            Err(ApiError(e)) if e.code == ErrorCode::Internal => Err(ApiError(e)),
            Err(_) => Ok(MaybeSession(None)),
        }
    }
}

/// The raw body (signed provider calls): over the limit → 42, unreadable → 40.
pub struct RawBody(pub axum::body::Bytes);

impl<S> FromRequest<S> for RawBody
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::body::Bytes::from_request(req, state).await {
            Ok(b) => Ok(RawBody(b)),
            Err(e) if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError(AppError::new(ErrorCode::PayloadTooLarge))),
            Err(_) => Err(bad_request("the body could not be read")),
        }
    }
}

/// The game session named by `X-Game-Session` (studio game clients): live, else 63; a
/// request without the header (or with an empty one) is not a game client's → 33 (401).
pub struct GameSessionHeader(pub casino::GameSession);

impl<S> FromRequestParts<S> for GameSessionHeader
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let token = parts.headers.get("x-game-session").and_then(|v| v.to_str().ok()).unwrap_or("").trim().to_string();
        if token.is_empty() {
            return Err(ApiError(AppError::new(ErrorCode::GameSessionRequired)));
        }
        Ok(GameSessionHeader(state.casino.sessions().live(&token).await?))
    }
}

/// The language of a reply's catalogue texts: the first app language (`en`, `fr`, `ar`)
/// of the request's `Accept-Language` (the app sends its own language there), English
/// otherwise. Never a rejection.
pub struct ReplyLang(pub &'static str);

impl<S: Send + Sync> FromRequestParts<S> for ReplyLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let header = parts.headers.get(axum::http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
        Ok(ReplyLang(content::lang::from_accept_language(header).unwrap_or("en")))
    }
}
