//! Our sportsbook's service (issue 12; the pure rules are the `sportsbook` crate): the line,
//! fed by one feed (the simulator by default, or the documented JSON feed), bet placement
//! with the stake posted through the ledger, settlement and resettlement from the feed's
//! results, and the player's bets. docs/SPORTSBOOK.md describes the rules and the money.
//!
//! **Money.** A bet's stake, payout and resettlements are ledger postings keyed by the bet
//! (`sb:{bet}:stake`, `sb:{bet}:payout`, `sb:{bet}:resettle:{version}`; types 211, 212,
//! 213), so no retry, race or restart can move money twice. The bet row is written first
//! (`placing`, unique per player and client key), then the stake is posted, then the row
//! says `open`; a crash in between is finished by [`Betting::recover`] from the ledger.

mod hook;
pub mod limits;
mod place;
mod settle;
mod view;

pub use hook::{AfterCommit, SettleHook, SettledBet};
pub use limits::slip_settings_for;
pub use place::{Bettor, LegInput, PlaceInput};
pub use relay::{Delivery, OwnGuard};
pub use view::{BetLegView, BetView, BetsQuery, TopWin};

mod relay;

use kernel::AppError;
use sportsbook::slip::SlipSettings;
use sportsbook::{FeedMessage, Line};
use std::sync::{Arc, Mutex, RwLock};
use store::sqlx::{self, Row};
use store::{Db, WriteBatch};
use tokio::sync::broadcast;
use wallet::Ledger;

/// The service. Cheap to clone.
#[derive(Clone)]
pub struct Betting {
    db: Db,
    ledger: Ledger,
    batch: WriteBatch,
    line: Arc<RwLock<Line>>,
    settings: Arc<RwLock<Settings>>,
    /// Updates applied since the last [`Betting::flush`].
    pending: Arc<Mutex<Vec<Update>>>,
    updates: broadcast::Sender<Arc<UpdateBatch>>,
    /// What promotions do when bets settle (sport-bonus wagering, rakeback): set once.
    hook: Arc<std::sync::OnceLock<Arc<dyn SettleHook>>>,
    /// The line on every instance ([`relay`]).
    relay: Arc<relay::RelayState>,
}

/// The slip's settings: the base (TND millimes), the site settings they follow, and the
/// per-currency result of both (computed on first use).
#[derive(Default)]
struct Settings {
    base: SlipSettings,
    site: Option<serde_json::Value>,
    per_currency: std::collections::HashMap<kernel::Currency, Arc<SlipSettings>>,
}

/// One applied feed message as the live updates carry it: encoded once for every subscriber,
/// with what topic filters need.
#[derive(Debug)]
pub struct Update {
    pub message: FeedMessage,
    /// The message in the documented JSON feed format.
    pub json: String,
    /// What a list of events (topics `live`, `sport:<id>`) shows of it: an `odds_change`
    /// keeps only the event's main market (the one the line endpoint shows), other messages
    /// are whole. `None` when nothing a list shows changed.
    pub list_json: Option<String>,
    pub event_id: String,
    pub sport_id: String,
    /// The event is in play.
    pub live: bool,
}

/// The updates of one feed tick: a subscriber gets them as one frame (a JSON array).
#[derive(Debug)]
pub struct UpdateBatch {
    pub updates: Vec<Update>,
    /// Indexes into `updates` by event, in feed order: a subscriber to a few events looks
    /// them up instead of scanning the batch.
    pub by_event: std::collections::HashMap<String, Vec<usize>>,
    /// The frame of a subscriber to `live` alone (the app's list): the list form of every
    /// update on an event in play, encoded once for all of them. `None` when there is none.
    pub live_frame: Option<bytes::Bytes>,
}

impl UpdateBatch {
    fn new(updates: Vec<Update>) -> UpdateBatch {
        let mut by_event: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        for (i, u) in updates.iter().enumerate() {
            by_event.entry(u.event_id.clone()).or_default().push(i);
        }
        let live_frame = json_array(
            updates
                .iter()
                .filter(|u| u.live)
                .filter_map(|u| u.list_json.as_deref()),
        );
        UpdateBatch {
            updates,
            by_event,
            live_frame,
        }
    }
}

