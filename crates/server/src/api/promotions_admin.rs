//! Operator tools until the back office exists (issue 19 §1, docs/PROMOTIONS.md "Operator
//! tools"): bonus templates, promo codes (list with usage, block/unblock), free-bet campaigns, a
//! bonus granted by hand, jackpot pools — each an admin-only endpoint (any other role: 24,
//! nothing changes) and a `carthage promo …` subcommand running the same `do_*` function below.
//! Every action is written to `audit_log` with its actor (`admin:{id}` or `cli:{user}`), where
//! `wallet adjust` records its own; templates and codes also keep the actor in `created_by`.
//!
//! Also the player's partner set-promocode (`POST /api/user/partner/set-promocode`).
//!
//! Input the document constrains (lengths, ranges, enums, patterns) is refused with 400 and
//! code 40 when it breaks them; a well-formed request the operator's rules refuse answers its
//! business code (132 terms refused, 47 a field, 3 no such user, 26 a key reused, 2200 …).

use super::staff::{perm, Staff};
use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, Session};
use crate::app::AppState;
use accounts::Role;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::Router;
use kernel::money::{parse_major, MajorUnits};
use kernel::{AppError, Currency, ErrorCode, Minor};
use promotions::service::{CampaignReport, CodeSpec, CodeView, JackpotView, OperatorGrant, PartnerCodeApplied, TemplateView};
use promotions::terms::{Amount, Product, Template, WageringBase};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/promotions/templates", get(list_templates).post(create_template))
        .route("/api/admin/promotions/codes", get(list_codes).post(create_code))
        .route("/api/admin/promotions/codes/{code}/block", post(block_code))
        .route("/api/admin/promotions/free-bets", post(grant_free_bets))
        .route("/api/admin/promotions/bonuses", post(grant_bonus))
        .route("/api/admin/jackpots", get(list_pools).post(create_pool))
        .route("/api/user/partner/set-promocode", post(set_promocode))
}

/// The admin's actor name, or 24.

/// 400 (40): the request breaks what the document says of it.
fn malformed(why: impl Into<String>) -> AppError {
    AppError::with_detail(ErrorCode::BadRequest, why.into())
}

fn field(why: impl Into<String>) -> AppError {
    AppError::with_detail(ErrorCode::InvalidField, why.into())
}

fn check_len(name: &str, value: &str, min: usize, max: usize) -> Result<(), AppError> {
    let n = value.chars().count();
    if n < min || n > max {
        return Err(malformed(format!("{name}: {min} to {max} characters")));
    }
    Ok(())
}

fn check_range(name: &str, value: i64, min: i64, max: i64) -> Result<(), AppError> {
    if value < min || value > max {
        return Err(malformed(format!("{name}: {min} to {max}")));
    }
    Ok(())
}

fn check_key(name: &str, value: &str) -> Result<(), AppError> {
    if !promotions::service::valid_key(value) {
        return Err(malformed(format!("{name}: 1 to 64 letters, digits, - or _")));
    }
    Ok(())
}

/// A decimal text in major units (`^[0-9]{1,15}(\.[0-9]{1,6})?$`): 400 when it is not one,
/// 47 when it has more decimals than the currency.
fn money(name: &str, text: &str, currency: Currency) -> Result<Minor, AppError> {
    money_syntax(name, Some(text))?;
    parse_major(text, currency).map_err(|_| field(format!("{name}: at most {} decimals in {currency}", currency.exponent())))
}

/// The document's pattern for a money text (checked before any business rule, so a body that
/// breaks the document always answers 400).
fn money_syntax(name: &str, text: Option<&str>) -> Result<(), AppError> {
    let Some(text) = text else { return Ok(()) };
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || int.len() > 15 || !digits(int) || frac.len() > 6 || !digits(frac) || (text.contains('.') && frac.is_empty()) {
        return Err(malformed(format!("{name}: a decimal in major units, e.g. 50 or 12.5")));
    }
    Ok(())
}

