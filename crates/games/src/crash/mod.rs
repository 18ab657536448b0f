//! The multiplayer crash engine (docs/CRASH.md; client contract in docs/CASINO.md §2).
//!
//! * Rounds are driven by a SHA-256 hash chain generated in advance ([`chain`]); a round's
//!   hash and crash point are written to `crash_rounds` before the round opens, the round's
//!   start before the curve runs and its end before the crash is shown (persist before reveal).
//! * One task owns the round loop ([`engine`]): it takes every player command from one
//!   channel, so the state machine needs no locks; money moves in tasks it spawns, through the
//!   casino's provider wallet (provider `studio`, game `crash`) with deterministic transaction
//!   ids `crash:{round}:{user}:bet|win`, so every retry is idempotent.
//! * Events reach the WebSocket connections through one broadcast channel (pre-serialised
//!   JSON, one allocation per event whatever the number of players); replies to one player
//!   through that connection's own channel.
//! * A round interrupted by a restart is settled at the next start by the rule of
//!   [`recovery`] (docs/CRASH.md §Recovery).
//!
//! Several instances (PostgreSQL, ARCHITECTURE §7): `serve` calls [`CrashEngine::start`] only
//! while this instance holds the duty `crash` (crates/store/src/lease.rs) and
//! [`CrashEngine::stop`] when it loses or hands it over; the new owner's `start` recovers the
//! cut round and continues the chain after the highest stored number. The other instances
//! relay its events to their sockets and forward their players' commands to it ([`relay`]).

pub mod chain;
pub mod db;
mod engine;
pub mod recovery;
pub mod relay;

use crate::single::{limits, Limits};
use casino::{Casino, GameSession, STUDIO};
use wallet::BalanceKind;
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Db;
use tokio::sync::{broadcast, mpsc};
use utoipa::ToSchema;
use wallet::Ledger;

/// The game id of the crash game in the catalogue and in wallet calls.
pub const GAME_ID: &str = "crash";

/// Timings and chain parameters. Production: [`CrashConfig::default`] (5 s betting window,
/// a tick every 100 ms), overridable from the environment ([`CrashConfig::from_env`]).
#[derive(Debug, Clone)]
pub struct CrashConfig {
    /// Betting window (real ms).
    pub betting_ms: u64,
    /// Interval between ticks (real ms).
    pub tick_ms: u64,
    /// Pause between a crash and the next round's betting window (real ms).
    pub pause_ms: u64,
    /// The players list is sent at most this often (real ms).
    pub players_every_ms: u64,
    /// Curve milliseconds per real millisecond: 1 in production (the published formula);
    /// tests speed rounds up.
    pub speed: u64,
    /// Rounds in a new hash chain, and the distance between stored checkpoints.
    pub chain_length: u64,
    pub checkpoint_every: u64,
    /// The public salt of a new chain (a value fixed after its terminating hash was
    /// published, e.g. a future Bitcoin block hash). Random when not set.
    pub salt: Option<String>,
    /// Caps the per-bet max win below the currency's limit (tests, promotions).
    pub max_win_cap: Option<i64>,
}

impl Default for CrashConfig {
    fn default() -> Self {
        CrashConfig {
            betting_ms: 5_000,
            tick_ms: 100,
            pause_ms: 3_000,
            players_every_ms: 500,
            speed: 1,
            // Debug builds (tests, `cargo run`) start with a short chain: every test app
            // starts an engine, and walking 10^7 links would cost each seconds of CPU.
            chain_length: if cfg!(debug_assertions) { 100_000 } else { 10_000_000 },
            checkpoint_every: 10_000,
            salt: None,
            max_win_cap: None,
        }
    }
}

fn env_u64(key: &str) -> Option<u64> {
    std::env::var(key).ok().and_then(|v| v.trim().parse().ok())
}

