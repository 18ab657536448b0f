//! Accounts: users and roles, sign-up and sign-in (e-mail, phone, universal, one-click),
//! e-mail verification, SMS codes, password recovery and change, profile, sessions and
//! rate limits (spec §4–§7 "User").
//!
//! Errors are [`kernel::AppError`] with the spec §8 codes; the HTTP layer only maps them.

pub mod limits;
pub mod messages;
pub mod model;
pub mod notify;
pub mod password;
pub mod rg;
pub mod staff;
pub mod totp;
pub mod validate;

use kernel::clock::{now_ms, DAY_MS, HOUR_MS, MINUTE_MS};
use kernel::ids::{next_id, random_user_id};
use kernel::{AppError, Currency, ErrorCode};
use limits::{LimitError, Limits, LimitsConfig, Outcome, Refusal};
pub use model::*;
use notify::{Channel, Message};
use password::HashParams;
use rand::Rng;
use sha2::{Digest, Sha256};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use store::sqlx::{self, any::AnyRow, AnyConnection, Row};
use store::Db;
use subtle::ConstantTimeEq;
use validate::Reason;
use tokio::sync::Notify;
use wallet::Ledger;

/// The sign-up methods offered (`SIGNUP_METHODS`); a disabled one answers 36.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignupMethods {
    pub email: bool,
    pub phone: bool,
    pub one_click: bool,
}

impl Default for SignupMethods {
    fn default() -> Self {
        SignupMethods { email: true, phone: true, one_click: true }
    }
}

impl SignupMethods {
    /// `email,phone,oneclick` (any subset, comma-separated; `none` for none).
    pub fn parse(list: &str) -> Result<SignupMethods, String> {
        let mut m = SignupMethods { email: false, phone: false, one_click: false };
        for item in list.split(',').map(|s| s.trim().to_ascii_lowercase()).filter(|s| !s.is_empty()) {
            match item.as_str() {
                "email" => m.email = true,
                "phone" => m.phone = true,
                "oneclick" | "one-click" | "one_click" => m.one_click = true,
                "none" => {}
                other => return Err(format!("unknown sign-up method {other:?} (email, phone, oneclick or none)")),
            }
        }
        Ok(m)
    }
}

/// The channels messages can reach: a transport is configured (or demo mode, where the
/// readable outbox is the delivery). Recovery through a missing channel answers 37.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channels {
    pub email: bool,
    pub sms: bool,
}

impl Default for Channels {
    fn default() -> Self {
        Channels { email: true, sms: true }
    }
}

/// Told when every session of a player ends (recovery, ban), so that other contexts end
/// what lives inside them (the server wires the casino's game sessions to it).
#[async_trait::async_trait]
pub trait SessionsEnded: Send + Sync {
    async fn all_sessions_ended(&self, user_id: i64) -> Result<(), AppError>;
}

#[derive(Debug, Clone)]
pub struct AccountsConfig {
    /// Base URL of the player app, for links in e-mails (`{public_url}/verify?code=…`).
    pub public_url: String,
    /// Public salt of the `phone/code` hash (`sha256(phone + salt)`), also in settings.
    pub phone_code_salt: String,
    pub session_idle_ms: i64,
    pub session_absolute_ms: i64,
    /// The console's sessions (opened with the second factor): shorter than a player's.
    pub staff_session_idle_ms: i64,
    pub staff_session_absolute_ms: i64,
    pub sms_daily_limit_per_phone: i64,
    pub phone_code_ttl_ms: i64,
    pub phone_code_max_attempts: i64,
    pub email_verify_ttl_ms: i64,
    pub restore_ttl_ms: i64,
    pub hash: HashParams,
    pub limits: LimitsConfig,
    /// The one special account paying through the payment provider (spec §3).
    pub special_user_id: Option<i64>,
    /// Domain of generated one-click e-mail logins.
    pub one_click_domain: String,
    /// Demo mode only (the server never sets it in production): major units credited to
    /// every self-service sign-up, posted as its own transaction type (202 demo credit).
    pub demo_credit_major: Option<i64>,
    /// Sign-up methods offered.
    pub signup: SignupMethods,
    /// Channels a message can be delivered through.
    pub channels: Channels,
}

impl Default for AccountsConfig {
    fn default() -> Self {
        AccountsConfig {
            public_url: "http://127.0.0.1:8080".into(),
            phone_code_salt: "carthage-phone-salt".into(),
            session_idle_ms: 2 * DAY_MS,
            session_absolute_ms: 30 * DAY_MS,
            staff_session_idle_ms: 30 * MINUTE_MS,
            staff_session_absolute_ms: 8 * HOUR_MS,
            sms_daily_limit_per_phone: 5,
            phone_code_ttl_ms: 10 * MINUTE_MS,
            phone_code_max_attempts: 5,
            email_verify_ttl_ms: 2 * DAY_MS,
            restore_ttl_ms: HOUR_MS,
            hash: HashParams::default(),
            limits: LimitsConfig::default(),
            special_user_id: None,
            one_click_domain: "player.carthage.local".into(),
            demo_credit_major: None,
            signup: SignupMethods::default(),
            channels: Channels::default(),
        }
    }
}

#[derive(Clone)]
pub struct Accounts {
    db: Db,
    ledger: Ledger,
    /// Woken after a message is committed to the outbox (the worker delivers it).
    outbox_wake: Arc<Notify>,
    sessions_ended: Option<Arc<dyn SessionsEnded>>,
    limits: Arc<Limits>,
    cfg: Arc<AccountsConfig>,
}

/// Sign-up by e-mail (spec §3 sign-up payload).
#[derive(Debug, Clone, Default)]
pub struct EmailSignup {
    pub email: String,
    pub password: String,
    pub currency: Option<String>,
    pub lang: Option<String>,
    pub promocode: Option<String>,
    pub ref_id: Option<String>,
}

/// Sign-up by phone: `code` is the SMS code from `phone/code`.
#[derive(Debug, Clone, Default)]
pub struct PhoneSignup {
    pub phone: String,
    pub code: String,
    pub password: String,
    pub currency: Option<String>,
    pub lang: Option<String>,
    pub promocode: Option<String>,
    pub ref_id: Option<String>,
}

/// A read model joined to the session lookup (see [`Accounts::authenticate_joined`]).
#[derive(Debug, Clone, Copy)]
pub struct SessionJoin {
    /// A `JOIN … ON …` clause that may refer to the user as `u`.
    pub join: &'static str,
    /// The joined columns to select, comma-separated.
    pub columns: &'static str,
}