// ---------------------------------------------------------------------------- templates

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProductArg {
    Casino,
    Sport,
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BaseArg {
    Bonus,
    BonusPlusDeposit,
}

/// A bonus template. Exactly one of `amount` (a fixed bonus) or `percent` with `cap` (a share of
/// the qualifying deposit). Money is decimal text in major units of `currency`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateTemplateRequest {
    /// Unique; codes name their template by it.
    #[schema(min_length = 1, max_length = 80)]
    pub name: String,
    pub product: ProductArg,
    pub currency: Currency,
    /// A fixed bonus, e.g. "50".
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub amount: Option<String>,
    /// A share of the deposit in percent, 0.01 to 100 (e.g. "25").
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub percent: Option<String>,
    /// With `percent`: the most the bonus can be.
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub cap: Option<String>,
    /// Whole multiple of the base to wager; above the operator's maximum (default 10) → 132.
    #[schema(minimum = 0, maximum = 1000)]
    pub wagering_multiple: i64,
    /// What the multiple multiplies (default `bonus`).
    pub wagering_base: Option<BaseArg>,
    /// The largest stake while wagering (default "0": none).
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub max_bet: Option<String>,
    /// The most that converts to real money (default "0": no maximum).
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub max_conversion: Option<String>,
    /// Days until an unconverted bonus is forfeited; above the operator's maximum (90) → 132.
    #[schema(minimum = 1, maximum = 365)]
    pub life_days: i64,
    /// Sport bonus: the least odds of a leg, e.g. "1.80" (at least 1.001).
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub min_odds: Option<String>,
}

pub async fn do_create_template(state: &AppState, req: CreateTemplateRequest, actor: &str) -> Result<TemplateView, AppError> {
    check_len("name", &req.name, 1, 80)?;
    check_range("wageringMultiple", req.wagering_multiple, 0, 1000)?;
    check_range("lifeDays", req.life_days, 1, 365)?;
    for (name, v) in [("amount", &req.amount), ("percent", &req.percent), ("cap", &req.cap), ("maxBet", &req.max_bet), ("maxConversion", &req.max_conversion), ("minOdds", &req.min_odds)] {
        money_syntax(name, v.as_deref())?;
    }
    let c = req.currency;
    let amount = match (&req.amount, &req.percent, &req.cap) {
        (Some(a), None, None) => Amount::Fixed { amount: money("amount", a, c)? },
        (None, Some(p), Some(cap)) => {
            // Percent to hundredths of a percent, exactly: "12.5" → 1250.
            let bps = money("percent", p, Currency::Usd).map_err(|e| if e.code == ErrorCode::InvalidField { field("percent: at most 2 decimals") } else { e })?;
            Amount::PercentOfDeposit { bps: bps.clamp(0, 1_000_000), cap: money("cap", cap, c)? }
        }
        _ => return Err(field("give amount, or percent with cap")),
    };
    let min_odds = match &req.min_odds {
        Some(o) => money("minOdds", o, Currency::Tnd).map_err(|e| if e.code == ErrorCode::InvalidField { field("minOdds: at most 3 decimals") } else { e })?,
        None => 0,
    };
    let product = match req.product {
        ProductArg::Casino => Product::Casino,
        ProductArg::Sport => Product::Sport,
    };
    let terms = Template {
        product,
        amount,
        wagering_multiple: req.wagering_multiple as u32,
        wagering_base: match req.wagering_base.unwrap_or(BaseArg::Bonus) {
            BaseArg::Bonus => WageringBase::Bonus,
            BaseArg::BonusPlusDeposit => WageringBase::BonusPlusDeposit,
        },
        max_bet: req.max_bet.as_deref().map(|m| money("maxBet", m, c)).transpose()?.unwrap_or(0),
        max_conversion: req.max_conversion.as_deref().map(|m| money("maxConversion", m, c)).transpose()?.unwrap_or(0),
        life_days: req.life_days as u32,
        min_odds: min_odds.clamp(0, u32::MAX as i64) as u32,
    };
    let p = &state.promotions;
    let id = p.create_template(&req.name, c, &terms, actor).await?;
    p.audit(actor, "promo.template.create", &format!("template:{id}"), serde_json::json!({ "name": req.name.trim(), "currency": c.code(), "terms": terms }))
        .await?;
    p.templates().await?.into_iter().find(|t| t.id == id.to_string()).ok_or_else(|| AppError::internal("the new template is not listed"))
}

