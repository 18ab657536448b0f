//! The feed: the messages that build and change the line, as JSON.
//!
//! The same messages come from the embedded simulator ([`crate::sim`]) and from any real
//! provider an operator plugs in (an adapter maps, say, Betradar UOF XML to these). They follow
//! UOF's vocabulary: `fixture_change`, `odds_change` (the only message that defines a market's
//! status), `bet_stop`, `bet_settlement`, `bet_cancel`, plus `score_change` for the scoreboard.
//! Every message is an object tagged by `"type"`; docs/SPORTSBOOK.md shows one of each.

use serde::{Deserialize, Serialize};

use crate::model::{
    Category, Clock, Competitor, EventKind, EventStatus, MarketKey, MarketStatus, Score, Sport, Tournament,
};
use crate::settle::OutcomeResult;

/// One feed message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FeedMessage {
    /// An event is created or its fixture (time, teams, coverage) changes. (Boxed: it is the
    /// largest message and the rarest.)
    FixtureChange(Box<FixtureChange>),
    /// Odds and market statuses.
    OddsChange(OddsChange),
    /// Stop taking bets on some or all markets now (a goal, a dangerous attack).
    BetStop(BetStop),
    /// Results per outcome.
    BetSettlement(BetSettlement),
    /// Markets voided (for bets placed in a time window, or all).
    BetCancel(BetCancel),
    /// The scoreboard and the event status.
    ScoreChange(ScoreChange),
}

impl FeedMessage {
    /// The event the message is about.
    pub fn event_id(&self) -> &str {
        match self {
            FeedMessage::FixtureChange(m) => &m.event_id,
            FeedMessage::OddsChange(m) => &m.event_id,
            FeedMessage::BetStop(m) => &m.event_id,
            FeedMessage::BetSettlement(m) => &m.event_id,
            FeedMessage::BetCancel(m) => &m.event_id,
            FeedMessage::ScoreChange(m) => &m.event_id,
        }
    }

    /// When the provider produced it, epoch milliseconds.
    pub fn timestamp(&self) -> i64 {
        match self {
            FeedMessage::FixtureChange(m) => m.timestamp,
            FeedMessage::OddsChange(m) => m.timestamp,
            FeedMessage::BetStop(m) => m.timestamp,
            FeedMessage::BetSettlement(m) => m.timestamp,
            FeedMessage::BetCancel(m) => m.timestamp,
            FeedMessage::ScoreChange(m) => m.timestamp,
        }
    }

    /// The message type as in JSON (`"odds_change"`), for logs and metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            FeedMessage::FixtureChange(_) => "fixture_change",
            FeedMessage::OddsChange(_) => "odds_change",
            FeedMessage::BetStop(_) => "bet_stop",
            FeedMessage::BetSettlement(_) => "bet_settlement",
            FeedMessage::BetCancel(_) => "bet_cancel",
            FeedMessage::ScoreChange(_) => "score_change",
        }
    }
}

/// Creates an event (with its sport, category and tournament if new) or updates its fixture.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixtureChange {
    /// Epoch ms.
    pub timestamp: i64,
    /// The event's id.
    pub event_id: String,
    /// Its sport.
    pub sport: Sport,
    /// Its category (`sport_id` must be the sport's id).
    pub category: Category,
    /// Its tournament (`category_id` must be the category's id).
    pub tournament: Tournament,
    /// Pre-match only or covered live.
    pub kind: EventKind,
    /// Scheduled start, epoch ms.
    pub start_time: i64,
    /// Home side.
    pub home: Competitor,
    /// Away side.
    pub away: Competitor,
}

/// Odds and statuses of some markets of an event. A market not yet in the line is created; one
/// in the line is updated (its outcomes by id; outcomes not mentioned keep their state).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OddsChange {
    /// Epoch ms.
    pub timestamp: i64,
    /// The event.
    pub event_id: String,
    /// The markets that changed.
    pub markets: Vec<MarketOdds>,
}

/// One market in an [`OddsChange`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketOdds {
    /// Market key (`18|total=2.5`).
    pub market: MarketKey,
    /// Its status from now on.
    pub status: MarketStatus,
    /// Display name for market types the catalogue does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Outcomes with odds; may be empty for a status-only change of a known market.
    #[serde(default)]
    pub outcomes: Vec<OutcomeOdds>,
}

/// One outcome in a [`MarketOdds`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeOdds {
    /// Outcome id.
    pub id: String,
    /// Decimal odds in thousandths (1850 = 1.85). Plain integer on the wire so that odds below
    /// 1.001 are reported by the importer as a typed error rather than a parse failure.
    pub odds: u32,
    /// Whether it can be bet on.
    #[serde(default = "yes")]
    pub active: bool,
    /// Display name for outcomes the catalogue does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

fn yes() -> bool {
    true
}

/// Suspends markets at once (UOF `bet_stop`); an `odds_change` reopens them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetStop {
    /// Epoch ms.
    pub timestamp: i64,
    /// The event.
    pub event_id: String,
    /// The markets to suspend; absent for all of the event's markets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markets: Option<Vec<MarketKey>>,
}

/// Results of some markets (UOF `bet_settlement`). Sent again with other results, it is a
/// resettlement (see [`crate::settle::resettle`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetSettlement {
    /// Epoch ms.
    pub timestamp: i64,
    /// The event.
    pub event_id: String,
    /// Results per market.
    pub markets: Vec<MarketResult>,
}

/// One market's results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketResult {
    /// Market key.
    pub market: MarketKey,
    /// Every outcome's result.
    pub outcomes: Vec<OutcomeSettlement>,
}

/// One outcome's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeSettlement {
    /// Outcome id.
    pub id: String,
    /// `win`, `void_factor`, `dead_heat_factor`.
    #[serde(flatten)]
    pub result: OutcomeResult,
}

/// Voids markets (UOF `bet_cancel`): every bet on them, or only bets placed between
/// `start_time` and `end_time` when given. May arrive for markets already settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetCancel {
    /// Epoch ms.
    pub timestamp: i64,
    /// The event.
    pub event_id: String,
    /// The markets; absent for all of the event's markets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markets: Option<Vec<MarketKey>>,
    /// Bets placed from this time (epoch ms) are void.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<i64>,
    /// Bets placed up to this time are void.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_time: Option<i64>,
    /// UOF void reason (0 = other … 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub void_reason: Option<u32>,
    /// The event that replaces this one (a re-scheduled fixture), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superceded_by: Option<String>,
}

impl BetCancel {
    /// Whether every bet is void, not only those of a time window.
    pub fn is_whole_market(&self) -> bool {
        self.start_time.is_none() && self.end_time.is_none()
    }
}

/// The scoreboard and the event's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreChange {
    /// Epoch ms.
    pub timestamp: i64,
    /// The event.
    pub event_id: String,
    /// The event's status from now on.
    pub status: EventStatus,
    /// The score.
    pub score: Score,
    /// The live clock, while live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
}
