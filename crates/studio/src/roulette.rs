//! European roulette: one zero, 37 pockets, the full bet layout. The winning number is
//! `rng.below(37)`. Zero loses every outside bet (no la partage). RTP 97.30 % on every bet.

use serde::{Deserialize, Serialize};

use crate::fair::Rng32;
pub use crate::BetError;

/// Theoretical RTP in hundredths of a percent (36/37).
pub const RTP_BP: u32 = 9730;
/// Largest stake of one bet, in minor units.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000_000;
/// Most bets on one spin.
pub const MAX_BETS: usize = 200;

const RED: [u8; 18] = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BetKind {
    Straight,
    Split,
    Street,
    Corner,
    SixLine,
    Trio,
    FirstFour,
    Dozen,
    Column,
    Red,
    Black,
    Odd,
    Even,
    Low,
    High,
}

impl BetKind {
    pub const ALL: [BetKind; 15] = [
        BetKind::Straight,
        BetKind::Split,
        BetKind::Street,
        BetKind::Corner,
        BetKind::SixLine,
        BetKind::Trio,
        BetKind::FirstFour,
        BetKind::Dozen,
        BetKind::Column,
        BetKind::Red,
        BetKind::Black,
        BetKind::Odd,
        BetKind::Even,
        BetKind::Low,
        BetKind::High,
    ];

    /// English name used in error messages.
    pub fn label(self) -> &'static str {
        match self {
            BetKind::Straight => "straight",
            BetKind::Split => "split",
            BetKind::Street => "street",
            BetKind::Corner => "corner",
            BetKind::SixLine => "six line",
            BetKind::Trio => "trio",
            BetKind::FirstFour => "first four",
            BetKind::Dozen => "dozen",
            BetKind::Column => "column",
            BetKind::Red => "red",
            BetKind::Black => "black",
            BetKind::Odd => "odd",
            BetKind::Even => "even",
            BetKind::Low => "low",
            BetKind::High => "high",
        }
    }

    /// How many entries `Bet::numbers` must hold.
    pub fn numbers_len(self) -> usize {
        match self {
            BetKind::Straight => 1,
            BetKind::Split => 2,
            BetKind::Street | BetKind::Trio => 3,
            BetKind::Corner | BetKind::FirstFour => 4,
            BetKind::SixLine => 6,
            BetKind::Dozen | BetKind::Column => 1,
            _ => 0,
        }
    }
}

/// One bet. `numbers`: the covered numbers for inside bets (any order); for dozen/column one
/// number 1..=3 naming it; empty for even-money bets.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bet {
    pub kind: BetKind,
    #[serde(default)]
    pub numbers: Vec<u8>,
    pub amount: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BetResult {
    /// Index of the bet in the slice given to [`settle`].
    pub index: usize,
    /// Stake plus winnings.
    pub returned: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettledSpin {
    pub number: u8,
    /// "red", "black" or "green".
    pub color: &'static str,
    /// Total returned (stakes plus winnings of the winning bets).
    pub returned: i64,
    pub wins: Vec<BetResult>,
}

/// Winnings-to-one of a winning bet.
pub fn payout_multiplier(kind: BetKind) -> i64 {
    match kind {
        BetKind::Straight => 35,
        BetKind::Split => 17,
        BetKind::Street => 11,
        BetKind::Corner => 8,
        BetKind::SixLine => 5,
        BetKind::Trio => 11,
        BetKind::FirstFour => 8,
        BetKind::Dozen | BetKind::Column => 2,
        BetKind::Red | BetKind::Black | BetKind::Odd | BetKind::Even | BetKind::Low | BetKind::High => 1,
    }
}

/// The winning pocket, 0..=36: `rng.below(37)`.
pub fn spin<R: Rng32>(rng: &mut R) -> u8 {
    rng.below(37) as u8
}

pub fn is_red(n: u8) -> bool {
    RED.contains(&n)
}

/// "red", "black" or "green" (zero).
pub fn color(n: u8) -> &'static str {
    if n == 0 {
        "green"
    } else if is_red(n) {
        "red"
    } else {
        "black"
    }
}

fn sorted(numbers: &[u8]) -> Vec<u8> {
    let mut v = numbers.to_vec();
    v.sort_unstable();
    v
}

