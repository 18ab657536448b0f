//! The line: what can be bet on, shaped like the industry feeds so a real one maps in.
//!
//! Betradar's Unified Odds Feed (UOF) and Betfair both use sport → category (country) →
//! tournament → event → market → outcome, and every id is a stable string. We keep UOF's URN ids
//! (`sr:match:8412480`; the simulator uses `sim:match:123`) as opaque strings: the whole URN is the
//! id, numeric parts may collide across types. A market is a market type id plus specifiers
//! (`18|total=2.5`): the same type with another line is another market.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::odds::Odds;
use crate::settle::OutcomeResult;

/// The sports the catalogue, the pricing models and the simulator know. A feed may carry other
/// sports (`Sport::kind` is then `None`): they are stored and bet on like any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SportKind {
    /// Association football (UOF `sr:sport:1`, "Soccer").
    Football,
    /// Basketball (`sr:sport:2`).
    Basketball,
    /// Ice hockey (`sr:sport:4`).
    IceHockey,
    /// Tennis (`sr:sport:5`).
    Tennis,
    /// Table tennis (`sr:sport:20`).
    TableTennis,
}

impl SportKind {
    /// Every known sport, in display order.
    pub const ALL: [SportKind; 5] =
        [SportKind::Football, SportKind::Basketball, SportKind::Tennis, SportKind::IceHockey, SportKind::TableTennis];

    /// UOF's numeric sport id; the simulator uses the same number under `sim:sport:`.
    pub const fn number(self) -> u32 {
        match self {
            SportKind::Football => 1,
            SportKind::Basketball => 2,
            SportKind::IceHockey => 4,
            SportKind::Tennis => 5,
            SportKind::TableTennis => 20,
        }
    }

    /// The English display name.
    pub const fn name(self) -> &'static str {
        match self {
            SportKind::Football => "Football",
            SportKind::Basketball => "Basketball",
            SportKind::IceHockey => "Ice Hockey",
            SportKind::Tennis => "Tennis",
            SportKind::TableTennis => "Table Tennis",
        }
    }

    /// The sport of a URN such as `sr:sport:5` or `sim:sport:5` (any prefix), if known.
    pub fn from_urn(urn: &str) -> Option<SportKind> {
        let number: u32 = urn.rsplit_once(":sport:")?.1.parse().ok()?;
        SportKind::ALL.into_iter().find(|k| k.number() == number)
    }
}

/// A sport (`sr:sport:1`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sport {
    /// URN, e.g. `sim:sport:1`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The sport the models know, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<SportKind>,
}

/// A category: usually a country (`sr:category:78`, "Bulgaria"), or "International".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Category {
    /// URN.
    pub id: String,
    /// The sport it belongs to.
    pub sport_id: String,
    /// Display name.
    pub name: String,
    /// ISO 3166 alpha-3 country code when the category is a country.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
}

/// A tournament (league or cup) within a category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// URN.
    pub id: String,
    /// The category it belongs to.
    pub category_id: String,
    /// Display name.
    pub name: String,
}

/// A team or player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Competitor {
    /// URN (`sim:competitor:17`).
    pub id: String,
    /// Display name.
    pub name: String,
}

/// How an event is offered. A `PreMatch` event leaves the offer at its start time (betting on it
/// afterwards is refused with code 603); a `Live` event is covered in play and stays open while
/// its markets are active.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// Offered before the start only.
    PreMatch,
    /// Offered before the start and in play.
    Live,
}

/// Where an event is in its life (UOF match statuses, simplified).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventStatus {
    /// Not started yet.
    NotStarted,
    /// In play.
    Live,
    /// Played to the end; results may still change.
    Ended,
    /// Results confirmed; nothing more will happen.
    Closed,
    /// Cancelled, abandoned or postponed without a new date.
    Cancelled,
}

impl EventStatus {
    /// Whether the event is over for betting purposes (ended, closed or cancelled).
    pub const fn is_over(self) -> bool {
        matches!(self, EventStatus::Ended | EventStatus::Closed | EventStatus::Cancelled)
    }
}

/// Home and away points in one period (a half, a quarter, a set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PeriodScore {
    /// Home.
    pub home: u32,
    /// Away.
    pub away: u32,
}

/// The score. `home`/`away` are what the markets settle on: goals, points, or sets won in tennis
/// and table tennis.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Score {
    /// Home goals, points, or sets.
    pub home: u32,
    /// Away goals, points, or sets.
    pub away: u32,
    /// Per period: halves, quarters, thirds; games per set in tennis, points per game in table
    /// tennis. The last entry is the current period while live.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub periods: Vec<PeriodScore>,
    /// Tennis: points in the current game (0, 1, 2, 3 = 0, 15, 30, 40; 4 = advantage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<PeriodScore>,
}

/// The live clock as a feed shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The period, e.g. `"2nd half"`, `"Q3"`, `"Set 2"`, `"Half-time"`.
    pub period: String,
    /// The match time, e.g. `"67:12"`; empty for sports without a clock.
    #[serde(default)]
    pub time: String,
}

