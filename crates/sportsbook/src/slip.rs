//! The bet slip: a bet request checked against the current line, the limits and the player.
//!
//! [`validate`] is pure: the caller passes the line, the settings, what it knows of the player and
//! `now`, and gets either the bet to record (with the odds to record) or a [`Refusal`] whose
//! [`code`](Refusal::code) is the platform's error code (600–617, 1489; the table is
//! [`REFUSAL_CODES`] and docs/SPORTSBOOK.md).
//!
//! The checks run in a fixed order, so one request always gets the same refusal:
//! 616 (player), 600 (betting closed), 601 (stake, empty slip), 609 (leg count), 601/608 (same
//! outcome / same event twice), 610/606 (stake limits), then per leg in slip order 601 (unknown
//! selection), 602, 603, 607, 605, then 604 (all changed legs at once), 617, 1489/615 (free bet /
//! bonus odds), 611/613 (stake per market), 612/614 (payout).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::model::{EventKind, EventStatus, Line, MarketKey, MarketStatus};
use crate::odds::{accepts, combined_odds, potential_payout, Odds, OddsPolicy};

/// A single or an express (accumulator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BetKind {
    /// Exactly one leg.
    Single,
    /// 2 to 20 legs on different events, all must win.
    Express,
}

/// What the stake is paid with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Funding {
    /// The real-money balance.
    Real,
    /// The bonus balance (every leg at least [`SlipSettings::bonus_min_odds`]).
    Bonus,
    /// A free bet: total odds at least [`SlipSettings::free_bet_min_odds`]; pays winnings only.
    FreeBet,
}

/// One selection as the player sent it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegRequest {
    /// Event id.
    pub event_id: String,
    /// Market key.
    pub market: MarketKey,
    /// Outcome id within the market.
    pub outcome_id: String,
    /// The odds the player saw.
    pub odds: Odds,
}

/// A bet as the player sent it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BetRequest {
    /// The selections.
    pub legs: Vec<LegRequest>,
    /// Stake in minor units.
    pub stake: i64,
    /// Single or express.
    pub kind: BetKind,
    /// Real, bonus or free bet.
    pub funding: Funding,
    /// What to do if the odds moved.
    pub policy: OddsPolicy,
}

/// `limits.bets`: the stake range of any bet, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StakeLimits {
    /// Smallest stake (610 below).
    pub min: i64,
    /// Largest stake (606 above).
    pub max: i64,
    /// The stake the slip proposes (not checked here; carried for the client).
    pub default: i64,
}

/// Per-market limits in minor units, separately before the start and in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketLimits {
    /// Most a player may have staked on one market before the start, this bet included (611).
    pub prematch_max_stake: i64,
    /// Largest potential payout of a bet with a pre-match leg on this market (612).
    pub prematch_max_payout: i64,
    /// Most a player may have staked on one market in play (613).
    pub live_max_stake: i64,
    /// Largest potential payout of a bet with a live leg on this market (614).
    pub live_max_payout: i64,
}

/// Everything the slip checks against besides the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlipSettings {
    /// False while the feed is down or betting is switched off (600).
    pub betting_open: bool,
    /// `limits.bets`.
    pub bets: StakeLimits,
    /// Limits of every market without its own entry.
    pub market_limits: MarketLimits,
    /// Limits by market type id, overriding `market_limits`.
    #[serde(default)]
    pub market_limits_by_type: BTreeMap<u32, MarketLimits>,
    /// Every leg of a bonus bet must have at least these odds (615); 1.80.
    pub bonus_min_odds: Odds,
    /// A free bet's total odds must be at least these (1489); 2.20.
    pub free_bet_min_odds: Odds,
    /// Open bets a player may have on one event, this one excluded (617 beyond); 4.
    pub max_open_bets_per_event: u32,
    /// The most legs of an express (609 beyond); 20. The fewest is always 2.
    pub max_express_legs: usize,
}

impl Default for SlipSettings {
    /// Placeholder figures in TND millimes (1 TND = 1000): stakes 0.500 to 5,000 TND; per market
    /// 2,000 TND staked / 50,000 TND payout before the start, 1,000 / 20,000 in play. The operator
    /// sets the real ones.
    fn default() -> Self {
        SlipSettings {
            betting_open: true,
            bets: StakeLimits { min: 500, max: 5_000_000, default: 5_000 },
            market_limits: MarketLimits {
                prematch_max_stake: 2_000_000,
                prematch_max_payout: 50_000_000,
                live_max_stake: 1_000_000,
                live_max_payout: 20_000_000,
            },
            market_limits_by_type: BTreeMap::new(),
            bonus_min_odds: Odds::new(1800).expect("valid odds"),
            free_bet_min_odds: Odds::new(2200).expect("valid odds"),
            max_open_bets_per_event: 4,
            max_express_legs: 20,
        }
    }
}

