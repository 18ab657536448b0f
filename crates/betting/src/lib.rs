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

mod place;
mod settle;
mod view;

pub use place::{Bettor, LegInput, PlaceInput};
pub use view::{BetLegView, BetView, BetsQuery, TopWin};

use kernel::AppError;
use sportsbook::slip::SlipSettings;
use sportsbook::{FeedMessage, Line};
use std::sync::{Arc, RwLock};
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
    settings: Arc<RwLock<SlipSettings>>,
    updates: broadcast::Sender<Arc<Update>>,
}

/// One applied feed message as the live updates carry it: encoded once for every subscriber,
/// with what topic filters need.
#[derive(Debug)]
pub struct Update {
    pub message: FeedMessage,
    /// The message in the documented JSON feed format.
    pub json: String,
    pub event_id: String,
    pub sport_id: String,
    /// The event is in play.
    pub live: bool,
}

impl Betting {
    pub fn new(db: Db, ledger: Ledger, settings: SlipSettings) -> Betting {
        let (updates, _) = broadcast::channel(4096);
        Betting {
            batch: WriteBatch::new(db.clone()),
            db,
            ledger,
            line: Arc::new(RwLock::new(Line::new())),
            settings: Arc::new(RwLock::new(settings)),
            updates,
        }
    }

    /// Reads the current line.
    pub fn with_line<T>(&self, f: impl FnOnce(&Line) -> T) -> T {
        f(&self.line.read().unwrap_or_else(|p| p.into_inner()))
    }

    pub fn settings(&self) -> SlipSettings {
        self.settings
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn set_settings(&self, settings: SlipSettings) {
        *self.settings.write().unwrap_or_else(|p| p.into_inner()) = settings;
    }

    /// Every feed message applied to the line, for live updates (WebSocket).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Update>> {
        self.updates.subscribe()
    }

    /// Applies one feed message: the line changes; results and cancellations are stored and
    /// settle the bets they decide. A message the line refuses changes nothing (logged).
    pub async fn apply(&self, msg: FeedMessage, now: i64) -> Result<(), AppError> {
        let (sport_id, live) = {
            let mut line = self.line.write().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = line.apply(&msg) {
                tracing::warn!(error = %e, kind = ?msg.kind(), event = msg.event_id(), "sportsbook: feed message refused");
                return Err(AppError::with_detail(
                    kernel::ErrorCode::BadRequest,
                    e.to_string(),
                ));
            }
            line.event(msg.event_id())
                .map(|e| {
                    (
                        e.sport_id.clone(),
                        e.status == sportsbook::model::EventStatus::Live,
                    )
                })
                .unwrap_or_default()
        };
        match &msg {
            FeedMessage::BetSettlement(s) => self.store_results(s, now).await?,
            FeedMessage::BetCancel(c) => self.store_cancel(c, now).await?,
            _ => {}
        }
        if self.updates.receiver_count() > 0 {
            let json = sportsbook::feed::encode(&msg);
            let event_id = msg.event_id().to_string();
            let _ = self.updates.send(Arc::new(Update {
                message: msg,
                json,
                event_id,
                sport_id,
                live,
            }));
        }
        Ok(())
    }
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
    /// Runs the simulated feed for ever: a tick every `tick_ms`, every message applied (and
    /// settled) in order. One owner per line (ARCHITECTURE §7): with several instances only
    /// one may run it — a shared line across instances is future work (docs/SPORTSBOOK.md).
    pub async fn run_simulator(self, seed: u64, config: sportsbook::sim::SimConfig, tick_ms: u64) {
        let mut sim = sportsbook::sim::Simulator::new(seed, config);
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(tick_ms.max(10)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            let now = kernel::clock::now_ms();
            for msg in sim.tick(now) {
                // A refused message is logged by `apply`; a settlement failure too: the feed goes on.
                let _ = self.apply(msg, now).await;
            }
        }
    }
}
