//! Monte-Carlo simulation of whole rounds through the same `round` code as `play`, without any
//! allocation per spin. Work is cut into chunks of 2^20 rounds; chunk k draws from
//! `SimRng::seeded(master ^ k * φ)`, so a seeded run gives the same totals with any thread count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{NoSink, SlotGame};
use crate::fair::SimRng;

const CHUNK: u64 = 1 << 20;
/// Two-sided 99 % quantile of the normal distribution.
const Z99: f64 = 2.575_829_303_548_901;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimReport {
    pub game: String,
    pub spins: u64,
    pub threads: usize,
    /// Mean return per unit bet.
    pub rtp: f64,
    /// Share of rounds returning anything.
    pub hit_frequency: f64,
    /// Share of rounds triggering the feature.
    pub feature_frequency: f64,
    /// Standard deviation of one round's return per unit bet.
    pub std_dev: f64,
    /// 99 % confidence interval of the RTP (normal approximation).
    pub ci99_low: f64,
    pub ci99_high: f64,
    /// Largest single-round return seen, in hundredths of the bet (integer, rounded down).
    pub max_win_x100: u64,
    pub elapsed: Duration,
    pub spins_per_sec: f64,
}

#[derive(Default, Clone, Copy)]
struct Acc {
    spins: u64,
    units: u128,
    squares: u128,
    hits: u64,
    features: u64,
    max: u64,
}

impl Acc {
    fn add(&mut self, o: &Acc) {
        self.spins += o.spins;
        self.units += o.units;
        self.squares += o.squares;
        self.hits += o.hits;
        self.features += o.features;
        self.max = self.max.max(o.max);
    }
}

#[inline(never)]
fn run_chunk(game: &SlotGame, rng: &mut SimRng, n: u64) -> Acc {
    let mut a = Acc { spins: n, ..Acc::default() };
    let (mut units, mut squares, mut hits, mut features, mut max) = (0u128, 0u128, 0u64, 0u64, 0u64);
    for _ in 0..n {
        let r = game.round(rng, &mut NoSink);
        units += r.units as u128;
        squares += r.units as u128 * r.units as u128;
        hits += (r.units > 0) as u64;
        features += r.feature as u64;
        max = max.max(r.units);
    }
    a.units = units;
    a.squares = squares;
    a.hits = hits;
    a.features = features;
    a.max = max;
    a
}

fn chunk_rng(master: u64, k: u64) -> SimRng {
    SimRng::seeded(master ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Simulates `spins` rounds on `threads` threads (OS-seeded). `progress` receives the number of
/// rounds done so far (from any thread, about every million rounds).
pub fn simulate(game: &SlotGame, spins: u64, threads: usize, progress: &(dyn Fn(u64) + Sync)) -> SimReport {
    simulate_seeded(game, spins, threads, SimRng::from_os().next_u64(), progress)
}

/// As [`simulate`], reproducible from `seed` (the same totals for any number of threads).
pub fn simulate_seeded(
    game: &SlotGame,
    spins: u64,
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> SimReport {
    let threads = threads.max(1);
    let chunks = spins.div_ceil(CHUNK);
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let total = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut acc = Acc::default();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= chunks {
                            break;
                        }
                        let n = CHUNK.min(spins - k * CHUNK);
                        let mut rng = chunk_rng(seed, k);
                        acc.add(&run_chunk(game, &mut rng, n));
                        progress(done.fetch_add(n, Ordering::Relaxed) + n);
                    }
                    acc
                })
            })
            .collect();
        let mut total = Acc::default();
        for h in handles {
            total.add(&h.join().expect("simulation thread"));
        }
        total
    });
    let elapsed = start.elapsed();
    report(game, total, threads, elapsed)
}

fn report(game: &SlotGame, a: Acc, threads: usize, elapsed: Duration) -> SimReport {
    let lines = game.lines.len() as f64;
    let n = a.spins.max(1) as f64;
    let mean_units = a.units as f64 / n;
    let var_units = (a.squares as f64 / n - mean_units * mean_units).max(0.0);
    let rtp = mean_units / lines;
    let std_dev = var_units.sqrt() / lines;
    let half = Z99 * std_dev / n.sqrt();
    SimReport {
        game: game.id.clone(),
        spins: a.spins,
        threads,
        rtp,
        hit_frequency: a.hits as f64 / n,
        feature_frequency: a.features as f64 / n,
        std_dev,
        ci99_low: rtp - half,
        ci99_high: rtp + half,
        max_win_x100: (a.max as u128 * 100 / game.lines.len().max(1) as u128) as u64,
        elapsed,
        spins_per_sec: a.spins as f64 / elapsed.as_secs_f64().max(1e-9),
    }
}
