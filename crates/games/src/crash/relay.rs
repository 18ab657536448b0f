//! The crash game on every instance (ARCHITECTURE §7; docs/CRASH.md "Several instances").
//!
//! The round loop runs in one instance, the holder of the duty `crash`. Its events (round,
//! start, ticks, players, crash) go to its own sockets and, through the bus
//! ([`bus::CRASH_EVENTS`]), to every other instance, which sends them to its sockets as they
//! are and keeps the last phase and players list for players who connect mid-round.
//!
//! A player connected to another instance sends its bet or cash-out there; that instance
//! forwards it ([`bus::CRASH_COMMANDS`]: the connection's id, the game session's token and
//! the command). The owner checks the session as it would for its own socket (live, studio,
//! crash), keeps one context per remote connection, and runs the command through the same
//! channel as its own players'. What the loop sends to that player (accepted, cashed out,
//! an error) goes back on [`bus::CRASH_REPLIES`] to the connection's instance. Money moves
//! only in the owner, with the same transaction ids (`crash:{round}:{user}:bet|win`): a
//! command relayed twice is still one bet.
//!
//! When the owner changes (its instance died or was stopped), the new owner's loop recovers
//! the cut round and opens the next; sockets on every other instance stay open and receive
//! its events. A command sent while no instance owns the game is answered "the game is
//! restarting" by the connection's instance after [`NO_OWNER_AFTER`].

use super::{error_msg, lock, CrashEngine, PlayerCtx, Cmd, GAME_ID};
use casino::STUDIO;
use kernel::{AppError, ErrorCode};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::bus::{self, BusEvent};
use tokio::sync::mpsc;

/// A relayed command not answered within this gets "the game is restarting".
pub const NO_OWNER_AFTER: Duration = Duration::from_secs(8);
/// A remote connection's context is dropped after this long without a command.
const REMOTE_IDLE: Duration = Duration::from_secs(3_600);

/// A command as relayed to the owner.
fn command_body(player: &PlayerCtx, cmd: &Cmd) -> String {
    match cmd {
        Cmd::Bet { request_id, amount, auto, .. } => json!({
            "c": player.conn, "tok": player.token, "type": "bet", "rid": request_id, "amount": amount, "auto": auto,
        }),
        Cmd::Cashout { request_id, .. } => json!({ "c": player.conn, "tok": player.token, "type": "cashout", "rid": request_id }),
    }
    .to_string()
}

/// The remote players the owner knows: `(instance, connection)` → context.
#[derive(Default)]
pub(crate) struct Remotes {
    players: HashMap<(Arc<str>, u64), (Arc<PlayerCtx>, Instant)>,
}

impl CrashEngine {
    /// The bus, when it leaves the process.
    pub(crate) fn shared_bus(&self) -> Option<&store::bus::Bus> {
        self.inner.bus.get().filter(|b| b.shared())
    }

    /// Uses `bus` to relay events and commands between instances (once; [`Self::run_relay`]
    /// must run for it to have an effect).
    pub fn set_bus(&self, bus: store::bus::Bus) {
        let _ = self.inner.bus.set(bus);
    }

    /// Sends an event of this instance's loop to its sockets and to the other instances.
    pub(crate) fn emit(&self, text: Arc<str>) {
        if let Some(bus) = self.shared_bus() {
            bus.publish(bus::CRASH_EVENTS, text.to_string());
        }
        let _ = self.inner.events.send(text);
    }

    /// Forwards a command of a local socket to the owner (no loop here).
    pub(crate) fn forward(&self, cmd: Cmd) -> Result<(), AppError> {
        let Some(bus) = self.shared_bus() else {
            return Err(AppError::with_detail(ErrorCode::Internal, "the crash game is not running"));
        };
        let (player, request_id) = match &cmd {
            Cmd::Bet { player, request_id, .. } | Cmd::Cashout { player, request_id, .. } => (player.clone(), request_id.clone()),
        };
        bus.publish(bus::CRASH_COMMANDS, command_body(&player, &cmd));
        lock(&self.inner.waiting).push((player.conn, request_id, Instant::now()));
        Ok(())
    }

    /// Tells the owner a relayed connection closed.
    pub(crate) fn forget(&self, conn: u64) {
        lock(&self.inner.conns).remove(&conn);
        if let Some(bus) = self.shared_bus() {
            bus.publish(bus::CRASH_COMMANDS, json!({ "c": conn, "type": "bye" }).to_string());
        }
    }

    fn running_here(&self) -> bool {
        lock(&self.inner.cmd).is_some()
    }

