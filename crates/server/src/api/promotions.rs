//! Promotions (spec §7 "Payment and promotions", docs/PROMOTIONS.md): promo codes, the
//! player's bonuses with their wagering and the give-up action, free bets. Thin handlers over
//! [`promotions::service::Promotions`].

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{ClientInfo, JsonBody, MaybeSession, QueryParams, Session};
use crate::app::AppState;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::Router;
use kernel::{AppError, ErrorCode};
use promotions::service::{Activated, BonusView, FreeBetStats, FreeBetView, JackpotView, JackpotWin};
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
        .route("/api/user/jackpot_data", get(jackpot_data))
        .route("/api/user/jackpot_is_shown", post(jackpot_is_shown))
        .route("/api/user/jackpot_list", get(jackpot_list))
        .route("/api/jackpots", get(jackpots_public))
        .route("/api/admin/jackpots/{pool}/force-drop", post(force_drop))
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

/// Applies the promo code typed at sign-up to the new account, then the registration bonus
/// (`limits.bonus.registrationBonus` > 0); a code that does not apply leaves the registration
/// as it is (the form checked it first).
pub async fn apply_signup_code(state: &AppState, user_id: i64, code: Option<&str>) {
    apply_code(state, user_id, code).await;
    if let Err(e) = state.promotions.grant_registration_bonus(user_id).await {
        tracing::warn!(user_id, error = %e.text(), "the registration bonus was not granted");
    }
}

async fn apply_code(state: &AppState, user_id: i64, code: Option<&str>) {
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

// ------------------------------------------------------------------ jackpots

/// The widget's data (refreshed every 60 s, spec §4): the pools, and the player's drops not
/// yet shown (the win modal).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JackpotData {
    pub jackpots: Vec<JackpotView>,
    pub won_jackpots: Vec<JackpotWin>,
}

#[utoipa::path(get, path = "/api/user/jackpot_data", tag = "promotions",
    responses((status = 200, body = Envelope<JackpotData>), (status = "default", description = "23, 24", body = ErrorEnvelope)))]
pub async fn jackpot_data(State(state): State<AppState>, session: Session) -> ApiResult<JackpotData> {
    let user = player(&session)?;
    let (_, won) = state.promotions.jackpot_wins(Some(user), true, 0, i64::MAX, 10, 0).await?;
    ok(JackpotData { jackpots: state.promotions.jackpots_snapshot().await?.to_vec(), won_jackpots: won })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct JackpotShownRequest {
    /// The drop's id (`wonJackpots[].id`).
    #[serde(rename = "JackpotId")]
    pub jackpot_id: serde_json::Value,
}

/// The winner closed the win modal (spec §4): the drop is no longer offered.
#[utoipa::path(post, path = "/api/user/jackpot_is_shown", tag = "promotions", request_body = JackpotShownRequest,
    responses((status = 200, body = Envelope<JackpotData>), (status = "default", description = "43 not a drop of this player, 23, 24, 40", body = ErrorEnvelope)))]
pub async fn jackpot_is_shown(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<JackpotShownRequest>) -> ApiResult<JackpotData> {
    let user = player(&session)?;
    let id = match &req.jackpot_id {
        serde_json::Value::String(s) => s.trim().parse::<i64>().ok(),
        serde_json::Value::Number(n) => n.as_i64(),
        _ => None,
    }
    .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "JackpotId: the drop's id"))?;
    if !state.promotions.jackpot_shown(user, id).await? {
        return Err(AppError::new(ErrorCode::NotFound).into());
    }
    jackpot_data(State(state), session).await
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct JackpotListQuery {
    /// `DD-MM-YYYY` (or `YYYY-MM-DD`, RFC 3339, epoch); default a month ago.
    pub date_from: Option<String>,
    /// Exclusive end (the app sends the chosen end plus one day, spec §5); default now.
    pub date_to: Option<String>,
    /// Page size (spec §9: 8); at most 100.
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// One drop in the public history (spec §3: name lower-case, `updatedAt` `HH:mm DD.MM.YYYY`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JackpotHistoryItem {
    pub id: String,
    pub name: String,
    #[schema(value_type = f64)]
    pub amount: kernel::money::MajorUnits,
    pub currency: kernel::Currency,
    pub updated_at: String,
    /// The winner's id, masked.
    pub user_id: String,
    pub cycle: i64,
    /// The revealed seed and what it proves (recompute with `promotions::fair::drop_point`).
    pub server_seed: String,
    pub seed_hash: String,
    #[schema(value_type = f64)]
    pub drop_point: kernel::money::MajorUnits,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JackpotHistory {
    pub total: i64,
    pub items: Vec<JackpotHistoryItem>,
}

#[utoipa::path(get, path = "/api/user/jackpot_list", tag = "promotions", params(JackpotListQuery),
    responses((status = 200, body = Envelope<JackpotHistory>), (status = "default", description = "23, 24, 47 a bad date", body = ErrorEnvelope)))]
