//! The simulated feed: the platform's embedded default provider.
//!
//! [`Simulator::tick`] is driven by the caller with the current time (no clock, no threads) and
//! returns the feed messages of everything that happened since the previous tick. The same seed
//! and the same tick times give the same messages, byte for byte.
//!
//! What it does:
//! * keeps a pre-match schedule for the coming days across football, basketball, tennis, ice
//!   hockey and table tennis (invented teams and players in a few categories and tournaments);
//! * keeps about [`SimConfig::live_events`] matches in play: on the first tick it starts that many
//!   at random stages, then schedules new ones a short lead before the running ones end;
//! * plays each match from the models of [`crate::pricing`] (goals as a Poisson process, baskets as
//!   a compound Poisson process, tennis and table tennis point by point), with the match clock
//!   running [`SimConfig::speed`] times faster than real time;
//! * reprices the markets of each live match every [`SimConfig::reprice_every_ms`] of match time
//!   and sends only what changed; after a goal it sends `bet_stop` and reopens the markets
//!   [`SimConfig::goal_suspension_ms`] (real time) later;
//! * at the end deactivates the markets, publishes every outcome's result and closes the event;
//!   a few matches are abandoned and their markets cancelled.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::catalogue::{self, OutcomeType};
use crate::feed::{
    BetCancel, BetSettlement, BetStop, FeedMessage, FixtureChange, MarketOdds, MarketResult, OddsChange, OutcomeOdds,
    OutcomeSettlement, ScoreChange,
};
use crate::model::{
    Category, Clock, Competitor, EventKind, EventStatus, MarketKey, MarketStatus, PeriodScore, Score, Sport, SportKind,
    Tournament,
};
use crate::pricing::{self, GoalsModel, Outlook, PointsModel, RallyState, TableTennisModel, TennisModel};

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;
/// The longest stretch of match time simulated in one step (events within a step are
/// independent draws, so the step must be short against the scoring rates).
const MAX_STEP_MS: i64 = 10_000;

/// The simulator's settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SimConfig {
    /// Matches to keep in play at once.
    pub live_events: usize,
    /// Pre-match fixtures per day in the schedule (all sports).
    pub prematch_per_day: usize,
    /// How many days ahead the schedule reaches.
    pub days_ahead: u32,
    /// The match clock runs this many times faster than real time (15: a 90-minute football
    /// match, 105 minutes with half-time, takes 7 real minutes). 1 is real time.
    pub speed: u32,
    /// Margin in basis points (600 = 6 %).
    pub margin_bp: u32,
    /// Match time between two repricings of a live match, ms.
    pub reprice_every_ms: i64,
    /// Real time the markets stay suspended after a goal, ms.
    pub goal_suspension_ms: i64,
    /// How long before it starts a new live match is announced, real ms.
    pub lead_ms: i64,
    /// Share of scheduled fixtures offered pre-match only, percent.
    pub prematch_only_percent: u32,
    /// Matches abandoned per thousand.
    pub abandon_per_mille: u32,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            live_events: 40,
            prematch_per_day: 120,
            days_ahead: 3,
            speed: 15,
            margin_bp: 600,
            reprice_every_ms: 30_000,
            goal_suspension_ms: 5_000,
            lead_ms: 2 * MINUTE,
            prematch_only_percent: 20,
            abandon_per_mille: 5,
        }
    }
}

/// A team or player with a hidden strength.
#[derive(Debug, Clone)]
struct Team {
    competitor: Competitor,
    rating: f64,
}

/// A tournament with its place in the hierarchy and its teams.
#[derive(Debug, Clone)]
struct Competition {
    kind: SportKind,
    sport: Sport,
    category: Category,
    tournament: Tournament,
    teams: Vec<Team>,
}

/// How a match is played and scored.
#[derive(Debug, Clone)]
enum Play {
    /// Football, ice hockey: periods on a clock, Poisson goals.
    Goals { model: GoalsModel, clock: Periods },
    /// Basketball: quarters (and overtimes) on a clock, baskets of 1, 2 or 3 points.
    Points { model: PointsModel, clock: Periods },
    /// Tennis: point by point.
    Tennis { model: TennisModel, rally: RallyState },
    /// Table tennis: point by point.
    TableTennis { model: TableTennisModel, rally: RallyState },
}

/// Periods of play separated by breaks, in match ms.
#[derive(Debug, Clone)]
struct Periods {
    lengths: Vec<i64>,
    break_ms: i64,
    /// Regular time, the denominator of "fraction left".
    regulation_ms: i64,
}

/// Where the clock is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Spot {
    /// In period `index`, `played` ms of play so far in total; the period ends at `until`.
    Play { index: usize, played: i64, until: i64 },
    /// In the break after period `index`, until `until`.
    Break { index: usize, played: i64, until: i64 },
    /// Every period is over.
    Over { played: i64 },
}

impl Periods {
    fn new(count: usize, length: i64, break_ms: i64) -> Periods {
        Periods { lengths: vec![length; count], break_ms, regulation_ms: length * count as i64 }
    }

    fn locate(&self, clock: i64) -> Spot {
        let mut start = 0;
        let mut played = 0;
        for (i, &len) in self.lengths.iter().enumerate() {
            if clock < start + len {
                return Spot::Play { index: i, played: played + clock - start, until: start + len };
            }
            start += len;
            played += len;
            if i + 1 < self.lengths.len() {
                if clock < start + self.break_ms {
                    return Spot::Break { index: i, played, until: start + self.break_ms };
                }
                start += self.break_ms;
            }
        }
        Spot::Over { played }
    }

    fn total(&self) -> i64 {
        self.lengths.iter().sum::<i64>() + self.break_ms * (self.lengths.len() as i64 - 1).max(0)
    }
}

/// A market as last published.
#[derive(Debug, Clone)]
struct SimMarket {
    key: MarketKey,
    outcomes: &'static [OutcomeType],
    odds: Vec<u32>,
    active: Vec<bool>,
    status: MarketStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Scheduled,
    Live,
}

/// One simulated match.
#[derive(Debug, Clone)]
struct SimMatch {
    id: String,
    competition: usize,
    kind: EventKind,
    start_time: i64,
    expected_end: i64,
    home: Competitor,
    away: Competitor,
    play: Play,
    phase: Phase,
    /// Match ms since the start.
    clock_ms: i64,
    score: Score,
    markets: Vec<SimMarket>,
    next_reprice_ms: i64,
    suspended_until: Option<i64>,
    /// Match ms at which it is abandoned, if it will be.
    abandon_at_ms: Option<i64>,
    /// The clock last published (clock sports): a new one is sent every
    /// [`CLOCK_UPDATE_MS`] of match time, so the clock runs between goals.
    clock_sent: Option<(i64, Clock)>,
}

/// Match time between two clock updates of football, ice hockey and basketball when nothing
/// else is published (one real second at the default speed of 15). Without it a football
/// clock moved only with a goal and sat at "70:52" for minutes while its prices moved.
pub const CLOCK_UPDATE_MS: i64 = 15_000;

/// The deterministic simulated feed. See the module comment.
#[derive(Debug, Clone)]
pub struct Simulator {
    config: SimConfig,
    rng: ChaCha8Rng,
    competitions: Vec<Competition>,
    matches: BTreeMap<u64, SimMatch>,
    next_match: u64,
    /// Event ids are `{match_prefix}{n}`: `sim:match:` alone, or with the run number the
    /// integrator gives ([`Simulator::with_run`]) so that a restarted simulator never reuses
    /// the id of a fixture it announced before.
    match_prefix: String,
    scheduled_until: i64,
    last_tick: Option<i64>,
}

/// Emitted messages, or nothing while fast-forwarding a warm start.
struct Out<'a> {
    messages: &'a mut Vec<FeedMessage>,
    quiet: bool,
}

impl Out<'_> {
    fn push(&mut self, m: FeedMessage) {
        if !self.quiet {
            self.messages.push(m);
        }
    }
}

