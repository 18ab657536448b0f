//! The simulator at platform scale: how many odds changes it produces and what a tick costs.
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-sb cargo run --release -p sportsbook --example sim_scale -- \
//!     [live] [seconds] [tick_ms] [speed] [reprice_ms]
//! ```
//!
//! Defaults: 2,000 live matches, 120 simulated seconds, a tick every 100 ms, speed 15, a reprice
//! every 30,000 ms of match time. The
//! simulated time is not slept: ticks run back to back and the wall time each takes is measured,
//! so "CPU per simulated second" below 1,000 ms means the simulator keeps up with real time. Every
//! message also goes through `Line::apply` and is encoded as JSON, as the platform would do.

use std::time::Instant;

use sportsbook::feed::FeedMessage;
use sportsbook::sim::{SimConfig, Simulator};
use sportsbook::Line;

fn main() {
    let args: Vec<i64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let live = args.first().copied().unwrap_or(2_000) as usize;
    let seconds = args.get(1).copied().unwrap_or(120);
    let tick_ms = args.get(2).copied().unwrap_or(100).max(1);
    let defaults = SimConfig::default();
    let config = SimConfig {
        live_events: live,
        speed: args.get(3).map_or(defaults.speed, |&s| s.max(1) as u32),
        reprice_every_ms: args.get(4).copied().unwrap_or(defaults.reprice_every_ms).max(1),
        ..defaults
    };
    println!(
        "live events {live}, speed {}x, tick {tick_ms} ms, {seconds} simulated s, reprice every {} s of match time",
        config.speed,
        config.reprice_every_ms / 1000
    );
    let mut sim = Simulator::new(2026, config);
    let mut line = Line::new();
    let t0: i64 = 1_767_225_600_000;

    let start = Instant::now();
    let first = sim.tick(t0);
    let mut bytes = 0usize;
    for m in &first {
        line.apply(m).expect("the simulator's messages are valid");
        bytes += serde_json::to_vec(m).expect("encodable").len();
    }
    println!(
        "first tick (warm start): {} messages, {:.1} MB of JSON, {} ms, {} live, {} scheduled",
        first.len(),
        bytes as f64 / 1e6,
        start.elapsed().as_millis(),
        sim.live_count(),
        sim.scheduled_count()
    );

    let (mut messages, mut odds_msgs, mut markets, mut outcomes, mut bytes) = (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut by_kind = std::collections::BTreeMap::<&str, usize>::new();
    let mut tick_us: Vec<u128> = Vec::new();
    let mut apply_us: u128 = 0;
    let mut live_sum = 0usize;
    let ticks = seconds * 1000 / tick_ms;
    for i in 1..=ticks {
        let t = Instant::now();
        let batch = sim.tick(t0 + i * tick_ms);
        let a = Instant::now();
        for m in &batch {
            line.apply(m).expect("the simulator's messages are valid");
            bytes += serde_json::to_vec(m).expect("encodable").len();
        }
        apply_us += a.elapsed().as_micros();
        tick_us.push(t.elapsed().as_micros());
        live_sum += sim.live_count();
        for m in &batch {
            messages += 1;
            *by_kind.entry(m.kind()).or_default() += 1;
            if let FeedMessage::OddsChange(o) = m {
                odds_msgs += 1;
                markets += o.markets.len();
                outcomes += o.markets.iter().map(|mk| mk.outcomes.len()).sum::<usize>();
            }
        }
        line.prune(t0 + i * tick_ms - 60_000);
    }
    let secs = seconds as f64;
    tick_us.sort_unstable();
    let total_ms = tick_us.iter().sum::<u128>() as f64 / 1000.0;
    let pct = |p: f64| tick_us[((tick_us.len() as f64 - 1.0) * p) as usize] as f64 / 1000.0;
    println!("average live matches: {:.0}", live_sum as f64 / ticks as f64);
    println!(
        "per simulated second: {:.0} odds_change messages, {:.0} markets changed, {:.0} outcome prices sent, {:.0} messages in all, {:.2} MB JSON",
        odds_msgs as f64 / secs,
        markets as f64 / secs,
        outcomes as f64 / secs,
        messages as f64 / secs,
        bytes as f64 / secs / 1e6
    );
    println!("messages by type: {by_kind:?}");
    println!(
        "tick (simulate + apply + encode): mean {:.2} ms, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; of which apply + encode {:.0} %",
        total_ms / ticks as f64,
        pct(0.5),
        pct(0.99),
        pct(1.0),
        apply_us as f64 / 1000.0 / total_ms * 100.0
    );
    println!(
        "CPU per simulated second: {:.0} ms ({:.1} % of one core); line holds {} events",
        total_ms / secs,
        total_ms / secs / 10.0,
        line.events.len()
    );
}
