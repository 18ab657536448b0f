//! Payments (ARCHITECTURE §1, docs/PAYMENTS.md): money in and out of the platform.
//!
//! * **Intents** ([`model`]) — every deposit and withdrawal through a payment provider is a
//!   persisted state machine (`created → pending → succeeded | failed | expired |
//!   cancelled`), every transition time-stamped in `payment_intent_events`; money moves only
//!   through the wallet's ledger, each posting keyed by the intent id
//!   (`pay:{id}:credit|hold|settle|release`).
//! * **Providers** ([`provider::Provider`]) — create deposit, create withdrawal, verify +
//!   parse a callback, query status: the embedded [`sandbox`] (hosted card / e-wallet /
//!   crypto pages, Stripe-style signed callbacks), [`paykassma`], and the sandbox crypto
//!   provider for Telegram USDT deposits.
//! * **Jobs** ([`jobs`]) — expiry, reconciliation with the provider, repair of postings a
//!   crash interrupted, delivery of the sandbox's callbacks; one owner at a time.
//! * **Cashier network** ([`cashier`]) — cashier locations, cash floats (ledger accounts of
//!   kind `float`), cash deposits (type 114), cashier withdrawals paid out by code.
//!
//! ## Why a retry or a race can never pay twice
//! The ledger posts in its own transaction (SQLite's group-commit writer), so the status
//! change and the posting cannot share one. They are **ordered**. A deposit's credit comes
//! first (a success may follow any state but `succeeded` and nothing else posts for a
//! deposit, so there is nothing to exclude; the status never shows `succeeded` before the
//! balance does), then its transition; a crash in between is finished by the provider's
//! retry or the reconciliation, the credit replaying under its key. A withdrawal's settle
//! and release exclude each other, so there the order is: first the conditional
//! transition (`UPDATE payment_intents SET status = $new … WHERE id = $id AND status IN
//! (…)`: of two racing callbacks, or a callback racing a cancel, exactly one wins), then the
//! winner posts under the intent's key (`pay:{id}:credit` …: a repeat replays, never moves
//! money twice), then `settled_at` is set. A crash between the transition and the posting
//! leaves a final intent with `settled_at IS NULL`: the repair pass ([`Payments::repair_once`])
//! posts it under the same key (idempotent) and sets `settled_at`. A withdrawal's hold is
//! posted right after the intent row is written; a crash in between leaves a `created`
//! intent without `held`, which the repair pass resolves by looking the hold's key up in the
//! ledger (held → keep going; absent → failed, nothing to return).

pub mod cashier;
mod callbacks;
mod create;
mod history;
pub use history::PayHistoryEntry;
mod outcomes;
pub mod review;
pub mod jobs;
pub mod model;
pub mod pages;
pub mod paykassma;
pub mod provider;
pub mod rules;
pub mod sandbox;
pub mod signature;

use kernel::clock::{now_ms, MINUTE_MS};
use kernel::{AppError, Currency, ErrorCode, Minor};
pub use model::{Intent, IntentKind, IntentStatus, Payer};
use provider::Provider;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use store::sqlx::{self, Row};
use store::Db;
use wallet::Ledger;

/// Paykassma settings (`PAYKASSMA_*`).
#[derive(Debug, Clone)]
pub struct PaykassmaConfig {
    /// Base of the withdrawal API (`{api}/v2/withdrawal/create`); `None` in demo mode: the
    /// Paykassma emulation inside the sandbox (`/pay/paykassma` on this server).
    pub api_url: Option<String>,
    /// The deposit plugin page; `None`: the emulation's.
    pub plugin_url: Option<String>,
    pub postback_access_key: String,
    pub postback_private_key: String,
    /// Signs withdrawal requests.
    pub private_key: String,
    /// `payment_system` of withdrawals (e.g. a mobile-money wallet type).
    pub wallet_type: String,
    /// The plugin page may not be framed (production): deposit creation answers code 20.
    pub top_level: bool,
}

