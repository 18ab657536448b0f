//! `/api/site/*` and the language call (spec §7 "Site").

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope, Ok};
use super::extract::{session_token, JsonBody, PathParam, QueryParams};
use super::types::*;
use crate::app::AppState;
use axum::extract::State;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use content::{lang, Ad, FlatPage, Slide};
use kernel::{AppError, ErrorCode};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/site/settings", get(settings))
        .route("/api/site/flatpages/list/{lang}", get(flat_pages))
        .route("/api/site/slides", get(slides))
        .route("/api/site/ads", get(ads))
        .route("/api/bs3/remote/SetLanguage", post(set_language))
}

/// Site settings (spec §3 Settings): languages, currencies (never FUN), limits, the
/// public `phoneCodeSalt`, the error-code catalogue version.
#[utoipa::path(get, path = "/api/site/settings", tag = "site", responses((status = 200, body = Envelope<Object>)))]
pub async fn settings(State(state): State<AppState>) -> ApiResult<serde_json::Value> {
    let mut s = state.content.settings().await?;
    if let Some(obj) = s.as_object_mut() {
        obj.insert("phoneCodeSalt".into(), state.config.accounts.phone_code_salt.clone().into());
        obj.insert("phoneCountryCode".into(), "+216".into());
        obj.insert("phoneLength".into(), 8.into());
        obj.insert("demo".into(), state.is_demo().into());
    }
    ok(s)
}

/// Flat pages of a language (fr-fr/fr, en-US/en, ar-ar/ar; others get English), by
/// priority, highest first. HTML is sanitised.
#[utoipa::path(get, path = "/api/site/flatpages/list/{lang}", tag = "site", params(("lang" = String, Path)),
    responses((status = 200, body = Envelope<Vec<FlatPage>>)))]
pub async fn flat_pages(State(state): State<AppState>, PathParam(lang): PathParam<String>) -> ApiResult<Vec<FlatPage>> {
    let pages = state.content.flat_pages(&lang).await?;
    ok(pages.as_ref().clone())
}

/// Slides for `lang` mapped to en, fr, ar (others and none: all slides).
#[utoipa::path(get, path = "/api/site/slides", tag = "site", params(LangQuery), responses((status = 200, body = Envelope<Vec<Slide>>)))]
pub async fn slides(State(state): State<AppState>, QueryParams(q): QueryParams<LangQuery>) -> ApiResult<Vec<Slide>> {
    ok(state.content.slides(q.lang.as_deref()).await?)
}

/// Advertisement banners (optionally for a language).
#[utoipa::path(get, path = "/api/site/ads", tag = "site", params(LangQuery), responses((status = 200, body = Envelope<Vec<Ad>>)))]
pub async fn ads(State(state): State<AppState>, QueryParams(q): QueryParams<LangQuery>) -> ApiResult<Vec<Ad>> {
    ok(state.content.ads(q.lang.as_deref()).await?)
}

/// Sets the language (a `lang` cookie, and the player's language when signed in).
#[utoipa::path(post, path = "/api/bs3/remote/SetLanguage", tag = "site", request_body = SetLanguageRequest,
    responses((status = 200, body = Envelope<SetLanguageReply>), (status = "default", description = "48 unsupported language, 40", body = ErrorEnvelope)))]
pub async fn set_language(State(state): State<AppState>, parts: Parts, JsonBody(req): JsonBody<SetLanguageRequest>) -> Result<Response, ApiError> {
    let given = match &req.language_id {
        serde_json::Value::String(s) => s.clone(),
        other => return Err(super::envelope::bad_request(format!("languageId must be a string, not {other}"))),
    };
    let id = lang::canonical(&given).ok_or(ErrorCode::UnsupportedLanguage)?;
    if let Some(token) = session_token(&parts) {
        if let Result::Ok(user) = state.accounts.authenticate(&token).await {
            state.accounts.set_language(user.id, id).await?;
        }
    }
    let applied = i64::from(lang::APP_LANGUAGES.contains(&id));
    let mut resp = Ok(SetLanguageReply { language_id: id.to_string(), applied }).into_response();
    let cookie = HeaderValue::from_str(&format!("lang={id}; Path=/; SameSite=Lax; Max-Age=31536000"))
        .map_err(|e| ApiError(AppError::internal(e)))?;
    resp.headers_mut().append(header::SET_COOKIE, cookie);
    Result::Ok(resp)
}