impl Simulator {
    /// A simulator with its sports, categories, tournaments and teams drawn from `seed`.
    pub fn new(seed: u64, config: SimConfig) -> Simulator {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let competitions = build_competitions(&mut rng, config.live_events);
        Simulator {
            config,
            rng,
            competitions,
            matches: BTreeMap::new(),
            next_match: 1,
            match_prefix: "sim:match:".into(),
            scheduled_until: i64::MIN,
            last_tick: None,
        }
    }

    /// Names this run's events `sim:match:{run}-{n}`: a run number the caller never hands out
    /// twice (the platform keeps them in the database) makes every event id unique across
    /// restarts, whatever the seed. Call before the first tick.
    pub fn with_run(mut self, run: u64) -> Simulator {
        self.match_prefix = format!("sim:match:{run}-");
        self
    }

    /// The settings.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// Matches in play now.
    pub fn live_count(&self) -> usize {
        self.matches.values().filter(|m| m.phase == Phase::Live).count()
    }

    /// Matches scheduled and not started.
    pub fn scheduled_count(&self) -> usize {
        self.matches.values().filter(|m| m.phase == Phase::Scheduled).count()
    }

    /// Advances everything to `now_ms` (epoch ms) and returns what happened, in order. Time
    /// never runs backwards: an earlier `now_ms` than the previous tick counts as the previous.
    pub fn tick(&mut self, now_ms: i64) -> Vec<FeedMessage> {
        let now = self.last_tick.map_or(now_ms, |t| now_ms.max(t));
        let first = self.last_tick.is_none();
        self.last_tick = Some(now);
        let mut messages = Vec::new();
        if first {
            self.scheduled_until = now;
            self.warm_start(now, &mut messages);
        }
        self.extend_schedule(now, &mut messages);
        self.top_up_live(now, &mut messages);

        let ids: Vec<u64> = self.matches.keys().copied().collect();
        for id in ids {
            let mut m = self.matches.remove(&id).expect("listed above");
            let done = self.advance(&mut m, now, &mut Out { messages: &mut messages, quiet: false });
            if !done {
                self.matches.insert(id, m);
            }
        }
        messages
    }

    /// Starts `live_events` matches at random stages, fast-forwarded without messages, then
    /// announced with their fixture, score and odds.
    fn warm_start(&mut self, now: i64, messages: &mut Vec<FeedMessage>) {
        for _ in 0..self.config.live_events {
            let sport = self.pick_sport();
            let duration = self.expected_real_duration(sport);
            // No warm match ends within the lead: its replacement, announced now, starts a lead
            // from now, so an earlier end would leave a hole in the live offer.
            let max_progress = (1.0 - self.config.lead_ms as f64 / duration.max(1) as f64).clamp(0.0, 0.85);
            let progress = if max_progress > 0.0 { self.rng.gen_range(0.0..max_progress) } else { 0.0 };
            let start = now - (duration as f64 * progress) as i64;
            let Some((id, mut m)) = self.new_match(sport, start, EventKind::Live) else { continue };
            let mut quiet = Vec::new();
            let done = self.advance(&mut m, now, &mut Out { messages: &mut quiet, quiet: true });
            if done {
                continue;
            }
            m.suspended_until = None;
            // Spread the repricing of the warm matches over one interval instead of all at once.
            m.next_reprice_ms = m.clock_ms + self.rng.gen_range(0..self.config.reprice_every_ms.max(1));
            messages.push(self.fixture_message(&m, now));
            push_live_score(&mut m, now, &mut Out { messages: &mut *messages, quiet: false });
            self.reprice(&mut m, now, &mut Out { messages: &mut *messages, quiet: false }, true);
            self.matches.insert(id, m);
        }
    }

    /// Keeps the pre-match schedule filled `days_ahead` ahead, an hour at a time.
    fn extend_schedule(&mut self, now: i64, messages: &mut Vec<FeedMessage>) {
        let horizon = now + self.config.days_ahead as i64 * DAY;
        let per_hour = self.config.prematch_per_day as f64 / 24.0;
        while self.scheduled_until < horizon {
            let slot = self.scheduled_until;
            self.scheduled_until += HOUR;
            let count = sample_poisson(&mut self.rng, per_hour);
            for _ in 0..count {
                // Kick-offs on the quarter hour, at least a lead ahead.
                let offset = self.rng.gen_range(0..4) * 15 * MINUTE;
                let start = (slot + offset).max(now + self.config.lead_ms);
                let sport = self.pick_sport();
                let kind = if self.rng.gen_range(0..100) < self.config.prematch_only_percent {
                    EventKind::PreMatch
                } else {
                    EventKind::Live
                };
                // No free teams (every one busy around that time): the slot stays empty.
                let Some((id, mut m)) = self.new_match(sport, start, kind) else { continue };
                messages.push(self.fixture_message(&m, now));
                self.reprice(&mut m, now, &mut Out { messages: &mut *messages, quiet: false }, true);
                self.matches.insert(id, m);
            }
        }
    }

    /// Announces new live matches so that about `live_events` will still be in play a lead
    /// from now.
    fn top_up_live(&mut self, now: i64, messages: &mut Vec<FeedMessage>) {
        let soon = now + self.config.lead_ms;
        let projected = self
            .matches
            .values()
            .filter(|m| m.kind == EventKind::Live && m.start_time <= soon && m.expected_end > soon)
            .count();
        for _ in projected..self.config.live_events {
            let sport = self.pick_sport();
            // Exactly a lead ahead: a later start would not be counted by the next tick's projection.
            // No free teams in that sport now: the next tick tries again.
            let Some((id, mut m)) = self.new_match(sport, soon, EventKind::Live) else { continue };
            messages.push(self.fixture_message(&m, now));
            self.reprice(&mut m, now, &mut Out { messages: &mut *messages, quiet: false }, true);
            self.matches.insert(id, m);
        }
    }

    /// Sport mix of the live offer: football 40 %, basketball 20 %, tennis 20 %, ice hockey 10 %,
    /// table tennis 10 %.
    fn pick_sport(&mut self) -> SportKind {
        match self.rng.gen_range(0..10) {
            0..=3 => SportKind::Football,
            4 | 5 => SportKind::Basketball,
            6 | 7 => SportKind::Tennis,
            8 => SportKind::IceHockey,
            _ => SportKind::TableTennis,
        }
    }

    /// A match's expected length in real ms (the clock sports exactly; rally sports on average).
    fn expected_real_duration(&self, sport: SportKind) -> i64 {
        let match_ms = match sport {
            SportKind::Football => 105 * MINUTE,
            SportKind::IceHockey => 90 * MINUTE,
            SportKind::Basketball => 54 * MINUTE,
            SportKind::Tennis => 165 * TENNIS_POINT_MS,
            SportKind::TableTennis => 80 * TABLE_TENNIS_POINT_MS,
        };
        match_ms / self.config.speed.max(1) as i64
    }

    /// When a match would keep its teams busy, real ms: twice its expected length, since
    /// tennis and overtime can run long. A match in play keeps them busy until it is over.
    fn busy_window(&self, sport: SportKind, start: i64) -> (i64, i64) {
        (start, start + 2 * self.expected_real_duration(sport))
    }

