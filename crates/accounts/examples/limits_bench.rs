//! Cost of one shared rate-limit check (docs/PERFORMANCE.md "Shared rate limits"):
//! `cargo run --release -p accounts --example limits_bench -- <DATABASE_URL> [n]`.
//! Measures, one at a time and then with 16 concurrent clients: a send check (one take of
//! two buckets, one transaction), and a whole successful sign-in's limit work (the take of
//! three buckets, then giving them back: two transactions).

use accounts::limits::{Limit, Limits, LimitsConfig, Outcome};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn pct(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    v[((v.len() as f64 - 1.0) * p) as usize].as_secs_f64() * 1e6
}

async fn run(limits: Arc<Limits>, n: usize, clients: usize, what: &'static str) -> (f64, f64, f64) {
    let start = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let limits = limits.clone();
            tokio::spawn(async move {
                let mut lat = Vec::with_capacity(n / clients);
                for i in 0..n / clients {
                    let t = Instant::now();
                    let key = format!("{c}-{i}-{}", rand::random::<u32>());
                    match what {
                        "send" => limits.check_send(&key, &format!("10.{c}.0.1")).await.expect("send"),
                        _ => {
                            let a = limits.begin_sign_in(&key, &format!("10.{c}.0.1")).await.expect("take");
                            limits.settle(a, Outcome::RightPassword).await.expect("settle");
                        }
                    }
                    lat.push(t.elapsed());
                }
                lat
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let per_s = all.len() as f64 / start.elapsed().as_secs_f64();
    (per_s, pct(&mut all, 0.5), pct(&mut all, 0.99))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).cloned().unwrap_or_else(|| "sqlite://target/limits_bench.db".into());
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let db = store::Db::connect(&url).await.expect("connect");
    db.migrate().await.expect("migrate");
    let many = Limit { burst: 1_000_000, period: Duration::from_millis(1) };
    let cfg = LimitsConfig { sends_per_ip: many, login_failures_per_ip: many, unknown_accounts_per_ip: many, ..LimitsConfig::default() };
    let limits = Arc::new(Limits::new(cfg, db.clone()));
    for what in ["send", "sign_in"] {
        for clients in [1, 16] {
            let (per_s, p50, p99) = run(limits.clone(), n, clients, what).await;
            println!("{what:8} clients={clients:2}  {per_s:8.0}/s  p50 {p50:7.0} µs  p99 {p99:7.0} µs");
        }
    }
    let purged = accounts::limits::purge_expired(&db).await.expect("purge");
    println!("purged {purged} rows");
}