/// Bonus templates, newest first (admin).
#[utoipa::path(get, path = "/api/admin/promotions/templates", tag = "admin",
    responses((status = 200, body = Envelope<Vec<TemplateView>>), (status = "default", description = "23 not signed in, 24 not an admin", body = ErrorEnvelope)))]
pub async fn list_templates(State(state): State<AppState>, _staff: Staff<perm::Promotions>) -> ApiResult<Vec<TemplateView>> {
    ok(state.promotions.templates().await?)
}

/// Creates a bonus template (admin). Checked against the operator's limits when created: a
/// wagering multiple above the maximum (default 10×) or a life above 90 days answers 132 with
/// the reason; a name in use, 132. Same as `carthage promo template-create`.
#[utoipa::path(post, path = "/api/admin/promotions/templates", tag = "admin", request_body = CreateTemplateRequest,
    responses((status = 200, body = Envelope<TemplateView>),
              (status = "default", description = "23 not signed in, 24 not an admin, 40 malformed, 47 a field (amount or percent, decimals), 132 terms refused (multiple above the operator's maximum, life, amounts, name taken)", body = ErrorEnvelope)))]
pub async fn create_template(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<CreateTemplateRequest>) -> ApiResult<TemplateView> {
    let actor = staff.actor;
    ok(do_create_template(&state, req, &actor).await?)
}

// ---------------------------------------------------------------------------- codes

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CodeKindArg {
    Bonus,
    FreeBets,
    DepositBonus,
    PartnerReferral,
}

impl CodeKindArg {
    fn as_str(self) -> &'static str {
        match self {
            CodeKindArg::Bonus => "bonus",
            CodeKindArg::FreeBets => "free_bets",
            CodeKindArg::DepositBonus => "deposit_bonus",
            CodeKindArg::PartnerReferral => "partner_referral",
        }
    }
}

/// A promo code. Each player activates a code at most once; `maxUses` limits activations in
/// all (0: none). Times are epoch milliseconds.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateCodeRequest {
    /// Stored upper-case.
    #[schema(min_length = 1, max_length = 40, pattern = "^[A-Za-z0-9_-]+$")]
    pub code: String,
    pub kind: CodeKindArg,
    /// The bonus template's name (bonus and deposit-bonus codes).
    #[schema(min_length = 1, max_length = 80)]
    pub template: Option<String>,
    /// Free-bet codes: each free bet's value in major units, one of 10, 50, 100, 250, 500.
    #[schema(minimum = 10, maximum = 500)]
    pub free_bet_value: Option<i64>,
    /// Free-bet codes: how many (default 1).
    #[schema(minimum = 1, maximum = 20)]
    pub free_bet_count: Option<i64>,
    /// The partner who owns the code (a partner account): their own code answers them 2204,
    /// a player referred by another partner 2203. Required for `partner_referral`.
    #[schema(minimum = 1)]
    pub partner_id: Option<i64>,
    /// Default: now.
    #[schema(minimum = 0)]
    pub valid_from: Option<i64>,
    /// Default: no end.
    #[schema(minimum = 0)]
    pub valid_until: Option<i64>,
    /// Activations in all (default 0: no limit).
    #[schema(minimum = 0, maximum = 1000000000)]
    pub max_uses: Option<i64>,
    /// Only players registered at or after `validFrom`.
    pub new_players_only: Option<bool>,
    /// The players' currency it is for. Default: the template's (bonus codes); required for
    /// free-bet codes and with `minTurnover`.
    pub currency: Option<Currency>,
    /// Deposits the player must have made.
    #[schema(minimum = 0, maximum = 1000)]
    pub min_deposits: Option<i64>,
    /// Stakes the player must have placed, major units of `currency`.
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub min_turnover: Option<String>,
}

