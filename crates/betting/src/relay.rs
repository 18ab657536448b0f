//! The line on every instance (ARCHITECTURE §7; docs/OPERATIONS.md "Several instances").
//!
//! One instance owns the feed (the duty `sportsbook_feed`: the simulator runs there). After
//! each tick it publishes the feed messages it applied on [`bus::LINE_UPDATES`] as one
//! [`Delivery`] `{run, seq, m}`: `run` is new for each start of the feed (a take-over starts
//! a new run), `seq` counts its deliveries. Every other instance *mirrors* them: its line
//! changes as the owner's did and its sockets get the same updates, but only the owner
//! settles (results, cancellations and moved fixtures are written once, by the owner).
//!
//! An instance that starts, misses a delivery (`seq` not the next one), sees a new `run`,
//! or whose listener reconnected asks for a snapshot ([`Sync::Want`] on
//! [`bus::LINE_SYNC`]). The owner writes its whole line to `relay_snapshots` between two
//! ticks, so the snapshot is exactly the line after delivery `seq`, and answers
//! [`Sync::Ready`]; the follower loads it and applies the deliveries it held back after
//! `seq`. A bet placed on any instance is therefore checked against the same line, at most
//! one delivery (one tick) behind the owner's.
//!
//! Push feeds (`SPORTSBOOK_FEED=push`): a delivery is applied (and settles) on the instance
//! the load balancer picked, which publishes it with `push: true`; the others mirror it as
//! it comes. The holder of `sportsbook_feed` answers snapshot requests.

use crate::Betting;
use serde::{Deserialize, Serialize};
use sportsbook::{FeedMessage, Line};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use store::bus::{self, BusEvent};
use store::sqlx::{self, Row};

/// The name of the line's row in `relay_snapshots`.
const SNAPSHOT: &str = "sportsbook_line";
/// Deliveries a follower keeps while it waits for a snapshot.
const HELD_MAX: usize = 2_000;
/// A snapshot asked for and not announced within this is asked for again.
const ASK_AGAIN: Duration = Duration::from_secs(3);

/// One tick (or push delivery) of the owner, as published.
#[derive(Debug, Serialize, Deserialize)]
pub struct Delivery {
    #[serde(default)]
    pub run: u64,
    #[serde(default)]
    pub seq: u64,
    #[serde(default)]
    pub push: bool,
    pub m: Vec<FeedMessage>,
}

/// Snapshot requests and announcements.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Sync {
    Want,
    Ready { run: u64, seq: u64 },
}

/// The owner's side while the feed runs here: the run and the last delivery published.
pub(crate) struct Owner {
    pub run: u64,
    pub seq: u64,
}

impl Betting {
    /// Publishes the messages of one tick (before they are applied: `apply_all` takes them).
    pub(crate) fn publish_tick(&self, owner: &mut Owner, messages: &[FeedMessage]) {
        let Some(bus) = self.bus() else { return };
        owner.seq += 1;
        let body = serde_json::json!({ "run": owner.run, "seq": owner.seq, "m": messages }).to_string();
        bus.publish(bus::LINE_UPDATES, body);
    }

    /// Publishes the messages of a push delivery this instance applied.
    pub fn publish_push(&self, messages: &[FeedMessage]) {
        let Some(bus) = self.bus() else { return };
        if messages.is_empty() {
            return;
        }
        let body = serde_json::json!({ "push": true, "m": messages }).to_string();
        bus.publish(bus::LINE_UPDATES, body);
    }

    /// Between two ticks of the owner: writes the snapshot a follower asked for.
    pub(crate) async fn answer_snapshot(&self, owner: &Owner) {
        if !self.relay.want_snapshot.swap(false, Ordering::AcqRel) {
            return;
        }
        if let Err(e) = self.write_snapshot(owner.run, owner.seq).await {
            tracing::error!(error = %e, "sportsbook: writing the line's snapshot failed");
        }
    }

