//! Responsible gambling (docs/PAYMENTS.md "Responsible gambling"): the player's deposit
//! limits, self-exclusion, cool-off and reality check. Thin handlers over
//! [`accounts::rg::Rg`]; amounts are major units as JSON numbers.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope, Ok as Reply};
use super::extract::{JsonBody, Session};
use super::user::session_cookie;
use crate::app::AppState;
use accounts::rg::{CoolOff, Exclusion, Limit, Period, RgState, RAISE_DELAY_MS};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::Router;
use kernel::clock::{now_ms, to_rfc3339};
use kernel::errors::RG_PERMANENT;
use kernel::money::{parse_major, MajorUnits, Minor};
use kernel::{AppError, Currency, ErrorCode};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/user/responsible-gambling", get(rg_state))
        .route("/api/user/responsible-gambling/deposit-limits", put(rg_set_limits))
        .route("/api/user/responsible-gambling/self-exclusion", post(rg_self_exclusion))
        .route("/api/user/responsible-gambling/cool-off", post(rg_cool_off))
        .route("/api/user/responsible-gambling/reality-check", put(rg_reality_check))
        .route("/api/user/responsible-gambling/session", get(rg_session))
}

// ------------------------------------------------------------------ shapes

/// One deposit limit: the amount in force, and a raise or removal waiting until
/// `pending_from` (`pending_amount` null with `pending_from` set: the limit is being removed).
#[derive(Debug, Serialize, ToSchema)]
pub struct DepositLimitReply {
    pub amount: Option<MajorUnits>,
    pub pending_amount: Option<MajorUnits>,
    /// ISO 8601; null when nothing is pending.
    pub pending_from: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DepositLimitsReply {
    pub day: Option<DepositLimitReply>,
    pub week: Option<DepositLimitReply>,
    pub month: Option<DepositLimitReply>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DepositsUsedReply {
    pub day: MajorUnits,
    pub week: MajorUnits,
    pub month: MajorUnits,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RgReply {
    pub currency: String,
    /// Each null (no limit) or the limit with what is pending.
    pub deposit_limits: DepositLimitsReply,
    /// Deposits credited in the rolling windows (24 h, 7 days, 30 days).
    pub used: DepositsUsedReply,
    /// ISO 8601 end of a self-exclusion in force; null when none or permanent.
    pub self_excluded_until: Option<String>,
    pub self_excluded_permanent: bool,
    /// ISO 8601 end of a cool-off in force.
    pub cool_off_until: Option<String>,
    /// 0 (off), 15, 30, 60 or 120.
    pub reality_check_minutes: i64,
    /// How long a raise or a removal of a limit waits (hours).
    pub raise_delay_hours: i64,
}

/// A deposit limit in major units (a JSON number, like every amount the API takes); null: no
/// limit; absent: unchanged. Any other type is malformed (40).
#[derive(Debug, Deserialize, ToSchema)]
pub struct DepositLimitsRequest {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>)]
    pub day: Option<Option<serde_json::Number>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>)]
    pub week: Option<Option<serde_json::Number>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>)]
    pub month: Option<Option<serde_json::Number>>,
}

