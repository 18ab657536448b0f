//! Configuration from the environment, with defaults that make `make run` work.

use accounts::notify::{Channel, OutboxConfig, TransportConfig};
use accounts::password::HashParams;
use accounts::{AccountsConfig, SignupMethods};
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
    /// SMTP and SMS gateway (`SMTP_URL`, `SMS_GATEWAY_URL`, …).
    pub transports: TransportConfig,
    /// Delivery timings of the message outbox.
    pub outbox: OutboxConfig,
    /// `METRICS_TOKEN`: `/metrics` answers only `Authorization: Bearer <token>`.
    pub metrics_token: Option<String>,
    /// `METRICS_BIND`: `/metrics` is served on this address only (not on `BIND`).
    pub metrics_bind: Option<SocketAddr>,
    /// `CSP_FRAME_SOURCES`: origins the player app may frame besides its own (third-party
    /// game and sportsbook hosts).
    pub csp_frame_sources: Vec<String>,
}

fn parse_var<T: std::str::FromStr>(var: &impl Fn(&str) -> Option<String>, key: &str) -> anyhow::Result<Option<T>> {
    match var(key) {
        None => Ok(None),
        Some(v) => v.parse::<T>().map(Some).map_err(|_| anyhow::anyhow!("{key}: invalid value {v:?}")),
    }
}

