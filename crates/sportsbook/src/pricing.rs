//! Pricing: true probabilities per sport, then odds with a margin on a ladder.
//!
//! Every model produces an [`Outlook`]: a probability distribution over final scores (goals,
//! points, or sets). A market is priced by settling it on every score of the distribution with the
//! very rules of [`crate::catalogue`] (so a quarter line is priced as the half-win / half-lose it
//! settles as), which gives for each outcome its expected win share `w` and refund share `v`. The
//! fair odds `o` make the expected return 1: `w·o + v = 1`, so `o = (1 − v) / w`; its "effective
//! probability" `q = w / (1 − v)`. For 1x2, totals, handicaps (whole, half or quarter lines) the
//! `q` of a market sum to exactly 1.
//!
//! The margin `m` scales them so the implied probabilities sum to `1 + m`: odds = 1 / (q·(1 + m)),
//! clamped to [1.01, 500] and rounded **down** to the ladder (rounding down keeps the margin at or
//! above its target). Floats live only here; the output is integer [`Odds`].
//!
//! Models:
//! * football, ice hockey — two independent Poisson goal counts; live, the remaining goals are
//!   Poisson with the rates scaled by the fraction of the match left;
//! * basketball — the points margin and the total are normal (independent team scores); live, the
//!   remaining means and variances scale with the time left; a tie goes to overtime;
//! * tennis — each player's probability of winning a point on serve, through games, tie-breaks and
//!   sets to the distribution of final set scores from any live state;
//! * table tennis — one point-win probability, games to 11 (win by two), best of 5 or 7 games.

use crate::catalogue::{CatalogueError, Halves, Rule, Spec};
use crate::model::MarketKey;
use crate::odds::Odds;

/// The shortest odds we publish, 1.01.
pub const MIN_PRICE: u32 = 1010;
/// The longest odds we publish, 500.
pub const MAX_PRICE: u32 = 500_000;

/// One possible final score and its probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Home goals, points or sets.
    pub home: u32,
    /// Away goals, points or sets.
    pub away: u32,
    /// Its probability.
    pub p: f64,
}

/// A distribution of final scores. Basketball keeps the margin and the total apart (a joint
/// table of points would have ~10⁴ cells): margin markets read `margin` (scores `(B + m, B)`),
/// totals read `total` (scores `(t, 0)`).
#[derive(Debug, Clone, PartialEq)]
pub enum Outlook {
    /// The joint distribution of (home, away).
    Joint(Vec<Cell>),
    /// Separate margin and total distributions.
    Split {
        /// Scores whose difference is the final margin.
        margin: Vec<Cell>,
        /// Scores whose sum is the final total.
        total: Vec<Cell>,
    },
}

impl Outlook {
    /// The cells a market rule settles on.
    pub fn cells_for(&self, rule: Rule) -> &[Cell] {
        match self {
            Outlook::Joint(c) => c,
            Outlook::Split { margin, total } => match rule {
                Rule::Total => total,
                _ => margin,
            },
        }
    }
}

/// A priced outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedOutcome {
    /// Outcome id.
    pub id: &'static str,
    /// Odds with the margin, on the ladder.
    pub odds: Odds,
    /// False when the outcome can no longer happen (no odds make sense).
    pub active: bool,
}

/// A priced market.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedMarket {
    /// The outcomes in catalogue order.
    pub outcomes: Vec<PricedOutcome>,
    /// True when one outcome is (almost) certain, at least 99.5 %: not worth offering.
    pub decided: bool,
}