impl SlipSettings {
    /// The limits of one market type.
    pub fn limits_for(&self, type_id: u32) -> MarketLimits {
        self.market_limits_by_type.get(&type_id).copied().unwrap_or(self.market_limits)
    }
}

/// What the caller knows of the player at the time of the bet.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerState {
    /// False for a role that may not bet, a self-excluded or blocked player (616).
    pub betting_allowed: bool,
    /// Open (unsettled) bets by event id.
    pub open_bets_per_event: BTreeMap<String, u32>,
    /// Stake already placed by (event id, market key), open bets only. An express counts its full
    /// stake on each of its markets.
    pub staked_per_market: BTreeMap<(String, MarketKey), i64>,
}

/// A leg whose odds moved beyond what the policy accepts (604).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedOdds {
    /// Position in the slip.
    pub leg: usize,
    /// Event id.
    pub event_id: String,
    /// Market key.
    pub market: MarketKey,
    /// Outcome id.
    pub outcome_id: String,
    /// What the player sent.
    pub requested: Odds,
    /// What the line has now.
    pub current: Odds,
}

/// What is malformed in a request (601).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum Invalid {
    /// The stake is zero or negative.
    Stake,
    /// No legs.
    NoLegs,
    /// The same outcome twice.
    DuplicateSelection {
        /// The second occurrence.
        leg: usize,
    },
    /// The event, market or outcome is not in the line.
    UnknownSelection {
        /// Position in the slip.
        leg: usize,
    },
}

/// Why a bet is refused. [`Refusal::code`] gives the platform code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "refusal")]
pub enum Refusal {
    /// 600: the feed is down or betting is closed.
    #[error("betting is unavailable at the moment")]
    ServiceUnavailable,
    /// 601: a malformed request.
    #[error("the bet is invalid: {0:?}")]
    Invalid(Invalid),
    /// 602: the event is over.
    #[error("leg {leg}: the event is over")]
    EventOver {
        /// Position in the slip.
        leg: usize,
    },
    /// 603: a pre-match event that has started.
    #[error("leg {leg}: the event has started")]
    EventStarted {
        /// Position in the slip.
        leg: usize,
    },
    /// 604: the odds moved; retry with these.
    #[error("the odds have changed")]
    OddsChanged {
        /// Every changed leg with its current odds.
        changes: Vec<ChangedOdds>,
    },
    /// 605: the market is closed for good or the outcome is not offered.
    #[error("leg {leg}: the selection is not available")]
    Blocked {
        /// Position in the slip.
        leg: usize,
    },
    /// 606: stake above `limits.bets.max`.
    #[error("the stake is above the maximum of {max}")]
    StakeAboveMaximum {
        /// The maximum.
        max: i64,
    },
    /// 607: the market is suspended.
    #[error("leg {leg}: the market is suspended")]
    Suspended {
        /// Position in the slip.
        leg: usize,
    },
    /// 608: two legs on one event in an express.
    #[error("leg {leg}: the express has this event twice")]
    DuplicateEvent {
        /// The second leg on the same event.
        leg: usize,
    },
    /// 609: a single without exactly one leg, an express outside 2..=max legs.
    #[error("a {kind:?} bet takes {min} to {max} events, got {got}")]
    WrongLegCount {
        /// The requested kind.
        kind: BetKind,
        /// Legs sent.
        got: usize,
        /// Fewest allowed.
        min: usize,
        /// Most allowed.
        max: usize,
    },
    /// 610: stake below `limits.bets.min`.
    #[error("the stake is below the minimum of {min}")]
    StakeBelowMinimum {
        /// The minimum.
        min: i64,
    },
    /// 611: the player's pre-match stake on a market would exceed its limit.
    #[error("leg {leg}: the pre-match stake limit for this market is reached")]
    PrematchStakeLimit {
        /// Position in the slip.
        leg: usize,
        /// What may still be staked (0 or more).
        available: i64,
    },
    /// 612: the potential payout is above a pre-match market's maximum.
    #[error("the potential payout is above the pre-match maximum of {max}")]
    PrematchPayoutLimit {
        /// The maximum payout.
        max: i64,
    },
    /// 613: the player's live stake on a market would exceed its limit.
    #[error("leg {leg}: the live stake limit for this market is reached")]
    LiveStakeLimit {
        /// Position in the slip.
        leg: usize,
        /// What may still be staked (0 or more).
        available: i64,
    },
    /// 614: the potential payout is above a live market's maximum.
    #[error("the potential payout is above the live maximum of {max}")]
    LivePayoutLimit {
        /// The maximum payout.
        max: i64,
    },
    /// 615: a bonus bet with a leg below the bonus minimum odds.
    #[error("leg {leg}: bonus bets need odds of at least {min}")]
    BonusRules {
        /// Position in the slip.
        leg: usize,
        /// The minimum odds.
        min: Odds,
    },
    /// 616: this player may not bet (role, self-exclusion, block).
    #[error("betting is not allowed for this account")]
    NotAllowed,
    /// 617: too many open bets on one event.
    #[error("leg {leg}: at most {max} open bets on the same event")]
    TooManyOpenBets {
        /// Position in the slip.
        leg: usize,
        /// The maximum.
        max: u32,
    },
    /// 1489: a free bet whose total odds are below the free-bet minimum.
    #[error("a free bet needs total odds of at least {min}")]
    FreeBetOddsTooLow {
        /// The minimum total odds.
        min: Odds,
        /// The bet's total odds in thousandths.
        total: u64,
    },
}