    async fn write_snapshot(&self, run: u64, seq: u64) -> Result<(), sqlx::Error> {
        let Some(bus) = self.bus() else { return Ok(()) };
        let body = {
            let line = self.line.read().unwrap_or_else(|p| p.into_inner());
            serde_json::to_string(&*line).map_err(|e| sqlx::Error::Protocol(e.to_string()))?
        };
        sqlx::query(
            "INSERT INTO relay_snapshots (name, run, seq, body, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (name) DO UPDATE SET run = excluded.run, seq = excluded.seq, body = excluded.body, created_at = excluded.created_at",
        )
        .bind(SNAPSHOT)
        .bind(run as i64)
        .bind(seq as i64)
        .bind(body)
        .bind(kernel::clock::now_ms())
        .execute(self.db.writer())
        .await?;
        let ready = serde_json::to_string(&Sync::Ready { run, seq }).unwrap_or_default();
        bus.publish(bus::LINE_SYNC, ready);
        Ok(())
    }

    async fn read_snapshot(&self) -> Result<Option<(u64, u64, Line)>, sqlx::Error> {
        let row = sqlx::query("SELECT run, seq, body FROM relay_snapshots WHERE name = $1")
            .bind(SNAPSHOT)
            .fetch_optional(self.db.reader())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let body: String = row.get(2);
        let line: Line = serde_json::from_str(&body).map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
        Ok(Some((row.get::<i64, _>(0) as u64, row.get::<i64, _>(1) as u64, line)))
    }

    /// Messages another instance applied: the line and the sockets follow; nothing is
    /// written (the owner settles).
    pub(crate) fn mirror(&self, messages: Vec<FeedMessage>) {
        for msg in messages {
            let _ = self.apply_line(msg);
        }
        self.flush();
    }

