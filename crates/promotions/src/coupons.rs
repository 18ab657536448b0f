//! The coupon machine (spec §9): one coupon for every 500 spins, at most one a day; a draw picks
//! the winners among the issued coupons in a way anyone can check afterwards.
//!
//! The draw commits first: the operator publishes SHA-256 of a fresh 32-byte seed when the draw
//! is announced; at the draw each coupon's ticket is `HMAC-SHA256(seed, "coupon:{number}")` and
//! the `winners` coupons with the smallest tickets win (ties impossible in practice, broken by
//! number). Once the seed is revealed, anyone recomputes every ticket.

use studio::fair::{hmac_sha256, Hash32};

/// Spins that earn one coupon.
pub const SPINS_PER_COUPON: u32 = 500;

/// Whether the spin that takes today's count from `before` to `after` earns a coupon: it reaches
/// the daily limit, and no coupon was issued today yet.
pub fn earns_coupon(before: u32, after: u32, limit: u32, issued_today: bool) -> bool {
    !issued_today && limit > 0 && before < limit && after >= limit
}

/// A coupon's ticket in a draw.
pub fn ticket(seed: &Hash32, number: &str) -> Hash32 {
    hmac_sha256(seed, format!("coupon:{number}").as_bytes())
}

/// The winning coupon numbers, best ticket first.
pub fn draw<'a>(
    seed: &Hash32,
    numbers: impl IntoIterator<Item = &'a str>,
    winners: usize,
) -> Vec<String> {
    let mut ranked: Vec<(Hash32, &str)> =
        numbers.into_iter().map(|n| (ticket(seed, n), n)).collect();
    ranked.sort();
    ranked
        .into_iter()
        .take(winners)
        .map(|(_, n)| n.to_owned())
        .collect()
}

/// A coupon number as players see it: 8 digits, from its sequence number.
pub fn number(seq: i64) -> String {
    format!("{:08}", seq.rem_euclid(100_000_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_coupon_when_the_limit_is_reached_once_a_day() {
        assert!(earns_coupon(499, 500, 500, false));
        assert!(
            earns_coupon(498, 503, 500, false),
            "a batch of spins crossing the limit"
        );
        assert!(
            !earns_coupon(500, 501, 500, false),
            "past the limit already"
        );
        assert!(!earns_coupon(499, 500, 500, true), "one a day");
        assert!(!earns_coupon(0, 10, 0, false));
    }

    #[test]
    fn the_draw_is_reproducible_and_depends_on_the_seed() {
        let numbers: Vec<String> = (1..=100).map(number).collect();
        let refs = || numbers.iter().map(String::as_str);
        let a = draw(&[1; 32], refs(), 12);
        assert_eq!(a.len(), 12);
        assert_eq!(a, draw(&[1; 32], refs(), 12));
        assert_ne!(a, draw(&[2; 32], refs(), 12));
        let mut unique = a.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 12);
        assert_eq!(
            draw(&[1; 32], ["00000001"], 12),
            vec!["00000001".to_owned()]
        );
        assert_eq!(number(42), "00000042");
    }

    #[test]
    fn the_draw_matches_the_browser_verifier_vector() {
        // web/src/features/promotions/screens.test.tsx checks the browser's verifier against
        // the same winners (computed there by a separate Python port).
        let numbers: Vec<String> = (1..=100).map(number).collect();
        let winners = draw(&[1; 32], numbers.iter().map(String::as_str), 12);
        assert_eq!(
            winners,
            [
                "00000011", "00000079", "00000007", "00000035", "00000048", "00000058",
                "00000063", "00000034", "00000053", "00000033", "00000004", "00000040"
            ]
        );
    }
}