#[derive(Debug, Clone)]
pub struct PaymentsConfig {
    /// The embedded sandbox provider (always in demo mode; production only with
    /// `PAYMENTS_SANDBOX=1`).
    pub sandbox_enabled: bool,
    /// The secret the sandbox signs its callbacks with.
    pub sandbox_secret: String,
    /// The sandbox page may run in the app's frame (else deposit creation answers 20).
    pub sandbox_framable: bool,
    pub paykassma: Option<PaykassmaConfig>,
    /// USDT → currency rates, major per major (`PAYMENTS_USDT_RATES=TND=3.125,HTG=…`).
    pub usdt_rates: Vec<(Currency, String)>,
    /// A deposit not completed within this expires.
    pub deposit_ttl_ms: i64,
    /// A payment token is valid this long.
    pub token_ttl_ms: i64,
    /// Withdrawals are blocked this long after a password recovery.
    pub withdrawal_block_ms: i64,
    /// Reconciliation looks at intents untouched for this long.
    pub reconcile_stale_ms: i64,
    /// Withdrawals above this many major units of the player's currency wait for staff
    /// approval (`WITHDRAWAL_REVIEW_ABOVE`; `None`: never).
    pub withdrawal_review_above: Option<i64>,
    /// How often the jobs run.
    pub jobs_every: std::time::Duration,
    /// Where providers send callbacks (`{base}/api/payment/callback/{provider}`); `None`:
    /// this server's own address (known once it listens).
    pub callback_base: Option<String>,
}

impl Default for PaymentsConfig {
    fn default() -> Self {
        PaymentsConfig {
            sandbox_enabled: true,
            sandbox_secret: "sandbox-demo-webhook-secret".into(),
            sandbox_framable: true,
            paykassma: Some(PaykassmaConfig::demo()),
            usdt_rates: vec![(Currency::Tnd, "3.125".into()), (Currency::Htg, "131".into()), (Currency::Tmt, "3.5".into())],
            deposit_ttl_ms: 30 * MINUTE_MS,
            token_ttl_ms: 10 * MINUTE_MS,
            withdrawal_block_ms: 24 * 60 * MINUTE_MS,
            reconcile_stale_ms: 2 * MINUTE_MS,
            withdrawal_review_above: Some(1000),
            jobs_every: std::time::Duration::from_secs(15),
            callback_base: None,
        }
    }
}

impl PaykassmaConfig {
    /// Demo mode: the emulation inside our sandbox, with demo keys.
    pub fn demo() -> PaykassmaConfig {
        PaykassmaConfig {
            api_url: None,
            plugin_url: None,
            postback_access_key: "demo-access-key".into(),
            postback_private_key: "demo-postback-private-key".into(),
            private_key: "demo-private-key".into(),
            wallet_type: "sandbox_wallet".into(),
            top_level: false,
        }
    }
}

/// The responsible-gambling deposit rules (the blocks and the player's own limits, in
/// `accounts`): asked for every deposit intent and every cash deposit at a desk. Refuse with
/// the code of the rule.
#[async_trait::async_trait]
pub trait DepositGuard: Send + Sync {
    /// Before anything is written (blocks, and a first look at the limits).
    async fn check_deposit(&self, user_id: i64, amount: Minor, currency: Currency) -> Result<(), AppError>;
    /// The binding limits check, inside the transaction that records the deposit (the
    /// intent row, or the desk's posting), with the deposit already written on `conn`: the
    /// deposits credited in each window plus the intents still open must stay within the
    /// limits. The guard serialises the deposits of one player; an `Err` rolls the
    /// transaction back.
    async fn reserve_deposit(&self, conn: &mut store::sqlx::AnyConnection, user_id: i64, amount: Minor, currency: Currency) -> Result<(), AppError>;
}

/// Bonus wagering still open (promotions): a withdrawal waits until it is done or the bonus
/// is given up (6252 with the amount still to wager).
#[async_trait::async_trait]
pub trait WageringGuard: Send + Sync {
    /// What the player still has to wager on open bonuses (minor units of their currency).
    async fn open_wagering(&self, user_id: i64) -> Result<Minor, AppError>;
}

/// What the providers share with the service: the database, the HTTP client, our address.
pub struct Shared {
    pub db: Db,
    pub cfg: PaymentsConfig,
    pub http: reqwest::Client,
    /// `http://ip:port` of this server (set by `serve` once bound).
    pub local_base: OnceLock<String>,
    /// Wakes the sandbox callback sender.
    pub wake: tokio::sync::Notify,
    /// Group commit for the intents' transitions (see `store::batch`).
    pub batch: store::WriteBatch,
}