pub async fn do_create_code(state: &AppState, req: CreateCodeRequest, actor: &str) -> Result<CodeView, AppError> {
    check_len("code", &req.code, 1, 40)?;
    if !req.code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(malformed("code: letters, digits, - or _"));
    }
    if let Some(t) = &req.template {
        check_len("template", t, 1, 80)?;
    }
    if let Some(v) = req.free_bet_value {
        check_range("freeBetValue", v, 10, 500)?;
    }
    if let Some(n) = req.free_bet_count {
        check_range("freeBetCount", n, 1, 20)?;
    }
    for (name, v) in [("partnerId", req.partner_id), ("validFrom", req.valid_from), ("validUntil", req.valid_until)] {
        if let Some(v) = v {
            check_range(name, v, if name == "partnerId" { 1 } else { 0 }, i64::MAX)?;
        }
    }
    check_range("maxUses", req.max_uses.unwrap_or(0), 0, 1_000_000_000)?;
    check_range("minDeposits", req.min_deposits.unwrap_or(0), 0, 1000)?;
    money_syntax("minTurnover", req.min_turnover.as_deref())?;
    let p = &state.promotions;
    let mut currency = req.currency;
    if currency.is_none() {
        if let Some(name) = &req.template {
            if let Some(id) = p.template_id(name.trim()).await? {
                currency = p.template(id).await?.map(|(_, c, _)| c);
            }
        }
    }
    let free_bet_amount = match req.kind {
        CodeKindArg::FreeBets => {
            let c = currency.ok_or_else(|| field("currency: a free-bet code names its currency"))?;
            let v = req.free_bet_value.ok_or_else(|| field("freeBetValue: one of 10, 50, 100, 250, 500"))?;
            c.major(v)
        }
        _ => 0,
    };
    let min_turnover = match req.min_turnover.as_deref() {
        Some(t) => {
            let c = currency.ok_or_else(|| field("currency: needed with minTurnover"))?;
            money("minTurnover", t, c)?
        }
        None => 0,
    };
    if let (Some(from), Some(until)) = (req.valid_from, req.valid_until) {
        if until <= from {
            return Err(field("validUntil: after validFrom"));
        }
    }
    if let Some(partner) = req.partner_id {
        let user = state.accounts.user_by_id(partner).await?;
        if !user.is_some_and(|u| u.is_partner()) {
            return Err(field(format!("partnerId: user {partner} is not a partner")));
        }
    }
    let spec = CodeSpec {
        code: req.code.clone(),
        kind: req.kind.as_str().into(),
        template: req.template.as_deref().map(|t| t.trim().to_string()),
        free_bet_amount,
        free_bet_count: if req.kind == CodeKindArg::FreeBets { req.free_bet_count.unwrap_or(1) } else { 0 },
        partner_id: req.partner_id,
        valid_from: req.valid_from,
        valid_until: req.valid_until,
        max_uses: req.max_uses.unwrap_or(0),
        new_players_only: req.new_players_only.unwrap_or(false),
        currency,
        min_deposits: req.min_deposits.unwrap_or(0),
        min_turnover,
    };
    p.create_code(&spec, actor).await?;
    let code = promotions::service::normalise(&req.code).unwrap_or_default();
    p.audit(actor, "promo.code.create", &format!("code:{code}"), serde_json::to_value(&spec).unwrap_or_default()).await?;
    p.codes(Some(&code)).await?.into_iter().next().ok_or_else(|| AppError::internal("the new code is not listed"))
}

/// Promo codes with their usage (`uses` against `maxUses`, `activations`), newest first (admin).
#[utoipa::path(get, path = "/api/admin/promotions/codes", tag = "admin",
    responses((status = 200, body = Envelope<Vec<CodeView>>), (status = "default", description = "23 not signed in, 24 not an admin", body = ErrorEnvelope)))]
pub async fn list_codes(State(state): State<AppState>, _staff: Staff<perm::Promotions>) -> ApiResult<Vec<CodeView>> {
    ok(state.promotions.codes(None).await?)
}

/// Creates a promo code (admin). Same as `carthage promo code-create`.
#[utoipa::path(post, path = "/api/admin/promotions/codes", tag = "admin", request_body = CreateCodeRequest,
    responses((status = 200, body = Envelope<CodeView>),
              (status = "default", description = "23 not signed in, 24 not an admin, 40 malformed, 47 a field (currency, free-bet value, partner, validity), 132 refused (code exists, no such template, a referral code without partner)", body = ErrorEnvelope)))]