/// Checks the amount, the count and that the numbers form that bet on the real table layout
/// (three columns, 12 rows: row k holds 3k+1, 3k+2, 3k+3; zero sits above the first row).
pub fn validate(bet: &Bet) -> Result<(), BetError> {
    if bet.amount <= 0 || bet.amount > MAX_AMOUNT {
        return Err(BetError::InvalidAmount { max: MAX_AMOUNT });
    }
    let kind = bet.kind;
    let expected = kind.numbers_len();
    if bet.numbers.len() != expected {
        return Err(BetError::WrongCount { kind: kind.label(), expected, got: bet.numbers.len() });
    }
    if matches!(kind, BetKind::Dozen | BetKind::Column) {
        let n = bet.numbers[0];
        return if (1..=3).contains(&n) { Ok(()) } else { Err(BetError::InvalidSection { kind: kind.label() }) };
    }
    if expected == 0 {
        return Ok(());
    }
    for &n in &bet.numbers {
        if n > 36 {
            return Err(BetError::NumberOutOfRange(n));
        }
    }
    let v = sorted(&bet.numbers);
    if let Some(w) = v.windows(2).find(|w| w[0] == w[1]) {
        return Err(BetError::DuplicateNumber { number: w[0] });
    }
    let ok = match kind {
        BetKind::Straight => true,
        BetKind::Split => {
            let (a, b) = (v[0], v[1]);
            if a == 0 {
                (1..=3).contains(&b)
            } else {
                b == a + 3 || (b == a + 1 && a % 3 != 0)
            }
        }
        BetKind::Street => v[0] % 3 == 1 && v[1] == v[0] + 1 && v[2] == v[0] + 2,
        BetKind::Corner => v[0] != 0 && !v[0].is_multiple_of(3) && v == [v[0], v[0] + 1, v[0] + 3, v[0] + 4],
        BetKind::SixLine => v[0] % 3 == 1 && v[0] <= 31 && v.iter().enumerate().all(|(i, &n)| n == v[0] + i as u8),
        BetKind::Trio => v == [0, 1, 2] || v == [0, 2, 3],
        BetKind::FirstFour => v == [0, 1, 2, 3],
        _ => unreachable!(),
    };
    if ok {
        Ok(())
    } else {
        Err(BetError::NotOnLayout { kind: kind.label() })
    }
}

/// Validates every bet and the number of bets.
pub fn validate_all(bets: &[Bet]) -> Result<(), BetError> {
    if bets.len() > MAX_BETS {
        return Err(BetError::TooManyBets { max: MAX_BETS });
    }
    bets.iter().try_for_each(validate)
}

/// Whether a (valid) bet covers `number`.
pub fn covers(bet: &Bet, number: u8) -> bool {
    let n = number;
    match bet.kind {
        BetKind::Straight
        | BetKind::Split
        | BetKind::Street
        | BetKind::Corner
        | BetKind::SixLine
        | BetKind::Trio
        | BetKind::FirstFour => bet.numbers.contains(&n),
        BetKind::Dozen => n != 0 && (n - 1) / 12 + 1 == bet.numbers[0],
        BetKind::Column => n != 0 && (n - 1) % 3 + 1 == bet.numbers[0],
        BetKind::Red => n != 0 && is_red(n),
        BetKind::Black => n != 0 && !is_red(n),
        BetKind::Odd => n != 0 && n % 2 == 1,
        BetKind::Even => n != 0 && n.is_multiple_of(2),
        BetKind::Low => (1..=18).contains(&n),
        BetKind::High => (19..=36).contains(&n),
    }
}