    /// A new match of `sport` starting at `start`, between two teams of one of its
    /// competitions that play no other match around that time (a team never plays two
    /// matches at once); `None` when no competition of the sport has two free teams.
    fn new_match(&mut self, sport: SportKind, start: i64, kind: EventKind) -> Option<(u64, SimMatch)> {
        let (from, to) = self.busy_window(sport, start);
        let busy: std::collections::BTreeSet<&str> = self
            .matches
            .values()
            .filter(|m| {
                let until = match m.phase {
                    Phase::Live => i64::MAX,
                    Phase::Scheduled => {
                        let c = &self.competitions[m.competition];
                        self.busy_window(c.kind, m.start_time).1
                    }
                };
                m.start_time < to && from < until
            })
            .flat_map(|m| [m.home.id.as_str(), m.away.id.as_str()])
            .collect();
        let free = |c: &Competition| -> Vec<usize> {
            (0..c.teams.len()).filter(|&i| !busy.contains(c.teams[i].competitor.id.as_str())).collect()
        };
        let candidates: Vec<(usize, Vec<usize>)> = (0..self.competitions.len())
            .filter(|&i| self.competitions[i].kind == sport)
            .map(|i| (i, free(&self.competitions[i])))
            .filter(|(_, f)| f.len() >= 2)
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let (competition, free) = &candidates[self.rng.gen_range(0..candidates.len())];
        let competition = *competition;
        let teams = &self.competitions[competition].teams;
        let h = self.rng.gen_range(0..free.len());
        let mut a = self.rng.gen_range(0..free.len() - 1);
        if a >= h {
            a += 1;
        }
        let (home, away) = (teams[free[h]].clone(), teams[free[a]].clone());
        let d = home.rating - away.rating;
        let play = match sport {
            SportKind::Football => Play::Goals {
                model: GoalsModel { home_rate: 1.45 * d.exp(), away_rate: 1.15 * (-d).exp() },
                clock: Periods::new(2, 45 * MINUTE, 15 * MINUTE),
            },
            SportKind::IceHockey => Play::Goals {
                model: GoalsModel { home_rate: 3.1 * d.exp(), away_rate: 2.7 * (-d).exp() },
                clock: Periods::new(3, 20 * MINUTE, 15 * MINUTE),
            },
            SportKind::Basketball => {
                let (hm, am) = (113.0 + 12.0 * d, 110.0 - 12.0 * d);
                Play::Points {
                    model: PointsModel { home_mean: hm, away_mean: am, team_sd: basket_sd((hm + am) / 2.0) },
                    clock: Periods::new(4, 12 * MINUTE, 2 * MINUTE),
                }
            }
            SportKind::Tennis => Play::Tennis {
                model: TennisModel { home_serve: 0.63 + 0.08 * d, away_serve: 0.63 - 0.08 * d, best_of: 3 },
                rally: RallyState { home_serving: self.rng.gen_bool(0.5), ..RallyState::default() },
            },
            SportKind::TableTennis => Play::TableTennis {
                model: TableTennisModel { home_point: 0.5 + 0.06 * d, best_of: 5 },
                rally: RallyState::default(),
            },
        };
        let id = self.next_match;
        self.next_match += 1;
        let markets = menu(sport, &play)
            .into_iter()
            .map(|key| {
                let kind = catalogue::market_type(key.type_id()).expect("the menu uses catalogue types");
                SimMarket {
                    key,
                    outcomes: kind.outcomes,
                    odds: vec![0; kind.outcomes.len()],
                    active: vec![false; kind.outcomes.len()],
                    status: MarketStatus::Deactivated,
                }
            })
            .collect();
        let total = match &play {
            Play::Goals { clock, .. } | Play::Points { clock, .. } => clock.total(),
            _ => 0,
        };
        let abandon_at_ms = (self.rng.gen_range(0..1000) < self.config.abandon_per_mille)
            .then(|| self.rng.gen_range(0..total.max(30 * MINUTE)));
        let m = SimMatch {
            id: format!("{}{id}", self.match_prefix),
            competition,
            kind,
            start_time: start,
            expected_end: start + self.expected_real_duration(sport),
            home: home.competitor,
            away: away.competitor,
            play,
            phase: Phase::Scheduled,
            clock_ms: 0,
            score: Score::default(),
            markets,
            next_reprice_ms: 0,
            suspended_until: None,
            abandon_at_ms,
            clock_sent: None,
        };
        Some((id, m))
    }

    fn fixture_message(&self, m: &SimMatch, now: i64) -> FeedMessage {
        let c = &self.competitions[m.competition];
        FeedMessage::FixtureChange(Box::new(FixtureChange {
            timestamp: now,
            event_id: m.id.clone(),
            sport: c.sport.clone(),
            category: c.category.clone(),
            tournament: c.tournament.clone(),
            kind: m.kind,
            start_time: m.start_time,
            home: m.home.clone(),
            away: m.away.clone(),
        }))
    }

    /// Moves one match to `now`. Returns true when it is finished (settled or abandoned) and
    /// can be dropped.
    fn advance(&mut self, m: &mut SimMatch, now: i64, out: &mut Out) -> bool {
        if m.phase == Phase::Scheduled {
            if now < m.start_time {
                return false;
            }
            m.phase = Phase::Live;
            m.clock_ms = 0;
            // A random phase: matches that kick off together do not reprice together.
            m.next_reprice_ms = self.rng.gen_range(1..=self.config.reprice_every_ms.max(1));
            init_score(m);
            push_live_score(m, now, out);
            if m.kind == EventKind::PreMatch {
                // Pre-match only: the offer closes at the start (603 from now on).
                let markets = m.markets.iter_mut().map(deactivate).collect();
                out.push(FeedMessage::OddsChange(OddsChange { timestamp: now, event_id: m.id.clone(), markets }));
            } else {
                self.reprice(m, now, out, false);
            }
        }
        let target = (now - m.start_time).saturating_mul(self.config.speed.max(1) as i64);
        let mut scored = false;
        while m.clock_ms < target {
            if let Some(at) = m.abandon_at_ms {
                if m.clock_ms >= at {
                    self.abandon(m, now, out);
                    return true;
                }
            }
            let step_end = (m.clock_ms + MAX_STEP_MS).min(target);
            let (changed, goal, over) = self.step(m, step_end);
            if changed {
                push_live_score(m, now, out);
            }
            if goal && m.kind == EventKind::Live {
                scored = true;
            }
            if over {
                self.finish(m, now, out);
                return true;
            }
        }
        // The clock runs between goals: a score_change with the clock every CLOCK_UPDATE_MS of
        // match time (not during a break, where it stands still).
        let clock_due = m
            .clock_sent
            .as_ref()
            .is_some_and(|(at, shown)| m.clock_ms - at >= CLOCK_UPDATE_MS && clock_text(m) != *shown);
        if clock_due {
            push_live_score(m, now, out);
        }
        if scored {
            // A goal stops betting at once (only needed if something is open) and keeps the
            // markets closed for a while after the latest goal.
            if m.markets.iter().any(|mk| mk.status == MarketStatus::Active) {
                out.push(FeedMessage::BetStop(BetStop { timestamp: now, event_id: m.id.clone(), markets: None }));
                for mk in &mut m.markets {
                    if mk.status == MarketStatus::Active {
                        mk.status = MarketStatus::Suspended;
                    }
                }
            }
            m.suspended_until = Some(now + self.config.goal_suspension_ms);
        }
        if m.kind == EventKind::Live {
            let reopen = m.suspended_until.is_some_and(|t| now >= t);
            if reopen {
                m.suspended_until = None;
            }
            if m.suspended_until.is_none() && (reopen || m.clock_ms >= m.next_reprice_ms) {
                m.next_reprice_ms = m.clock_ms + self.config.reprice_every_ms;
                self.reprice(m, now, out, false);
            }
        }
        false
    }

