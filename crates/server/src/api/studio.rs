//! The studio game client's API (docs/CASINO.md §2): session info, slots, roulette,
//! dice, seeds and round history. Every call names its game session in `X-Game-Session`;
//! money moves through the provider wallet (games::single).

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{GameSessionHeader, JsonBody, QueryParams, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::routing::{get, post};
use axum::Router;
use casino::GameSession;
use games::single::{limits, Play, RoundReply, RoundView, Rotation, SeedView};
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use wallet::BalanceKind;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/studio/session", get(session))
        .route("/api/studio/slots/info", get(slot_info))
        .route("/api/studio/slots/spin", post(slot_spin))
        .route("/api/studio/roulette/spin", post(roulette_spin))
        .route("/api/studio/dice/roll", post(dice_roll))
        .route("/api/studio/seeds", get(seeds))
        .route("/api/studio/seeds/client", post(set_client_seed))
        .route("/api/studio/seeds/rotate", post(rotate))
        .route("/api/studio/rounds", get(rounds))
        .route("/api/studio/round", get(round_record))
}

/// What the game client needs to start.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StudioSession {
    pub game_id: String,
    pub name: String,
    /// `slot`, `roulette`, `dice`, `crash` (or `table` for a game played only through the wallet API).
    pub kind: String,
    pub provider: String,
    pub currency: String,
    pub exponent: u32,
    /// Real balance, minor units.
    pub balance: i64,
    pub min_bet: i64,
    pub max_bet: i64,
    pub bet_levels: Vec<i64>,
    pub max_win: i64,
    pub lang: String,
    pub player_id: i64,
}

fn slot_game(s: &GameSession) -> Result<&'static studio::slots::SlotGame, AppError> {
    studio::slots::find(&s.game_id).ok_or_else(|| AppError::with_detail(ErrorCode::GameNotFound, "this session is not for a slot"))
}

/// The session's game, currency, balance and bet limits.
#[utoipa::path(get, path = "/api/studio/session", tag = "studio",
    params(("X-Game-Session" = String, Header, description = "Game session token")),
    responses((status = 200, body = Envelope<StudioSession>), (status = "default", description = "63", body = ErrorEnvelope)))]
pub async fn session(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader) -> ApiResult<StudioSession> {
    let (game, kind) = state.casino.catalogue().game(&s.provider, &s.game_id).await?.ok_or_else(|| AppError::new(ErrorCode::GameNotFound))?;
    let l = limits(s.currency);
    let mut levels = l.bet_levels.clone();
    if let Some(slot) = studio::slots::find(&s.game_id) {
        levels.retain(|v| v % slot.bet_multiple() == 0);
    }
    ok(StudioSession {
        game_id: s.game_id.clone(),
        name: game.name,
        kind,
        provider: s.provider.clone(),
        currency: s.currency.code().into(),
        exponent: s.currency.exponent(),
        balance: state.ledger.balance(s.user_id, BalanceKind::Real, s.currency).await?,
        min_bet: levels.first().copied().unwrap_or(l.min_bet),
        max_bet: l.max_bet,
        bet_levels: levels,
        max_win: l.max_win,
        lang: s.lang.clone(),
        player_id: s.user_id,
    })
}

/// The slot machine of the session: symbols, reels, lines, paytable, feature rules.
#[utoipa::path(get, path = "/api/studio/slots/info", tag = "studio",
    params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<Object>), (status = "default", description = "63, 62", body = ErrorEnvelope)))]
pub async fn slot_info(GameSessionHeader(s): GameSessionHeader) -> ApiResult<studio::slots::SlotInfo> {
    ok(slot_game(&s)?.info())
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SpinRequest {
    /// Total stake in minor units (one of the session's bet levels).
    pub bet: i64,
}

/// One slot round (base spin and every feature spin it triggers), provably fair.
#[utoipa::path(post, path = "/api/studio/slots/spin", tag = "studio", request_body = SpinRequest,
    params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<RoundReply>), (status = "default", description = "68, 501, 63", body = ErrorEnvelope)))]
