//! `/api/user/*`: sign-up, sign-in, sessions, recovery, profile (spec §7 "User").

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope, Ok};
use super::extract::{ClientInfo, JsonBody, PathParam, Session, SESSION_COOKIE};
use super::types::*;
use crate::app::AppState;
use accounts::{EmailSignup, LoginKind, PhoneSignup, ProfileUpdate, SignedIn};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::Router;
use kernel::clock::{now_ms, to_rfc3339};
use kernel::money::MajorUnits;
use wallet::BalanceKind;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/user/login/email", post(login_email))
        .route("/api/user/login/phone", post(login_phone))
        .route("/api/user/login", post(login))
        .route("/api/user/signup", post(signup))
        .route("/api/user/signup/phone", post(signup_phone))
        .route("/api/user/signup/one-click", post(signup_one_click))
        .route("/api/user/email/verify/{code}", get(verify_email))
        .route("/api/user/check", get(check))
        .route("/api/user/logout", get(logout))
        .route("/api/user/phone/code", post(phone_code))
        .route("/api/user/password/restore", post(restore_email))
        .route("/api/user/password/restore/phone", post(restore_phone))
        .route("/api/user/password/restore/new", post(restore_email_new))
        .route("/api/user/password/restore/phone/new", post(restore_phone_new))
        .route("/api/user/password/change", post(change_password))
        .route("/api/user/profile", get(profile))
        .route("/api/user/profile/additional/update", put(update_profile))
}

pub(crate) fn session_cookie(state: &AppState, token: &str, max_age_secs: i64) -> HeaderValue {
    named_cookie(state, SESSION_COOKIE, token, max_age_secs)
}

/// `name=token` for the session's lifetime (HttpOnly, SameSite=Lax, Secure when configured).
pub(crate) fn named_cookie(state: &AppState, name: &str, token: &str, max_age_secs: i64) -> HeaderValue {
    let secure = if state.config.secure_cookies { "; Secure" } else { "" };
    let value = format!("{name}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_secs}{secure}");
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("carthage_session=; Path=/; Max-Age=0"))
}

fn signed_in_response<T: serde::Serialize>(state: &AppState, s: &SignedIn, body: T) -> Response {
    signed_in_response_with(state, SESSION_COOKIE, s, body)
}

/// The reply to a sign-in, with the session's cookie `name`.
pub(crate) fn signed_in_response_with<T: serde::Serialize>(state: &AppState, name: &str, s: &SignedIn, body: T) -> Response {
    let max_age = ((s.expires_at - now_ms()) / 1000).max(0);
    let mut resp = Ok(body).into_response();
    resp.headers_mut().append(header::SET_COOKIE, named_cookie(state, name, &s.token, max_age));
    resp
}

pub(crate) fn session_reply(state: &AppState, s: &SignedIn) -> SessionReply {
    SessionReply {
        token: s.token.clone(),
        expires_at: to_rfc3339(s.expires_at),
        user: UserReply::new(&s.user, state.config.accounts.special_user_id),
    }
}

/// A field refusal (`result.field`) names the field as the client sent it.
fn rename_field(mut e: kernel::AppError, from: &str, to: &str) -> kernel::AppError {
    if let Some(field) = e.data.as_mut().and_then(|d| d.get_mut("field")) {
        if field == from {
            *field = serde_json::Value::from(to);
        }
    }
    if e.detail.as_deref().is_some_and(|d| d.starts_with(&format!("{from}: "))) {
        e.detail = e.detail.map(|d| format!("{to}{}", &d[from.len()..]));
    }
    e
}

async fn do_login(state: AppState, kind: LoginKind, login: &str, password: &str, client: &accounts::Client) -> Result<Response, ApiError> {
    let s = state.accounts.login(kind, login, password, client).await?;
    let reply = session_reply(&state, &s);
    Result::Ok(signed_in_response(&state, &s, reply))
}

/// Sign in with an e-mail address.
#[utoipa::path(post, path = "/api/user/login/email", tag = "user", request_body = LoginEmailRequest,
    responses((status = 200, description = "Signed in; sets the session cookie", body = Envelope<SessionReply>),
              (status = "default", description = "2 invalid login, 3 no such user, 4 incorrect password, 5 banned, 11 not verified, 14 rate limited, 16 locked, 40/42/45 bad request", body = ErrorEnvelope)))]