/// Every refusal code: (code, name, English text). Add these rows to the platform's error
/// catalogue; docs/SPORTSBOOK.md lists the same table.
pub const REFUSAL_CODES: &[(u32, &str, &str)] = &[
    (600, "SportsbookUnavailable", "Betting is unavailable at the moment."),
    (601, "BetInvalid", "The bet is invalid."),
    (602, "EventOver", "The event is over."),
    (603, "EventStarted", "The event has started."),
    (604, "OddsChanged", "The odds have changed. Please check and retry."),
    (605, "BetBlocked", "This selection is not available."),
    (606, "StakeAboveMaximum", "The stake is above the maximum."),
    (607, "MarketSuspended", "The market is suspended."),
    (608, "DuplicateEvent", "An express cannot contain the same event twice."),
    (609, "WrongEventCount", "Wrong number of events for this bet type."),
    (610, "StakeBelowMinimum", "The stake is below the minimum."),
    (611, "PrematchStakeLimit", "The pre-match stake limit for this market is reached."),
    (612, "PrematchPayoutLimit", "The pre-match maximum payout is exceeded."),
    (613, "LiveStakeLimit", "The live stake limit for this market is reached."),
    (614, "LivePayoutLimit", "The live maximum payout is exceeded."),
    (615, "BonusBetRules", "Bonus bets need odds of at least 1.80 on every selection."),
    (616, "BettingNotAllowed", "Betting is not allowed for this account."),
    (617, "TooManyOpenBets", "At most 4 open bets on the same event."),
    (1489, "FreeBetOddsTooLow", "A free bet needs total odds of at least 2.20."),
];

impl Refusal {
    /// The platform error code.
    pub const fn code(&self) -> u32 {
        match self {
            Refusal::ServiceUnavailable => 600,
            Refusal::Invalid(_) => 601,
            Refusal::EventOver { .. } => 602,
            Refusal::EventStarted { .. } => 603,
            Refusal::OddsChanged { .. } => 604,
            Refusal::Blocked { .. } => 605,
            Refusal::StakeAboveMaximum { .. } => 606,
            Refusal::Suspended { .. } => 607,
            Refusal::DuplicateEvent { .. } => 608,
            Refusal::WrongLegCount { .. } => 609,
            Refusal::StakeBelowMinimum { .. } => 610,
            Refusal::PrematchStakeLimit { .. } => 611,
            Refusal::PrematchPayoutLimit { .. } => 612,
            Refusal::LiveStakeLimit { .. } => 613,
            Refusal::LivePayoutLimit { .. } => 614,
            Refusal::BonusRules { .. } => 615,
            Refusal::NotAllowed => 616,
            Refusal::TooManyOpenBets { .. } => 617,
            Refusal::FreeBetOddsTooLow { .. } => 1489,
        }
    }

    /// The stable name of the code (as in [`REFUSAL_CODES`]).
    pub fn name(&self) -> &'static str {
        let code = self.code();
        REFUSAL_CODES.iter().find(|(c, _, _)| *c == code).map(|(_, n, _)| *n).unwrap_or("Unknown")
    }
}

/// A leg as it will be recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptedLeg {
    /// Event id.
    pub event_id: String,
    /// Market key.
    pub market: MarketKey,
    /// Outcome id.
    pub outcome_id: String,
    /// The odds to record: the current odds (equal to the requested ones unless the policy
    /// accepted a change).
    pub odds: Odds,
    /// What the player sent.
    pub requested_odds: Odds,
    /// Whether the leg was taken in play (live limits applied).
    pub live: bool,
}

/// A bet that passed every check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptedBet {
    /// The legs with the odds to record.
    pub legs: Vec<AcceptedLeg>,
    /// Stake in minor units.
    pub stake: i64,
    /// Single or express.
    pub kind: BetKind,
    /// Real, bonus or free bet.
    pub funding: Funding,
    /// Total odds in thousandths, floored (display; payouts use the exact product).
    pub total_odds: u64,
    /// What a win pays: ⌊stake × Π odds⌋, minus the stake for a free bet (stake not returned).
    pub potential_payout: i64,
}

