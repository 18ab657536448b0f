//! Load test of the sportsbook over HTTP and WebSockets against a running `carthage serve`
//! whose simulator keeps `SPORTSBOOK_SIM_LIVE` matches in play (docs/PERFORMANCE.md
//! "Sportsbook"; `benches/sportsbook.sh` runs it):
//!
//! * `SB_SUBSCRIBERS` WebSocket clients (default 5,000) each watch what one screen of the app
//!   shows: 20 events in play in list form (`list:<id>`) and one event page (`event:<id>`) —
//!   or, with `SB_TOPICS=live`, the whole live list; one more holds `all` to count the feed's
//!   odds changes per second;
//! * meanwhile bets are placed over HTTP (`POST /api/sportsbook/bets`, singles of 1 TND on the
//!   main market of events from the line, half in play, odds policy "accept any") at a fixed
//!   rate (`SB_RATE`/s, open loop: a slow reply never delays the next request, so the latency
//!   figures carry no coordinated omission) for `SB_SECONDS`, by `SB_PLAYERS` players.
//!
//! Measured: placements accepted per second, reply times (from the moment each request was
//! due), refusals by code; odds-change messages per second in the feed; frames, messages and
//! bytes delivered to the subscribers per second and the delay from a message's feed timestamp
//! to its arrival at a subscriber. Then `ledger verify`.
//!
//! Setup goes straight into the server's database through the services (as `crash_load`):
//! players `sbload-{i}@bench.local`, funded by one ledger posting each, signed in.

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

fn env(key: &str, default: &str) -> String {
    std::env::var(key).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string())
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[(((v.len() - 1) as f64) * p).round() as usize]
}

fn now_ms() -> i64 {
    kernel::clock::now_ms()
}

/// What the subscribers saw, summed over all of them.
#[derive(Default)]
struct Delivery {
    frames: AtomicU64,
    messages: AtomicU64,
    bytes: AtomicU64,
    resyncs: AtomicU64,
    /// Feed timestamp → arrival, ms, of the first message of every 50th frame.
    delay_ms: Mutex<Vec<f64>>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let db_url = env("DATABASE_URL", "sqlite://bench-sb.db");
    let base = env("SB_URL", "http://127.0.0.1:8080");
    let ws_base = base.replacen("http://", "ws://", 1);
    let players: usize = env("SB_PLAYERS", "1000").parse()?;
    let subscribers: usize = env("SB_SUBSCRIBERS", "5000").parse()?;
    let rate: f64 = env("SB_RATE", "1000").parse()?;
    let seconds: f64 = env("SB_SECONDS", "30").parse()?;