pub async fn slot_spin(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader, JsonBody(req): JsonBody<SpinRequest>) -> ApiResult<RoundReply> {
    let game = slot_game(&s)?;
    ok(state.single.play(&s, Play::Slot { game, bet: req.bet }).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RouletteRequest {
    /// Each bet: `{kind, numbers, amount}` (see docs/FAIRNESS.md for the layout).
    pub bets: Vec<RouletteBet>,
}

/// One roulette bet as sent; a kind or numbers the table does not have → 68.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RouletteBet {
    /// `straight`, `split`, `street`, `corner`, `line`, `dozen`, `column`, `red`, `black`,
    /// `even`, `odd`, `low`, `high` (docs/FAIRNESS.md).
    pub kind: String,
    #[serde(default)]
    pub numbers: Vec<i64>,
    /// Stake in minor units.
    pub amount: i64,
}

impl RouletteBet {
    fn to_bet(&self) -> Result<studio::roulette::Bet, AppError> {
        let invalid = |what: &str| AppError::with_detail(ErrorCode::InvalidBet, format!("unknown roulette {what}"));
        let kind = serde_json::from_value(serde_json::Value::String(self.kind.clone())).map_err(|_| invalid("bet kind"))?;
        let numbers = self.numbers.iter().map(|n| u8::try_from(*n).map_err(|_| invalid("number"))).collect::<Result<_, _>>()?;
        Ok(studio::roulette::Bet { kind, numbers, amount: self.amount })
    }
}

/// One European roulette spin over the given bets.
#[utoipa::path(post, path = "/api/studio/roulette/spin", tag = "studio", request_body = RouletteRequest,
    params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<RoundReply>), (status = "default", description = "68, 501, 63", body = ErrorEnvelope)))]
pub async fn roulette_spin(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader, JsonBody(req): JsonBody<RouletteRequest>) -> ApiResult<RoundReply> {
    let bets = req.bets.iter().map(RouletteBet::to_bet).collect::<Result<Vec<_>, _>>()?;
    ok(state.single.play(&s, Play::Roulette { bets }).await?)
}

/// `dice/roll` body (`studio::dice::DiceBet`, described for the contract).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DiceRequest {
    /// Stake in minor units.
    pub amount: i64,
    /// Hundredths (e.g. 4950 = 49.50); outside the game's range → 68.
    pub target: i64,
    /// Win when the roll is over the target (else under).
    pub over: bool,
}

/// One dice roll (0.00–100.00) over or under the target.
#[utoipa::path(post, path = "/api/studio/dice/roll", tag = "studio", request_body = DiceRequest,
    params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<RoundReply>), (status = "default", description = "68, 501, 63", body = ErrorEnvelope)))]
pub async fn dice_roll(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader, JsonBody(req): JsonBody<DiceRequest>) -> ApiResult<RoundReply> {
    let target = u32::try_from(req.target).map_err(|_| AppError::with_detail(ErrorCode::InvalidBet, "target out of range"))?;
    let bet = studio::dice::DiceBet { amount: req.amount, target, over: req.over };
    ok(state.single.play(&s, Play::Dice { bet }).await?)
}

/// The seed pair the player's next round uses.
#[utoipa::path(get, path = "/api/studio/seeds", tag = "studio", params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<SeedView>), (status = "default", description = "63", body = ErrorEnvelope)))]
pub async fn seeds(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader) -> ApiResult<SeedView> {
    ok(state.single.seed(s.user_id).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClientSeedRequest {
    /// 1–64 printable characters, no `:`.
    pub client_seed: String,
}

/// Sets the client seed (the committed server seed stays).
#[utoipa::path(post, path = "/api/studio/seeds/client", tag = "studio", request_body = ClientSeedRequest,
    params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<SeedView>), (status = "default", description = "47, 63", body = ErrorEnvelope)))]
pub async fn set_client_seed(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader, JsonBody(req): JsonBody<ClientSeedRequest>) -> ApiResult<SeedView> {
    ok(state.single.set_client_seed(s.user_id, &req.client_seed).await?)
}

