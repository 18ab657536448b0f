//! Exact RTP / brute force / simulation of a slot, from the catalogue or a JSON file (for tuning).
//!
//! cargo run --release -p studio --example slot_tool -- <game-id | path.json> [--sim SPINS] [--threads N] [--brute]
use std::time::Instant;

use studio::slots::{self, simulate, SlotGame};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = args.first().expect("usage: slot_tool <game-id|path.json> [--sim N] [--threads N] [--brute]");
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(|v| v.parse::<u64>().unwrap());
    let threads = flag("--threads").unwrap_or(2) as usize;
    let owned;
    let game: &SlotGame = if target.ends_with(".json") {
        owned = SlotGame::from_json(&std::fs::read_to_string(target).unwrap()).unwrap();
        &owned
    } else {
        slots::find(target).expect("no such game")
    };
    let t = Instant::now();
    let e = game.exact_rtp();
    println!("{}: exact RTP {}% ({} / {})  [{:?}]", game.id(), e.percent_string(6), e.numerator, e.denominator, t.elapsed());
    println!("  declared {} bp, rounded exact {} bp", game.declared_rtp_bp(), (e.rtp * 10000.0).round());
    println!("  hit frequency {}% (1 in {:.2})", e.hit_percent_string(4), 1.0 / e.hit_frequency);
    println!("  base lines {:.4}%, base scatters {:.4}%, feature {:.4}%", e.base_line_rtp * 100.0, e.base_scatter_rtp * 100.0, e.feature_rtp * 100.0);
    println!("  feature 1 in {:.1}, expected spins {:.3}, expected win {:.3} x bet", 1.0 / e.feature_probability, e.feature_expected_spins, e.feature_return_ratio);
    if args.iter().any(|a| a == "--brute") {
        for feature in [false, true] {
            let t = Instant::now();
            let b = game.enumerate(feature, threads);
            let a = game.analytic_totals(feature);
            println!("  brute force (feature={feature}) {:?} in {:?}: {}", b, t.elapsed(), if a == b { "MATCHES the analytic totals" } else { "DIFFERS" });
            if a != b {
                println!("  analytic {:?}", a);
            }
        }
    }
    if let Some(n) = flag("--sim") {
        let r = simulate(game, n, threads, &|_| {});
        println!(
            "  sim {} spins: rtp {:.4}% [{:.4}, {:.4}] hit {:.4}% feature 1 in {:.1} sd {:.3} max {}.{:02}x  {:.2} M spins/s ({:?})",
            r.spins,
            r.rtp * 100.0,
            r.ci99_low * 100.0,
            r.ci99_high * 100.0,
            r.hit_frequency * 100.0,
            1.0 / r.feature_frequency,
            r.std_dev,
            r.max_win_x100 / 100,
            r.max_win_x100 % 100,
            r.spins_per_sec / 1e6,
            r.elapsed
        );
    }
}