/// Each outcome's effective probability `q = w / (1 − v)` (see the module comment), in
/// catalogue order.
pub fn effective_probabilities(spec: &Spec, outlook: &Outlook) -> Vec<f64> {
    let n = spec.kind.outcomes.len();
    let mut win = vec![0.0; n];
    let mut void = vec![0.0; n];
    let mut halves: Vec<Halves> = Vec::with_capacity(n);
    for cell in outlook.cells_for(spec.kind.rule) {
        spec.evaluate(cell.home, cell.away, &mut halves);
        for (i, h) in halves.iter().enumerate() {
            win[i] += cell.p * h.win as f64 / 2.0;
            void[i] += cell.p * h.void as f64 / 2.0;
        }
    }
    win.iter().zip(&void).map(|(w, v)| if 1.0 - v > 1e-12 { (w / (1.0 - v)).clamp(0.0, 1.0) } else { 0.0 }).collect()
}

/// Prices a catalogue market from an outlook with `margin_bp` (600 = 6 %).
pub fn price(key: &MarketKey, outlook: &Outlook, margin_bp: u32) -> Result<PricedMarket, CatalogueError> {
    let spec = Spec::new(key)?;
    let q = effective_probabilities(&spec, outlook);
    let odds = odds_with_margin(&q, margin_bp);
    let decided = q.iter().any(|&p| p >= 0.995);
    let outcomes = spec
        .kind
        .outcomes
        .iter()
        .zip(odds)
        .zip(&q)
        .map(|((o, odds), &p)| PricedOutcome { id: o.id, odds, active: p > 1e-6 })
        .collect();
    Ok(PricedMarket { outcomes, decided })
}

/// Odds for probabilities (normalised to sum 1 first) with a margin of `margin_bp` basis points:
/// 1 / (p·(1 + m)), clamped to [1.01, 500], rounded down to the ladder. A zero probability gets
/// the longest odds (the caller marks it inactive).
pub fn odds_with_margin(probabilities: &[f64], margin_bp: u32) -> Vec<Odds> {
    let sum: f64 = probabilities.iter().sum();
    let scale = 1.0 + margin_bp as f64 / 10_000.0;
    probabilities
        .iter()
        .map(|&p| {
            let p = if sum > 0.0 { p / sum } else { 0.0 };
            let t = if p > 0.0 { 1000.0 / (p * scale) } else { f64::INFINITY };
            let t = if t.is_finite() { t.clamp(MIN_PRICE as f64, MAX_PRICE as f64) } else { MAX_PRICE as f64 };
            Odds::new(ladder_floor(t.floor() as u32)).expect("the ladder stays within [1.01, 500]")
        })
        .collect()
}

/// The price ladder: (from, step) in thousandths. Fine steps where the odds are short (a step of
/// 0.01 at 1.50 moves the implied probability by 0.4 %), coarse ones where they are long.
const LADDER: [(u32, u32); 10] = [
    (1_010, 10),
    (2_000, 20),
    (3_000, 50),
    (4_000, 100),
    (6_000, 200),
    (10_000, 500),
    (20_000, 1_000),
    (30_000, 2_000),
    (50_000, 5_000),
    (100_000, 10_000),
];

/// The largest ladder price at or below `thousandths` (clamped to [1.01, 500]).
pub fn ladder_floor(thousandths: u32) -> u32 {
    let t = thousandths.clamp(MIN_PRICE, MAX_PRICE);
    let (base, step) = LADDER.iter().rev().find(|(from, _)| t >= *from).copied().unwrap_or(LADDER[0]);
    base + (t - base) / step * step
}

/// Poisson probabilities P(k) for k = 0.., truncated once the tail is below 10⁻¹⁰ (at most 60
/// terms) and renormalised.
pub fn poisson(lambda: f64) -> Vec<f64> {
    let lambda = lambda.max(0.0);
    let mut out = Vec::with_capacity(16);
    let mut p = (-lambda).exp();
    let mut cum = 0.0;
    for k in 0..60 {
        out.push(p);
        cum += p;
        if 1.0 - cum < 1e-10 {
            break;
        }
        p *= lambda / (k + 1) as f64;
    }
    let s: f64 = out.iter().sum();
    out.iter().map(|x| x / s).collect()
}

/// Football or ice hockey: expected goals of each side over the whole match (regular time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GoalsModel {
    /// Home expected goals over a full match.
    pub home_rate: f64,
    /// Away expected goals over a full match.
    pub away_rate: f64,
}