/// Why a market is (not) open for bets. UOF: only `odds_change` defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarketStatus {
    /// Open for bets.
    Active,
    /// Temporarily closed (a goal, a dangerous attack); expected to reopen.
    Suspended,
    /// Closed for good (not expected back), but not resulted yet.
    Deactivated,
    /// Results published.
    Settled,
    /// Void for everyone (bet_cancel).
    Cancelled,
}

/// A market's identity: a market type id plus its specifiers, e.g. `18|total=2.5`.
///
/// The canonical text is `type|k=v|k=v` with the specifiers sorted by name, so the same market
/// always has the same key whatever order a feed lists its specifiers in. JSON carries the text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MarketKey {
    type_id: u32,
    specifiers: Vec<(String, String)>,
}

/// Why a market key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a market key like 18|total=2.5")]
pub struct MarketKeyError(pub String);

fn valid_part(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_graphic() && b != b'|' && b != b'=')
}

impl MarketKey {
    /// A key from a type id and specifiers in any order. Refused on an empty, duplicated or
    /// ill-formed specifier (names and values are printable ASCII without `|` or `=`).
    pub fn new<K: Into<String>, V: Into<String>>(
        type_id: u32,
        specifiers: impl IntoIterator<Item = (K, V)>,
    ) -> Result<MarketKey, MarketKeyError> {
        let mut specifiers: Vec<(String, String)> = specifiers.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
        specifiers.sort();
        let bad = |s: &Vec<(String, String)>| {
            s.iter().any(|(k, v)| !valid_part(k) || !valid_part(v)) || s.windows(2).any(|w| w[0].0 == w[1].0)
        };
        let key = MarketKey { type_id, specifiers };
        if bad(&key.specifiers) {
            return Err(MarketKeyError(key.to_string()));
        }
        Ok(key)
    }

    /// A key without specifiers.
    pub fn plain(type_id: u32) -> MarketKey {
        MarketKey { type_id, specifiers: Vec::new() }
    }

    /// Parses `18|total=2.5` (specifiers in any order; the result is canonical).
    pub fn parse(s: &str) -> Result<MarketKey, MarketKeyError> {
        let bad = || MarketKeyError(s.to_string());
        let mut parts = s.split('|');
        let type_part = parts.next().unwrap_or_default();
        if type_part.is_empty() || type_part.len() > 9 || !type_part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let type_id: u32 = type_part.parse().map_err(|_| bad())?;
        let mut specifiers = Vec::new();
        for part in parts {
            let (k, v) = part.split_once('=').ok_or_else(bad)?;
            specifiers.push((k, v));
        }
        MarketKey::new(type_id, specifiers).map_err(|_| bad())
    }

    /// The market type id.
    pub fn type_id(&self) -> u32 {
        self.type_id
    }

    /// The specifiers, sorted by name.
    pub fn specifiers(&self) -> &[(String, String)] {
        &self.specifiers
    }

    /// One specifier's value.
    pub fn specifier(&self, name: &str) -> Option<&str> {
        self.specifiers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for MarketKey {
    /// The canonical key, `type|k=v|k=v`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.type_id)?;
        for (k, v) in &self.specifiers {
            write!(f, "|{k}={v}")?;
        }
        Ok(())
    }
}

impl FromStr for MarketKey {
    type Err = MarketKeyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MarketKey::parse(s)
    }
}

impl TryFrom<String> for MarketKey {
    type Error = MarketKeyError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        MarketKey::parse(&s)
    }
}

impl From<MarketKey> for String {
    fn from(k: MarketKey) -> String {
        k.to_string()
    }
}

/// One selection of a market.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Stable within its market (UOF outcome id: `"12"` is over in a total).
    pub id: String,
    /// Display name, the catalogue template filled in (`"Over 2.5"`).
    pub name: String,
    /// Current odds.
    pub odds: Odds,
    /// Whether it can be bet on (a market can be active with some outcomes not).
    pub active: bool,
    /// The published result, once the market is settled or cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<OutcomeResult>,
}

/// A market of an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Market {
    /// Type and specifiers.
    pub key: MarketKey,
    /// Display name (`"Total"`, `"Handicap -1"`).
    pub name: String,
    /// Open, suspended, …
    pub status: MarketStatus,
    /// The selections, in feed order.
    pub outcomes: Vec<Outcome>,
}

impl Market {
    /// One outcome by id.
    pub fn outcome(&self, id: &str) -> Option<&Outcome> {
        self.outcomes.iter().find(|o| o.id == id)
    }
}