    /// Simulates play up to `step_end` (match ms, at most one step). Returns (score changed, a
    /// goal that suspends the markets, the match is over).
    fn step(&mut self, m: &mut SimMatch, step_end: i64) -> (bool, bool, bool) {
        let rng = &mut self.rng;
        let dt = step_end - m.clock_ms;
        match &mut m.play {
            Play::Goals { model, clock } => {
                let spot = clock.locate(m.clock_ms);
                let (end, playing, index) = match spot {
                    Spot::Play { until, index, .. } => (until.min(step_end), true, index),
                    Spot::Break { until, index, .. } => (until.min(step_end), false, index),
                    Spot::Over { .. } => return (false, false, true),
                };
                let dt = end - m.clock_ms;
                let mut changed = false;
                if playing {
                    let share = dt as f64 / clock.regulation_ms as f64;
                    let h = sample_poisson(rng, model.home_rate * share);
                    let a = sample_poisson(rng, model.away_rate * share);
                    if h + a > 0 {
                        add_points(&mut m.score, index, h, a);
                        changed = true;
                    }
                }
                m.clock_ms = end;
                let over = matches!(clock.locate(end), Spot::Over { .. });
                let boundary = !over && matches!(clock.locate(end), Spot::Play { index: i, .. } if i != index);
                if boundary {
                    m.score.periods.push(PeriodScore::default());
                }
                (changed || boundary, changed, over)
            }
            Play::Points { model, clock } => {
                let spot = clock.locate(m.clock_ms);
                let (end, playing, index) = match spot {
                    Spot::Play { until, index, .. } => (until.min(step_end), true, index),
                    Spot::Break { until, index, .. } => (until.min(step_end), false, index),
                    Spot::Over { .. } => return (false, false, true),
                };
                let dt = end - m.clock_ms;
                let mut changed = false;
                if playing {
                    let per_ms = |mean: f64| mean / BASKET_MEAN_POINTS / clock.regulation_ms as f64;
                    for (home, mean) in [(true, model.home_mean), (false, model.away_mean)] {
                        for _ in 0..sample_poisson(rng, per_ms(mean) * dt as f64) {
                            let pts = basket_points(rng);
                            if home {
                                add_points(&mut m.score, index, pts, 0);
                            } else {
                                add_points(&mut m.score, index, 0, pts);
                            }
                            changed = true;
                        }
                    }
                }
                m.clock_ms = end;
                let mut over = matches!(clock.locate(end), Spot::Over { .. });
                if over && m.score.home == m.score.away {
                    // Tied after regulation or an overtime: five more minutes.
                    clock.lengths.push(5 * MINUTE);
                    over = false;
                }
                let boundary = !over && matches!(clock.locate(end), Spot::Play { index: i, .. } if i != index);
                if boundary {
                    m.score.periods.push(PeriodScore::default());
                }
                (changed || boundary, false, over)
            }
            Play::Tennis { model, rally } => {
                let mut changed = false;
                let mut over = false;
                for _ in 0..sample_poisson(rng, dt as f64 / TENNIS_POINT_MS as f64) {
                    changed = true;
                    if tennis_point(rng, model, rally, &mut m.score) {
                        over = true;
                        break;
                    }
                }
                m.clock_ms = step_end;
                (changed, false, over)
            }
            Play::TableTennis { model, rally } => {
                let mut changed = false;
                let mut over = false;
                for _ in 0..sample_poisson(rng, dt as f64 / TABLE_TENNIS_POINT_MS as f64) {
                    changed = true;
                    if table_tennis_point(rng, model, rally, &mut m.score) {
                        over = true;
                        break;
                    }
                }
                m.clock_ms = step_end;
                (changed, false, over)
            }
        }
    }

    /// Prices every open market and publishes what changed (everything when `all`).
    fn reprice(&mut self, m: &mut SimMatch, now: i64, out: &mut Out, all: bool) {
        let outlook = outlook(m);
        let mut changed = Vec::new();
        for mk in &mut m.markets {
            if matches!(mk.status, MarketStatus::Deactivated) && !all && m.phase == Phase::Live {
                continue; // decided earlier: stays closed until settled
            }
            let priced =
                pricing::price(&mk.key, &outlook, self.config.margin_bp).expect("the menu uses catalogue types");
            let status = if priced.decided { MarketStatus::Deactivated } else { MarketStatus::Active };
            let odds: Vec<u32> = priced.outcomes.iter().map(|o| o.odds.thousandths()).collect();
            // A decided market is closed as a whole: none of its outcomes is offered.
            let active: Vec<bool> = priced.outcomes.iter().map(|o| o.active && !priced.decided).collect();
            if all || status != mk.status || odds != mk.odds || active != mk.active {
                mk.status = status;
                mk.odds = odds;
                mk.active = active;
                changed.push(market_odds(mk));
            }
        }
        if !changed.is_empty() {
            out.push(FeedMessage::OddsChange(OddsChange { timestamp: now, event_id: m.id.clone(), markets: changed }));
        }
    }

    /// The final whistle: markets closed, results published, event closed.
    fn finish(&mut self, m: &mut SimMatch, now: i64, out: &mut Out) {
        m.score.game = None;
        out.push(score_message(m, now, EventStatus::Ended));
        let markets: Vec<MarketOdds> =
            m.markets.iter_mut().filter(|mk| mk.status != MarketStatus::Deactivated).map(deactivate).collect();
        if !markets.is_empty() {
            out.push(FeedMessage::OddsChange(OddsChange { timestamp: now, event_id: m.id.clone(), markets }));
        }
        let results = m
            .markets
            .iter()
            .map(|mk| MarketResult {
                market: mk.key.clone(),
                outcomes: catalogue::results(&mk.key, m.score.home, m.score.away)
                    .expect("the menu uses catalogue types")
                    .into_iter()
                    .map(|(id, result)| OutcomeSettlement { id: id.to_string(), result })
                    .collect(),
            })
            .collect();
        out.push(FeedMessage::BetSettlement(BetSettlement {
            timestamp: now,
            event_id: m.id.clone(),
            markets: results,
        }));
        out.push(score_message(m, now, EventStatus::Closed));
    }

    /// Abandoned: every market cancelled (void), the event cancelled.
    fn abandon(&mut self, m: &mut SimMatch, now: i64, out: &mut Out) {
        out.push(FeedMessage::BetCancel(BetCancel {
            timestamp: now,
            event_id: m.id.clone(),
            markets: None,
            start_time: None,
            end_time: None,
            void_reason: Some(0),
            superceded_by: None,
        }));
        out.push(score_message(m, now, EventStatus::Cancelled));
    }
}

/// Tennis: average match time per point, changeovers included.
const TENNIS_POINT_MS: i64 = 40_000;
/// Table tennis: average match time per point, breaks included.
const TABLE_TENNIS_POINT_MS: i64 = 15_000;
/// Baskets: 10 % one point (free throws, simplified), 65 % two, 25 % three.
const BASKET_MEAN_POINTS: f64 = 0.10 + 0.65 * 2.0 + 0.25 * 3.0;
const BASKET_MEAN_SQUARE: f64 = 0.10 + 0.65 * 4.0 + 0.25 * 9.0;

fn basket_points(rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_range(0..100) {
        0..=9 => 1,
        10..=74 => 2,
        _ => 3,
    }
}

/// The standard deviation of a team's points when baskets arrive as a Poisson process with
/// `mean` points expected: variance = rate × E[X²] (compound Poisson), so the pricing model
/// matches the simulation.
fn basket_sd(mean: f64) -> f64 {
    (mean / BASKET_MEAN_POINTS * BASKET_MEAN_SQUARE).sqrt()
}

/// A Poisson draw (Knuth's product of uniforms; the means here are far below 1 per step).
fn sample_poisson(rng: &mut ChaCha8Rng, mean: f64) -> u32 {
    if mean <= 0.0 {
        return 0;
    }
    let limit = (-mean).exp();
    let mut k = 0;
    let mut p: f64 = rng.gen();
    while p > limit && k < 1_000 {
        k += 1;
        p *= rng.gen::<f64>();
    }
    k
}

fn add_points(score: &mut Score, period: usize, h: u32, a: u32) {
    score.home += h;
    score.away += a;
    while score.periods.len() <= period {
        score.periods.push(PeriodScore::default());
    }
    score.periods[period].home += h;
    score.periods[period].away += a;
}

fn init_score(m: &mut SimMatch) {
    m.score = Score { home: 0, away: 0, periods: vec![PeriodScore::default()], game: None };
    if matches!(m.play, Play::Tennis { .. }) {
        m.score.game = Some(PeriodScore::default());
    }
}