pub async fn create_code(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<CreateCodeRequest>) -> ApiResult<CodeView> {
    let actor = staff.actor;
    ok(do_create_code(&state, req, &actor).await?)
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct BlockCodeRequest {
    /// true blocks (players get 2206), false unblocks.
    pub blocked: bool,
}

pub async fn do_block_code(state: &AppState, code: &str, blocked: bool, actor: &str) -> Result<CodeView, AppError> {
    let p = &state.promotions;
    let code = promotions::service::normalise(code).ok_or(ErrorCode::PromoNotFound)?;
    if !p.block_code(&code, blocked).await? {
        return Err(AppError::new(ErrorCode::PromoNotFound));
    }
    p.audit(actor, if blocked { "promo.code.block" } else { "promo.code.unblock" }, &format!("code:{code}"), serde_json::json!({ "blocked": blocked }))
        .await?;
    p.codes(Some(&code)).await?.into_iter().next().ok_or_else(|| AppError::new(ErrorCode::PromoNotFound))
}

/// Blocks or unblocks a promo code (admin). Same as `carthage promo code-block [--unblock]`.
#[utoipa::path(post, path = "/api/admin/promotions/codes/{code}/block", tag = "admin", request_body = BlockCodeRequest,
    params(("code" = String, Path, description = "The code (any case)")),
    responses((status = 200, body = Envelope<CodeView>), (status = "default", description = "23 not signed in, 24 not an admin, 40 malformed, 2200 no such code", body = ErrorEnvelope)))]
pub async fn block_code(State(state): State<AppState>, staff: Staff<perm::Promotions>, Path(code): Path<String>, JsonBody(req): JsonBody<BlockCodeRequest>) -> ApiResult<CodeView> {
    let actor = staff.actor;
    ok(do_block_code(&state, &code, req.blocked, &actor).await?)
}

// ---------------------------------------------------------------------------- free bets, bonuses

/// A free-bet campaign: `count` free bets of `value` to each player (inactive until they
/// activate them; life 25 days). Idempotent per campaign and player.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GrantFreeBetsRequest {
    #[schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9_-]+$")]
    pub campaign: String,
    /// Player ids (duplicates count once).
    #[schema(min_items = 1, max_items = 1000)]
    pub user_ids: Vec<i64>,
    /// Major units of each player's currency: one of 10, 50, 100, 250, 500 (`limits.freebet`).
    #[schema(minimum = 10, maximum = 500)]
    pub value: i64,
    /// Free bets per player (default 1).
    #[schema(minimum = 1, maximum = 20)]
    pub count: Option<i64>,
}

pub async fn do_grant_free_bets(state: &AppState, req: GrantFreeBetsRequest, actor: &str) -> Result<CampaignReport, AppError> {
    check_key("campaign", &req.campaign)?;
    if req.user_ids.is_empty() || req.user_ids.len() > 1000 {
        return Err(malformed("userIds: 1 to 1000 ids"));
    }
    check_range("value", req.value, 10, 500)?;
    let count = req.count.unwrap_or(1);
    check_range("count", count, 1, 20)?;
    state.promotions.grant_campaign(&req.campaign, &req.user_ids, req.value, count, actor).await
}

/// Grants free bets to players (admin), idempotent per campaign id and player: a re-run grants
/// none twice; the same campaign with another value or count for a player who has them → 26.
/// Same as `carthage promo free-bets`.
#[utoipa::path(post, path = "/api/admin/promotions/free-bets", tag = "admin", request_body = GrantFreeBetsRequest,
    responses((status = 200, body = Envelope<CampaignReport>),
              (status = "default", description = "3 no such user, 23 not signed in, 24 not an admin, 26 campaign re-run with other free bets, 40 malformed, 47 not a player or a value not offered", body = ErrorEnvelope)))]
pub async fn grant_free_bets(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<GrantFreeBetsRequest>) -> ApiResult<CampaignReport> {
    let actor = staff.actor;
    ok(do_grant_free_bets(&state, req, &actor).await?)
}

/// A bonus from a template to a player, idempotent by `key`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GrantBonusRequest {
    #[schema(minimum = 1)]
    pub user_id: i64,
    /// The template's name or id.
    #[schema(min_length = 1, max_length = 80)]
    pub template: String,
    /// Retry-safe: the same key answers the same bonus (`replayed`).
    #[schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9_-]+$")]
    pub key: String,
}

