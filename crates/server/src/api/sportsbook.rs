//! Our sportsbook over HTTP (docs/SPORTSBOOK.md "HTTP API"): the line, one event's markets,
//! bet placement (idempotent by `Idempotency-Key`) and the player's bets.

use super::cashier::amount_of;
use super::desk::client_key;
use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{JsonBody, PathParam, QueryParams, RawBody, ReplyLang, Session};
use crate::app::AppState;
use accounts::Role;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::request::Parts;
use axum::routing::get;
use axum::Router;
use betting::{BetView, BetsQuery, Bettor, LegInput, PlaceInput};
use kernel::clock::{now_ms, to_rfc3339};
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use sportsbook::model::{Event, EventKind, Market};
use sportsbook::slip::{BetKind, Funding};
use sportsbook::{Line, OddsPolicy};
use utoipa::{IntoParams, ToSchema};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/sportsbook/line", get(line))
        .route("/api/sportsbook/event/{id}", get(event))
        .route("/api/sportsbook/bets", get(bets).post(place))
        .route("/api/sportsbook/ws", get(ws))
        .route("/api/sportsbook/feed", axum::routing::post(feed))
        .route("/api/user/bets/top", get(top))
}

// ------------------------------------------------------------------------ top winnings

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TopQuery {
    /// day, week (default) or month: the window of settlement.
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// One leg of a top win (spec §3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopWinEvent {
    pub tournament: String,
    pub sport: String,
    pub event_name: String,
    pub outcome: String,
}

/// Spec §3 top winning.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopWinReply {
    /// What the bet returned, 2 decimals.
    #[schema(value_type = f64)]
    pub win_amount: serde_json::Number,
    /// The stake, 2 decimals.
    #[schema(value_type = f64)]
    pub bet_amount: serde_json::Number,
    pub currency: String,
    /// The winner's phone, masked (`+216•••••123`).
    pub phone: String,
    /// RFC 3339.
    pub bet_date: String,
    pub events: Vec<TopWinEvent>,
}

/// Minor units as a number with 2 decimals (rounded down), as spec §3 shows top winnings.
fn two_decimals(minor: i64, currency: kernel::Currency) -> serde_json::Number {
    let exp = currency.exponent() as u32;
    let cents = if exp >= 2 { minor / 10i64.pow(exp - 2) } else { minor * 10i64.pow(2 - exp) };
    format!("{}.{:02}", cents / 100, cents % 100).parse().unwrap_or_else(|_| serde_json::Number::from(cents / 100))
}

/// Keeps a phone's first four and last three characters.
fn mask_phone(phone: Option<&str>) -> String {
    let p: Vec<char> = phone.unwrap_or_default().chars().collect();
    if p.len() < 8 {
        return "•••".into();
    }
    let (head, tail) = (p[..4].iter().collect::<String>(), p[p.len() - 3..].iter().collect::<String>());
    format!("{head}{}{tail}", "•".repeat(p.len() - 7))
}

/// The biggest wins of our sportsbook (spec §3 top winning, §7 `GET /api/user/bets/top?type`).
#[utoipa::path(get, path = "/api/user/bets/top", tag = "sportsbook", params(TopQuery),
    responses((status = 200, body = Envelope<Vec<TopWinReply>>), (status = "default", description = "47 unknown type", body = ErrorEnvelope)))]
pub async fn top(State(state): State<AppState>, QueryParams(q): QueryParams<TopQuery>) -> ApiResult<Vec<TopWinReply>> {
    let window = match q.kind.as_deref().unwrap_or("week") {
        "day" => kernel::clock::DAY_MS,
        "week" => 7 * kernel::clock::DAY_MS,
        "month" => 30 * kernel::clock::DAY_MS,
        _ => return Err(ApiError(AppError::with_detail(ErrorCode::InvalidField, "type: day, week or month"))),
    };
    let wins = state.betting.top_winnings(now_ms() - window, 10).await?;
    let sport_names: std::collections::HashMap<String, String> =
        state.betting.with_line(|line| line.sports.values().map(|s| (s.id.clone(), s.name.clone())).collect());
    let mut out = Vec::with_capacity(wins.len());
    for w in wins {
        let phone = state.accounts.user_by_id(w.user_id).await?.and_then(|u| u.phone);
        out.push(TopWinReply {
            win_amount: two_decimals(w.payout, w.currency),
            bet_amount: two_decimals(w.stake, w.currency),
            currency: w.currency.code().to_string(),
            phone: mask_phone(phone.as_deref()),
            bet_date: to_rfc3339(w.created_at),
            events: w
                .legs
                .into_iter()
                .map(|l| TopWinEvent {
                    tournament: l.tournament_name,
                    sport: sport_names.get(&l.sport_id).cloned().unwrap_or(l.sport_id),
                    event_name: l.event_name,
                    outcome: format!("{}: {}", l.market_name, l.outcome_name),
                })
                .collect(),
        });
    }
    ok(out)
}

