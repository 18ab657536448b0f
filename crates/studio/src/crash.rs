//! The multiplayer crash game: a SHA-256 hash chain generated in advance, a salted crash point,
//! and the growth curve as a pure function of server time.
//!
//! Chain: c_0 = 32 random bytes (secret), c_{k+1} = SHA256(c_k) for k = 0..N-1; the terminating
//! hash c_N is published before the first round; round r (1-based) uses h_r = c_{N-r}, so
//! SHA256(h_r) is the previous round's hash (for round 1, the terminating hash). The salt is a
//! public value fixed after the terminating hash was published.

use crate::fair::{hmac_sha256, sha256, Hash32};

/// House edge 1 %: the crash point is drawn so that P(crash >= m) = 0.99 / m (for m >= 1.00x,
/// in the continuum limit), so every cash-out target returns 99 % on average.
pub const RTP_BP: u32 = 9900;

/// One link of the chain: SHA256 of the raw 32 bytes.
pub fn chain_next(h: &Hash32) -> Hash32 {
    sha256(h)
}

/// Walks `steps` links from `from` (c_k -> c_{k+steps}).
pub fn chain_advance(from: &Hash32, steps: u64) -> Hash32 {
    let mut h = *from;
    for _ in 0..steps {
        h = chain_next(&h);
    }
    h
}

/// Checks that `round_hash` is `distance` links before `later_hash`
/// (SHA256 applied `distance` times to it gives `later_hash`).
pub fn verify_link(round_hash: &Hash32, later_hash: &Hash32, distance: u64) -> bool {
    chain_advance(round_hash, distance) == *later_hash
}

/// The first 52 bits of HMAC_SHA256(key = round hash raw bytes, message = salt as UTF-8),
/// as an integer in 0..2^52.
pub fn first52(round_hash: &Hash32, salt: &str) -> u64 {
    let mac = hmac_sha256(round_hash, salt.as_bytes());
    u64::from_be_bytes(mac[..8].try_into().unwrap()) >> 12
}

/// The crash point in hundredths: max(100, floor(99 * 2^52 / (2^52 - X52))) where X52 is
/// [`first52`]. 1.00x is possible (about 1 % of rounds).
pub fn crash_point(round_hash: &Hash32, salt: &str) -> u64 {
    crash_point_from_bits(first52(round_hash, salt))
}

/// The crash point for given 52 bits.
pub fn crash_point_from_bits(x52: u64) -> u64 {
    debug_assert!(x52 < 1 << 52);
    let two52 = 1u128 << 52;
    let cp = (99u128 * two52) / (two52 - x52 as u128);
    cp.max(100) as u64
}

/// Growth rate of the curve per millisecond: multiplier = e^(GROWTH_PER_MS * ms).
pub const GROWTH_PER_MS: f64 = 0.00006;

/// The multiplier in hundredths after `elapsed_ms` of the round: floor(100 * e^(GROWTH_PER_MS *
/// elapsed_ms)). Monotone, 100 at 0, 200 at about 11.55 s. Saturates at u64::MAX far beyond any
/// real crash point.
pub fn multiplier_at(elapsed_ms: u64) -> u64 {
    let v = 100.0 * (GROWTH_PER_MS * elapsed_ms as f64).exp();
    if v >= u64::MAX as f64 {
        u64::MAX
    } else {
        v.floor() as u64
    }
}

/// The smallest elapsed_ms at which `multiplier_at(ms) >= m_hundredths` (0 for m <= 100).
/// Used to schedule the crash itself and automatic cash-outs.
pub fn time_to_reach(m_hundredths: u64) -> u64 {
    if m_hundredths <= 100 {
        return 0;
    }
    let guess = ((m_hundredths as f64 / 100.0).ln() / GROWTH_PER_MS).ceil();
    let mut t = if guess.is_finite() && guess > 0.0 { guess as u64 } else { 0 };
    while multiplier_at(t) < m_hundredths {
        t += 1;
    }
    while t > 0 && multiplier_at(t - 1) >= m_hundredths {
        t -= 1;
    }
    t
}