impl GoalsModel {
    /// The final-score distribution from the current score with `remaining` (0..=1) of the
    /// match left: current + Poisson(rate × remaining) for each side.
    pub fn outlook(&self, home: u32, away: u32, remaining: f64) -> Outlook {
        let f = remaining.clamp(0.0, 1.0);
        let ph = poisson(self.home_rate * f);
        let pa = poisson(self.away_rate * f);
        let mut cells = Vec::with_capacity(ph.len() * pa.len());
        for (i, x) in ph.iter().enumerate() {
            for (j, y) in pa.iter().enumerate() {
                cells.push(Cell { home: home + i as u32, away: away + j as u32, p: x * y });
            }
        }
        Outlook::Joint(cells)
    }
}

/// The standard normal CDF (Abramowitz & Stegun 7.1.26 erf, error below 1.5·10⁻⁷).
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// Basketball: each team's points over regulation are normal, independent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointsModel {
    /// Home expected points over regulation.
    pub home_mean: f64,
    /// Away expected points over regulation.
    pub away_mean: f64,
    /// Standard deviation of one team's points over regulation (≈ 10–12).
    pub team_sd: f64,
}

/// Offset of the synthetic margin scores `(B + m, B)` so they stay non-negative.
const MARGIN_BASE: i64 = 1_000;

impl PointsModel {
    /// The outlook from the current score with `remaining` (0..=1) of regulation left. The
    /// remaining points' means and variances scale with the time left; a tie at the end goes to
    /// overtime, won by home with the probability of out-scoring over five minutes.
    pub fn outlook(&self, home: u32, away: u32, remaining: f64) -> Outlook {
        let f = remaining.clamp(0.0, 1.0);
        let var = 2.0 * self.team_sd * self.team_sd;
        let lead = home as f64 - away as f64;
        let margin_mean = lead + (self.home_mean - self.away_mean) * f;
        let total_mean = (home + away) as f64 + (self.home_mean + self.away_mean) * f;
        let sd = (var * f).sqrt();
        let ot_share = 5.0 / 48.0;
        let ot_home = normal_cdf((self.home_mean - self.away_mean) * ot_share / (var * ot_share).sqrt().max(1e-9))
            .clamp(0.0, 1.0);

        let mut margin = Vec::new();
        for (m, p) in discrete_normal(margin_mean, sd) {
            if m == 0 {
                margin.push(Cell { home: (MARGIN_BASE + 1) as u32, away: MARGIN_BASE as u32, p: p * ot_home });
                margin.push(Cell { home: MARGIN_BASE as u32, away: (MARGIN_BASE + 1) as u32, p: p * (1.0 - ot_home) });
            } else {
                let m = m.clamp(-MARGIN_BASE, MARGIN_BASE);
                margin.push(Cell { home: (MARGIN_BASE + m) as u32, away: MARGIN_BASE as u32, p });
            }
        }
        let floor = (home + away) as i64;
        let total = discrete_normal(total_mean, sd)
            .into_iter()
            .map(|(t, p)| Cell { home: t.max(floor) as u32, away: 0, p })
            .collect();
        Outlook::Split { margin, total }
    }
}

/// A normal distribution rounded to integers (continuity correction), over mean ± 6 sd,
/// renormalised. A zero sd is a point mass at the rounded mean.
fn discrete_normal(mean: f64, sd: f64) -> Vec<(i64, f64)> {
    if sd < 1e-6 {
        return vec![(mean.round() as i64, 1.0)];
    }
    let lo = (mean - 6.0 * sd).floor() as i64;
    let hi = (mean + 6.0 * sd).ceil() as i64;
    let mut out: Vec<(i64, f64)> = (lo..=hi)
        .map(|k| (k, normal_cdf((k as f64 + 0.5 - mean) / sd) - normal_cdf((k as f64 - 0.5 - mean) / sd)))
        .collect();
    let s: f64 = out.iter().map(|(_, p)| p).sum();
    for (_, p) in &mut out {
        *p /= s;
    }
    out
}