/// Checks a bet request. See the module comment for the order of the checks.
pub fn validate(
    req: &BetRequest,
    line: &Line,
    settings: &SlipSettings,
    player: &PlayerState,
    now_ms: i64,
) -> Result<AcceptedBet, Refusal> {
    if !player.betting_allowed {
        return Err(Refusal::NotAllowed);
    }
    if !settings.betting_open {
        return Err(Refusal::ServiceUnavailable);
    }
    if req.stake <= 0 {
        return Err(Refusal::Invalid(Invalid::Stake));
    }
    if req.legs.is_empty() {
        return Err(Refusal::Invalid(Invalid::NoLegs));
    }
    let (min, max) = match req.kind {
        BetKind::Single => (1, 1),
        BetKind::Express => (2, settings.max_express_legs),
    };
    if !(min..=max).contains(&req.legs.len()) {
        return Err(Refusal::WrongLegCount { kind: req.kind, got: req.legs.len(), min, max });
    }
    let mut events = BTreeSet::new();
    let mut selections = BTreeSet::new();
    for (i, leg) in req.legs.iter().enumerate() {
        if !selections.insert((&leg.event_id, &leg.market, &leg.outcome_id)) {
            return Err(Refusal::Invalid(Invalid::DuplicateSelection { leg: i }));
        }
        if !events.insert(&leg.event_id) {
            return Err(Refusal::DuplicateEvent { leg: i });
        }
    }
    if req.stake < settings.bets.min {
        return Err(Refusal::StakeBelowMinimum { min: settings.bets.min });
    }
    if req.stake > settings.bets.max {
        return Err(Refusal::StakeAboveMaximum { max: settings.bets.max });
    }

    let mut accepted = Vec::with_capacity(req.legs.len());
    for (i, leg) in req.legs.iter().enumerate() {
        let Some((event, market, outcome)) = line.selection(&leg.event_id, &leg.market, &leg.outcome_id) else {
            return Err(Refusal::Invalid(Invalid::UnknownSelection { leg: i }));
        };
        if event.status.is_over() {
            return Err(Refusal::EventOver { leg: i });
        }
        let started = event.status == EventStatus::Live || now_ms >= event.start_time;
        if started && event.kind == EventKind::PreMatch {
            return Err(Refusal::EventStarted { leg: i });
        }
        match market.status {
            MarketStatus::Active => {}
            MarketStatus::Suspended => return Err(Refusal::Suspended { leg: i }),
            MarketStatus::Deactivated | MarketStatus::Settled | MarketStatus::Cancelled => {
                return Err(Refusal::Blocked { leg: i })
            }
        }
        if !outcome.active {
            return Err(Refusal::Blocked { leg: i });
        }
        accepted.push(AcceptedLeg {
            event_id: leg.event_id.clone(),
            market: leg.market.clone(),
            outcome_id: leg.outcome_id.clone(),
            odds: outcome.odds,
            requested_odds: leg.odds,
            live: started,
        });
    }

    let changes: Vec<ChangedOdds> = accepted
        .iter()
        .enumerate()
        .filter(|(_, l)| !accepts(req.policy, l.requested_odds, l.odds))
        .map(|(i, l)| ChangedOdds {
            leg: i,
            event_id: l.event_id.clone(),
            market: l.market.clone(),
            outcome_id: l.outcome_id.clone(),
            requested: l.requested_odds,
            current: l.odds,
        })
        .collect();
    if !changes.is_empty() {
        return Err(Refusal::OddsChanged { changes });
    }

    for (i, leg) in accepted.iter().enumerate() {
        let open = player.open_bets_per_event.get(&leg.event_id).copied().unwrap_or(0);
        if open >= settings.max_open_bets_per_event {
            return Err(Refusal::TooManyOpenBets { leg: i, max: settings.max_open_bets_per_event });
        }
    }

    let odds: Vec<Odds> = accepted.iter().map(|l| l.odds).collect();
    let total_odds = combined_odds(&odds);
    match req.funding {
        Funding::FreeBet if total_odds < settings.free_bet_min_odds.thousandths() as u64 => {
            return Err(Refusal::FreeBetOddsTooLow { min: settings.free_bet_min_odds, total: total_odds });
        }
        Funding::Bonus => {
            if let Some(i) = accepted.iter().position(|l| l.odds < settings.bonus_min_odds) {
                return Err(Refusal::BonusRules { leg: i, min: settings.bonus_min_odds });
            }
        }
        _ => {}
    }

    for (i, leg) in accepted.iter().enumerate() {
        let limits = settings.limits_for(leg.market.type_id());
        let already =
            player.staked_per_market.get(&(leg.event_id.clone(), leg.market.clone())).copied().unwrap_or(0).max(0);
        let limit = if leg.live { limits.live_max_stake } else { limits.prematch_max_stake };
        if already.saturating_add(req.stake) > limit {
            let available = (limit - already).max(0);
            return Err(if leg.live {
                Refusal::LiveStakeLimit { leg: i, available }
            } else {
                Refusal::PrematchStakeLimit { leg: i, available }
            });
        }
    }

    let full_return = potential_payout(req.stake, &odds);
    // The binding payout limit is the smallest among the legs' markets, each in its own phase.
    let binding = accepted
        .iter()
        .map(|l| {
            let limits = settings.limits_for(l.market.type_id());
            if l.live {
                (limits.live_max_payout, true)
            } else {
                (limits.prematch_max_payout, false)
            }
        })
        .min();
    let potential_payout = match req.funding {
        Funding::FreeBet => full_return - req.stake,
        _ => full_return,
    };
    if let Some((max, live)) = binding {
        if potential_payout > max {
            return Err(if live { Refusal::LivePayoutLimit { max } } else { Refusal::PrematchPayoutLimit { max } });
        }
    }

    Ok(AcceptedBet {
        legs: accepted,
        stake: req.stake,
        kind: req.kind,
        funding: req.funding,
        total_odds,
        potential_payout,
    })
}