// ------------------------------------------------------------------------ live updates

/// Topics a socket may hold at once.
const MAX_TOPICS: usize = 200;

/// What a socket listens to: `all`, `live` (events in play, list form), `sport:<id>` (list
/// form), `event:<id>` (whole), `list:<id>` (one event in list form: a screen of the list).
#[derive(Default)]
struct Topics {
    all: bool,
    live: bool,
    sports: std::collections::HashSet<String>,
    events: std::collections::HashSet<String>,
    lists: std::collections::HashSet<String>,
}

impl Topics {
    fn len(&self) -> usize {
        self.all as usize + self.live as usize + self.sports.len() + self.events.len() + self.lists.len()
    }
    /// What this socket gets of an update: the whole message on `all` and `event:` topics,
    /// the list form on `live` and `sport:` topics (main market only), or nothing.
    fn pick<'a>(&self, u: &'a betting::Update) -> Option<&'a str> {
        if self.all || self.events.contains(&u.event_id) {
            Some(&u.json)
        } else if (self.live && u.live) || self.sports.contains(&u.sport_id) || self.lists.contains(&u.event_id) {
            u.list_json.as_deref()
        } else {
            None
        }
    }
    /// This socket's frame of a batch: a JSON array, `None` when nothing is for it. A socket
    /// on `live` alone (the app's list) shares the frame encoded once for all of them.
    fn frame(&self, batch: &betting::UpdateBatch) -> Option<axum::body::Bytes> {
        if self.live && !self.all && self.sports.is_empty() && self.events.is_empty() {
            return batch.live_frame.clone();
        }
        if !self.all && !self.live && self.sports.is_empty() {
            // Per-event topics only: look up their updates, in feed order.
            let mut picked: Vec<(usize, &str)> = Vec::new();
            for id in self.events.iter().chain(self.lists.iter().filter(|id| !self.events.contains(*id))) {
                for &i in batch.by_event.get(id).into_iter().flatten() {
                    if let Some(text) = self.pick(&batch.updates[i]) {
                        picked.push((i, text));
                    }
                }
            }
            picked.sort_unstable_by_key(|p| p.0);
            return betting::json_array(picked.into_iter().map(|p| p.1));
        }
        betting::json_array(batch.updates.iter().filter_map(|u| self.pick(u)))
    }
    /// Applies `subscribe` / `unsubscribe`; false for a topic it does not know.
    fn change(&mut self, topic: &str, on: bool) -> bool {
        let set = |s: &mut std::collections::HashSet<String>, v: &str| {
            if on {
                s.insert(v.to_string());
            } else {
                s.remove(v);
            }
        };
        match topic.split_once(':') {
            _ if topic == "all" => self.all = on,
            _ if topic == "live" => self.live = on,
            Some(("sport", id)) if !id.is_empty() => set(&mut self.sports, id),
            Some(("event", id)) if !id.is_empty() => set(&mut self.events, id),
            Some(("list", id)) if !id.is_empty() => set(&mut self.lists, id),
            _ => return false,
        }
        true
    }
}

/// Live odds, scores and market status over a WebSocket: one socket per app, topic
/// subscriptions. The client sends `{"type":"subscribe"|"unsubscribe","topics":["live",
/// "sport:<id>","event:<id>","list:<id>","all"]}`; the server sends `{"type":"hello"}`, then one frame
/// per feed tick: a JSON array of the feed messages (docs/SPORTSBOOK.md "The feed format") of
/// the topics held — whole on `event:` and `all`, the list form on `live`, `sport:` and `list:` (an
/// `odds_change` keeps only the main market) — and `{"type":"resync"}` when the socket fell
/// behind (refetch the line: the HTTP line is the fallback).
/// Not a WebSocket request: 40.
async fn ws(State(state): State<AppState>, upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>) -> axum::response::Response {
    use axum::response::IntoResponse;
    match upgrade {
        Ok(u) => u.max_message_size(64 * 1024).read_buffer_size(crate::sockets::READ_BUFFER).on_upgrade(move |socket| async move { crate::sockets::spawn(live(state, socket)) }).into_response(),
        Err(_) => ApiError(AppError::with_detail(ErrorCode::BadRequest, "this endpoint takes a WebSocket upgrade")).into_response(),
    }
}

