//! Exact return to player.
//!
//! Every stop combination of five strips is equally likely, so the expected value of anything is a
//! sum over the product of the strip lengths. Nothing here samples:
//!
//! * Lines: a line reads one row of each reel, and the reels are independent, so its expected pay is
//!   the sum over every 5-symbol combination of (number of stops of each reel showing that symbol on
//!   that line's row, after wild expansion) x pay. Summed over the lines this equals the brute-force
//!   sum over all stop combinations exactly ([`enumerate`] checks it).
//! * Scatters: the distribution of the scatter count is the convolution of each reel's count of
//!   stops with 0 or 1 scatter in view.
//! * Feature: free spins are independent and identically distributed; each spin adds `retrigger`
//!   spins with probability p, so the expected number of spins is spins / (1 - retrigger x p), and
//!   (Wald) the expected feature win is that times the expected win of one spin times the mean
//!   multiplier.
//! * Hit frequency (P(round win > 0)): a line's win is decided by its first three positions (checked
//!   when the game is loaded), and 3+ scatters always pay, so it is an enumeration over the stops of
//!   reels 0-2 with the scatter counts of reels 3-4 convolved in.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::ToPrimitive;
use serde::Serialize;

use super::{ReelSet, SlotGame, REELS, ROWS};

/// The exact RTP and hit frequency of a game (per unit of total bet).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExactRtp {
    /// RTP = numerator / denominator (reduced).
    pub numerator: u128,
    pub denominator: u128,
    pub rtp: f64,
    /// Probability that a round returns anything = hit_numerator / hit_denominator (reduced).
    pub hit_numerator: u128,
    pub hit_denominator: u128,
    pub hit_frequency: f64,
    /// Parts of the RTP: base-game lines, base-game scatters, the feature.
    pub base_line_rtp: f64,
    pub base_scatter_rtp: f64,
    pub feature_rtp: f64,
    /// Probability that a round triggers the feature.
    pub feature_probability: f64,
    /// Expected number of spins of a feature (retriggers included).
    pub feature_expected_spins: f64,
    /// Expected return of a feature as a ratio to the total bet (a statistic, like the
    /// RTP fields; no amount of money is ever derived from it).
    pub feature_return_ratio: f64,
    /// Stop combinations of the base and of the feature strips.
    pub base_combinations: u128,
    pub feature_combinations: u128,
}

impl ExactRtp {
    /// The RTP as a percentage with `decimals` exact digits (truncated).
    pub fn percent_string(&self, decimals: usize) -> String {
        decimal(self.numerator, self.denominator, decimals)
    }
    /// The hit frequency as a percentage with `decimals` exact digits (truncated).
    pub fn hit_percent_string(&self, decimals: usize) -> String {
        decimal(self.hit_numerator, self.hit_denominator, decimals)
    }
}

/// `100 * num / den` with `decimals` digits after the point, truncated.
fn decimal(num: u128, den: u128, decimals: usize) -> String {
    let num = BigUint::from(num) * 100u32;
    let den = BigUint::from(den);
    let (int, mut rem) = num.div_rem(&den);
    let mut s = int.to_string();
    if decimals > 0 {
        s.push('.');
        for _ in 0..decimals {
            rem *= 10u32;
            let (d, r) = rem.div_rem(&den);
            s.push_str(&d.to_string());
            rem = r;
        }
    }
    s
}

/// Sums over every stop combination of one strip set (all in line-bet units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EnumerationTotals {
    pub combinations: u128,
    /// Sum of line wins (before multipliers).
    pub line_units: u128,
    /// Sum of scatter wins (before multipliers).
    pub scatter_units: u128,
    /// Combinations where the spin wins anything.
    pub hits: u128,
    /// Combinations with `triggerCount` or more scatters.
    pub triggers: u128,
}

/// The same totals as [`enumerate`], computed analytically.
pub(crate) fn set_totals(game: &SlotGame, set: &ReelSet) -> EnumerationTotals {
    let combinations = set.combinations();
    let line_units = line_sum(game, set);
    let dist = scatter_distribution(set, 0..REELS);
    let scatter_units = dist.iter().enumerate().map(|(c, &k)| k * game.scatter_units[c] as u128).sum();
    let trig = game.feature.trigger_count as usize;
    let triggers = dist.iter().skip(trig).sum();
    let hits = hit_count(game, set);
    EnumerationTotals { combinations, line_units, scatter_units, hits, triggers }
}