/// `[a,b,…]` from encoded JSON values; `None` when there are none.
pub fn json_array<'a>(items: impl Iterator<Item = &'a str>) -> Option<bytes::Bytes> {
    let mut out = Vec::with_capacity(1024);
    for item in items {
        out.push(if out.is_empty() { b'[' } else { b',' });
        out.extend_from_slice(item.as_bytes());
    }
    if out.is_empty() {
        return None;
    }
    out.push(b']');
    Some(out.into())
}

/// Ticks of updates kept for a slow subscriber before it is told to resync (10 s of the
/// simulator's 100 ms ticks).
const UPDATE_BATCHES_KEPT: usize = 100;

impl Betting {
    pub fn new(db: Db, ledger: Ledger, settings: SlipSettings) -> Betting {
        let (updates, _) = broadcast::channel(UPDATE_BATCHES_KEPT);
        Betting {
            batch: WriteBatch::new(db.clone()),
            db,
            ledger,
            line: Arc::new(RwLock::new(Line::new())),
            settings: Arc::new(RwLock::new(Settings {
                base: settings,
                ..Settings::default()
            })),
            pending: Arc::new(Mutex::new(Vec::new())),
            updates,
            hook: Default::default(),
            relay: Default::default(),
        }
    }

    /// Relays the line between instances over `bus` (once; see [`relay`]).
    pub fn set_bus(&self, bus: store::bus::Bus) {
        let _ = self.relay.bus.set(bus);
    }

    /// The bus, when it leaves the process.
    pub(crate) fn bus(&self) -> Option<&store::bus::Bus> {
        self.relay.bus.get().filter(|b| b.shared())
    }

    /// Sets the one settlement hook ([`SettleHook`]); clones share it. `false` when one was
    /// already set (it stays).
    pub fn set_settle_hook(&self, hook: Arc<dyn SettleHook>) -> bool {
        self.hook.set(hook).is_ok()
    }

    pub(crate) fn settle_hook(&self) -> Option<Arc<dyn SettleHook>> {
        self.hook.get().cloned()
    }