async fn live(state: AppState, mut socket: WebSocket) {
    let mut updates = state.betting.subscribe();
    let mut topics = Topics::default();
    if socket.send(Message::Text(r#"{"type":"hello"}"#.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                let reply = match serde_json::from_str::<serde_json::Value>(&text) {
                    Ok(v) => {
                        let on = match v["type"].as_str() {
                            Some("subscribe") => Some(true),
                            Some("unsubscribe") => Some(false),
                            _ => None,
                        };
                        match (on, v["topics"].as_array()) {
                            (Some(on), Some(list)) => {
                                let unknown: Vec<&str> = list.iter().filter_map(|t| t.as_str()).filter(|t| !topics.change(t, on)).collect();
                                if topics.len() > MAX_TOPICS {
                                    serde_json::json!({"type": "error", "status": 47, "message": format!("at most {MAX_TOPICS} topics")})
                                } else if unknown.is_empty() {
                                    serde_json::json!({"type": "subscribed", "topics": topics.len()})
                                } else {
                                    serde_json::json!({"type": "error", "status": 47, "message": format!("unknown topics: {}", unknown.join(", "))})
                                }
                            }
                            _ => serde_json::json!({"type": "error", "status": 40, "message": "expected {type: subscribe|unsubscribe, topics: [...]}"}),
                        }
                    }
                    Err(_) => serde_json::json!({"type": "error", "status": 40, "message": "not JSON"}),
                };
                if socket.send(Message::Text(reply.to_string().into())).await.is_err() {
                    return;
                }
            }
            update = updates.recv() => {
                let text = match update {
                    Ok(batch) => match topics.frame(&batch).map(axum::extract::ws::Utf8Bytes::try_from) {
                        Some(Ok(text)) => text,
                        _ => continue,
                    },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => r#"{"type":"resync"}"#.into(),
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text)).await.is_err() {
                    return;
                }
            }
        }
    }
}

// ------------------------------------------------------------------------ feed import

/// What `POST /api/sportsbook/feed` did with each message.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeedReply {
    /// Messages applied to the line (in order).
    pub applied: usize,
    /// Messages refused (malformed, or the line refused them: an unknown event, an odds
    /// change before its fixture…), with their index in the delivery; nothing of them applied.
    pub refused: Vec<FeedRefusal>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FeedRefusal {
    pub index: usize,
    pub error: String,
}

/// Most messages in one delivery.
const FEED_MAX_MESSAGES: usize = 5_000;

/// An operator's feed adapter delivers messages in the documented JSON feed format
/// (docs/SPORTSBOOK.md "The feed format"): a JSON array, applied in order as one tick (one
/// WebSocket frame). Signed like provider calls: `X-Signature` = hex HMAC_SHA256(secret,
/// `X-Timestamp` + "." + raw body), ±300 s. Only with `SPORTSBOOK_FEED=push` (else 66).
/// Each message stands alone: a refused one is reported and the others apply; a result or
/// cancellation settles the bets it decides, exactly once however often it is delivered.
#[utoipa::path(post, path = "/api/sportsbook/feed", tag = "sportsbook",
    params(("X-Timestamp" = String, Header, description = "Unix seconds; ±300 s"),
           ("X-Signature" = String, Header, description = "hex HMAC_SHA256(secret, X-Timestamp + \".\" + raw body)")),
    request_body(content = Vec<serde_json::Value>, description = "Feed messages (docs/SPORTSBOOK.md)"),
    responses((status = 200, body = Envelope<FeedReply>), (status = "default", description = "66 no push feed, 65 stale timestamp, 64 bad signature, 40 not a JSON array, 47 too many messages", body = ErrorEnvelope)))]
