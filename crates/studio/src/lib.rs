//! The in-house game studio's pure core: no I/O, no database, no async.
//!
//! * [`fair`] — provably-fair draws (HMAC-SHA256 stream), the rejection rule, the simulation RNG.
//! * [`crash`] — the multiplayer crash game's hash chain, crash point and growth curve.
//! * [`roulette`] — European single-zero roulette with the full bet layout.
//! * [`dice`] — roll 0.00–100.00, over/under a chosen target.
//! * [`slots`] — three 5×3 video slots (data-driven), exact RTP by enumeration, fast simulation.
//! * [`report`] — the text the `carthage games …` commands print.
//!
//! Every formula is published in docs/FAIRNESS.md; its test vectors are checked by this crate's tests.

pub mod crash;
pub mod dice;
pub mod fair;
pub mod roulette;
pub mod report;
pub mod slots;
pub mod vectors;

mod error;
pub use error::BetError;