/// One tennis point. Returns true when it ends the match.
fn tennis_point(rng: &mut ChaCha8Rng, model: &TennisModel, r: &mut RallyState, score: &mut Score) -> bool {
    let tiebreak = r.home_games == 6 && r.away_games == 6;
    let n = r.home_points + r.away_points;
    let home_serves = if tiebreak {
        if n.div_ceil(2).is_multiple_of(2) {
            r.home_serving
        } else {
            !r.home_serving
        }
    } else {
        r.home_serving
    };
    let p_home = if home_serves { model.home_serve } else { 1.0 - model.away_serve };
    if rng.gen_bool(p_home.clamp(0.0, 1.0)) {
        r.home_points += 1;
    } else {
        r.away_points += 1;
    }
    let target = if tiebreak { 7 } else { 4 };
    let game_home = r.home_points >= target && r.home_points >= r.away_points + 2;
    let game_away = r.away_points >= target && r.away_points >= r.home_points + 2;
    if !(game_home || game_away) {
        score.game = Some(PeriodScore { home: r.home_points, away: r.away_points });
        return false;
    }
    r.home_points = 0;
    r.away_points = 0;
    if game_home {
        r.home_games += 1;
    } else {
        r.away_games += 1;
    }
    // After a tie-break the player who received first serves the next set; otherwise the serve
    // alternates every game.
    r.home_serving = !r.home_serving;
    let set = score.periods.last_mut().expect("a set in progress");
    *set = PeriodScore { home: r.home_games, away: r.away_games };
    let (g, o) = (r.home_games.max(r.away_games), r.home_games.min(r.away_games));
    if (g >= 6 && g >= o + 2) || g == 7 {
        if r.home_games > r.away_games {
            r.home_sets += 1;
        } else {
            r.away_sets += 1;
        }
        r.home_games = 0;
        r.away_games = 0;
        score.home = r.home_sets;
        score.away = r.away_sets;
        let need = model.best_of / 2 + 1;
        if r.home_sets == need || r.away_sets == need {
            score.game = None;
            return true;
        }
        score.periods.push(PeriodScore::default());
    }
    score.game = Some(PeriodScore::default());
    false
}

/// One table-tennis point. Returns true when it ends the match.
fn table_tennis_point(rng: &mut ChaCha8Rng, model: &TableTennisModel, r: &mut RallyState, score: &mut Score) -> bool {
    if rng.gen_bool(model.home_point.clamp(0.0, 1.0)) {
        r.home_points += 1;
    } else {
        r.away_points += 1;
    }
    let game = score.periods.last_mut().expect("a game in progress");
    *game = PeriodScore { home: r.home_points, away: r.away_points };
    let home = r.home_points >= 11 && r.home_points >= r.away_points + 2;
    let away = r.away_points >= 11 && r.away_points >= r.home_points + 2;
    if !(home || away) {
        return false;
    }
    if home {
        r.home_sets += 1;
    } else {
        r.away_sets += 1;
    }
    r.home_points = 0;
    r.away_points = 0;
    score.home = r.home_sets;
    score.away = r.away_sets;
    let need = model.best_of / 2 + 1;
    if r.home_sets == need || r.away_sets == need {
        return true;
    }
    score.periods.push(PeriodScore::default());
    false
}

/// The current outlook of a match for pricing.
fn outlook(m: &SimMatch) -> Outlook {
    match &m.play {
        Play::Goals { model, clock } => {
            let played = match clock.locate(m.clock_ms) {
                Spot::Play { played, .. } | Spot::Break { played, .. } | Spot::Over { played } => played,
            };
            let left = 1.0 - played as f64 / clock.regulation_ms as f64;
            model.outlook(m.score.home, m.score.away, left)
        }
        Play::Points { model, clock } => {
            let played = match clock.locate(m.clock_ms) {
                Spot::Play { played, .. } | Spot::Break { played, .. } | Spot::Over { played } => played,
            };
            // In overtime the time left is measured against regulation like the rest.
            let total: i64 = clock.lengths.iter().sum();
            let left = (total - played) as f64 / clock.regulation_ms as f64;
            model.outlook(m.score.home, m.score.away, left)
        }
        Play::Tennis { model, rally } => model.outlook(rally),
        Play::TableTennis { model, rally } => model.outlook(rally),
    }
}

/// The markets a match is offered with. Lines are chosen once, near even for the teams.
fn menu(sport: SportKind, play: &Play) -> Vec<MarketKey> {
    let k = |t: u32, spec: Option<(&str, String)>| match spec {
        None => MarketKey::plain(t),
        Some((name, v)) => MarketKey::new(t, [(name, v)]).expect("valid specifier"),
    };
    let line = |q: i32| catalogue::line_text(q);
    match (sport, play) {
        (SportKind::Football, Play::Goals { model, .. }) => {
            // The Asian handicap nearest to even: the expected goal difference in quarters.
            let hcp = -((model.home_rate - model.away_rate) * 4.0).round() as i32;
            vec![
                k(catalogue::ONE_X_TWO, None),
                k(catalogue::TOTAL_ID, Some(("total", "1.5".into()))),
                k(catalogue::TOTAL_ID, Some(("total", "2.5".into()))),
                k(catalogue::TOTAL_ID, Some(("total", "3.5".into()))),
                k(catalogue::HANDICAP_ID, Some(("hcp", line(hcp.clamp(-12, 12))))),
                k(catalogue::BOTH_SCORE_ID, None),
                k(catalogue::CORRECT_SCORE_ID, None),
            ]
        }
        (SportKind::IceHockey, Play::Goals { model, .. }) => {
            let fav_home = model.home_rate >= model.away_rate;
            vec![
                k(catalogue::ONE_X_TWO, None),
                k(catalogue::TOTAL_ID, Some(("total", "4.5".into()))),
                k(catalogue::TOTAL_ID, Some(("total", "5.5".into()))),
                k(catalogue::TOTAL_ID, Some(("total", "6.5".into()))),
                k(catalogue::HANDICAP_ID, Some(("hcp", if fav_home { "-1.5" } else { "1.5" }.into()))),
            ]
        }
        (SportKind::Basketball, Play::Points { model, .. }) => {
            let total = (model.home_mean + model.away_mean).floor() as i32;
            let hcp = -(model.home_mean - model.away_mean).floor() as i32;
            vec![
                k(catalogue::WINNER_OT_ID, None),
                k(catalogue::TOTAL_OT_ID, Some(("total", format!("{total}.5")))),
                k(catalogue::TOTAL_OT_ID, Some(("total", format!("{}.5", total - 6)))),
                k(catalogue::TOTAL_OT_ID, Some(("total", format!("{}.5", total + 6)))),
                k(catalogue::HANDICAP_OT_ID, Some(("hcp", line(4 * hcp - 2)))),
            ]
        }
        (SportKind::Tennis, _) => {
            vec![k(catalogue::WINNER_ID, None), k(catalogue::SET_HANDICAP_ID, Some(("hcp", "-1.5".into())))]
        }
        (SportKind::TableTennis, _) => vec![
            k(catalogue::WINNER_ID, None),
            k(catalogue::SET_HANDICAP_ID, Some(("hcp", "-1.5".into()))),
            k(catalogue::SET_HANDICAP_ID, Some(("hcp", "-2.5".into()))),
        ],
        _ => unreachable!("the play matches the sport"),
    }
}

fn market_odds(mk: &SimMarket) -> MarketOdds {
    MarketOdds {
        market: mk.key.clone(),
        status: mk.status,
        name: None,
        outcomes: mk
            .outcomes
            .iter()
            .zip(mk.odds.iter().zip(&mk.active))
            .map(|(o, (&odds, &active))| OutcomeOdds { id: o.id.to_string(), odds, active, name: None })
            .collect(),
    }
}

fn deactivate(mk: &mut SimMarket) -> MarketOdds {
    mk.status = MarketStatus::Deactivated;
    MarketOdds { market: mk.key.clone(), status: MarketStatus::Deactivated, name: None, outcomes: Vec::new() }
}

/// Publishes the score and clock of a match in play; remembers the clock of a clock sport.
fn push_live_score(m: &mut SimMatch, now: i64, out: &mut Out) {
    if matches!(m.play, Play::Goals { .. } | Play::Points { .. }) {
        m.clock_sent = Some((m.clock_ms, clock_text(m)));
    }
    out.push(score_message(m, now, EventStatus::Live));
}

fn score_message(m: &SimMatch, now: i64, status: EventStatus) -> FeedMessage {
    let clock = (status == EventStatus::Live).then(|| clock_text(m));
    FeedMessage::ScoreChange(ScoreChange {
        timestamp: now,
        event_id: m.id.clone(),
        status,
        score: m.score.clone(),
        clock,
    })
}