pub async fn feed(State(state): State<AppState>, headers: axum::http::HeaderMap, RawBody(body): RawBody) -> ApiResult<FeedReply> {
    let crate::config::SportsbookFeed::Push { secret } = &state.config.sportsbook_feed else {
        return Err(AppError::new(ErrorCode::ProviderUnknown).into());
    };
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    casino::signature::verify(secret, header("x-timestamp"), header("x-signature"), &body, now_ms() / 1000)?;
    let Ok(list) = serde_json::from_slice::<Vec<serde_json::Value>>(&body) else {
        return Err(AppError::with_detail(ErrorCode::BadRequest, "expected a JSON array of feed messages").into());
    };
    if list.len() > FEED_MAX_MESSAGES {
        return Err(AppError::with_detail(ErrorCode::InvalidField, format!("at most {FEED_MAX_MESSAGES} messages per delivery")).into());
    }
    let now = now_ms();
    let mut reply = FeedReply { applied: 0, refused: Vec::new() };
    let mut messages = Vec::with_capacity(list.len());
    for (index, v) in list.iter().enumerate() {
        match sportsbook::feed::decode(&v.to_string()) {
            Ok(m) => messages.push((index, m)),
            Err(e) => reply.refused.push(FeedRefusal { index, error: e.to_string() }),
        }
    }
    // What applied here is mirrored by the other instances (crates/betting/src/relay.rs).
    let mut applied = Vec::with_capacity(messages.len());
    for (index, m) in messages {
        match state.betting.apply_queued(m.clone(), now).await {
            Ok(()) => {
                reply.applied += 1;
                applied.push(m);
            }
            Err(e) => reply.refused.push(FeedRefusal { index, error: e.text() }),
        }
    }
    state.betting.flush();
    state.betting.publish_push(&applied);
    reply.refused.sort_by_key(|r| r.index);
    ok(reply)
}

// ------------------------------------------------------------------------ replies