impl SessionJoin {
    pub const NONE: SessionJoin = SessionJoin { join: "", columns: "" };
    /// Index of the first joined column in each row.
    pub const FIRST_COLUMN: usize = 29;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginKind {
    Email,
    Phone,
    /// Phone when the login has neither `@` nor a dot, else e-mail.
    Universal,
}

/// The client, for rate limits and session records.
#[derive(Debug, Clone, Default)]
pub struct Client {
    pub ip: String,
    pub user_agent: String,
    /// The request's language (`Accept-Language`: `en`, `fr`, `ar`), for the messages sent
    /// before an account exists; a known player's stored language comes first.
    pub lang: Option<String>,
}

const USER_COLUMNS: &str = "id, email, phone, role, currency, first_name, last_name, middle_name, birth_date, gender, \
    number_document, address, card, yandex, lang, email_verified_at, is_banned, is_banned_on_betroute, is_partner, \
    parent_cashier_id, parent_super_agent_id, parent_admin_id, registered_via, created_at, self_excluded_until, cool_off_until";

fn user_from_row(r: &store::sqlx::any::AnyRow) -> User {
    User {
        id: r.get(0),
        email: r.get(1),
        phone: r.get(2),
        role: Role::from_code(r.get(3)).unwrap_or(Role::Player),
        currency: Currency::from_str(&r.get::<String, _>(4)).unwrap_or(Currency::Tnd),
        first_name: r.get(5),
        last_name: r.get(6),
        middle_name: r.get(7),
        birth_date: r.get(8),
        gender: r.get(9),
        number_document: r.get(10),
        address: r.get(11),
        card: r.get(12),
        yandex: r.get(13),
        lang: r.get(14),
        email_verified: r.get::<Option<i64>, _>(15).is_some(),
        is_banned: store::flag(r.get(16)),
        is_banned_on_betroute: store::flag(r.get(17)),
        is_partner: store::flag(r.get(18)),
        parent_cashier_id: r.get(19),
        parent_super_agent_id: r.get(20),
        parent_admin_id: r.get(21),
        registered_via: r.get(22),
        created_at: r.get(23),
        self_excluded_until: r.get(24),
        cool_off_until: r.get(25),
    }
}

pub fn sha256_hex(data: &str) -> String {
    hex::encode(Sha256::digest(data.as_bytes()))
}

fn random_token() -> String {
    let bytes: [u8; 32] = rand::rngs::OsRng.gen();
    hex::encode(bytes)
}

fn random_digits(n: usize) -> String {
    let mut rng = rand::rngs::OsRng;
    (0..n).map(|_| char::from(b'0' + rng.gen_range(0..10u8))).collect()
}

/// Restore codes typed from an e-mail: 10 characters without look-alikes (~49 bits).
fn random_restore_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rngs::OsRng;
    (0..10).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect()
}

/// A generated password that satisfies the strength rule (letters and digits, 10 long).
pub fn generate_password() -> String {
    const LETTERS: &[u8] = b"abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
    const DIGITS: &[u8] = b"23456789";
    let mut rng = rand::rngs::OsRng;
    let mut chars: Vec<char> = (0..6).map(|_| LETTERS[rng.gen_range(0..LETTERS.len())] as char).collect();
    chars.extend((0..4).map(|_| DIGITS[rng.gen_range(0..DIGITS.len())] as char));
    for i in (1..chars.len()).rev() {
        chars.swap(i, rng.gen_range(0..=i));
    }
    chars.into_iter().collect()
}

