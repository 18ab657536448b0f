//! Exact arithmetic for money: small fractions and an unbounded product that is floored once.
//!
//! An express of 20 legs at 3.000 multiplies twenty numerators of 3000 over 1000²⁰: the exact
//! numerator (≈ 3.5 × 10⁶⁹) overflows `i128` (≈ 1.7 × 10³⁸). Rather than rounding each step
//! (which moves money by up to a minor unit per leg), [`floor_product`] keeps the numerator in a
//! little multi-limb integer and divides by each denominator in turn. Dividing in turn is exact
//! because ⌊⌊x / a⌋ / b⌋ = ⌊x / (a·b)⌋ for positive integers: the one rounding is the final floor.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A fraction `num/den` between 0 and 1 in lowest terms.
///
/// Built from input ([`Fraction::new`], JSON) the denominator is at most 1,000,000; a product of
/// two such fractions ([`Fraction::checked_mul`]) may reach 10¹². Used for the factors of a
/// settlement (void factor ½, dead-heat factor ⅓ …). Written `"1/3"` (or `"1"`, `"0"`) in JSON so
/// no float ever carries one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Fraction {
    num: u64,
    den: u64,
}

/// Why a fraction was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FractionError {
    /// Not `a/b` or a whole number.
    #[error("{0:?} is not a fraction like 1/2")]
    Malformed(String),
    /// The denominator is zero or above 1,000,000.
    #[error("the denominator must be between 1 and 1000000")]
    BadDenominator,
    /// The value is above 1.
    #[error("a settlement factor is at most 1")]
    AboveOne,
}

const MAX_DEN: u64 = 1_000_000;
const MAX_PRODUCT_DEN: u64 = MAX_DEN * MAX_DEN;

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Fraction {
    /// 0.
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    /// ½.
    pub const HALF: Fraction = Fraction { num: 1, den: 2 };
    /// 1.
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    /// `num/den`, reduced; refused unless `0 ≤ num/den ≤ 1` and `1 ≤ den ≤ 1,000,000`.
    pub fn new(num: u64, den: u64) -> Result<Fraction, FractionError> {
        if den == 0 || den > MAX_DEN {
            return Err(FractionError::BadDenominator);
        }
        if num > den {
            return Err(FractionError::AboveOne);
        }
        let g = gcd(num, den);
        Ok(Fraction { num: num / g, den: den / g })
    }

    /// The numerator (lowest terms).
    pub const fn num(self) -> u64 {
        self.num
    }

    /// The denominator (lowest terms).
    pub const fn den(self) -> u64 {
        self.den
    }

    /// Whether this is 0.
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// `1 − self`.
    pub const fn complement(self) -> Fraction {
        Fraction { num: self.den - self.num, den: self.den }
    }

    /// The product (still in `[0, 1]`); `None` if the denominator would exceed 10¹².
    pub fn checked_mul(self, other: Fraction) -> Option<Fraction> {
        let num = self.num.checked_mul(other.num)?;
        let den = self.den.checked_mul(other.den)?;
        let g = gcd(num, den).max(1);
        let (num, den) = (num / g, den / g);
        if den > MAX_PRODUCT_DEN {
            return None;
        }
        Some(Fraction { num, den })
    }

    /// The value as a float, for display and pricing only.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl FromStr for Fraction {
    type Err = FractionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || FractionError::Malformed(s.to_string());
        let digits = |t: &str| -> Result<u64, FractionError> {
            if t.is_empty() || t.len() > 7 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            t.parse().map_err(|_| bad())
        };
        match s.split_once('/') {
            Some((n, d)) => Fraction::new(digits(n)?, digits(d)?),
            None => Fraction::new(digits(s)?, 1),
        }
    }
}

impl TryFrom<String> for Fraction {
    type Error = FractionError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Fraction> for String {
    fn from(f: Fraction) -> String {
        f.to_string()
    }
}

/// An unsigned integer of any size, little-endian 32-bit limbs. Only what a floored product
/// needs: multiply by and divide by a `u64`.
#[derive(Debug, Clone)]
struct Wide {
    limbs: Vec<u32>,
}

impl Wide {
    fn from_u128(mut v: u128) -> Wide {
        let mut limbs = Vec::with_capacity(8);
        while v > 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        Wide { limbs }
    }

