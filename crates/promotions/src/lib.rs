//! Promotions' pure core: everything here is a function of its inputs (no clock, no database).
//!
//! - [`terms`]: a bonus template's terms (wagering multiple, contribution, maximum bet, expiry,
//!   maximum conversion) and the operator's fairness limits (maximum multiple, default 10×).
//! - [`wagering`]: how much of a stake counts toward a bonus's wagering, by product and game
//!   category; when a bonus converts and how much.
//! - [`codes`]: the promo-code rules and their refusal codes 2200–2215.
//! - [`freebets`]: free-bet values, life and the odds rule.
//! - [`cashback`]: net losses, the weekly cashback tiers, rakeback and super-agent shares.
//! - [`periods`]: the ISO week in the operator's time zone (weekly cashback is paid Monday 00:00).
//! - [`fair`]: the provably-fair must-drop point of a jackpot pool.
//! - [`standing`]: the standing offers of the site settings (deposit bonus, registration bonus).
//! - [`coupons`]: the coupon machine (one coupon per 500 spins, one a day) and its verifiable draw.
//!
//! [`service`] stores and moves money around these rules (through the ledger only), and
//! watches every stake through the wallet's posting observer; docs/PROMOTIONS.md describes
//! the whole.

pub mod cashback;
pub mod codes;
pub mod coupons;
pub mod fair;
pub mod freebets;
pub mod periods;
pub mod service;
pub mod standing;
pub mod terms;
pub mod wagering;

pub use kernel::money::{Currency, Minor};

/// `amount × numerator / denominator` rounded down, in i128 so no product overflows.
pub fn share(amount: Minor, numerator: i64, denominator: i64) -> Minor {
    debug_assert!(denominator > 0);
    ((amount as i128 * numerator as i128) / denominator as i128) as Minor
}

/// Basis points (1/100 of a percent): 10_000 = 100 %.
pub type Bps = i64;

/// `amount × bps / 10 000` rounded down.
pub fn bps_of(amount: Minor, bps: Bps) -> Minor {
    share(amount, bps, 10_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_round_down_and_do_not_overflow() {
        assert_eq!(bps_of(10_001, 500), 500);
        assert_eq!(bps_of(i64::MAX / 2, 10_000), i64::MAX / 2);
        assert_eq!(share(7, 1, 3), 2);
    }
}
