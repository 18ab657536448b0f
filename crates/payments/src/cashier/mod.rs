//! The cashier network: cashier locations and their ordering (spec §9), each cashier's and
//! super agent's cash float (a ledger account of kind `float`), cash deposits at a cashier
//! (type 114, float → player), cashier withdrawals (funds held at request, paid out by a
//! cashier who enters the player's one-time code: hold → cashier float), and float moves
//! between a super agent and its cashiers. No float may go negative.
//!
//! * [`network`] — locations, the cashier list, floats (issue 210, move 209), cash deposits
//!   (114), the desk's shift report.
//! * [`withdrawals`] — cashier withdrawal requests: hold (10), cancel (207), payout by code
//!   (208), history, and the recovery of requests interrupted between a state change and
//!   its posting.
//! * [`code`] — the one-time payout codes (derived from the request id with the network's
//!   secret; only their hash is stored).

pub mod code;
pub mod network;
pub mod withdrawals;

use kernel::{AppError, Currency, ErrorCode, Minor};
use std::sync::{Arc, OnceLock};
use store::Db;
use wallet::Ledger;

pub use network::{CashierEntry, DeskReport, FloatDirection, ReportLine, StaffCashier};
pub use withdrawals::{CashierPayEntry, HistoryPage, HistoryQuery, PayEntryKind, Withdrawal, WithdrawalStatus};

/// Role codes of the accounts model (`accounts::Role`): the network's staff.
pub const ROLE_PLAYER: i64 = 0;
pub const ROLE_CASHIER: i64 = 2;
pub const ROLE_SUPER_AGENT: i64 = 3;

/// Settings of the cashier network (`CASHIER_*` in docs/OPERATIONS.md).
#[derive(Debug, Clone)]
pub struct CashierConfig {
    /// Spec §9: the cashier listed first (`CASHIER_LIST_FIRST`, a user id).
    pub list_first: Option<i64>,
    /// Spec §9: the cashier listed last (`CASHIER_LIST_LAST`, a user id).
    pub list_last: Option<i64>,
    /// The secret payout codes are derived with (`CASHIER_CODE_SECRET`); without it a random
    /// secret is generated once and kept in the database.
    pub code_secret: Option<String>,
    /// Wrong payout codes a desk may enter within [`Self::code_failure_window_ms`].
    pub max_code_failures: i64,
    pub code_failure_window_ms: i64,
    /// Player look-ups (`GET /api/desk/player`) a desk may make at once; then one more every
    /// [`Self::lookup_period`] (14 beyond that).
    pub lookup_burst: u32,
    pub lookup_period: std::time::Duration,
}

impl Default for CashierConfig {
    fn default() -> Self {
        CashierConfig {
            list_first: None,
            list_last: None,
            code_secret: None,
            max_code_failures: 10,
            code_failure_window_ms: 15 * 60_000,
            lookup_burst: 20,
            lookup_period: std::time::Duration::from_secs(6),
        }
    }
}

/// Sends a new withdrawal's payout code to the player (the server implements it with the
/// accounts outbox: an SMS to the player's phone).
#[async_trait::async_trait]
pub trait CodeNotifier: Send + Sync {
    async fn send_payout_code(&self, user_id: i64, phone: &str, code: &str, amount: Minor, currency: Currency) -> Result<(), AppError>;
}

/// The withdrawal rules that belong to other parts (the wagering requirement, code 6252;
/// withdrawal blocks, 6252 with an object): asked before a cashier withdrawal is created.
#[async_trait::async_trait]
pub trait WithdrawalGuard: Send + Sync {
    async fn check_withdrawal(&self, user_id: i64, amount: Minor, currency: Currency) -> Result<(), AppError>;
}

/// Someone signed in at a desk: a cashier (2) or a super agent (3). Only
/// [`Cashier::staff`] makes one, from the user row, so every desk operation is role-checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staff {
    pub id: i64,
    pub role: i64,
    pub currency: Currency,
    pub name: String,
}

impl Staff {
    pub fn is_super_agent(&self) -> bool {
        self.role == ROLE_SUPER_AGENT
    }
}

/// The player a withdrawal or a deposit is for.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: i64,
    pub currency: Currency,
    pub phone: Option<String>,
}

