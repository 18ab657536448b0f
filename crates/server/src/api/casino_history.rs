//! The player's casino rounds (spec §7 `POST /api/user/getSlotsBetHistory`, §2 profile
//! "slots bet history"): studio games, crash and third-party providers, read from the ledger
//! by `games::history` (docs/PROMOTIONS.md "Slots bet history").

use super::cashier::range;
use super::envelope::{ok, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, Session};
use crate::app::AppState;
use axum::extract::State;
use axum::routing::post;
use axum::Router;
use games::history::{RoundQuery, RoundStatus};
use kernel::clock::to_rfc3339;
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/user/getSlotsBetHistory", post(slots_bet_history))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SlotsHistoryRequest {
    /// Start: `YYYY-MM-DD`, `DD-MM-YYYY`, RFC 3339 or epoch seconds/ms. Default: 30 days ago.
    pub from: Option<String>,
    /// End (a date includes that whole day). Default: now.
    pub to: Option<String>,
    /// Page number from 0 (default 0), as the cashier history counts.
    #[schema(minimum = 0, maximum = 100000)]
    pub page: Option<i64>,
    /// Page size, 1 to 100 (default 20).
    #[schema(minimum = 1, maximum = 100)]
    pub count: Option<i64>,
    /// `won`, `lost`, `refunded`, `open` (any case); empty or `all`: every status.
    pub statuses: Option<Vec<String>>,
    /// Provider codes, any case (`pragmatic`, `studio`…); empty or `all`: every provider.
    /// An unknown provider matches nothing; `PRAGMATIC-NEW` (spec §5) matches `pragmaticf`.
    pub providers: Option<Vec<String>>,
}

/// One round. Money in major units of `currency`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlotsRoundReply {
    /// The provider's round id.
    pub round_id: String,
    /// The ledger transaction of the round's first stake (or first win).
    pub transaction_id: i64,
    pub provider: String,
    pub provider_name: String,
    pub game_id: String,
    pub game_name: String,
    /// Every stake of the round.
    pub stake: MajorUnits,
    /// Wins paid (less wins rolled back).
    pub win: MajorUnits,
    /// Stakes given back by rollbacks.
    pub refunded: MajorUnits,
    /// What the round did to the balance: win + refunded − stake.
    pub net: MajorUnits,
    /// `won`, `lost`, `refunded` or `open`.
    pub status: &'static str,
    /// The round's first stake, RFC 3339.
    pub created_at: String,
    pub currency: String,
    /// The round has a fairness record (`GET /api/studio/round`): the studio's games.
    pub verifiable: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SlotsHistoryReply {
    pub items: Vec<SlotsRoundReply>,
    /// Rounds matching the filters, over every page.
    pub total: i64,
    pub pages: i64,
}

/// A filter list: trimmed, `all` and blanks dropped; `None` when nothing is left (no filter).
fn filter_list(list: &Option<Vec<String>>) -> Option<Vec<String>> {
    let kept: Vec<String> = list
        .iter()
        .flatten()
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty() && s != "all")
        .collect();
    (!kept.is_empty()).then_some(kept)
}

/// The signed-in player's casino rounds, newest first: 40 bad paging, 46 bad dates, 47
/// unknown status; an unknown provider gives an empty list.
#[utoipa::path(post, path = "/api/user/getSlotsBetHistory", tag = "casino", request_body = SlotsHistoryRequest,
    responses((status = 200, body = Envelope<SlotsHistoryReply>),
              (status = "default", description = "23 not signed in, 40 bad paging, 46 invalid dates, 47 unknown status", body = ErrorEnvelope)))]
pub async fn slots_bet_history(State(state): State<AppState>, session: Session, JsonBody(req): JsonBody<SlotsHistoryRequest>) -> ApiResult<SlotsHistoryReply> {
    let count = req.count.unwrap_or(20);
    let page = req.page.unwrap_or(0);
    if !(1..=100).contains(&count) || !(0..=100_000).contains(&page) {
        return Err(super::envelope::bad_request("count must be 1 to 100 and page 0 to 100000"));
    }
    let (from_ms, to_ms) = range(&req.from, &req.to, 30)?;
    let statuses = filter_list(&req.statuses)
        .unwrap_or_default()
        .iter()
        .map(|s| RoundStatus::parse(s))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| AppError::with_detail(ErrorCode::InvalidField, "statuses: all, or a list of won, lost, refunded, open"))?;
    // Spec §5: the app adds PRAGMATIC-NEW to PRAGMATIC, the spec's name for Pragmatic's newer
    // integration — ours is `pragmaticf` (the §9 swap table's provider).
    let providers = filter_list(&req.providers).map(|mut list| {
        if list.iter().any(|p| p == "pragmatic-new") {
            list.push("pragmaticf".into());
        }
        list
    });
    let q = RoundQuery { user_id: session.user.id, from_ms, to_ms, statuses, providers, page, count };
    let (items, total, pages) = rounds_of(&state, &q).await?;
    ok(SlotsHistoryReply { items, total, pages })
}

/// A page of a player's casino rounds with their games' names (the player's history, and the
/// console's player card): the rounds, and how many match over every page.
pub async fn rounds_of(state: &AppState, q: &RoundQuery) -> Result<(Vec<SlotsRoundReply>, i64, i64), AppError> {
    let found = games::history::rounds(&state.db, q).await?;
    // Names: one look-up per distinct game of the page.
    let mut names: HashMap<(String, String), (String, String)> = HashMap::new();
    for r in &found.items {
        let key = (r.provider.clone(), r.game_id.clone());
        if !names.contains_key(&key) {
            let found = state.casino.catalogue().names(&r.provider, &r.game_id).await?;
            names.insert(key, found.unwrap_or_else(|| (r.provider.clone(), r.game_id.clone())));
        }
    }
    let items = found
        .items
        .into_iter()
        .map(|r| {
            let (provider_name, game_name) = names[&(r.provider.clone(), r.game_id.clone())].clone();
            let c = r.currency;
            SlotsRoundReply {
                transaction_id: r.tx_id,
                verifiable: r.provider == casino::STUDIO,
                stake: MajorUnits::new(r.stake, c),
                win: MajorUnits::new(r.win, c),
                refunded: MajorUnits::new(r.refunded, c),
                net: MajorUnits::new(r.net(), c),
                status: r.status.as_str(),
                created_at: to_rfc3339(r.created_at),
                currency: c.code().to_string(),
                round_id: r.round_id,
                provider: r.provider,
                provider_name,
                game_id: r.game_id,
                game_name,
            }
        })
        .collect();
    Ok((items, found.total, found.pages))
}