/// The chance the server wins a game (tennis scoring: 0, 15, 30, 40, deuce) from `points`
/// (server, receiver), with `p` the server's chance of winning a point.
pub fn game_win(p: f64, server: u32, receiver: u32) -> f64 {
    let q = 1.0 - p;
    let deuce = if p * p + q * q > 0.0 { p * p / (p * p + q * q) } else { 0.5 };
    fn go(p: f64, deuce: f64, a: u32, b: u32) -> f64 {
        if a >= 4 && a >= b + 2 {
            return 1.0;
        }
        if b >= 4 && b >= a + 2 {
            return 0.0;
        }
        if a >= 3 && b >= 3 {
            return match a.cmp(&b) {
                std::cmp::Ordering::Equal => deuce,
                std::cmp::Ordering::Greater => p + (1.0 - p) * deuce,
                std::cmp::Ordering::Less => p * deuce,
            };
        }
        p * go(p, deuce, a + 1, b) + (1.0 - p) * go(p, deuce, a, b + 1)
    }
    go(p, deuce, server, receiver)
}

/// First to `target` points, win by two, from (`a`, `b`), with `pa(n)` the chance that side A
/// wins point number `n` (counted from 0 for the whole game, so serve rotations can be modelled).
/// From equal scores at `target − 1` or beyond, the points come in pairs and the closed form
/// `P(A wins a pair) / (P(A wins a pair) + P(B wins a pair))` is used.
fn race_win(target: u32, a: u32, b: u32, pa: &dyn Fn(u32) -> f64) -> f64 {
    // Scores beyond `target` only occur one point apart after a tie, which the closed form covers,
    // so the memo needs (target + 2)² entries; without it the recursion walks every path (~10⁶
    // for a game to 11).
    let side = (target + 2) as usize;
    let mut memo = vec![f64::NAN; side * side];
    race_from(target, a, b, pa, &mut memo)
}

fn race_from(target: u32, a: u32, b: u32, pa: &dyn Fn(u32) -> f64, memo: &mut [f64]) -> f64 {
    if a >= target && a >= b + 2 {
        return 1.0;
    }
    if b >= target && b >= a + 2 {
        return 0.0;
    }
    let n = a + b;
    if a == b && a + 1 >= target {
        let (x, y) = (pa(n), pa(n + 1));
        let both_a = x * y;
        let both_b = (1.0 - x) * (1.0 - y);
        return if both_a + both_b > 0.0 { both_a / (both_a + both_b) } else { 0.5 };
    }
    let side = (target + 2) as usize;
    let slot = (a as usize).min(side - 1) * side + (b as usize).min(side - 1);
    let cacheable = a <= target && b <= target;
    if cacheable && !memo[slot].is_nan() {
        return memo[slot];
    }
    let p = pa(n);
    let v = p * race_from(target, a + 1, b, pa, memo) + (1.0 - p) * race_from(target, a, b + 1, pa, memo);
    if cacheable {
        memo[slot] = v;
    }
    v
}

/// Tennis: each player's chance of winning a point on their own serve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TennisModel {
    /// Home wins a point on home's serve.
    pub home_serve: f64,
    /// Away wins a point on away's serve.
    pub away_serve: f64,
    /// Sets to play at most: 3 or 5.
    pub best_of: u32,
}

/// A tennis or table-tennis match state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RallyState {
    /// Sets (table tennis: games) won by home.
    pub home_sets: u32,
    /// Sets won by away.
    pub away_sets: u32,
    /// Games in the current set (tennis); unused in table tennis.
    pub home_games: u32,
    /// Games in the current set (tennis).
    pub away_games: u32,
    /// Points in the current game (tennis, tie-break points in a tie-break) or table-tennis game.
    pub home_points: u32,
    /// Points of away.
    pub away_points: u32,
    /// Whether home serves the current game (tennis; the first point of a tie-break).
    pub home_serving: bool,
}