impl CrashConfig {
    /// Defaults, with `CRASH_BETTING_MS`, `CRASH_TICK_MS`, `CRASH_PAUSE_MS`,
    /// `CRASH_CHAIN_LENGTH`, `CRASH_SALT`, `CRASH_MAX_WIN` (minor units) and `CRASH_SPEED` when set.
    /// `CRASH_SPEED` runs the curve that many times faster (the crash points, hence the odds, are
    /// unchanged; only the wall-clock length of a round shrinks): browser tests use it so that a
    /// long round cannot outlast a test's budget.
    pub fn from_env() -> CrashConfig {
        let d = CrashConfig::default();
        CrashConfig {
            betting_ms: env_u64("CRASH_BETTING_MS").unwrap_or(d.betting_ms).max(1),
            tick_ms: env_u64("CRASH_TICK_MS").unwrap_or(d.tick_ms).max(1),
            pause_ms: env_u64("CRASH_PAUSE_MS").unwrap_or(d.pause_ms),
            players_every_ms: d.players_every_ms,
            speed: env_u64("CRASH_SPEED").unwrap_or(d.speed).clamp(1, 1_000),
            chain_length: env_u64("CRASH_CHAIN_LENGTH").unwrap_or(d.chain_length).max(1),
            checkpoint_every: d.checkpoint_every,
            salt: std::env::var("CRASH_SALT").ok().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
            max_win_cap: env_u64("CRASH_MAX_WIN").map(|v| v as i64),
        }
    }

    /// Fast rounds for tests: 500 ms betting, 20 ms ticks, the curve 50× faster.
    pub fn for_tests() -> CrashConfig {
        CrashConfig {
            betting_ms: 500,
            tick_ms: 20,
            pause_ms: 30,
            players_every_ms: 50,
            speed: 50,
            chain_length: 2_000,
            checkpoint_every: 100,
            salt: Some("carthage-test-salt".into()),
            max_win_cap: None,
        }
    }

    /// The per-bet max win in a currency (minor units).
    pub fn max_win(&self, l: &Limits) -> i64 {
        match self.max_win_cap {
            Some(cap) => cap.min(l.max_win),
            None => l.max_win,
        }
    }
}

/// When a bet leaves the round by itself: at `auto` (the player's auto cash-out) or at the
/// first multiplier whose payout reaches the max win (forced). `(multiplier, forced)`.
pub fn target(amount: i64, auto: Option<u64>, max_win: i64) -> Option<(u64, bool)> {
    let force = if amount > 0 && max_win > 0 {
        // smallest m with floor(amount·m/100) >= max_win
        let m = (max_win as i128 * 100 + amount as i128 - 1) / amount as i128;
        Some((m.clamp(101, u64::MAX as i128)) as u64)
    } else {
        None
    };
    match (auto, force) {
        (Some(a), Some(f)) if f <= a => Some((f, true)),
        (Some(a), _) => Some((a, false)),
        (None, Some(f)) => Some((f, true)),
        (None, None) => None,
    }
}

/// The win of a cash-out at `m`: `studio::crash::payout`, capped at the max win.
pub fn win_at(amount: i64, m: u64, max_win: i64) -> i64 {
    studio::crash::payout(amount, m).min(max_win)
}

/// Provider transaction id of a player's stake or win in a round (idempotent retries).
pub fn tx_id(round_id: i64, user_id: i64, kind: &str) -> String {
    format!("crash:{round_id}:{user_id}:{kind}")
}

/// The name shown in the players list: the player id with its middle digits hidden.
pub fn mask_name(user_id: i64) -> String {
    let s = user_id.to_string();
    if s.len() <= 4 {
        return format!("{}**", &s[..1]);
    }
    format!("{}{}{}", &s[..2], "*".repeat(s.len() - 4), &s[s.len() - 2..])
}

/// `GET /api/studio/crash/fairness`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Fairness {
    /// c_N of the active chain (hex); SHA-256 of round 1's hash.
    pub terminating_hash: String,
    pub salt: String,
}

/// One ended round of `GET /api/studio/crash/rounds`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EndedRound {
    pub id: i64,
    /// The round's hash (hex): SHA-256 of it is the previous round's hash.
    pub hash: String,
    /// The crash point as a number with two decimals (2.37 = 2.37×).
    #[schema(value_type = f64)]
    pub crash_point: kernel::money::Fixed,
}