pub async fn jackpot_list(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<JackpotListQuery>) -> ApiResult<JackpotHistory> {
    player(&session)?;
    let now = kernel::clock::now_ms();
    let bound = |v: &Option<String>, default: i64, field: &str| -> Result<i64, AppError> {
        match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(default),
            Some(s) => kernel::clock::parse_bound(s, false).ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, format!("{field}: a date"))),
        }
    };
    let from = bound(&q.date_from, now - 31 * kernel::clock::DAY_MS, "date_from")?;
    let to = bound(&q.date_to, now + 1, "date_to")?;
    let (total, wins) = state.promotions.jackpot_wins(None, false, from, to, q.limit.unwrap_or(8), q.offset.unwrap_or(0)).await?;
    let items = wins
        .into_iter()
        .map(|w| JackpotHistoryItem {
            id: w.id,
            name: w.name.to_lowercase(),
            amount: w.amount,
            currency: w.currency,
            updated_at: hh_mm_date(w.created_at),
            user_id: mask(w.user_id),
            cycle: w.cycle,
            server_seed: w.server_seed,
            seed_hash: w.seed_hash,
            drop_point: w.drop_point,
        })
        .collect();
    ok(JackpotHistory { total, items })
}

/// The pools for everyone (no session): amounts, caps and each cycle's published seed hash.
#[utoipa::path(get, path = "/api/jackpots", tag = "promotions", responses((status = 200, body = Envelope<Vec<JackpotView>>)))]
pub async fn jackpots_public(State(state): State<AppState>) -> ApiResult<Vec<JackpotView>> {
    // Every guest's /home widget asks this every 60 s: answered from the pools' snapshot.
    ok(state.promotions.jackpots_snapshot().await?.to_vec())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ForceDropReply {
    /// What the operator added to the pool (major units): the next eligible stake drops it.
    #[schema(value_type = f64)]
    pub added: kernel::money::MajorUnits,
}

/// Demo mode, admin only: tops a pool up to just below its committed drop point, so the next
/// eligible stake wins it (the drop stays verifiable).
#[utoipa::path(post, path = "/api/admin/jackpots/{pool}/force-drop", tag = "admin", params(("pool" = String, Path)),
    responses((status = 200, body = Envelope<ForceDropReply>), (status = "default", description = "24 not an admin or not demo mode, 43 no such pool", body = ErrorEnvelope)))]
pub async fn force_drop(State(state): State<AppState>, staff: super::staff::Staff<super::staff::perm::Promotions>, Path(pool): Path<String>) -> ApiResult<ForceDropReply> {
    let actor = staff.actor;
    if !state.is_demo() {
        return Err(AppError::new(ErrorCode::Forbidden).into());
    }
    // Audited, like every operator action (api/promotions_admin.rs).
    let added = super::promotions_admin::do_force_drop(&state, &pool, &actor).await?;
    ok(ForceDropReply { added })
}

fn mask(id: i64) -> String {
    let s = id.to_string();
    format!("***{}", &s[s.len().saturating_sub(3)..])
}

/// `HH:mm DD.MM.YYYY` in the operator's zone.
fn hh_mm_date(ms: i64) -> String {
    let tz = promotions::periods::zone(promotions::periods::DEFAULT_ZONE).ok();
    match (tz, jiff_ts(ms)) {
        (Some(tz), Some(ts)) => ts.to_zoned(tz).strftime("%H:%M %d.%m.%Y").to_string(),
        _ => String::new(),
    }
}

fn jiff_ts(ms: i64) -> Option<promotions::periods::Timestamp> {
    promotions::periods::Timestamp::from_millisecond(ms).ok()
}
