//! Application-generated 64-bit ids (ARCHITECTURE §1: both databases get the same ids).
//!
//! Layout of [`next_id`]: 40 bits of milliseconds since 2026-01-01 (34 years), 4 random
//! bits chosen once per process (so several instances rarely collide, and a collision is
//! caught by the primary key), 9 bits of a per-millisecond sequence (512 ids/ms). That is
//! 53 bits: ids are positive, increase with time within a process, fit a BIGINT **and**
//! survive JavaScript's `Number` (2^53) in the web app without rounding.

use std::sync::Mutex;

const EPOCH_MS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

struct State {
    last_ms: i64,
    seq: i64,
    node: i64,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

pub fn next_id() -> i64 {
    let mut guard = STATE.lock().unwrap_or_else(|p| p.into_inner());
    let state = guard.get_or_insert_with(|| State {
        last_ms: 0,
        seq: 0,
        node: rand::random::<u16>() as i64 & 0xf,
    });
    let mut now = crate::clock::now_ms() - EPOCH_MS;
    if now < state.last_ms {
        // The clock went backwards: keep issuing from the last instant.
        now = state.last_ms;
    }
    if now == state.last_ms {
        state.seq += 1;
        if state.seq > 0x1ff {
            // Sequence exhausted for this millisecond: borrow the next one.
            now += 1;
            state.seq = 0;
        }
    } else {
        state.seq = 0;
    }
    state.last_ms = now;
    (now << 13) | (state.node << 9) | state.seq
}

/// A player-facing numeric id: 8 digits, random (uniqueness is enforced by the caller's
/// primary key and retried on conflict). Short enough to read out to support.
pub fn random_user_id() -> i64 {
    use rand::Rng;
    rand::thread_rng().gen_range(10_000_000..100_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_increasing() {
        let mut seen = HashSet::new();
        let mut last = 0;
        for _ in 0..50_000 {
            let id = next_id();
            assert!(id > last, "ids must increase");
            assert!(seen.insert(id));
            assert!(id < (1i64 << 53), "ids must be exact in JavaScript");
            last = id;
        }
    }

    #[test]
    fn user_ids_have_eight_digits() {
        for _ in 0..1000 {
            let id = random_user_id();
            assert_eq!(id.to_string().len(), 8);
        }
    }
}
