//! Integration tests: studio.