/// The rakeback qualification rule: at least `min_events` distinct events, every leg at least
/// `min_odds`, stake at least `min_stake` (minor units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RakebackRule {
    /// Fewest distinct events; 5.
    pub min_events: usize,
    /// Smallest odds of every leg; 1.11.
    pub min_odds: Odds,
    /// Smallest stake; 1 TND = 1000 millimes.
    pub min_stake: i64,
}

impl Default for RakebackRule {
    fn default() -> Self {
        RakebackRule { min_events: 5, min_odds: Odds::new(1110).expect("valid odds"), min_stake: 1000 }
    }
}

impl RakebackRule {
    /// Whether an accepted bet counts for rakeback. (Which fundings count is the promotion
    /// engine's decision, not this rule's.)
    pub fn qualifies(&self, bet: &AcceptedBet) -> bool {
        let events: BTreeSet<&str> = bet.legs.iter().map(|l| l.event_id.as_str()).collect();
        events.len() >= self.min_events
            && bet.legs.iter().all(|l| l.odds >= self.min_odds)
            && bet.stake >= self.min_stake
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Competitor, Event, Market, Outcome, Score};

    const NOW: i64 = 1_000_000;

    fn odds(s: &str) -> Odds {
        s.parse().unwrap()
    }

    /// Events `m0`..`m5`: m0–m3 live-covered and not started, m4 pre-match only and started, m5
    /// live in play. Each has a 1x2 market (1.85 / 3.40 / 4.20) and a total 2.5 (1.90 / 1.90).
    fn line() -> Line {
        let mut line = Line::new();
        for i in 0..6 {
            let id = format!("m{i}");
            let mut markets = BTreeMap::new();
            let mut add = |key: &str, outs: &[(&str, &str)]| {
                let key = MarketKey::parse(key).unwrap();
                markets.insert(
                    key.to_string(),
                    Market {
                        key: key.clone(),
                        name: String::new(),
                        status: MarketStatus::Active,
                        outcomes: outs
                            .iter()
                            .map(|(id, o)| Outcome {
                                id: id.to_string(),
                                name: String::new(),
                                odds: odds(o),
                                active: true,
                                result: None,
                            })
                            .collect(),
                    },
                );
            };
            add("1", &[("1", "1.85"), ("2", "3.40"), ("3", "4.20")]);
            add("18|total=2.5", &[("12", "1.90"), ("13", "1.90")]);
            let c = |n: &str| Competitor { id: n.into(), name: n.into() };
            line.events.insert(
                id.clone(),
                Event {
                    id,
                    sport_id: "sim:sport:1".into(),
                    category_id: "c".into(),
                    tournament_id: "t".into(),
                    kind: if i == 4 { EventKind::PreMatch } else { EventKind::Live },
                    start_time: if i >= 4 { NOW - 60_000 } else { NOW + 3_600_000 },
                    home: c("h"),
                    away: c("a"),
                    status: if i == 5 { EventStatus::Live } else { EventStatus::NotStarted },
                    score: Score::default(),
                    clock: None,
                    markets,
                },
            );
        }
        line
    }

    fn leg(event: &str, market: &str, outcome: &str, o: &str) -> LegRequest {
        LegRequest {
            event_id: event.into(),
            market: MarketKey::parse(market).unwrap(),
            outcome_id: outcome.into(),
            odds: odds(o),
        }
    }

    fn single(l: LegRequest, stake: i64) -> BetRequest {
        BetRequest { legs: vec![l], stake, kind: BetKind::Single, funding: Funding::Real, policy: OddsPolicy::None }
    }

    fn player() -> PlayerState {
        PlayerState { betting_allowed: true, ..PlayerState::default() }
    }

    fn check(req: &BetRequest) -> Result<AcceptedBet, Refusal> {
        validate(req, &line(), &SlipSettings::default(), &player(), NOW)
    }

    fn code(req: &BetRequest) -> u32 {
        check(req).unwrap_err().code()
    }

