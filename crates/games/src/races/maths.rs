//! The pure part of the studio's virtual races (docs/VIRTUALS.md): the field of runners a
//! race's commitment gives, the finishing order its seed gives (a Plackett–Luce draw over
//! exactly the published strengths), the prices with the declared overround, and the
//! settlement of win, place and forecast bets. No I/O, no clock: every function here is
//! what a player can recompute from the published values.

use serde::{Deserialize, Serialize};
use studio::fair::{sha256, FairDraws, Hash32, Rng32};

/// The three studio race types, in the lobby's order (the Golden Race whitelist's order:
/// horses, dogs, …, speedway).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sport {
    Horses,
    Greyhounds,
    Speedway,
}

impl Sport {
    pub const ALL: [Sport; 3] = [Sport::Horses, Sport::Greyhounds, Sport::Speedway];

    pub fn id(self) -> &'static str {
        match self {
            Sport::Horses => "horses",
            Sport::Greyhounds => "greyhounds",
            Sport::Speedway => "speedway",
        }
    }

    pub fn parse(s: &str) -> Option<Sport> {
        Sport::ALL.into_iter().find(|sp| sp.id() == s)
    }

    /// The game id of its stakes and wins in the provider wallet (provider `studio`).
    pub fn game_id(self) -> &'static str {
        match self {
            Sport::Horses => "virtual-horses",
            Sport::Greyhounds => "virtual-greyhounds",
            Sport::Speedway => "virtual-speedway",
        }
    }

    /// Runners in every race of this sport.
    pub fn runners(self) -> usize {
        match self {
            Sport::Horses => 8,
            Sport::Greyhounds => 6,
            Sport::Speedway => 4,
        }
    }

    /// How many finishing places a place bet is paid on.
    pub fn places(self) -> usize {
        match self {
            Sport::Horses => 3,
            Sport::Greyhounds | Sport::Speedway => 2,
        }
    }

    /// The names a field is drawn from (proper names: not translated).
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Sport::Horses => &[
                "Carthage Star", "Desert Wind", "Medina Gold", "Sidi Bou", "Atlas Runner", "Tunis Flyer", "Sahara Dust",
                "Blue Lagoon", "Olive Crown", "Jasmine Bay", "Red Kasbah", "Dune Prince", "Hannibal's Pride", "Salt Lake",
                "Cap Bon", "Djerba Breeze",
            ],
            Sport::Greyhounds => &[
                "Swift Dido", "Byrsa Bolt", "Kelibia Flash", "Zephyr", "Mistral Miss", "Lightfoot", "Harbour Rocket", "Palm Shadow",
                "Copper Tail", "Night Comet", "Silver Arrow", "Quick Yasmin",
            ],
            Sport::Speedway => &[
                "R. Mansour", "K. Haddad", "J. Novak", "T. Lindqvist", "M. Kowalski", "S. Ben Ali", "A. Petersen", "L. Ferri",
                "D. Hansen", "O. Trabelsi", "P. Duval", "E. Morgan",
            ],
        }
    }
}

/// Lowest and highest strength a runner can have.
pub const MIN_STRENGTH: u32 = 10;
pub const MAX_STRENGTH: u32 = 100;

/// No price is above 1000.00 (so a bet at the maximum stake never pays more than the
/// studio's max win, 1000 maximum bets); a price below 1.01 is not offered.
pub const MAX_PRICE: u64 = 100_000;
pub const MIN_PRICE: u64 = 101;

/// One runner as published before betting opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Runner {
    /// 1-based: the saddle-cloth / trap / helmet number.
    pub number: u32,
    pub name: String,
    /// The runner's weight in the draw: P(first) = strength / Σ strengths.
    pub strength: u32,
}

/// The commitment published before betting opens: SHA-256 of the race seed's 32 raw bytes
/// followed by the ASCII bytes `race`. (Not the plain SHA-256 of the seed: in the hash
/// chain that is the previous race's seed, which may still be open for betting.)
pub fn commitment(seed: &Hash32) -> Hash32 {
    let mut data = Vec::with_capacity(36);
    data.extend_from_slice(seed);
    data.extend_from_slice(b"race");
    sha256(&data)
}