impl TennisModel {
    /// Home's chance of winning a point when `home_serves`.
    fn point(&self, home_serves: bool) -> f64 {
        if home_serves {
            self.home_serve
        } else {
            1.0 - self.away_serve
        }
    }

    /// Home's chance of winning a tie-break from (h, a) points when `first_home` served its first
    /// point (server changes after the first point, then every two).
    fn tiebreak(&self, h: u32, a: u32, first_home: bool) -> f64 {
        let pa = |n: u32| self.point(if n.div_ceil(2).is_multiple_of(2) { first_home } else { !first_home });
        race_win(7, h, a, &pa)
    }

    /// Home's chance of winning the current set from a state (games, points, server).
    pub fn set_win(&self, s: &RallyState) -> f64 {
        let mut memo = [[[None; 2]; 8]; 8];
        self.set_from(s.home_games, s.away_games, s.home_serving, Some((s.home_points, s.away_points)), &mut memo)
    }

    fn set_from(
        &self,
        gh: u32,
        ga: u32,
        home_serves: bool,
        points: Option<(u32, u32)>,
        memo: &mut [[[Option<f64>; 2]; 8]; 8],
    ) -> f64 {
        if (gh >= 6 && gh >= ga + 2) || gh == 7 {
            return 1.0;
        }
        if (ga >= 6 && ga >= gh + 2) || ga == 7 {
            return 0.0;
        }
        let (ph, pa) = points.unwrap_or((0, 0));
        if gh == 6 && ga == 6 {
            return self.tiebreak(ph, pa, home_serves);
        }
        if points.is_none() {
            if let Some(v) = memo[gh as usize][ga as usize][home_serves as usize] {
                return v;
            }
        }
        let hold =
            if home_serves { game_win(self.home_serve, ph, pa) } else { 1.0 - game_win(self.away_serve, pa, ph) };
        let v = hold * self.set_from(gh + 1, ga, !home_serves, None, memo)
            + (1.0 - hold) * self.set_from(gh, ga + 1, !home_serves, None, memo);
        if points.is_none() {
            memo[gh as usize][ga as usize][home_serves as usize] = Some(v);
        }
        v
    }

    /// The distribution of final set scores from a live state (the current set from its games
    /// and points; later sets from 0-0, with either player serving first equally likely).
    pub fn outlook(&self, s: &RallyState) -> Outlook {
        let current = self.set_win(s);
        let fresh = |home_first| self.set_win(&RallyState { home_serving: home_first, ..RallyState::default() });
        let next = 0.5 * (fresh(true) + fresh(false));
        Outlook::Joint(sets_distribution(self.best_of, s.home_sets, s.away_sets, current, next))
    }
}

/// Table tennis: one chance of winning any point (serve matters little at this level of model).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableTennisModel {
    /// Home wins a point.
    pub home_point: f64,
    /// Games to play at most: 5 or 7.
    pub best_of: u32,
}

impl TableTennisModel {
    /// Home's chance of winning a game to 11 from (h, a) points.
    pub fn game_win(&self, h: u32, a: u32) -> f64 {
        race_win(11, h, a, &|_| self.home_point)
    }

    /// The distribution of final game scores (stored as sets) from a live state.
    pub fn outlook(&self, s: &RallyState) -> Outlook {
        let current = self.game_win(s.home_points, s.away_points);
        let next = self.game_win(0, 0);
        Outlook::Joint(sets_distribution(self.best_of, s.home_sets, s.away_sets, current, next))
    }
}