    fn set_market(line: &mut Line, event: &str, key: &str, f: impl FnOnce(&mut Market)) {
        f(line.events.get_mut(event).unwrap().markets.get_mut(key).unwrap());
    }

    #[test]
    fn a_good_single_and_express() {
        let bet = check(&single(leg("m0", "1", "1", "1.85"), 10_000)).unwrap();
        assert_eq!((bet.total_odds, bet.potential_payout), (1850, 18_500));
        assert!(!bet.legs[0].live);
        let express = BetRequest {
            legs: vec![
                leg("m0", "1", "1", "1.85"),
                leg("m1", "18|total=2.5", "12", "1.90"),
                leg("m5", "1", "3", "4.20"),
            ],
            stake: 1_000,
            kind: BetKind::Express,
            funding: Funding::Real,
            policy: OddsPolicy::None,
        };
        let bet = check(&express).unwrap();
        // 1.85 × 1.90 × 4.20 = 14.763
        assert_eq!((bet.total_odds, bet.potential_payout), (14_763, 14_763));
        assert_eq!(bet.legs.iter().map(|l| l.live).collect::<Vec<_>>(), [false, false, true]);
    }

    #[test]
    fn player_and_service_gates() {
        let req = single(leg("m0", "1", "1", "1.85"), 10_000);
        let blocked = PlayerState { betting_allowed: false, ..player() };
        assert_eq!(validate(&req, &line(), &SlipSettings::default(), &blocked, NOW).unwrap_err().code(), 616);
        let closed = SlipSettings { betting_open: false, ..SlipSettings::default() };
        assert_eq!(validate(&req, &line(), &closed, &player(), NOW).unwrap_err().code(), 600);
    }

    #[test]
    fn malformed_requests_and_leg_counts() {
        assert_eq!(code(&single(leg("m0", "1", "1", "1.85"), 0)), 601);
        assert_eq!(code(&single(leg("nope", "1", "1", "1.85"), 1_000)), 601);
        assert_eq!(code(&single(leg("m0", "29", "74", "1.85"), 1_000)), 601);
        assert_eq!(code(&single(leg("m0", "1", "9", "1.85"), 1_000)), 601);
        let mut req = single(leg("m0", "1", "1", "1.85"), 1_000);
        req.legs.clear();
        assert_eq!(check(&req).unwrap_err(), Refusal::Invalid(Invalid::NoLegs));
        req.legs = vec![leg("m0", "1", "1", "1.85"), leg("m1", "1", "1", "1.85")];
        assert_eq!(code(&req), 609, "a single with two legs");
        req.kind = BetKind::Express;
        req.legs.truncate(1);
        assert_eq!(code(&req), 609, "an express with one leg");
        req.legs = (0..21).map(|i| leg(&format!("x{i}"), "1", "1", "1.85")).collect();
        assert_eq!(
            check(&req).unwrap_err(),
            Refusal::WrongLegCount { kind: BetKind::Express, got: 21, min: 2, max: 20 }
        );
        req.legs = vec![leg("m0", "1", "1", "1.85"), leg("m0", "18|total=2.5", "12", "1.90")];
        assert_eq!(check(&req).unwrap_err(), Refusal::DuplicateEvent { leg: 1 });
        req.legs = vec![leg("m0", "1", "1", "1.85"), leg("m0", "1", "1", "1.85")];
        assert_eq!(check(&req).unwrap_err(), Refusal::Invalid(Invalid::DuplicateSelection { leg: 1 }));
    }

    #[test]
    fn stake_limits() {
        assert_eq!(code(&single(leg("m0", "1", "1", "1.85"), 499)), 610);
        assert!(check(&single(leg("m0", "1", "1", "1.85"), 500)).is_ok());
        assert!(check(&single(leg("m0", "1", "1", "1.85"), 2_000_000)).is_ok());
        assert_eq!(code(&single(leg("m0", "1", "1", "1.85"), 5_000_001)), 606);
    }

    #[test]
    fn event_and_market_states() {
        let req = single(leg("m0", "1", "1", "1.85"), 1_000);
        let run = |line: &Line| validate(&req, line, &SlipSettings::default(), &player(), NOW).map_err(|r| r.code());
        for (status, expected) in [
            (MarketStatus::Suspended, 607),
            (MarketStatus::Deactivated, 605),
            (MarketStatus::Settled, 605),
            (MarketStatus::Cancelled, 605),
        ] {
            let mut l = line();
            set_market(&mut l, "m0", "1", |m| m.status = status);
            assert_eq!(run(&l), Err(expected), "{status:?}");
        }
        let mut l = line();
        set_market(&mut l, "m0", "1", |m| m.outcomes[0].active = false);
        assert_eq!(run(&l), Err(605));
        for status in [EventStatus::Ended, EventStatus::Closed, EventStatus::Cancelled] {
            let mut l = line();
            l.events.get_mut("m0").unwrap().status = status;
            assert_eq!(run(&l), Err(602), "{status:?}");
        }
        // A pre-match-only event whose start time has passed, even before the feed says so.
        assert_eq!(code(&single(leg("m4", "1", "1", "1.85"), 1_000)), 603);
        let mut l = line();
        l.events.get_mut("m0").unwrap().start_time = NOW;
        l.events.get_mut("m0").unwrap().kind = EventKind::PreMatch;
        assert_eq!(run(&l), Err(603));
        // The same event covered live is taken in play.
        l.events.get_mut("m0").unwrap().kind = EventKind::Live;
        assert!(run(&l).is_ok());
    }