    /// Reads the current line.
    pub fn with_line<T>(&self, f: impl FnOnce(&Line) -> T) -> T {
        f(&self.line.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// The base settings (TND millimes; before the site settings' limits).
    pub fn settings(&self) -> SlipSettings {
        self.settings
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .base
            .clone()
    }

    /// What the slip checks a bet in `currency` against: the base with the site settings'
    /// limits, scaled to the currency ([`slip_settings_for`]).
    pub fn settings_for(&self, currency: kernel::Currency) -> Arc<SlipSettings> {
        if let Some(s) = self
            .settings
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .per_currency
            .get(&currency)
        {
            return s.clone();
        }
        let mut all = self.settings.write().unwrap_or_else(|p| p.into_inner());
        let s = Arc::new(match &all.site {
            Some(doc) => slip_settings_for(doc, &all.base, currency),
            None => all.base.clone(),
        });
        all.per_currency.insert(currency, s.clone());
        s
    }

    pub fn set_settings(&self, settings: SlipSettings) {
        let mut all = self.settings.write().unwrap_or_else(|p| p.into_inner());
        all.base = settings;
        all.per_currency.clear();
    }

    /// Follows the site settings document (spec §3): called at start and whenever it may have
    /// changed; a document equal to the one held changes nothing.
    pub fn use_site_settings(&self, doc: &serde_json::Value) {
        let mut all = self.settings.write().unwrap_or_else(|p| p.into_inner());
        if all.site.as_ref() != Some(doc) {
            all.site = Some(doc.clone());
            all.per_currency.clear();
        }
    }

    /// The live updates (WebSocket): one batch per feed tick ([`Self::flush`]).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<UpdateBatch>> {
        self.updates.subscribe()
    }

    /// Sends the updates applied since the last flush to the subscribers, as one batch.
    pub fn flush(&self) {
        let updates = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|p| p.into_inner()));
        if !updates.is_empty() && self.updates.receiver_count() > 0 {
            let _ = self.updates.send(Arc::new(UpdateBatch::new(updates)));
        }
    }

    /// Applies feed messages in order and flushes their updates as one batch: what a feed
    /// tick (or one delivery of an imported feed) does. Returns how many the line refused.
    pub async fn apply_all(&self, messages: Vec<FeedMessage>, now: i64) -> usize {
        let mut refused = 0;
        for msg in messages {
            // A refused message is logged by `apply_one`; a settlement failure too: the feed goes on.
            if self.apply_one(msg, now).await.is_err() {
                refused += 1;
            }
        }
        self.flush();
        refused
    }

    /// Applies one feed message and sends its update: the line changes; results and
    /// cancellations are stored and settle the bets they decide. A message the line refuses
    /// changes nothing (logged).
    pub async fn apply(&self, msg: FeedMessage, now: i64) -> Result<(), AppError> {
        let result = self.apply_one(msg, now).await;
        self.flush();
        result
    }

    /// [`Self::apply`] whose update waits for the next [`Self::flush`] (a delivery of many
    /// messages sent to the subscribers as one frame).
    pub async fn apply_queued(&self, msg: FeedMessage, now: i64) -> Result<(), AppError> {
        self.apply_one(msg, now).await
    }

    async fn apply_one(&self, msg: FeedMessage, now: i64) -> Result<(), AppError> {
        let change = self.change_line(&msg)?;
        match &msg {
            FeedMessage::BetSettlement(s) => self.store_results(s, change.start_time, now).await?,
            FeedMessage::BetCancel(c) => self.store_cancel(c, change.start_time, now).await?,
            FeedMessage::FixtureChange(f) => {
                if let Some(from) = change.moved_from {
                    self.fixture_moved(&f.event_id, from, change.start_time).await?;
                }
            }
            _ => {}
        }
        self.queue_update(msg, change);
        Ok(())
    }

    /// A message another instance applied and settled: the line and the sockets only
    /// ([`relay`]).
    pub(crate) fn apply_line(&self, msg: FeedMessage) -> Result<(), AppError> {
        let change = self.change_line(&msg)?;
        self.queue_update(msg, change);
        Ok(())
    }

    /// The line takes the message (or refuses it, changing nothing).
    fn change_line(&self, msg: &FeedMessage) -> Result<LineChange, AppError> {
        let mut line = self.line.write().unwrap_or_else(|p| p.into_inner());
        // A fixture_change for an event the line holds is the same fixture: if it moves
        // the start time, the legs placed on it follow (they name their fixture by it).
        let held_start = match msg {
            FeedMessage::FixtureChange(_) => line.event(msg.event_id()).map(|e| e.start_time),
            _ => None,
        };
        if let Err(e) = line.apply(msg) {
            tracing::warn!(error = %e, kind = ?msg.kind(), event = msg.event_id(), "sportsbook: feed message refused");
            return Err(AppError::with_detail(kernel::ErrorCode::BadRequest, e.to_string()));
        }
        let (sport_id, live, main, start_time) = line
            .event(msg.event_id())
            .map(|e| {
                (
                    e.sport_id.clone(),
                    e.status == sportsbook::model::EventStatus::Live,
                    e.main_market().map(|m| m.key.clone()),
                    e.start_time,
                )
            })
            .unwrap_or_default();
        let moved_from = held_start.filter(|&t| t != start_time);
        Ok(LineChange { sport_id, live, main, start_time, moved_from })
    }

    /// The message's update for the sockets, sent at the next [`Self::flush`].
    fn queue_update(&self, msg: FeedMessage, change: LineChange) {
        if self.updates.receiver_count() == 0 {
            return;
        }
        let LineChange { sport_id, live, main, .. } = change;
        let json = sportsbook::feed::encode(&msg);
        let list_json = match &msg {
            FeedMessage::OddsChange(o) => {
                let kept: Vec<_> = o.markets.iter().filter(|m| Some(&m.market) == main.as_ref()).cloned().collect();
                if kept.len() == o.markets.len() {
                    Some(json.clone())
                } else if kept.is_empty() {
                    None
                } else {
                    let list = FeedMessage::OddsChange(sportsbook::feed::OddsChange { markets: kept, ..o.clone() });
                    Some(sportsbook::feed::encode(&list))
                }
            }
            _ => Some(json.clone()),
        };
        let event_id = msg.event_id().to_string();
        self.pending.lock().unwrap_or_else(|p| p.into_inner()).push(Update { message: msg, json, list_json, event_id, sport_id, live });
    }
}

