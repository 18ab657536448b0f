//! Configuration from the environment, with defaults that make `make run` work.

use accounts::password::HashParams;
use accounts::AccountsConfig;
use std::net::SocketAddr;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Demo features on: message outbox at `/api/dev/outbox`, seeded demo accounts.
    Demo,
    /// Every demo feature off; real SMTP and SMS transports.
    Production,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub mode: Mode,
    pub database_url: String,
    pub bind: SocketAddr,
    pub public_url: String,
    pub web_dir: std::path::PathBuf,
    /// Answer `Secure` cookies (on by default in production).
    pub secure_cookies: bool,
    /// Trust `X-Forwarded-For` for the client IP (only behind our own proxy).
    pub trust_proxy: bool,
    /// Extra origins allowed to send state-changing requests (CSRF check).
    pub allowed_origins: Vec<String>,
    pub max_body_bytes: usize,
    /// PostgreSQL pool size (SQLite: reader connections, at most 8).
    pub db_max_connections: u32,
    pub json_logs: bool,
    pub accounts: AccountsConfig,
    /// The largest amount one posting may move and the largest a balance may reach
    /// (`LEDGER_MAX_AMOUNT`, `LEDGER_MAX_BALANCE`, in major units).
    pub ledger_limits: wallet::LedgerLimits,
}

fn var(key: &str) -> Option<String> {
    std::env::var(key).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

fn parse_var<T: std::str::FromStr>(key: &str) -> anyhow::Result<Option<T>> {
    match var(key) {
        None => Ok(None),
        Some(v) => v.parse::<T>().map(Some).map_err(|_| anyhow::anyhow!("{key}: invalid value {v:?}")),
    }
}

impl Config {
    pub fn from_env() -> anyhow::Result<Config> {
        let mode = match var("CARTHAGE_MODE").as_deref() {
            None | Some("production") | Some("prod") => Mode::Production,
            Some("demo") => Mode::Demo,
            Some(other) => anyhow::bail!("CARTHAGE_MODE must be demo or production, not {other:?}"),
        };
        let bind: SocketAddr = parse_var("BIND")?.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080)));
        let public_url = var("PUBLIC_URL").unwrap_or_else(|| format!("http://{bind}"));
        let mut accounts = AccountsConfig { public_url: public_url.clone(), ..AccountsConfig::default() };
        if let Some(salt) = var("PHONE_CODE_SALT") {
            accounts.phone_code_salt = salt;
        } else if mode == Mode::Production {
            anyhow::bail!("PHONE_CODE_SALT must be set in production");
        }
        accounts.special_user_id = parse_var("SPECIAL_USER_ID")?;
        if let Some(n) = parse_var("SMS_DAILY_LIMIT")? {
            accounts.sms_daily_limit_per_phone = n;
        }
        // A demo credit for every sign-up exists only in demo mode; production refuses the setting.
        accounts.demo_credit_major = match mode {
            Mode::Demo => Some(parse_var("DEMO_CREDIT")?.unwrap_or(500)),
            Mode::Production => {
                if var("DEMO_CREDIT").is_some() {
                    anyhow::bail!("DEMO_CREDIT is a demo-mode setting; production never credits sign-ups");
                }
                None
            }
        };
        accounts.hash = HashParams {
            memory_kib: parse_var("ARGON2_MEMORY_KIB")?.unwrap_or(accounts.hash.memory_kib),
            iterations: parse_var("ARGON2_ITERATIONS")?.unwrap_or(accounts.hash.iterations),
            parallelism: 1,
        };
        let defaults = wallet::LedgerLimits::default();
        let ledger_limits = wallet::LedgerLimits {
            max_amount_major: parse_var("LEDGER_MAX_AMOUNT")?.unwrap_or(defaults.max_amount_major),
            max_balance_major: parse_var("LEDGER_MAX_BALANCE")?.unwrap_or(defaults.max_balance_major),
        };
        ledger_limits.validate().map_err(|e| anyhow::anyhow!("LEDGER_MAX_AMOUNT / LEDGER_MAX_BALANCE: {e}"))?;
        Ok(Config {
            mode,
            database_url: var("DATABASE_URL").unwrap_or_else(|| "sqlite://data/carthage.db".into()),
            bind,
            public_url,
            web_dir: var("WEB_DIR").unwrap_or_else(|| "web/dist".into()).into(),
            secure_cookies: parse_var("SECURE_COOKIES")?.unwrap_or(mode == Mode::Production),
            trust_proxy: parse_var("TRUST_PROXY")?.unwrap_or(false),
            allowed_origins: var("ALLOWED_ORIGINS")
                .map(|v| v.split(',').map(|s| s.trim().trim_end_matches('/').to_string()).filter(|s| !s.is_empty()).collect())
                .unwrap_or_default(),
            max_body_bytes: parse_var("MAX_BODY_BYTES")?.unwrap_or(64 * 1024),
            db_max_connections: parse_var("DATABASE_MAX_CONNECTIONS")?.unwrap_or(16),
            json_logs: parse_var("JSON_LOGS")?.unwrap_or(mode == Mode::Production),
            accounts,
            ledger_limits,
        })
    }

    /// A configuration for tests: demo mode, fast password hashing.
    pub fn for_tests(database_url: &str) -> Config {
        let accounts = AccountsConfig {
            hash: HashParams { memory_kib: 1024, iterations: 1, parallelism: 1 },
            ..AccountsConfig::default()
        };
        Config {
            mode: Mode::Demo,
            database_url: database_url.into(),
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_url: "http://127.0.0.1:8080".into(),
            web_dir: "web/dist".into(),
            secure_cookies: false,
            trust_proxy: false,
            allowed_origins: vec![],
            max_body_bytes: 64 * 1024,
            db_max_connections: 16,
            json_logs: false,
            accounts,
            ledger_limits: wallet::LedgerLimits::default(),
        }
    }
}