/// Figures of the last rounds (`/api/dev/crash/stats`, logs, the benchmark).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundStats {
    pub round_id: i64,
    pub crash_point: u64,
    pub bets: usize,
    pub refused_bets: usize,
    pub cash_outs: usize,
    pub ticks: usize,
    /// Server-side tick lateness (actual − scheduled), µs.
    pub tick_late_p50_us: u64,
    pub tick_late_p99_us: u64,
    pub tick_late_max_us: u64,
    /// From the end of the betting window to the start (bets still being staked).
    pub start_delay_ms: u64,
    /// From the crash to the last win paid and every bet settled.
    pub settle_ms: u64,
    /// From the crash to the last win paid (the money part of `settle_ms`).
    pub wins_paid_ms: u64,
    /// Of which: writing the round's end before the crash is shown (persist before reveal).
    pub end_write_ms: u64,
    pub settled: bool,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineStats {
    pub rounds: u64,
    pub recovered_rounds: u64,
    pub last: Vec<RoundStats>,
}

/// What one connected player is (shared by the connection and the round loop).
pub(crate) struct PlayerCtx {
    pub session: GameSession,
    pub name: String,
    pub limits: Limits,
    pub max_win: i64,
    pub out: mpsc::UnboundedSender<Arc<str>>,
    /// This process's id for the connection, and the game session's token: what a command
    /// relayed to the owner on another instance carries ([`relay`]).
    pub conn: u64,
    pub token: String,
}

pub(crate) enum Cmd {
    Bet { player: Arc<PlayerCtx>, request_id: Value, amount: i64, auto: Option<u64> },
    Cashout { player: Arc<PlayerCtx>, request_id: Value },
}

struct Inner {
    db: Db,
    ledger: Ledger,
    casino: Casino,
    config: Mutex<CrashConfig>,
    events: broadcast::Sender<Arc<str>>,
    /// The message that describes the current phase (round / start / crash) and the last
    /// players list, for players who connect mid-round.
    phase: Mutex<Option<Value>>,
    players: Mutex<Option<Arc<str>>>,
    fairness: Mutex<Option<Fairness>>,
    cmd: Mutex<Option<mpsc::Sender<Cmd>>>,
    task: tokio::sync::Mutex<Option<tokio::task::AbortHandle>>,
    stats: Mutex<EngineStats>,
    /// Between instances ([`relay`]): the bus, this instance's sockets by connection id,
    /// and the commands relayed to the owner that wait for its answer.
    bus: std::sync::OnceLock<store::bus::Bus>,
    conns: Mutex<HashMap<u64, mpsc::UnboundedSender<Arc<str>>>>,
    waiting: Mutex<Vec<(u64, Value, std::time::Instant)>>,
    next_conn: AtomicU64,
    /// A graceful stop asked the loop to open no new round ([`CrashEngine::drain`]); it says
    /// when the round in play is settled.
    draining: std::sync::atomic::AtomicBool,
    drained: tokio::sync::Notify,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The crash game: cheap to clone; one per process.
#[derive(Clone)]
pub struct CrashEngine {
    inner: Arc<Inner>,
}

impl CrashEngine {
    pub fn new(db: Db, ledger: Ledger, casino: Casino, config: CrashConfig) -> CrashEngine {
        let (events, _) = broadcast::channel(4096);
        CrashEngine {
            inner: Arc::new(Inner {
                db,
                ledger,
                casino,
                config: Mutex::new(config),
                events,
                phase: Mutex::new(None),
                players: Mutex::new(None),
                fairness: Mutex::new(None),
                cmd: Mutex::new(None),
                task: tokio::sync::Mutex::new(None),
                stats: Mutex::new(EngineStats::default()),
                bus: std::sync::OnceLock::new(),
                conns: Mutex::new(HashMap::new()),
                waiting: Mutex::new(Vec::new()),
                next_conn: AtomicU64::new(1),
                draining: std::sync::atomic::AtomicBool::new(false),
                drained: tokio::sync::Notify::new(),
            }),
        }
    }

    pub fn config(&self) -> CrashConfig {
        lock(&self.inner.config).clone()
    }

