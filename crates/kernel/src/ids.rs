//! Application-generated 64-bit ids (ARCHITECTURE §1: both databases get the same ids).
//!
//! Layout of [`next_id`]: 40 bits of milliseconds since 2026-01-01 (34 years), 4 bits of the
//! process's *node* number, 9 bits of a per-millisecond sequence (512 ids/ms). That is 53
//! bits: ids are positive, increase with time within a process, fit a BIGINT **and** survive
//! JavaScript's `Number` (2^53) in the web app without rounding.
//!
//! Two processes writing to one database at once must have different nodes, or two ids made
//! in the same millisecond collide (a primary key refuses the second, and its request fails).
//! On PostgreSQL every process holds a node of its own ([`set_node`], from
//! `store::ids::hold_node`: an advisory lock per node, so at most [`NODES`] processes); until
//! one is set the node is random (SQLite serves one instance).

use std::sync::Mutex;

const EPOCH_MS: i64 = 1_767_225_600_000; // 2026-01-01T00:00:00Z

struct State {
    last_ms: i64,
    seq: i64,
    node: i64,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// How many node numbers there are (`0..NODES`).
pub const NODES: i64 = 16;

fn state(guard: &mut Option<State>) -> &mut State {
    guard.get_or_insert_with(|| State {
        last_ms: 0,
        seq: 0,
        node: rand::random::<u16>() as i64 % NODES,
    })
}

/// Makes this process's ids carry `node` (`0..NODES`) from now on: one no other process
/// writing to the database holds. Ids already made keep theirs; the sequence goes on, so the
/// process never repeats an id of its own either, and its ids keep increasing (a change
/// starts on the next millisecond).
pub fn set_node(node: i64) {
    assert!((0..NODES).contains(&node), "an id node is 0..{NODES}");
    let mut guard = STATE.lock().unwrap_or_else(|p| p.into_inner());
    let state = state(&mut guard);
    if state.node != node {
        state.node = node;
        state.last_ms += 1;
        state.seq = -1;
    }
}

/// This process's node number.
pub fn node() -> i64 {
    let mut guard = STATE.lock().unwrap_or_else(|p| p.into_inner());
    state(&mut guard).node
}

pub fn next_id() -> i64 {
    let mut guard = STATE.lock().unwrap_or_else(|p| p.into_inner());
    let state = state(&mut guard);
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
    fn ids_carry_the_node_and_a_node_change_repeats_nothing() {
        let before = next_id();
        set_node(9);
        let mut seen = HashSet::new();
        let mut last = before;
        for _ in 0..5_000 {
            let id = next_id();
            assert_eq!((id >> 9) & 0xf, 9, "the node's bits");
            assert!(id > last && seen.insert(id));
            last = id;
        }
        assert_eq!(node(), 9);
        set_node(3);
        let id = next_id();
        assert!(id > last);
        assert_eq!((id >> 9) & 0xf, 3);
    }

    #[test]
    fn user_ids_have_eight_digits() {
        for _ in 0..1000 {
            let id = random_user_id();
            assert_eq!(id.to_string().len(), 8);
        }
    }
}