/// A field that is present (even as null) is `Some`; absent is `None` (serde default).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<serde_json::Number>>, D::Error> {
    Option::<serde_json::Number>::deserialize(d).map(Some)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SelfExclusionRequest {
    /// `6m`, `1y` or `permanent`.
    pub period: String,
    /// The account's password (confirmation).
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CoolOffRequest {
    /// `24h`, `7d` or `30d`.
    pub period: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RealityCheckRequest {
    /// 0 (off), 15, 30, 60 or 120.
    pub minutes: i64,
}

/// A block taken: every session has ended (the cookie is cleared).
#[derive(Debug, Serialize, ToSchema)]
pub struct BlockReply {
    /// ISO 8601; null for a permanent self-exclusion.
    pub until: Option<String>,
    pub permanent: bool,
}

/// The signed-in session for the reality-check reminder.
#[derive(Debug, Serialize, ToSchema)]
pub struct RgSessionReply {
    /// ISO 8601 start of this sign-in.
    pub started_at: String,
    /// Net result of play since then (wins − stakes), major units.
    pub net: MajorUnits,
    pub currency: String,
    pub reality_check_minutes: i64,
}

fn limit_reply(l: Limit, c: Currency) -> Option<DepositLimitReply> {
    if l.amount.is_none() && l.pending.is_none() {
        return None;
    }
    Some(DepositLimitReply {
        amount: l.amount.map(|a| MajorUnits::new(a, c)),
        pending_amount: l.pending.and_then(|(a, _)| a).map(|a| MajorUnits::new(a, c)),
        pending_from: l.pending.map(|(_, f)| to_rfc3339(f)),
    })
}

fn rg_reply(s: &RgState) -> RgReply {
    let c = s.currency;
    let permanent = s.self_excluded_until == Some(RG_PERMANENT);
    RgReply {
        currency: c.code().to_string(),
        deposit_limits: DepositLimitsReply {
            day: limit_reply(s.limits[0], c),
            week: limit_reply(s.limits[1], c),
            month: limit_reply(s.limits[2], c),
        },
        used: DepositsUsedReply {
            day: MajorUnits::new(s.used[0], c),
            week: MajorUnits::new(s.used[1], c),
            month: MajorUnits::new(s.used[2], c),
        },
        self_excluded_until: s.self_excluded_until.filter(|_| !permanent).map(to_rfc3339),
        self_excluded_permanent: permanent,
        cool_off_until: s.cool_off_until.map(to_rfc3339),
        reality_check_minutes: s.reality_check_minutes,
        raise_delay_hours: RAISE_DELAY_MS / kernel::clock::HOUR_MS,
    }
}

/// A limit in major units: a positive number with at most the currency's decimals; 47
/// naming the period otherwise.
fn parse_limit(period: Period, v: &serde_json::Number, c: Currency) -> Result<Minor, AppError> {
    parse_major(&v.to_string(), c)
        .ok()
        .filter(|m| *m > 0)
        .ok_or_else(|| accounts::field_error(ErrorCode::InvalidField, period.as_str(), accounts::validate::Reason::Invalid))
}

/// The response of a block: the reply, and the session cookie cleared.
fn ended(until: i64) -> Response {
    let permanent = until == RG_PERMANENT;
    Reply(BlockReply { until: (!permanent).then(|| to_rfc3339(until)), permanent }).into_response()
}

// ------------------------------------------------------------------ handlers

/// The player's limits, deposits in the windows, blocks and reality-check interval.
#[utoipa::path(get, path = "/api/user/responsible-gambling", tag = "responsible gambling",
    responses((status = 200, body = Envelope<RgReply>), (status = "default", description = "23 not signed in, 5 banned, 121 self-excluded, 122 cool-off", body = ErrorEnvelope)))]
pub async fn rg_state(State(state): State<AppState>, session: Session) -> ApiResult<RgReply> {
    let s = state.accounts.rg().state(&session.user, now_ms()).await?;
    ok(rg_reply(&s))
}

/// Sets the deposit limits (major units; null removes; an absent field is unchanged). A
/// decrease applies at once; a raise or a removal after 24 h (shown as pending).
#[utoipa::path(put, path = "/api/user/responsible-gambling/deposit-limits", tag = "responsible gambling", request_body = DepositLimitsRequest,
    responses((status = 200, body = Envelope<RgReply>), (status = "default", description = "23 not signed in, 40 malformed, 47 invalid amount (result.field names the period)", body = ErrorEnvelope)))]
pub async fn rg_set_limits(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<DepositLimitsRequest>) -> ApiResult<RgReply> {
    let now = now_ms();
    let rg = state.accounts.rg();
    let current = rg.state(&session.user, now).await?;
    let c = session.user.currency;
    let mut wanted = current.limits.map(|l| l.pending.map(|(a, _)| a).unwrap_or(l.amount));
    for (p, field) in Period::ALL.into_iter().zip([&req.day, &req.week, &req.month]) {
        match field {
            None => {}
            Some(None) => wanted[p as usize] = None,
            Some(Some(v)) => wanted[p as usize] = Some(parse_limit(p, v, c)?),
        }
    }
    // An absent field keeps the limit in force and what is pending: ask for the pending value.
    let s = rg.set_deposit_limits(&session.user, wanted, now).await?;
    ok(rg_reply(&s))
}

