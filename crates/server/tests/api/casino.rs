//! Integration tests: casino.