    /// Every instance, while the process runs (when the bus leaves the process): relays the
    /// owner's events to this instance's sockets, runs relayed commands when the loop is
    /// here, and hands the owner's replies to this instance's sockets.
    pub async fn run_relay(self) {
        let Some(bus) = self.shared_bus().cloned() else { return };
        let mut events = bus.subscribe(bus::CRASH_EVENTS);
        let mut commands = bus.subscribe(bus::CRASH_COMMANDS);
        let mut replies = bus.subscribe(bus::CRASH_REPLIES);
        let mut remotes = Remotes::default();
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        let mut last_prune = Instant::now();
        loop {
            tokio::select! {
                e = events.recv() => match e {
                    Ok(BusEvent::Message(m)) if !m.own && !self.running_here() => self.relay_event(m.body),
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
                e = commands.recv() => match e {
                    Ok(BusEvent::Message(m)) => {
                        if self.running_here() {
                            self.run_command(&bus, &mut remotes, m.origin, &m.body).await;
                        } else {
                            // The loop moved away: contexts built for it are stale.
                            remotes.players.clear();
                        }
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
                e = replies.recv() => match e {
                    Ok(BusEvent::Message(m)) => self.deliver_reply(&bus, &m.body),
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                },
                _ = tick.tick() => {
                    self.expire_waiting();
                    if last_prune.elapsed() > Duration::from_secs(60) {
                        remotes.players.retain(|_, (_, used)| used.elapsed() < REMOTE_IDLE);
                        last_prune = Instant::now();
                    }
                }
            }
        }
    }

    /// An event of the owner: this instance's sockets get it; the phase and players list
    /// are kept for players who connect now.
    fn relay_event(&self, body: Arc<str>) {
        if let Ok(v) = serde_json::from_str::<Value>(&body) {
            match v.get("type").and_then(Value::as_str) {
                Some("round") => {
                    *lock(&self.inner.phase) = Some(v);
                    *lock(&self.inner.players) = None;
                }
                Some("start") | Some("crash") => *lock(&self.inner.phase) = Some(v),
                Some("players") => *lock(&self.inner.players) = Some(body.clone()),
                _ => {}
            }
        }
        let _ = self.inner.events.send(body);
    }

    async fn run_command(&self, bus: &store::bus::Bus, remotes: &mut Remotes, origin: Arc<str>, body: &str) {
        let Ok(v) = serde_json::from_str::<Value>(body) else { return };
        let Some(conn) = v.get("c").and_then(Value::as_u64) else { return };
        let key = (origin.clone(), conn);
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "bye" {
            remotes.players.remove(&key);
            return;
        }
        let rid = v.get("rid").cloned().unwrap_or(Value::Null);
        let reply = |text: Arc<str>| {
            bus.publish(bus::CRASH_REPLIES, json!({ "to": &*origin, "c": conn, "m": &*text }).to_string());
        };
        let player = match remotes.players.get_mut(&key) {
            Some((p, used)) => {
                *used = Instant::now();
                p.clone()
            }
            None => {
                let token = v.get("tok").and_then(Value::as_str).unwrap_or("");
                match self.remote_player(bus, &origin, conn, token).await {
                    Ok(p) => {
                        remotes.players.insert(key, (p.clone(), Instant::now()));
                        p
                    }
                    Err(e) => return reply(error_msg(&rid, &e)),
                }
            }
        };
        let cmd = match kind {
            "bet" => {
                let Some(amount) = v.get("amount").and_then(Value::as_i64) else { return };
                let auto = v.get("auto").and_then(Value::as_u64);
                Cmd::Bet { player, request_id: rid.clone(), amount, auto }
            }
            "cashout" => Cmd::Cashout { player, request_id: rid.clone() },
            _ => return,
        };
        if let Err(e) = self.send_local(cmd) {
            reply(error_msg(&rid, &e));
        }
    }

    /// The context of a player of another instance: the session checked as at a connect;
    /// what the loop sends it goes back through the bus.
    async fn remote_player(&self, bus: &store::bus::Bus, origin: &Arc<str>, conn: u64, token: &str) -> Result<Arc<PlayerCtx>, AppError> {
        let session = self.inner.casino.sessions().live(token).await?;
        if session.provider != STUDIO || session.game_id != GAME_ID {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        let limits = crate::single::limits(session.currency);
        let max_win = self.config().max_win(&limits);
        let (out, mut rx) = mpsc::unbounded_channel::<Arc<str>>();
        let (bus, to) = (bus.clone(), origin.clone());
        tokio::spawn(async move {
            while let Some(text) = rx.recv().await {
                bus.publish(bus::CRASH_REPLIES, json!({ "to": &*to, "c": conn, "m": &*text }).to_string());
            }
        });
        Ok(Arc::new(PlayerCtx {
            name: super::mask_name(session.user_id),
            session,
            limits,
            max_win,
            out,
            conn,
            token: token.to_string(),
        }))
    }

    /// A reply of the owner to one of this instance's sockets.
    fn deliver_reply(&self, bus: &store::bus::Bus, body: &str) {
        let Ok(v) = serde_json::from_str::<Value>(body) else { return };
        if v.get("to").and_then(Value::as_str) != Some(bus.origin()) {
            return;
        }
        let (Some(conn), Some(text)) = (v.get("c").and_then(Value::as_u64), v.get("m").and_then(Value::as_str)) else { return };
        // The command is answered: it no longer waits for an owner.
        let rid = serde_json::from_str::<Value>(text).ok().and_then(|m| m.get("requestId").cloned()).unwrap_or(Value::Null);
        lock(&self.inner.waiting).retain(|(c, r, _)| !(*c == conn && *r == rid));
        if let Some(out) = lock(&self.inner.conns).get(&conn) {
            let _ = out.send(text.into());
        }
    }

    /// Relayed commands nobody answered (no owner during a hand-over): the player is told.
    fn expire_waiting(&self) {
        let expired: Vec<(u64, Value)> = {
            let mut waiting = lock(&self.inner.waiting);
            let (old, keep): (Vec<_>, Vec<_>) = waiting.drain(..).partition(|(_, _, at)| at.elapsed() >= NO_OWNER_AFTER);
            *waiting = keep;
            old.into_iter().map(|(c, r, _)| (c, r)).collect()
        };
        for (conn, rid) in expired {
            if let Some(out) = lock(&self.inner.conns).get(&conn) {
                let e = AppError::with_detail(ErrorCode::BettingClosed, "the game is restarting");
                let _ = out.send(error_msg(&rid, &e));
            }
        }
    }
}
