//! The console's players (issue 22; docs/BACKOFFICE.md "Players"): search, the player's card,
//! ban and unban with a reason (audited, sessions ended). Staff only (`api::staff`).

use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, PathParam, QueryParams, ReplyLang};
use super::staff::{perm, valid_reason, Staff};
use crate::app::AppState;
use accounts::staff::Query;
use accounts::User;
use axum::extract::State;
use axum::routing::{get, post};
use axum::Router;
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/players", get(search))
        .route("/api/admin/players/{id}", get(card))
        .route("/api/admin/players/{id}/ban", post(ban))
        .route("/api/admin/players/{id}/unban", post(unban))
        .route("/api/admin/players/{id}/notes", post(add_note))
        .route("/api/admin/players/{id}/provider-blocks", post(provider_block))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerRow {
    pub id: i64,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub currency: String,
    pub is_banned: bool,
    pub is_partner: bool,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

fn row(u: &User) -> PlayerRow {
    PlayerRow {
        id: u.id,
        email: u.email.clone(),
        phone: u.phone.clone(),
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        currency: u.currency.code().to_string(),
        is_banned: u.is_banned,
        is_partner: u.is_partner,
        created_at: u.created_at,
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// An id, a phone number, an e-mail (or its beginning) or the beginning of a first or
    /// last name; 2 to 100 characters.
    pub q: String,
}

/// Finds players (at most 50, newest first): admin, support, finance.
#[utoipa::path(get, path = "/api/admin/players", tag = "admin", params(SearchQuery),
    responses((status = 200, body = Envelope<Vec<PlayerRow>>), (status = "default", description = "23, 24 not admin, support or finance, 47 a text under 2 or over 100 characters", body = ErrorEnvelope)))]
