//! The feed: the messages that build and change the line, as JSON.
//!
//! The same messages come from the embedded simulator ([`crate::sim`]) and from any real
//! provider an operator plugs in (an adapter maps, say, Betradar UOF XML to these). They follow
//! UOF's vocabulary: `fixture_change`, `odds_change` (the only message that defines a market's
//! status), `bet_stop`, `bet_settlement`, `bet_cancel`, plus `score_change` for the scoreboard.
//! Every message is an object tagged by `"type"`; docs/SPORTSBOOK.md shows one of each.

use serde::{Deserialize, Serialize};

use crate::catalogue;
use crate::model::{
    Category, Clock, Competitor, EventKind, EventStatus, MarketKey, MarketStatus, Score, Sport, Tournament,
};
use crate::model::{Event, Line, Market, Outcome};
use crate::odds::Odds;
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

/// Why a message was refused. Nothing of a refused message is applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedError {
    /// Not a feed message (bad JSON, unknown type, missing field, malformed key or factor).
    #[error("malformed feed message: {0}")]
    Malformed(String),
    /// An empty id, or a category / tournament that does not belong to the sport / category sent
    /// with it.
    #[error("inconsistent fixture for {event_id}: {problem}")]
    InconsistentFixture {
        /// The event.
        event_id: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// A message about an event the line does not have (a fixture_change must come first).
    #[error("unknown event {0}")]
    UnknownEvent(String),
    /// A market the line does not have (settlement, stop or cancel of a market never offered).
    #[error("unknown market {market} of event {event_id}")]
    UnknownMarket {
        /// The event.
        event_id: String,
        /// The market key.
        market: String,
    },
    /// An outcome the market does not have.
    #[error("unknown outcome {outcome} of market {market} of event {event_id}")]
    UnknownOutcome {
        /// The event.
        event_id: String,
        /// The market key.
        market: String,
        /// The outcome id.
        outcome: String,
    },
    /// Odds below 1.001 or above 1000.
    #[error("odds {odds} (thousandths) out of range for outcome {outcome} of market {market} of event {event_id}")]
    OddsOutOfRange {
        /// The event.
        event_id: String,
        /// The market key.
        market: String,
        /// The outcome id.
        outcome: String,
        /// The odds sent, thousandths.
        odds: u32,
    },
    /// A new market without outcomes, or an outcome listed twice.
    #[error("market {market} of event {event_id}: {problem}")]
    BadMarket {
        /// The event.
        event_id: String,
        /// The market key.
        market: String,
        /// What is wrong.
        problem: &'static str,
    },
}

/// Parses one JSON message.
pub fn decode(json: &str) -> Result<FeedMessage, FeedError> {
    serde_json::from_str(json).map_err(|e| FeedError::Malformed(e.to_string()))
}

/// Encodes one message as JSON.
pub fn encode(message: &FeedMessage) -> String {
    serde_json::to_string(message).expect("feed messages always encode")
}

/// What applying a message changed, for metrics and for deciding what to push to clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    /// Markets created or whose status or odds changed.
    pub markets: usize,
    /// Outcomes whose odds or active flag changed.
    pub outcomes: usize,
}

fn market_err(event_id: &str, key: &MarketKey, problem: &'static str) -> FeedError {
    FeedError::BadMarket { event_id: event_id.to_string(), market: key.to_string(), problem }
}

