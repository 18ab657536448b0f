//! Intents: the persisted state machine of one deposit or withdrawal through a provider.

use kernel::{Currency, Minor};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::any::AnyRow;
use store::sqlx::Row;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentKind {
    Deposit,
    Withdrawal,
}

impl IntentKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            IntentKind::Deposit => "deposit",
            IntentKind::Withdrawal => "withdrawal",
        }
    }
    pub fn parse(s: &str) -> Option<IntentKind> {
        match s {
            "deposit" => Some(IntentKind::Deposit),
            "withdrawal" => Some(IntentKind::Withdrawal),
            _ => None,
        }
    }
}

/// `created → pending → succeeded | failed | expired | cancelled`.
///
/// * `created`: recorded (a withdrawal's funds already held), the provider not yet answered;
/// * `pending`: the provider has the payment (a reference, a page), the outcome is awaited;
/// * `succeeded`, `failed`, `expired`, `cancelled`: final. A deposit that succeeds after it
///   expired or failed is still honoured (the money really arrived): the only way out of a
///   final state, flagged `needs_review`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentStatus {
    Created,
    /// A withdrawal held and waiting for staff approval (above `withdrawal_review_above`):
    /// not sent to the provider; approved it goes back to `created` and on to the provider,
    /// rejected (or cancelled by the player) it fails and the hold returns.
    Review,
    Pending,
    Succeeded,
    Failed,
    Expired,
    Cancelled,
}

impl IntentStatus {
    pub const ALL: [IntentStatus; 7] = [
        IntentStatus::Created,
        IntentStatus::Review,
        IntentStatus::Pending,
        IntentStatus::Succeeded,
        IntentStatus::Failed,
        IntentStatus::Expired,
        IntentStatus::Cancelled,
    ];
    pub const fn as_str(self) -> &'static str {
        match self {
            IntentStatus::Created => "created",
            IntentStatus::Review => "review",
            IntentStatus::Pending => "pending",
            IntentStatus::Succeeded => "succeeded",
            IntentStatus::Failed => "failed",
            IntentStatus::Expired => "expired",
            IntentStatus::Cancelled => "cancelled",
        }
    }
    pub fn parse(s: &str) -> Option<IntentStatus> {
        IntentStatus::ALL.into_iter().find(|x| x.as_str() == s)
    }
    pub const fn is_final(self) -> bool {
        !matches!(self, IntentStatus::Created | IntentStatus::Review | IntentStatus::Pending)
    }
}

/// One intent row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intent {
    pub id: i64,
    pub user_id: i64,
    pub kind: IntentKind,
    pub provider: String,
    pub method: String,
    /// What the provider moves (minor units of `currency`).
    pub amount: Minor,
    pub currency: Currency,
    /// What the player's wallet moves (minor units of `credit_currency`); equal to
    /// `amount`/`currency` except for converted (crypto) deposits.
    pub credit_amount: Minor,
    pub credit_currency: Currency,
    pub rate_num: i64,
    pub rate_den: i64,
    pub phone: Option<String>,
    pub details: serde_json::Value,
    pub provider_ref: Option<String>,
    pub status: IntentStatus,
    pub failure_reason: Option<String>,
    /// A withdrawal's hold is posted.
    pub held: bool,
    pub settled_at: Option<i64>,
    pub needs_review: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub expires_at: i64,
}

pub(crate) const INTENT_COLUMNS: &str = "id, user_id, kind, provider, method, amount, currency, credit_amount, credit_currency, \
     rate_num, rate_den, phone, details, provider_ref, status, failure_reason, held, settled_at, needs_review, created_at, updated_at, expires_at";

impl Intent {
    pub(crate) fn from_row(r: &AnyRow) -> Option<Intent> {
        Some(Intent {
            id: r.get(0),
            user_id: r.get(1),
            kind: IntentKind::parse(&r.get::<String, _>(2))?,
            provider: r.get(3),
            method: r.get(4),
            amount: r.get(5),
            currency: Currency::from_str(&r.get::<String, _>(6)).ok()?,
            credit_amount: r.get(7),
            credit_currency: Currency::from_str(&r.get::<String, _>(8)).ok()?,
            rate_num: r.get(9),
            rate_den: r.get(10),
            phone: r.get(11),
            details: serde_json::from_str(&r.get::<String, _>(12)).unwrap_or(serde_json::Value::Null),
            provider_ref: r.get(13),
            status: IntentStatus::parse(&r.get::<String, _>(14))?,
            failure_reason: r.get(15),
            held: r.get::<i64, _>(16) != 0,
            settled_at: r.get(17),
            needs_review: r.get::<i64, _>(18) != 0,
            created_at: r.get(19),
            updated_at: r.get(20),
            expires_at: r.get(21),
        })
    }

    /// The ledger idempotency keys of this intent's postings (docs/PAYMENTS.md).
    pub fn key(&self, what: &str) -> String {
        format!("pay:{}:{what}", self.id)
    }
}

/// The player fields the payment rules need (the HTTP layer passes them from the session).
#[derive(Debug, Clone)]
pub struct Payer {
    pub id: i64,
    pub currency: Currency,
    pub registered_via: String,
    pub phone: Option<String>,
    pub lang: String,
}