#[derive(Debug, Serialize, ToSchema)]
pub struct SportReply {
    pub id: String,
    pub name: String,
    /// football, basketball, tennis, ice_hockey, table_tennis (null when unknown).
    pub kind: Option<String>,
    /// Events offered now (not over).
    pub events: usize,
    /// Of which in play.
    pub live: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OutcomeReply {
    pub id: String,
    pub name: String,
    /// Decimal odds (3 decimals at most).
    #[schema(value_type = f64)]
    pub odds: serde_json::Number,
    /// Offered now.
    pub active: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MarketReply {
    /// Canonical key (`18|total=2.5`): send it back as a leg's `market`.
    pub key: String,
    pub name: String,
    /// active, suspended, deactivated, settled, cancelled.
    pub status: String,
    pub outcomes: Vec<OutcomeReply>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreReply {
    pub home: u32,
    pub away: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventReply {
    pub id: String,
    pub sport_id: String,
    pub sport: String,
    pub category: String,
    pub tournament: String,
    /// prematch (offered before the start only) or live (in play too).
    pub kind: &'static str,
    /// not_started, live, ended, closed, cancelled.
    pub status: String,
    /// RFC 3339.
    pub start_time: String,
    pub home: String,
    pub away: String,
    pub score: ScoreReply,
    /// The live clock (`2nd half 67'`), while in play.
    pub clock: Option<String>,
    /// How many markets the event has.
    pub markets_count: usize,
    /// The line: the main market only; one event: every market.
    pub markets: Vec<MarketReply>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LineReply {
    pub sports: Vec<SportReply>,
    pub events: Vec<EventReply>,
}

fn odds_number(thousandths: i64) -> serde_json::Number {
    let text = format!("{}.{:03}", thousandths / 1000, thousandths % 1000);
    text.parse::<serde_json::Number>().unwrap_or_else(|_| serde_json::Number::from(thousandths / 1000))
}

fn snake<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Names in the reply's language (`Accept-Language`): the catalogue's markets, worded outcomes
/// and sports are translated; competitors, tournaments and what the catalogue does not know are
/// shown as the feed names them.
struct Names(&'static str);

impl Names {
    fn market(&self, key: &sportsbook::MarketKey, stored: &str) -> String {
        if self.0 == "en" {
            return stored.to_string();
        }
        sportsbook::catalogue::market_name_in(key, self.0).unwrap_or_else(|| stored.to_string())
    }
    fn outcome(&self, key: &sportsbook::MarketKey, id: &str, stored: &str) -> String {
        if self.0 == "en" {
            return stored.to_string();
        }
        sportsbook::catalogue::outcome_name_in(key, id, self.0).unwrap_or_else(|| stored.to_string())
    }
    fn sport(&self, s: &sportsbook::model::Sport) -> String {
        match s.kind {
            Some(kind) if self.0 != "en" => sportsbook::catalogue::sport_name_in(kind, self.0).to_string(),
            _ => s.name.clone(),
        }
    }
    /// A stored bet leg's market and outcome names.
    fn leg(&self, leg: &mut BetLegReply) {
        if let Ok(key) = sportsbook::MarketKey::parse(&leg.market) {
            leg.market_name = self.market(&key, &leg.market_name);
            leg.outcome_name = self.outcome(&key, &leg.outcome_id, &leg.outcome_name);
        }
    }
}

fn market_reply(m: &Market, names: &Names) -> MarketReply {
    MarketReply {
        key: m.key.to_string(),
        name: names.market(&m.key, &m.name),
        status: snake(&m.status),
        outcomes: m
            .outcomes
            .iter()
            .map(|o| OutcomeReply {
                id: o.id.clone(),
                name: names.outcome(&m.key, &o.id, &o.name),
                odds: odds_number(o.odds.thousandths() as i64),
                active: o.active,
            })
            .collect(),
    }
}

fn event_reply(line: &Line, e: &Event, all_markets: bool, names: &Names) -> EventReply {
    let sport = line.sports.get(&e.sport_id);
    let markets: Vec<MarketReply> = if all_markets {
        e.markets.values().map(|m| market_reply(m, names)).collect()
    } else {
        e.main_market().map(|m| market_reply(m, names)).into_iter().collect()
    };
    EventReply {
        id: e.id.clone(),
        sport_id: e.sport_id.clone(),
        sport: sport.map(|s| names.sport(s)).unwrap_or_default(),
        category: line.categories.get(&e.category_id).map(|c| c.name.clone()).unwrap_or_default(),
        tournament: line.tournaments.get(&e.tournament_id).map(|t| t.name.clone()).unwrap_or_default(),
        kind: match e.kind {
            EventKind::PreMatch => "prematch",
            EventKind::Live => "live",
        },
        status: snake(&e.status),
        start_time: to_rfc3339(e.start_time),
        home: e.home.name.clone(),
        away: e.away.name.clone(),
        score: ScoreReply { home: e.score.home, away: e.score.away },
        clock: e.clock.as_ref().map(|c| format!("{} {}", c.period, c.time).trim().to_string()),
        markets_count: e.markets.len(),
        markets,
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BetLegReply {
    pub event_id: String,
    pub market: String,
    pub outcome_id: String,
    #[schema(value_type = f64)]
    pub odds: serde_json::Number,
    pub live: bool,
    pub event_name: String,
    pub market_name: String,
    pub outcome_name: String,
    pub sport_id: String,
    pub tournament: String,
    pub start_time: String,
    /// won, lost, void, half_won, half_lost, dead_heat; null while undecided.
    pub result: Option<&'static str>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BetReply {
    pub id: i64,
    /// single or express.
    pub kind: String,
    /// real, bonus or free_bet.
    pub funding: String,
    pub currency: String,
    pub stake: MajorUnits,
    #[schema(value_type = f64)]
    pub total_odds: serde_json::Number,
    pub potential_payout: MajorUnits,
    /// open, won, lost, void, half_won, half_lost, dead_heat, part_won, cancelled (placing: a
    /// moment while the stake is posted).
    pub status: String,
    /// What the bet returned (stake included); 0 while open.
    pub payout: MajorUnits,
    pub created_at: String,
    pub settled_at: Option<String>,
    pub legs: Vec<BetLegReply>,
    /// True when this answers an earlier request with the same Idempotency-Key.
    pub replayed: bool,
}

/// A bet as the player sees it, its legs' names in the reply's language.
fn bet_reply(bet: BetView, names: &Names) -> BetReply {
    let mut reply = BetReply::from(bet);
    reply.legs.iter_mut().for_each(|l| names.leg(l));
    reply
}

impl From<BetView> for BetReply {
    fn from(b: BetView) -> Self {
        BetReply {
            id: b.id,
            kind: b.kind,
            funding: b.funding,
            currency: b.currency.code().to_string(),
            stake: MajorUnits::new(b.stake, b.currency),
            total_odds: odds_number(b.total_odds),
            potential_payout: MajorUnits::new(b.potential_payout, b.currency),
            status: b.status,
            payout: MajorUnits::new(b.payout, b.currency),
            created_at: to_rfc3339(b.created_at),
            settled_at: b.settled_at.map(to_rfc3339),
            legs: b
                .legs
                .into_iter()
                .map(|l| BetLegReply {
                    event_id: l.event_id,
                    market: l.market,
                    outcome_id: l.outcome_id,
                    odds: odds_number(l.odds),
                    live: l.live,
                    event_name: l.event_name,
                    market_name: l.market_name,
                    outcome_name: l.outcome_name,
                    sport_id: l.sport_id,
                    tournament: l.tournament_name,
                    start_time: to_rfc3339(l.start_time),
                    result: l.result,
                })
                .collect(),
            replayed: b.replayed,
        }
    }
}

// ------------------------------------------------------------------------ requests

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LineQuery {
    /// true: in play only; false: not started only; absent: both.
    pub live: Option<bool>,
    /// One sport's events (its id).
    pub sport: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BetLegRequest {
    pub event_id: String,
    /// The market's key as the line gives it.
    pub market: String,
    pub outcome_id: String,
    /// The odds the player saw.
    #[schema(value_type = f64)]
    pub odds: serde_json::Number,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BetKindRequest {
    Single,
    Express,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FundingRequest {
    Real,
    Bonus,
    FreeBet,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OddsPolicyRequest {
    /// Take whatever the odds are now.
    AcceptAny,
    /// Take the odds now if they are at least those seen (the default).
    AcceptHigher,
    /// Only the odds seen.
    None,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PlaceBetRequest {
    pub kind: BetKindRequest,
    /// Major units of the player's currency.
    #[schema(value_type = f64)]
    pub stake: serde_json::Number,
    /// real (default), bonus or free_bet.
    pub funding: Option<FundingRequest>,
    /// What to do when the odds moved: accept_higher (default: a better price is taken, a
    /// worse one refused with 604), none (exactly the odds seen), accept_any.
    pub odds_policy: Option<OddsPolicyRequest>,
    pub legs: Vec<BetLegRequest>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BetsListQuery {
    /// open (default), settled or all.
    pub status: Option<String>,
    /// 1 to 100 (default 20).
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

// ------------------------------------------------------------------------ handlers

/// The line: the sports, then the events not over (with their main market), soonest first.
#[utoipa::path(get, path = "/api/sportsbook/line", tag = "sportsbook", params(LineQuery),
    responses((status = 200, body = Envelope<LineReply>), (status = "default", description = "40 malformed query", body = ErrorEnvelope)))]
pub async fn line(State(state): State<AppState>, ReplyLang(lang): ReplyLang, QueryParams(q): QueryParams<LineQuery>) -> ApiResult<LineReply> {
    let names = Names(lang);
    let reply = state.betting.with_line(|line| {
        let offered: Vec<&Event> = line.events.values().filter(|e| !e.status.is_over()).collect();
        let sports = line
            .sports
            .values()
            .map(|s| SportReply {
                id: s.id.clone(),
                name: names.sport(s),
                kind: s.kind.map(|k| snake(&k)),
                events: offered.iter().filter(|e| e.sport_id == s.id).count(),
                live: offered.iter().filter(|e| e.sport_id == s.id && e.status == sportsbook::model::EventStatus::Live).count(),
            })
            .filter(|s| s.events > 0)
            .collect();
        let mut events: Vec<&Event> = offered
            .into_iter()
            .filter(|e| q.sport.as_ref().is_none_or(|s| &e.sport_id == s))
            .filter(|e| q.live.is_none_or(|live| live == (e.status == sportsbook::model::EventStatus::Live)))
            .collect();
        events.sort_by(|a, b| (a.start_time, &a.id).cmp(&(b.start_time, &b.id)));
        LineReply { sports, events: events.into_iter().take(300).map(|e| event_reply(line, e, false, &names)).collect() }
    });
    ok(reply)
}

/// One event with every market.
#[utoipa::path(get, path = "/api/sportsbook/event/{id}", tag = "sportsbook", params(("id" = String, Path, description = "The event's id")),
    responses((status = 200, body = Envelope<EventReply>), (status = "default", description = "43 no such event", body = ErrorEnvelope)))]
pub async fn event(State(state): State<AppState>, ReplyLang(lang): ReplyLang, PathParam(id): PathParam<String>) -> ApiResult<EventReply> {
    state
        .betting
        .with_line(|line| line.event(&id).map(|e| event_reply(line, e, true, &Names(lang))))
        .map(ok)
        .unwrap_or_else(|| Err(AppError::new(ErrorCode::NotFound).into()))
}

/// Places a single or an express. The stake leaves the balance at once (a ledger posting);
/// a retry with the same `Idempotency-Key` answers the same bet (`replayed`).
#[utoipa::path(post, path = "/api/sportsbook/bets", tag = "sportsbook", request_body = PlaceBetRequest,
    params(("Idempotency-Key" = String, Header, description = "A retry with the same key answers the same bet")),
    responses((status = 200, body = Envelope<BetReply>),
              (status = "default", description = "23, 26 key reused, 40 malformed or no key, 47 a stake with more decimals than the currency or an invalid key, 601 a stake of zero or less, 501/506/507 balance, 600–617 and 1489 (docs/SPORTSBOOK.md; 604 lists the changed legs)", body = ErrorEnvelope)))]
pub async fn place(State(state): State<AppState>, session: Session, ReplyLang(lang): ReplyLang, parts: Parts, JsonBody(req): JsonBody<PlaceBetRequest>) -> ApiResult<BetReply> {
    let user = &session.user;
    let key = client_key(&parts)?;
    // A stake of zero or less is a malformed bet (601, docs/SPORTSBOOK.md); a number the
    // currency cannot hold (too many decimals, not a number) is an invalid field (47).
    if req.stake.as_f64().is_some_and(|v| v <= 0.0) {
        return Err(AppError::with_detail(ErrorCode::BetInvalid, "stake: must be above zero").into());
    }
    let stake = amount_of(&req.stake, user.currency)?;
    let now = now_ms();
    let allowed = user.role == Role::Player && kernel::errors::rg_block(user.self_excluded_until, user.cool_off_until, now).is_ok();
    let input = PlaceInput {
        legs: req
            .legs
            .iter()
            .map(|l| LegInput { event_id: l.event_id.clone(), market: l.market.clone(), outcome_id: l.outcome_id.clone(), odds: l.odds.to_string() })
            .collect(),
        stake,
        kind: match req.kind {
            BetKindRequest::Single => BetKind::Single,
            BetKindRequest::Express => BetKind::Express,
        },
        funding: match req.funding {
            None | Some(FundingRequest::Real) => Funding::Real,
            Some(FundingRequest::Bonus) => Funding::Bonus,
            Some(FundingRequest::FreeBet) => Funding::FreeBet,
        },
        policy: match req.odds_policy {
            // Absent: what sportsbook players expect, a better price is taken, a worse one asks
            // (issue 18 item 10); `none` insists on the exact odds seen.
            Some(OddsPolicyRequest::None) => OddsPolicy::None,
            None | Some(OddsPolicyRequest::AcceptHigher) => OddsPolicy::AcceptHigher,
            Some(OddsPolicyRequest::AcceptAny) => OddsPolicy::AcceptAny,
        },
    };
    let who = Bettor { id: user.id, currency: user.currency, allowed };
    let bet = state.betting.place(&who, &input, &key, now).await?;
    ok(bet_reply(bet, &Names(lang)))
}

/// The player's bets, newest first: open (default), settled or all.
#[utoipa::path(get, path = "/api/sportsbook/bets", tag = "sportsbook", params(BetsListQuery),
    responses((status = 200, body = Envelope<Vec<BetReply>>), (status = "default", description = "23, 40 malformed query, 47 unknown status", body = ErrorEnvelope)))]
pub async fn bets(State(state): State<AppState>, session: Session, ReplyLang(lang): ReplyLang, QueryParams(q): QueryParams<BetsListQuery>) -> ApiResult<Vec<BetReply>> {
    let which = match q.status.as_deref().unwrap_or("open") {
        "open" => BetsQuery::Open,
        "settled" => BetsQuery::Settled,
        "all" => BetsQuery::All,
        _ => return Err(ApiError(AppError::with_detail(ErrorCode::InvalidField, "status: open, settled or all"))),
    };
    let list = state.betting.bets(session.user.id, which, q.limit.unwrap_or(20), q.offset.unwrap_or(0)).await?;
    ok(bet_replies(list, lang))
}

/// Bets as the player app shows them, names in `lang` (the player's list, and the console's
/// player card).
pub(crate) fn bet_replies(list: Vec<BetView>, lang: &'static str) -> Vec<BetReply> {
    let names = Names(lang);
    list.into_iter().map(|b| bet_reply(b, &names)).collect()
}