    fn mul_small(&mut self, m: u64) {
        if m == 0 {
            self.limbs.clear();
            return;
        }
        let mut carry: u128 = 0;
        for limb in &mut self.limbs {
            let v = *limb as u128 * m as u128 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        while carry > 0 {
            self.limbs.push(carry as u32);
            carry >>= 32;
        }
    }

    /// Floor division in place (`d > 0`).
    fn div_small(&mut self, d: u64) {
        let mut rem: u128 = 0;
        for limb in self.limbs.iter_mut().rev() {
            let cur = (rem << 32) | *limb as u128;
            *limb = (cur / d as u128) as u32;
            rem = cur % d as u128;
        }
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// The value, or `None` above `u128::MAX`.
    fn to_u128(&self) -> Option<u128> {
        if self.limbs.len() > 4 {
            return None;
        }
        Some(self.limbs.iter().rev().fold(0u128, |acc, &l| (acc << 32) | l as u128))
    }
}

/// ⌊start × Π(num_i / den_i)⌋, exact, saturating at `u128::MAX`. Every `den_i` must be positive.
///
/// All numerators are multiplied first and the denominators divided afterwards, so the single
/// rounding is the final floor (see the module comment).
pub(crate) fn floor_product(start: u128, factors: impl IntoIterator<Item = (u64, u64)>) -> u128 {
    let mut acc = Wide::from_u128(start);
    let mut dens = Vec::new();
    for (num, den) in factors {
        debug_assert!(den > 0, "a zero denominator");
        acc.mul_small(num);
        dens.push(den.max(1));
    }
    for den in dens {
        acc.div_small(den);
    }
    acc.to_u128().unwrap_or(u128::MAX)
}

/// A `u128` amount as `i64`, saturating (payouts far above any limit stay representable).
pub(crate) fn saturate_i64(v: u128) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_reduce_and_round_trip() {
        assert_eq!(Fraction::new(2, 4).unwrap(), Fraction::HALF);
        assert_eq!("1/3".parse::<Fraction>().unwrap().to_string(), "1/3");
        assert_eq!("1".parse::<Fraction>().unwrap(), Fraction::ONE);
        assert_eq!("0/5".parse::<Fraction>().unwrap(), Fraction::ZERO);
        assert_eq!("3/2".parse::<Fraction>(), Err(FractionError::AboveOne));
        assert_eq!("1/0".parse::<Fraction>(), Err(FractionError::BadDenominator));
        assert!("0.5".parse::<Fraction>().is_err());
        assert!("-1/2".parse::<Fraction>().is_err());
        assert_eq!(Fraction::HALF.checked_mul(Fraction::new(1, 3).unwrap()), Fraction::new(1, 6).ok());
        assert_eq!(Fraction::new(1, 3).unwrap().complement().to_string(), "2/3");
        let json = serde_json::to_string(&Fraction::new(1, 3).unwrap()).unwrap();
        assert_eq!(json, "\"1/3\"");
        assert_eq!(serde_json::from_str::<Fraction>(&json).unwrap(), Fraction::new(1, 3).unwrap());
        assert!(serde_json::from_str::<Fraction>("\"5/4\"").is_err());
    }

    #[test]
    fn floor_product_is_exact_beyond_i128() {
        // 20 legs at 3.000: 1000 × 3^20 exactly (3^20 = 3,486,784,401).
        let legs = std::iter::repeat_n((3000u64, 1000u64), 20);
        assert_eq!(floor_product(1000, legs), 3_486_784_401_000);
        // One rounding only: 1 × (1.001)^3 = 1.003003001 → 1, and 999 × 1.5 × 1.5 = 2247.75 → 2247.
        assert_eq!(floor_product(1, std::iter::repeat_n((1001, 1000), 3)), 1);
        assert_eq!(floor_product(999, [(3, 2), (3, 2)]), 2247);
        // Flooring each step would lose a unit: ⌊⌊5 × 1.5⌋ × 1.5⌋ = ⌊7 × 1.5⌋ = 10, exact 11.25.
        assert_eq!(floor_product(5, [(3, 2), (3, 2)]), 11);
        assert_eq!(floor_product(7, [(0, 1), (5, 2)]), 0);
        // Saturation instead of wrap-around.
        assert_eq!(floor_product(u128::MAX, [(2, 1)]), u128::MAX);
        assert_eq!(saturate_i64(u128::MAX), i64::MAX);
        assert_eq!(saturate_i64(42), 42);
    }
}