    #[test]
    fn odds_changes_follow_the_policy() {
        let mut l = line();
        set_market(&mut l, "m0", "1", |m| m.outcomes[0].odds = odds("1.80"));
        set_market(&mut l, "m1", "1", |m| m.outcomes[0].odds = odds("1.95"));
        let mut req = BetRequest {
            legs: vec![leg("m0", "1", "1", "1.85"), leg("m1", "1", "1", "1.85"), leg("m2", "1", "1", "1.85")],
            stake: 1_000,
            kind: BetKind::Express,
            funding: Funding::Real,
            policy: OddsPolicy::None,
        };
        let run = |req: &BetRequest| validate(req, &l, &SlipSettings::default(), &player(), NOW);
        // Exact: both changed legs are reported with their current odds.
        let Err(Refusal::OddsChanged { changes }) = run(&req) else { panic!("expected 604") };
        let seen: Vec<(usize, Odds)> = changes.iter().map(|c| (c.leg, c.current)).collect();
        assert_eq!(seen, [(0, odds("1.80")), (1, odds("1.95"))]);
        // Higher: only the drop is refused.
        req.policy = OddsPolicy::AcceptHigher;
        let Err(Refusal::OddsChanged { changes }) = run(&req) else { panic!("expected 604") };
        assert_eq!(changes.len(), 1);
        assert_eq!((changes[0].leg, changes[0].requested, changes[0].current), (0, odds("1.85"), odds("1.80")));
        // Any: accepted at the current odds, which are what gets recorded.
        req.policy = OddsPolicy::AcceptAny;
        let bet = run(&req).unwrap();
        assert_eq!(bet.legs.iter().map(|l| l.odds).collect::<Vec<_>>(), [odds("1.80"), odds("1.95"), odds("1.85")]);
        assert_eq!(bet.legs[0].requested_odds, odds("1.85"));
        // 1.80 × 1.95 × 1.85 = 6.4935
        assert_eq!((bet.total_odds, bet.potential_payout), (6_493, 6_493));
    }

    #[test]
    fn open_bets_per_event() {
        let mut p = player();
        p.open_bets_per_event.insert("m1".into(), 3);
        let req = BetRequest {
            legs: vec![leg("m0", "1", "1", "1.85"), leg("m1", "1", "1", "1.85")],
            stake: 1_000,
            kind: BetKind::Express,
            funding: Funding::Real,
            policy: OddsPolicy::None,
        };
        assert!(validate(&req, &line(), &SlipSettings::default(), &p, NOW).is_ok());
        p.open_bets_per_event.insert("m1".into(), 4);
        assert_eq!(
            validate(&req, &line(), &SlipSettings::default(), &p, NOW).unwrap_err(),
            Refusal::TooManyOpenBets { leg: 1, max: 4 }
        );
    }

    #[test]
    fn bonus_and_free_bet_odds() {
        let mut req = single(leg("m0", "1", "1", "1.85"), 1_000);
        req.funding = Funding::Bonus;
        assert!(check(&req).is_ok(), "1.85 ≥ 1.80");
        req.funding = Funding::FreeBet;
        assert_eq!(check(&req).unwrap_err(), Refusal::FreeBetOddsTooLow { min: odds("2.20"), total: 1850 });
        // The free-bet rule is on the total: 1.85 × 1.90 = 3.515 passes.
        req.kind = BetKind::Express;
        req.legs.push(leg("m1", "18|total=2.5", "13", "1.90"));
        let bet = check(&req).unwrap();
        // Stake not returned: 1,000 × 3.515 − 1,000.
        assert_eq!(bet.potential_payout, 2_515);
        // Bonus: every leg counts, so a 1.30 leg refuses the express even at high total odds.
        let mut l = line();
        set_market(&mut l, "m1", "18|total=2.5", |m| m.outcomes[1].odds = odds("1.30"));
        req.funding = Funding::Bonus;
        req.legs[1].odds = odds("1.30");
        assert_eq!(
            validate(&req, &l, &SlipSettings::default(), &player(), NOW).unwrap_err(),
            Refusal::BonusRules { leg: 1, min: odds("1.80") }
        );
    }

