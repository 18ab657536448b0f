//! Simulation throughput: cargo run --release -p studio --example bench -- [SPINS] [THREADS] [GAME-ID…]
use studio::slots::{catalogue, simulate_seeded};

fn main() {
    let only: Vec<String> = std::env::args().skip(1).filter(|a| a.parse::<u64>().is_err()).collect();
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let spins = args.first().copied().unwrap_or(50_000_000);
    let threads = args.get(1).copied().unwrap_or(2) as usize;
    for g in catalogue().iter().filter(|g| only.is_empty() || only.iter().any(|o| o == g.id())) {
        let r = simulate_seeded(g, spins, threads, 1, &|_| {});
        println!(
            "{:16} {:>12} rounds, {} threads: {:6.2} M rounds/s, {:5.1} ns/round/thread, 1e9 rounds in {:5.1} s (rtp {:.4} %)",
            g.id(),
            r.spins,
            threads,
            r.spins_per_sec / 1e6,
            r.elapsed.as_nanos() as f64 * threads as f64 / r.spins as f64,
            1e9 / r.spins_per_sec,
            r.rtp * 100.0
        );
    }
}
