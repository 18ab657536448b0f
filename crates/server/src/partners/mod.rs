//! The partner sportsbooks (docs/PARTNERS.md): their adapters live in
//! `providers::partners` (Digitain, GR8 Tech); the server keeps the thin routes
//! (`api/partners.rs`) and demo mode's partner pages ([`demo`]).

pub use providers::partners::*;

pub mod demo;

impl crate::app::AppState {
    /// What the partner adapters act on.
    pub fn partner_state(&self) -> PartnerState<'_> {
        PartnerState { partners: &self.partners, casino: &self.casino, ledger: &self.ledger, accounts: &self.accounts }
    }
}