/// Settles (already validated) bets against the winning `number`: each winning bet returns
/// amount * (payout_multiplier + 1); losing bets return 0.
pub fn settle(bets: &[Bet], number: u8) -> SettledSpin {
    let mut total: i128 = 0;
    let mut wins = Vec::new();
    for (index, bet) in bets.iter().enumerate() {
        if covers(bet, number) {
            let r = bet.amount as i128 * (payout_multiplier(bet.kind) as i128 + 1);
            total += r;
            wins.push(BetResult { index, returned: r.min(i64::MAX as i128) as i64 });
        }
    }
    SettledSpin { number, color: color(number), returned: total.min(i64::MAX as i128) as i64, wins }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::SimRng;

    fn bet(kind: BetKind, numbers: &[u8]) -> Bet {
        Bet { kind, numbers: numbers.to_vec(), amount: 100 }
    }

    fn ok(kind: BetKind, numbers: &[u8]) {
        assert_eq!(validate(&bet(kind, numbers)), Ok(()), "{kind:?} {numbers:?}");
    }

    fn bad(kind: BetKind, numbers: &[u8]) {
        assert!(validate(&bet(kind, numbers)).is_err(), "{kind:?} {numbers:?} should be refused");
    }

    /// Every valid inside bet, built from the layout independently of `validate`.
    fn layout(kind: BetKind) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        match kind {
            BetKind::Straight => (0..=36).for_each(|n| out.push(vec![n])),
            BetKind::Split => {
                out.extend([vec![0, 1], vec![0, 2], vec![0, 3]]);
                for row in 0..12u8 {
                    for col in 0..3u8 {
                        let n = row * 3 + col + 1;
                        if col < 2 {
                            out.push(vec![n, n + 1]);
                        }
                        if row < 11 {
                            out.push(vec![n, n + 3]);
                        }
                    }
                }
            }
            BetKind::Street => (0..12u8).for_each(|r| out.push(vec![3 * r + 1, 3 * r + 2, 3 * r + 3])),
            BetKind::Corner => {
                for row in 0..11u8 {
                    for col in 0..2u8 {
                        let n = row * 3 + col + 1;
                        out.push(vec![n, n + 1, n + 3, n + 4]);
                    }
                }
            }
            BetKind::SixLine => (0..11u8).for_each(|r| out.push((3 * r + 1..=3 * r + 6).collect())),
            BetKind::Trio => out.extend([vec![0, 1, 2], vec![0, 2, 3]]),
            BetKind::FirstFour => out.push(vec![0, 1, 2, 3]),
            _ => unreachable!(),
        }
        out
    }

    #[test]
    fn layout_counts_and_every_layout_bet_is_valid() {
        let expect = [
            (BetKind::Straight, 37),
            (BetKind::Split, 60),
            (BetKind::Street, 12),
            (BetKind::Corner, 22),
            (BetKind::SixLine, 11),
            (BetKind::Trio, 2),
            (BetKind::FirstFour, 1),
        ];
        for (kind, count) in expect {
            let all = layout(kind);
            assert_eq!(all.len(), count, "{kind:?}");
            for nums in &all {
                ok(kind, nums);
                let mut rev = nums.clone();
                rev.reverse();
                ok(kind, &rev);
            }
        }
    }

    #[test]
    fn exactly_the_layout_bets_are_valid() {
        // Brute force: every 2-, 3- and 4-number set is valid for a kind iff it is in the layout.
        for kind in [BetKind::Split, BetKind::Street, BetKind::Trio, BetKind::Corner, BetKind::FirstFour] {
            let valid: std::collections::HashSet<Vec<u8>> = layout(kind).into_iter().collect();
            let k = kind.numbers_len();
            let mut combo = vec![0u8; k];
            fn rec(start: u8, i: usize, combo: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
                if i == combo.len() {
                    f(combo);
                    return;
                }
                for n in start..=36 {
                    combo[i] = n;
                    rec(n + 1, i + 1, combo, f);
                }
            }
            let mut checked = 0;
            rec(0, 0, &mut combo, &mut |c: &[u8]| {
                checked += 1;
                assert_eq!(validate(&bet(kind, c)).is_ok(), valid.contains(c), "{kind:?} {c:?}");
            });
            assert!(checked > 600);
        }
    }

    #[test]
    fn rejects() {
        bad(BetKind::Split, &[1, 5]); // not adjacent
        bad(BetKind::Split, &[3, 4]); // across the row end
        bad(BetKind::Split, &[0, 4]);
        bad(BetKind::Split, &[7, 7]);
        bad(BetKind::Split, &[1]);
        bad(BetKind::Street, &[2, 3, 4]);
        bad(BetKind::Street, &[34, 35, 36, 37]);
        bad(BetKind::Street, &[0, 1, 2]);
        bad(BetKind::Corner, &[2, 3, 5, 6 + 1]);
        bad(BetKind::Corner, &[3, 4, 6, 7]); // wraps across the row end
        bad(BetKind::Corner, &[0, 1, 2, 3]);
        bad(BetKind::Corner, &[1, 2, 3, 4]);
        bad(BetKind::SixLine, &[2, 3, 4, 5, 6, 7]);
        bad(BetKind::SixLine, &[34, 35, 36, 37, 38, 39]);
        bad(BetKind::Trio, &[0, 1, 3]);
        bad(BetKind::FirstFour, &[1, 2, 3, 4]);
        bad(BetKind::Straight, &[37]);
        bad(BetKind::Straight, &[]);
        bad(BetKind::Dozen, &[0]);
        bad(BetKind::Dozen, &[4]);
        bad(BetKind::Column, &[]);
        bad(BetKind::Red, &[1]);
        ok(BetKind::Dozen, &[3]);
        ok(BetKind::Column, &[1]);
        for k in [BetKind::Red, BetKind::Black, BetKind::Odd, BetKind::Even, BetKind::Low, BetKind::High] {
            ok(k, &[]);
        }
        let mut b = bet(BetKind::Red, &[]);
        b.amount = 0;
        assert_eq!(validate(&b), Err(BetError::InvalidAmount { max: MAX_AMOUNT }));
        b.amount = -5;
        assert!(validate(&b).is_err());
        assert_eq!(
            validate(&bet(BetKind::Split, &[1, 5])).unwrap_err().to_string(),
            "those numbers do not form a split on the table layout"
        );
        assert!(validate_all(&vec![bet(BetKind::Red, &[]); MAX_BETS + 1]).is_err());
    }

    #[test]
    fn payouts_and_rtp_of_every_bet_kind() {
        // Every layout bet returns exactly 36/37 of the stake over the 37 pockets.
        let mut bets = Vec::new();
        for kind in [BetKind::Straight, BetKind::Split, BetKind::Street, BetKind::Corner, BetKind::SixLine, BetKind::Trio, BetKind::FirstFour] {
            for nums in layout(kind) {
                bets.push(bet(kind, &nums));
            }
        }
        for k in [BetKind::Dozen, BetKind::Column] {
            for d in 1..=3 {
                bets.push(bet(k, &[d]));
            }
        }
        for k in [BetKind::Red, BetKind::Black, BetKind::Odd, BetKind::Even, BetKind::Low, BetKind::High] {
            bets.push(bet(k, &[]));
        }
        for b in &bets {
            let total: i64 = (0..=36).map(|n| settle(std::slice::from_ref(b), n).returned).sum();
            assert_eq!(total, 36 * b.amount, "{b:?}");
        }
        assert_eq!(payout_multiplier(BetKind::Straight), 35);
        assert_eq!(payout_multiplier(BetKind::Trio), 11);
        let s = settle(&[bet(BetKind::Straight, &[17]), bet(BetKind::Red, &[]), bet(BetKind::Black, &[]), bet(BetKind::Column, &[2])], 17);
        assert_eq!(s.color, "black");
        assert_eq!(s.returned, 3600 + 200 + 300);
        assert_eq!(s.wins, vec![BetResult { index: 0, returned: 3600 }, BetResult { index: 2, returned: 200 }, BetResult { index: 3, returned: 300 }]);
        let z = settle(&[bet(BetKind::Red, &[]), bet(BetKind::Even, &[]), bet(BetKind::Low, &[]), bet(BetKind::Split, &[0, 2])], 0);
        assert_eq!((z.color, z.returned), ("green", 1800));
    }

    #[test]
    fn wheel_colours() {
        assert_eq!((1..=36).filter(|&n| is_red(n)).count(), 18);
        assert!(!is_red(0));
        assert_eq!(color(0), "green");
        assert_eq!(color(32), "red");
        assert_eq!(color(26), "black");
    }

    #[test]
    fn spin_is_below_37() {
        let mut rng = SimRng::seeded(3);
        let mut seen = [false; 37];
        for _ in 0..10_000 {
            seen[spin(&mut rng) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn json_shape() {
        let b: Bet = serde_json::from_str(r#"{"kind":"sixLine","numbers":[1,2,3,4,5,6],"amount":50}"#).unwrap();
        assert_eq!(b.kind, BetKind::SixLine);
        let b: Bet = serde_json::from_str(r#"{"kind":"red","amount":50}"#).unwrap();
        assert!(b.numbers.is_empty());
        let s = serde_json::to_value(settle(&[b], 1)).unwrap();
        assert_eq!(s["color"], "red");
        assert_eq!(s["wins"][0]["returned"], 100);
    }
}
