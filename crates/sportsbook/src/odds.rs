//! Decimal odds as integer thousandths, the player's odds-change policy, express odds and payouts.
//!
//! Odds decide money, so they are never floats: 1.85 is `Odds(1850)`. Three decimals cover every
//! decimal-odds feed we know (UOF and Betfair quote at most two; fractional odds such as 1/3 become
//! 1.333, the feed's own rounding). The smallest odds are 1.001: odds of 1.000 would pay the stake
//! back on a win and are not a bet.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::exact::{floor_product, saturate_i64};

/// Thousandths per unit of odds.
pub const ODDS_SCALE: u32 = 1000;

/// Decimal odds in thousandths (1.850 = `Odds(1850)`), always in [`Odds::MIN`]..=[`Odds::MAX`].
///
/// JSON carries the integer (`1850`); deserialising checks the range like [`Odds::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct Odds(u32);

/// Why odds were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// Below 1.001 or above 1000.000.
    #[error("odds must be between 1.001 and 1000.000, got {0} thousandths")]
    OutOfRange(u64),
    /// Not a decimal number with at most three decimals.
    #[error("{0:?} is not decimal odds like 1.85")]
    Malformed(String),
}

impl Odds {
    /// The smallest odds, 1.001.
    pub const MIN: Odds = Odds(1001);
    /// The largest odds we accept from any feed, 1000.000 (pricing itself stops at 500).
    pub const MAX: Odds = Odds(1_000_000);

    /// Checked construction from thousandths.
    pub const fn new(thousandths: u32) -> Result<Odds, OddsError> {
        if thousandths < Self::MIN.0 || thousandths > Self::MAX.0 {
            return Err(OddsError::OutOfRange(thousandths as u64));
        }
        Ok(Odds(thousandths))
    }

    /// The odds in thousandths.
    pub const fn thousandths(self) -> u32 {
        self.0
    }

    /// Parses `"1.85"`, `"1.850"` or `"2"` exactly (no float involved); more than three decimals
    /// is refused rather than rounded, since rounding odds moves money.
    pub fn parse(s: &str) -> Result<Odds, OddsError> {
        let bad = || OddsError::Malformed(s.to_string());
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        if int.is_empty() || int.len() > 7 || frac.len() > 3 || (s.contains('.') && frac.is_empty()) {
            return Err(bad());
        }
        if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let int: u64 = int.parse().map_err(|_| bad())?;
        let mut frac_value: u64 = if frac.is_empty() { 0 } else { frac.parse().map_err(|_| bad())? };
        for _ in frac.len()..3 {
            frac_value *= 10;
        }
        let t = int * 1000 + frac_value;
        u32::try_from(t).map_err(|_| OddsError::OutOfRange(t)).and_then(Odds::new)
    }

    /// The odds as a float, for display and pricing only.
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / ODDS_SCALE as f64
    }
}

impl fmt::Display for Odds {
    /// Always three decimals: `1.850`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:03}", self.0 / ODDS_SCALE, self.0 % ODDS_SCALE)
    }
}

impl FromStr for Odds {
    type Err = OddsError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Odds::parse(s)
    }
}

impl TryFrom<u32> for Odds {
    type Error = OddsError;
    fn try_from(t: u32) -> Result<Self, Self::Error> {
        Odds::new(t)
    }
}

impl From<Odds> for u32 {
    fn from(o: Odds) -> u32 {
        o.0
    }
}

/// What the player agreed to when the odds move between seeing a selection and placing the bet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum OddsPolicy {
    /// Take whatever the current odds are.
    AcceptAny,
    /// Take the current odds if they are at least the odds seen.
    AcceptHigher,
    /// Only the exact odds seen (the safe default).
    #[default]
    None,
}

/// Whether `policy` lets a bet requested at `requested` be placed at `current`.
pub fn accepts(policy: OddsPolicy, requested: Odds, current: Odds) -> bool {
    match policy {
        OddsPolicy::AcceptAny => true,
        OddsPolicy::AcceptHigher => current >= requested,
        OddsPolicy::None => current == requested,
    }
}

/// The combined odds of an express in thousandths: ⌊Π oddsᵢ / 1000ⁿ⁻¹⌋, exact, saturating at
/// `u64::MAX` (20 legs at 500 do not fit any integer type; limits refuse such bets long before).
/// One leg gives its own odds; no legs gives 1.000.
pub fn combined_odds(legs: &[Odds]) -> u64 {
    let v = floor_product(ODDS_SCALE as u128, legs.iter().map(|o| (o.0 as u64, ODDS_SCALE as u64)));
    u64::try_from(v).unwrap_or(u64::MAX)
}