pub async fn do_grant_bonus(state: &AppState, req: GrantBonusRequest, actor: &str) -> Result<OperatorGrant, AppError> {
    check_range("userId", req.user_id, 1, i64::MAX)?;
    check_len("template", &req.template, 1, 80)?;
    check_key("key", &req.key)?;
    let p = &state.promotions;
    let by_name = p.template_id(req.template.trim()).await?;
    let template = match by_name {
        Some(id) => id,
        None => match req.template.trim().parse::<i64>() {
            Ok(id) if p.template(id).await?.is_some() => id,
            _ => return Err(AppError::with_detail(ErrorCode::BonusTermsRefused, "no such template")),
        },
    };
    p.grant_by_operator(req.user_id, template, &req.key, actor).await
}

/// Grants a bonus from a template to a player (admin): opened at once, or queued behind an
/// open bonus of its product. Same as `carthage promo grant-bonus`.
#[utoipa::path(post, path = "/api/admin/promotions/bonuses", tag = "admin", request_body = GrantBonusRequest,
    responses((status = 200, body = Envelope<OperatorGrant>),
              (status = "default", description = "3 no such user, 23 not signed in, 24 not an admin, 26 key used for another grant, 40 malformed, 47 not a player, 132 no such template or another currency", body = ErrorEnvelope)))]
pub async fn grant_bonus(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<GrantBonusRequest>) -> ApiResult<OperatorGrant> {
    let actor = staff.actor;
    ok(do_grant_bonus(&state, req, &actor).await?)
}

// ---------------------------------------------------------------------------- jackpots

/// A jackpot pool: its first cycle's drop point is drawn and its seed hash published at once.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePoolRequest {
    #[schema(min_length = 1, max_length = 32, pattern = "^[a-z0-9_-]+$")]
    pub id: String,
    /// Display order (unique).
    #[schema(minimum = 1, maximum = 1000)]
    pub num: i64,
    #[schema(min_length = 1, max_length = 40)]
    pub name: String,
    pub currency: Currency,
    /// The operator's money that starts each cycle, major units.
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub seed_amount: String,
    /// The pool drops at the latest here, major units (above the seed).
    #[schema(max_length = 22, pattern = r"^[0-9]{1,15}(\.[0-9]{1,6})?$")]
    pub cap: String,
    /// Share of each eligible stake, hundredths of a percent (50 = 0.5 %).
    #[schema(minimum = 1, maximum = 10000)]
    pub share_bps: i64,
    #[schema(max_length = 200)]
    pub image: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatePoolReply {
    /// false: the same pool existed (nothing changed).
    pub created: bool,
    pub pool: JackpotView,
}

pub async fn do_create_pool(state: &AppState, req: CreatePoolRequest, actor: &str) -> Result<CreatePoolReply, AppError> {
    check_len("id", &req.id, 1, 32)?;
    if !req.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_') {
        return Err(malformed("id: lower-case letters, digits, - or _"));
    }
    check_range("num", req.num, 1, 1000)?;
    check_len("name", &req.name, 1, 40)?;
    check_range("shareBps", req.share_bps, 1, 10_000)?;
    if let Some(i) = &req.image {
        check_len("image", i, 0, 200)?;
    }
    let c = req.currency;
    let seed = money("seedAmount", &req.seed_amount, c)?;
    let cap = money("cap", &req.cap, c)?;
    let image = req.image.clone().unwrap_or_else(|| format!("/img/jackpots/{}.svg", req.id));
    let p = &state.promotions;
    let created = p.create_pool_checked(&req.id, req.num, &req.name, c, seed, cap, req.share_bps, &image).await?;
    if created {
        p.audit(actor, "promo.pool.create", &format!("pool:{}", req.id), serde_json::json!({ "num": req.num, "name": req.name, "currency": c.code(), "seed": seed, "cap": cap, "shareBps": req.share_bps }))
            .await?;
    }
    let pool = p.jackpots().await?.into_iter().find(|j| j.pool == req.id).ok_or_else(|| AppError::internal("the new pool is not listed"))?;
    Ok(CreatePoolReply { created, pool })
}