fn list(v: Option<String>) -> Vec<String> {
    v.map(|v| v.split(',').map(|s| s.trim().trim_end_matches('/').to_string()).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default()
}

impl Config {
    pub fn from_env() -> anyhow::Result<Config> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// The configuration from variables read through `lookup` (the environment, or a map
    /// in tests), validated: production refuses to start with a setting it cannot honour.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Config> {
        let var = |k: &str| lookup(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let mode = match var("CARTHAGE_MODE").as_deref() {
            None | Some("production") | Some("prod") => Mode::Production,
            Some("demo") => Mode::Demo,
            Some(other) => anyhow::bail!("CARTHAGE_MODE must be demo or production, not {other:?}"),
        };
        let bind: SocketAddr = parse_var(&var, "BIND")?.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 8080)));
        let public_url = var("PUBLIC_URL").unwrap_or_else(|| format!("http://{bind}"));
        let mut accounts = AccountsConfig { public_url: public_url.clone(), ..AccountsConfig::default() };
        if let Some(salt) = var("PHONE_CODE_SALT") {
            accounts.phone_code_salt = salt;
        } else if mode == Mode::Production {
            anyhow::bail!("PHONE_CODE_SALT must be set in production");
        }
        accounts.special_user_id = parse_var(&var, "SPECIAL_USER_ID")?;
        if let Some(n) = parse_var(&var, "SMS_DAILY_LIMIT")? {
            accounts.sms_daily_limit_per_phone = n;
        }
        // A demo credit for every sign-up exists only in demo mode; production refuses the setting.
        accounts.demo_credit_major = match mode {
            Mode::Demo => Some(parse_var(&var, "DEMO_CREDIT")?.unwrap_or(500)),
            Mode::Production => {
                if var("DEMO_CREDIT").is_some() {
                    anyhow::bail!("DEMO_CREDIT is a demo-mode setting; production never credits sign-ups");
                }
                None
            }
        };
        accounts.hash = HashParams {
            memory_kib: parse_var(&var, "ARGON2_MEMORY_KIB")?.unwrap_or(accounts.hash.memory_kib),
            iterations: parse_var(&var, "ARGON2_ITERATIONS")?.unwrap_or(accounts.hash.iterations),
            parallelism: 1,
        };
        let defaults = wallet::LedgerLimits::default();
        let ledger_limits = wallet::LedgerLimits {
            max_amount_major: parse_var(&var, "LEDGER_MAX_AMOUNT")?.unwrap_or(defaults.max_amount_major),
            max_balance_major: parse_var(&var, "LEDGER_MAX_BALANCE")?.unwrap_or(defaults.max_balance_major),
        };
        ledger_limits.validate().map_err(|e| anyhow::anyhow!("LEDGER_MAX_AMOUNT / LEDGER_MAX_BALANCE: {e}"))?;
        if let Some(methods) = var("SIGNUP_METHODS") {
            accounts.signup = SignupMethods::parse(&methods).map_err(|e| anyhow::anyhow!("SIGNUP_METHODS: {e}"))?;
        }
        let config = Config {
            mode,
            database_url: var("DATABASE_URL").unwrap_or_else(|| "sqlite://data/carthage.db".into()),
            bind,
            public_url,
            web_dir: var("WEB_DIR").unwrap_or_else(|| "web/dist".into()).into(),
            secure_cookies: parse_var(&var, "SECURE_COOKIES")?.unwrap_or(mode == Mode::Production),
            trust_proxy: parse_var(&var, "TRUST_PROXY")?.unwrap_or(false),
            allowed_origins: list(var("ALLOWED_ORIGINS")),
            max_body_bytes: parse_var(&var, "MAX_BODY_BYTES")?.unwrap_or(64 * 1024),
            db_max_connections: parse_var(&var, "DATABASE_MAX_CONNECTIONS")?.unwrap_or(16),
            json_logs: parse_var(&var, "JSON_LOGS")?.unwrap_or(mode == Mode::Production),
            accounts,
            ledger_limits,
            transports: TransportConfig::from_lookup(var),
            outbox: OutboxConfig::default(),
            metrics_token: var("METRICS_TOKEN"),
            metrics_bind: parse_var(&var, "METRICS_BIND")?,
            csp_frame_sources: list(var("CSP_FRAME_SOURCES")),
        };
        config.validate()?;
        Ok(config)
    }

    /// What production refuses at start-up: a sign-up method whose messages could not be
    /// delivered (the account would wait for ever for its link or code), a metrics token
    /// too short to be a secret, a frame source that is not an origin.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.mode == Mode::Production {
            let signup = self.accounts.signup;
            if signup.email && !self.transports.has(Channel::Email) {
                anyhow::bail!(
                    "SIGNUP_METHODS includes email but no e-mail transport is configured: set SMTP_URL and SMTP_FROM, \
                     or leave email out of SIGNUP_METHODS (e.g. SIGNUP_METHODS=phone,oneclick)"
                );
            }
            if signup.phone && !self.transports.has(Channel::Sms) {
                anyhow::bail!(
                    "SIGNUP_METHODS includes phone but no SMS transport is configured: set SMS_GATEWAY_URL (and \
                     SMS_GATEWAY_TOKEN), or leave phone out of SIGNUP_METHODS (e.g. SIGNUP_METHODS=email,oneclick)"
                );
            }
        }
        if self.metrics_token.as_ref().is_some_and(|t| t.len() < 16) {
            anyhow::bail!("METRICS_TOKEN must be at least 16 characters");
        }
        for source in &self.csp_frame_sources {
            let ok = (source.starts_with("https://") || source.starts_with("http://"))
                && source.bytes().all(|b| b.is_ascii_graphic() && b != b';' && b != b',' && b != b'\'');
            if !ok {
                anyhow::bail!("CSP_FRAME_SOURCES: {source:?} is not an origin such as https://games.example.com");
            }
        }
        Ok(())
    }

    /// Whether browsers are told to use HTTPS only (HSTS): the public URL is HTTPS, or
    /// production (which is served over HTTPS behind its proxy).
    pub fn hsts(&self) -> bool {
        self.public_url.starts_with("https://") || self.mode == Mode::Production
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
            transports: TransportConfig::default(),
            outbox: OutboxConfig { poll: std::time::Duration::from_millis(100), ..OutboxConfig::default() },
            metrics_token: None,
            metrics_bind: None,
            csp_frame_sources: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> anyhow::Result<Config> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    const PROD: (&str, &str) = ("PHONE_CODE_SALT", "salt");

    #[test]
    fn production_without_smtp_refuses_email_signup() {
        let e = config(&[PROD, ("SMS_GATEWAY_URL", "https://sms.example.com/send")]).unwrap_err();
        assert!(e.to_string().contains("SMTP_URL"), "{e}");
        // The method named explicitly: the same.
        let e = config(&[PROD, ("SIGNUP_METHODS", "email"), ("SMS_GATEWAY_URL", "https://sms.example.com/send")]).unwrap_err();
        assert!(e.to_string().contains("SMTP_URL"), "{e}");
        // E-mail sign-up turned off: it starts, and e-mail sign-up is refused (36).
        let c = config(&[PROD, ("SIGNUP_METHODS", "phone,oneclick"), ("SMS_GATEWAY_URL", "https://sms.example.com/send")]).unwrap();
        assert_eq!(c.accounts.signup, SignupMethods { email: false, phone: true, one_click: true });
    }

    #[test]
    fn production_without_an_sms_gateway_refuses_phone_signup() {
        let e = config(&[PROD, ("SMTP_URL", "smtps://u:p@smtp.example.com:465")]).unwrap_err();
        assert!(e.to_string().contains("SMS_GATEWAY_URL"), "{e}");
        assert!(config(&[PROD, ("SMTP_URL", "smtps://u:p@smtp.example.com:465"), ("SIGNUP_METHODS", "email, oneclick")]).is_ok());
        // No transport at all: only one-click sign-up (or none) can be offered.
        assert!(config(&[PROD, ("SIGNUP_METHODS", "oneclick")]).is_ok());
        assert!(config(&[PROD, ("SIGNUP_METHODS", "none")]).is_ok());
        assert!(config(&[PROD, ("SIGNUP_METHODS", "email,fax")]).is_err());
    }

    #[test]
    fn production_with_both_transports_starts_with_every_method() {
        let c = config(&[PROD, ("SMTP_URL", "smtps://u:p@smtp.example.com:465"), ("SMS_GATEWAY_URL", "https://sms.example.com/send")]).unwrap();
        assert_eq!(c.accounts.signup, SignupMethods::default());
        assert!(c.hsts(), "production sends HSTS");
    }

    #[test]
    fn demo_needs_no_transport() {
        let c = config(&[("CARTHAGE_MODE", "demo")]).unwrap();
        assert_eq!(c.accounts.signup, SignupMethods::default());
        assert!(!c.hsts(), "plain-HTTP demo: no HSTS");
        let c = config(&[("CARTHAGE_MODE", "demo"), ("PUBLIC_URL", "https://demo.example.com")]).unwrap();
        assert!(c.hsts());
    }

    #[test]
    fn metrics_and_frame_settings() {
        let c = config(&[("CARTHAGE_MODE", "demo"), ("METRICS_BIND", "127.0.0.1:9100"), ("METRICS_TOKEN", "0123456789abcdef")]).unwrap();
        assert_eq!(c.metrics_bind, Some(SocketAddr::from(([127, 0, 0, 1], 9100))));
        assert_eq!(c.metrics_token.as_deref(), Some("0123456789abcdef"));
        assert!(config(&[("CARTHAGE_MODE", "demo"), ("METRICS_TOKEN", "short")]).is_err());
        assert!(config(&[("CARTHAGE_MODE", "demo"), ("METRICS_BIND", "nowhere")]).is_err());
        let c = config(&[("CARTHAGE_MODE", "demo"), ("CSP_FRAME_SOURCES", "https://games.example.com/, https://sport.example.com")]).unwrap();
        assert_eq!(c.csp_frame_sources, vec!["https://games.example.com", "https://sport.example.com"]);
        assert!(config(&[("CARTHAGE_MODE", "demo"), ("CSP_FRAME_SOURCES", "https://x.com; script-src *")]).is_err());
        assert!(config(&[("CARTHAGE_MODE", "demo"), ("CSP_FRAME_SOURCES", "*")]).is_err());
    }
}