/// What a winning bet returns (stake included): ⌊stake × Π oddsᵢ⌋ in minor units, exact, floored
/// once at the end, saturating at `i64::MAX`. A non-positive stake returns 0.
pub fn potential_payout(stake: i64, legs: &[Odds]) -> i64 {
    if stake <= 0 {
        return 0;
    }
    saturate_i64(floor_product(stake as u128, legs.iter().map(|o| (o.0 as u64, ODDS_SCALE as u64))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(s: &str) -> Odds {
        s.parse().unwrap()
    }

    #[test]
    fn parse_and_format() {
        assert_eq!(o("1.85").thousandths(), 1850);
        assert_eq!(o("1.850").to_string(), "1.850");
        assert_eq!(o("2").to_string(), "2.000");
        assert_eq!(o("1.001"), Odds::MIN);
        assert_eq!(o("1000"), Odds::MAX);
        assert_eq!(o("12.5").thousandths(), 12_500);
        for bad in ["", "1.", ".5", "1.8501", "abc", "-1.5", "1,85", "1.8e1", " 1.85"] {
            assert!(matches!(Odds::parse(bad), Err(OddsError::Malformed(_))), "{bad:?}");
        }
        assert_eq!(Odds::parse("1.000"), Err(OddsError::OutOfRange(1000)));
        assert_eq!(Odds::parse("1000.001"), Err(OddsError::OutOfRange(1_000_001)));
        assert_eq!(Odds::parse("9999999.999"), Err(OddsError::OutOfRange(9_999_999_999)));
    }

    #[test]
    fn checked_construction_and_serde() {
        assert!(Odds::new(1000).is_err());
        assert!(Odds::new(1001).is_ok());
        assert_eq!(serde_json::to_string(&o("1.85")).unwrap(), "1850");
        assert_eq!(serde_json::from_str::<Odds>("1850").unwrap(), o("1.85"));
        assert!(serde_json::from_str::<Odds>("1000").is_err());
        assert!(serde_json::from_str::<Odds>("1.85").is_err());
    }

    #[test]
    fn policies() {
        let (seen, up, down) = (o("1.85"), o("1.90"), o("1.80"));
        assert!(accepts(OddsPolicy::AcceptAny, seen, down));
        assert!(accepts(OddsPolicy::AcceptAny, seen, up));
        assert!(accepts(OddsPolicy::AcceptHigher, seen, up));
        assert!(accepts(OddsPolicy::AcceptHigher, seen, seen));
        assert!(!accepts(OddsPolicy::AcceptHigher, seen, down));
        assert!(accepts(OddsPolicy::None, seen, seen));
        assert!(!accepts(OddsPolicy::None, seen, up));
        assert!(!accepts(OddsPolicy::None, seen, down));
        assert_eq!(serde_json::to_string(&OddsPolicy::AcceptHigher).unwrap(), "\"accept_higher\"");
    }

    #[test]
    fn express_odds_and_payout() {
        let legs = [o("1.85"), o("2.10"), o("1.333")];
        // 1.85 × 2.10 × 1.333 = 5.178705 → 5.178 (floor to thousandths).
        assert_eq!(combined_odds(&legs), 5178);
        // 10.000 TND (10,000 millimes) × 5.178705 = 51,787.05 → 51,787.
        assert_eq!(potential_payout(10_000, &legs), 51_787);
        // The payout uses the exact product, not the floored combined odds (10,000 × 5.178 = 51,780).
        assert_ne!(potential_payout(10_000, &legs), 10_000 * combined_odds(&legs) as i64 / 1000);
        assert_eq!(combined_odds(&[o("1.85")]), 1850);
        assert_eq!(combined_odds(&[]), 1000);
        assert_eq!(potential_payout(1, &[o("1.999")]), 1);
        assert_eq!(potential_payout(0, &legs), 0);
        assert_eq!(potential_payout(-5, &legs), 0);
        let huge = [Odds::MAX; 20];
        assert_eq!(combined_odds(&huge), u64::MAX);
        assert_eq!(potential_payout(1, &huge), i64::MAX);
    }
}