    /// Every instance, for as long as the process runs (when the bus leaves the process):
    /// mirrors the owner's deliveries, asks for snapshots, and — when this instance holds
    /// the feed — has them written.
    pub async fn run_line_follower(self) {
        let Some(bus) = self.bus() else { return };
        let mut updates = bus.subscribe(bus::LINE_UPDATES);
        let mut sync = bus.subscribe(bus::LINE_SYNC);
        let mut expect: Option<(u64, u64)> = None;
        let mut held: Vec<Delivery> = Vec::new();
        let mut asked: Option<Instant> = None;
        let ask = |asked: &mut Option<Instant>| {
            if asked.is_none_or(|t| t.elapsed() >= ASK_AGAIN) {
                bus.publish(bus::LINE_SYNC, serde_json::to_string(&Sync::Want).unwrap_or_default());
                *asked = Some(Instant::now());
            }
        };
        ask(&mut asked);
        let mut check = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                e = updates.recv() => match e {
                    Ok(BusEvent::Message(m)) => {
                        if m.own || self.owns_feed() {
                            expect = None;
                            held.clear();
                            asked = None;
                            continue;
                        }
                        let Ok(d) = serde_json::from_str::<Delivery>(&m.body) else {
                            tracing::warn!("sportsbook: a relayed delivery could not be read");
                            continue;
                        };
                        self.relay.mirrored.fetch_add(1, Ordering::Relaxed);
                        if d.push {
                            self.mirror(d.m);
                        } else if asked.is_none() && expect == Some((d.run, d.seq.wrapping_sub(1))) {
                            expect = Some((d.run, d.seq));
                            self.mirror(d.m);
                        } else {
                            if held.len() >= HELD_MAX {
                                held.remove(0);
                            }
                            held.push(d);
                            ask(&mut asked);
                        }
                    }
                    Ok(BusEvent::Resync) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        if !self.owns_feed() {
                            asked = None;
                            ask(&mut asked);
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
                e = sync.recv() => match e {
                    Ok(BusEvent::Message(m)) if !m.own => match serde_json::from_str::<Sync>(&m.body) {
                        Ok(Sync::Want) => {
                            if self.owns_feed() {
                                if self.relay.push_owner.load(Ordering::Acquire) {
                                    if let Err(e) = self.write_snapshot(0, 0).await {
                                        tracing::error!(error = %e, "sportsbook: writing the line's snapshot failed");
                                    }
                                } else {
                                    // The simulator writes it between two ticks.
                                    self.relay.want_snapshot.store(true, Ordering::Release);
                                }
                            }
                        }
                        Ok(Sync::Ready { run, seq }) => {
                            if asked.is_none() || self.owns_feed() {
                                continue;
                            }
                            match self.read_snapshot().await {
                                Ok(Some((r, s, line))) if r == run && s >= seq => {
                                    *self.line.write().unwrap_or_else(|p| p.into_inner()) = line;
                                    self.relay.snapshots.fetch_add(1, Ordering::Relaxed);
                                    let mut at = s;
                                    let mut gap = false;
                                    for d in held.drain(..) {
                                        if d.push || d.run != r || d.seq <= at {
                                            continue;
                                        }
                                        if d.seq != at + 1 {
                                            gap = true;
                                            break;
                                        }
                                        at = d.seq;
                                        self.mirror(d.m);
                                    }
                                    held.clear();
                                    expect = Some((r, at));
                                    asked = None;
                                    tracing::info!(run = r, seq = at, "sportsbook: line loaded from the owner's snapshot");
                                    if gap {
                                        ask(&mut asked);
                                    }
                                }
                                // A newer snapshot is on its way, or this one is for another run.
                                Ok(_) => {}
                                Err(e) => tracing::error!(error = %e, "sportsbook: reading the line's snapshot failed"),
                            }
                        }
                        Err(_) => tracing::warn!("sportsbook: a relayed sync message could not be read"),
                    },
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
                _ = check.tick() => {
                    // No answer yet (the owner is changing hands): ask again.
                    if asked.is_some() && !held.is_empty() && !self.owns_feed() {
                        ask(&mut asked);
                    }
                }
            }
        }
    }

    fn owns_feed(&self) -> bool {
        self.relay.owning.load(Ordering::Acquire)
    }

    /// Marks this instance the line's owner (the feed duty's task) until the guard drops.
    pub fn own_feed(&self, push: bool) -> OwnGuard {
        self.relay.owning.store(true, Ordering::Release);
        self.relay.push_owner.store(push, Ordering::Release);
        OwnGuard(self.clone())
    }

    /// Deliveries mirrored from the owner and snapshots loaded (metrics, tests).
    pub fn relay_stats(&self) -> (u64, u64) {
        (self.relay.mirrored.load(Ordering::Relaxed), self.relay.snapshots.load(Ordering::Relaxed))
    }
}

/// Held by the feed duty's task; dropping it (the duty lost) makes this instance a follower.
pub struct OwnGuard(Betting);

impl Drop for OwnGuard {
    fn drop(&mut self) {
        self.0.relay.owning.store(false, Ordering::Release);
        self.0.relay.push_owner.store(false, Ordering::Release);
    }
}

/// The relay's flags, shared by the clones of a [`Betting`].
#[derive(Default)]
pub(crate) struct RelayState {
    pub bus: std::sync::OnceLock<store::bus::Bus>,
    pub owning: std::sync::atomic::AtomicBool,
    pub push_owner: std::sync::atomic::AtomicBool,
    pub want_snapshot: std::sync::atomic::AtomicBool,
    pub mirrored: std::sync::atomic::AtomicU64,
    pub snapshots: std::sync::atomic::AtomicU64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_messages_round_trip() {
        let s = serde_json::to_string(&Sync::Ready { run: 3, seq: 9 }).unwrap();
        assert_eq!(s, r#"{"t":"ready","run":3,"seq":9}"#);
        assert_eq!(serde_json::from_str::<Sync>(r#"{"t":"want"}"#).unwrap(), Sync::Want);
        let d: Delivery = serde_json::from_str(r#"{"push":true,"m":[]}"#).unwrap();
        assert!(d.push && d.m.is_empty() && d.seq == 0);
    }
}