/// Self-exclusion for 6 months, 1 year or for good, confirmed with the password. Every
/// session ends at once (this one too: the cookie is cleared); sign-in, deposits and stakes
/// are refused (121) until it ends. It cannot be shortened or lifted.
#[utoipa::path(post, path = "/api/user/responsible-gambling/self-exclusion", tag = "responsible gambling", request_body = SelfExclusionRequest,
    responses((status = 200, body = Envelope<BlockReply>), (status = "default", description = "4 incorrect password, 23 not signed in, 40 malformed, 47 unknown period, 123 a longer block is in force", body = ErrorEnvelope)))]
pub async fn rg_self_exclusion(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<SelfExclusionRequest>) -> Result<Response, ApiError> {
    let period = Exclusion::parse(&req.period)
        .ok_or_else(|| accounts::field_error(ErrorCode::InvalidField, "period", accounts::validate::Reason::Invalid))?;
    let until = state.accounts.rg().self_exclude(&session.user, period, &req.password, now_ms()).await?;
    let mut resp = ended(until);
    resp.headers_mut().append(header::SET_COOKIE, session_cookie(&state, "", 0));
    Result::Ok(resp)
}

/// A cool-off of 24 hours, 7 days or 30 days: every session ends at once; sign-in,
/// deposits and stakes are refused (122) until it ends by itself.
#[utoipa::path(post, path = "/api/user/responsible-gambling/cool-off", tag = "responsible gambling", request_body = CoolOffRequest,
    responses((status = 200, body = Envelope<BlockReply>), (status = "default", description = "23 not signed in, 40 malformed, 47 unknown period, 123 a longer block is in force", body = ErrorEnvelope)))]
pub async fn rg_cool_off(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<CoolOffRequest>) -> Result<Response, ApiError> {
    let period = CoolOff::parse(&req.period)
        .ok_or_else(|| accounts::field_error(ErrorCode::InvalidField, "period", accounts::validate::Reason::Invalid))?;
    let until = state.accounts.rg().cool_off(&session.user, period, now_ms()).await?;
    let mut resp = ended(until);
    resp.headers_mut().append(header::SET_COOKIE, session_cookie(&state, "", 0));
    Result::Ok(resp)
}

/// The reality-check interval in minutes: 0 (off), 15, 30, 60 or 120.
#[utoipa::path(put, path = "/api/user/responsible-gambling/reality-check", tag = "responsible gambling", request_body = RealityCheckRequest,
    responses((status = 200, body = Envelope<RgReply>), (status = "default", description = "23 not signed in, 40 malformed, 47 not one of 0, 15, 30, 60, 120", body = ErrorEnvelope)))]
pub async fn rg_reality_check(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<RealityCheckRequest>) -> ApiResult<RgReply> {
    let now = now_ms();
    let rg = state.accounts.rg();
    rg.set_reality_check(session.user.id, req.minutes, now).await?;
    ok(rg_reply(&rg.state(&session.user, now).await?))
}

/// This sign-in for the reality-check reminder: when it started and the net result of play
/// since then.
#[utoipa::path(get, path = "/api/user/responsible-gambling/session", tag = "responsible gambling",
    responses((status = 200, body = Envelope<RgSessionReply>), (status = "default", description = "23 not signed in", body = ErrorEnvelope)))]
pub async fn rg_session(State(state): State<AppState>, session: Session) -> ApiResult<RgSessionReply> {
    let s = state.accounts.rg().session_summary(&session.user, &session.token).await?;
    let c = session.user.currency;
    ok(RgSessionReply {
        started_at: to_rfc3339(s.started_at),
        net: MajorUnits::new(s.net, c),
        currency: c.code().to_string(),
        reality_check_minutes: s.reality_check_minutes,
    })
}
