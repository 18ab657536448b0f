//! The provider interface: create a deposit, create a withdrawal, verify and parse a
//! callback (on the raw body, before parsing), query a payment's status.

use crate::model::Intent;
use kernel::{AppError, Minor};
use std::collections::HashMap;

/// What a provider answered to a creation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    /// The provider's reference of the payment (unique per provider), if it gave one now.
    pub reference: Option<String>,
    /// Where the player completes the payment (a hosted page), if anywhere.
    pub url: Option<String>,
    /// `Pending` normally; `Failed` when the provider refused it outright.
    pub status: ProviderStatus,
}

/// A payment's state as the provider sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderStatus {
    Pending,
    Succeeded,
    Failed(String),
    /// The provider cannot tell (no status call, unreachable): leave the intent alone.
    Unknown,
}

/// A verified callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallbackEvent {
    /// The provider's id of this notification (replays carry the same id).
    pub event_id: String,
    /// The provider's reference of the payment.
    pub reference: Option<String>,
    /// Our intent id, when the provider echoes it.
    pub intent_id: Option<i64>,
    pub kind: Option<crate::model::IntentKind>,
    pub outcome: ProviderStatus,
    /// In minor units of `currency` as the intent records them.
    pub amount: Minor,
    pub currency: String,
}

/// The request headers of a callback, names lower-case.
pub type Headers = HashMap<String, String>;

#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    fn name(&self) -> &'static str;
    /// Whether its pages may run inside the app's payment frame; if not, deposit creation
    /// answers code 20 with the URL (the browser goes there top-level).
    fn framable(&self) -> bool {
        true
    }
    async fn create_deposit(&self, intent: &Intent) -> Result<Created, AppError>;
    async fn create_withdrawal(&self, intent: &Intent) -> Result<Created, AppError>;
    /// Checks the signature on the raw body, then parses it. A refusal changes nothing.
    fn verify_callback(&self, headers: &Headers, body: &[u8], now_s: i64) -> Result<CallbackEvent, AppError>;
    async fn query_status(&self, intent: &Intent) -> Result<ProviderStatus, AppError>;
    /// The body a callback is answered with when accepted (`None`: our envelope).
    fn ack_body(&self) -> Option<&'static str> {
        None
    }
}