fn clock_text(m: &SimMatch) -> Clock {
    let mmss = |ms: i64| format!("{:02}:{:02}", ms / MINUTE, ms % MINUTE / 1000);
    match &m.play {
        Play::Goals { clock, .. } | Play::Points { clock, .. } => {
            let names: &[&str] = match (&m.play, clock.lengths.len()) {
                (Play::Goals { .. }, 2) => &["1st half", "2nd half"],
                (Play::Goals { .. }, _) => &["1st period", "2nd period", "3rd period"],
                _ => &["Q1", "Q2", "Q3", "Q4"],
            };
            let name = |i: usize| names.get(i).map_or_else(|| format!("OT{}", i + 1 - names.len()), |s| s.to_string());
            match clock.locate(m.clock_ms) {
                Spot::Play { index, played, .. } => Clock { period: name(index), time: mmss(played) },
                Spot::Break { index, played, .. } => {
                    let period =
                        if names.len() == 2 && index == 0 { "Half-time".to_string() } else { "Break".to_string() };
                    Clock { period, time: mmss(played) }
                }
                Spot::Over { played } => Clock { period: "End".into(), time: mmss(played) },
            }
        }
        Play::Tennis { rally, .. } => {
            Clock { period: format!("Set {}", rally.home_sets + rally.away_sets + 1), time: String::new() }
        }
        Play::TableTennis { rally, .. } => {
            Clock { period: format!("Game {}", rally.home_sets + rally.away_sets + 1), time: String::new() }
        }
    }
}

/// A category in the invented layout: name, country code, tournaments.
type CategoryLayout = (&'static str, Option<&'static str>, &'static [&'static str]);

