//! Provably-fair draws and the uniform-range rule every game uses.
//!
//! * Real play draws from [`FairDraws`]: an HMAC-SHA256 byte stream keyed by a server seed whose
//!   SHA-256 ([`seed_hash`]) is shown to the player before play, with the player's client seed and
//!   a nonce in the message. Server seeds come from the OS CSPRNG ([`new_server_seed`]).
//! * Simulations draw from [`SimRng`] (xoshiro256++, seeded from the OS): fast, never used for money.
//! * Every range is drawn with the rejection rule of [`Rng32::below`]; [`Range32`] is the same rule
//!   with the division precomputed (it returns exactly what `below` returns for the same words).
//!
//! docs/FAIRNESS.md publishes these formulas with test vectors.

use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A raw 32-byte hash or seed.
pub type Hash32 = [u8; 32];

type HmacSha256 = Hmac<Sha256>;

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> Hash32 {
    Sha256::digest(data).into()
}

/// HMAC-SHA256 of `message` under `key`.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> Hash32 {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// A fresh server seed: 32 bytes from the OS CSPRNG.
pub fn new_server_seed() -> Hash32 {
    let mut seed = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut seed);
    seed
}

/// The commitment shown before play: SHA-256 of the raw 32 seed bytes (not of its hex text).
pub fn seed_hash(server_seed: &Hash32) -> Hash32 {
    sha256(server_seed)
}

/// Lower-case hex of a 32-byte value.
pub fn hex32(h: &Hash32) -> String {
    hex::encode(h)
}

/// Parses exactly 64 hex digits (either case); `None` otherwise.
pub fn parse_hex32(s: &str) -> Option<Hash32> {
    let s = s.trim();
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).ok()?;
    Some(out)
}

/// The rejection limit of `below(n)`: floor(2^32 / n) * n (as u64, since it is 2^32 for n = 1).
#[inline]
pub fn rejection_limit(n: u32) -> u64 {
    assert!(n > 0, "below(0) has no outcome");
    ((1u64 << 32) / n as u64) * n as u64
}

/// A uniform draw source.
pub trait Rng32 {
    /// The next uniformly distributed 32-bit word.
    fn next_u32(&mut self) -> u32;

    /// A uniform integer in `0..n` by the rejection rule: read successive words `w` and return
    /// `w % n` for the first `w < floor(2^32 / n) * n`. Panics when `n == 0`.
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        let limit = rejection_limit(n);
        loop {
            let w = self.next_u32();
            if (w as u64) < limit {
                return w % n;
            }
        }
    }
}

impl<R: Rng32 + ?Sized> Rng32 for &mut R {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (**self).next_u32()
    }
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        (**self).below(n)
    }
}

/// `below(n)` with the division precomputed: same words in, same result out as [`Rng32::below`],
/// but the remainder is taken with a multiplication (Lemire's "fastmod"), which matters in the
/// slot simulation's hot path.
#[derive(Clone, Copy, Debug)]
pub struct Range32 {
    n: u32,
    limit: u64,
    magic: u64,
}

impl Range32 {
    pub fn new(n: u32) -> Range32 {
        let limit = rejection_limit(n);
        // M = ceil(2^64 / n); for n = 1 it wraps to 0, and the product below is then 0 = w % 1.
        let magic = (u64::MAX / n as u64).wrapping_add(1);
        Range32 { n, limit, magic }
    }

    pub fn n(&self) -> u32 {
        self.n
    }

    /// `w % n` without a division (exact for every 32-bit `w` and `n`).
    #[inline(always)]
    pub fn rem(&self, w: u32) -> u32 {
        let low = self.magic.wrapping_mul(w as u64);
        ((low as u128 * self.n as u128) >> 64) as u32
    }

    /// Draws like `rng.below(self.n())`.
    #[inline(always)]
    pub fn sample<R: Rng32 + ?Sized>(&self, rng: &mut R) -> u32 {
        loop {
            let w = rng.next_u32();
            if (w as u64) < self.limit {
                return self.rem(w);
            }
        }
    }
}

/// The provably-fair stream: block `i` = HMAC_SHA256(key = server seed (raw 32 bytes),
/// message = `"{client_seed}:{nonce}:{i}"`), i = 0, 1, 2, …; words are successive 4-byte
/// big-endian slices of the concatenated blocks.
#[derive(Clone)]
pub struct FairDraws {
    keyed: HmacSha256,
    client_seed: String,
    nonce: u64,
    cursor: u64,
    block: Hash32,
    pos: usize,
}

impl FairDraws {
    pub fn new(server_seed: &Hash32, client_seed: &str, nonce: u64) -> FairDraws {
        FairDraws {
            keyed: HmacSha256::new_from_slice(server_seed).expect("HMAC takes keys of any length"),
            client_seed: client_seed.to_owned(),
            nonce,
            cursor: 0,
            block: [0; 32],
            pos: 32,
        }
    }