impl Line {
    /// Validates a message against the line and applies it; on error nothing changes.
    ///
    /// * `fixture_change` creates or updates the event and its sport, category and tournament;
    /// * `odds_change` creates markets and outcomes or updates their odds, flags and status;
    /// * `bet_stop` suspends the active markets named (all when none are named);
    /// * `bet_settlement` stores the results and marks the markets settled (again: resettled);
    /// * `bet_cancel` without a time window marks the markets cancelled with void results; with a
    ///   window it changes nothing here (the bets placed in the window are void: the integrator's
    ///   job);
    /// * `score_change` sets the score, clock and event status.
    pub fn apply(&mut self, message: &FeedMessage) -> Result<Applied, FeedError> {
        match message {
            FeedMessage::FixtureChange(f) => self.apply_fixture(f),
            FeedMessage::OddsChange(o) => self.apply_odds(o),
            FeedMessage::BetStop(s) => {
                let event = self.known_event_mut(&s.event_id)?;
                let keys = selected_markets(event, s.markets.as_deref())?;
                let mut applied = Applied::default();
                for key in keys {
                    let market = event.markets.get_mut(&key).expect("checked above");
                    if market.status == MarketStatus::Active {
                        market.status = MarketStatus::Suspended;
                        applied.markets += 1;
                    }
                }
                Ok(applied)
            }
            FeedMessage::BetSettlement(s) => {
                let event = self.known_event_mut(&s.event_id)?;
                for m in &s.markets {
                    let market = event.markets.get(&m.market.to_string()).ok_or_else(|| FeedError::UnknownMarket {
                        event_id: s.event_id.clone(),
                        market: m.market.to_string(),
                    })?;
                    for o in &m.outcomes {
                        // A dead heat shares a win: a factor of 0 would be a "win" paying
                        // nothing (UOF's factors are in (0, 1]; above 1 the fraction is refused).
                        if o.result.dead_heat_factor.is_some_and(|f| f.is_zero()) {
                            return Err(FeedError::Malformed(format!(
                                "dead_heat_factor of outcome {} of market {} of event {} must be above 0",
                                o.id, m.market, s.event_id
                            )));
                        }
                        if market.outcome(&o.id).is_none() {
                            return Err(FeedError::UnknownOutcome {
                                event_id: s.event_id.clone(),
                                market: m.market.to_string(),
                                outcome: o.id.clone(),
                            });
                        }
                    }
                }
                for m in &s.markets {
                    let market = event.markets.get_mut(&m.market.to_string()).expect("checked above");
                    market.status = MarketStatus::Settled;
                    for o in &m.outcomes {
                        let outcome = market.outcomes.iter_mut().find(|x| x.id == o.id).expect("checked above");
                        outcome.result = Some(o.result);
                        outcome.active = false;
                    }
                }
                Ok(Applied { markets: s.markets.len(), outcomes: 0 })
            }
            FeedMessage::BetCancel(c) => {
                let event = self.known_event_mut(&c.event_id)?;
                let keys = selected_markets(event, c.markets.as_deref())?;
                if !c.is_whole_market() {
                    return Ok(Applied::default());
                }
                for key in &keys {
                    let market = event.markets.get_mut(key).expect("checked above");
                    market.status = MarketStatus::Cancelled;
                    for o in &mut market.outcomes {
                        o.result = Some(crate::settle::OutcomeResult::VOID);
                        o.active = false;
                    }
                }
                Ok(Applied { markets: keys.len(), outcomes: 0 })
            }
            FeedMessage::ScoreChange(s) => {
                let event = self.known_event_mut(&s.event_id)?;
                event.status = s.status;
                event.score = s.score.clone();
                event.clock = s.clock.clone();
                Ok(Applied::default())
            }
        }
    }

    fn known_event_mut(&mut self, id: &str) -> Result<&mut Event, FeedError> {
        self.events.get_mut(id).ok_or_else(|| FeedError::UnknownEvent(id.to_string()))
    }

