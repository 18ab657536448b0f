//! The sportsbook's pure core: no I/O, no database, no async, no clock.
//!
//! * [`model`] — the line as industry feeds shape it (Betradar UOF, Betfair): sport → category →
//!   tournament → event → market (type id + specifiers) → outcome, and the in-memory [`Line`].
//! * [`catalogue`] — the market types we know: outcome names, specifiers, how each settles.
//! * [`odds`] — decimal odds in integer thousandths, the player's odds-change policy, express
//!   odds and potential payouts computed exactly.
//! * [`settle`] — UOF settlement (result, void factor, dead-heat factor) to exact payouts, bet
//!   outcome classification and resettlement deltas.
//! * [`slip`] — validation of a bet request against the line and the limits (codes 600–617, 1489).
//! * [`pricing`] — true probabilities per sport, the margin, the odds ladder, live repricing.
//! * [`sim`] — a deterministic simulated feed driven by explicit ticks.
//! * [`feed`] — the JSON feed format, its validation and [`Line::apply`].
//!
//! Money is always `i64` minor units; odds that decide money are integers; floats appear only
//! inside [`pricing`] before probabilities become integer odds. docs/SPORTSBOOK.md is the guide.

#![warn(missing_docs)]

pub mod catalogue;
mod exact;
pub mod feed;
pub mod model;
pub mod odds;
pub mod pricing;
pub mod settle;
pub mod sim;
pub mod slip;

pub use exact::{Fraction, FractionError};
pub use feed::FeedMessage;
pub use model::{Line, MarketKey, MarketStatus};
pub use odds::{Odds, OddsPolicy};
pub use settle::OutcomeResult;