/// The field of a race: drawn from its **commitment** (public before betting), so the
/// operator chooses neither the names nor the strengths. Stream: `FairDraws(key =
/// commitment, client seed = "field", nonce = 0)`; first `n` partial Fisher–Yates draws
/// pick the names (`below(pool − i)` swaps position `i` with `i + draw`), then each runner's
/// strength is `10 + below(91)` in runner order.
pub fn field(sport: Sport, commitment: &Hash32) -> Vec<Runner> {
    let mut rng = FairDraws::new(commitment, "field", 0);
    let mut pool: Vec<&str> = sport.names().to_vec();
    let n = sport.runners();
    for i in 0..n {
        let j = i + rng.below((pool.len() - i) as u32) as usize;
        pool.swap(i, j);
    }
    let span = MAX_STRENGTH - MIN_STRENGTH + 1;
    (0..n)
        .map(|i| Runner { number: i as u32 + 1, name: pool[i].to_string(), strength: MIN_STRENGTH + rng.below(span) })
        .collect()
}

/// The finishing order (runner numbers, winner first): a Plackett–Luce draw over the
/// strengths. Stream: `FairDraws(key = race seed, client seed = salt, nonce = 0)`. For each
/// place in turn, `x = below(Σ strengths of the runners not yet placed)`, then walk the
/// remaining runners in number order, subtracting each strength from `x` until it goes
/// below zero: that runner takes the place. A runner is therefore drawn with probability
/// exactly its strength over the remaining total.
pub fn finishing_order(seed: &Hash32, salt: &str, runners: &[Runner]) -> Vec<u32> {
    let mut rng = FairDraws::new(seed, salt, 0);
    draw_order(&mut rng, runners)
}

/// [`finishing_order`] from any draw source (tests, simulations).
pub fn draw_order<R: Rng32>(rng: &mut R, runners: &[Runner]) -> Vec<u32> {
    let mut left: Vec<&Runner> = runners.iter().collect();
    let mut order = Vec::with_capacity(runners.len());
    while !left.is_empty() {
        let total: u32 = left.iter().map(|r| r.strength).sum();
        let mut x = rng.below(total);
        let mut at = left.len() - 1;
        for (k, r) in left.iter().enumerate() {
            if x < r.strength {
                at = k;
                break;
            }
            x -= r.strength;
        }
        order.push(left.remove(at).number);
    }
    order
}

/// A price in hundredths (`250` = 2.50) from a probability `num / den` and the overround in
/// percent: `floor(100 × 100 × den / (num × overround))`, capped at [`MAX_PRICE`]; `None`
/// below [`MIN_PRICE`] (not offered). Integer arithmetic: no rounding up, ever.
pub fn price_of(num: u128, den: u128, overround_pct: u32) -> Option<u64> {
    if num == 0 || overround_pct == 0 {
        return None;
    }
    let p = (10_000 * den) / (num * overround_pct as u128);
    let p = p.min(MAX_PRICE as u128) as u64;
    (p >= MIN_PRICE).then_some(p)
}

/// The prices of a race (hundredths; `None`: not offered).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prices {
    /// By runner (index = number − 1).
    pub win: Vec<Option<u64>>,
    pub place: Vec<Option<u64>>,
    /// `forecast[i][j]`: runner i + 1 first and j + 1 second (`None` on the diagonal).
    pub forecast: Vec<Vec<Option<u64>>>,
}

/// P(runner i finishes in the first `k` places) under Plackett–Luce, for every runner, by
/// walking every ordered sequence of `k` distinct runners (8 × 7 × 6 = 336 for horses).
/// Double precision: this is the one probability that is a sum of terms with different
/// denominators; [`prices`] floors it with a guard so it never rounds a price up.
pub fn place_probabilities(strengths: &[u32], k: usize) -> Vec<f64> {
    fn walk(strengths: &[u32], used: &mut Vec<bool>, left: f64, p: f64, depth: usize, out: &mut [f64]) {
        if depth == 0 {
            return;
        }
        for i in 0..strengths.len() {
            if used[i] {
                continue;
            }
            let pi = p * strengths[i] as f64 / left;
            out[i] += pi;
            used[i] = true;
            walk(strengths, used, left - strengths[i] as f64, pi, depth - 1, out);
            used[i] = false;
        }
    }
    let mut out = vec![0.0; strengths.len()];
    let total: f64 = strengths.iter().map(|&s| s as f64).sum();
    let mut used = vec![false; strengths.len()];
    walk(strengths, &mut used, total, 1.0, k.min(strengths.len()), &mut out);
    out
}