pub async fn login_email(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<LoginEmailRequest>) -> Result<Response, ApiError> {
    do_login(state, LoginKind::Email, &req.email, &req.password, &client).await
}

/// Sign in with a phone number.
#[utoipa::path(post, path = "/api/user/login/phone", tag = "user", request_body = LoginPhoneRequest,
    responses((status = 200, description = "Signed in; sets the session cookie", body = Envelope<SessionReply>),
              (status = "default", description = "2, 3, 4, 5, 14, 16, 40", body = ErrorEnvelope)))]
pub async fn login_phone(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<LoginPhoneRequest>) -> Result<Response, ApiError> {
    do_login(state, LoginKind::Phone, &req.phone, &req.password, &client).await
}

/// Universal sign-in: a login without `@` or `.` is a phone.
#[utoipa::path(post, path = "/api/user/login", tag = "user", request_body = LoginRequest,
    responses((status = 200, description = "Signed in; sets the session cookie", body = Envelope<SessionReply>),
              (status = "default", description = "2, 3, 4, 5, 11, 14, 16, 40", body = ErrorEnvelope)))]
pub async fn login(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<LoginRequest>) -> Result<Response, ApiError> {
    do_login(state, LoginKind::Universal, &req.login, &req.password, &client).await
}

/// E-mail sign-up: creates the account and e-mails a verification link.
#[utoipa::path(post, path = "/api/user/signup", tag = "user", request_body = SignupRequest,
    responses((status = 200, body = Envelope<EmailSignupReply>),
              (status = "default", description = "1 exists, 14 rate limited, 17 currency, 18 e-mail invalid, 231 weak password, 40", body = ErrorEnvelope)))]
pub async fn signup(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<SignupRequest>) -> ApiResult<EmailSignupReply> {
    let allowed = state.content.registration_currencies().await?;
    let promocode = req.promocode.clone();
    let user = state
        .accounts
        .signup_email(
            EmailSignup {
                email: req.email,
                password: req.password,
                currency: req.currency,
                lang: req.lang,
                promocode: req.promocode,
                ref_id: req.ref_id,
            },
            &allowed,
            &client,
        )
        .await?;
    super::promotions::apply_signup_code(&state, user.id, promocode.as_deref()).await;
    ok(EmailSignupReply { id: user.id, email: user.email.unwrap_or_default(), verification_sent: true })
}

/// Phone sign-up with the SMS code from `phone/code`; signs in.
#[utoipa::path(post, path = "/api/user/signup/phone", tag = "user", request_body = PhoneSignupRequest,
    responses((status = 200, description = "Signed in; sets the session cookie", body = Envelope<SessionReply>),
              (status = "default", description = "1 exists, 12 SMS code invalid, 15 phone invalid, 17 currency, 231 weak password, 40", body = ErrorEnvelope)))]
pub async fn signup_phone(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<PhoneSignupRequest>) -> Result<Response, ApiError> {
    let allowed = state.content.registration_currencies().await?;
    let code_field = if req.code.as_deref().is_some_and(|c| !c.trim().is_empty()) { "code" } else { "phoneCode" };
    let code = req.code.filter(|c| !c.trim().is_empty()).or(req.phone_code).unwrap_or_default();
    let promocode = req.promocode.clone();
    let s = state
        .accounts
        .signup_phone(
            PhoneSignup {
                phone: req.phone,
                code,
                password: req.password,
                currency: req.currency,
                lang: req.lang,
                promocode: req.promocode,
                ref_id: req.ref_id,
            },
            &allowed,
            &client,
        )
        .await
        .map_err(|e| rename_field(e, "code", code_field))?;
    super::promotions::apply_signup_code(&state, s.user.id, promocode.as_deref()).await;
    let reply = session_reply(&state, &s);
    Result::Ok(signed_in_response(&state, &s, reply))
}

/// One-click registration: a generated e-mail login and password, returned once; signs in.
#[utoipa::path(post, path = "/api/user/signup/one-click", tag = "user", request_body = OneClickRequest,
    responses((status = 200, body = Envelope<OneClickReply>), (status = "default", description = "17 currency, 40", body = ErrorEnvelope)))]