/// The cashier network's service. Cheap to clone.
#[derive(Clone)]
pub struct Cashier {
    db: Db,
    ledger: Ledger,
    cfg: Arc<CashierConfig>,
    notifier: Arc<OnceLock<Arc<dyn CodeNotifier>>>,
    guard: Arc<OnceLock<Arc<dyn WithdrawalGuard>>>,
    deposit_guard: Arc<OnceLock<Arc<dyn crate::DepositGuard>>>,
    secret: Arc<OnceLock<Vec<u8>>>,
    /// Player look-ups per desk (staff id).
    lookups: Arc<governor::DefaultKeyedRateLimiter<i64>>,
}

pub(crate) fn db_err(e: impl std::fmt::Display) -> AppError {
    AppError::internal(e)
}

impl Cashier {
    pub fn new(db: Db, ledger: Ledger, cfg: CashierConfig) -> Cashier {
        let lookups = governor::Quota::with_period(cfg.lookup_period)
            .unwrap_or_else(|| governor::Quota::per_second(std::num::NonZeroU32::MIN))
            .allow_burst(std::num::NonZeroU32::new(cfg.lookup_burst.max(1)).unwrap_or(std::num::NonZeroU32::MIN));
        Cashier {
            lookups: Arc::new(governor::RateLimiter::keyed(lookups)),
            db,
            ledger,
            cfg: Arc::new(cfg),
            notifier: Default::default(),
            guard: Default::default(),
            deposit_guard: Default::default(),
            secret: Default::default(),
        }
    }

    pub fn config(&self) -> &CashierConfig {
        &self.cfg
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Wires the payout-code SMS (once).
    pub fn set_notifier(&self, notifier: Arc<dyn CodeNotifier>) {
        let _ = self.notifier.set(notifier);
    }

    /// Wires the wagering / withdrawal-block rules of the payments part (once).
    pub fn set_withdrawal_guard(&self, guard: Arc<dyn WithdrawalGuard>) {
        let _ = self.guard.set(guard);
    }

    /// Wires the responsible-gambling deposit check (blocks and the player's own limits)
    /// that a cash deposit at a desk obeys like any other deposit (once).
    pub fn set_deposit_guard(&self, guard: Arc<dyn crate::DepositGuard>) {
        let _ = self.deposit_guard.set(guard);
    }

    /// The deposit check of [`Self::set_deposit_guard`]; no guard set: no rule.
    pub async fn deposit_rules_check(&self, user_id: i64, amount: Minor, currency: Currency) -> Result<(), AppError> {
        match self.deposit_guard.get() {
            Some(g) => g.check_deposit(user_id, amount, currency).await,
            None => Ok(()),
        }
    }

    /// **The one call site** of the wagering requirement (6252) and withdrawal blocks
    /// (6252 with `{reason, until}`) for cashier withdrawals: the lead wires it to the
    /// payments part's rules with [`Self::set_withdrawal_guard`]. No guard set: no rule.
    pub async fn withdrawal_rules_check(&self, user_id: i64, amount: Minor, currency: Currency) -> Result<(), AppError> {
        match self.guard.get() {
            Some(g) => g.check_withdrawal(user_id, amount, currency).await,
            None => Ok(()),
        }
    }

    /// The desk identity of a signed-in user: cashiers and super agents only (24 otherwise).
    pub async fn staff(&self, user_id: i64) -> Result<Staff, AppError> {
        use store::sqlx::Row;
        let row = store::sqlx::query(
            "SELECT u.role, u.currency, u.first_name, u.last_name, l.first_name, l.address, l.phone \
             FROM users u LEFT JOIN cashier_locations l ON l.user_id = u.id WHERE u.id = $1 AND u.is_banned = 0",
        )
        .bind(user_id)
        .fetch_optional(self.db.reader())
        .await
        .map_err(db_err)?
        .ok_or(ErrorCode::Forbidden)?;
        let role: i64 = row.get(0);
        if role != ROLE_CASHIER && role != ROLE_SUPER_AGENT {
            return Err(ErrorCode::Forbidden.into());
        }
        let currency: String = row.get(1);
        let currency = currency.parse().map_err(|_| db_err("unknown currency on a staff account"))?;
        let location: Option<String> = row.get(4);
        let name = match location {
            Some(first) => network::location_name(&first, &row.get::<String, _>(5), &row.get::<String, _>(6)),
            None => format!("{} {}", row.get::<String, _>(2), row.get::<String, _>(3)).trim().to_string(),
        };
        Ok(Staff { id: user_id, role, currency, name })
    }
}