/// Final (home, away) set scores of a best-of-`best_of` match from (`hs`, `as_`) with the current
/// set won by home with `current`, every later one with `next`.
fn sets_distribution(best_of: u32, hs: u32, as_: u32, current: f64, next: f64) -> Vec<Cell> {
    let need = best_of / 2 + 1;
    let mut out = Vec::new();
    // Probabilities only (pricing's model, never money): `reach` of arriving at (h, a),
    // `p_set` of home winning the set being played, `p_next` of home winning each later one.
    fn walk(need: u32, h: u32, a: u32, reach: f64, p_set: f64, p_next: f64, out: &mut Vec<Cell>) {
        if h >= need || a >= need {
            match out.iter_mut().find(|c| c.home == h && c.away == a) {
                Some(c) => c.p += reach,
                None => out.push(Cell { home: h, away: a, p: reach }),
            }
            return;
        }
        walk(need, h + 1, a, reach * p_set, p_next, p_next, out);
        walk(need, h, a + 1, reach * (1.0 - p_set), p_next, p_next, out);
    }
    walk(need, hs, as_, 1.0, current, next, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Spec;

    fn key(s: &str) -> MarketKey {
        MarketKey::parse(s).unwrap()
    }
    fn q(k: &str, o: &Outlook) -> Vec<f64> {
        effective_probabilities(&Spec::new(&key(k)).unwrap(), o)
    }
    fn implied_sum(m: &PricedMarket) -> f64 {
        m.outcomes.iter().map(|o| 1000.0 / o.odds.thousandths() as f64).sum()
    }
    fn total_p(o: &Outlook) -> f64 {
        match o {
            Outlook::Joint(c) => c.iter().map(|c| c.p).sum(),
            Outlook::Split { margin, .. } => margin.iter().map(|c| c.p).sum(),
        }
    }

    #[test]
    fn ladder() {
        assert_eq!(ladder_floor(1_856), 1_850);
        assert_eq!(ladder_floor(1_000), 1_010);
        assert_eq!(ladder_floor(2_039), 2_020);
        assert_eq!(ladder_floor(3_449), 3_400);
        assert_eq!(ladder_floor(17_900), 17_500);
        assert_eq!(ladder_floor(999_999), 500_000);
        let mut prev = 0;
        for t in 1_010..=500_000 {
            let l = ladder_floor(t);
            assert!(l <= t && l >= prev, "{t}");
            prev = l;
        }
    }

    #[test]
    fn margins_add_up() {
        for probs in [vec![0.5, 0.5], vec![0.45, 0.27, 0.28], vec![0.8, 0.2], vec![0.62, 0.38]] {
            for margin_bp in [300, 600, 1000] {
                let odds = odds_with_margin(&probs, margin_bp);
                let sum: f64 = odds.iter().map(|o| 1000.0 / o.thousandths() as f64).sum();
                let target = 1.0 + margin_bp as f64 / 10_000.0;
                // Rounding down to the ladder can only add margin, and at these prices little.
                assert!(sum >= target - 1e-9 && sum <= target + 0.012, "{probs:?} {margin_bp}: {sum}");
            }
        }
        // Clamping: a 99.9 % favourite cannot go below 1.01, a 0.01 % outsider not above 500.
        let odds = odds_with_margin(&[0.9999, 0.0001], 600);
        assert_eq!(odds.iter().map(|o| o.thousandths()).collect::<Vec<_>>(), [1_010, 500_000]);
        assert_eq!(odds_with_margin(&[1.0, 0.0], 600)[1].thousandths(), 500_000);
    }

    #[test]
    fn poisson_distributions_sum_to_one() {
        for l in [0.0, 0.3, 1.4, 2.7, 6.0] {
            let p = poisson(l);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let mean: f64 = p.iter().enumerate().map(|(k, x)| k as f64 * x).sum();
            assert!((mean - l).abs() < 1e-6, "{l}: {mean}");
        }
        let o = GoalsModel { home_rate: 1.6, away_rate: 1.1 }.outlook(0, 0, 1.0);
        assert!((total_p(&o) - 1.0).abs() < 1e-9);
        let x = q("1", &o);
        assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        // Home is stronger: home > away, draw in the usual 20–30 % band.
        assert!(x[0] > x[2] && (0.2..0.3).contains(&x[1]), "{x:?}");
        // Totals: P(over 2.5) for 2.7 expected goals is 1 − P(≤ 2) = 0.506.
        let t = q("18|total=2.5", &o);
        assert!((t[0] - 0.5064).abs() < 1e-3, "{t:?}");
    }

    #[test]
    fn effective_probabilities_sum_to_one_on_every_line() {
        let o = GoalsModel { home_rate: 1.7, away_rate: 0.9 }.outlook(0, 0, 1.0);
        for k in [
            "16|hcp=-0.25",
            "16|hcp=-0.5",
            "16|hcp=-0.75",
            "16|hcp=-1",
            "16|hcp=0.25",
            "18|total=2",
            "18|total=2.25",
            "18|total=2.75",
            "29",
            "45",
        ] {
            let x = q(k, &o);
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{k}: {x:?}");
        }
        // Quarter lines sit between their neighbours.
        let h = |k| q(k, &o)[0];
        assert!(h("16|hcp=0") > h("16|hcp=-0.25") && h("16|hcp=-0.25") > h("16|hcp=-0.5"));
        assert!(h("16|hcp=-0.5") > h("16|hcp=-0.75") && h("16|hcp=-0.75") > h("16|hcp=-1"));
    }

    #[test]
    fn priced_markets_carry_the_margin() {
        let o = GoalsModel { home_rate: 1.5, away_rate: 1.2 }.outlook(0, 0, 1.0);
        for (k, slack) in [("1", 0.012), ("18|total=2.5", 0.006), ("16|hcp=-0.25", 0.006), ("29", 0.006), ("45", 0.05)]
        {
            let m = price(&key(k), &o, 600).unwrap();
            let s = implied_sum(&m);
            assert!(s >= 1.06 - 1e-9 && s <= 1.06 + slack, "{k}: {s}");
            assert!(!m.decided && m.outcomes.iter().all(|o| o.active));
        }
    }

    #[test]
    fn a_leading_team_shortens_as_time_runs_out() {
        let model = GoalsModel { home_rate: 1.3, away_rate: 1.3 };
        let mut prev_p = 0.0;
        let mut prev_odds = u32::MAX;
        for step in (0..=18).rev() {
            let remaining = step as f64 / 18.0;
            let o = model.outlook(1, 0, remaining);
            let p = q("1", &o)[0];
            let odds = price(&key("1"), &o, 600).unwrap().outcomes[0].odds.thousandths();
            assert!(p > prev_p, "{remaining}: {p} ≤ {prev_p}");
            assert!(odds <= prev_odds, "{remaining}: {odds} > {prev_odds}");
            prev_p = p;
            prev_odds = odds;
        }
        // At the whistle the result is certain: the market is decided, the others impossible.
        let end = price(&key("1"), &model.outlook(1, 0, 0.0), 600).unwrap();
        assert!(end.decided);
        assert_eq!(end.outcomes.iter().map(|o| o.active).collect::<Vec<_>>(), [true, false, false]);
        // Already three goals: over 2.5 is decided.
        assert!(price(&key("18|total=2.5"), &model.outlook(2, 1, 0.5), 600).unwrap().decided);
    }

    #[test]
    fn basketball_normal_model() {
        let m = PointsModel { home_mean: 84.0, away_mean: 80.0, team_sd: 11.0 };
        let o = m.outlook(0, 0, 1.0);
        assert!((total_p(&o) - 1.0).abs() < 1e-9);
        let w = q("219", &o);
        assert!((w[0] + w[1] - 1.0).abs() < 1e-9);
        // Margin 4 with sd 15.6: P(home) ≈ Φ(4 / 15.56) ≈ 0.60.
        assert!((w[0] - 0.60).abs() < 0.02, "{w:?}");
        // The handicap at the expected margin is close to even; the total at the mean too.
        let h = q("223|hcp=-4.5", &o);
        assert!((h[0] - 0.5).abs() < 0.05, "{h:?}");
        let t = q("225|total=164.5", &o);
        assert!((t[0] - 0.5).abs() < 0.05, "{t:?}");
        // A ten-point lead with two minutes left is nearly won.
        let late = q("219", &m.outlook(90, 80, 2.0 / 48.0));
        assert!(late[0] > 0.97, "{late:?}");
        let mut prev = 0.0;
        for step in (0..=12).rev() {
            let p = q("219", &m.outlook(50, 45, step as f64 / 12.0))[0];
            assert!(p >= prev, "{step}: {p} < {prev}");
            prev = p;
        }
    }

    #[test]
    fn tennis_markov_chain() {
        // Equal servers: every level is a coin flip.
        assert!((game_win(0.5, 0, 0) - 0.5).abs() < 1e-12);
        // Known value: a 60 % server holds 73.6 % of games.
        assert!((game_win(0.6, 0, 0) - 0.7357).abs() < 1e-3);
        assert_eq!(game_win(0.6, 4, 2), 1.0);
        assert!((game_win(0.6, 3, 3) - 0.36 / 0.52).abs() < 1e-12);
        let even = TennisModel { home_serve: 0.64, away_serve: 0.64, best_of: 3 };
        assert!((even.set_win(&RallyState { home_serving: true, ..Default::default() }) - 0.5).abs() < 0.02);
        let o = even.outlook(&RallyState { home_serving: true, ..Default::default() });
        assert!((total_p(&o) - 1.0).abs() < 1e-9);
        let Outlook::Joint(cells) = &o else { panic!() };
        let scores: Vec<(u32, u32)> = cells.iter().map(|c| (c.home, c.away)).collect();
        assert_eq!(scores, [(2, 0), (2, 1), (1, 2), (0, 2)]);
        // A stronger server wins more; a set up helps; a break up in the decider helps more.
        let strong = TennisModel { home_serve: 0.68, away_serve: 0.62, best_of: 3 };
        let start = q("186", &strong.outlook(&RallyState { home_serving: true, ..Default::default() }))[0];
        assert!(start > 0.6, "{start}");
        let set_up =
            q("186", &strong.outlook(&RallyState { home_sets: 1, home_serving: true, ..Default::default() }))[0];
        assert!(set_up > start);
        let decider = RallyState {
            home_sets: 1,
            away_sets: 1,
            home_games: 5,
            away_games: 3,
            home_serving: true,
            ..Default::default()
        };
        assert!(q("186", &strong.outlook(&decider))[0] > 0.9);
        // Tie-break from 6-6 with equal servers is even; at 6:0 points it is nearly won.
        assert!((even.tiebreak(0, 0, true) - 0.5).abs() < 1e-9);
        assert!(even.tiebreak(6, 0, false) > 0.98);
        // Best of five: four final scores per side.
        let five = TennisModel { best_of: 5, ..strong };
        let Outlook::Joint(cells) = five.outlook(&RallyState::default()) else { panic!() };
        assert_eq!(cells.len(), 6);
    }

    #[test]
    fn table_tennis_games() {
        let m = TableTennisModel { home_point: 0.5, best_of: 5 };
        assert!((m.game_win(0, 0) - 0.5).abs() < 1e-12);
        assert!((m.game_win(10, 10) - 0.5).abs() < 1e-12);
        let better = TableTennisModel { home_point: 0.55, best_of: 5 };
        let g = better.game_win(0, 0);
        assert!(g > 0.6 && g < 0.7, "{g}");
        let o = better.outlook(&RallyState::default());
        assert!((total_p(&o) - 1.0).abs() < 1e-9);
        let w = q("186", &o)[0];
        assert!(w > g, "the match amplifies the game edge: {w} vs {g}");
        let h = q("188|hcp=-1.5", &o);
        assert!((h[0] + h[1] - 1.0).abs() < 1e-9 && h[0] < w);
        assert!(better.game_win(10, 5) > 0.99);
    }

    #[test]
    fn normal_cdf_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((normal_cdf(-1.959_964) - 0.025).abs() < 1e-6);
    }
}
