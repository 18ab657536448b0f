//! Load generator for the seamless provider wallet: signed bet+win pairs, as a provider
//! sends them, against a running demo server (provider `demo`, secret `demo-secret`).
//!
//!   cargo run --release -p server --example wallet_load -- http://127.0.0.1:8080 10 64 64 [rate]
//!   (base URL, seconds, concurrent connections, players; with `rate`, an open loop: a pair
//!   starts every 1/rate s whatever the replies, and its latency counts from that due moment,
//!   so a stalled server is not hidden by the generator waiting for it)
//!
//! Prints pairs per second and the latency of a whole pair (bet then win) at p50/p90/p99.
//!
//! `LOAD=balance`: a closed loop of balance reads instead (`GET /api/user/balance` with each
//! player's bearer token, as the player app polls it): reads per second and their latency.
//! Every pair stakes 100 minor units and wins 100 back, so balances stay put; the server's
//! `ledger verify` must pass afterwards (benches/wallet.sh runs it).

use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const SECRET: &str = "demo-secret";

async fn signed(http: &reqwest::Client, base: &str, op: &str, body: &Value) -> anyhow::Result<Value> {
    let raw = serde_json::to_vec(body)?;
    let ts = (std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_secs()).to_string();
    let sig = casino::signature::sign(SECRET, &ts, &raw);
    let resp = http
        .post(format!("{base}/api/wallet/v1/{op}"))
        .header("content-type", "application/json")
        .header("x-provider", "demo")
        .header("x-timestamp", ts)
        .header("x-signature", sig)
        .body(raw)
        .send()
        .await?;
    let v: Value = resp.json().await?;
    anyhow::ensure!(v["status"] == 0, "{op}: {v}");
    Ok(v)
}

/// One bet then its win in round `round` (stake 100, won back): true when both were accepted.
async fn pair(http: &reqwest::Client, base: &str, token: &str, round: &str) -> bool {
    let call = |suffix: &str| json!({"sessionToken": token, "transactionId": format!("{round}-{suffix}"), "roundId": round, "gameId": "demo-table", "amount": 100, "currency": "TND"});
    let (bet, win) = (call("b"), call("w"));
    signed(http, base, "bet", &bet).await.is_ok() && signed(http, base, "win", &win).await.is_ok()
}

/// The `p` quantile of sorted durations, in milliseconds (0 when there are none).
fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    sorted.get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1))).map(|d| d.as_secs_f64() * 1000.0).unwrap_or(0.0)
}

/// A new player (one-click sign-up) with a demo game session: (bearer token, game session
/// token).
async fn player(http: &reqwest::Client, base: &str) -> anyhow::Result<(String, String)> {
    let s: Value = http.post(format!("{base}/api/user/signup/one-click")).json(&json!({"currency": "TND"})).send().await?.json().await?;
    let token = s["result"]["token"].as_str().ok_or_else(|| anyhow::anyhow!("sign-up: {s}"))?.to_string();
    let l: Value = http
        .post(format!("{base}/api/casino/session"))
        .bearer_auth(&token)
        .json(&json!({"provider": "demo", "gameId": "demo-table", "lang": "en", "platform": "desktop"}))
        .send()
        .await?
        .json()
        .await?;
    let session = l["result"]["sessionToken"].as_str().ok_or_else(|| anyhow::anyhow!("launch: {l}"))?.to_string();
    Ok((token, session))
}

/// One balance read with the player's bearer token: true when it answered status 0.
async fn balance(http: &reqwest::Client, base: &str, bearer: &str) -> bool {
    let Ok(resp) = http.get(format!("{base}/api/user/balance")).bearer_auth(bearer).send().await else {
        return false;
    };
    resp.json::<Value>().await.is_ok_and(|v| v["status"] == 0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let base = args.get(1).cloned().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let secs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let conns: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(64);
    let players: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(64);
    let http = reqwest::Client::builder().pool_max_idle_per_host(conns).build()?;

    let mut sessions = Vec::with_capacity(players);
    let mut bearers = Vec::with_capacity(players);
    for _ in 0..players {
        let (bearer, session) = player(&http, &base).await?;
        bearers.push(bearer);
        sessions.push(session);
    }
    let reads = std::env::var("LOAD").is_ok_and(|l| l == "balance");
    // Balance reads use the bearer tokens, pairs the game sessions.
    let sessions = Arc::new(if reads { bearers } else { sessions });
    if let Some(rate) = args.get(5).and_then(|s| s.parse::<u64>().ok()).filter(|r| *r > 0) {
        anyhow::ensure!(!reads, "LOAD=balance runs a closed loop only (no rate)");
        return open_loop(http, base, sessions, secs, rate).await;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let errors = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..conns {
        let (http, base, sessions, stop, errors) = (http.clone(), base.clone(), sessions.clone(), stop.clone(), errors.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let token = &sessions[(w + n as usize * conns) % sessions.len()];
                let t = Instant::now();
                let ok = if reads { balance(&http, &base, token).await } else { pair(&http, &base, token, &format!("l{w}-{n}")).await };
                if ok {
                    latencies.push(t.elapsed());
                } else {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
                n += 1;
            }
            latencies
        }));
    }
    tokio::time::sleep(Duration::from_secs(secs)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let rate = all.len() as f64 / elapsed;
    let latency = format!(
        "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, errors {}",
        percentile_ms(&all, 0.50),
        percentile_ms(&all, 0.90),
        percentile_ms(&all, 0.99),
        errors.load(Ordering::Relaxed)
    );
    if reads {
        println!("balance reads {} in {elapsed:.1} s: {rate:.0} reads/s, latency {latency}", all.len());
    } else {
        println!("pairs {} in {elapsed:.1} s: {rate:.0} bet+win pairs/s ({:.0} wallet calls/s), pair latency {latency}", all.len(), 2.0 * rate);
    }
    Ok(())
}

/// Pairs started at a fixed rate (open loop), each timed from its due moment.
async fn open_loop(http: reqwest::Client, base: String, sessions: Arc<Vec<String>>, secs: u64, rate: u64) -> anyhow::Result<()> {
    let total = secs * rate;
    let started = tokio::time::Instant::now();
    let errors = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::with_capacity(total as usize);
    for n in 0..total {
        let due = started + Duration::from_nanos(n * 1_000_000_000 / rate);
        tokio::time::sleep_until(due).await;
        let (http, base, sessions, errors) = (http.clone(), base.clone(), sessions.clone(), errors.clone());
        tasks.push(tokio::spawn(async move {
            let token = &sessions[n as usize % sessions.len()];
            let ok = pair(&http, &base, token, &format!("o{n}-{rate}")).await;
            if !ok {
                errors.fetch_add(1, Ordering::Relaxed);
            }
            ok.then(|| due.elapsed())
        }));
    }
    let mut all = Vec::with_capacity(tasks.len());
    for t in tasks {
        if let Some(d) = t.await? {
            all.push(d);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| percentile_ms(&all, p);
    println!(
        "open loop at {rate} pairs/s offered: {} pairs answered in {:.1} s ({:.0} pairs/s), pair latency from its due moment p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms, errors {}",
        all.len(),
        elapsed,
        all.len() as f64 / elapsed,
        pct(0.50),
        pct(0.90),
        pct(0.99),
        all.last().map(|d| d.as_secs_f64() * 1000.0).unwrap_or(0.0),
        errors.load(Ordering::Relaxed)
    );
    Ok(())
}