/// Every price of a race from its strengths:
/// * win `i`: p = s_i / S — exact;
/// * forecast `i` then `j`: p = s_i / S × s_j / (S − s_i) — exact;
/// * place `i` (first `places`): [`place_probabilities`], then `floor(10000 / (p × overround))`
///   computed as the win price is, on `p` rounded **up** to 12 significant digits (a price
///   can only come out lower, never higher, than the exact one).
pub fn prices(runners: &[Runner], places: usize, overround_pct: u32) -> Prices {
    let s: Vec<u128> = runners.iter().map(|r| r.strength as u128).collect();
    let total: u128 = s.iter().sum();
    let win = s.iter().map(|&si| price_of(si, total, overround_pct)).collect();
    let strengths: Vec<u32> = runners.iter().map(|r| r.strength).collect();
    let place = place_probabilities(&strengths, places)
        .into_iter()
        .map(|p| {
            // p as a fraction over 10^12, rounded up: a price from it is never above the exact one.
            const SCALE: f64 = 1e12;
            let num = ((p * SCALE).ceil() as u128).max(1);
            price_of(num, SCALE as u128, overround_pct)
        })
        .collect();
    let forecast = (0..s.len())
        .map(|i| {
            (0..s.len())
                .map(|j| if i == j { None } else { price_of(s[i] * s[j], total * (total - s[i]), overround_pct) })
                .collect()
        })
        .collect();
    Prices { win, place, forecast }
}

/// What a bet backs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selection {
    /// This runner wins.
    Win(u32),
    /// This runner finishes in the paid places.
    Place(u32),
    /// These two runners finish first and second, in this order.
    Forecast(u32, u32),
}

/// A selection that the race cannot take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("kind must be win, place or forecast")]
    UnknownKind,
    #[error("a win or place bet names one runner, a forecast two")]
    WrongCount,
    #[error("no runner with this number in the race")]
    NoSuchRunner,
    #[error("a forecast names two different runners")]
    SameRunner,
    #[error("this selection is not offered (its price would be below 1.01)")]
    NotOffered,
}

impl Selection {
    /// From the API's `kind` and runner numbers, checked against a field of `n` runners.
    pub fn parse(kind: &str, runners: &[u32], n: usize) -> Result<Selection, SelectionError> {
        let valid = |r: u32| r >= 1 && r as usize <= n;
        let sel = match (kind, runners) {
            ("win", [a]) => Selection::Win(*a),
            ("place", [a]) => Selection::Place(*a),
            ("forecast", [a, b]) => Selection::Forecast(*a, *b),
            ("win" | "place" | "forecast", _) => return Err(SelectionError::WrongCount),
            _ => return Err(SelectionError::UnknownKind),
        };
        if !sel.runners().iter().all(|r| valid(*r)) {
            return Err(SelectionError::NoSuchRunner);
        }
        if let Selection::Forecast(a, b) = sel {
            if a == b {
                return Err(SelectionError::SameRunner);
            }
        }
        Ok(sel)
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Selection::Win(_) => "win",
            Selection::Place(_) => "place",
            Selection::Forecast(..) => "forecast",
        }
    }

    pub fn runners(&self) -> Vec<u32> {
        match *self {
            Selection::Win(a) | Selection::Place(a) => vec![a],
            Selection::Forecast(a, b) => vec![a, b],
        }
    }

    /// Its price in a race's prices (`None`: not offered).
    pub fn price(&self, prices: &Prices) -> Option<u64> {
        let at = |v: &Vec<Option<u64>>, r: u32| v.get(r as usize - 1).copied().flatten();
        match *self {
            Selection::Win(a) => at(&prices.win, a),
            Selection::Place(a) => at(&prices.place, a),
            Selection::Forecast(a, b) => prices.forecast.get(a as usize - 1).and_then(|row| at(row, b)),
        }
    }

    /// Whether it won, given the finishing order and the number of paid places. The order is
    /// strict (the draw gives no dead heats), so every bet is either won or lost.
    pub fn won(&self, order: &[u32], places: usize) -> bool {
        match *self {
            Selection::Win(a) => order.first() == Some(&a),
            Selection::Place(a) => order.iter().take(places).any(|r| *r == a),
            Selection::Forecast(a, b) => order.len() >= 2 && order[0] == a && order[1] == b,
        }
    }
}

/// What a settled bet returns: `floor(stake × price / 100)` when it won (stake included),
/// 0 when it lost; `stake` when the race is void.
pub fn payout(selection: &Selection, stake: i64, price: u64, result: &RaceResult) -> i64 {
    match result {
        RaceResult::Void => stake,
        RaceResult::Order { order, places } => {
            if selection.won(order, *places) {
                ((stake as i128 * price as i128) / 100) as i64
            } else {
                0
            }
        }
    }
}

