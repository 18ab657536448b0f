//! Load test of the crash game: N simulated players (default 10,000) bet and cash out over
//! WebSockets against a running `carthage serve` (demo mode), in one process of many tokio
//! tasks. docs/CRASH.md §Benchmark has the procedure and the figures; `benches/crash.sh` runs it.
//!
//! ```text
//! DATABASE_URL=sqlite://bench-crash.db CRASH_URL=ws://127.0.0.1:8080 CRASH_PLAYERS=10000 CRASH_ROUNDS=3 \
//!   cargo run --release -p server --example crash_load
//! ```
//!
//! Setup (idempotent, straight into the server's database through the services, never by
//! hand-written SQL): the players `crashload-{i}@bench.local` are created through
//! `Accounts::create_user` (light password hashing: bench accounts), funded through one ledger
//! posting each (key `bench:crash-credit:{i}`, house demo credit) and given a game session
//! through `casino::Sessions`. Money then moves only through the game (provider wallet).
//!
//! Each player: on each betting window, waits a random 0–3 s, bets 1 TND; half set an auto
//! cash-out (1.10×–3.00×), the other half cash out by hand when a tick reaches their own random
//! target. Measured: bet and cash-out reply times, replies owed after the crash, and the
//! inter-tick gaps each client sees; the server's own figures (tick lateness, time from the
//! crash to every bet settled) come from `GET /api/dev/crash/stats`.

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

fn env(key: &str, default: &str) -> String {
    std::env::var(key).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string())
}

#[derive(Default)]
struct Figures {
    bet_ms: Vec<f64>,
    cashout_ms: Vec<f64>,
    /// |gap − tick interval| between consecutive ticks seen by one client, ms.
    tick_gap_dev_ms: Vec<f64>,
    tick_gap_ms: Vec<f64>,
    bets_accepted: usize,
    bet_errors: Vec<u64>,
    cashouts: usize,
    cashout_errors: Vec<u64>,
    /// Replies to this player's bet/cash-out that arrived after its crash message.
    late_replies: usize,
    /// Cash-out replies that arrived more than 1 s after the crash message.
    replies_over_1s_after_crash: usize,
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[(((v.len() - 1) as f64) * p).round() as usize]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let db_url = env("DATABASE_URL", "sqlite://bench-crash.db");
    let ws_base = env("CRASH_URL", "ws://127.0.0.1:8080");
    let http_base = ws_base.replacen("ws://", "http://", 1);
    let players: usize = env("CRASH_PLAYERS", "10000").parse()?;
    let rounds: usize = env("CRASH_ROUNDS", "3").parse()?;
    let tick_ms: f64 = env("CRASH_TICK_MS", "100").parse()?;

    // ---- setup through the services
    let t0 = Instant::now();
    let mut cfg = server::config::Config::for_tests(&db_url);
    cfg.db_max_connections = 8;
    let state = server::prepare(cfg).await?;
    let tokens = Arc::new(Mutex::new(vec![String::new(); players]));
    futures::stream::iter(0..players)
        .map(|i| {
            let state = state.clone();
            let tokens = tokens.clone();
            async move {
                let email = format!("crashload-{i}@bench.local");
                let user = match state.accounts.find_by_login(&email).await? {
                    Some(u) => u,
                    None => {
                        state
                            .accounts
                            .create_user(accounts::NewUser {
                                email: Some(email.clone()),
                                phone: None,
                                password: "Bench1234".into(),
                                role: accounts::Role::Player,
                                currency: kernel::Currency::Tnd,
                                first_name: "Load".into(),
                                last_name: format!("{i}"),
                                registered_via: "seed",
                            })
                            .await?
                    }
                };
                let credit = wallet::PostingRequest::transfer(
                    wallet::TxType::DemoCredit,
                    format!("bench:crash-credit:{i}"),
                    Some(user.id),
                    kernel::Currency::Tnd,
                    wallet::AccountRef::House(wallet::HouseAccount::DemoCredit),
                    wallet::AccountRef::Player { user_id: user.id, kind: wallet::BalanceKind::Real },
                    kernel::Currency::Tnd.major(1_000),
                )
                .comment("crash load test credit");
                state.ledger.post(credit).await.map_err(kernel::AppError::from)?;
                // A game session lives inside a sign-in: sign in, then launch from it.
                let signed_in = state
                    .accounts
                    .login(accounts::LoginKind::Email, &email, "Bench1234", &accounts::Client::default())
                    .await?;
                let (_, player_session_id) = state.accounts.authenticate_session(&signed_in.token).await?;
                let token = state
                    .casino
                    .sessions()
                    .create(casino::sessions::NewSession {
                        user_id: user.id,
                        player_session_id: Some(player_session_id),
                        provider: "studio",
                        game_id: "crash",
                        currency: kernel::Currency::Tnd,
                        lang: "en",
                        platform: "desktop",
                    })
                    .await?;
                tokens.lock().unwrap()[i] = token;
                Ok::<(), kernel::AppError>(())
            }
        })
        .buffer_unordered(32)
        .for_each(|r| async move {
            if let Err(e) = r {
                eprintln!("setup: {}", e.text());
            }
        })
        .await;
    eprintln!("setup: {players} players ready in {:.1} s", t0.elapsed().as_secs_f64());