    fn apply_fixture(&mut self, f: &FixtureChange) -> Result<Applied, FeedError> {
        let bad = |problem| Err(FeedError::InconsistentFixture { event_id: f.event_id.clone(), problem });
        let ids = [&f.event_id, &f.sport.id, &f.category.id, &f.tournament.id, &f.home.id, &f.away.id];
        if ids.iter().any(|id| id.trim().is_empty()) {
            return bad("an id is empty");
        }
        if f.category.sport_id != f.sport.id {
            return bad("the category belongs to another sport");
        }
        if f.tournament.category_id != f.category.id {
            return bad("the tournament belongs to another category");
        }
        if f.home.id == f.away.id {
            return bad("home and away are the same competitor");
        }
        self.sports.insert(f.sport.id.clone(), f.sport.clone());
        self.categories.insert(f.category.id.clone(), f.category.clone());
        self.tournaments.insert(f.tournament.id.clone(), f.tournament.clone());
        let event = self.events.entry(f.event_id.clone()).or_insert_with(|| Event {
            id: f.event_id.clone(),
            sport_id: String::new(),
            category_id: String::new(),
            tournament_id: String::new(),
            kind: f.kind,
            start_time: f.start_time,
            home: f.home.clone(),
            away: f.away.clone(),
            status: EventStatus::NotStarted,
            score: Score::default(),
            clock: None,
            markets: Default::default(),
        });
        let renamed = event.home.name != f.home.name || event.away.name != f.away.name;
        event.sport_id = f.sport.id.clone();
        event.category_id = f.category.id.clone();
        event.tournament_id = f.tournament.id.clone();
        event.kind = f.kind;
        event.start_time = f.start_time;
        event.home = f.home.clone();
        event.away = f.away.clone();
        if renamed {
            // Names with {$competitor1} / {$competitor2} follow the new names.
            for market in event.markets.values_mut() {
                if catalogue::market_type(market.key.type_id()).is_some() {
                    market.name = catalogue::market_name(&market.key, &f.home.name, &f.away.name);
                    for o in &mut market.outcomes {
                        o.name = catalogue::outcome_name(&market.key, &o.id, &f.home.name, &f.away.name);
                    }
                }
            }
        }
        Ok(Applied::default())
    }

    fn apply_odds(&mut self, o: &OddsChange) -> Result<Applied, FeedError> {
        let event = self.known_event_mut(&o.event_id)?;
        for m in &o.markets {
            let mut seen = std::collections::BTreeSet::new();
            for out in &m.outcomes {
                if !seen.insert(out.id.as_str()) {
                    return Err(market_err(&o.event_id, &m.market, "an outcome is listed twice"));
                }
                if out.id.is_empty() {
                    return Err(market_err(&o.event_id, &m.market, "an outcome id is empty"));
                }
                if Odds::new(out.odds).is_err() {
                    return Err(FeedError::OddsOutOfRange {
                        event_id: o.event_id.clone(),
                        market: m.market.to_string(),
                        outcome: out.id.clone(),
                        odds: out.odds,
                    });
                }
            }
            if m.outcomes.is_empty() && !event.markets.contains_key(&m.market.to_string()) {
                return Err(market_err(&o.event_id, &m.market, "a new market needs its outcomes"));
            }
        }
        let (home, away) = (event.home.name.clone(), event.away.name.clone());
        let mut applied = Applied::default();
        for m in &o.markets {
            let key = m.market.to_string();
            let market = event.markets.entry(key).or_insert_with(|| Market {
                key: m.market.clone(),
                name: m.name.clone().unwrap_or_else(|| catalogue::market_name(&m.market, &home, &away)),
                status: m.status,
                outcomes: Vec::new(),
            });
            let mut changed = market.outcomes.is_empty() || market.status != m.status;
            market.status = m.status;
            if let Some(name) = &m.name {
                market.name = name.clone();
            }
            for out in &m.outcomes {
                let odds = Odds::new(out.odds).expect("checked above");
                match market.outcomes.iter_mut().find(|x| x.id == out.id) {
                    Some(x) => {
                        if x.odds != odds || x.active != out.active {
                            applied.outcomes += 1;
                            changed = true;
                        }
                        x.odds = odds;
                        x.active = out.active;
                        x.result = None;
                        if let Some(name) = &out.name {
                            x.name = name.clone();
                        }
                    }
                    None => {
                        applied.outcomes += 1;
                        changed = true;
                        market.outcomes.push(Outcome {
                            id: out.id.clone(),
                            name: out
                                .name
                                .clone()
                                .unwrap_or_else(|| catalogue::outcome_name(&m.market, &out.id, &home, &away)),
                            odds,
                            active: out.active,
                            result: None,
                        });
                    }
                }
            }
            applied.markets += changed as usize;
        }
        Ok(applied)
    }
}