/// An event (a match) and its markets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// URN (`sim:match:123`).
    pub id: String,
    /// Its sport.
    pub sport_id: String,
    /// Its category.
    pub category_id: String,
    /// Its tournament.
    pub tournament_id: String,
    /// Pre-match only, or covered live.
    pub kind: EventKind,
    /// Scheduled start, epoch milliseconds.
    pub start_time: i64,
    /// Home team or first-named player.
    pub home: Competitor,
    /// Away team or second-named player.
    pub away: Competitor,
    /// Life-cycle status.
    pub status: EventStatus,
    /// Current (or final) score.
    #[serde(default)]
    pub score: Score,
    /// The live clock, while live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Markets by canonical key.
    #[serde(default)]
    pub markets: BTreeMap<String, Market>,
}

impl Event {
    /// The market a list shows for the event: the first by type id (1X2 / winner come first
    /// in the catalogue), then by key.
    pub fn main_market(&self) -> Option<&Market> {
        self.markets.values().min_by_key(|m| (m.key.type_id(), m.key.to_string()))
    }

    /// One market by key.
    pub fn market(&self, key: &MarketKey) -> Option<&Market> {
        self.markets.get(&key.to_string())
    }
}

/// The current state of the whole offer, as the feed has built it. Changed only through
/// [`Line::apply`](crate::feed) so the simulator and a real provider go through the same checks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// Sports by id.
    pub sports: BTreeMap<String, Sport>,
    /// Categories by id.
    pub categories: BTreeMap<String, Category>,
    /// Tournaments by id.
    pub tournaments: BTreeMap<String, Tournament>,
    /// Events by id.
    pub events: BTreeMap<String, Event>,
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line::default()
    }

    /// One event by id.
    pub fn event(&self, id: &str) -> Option<&Event> {
        self.events.get(id)
    }

    /// Looks a selection up: the event, its market and the outcome.
    pub fn selection(&self, event_id: &str, key: &MarketKey, outcome_id: &str) -> Option<(&Event, &Market, &Outcome)> {
        let event = self.events.get(event_id)?;
        let market = event.market(key)?;
        let outcome = market.outcome(outcome_id)?;
        Some((event, market, outcome))
    }

    /// Removes closed and cancelled events that started before `started_before_ms` (the line
    /// only holds what can still be bet on or settled). Returns how many were removed.
    pub fn prune(&mut self, started_before_ms: i64) -> usize {
        let before = self.events.len();
        self.events.retain(|_, e| {
            !(matches!(e.status, EventStatus::Closed | EventStatus::Cancelled) && e.start_time < started_before_ms)
        });
        before - self.events.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn market_keys_are_canonical() {
        let a = MarketKey::parse("999|total=2.5|overnr=5").unwrap();
        let b = MarketKey::new(999, [("overnr", "5"), ("total", "2.5")]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "999|overnr=5|total=2.5");
        assert_eq!(a.specifier("total"), Some("2.5"));
        assert_eq!(a.specifier("hcp"), None);
        assert_eq!(MarketKey::parse("1").unwrap(), MarketKey::plain(1));
        assert_eq!(MarketKey::parse("16|hcp=-0.25").unwrap().to_string(), "16|hcp=-0.25");
        for bad in ["", "x", "18|", "18|total", "18|total=", "18|=2.5", "18|total=2.5|total=3.5", "-1", "18|a b=1"] {
            assert!(MarketKey::parse(bad).is_err(), "{bad:?}");
        }
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, "\"999|overnr=5|total=2.5\"");
        assert_eq!(serde_json::from_str::<MarketKey>("\"999|total=2.5|overnr=5\"").unwrap(), a);
    }

    #[test]
    fn sports_from_urns() {
        assert_eq!(SportKind::from_urn("sr:sport:1"), Some(SportKind::Football));
        assert_eq!(SportKind::from_urn("sim:sport:20"), Some(SportKind::TableTennis));
        assert_eq!(SportKind::from_urn("sr:sport:3"), None);
        assert_eq!(SportKind::from_urn("sr:match:1"), None);
        for k in SportKind::ALL {
            assert_eq!(SportKind::from_urn(&format!("sim:sport:{}", k.number())), Some(k));
        }
    }

    #[test]
    fn prune_keeps_what_can_still_be_bet_or_settled() {
        let mut line = Line::new();
        let competitor = |id: &str| Competitor { id: id.into(), name: id.into() };
        for (i, status) in [EventStatus::Closed, EventStatus::Ended, EventStatus::Cancelled, EventStatus::Closed]
            .into_iter()
            .enumerate()
        {
            let id = format!("sim:match:{i}");
            line.events.insert(
                id.clone(),
                Event {
                    id,
                    sport_id: "sim:sport:1".into(),
                    category_id: "sim:category:1".into(),
                    tournament_id: "sim:tournament:1".into(),
                    kind: EventKind::Live,
                    start_time: if i == 3 { 5_000 } else { 1_000 },
                    home: competitor("a"),
                    away: competitor("b"),
                    status,
                    score: Score::default(),
                    clock: None,
                    markets: BTreeMap::new(),
                },
            );
        }
        assert_eq!(line.prune(2_000), 2);
        let left: Vec<&str> = line.events.keys().map(String::as_str).collect();
        assert_eq!(left, ["sim:match:1", "sim:match:3"]);
    }
}