impl Shared {
    pub fn local_base(&self) -> String {
        self.local_base.get().cloned().unwrap_or_else(|| "http://127.0.0.1:8080".into())
    }
    pub fn callback_url(&self, provider: &str) -> String {
        let base = self.cfg.callback_base.clone().unwrap_or_else(|| self.local_base());
        format!("{}/api/payment/callback/{provider}", base.trim_end_matches('/'))
    }
}

/// The payments service. Cheap to clone.
#[derive(Clone)]
pub struct Payments {
    shared: Arc<Shared>,
    ledger: Ledger,
    content: content::Content,
    providers: Arc<HashMap<&'static str, Arc<dyn Provider>>>,
    guard: Arc<OnceLock<Arc<dyn DepositGuard>>>,
    wagering: Arc<OnceLock<Arc<dyn WageringGuard>>>,
}

/// What a callback did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackOutcome {
    /// Applied (or already applied: every step is idempotent).
    Applied { intent_id: i64, status: IntentStatus, duplicate: bool },
}

/// The sandbox crypto provider's name.
pub const CRYPTO: &str = "crypto";
pub const SANDBOX: &str = "sandbox";
pub const PAYKASSMA: &str = "paykassma";

impl Payments {
    pub fn new(db: Db, ledger: Ledger, content: content::Content, cfg: PaymentsConfig) -> Payments {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(10))
            .connect_timeout(std::time::Duration::from_secs(5))
            .build()
            .unwrap_or_default();
        let batch = store::WriteBatch::new(db.clone());
        let shared = Arc::new(Shared { db, cfg, http, local_base: OnceLock::new(), wake: tokio::sync::Notify::new(), batch });
        let mut providers: HashMap<&'static str, Arc<dyn Provider>> = HashMap::new();
        if shared.cfg.sandbox_enabled {
            providers.insert(SANDBOX, Arc::new(sandbox::Sandbox::new(shared.clone(), SANDBOX)));
            providers.insert(CRYPTO, Arc::new(sandbox::Sandbox::new(shared.clone(), CRYPTO)));
        }
        if shared.cfg.paykassma.is_some() {
            providers.insert(PAYKASSMA, Arc::new(paykassma::Paykassma::new(shared.clone())));
        }
        Payments {
            shared,
            ledger,
            content,
            providers: Arc::new(providers),
            guard: Arc::new(OnceLock::new()),
            wagering: Arc::new(OnceLock::new()),
        }
    }

    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    pub fn config(&self) -> &PaymentsConfig {
        &self.shared.cfg
    }

    fn db(&self) -> &Db {
        &self.shared.db
    }

    /// Tells the service (and its providers) where this server listens.
    pub fn set_local_base(&self, base: String) {
        let _ = self.shared.local_base.set(base);
    }

    /// Wires the responsible-gambling deposit limits (once).
    pub fn set_deposit_guard(&self, guard: Arc<dyn DepositGuard>) {
        let _ = self.guard.set(guard);
    }

    /// Wires the bonus wagering rule of withdrawals (once).
    pub fn set_wagering_guard(&self, guard: Arc<dyn WageringGuard>) {
        let _ = self.wagering.set(guard);
    }

    /// What the player still has to wager on open bonuses (0 when none is open).
    pub(crate) async fn bonus_wagering_left(&self, user_id: i64) -> Result<Minor, AppError> {
        match self.wagering.get() {
            Some(g) => g.open_wagering(user_id).await,
            None => Ok(0),
        }
    }

    pub fn provider(&self, name: &str) -> Result<&Arc<dyn Provider>, AppError> {
        self.providers.get(name).ok_or_else(|| AppError::new(ErrorCode::PaymentMethodUnavailable))
    }

    // ------------------------------------------------------------------ tokens

    /// A single-use payment token (10 min) bound to the player.
    pub async fn create_token(&self, user_id: i64) -> Result<String, AppError> {
        let token = format!("pt_{}", hex::encode(rand::random::<[u8; 16]>()));
        let now = now_ms();
        sqlx::query("INSERT INTO payment_tokens (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(signature::sha256_hex(&token))
            .bind(user_id)
            .bind(now)
            .bind(now + self.shared.cfg.token_ttl_ms)
            .execute(self.db().writer())
            .await
            .map_err(AppError::internal)?;
        Ok(token)
    }

    /// The client key of a token of this player: the intent it already made, if any, else
    /// the key to create one under (80 when unknown, expired or another player's).
    async fn token_key(&self, user_id: i64, token: &str) -> Result<String, AppError> {
        let hash = signature::sha256_hex(token.trim());
        let row = sqlx::query("SELECT user_id, expires_at FROM payment_tokens WHERE token_hash = $1")
            .bind(&hash)
            .fetch_optional(self.db().reader())
            .await
            .map_err(AppError::internal)?
            .ok_or(ErrorCode::PaymentTokenInvalid)?;
        let (owner, expires_at): (i64, i64) = (row.get(0), row.get(1));
        if owner != user_id {
            return Err(ErrorCode::PaymentTokenInvalid.into());
        }
        let key = format!("token:{hash}");
        // An expired token still answers the intent it made (a late retry).
        if expires_at < now_ms() && self.intent_by_key(&key).await?.is_none() {
            return Err(ErrorCode::PaymentTokenInvalid.into());
        }
        Ok(key)
    }

    async fn intent_by_key(&self, key: &str) -> Result<Option<Intent>, AppError> {
        let row = sqlx::query(&format!("SELECT {} FROM payment_intents WHERE client_key = $1", model::INTENT_COLUMNS))
            .bind(key)
            .fetch_optional(self.db().reader())
            .await
            .map_err(AppError::internal)?;
        Ok(row.as_ref().and_then(Intent::from_row))
    }

    // ------------------------------------------------------------------ reads

    pub async fn intent(&self, id: i64) -> Result<Option<Intent>, AppError> {
        let row = sqlx::query(&format!("SELECT {} FROM payment_intents WHERE id = $1", model::INTENT_COLUMNS))
            .bind(id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(AppError::internal)?;
        Ok(row.as_ref().and_then(Intent::from_row))
    }

    /// The player's own intent (85 otherwise).
    pub async fn player_intent(&self, user_id: i64, id: i64) -> Result<Intent, AppError> {
        match self.intent(id).await? {
            Some(i) if i.user_id == user_id => Ok(i),
            _ => Err(ErrorCode::PaymentNotFound.into()),
        }
    }

    async fn intent_by_ref(&self, provider: &str, reference: &str) -> Result<Option<Intent>, AppError> {
        let row = sqlx::query(&format!("SELECT {} FROM payment_intents WHERE provider = $1 AND provider_ref = $2", model::INTENT_COLUMNS))
            .bind(provider)
            .bind(reference)
            .fetch_optional(self.db().reader())
            .await
            .map_err(AppError::internal)?;
        Ok(row.as_ref().and_then(Intent::from_row))
    }

    /// The transitions of an intent, oldest first: `(from, to, source, detail, at)`.
    pub async fn events(&self, id: i64) -> Result<Vec<(Option<String>, String, String, String, i64)>, AppError> {
        let rows = sqlx::query("SELECT from_status, to_status, source, detail, created_at FROM payment_intent_events WHERE intent_id = $1 ORDER BY created_at, id")
            .bind(id)
            .fetch_all(self.db().reader())
            .await
            .map_err(AppError::internal)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4))).collect())
    }

}

/// A final outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    Failed,
    Expired,
    Cancelled,
}

impl Outcome {
    pub const fn status(self) -> IntentStatus {
        match self {
            Outcome::Succeeded => IntentStatus::Succeeded,
            Outcome::Failed => IntentStatus::Failed,
            Outcome::Expired => IntentStatus::Expired,
            Outcome::Cancelled => IntentStatus::Cancelled,
        }
    }
}


fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usdt_rates_are_exact_rationals() {
        assert_eq!(gcd(12, 18), 6);
        // 3.125 TND per USDT: 1 USDT (10^6 µUSDT) = 3125 millimes → 3125 / 10^6.
        let r = kernel::money::parse_major("3.125", Currency::Usdt).unwrap();
        let num = r as i128 * Currency::Tnd.scale() as i128;
        let den = 1_000_000i128 * 1_000_000;
        let g = gcd(num, den);
        assert_eq!((num / g, den / g), (1, 320));
        assert_eq!(10_000_000i128 * (num / g) / (den / g), 31_250); // 10 USDT = 31.250 TND
    }
}