    /// Starts the round loop (recovery first). Does nothing when it already runs.
    pub async fn start(&self) {
        let mut task = self.inner.task.lock().await;
        if task.as_ref().is_some_and(|t| !t.is_finished()) {
            return;
        }
        let (tx, rx) = mpsc::channel(65_536);
        self.inner.draining.store(false, Ordering::SeqCst);
        *lock(&self.inner.cmd) = Some(tx);
        let engine = self.clone();
        let main = tokio::runtime::Handle::current();
        // The loop gets its own thread and runtime (tick timing independent of the load on
        // the server's runtime); it hands its task handle back so `stop` can abort it.
        let (handle_tx, handle_rx) = tokio::sync::oneshot::channel();
        let spawned = std::thread::Builder::new().name("crash-loop".into()).spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => {
                    tracing::error!(error = %e, "crash: cannot build the loop's runtime");
                    return;
                }
            };
            let t = rt.spawn(engine::run(engine, rx, main));
            let abort = t.abort_handle();
            let _ = handle_tx.send(abort);
            let _ = rt.block_on(t);
        });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "crash: cannot start the loop thread");
            return;
        }
        *task = handle_rx.await.ok();
    }

    /// Stops the loop at once, as a crash of the process would: nothing is settled (the
    /// next [`start`](Self::start) recovers the round). Postings already handed to the
    /// ledger get a moment to land, as they would before a process exit.
    pub async fn stop(&self) {
        *lock(&self.inner.cmd) = None;
        let task = self.inner.task.lock().await.take();
        if let Some(task) = task {
            tracing::info!("crash: stopping the engine");
            task.abort();
            while !task.is_finished() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
        *lock(&self.inner.phase) = None;
    }

    /// A graceful stop (SIGTERM, a rolling restart): the round in play runs to its crash and
    /// is settled, no new round opens, then the loop stops — so no round is cut. Waits at
    /// most `limit` (a longer round is then cut and settled by the next owner's recovery, as
    /// after a crash). Returns whether the round ended in time.
    pub async fn drain(&self, limit: Duration) -> bool {
        if lock(&self.inner.cmd).is_none() {
            return true;
        }
        if limit.is_zero() {
            self.stop().await;
            return false;
        }
        let drained = self.inner.drained.notified();
        tokio::pin!(drained);
        drained.as_mut().enable();
        self.inner.draining.store(true, Ordering::SeqCst);
        let done = tokio::time::timeout(limit, drained).await.is_ok();
        tracing::info!(in_time = done, "crash: drained for a graceful stop");
        self.stop().await;
        done
    }

    /// Sets the configuration the next [`start`](Self::start) uses (a running loop keeps
    /// its own): an instance standing by for the crash duty starts with it on take-over.
    pub fn set_config(&self, config: CrashConfig) {
        *lock(&self.inner.config) = config;
    }

    /// Stops the loop and starts it again with another configuration.
    pub async fn restart(&self, config: CrashConfig) {
        // The configuration first: a concurrent `start` (the server's) uses it too.
        *lock(&self.inner.config) = config;
        self.stop().await;
        self.start().await;
    }

    pub fn stats(&self) -> EngineStats {
        lock(&self.inner.stats).clone()
    }

    /// The active chain's public values (the loop creates the chain at its first start).
    pub async fn fairness(&self) -> Result<Fairness, AppError> {
        if let Some(f) = lock(&self.inner.fairness).clone() {
            return Ok(f);
        }
        match chain::load_active(&self.inner.db).await? {
            Some(c) => Ok(Fairness { terminating_hash: studio::fair::hex32(&c.terminating_hash), salt: c.salt }),
            None => Err(AppError::with_detail(ErrorCode::NotFound, "the crash game has not started yet")),
        }
    }

    /// Ended rounds, newest first (`limit` clamped to 1..=100).
    pub async fn rounds(&self, limit: i64) -> Result<Vec<EndedRound>, AppError> {
        let rows = db::history(&self.inner.db, limit.clamp(1, 100)).await?;
        Ok(rows
            .into_iter()
            .map(|(id, hash, cp)| EndedRound { id, hash, crash_point: kernel::money::Fixed::new(cp, 2) })
            .collect())
    }

    /// A player's last crash bets, newest first (`GET /api/studio/rounds` for game `crash`):
    /// `{roundId, time, bet, win, cashedOutAt, status, crashPoint, hash}`; `crashPoint` and
    /// `hash` are null while the round is not over. `status`: placing, open, cashed, lost,
    /// refunded. `limit` clamped to 1..=100.
    pub async fn player_rounds(&self, user_id: i64, limit: i64) -> Result<Vec<Value>, AppError> {
        db::player_history(&self.inner.db, user_id, limit.clamp(1, 100)).await
    }

    /// One round of the player (`None`: no bet of theirs in it).
    pub async fn player_round(&self, user_id: i64, round_id: i64) -> Result<Option<Value>, AppError> {
        db::player_round(&self.inner.db, user_id, round_id).await
    }

    /// A WebSocket player: the game session must be live, of provider `studio` and game
    /// `crash` (63 otherwise).
    pub async fn connect(&self, token: &str) -> Result<CrashPlayer, AppError> {
        let session = self.inner.casino.sessions().live(token).await?;
        if session.provider != STUDIO || session.game_id != GAME_ID {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        // The session is resolved: its player's balance is one read (the wallet's `balance`
        // call would look the session up again).
        let balance = self.inner.ledger.balance(session.user_id, BalanceKind::Real, session.currency).await?;
        let limits = limits(session.currency);
        let max_win = self.config().max_win(&limits);
        let (out, direct) = mpsc::unbounded_channel();
        // Subscribe before reading the snapshot: nothing falls between the two.
        let events = self.inner.events.subscribe();
        let now = now_ms();
        let mut initial: Vec<Arc<str>> = vec![json!({
            "type": "hello", "playerId": session.user_id, "currency": session.currency.code(),
            "exponent": session.currency.exponent(), "balance": balance, "minBet": limits.min_bet,
            "maxBet": limits.max_bet, "maxWin": max_win, "serverTime": now,
        })
        .to_string()
        .into()];
        if let Some(mut phase) = lock(&self.inner.phase).clone() {
            phase["serverTime"] = json!(now);
            initial.push(phase.to_string().into());
        }
        if let Some(players) = lock(&self.inner.players).clone() {
            initial.push(players);
        }
        let conn = self.inner.next_conn.fetch_add(1, Ordering::Relaxed);
        if self.shared_bus().is_some() {
            lock(&self.inner.conns).insert(conn, out.clone());
        }
        let ctx = Arc::new(PlayerCtx { name: mask_name(session.user_id), session, limits, max_win, out, conn, token: token.to_string() });
        Ok(CrashPlayer { engine: self.clone(), ctx, events, direct, initial })
    }

    /// A command of a local socket: to the loop when it runs here, else to the owner.
    fn send_cmd(&self, cmd: Cmd) -> Result<(), AppError> {
        let tx = lock(&self.inner.cmd).clone();
        match tx {
            Some(_) => self.send_local(cmd),
            None => self.forward(cmd),
        }
    }

    /// A command to this instance's loop.
    fn send_local(&self, cmd: Cmd) -> Result<(), AppError> {
        let tx = lock(&self.inner.cmd).clone();
        match tx {
            Some(tx) => tx.try_send(cmd).map_err(|_| AppError::with_detail(ErrorCode::Internal, "the crash game is busy; try again")),
            None => Err(AppError::with_detail(ErrorCode::Internal, "the crash game is not running")),
        }
    }
}

/// One WebSocket player: the messages to send first, then [`CrashPlayer::next`] until the
/// socket closes; every text frame goes to [`CrashPlayer::handle`].
pub struct CrashPlayer {
    engine: CrashEngine,
    ctx: Arc<PlayerCtx>,
    events: broadcast::Receiver<Arc<str>>,
    direct: mpsc::UnboundedReceiver<Arc<str>>,
    initial: Vec<Arc<str>>,
}

impl Drop for CrashPlayer {
    fn drop(&mut self) {
        if self.engine.shared_bus().is_some() {
            self.engine.forget(self.ctx.conn);
        }
    }
}

/// Largest client frame we read (a bet is ~80 bytes).
pub const MAX_FRAME: usize = 4_096;

pub(crate) fn error_msg(request_id: &Value, e: &AppError) -> Arc<str> {
    json!({ "type": "error", "requestId": request_id, "status": e.code.code(), "message": e.text() }).to_string().into()
}

impl CrashPlayer {
    pub fn user_id(&self) -> i64 {
        self.ctx.session.user_id
    }

    /// `hello`, the current phase and the last players list.
    pub fn initial(&mut self) -> Vec<Arc<str>> {
        std::mem::take(&mut self.initial)
    }

    /// The next message for this player (its own replies first); `None` when the engine is gone.
    pub async fn next(&mut self) -> Option<Arc<str>> {
        loop {
            tokio::select! {
                biased;
                m = self.direct.recv() => return m,
                e = self.events.recv() => match e {
                    Ok(m) => return Some(m),
                    // A slow client misses ticks rather than slowing everyone down.
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
            }
        }
    }

    /// A client frame. Anything malformed is answered `{"type":"error","status":40}`.
    pub fn handle(&self, text: &str) {
        let reply_err = |rid: &Value, e: AppError| {
            let _ = self.ctx.out.send(error_msg(rid, &e));
        };
        if text.len() > MAX_FRAME {
            return reply_err(&Value::Null, AppError::with_detail(ErrorCode::BadRequest, "the message is too large"));
        }
        let v: Value = match serde_json::from_str(text) {
            Ok(v @ Value::Object(_)) => v,
            _ => return reply_err(&Value::Null, AppError::with_detail(ErrorCode::BadRequest, "the message is not a JSON object")),
        };
        let rid = match v.get("requestId") {
            None | Some(Value::Null) => Value::Null,
            Some(r @ Value::String(s)) if s.len() <= 64 => r.clone(),
            Some(r @ Value::Number(_)) => r.clone(),
            Some(_) => return reply_err(&Value::Null, AppError::with_detail(ErrorCode::BadRequest, "requestId must be a string of at most 64 characters or a number")),
        };
        let cmd = match v.get("type").and_then(Value::as_str) {
            Some("bet") => {
                let amount = match v.get("amount").and_then(Value::as_i64) {
                    Some(a) => a,
                    None => return reply_err(&rid, AppError::with_detail(ErrorCode::BadRequest, "amount must be an integer (minor units)")),
                };
                let auto = match v.get("autoCashOut") {
                    None | Some(Value::Null) => None,
                    Some(a) => match a.as_u64() {
                        Some(a) if a >= 101 && a <= 100_000_000 => Some(a),
                        Some(_) => return reply_err(&rid, AppError::with_detail(ErrorCode::InvalidBet, "autoCashOut must be at least 101 (1.01x)")),
                        None => return reply_err(&rid, AppError::with_detail(ErrorCode::BadRequest, "autoCashOut must be an integer in hundredths or null")),
                    },
                };
                Cmd::Bet { player: self.ctx.clone(), request_id: rid.clone(), amount, auto }
            }
            Some("cashout") => Cmd::Cashout { player: self.ctx.clone(), request_id: rid.clone() },
            _ => return reply_err(&rid, AppError::with_detail(ErrorCode::BadRequest, "type must be bet or cashout")),
        };
        if let Err(e) = self.engine.send_cmd(cmd) {
            reply_err(&rid, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_and_forced_cash_outs() {
        // max win 1500 on a bet of 1000: forced at 1.50x
        assert_eq!(target(1000, None, 1500), Some((150, true)));
        assert_eq!(target(1000, Some(140), 1500), Some((140, false)));
        assert_eq!(target(1000, Some(150), 1500), Some((150, true)));
        assert_eq!(target(1000, Some(200), 1500), Some((150, true)));
        // 333 * m / 100 >= 1000 -> m = 301 (333*301/100 = 1002.33)
        assert_eq!(target(333, None, 1000), Some((301, true)));
        assert!(studio::crash::payout(333, 300) < 1000);
        assert_eq!(win_at(333, 301, 1000), 1000);
        assert_eq!(win_at(1000, 157, 1_000_000), 1570);
        // never below 1.01x
        assert_eq!(target(10_000, None, 100), Some((101, true)));
    }

    #[test]
    fn names_are_masked() {
        assert_eq!(mask_name(12345678), "12****78");
        assert_eq!(mask_name(7), "7**");
    }
}
