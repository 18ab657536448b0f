//! The console's sign-in (issue 22; docs/BACKOFFICE.md "Staff sign-in"): password and a TOTP
//! code for every staff role (`accounts::totp`). The session it opens is the only kind the
//! console admits, lives shorter than a player's and has a cookie of its own
//! (`carthage_staff`).

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope, Ok};
use super::staff::{allowed, perm, Permission, Staff};
use super::extract::{bearer_token, cookie, ClientInfo, JsonBody, STAFF_COOKIE};
use super::types::{DoneReply, SessionReply};
use super::user::{named_cookie, session_reply, signed_in_response_with};
use crate::app::AppState;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/staff/login", post(login))
        .route("/api/staff/totp/enrol", post(enrol))
        .route("/api/staff/logout", post(logout))
        .route("/api/admin/me", get(me))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffLoginRequest {
    /// The staff member's e-mail or phone.
    pub login: String,
    pub password: String,
    /// The 6-digit code the authenticator app shows now. Without it, a right password
    /// answers 142 (or 144 when no authenticator is set up yet).
    #[serde(default)]
    pub code: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffEnrolRequest {
    pub login: String,
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrolReply {
    /// Base32, for typing into the authenticator app by hand.
    pub secret: String,
    /// `otpauth://totp/Carthage:…?secret=…&issuer=Carthage…`, for a QR code.
    pub otpauth_uri: String,
}

/// Staff sign-in with the second factor. Sets the `carthage_staff` cookie.
#[utoipa::path(post, path = "/api/staff/login", tag = "admin", request_body = StaffLoginRequest,
    responses((status = 200, description = "Signed in to the console", body = Envelope<SessionReply>),
              (status = "default", description = "2, 3, 4, 5, 14, 16 as the player sign-in; 24 not a staff account; 142 code required; 143 code incorrect or used; 144 no authenticator yet (enrol)", body = ErrorEnvelope)))]
pub async fn login(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<StaffLoginRequest>) -> Result<Response, ApiError> {
    let s = state.accounts.staff_login(&req.login, &req.password, req.code.as_deref(), &client).await?;
    let reply = session_reply(&state, &s);
    Result::Ok(signed_in_response_with(&state, STAFF_COOKIE, &s, reply))
}

/// Sets up the authenticator of a staff account that has none confirmed yet: a new secret,
/// confirmed by the first sign-in with its code.
#[utoipa::path(post, path = "/api/staff/totp/enrol", tag = "admin", request_body = StaffEnrolRequest,
    responses((status = 200, body = Envelope<EnrolReply>),
              (status = "default", description = "2, 3, 4, 5, 14, 16 as the player sign-in; 24 not a staff account; 145 already set up", body = ErrorEnvelope)))]
pub async fn enrol(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<StaffEnrolRequest>) -> ApiResult<EnrolReply> {
    let e = state.accounts.staff_enrol(&req.login, &req.password, &client).await?;
    ok(EnrolReply { secret: e.secret, otpauth_uri: e.otpauth_uri })
}

/// Ends the console session (the `Authorization` header's or the staff cookie's) and clears
/// its cookie (always succeeds). A player-app session is never ended here, whatever token
/// names it.
#[utoipa::path(post, path = "/api/staff/logout", tag = "admin", responses((status = 200, body = Envelope<DoneReply>)))]
pub async fn logout(State(state): State<AppState>, req: axum::http::request::Parts) -> Result<Response, ApiError> {
    if let Some(token) = bearer_token(&req).or_else(|| cookie(&req, STAFF_COOKIE)) {
        state.accounts.logout_console(&token).await?;
    }
    let mut resp = Ok(DoneReply { done: true }).into_response();
    resp.headers_mut().append(header::SET_COOKIE, named_cookie(&state, STAFF_COOKIE, "", 0));
    Result::Ok(resp)
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffMe {
    pub id: i64,
    pub email: Option<String>,
    pub first_name: String,
    pub last_name: String,
    /// `admin`, `support`, `finance` or `content`.
    pub role: String,
    /// As the audit trail names this staff member (`admin:12`).
    pub actor: String,
    /// What this role may do (`players.read`, `withdrawals.decide`, …): the console shows
    /// only these sections; the server checks every call again.
    pub permissions: Vec<String>,
}

/// The signed-in staff member (any staff role, in a console session), and what they may do.
#[utoipa::path(get, path = "/api/admin/me", tag = "admin",
    responses((status = 200, body = Envelope<StaffMe>),
              (status = "default", description = "23 not signed in; 24 not staff; 142 a session without the second factor", body = ErrorEnvelope)))]
pub async fn me(staff: Staff<perm::Console>) -> ApiResult<StaffMe> {
    let u = &staff.session.user;
    let permissions = Permission::ALL.into_iter().filter(|p| allowed(u.role, *p)).map(|p| p.name().to_string()).collect();
    ok(StaffMe {
        id: u.id,
        email: u.email.clone(),
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        role: u.role.name().to_string(),
        actor: staff.actor.clone(),
        permissions,
    })
}
