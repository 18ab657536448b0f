//! The standing deposit bonus (issue 19, docs/PROMOTIONS.md "Standing offers"): the player's
//! opt-in and its figures from the site settings (`limits.bonus`, spec §9). Thin handlers over
//! [`promotions::service::Promotions`].

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::routing::get;
use axum::Router;
use kernel::{AppError, ErrorCode};
use promotions::service::DepositBonusOffer;
use serde::Deserialize;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/user/deposit-bonus", get(deposit_bonus).post(set_deposit_bonus))
}

fn player(session: &Session) -> Result<i64, AppError> {
    if session.user.role != accounts::Role::Player {
        return Err(AppError::new(ErrorCode::Forbidden));
    }
    Ok(session.user.id)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DepositBonusChoice {
    /// `true`: each of the first deposits earns the bonus (to wager before withdrawing);
    /// `false`: none does.
    pub enabled: bool,
}

/// The standing deposit bonus: the player's choice (off by default), the share of each
/// deposit, its maximum, the wagering terms and how many of the first deposits are left.
#[utoipa::path(get, path = "/api/user/deposit-bonus", tag = "promotions",
    responses((status = 200, body = Envelope<DepositBonusOffer>), (status = "default", description = "23, 24", body = ErrorEnvelope)))]
pub async fn deposit_bonus(State(state): State<AppState>, session: Session) -> ApiResult<DepositBonusOffer> {
    let user = player(&session)?;
    ok(state.promotions.deposit_bonus_offer(user).await?)
}

/// Turns the deposit bonus on or off. On: every deposit credited from now on, among the
/// first `maxDeposits`, grants a casino bonus (withdrawals then wait for its wagering, 6252,
/// or its give-up); off: no deposit does. Answers the offer.
#[utoipa::path(post, path = "/api/user/deposit-bonus", tag = "promotions", request_body = DepositBonusChoice,
    responses((status = 200, body = Envelope<DepositBonusOffer>), (status = "default", description = "23, 24, 40", body = ErrorEnvelope)))]
pub async fn set_deposit_bonus(
    State(state): State<AppState>,
    session: Session,
    JsonBody(req): JsonBody<DepositBonusChoice>,
) -> ApiResult<DepositBonusOffer> {
    let user = player(&session)?;
    ok(state.promotions.set_deposit_bonus(user, req.enabled).await?)
}
