//! A bonus template's terms and the operator's fairness limits.
//!
//! Model ("locked bonus, wager to release"): a bonus sits in the bonus balance apart from real
//! money. Casino stakes are always taken from real money; each counts toward the active casino
//! bonus's wagering by its contribution ([`crate::wagering`]). When the requirement is met the
//! bonus converts to real money (capped by `max_conversion`, the rest forfeited). A sport bonus
//! is staked explicitly (the slip's bonus funding, legs at least `min_odds`). A player may give
//! a bonus up at any time: the bonus balance is forfeited, real money is never touched.

use crate::{bps_of, Bps, Minor};
use serde::{Deserialize, Serialize};

/// What a bonus can be wagered on: one product, never both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Product {
    Casino,
    Sport,
}

impl Product {
    pub fn as_str(self) -> &'static str {
        match self {
            Product::Casino => "casino",
            Product::Sport => "sport",
        }
    }

    pub fn parse(s: &str) -> Option<Product> {
        match s {
            "casino" => Some(Product::Casino),
            "sport" => Some(Product::Sport),
            _ => None,
        }
    }
}

/// What the wagering multiple multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WageringBase {
    Bonus,
    BonusPlusDeposit,
}

/// How much a grant is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Amount {
    /// A fixed amount in minor units of the template's currency.
    Fixed { amount: Minor },
    /// A share of the qualifying deposit, capped.
    PercentOfDeposit { bps: Bps, cap: Minor },
}

/// A bonus template as the operator writes it (amounts in the template's currency).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Template {
    pub product: Product,
    pub amount: Amount,
    /// Whole multiple of the base to wager (0: no wagering, converts at once).
    pub wagering_multiple: u32,
    pub wagering_base: WageringBase,
    /// The largest single stake while the bonus is open (0: no maximum).
    pub max_bet: Minor,
    /// The most that converts to real money (0: no maximum).
    pub max_conversion: Minor,
    /// Days from grant until an unconverted bonus is forfeited.
    pub life_days: u32,
    /// Sport bonus: the least odds (thousandths) of a leg that counts.
    pub min_odds: u32,
}

/// The operator's limits every template must respect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatorLimits {
    /// The largest wagering multiple a template may set (default 10×; UK rules from 19 January 2026).
    pub max_wagering_multiple: u32,
    /// The longest life of a bonus, in days.
    pub max_life_days: u32,
}

impl Default for OperatorLimits {
    fn default() -> Self {
        OperatorLimits {
            max_wagering_multiple: 10,
            max_life_days: 90,
        }
    }
}

/// Why a template was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TermsError {
    #[error("the wagering multiple {multiple}× is above the operator's maximum {max}×")]
    MultipleTooHigh { multiple: u32, max: u32 },
    #[error("a bonus amount must be positive")]
    NonPositiveAmount,
    #[error("a share of a deposit must be between 0.01 % and 100 % with a positive cap")]
    BadPercent,
    #[error("a bonus needs a life of 1 to {max} days")]
    BadLife { max: u32 },
    #[error("maximum bet and maximum conversion cannot be negative")]
    NegativeLimit,
    #[error("a sport bonus needs minimum odds of at least 1.001")]
    BadOdds,
}

impl Template {
    /// Checks the template against the operator's limits (done when it is created, never later).
    pub fn validate(&self, limits: &OperatorLimits) -> Result<(), TermsError> {
        if self.wagering_multiple > limits.max_wagering_multiple {
            return Err(TermsError::MultipleTooHigh {
                multiple: self.wagering_multiple,
                max: limits.max_wagering_multiple,
            });
        }
        match self.amount {
            Amount::Fixed { amount } if amount <= 0 => return Err(TermsError::NonPositiveAmount),
            Amount::PercentOfDeposit { bps, cap } if !(1..=10_000).contains(&bps) || cap <= 0 => {
                return Err(TermsError::BadPercent)
            }
            _ => {}
        }
        if self.life_days == 0 || self.life_days > limits.max_life_days {
            return Err(TermsError::BadLife {
                max: limits.max_life_days,
            });
        }
        if self.max_bet < 0 || self.max_conversion < 0 {
            return Err(TermsError::NegativeLimit);
        }
        if self.product == Product::Sport && self.min_odds < 1001 {
            return Err(TermsError::BadOdds);
        }
        Ok(())
    }