pub async fn signup_one_click(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<OneClickRequest>) -> Result<Response, ApiError> {
    let allowed = state.content.registration_currencies().await?;
    let (s, password) = state
        .accounts
        .signup_one_click(req.currency.as_deref(), req.lang.as_deref(), req.promocode.as_deref(), &allowed, &client)
        .await?;
    super::promotions::apply_signup_code(&state, s.user.id, req.promocode.as_deref()).await;
    let reply = OneClickReply {
        email: s.user.email.clone().unwrap_or_default(),
        password,
        token: s.token.clone(),
        expires_at: to_rfc3339(s.expires_at),
        user: UserReply::new(&s.user, state.config.accounts.special_user_id),
    };
    Result::Ok(signed_in_response(&state, &s, reply))
}

/// Confirms an e-mail address with the code from the verification link.
#[utoipa::path(get, path = "/api/user/email/verify/{code}", tag = "user", params(("code" = String, Path)),
    responses((status = 200, body = Envelope<VerifyReply>), (status = "default", description = "6 invalid key, 7 expired, 8 already verified", body = ErrorEnvelope)))]
pub async fn verify_email(State(state): State<AppState>, PathParam(code): PathParam<String>) -> ApiResult<VerifyReply> {
    let user = state.accounts.verify_email(&code).await?;
    ok(VerifyReply { id: user.id, email: user.email, verified: true })
}

/// The signed-in user.
#[utoipa::path(get, path = "/api/user/check", tag = "user",
    responses((status = 200, body = Envelope<UserReply>), (status = "default", description = "23 not signed in, 5 banned", body = ErrorEnvelope)))]
pub async fn check(State(state): State<AppState>, session: Session) -> ApiResult<UserReply> {
    ok(UserReply::new(&session.user, state.config.accounts.special_user_id))
}

/// Ends the session and clears the cookie (always succeeds).
#[utoipa::path(get, path = "/api/user/logout", tag = "user", responses((status = 200, body = Envelope<DoneReply>)))]
pub async fn logout(State(state): State<AppState>, req: axum::http::request::Parts) -> Result<Response, ApiError> {
    if let Some(token) = super::extract::session_token(&req) {
        state.accounts.logout(&token).await?;
    }
    let mut resp = Ok(DoneReply { done: true }).into_response();
    resp.headers_mut().append(header::SET_COOKIE, session_cookie(&state, "", 0));
    Result::Ok(resp)
}

/// Sends a sign-up SMS code.
#[utoipa::path(post, path = "/api/user/phone/code", tag = "user", request_body = PhoneCodeRequest,
    responses((status = 200, body = Envelope<PhoneCodeReply>),
              (status = "default", description = "1 phone registered, 13 daily SMS limit, 14 rate limited, 15 phone invalid, 19 hash invalid", body = ErrorEnvelope)))]
pub async fn phone_code(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<PhoneCodeRequest>) -> ApiResult<PhoneCodeReply> {
    let (phone, id) = state.accounts.request_signup_code(&req.phone, &req.hash, &client).await?;
    ok(PhoneCodeReply { phone, id })
}

/// E-mails a password recovery code.
#[utoipa::path(post, path = "/api/user/password/restore", tag = "user", request_body = RestoreEmailRequest,
    responses((status = 200, body = Envelope<RestoreEmailReply>), (status = "default", description = "18 e-mail invalid, 21 no such user, 14 rate limited", body = ErrorEnvelope)))]
pub async fn restore_email(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<RestoreEmailRequest>) -> ApiResult<RestoreEmailReply> {
    let email = state.accounts.restore_by_email(&req.email, &client).await?;
    ok(RestoreEmailReply { email })
}

/// Sends a password recovery SMS code.
#[utoipa::path(post, path = "/api/user/password/restore/phone", tag = "user", request_body = RestorePhoneRequest,
    responses((status = 200, body = Envelope<RestorePhoneReply>), (status = "default", description = "13, 14, 15 phone invalid, 22 no such user", body = ErrorEnvelope)))]
pub async fn restore_phone(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<RestorePhoneRequest>) -> ApiResult<RestorePhoneReply> {
    let (user_phone, request_id) = state.accounts.restore_by_phone(&req.phone, &client).await?;
    ok(RestorePhoneReply { user_phone, request_id })
}