/// The canonical keys a stop or cancel applies to: the named ones (each must exist) or all.
fn selected_markets(event: &Event, keys: Option<&[MarketKey]>) -> Result<Vec<String>, FeedError> {
    match keys {
        None => Ok(event.markets.keys().cloned().collect()),
        Some(keys) => keys
            .iter()
            .map(|k| {
                let key = k.to_string();
                if event.markets.contains_key(&key) {
                    Ok(key)
                } else {
                    Err(FeedError::UnknownMarket { event_id: event.id.clone(), market: key })
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settle::OutcomeResult;

    const T: i64 = 1_767_225_600_000;

    fn fixture(event: &str) -> FeedMessage {
        let c = |id: &str, name: &str| Competitor { id: id.into(), name: name.into() };
        FeedMessage::FixtureChange(Box::new(FixtureChange {
            timestamp: T,
            event_id: event.into(),
            sport: Sport { id: "sr:sport:1".into(), name: "Soccer".into(), kind: None },
            category: Category {
                id: "sr:category:1".into(),
                sport_id: "sr:sport:1".into(),
                name: "England".into(),
                country_code: Some("ENG".into()),
            },
            tournament: Tournament {
                id: "sr:tournament:1".into(),
                category_id: "sr:category:1".into(),
                name: "League".into(),
            },
            kind: EventKind::Live,
            start_time: T + 3_600_000,
            home: c("sr:competitor:1", "Atlas"),
            away: c("sr:competitor:2", "Oasis"),
        }))
    }

    fn odds(event: &str, market: &str, outs: &[(&str, u32)]) -> FeedMessage {
        FeedMessage::OddsChange(OddsChange {
            timestamp: T,
            event_id: event.into(),
            markets: vec![MarketOdds {
                market: MarketKey::parse(market).unwrap(),
                status: MarketStatus::Active,
                name: None,
                outcomes: outs
                    .iter()
                    .map(|(id, o)| OutcomeOdds { id: id.to_string(), odds: *o, active: true, name: None })
                    .collect(),
            }],
        })
    }

    fn line() -> Line {
        let mut line = Line::new();
        line.apply(&fixture("sr:match:1")).unwrap();
        line.apply(&odds("sr:match:1", "18|total=2.5", &[("12", 1850), ("13", 1950)])).unwrap();
        line
    }

    #[test]
    fn odds_change_creates_names_and_counts_changes() {
        let mut l = line();
        let m = l.events["sr:match:1"].market(&MarketKey::parse("18|total=2.5").unwrap()).unwrap().clone();
        assert_eq!(
            (m.name.as_str(), m.outcomes[0].name.as_str(), m.outcomes[1].name.as_str()),
            ("Total", "Over 2.5", "Under 2.5")
        );
        let a = l.apply(&odds("sr:match:1", "18|total=2.5", &[("12", 1800), ("13", 1950)])).unwrap();
        assert_eq!(a, Applied { markets: 1, outcomes: 1 });
        let a = l.apply(&odds("sr:match:1", "18|total=2.5", &[("12", 1800), ("13", 1950)])).unwrap();
        assert_eq!(a, Applied::default());
        assert_eq!(l.events["sr:match:1"].markets["18|total=2.5"].outcomes[0].odds.thousandths(), 1800);
    }

    #[test]
    fn typed_errors_and_atomicity() {
        let mut l = line();
        let before = l.clone();
        assert_eq!(
            l.apply(&odds("sr:match:9", "1", &[("1", 2000)])),
            Err(FeedError::UnknownEvent("sr:match:9".into()))
        );
        // Odds below 1.001 in the second outcome: the first one is not applied either.
        let err = l.apply(&odds("sr:match:1", "18|total=2.5", &[("12", 1700), ("13", 1000)])).unwrap_err();
        assert_eq!(
            err,
            FeedError::OddsOutOfRange {
                event_id: "sr:match:1".into(),
                market: "18|total=2.5".into(),
                outcome: "13".into(),
                odds: 1000
            }
        );
        assert!(matches!(l.apply(&odds("sr:match:1", "1", &[])), Err(FeedError::BadMarket { .. })));
        assert!(matches!(
            l.apply(&odds("sr:match:1", "1", &[("1", 2000), ("1", 2100)])),
            Err(FeedError::BadMarket { .. })
        ));
        let settle = FeedMessage::BetSettlement(BetSettlement {
            timestamp: T,
            event_id: "sr:match:1".into(),
            markets: vec![MarketResult {
                market: MarketKey::parse("18|total=2.5").unwrap(),
                outcomes: vec![
                    OutcomeSettlement { id: "12".into(), result: OutcomeResult::WIN },
                    OutcomeSettlement { id: "99".into(), result: OutcomeResult::LOSE },
                ],
            }],
        });
        assert_eq!(
            l.apply(&settle),
            Err(FeedError::UnknownOutcome {
                event_id: "sr:match:1".into(),
                market: "18|total=2.5".into(),
                outcome: "99".into()
            })
        );
        let stop = FeedMessage::BetStop(BetStop {
            timestamp: T,
            event_id: "sr:match:1".into(),
            markets: Some(vec![MarketKey::parse("18|total=2.5").unwrap(), MarketKey::plain(1)]),
        });
        assert!(matches!(l.apply(&stop), Err(FeedError::UnknownMarket { .. })));
        assert_eq!(l, before, "refused messages change nothing");
        let mut bad = fixture("sr:match:2");
        if let FeedMessage::FixtureChange(f) = &mut bad {
            f.tournament.category_id = "sr:category:2".into();
        }
        assert!(matches!(l.apply(&bad), Err(FeedError::InconsistentFixture { .. })));
        assert!(matches!(decode(r#"{"type":"odds_change"}"#), Err(FeedError::Malformed(_))));
        assert!(matches!(decode(r#"{"type":"nonsense","event_id":"x"}"#), Err(FeedError::Malformed(_))));
    }

    #[test]
    fn stop_settle_cancel() {
        let mut l = line();
        l.apply(&odds("sr:match:1", "1", &[("1", 2000), ("2", 3400), ("3", 3600)])).unwrap();
        let stop = FeedMessage::BetStop(BetStop { timestamp: T, event_id: "sr:match:1".into(), markets: None });
        assert_eq!(l.apply(&stop).unwrap().markets, 2);
        assert!(l.events["sr:match:1"].markets.values().all(|m| m.status == MarketStatus::Suspended));
        // Windowed cancel: the line is unchanged; whole cancel: void results.
        let mut cancel = BetCancel {
            timestamp: T,
            event_id: "sr:match:1".into(),
            markets: Some(vec![MarketKey::plain(1)]),
            start_time: Some(T - 60_000),
            end_time: Some(T),
            void_reason: Some(0),
            superceded_by: None,
        };
        assert_eq!(l.apply(&FeedMessage::BetCancel(cancel.clone())).unwrap(), Applied::default());
        assert_eq!(l.events["sr:match:1"].markets["1"].status, MarketStatus::Suspended);
        cancel.start_time = None;
        cancel.end_time = None;
        l.apply(&FeedMessage::BetCancel(cancel)).unwrap();
        let m = &l.events["sr:match:1"].markets["1"];
        assert_eq!(m.status, MarketStatus::Cancelled);
        assert!(m.outcomes.iter().all(|o| o.result == Some(OutcomeResult::VOID)));
        // Settlement, then a resettlement overriding it.
        let settle = |r: OutcomeResult| {
            FeedMessage::BetSettlement(BetSettlement {
                timestamp: T,
                event_id: "sr:match:1".into(),
                markets: vec![MarketResult {
                    market: MarketKey::parse("18|total=2.5").unwrap(),
                    outcomes: vec![OutcomeSettlement { id: "12".into(), result: r }],
                }],
            })
        };
        l.apply(&settle(OutcomeResult::WIN)).unwrap();
        l.apply(&settle(OutcomeResult::LOSE)).unwrap();
        let m = &l.events["sr:match:1"].markets["18|total=2.5"];
        assert_eq!((m.status, m.outcomes[0].result), (MarketStatus::Settled, Some(OutcomeResult::LOSE)));
    }

    #[test]
    fn a_dead_heat_factor_of_zero_is_refused() {
        let mut l = line();
        l.apply(&odds("sr:match:1", "1", &[("1", 2000), ("2", 3400), ("3", 3600)])).unwrap();
        let settle = |factor: &str| {
            decode(&format!(
                r#"{{"type":"bet_settlement","timestamp":1,"event_id":"sr:match:1","markets":[{{"market":"1",
                "outcomes":[{{"id":"1","win":true,"dead_heat_factor":"{factor}"}}]}}]}}"#
            ))
            .unwrap()
        };
        // "0/1": a win paying nothing — refused, the line unchanged.
        assert!(matches!(l.apply(&settle("0/1")), Err(FeedError::Malformed(_))));
        assert!(matches!(l.apply(&settle("0")), Err(FeedError::Malformed(_))));
        assert_eq!(l.events["sr:match:1"].markets["1"].outcomes[0].result, None);
        // Above 1 is not a fraction of a win at all.
        assert!(decode(&r#"{"type":"bet_settlement","timestamp":1,"event_id":"sr:match:1","markets":[{"market":"1",
            "outcomes":[{"id":"1","win":true,"dead_heat_factor":"3/2"}]}]}"#.to_string()).is_err());
        l.apply(&settle("1/2")).unwrap();
        assert_eq!(
            l.events["sr:match:1"].markets["1"].outcomes[0].result,
            Some(OutcomeResult::dead_heat(crate::exact::Fraction::HALF))
        );
    }

    #[test]
    fn fixture_updates_keep_markets_and_rename() {
        let mut l = line();
        l.apply(&odds("sr:match:1", "16|hcp=-0.25", &[("1714", 1900), ("1715", 1900)])).unwrap();
        let mut f = fixture("sr:match:1");
        if let FeedMessage::FixtureChange(x) = &mut f {
            x.home.name = "Atlas FC".into();
            x.start_time += 900_000;
        }
        l.apply(&f).unwrap();
        let e = &l.events["sr:match:1"];
        assert_eq!(e.start_time, T + 4_500_000);
        assert_eq!(e.markets["16|hcp=-0.25"].outcomes[0].name, "Atlas FC (-0.25)");
        assert_eq!(e.markets.len(), 2);
    }

    #[test]
    fn json_shape() {
        let msg = odds("sr:match:1", "18|total=2.5", &[("12", 1850)]);
        let json = encode(&msg);
        assert!(json.starts_with(r#"{"type":"odds_change","timestamp":"#), "{json}");
        assert_eq!(decode(&json).unwrap(), msg);
        let settle = r#"{"type":"bet_settlement","timestamp":1,"event_id":"e","markets":[{"market":"16|hcp=-0.25",
            "outcomes":[{"id":"1714","win":false,"void_factor":"1/2"},{"id":"1715","win":true,"void_factor":"1/2"}]}]}"#;
        let FeedMessage::BetSettlement(s) = decode(settle).unwrap() else { panic!() };
        assert_eq!(s.markets[0].outcomes[0].result, OutcomeResult::HALF_LOSE);
        assert_eq!(s.markets[0].outcomes[1].result, OutcomeResult::HALF_WIN);
    }
}
