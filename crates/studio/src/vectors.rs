//! The test vectors published in docs/FAIRNESS.md, computed by this crate. A test parses the
//! `vectors` block of that file and requires it to equal [`compute`] line for line, so the
//! document and the code cannot drift. `cargo run -p studio --example vectors` prints the block.

use crate::fair::{hex32, hmac_sha256, sha256, FairDraws, Hash32, Rng32};
use crate::{crash, dice, roulette, slots};

pub const CLIENT_SEED: &str = "carthage";
pub const CRASH_SALT: &str = "carthage-crash-salt";

/// 00 01 02 … 1f.
pub fn server_seed() -> Hash32 {
    core::array::from_fn(|i| i as u8)
}

/// Every vector as (key, value), in the order of the document.
pub fn compute() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, val: String| v.push((k.to_owned(), val));
    let seed = server_seed();
    put("server_seed", hex32(&seed));
    put("server_seed_sha256", hex32(&crate::fair::seed_hash(&seed)));
    put("client_seed", CLIENT_SEED.to_owned());
    put("below37_limit", crate::fair::rejection_limit(37).to_string());
    put("below10001_limit", crate::fair::rejection_limit(10_001).to_string());
    for nonce in 0..3u64 {
        let d = FairDraws::new(&seed, CLIENT_SEED, nonce);
        put(&format!("nonce{nonce}.message0"), format!("{CLIENT_SEED}:{nonce}:0"));
        put(&format!("nonce{nonce}.block0"), hex32(&d.block(0)));
        let mut w = d.clone();
        let words: Vec<String> = (0..3).map(|_| w.next_u32().to_string()).collect();
        put(&format!("nonce{nonce}.words"), words.join(","));
        put(&format!("nonce{nonce}.roulette"), roulette::spin(&mut d.clone()).to_string());
        put(&format!("nonce{nonce}.dice_roll"), dice::roll(&mut d.clone()).to_string());
        let g = slots::find("neon-fruits").expect("neon-fruits");
        let round = g.play(&mut d.clone(), g.bet_multiple());
        let stops: Vec<String> = round.stops.iter().map(|s| s.to_string()).collect();
        put(&format!("nonce{nonce}.neon_fruits_stops"), stops.join(","));
    }
    let bet = dice::DiceBet { amount: 1000, target: 5000, over: true };
    put("dice.over5000.amount1000.returned", dice::settle(&bet, 5001).returned.to_string());
    let bet = dice::DiceBet { amount: 1000, target: 100, over: false };
    put("dice.under100.amount1000.returned", dice::settle(&bet, 0).returned.to_string());

    let h = seed;
    put("crash.hash", hex32(&h));
    put("crash.salt", CRASH_SALT.to_owned());
    put("crash.hmac", hex32(&hmac_sha256(&h, CRASH_SALT.as_bytes())));
    let x = crash::first52(&h, CRASH_SALT);
    put("crash.first52", x.to_string());
    put("crash.first52_hex", format!("{x:013x}"));
    put("crash.point", crash::crash_point(&h, CRASH_SALT).to_string());
    let c0 = sha256(b"carthage crash chain example");
    put("chain.c0", hex32(&c0));
    let mut c = c0;
    for k in 1..=3 {
        c = crash::chain_next(&c);
        put(&format!("chain.c{k}"), hex32(&c));
    }
    put("chain.terminating", hex32(&crash::chain_advance(&c0, 3)));
    for round in 1..=3u64 {
        let rh = crash::round_hash(&c0, 3, round);
        put(&format!("chain.round{round}.point"), crash::crash_point(&rh, CRASH_SALT).to_string());
    }
    for ms in [0u64, 1000, 5000, 11_553, 30_000, 60_000] {
        put(&format!("curve.ms{ms}"), crash::multiplier_at(ms).to_string());
    }
    for m in [101u64, 200, 1000, 10_000] {
        put(&format!("curve.time_to_reach{m}"), crash::time_to_reach(m).to_string());
    }
    v
}

/// The `vectors` block as it appears in docs/FAIRNESS.md.
pub fn block() -> String {
    compute().into_iter().map(|(k, v)| format!("{k} = {v}\n")).collect()
}

/// Parses the first fenced block opened by a line "```vectors" in `doc`.
pub fn parse_block(doc: &str) -> Option<Vec<(String, String)>> {
    let mut lines = doc.lines().skip_while(|l| l.trim() != "```vectors");
    lines.next()?;
    let mut out = Vec::new();
    for l in lines {
        if l.trim() == "```" {
            return Some(out);
        }
        if l.trim().is_empty() {
            continue;
        }
        let (k, v) = l.split_once(" = ")?;
        out.push((k.trim().to_owned(), v.trim().to_owned()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fairness_md_vectors_match_the_code() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/FAIRNESS.md");
        let doc = std::fs::read_to_string(path).expect("docs/FAIRNESS.md");
        let published = parse_block(&doc).expect("a ```vectors block in docs/FAIRNESS.md");
        let computed = compute();
        for (p, c) in published.iter().zip(&computed) {
            assert_eq!(p, c, "docs/FAIRNESS.md vector differs from the code");
        }
        assert_eq!(published.len(), computed.len(), "docs/FAIRNESS.md has a different number of vectors");
    }

    #[test]
    fn parse_block_round_trips() {
        let doc = format!("text\n```vectors\n{}```\nmore", block());
        assert_eq!(parse_block(&doc).unwrap(), compute());
        assert!(parse_block("no block").is_none());
    }
}