/// What applying a message changed, for its update and its side effects.
struct LineChange {
    sport_id: String,
    live: bool,
    main: Option<sportsbook::model::MarketKey>,
    start_time: i64,
    moved_from: Option<i64>,
}

pub(crate) fn internal(e: impl std::fmt::Display) -> AppError {
    AppError::internal(e)
}

impl Betting {
    /// Runs `work` in the write batch (group commit on SQLite, see `store::batch`); every
    /// database error is internal.
    pub(crate) async fn write<T, F>(&self, work: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(
                &'c mut store::sqlx::AnyConnection,
            )
                -> futures::future::BoxFuture<'c, Result<T, store::sqlx::Error>>
            + Send
            + 'static,
    {
        self.batch
            .run(work)
            .await
            .map_err(internal)?
            .map_err(internal)
    }
}

impl Betting {
    /// A simulator whose event ids carry a new run number (`sim:match:{run}-{n}`), taken from
    /// `sb_sim_runs`: never handed out twice, so no restart reuses an event id.
    pub async fn simulator(
        &self,
        seed: u64,
        config: sportsbook::sim::SimConfig,
    ) -> Result<sportsbook::sim::Simulator, AppError> {
        let now = kernel::clock::now_ms();
        let mut attempt = 0;
        let run = loop {
            attempt += 1;
            let inserted = sqlx::query(
                "INSERT INTO sb_sim_runs (run, seed, started_at) SELECT COALESCE(MAX(run), 0) + 1, $1, $2 FROM sb_sim_runs RETURNING run",
            )
            .bind(seed as i64)
            .bind(now)
            .fetch_one(self.db.writer())
            .await;
            match inserted {
                Ok(row) => break row.get::<i64, _>(0),
                // Two instances starting at once took the same number: the loser tries again.
                Err(e) if attempt < 5 => tracing::warn!(error = %e, "sportsbook: simulator run number taken; again"),
                Err(e) => return Err(internal(e)),
            }
        };
        tracing::info!(run, "sportsbook: simulator run");
        Ok(sportsbook::sim::Simulator::new(seed, config).with_run(run as u64))
    }

    /// Runs the simulated feed for ever: a tick every `tick_ms`, every message applied (and
    /// settled) in order. One owner per line (ARCHITECTURE §7): the holder of the duty
    /// `sportsbook_feed`; the other instances mirror its line ([`relay`]).
    pub async fn run_simulator(self, seed: u64, config: sportsbook::sim::SimConfig, tick_ms: u64) {
        // Event ids carry a run number from the database, so a restart never reuses one.
        let mut sim = loop {
            match self.simulator(seed, config.clone()).await {
                Ok(sim) => break sim,
                Err(e) => {
                    tracing::error!(error = %e, "sportsbook: no simulator run number; retrying in 5 s");
                    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
                }
            }
        };
        // This instance owns the line from now on (until this task is dropped): a new run, so
        // the line starts empty as after a restart (the lost run's legs are voided by
        // housekeeping); the other instances mirror its ticks.
        let _owner_guard = self.own_feed(false);
        *self.line.write().unwrap_or_else(|p| p.into_inner()) = Line::new();
        let mut owner = relay::Owner { run: kernel::ids::next_id() as u64, seq: 0 };
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(tick_ms.max(10)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            let now = kernel::clock::now_ms();
            let messages = sim.tick(now);
            self.publish_tick(&mut owner, &messages);
            self.apply_all(messages, now).await;
            self.answer_snapshot(&owner).await;
        }
    }
}
