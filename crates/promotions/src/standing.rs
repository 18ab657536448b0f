//! The standing offers of the site settings (spec §3 `limits.bonus`, §9 "Deposit bonus up to
//! 25% over 20 deposits, maximum 1000"): the deposit bonus a player opts into and the
//! registration bonus, read at grant time from the settings document.
//!
//! - `maxBetCount` (20): how many of a player's first deposits earn the deposit bonus;
//! - `maxBonusPercent` (0.25): the share of each of those deposits;
//! - `maxBonusSize` (1000) and `registrationBonus` (0 = none): major units of the reference
//!   currency (TND), scaled for another currency by its `inbetKf` factor (HTG 45: at most
//!   45 000 HTG), as the slip's limits are.
//!
//! Every figure is exact: the settings' decimals are read from their text and multiplied as
//! integers, rounded down to the currency's minor unit; never a float.

use crate::{bps_of, Bps, Minor};
use betting::limits::decimal;
use kernel::Currency;
use serde_json::Value;

/// Spec §9's figures, used where the settings lack one or spell it wrongly.
pub const DEFAULT_MAX_DEPOSITS: i64 = 20;
pub const DEFAULT_PERCENT_BPS: Bps = 2_500;
pub const DEFAULT_MAX_BONUS_TND: i64 = 1_000;

/// The standing terms of both offers (the operator's templates start from these).
pub const STANDING_MULTIPLE: u32 = 10;
pub const STANDING_LIFE_DAYS: u32 = 30;
/// The largest stake while wagering, in major units of TND (scaled by `inbetKf`).
pub const STANDING_MAX_BET_TND: i64 = 5;

/// The standing offers' figures for one currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// How many of a player's first deposits earn the deposit bonus.
    pub max_deposits: i64,
    /// The share of each deposit (basis points, 0..=10 000).
    pub percent_bps: Bps,
    /// The most one deposit bonus can be (minor units of the currency).
    pub max_bonus: Minor,
    /// The registration bonus (minor units; 0: none).
    pub registration: Minor,
    /// The largest stake while a standing bonus is wagered (minor units).
    pub max_bet: Minor,
}

impl Standing {
    /// The deposit bonus of a deposit of `deposit` (0 when none).
    pub fn deposit_bonus(&self, deposit: Minor) -> Minor {
        bps_of(deposit.max(0), self.percent_bps).min(self.max_bonus).max(0)
    }
}


/// `major` (a decimal in TND) × `factor`, as minor units of `currency`, rounded down.
fn scaled(major: (i128, u32), factor: (i128, u32), currency: Currency) -> Minor {
    let num = major
        .0
        .checked_mul(factor.0)
        .and_then(|n| n.checked_mul(10i128.pow(currency.exponent())));
    let den = 10i128.pow(major.1 + factor.1);
    num.map(|n| i64::try_from(n / den).unwrap_or(i64::MAX)).unwrap_or(i64::MAX)
}

/// The standing offers for `currency` from the settings document `doc`.
pub fn standing(doc: &Value, currency: Currency) -> Standing {
    let bonus = |key: &str| doc.pointer(&format!("/limits/bonus/{key}")).and_then(decimal);
    let factor = doc
        .pointer(&format!("/inbetKf/{}", currency.code()))
        .and_then(decimal)
        .filter(|&(m, _)| m > 0)
        .unwrap_or((1, 0));
    let max_deposits = match bonus("maxBetCount") {
        Some((m, 0)) => i64::try_from(m).unwrap_or(i64::MAX),
        _ => DEFAULT_MAX_DEPOSITS,
    };
    let percent_bps = bonus("maxBonusPercent")
        .map(|(m, s)| (m.saturating_mul(10_000) / 10i128.pow(s)).min(10_000) as Bps)
        .unwrap_or(DEFAULT_PERCENT_BPS);
    let max_bonus = scaled(
        bonus("maxBonusSize").unwrap_or((DEFAULT_MAX_BONUS_TND as i128, 0)),
        factor,
        currency,
    );
    let registration = bonus("registrationBonus")
        .map(|d| scaled(d, factor, currency))
        .unwrap_or(0);
    Standing {
        max_deposits,
        percent_bps,
        max_bonus,
        registration,
        max_bet: scaled((STANDING_MAX_BET_TND as i128, 0), factor, currency),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({
            "limits": { "bonus": { "maxBetCount": 20, "maxBonusSize": 1000, "maxBonusPercent": 0.25, "registrationBonus": 0 } },
            "inbetKf": { "TND": 1, "HTG": 45, "USDT": 0.33 }
        })
    }

    #[test]
    fn the_seeded_settings_give_a_quarter_of_each_deposit_up_to_1000() {
        let s = standing(&doc(), Currency::Tnd);
        assert_eq!(
            s,
            Standing {
                max_deposits: 20,
                percent_bps: 2_500,
                max_bonus: 1_000_000,
                registration: 0,
                max_bet: 5_000
            }
        );
        assert_eq!(s.deposit_bonus(40_000), 10_000);
        assert_eq!(s.deposit_bonus(4_000_000), 1_000_000);
        assert_eq!(s.deposit_bonus(4_000_004), 1_000_000);
        assert_eq!(s.deposit_bonus(3), 0);
        assert_eq!(s.deposit_bonus(-5), 0);
    }

    #[test]
    fn other_currencies_scale_by_inbet_kf_exactly() {
        let htg = standing(&doc(), Currency::Htg);
        assert_eq!(htg.max_bonus, Currency::Htg.major(45_000));
        assert_eq!(htg.max_bet, Currency::Htg.major(225));
        let usdt = standing(&doc(), Currency::Usdt);
        // 1000 × 0.33 = 330 USDT, exactly.
        assert_eq!(usdt.max_bonus, Currency::Usdt.major(330));
        // No factor: 1.
        assert_eq!(standing(&doc(), Currency::Rub).max_bonus, Currency::Rub.major(1_000));
    }

    #[test]
    fn missing_or_misspelt_figures_keep_the_spec_s() {
        let bad = json!({ "limits": { "bonus": { "maxBetCount": "many", "maxBonusPercent": -1, "maxBonusSize": "1e3", "registrationBonus": "x" } } });
        let s = standing(&bad, Currency::Tnd);
        assert_eq!((s.max_deposits, s.percent_bps, s.max_bonus, s.registration), (20, 2_500, 1_000_000, 0));
        let set = json!({ "limits": { "bonus": { "registrationBonus": "12.5", "maxBonusPercent": "1.5" } } });
        let s = standing(&set, Currency::Tnd);
        assert_eq!((s.registration, s.percent_bps), (12_500, 10_000));
    }
}