/// The jackpot pools (admin): amounts, caps, cycles and published seed hashes.
#[utoipa::path(get, path = "/api/admin/jackpots", tag = "admin",
    responses((status = 200, body = Envelope<Vec<JackpotView>>), (status = "default", description = "23 not signed in, 24 not an admin", body = ErrorEnvelope)))]
pub async fn list_pools(State(state): State<AppState>, _staff: Staff<perm::Promotions>) -> ApiResult<Vec<JackpotView>> {
    ok(state.promotions.jackpots().await?)
}

/// Creates a jackpot pool (admin); the same pool again answers it with `created` false.
/// Same as `carthage promo pool-create`.
#[utoipa::path(post, path = "/api/admin/jackpots", tag = "admin", request_body = CreatePoolRequest,
    responses((status = 200, body = Envelope<CreatePoolReply>),
              (status = "default", description = "23 not signed in, 24 not an admin, 40 malformed, 47 too many decimals, 132 refused (id or number taken by another pool, seed ≥ cap, above the ledger's maxima)", body = ErrorEnvelope)))]
pub async fn create_pool(State(state): State<AppState>, staff: Staff<perm::Promotions>, JsonBody(req): JsonBody<CreatePoolRequest>) -> ApiResult<CreatePoolReply> {
    let actor = staff.actor;
    ok(do_create_pool(&state, req, &actor).await?)
}

/// Demo mode: tops a pool up to one unit below its drop point (the next eligible stake wins
/// it). Audited. What `POST /api/admin/jackpots/{pool}/force-drop` and `carthage promo
/// force-drop` run.
pub async fn do_force_drop(state: &AppState, pool: &str, actor: &str) -> Result<MajorUnits, AppError> {
    if !state.is_demo() {
        return Err(AppError::with_detail(ErrorCode::Forbidden, "force-drop is for demo mode only"));
    }
    let p = &state.promotions;
    let pools = p.jackpots().await?;
    let found = pools.iter().find(|j| j.pool == pool).ok_or(ErrorCode::NotFound)?;
    let added = p.force_drop(pool).await?;
    p.audit(actor, "promo.pool.force_drop", &format!("pool:{pool}"), serde_json::json!({ "added": added, "cycle": found.cycle })).await?;
    Ok(MajorUnits::new(added, found.currency))
}

// ---------------------------------------------------------------------------- partner set-promocode

/// What a partner's link carries: `?betting=CODE&ref_id=PARTNER`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct SetPromocodeRequest {
    /// The promo code from the link.
    #[schema(min_length = 1, max_length = 64)]
    pub betting: String,
    /// The partner's id from the link, if any.
    #[schema(max_length = 64)]
    pub ref_id: Option<String>,
}

/// Partner set-promocode (spec §4, §7): links a new player (registered less than 24 h ago, no
/// deposit yet) who is not referred yet to the partner owning the code (or named by `ref_id`
/// for a code without owner), and applies the code. Idempotent: a repeat answers `replayed`.
/// Refusals: 2203 the player is referred by another partner (or `ref_id` names another partner
/// than the code's, or a partner uses another partner's code), 2204 the partner's own code, 24 a
/// partner with a code no partner owns, 2212 / 2214 linking needed but the player is
/// not new (2214 for a referral code), and the code's other refusals of 2200–2215.
#[utoipa::path(post, path = "/api/user/partner/set-promocode", tag = "promotions", request_body = SetPromocodeRequest,
    responses((status = 200, body = Envelope<PartnerCodeApplied>),
              (status = "default", description = "2200–2215 the code's refusal, 23 not signed in, 24 not a player or partner, 40 malformed", body = ErrorEnvelope)))]
pub async fn set_promocode(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<SetPromocodeRequest>) -> ApiResult<PartnerCodeApplied> {
    if !matches!(session.user.role, Role::Player | Role::Partner) {
        return Err(ErrorCode::Forbidden.into());
    }
    check_len("betting", &req.betting, 1, 64)?;
    if let Some(r) = &req.ref_id {
        check_len("ref_id", r, 0, 64)?;
    }
    ok(state.promotions.set_partner_code(session.user.id, &req.betting, req.ref_id.as_deref()).await?)
}
