//! The shared kernel: what every bounded context agrees on and nothing more.
//!
//! * [`ErrorCode`] — the one catalogue of reply codes (spec §8 plus our own), with the
//!   English text and the HTTP status each is answered with.
//! * [`money`] — currencies with their ISO 4217 exponent and integer minor-unit amounts.
//! * [`ids`] — application-generated 64-bit ids.
//! * [`clock`] — epoch-millisecond time.

pub mod clock;
pub mod errors;
pub mod ids;
pub mod metrics;
pub mod money;

pub use errors::{AppError, ErrorCode};
pub use money::{Currency, Minor};
