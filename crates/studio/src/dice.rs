//! Dice: a roll from 0.00 to 100.00 in hundredths (`rng.below(10001)`, 10001 outcomes); the
//! player picks a target and over (wins when roll > target) or under (wins when roll < target).
//!
//! Winning outcomes: under → `target`, over → `10000 - target`; allowed from 100 (0.9999 %) to
//! 9800 (97.99 %), i.e. under: target 100..=9800, over: target 200..=9900.
//! Returned on a win: floor(amount * 99 * 10001 / (100 * winning_outcomes)) — 1 % house edge.

use serde::{Deserialize, Serialize};

use crate::fair::Rng32;
pub use crate::BetError;

/// Theoretical RTP in hundredths of a percent.
pub const RTP_BP: u32 = 9900;
/// Number of roll outcomes (0..=10000).
pub const OUTCOMES: u32 = 10_001;
/// Fewest / most winning outcomes a bet may have.
pub const MIN_WINNING: u32 = 100;
pub const MAX_WINNING: u32 = 9_800;
/// Target bounds (hundredths, inclusive) per direction.
pub const UNDER_MIN: u32 = MIN_WINNING;
pub const UNDER_MAX: u32 = MAX_WINNING;
pub const OVER_MIN: u32 = 10_000 - MAX_WINNING;
pub const OVER_MAX: u32 = 10_000 - MIN_WINNING;
/// Largest stake, in minor units.
pub const MAX_AMOUNT: i64 = 1_000_000_000_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiceBet {
    pub amount: i64,
    /// Hundredths (e.g. 4950 = 49.50).
    pub target: u32,
    pub over: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiceResult {
    /// Hundredths, 0..=10000.
    pub roll: u32,
    pub win: bool,
    /// Stake plus winnings on a win, 0 on a loss.
    pub returned: i64,
    /// The payout multiplier x 10000 (display only; `returned` is computed exactly).
    pub multiplier_bp: u64,
    /// Winning chance in parts per million: floor(winning_outcomes * 1_000_000 / 10001) (display).
    pub chance_ppm: u64,
}

/// How many of the 10001 outcomes win.
pub fn winning_outcomes(target: u32, over: bool) -> u32 {
    if over {
        10_000u32.saturating_sub(target)
    } else {
        target.min(OUTCOMES)
    }
}

pub fn validate(bet: &DiceBet) -> Result<(), BetError> {
    if bet.amount <= 0 || bet.amount > MAX_AMOUNT {
        return Err(BetError::InvalidAmount { max: MAX_AMOUNT });
    }
    let (min, max, direction) = if bet.over { (OVER_MIN, OVER_MAX, "over") } else { (UNDER_MIN, UNDER_MAX, "under") };
    if bet.target < min || bet.target > max {
        return Err(BetError::TargetOutOfRange { min, max, direction });
    }
    Ok(())
}

/// The roll in hundredths: `rng.below(10001)`.
pub fn roll<R: Rng32>(rng: &mut R) -> u32 {
    rng.below(OUTCOMES)
}

/// Multiplier x 10000 for a number of winning outcomes (floor).
pub fn multiplier_bp(winning: u32) -> u64 {
    (99u64 * OUTCOMES as u64 * 100) / winning.max(1) as u64
}

/// Settles a (validated) bet against a roll.
pub fn settle(bet: &DiceBet, roll: u32) -> DiceResult {
    let winning = winning_outcomes(bet.target, bet.over);
    let win = if bet.over { roll > bet.target } else { roll < bet.target };
    let returned = if win {
        let r = bet.amount as i128 * 99 * OUTCOMES as i128 / (100 * winning as i128);
        r.min(i64::MAX as i128) as i64
    } else {
        0
    };
    DiceResult {
        roll,
        win,
        returned,
        multiplier_bp: multiplier_bp(winning),
        chance_ppm: winning as u64 * 1_000_000 / OUTCOMES as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        let b = |target, over| validate(&DiceBet { amount: 100, target, over });
        assert!(b(100, false).is_ok());
        assert!(b(99, false).is_err());
        assert!(b(9800, false).is_ok());
        assert!(b(9801, false).is_err());
        assert!(b(200, true).is_ok());
        assert!(b(199, true).is_err());
        assert!(b(9900, true).is_ok());
        assert!(b(9901, true).is_err());
        assert!(b(20_000, true).is_err());
        assert!(validate(&DiceBet { amount: 0, target: 5000, over: true }).is_err());
        assert_eq!(
            b(50, false).unwrap_err().to_string(),
            "the target must be between 100 and 9800 hundredths for an under bet"
        );
        for t in UNDER_MIN..=UNDER_MAX {
            let w = winning_outcomes(t, false);
            assert!((MIN_WINNING..=MAX_WINNING).contains(&w));
        }
        for t in OVER_MIN..=OVER_MAX {
            let w = winning_outcomes(t, true);
            assert!((MIN_WINNING..=MAX_WINNING).contains(&w));
        }
    }

    #[test]
    fn win_rules_and_payouts() {
        let over = DiceBet { amount: 1000, target: 5000, over: true };
        assert!(!settle(&over, 5000).win);
        let r = settle(&over, 5001);
        assert!(r.win);
        // 5000 winning outcomes: 1000 * 99 * 10001 / 500000 = 1980.198 -> 1980
        assert_eq!(r.returned, 1980);
        assert_eq!(r.multiplier_bp, 19_801);
        assert_eq!(r.chance_ppm, 499_950);
        let under = DiceBet { amount: 1000, target: 100, over: false };
        assert!(settle(&under, 99).win);
        assert!(!settle(&under, 100).win);
        assert_eq!(settle(&under, 0).returned, 99_009); // 99.0099x
        assert_eq!(settle(&under, 100).returned, 0);
    }

    #[test]
    fn rtp_is_99_percent_for_every_target() {
        for (target, over) in [(100, false), (4950, false), (9800, false), (200, true), (5000, true), (9900, true)] {
            let bet = DiceBet { amount: 1_000_000, target, over };
            let total: i128 = (0..OUTCOMES).map(|r| settle(&bet, r).returned as i128).sum();
            let rtp = total as f64 / (OUTCOMES as f64 * 1_000_000.0);
            assert!((rtp - 0.99).abs() < 1e-5, "{target} {over} {rtp}");
        }
    }

    #[test]
    fn roll_range() {
        let mut rng = crate::fair::SimRng::seeded(9);
        for _ in 0..100_000 {
            assert!(roll(&mut rng) <= 10_000);
        }
        let mut w = crate::fair::Words::new(vec![u32::MAX, 10_000]);
        assert_eq!(roll(&mut w), 10_000);
    }
}