/// How a race ended for settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RaceResult {
    /// The finishing order (winner first) and the paid places.
    Order { order: Vec<u32>, places: usize },
    /// The race did not run (never the case for a committed race that reached its start;
    /// kept for the operator's cancellation of a race before it starts): stakes returned.
    Void,
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio::fair::{parse_hex32, SimRng};

    fn runners(strengths: &[u32]) -> Vec<Runner> {
        strengths.iter().enumerate().map(|(i, &s)| Runner { number: i as u32 + 1, name: format!("R{}", i + 1), strength: s }).collect()
    }

    #[test]
    fn the_field_comes_from_the_commitment() {
        let c = commitment(&[7u8; 32]);
        for sport in Sport::ALL {
            let f = field(sport, &c);
            assert_eq!(f, field(sport, &c), "deterministic");
            assert_eq!(f.len(), sport.runners());
            let mut names: Vec<_> = f.iter().map(|r| r.name.clone()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), sport.runners(), "distinct names");
            assert!(f.iter().all(|r| (MIN_STRENGTH..=MAX_STRENGTH).contains(&r.strength)));
            assert_eq!(f.iter().map(|r| r.number).collect::<Vec<_>>(), (1..=sport.runners() as u32).collect::<Vec<_>>());
        }
        assert_ne!(field(Sport::Horses, &c), field(Sport::Horses, &commitment(&[8u8; 32])));
    }

    #[test]
    fn the_commitment_is_not_the_chain_link() {
        let seed = [1u8; 32];
        assert_ne!(commitment(&seed), sha256(&seed));
        // SHA-256(seed ‖ "race"), the documented vector.
        let expected = {
            let mut d = seed.to_vec();
            d.extend_from_slice(b"race");
            sha256(&d)
        };
        assert_eq!(commitment(&seed), expected);
    }

    #[test]
    fn the_draw_is_a_permutation_and_deterministic() {
        let f = runners(&[50, 20, 80, 10, 100, 35, 60, 45]);
        let seed = parse_hex32(&"ab".repeat(32)).unwrap();
        let o = finishing_order(&seed, "salt", &f);
        assert_eq!(o, finishing_order(&seed, "salt", &f));
        let mut sorted = o.clone();
        sorted.sort();
        assert_eq!(sorted, (1..=8).collect::<Vec<_>>());
        assert_ne!(o, finishing_order(&seed, "another salt", &f), "the salt changes the draw");
    }

    #[test]
    fn the_walk_follows_the_strengths_exactly() {
        // below(total) words drive the walk: strengths 3, 1, 2 (total 6).
        let f = runners(&[3, 1, 2]);
        // x = 0,1,2 -> runner 1; 3 -> runner 2; 4,5 -> runner 3.
        for (x, first) in [(0, 1), (2, 1), (3, 2), (4, 3), (5, 3)] {
            let mut w = studio::fair::Words::new(vec![x, 0, 0]);
            assert_eq!(draw_order(&mut w, &f)[0], first, "x = {x}");
        }
        // After runner 3 leaves (total 4): x = 3 -> runner 2.
        let mut w = studio::fair::Words::new(vec![5, 3, 0]);
        assert_eq!(draw_order(&mut w, &f), vec![3, 2, 1]);
    }

    #[test]
    fn the_draw_matches_the_published_probabilities() {
        // 200,000 simulated races: win and place frequencies within 4.5 standard errors.
        let f = runners(&[50, 20, 80, 10, 100, 35, 60, 45]);
        let total: u32 = f.iter().map(|r| r.strength).sum();
        let place = place_probabilities(&f.iter().map(|r| r.strength).collect::<Vec<_>>(), 3);
        let n = 200_000;
        let mut rng = SimRng::seeded(42);
        let mut wins = vec![0u32; 8];
        let mut placed = vec![0u32; 8];
        for _ in 0..n {
            let o = draw_order(&mut rng, &f);
            wins[o[0] as usize - 1] += 1;
            for r in &o[..3] {
                placed[*r as usize - 1] += 1;
            }
        }
        for i in 0..8 {
            for (count, p) in [(wins[i], f[i].strength as f64 / total as f64), (placed[i], place[i])] {
                let se = (p * (1.0 - p) / n as f64).sqrt();
                let got = count as f64 / n as f64;
                assert!((got - p).abs() < 4.5 * se, "runner {}: {got} vs {p}", i + 1);
            }
        }
    }

    #[test]
    fn place_probabilities_sum_to_the_places() {
        let s = [50, 20, 80, 10, 100, 35, 60, 45];
        for k in 1..=4 {
            let sum: f64 = place_probabilities(&s, k).iter().sum();
            assert!((sum - k as f64).abs() < 1e-12, "k = {k}: {sum}");
        }
        // k = 1 is the win probability.
        let p = place_probabilities(&s, 1);
        assert!((p[4] - 100.0 / 400.0).abs() < 1e-15);
        // Two runners 1 and 3, top 1 of strengths [1, 3]: exact by hand.
        let p = place_probabilities(&[1, 3], 2);
        assert!((p[0] - 1.0).abs() < 1e-15 && (p[1] - 1.0).abs() < 1e-15);
    }

    #[test]
    fn prices_carry_the_declared_overround() {
        // Equal strengths, 8 runners: fair 8.00, at 115 % floor(800 / 1.15) = 6.95.
        let f = runners(&[50; 8]);
        let p = prices(&f, 3, 115);
        assert!(p.win.iter().all(|w| *w == Some(695)));
        // Place (top 3 of 8 equal): p = 3/8, fair 2.666…, at 115 %: floor(266.66/1.15) = 231.
        assert!(p.place.iter().all(|w| *w == Some(231)), "{:?}", p.place);
        // Forecast: p = 1/8 × 1/7 = 1/56, at 115 %: floor(5600 / 1.15) = 4869 (48.69).
        assert_eq!(p.forecast[0][1], Some(4869));
        assert_eq!(p.forecast[3][3], None);
        // The book's overround on the win market: Σ 1/price ≥ 1.15 (flooring only adds margin).
        let f = runners(&[50, 20, 80, 10, 100, 35, 60, 45]);
        let p = prices(&f, 3, 115);
        let book: f64 = p.win.iter().map(|w| 100.0 / w.unwrap() as f64).sum();
        assert!(book >= 1.15 && book < 1.17, "{book}");
        // Exactly: runner 5 (100 of 400): fair 4.00 -> floor(400 / 1.15) = 347.
        assert_eq!(p.win[4], Some(347));
        // Runner 4 (10 of 400): 40.00 -> 34.78.
        assert_eq!(p.win[3], Some(3478));
        // Forecast 5 then 4: p = 100/400 × 10/300 = 1/120 -> floor(12000 / 1.15) = 10434.
        assert_eq!(p.forecast[4][3], Some(10_434));
        // Forecast 4 then 1: 10/400 × 50/390 = 1/312 -> 312 / 1.15 = 271.30.
        assert_eq!(p.forecast[3][0], Some(27_130));
        // A price never exceeds the fair price divided by the overround.
        let place = place_probabilities(&f.iter().map(|r| r.strength).collect::<Vec<_>>(), 3);
        for i in 0..8 {
            let exact = 100.0 / (place[i] * 1.15);
            let got = p.place[i].unwrap() as f64;
            assert!(got <= exact && got > exact - 1.0, "runner {}: {got} vs {exact}", i + 1);
        }
    }

    #[test]
    fn prices_are_capped_and_floored() {
        assert_eq!(price_of(1, 1_000_000, 115), Some(MAX_PRICE));
        assert_eq!(price_of(99, 100, 100), Some(101), "10000 / 99 = 101.01 floors to 1.01");
        assert_eq!(price_of(100, 100, 100), None, "1.00 is not offered");
        assert_eq!(price_of(0, 100, 115), None);
        // A very strong speedway rider: his place price would be below 1.01, so not offered.
        let f = runners(&[100, 10, 10, 10]);
        let p = prices(&f, 2, 115);
        assert_eq!(p.place[0], None);
        assert!(p.win[0].is_some());
    }

    #[test]
    fn selections_parse_against_the_field() {
        assert_eq!(Selection::parse("win", &[3], 8), Ok(Selection::Win(3)));
        assert_eq!(Selection::parse("place", &[8], 8), Ok(Selection::Place(8)));
        assert_eq!(Selection::parse("forecast", &[2, 5], 6), Ok(Selection::Forecast(2, 5)));
        assert_eq!(Selection::parse("win", &[9], 8), Err(SelectionError::NoSuchRunner));
        assert_eq!(Selection::parse("win", &[0], 8), Err(SelectionError::NoSuchRunner));
        assert_eq!(Selection::parse("win", &[1, 2], 8), Err(SelectionError::WrongCount));
        assert_eq!(Selection::parse("forecast", &[2], 8), Err(SelectionError::WrongCount));
        assert_eq!(Selection::parse("forecast", &[2, 2], 8), Err(SelectionError::SameRunner));
        assert_eq!(Selection::parse("each-way", &[2], 8), Err(SelectionError::UnknownKind));
        assert_eq!(Selection::parse("win", &[], 8), Err(SelectionError::WrongCount));
    }

    #[test]
    fn settlement_of_win_place_and_forecast() {
        let result = RaceResult::Order { order: vec![4, 2, 7, 1, 3, 5, 6, 8], places: 3 };
        // Win: only the winner; the stake times the price, floored to the minor unit.
        assert_eq!(payout(&Selection::Win(4), 1_000, 347, &result), 3_470);
        assert_eq!(payout(&Selection::Win(2), 1_000, 347, &result), 0, "second is no win");
        // 333 millimes at 3.47 = 1155.51 -> 1155.
        assert_eq!(payout(&Selection::Win(4), 333, 347, &result), 1_155);
        // Place: the first three, not the fourth.
        for r in [4, 2, 7] {
            assert_eq!(payout(&Selection::Place(r), 2_000, 150, &result), 3_000, "runner {r}");
        }
        assert_eq!(payout(&Selection::Place(1), 2_000, 150, &result), 0, "fourth is out of the places");
        // Two places (greyhounds, speedway): third is out.
        let two = RaceResult::Order { order: vec![3, 1, 2, 4], places: 2 };
        assert_eq!(payout(&Selection::Place(1), 100, 120, &two), 120);
        assert_eq!(payout(&Selection::Place(2), 100, 120, &two), 0);
        // Forecast: first and second in that order only.
        assert_eq!(payout(&Selection::Forecast(4, 2), 500, 10_434, &result), 52_170);
        assert_eq!(payout(&Selection::Forecast(2, 4), 500, 10_434, &result), 0, "reversed forecast loses");
        assert_eq!(payout(&Selection::Forecast(4, 7), 500, 10_434, &result), 0, "first and third loses");
        // A void race returns the stake whatever the selection.
        assert_eq!(payout(&Selection::Forecast(2, 4), 500, 10_434, &RaceResult::Void), 500);
        // The largest payout at the cap stays within i64 and exact.
        assert_eq!(payout(&Selection::Win(4), 100_000, MAX_PRICE, &result), 100_000_000);
    }

    /// docs/VIRTUALS.md "Test vectors" is what the code computes (the document cannot drift).
    #[test]
    fn virtuals_md_vectors_match_the_code() {
        let doc = include_str!("../../../../docs/VIRTUALS.md");
        let block = doc.split("```text\nseed").nth(1).expect("the vectors block").split("```").next().unwrap();
        let value = |key: &str| -> String {
            block.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("no {key} line")).trim().to_string()
        };
        let seed = parse_hex32(&block.lines().next().unwrap().trim()).expect("seed hex");
        let salt = value("salt");
        let overround: u32 = value("overround").parse().unwrap();
        assert_eq!(studio::fair::hex32(&commitment(&seed)), value("commitment"));
        let price_text = |p: Option<u64>| p.map(|v| format!("{}.{:02}", v / 100, v % 100)).unwrap_or_else(|| "-".into());
        let mut checked = 0;
        for sport in Sport::ALL {
            let line = value(sport.id());
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 5, "{line}");
            let f = field(sport, &commitment(&seed));
            let field_text: Vec<String> = f.iter().map(|r| format!("{}:{}", r.name, r.strength)).collect();
            assert_eq!(parts[0], format!("field {}", field_text.join(", ")), "{}", sport.id());
            let order: Vec<String> = finishing_order(&seed, &salt, &f).iter().map(u32::to_string).collect();
            assert_eq!(parts[1], format!("order {}", order.join(" ")), "{}", sport.id());
            let p = prices(&f, sport.places(), overround);
            let list = |v: &[Option<u64>]| v.iter().map(|x| price_text(*x)).collect::<Vec<_>>().join(" ");
            assert_eq!(parts[2], format!("win {}", list(&p.win)), "{}", sport.id());
            assert_eq!(parts[3], format!("place {}", list(&p.place)), "{}", sport.id());
            assert_eq!(parts[4], format!("forecast 1-2 {}", price_text(p.forecast[0][1])), "{}", sport.id());
            checked += 1;
        }
        assert_eq!(checked, 3);
    }
}