/// Reveals the current server seed and commits to a new one.
#[utoipa::path(post, path = "/api/studio/seeds/rotate", tag = "studio", params(("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<Rotation>), (status = "default", description = "63", body = ErrorEnvelope)))]
pub async fn rotate(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader) -> ApiResult<Rotation> {
    ok(state.single.rotate(s.user_id).await?)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RoundsQuery {
    /// 1–100, default 10.
    pub limit: Option<i64>,
}

/// The player's last rounds of the session's game, newest first.
#[utoipa::path(get, path = "/api/studio/rounds", tag = "studio", params(RoundsQuery, ("X-Game-Session" = String, Header)),
    responses((status = 200, body = Envelope<Vec<RoundView>>), (status = "default", description = "63", body = ErrorEnvelope)))]
pub async fn rounds(State(state): State<AppState>, GameSessionHeader(s): GameSessionHeader, QueryParams(q): QueryParams<RoundsQuery>) -> ApiResult<serde_json::Value> {
    let limit = q.limit.unwrap_or(10).clamp(1, 100);
    if s.game_id == "crash" {
        return ok(serde_json::to_value(state.crash_rounds(s.user_id, limit).await?).unwrap_or_default());
    }
    ok(serde_json::to_value(state.single.rounds(s.user_id, &s.game_id, limit).await?).unwrap_or_default())
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RoundQuery {
    /// The studio game: `dice`, `roulette`, `crash` or a slot's id.
    pub game: String,
    /// The round id, as the operations history gives it (`roundId`).
    pub round: String,
}

/// One round's fairness record, for the operations history (the player's own sign-in,
/// no game session): what the round was, its seeds or hash, and for a slot the machine
/// the verification needs.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoundRecord {
    pub game_id: String,
    pub game_name: String,
    /// How the round is verified: `slot`, `dice`, `roulette` (seed pair and nonce) or
    /// `crash` (the round's hash in the published chain).
    pub kind: String,
    /// The player's currency (amounts are in its minor units).
    pub currency: String,
    /// A seed game: the round as `GET /api/studio/rounds` shows it (the server seed once
    /// rotated). Crash: `{roundId, time, bet, win, cashedOutAt, status, crashPoint, hash}`.
    #[schema(value_type = Object)]
    pub round: serde_json::Value,
    /// A slot round: the machine (`GET /api/studio/slots/info`), else null.
    #[schema(value_type = Option<Object>)]
    pub slot: Option<serde_json::Value>,
}

/// A round of the signed-in player's, by game and id: 62 unknown game, 32 no such round of theirs.
#[utoipa::path(get, path = "/api/studio/round", tag = "studio", params(RoundQuery),
    responses((status = 200, body = Envelope<RoundRecord>), (status = "default", description = "23 not signed in, 32 no such round, 62 unknown game", body = ErrorEnvelope)))]
pub async fn round_record(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<RoundQuery>) -> ApiResult<RoundRecord> {
    let user = &session.user;
    let slot = studio::slots::find(&q.game);
    let kind = match (slot, q.game.as_str()) {
        (Some(_), _) => "slot",
        (None, k @ ("dice" | "roulette" | "crash")) => k,
        _ => return Err(AppError::new(ErrorCode::GameNotFound).into()),
    };
    let Ok(round_id) = q.round.trim().parse::<i64>() else {
        return Err(AppError::new(ErrorCode::RoundNotFound).into());
    };
    let round = if kind == "crash" {
        state.crash.player_round(user.id, round_id).await?
    } else {
        state.single.round(user.id, &q.game, round_id).await?.and_then(|r| serde_json::to_value(r).ok())
    };
    let round = round.ok_or_else(|| AppError::new(ErrorCode::RoundNotFound))?;
    let game_name = state.casino.catalogue().names(casino::STUDIO, &q.game).await?.map(|n| n.1).unwrap_or_else(|| q.game.clone());
    ok(RoundRecord {
        game_id: q.game.clone(),
        game_name,
        kind: kind.into(),
        currency: user.currency.code().into(),
        round,
        slot: slot.and_then(|g| serde_json::to_value(g.info()).ok()),
    })
}
