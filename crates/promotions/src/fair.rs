//! The provably-fair must-drop point of a jackpot pool.
//!
//! When a pool is (re)seeded for cycle `n`, the platform draws a fresh 32-byte server seed and
//! publishes its SHA-256 at once. The drop point is
//!
//! ```text
//! words  = FairDraws(server_seed, client_seed = "jackpot:{pool}", nonce = n)   (studio's stream)
//! x      = (w0 << 32) | w1, the first two 32-bit words, big-endian
//! range  = cap − seed_amount
//! accept x when x < floor(2^64 / range) × range, else take the next two words
//! drop   = seed_amount + 1 + x mod range          (so seed_amount < drop ≤ cap)
//! ```
//!
//! The pool pays out to the stake whose contribution first brings the pool to at least `drop`.
//! After the drop the seed is revealed: anyone recomputes `drop` from (seed, pool, cycle,
//! seed_amount, cap) and checks its hash against the one published when the cycle began.

use crate::Minor;
use studio::fair::{FairDraws, Hash32, Rng32};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DropError {
    #[error("a pool's cap must be above its seed amount")]
    EmptyRange,
}

/// The client-seed string of a pool's draw.
pub fn client_seed(pool: &str) -> String {
    format!("jackpot:{pool}")
}

/// The drop point of `pool`'s cycle `cycle`: uniform in `(seed_amount, cap]`.
pub fn drop_point(
    server_seed: &Hash32,
    pool: &str,
    cycle: u64,
    seed_amount: Minor,
    cap: Minor,
) -> Result<Minor, DropError> {
    if cap <= seed_amount {
        return Err(DropError::EmptyRange);
    }
    let range = (cap - seed_amount) as u64;
    let limit = (u64::MAX / range) * range; // ≤ floor(2^64 / range) × range, exact rejection
    let mut draws = FairDraws::new(server_seed, &client_seed(pool), cycle);
    loop {
        let x = ((draws.next_u32() as u64) << 32) | draws.next_u32() as u64;
        if x < limit {
            return Ok(seed_amount + 1 + (x % range) as Minor);
        }
    }
}

/// Whether a contribution that takes the pool from `before` to `after` reaches the drop point.
pub fn crosses(before: Minor, after: Minor, drop: Minor) -> bool {
    before < drop && after >= drop
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio::fair::{hex32, seed_hash};

    #[test]
    fn drop_points_stay_in_range_and_are_reproducible() {
        let seed = [7u8; 32];
        let d = drop_point(&seed, "mega", 1, 1_000_000, 2_000_000).unwrap();
        assert!(d > 1_000_000 && d <= 2_000_000);
        assert_eq!(
            d,
            drop_point(&seed, "mega", 1, 1_000_000, 2_000_000).unwrap()
        );
        assert_ne!(
            d,
            drop_point(&seed, "mega", 2, 1_000_000, 2_000_000).unwrap(),
            "each cycle draws anew"
        );
        assert_ne!(
            d,
            drop_point(&seed, "small", 1, 1_000_000, 2_000_000).unwrap(),
            "each pool draws apart"
        );
        assert_eq!(
            drop_point(&seed, "x", 1, 5, 6).unwrap(),
            6,
            "a range of one is the cap"
        );
        assert_eq!(drop_point(&seed, "x", 1, 5, 5), Err(DropError::EmptyRange));
        // The published commitment is the seed's SHA-256.
        assert_eq!(hex32(&seed_hash(&seed)).len(), 64);
    }

    #[test]
    fn drop_points_are_uniform_over_a_small_range() {
        // 4 000 seeds over a range of 4: each value about a quarter of the time.
        let mut counts = [0u32; 4];
        for i in 0..4_000u32 {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&i.to_be_bytes());
            counts[(drop_point(&seed, "p", 0, 10, 14).unwrap() - 11) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn crossing_is_the_first_contribution_at_or_past_the_point() {
        assert!(crosses(99, 100, 100));
        assert!(crosses(50, 150, 100));
        assert!(!crosses(100, 150, 100), "already past: someone else won");
        assert!(!crosses(10, 99, 100));
    }
}