    /// The bonus granted for a deposit of `deposit` (0 for a fixed grant's deposit).
    pub fn grant_amount(&self, deposit: Minor) -> Minor {
        match self.amount {
            Amount::Fixed { amount } => amount,
            Amount::PercentOfDeposit { bps, cap } => bps_of(deposit.max(0), bps).min(cap),
        }
    }

    /// The wagering requirement of a grant of `bonus` that came with `deposit`; never more than
    /// the operator's maximum multiple of the bonus itself, whatever the base.
    pub fn requirement(&self, bonus: Minor, deposit: Minor, limits: &OperatorLimits) -> Minor {
        let base = match self.wagering_base {
            WageringBase::Bonus => bonus,
            WageringBase::BonusPlusDeposit => bonus + deposit.max(0),
        };
        let wanted = base.saturating_mul(self.wagering_multiple as i64);
        wanted.min(bonus.saturating_mul(limits.max_wagering_multiple as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn casino(multiple: u32) -> Template {
        Template {
            product: Product::Casino,
            amount: Amount::Fixed { amount: 50_000 },
            wagering_multiple: multiple,
            wagering_base: WageringBase::Bonus,
            max_bet: 5_000,
            max_conversion: 0,
            life_days: 30,
            min_odds: 0,
        }
    }

    #[test]
    fn a_template_above_the_maximum_multiple_is_refused_at_creation() {
        let limits = OperatorLimits::default();
        assert_eq!(casino(10).validate(&limits), Ok(()));
        assert_eq!(
            casino(11).validate(&limits),
            Err(TermsError::MultipleTooHigh {
                multiple: 11,
                max: 10
            })
        );
        let strict = OperatorLimits {
            max_wagering_multiple: 5,
            ..limits
        };
        assert!(casino(10).validate(&strict).is_err());
    }

    #[test]
    fn bad_terms_are_refused() {
        let limits = OperatorLimits::default();
        let mut t = casino(5);
        t.amount = Amount::Fixed { amount: 0 };
        assert_eq!(t.validate(&limits), Err(TermsError::NonPositiveAmount));
        t.amount = Amount::PercentOfDeposit {
            bps: 10_001,
            cap: 1,
        };
        assert_eq!(t.validate(&limits), Err(TermsError::BadPercent));
        let mut t = casino(5);
        t.life_days = 0;
        assert!(matches!(
            t.validate(&limits),
            Err(TermsError::BadLife { .. })
        ));
        let mut t = casino(5);
        t.product = Product::Sport;
        assert_eq!(t.validate(&limits), Err(TermsError::BadOdds));
        t.min_odds = 1800;
        assert_eq!(t.validate(&limits), Ok(()));
    }

    #[test]
    fn a_deposit_bonus_is_a_capped_share() {
        let mut t = casino(5);
        t.amount = Amount::PercentOfDeposit {
            bps: 2_500,
            cap: 1_000_000,
        };
        assert_eq!(t.grant_amount(40_000), 10_000);
        assert_eq!(t.grant_amount(100_000_000), 1_000_000);
        assert_eq!(t.grant_amount(-5), 0);
    }

    #[test]
    fn the_requirement_never_exceeds_the_maximum_multiple_of_the_bonus() {
        let limits = OperatorLimits::default();
        let mut t = casino(10);
        assert_eq!(t.requirement(50_000, 0, &limits), 500_000);
        t.wagering_base = WageringBase::BonusPlusDeposit;
        // 10 × (bonus + deposit) would be 10 × 150 000; capped at 10 × the bonus.
        assert_eq!(t.requirement(50_000, 100_000, &limits), 500_000);
        t.wagering_multiple = 2;
        assert_eq!(t.requirement(50_000, 100_000, &limits), 300_000);
        t.wagering_multiple = 0;
        assert_eq!(t.requirement(50_000, 100_000, &limits), 0);
    }
}