/// Payout for a cash-out at `m_hundredths`: floor(amount_minor * m / 100), computed in i128
/// (saturating at i64::MAX).
pub fn payout(amount_minor: i64, m_hundredths: u64) -> i64 {
    let p = amount_minor as i128 * m_hundredths as i128 / 100;
    p.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// Generates a chain of `rounds` hashes from a secret `c0`: returns the terminating hash
/// c_N (to publish). Round r's hash is `round_hash(c0, rounds, r)`.
pub fn terminating_hash(c0: &Hash32, rounds: u64) -> Hash32 {
    chain_advance(c0, rounds)
}

/// h_r = c_{N-r} for round r in 1..=N.
pub fn round_hash(c0: &Hash32, rounds: u64, round: u64) -> Hash32 {
    assert!(round >= 1 && round <= rounds, "round {round} outside 1..={rounds}");
    chain_advance(c0, rounds - round)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::{hex32, parse_hex32};

    #[test]
    fn chain_links_backwards() {
        let c0 = [7u8; 32];
        let n = 10;
        let term = terminating_hash(&c0, n);
        let h1 = round_hash(&c0, n, 1);
        assert_eq!(chain_next(&h1), term);
        let h2 = round_hash(&c0, n, 2);
        assert_eq!(chain_next(&h2), h1);
        assert!(verify_link(&h2, &term, 2));
        assert!(!verify_link(&h2, &term, 1));
        assert_eq!(round_hash(&c0, n, n), c0);
        assert_eq!(chain_advance(&c0, 0), c0);
        assert_eq!(chain_advance(&c0, 3), chain_next(&chain_next(&chain_next(&c0))));
    }

    #[test]
    fn crash_point_formula() {
        assert_eq!(crash_point_from_bits(0), 100);
        // 99 * 2^52 / (2^52 - x) < 100  <=>  x < 2^52 / 100: these all crash at 1.00x.
        let edge = (1u64 << 52) / 100;
        assert_eq!(crash_point_from_bits(edge), 100);
        assert_eq!(crash_point_from_bits(1 << 51), 198);
        assert_eq!(crash_point_from_bits((1 << 52) - 1), 99 * (1 << 52));
        // first52 is the top 52 bits of the HMAC.
        let h = parse_hex32(&"ab".repeat(32)).unwrap();
        let mac = hmac_sha256(&h, b"salt");
        let expect = u64::from_be_bytes(mac[..8].try_into().unwrap()) >> 12;
        assert_eq!(first52(&h, "salt"), expect);
        assert_eq!(crash_point(&h, "salt"), crash_point_from_bits(expect));
        let _ = hex32(&h);
    }

    #[test]
    fn crash_distribution_has_one_percent_edge() {
        // P(crash >= m) * m over the 52-bit outcome space, computed exactly by counting:
        // crash >= m  <=>  99 * 2^52 >= m * (2^52 - x)  <=>  x >= 2^52 - floor(99 * 2^52 / m).
        let two52 = 1u128 << 52;
        for m in [101u128, 150, 200, 1000, 10_000, 1_000_000] {
            let min_x = two52 - (99 * two52) / m;
            let p = (two52 - min_x) as f64 / two52 as f64;
            let rtp = p * m as f64 / 100.0;
            assert!((rtp - 0.99).abs() < 1e-6, "m={m} rtp={rtp}");
            assert!(crash_point_from_bits(min_x as u64) >= m as u64);
            assert!(crash_point_from_bits(min_x as u64 - 1) < m as u64);
        }
    }

    #[test]
    fn growth_curve() {
        assert_eq!(multiplier_at(0), 100);
        assert_eq!(multiplier_at(11_552), 199);
        assert_eq!(multiplier_at(11_553), 200);
        let mut last = 0;
        for ms in (0..400_000).step_by(17) {
            let m = multiplier_at(ms);
            assert!(m >= last);
            last = m;
        }
        assert_eq!(multiplier_at(u64::MAX), u64::MAX);
    }

    #[test]
    fn time_to_reach_is_the_first_millisecond() {
        assert_eq!(time_to_reach(0), 0);
        assert_eq!(time_to_reach(100), 0);
        let check = |m: u64| {
            let t = time_to_reach(m);
            assert!(multiplier_at(t) >= m, "m={m} t={t}");
            assert!(t == 0 || multiplier_at(t - 1) < m, "m={m} t={t}");
        };
        for m in 100..=20_000 {
            check(m);
        }
        let mut m = 20_000;
        while m <= 1_000_000 {
            check(m);
            m += 97;
        }
        check(1_000_000);
        assert_eq!(time_to_reach(200), 11_553);
    }

    #[test]
    fn payouts_floor() {
        assert_eq!(payout(1000, 100), 1000);
        assert_eq!(payout(1000, 157), 1570);
        assert_eq!(payout(333, 157), 522); // 522.81
        assert_eq!(payout(i64::MAX, 200), i64::MAX);
        assert_eq!(payout(0, 12_345), 0);
    }
}
