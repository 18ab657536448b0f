//! The round loop: one task, one command channel, the state machine
//! betting → (closing: stakes in flight) → running → ended → settled → next round.

use super::db::{self, BetRow, Op, Persister};
use super::{chain, error_msg, lock, recovery, target, tx_id, win_at, Cmd, CrashEngine, Fairness, PlayerCtx, RoundStats, GAME_ID};
use casino::{RollbackCall, WalletCall, WalletReply, STUDIO};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{AppError, ErrorCode};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use studio::crash::{crash_point, multiplier_at, time_to_reach};
use studio::fair::hex32;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::runtime::Handle;
use tokio::time::Instant;

struct AbortOnDrop(tokio::task::JoinHandle<()>);
impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs `fut` on the server's runtime (where the database pools live) and waits for it.
async fn on_main<T: Send + 'static>(main: &Handle, fut: impl std::future::Future<Output = T> + Send + 'static) -> T {
    match main.spawn(fut).await {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// The in-process wallet call of a player's stake or win in a round (`kind`: bet, win).
fn wallet_call(round_id: i64, s: &casino::GameSession, kind: &str, amount: i64) -> WalletCall {
    WalletCall {
        session_token: String::new(),
        transaction_id: tx_id(round_id, s.user_id, kind),
        round_id: round_id.to_string(),
        game_id: GAME_ID.into(),
        amount,
        currency: s.currency.code().into(),
    }
}

/// A batch of stakes (`players`: who, how much, the request id): the rows (with the auto
/// cash-outs) are committed while the sessions are re-read (ended or banned since the
/// connection: refused), then one wallet call stakes them all; a stake whose outcome is
/// unknown (code 1000) is rolled back at once so it can never land later.
async fn stake_batch(
    persister: Persister,
    casino: casino::Casino,
    round_id: i64,
    rows: Vec<BetRow>,
    players: Vec<(Arc<PlayerCtx>, i64, Value)>,
) -> Done {
    let ids: Vec<i64> = players.iter().map(|(p, _, _)| p.session.id).collect();
    // The rows must exist before any stake can land; the session read can run alongside.
    let (written, current) = tokio::join!(persister.write(Op::InsertBets(rows)), casino.sessions().by_ids(&ids));
    let results: Vec<Result<WalletReply, AppError>> = match written.and(current) {
        Err(e) => players.iter().map(|_| Err(e.clone())).collect(),
        Ok(current) => {
            let mut results: Vec<Result<WalletReply, AppError>> =
                players.iter().map(|_| Err(AppError::new(ErrorCode::GameSessionInvalid))).collect();
            let mut items = Vec::with_capacity(players.len());
            let mut at = Vec::with_capacity(players.len());
            for (k, (p, amount, _)) in players.iter().enumerate() {
                if let Some(s) = current.get(&p.session.id) {
                    items.push((s.clone(), wallet_call(round_id, s, "bet", *amount)));
                    at.push(k);
                }
            }
            let wallet = casino.wallet();
            for (k, r) in at.into_iter().zip(wallet.bet_many(STUDIO, items).await) {
                if r.as_ref().is_err_and(|e| e.code == ErrorCode::Internal) {
                    // Unknown outcome: make sure the stake never lands (or give it back).
                    let session = &players[k].0.session;
                    let user_id = session.user_id;
                    let rb = RollbackCall {
                        session_token: String::new(),
                        transaction_id: tx_id(round_id, user_id, "bet:rollback"),
                        reference_transaction_id: tx_id(round_id, user_id, "bet"),
                        round_id: round_id.to_string(),
                        game_id: GAME_ID.into(),
                    };
                    if let Err(e2) = wallet.rollback_with(STUDIO, session, &rb).await {
                        tracing::error!(error = %e2.text(), round = round_id, user = user_id, "crash: rollback of a failed stake failed (recovery will retry)");
                    }
                }
                results[k] = r;
            }
            results
        }
    };
    Done::Bets(players.into_iter().zip(results).map(|((p, _, rid), r)| (p.session.user_id, rid, r)).collect())
}

/// The loop runs on its own thread (a current-thread runtime) so that its timer is not queued
/// behind thousands of WebSocket tasks; database work and money tasks run on `main`.
pub(super) async fn run(engine: CrashEngine, mut rx: mpsc::Receiver<Cmd>, main: Handle) {
    let inner = engine.inner.clone();
    let (persister, handle) = Persister::spawn(inner.db.clone(), inner.db.write_tasks());
    let _persister = AbortOnDrop(handle);
    let config = engine.config();
    tracing::info!(betting_ms = config.betting_ms, tick_ms = config.tick_ms, speed = config.speed, "crash: engine starting");
    // Recovery first: nothing new starts before every interrupted round is settled.
    loop {
        let (db, ledger, casino, cfg) = (inner.db.clone(), inner.ledger.clone(), inner.casino.clone(), config.clone());
        match on_main(&main, async move { recovery::recover(&db, &ledger, &casino, &cfg).await }).await {
            Ok(n) => {
                lock(&inner.stats).recovered_rounds += n as u64;
                break;
            }
            Err(e) => {
                tracing::error!(error = %e.text(), "crash: recovery failed; retrying in 1 s");
                refuse_all(&mut rx, Duration::from_secs(1)).await;
            }
        }
    }
    let mut game = Game {
        main: main.clone(),
        money: inner.db.write_tasks().clone(),
        engine: engine.clone(),
        config,
        persister,
        tasks: JoinSet::new(),
        bets: HashMap::new(),
        pending_bets: 0,
        pending_wins: 0,
        failed_wins: 0,
        stake_queue: Vec::new(),
        stake_due: None,
        win_queue: Vec::new(),
        win_due: None,
        players_dirty: false,
        round: None,
    };
    loop {
        // A graceful stop: the last round is settled; open no other (the next owner does).
        if inner.draining.load(std::sync::atomic::Ordering::SeqCst) {
            while game.tasks.join_next().await.is_some() {}
            inner.drained.notify_one();
            refuse_all(&mut rx, Duration::from_secs(3_600)).await;
            continue;
        }
        if let Err(e) = game.play_round(&mut rx).await {
            tracing::error!(error = %e.text(), "crash: round failed; the next start recovers it");
            // Stop taking bets on a round we could not persist; try again shortly.
            game.bets.clear();
            game.stake_queue.clear();
            game.win_queue.clear();
            game.stake_due = None;
            game.win_due = None;
            refuse_all(&mut rx, Duration::from_secs(1)).await;
            // Settle what the failed round left through the recovery rule.
            while let Some(_) = game.tasks.join_next().await {}
            game.pending_bets = 0;
            game.pending_wins = 0;
            let (db, ledger, casino, cfg) = (inner.db.clone(), inner.ledger.clone(), inner.casino.clone(), game.config.clone());
            if let Err(e) = on_main(&main, async move { recovery::recover(&db, &ledger, &casino, &cfg).await }).await {
                tracing::error!(error = %e.text(), "crash: recovery after a failed round failed");
            }
        }
    }
}

/// Answers every command with an error for `d` (the engine cannot take bets now).
async fn refuse_all(rx: &mut mpsc::Receiver<Cmd>, d: Duration) {
    let until = Instant::now() + d;
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(until) => return,
            Some(cmd) = rx.recv() => {
                let (p, rid) = match cmd { Cmd::Bet { player, request_id, .. } | Cmd::Cashout { player, request_id } => (player, request_id) };
                let _ = p.out.send(error_msg(&rid, &AppError::with_detail(ErrorCode::BettingClosed, "the game is restarting")));
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Betting,
    Closing,
    Running,
    Ended,
}

struct Round {
    id: i64,
    crash_point: u64,
    hash: String,
    phase: Phase,
    betting_ends: Instant,
    started: Instant,
    /// Real ms from the start to the crash.
    crash_after: Duration,
    stats: RoundStats,
    lateness_us: Vec<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BetState {
    Placing,
    Open,
    Cashed { m: u64, win: i64 },
}

struct Bet {
    player: Arc<PlayerCtx>,
    amount: i64,
    auto: Option<u64>,
    state: BetState,
}

enum Done {
    /// The answers of a batch of stakes: `(user, request id, result)`.
    Bets(Vec<(i64, Value, Result<WalletReply, AppError>)>),
    Wins { paid: usize, failed: usize },
}

/// A cash-out waiting to be paid with the next batch.
struct PendingWin {
    player: Arc<PlayerCtx>,
    m: u64,
    win: i64,
    forced: bool,
    request_id: Value,
}

/// Stakes and wins go to the wallet in batches (one ledger operation each): a batch leaves
/// when it holds [`BATCH_MAX`] or when its first item has waited [`BATCH_WAIT`], and at once
/// when the window closes or the round crashes.
const BATCH_MAX: usize = 256;
const BATCH_WAIT: Duration = Duration::from_millis(20);

struct Game {
    main: Handle,
    /// Where the money tasks run: the database's write-path runtime (`Db::write_tasks`).
    money: Handle,
    engine: CrashEngine,
    config: super::CrashConfig,
    persister: Persister,
    tasks: JoinSet<Done>,
    bets: HashMap<i64, Bet>,
    pending_bets: usize,
    pending_wins: usize,
    failed_wins: usize,
    /// Accepted bets whose stake has not been sent yet: `(user, request id)`.
    stake_queue: Vec<(i64, Value)>,
    stake_due: Option<Instant>,
    win_queue: Vec<PendingWin>,
    win_due: Option<Instant>,
    players_dirty: bool,
    round: Option<Round>,
}

impl Game {
    fn broadcast(&self, msg: &Value) {
        let text: Arc<str> = msg.to_string().into();
        self.engine.emit(text);
    }

    fn set_phase(&self, msg: &Value) {
        *lock(&self.engine.inner.phase) = Some(msg.clone());
        self.broadcast(msg);
    }

    async fn chain(&self) -> Result<(chain::Chain, i64), AppError> {
        let db = self.engine.inner.db.clone();
        let config = self.config.clone();
        on_main(&self.main, async move { Self::chain_on(&db, &config).await }).await
    }

    async fn chain_on(db: &store::Db, config: &super::CrashConfig) -> Result<(chain::Chain, i64), AppError> {
        let chain = match chain::load_active(db).await? {
            Some(c) => c,
            None => chain::create(db, config.chain_length, config.checkpoint_every, config.salt.clone()).await?,
        };
        let next = db::last_number(db, chain.id).await? + 1;
        if next as u64 > chain.length {
            let c = chain::create(db, config.chain_length, config.checkpoint_every, config.salt.clone()).await?;
            return Ok((c, 1));
        }
        Ok((chain, next))
    }

    async fn play_round(&mut self, rx: &mut mpsc::Receiver<Cmd>) -> Result<(), AppError> {
        let (chain, number) = self.chain().await?;
        *lock(&self.engine.inner.fairness) =
            Some(Fairness { terminating_hash: hex32(&chain.terminating_hash), salt: chain.salt.clone() });
        let hash = chain.round_hash(number as u64).ok_or_else(|| AppError::internal("crash: round outside the chain"))?;
        let cp = crash_point(&hash, &chain.salt);
        let id = next_id();
        let betting_ends_at = now_ms() + self.config.betting_ms as i64;
        // Persist before reveal: the round, its hash and its crash point exist before it opens.
        self.persister
            .write(Op::NewRound { id, chain_id: chain.id, number, hash: hex32(&hash), crash_point: cp as i64, betting_ends_at })
            .await?;
        let now = Instant::now();
        self.bets.clear();
        self.round = Some(Round {
            id,
            crash_point: cp,
            hash: hex32(&hash),
            phase: Phase::Betting,
            betting_ends: now + Duration::from_millis(self.config.betting_ms),
            started: now,
            crash_after: Duration::ZERO,
            stats: RoundStats { round_id: id, crash_point: cp, ..Default::default() },
            lateness_us: Vec::new(),
        });
        self.set_phase(&json!({ "type": "round", "id": id, "phase": "betting", "bettingEndsAt": betting_ends_at, "serverTime": now_ms() }));
        *lock(&self.engine.inner.players) = None;
        self.players_dirty = true;

        // ---- betting window, then closing (stakes in flight finish)
        let mut next_players = Instant::now();
        loop {
            let r = self.round.as_ref().unwrap();
            if r.phase == Phase::Betting && Instant::now() >= r.betting_ends {
                self.round.as_mut().unwrap().phase = Phase::Closing;
                self.flush_stakes();
            }
            let r = self.round.as_ref().unwrap();
            if r.phase == Phase::Closing && self.pending_bets == 0 {
                break;
            }
            let deadline = if r.phase == Phase::Betting { r.betting_ends } else { Instant::now() + Duration::from_millis(50) };
            let deadline = deadline.min(next_players);
            self.step(rx, deadline).await;
            if Instant::now() >= next_players {
                self.send_players();
                next_players = Instant::now() + Duration::from_millis(self.config.players_every_ms);
            }
        }

        // ---- start: persisted before the curve is shown
        let started_at = now_ms();
        let started = Instant::now();
        self.persister.write(Op::Started { round_id: id, started_at }).await?;
        let speed = self.config.speed.max(1);
        let crash_curve_ms = time_to_reach(cp);
        let crash_after = Duration::from_millis(crash_curve_ms.div_ceil(speed));
        // Auto and forced cash-outs, lowest first.
        let mut targets: Vec<(u64, bool, i64)> = self
            .bets
            .iter()
            .filter(|(_, b)| b.state == BetState::Open)
            .filter_map(|(u, b)| target(b.amount, b.auto, b.player.max_win).map(|(m, f)| (m, f, *u)))
            .collect();
        targets.sort_unstable_by(|a, b| b.cmp(a)); // pop() gives the lowest
        {
            let r = self.round.as_mut().unwrap();
            r.phase = Phase::Running;
            r.started = started;
            r.crash_after = crash_after;
            r.stats.start_delay_ms = started.saturating_duration_since(r.betting_ends).as_millis() as u64;
            r.stats.bets = self.bets.values().filter(|b| b.state == BetState::Open).count();
        }
        self.set_phase(&json!({ "type": "start", "id": id, "startedAt": started_at, "serverTime": now_ms() }));

        // ---- running: ticks, auto/forced cash-outs, manual cash-outs, until the crash
        let tick = Duration::from_millis(self.config.tick_ms.max(1));
        let crash_at = started + crash_after;
        let mut k: u32 = 1;
        loop {
            let next_tick = started + tick * k;
            if next_tick >= crash_at {
                // the crash comes first
                self.step(rx, crash_at.min(next_players)).await;
                let now = Instant::now();
                if now >= next_players {
                    self.send_players();
                    next_players = now + Duration::from_millis(self.config.players_every_ms);
                }
                if now >= crash_at {
                    break;
                }
                continue;
            }
            self.step(rx, next_tick.min(next_players)).await;
            let now = Instant::now();
            if now >= next_tick {
                let r = self.round.as_mut().unwrap();
                r.lateness_us.push(now.saturating_duration_since(next_tick).as_micros() as u64);
                let curve = (now.saturating_duration_since(started).as_millis() as u64).saturating_mul(speed);
                let m = multiplier_at(curve);
                self.fire_targets(&mut targets, m.min(cp.saturating_sub(1)), cp);
                if m < cp {
                    self.broadcast(&json!({ "type": "tick", "id": id, "m": m, "serverTime": now_ms() }));
                }
                // Skip ticks the loop was too late for (never a burst of stale ticks).
                let behind = now.saturating_duration_since(started).as_nanos() / tick.as_nanos().max(1);
                k = (behind as u32 + 1).max(k + 1);
            }
            if now >= next_players {
                self.send_players();
                next_players = now + Duration::from_millis(self.config.players_every_ms);
            }
        }
        // Every target below the crash point was reached before it.
        self.fire_targets(&mut targets, cp.saturating_sub(1), cp);
        self.flush_wins();
        self.round.as_mut().unwrap().phase = Phase::Ended;

        // ---- crash: persisted, then shown; open bets lose
        let ended_at = now_ms();
        let crashed = Instant::now();
        self.persister.write(Op::Ended { round_id: id, ended_at }).await?;
        self.round.as_mut().unwrap().stats.end_write_ms = crashed.elapsed().as_millis() as u64;
        let hash_hex = self.round.as_ref().unwrap().hash.clone();
        self.set_phase(&json!({ "type": "crash", "id": id, "crashPoint": cp, "hash": hash_hex, "serverTime": now_ms() }));
        self.persister.send(Op::Lost { round_id: id });
        self.players_dirty = true;
        self.send_players();

        // ---- settlement: every win paid, every row written
        self.failed_wins = 0;
        while self.pending_wins > 0 {
            self.step(rx, Instant::now() + Duration::from_millis(50)).await;
        }
        let wins_paid_ms = crashed.elapsed().as_millis() as u64;
        let settled = self.failed_wins == 0;
        if settled {
            self.persister.write(Op::Settled { round_id: id, phase: None }).await?;
        } else {
            tracing::error!(round = id, failed = self.failed_wins, "crash: wins failed; the round stays unsettled for recovery");
        }
        let settle_ms = crashed.elapsed().as_millis() as u64;
        self.round.as_mut().unwrap().stats.wins_paid_ms = wins_paid_ms;
        self.finish_stats(settle_ms, settled);

        // ---- pause before the next round
        let until = crashed + Duration::from_millis(self.config.pause_ms);
        while Instant::now() < until {
            self.step(rx, until).await;
        }
        if !settled {
            return Err(AppError::internal("crash: a round could not be settled"));
        }
        Ok(())
    }

    fn finish_stats(&mut self, settle_ms: u64, settled: bool) {
        let r = self.round.as_mut().unwrap();
        let mut late = std::mem::take(&mut r.lateness_us);
        late.sort_unstable();
        let pct = |p: f64| -> u64 {
            if late.is_empty() {
                0
            } else {
                late[(((late.len() - 1) as f64) * p).round() as usize]
            }
        };
        r.stats.ticks = late.len();
        r.stats.tick_late_p50_us = pct(0.50);
        r.stats.tick_late_p99_us = pct(0.99);
        r.stats.tick_late_max_us = late.last().copied().unwrap_or(0);
        r.stats.settle_ms = settle_ms;
        r.stats.settled = settled;
        r.stats.cash_outs = self.bets.values().filter(|b| matches!(b.state, BetState::Cashed { .. })).count();
        let s = r.stats.clone();
        tracing::info!(
            round = s.round_id, crash_point = s.crash_point, bets = s.bets, refused = s.refused_bets, cash_outs = s.cash_outs,
            ticks = s.ticks, tick_late_p50_us = s.tick_late_p50_us, tick_late_p99_us = s.tick_late_p99_us,
            tick_late_max_us = s.tick_late_max_us, start_delay_ms = s.start_delay_ms, end_write_ms = s.end_write_ms, wins_paid_ms = s.wins_paid_ms, settle_ms = s.settle_ms, "crash: round settled"
        );
        let mut stats = lock(&self.engine.inner.stats);
        stats.rounds += 1;
        stats.last.push(s);
        if stats.last.len() > 20 {
            stats.last.remove(0);
        }
    }

    /// Waits for one thing until `deadline`: a command, a finished money task, or the time.
    async fn step(&mut self, rx: &mut mpsc::Receiver<Cmd>, deadline: Instant) {
        self.step_once(rx, deadline).await;
        let now = Instant::now();
        if self.stake_due.is_some_and(|t| t <= now) {
            self.flush_stakes();
        }
        if self.win_due.is_some_and(|t| t <= now) {
            self.flush_wins();
        }
    }

    async fn step_once(&mut self, rx: &mut mpsc::Receiver<Cmd>, deadline: Instant) {
        let deadline = [self.stake_due, self.win_due].into_iter().flatten().fold(deadline, Instant::min);
        tokio::select! {
            biased;
            _ = tokio::time::sleep_until(deadline) => {}
            Some(done) = self.tasks.join_next(), if !self.tasks.is_empty() => match done {
                Ok(d) => self.on_done(d),
                Err(e) => tracing::error!(error = %e, "crash: a money task failed"),
            },
            Some(cmd) = rx.recv() => {
                self.on_cmd(cmd);
                // Take what else is queued without going back to the timer each time.
                for _ in 0..256 {
                    match rx.try_recv() {
                        Ok(cmd) => self.on_cmd(cmd),
                        Err(_) => break,
                    }
                }
            }
        }
    }

    fn on_cmd(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Bet { player, request_id, amount, auto } => {
                if let Err(e) = self.bet(&player, &request_id, amount, auto) {
                    let _ = player.out.send(error_msg(&request_id, &e));
                }
            }
            Cmd::Cashout { player, request_id } => {
                if let Err(e) = self.manual_cash_out(&player, &request_id) {
                    let _ = player.out.send(error_msg(&request_id, &e));
                }
            }
        }
    }

    fn bet(&mut self, player: &Arc<PlayerCtx>, request_id: &Value, amount: i64, auto: Option<u64>) -> Result<(), AppError> {
        let Some(r) = self.round.as_ref() else { return Err(AppError::new(ErrorCode::BettingClosed)) };
        if r.phase != Phase::Betting || Instant::now() >= r.betting_ends {
            return Err(AppError::new(ErrorCode::BettingClosed));
        }
        let l = &player.limits;
        if amount < l.min_bet || amount > l.max_bet {
            return Err(AppError::with_detail(ErrorCode::InvalidBet, format!("the bet must be between {} and {} (minor units)", l.min_bet, l.max_bet)));
        }
        let user_id = player.session.user_id;
        if self.bets.contains_key(&user_id) {
            return Err(AppError::with_detail(ErrorCode::InvalidBet, "one bet per round"));
        }
        // Session, ban and role are checked on the session as it is when the stake is sent
        // (the connection's copy may be hours old).
        self.bets.insert(user_id, Bet { player: player.clone(), amount, auto, state: BetState::Placing });
        self.pending_bets += 1;
        self.stake_queue.push((user_id, request_id.clone()));
        if self.stake_queue.len() >= BATCH_MAX {
            self.flush_stakes();
        } else if self.stake_due.is_none() {
            self.stake_due = Some(Instant::now() + BATCH_WAIT);
        }
        Ok(())
    }

    /// Sends the queued stakes as one batch ([`stake_batch`]).
    fn flush_stakes(&mut self) {
        self.stake_due = None;
        let queue = std::mem::take(&mut self.stake_queue);
        let Some(round_id) = self.round.as_ref().map(|r| r.id) else { return };
        let mut players = Vec::with_capacity(queue.len());
        let mut rows = Vec::with_capacity(queue.len());
        for (user_id, request_id) in queue {
            let Some(bet) = self.bets.get(&user_id) else { continue };
            rows.push(BetRow {
                round_id,
                user_id,
                session_id: bet.player.session.id,
                currency: bet.player.session.currency.code().to_string(),
                amount: bet.amount,
                auto_cash_out: bet.auto.map(|a| a as i64),
            });
            players.push((bet.player.clone(), bet.amount, request_id));
        }
        if players.is_empty() {
            return;
        }
        let (persister, casino) = (self.persister.clone(), self.engine.inner.casino.clone());
        self.tasks.spawn_on(stake_batch(persister, casino, round_id, rows, players), &self.money);
    }

    fn manual_cash_out(&mut self, player: &Arc<PlayerCtx>, request_id: &Value) -> Result<(), AppError> {
        let user_id = player.session.user_id;
        let Some(r) = self.round.as_ref() else { return Err(AppError::new(ErrorCode::NothingToCashOut)) };
        if r.phase != Phase::Running {
            return Err(AppError::new(ErrorCode::NothingToCashOut));
        }
        let Some(bet) = self.bets.get(&user_id) else { return Err(AppError::new(ErrorCode::NothingToCashOut)) };
        if bet.state != BetState::Open {
            return Err(AppError::new(ErrorCode::NothingToCashOut));
        }
        let curve = (r.started.elapsed().as_millis() as u64).saturating_mul(self.config.speed.max(1));
        let m = multiplier_at(curve);
        if m >= r.crash_point {
            return Err(AppError::with_detail(ErrorCode::NothingToCashOut, "the round has crashed"));
        }
        // An auto or forced cash-out the ticks have not reached yet came first.
        let (m, forced) = match target(bet.amount, bet.auto, bet.player.max_win) {
            Some((t, f)) if t <= m => (t, f),
            _ => (m, false),
        };
        self.cash_out(user_id, m, forced, request_id.clone());
        Ok(())
    }

    fn fire_targets(&mut self, targets: &mut Vec<(u64, bool, i64)>, reached: u64, cp: u64) {
        while let Some(&(m, forced, user)) = targets.last() {
            if m > reached || m >= cp {
                break;
            }
            targets.pop();
            if self.bets.get(&user).is_some_and(|b| b.state == BetState::Open) {
                self.cash_out(user, m, forced, Value::Null);
            }
        }
    }

    fn cash_out(&mut self, user_id: i64, m: u64, forced: bool, request_id: Value) {
        let Some(bet) = self.bets.get_mut(&user_id) else { return };
        let win = win_at(bet.amount, m, bet.player.max_win);
        bet.state = BetState::Cashed { m, win };
        self.players_dirty = true;
        self.pending_wins += 1;
        self.win_queue.push(PendingWin { player: bet.player.clone(), m, win, forced, request_id });
        if self.win_queue.len() >= BATCH_MAX {
            self.flush_wins();
        } else if self.win_due.is_none() {
            self.win_due = Some(Instant::now() + BATCH_WAIT);
        }
    }

    /// Pays the queued cash-outs as one batch: recorded first (recovery pays a recorded
    /// cash-out whose win is missing), then one wallet call; wins whose outcome is unknown
    /// are retried (same transaction ids: idempotent); if they still fail the round stays
    /// unsettled for recovery.
    fn flush_wins(&mut self) {
        self.win_due = None;
        let mut todo = std::mem::take(&mut self.win_queue);
        let Some(round_id) = self.round.as_ref().map(|r| r.id) else { return };
        if todo.is_empty() {
            return;
        }
        let persister = self.persister.clone();
        let wallet = self.engine.inner.casino.wallet().clone();
        self.tasks.spawn_on(async move {
            let (mut paid, mut failed) = (0, 0);
            let mut attempt = 0u32;
            while !todo.is_empty() {
                attempt += 1;
                let rows = todo.iter().map(|w| (w.player.session.user_id, w.m as i64, w.win, w.forced)).collect();
                if let Err(e) = persister.write(Op::Cashed { round_id, rows }).await {
                    if attempt < 5 {
                        tokio::time::sleep(Duration::from_millis(100 * attempt as u64)).await;
                        continue;
                    }
                    tracing::error!(error = %e.text(), round = round_id, wins = todo.len(), "crash: cash-outs not recorded (recovery pays them)");
                    failed += todo.len();
                    break;
                }
                let items = todo
                    .iter()
                    .map(|w| {
                        // Wins need no live session: the one resolved at connect names the player.
                        let s = &w.player.session;
                        (s.clone(), wallet_call(round_id, s, "win", w.win))
                    })
                    .collect();
                let mut retry = Vec::new();
                for (w, r) in todo.into_iter().zip(wallet.win_many(STUDIO, items).await) {
                    match r {
                        Ok(reply) => {
                            let msg = json!({ "type": "cashedOut", "requestId": w.request_id, "roundId": round_id, "multiplier": w.m,
                                "win": w.win, "balance": reply.balance, "forced": w.forced });
                            let _ = w.player.out.send(msg.to_string().into());
                            paid += 1;
                        }
                        Err(e) if attempt < 5 && e.code == ErrorCode::Internal => retry.push(w),
                        Err(e) => {
                            tracing::error!(error = %e.text(), round = round_id, user = w.player.session.user_id, "crash: win not paid yet (recovery pays it)");
                            failed += 1;
                        }
                    }
                }
                todo = retry;
                if !todo.is_empty() {
                    tokio::time::sleep(Duration::from_millis(100 * attempt as u64)).await;
                }
            }
            Done::Wins { paid, failed }
        }, &self.money);
    }

    fn on_done(&mut self, d: Done) {
        match d {
            Done::Bets(answers) => {
                self.pending_bets = self.pending_bets.saturating_sub(answers.len());
                let round_id = self.round.as_ref().map(|r| r.id).unwrap_or(0);
                let (mut opened, mut refused) = (Vec::new(), Vec::new());
                for (user_id, request_id, result) in answers {
                    match result {
                        Ok(reply) => {
                            let Some(bet) = self.bets.get_mut(&user_id) else { continue };
                            bet.state = BetState::Open;
                            opened.push(user_id);
                            let msg = json!({ "type": "betAccepted", "requestId": request_id, "roundId": round_id, "amount": bet.amount,
                                "autoCashOut": bet.auto, "balance": reply.balance });
                            let _ = bet.player.out.send(msg.to_string().into());
                            self.players_dirty = true;
                        }
                        Err(e) => {
                            if let Some(bet) = self.bets.remove(&user_id) {
                                let _ = bet.player.out.send(error_msg(&request_id, &e));
                            }
                            if let Some(r) = self.round.as_mut() {
                                r.stats.refused_bets += 1;
                            }
                            refused.push(user_id);
                        }
                    }
                }
                if !opened.is_empty() {
                    self.persister.send(Op::BetStatuses { round_id, user_ids: opened, status: "open" });
                }
                if !refused.is_empty() {
                    self.persister.send(Op::BetStatuses { round_id, user_ids: refused, status: "refused" });
                }
            }
            Done::Wins { paid, failed } => {
                self.pending_wins = self.pending_wins.saturating_sub(paid + failed);
                self.failed_wins += failed;
            }
        }
    }

    /// `players`: top 50 by bet, throttled by the caller (only when something changed).
    fn send_players(&mut self) {
        if !self.players_dirty {
            return;
        }
        self.players_dirty = false;
        let Some(r) = self.round.as_ref() else { return };
        let mut list: Vec<&Bet> = self.bets.values().filter(|b| b.state != BetState::Placing).collect();
        let count = list.len();
        list.sort_unstable_by(|a, b| b.amount.cmp(&a.amount).then(a.player.session.user_id.cmp(&b.player.session.user_id)));
        let players: Vec<Value> = list
            .iter()
            .take(50)
            .map(|b| {
                let (at, win) = match b.state {
                    BetState::Cashed { m, win } => (json!(m), json!(win)),
                    _ => (Value::Null, Value::Null),
                };
                json!({ "name": b.player.name, "bet": b.amount, "cashedOutAt": at, "win": win })
            })
            .collect();
        let msg: Arc<str> = json!({ "type": "players", "id": r.id, "players": players, "count": count }).to_string().into();
        *lock(&self.engine.inner.players) = Some(msg.clone());
        self.engine.emit(msg);
    }
}
