//! Free bets (spec §5, §9): values 10, 50, 100, 250 and 500, a life of 25 days, used on sports
//! bets of total odds at least 2.20, paying winnings only (the sportsbook's `Funding::FreeBet`).

use crate::{Currency, Minor};
use serde::{Deserialize, Serialize};

/// The values a free bet can have, in major units.
pub const VALUES_MAJOR: [i64; 5] = [10, 50, 100, 250, 500];
/// Days from grant to expiry.
pub const LIFE_DAYS: i64 = 25;
/// The least total odds of a free bet, in thousandths (refused with 1489 below).
pub const MIN_ODDS: u32 = 2_200;

/// The free-bet settings (`limits.freebet` in the site settings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreeBetRule {
    pub values_major: Vec<i64>,
    pub life_days: i64,
    pub min_odds: u32,
    /// The least deposit (major units) that qualifies for a deposit free bet (spec §9: 40).
    pub min_deposit_major: i64,
    /// "Bet and get": one free bet of the smallest value for every this much staked on sports in
    /// the campaign window (major units); `actualFreeBetStats` reports the progress.
    pub per_staked_major: i64,
}

impl Default for FreeBetRule {
    fn default() -> Self {
        FreeBetRule {
            values_major: VALUES_MAJOR.to_vec(),
            life_days: LIFE_DAYS,
            min_odds: MIN_ODDS,
            min_deposit_major: 40,
            per_staked_major: 100,
        }
    }
}

impl FreeBetRule {
    /// Whether `amount` (minor units) is one of the offered values.
    pub fn is_value(&self, amount: Minor, currency: Currency) -> bool {
        self.values_major
            .iter()
            .any(|&v| currency.major(v) == amount)
    }

    /// When a free bet granted at `granted_at` (Unix seconds) expires.
    pub fn expires_at(&self, granted_at: i64) -> i64 {
        granted_at + self.life_days * 86_400
    }

    /// How many free bets `staked` (minor units, sports stakes in the window) has earned so far,
    /// less those already granted for it.
    pub fn possible(&self, staked: Minor, already_granted: i64, currency: Currency) -> i64 {
        let per = currency.major(self.per_staked_major);
        if per <= 0 {
            return 0;
        }
        (staked.max(0) / per - already_granted).max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_life_and_progress() {
        let r = FreeBetRule::default();
        assert!(r.is_value(10_000, Currency::Tnd));
        assert!(!r.is_value(20_000, Currency::Tnd));
        assert!(r.is_value(50, Currency::Pyg));
        assert_eq!(r.expires_at(0), 25 * 86_400);
        assert_eq!(r.possible(250_000, 0, Currency::Tnd), 2);
        assert_eq!(r.possible(250_000, 2, Currency::Tnd), 0);
        assert_eq!(r.possible(250_000, 5, Currency::Tnd), 0);
    }
}
