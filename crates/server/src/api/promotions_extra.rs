//! Weekly cashback and the coupon machine (issue 19, docs/PROMOTIONS.md): the player's
//! `coupon-machine` (spec §3), the public result of a coupon draw, and the operator's
//! role-checked calls to run the weekly cashback payer for a week and to announce and run a
//! draw. Thin handlers over [`promotions::service::Promotions`].

use super::staff::{perm, Staff};
use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, Session};
use crate::app::AppState;
use accounts::Role;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::Router;
use kernel::{AppError, ErrorCode};
use promotions::service::{CashbackRun, CouponDraw, CouponMachine};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/user/coupon-machine", get(coupon_machine))
        .route("/api/promotions/coupon-draws", get(coupon_draws))
        .route("/api/promotions/coupon-draws/{id}", get(coupon_draw))
        .route("/api/promotions/weekly-cashback", get(weekly_cashback_rule))
        .route("/api/admin/promotions/weekly-cashback", post(run_weekly_cashback))
        .route("/api/admin/promotions/coupon-draws", post(announce_draw))
        .route("/api/admin/promotions/coupon-draws/{id}/draw", post(run_draw))
}


/// Spec §7 `coupon-machine`: today's casino spins toward the next coupon (one when they reach
/// 500, at most one a day, issued on this read if due) and the player's coupons.
#[utoipa::path(get, path = "/api/user/coupon-machine", tag = "promotions",
    responses((status = 200, body = Envelope<CouponMachine>), (status = "default", description = "23, 24", body = ErrorEnvelope)))]
pub async fn coupon_machine(State(state): State<AppState>, session: Session) -> ApiResult<CouponMachine> {
    if session.user.role != Role::Player {
        return Err(ErrorCode::Forbidden.into());
    }
    ok(state.promotions.coupon_machine(session.user.id).await?)
}

/// A coupon draw as anyone may check it: the seed's hash from its announcement; once drawn,
/// the seed, the coupons that took part and the winners (`promotions::coupons::draw`).
#[utoipa::path(get, path = "/api/promotions/coupon-draws/{id}", tag = "promotions",
    params(("id" = String, Path, description = "The draw id")),
    responses((status = 200, body = Envelope<CouponDraw>), (status = "default", description = "43 no such draw", body = ErrorEnvelope)))]
pub async fn coupon_draw(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<CouponDraw> {
    ok(state.promotions.coupon_draw(id.trim()).await?.ok_or(ErrorCode::NotFound)?)
}

/// The latest coupon draws, newest first (the coupon-machine page): hash, and once drawn the
/// seed and the winners; each draw's coupons are at `/api/promotions/coupon-draws/{id}`.
#[utoipa::path(get, path = "/api/promotions/coupon-draws", tag = "promotions",
    responses((status = 200, body = Envelope<Vec<CouponDraw>>)))]
pub async fn coupon_draws(State(state): State<AppState>) -> ApiResult<Vec<CouponDraw>> {
    ok(state.promotions.coupon_draws(10).await?)
}

/// One weekly cashback tier: from `from` (major units of net loss), `bps` of the week's net loss.
#[derive(Debug, Serialize, ToSchema)]
pub struct WeeklyTierView {
    pub from: i64,
    /// Basis points: 500 = 5 %.
    pub bps: i64,
}

/// The weekly cashback promotion's terms, as the payer applies them (`promotions::cashback::WeeklyRule`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WeeklyCashbackRule {
    /// Ascending: a week's net loss earns the last tier it reaches.
    pub tiers: Vec<WeeklyTierView>,
    /// The most a week pays (major units).
    pub cap: i64,
    /// The operator's zone the ISO weeks are counted in; paid Monday 00:00 there.
    pub zone: String,
    /// The current week (`2026-W48`) and when it ends and is paid (Unix milliseconds).
    pub week: String,
    pub pays_at: i64,
    /// The least cashback balance moved to the real balance (spec §5).
    pub min_transfer: i64,
}

/// The weekly cashback's tiers, cap and next payment (public: the promotion page).
#[utoipa::path(get, path = "/api/promotions/weekly-cashback", tag = "promotions",
    responses((status = 200, body = Envelope<WeeklyCashbackRule>)))]
