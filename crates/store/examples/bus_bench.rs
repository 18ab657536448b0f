//! The cost of cross-instance live updates (docs/PERFORMANCE.md "Live updates between
//! instances"): two buses on one PostgreSQL database, as two instances would have; one
//! publishes messages of a given size at a given rate, the other receives them. Prints
//! messages/s delivered and the delivery latency (p50, p99, max).
//!
//! `cargo run --release -p store --example bus_bench -- postgres://postgres@127.0.0.1:5432/postgres`

use std::time::{Duration, Instant};
use store::bus::{self, Bus, BusEvent};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = std::env::args().nth(1).unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let db = store::Db::connect(&url).await?;
    // `REDIS_URL` set: the Redis transport instead of NOTIFY.
    let redis = std::env::var("REDIS_URL").ok();
    let a = Bus::for_db(&db, "bench-a".into(), redis.as_deref());
    let b = Bus::for_db(&db, "bench-b".into(), redis.as_deref());
    anyhow::ensure!(a.shared(), "a PostgreSQL URL is needed");
    tokio::time::sleep(Duration::from_millis(500)).await; // listeners connected
    println!("size_bytes,offered_per_s,sent,delivered,delivered_per_s,p50_ms,p99_ms,max_ms,notifies");
    for (size, rate, n) in [(200usize, 1_000u64, 5_000usize), (200, 5_000, 20_000), (2_000, 1_000, 5_000), (20_000, 100, 500)] {
        let mut rx = b.subscribe(bus::CRASH_EVENTS);
        let start = Instant::now();
        let notifies_before = a.stats().notifies;
        let pad = "x".repeat(size.saturating_sub(24));
        let sender = {
            let a = a.clone();
            tokio::spawn(async move {
                let every = Duration::from_nanos(1_000_000_000 / rate);
                let mut next = Instant::now();
                for i in 0..n {
                    let t = start.elapsed().as_micros();
                    a.publish(bus::CRASH_EVENTS, format!("{i} {t} {pad}"));
                    next += every;
                    if let Some(wait) = next.checked_duration_since(Instant::now()) {
                        tokio::time::sleep(wait).await;
                    }
                }
            })
        };
        let mut lat: Vec<u128> = Vec::with_capacity(n);
        let deadline = Instant::now() + Duration::from_secs(60);
        while lat.len() < n && Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_secs(5), rx.recv()).await {
                Ok(Ok(BusEvent::Message(m))) => {
                    let mut it = m.body.splitn(3, ' ');
                    let _i = it.next();
                    let t: u128 = it.next().and_then(|t| t.parse().ok()).unwrap_or(0);
                    lat.push(start.elapsed().as_micros().saturating_sub(t));
                }
                Ok(Ok(BusEvent::Resync)) => {}
                Ok(Err(_)) => {}
                Err(_) => break,
            }
        }
        let took = start.elapsed();
        sender.await?;
        lat.sort_unstable();
        let q = |p: f64| lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1))).copied().unwrap_or(0) as f64 / 1000.0;
        println!(
            "{size},{rate},{n},{},{:.0},{:.2},{:.2},{:.2},{}",
            lat.len(),
            lat.len() as f64 / took.as_secs_f64(),
            q(0.5),
            q(0.99),
            lat.last().copied().unwrap_or(0) as f64 / 1000.0,
            a.stats().notifies - notifies_before
        );
    }
    Ok(())
}