    // ---- connect everyone
    let figures = Arc::new(Mutex::new(Figures::default()));
    let connected = Arc::new(AtomicUsize::new(0));
    let done_players = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let tokens = Arc::try_unwrap(tokens).map_err(|_| anyhow::anyhow!("tokens"))?.into_inner().unwrap();
    let gate = Arc::new(tokio::sync::Semaphore::new(200));
    // Nobody bets before everyone is connected: then all play the same rounds.
    let go = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut tasks = Vec::with_capacity(players);
    let t1 = Instant::now();
    for (i, token) in tokens.into_iter().enumerate() {
        let url = format!("{ws_base}/api/studio/crash/ws?token={token}");
        let figures = figures.clone();
        let connected = connected.clone();
        let done_players = done_players.clone();
        let gate = gate.clone();
        let go = go.clone();
        let refused = refused.clone();
        tasks.push(tokio::spawn(async move {
            let socket = {
                let _permit = gate.acquire().await.unwrap();
                let mut tries = 0;
                loop {
                    // Connected means the server said `hello` (it may refuse a player
                    // with an error message instead, e.g. when its database is busy).
                    let outcome = match tokio_tungstenite::connect_async_with_config(&url, Some(ws_config()), false).await {
                        Ok((mut s, _)) => match s.next().await {
                            Some(Ok(Message::Text(t))) if t.as_str().contains("\"type\":\"hello\"") => Ok(s),
                            other => Err(format!("no hello: {other:?}")),
                        },
                        Err(e) => Err(e.to_string()),
                    };
                    match outcome {
                        Ok(s) => break s,
                        Err(e) => {
                            tries += 1;
                            refused.fetch_add(1, Ordering::Relaxed);
                            if tries > 20 {
                                eprintln!("player {i}: cannot connect: {e}");
                                return;
                            }
                            tokio::time::sleep(Duration::from_millis(100 * tries)).await;
                        }
                    }
                }
            };
            connected.fetch_add(1, Ordering::Relaxed);
            play(socket, rounds, tick_ms, figures, go).await;
            done_players.fetch_add(1, Ordering::Relaxed);
        }));
    }
    while connected.load(Ordering::Relaxed) < players && t1.elapsed() < Duration::from_secs(120) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!(
        "connected: {} in {:.1} s ({} attempts refused and retried)",
        connected.load(Ordering::Relaxed),
        t1.elapsed().as_secs_f64(),
        refused.load(Ordering::Relaxed)
    );
    go.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = t.await;
    }

    // ---- report
    let stats: Value = reqwest::get(format!("{http_base}/api/dev/crash/stats")).await?.json().await?;
    let mut f = Arc::try_unwrap(figures).map_err(|_| anyhow::anyhow!("figures"))?.into_inner().unwrap();
    let report = json!({
        "players": players,
        "roundsPlayed": rounds,
        "betsAccepted": f.bets_accepted,
        "betErrors": f.bet_errors.len(),
        "betErrorCodes": f.bet_errors.iter().fold(std::collections::BTreeMap::<u64, usize>::new(), |mut m, c| { *m.entry(*c).or_default() += 1; m }),
        "cashOuts": f.cashouts,
        "cashOutErrors": f.cashout_errors.len(),
        "cashOutErrorCodes": f.cashout_errors.iter().fold(std::collections::BTreeMap::<u64, usize>::new(), |mut m, c| { *m.entry(*c).or_default() += 1; m }),
        "betReplyMs": { "p50": pct(&mut f.bet_ms, 0.5), "p99": pct(&mut f.bet_ms, 0.99), "max": pct(&mut f.bet_ms, 1.0) },
        "cashOutReplyMs": { "p50": pct(&mut f.cashout_ms, 0.5), "p99": pct(&mut f.cashout_ms, 0.99), "max": pct(&mut f.cashout_ms, 1.0) },
        "clientTickGapMs": { "p50": pct(&mut f.tick_gap_ms, 0.5), "p99": pct(&mut f.tick_gap_ms, 0.99), "max": pct(&mut f.tick_gap_ms, 1.0) },
        "clientTickGapDeviationMs": { "p50": pct(&mut f.tick_gap_dev_ms, 0.5), "p99": pct(&mut f.tick_gap_dev_ms, 0.99), "max": pct(&mut f.tick_gap_dev_ms, 1.0), "samples": f.tick_gap_dev_ms.len() },
        "repliesAfterCrash": f.late_replies,
        "repliesOver1sAfterCrash": f.replies_over_1s_after_crash,
        "server": stats["result"],
    });
    println!("{}", serde_json::to_string_pretty(&report)?);
    let verify = state.ledger.verify().await?;
    println!("ledger verify: consistent = {}", verify.is_consistent());
    Ok(())
}