/// Sum over all stop combinations of all line pays (line-bet units).
fn line_sum(game: &SlotGame, set: &ReelSet) -> u128 {
    let n = game.symbols.len();
    // weights[r][row][s] = number of stops of reel r whose effective symbol on `row` is s.
    let mut weights = vec![vec![vec![0u64; n]; ROWS]; REELS];
    for (w, eff) in weights.iter_mut().zip(&set.eff) {
        for e in eff {
            for (row, &s) in e.iter().enumerate() {
                w[row][s as usize] += 1;
            }
        }
    }
    let mut memo: HashMap<Vec<u64>, u128> = HashMap::new();
    let mut total = 0u128;
    for line in &game.lines {
        let key: Vec<u64> = (0..REELS).flat_map(|r| weights[r][line[r] as usize].iter().copied()).collect();
        let v = *memo.entry(key).or_insert_with(|| {
            let w: [&[u64]; REELS] = std::array::from_fn(|r| weights[r][line[r] as usize].as_slice());
            line_value(game, w)
        });
        total += v;
    }
    total
}

/// Sum over all symbol combinations of (product of per-reel weights) x pay.
fn line_value(game: &SlotGame, w: [&[u64]; REELS]) -> u128 {
    let n = game.symbols.len();
    let mut total = 0u128;
    for s0 in 0..n {
        let p0 = w[0][s0] as u128;
        if p0 == 0 {
            continue;
        }
        for s1 in 0..n {
            let p1 = p0 * w[1][s1] as u128;
            if p1 == 0 {
                continue;
            }
            for s2 in 0..n {
                let p2 = p1 * w[2][s2] as u128;
                if p2 == 0 {
                    continue;
                }
                let i2 = ((s0 * n + s1) * n + s2) * n * n;
                for s3 in 0..n {
                    let p3 = p2 * w[3][s3] as u128;
                    if p3 == 0 {
                        continue;
                    }
                    let i3 = i2 + s3 * n;
                    for (s4, &w4) in w[4].iter().enumerate() {
                        let code = game.table[i3 + s4];
                        if code != 0 {
                            total += p3 * w4 as u128 * game.kind_units[code as usize] as u128;
                        }
                    }
                }
            }
        }
    }
    total
}

/// Number of stop combinations of `reels` by scatter count (index = count).
fn scatter_distribution(set: &ReelSet, reels: std::ops::Range<usize>) -> Vec<u128> {
    let mut dist = vec![1u128];
    for r in reels {
        let mut per = [0u128; ROWS + 1];
        for c in &set.cols[r] {
            per[c.scatters as usize] += 1;
        }
        let mut next = vec![0u128; dist.len() + ROWS];
        for (a, &x) in dist.iter().enumerate() {
            for (b, &y) in per.iter().enumerate() {
                next[a + b] += x * y;
            }
        }
        while next.len() > 1 && *next.last().unwrap() == 0 {
            next.pop();
        }
        dist = next;
    }
    dist
}

/// Combinations whose spin wins anything (lines or scatters).
fn hit_count(game: &SlotGame, set: &ReelSet) -> u128 {
    let n = game.symbols.len();
    let tail = scatter_distribution(set, 3..REELS);
    let tail_total: u128 = tail.iter().sum();
    // For each scatter count on reels 0-2, the number of reel 3-4 combinations making the scatters pay.
    let mut scatter_hits = [0u128; 16];
    for (c012, slot) in scatter_hits.iter_mut().enumerate().take(10) {
        *slot = tail.iter().enumerate().filter(|(c34, _)| game.scatter_units[c012 + c34] > 0).map(|(_, &k)| k).sum();
    }
    // prefix_win[(s0 * n + s1) * n + s2]: a line starting with these symbols wins.
    let prefix_win = &game.prefix[..];
    let mut hits = 0u128;
    let (l0, l1, l2) = (set.len(0), set.len(1), set.len(2));
    for a in 0..l0 {
        let ea = set.eff[0][a];
        let ca = set.cols[0][a].scatters as usize;
        for b in 0..l1 {
            let eb = set.eff[1][b];
            let cb = set.cols[1][b].scatters as usize;
            for c in 0..l2 {
                let ec = set.eff[2][c];
                let cc = set.cols[2][c].scatters as usize;
                let line_hit = game.lines.iter().any(|l| {
                    let p = (ea[l[0] as usize] as usize * n + eb[l[1] as usize] as usize) * n + ec[l[2] as usize] as usize;
                    prefix_win[p]
                });
                hits += if line_hit { tail_total } else { scatter_hits[ca + cb + cc] };
            }
        }
    }
    hits
}

fn big(x: u128) -> BigUint {
    BigUint::from(x)
}

fn to_u128(x: &BigUint, what: &str) -> u128 {
    x.to_u128().unwrap_or_else(|| panic!("{what} does not fit in 128 bits; shorten the strips"))
}