/// Invented competitions: per sport a few categories (countries) and tournaments, each with
/// teams or players whose strengths are drawn from the seed.
///
/// A team plays one match at a time, so each sport has at least three times as many teams as
/// its share of `live_events` needs (a big simulation gets bigger tournaments).
fn build_competitions(rng: &mut ChaCha8Rng, live_events: usize) -> Vec<Competition> {
    const PLACES: [&str; 24] = [
        "Atlas", "Carthage", "Oasis", "Sahel", "Medina", "Kasbah", "Corsair", "Olivia", "Dune", "Harbor", "Falcon",
        "Cedar", "Mirage", "Sirocco", "Phoenix", "Lagoon", "Citadel", "Zephyr", "Granite", "Meridian", "Azure",
        "Sable", "Coral", "Tamarisk",
    ];
    const CLUBS: [&str; 8] = ["United", "Athletic", "Rovers", "FC", "Sporting", "City", "Wanderers", "Stars"];
    const MASCOTS: [&str; 8] = ["Hawks", "Lions", "Sharks", "Titans", "Comets", "Raptors", "Wolves", "Bears"];
    const INITIALS: &str = "ABCDEFGHIJKLMNOPRSTVWYZ";
    const SYLLABLES: [&str; 16] =
        ["ka", "lo", "ven", "mar", "ti", "sor", "del", "ran", "bek", "nu", "os", "fra", "zel", "qui", "dar", "mi"];
    const ENDINGS: [&str; 8] = ["ov", "ez", "ini", "sen", "ard", "ic", "as", "elli"];
    let layout: [(SportKind, &[CategoryLayout]); 5] = [
        (
            SportKind::Football,
            &[
                ("Tunisia", Some("TUN"), &["Ligue Pro 1", "Ligue Pro 2"]),
                ("France", Some("FRA"), &["Division 1"]),
                ("Spain", Some("ESP"), &["Primera"]),
                ("International Clubs", None, &["Champions Cup"]),
            ],
        ),
        (
            SportKind::Basketball,
            &[
                ("Tunisia", Some("TUN"), &["Pro A"]),
                ("USA", Some("USA"), &["Pro League"]),
                ("Europe", None, &["Euro Cup"]),
            ],
        ),
        (
            SportKind::Tennis,
            &[("ATP", None, &["Tunis Open", "Riviera Masters"]), ("WTA", None, &["Carthage Ladies Open"])],
        ),
        (
            SportKind::IceHockey,
            &[("Finland", Some("FIN"), &["Liiga"]), ("Canada", Some("CAN"), &["Pro Hockey League"])],
        ),
        (SportKind::TableTennis, &[("International", None, &["Pro Series", "Challenger Series"])]),
    ];
    let mut competitions = Vec::new();
    let (mut category_id, mut tournament_id, mut competitor_id) = (0, 0, 0);
    for (kind, categories) in layout {
        let sport = Sport { id: format!("sim:sport:{}", kind.number()), name: kind.name().into(), kind: Some(kind) };
        for (name, country, tournaments) in categories {
            category_id += 1;
            let category = Category {
                id: format!("sim:category:{category_id}"),
                sport_id: sport.id.clone(),
                name: name.to_string(),
                country_code: country.map(str::to_string),
            };
            for t in *tournaments {
                tournament_id += 1;
                let tournament = Tournament {
                    id: format!("sim:tournament:{tournament_id}"),
                    category_id: category.id.clone(),
                    name: t.to_string(),
                };
                let tournaments_of_sport: usize = categories.iter().map(|c| c.2.len()).sum();
                // The sport's share of the live offer (`pick_sport`), percent.
                let share = match kind {
                    SportKind::Football => 40,
                    SportKind::Basketball | SportKind::Tennis => 20,
                    _ => 10,
                };
                let needed = (live_events * share * 2 * 3).div_ceil(100 * tournaments_of_sport);
                let size = needed.max(match kind {
                    SportKind::Tennis | SportKind::TableTennis => 32,
                    _ => 16,
                });
                let mut names = std::collections::BTreeSet::new();
                let mut teams = Vec::new();
                let mut taken = 0;
                while teams.len() < size {
                    let drawn = match kind {
                        SportKind::Football => {
                            format!(
                                "{} {}",
                                PLACES[rng.gen_range(0..PLACES.len())],
                                CLUBS[rng.gen_range(0..CLUBS.len())]
                            )
                        }
                        SportKind::Basketball | SportKind::IceHockey => {
                            format!(
                                "{} {}",
                                PLACES[rng.gen_range(0..PLACES.len())],
                                MASCOTS[rng.gen_range(0..MASCOTS.len())]
                            )
                        }
                        SportKind::Tennis | SportKind::TableTennis => {
                            let initial = INITIALS.as_bytes()[rng.gen_range(0..INITIALS.len())] as char;
                            let mut surname = String::new();
                            for _ in 0..rng.gen_range(1..3) {
                                surname.push_str(SYLLABLES[rng.gen_range(0..SYLLABLES.len())]);
                            }
                            surname.push_str(ENDINGS[rng.gen_range(0..ENDINGS.len())]);
                            let mut c = surname.chars();
                            let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or('X');
                            format!("{initial}. {first}{}", c.as_str())
                        }
                    };
                    // Past a few hundred draws of taken names (only in very big simulations) a
                    // number tells the teams apart.
                    let name = if taken > 300 { format!("{drawn} {}", teams.len() + 1) } else { drawn };
                    if !names.insert(name.clone()) {
                        taken += 1;
                        continue;
                    }
                    competitor_id += 1;
                    teams.push(Team {
                        competitor: Competitor { id: format!("sim:competitor:{competitor_id}"), name },
                        rating: rng.gen_range(-0.4..0.4),
                    });
                }
                competitions.push(Competition {
                    kind,
                    sport: sport.clone(),
                    category: category.clone(),
                    tournament,
                    teams,
                });
            }
        }
    }
    competitions
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

    fn small() -> SimConfig {
        SimConfig { live_events: 30, prematch_per_day: 24, days_ahead: 1, ..SimConfig::default() }
    }

    fn run(seed: u64, config: SimConfig, ticks: usize, step_ms: i64) -> Vec<Vec<FeedMessage>> {
        let mut sim = Simulator::new(seed, config);
        (0..ticks).map(|i| sim.tick(T0 + i as i64 * step_ms)).collect()
    }

    /// Issue 18 item 8: football and ice hockey clocks froze between goals (a score_change
    /// only came with a goal). Every match in play on a running clock now publishes it at
    /// least every CLOCK_UPDATE_MS of match time: checked at every tick over simulated time.
    #[test]
    fn football_and_hockey_clocks_run_between_goals() {
        let config = SimConfig { live_events: 30, ..small() };
        let step = 500;
        let mut sim = Simulator::new(4, config.clone());
        let mut sport: BTreeMap<String, SportKind> = BTreeMap::new();
        // Per event: (real ms of the last clock, its period, the clock values seen).
        let mut seen: BTreeMap<String, (i64, String, std::collections::BTreeSet<String>)> = BTreeMap::new();
        let playing = |period: &str| !matches!(period, "Half-time" | "Break" | "End");
        let real_per_update = CLOCK_UPDATE_MS / config.speed as i64;
        let mut checked = 0;
        for i in 0..240 {
            let now = T0 + i * step;
            for msg in sim.tick(now) {
                match msg {
                    FeedMessage::FixtureChange(f) => {
                        sport.insert(f.event_id.clone(), f.sport.kind.unwrap());
                    }
                    FeedMessage::ScoreChange(s) if s.status == EventStatus::Live => {
                        if let Some(c) = s.clock {
                            let e = seen.entry(s.event_id.clone()).or_default();
                            e.0 = now;
                            e.1 = c.period.clone();
                            e.2.insert(format!("{} {}", c.period, c.time));
                        }
                    }
                    FeedMessage::ScoreChange(s) => {
                        seen.remove(&s.event_id);
                    }
                    _ => {}
                }
            }
            for (id, (at, period, _)) in &seen {
                if matches!(sport[id], SportKind::Football | SportKind::IceHockey) && playing(period) {
                    assert!(now - at <= real_per_update + step, "{id} clock frozen at {period} since {} ms", now - at);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        // Over the 2 minutes, a clock in play shows many values (before: one or two).
        let running = seen
            .iter()
            .filter(|(id, (_, p, _))| matches!(sport[*id], SportKind::Football | SportKind::IceHockey) && playing(p))
            .map(|(_, (_, _, values))| values.len())
            .collect::<Vec<_>>();
        assert!(!running.is_empty() && running.iter().all(|&n| n >= 10), "{running:?}");
    }

    /// Issue 18 item 15: the same team played two matches at once.
    #[test]
    fn no_team_plays_two_matches_at_once() {
        let config = SimConfig { live_events: 40, ..small() };
        let mut sim = Simulator::new(9, config);
        let mut teams: BTreeMap<String, [String; 2]> = BTreeMap::new();
        let mut live: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        let mut fixtures = 0;
        for i in 0..900 {
            for msg in sim.tick(T0 + i * 2_000) {
                match msg {
                    FeedMessage::FixtureChange(f) => {
                        fixtures += 1;
                        teams.insert(f.event_id.clone(), [f.home.id.clone(), f.away.id.clone()]);
                    }
                    FeedMessage::ScoreChange(s) if s.status == EventStatus::Live => {
                        live.insert(s.event_id.clone());
                    }
                    FeedMessage::ScoreChange(s) => {
                        live.remove(&s.event_id);
                    }
                    FeedMessage::BetCancel(c) => {
                        live.remove(&c.event_id);
                    }
                    _ => {}
                }
            }
            let mut playing = BTreeMap::new();
            for id in &live {
                for team in &teams[id] {
                    if let Some(other) = playing.insert(team.clone(), id.clone()) {
                        panic!("tick {i}: {team} plays {other} and {id} at once");
                    }
                }
            }
        }
        assert!(fixtures > 200, "{fixtures}");
    }

    #[test]
    fn a_run_number_keeps_event_ids_apart() {
        let ids = |run: u64| -> std::collections::BTreeSet<String> {
            Simulator::new(1, small())
                .with_run(run)
                .tick(T0)
                .iter()
                .filter_map(|m| match m {
                    FeedMessage::FixtureChange(f) => Some(f.event_id.clone()),
                    _ => None,
                })
                .collect()
        };
        let (a, b) = (ids(1), ids(2));
        assert!(a.iter().all(|id| id.starts_with("sim:match:1-")), "{a:?}");
        assert!(a.len() > 20 && a.is_disjoint(&b));
    }

    #[test]
    fn same_seed_same_messages() {
        let a = run(7, small(), 300, 1_000);
        let b = run(7, small(), 300, 1_000);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        let c = run(8, small(), 300, 1_000);
        assert_ne!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&c).unwrap());
    }

    #[test]
    fn first_tick_announces_the_live_offer_and_the_schedule() {
        let mut sim = Simulator::new(1, small());
        let first = sim.tick(T0);
        let fixtures = first.iter().filter(|m| matches!(m, FeedMessage::FixtureChange(_))).count();
        // 30 live (some may finish during the fast-forward and be replaced) + about 24 scheduled.
        assert!(fixtures >= 40, "{fixtures}");
        assert!(sim.live_count() >= 25, "{}", sim.live_count());
        assert!(sim.scheduled_count() >= 10, "{}", sim.scheduled_count());
        let sports: std::collections::BTreeSet<String> = first
            .iter()
            .filter_map(|m| match m {
                FeedMessage::FixtureChange(f) => Some(f.sport.id.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(sports.len(), 5, "{sports:?}");
    }

    #[test]
    fn live_count_stays_near_the_target() {
        let mut sim = Simulator::new(3, small());
        let (mut sum, mut n) = (0, 0);
        for i in 0..1_200 {
            sim.tick(T0 + i * 1_000);
            if i > 300 {
                let live = sim.live_count();
                // Overtime, long tennis matches and scheduled fixtures add a few; never a hole.
                assert!((22..=42).contains(&live), "tick {i}: {live}");
                sum += live;
                n += 1;
            }
        }
        let mean = sum as f64 / n as f64;
        assert!((mean - 30.0).abs() <= 3.0, "{mean}");
    }

    #[test]
    fn goals_suspend_then_reopen() {
        let config = SimConfig { live_events: 40, ..small() };
        let step = 500;
        let ticks = run(5, config.clone(), 600, step);
        let mut stops = 0;
        let mut reopened = 0;
        for (i, batch) in ticks.iter().enumerate() {
            for msg in batch {
                let FeedMessage::BetStop(stop) = msg else { continue };
                stops += 1;
                // The next message that ends the suspension: an odds change or the end of the match.
                let next = ticks[i + 1..].iter().enumerate().find_map(|(j, b)| {
                    b.iter()
                        .find(|m| match m {
                            FeedMessage::OddsChange(o) => o.event_id == stop.event_id,
                            FeedMessage::ScoreChange(s) => s.event_id == stop.event_id && s.status.is_over(),
                            _ => false,
                        })
                        .map(|m| (i + 1 + j, m))
                });
                match next {
                    Some((j, FeedMessage::OddsChange(o))) => {
                        // Reopened, never before the suspension is over.
                        assert!((j - i) as i64 * step >= config.goal_suspension_ms, "{} reopened early", o.event_id);
                        reopened += 1;
                    }
                    Some(_) => reopened += 1,
                    // Still suspended when the run stops: only near its end (goals extend it).
                    None => assert!(ticks.len() - i < 60, "{} never reopened", stop.event_id),
                }
            }
        }
        assert!(stops > 5 && reopened + 5 >= stops, "{reopened} of {stops}");
    }

    #[test]
    fn every_finished_match_is_settled_on_every_outcome() {
        let mut sim = Simulator::new(11, small());
        let mut markets: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        let mut settled = 0;
        let mut cancelled = 0;
        for i in 0..1_500 {
            for msg in sim.tick(T0 + i * 1_000) {
                match msg {
                    FeedMessage::OddsChange(o) => {
                        for mk in o.markets {
                            if !mk.outcomes.is_empty() {
                                markets
                                    .entry(o.event_id.clone())
                                    .or_default()
                                    .insert(mk.market.to_string(), mk.outcomes.len());
                            }
                        }
                    }
                    FeedMessage::BetSettlement(s) => {
                        settled += 1;
                        let known = &markets[&s.event_id];
                        assert_eq!(s.markets.len(), known.len(), "{}", s.event_id);
                        for r in &s.markets {
                            assert_eq!(r.outcomes.len(), known[&r.market.to_string()]);
                            let winners = r.outcomes.iter().filter(|o| o.result.win).count();
                            let voids = r
                                .outcomes
                                .iter()
                                .filter(|o| !o.result.win && o.result.void_factor != crate::settle::VoidFactor::Zero)
                                .count();
                            assert!(winners >= 1 || voids == r.outcomes.len(), "{} {}", s.event_id, r.market);
                        }
                    }
                    FeedMessage::BetCancel(_) => cancelled += 1,
                    _ => {}
                }
            }
        }
        assert!(settled >= 30, "{settled}");
        assert!(cancelled <= settled / 10 + 2, "{cancelled}");
    }

    #[test]
    fn prematch_only_fixtures_close_at_the_start() {
        let config = SimConfig { live_events: 0, prematch_per_day: 200, prematch_only_percent: 100, ..small() };
        let mut sim = Simulator::new(2, config);
        let mut started = std::collections::BTreeSet::new();
        let mut closed = 0;
        for i in 0..(3 * 60) {
            for msg in sim.tick(T0 + i * MINUTE) {
                match &msg {
                    FeedMessage::ScoreChange(s) if s.status == EventStatus::Live => {
                        started.insert(s.event_id.clone());
                    }
                    FeedMessage::OddsChange(o) if started.contains(&o.event_id) => {
                        // After the start only closing messages: every market deactivated.
                        assert!(o.markets.iter().all(|m| m.status == MarketStatus::Deactivated), "{}", o.event_id);
                        closed += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(closed >= 5 && closed == started.len(), "{closed} of {}", started.len());
    }

    /// The scale requirement in miniature: odds changes per live match per second of real time.
    /// 2,000 live matches need 0.25 per match per second for 500/s; examples/sim_scale.rs runs the
    /// full size in release mode.
    #[test]
    fn odds_changes_per_live_match_per_second() {
        let config = SimConfig { live_events: 100, ..small() };
        let mut sim = Simulator::new(4, config);
        sim.tick(T0);
        let (mut markets_changed, mut messages) = (0usize, 0usize);
        let ticks = 600; // one minute at 100 ms
        let mut live_sum = 0;
        for i in 1..=ticks {
            for msg in sim.tick(T0 + i * 100) {
                if let FeedMessage::OddsChange(o) = msg {
                    messages += 1;
                    markets_changed += o.markets.len();
                }
            }
            live_sum += sim.live_count();
        }
        let live = live_sum as f64 / ticks as f64;
        let per_match_second = messages as f64 / live / 60.0;
        assert!(per_match_second >= 0.25, "{per_match_second} odds-change messages per live match per second");
        assert!(markets_changed > messages);
    }

    /// The simulator speaks the feed format: every message passes `Line::apply`, and the line
    /// then mirrors the simulator (each match it runs is there, live matches have open markets).
    #[test]
    fn every_message_applies_to_a_line() {
        let mut sim = Simulator::new(12, small());
        let mut line = crate::model::Line::new();
        let mut count = 0;
        for i in 0..900 {
            for msg in sim.tick(T0 + i * 1_000) {
                line.apply(&msg).unwrap_or_else(|e| panic!("{}: {e}", msg.kind()));
                let back = crate::feed::decode(&crate::feed::encode(&msg)).unwrap();
                assert_eq!(back, msg);
                count += 1;
            }
        }
        assert!(count > 1_000, "{count}");
        for m in sim.matches.values() {
            let event = &line.events[&m.id];
            if m.phase == Phase::Live && m.kind == EventKind::Live {
                assert_eq!(event.status, EventStatus::Live);
                assert_eq!(event.score, m.score);
            }
        }
        let closed = line.events.values().filter(|e| e.status == EventStatus::Closed).count();
        assert!(closed > 10, "{closed}");
        assert!(line.events.values().filter(|e| e.status == EventStatus::Closed).all(|e| e
            .markets
            .values()
            .all(|mk| mk.status == MarketStatus::Settled && mk.outcomes.iter().all(|o| o.result.is_some()))));
    }

    #[test]
    fn periods_locate() {
        let p = Periods::new(2, 45 * MINUTE, 15 * MINUTE);
        assert_eq!(p.total(), 105 * MINUTE);
        assert_eq!(p.locate(0), Spot::Play { index: 0, played: 0, until: 45 * MINUTE });
        assert_eq!(p.locate(50 * MINUTE), Spot::Break { index: 0, played: 45 * MINUTE, until: 60 * MINUTE });
        assert_eq!(p.locate(70 * MINUTE), Spot::Play { index: 1, played: 55 * MINUTE, until: 105 * MINUTE });
        assert_eq!(p.locate(105 * MINUTE), Spot::Over { played: 90 * MINUTE });
    }

    #[test]
    fn simulated_scores_follow_the_models() {
        // Football goals per match average the model's expected 2.6 or so.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let n = 20_000;
        let mut total = 0;
        for _ in 0..n {
            total += sample_poisson(&mut rng, 2.6);
        }
        let mean = total as f64 / n as f64;
        assert!((mean - 2.6).abs() < 0.05, "{mean}");
        // Basket points: the simulated spread is what the pricing model assumes.
        let mean_points = 111.5;
        let rate = mean_points / BASKET_MEAN_POINTS;
        let games: Vec<f64> = (0..5_000)
            .map(|_| (0..sample_poisson(&mut rng, rate)).map(|_| basket_points(&mut rng) as f64).sum())
            .collect();
        let m = games.iter().sum::<f64>() / games.len() as f64;
        let sd = (games.iter().map(|g| (g - m).powi(2)).sum::<f64>() / games.len() as f64).sqrt();
        assert!((m - mean_points).abs() < 1.0, "{m}");
        assert!((sd - basket_sd(mean_points)).abs() < 0.6, "{sd} vs {}", basket_sd(mean_points));
    }

    #[test]
    fn tennis_and_table_tennis_scoring() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let model = TennisModel { home_serve: 0.65, away_serve: 0.6, best_of: 3 };
        let mut home_wins = 0;
        for _ in 0..400 {
            let mut r = RallyState { home_serving: true, ..RallyState::default() };
            let mut score = Score { periods: vec![PeriodScore::default()], ..Score::default() };
            let mut points = 0;
            while !tennis_point(&mut rng, &model, &mut r, &mut score) {
                points += 1;
                assert!(points < 1_000);
            }
            assert!(score.home == 2 || score.away == 2);
            assert_eq!(score.periods.len() as u32, score.home + score.away);
            for set in &score.periods {
                let (w, l) = (set.home.max(set.away), set.home.min(set.away));
                assert!((w == 6 && l <= 4) || (w == 7 && (l == 5 || l == 6)), "{set:?}");
            }
            home_wins += (score.home == 2) as u32;
        }
        // The pricing model's own probability for this matchup.
        let p = match model.outlook(&RallyState { home_serving: true, ..RallyState::default() }) {
            Outlook::Joint(c) => c.iter().filter(|c| c.home == 2).map(|c| c.p).sum::<f64>(),
            _ => unreachable!(),
        };
        let observed = home_wins as f64 / 400.0;
        assert!((observed - p).abs() < 0.08, "{observed} vs {p}");

        let tt = TableTennisModel { home_point: 0.5, best_of: 5 };
        let mut r = RallyState::default();
        let mut score = Score { periods: vec![PeriodScore::default()], ..Score::default() };
        while !table_tennis_point(&mut rng, &tt, &mut r, &mut score) {}
        assert!(score.home == 3 || score.away == 3);
        for g in &score.periods {
            let (w, l) = (g.home.max(g.away), g.home.min(g.away));
            assert!((w == 11 && l <= 9) || (w >= 12 && w == l + 2), "{g:?}");
        }
    }
}