/// Client socket settings: tungstenite zero-fills its whole read buffer before every read,
/// so the default 128 KiB would cost the generator more CPU than the messages themselves.
fn ws_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(16 * 1024)
}

/// A small xorshift PRNG per player (the bench needs no cryptographic randomness).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn play(socket: Socket, rounds: usize, tick_ms: f64, figures: Arc<Mutex<Figures>>, go: Arc<std::sync::atomic::AtomicBool>) {
    let mut in_round = false;
    let (mut tx, mut rx) = socket.split();
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
    let mut rng = Rng(seed ^ (&tx as *const _ as u64) | 1);
    let mut local = Figures::default();
    let mut played = 0;
    let mut round_id: Option<i64> = None;
    let mut bet_at: Option<tokio::time::Instant> = None;
    let mut bet_sent: Option<Instant> = None;
    let mut cashout_sent: Option<Instant> = None;
    let mut target = 0u64;
    let mut manual = false;
    let mut has_bet = false;
    let mut last_tick: Option<Instant> = None;
    let mut crashed_at: Option<Instant> = None;
    let mut n = 0u64;
    loop {
        let sleep = async {
            match bet_at {
                Some(t) => tokio::time::sleep_until(t).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = sleep => {
                bet_at = None;
                n += 1;
                let (auto, tgt) = {
                    manual = rng.below(2) == 0;
                    let t = 110 + rng.below(191);
                    (if manual { Value::Null } else { json!(t) }, t)
                };
                target = tgt;
                bet_sent = Some(Instant::now());
                let msg = json!({ "type": "bet", "requestId": format!("b{n}"), "amount": 1000, "autoCashOut": auto });
                if tx.send(Message::Text(msg.to_string().into())).await.is_err() { break; }
            }
            m = rx.next() => {
                let Some(Ok(m)) = m else { break };
                let Message::Text(t) = m else { continue };
                let now = Instant::now();
                // Ticks are most of the traffic: read them without building a JSON tree
                // (the load generator shares the server's two cores).
                if t.as_str().contains("\"type\":\"tick\"") {
                    if let Some(l) = last_tick {
                        let gap = now.duration_since(l).as_secs_f64() * 1e3;
                        local.tick_gap_ms.push(gap);
                        local.tick_gap_dev_ms.push((gap - tick_ms).abs());
                    }
                    last_tick = Some(now);
                    let m = t.as_str().split("\"m\":").nth(1).and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()).and_then(|d| d.parse::<u64>().ok()).unwrap_or(0);
                    if has_bet && manual && cashout_sent.is_none() && m >= target {
                        n += 1;
                        cashout_sent = Some(now);
                        let msg = json!({ "type": "cashout", "requestId": format!("c{n}") });
                        if tx.send(Message::Text(msg.to_string().into())).await.is_err() { break; }
                    }
                    continue;
                }
                if t.as_str().contains("\"type\":\"players\"") {
                    continue;
                }
                let Ok(v) = serde_json::from_str::<Value>(t.as_str()) else { continue };
                match v["type"].as_str().unwrap_or("") {
                    "round" => {
                        if played >= rounds { break; }
                        if round_id == v["id"].as_i64() || !go.load(Ordering::Relaxed) { continue; }
                        round_id = v["id"].as_i64();
                        has_bet = false;
                        crashed_at = None;
                        cashout_sent = None;
                        let left = v["bettingEndsAt"].as_i64().unwrap_or(0) - v["serverTime"].as_i64().unwrap_or(0);
                        in_round = left > 1_500;
                        if in_round {
                            let wait = rng.below((left as u64 - 1_500).min(3_000));
                            bet_at = Some(tokio::time::Instant::now() + Duration::from_millis(wait));
                        }
                    }
                    "betAccepted" => {
                        if let Some(s) = bet_sent.take() { local.bet_ms.push(now.duration_since(s).as_secs_f64() * 1e3); }
                        local.bets_accepted += 1;
                        has_bet = true;
                        if crashed_at.is_some() { local.late_replies += 1; }
                    }
                    "error" => {
                        let code = v["status"].as_u64().unwrap_or(0);
                        if v["requestId"].as_str().is_some_and(|r| r.starts_with('b')) {
                            bet_sent = None;
                            local.bet_errors.push(code);
                        } else {
                            cashout_sent = None;
                            local.cashout_errors.push(code);
                        }
                    }
                    "start" => { last_tick = Some(now); if in_round { played += 1; in_round = false; } }
                    "tick" => {
                        if let Some(l) = last_tick {
                            let gap = now.duration_since(l).as_secs_f64() * 1e3;
                            local.tick_gap_ms.push(gap);
                            local.tick_gap_dev_ms.push((gap - tick_ms).abs());
                        }
                        last_tick = Some(now);
                        let m = v["m"].as_u64().unwrap_or(0);
                        if has_bet && manual && cashout_sent.is_none() && m >= target {
                            n += 1;
                            cashout_sent = Some(now);
                            let msg = json!({ "type": "cashout", "requestId": format!("c{n}") });
                            if tx.send(Message::Text(msg.to_string().into())).await.is_err() { break; }
                        }
                    }
                    "cashedOut" => {
                        if let Some(s) = cashout_sent { local.cashout_ms.push(now.duration_since(s).as_secs_f64() * 1e3); }
                        local.cashouts += 1;
                        has_bet = false;
                        if let Some(c) = crashed_at {
                            local.late_replies += 1;
                            if now.duration_since(c) > Duration::from_secs(1) { local.replies_over_1s_after_crash += 1; }
                        }
                    }
                    "crash" => {
                        crashed_at = Some(now);
                        last_tick = None;
                        has_bet = false;
                        if played >= rounds && round_id.is_some() {
                            // Stay until the next round opens (the last one is settled by then),
                            // counting replies still owed: 10,000 players leaving at the crash
                            // would charge their disconnects to the settlement being measured.
                            let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
                            while let Ok(Some(Ok(Message::Text(t)))) = tokio::time::timeout_at(deadline, rx.next()).await {
                                if t.as_str().contains("\"type\":\"round\"") {
                                    break;
                                }
                                if t.as_str().contains("\"type\":\"cashedOut\"") {
                                    local.cashouts += 1;
                                    local.late_replies += 1;
                                    if Instant::now().duration_since(now) > Duration::from_secs(1) { local.replies_over_1s_after_crash += 1; }
                                }
                            }
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let _ = tx.send(Message::Close(None)).await;
    let mut f = figures.lock().unwrap();
    f.bet_ms.extend(local.bet_ms);
    f.cashout_ms.extend(local.cashout_ms);
    f.tick_gap_ms.extend(local.tick_gap_ms);
    f.tick_gap_dev_ms.extend(local.tick_gap_dev_ms);
    f.bets_accepted += local.bets_accepted;
    f.bet_errors.extend(local.bet_errors);
    f.cashouts += local.cashouts;
    f.cashout_errors.extend(local.cashout_errors);
    f.late_replies += local.late_replies;
    f.replies_over_1s_after_crash += local.replies_over_1s_after_crash;
}
