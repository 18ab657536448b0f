//! Load generator for the game providers' wallet callbacks (docs/PERFORMANCE.md "Provider
//! callbacks"): for each provider dialect with a fake, one-click players launch a session
//! of that provider, then `connections` concurrent workers send bet + win pairs through the
//! provider's fake client (`providers::fake::deliver`: the request built and signed in the
//! provider's dialect, sent over HTTP, the reply read its way) for `seconds` seconds. The
//! requests are built and signed **before** the clock starts (an RSA signature costs the
//! client more than the server's check; on two shared cores it would be counted against the
//! server). Prints per provider: callbacks per second, latency p50/p99 per callback, refusals.
//!
//!   cargo run --release -p providers --example provider_callbacks_load -- http://127.0.0.1:8080 10 32 [provider,…]
//!   (base URL, seconds per provider, concurrent connections, providers: default every fake)
//! The server must run in demo mode (the providers' demo secrets and games).

use providers::fake::{self, Delivery, Forge, Keys, Op, Outcome, Retry};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn post(http: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
    let mut req = http.post(url).json(&body);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let v: Value = req.send().await?.json().await?;
    anyhow::ensure!(v["status"] == 0, "{v}");
    Ok(v["result"].clone())
}

/// A player with a session of `provider`: (user id, game session token).
async fn player(http: &reqwest::Client, base: &str, provider: &str, game: &str) -> anyhow::Result<(i64, String)> {
    let s = post(http, format!("{base}/api/user/signup/one-click"), None, json!({"currency": "TND"})).await?;
    let token = s["token"].as_str().ok_or_else(|| anyhow::anyhow!("sign-up: {s}"))?;
    let id = s["user"]["id"].as_i64().or_else(|| s["id"].as_i64()).ok_or_else(|| anyhow::anyhow!("no user id: {s}"))?;
    let l = post(http, format!("{base}/api/casino/session"), Some(token), json!({"provider": provider, "gameId": game, "lang": "en", "platform": "mobile"})).await?;
    Ok((id, l["sessionToken"].as_str().unwrap_or_default().to_string()))
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let base = args.get(1).cloned().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let conns: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(32);
    let only: Option<Vec<String>> = args.get(4).map(|s| s.split(',').map(String::from).collect());
    let http = reqwest::Client::builder().pool_max_idle_per_host(conns * 2).build()?;
    println!("| provider | signature | callbacks/s | p50 ms | p99 ms | refused |");
    println!("|---|---|---|---|---|---|");
    for dialect in fake::dialects() {
        let code = dialect.code();
        if only.as_ref().is_some_and(|o| !o.iter().any(|c| c == code)) {
            continue;
        }
        let game = fake::catalogue::provider(code).map(|p| p.games[0].id).unwrap_or("demo");
        // One player per connection: each one's bets and wins stay in its own rounds.
        let mut players = Vec::new();
        for _ in 0..conns {
            players.push(player(&http, &base, code, game).await?);
        }
        let keys = Keys { secret: providers::settings::demo_secret(code), extra: fake::demo_keys(code) };
        let stop = Arc::new(AtomicBool::new(false));
        let refused = Arc::new(AtomicUsize::new(0));
        let mut tasks = tokio::task::JoinSet::new();
        // Enough pairs for 5,000 callbacks a second, built and signed up front; a worker that
        // runs out stops early, and the rate is taken over the time the workers really ran.
        let pairs = (seconds as usize * 2_500).div_ceil(conns).max(1);
        let stamp = kernel::clock::now_ms();
        let mut work = Vec::new();
        for (n, (id, token)) in players.into_iter().enumerate() {
            let mut list = Vec::with_capacity(pairs * 2);
            for i in 0..pairs {
                let round = format!("load-{stamp}-{n}-{i}");
                let bet = Delivery { op: Op::Bet, player: id, token: token.clone(), tx: format!("{round}-b"), round: round.clone(), game: game.into(), amount: 10, currency: "TND".into(), of: None, forge: Forge::None };
                let win = Delivery { op: Op::Win, tx: format!("{round}-w"), amount: 10, ..bet.clone() };
                for d in [bet, win] {
                    let req = dialect.request(&d, &keys).ok_or_else(|| anyhow::anyhow!("{code} cannot build {d:?}"))?;
                    list.push((d, req));
                }
            }
            work.push(list);
        }
        let started = Instant::now();
        for list in work {
            let (http, base, stop, refused, dialect) = (http.clone(), base.clone(), stop.clone(), refused.clone(), dialect.clone());
            tasks.spawn(async move {
                let mut lat = Vec::new();
                for (d, req) in &list {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let t = Instant::now();
                    let a = fake::send(&http, &base, dialect.as_ref(), req, d, Retry { attempts: 1, pause: Duration::ZERO }).await;
                    lat.push(t.elapsed());
                    if a.outcome != Outcome::Done {
                        refused.fetch_add(1, Ordering::Relaxed);
                    }
                }
                (lat, Instant::now())
            });
        }
        let stopper = stop.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(seconds)).await;
            stopper.store(true, Ordering::Relaxed);
        });
        let mut lat = Vec::new();
        let mut end = started;
        while let Some(r) = tasks.join_next().await {
            let (l, finished) = r?;
            lat.extend(l);
            end = end.max(finished);
        }
        stop.store(true, Ordering::Relaxed);
        let elapsed = (end - started).as_secs_f64();
        lat.sort();
        println!(
            "| {code} | {} | {:.0} | {:.1} | {:.1} | {} |",
            signature_of(code),
            lat.len() as f64 / elapsed,
            pct(&lat, 0.5),
            pct(&lat, 0.99),
            refused.load(Ordering::Relaxed)
        );
    }
    Ok(())
}

fn signature_of(code: &str) -> &'static str {
    match code {
        "pragmatic" => "md5(sorted params + secret)",
        "evolution" => "authToken (shared secret)",
        "habanero" => "passkey (shared secret)",
        "slotegrator" => "HMAC-SHA1(headers + params)",
        "evoplay" => "md5(values joined by *)",
        "goldenrace" => "md5(values + key) fingerprint",
        "softswiss" => "HMAC-SHA256(raw body)",
        "hub88" => "RSA-SHA256(raw body)",
        _ => "?",
    }
}