fn ratio(num: &BigUint, den: &BigUint) -> f64 {
    // Scale to keep 60+ significant bits before converting.
    let scale = BigUint::from(1u128 << 100);
    let q = (num * &scale) / den;
    q.to_f64().unwrap_or(f64::NAN) / (1u128 << 100) as f64
}

pub(crate) fn exact_rtp(game: &SlotGame) -> ExactRtp {
    let base = set_totals(game, &game.base);
    let free = set_totals(game, &game.free);
    let lines = big(game.lines.len() as u128);
    let f = &game.feature;

    let cb = big(base.combinations);
    let cf = big(free.combinations);
    let retrig = big(f.retrigger as u128) * big(free.triggers);
    assert!(retrig < cf, "{}: the feature retriggers too often to end", game.id);
    let dq = &cf - &retrig; // (1 - retrigger * p) * combos_f
    let w_total: u128 = f.multipliers.iter().map(|m| m.weight as u128).sum();
    let m_num: u128 = f.multipliers.iter().map(|m| m.weight as u128 * m.value as u128).sum();
    let wf = big(free.line_units + free.scatter_units); // feature spin units x combos_f
    // Feature value in units: wf/cf * m_num/w_total * spins * cf/dq = wf * m_num * spins / (w_total * dq)
    let v_num = &wf * big(m_num) * big(f.spins as u128);
    let v_den = big(w_total) * &dq;

    // RTP = [(line_b + scat_b)/cb + trig_b/cb * v_num/v_den] / lines
    let base_units = big(base.line_units + base.scatter_units);
    let num = &base_units * &v_den + big(base.triggers) * &v_num;
    let den = &cb * &v_den * &lines;
    let g = num.gcd(&den);
    let (num_r, den_r) = (&num / &g, &den / &g);

    let hit_g = base.hits.gcd(&base.combinations).max(1);

    let feature_den = &cb * &v_den * &lines;
    let feature_num = big(base.triggers) * &v_num;
    ExactRtp {
        numerator: to_u128(&num_r, "RTP numerator"),
        denominator: to_u128(&den_r, "RTP denominator"),
        rtp: ratio(&num, &den),
        hit_numerator: base.hits / hit_g,
        hit_denominator: base.combinations / hit_g,
        hit_frequency: base.hits as f64 / base.combinations as f64,
        base_line_rtp: ratio(&big(base.line_units), &(&cb * &lines)),
        base_scatter_rtp: ratio(&big(base.scatter_units), &(&cb * &lines)),
        feature_rtp: ratio(&feature_num, &feature_den),
        feature_probability: base.triggers as f64 / base.combinations as f64,
        feature_expected_spins: ratio(&(big(f.spins as u128) * &cf), &dq),
        feature_return_ratio: ratio(&v_num, &(&v_den * &lines)),
        base_combinations: base.combinations,
        feature_combinations: free.combinations,
    }
}

/// Brute force over every stop combination of one strip set, through `eval_stops`.
pub(crate) fn enumerate(game: &SlotGame, feature: bool, threads: usize) -> EnumerationTotals {
    let set = if feature { &game.free } else { &game.base };
    let threads = threads.max(1);
    let l0 = set.len(0);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let trig = game.feature.trigger_count;
    let parts: Vec<EnumerationTotals> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut t = EnumerationTotals::default();
                    loop {
                        let a = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if a >= l0 {
                            break;
                        }
                        for b in 0..set.len(1) as u32 {
                            for c in 0..set.len(2) as u32 {
                                for d in 0..set.len(3) as u32 {
                                    for e in 0..set.len(4) as u32 {
                                        let ev = game.eval_stops(set, [a as u32, b, c, d, e]);
                                        let sc = game.scatter_units[ev.scatters as usize];
                                        t.combinations += 1;
                                        t.line_units += ev.line_units as u128;
                                        t.scatter_units += sc as u128;
                                        t.hits += (ev.line_units + sc > 0) as u128;
                                        t.triggers += (ev.scatters >= trig) as u128;
                                    }
                                }
                            }
                        }
                    }
                    t
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("enumeration thread")).collect()
    });
    parts.into_iter().fold(EnumerationTotals::default(), |mut acc, t| {
        acc.combinations += t.combinations;
        acc.line_units += t.line_units;
        acc.scatter_units += t.scatter_units;
        acc.hits += t.hits;
        acc.triggers += t.triggers;
        acc
    })
}

/// The analytic totals of the base (`false`) or feature strips, for comparison with [`enumerate`].
pub(crate) fn analytic_totals(game: &SlotGame, feature: bool) -> EnumerationTotals {
    set_totals(game, if feature { &game.free } else { &game.base })
}
