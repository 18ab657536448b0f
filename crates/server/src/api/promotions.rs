//! Promotions (spec §7 "Payment and promotions", docs/PROMOTIONS.md): promo codes, the
//! player's bonuses with their wagering and the give-up action, free bets. Thin handlers over
//! [`promotions::service::Promotions`].

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{ClientInfo, JsonBody, MaybeSession, Session};
use crate::app::AppState;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::Router;
use kernel::{AppError, ErrorCode};
use promotions::service::{Activated, BonusView, FreeBetStats, FreeBetView};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/payment/promocode/check_promocode",
            post(check_promocode),
        )
        .route(
            "/api/payment/promocode/activation",
            post(activate_promocode),
        )
        .route("/api/user/bonuses", get(bonuses))
        .route("/api/user/bonuses/{id}/give-up", post(give_up))
        .route("/api/user/free-bets", get(free_bets))
        .route("/api/user/activate-free-bets", post(activate_free_bets))
        .route("/api/user/actualFreeBetStats", get(free_bet_stats))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PromoCodeRequest {
    pub code: String,
}

/// Spec §5: `success` true and `state` 2 for a valid code; a refused code answers its 2200–2215 code.
#[derive(Debug, Serialize, ToSchema)]
pub struct PromoCheckReply {
    pub success: bool,
    /// 2 valid (1 is the app's state for an invalid code, answered as an error code instead).
    pub state: u8,
    pub code: String,
    /// `bonus`, `free_bets`, `deposit_bonus`, `partner_referral`.
    pub kind: String,
}

/// A visitor's stand-in id for the wrong-code limit: negative, from their address.
fn visitor(ip: &str) -> i64 {
    let h = studio::fair::sha256(ip.as_bytes());
    -(i64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]]) & i64::MAX) - 1
}

/// Applies the promo code typed at sign-up to the new account; a code that does not apply
/// leaves the registration as it is (the form checked it first).
pub async fn apply_signup_code(state: &AppState, user_id: i64, code: Option<&str>) {
    let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
        return;
    };
    if let Err(e) = state.promotions.activate_code(user_id, code, true).await {
        tracing::info!(
            user_id,
            code,
            refusal = e.code.code(),
            "the sign-up promo code was not applied"
        );
    }
}

fn player(session: &Session) -> Result<i64, AppError> {
    if session.user.role != accounts::Role::Player {
        return Err(AppError::new(ErrorCode::Forbidden));
    }
    Ok(session.user.id)
}

/// Checks a promo code for the signed-in player without activating it.
#[utoipa::path(post, path = "/api/payment/promocode/check_promocode", tag = "promotions", request_body = PromoCodeRequest,
    responses((status = 200, body = Envelope<PromoCheckReply>),
              (status = "default", description = "2200–2215 the code's refusal (docs/PROMOTIONS.md), 23, 24, 40", body = ErrorEnvelope)))]
pub async fn check_promocode(
    State(state): State<AppState>,
    MaybeSession(session): MaybeSession,
    ClientInfo(client): ClientInfo,
    JsonBody(req): JsonBody<PromoCodeRequest>,
) -> ApiResult<PromoCheckReply> {
    let kind = match &session {
        Some(session) => {
            state
                .promotions
                .check_code(player(session)?, &req.code, false)
                .await?
        }
        // The sign-up form checks before an account exists: wrong codes are counted per address.
        None => {
            state
                .promotions
                .check_code_guest(&req.code, visitor(&client.ip))
                .await?
        }
    };
    ok(PromoCheckReply {
        success: true,
        state: 2,
        code: promotions::service::normalise(&req.code).unwrap_or_default(),
        kind: kind.as_str().into(),
    })
}

/// Activates a promo code: a bonus opens (or waits behind an open one), free bets arrive
/// inactive, a deposit bonus waits for the next deposit.
#[utoipa::path(post, path = "/api/payment/promocode/activation", tag = "promotions", request_body = PromoCodeRequest,
    responses((status = 200, body = Envelope<Activated>),
              (status = "default", description = "2200–2215 the code's refusal, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn activate_promocode(
    State(state): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<PromoCodeRequest>,
) -> ApiResult<Activated> {
    let user = player(&session)?;
    ok(state
        .promotions
        .activate_code(user, &req.code, false)
        .await?)
}

/// The player's bonuses: open and queued first (with wagering progress), then closed ones.
#[utoipa::path(get, path = "/api/user/bonuses", tag = "promotions",
    responses((status = 200, body = Envelope<Vec<BonusView>>), (status = "default", description = "23, 24", body = ErrorEnvelope)))]
pub async fn bonuses(State(state): State<AppState>, session: Session) -> ApiResult<Vec<BonusView>> {
    let user = player(&session)?;
    ok(state.promotions.bonuses(user).await?)
}

/// Gives a bonus up: its bonus money is forfeited, real money stays. Answers the bonuses.
#[utoipa::path(post, path = "/api/user/bonuses/{id}/give-up", tag = "promotions",
    params(("id" = String, Path, description = "The bonus id")),
    responses((status = 200, body = Envelope<Vec<BonusView>>), (status = "default", description = "131 not an open bonus of this player, 23, 24", body = ErrorEnvelope)))]
pub async fn give_up(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> ApiResult<Vec<BonusView>> {
    let user = player(&session)?;
    let id: i64 = id
        .trim()
        .parse()
        .map_err(|_| AppError::new(ErrorCode::NoSuchBonus))?;
    state.promotions.give_up(user, id).await?;
    ok(state.promotions.bonuses(user).await?)
}

/// The player's free bets (the last 50).
#[utoipa::path(get, path = "/api/user/free-bets", tag = "promotions",
    responses((status = 200, body = Envelope<Vec<FreeBetView>>), (status = "default", description = "23, 24", body = ErrorEnvelope)))]
pub async fn free_bets(
    State(state): State<AppState>,
    session: Session,
) -> ApiResult<Vec<FreeBetView>> {
    let user = player(&session)?;
    ok(state.promotions.free_bets(user).await?)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ActivatedFreeBets {
    pub activated: i64,
    pub free_bets: Vec<FreeBetView>,
}

/// Spec §7 `activate-free-bets`: the free bets earned and granted move into the free-bet
/// balance. 506 when there is none to activate.
#[utoipa::path(post, path = "/api/user/activate-free-bets", tag = "promotions",
    responses((status = 200, body = Envelope<ActivatedFreeBets>), (status = "default", description = "506 none to activate, 23, 24", body = ErrorEnvelope)))]
pub async fn activate_free_bets(
    State(state): State<AppState>,
    session: Session,
) -> ApiResult<ActivatedFreeBets> {
    let user = player(&session)?;
    let activated = state.promotions.activate_free_bets(user).await?;
    ok(ActivatedFreeBets {
        activated,
        free_bets: state.promotions.free_bets(user).await?,
    })
}

/// Spec §7 `actualFreeBetStats`: this week's sports stakes and the free bets they earned.
#[utoipa::path(get, path = "/api/user/actualFreeBetStats", tag = "promotions",
    responses((status = 200, body = Envelope<FreeBetStats>), (status = "default", description = "23, 24", body = ErrorEnvelope)))]
pub async fn free_bet_stats(
    State(state): State<AppState>,
    session: Session,
) -> ApiResult<FreeBetStats> {
    let user = player(&session)?;
    ok(state.promotions.free_bet_stats(user).await?)
}