    #[test]
    fn market_stake_limits_count_what_is_already_staked() {
        let mut settings = SlipSettings::default();
        settings.market_limits_by_type.insert(
            1,
            MarketLimits {
                prematch_max_stake: 10_000,
                prematch_max_payout: 1_000_000,
                live_max_stake: 5_000,
                live_max_payout: 1_000_000,
            },
        );
        let mut p = player();
        p.staked_per_market.insert(("m0".into(), MarketKey::plain(1)), 7_000);
        p.staked_per_market.insert(("m5".into(), MarketKey::plain(1)), 4_000);
        let run = |req: &BetRequest| validate(req, &line(), &settings, &p, NOW);
        assert!(run(&single(leg("m0", "1", "1", "1.85"), 3_000)).is_ok());
        assert_eq!(
            run(&single(leg("m0", "1", "1", "1.85"), 3_001)).unwrap_err(),
            Refusal::PrematchStakeLimit { leg: 0, available: 3_000 }
        );
        assert_eq!(
            run(&single(leg("m5", "1", "1", "1.85"), 1_001)).unwrap_err(),
            Refusal::LiveStakeLimit { leg: 0, available: 1_000 }
        );
        // Another market type falls back to the default limits.
        assert!(run(&single(leg("m0", "18|total=2.5", "12", "1.90"), 100_000)).is_ok());
    }

    #[test]
    fn payout_limits_take_the_tightest_leg() {
        let settings = SlipSettings {
            market_limits: MarketLimits {
                prematch_max_stake: 1_000_000,
                prematch_max_payout: 20_000,
                live_max_stake: 1_000_000,
                live_max_payout: 15_000,
            },
            ..SlipSettings::default()
        };
        let run = |req: &BetRequest| validate(req, &line(), &settings, &player(), NOW);
        // 10,811 × 1.85 = 20,000.35 → 20,000, the maximum itself, passes; 10,812 → 20,002 fails.
        assert_eq!(run(&single(leg("m0", "1", "1", "1.85"), 10_811)).unwrap().potential_payout, 20_000);
        assert_eq!(
            run(&single(leg("m0", "1", "1", "1.85"), 10_812)).unwrap_err(),
            Refusal::PrematchPayoutLimit { max: 20_000 }
        );
        assert_eq!(
            run(&single(leg("m5", "1", "1", "1.85"), 10_000)).unwrap_err(),
            Refusal::LivePayoutLimit { max: 15_000 }
        );
        let express = BetRequest {
            legs: vec![leg("m0", "1", "1", "1.85"), leg("m5", "1", "1", "1.85")],
            stake: 5_000,
            kind: BetKind::Express,
            funding: Funding::Real,
            policy: OddsPolicy::None,
        };
        // 5,000 × 3.4225 = 17,112: under the pre-match maximum, over the live one.
        assert_eq!(run(&express).unwrap_err().code(), 614);
    }

    #[test]
    fn codes_are_unique_and_tabled() {
        let mut seen = BTreeSet::new();
        for (code, name, text) in REFUSAL_CODES {
            assert!(seen.insert(*code), "duplicate {code}");
            assert!(!name.is_empty() && text.ends_with('.'));
        }
        assert_eq!(Refusal::ServiceUnavailable.name(), "SportsbookUnavailable");
        assert_eq!(Refusal::FreeBetOddsTooLow { min: odds("2.2"), total: 2000 }.name(), "FreeBetOddsTooLow");
        let json = serde_json::to_value(Refusal::OddsChanged {
            changes: vec![ChangedOdds {
                leg: 0,
                event_id: "m0".into(),
                market: MarketKey::plain(1),
                outcome_id: "1".into(),
                requested: odds("1.85"),
                current: odds("1.80"),
            }],
        })
        .unwrap();
        assert_eq!(json["refusal"], "odds_changed");
        assert_eq!(json["changes"][0]["current"], 1800);
    }

    #[test]
    fn rakeback_rule() {
        let rule = RakebackRule::default();
        let legs = |n: usize, o: &str| -> Vec<AcceptedLeg> {
            (0..n)
                .map(|i| AcceptedLeg {
                    event_id: format!("e{i}"),
                    market: MarketKey::plain(1),
                    outcome_id: "1".into(),
                    odds: odds(o),
                    requested_odds: odds(o),
                    live: false,
                })
                .collect()
        };
        let bet = |n, o, stake| AcceptedBet {
            legs: legs(n, o),
            stake,
            kind: BetKind::Express,
            funding: Funding::Real,
            total_odds: 0,
            potential_payout: 0,
        };
        assert!(rule.qualifies(&bet(5, "1.11", 1_000)));
        assert!(!rule.qualifies(&bet(4, "1.50", 1_000)));
        assert!(!rule.qualifies(&bet(5, "1.109", 1_000)));
        assert!(!rule.qualifies(&bet(5, "1.50", 999)));
        let mut same_event = bet(5, "1.50", 1_000);
        same_event.legs[4].event_id = "e0".into();
        assert!(!rule.qualifies(&same_event));
    }
}