pub async fn search(State(state): State<AppState>, _staff: Staff<perm::PlayersRead>, QueryParams(q): QueryParams<SearchQuery>) -> ApiResult<Vec<PlayerRow>> {
    let query = Query::parse(&q.q).ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "q: 2 to 100 characters"))?;
    ok(state.accounts.search_players(&query).await?.iter().map(row).collect())
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceLine {
    pub kind: String,
    pub currency: String,
    pub amount: MajorUnits,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerCard {
    pub player: PlayerRow,
    pub lang: String,
    pub email_verified: bool,
    pub registered_via: String,
    pub balances: Vec<BalanceLine>,
    /// Sessions signed in now.
    pub live_sessions: i64,
    /// Responsible gambling: the end of a self-exclusion or cool-off (ms; absent when none).
    pub self_excluded_until: Option<i64>,
    pub cool_off_until: Option<i64>,
    /// The last staff actions on this player (audit trail, newest first).
    pub audit: Vec<super::audit::AuditRow>,
    /// Staff notes, newest first (at most 50).
    pub notes: Vec<NoteRow>,
    /// Casino providers the player may not play (lower-case provider families).
    pub provider_blocks: Vec<String>,
    /// Bonuses: open and queued first (with wagering progress), then closed ones.
    pub bonuses: Vec<promotions::service::BonusView>,
    /// Addresses and browsers signed in from, most recent first (at most 20).
    pub devices: Vec<DeviceRow>,
    /// The last 20 deposits and withdrawals (providers and the cashier network), newest first.
    pub payments: Vec<super::payments::PayHistoryEntryReply>,
    /// The last 30 ledger entries on the player's balances (bets, wins, bonuses, payments…),
    /// newest first.
    pub transactions: Vec<super::types::HistoryEntryReply>,    /// The last 20 casino rounds (the studio's and the providers'), newest first, as the
    /// player's own history shows them.
    pub rounds: Vec<super::casino_history::SlotsRoundReply>,
    /// The last 20 sportsbook bets (every status but rejected), newest first, names in the
    /// request's language.
    pub sport_bets: Vec<super::sportsbook::BetReply>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoteRow {
    pub id: i64,
    /// `support:12`: the author as the audit trail names them.
    pub author: String,
    pub body: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

impl From<accounts::staff::Note> for NoteRow {
    fn from(n: accounts::staff::Note) -> Self {
        NoteRow { id: n.id, author: n.author, body: n.body, created_at: n.created_at }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceRow {
    pub ip: String,
    pub user_agent: String,
    pub sessions: i64,
    /// Milliseconds since the epoch.
    pub first_seen: i64,
    pub last_seen: i64,
    /// Other accounts signed in from this address (a multi-accounting signal).
    pub other_accounts: i64,
}

impl From<accounts::staff::Device> for DeviceRow {
    fn from(d: accounts::staff::Device) -> Self {
        DeviceRow { ip: d.ip, user_agent: d.user_agent, sessions: d.sessions, first_seen: d.first_seen, last_seen: d.last_seen, other_accounts: d.other_accounts }
    }
}

/// The player's card: profile, balances, sessions and devices, responsible-gambling state,
/// payments, ledger entries, casino rounds, sportsbook bets, bonuses, provider blocks, notes and the last staff actions on them (admin, support,
/// finance).
#[utoipa::path(get, path = "/api/admin/players/{id}", tag = "admin", params(("id" = i64, Path)),
    responses((status = 200, body = Envelope<PlayerCard>), (status = "default", description = "3 no such player, 23, 24 not admin, support or finance, 40 bad id", body = ErrorEnvelope)))]
pub async fn card(State(state): State<AppState>, _staff: Staff<perm::PlayersRead>, ReplyLang(lang): ReplyLang, PathParam(id): PathParam<i64>) -> ApiResult<PlayerCard> {
    let user = state.accounts.user_by_id(id).await?.filter(|u| u.role == accounts::Role::Player).ok_or(ErrorCode::NoSuchUser)?;
    let balances = state
        .ledger
        .balances(user.id)
        .await?
        .into_iter()
        .map(|b| BalanceLine { kind: b.kind.as_str().to_string(), currency: b.currency.code().to_string(), amount: MajorUnits::new(b.amount, b.currency) })
        .collect();
    let filter = store::audit::Filter { subject: Some(format!("user:{}", user.id)), ..store::audit::Filter::default() };
    let audit = store::audit::page(&state.db, &filter, None, 20).await.map_err(AppError::internal)?.into_iter().map(super::audit::AuditRow::from).collect();
    let devices = state
        .accounts
        .devices(user.id, 20)
        .await?
        .into_iter()
        .map(DeviceRow::from)
        .collect();
    let (from_ms, to_ms) = (0, kernel::clock::now_ms() + 1);
    let extra = super::wallet::pay_history_extra(&state, user.id, from_ms, to_ms).await?;
    let payments = state.payments.history(user.id, from_ms, to_ms, extra).await?.iter().take(20).map(super::payments::PayHistoryEntryReply::of).collect();
    let ledger_query = wallet::HistoryQuery { user_id: user.id, from_ms, to_ms, limit: 30, offset: 0, kind: None };
    let transactions = super::wallet::history_entries(&state, &ledger_query).await?;
    let round_query = games::history::RoundQuery { user_id: user.id, from_ms, to_ms, statuses: Vec::new(), providers: None, page: 0, count: 20 };
    let (rounds, _, _) = super::casino_history::rounds_of(&state, &round_query).await?;
    let sport_bets = super::sportsbook::bet_replies(state.betting.bets(user.id, betting::BetsQuery::All, 20, 0).await?, lang);
    ok(PlayerCard {
        player: row(&user),
        lang: user.lang.clone(),
        email_verified: user.email_verified,
        registered_via: user.registered_via.clone(),
        balances,
        live_sessions: state.accounts.live_sessions(user.id).await?,
        self_excluded_until: user.self_excluded_until,
        cool_off_until: user.cool_off_until,
        audit,
        notes: state.accounts.notes(user.id, 50).await?.into_iter().map(NoteRow::from).collect(),
        provider_blocks: state.casino.catalogue().blocklist(user.id).await?,
        bonuses: state.promotions.bonuses(user.id).await?,
        devices,
        payments,
        transactions,
        rounds,
        sport_bets,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BanRequest {
    /// Why (1 to 500 characters): kept in the audit trail.
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BanReply {
    pub is_banned: bool,
    /// False when the player already was in that state (nothing recorded).
    pub changed: bool,
}

async fn set(state: &AppState, staff: &Staff<perm::PlayersBan>, id: i64, banned: bool, req: BanRequest) -> Result<BanReply, AppError> {
    let reason = valid_reason(&req.reason)?;
    let changed = state.accounts.set_banned_by(id, banned, &staff.actor, reason).await?;
    Ok(BanReply { is_banned: banned, changed })
}

/// Bans a player (admin): every session ends at once; audited with the reason.
#[utoipa::path(post, path = "/api/admin/players/{id}/ban", tag = "admin", params(("id" = i64, Path)), request_body = BanRequest,
    responses((status = 200, body = Envelope<BanReply>), (status = "default", description = "3 no such player, 23, 24 not admin, 40 bad id, 47 reason", body = ErrorEnvelope)))]
pub async fn ban(State(state): State<AppState>, staff: Staff<perm::PlayersBan>, PathParam(id): PathParam<i64>, JsonBody(req): JsonBody<BanRequest>) -> ApiResult<BanReply> {
    ok(set(&state, &staff, id, true, req).await?)
}

/// Lifts a player's ban (admin); audited with the reason.
#[utoipa::path(post, path = "/api/admin/players/{id}/unban", tag = "admin", params(("id" = i64, Path)), request_body = BanRequest,
    responses((status = 200, body = Envelope<BanReply>), (status = "default", description = "3 no such player, 23, 24 not admin, 40 bad id, 47 reason", body = ErrorEnvelope)))]
pub async fn unban(State(state): State<AppState>, staff: Staff<perm::PlayersBan>, PathParam(id): PathParam<i64>, JsonBody(req): JsonBody<BanRequest>) -> ApiResult<BanReply> {
    ok(set(&state, &staff, id, false, req).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NoteRequest {
    /// 1 to 2,000 characters (line breaks allowed).
    pub body: String,
}

/// Adds a note to a player's card (admin, support, finance): kept for good, audited.
#[utoipa::path(post, path = "/api/admin/players/{id}/notes", tag = "admin", params(("id" = i64, Path)), request_body = NoteRequest,
    responses((status = 200, body = Envelope<NoteRow>), (status = "default", description = "3 no such player, 23, 24 not admin, support or finance, 40 bad id, 47 body", body = ErrorEnvelope)))]
pub async fn add_note(State(state): State<AppState>, staff: Staff<perm::PlayersNote>, PathParam(id): PathParam<i64>, JsonBody(req): JsonBody<NoteRequest>) -> ApiResult<NoteRow> {
    ok(state.accounts.add_note(id, staff.session.user.id, &staff.actor, &req.body).await?.into())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProviderBlockRequest {
    /// A provider of the catalogue or its family (`pragmatic`), any case.
    pub provider: String,
    /// True to block, false to lift the block.
    pub blocked: bool,
    /// Why (1 to 500 characters): kept in the audit trail.
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderBlockReply {
    /// False when the block already was so (nothing recorded).
    pub changed: bool,
    /// The player's blocks now.
    pub provider_blocks: Vec<String>,
}

/// Blocks or unblocks a casino provider for a player (admin): the provider disappears from
/// the player's lists and its games refuse to launch; audited with the reason.
#[utoipa::path(post, path = "/api/admin/players/{id}/provider-blocks", tag = "admin", params(("id" = i64, Path)), request_body = ProviderBlockRequest,
    responses((status = 200, body = Envelope<ProviderBlockReply>), (status = "default", description = "3 no such player, 23, 24 not admin, 40 bad id, 47 provider or reason", body = ErrorEnvelope)))]
pub async fn provider_block(
    State(state): State<AppState>,
    staff: Staff<perm::PlayersBan>,
    PathParam(id): PathParam<i64>,
    JsonBody(req): JsonBody<ProviderBlockRequest>,
) -> ApiResult<ProviderBlockReply> {
    let reason = valid_reason(&req.reason)?;
    state.accounts.user_by_id(id).await?.filter(|u| u.role == accounts::Role::Player).ok_or(ErrorCode::NoSuchUser)?;
    let catalogue = state.casino.catalogue();
    let changed = catalogue.set_blocked_by(id, &req.provider, req.blocked, &staff.actor, reason).await?;
    ok(ProviderBlockReply { changed, provider_blocks: catalogue.blocklist(id).await? })
}