    /// Block `i` of the stream (independent of the read position).
    pub fn block(&self, i: u64) -> Hash32 {
        let mut mac = self.keyed.clone();
        mac.update(format!("{}:{}:{}", self.client_seed, self.nonce, i).as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// How many 32-bit words have been read so far.
    pub fn words_read(&self) -> u64 {
        (self.cursor.saturating_sub(1)) * 8 + if self.cursor == 0 { 0 } else { (self.pos / 4) as u64 }
    }
}

impl Rng32 for FairDraws {
    fn next_u32(&mut self) -> u32 {
        if self.pos >= 32 {
            self.block = self.block(self.cursor);
            self.cursor += 1;
            self.pos = 0;
        }
        let b = &self.block[self.pos..self.pos + 4];
        self.pos += 4;
        u32::from_be_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// A fast generator for simulations only (xoshiro256++ by Blackman and Vigna, seeded through
/// SplitMix64). Never used for real-money outcomes.
#[derive(Clone, Debug)]
pub struct SimRng {
    s: [u64; 4],
}

impl SimRng {
    /// Seeded from the OS CSPRNG.
    pub fn from_os() -> SimRng {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let mut s = [0u64; 4];
        for (i, chunk) in bytes.chunks_exact(8).enumerate() {
            s[i] = u64::from_le_bytes(chunk.try_into().unwrap());
        }
        if s == [0; 4] {
            s[0] = 1;
        }
        SimRng { s }
    }

    /// Reproducible stream from a 64-bit seed (SplitMix64 expands it to the 256-bit state).
    pub fn seeded(seed: u64) -> SimRng {
        let mut x = seed;
        let mut s = [0u64; 4];
        for slot in &mut s {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            *slot = z ^ (z >> 31);
        }
        SimRng { s }
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
}

impl Rng32 for SimRng {
    #[inline(always)]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
}

/// A fixed list of words, for tests and for replaying a recorded stream.
#[derive(Clone, Debug)]
pub struct Words {
    words: Vec<u32>,
    at: usize,
}

impl Words {
    pub fn new(words: Vec<u32>) -> Words {
        Words { words, at: 0 }
    }
}

impl Rng32 for Words {
    fn next_u32(&mut self) -> u32 {
        let w = self.words[self.at % self.words.len()];
        self.at += 1;
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Hash32 {
        core::array::from_fn(|i| i as u8)
    }

    #[test]
    fn sha256_known_answer() {
        assert_eq!(
            hex32(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn hmac_known_answer_rfc4231_case2() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(hex32(&mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    #[test]
    fn hex_round_trip_and_rejects() {
        let s = seed();
        assert_eq!(parse_hex32(&hex32(&s)), Some(s));
        assert_eq!(parse_hex32(&hex32(&s).to_uppercase()), Some(s));
        assert_eq!(parse_hex32("00"), None);
        assert_eq!(parse_hex32(&"zz".repeat(32)), None);
    }

    #[test]
    fn server_seeds_differ_and_hash_is_of_raw_bytes() {
        let a = new_server_seed();
        let b = new_server_seed();
        assert_ne!(a, b);
        assert_eq!(seed_hash(&a), sha256(&a));
        assert_ne!(seed_hash(&a), sha256(hex32(&a).as_bytes()));
    }

    #[test]
    fn fair_stream_is_hmac_blocks_in_big_endian_words() {
        let s = seed();
        let mut d = FairDraws::new(&s, "carthage", 7);
        let b0 = hmac_sha256(&s, b"carthage:7:0");
        let b1 = hmac_sha256(&s, b"carthage:7:1");
        let mut words = Vec::new();
        for _ in 0..16 {
            words.push(d.next_u32());
        }
        let expect: Vec<u32> = b0
            .chunks_exact(4)
            .chain(b1.chunks_exact(4))
            .map(|c| u32::from_be_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, expect);
        assert_eq!(d.words_read(), 16);
        assert_eq!(d.block(1), b1);
    }

    #[test]
    fn below_rejects_the_biased_tail() {
        // n = 3: limit = floor(2^32/3)*3 = 4294967295, so only 0xFFFF_FFFF is rejected.
        let mut w = Words::new(vec![u32::MAX, 5]);
        assert_eq!(w.below(3), 2);
        // n = 10: limit = 4294967290; 4294967290.. are rejected.
        let mut w = Words::new(vec![4_294_967_290, 4_294_967_295, 4_294_967_289]);
        assert_eq!(w.below(10), 9);
        let mut w = Words::new(vec![u32::MAX]);
        assert_eq!(w.below(1), 0);
    }

    #[test]
    fn range32_matches_below_exactly() {
        let mut rng = SimRng::seeded(42);
        let ns = [1u32, 2, 3, 7, 10, 37, 64, 100, 10_001, 65_537, 1_000_003, u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) + 1];
        for &n in &ns {
            let r = Range32::new(n);
            for _ in 0..20_000 {
                let w = rng.next_u32();
                assert_eq!(r.rem(w), w % n, "n={n} w={w}");
            }
            for w in [0u32, 1, n.wrapping_sub(1), n, u32::MAX, u32::MAX - 1] {
                assert_eq!(r.rem(w), w % n, "n={n} w={w}");
            }
            let mut a = SimRng::seeded(n as u64);
            let mut b = SimRng::seeded(n as u64);
            for _ in 0..1000 {
                assert_eq!(r.sample(&mut a), b.below(n));
            }
        }
    }

    #[test]
    fn sim_rng_is_roughly_uniform() {
        let mut rng = SimRng::seeded(1);
        let mut counts = [0u32; 37];
        let n = 370_000;
        for _ in 0..n {
            counts[rng.below(37) as usize] += 1;
        }
        let chi2: f64 = counts.iter().map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0).sum();
        assert!(chi2 < 80.0, "chi2 {chi2}"); // 36 degrees of freedom, p ~ 1e-4
        assert_ne!(SimRng::from_os().next_u64(), SimRng::from_os().next_u64());
    }
}