    // ---- players, through the services
    let t0 = Instant::now();
    let mut cfg = server::config::Config::for_tests(&db_url);
    cfg.db_max_connections = 4;
    let state = server::prepare(cfg).await?;
    let tokens = Arc::new(Mutex::new(vec![String::new(); players]));
    futures::stream::iter(0..players)
        .map(|i| {
            let (state, tokens) = (state.clone(), tokens.clone());
            async move {
                let email = format!("sbload-{i}@bench.local");
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
                    format!("bench:sb-credit:{i}"),
                    Some(user.id),
                    kernel::Currency::Tnd,
                    wallet::AccountRef::House(wallet::HouseAccount::DemoCredit),
                    wallet::AccountRef::Player { user_id: user.id, kind: wallet::BalanceKind::Real },
                    kernel::Currency::Tnd.major(10_000),
                )
                .comment("sportsbook load test credit");
                state.ledger.post(credit).await.map_err(kernel::AppError::from)?;
                let signed_in = state.accounts.login(accounts::LoginKind::Email, &email, "Bench1234", &accounts::Client::default()).await?;
                tokens.lock().unwrap()[i] = signed_in.token;
                Ok::<(), kernel::AppError>(())
            }
        })
        .buffer_unordered(16)
        .for_each(|r| async move {
            if let Err(e) = r {
                eprintln!("setup: {}", e.text());
            }
        })
        .await;
    let tokens: Arc<Vec<String>> = Arc::new(Arc::try_unwrap(tokens).map_err(|_| anyhow::anyhow!("tokens"))?.into_inner().unwrap());
    eprintln!("setup: {players} players ready in {:.1} s", t0.elapsed().as_secs_f64());

    // ---- the feed's own rate: one socket on `all`
    let feed_odds = Arc::new(AtomicU64::new(0));
    let counting = Arc::new(std::sync::atomic::AtomicBool::new(false));
    // The sockets run on a runtime of their own (one thread): the 5,000 subscribers' frames
    // would otherwise queue ahead of the placements' replies on the generator's side and be
    // counted as the server's latency. (The generator still shares the machine's 2 cores.)
    let sockets = tokio::runtime::Builder::new_multi_thread().worker_threads(1).thread_name("subscribers").enable_all().build()?;
    {
        let (mut s, _) = tokio_tungstenite::connect_async(format!("{ws_base}/api/sportsbook/ws")).await?;
        s.send(Message::Text(json!({"type": "subscribe", "topics": ["all"]}).to_string().into())).await?;
        let (feed_odds, counting) = (feed_odds.clone(), counting.clone());
        sockets.spawn(async move {
            while let Some(Ok(m)) = s.next().await {
                if let Message::Text(t) = m {
                    if counting.load(Ordering::Relaxed) {
                        feed_odds.fetch_add(t.as_str().matches("\"odds_change\"").count() as u64, Ordering::Relaxed);
                    }
                }
            }
        });
    }

    // ---- what each subscriber watches: `SB_TOPICS=screen` (default) a screen of the app: 20
    // live events in list form (`list:<id>`) and one event page (`event:<id>`); `live`: the
    // whole live list (every event in play).
    let pattern = env("SB_TOPICS", "screen");
    // The line lists at most 300 events per reply: asked sport by sport.
    let line: Value = reqwest::get(format!("{base}/api/sportsbook/line?live=true")).await?.json().await?;
    let mut ids: Vec<String> = Vec::new();
    for sport in line["result"]["sports"].as_array().into_iter().flatten().filter_map(|s| s["id"].as_str()) {
        let per_sport: Value = reqwest::get(format!("{base}/api/sportsbook/line?live=true&sport={sport}")).await?.json().await?;
        ids.extend(per_sport["result"]["events"].as_array().into_iter().flatten().filter_map(|e| e["id"].as_str().map(str::to_string)));
    }
    let live_ids: Arc<Vec<String>> = Arc::new(ids);
    eprintln!("line: {} events in play listed", live_ids.len());
    let delivery = Arc::new(Delivery::default());
    let connected = Arc::new(AtomicUsize::new(0));
    let gate = Arc::new(tokio::sync::Semaphore::new(100));
    let t1 = Instant::now();
    for i in 0..subscribers {
        let (url, delivery, connected, gate, counting) =
            (format!("{ws_base}/api/sportsbook/ws"), delivery.clone(), connected.clone(), gate.clone(), counting.clone());
        let topics: Vec<String> = if pattern == "live" || live_ids.is_empty() {
            vec!["live".into()]
        } else {
            let n = live_ids.len();
            let mut t: Vec<String> = (0..20.min(n)).map(|k| format!("list:{}", live_ids[(i * 20 + k) % n])).collect();
            t.push(format!("event:{}", live_ids[(i * 7919) % n]));
            t
        };
        sockets.spawn(async move {
            let mut socket = {
                let _permit = gate.acquire().await.unwrap();
                let mut tries = 0u64;
                loop {
                    match tokio_tungstenite::connect_async_with_config(&url, Some(ws_config()), false).await {
                        Ok((s, _)) => break s,
                        Err(e) => {
                            tries += 1;
                            if tries > 20 {
                                eprintln!("subscriber {i}: cannot connect: {e}");
                                return;
                            }
                            tokio::time::sleep(Duration::from_millis(100 * tries)).await;
                        }
                    }
                }
            };
            if socket.send(Message::Text(json!({"type": "subscribe", "topics": topics}).to_string().into())).await.is_err() {
                return;
            }
            connected.fetch_add(1, Ordering::Relaxed);
            let mut n = 0u64;
            while let Some(Ok(m)) = socket.next().await {
                let Message::Text(t) = m else { continue };
                if !counting.load(Ordering::Relaxed) {
                    continue;
                }
                let t = t.as_str();
                if !t.starts_with('[') {
                    if t.contains("\"resync\"") {
                        delivery.resyncs.fetch_add(1, Ordering::Relaxed);
                    }
                    continue;
                }
                n += 1;
                delivery.frames.fetch_add(1, Ordering::Relaxed);
                delivery.bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
                delivery.messages.fetch_add(t.matches("\"type\":").count() as u64, Ordering::Relaxed);
                if (n + i as u64) % 50 == 0 {
                    // The first message's feed time: `"timestamp":<ms>`.
                    if let Some(at) = t.find("\"timestamp\":") {
                        let digits: String = t[at + 12..].chars().take_while(|c| c.is_ascii_digit()).collect();
                        if let Ok(ts) = digits.parse::<i64>() {
                            delivery.delay_ms.lock().unwrap().push((now_ms() - ts) as f64);
                        }
                    }
                }
            }
        });
    }
    while connected.load(Ordering::Relaxed) < subscribers && t1.elapsed() < Duration::from_secs(120) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!("subscribers: {} connected in {:.1} s", connected.load(Ordering::Relaxed), t1.elapsed().as_secs_f64());

    // ---- the line to bet on, refreshed every 2 s
    let http = reqwest::Client::builder().pool_max_idle_per_host(256).timeout(Duration::from_secs(10)).build()?;
    let targets: Arc<Mutex<Vec<Value>>> = Arc::new(Mutex::new(Vec::new()));
    let refresh = {
        let (http, targets, base) = (http.clone(), targets.clone(), base.clone());
        tokio::spawn(async move {
            loop {
                let mut picked = Vec::new();
                for live in ["true", "false"] {
                    if let Ok(r) = http.get(format!("{base}/api/sportsbook/line?live={live}")).send().await {
                        if let Ok(v) = r.json::<Value>().await {
                            for e in v["result"]["events"].as_array().into_iter().flatten() {
                                let m = &e["markets"][0];
                                if m["status"] == "active" {
                                    if let Some(o) = m["outcomes"].as_array().and_then(|o| o.first()) {
                                        picked.push(json!({"event_id": e["id"], "market": m["key"], "outcome_id": o["id"], "odds": o["odds"], "live": live == "true"}));
                                    }
                                }
                            }
                        }
                    }
                }
                *targets.lock().unwrap() = picked;
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        })
    };
    while targets.lock().unwrap().is_empty() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // ---- placements at a fixed rate, while the feed runs and the subscribers receive
    let latencies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let codes = Arc::new(Mutex::new(std::collections::BTreeMap::<i64, usize>::new()));
    let failures = Arc::new(AtomicUsize::new(0));
    let feed_start = feed_odds.load(Ordering::Relaxed);
    counting.store(true, Ordering::SeqCst);
    let started = Instant::now();
    let total = (rate * seconds) as usize;
    let mut sent = Vec::with_capacity(total);
    let run = format!("{}", now_ms());
    for i in 0..total {
        let due = started + Duration::from_secs_f64(i as f64 / rate);
        tokio::time::sleep_until(due.into()).await;
        let leg = {
            let t = targets.lock().unwrap();
            // Alternate in play and not started, spread over the events.
            let live: Vec<&Value> = t.iter().filter(|l| l["live"] == (i % 2 == 0)).collect();
            let pool = if live.is_empty() { t.iter().collect() } else { live };
            // A well-mixed event per request (splitmix64): a player rarely meets one event twice.
            let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            pool[((z ^ (z >> 31)) % pool.len() as u64) as usize].clone()
        };
        let (http, tokens, latencies, codes, failures, base) =
            (http.clone(), tokens.clone(), latencies.clone(), codes.clone(), failures.clone(), base.clone());
        let key = format!("sbload-{run}-{i}");
        sent.push(tokio::spawn(async move {
            let token = &tokens[(i * 31) % tokens.len()];
            let body = json!({"kind": "single", "stake": 1, "odds_policy": "accept_any",
                "legs": [{"event_id": leg["event_id"], "market": leg["market"], "outcome_id": leg["outcome_id"], "odds": leg["odds"]}]});
            let reply = http
                .post(format!("{base}/api/sportsbook/bets"))
                .bearer_auth(token)
                .header("Idempotency-Key", key)
                .json(&body)
                .send()
                .await;
            let status = match reply {
                Ok(r) => r.json::<Value>().await.ok().and_then(|v| v["status"].as_i64()).unwrap_or(-1),
                Err(_) => -1,
            };
            latencies.lock().unwrap().push(due.elapsed().as_secs_f64() * 1000.0);
            if status == -1 {
                failures.fetch_add(1, Ordering::Relaxed);
            }
            *codes.lock().unwrap().entry(status).or_default() += 1;
        }));
    }
    for s in sent {
        let _ = s.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    counting.store(false, Ordering::SeqCst);
    refresh.abort();
    let feed_odds_per_s = (feed_odds.load(Ordering::Relaxed) - feed_start) as f64 / elapsed;

    let mut lat = latencies.lock().unwrap().clone();
    let codes = codes.lock().unwrap().clone();
    let accepted = codes.get(&0).copied().unwrap_or(0);
    let mut delay = delivery.delay_ms.lock().unwrap().clone();
    let verify = state.ledger.verify().await?;
    let report = json!({
        "placementsRequested": total,
        "requestedRatePerS": rate,
        "seconds": elapsed,
        "accepted": accepted,
        "acceptedPerS": accepted as f64 / elapsed,
        "replyCodes": codes,
        "transportFailures": failures.load(Ordering::Relaxed),
        "replyMsFromDue": { "p50": pct(&mut lat, 0.5), "p90": pct(&mut lat, 0.9), "p99": pct(&mut lat, 0.99), "max": pct(&mut lat, 1.0) },
        "feedOddsChangesPerS": feed_odds_per_s,
        "subscribers": connected.load(Ordering::Relaxed),
        "subscriberTopics": pattern,
        "framesPerS": delivery.frames.load(Ordering::Relaxed) as f64 / elapsed,
        "messagesPerS": delivery.messages.load(Ordering::Relaxed) as f64 / elapsed,
        "bytesPerS": delivery.bytes.load(Ordering::Relaxed) as f64 / elapsed,
        "resyncs": delivery.resyncs.load(Ordering::Relaxed),
        "pushDelayMs": { "p50": pct(&mut delay, 0.5), "p99": pct(&mut delay, 0.99), "max": pct(&mut delay, 1.0), "samples": delay.len() },
        "ledgerConsistent": verify.is_consistent(),
    });
    println!("{}", serde_json::to_string_pretty(&report)?);
    sockets.shutdown_background();
    Ok(())
}

/// Client socket settings: a small read buffer (tungstenite zero-fills it before every read).
fn ws_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(16 * 1024)
}