/// Sets a new password with the e-mailed recovery code; ends every session.
#[utoipa::path(post, path = "/api/user/password/restore/new", tag = "user", request_body = RestoreNewRequest,
    responses((status = 200, body = Envelope<DoneReply>), (status = "default", description = "9 not found, 10 expired, 231 weak", body = ErrorEnvelope)))]
pub async fn restore_email_new(State(state): State<AppState>, JsonBody(req): JsonBody<RestoreNewRequest>) -> ApiResult<DoneReply> {
    state.accounts.restore_email_new(&req.code, &req.new_password).await?;
    ok(DoneReply { done: true })
}

/// Sets a new password with the SMS recovery code; ends every session.
#[utoipa::path(post, path = "/api/user/password/restore/phone/new", tag = "user", request_body = RestorePhoneNewRequest,
    responses((status = 200, body = Envelope<DoneReply>),
              (status = "default", description = "10 expired, 15 phone invalid, 22 no such user, 101 no request, 102 code mismatch, 231 weak", body = ErrorEnvelope)))]
pub async fn restore_phone_new(State(state): State<AppState>, ClientInfo(client): ClientInfo, JsonBody(req): JsonBody<RestorePhoneNewRequest>) -> ApiResult<DoneReply> {
    state.accounts.restore_phone_new(&req.phone, &req.code, &req.new_password, &client).await?;
    ok(DoneReply { done: true })
}

/// Changes the password; other sessions end.
#[utoipa::path(post, path = "/api/user/password/change", tag = "user", request_body = ChangePasswordRequest,
    responses((status = 200, body = Envelope<DoneReply>), (status = "default", description = "4 incorrect password, 23 not signed in, 231 weak", body = ErrorEnvelope)))]
pub async fn change_password(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<ChangePasswordRequest>) -> ApiResult<DoneReply> {
    state.accounts.change_password(&session.user, &session.token, &req.password, &req.new_password).await?;
    ok(DoneReply { done: true })
}

async fn profile_reply(state: &AppState, user: &accounts::User) -> Result<ProfileReply, ApiError> {
    let balance = state.ledger.balance(user.id, BalanceKind::Real, user.currency).await?;
    Result::Ok(ProfileReply {
        id: user.id,
        email: user.email.clone(),
        phone: user.phone.clone(),
        currency: user.currency.code().to_string(),
        balance: MajorUnits::new(balance, user.currency),
        first_name: user.first_name.clone(),
        last_name: user.last_name.clone(),
        middle_name: user.middle_name.clone(),
        birth_date: user.birth_date.clone(),
        gender: user.gender.clone(),
        number_document: user.number_document.clone(),
        address: user.address.clone(),
        card: user.card.clone(),
        yandex: user.yandex.clone(),
    })
}

/// The player's profile.
#[utoipa::path(get, path = "/api/user/profile", tag = "user",
    responses((status = 200, body = Envelope<ProfileReply>), (status = "default", description = "23 not signed in", body = ErrorEnvelope)))]
pub async fn profile(State(state): State<AppState>, session: Session) -> ApiResult<ProfileReply> {
    ok(profile_reply(&state, &session.user).await?)
}

/// Updates personal data; returns the profile.
#[utoipa::path(put, path = "/api/user/profile/additional/update", tag = "user", request_body = ProfileUpdateRequest,
    responses((status = 200, body = Envelope<ProfileReply>),
              (status = "default", description = "1 phone taken, 15 phone invalid, 23 not signed in, 47 invalid field", body = ErrorEnvelope)))]
pub async fn update_profile(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<ProfileUpdateRequest>) -> ApiResult<ProfileReply> {
    let user = state
        .accounts
        .update_profile(
            &session.user,
            ProfileUpdate {
                first_name: req.first_name,
                last_name: req.last_name,
                middle_name: req.middle_name,
                birth_date: req.birth_date,
                phone: req.phone,
                number_document: req.number_document,
                gender: req.gander.clone().or(req.gender),
            },
        )
        .await
        .map_err(|e| if req.gander.is_none() { rename_field(e, "gander", "gender") } else { e })?;
    ok(profile_reply(&state, &user).await?)
}
