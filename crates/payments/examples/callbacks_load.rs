//! Load generator for signed payment callbacks: prepares `intents` sandbox deposits over
//! HTTP (one-click players, payment tokens, deposits), then sends each one's signed success
//! callback (`Carthage-Signature`, as the sandbox does) with `connections` concurrent
//! connections, and prints callbacks per second and latency p50/p90/p99. Every callback is
//! a distinct deposit credited once; `ledger verify` must pass afterwards (benches/callbacks.sh).
//!
//!   cargo run --release -p payments --example callbacks_load -- http://127.0.0.1:8080 5000 64
//!   (base URL, intents, concurrent connections; secret from PAYMENTS_SANDBOX_SECRET or the demo one)

use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn post(http: &reqwest::Client, url: String, cookie: Option<&str>, body: Value) -> anyhow::Result<Value> {
    let mut req = http.post(url).json(&body);
    if let Some(c) = cookie {
        req = req.header("authorization", format!("Bearer {c}"));
    }
    let v: Value = req.send().await?.json().await?;
    anyhow::ensure!(v["status"] == 0, "{v}");
    Ok(v["result"].clone())
}

/// `(intent id, sandbox reference)` of a new 10 TND deposit of a player.
async fn prepare(http: &reqwest::Client, base: &str, token: &str) -> anyhow::Result<(i64, String)> {
    let t = post(http, format!("{base}/api/payment/token"), Some(token), json!({})).await?;
    let d = post(http, format!("{base}/api/payment/deposit"), Some(token), json!({"amount": 10, "sessionToken": t["token"]})).await?;
    let url = d["invoice_url"].as_str().ok_or_else(|| anyhow::anyhow!("no invoice_url: {d}"))?;
    let reference = url.trim_start_matches("/pay/sandbox/").split('?').next().unwrap_or_default().to_string();
    Ok((d["id"].as_i64().unwrap_or_default(), reference))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let base = args.get(1).cloned().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let intents: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5000);
    let conns: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(64);
    let secret = std::env::var("PAYMENTS_SANDBOX_SECRET").unwrap_or_else(|_| payments::PaymentsConfig::default().sandbox_secret);
    let http = reqwest::Client::builder().pool_max_idle_per_host(conns).build()?;

    // Players: one per 50 deposits.
    let players = intents.div_ceil(50).max(1);
    let mut tokens = Vec::new();
    for _ in 0..players {
        let s = post(&http, format!("{base}/api/user/signup/one-click"), None, json!({"currency": "TND"})).await?;
        tokens.push(s["token"].as_str().ok_or_else(|| anyhow::anyhow!("sign-up: {s}"))?.to_string());
    }
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let mut setup = tokio::task::JoinSet::new();
    for _ in 0..conns.min(32) {
        let (http, base, tokens, next) = (http.clone(), base.clone(), tokens.clone(), next.clone());
        setup.spawn(async move {
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= intents {
                    return Ok::<_, anyhow::Error>(out);
                }
                out.push(prepare(&http, &base, &tokens[i % tokens.len()]).await?);
            }
        });
    }
    let mut work = Vec::new();
    while let Some(r) = setup.join_next().await {
        work.extend(r??);
    }
    eprintln!("# prepared {} deposits in {:.1}s", work.len(), started.elapsed().as_secs_f64());

    let work = Arc::new(work);
    let next = Arc::new(AtomicUsize::new(0));
    let cpu_before = server_cpu_s();
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..conns {
        let (http, base, work, next, secret) = (http.clone(), base.clone(), work.clone(), next.clone(), secret.clone());
        tasks.spawn(async move {
            let mut lat = Vec::new();
            let mut errors = 0u64;
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((id, reference)) = work.get(i) else {
                    return (lat, errors);
                };
                let body = json!({"id": format!("evt_bench_{id}"), "type": "payment.succeeded", "data": {
                    "reference": reference, "intent_id": id.to_string(), "kind": "deposit", "status": "succeeded", "amount": 10_000, "currency": "TND"}})
                .to_string();
                let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or_default();
                let sig = payments::signature::sign_header(&secret, t, body.as_bytes());
                let at = Instant::now();
                let r = http.post(format!("{base}/api/payment/callback/sandbox")).header("content-type", "application/json").header("Carthage-Signature", sig).body(body).send().await;
                let good = match r {
                    Ok(resp) => resp.json::<Value>().await.is_ok_and(|v| v["status"] == 0 && v["result"]["status"] == "succeeded"),
                    Err(_) => false,
                };
                lat.push(at.elapsed());
                if !good {
                    errors += 1;
                }
            }
        });
    }
    let mut lat: Vec<Duration> = Vec::new();
    let mut errors = 0;
    while let Some(r) = tasks.join_next().await {
        let (l, e) = r?;
        lat.extend(l);
        errors += e;
    }
    let secs = started.elapsed().as_secs_f64();
    let cpu = server_cpu_s().zip(cpu_before).map(|(a, b)| a - b);
    lat.sort();
    let p = |q: f64| lat.get(((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1))).map(|d| d.as_secs_f64() * 1000.0).unwrap_or(0.0);
    println!(
        "{} callbacks in {secs:.2}s: {:.0} callbacks/s, p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, {errors} errors ({conns} connections)",
        lat.len(),
        lat.len() as f64 / secs,
        p(0.5),
        p(0.9),
        p(0.99)
    );
    if let Some(cpu) = cpu {
        println!(
            "server CPU {cpu:.2} s for {} callbacks: {:.2} ms per callback (≈ {:.0} callbacks/s per core with the machine to itself)",
            lat.len(),
            cpu * 1000.0 / lat.len() as f64,
            lat.len() as f64 / cpu
        );
    }
    Ok(())
}

/// The server's user + system CPU seconds (`SERVER_PID`, Linux `/proc`), if known.
fn server_cpu_s() -> Option<f64> {
    let pid = std::env::var("SERVER_PID").ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