pub async fn weekly_cashback_rule(State(state): State<AppState>) -> ApiResult<WeeklyCashbackRule> {
    let rule = state.promotions.weekly_rule();
    let week = state.promotions.current_week()?;
    ok(WeeklyCashbackRule {
        tiers: rule.tiers.iter().map(|t| WeeklyTierView { from: t.from_major, bps: t.bps as i64 }).collect(),
        cap: rule.cap_major,
        zone: promotions::periods::DEFAULT_ZONE.to_string(),
        week: week.key,
        pays_at: week.end * 1000,
        min_transfer: super::wallet::CASHBACK_MIN_TRANSFER,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WeeklyCashbackRequest {
    /// The ISO week to pay, e.g. `2026-W48` (operator's zone); it must have ended.
    pub week: String,
}

/// Runs the weekly cashback payer for a week (admin): computes and freezes every player's
/// cashback, then pays the unpaid ones (`wcb:{week}:{user}`, once each). `busy` when another
/// run owns the job. The same as `carthage promo cashback --week`.
#[utoipa::path(post, path = "/api/admin/promotions/weekly-cashback", tag = "admin", request_body = WeeklyCashbackRequest,
    responses((status = 200, body = Envelope<CashbackRun>), (status = "default", description = "23 not signed in, 24 not an admin, 40/47 invalid or unfinished week", body = ErrorEnvelope)))]
pub async fn run_weekly_cashback(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<WeeklyCashbackRequest>) -> ApiResult<CashbackRun> {
    let actor = staff.actor;
    let week = state.promotions.week(&req.week)?;
    let run = state.promotions.pay_weekly_cashback(&week).await?;
    tracing::info!(%actor, ?run, "weekly cashback run by an operator");
    ok(run)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AnnounceDrawRequest {
    /// 1 to 64 letters, digits, `-` or `_`.
    pub id: String,
    /// How many coupons win (1 to 1000).
    pub winners: i64,
    /// What each winning coupon is paid when the draw runs (none: the draw only names winners).
    pub prize: Option<DrawPrizeRequest>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DrawPrizeRequest {
    /// Major units of `currency` (at most its decimals), positive.
    #[schema(value_type = f64)]
    pub amount: serde_json::Number,
    /// ISO 4217 code, e.g. `TND`.
    pub currency: String,
    /// The balance it is paid into: `real` (the only one; the default).
    pub kind: Option<String>,
}

/// The prize of a draw request in minor units (47 when it is not a valid prize).
pub fn draw_prize(p: &DrawPrizeRequest) -> Result<promotions::service::DrawPrize, AppError> {
    let currency: kernel::Currency = p
        .currency
        .trim()
        .parse()
        .map_err(|_| AppError::with_detail(ErrorCode::InvalidField, "prize.currency: a supported currency code"))?;
    if p.kind.as_deref().is_some_and(|k| k != "real") {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "prize.kind: real (prizes are paid in real money)"));
    }
    let amount = kernel::money::parse_major(&p.amount.to_string(), currency)
        .ok()
        .filter(|a| *a > 0)
        .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "prize.amount: a positive number with at most the currency's decimals"))?;
    Ok(promotions::service::DrawPrize { amount, currency })
}

/// Announces a coupon draw (admin): publishes SHA-256 of a fresh seed, with the prize each
/// winning coupon is paid when the draw runs (type 226, `coupon:{draw}:{number}`, once).
/// Idempotent per id (another winner count or prize for the same id: 47).
#[utoipa::path(post, path = "/api/admin/promotions/coupon-draws", tag = "admin", request_body = AnnounceDrawRequest,
    responses((status = 200, body = Envelope<CouponDraw>), (status = "default", description = "23, 24, 40, 47", body = ErrorEnvelope)))]
pub async fn announce_draw(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<AnnounceDrawRequest>) -> ApiResult<CouponDraw> {
    let actor = staff.actor;
    let prize = req.prize.as_ref().map(draw_prize).transpose()?;
    ok(state.promotions.announce_coupon_draw(req.id.trim(), req.winners, prize, &actor).await?)
}

/// Runs an announced draw (admin): the coupons issued before the announcement take part; the
/// winners are drawn, the seed revealed and each winner paid the draw's prize. Idempotent:
/// run again it pays nothing twice.
#[utoipa::path(post, path = "/api/admin/promotions/coupon-draws/{id}/draw", tag = "admin",
    params(("id" = String, Path, description = "The draw id")),
    responses((status = 200, body = Envelope<CouponDraw>), (status = "default", description = "23, 24, 43 no such draw", body = ErrorEnvelope)))]
pub async fn run_draw(State(state): State<AppState>, _staff: Staff<perm::Promotions>, Path(id): Path<String>) -> ApiResult<CouponDraw> {
    ok(state.promotions.run_coupon_draw(id.trim()).await?)
}