fn ct_eq(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

fn db_err(e: sqlx::Error) -> AppError {
    AppError::internal(e)
}

/// A refusal tied to one field: `result` is `{field, reason}` (the field's wire name and
/// a [`validate::Reason`] code). Code 47 keeps its English `field: why` message; other
/// codes keep their catalogue text.
pub fn field_error(code: ErrorCode, field: &str, reason: validate::Reason) -> AppError {
    let e = if code == ErrorCode::InvalidField {
        AppError::with_detail(code, format!("{field}: {}", reason.text()))
    } else {
        AppError::new(code)
    };
    e.data(serde_json::json!({ "field": field, "reason": reason.code() }))
}

fn retry_data(wait: Duration) -> serde_json::Value {
    serde_json::json!({ "retryAfterSeconds": wait.as_secs().max(1) })
}

impl Accounts {
    /// The responsible-gambling service (deposit limits, self-exclusion, cool-off, reality check).
    pub fn rg(&self) -> rg::Rg {
        rg::Rg::new(self.clone())
    }

    pub fn new(db: Db, ledger: Ledger, cfg: AccountsConfig) -> Accounts {
        let limits = Arc::new(Limits::new(cfg.limits, db.clone()));
        Accounts { db, ledger, outbox_wake: Arc::new(Notify::new()), sessions_ended: None, limits, cfg: Arc::new(cfg) }
    }

    /// Tells `hook` whenever every session of a player ends.
    pub fn on_sessions_ended(mut self, hook: Arc<dyn SessionsEnded>) -> Accounts {
        self.sessions_ended = Some(hook);
        self
    }

    /// The outbox worker delivering this service's messages (woken at each new message).
    pub fn outbox_worker(&self, transport: Arc<dyn notify::Transport>, cfg: notify::OutboxConfig) -> notify::OutboxWorker {
        notify::OutboxWorker::new(self.db.clone(), transport, cfg, self.outbox_wake.clone())
    }

    pub fn config(&self) -> &AccountsConfig {
        &self.cfg
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    // ---------------------------------------------------------------- users

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, AppError> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(user_from_row))
    }

    async fn user_with_hash(&self, column: &str, value: &str) -> Result<Option<(User, String)>, AppError> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE {column} = $1"))
            .bind(value)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| (user_from_row(&r), r.get::<String, _>(26))))
    }

    /// Creates a user and opens their wallet accounts. Fails with code 1 when the e-mail
    /// or phone is taken. With `verify_email`, the verification token and its e-mail are
    /// written in the same transaction as the user: there is never a user whose
    /// verification message was lost, nor a message for a user that does not exist.
    async fn insert_user(
        &self,
        new: &NewUser,
        verified: bool,
        lang: &str,
        promocode: Option<&str>,
        ref_id: Option<&str>,
        verify_email: Option<&str>,
    ) -> Result<User, AppError> {
        let hash = password::hash(new.password.clone(), self.cfg.hash).await.map_err(AppError::internal)?;
        let now = now_ms();
        for _ in 0..5 {
            let id = random_user_id();
            let mut tx = self.db.writer().begin().await.map_err(db_err)?;
            let res = sqlx::query(
                "INSERT INTO users (id, email, phone, password_hash, role, currency, first_name, last_name, lang, promocode, ref_id, \
                 email_verified_at, registered_via, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)",
            )
            .bind(id)
            .bind(&new.email)
            .bind(&new.phone)
            .bind(&hash)
            .bind(new.role.code())
            .bind(new.currency.code())
            .bind(&new.first_name)
            .bind(&new.last_name)
            .bind(lang)
            .bind(promocode)
            .bind(ref_id)
            .bind(if verified { Some(now) } else { None })
            .bind(new.registered_via)
            .bind(now)
            .execute(&mut *tx)
            .await;
            match res {
                Ok(_) => {}
                Err(e) if store::is_unique_violation(&e) => {
                    // The transaction is dead (PostgreSQL) and holds the SQLite writer: end it first.
                    tx.rollback().await.map_err(db_err)?;
                    if self.email_or_phone_taken(new.email.as_deref(), new.phone.as_deref()).await? {
                        return Err(ErrorCode::UserExists.into());
                    }
                    // The random id collided: draw another.
                    continue;
                }
                Err(e) => return Err(db_err(e)),
            }
            if let Some(email) = verify_email {
                self.write_verification(&mut tx, id, email, lang).await?;
            }
            tx.commit().await.map_err(db_err)?;
            if verify_email.is_some() {
                self.outbox_wake.notify_one();
            }
            self.ledger.open_accounts(id, new.currency).await.map_err(AppError::from)?;
            if let Some(major) = self.cfg.demo_credit_major.filter(|m| *m > 0 && new.registered_via != "seed" && new.role == Role::Player) {
                let posting = wallet::PostingRequest::transfer(
                    wallet::TxType::DemoCredit,
                    format!("demo-credit:{id}"),
                    Some(id),
                    new.currency,
                    wallet::AccountRef::House(wallet::HouseAccount::DemoCredit),
                    wallet::AccountRef::Player { user_id: id, kind: wallet::BalanceKind::Real },
                    new.currency.major(major),
                )
                .comment("Demo credit");
                self.ledger.post(posting).await.map_err(AppError::from)?;
            }
            return self.user_by_id(id).await?.ok_or_else(|| AppError::internal("user vanished"));
        }
        Err(AppError::internal("could not allocate a user id"))
    }

    async fn email_or_phone_taken(&self, email: Option<&str>, phone: Option<&str>) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT id FROM users WHERE email = $1 OR phone = $2")
            .bind(email)
            .bind(phone)
            .fetch_optional(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(row.is_some())
    }

    /// Creates any kind of account (CLI, seed). Verified, no rate limits.
    pub async fn create_user(&self, new: NewUser) -> Result<User, AppError> {
        if let Some(email) = &new.email {
            validate::normalize_email(email).ok_or(ErrorCode::EmailInvalid)?;
        }
        if let Some(phone) = &new.phone {
            validate::normalize_phone(phone).ok_or(ErrorCode::PhoneInvalid)?;
        }
        if !validate::password_is_strong(&new.password) {
            return Err(ErrorCode::WeakPassword.into());
        }
        let new = NewUser {
            email: new.email.as_deref().and_then(validate::normalize_email),
            phone: new.phone.as_deref().and_then(validate::normalize_phone),
            ..new
        };
        self.insert_user(&new, true, "en-US", None, None, None).await
    }

    /// Finds by e-mail or phone (CLI, seed).
    pub async fn find_by_login(&self, login: &str) -> Result<Option<User>, AppError> {
        let (column, value) = if validate::login_is_phone(login) {
            ("phone", validate::normalize_phone(login))
        } else {
            ("email", validate::normalize_email(login))
        };
        let Some(value) = value else { return Ok(None) };
        Ok(self.user_with_hash(column, &value).await?.map(|(u, _)| u))
    }

    /// Bans or unbans. A banned user's sessions end at their next use, which answers 5
    /// (the balance poll answers `isBanned: true` so the app logs out silently); their
    /// game sessions end at once.
    pub async fn set_banned(&self, user_id: i64, banned: bool) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET is_banned = $1, updated_at = $2 WHERE id = $3")
            .bind(banned as i64)
            .bind(now_ms())
            .bind(user_id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        if banned {
            self.all_sessions_ended(user_id).await?;
        }
        Ok(())
    }

    async fn all_sessions_ended(&self, user_id: i64) -> Result<(), AppError> {
        match &self.sessions_ended {
            Some(hook) => hook.all_sessions_ended(user_id).await,
            None => Ok(()),
        }
    }

    fn currency_for_signup(requested: Option<&str>, allowed: &[Currency]) -> Result<Currency, AppError> {
        let currency = match requested.map(str::trim).filter(|s| !s.is_empty()) {
            None => Currency::Tnd,
            Some(code) => Currency::from_str(code).map_err(|_| AppError::new(ErrorCode::CurrencyUnavailable))?,
        };
        if allowed.contains(&currency) {
            Ok(currency)
        } else {
            Err(ErrorCode::CurrencyUnavailable.into())
        }
    }

    /// The language of a message to `user`: theirs, else the request's, else English.
    fn message_lang(user: &User, client: &Client) -> String {
        Some(user.lang.clone()).filter(|l| !l.trim().is_empty()).or_else(|| client.lang.clone()).unwrap_or_else(|| "en-US".into())
    }

    fn lang_or_default(lang: Option<&str>) -> String {
        match lang.map(str::trim) {
            Some(l) if ["fr-fr", "en-US", "ar-ar", "ru-ru", "kk-KZ"].contains(&l) => l.to_string(),
            Some("fr") => "fr-fr".into(),
            Some("ar") => "ar-ar".into(),
            _ => "en-US".into(),
        }
    }

    // ---------------------------------------------------------------- sign-up

    /// E-mail sign-up: creates an unverified account and e-mails the verification link
    /// (through the outbox, written in the same transaction as the user).
    pub async fn signup_email(&self, s: EmailSignup, allowed: &[Currency], client: &Client) -> Result<User, AppError> {
        if !self.cfg.signup.email {
            return Err(ErrorCode::SignupMethodDisabled.into());
        }
        let email = validate::normalize_email(&s.email).ok_or_else(|| field_error(ErrorCode::EmailInvalid, "email", Reason::Invalid))?;
        if !validate::password_is_strong(&s.password) {
            return Err(field_error(ErrorCode::WeakPassword, "password", Reason::Weak));
        }
        let currency = Self::currency_for_signup(s.currency.as_deref(), allowed)?;
        if self.email_or_phone_taken(Some(&email), None).await? {
            return Err(field_error(ErrorCode::UserExists, "email", Reason::Taken));
        }
        self.check_send(&email, client).await?;
        let new = NewUser {
            email: Some(email.clone()),
            phone: None,
            password: s.password,
            role: Role::Player,
            currency,
            first_name: String::new(),
            last_name: String::new(),
            registered_via: "email",
        };
        let lang = Self::lang_or_default(s.lang.as_deref().or(client.lang.as_deref()));
        self.insert_user(&new, false, &lang, s.promocode.as_deref(), s.ref_id.as_deref(), Some(&email)).await
    }

    /// Stores the hash of an e-mailed secret (verification link or restore code) on `conn`.
    async fn insert_email_token(conn: &mut AnyConnection, purpose: &str, secret: &str, user_id: i64, email: &str, expires_at: i64) -> Result<(), AppError> {
        sqlx::query(
            "INSERT INTO email_tokens (id, purpose, token_hash, user_id, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(next_id())
        .bind(purpose)
        .bind(sha256_hex(secret))
        .bind(user_id)
        .bind(email)
        .bind(now_ms())
        .bind(expires_at)
        .execute(&mut *conn)
        .await
        .map_err(db_err)?;
        Ok(())
    }

    /// Writes a message to the outbox on `conn` (the caller's transaction).
    async fn enqueue(conn: &mut AnyConnection, m: &Message, expires_at: Option<i64>) -> Result<(), AppError> {
        notify::enqueue(conn, m, expires_at).await.map_err(db_err)?;
        Ok(())
    }

    /// Rate limit of SMS and e-mail sends per address and per IP (code 14).
    async fn check_send(&self, address: &str, client: &Client) -> Result<(), AppError> {
        self.limits.check_send(address, &client.ip).await.map_err(limit_error)
    }

    /// A verification token for `email` and its e-mail, on `conn`.
    /// In the player's language `lang`.
    async fn write_verification(&self, conn: &mut AnyConnection, user_id: i64, email: &str, lang: &str) -> Result<(), AppError> {
        let token = random_token();
        let expires_at = now_ms() + self.cfg.email_verify_ttl_ms;
        Self::insert_email_token(conn, "verify", &token, user_id, email, expires_at).await?;
        let link = format!("{}/verify?code={token}", self.cfg.public_url.trim_end_matches('/'));
        let (subject, text) = messages::verify_email(lang, &link);
        let message = Message {
            channel: Channel::Email,
            to: email.to_string(),
            subject,
            text,
            code: None,
            link: Some(link),
        };
        Self::enqueue(conn, &message, Some(expires_at)).await
    }

    /// A fresh verification link for an existing user (token and e-mail in one transaction).
    async fn send_verification(&self, user: &User, email: &str) -> Result<(), AppError> {
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        self.write_verification(&mut tx, user.id, email, &user.lang).await?;
        tx.commit().await.map_err(db_err)?;
        self.outbox_wake.notify_one();
        Ok(())
    }

    /// `email/verify/{code}`: 6 invalid key, 7 expired, 8 already verified.
    pub async fn verify_email(&self, code: &str) -> Result<User, AppError> {
        let code = code.trim();
        if code.is_empty() || code.len() > 128 {
            return Err(ErrorCode::InvalidVerificationKey.into());
        }
        let row = sqlx::query(
            "SELECT t.id, t.user_id, t.expires_at, t.used_at, u.email_verified_at FROM email_tokens t JOIN users u ON u.id = t.user_id \
             WHERE t.token_hash = $1 AND t.purpose = 'verify'",
        )
        .bind(sha256_hex(code))
        .fetch_optional(self.db.writer())
        .await
        .map_err(db_err)?
        .ok_or(ErrorCode::InvalidVerificationKey)?;
        let (token_id, user_id, expires_at): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        let (used_at, verified_at): (Option<i64>, Option<i64>) = (row.get(3), row.get(4));
        if used_at.is_some() || verified_at.is_some() {
            return Err(ErrorCode::AlreadyVerified.into());
        }
        if expires_at <= now_ms() {
            return Err(ErrorCode::VerificationKeyExpired.into());
        }
        let now = now_ms();
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        let updated = sqlx::query("UPDATE email_tokens SET used_at = $1 WHERE id = $2 AND used_at IS NULL")
            .bind(now)
            .bind(token_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        if updated.rows_affected() == 0 {
            return Err(ErrorCode::AlreadyVerified.into());
        }
        sqlx::query("UPDATE users SET email_verified_at = $1, updated_at = $1 WHERE id = $2 AND email_verified_at IS NULL")
            .bind(now)
            .bind(user_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        self.user_by_id(user_id).await?.ok_or(ErrorCode::InvalidVerificationKey.into())
    }

    /// Checks the `phone/code` hash: lowercase hex SHA-256 of the phone string as sent
    /// followed by the public salt.
    pub fn phone_hash_ok(&self, phone: &str, hash: &str) -> bool {
        ct_eq(&sha256_hex(&format!("{phone}{}", self.cfg.phone_code_salt)), &hash.trim().to_ascii_lowercase())
    }

    /// Takes one SMS from the phone's quota for the current UTC day, atomically: the
    /// conditional upsert returns no row when the quota is used up.
    async fn take_sms_quota(&self, phone: &str) -> Result<bool, AppError> {
        let row = sqlx::query(
            "INSERT INTO sms_quota (phone, day, count) VALUES ($1, $2, 1) \
             ON CONFLICT (phone, day) DO UPDATE SET count = sms_quota.count + 1 WHERE sms_quota.count < $3 \
             RETURNING count",
        )
        .bind(phone)
        .bind(now_ms() / DAY_MS)
        .bind(self.cfg.sms_daily_limit_per_phone)
        .fetch_optional(self.db.writer())
        .await
        .map_err(db_err)?;
        Ok(row.is_some() && self.cfg.sms_daily_limit_per_phone > 0)
    }

    /// Issues a 6-digit SMS code for `purpose` and sends it; returns the request id. The
    /// code and its SMS are written in one transaction (with the retirement of the older
    /// codes of this phone and purpose: only the newest is live).
    /// The SMS is in `lang` (the player's, or the request's for a sign-up).
    async fn issue_phone_code(&self, phone: &str, purpose: &str, lang: &str, client: &Client) -> Result<i64, AppError> {
        self.check_send(phone, client).await?;
        if !self.take_sms_quota(phone).await? {
            return Err(ErrorCode::SmsDailyLimit.into());
        }
        let code = random_digits(6);
        let id = next_id();
        let now = now_ms();
        let expires_at = now + self.cfg.phone_code_ttl_ms;
        let what = if purpose == "signup" { messages::CodePurpose::Signup } else { messages::CodePurpose::Restore };
        let message = Message {
            channel: Channel::Sms,
            to: phone.to_string(),
            subject: String::new(),
            text: messages::phone_code(lang, what, &code),
            code: Some(code.clone()),
            link: None,
        };
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        sqlx::query("UPDATE phone_codes SET used_at = $1 WHERE phone = $2 AND purpose = $3 AND used_at IS NULL")
            .bind(now)
            .bind(phone)
            .bind(purpose)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        sqlx::query(
            "INSERT INTO phone_codes (id, phone, purpose, code_hash, attempts, created_at, expires_at, ip) VALUES ($1, $2, $3, $4, 0, $5, $6, $7)",
        )
        .bind(id)
        .bind(phone)
        .bind(purpose)
        .bind(sha256_hex(&format!("{id}:{code}")))
        .bind(now)
        .bind(expires_at)
        .bind(&client.ip)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        Self::enqueue(&mut tx, &message, Some(expires_at)).await?;
        tx.commit().await.map_err(db_err)?;
        self.outbox_wake.notify_one();
        Ok(id)
    }

    /// `phone/code {phone, hash}`: sends a sign-up code. Returns `(phone, request id)`.
    pub async fn request_signup_code(&self, phone_raw: &str, hash: &str, client: &Client) -> Result<(String, i64), AppError> {
        if !self.cfg.signup.phone {
            return Err(ErrorCode::SignupMethodDisabled.into());
        }
        if !self.phone_hash_ok(phone_raw, hash) {
            return Err(ErrorCode::PhoneHashInvalid.into());
        }
        let phone = validate::normalize_phone(phone_raw).ok_or_else(|| field_error(ErrorCode::PhoneInvalid, "phone", Reason::Invalid))?;
        if self.email_or_phone_taken(None, Some(&phone)).await? {
            return Err(field_error(ErrorCode::UserExists, "phone", Reason::Taken));
        }
        let lang = client.lang.clone().unwrap_or_else(|| "en".into());
        let id = self.issue_phone_code(&phone, "signup", &lang, client).await?;
        Ok((phone, id))
    }

    /// Checks a code against the newest code of `purpose` for the phone and uses it up.
    /// Errors: `missing` when there is none (or it was used), `mismatch` when it does not
    /// match or its attempts are spent, 12/10 when expired. Every guess takes an attempt
    /// with a conditional update *before* the comparison, so parallel guesses cannot try
    /// more than the allowed number. Every refusal names the field `code`; a mismatch
    /// also carries `attemptsLeft` (0: a new code must be sent).
    async fn consume_phone_code(&self, phone: &str, purpose: &str, code: &str, missing: ErrorCode, mismatch: ErrorCode) -> Result<(), AppError> {
        let row = sqlx::query(
            "SELECT id, code_hash, expires_at, used_at FROM phone_codes WHERE phone = $1 AND purpose = $2 \
             ORDER BY created_at DESC, id DESC LIMIT 1",
        )
        .bind(phone)
        .bind(purpose)
        .fetch_optional(self.db.writer())
        .await
        .map_err(db_err)?
        .ok_or_else(|| field_error(missing, "code", Reason::CodeExpired))?;
        let (id, code_hash, expires_at, used_at): (i64, String, i64, Option<i64>) = (row.get(0), row.get(1), row.get(2), row.get(3));
        if used_at.is_some() {
            return Err(field_error(missing, "code", Reason::CodeExpired));
        }
        if expires_at <= now_ms() {
            let code = if purpose == "signup" { ErrorCode::SmsCodeInvalid } else { ErrorCode::RecoveryExpired };
            return Err(field_error(code, "code", Reason::CodeExpired));
        }
        let max = self.cfg.phone_code_max_attempts;
        let mismatch_left = |left: i64| {
            let data = serde_json::json!({ "field": "code", "reason": Reason::CodeMismatch.code(), "attemptsLeft": left.max(0) });
            AppError::new(mismatch).data(data)
        };
        let attempt = sqlx::query("UPDATE phone_codes SET attempts = attempts + 1 WHERE id = $1 AND used_at IS NULL AND attempts < $2 RETURNING attempts")
            .bind(id)
            .bind(max)
            .fetch_optional(self.db.writer())
            .await
            .map_err(db_err)?;
        let Some(attempt) = attempt else {
            return Err(mismatch_left(0));
        };
        let attempts: i64 = attempt.get(0);
        if !ct_eq(&sha256_hex(&format!("{id}:{}", code.trim())), &code_hash) {
            return Err(mismatch_left(max - attempts));
        }
        let used = sqlx::query("UPDATE phone_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL")
            .bind(now_ms())
            .bind(id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        if used.rows_affected() == 0 {
            return Err(field_error(missing, "code", Reason::CodeExpired));
        }
        Ok(())
    }

    /// Phone sign-up: the SMS code must match; success signs in.
    pub async fn signup_phone(&self, s: PhoneSignup, allowed: &[Currency], client: &Client) -> Result<SignedIn, AppError> {
        if !self.cfg.signup.phone {
            return Err(ErrorCode::SignupMethodDisabled.into());
        }
        let phone = validate::normalize_phone(&s.phone).ok_or_else(|| field_error(ErrorCode::PhoneInvalid, "phone", Reason::Invalid))?;
        if !validate::password_is_strong(&s.password) {
            return Err(field_error(ErrorCode::WeakPassword, "password", Reason::Weak));
        }
        let currency = Self::currency_for_signup(s.currency.as_deref(), allowed)?;
        if self.email_or_phone_taken(None, Some(&phone)).await? {
            return Err(field_error(ErrorCode::UserExists, "phone", Reason::Taken));
        }
        self.consume_phone_code(&phone, "signup", &s.code, ErrorCode::SmsCodeInvalid, ErrorCode::SmsCodeInvalid).await?;
        let new = NewUser {
            email: None,
            phone: Some(phone),
            password: s.password,
            role: Role::Player,
            currency,
            first_name: String::new(),
            last_name: String::new(),
            registered_via: "phone",
        };
        let lang = Self::lang_or_default(s.lang.as_deref().or(client.lang.as_deref()));
        let user = self.insert_user(&new, true, &lang, s.promocode.as_deref(), s.ref_id.as_deref(), None).await?;
        self.start_session(user, client, false).await
    }

    /// One-click registration: a generated e-mail login and password, returned once.
    pub async fn signup_one_click(
        &self,
        currency: Option<&str>,
        lang: Option<&str>,
        promocode: Option<&str>,
        allowed: &[Currency],
        client: &Client,
    ) -> Result<(SignedIn, String), AppError> {
        if !self.cfg.signup.one_click {
            return Err(ErrorCode::SignupMethodDisabled.into());
        }
        let currency = Self::currency_for_signup(currency, allowed)?;
        let password = generate_password();
        let lang = Self::lang_or_default(lang.or(client.lang.as_deref()));
        let mut attempt = 0;
        let user = loop {
            let email = format!("p{}@{}", random_digits(10), self.cfg.one_click_domain);
            let new = NewUser {
                email: Some(email),
                phone: None,
                password: password.clone(),
                role: Role::Player,
                currency,
                first_name: String::new(),
                last_name: String::new(),
                registered_via: "one_click",
            };
            match self.insert_user(&new, true, &lang, promocode, None, None).await {
                // The generated address is taken (1 in 10^10 per account): draw another.
                Err(e) if e.code == ErrorCode::UserExists && attempt < 5 => attempt += 1,
                other => break other?,
            }
        };
        Ok((self.start_session(user, client, false).await?, password))
    }

    // ---------------------------------------------------------------- sign-in

    /// The password check shared by the player's and the staff's sign-in: the login's
    /// form, the attempt's rate-limit cells, the account and its password. Settles the
    /// attempt when it fails; on success the caller settles it (the staff sign-in still has
    /// a code to check). Errors: 2, 3, 4, 14, 16.
    pub(crate) async fn check_password(
        &self,
        kind: LoginKind,
        login: &str,
        password: &str,
        client: &Client,
    ) -> Result<(User, limits::Attempt), AppError> {
        let login = login.trim();
        let as_phone = match kind {
            LoginKind::Phone => true,
            LoginKind::Email => false,
            LoginKind::Universal => validate::login_is_phone(login),
        };
        // The wire name of the login field of each sign-in form.
        let field = match kind {
            LoginKind::Email => "email",
            LoginKind::Phone => "phone",
            LoginKind::Universal => "login",
        };
        let invalid_login = || field_error(ErrorCode::InvalidLogin, field, Reason::Invalid);
        let (column, value) = if as_phone {
            ("phone", validate::normalize_phone(login).ok_or_else(invalid_login)?)
        } else {
            ("email", validate::normalize_email(login).ok_or_else(invalid_login)?)
        };
        let wrong_password = || field_error(ErrorCode::IncorrectPassword, "password", Reason::Wrong);
        if password.is_empty() || password.len() > 128 {
            return Err(wrong_password());
        }
        // The attempt takes its cells (account, IP, probe) before anything is looked up or
        // checked: two instances racing cannot both use the last try (limits.rs).
        let attempt = self.limits.begin_sign_in(&value, &client.ip).await.map_err(limit_error)?;
        let Some((user, hash)) = self.user_with_hash(column, &value).await? else {
            // An unknown account: a probe (the IP's probe cell stays taken).
            self.limits.settle(attempt, Outcome::Missing).await.map_err(db_err)?;
            tracing::debug!(code = ErrorCode::NoSuchUser.code(), "sign-in for an unknown account");
            return Err(field_error(ErrorCode::NoSuchUser, field, Reason::Unknown));
        };
        if !password::verify(password.to_string(), hash).await {
            let delay = self.limits.settle(attempt, Outcome::WrongPassword).await.map_err(db_err)?;
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            return Err(wrong_password());
        }
        Ok((user, attempt))
    }

    /// Sign-in. Errors: 2 malformed login, 3 no such user, 4 wrong password, 5 banned,
    /// 11 e-mail not verified, 16 account locked, 14 too many failures from this IP.
    pub async fn login(&self, kind: LoginKind, login: &str, password: &str, client: &Client) -> Result<SignedIn, AppError> {
        let (user, attempt) = self.check_password(kind, login, password, client).await?;
        self.limits.settle(attempt, Outcome::RightPassword).await.map_err(db_err)?;
        if user.is_banned {
            self.revoke_all_sessions(user.id, None).await?;
            return Err(ErrorCode::UserBanned.into());
        }
        // Self-exclusion and cool-off (responsible gambling): no sign-in until they end.
        kernel::errors::rg_block(user.self_excluded_until, user.cool_off_until, now_ms())?;
        if user.registered_via == "email" && !user.email_verified {
            // The right password on an unverified account: send a fresh link (the first
            // may be lost), within the per-address send limit.
            if let Some(email) = user.email.clone().filter(|_| self.cfg.channels.email) {
                if self.check_send(&email, client).await.is_ok() {
                    if let Err(e) = self.send_verification(&user, &email).await {
                        tracing::warn!(user = user.id, error = %e.text(), "could not resend the verification link");
                    }
                }
            }
            return Err(ErrorCode::NotVerified.into());
        }
        self.start_session(user, client, false).await
    }

    // ---------------------------------------------------------------- sessions

    /// A new session; `second_factor` for the console's (the staff's shorter lifetimes).
    async fn start_session(&self, user: User, client: &Client, second_factor: bool) -> Result<SignedIn, AppError> {
        let token = random_token();
        let now = now_ms();
        let (idle_ms, absolute_ms) = if second_factor {
            (self.cfg.staff_session_idle_ms, self.cfg.staff_session_absolute_ms)
        } else {
            (self.cfg.session_idle_ms, self.cfg.session_absolute_ms)
        };
        let absolute = now + absolute_ms;
        let idle = (now + idle_ms).min(absolute);
        sqlx::query(
            "INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at, ip, user_agent, second_factor) \
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9)",
        )
        .bind(next_id())
        .bind(sha256_hex(&token))
        .bind(user.id)
        .bind(now)
        .bind(idle)
        .bind(absolute)
        .bind(&client.ip)
        .bind(client.user_agent.chars().take(300).collect::<String>())
        .bind(i32::from(second_factor))
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        Ok(SignedIn { user, token, expires_at: absolute })
    }

    /// The user behind a session token. Errors: 23 no live session; 5 banned (the
    /// user's sessions are ended).
    pub async fn authenticate(&self, token: &str) -> Result<User, AppError> {
        Ok(self.authenticate_session(token).await?.0)
    }

    /// [`Accounts::authenticate`] with the id of the session (what a game launch records:
    /// its game session ends with this one).
    pub async fn authenticate_session(&self, token: &str) -> Result<(User, i64), AppError> {
        let (user, rows) = self.authenticate_joined(token, &SessionJoin::NONE).await?;
        let session_id = rows.first().map(|r| r.get::<i64, _>(26)).ok_or(ErrorCode::NotAuthenticated)?;
        Ok((user, session_id))
    }

    /// [`Accounts::authenticate`] that also brings back, in the same query, the rows of
    /// a read model joined on the user (`u`), e.g. the wallet's balances for the balance
    /// poll. The joined columns start at [`SessionJoin::FIRST_COLUMN`]; there is one row
    /// per joined row (at least one with a LEFT JOIN).
    pub async fn authenticate_joined(&self, token: &str, join: &SessionJoin) -> Result<(User, Vec<AnyRow>), AppError> {
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ErrorCode::NotAuthenticated.into());
        }
        let now = now_ms();
        let cols = USER_COLUMNS.split(", ").map(|c| format!("u.{c}")).collect::<Vec<_>>().join(", ");
        let extra = if join.columns.is_empty() { String::new() } else { format!(", {}", join.columns) };
        let rows = sqlx::query(&format!(
            "SELECT {cols}, s.id, s.last_seen_at, s.absolute_expires_at{extra} FROM sessions s JOIN users u ON u.id = s.user_id {} \
             WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.idle_expires_at > $2 AND s.absolute_expires_at > $2",
            join.join
        ))
        .bind(sha256_hex(token))
        .bind(now)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let row = rows.first().ok_or(ErrorCode::NotAuthenticated)?;
        let user = user_from_row(row);
        let (session_id, last_seen, absolute): (i64, i64, i64) = (row.get(26), row.get(27), row.get(28));
        if user.is_banned {
            self.revoke_all_sessions(user.id, None).await?;
            return Err(ErrorCode::UserBanned.into());
        }
        if let Err(e) = kernel::errors::rg_block(user.self_excluded_until, user.cool_off_until, now) {
            // Taken elsewhere (the sessions were ended then): end any session left over.
            self.revoke_all_sessions(user.id, None).await?;
            return Err(e);
        }
        // Sliding idle expiry, written at most once a minute per session (balance polls
        // every 15 s must not turn into writes).
        if now - last_seen > MINUTE_MS {
            sqlx::query("UPDATE sessions SET last_seen_at = $1, idle_expires_at = $2 WHERE id = $3")
                .bind(now)
                .bind((now + self.cfg.session_idle_ms).min(absolute))
                .bind(session_id)
                .execute(self.db.writer())
                .await
                .map_err(db_err)?;
        }
        Ok((user, rows))
    }

    /// The user of a session that was live until this moment (used to answer a banned
    /// player's balance poll with `isBanned` right after their sessions were ended).
    pub async fn session_user_even_if_revoked(&self, token: &str) -> Result<Option<User>, AppError> {
        let row = sqlx::query("SELECT user_id FROM sessions WHERE token_hash = $1 AND absolute_expires_at > $2")
            .bind(sha256_hex(token))
            .bind(now_ms())
            .fetch_optional(self.db.writer())
            .await
            .map_err(db_err)?;
        match row {
            Some(r) => self.user_by_id(r.get(0)).await,
            None => Ok(None),
        }
    }

    pub async fn logout(&self, token: &str) -> Result<(), AppError> {
        sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL")
            .bind(now_ms())
            .bind(sha256_hex(token))
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// Ends every session of a user, except `keep` (a token's session) if given. Game
    /// sessions launched from an ended session stop taking stakes with it (they follow
    /// their player session); when every session ends, [`SessionsEnded`] is told.
    pub async fn revoke_all_sessions(&self, user_id: i64, keep_token: Option<&str>) -> Result<(), AppError> {
        let keep = keep_token.map(sha256_hex).unwrap_or_default();
        sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL AND token_hash <> $3")
            .bind(now_ms())
            .bind(user_id)
            .bind(keep)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        if keep_token.is_none() {
            self.all_sessions_ended(user_id).await?;
        }
        Ok(())
    }

    /// Looks an account up for a recovery, within the unknown-account quota of the client's
    /// IP: refused (14) while the IP is over it, whatever the account; a miss keeps the cell
    /// it took from the quota. (A sign-in takes its probe cell with its other cells.)
    async fn lookup(&self, column: &str, value: &str, missing: ErrorCode, client: &Client) -> Result<Option<(User, String)>, AppError> {
        let attempt = self.limits.begin_lookup(&client.ip).await.map_err(limit_error)?;
        let found = self.user_with_hash(column, value).await?;
        if found.is_none() {
            tracing::debug!(code = missing.code(), "recovery for an unknown account");
        }
        let outcome = if found.is_some() { Outcome::Found } else { Outcome::Missing };
        self.limits.settle(attempt, outcome).await.map_err(db_err)?;
        Ok(found)
    }

    // ---------------------------------------------------------------- passwords

    async fn set_password(&self, user_id: i64, new_password: &str) -> Result<(), AppError> {
        let hash = password::hash(new_password.to_string(), self.cfg.hash).await.map_err(AppError::internal)?;
        sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
            .bind(hash)
            .bind(now_ms())
            .bind(user_id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// `password/change`: 4 when the current password is wrong, 231 when weak. Other
    /// sessions end; the current one stays.
    pub async fn change_password(&self, user: &User, current_token: &str, password: &str, new_password: &str) -> Result<(), AppError> {
        let row = sqlx::query("SELECT password_hash FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        let hash: String = row.get(0);
        self.finish_change(user.id, current_token, &hash, password, new_password).await
    }

    async fn finish_change(&self, user_id: i64, current_token: &str, hash: &str, password: &str, new_password: &str) -> Result<(), AppError> {
        if password.len() > 128 || !password::verify(password.to_string(), hash.to_string()).await {
            return Err(field_error(ErrorCode::IncorrectPassword, "password", Reason::Wrong));
        }
        if !validate::password_is_strong(new_password) {
            return Err(field_error(ErrorCode::WeakPassword, "new_password", Reason::Weak));
        }
        self.set_password(user_id, new_password).await?;
        self.revoke_all_sessions(user_id, Some(current_token)).await
    }

    /// `password/restore {email}`: e-mails a restore code (21 when no such user).
    pub async fn restore_by_email(&self, email_raw: &str, client: &Client) -> Result<String, AppError> {
        if !self.cfg.channels.email {
            return Err(ErrorCode::RecoveryMethodUnavailable.into());
        }
        let email = validate::normalize_email(email_raw).ok_or_else(|| field_error(ErrorCode::EmailInvalid, "email", Reason::Invalid))?;
        let (user, _) = self
            .lookup("email", &email, ErrorCode::EmailUserMissing, client)
            .await?
            .ok_or_else(|| field_error(ErrorCode::EmailUserMissing, "email", Reason::Unknown))?;
        self.check_send(&email, client).await?;
        let code = random_restore_code();
        let expires_at = now_ms() + self.cfg.restore_ttl_ms;
        let (subject, text) = messages::restore_email(&Self::message_lang(&user, client), &code);
        let message = Message {
            channel: Channel::Email,
            to: email.clone(),
            subject,
            text,
            code: Some(code.clone()),
            link: None,
        };
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        Self::insert_email_token(&mut tx, "restore", &code, user.id, &email, expires_at).await?;
        Self::enqueue(&mut tx, &message, Some(expires_at)).await?;
        tx.commit().await.map_err(db_err)?;
        self.outbox_wake.notify_one();
        Ok(email)
    }

    /// `password/restore/new {code, new_password}`: 9 unknown or used code, 10 expired,
    /// 231 weak. Every session of the user ends.
    pub async fn restore_email_new(&self, code: &str, new_password: &str) -> Result<(), AppError> {
        let code = code.trim().to_ascii_uppercase();
        let not_found = || field_error(ErrorCode::RecoveryNotFound, "code", Reason::CodeMismatch);
        if code.is_empty() || code.len() > 64 {
            return Err(not_found());
        }
        let row = sqlx::query("SELECT id, user_id, expires_at, used_at FROM email_tokens WHERE token_hash = $1 AND purpose = 'restore'")
            .bind(sha256_hex(&code))
            .fetch_optional(self.db.writer())
            .await
            .map_err(db_err)?
            .ok_or_else(not_found)?;
        let (id, user_id, expires_at, used_at): (i64, i64, i64, Option<i64>) = (row.get(0), row.get(1), row.get(2), row.get(3));
        if used_at.is_some() {
            return Err(field_error(ErrorCode::RecoveryNotFound, "code", Reason::CodeExpired));
        }
        if expires_at <= now_ms() {
            return Err(field_error(ErrorCode::RecoveryExpired, "code", Reason::CodeExpired));
        }
        if !validate::password_is_strong(new_password) {
            return Err(field_error(ErrorCode::WeakPassword, "new_password", Reason::Weak));
        }
        let used = sqlx::query("UPDATE email_tokens SET used_at = $1 WHERE id = $2 AND used_at IS NULL")
            .bind(now_ms())
            .bind(id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        if used.rows_affected() == 0 {
            return Err(field_error(ErrorCode::RecoveryNotFound, "code", Reason::CodeExpired));
        }
        // Every other outstanding recovery code of the account dies with this one.
        sqlx::query("UPDATE email_tokens SET used_at = $1 WHERE user_id = $2 AND purpose = 'restore' AND used_at IS NULL")
            .bind(now_ms())
            .bind(user_id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        self.set_password(user_id, new_password).await?;
        self.revoke_all_sessions(user_id, None).await
    }

    /// `password/restore/phone {phone}`: SMS code; returns `(user_phone, request_id)`.
    pub async fn restore_by_phone(&self, phone_raw: &str, client: &Client) -> Result<(String, i64), AppError> {
        if !self.cfg.channels.sms {
            return Err(ErrorCode::RecoveryMethodUnavailable.into());
        }
        let phone = validate::normalize_phone(phone_raw).ok_or_else(|| field_error(ErrorCode::PhoneInvalid, "phone", Reason::Invalid))?;
        let (user, _) = self
            .lookup("phone", &phone, ErrorCode::PhoneUserMissing, client)
            .await?
            .ok_or_else(|| field_error(ErrorCode::PhoneUserMissing, "phone", Reason::Unknown))?;
        let lang = Self::message_lang(&user, client);
        let id = self.issue_phone_code(&phone, "restore", &lang, client).await?;
        Ok((phone, id))
    }

    /// `password/restore/phone/new {phone, new_password, code}`: 101 no request for this
    /// phone, 102 code mismatch (with `attemptsLeft`), 10 expired, 231 weak.
    pub async fn restore_phone_new(&self, phone_raw: &str, code: &str, new_password: &str, client: &Client) -> Result<(), AppError> {
        let phone = validate::normalize_phone(phone_raw).ok_or_else(|| field_error(ErrorCode::PhoneInvalid, "phone", Reason::Invalid))?;
        if !validate::password_is_strong(new_password) {
            return Err(field_error(ErrorCode::WeakPassword, "new_password", Reason::Weak));
        }
        let (user, _) = self
            .lookup("phone", &phone, ErrorCode::PhoneUserMissing, client)
            .await?
            .ok_or_else(|| field_error(ErrorCode::PhoneUserMissing, "phone", Reason::Unknown))?;
        self.consume_phone_code(&phone, "restore", code, ErrorCode::RecoveryPhoneNotFound, ErrorCode::RecoveryCodeMismatch).await?;
        self.set_password(user.id, new_password).await?;
        self.revoke_all_sessions(user.id, None).await
    }

    // ---------------------------------------------------------------- profile

    pub async fn update_profile(&self, user: &User, u: ProfileUpdate) -> Result<User, AppError> {
        // Refusals name the field by its wire name (`gander`: the spec's spelling; the HTTP
        // layer renames it when the client sent `gender`).
        let invalid = |field: &str, why: Reason| field_error(ErrorCode::InvalidField, field, why);
        let text = |field: &str, v: &Option<String>, current: &str, max: usize| -> Result<String, AppError> {
            match v {
                None => Ok(current.to_string()),
                Some(s) => validate::clean_text(s, max).map_err(|why| invalid(field, why)),
            }
        };
        let first = text("first_name", &u.first_name, &user.first_name, 64)?;
        let last = text("last_name", &u.last_name, &user.last_name, 64)?;
        let middle = text("middle_name", &u.middle_name, &user.middle_name, 64)?;
        let document = match &u.number_document {
            None => user.number_document.clone(),
            Some(s) => {
                // At most 32 characters: letters, digits, spaces and dashes.
                let s = validate::clean_text(s, 32).map_err(|why| invalid("number_document", why))?;
                if !s.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-') {
                    return Err(invalid("number_document", Reason::BadCharacters));
                }
                (!s.is_empty()).then_some(s)
            }
        };
        let birth = match &u.birth_date {
            None => user.birth_date.clone(),
            Some(s) if s.trim().is_empty() => None,
            Some(s) => {
                let today = time::OffsetDateTime::now_utc().date();
                Some(validate::normalize_birth_date(s, today).map_err(|why| invalid("birth_date", why))?)
            }
        };
        let gender = match &u.gender {
            None => user.gender.clone(),
            Some(s) => validate::normalize_gender(s).map_err(|why| invalid("gander", why))?,
        };
        let phone = match u.phone.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => user.phone.clone(),
            Some(p) => {
                let p = validate::normalize_phone(p).ok_or_else(|| field_error(ErrorCode::PhoneInvalid, "phone", Reason::Invalid))?;
                match &user.phone {
                    Some(current) if *current == p => Some(p),
                    // A phone is a login and a recovery channel: it is set once here and
                    // changed only through support.
                    Some(_) => return Err(invalid("phone", Reason::CannotChange)),
                    None => {
                        if self.email_or_phone_taken(None, Some(&p)).await? {
                            return Err(field_error(ErrorCode::UserExists, "phone", Reason::Taken));
                        }
                        Some(p)
                    }
                }
            }
        };
        let res = sqlx::query(
            "UPDATE users SET first_name = $1, last_name = $2, middle_name = $3, number_document = $4, birth_date = $5, \
             gender = $6, phone = $7, updated_at = $8 WHERE id = $9",
        )
        .bind(first)
        .bind(last)
        .bind(middle)
        .bind(document)
        .bind(birth)
        .bind(gender)
        .bind(phone)
        .bind(now_ms())
        .bind(user.id)
        .execute(self.db.writer())
        .await;
        match res {
            Ok(_) => {}
            Err(e) if store::is_unique_violation(&e) => return Err(field_error(ErrorCode::UserExists, "phone", Reason::Taken)),
            Err(e) => return Err(db_err(e)),
        }
        self.user_by_id(user.id).await?.ok_or(ErrorCode::NoSuchUser.into())
    }

    pub async fn set_language(&self, user_id: i64, lang: &str) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET lang = $1, updated_at = $2 WHERE id = $3")
            .bind(lang)
            .bind(now_ms())
            .bind(user_id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }
}

fn limit_error(e: LimitError) -> AppError {
    match e {
        LimitError::Refused(Refusal::AccountLocked(w)) => AppError::new(ErrorCode::LoginLocked).data(retry_data(w)),
        LimitError::Refused(Refusal::IpLimited(w)) => AppError::new(ErrorCode::RateLimited).data(retry_data(w)),
        LimitError::Db(e) => db_err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_passwords_are_strong() {
        for _ in 0..200 {
            let p = generate_password();
            assert_eq!(p.len(), 10);
            assert!(validate::password_is_strong(&p), "{p}");
        }
    }

    #[test]
    fn phone_hash_is_sha256_of_phone_and_salt() {
        // Computed independently: printf 21612345678salt | sha256sum
        assert_eq!(sha256_hex("21612345678salt"), "7347c7e1abcbf037a4b95594f1db8391cfcc52d8e62a6cf639718b48e649d0cc");
    }

    #[test]
    fn codes_have_the_right_shape() {
        assert_eq!(random_digits(6).len(), 6);
        assert!(random_restore_code().chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()));
        assert_eq!(random_token().len(), 64);
    }
}
