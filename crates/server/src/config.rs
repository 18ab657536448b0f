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
    /// `REDIS_URL`: the bus between instances uses Redis pub/sub instead of PostgreSQL
    /// NOTIFY (crates/store/src/bus.rs; docs/OPERATIONS.md "Several instances").
    pub redis_url: Option<String>,
    /// `CRASH_DRAIN_MS`: at a graceful stop, how long the crash round in play may take to
    /// finish before the loop is cut (default 25 s: within a supervisor's usual 30 s).
    pub crash_drain: std::time::Duration,
    pub bind: SocketAddr,
    pub public_url: String,
    /// `WEB_DIR`: serve the web apps from this folder (development); `None` serves the ones
    /// embedded in the binary (src/web_assets.rs).
    pub web_dir: Option<std::path::PathBuf>,
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
    /// `ADJUST_FOUR_EYES_ABOVE` (major units of the player's currency, default 1,000): a
    /// manual adjustment larger than this waits for a second staff member's approval
    /// (src/adjustments.rs).
    pub adjust_four_eyes_above_major: i64,
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
    /// Payment providers, jobs and rules (`PAYMENTS_*`, `PAYKASSMA_*`; docs/OPERATIONS.md).
    pub payments: payments::PaymentsConfig,
    /// The cashier network (`CASHIER_LIST_FIRST`, `CASHIER_LIST_LAST`, `CASHIER_CODE_SECRET`).
    pub cashier: payments::cashier::CashierConfig,
    /// Our sportsbook's feed (docs/SPORTSBOOK.md): the simulator (demo default) or none.
    pub sportsbook_feed: SportsbookFeed,
    /// The partner sportsbooks (docs/PARTNERS.md).
    pub partners: crate::partners::PartnersConfig,
    /// The game providers' settings (`PROVIDER_<NAME>_<SETTING>`, docs/OPERATIONS.md).
    pub providers: Vec<providers::ProviderSettings>,
    /// The providers' catalogue refresh job (`CATALOGUE_*`, `PROVIDER_<NAME>_LIST_URL`, …).
    pub catalogue: crate::catalogue_refresh::RefreshConfig,
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
        // Codes and links (SMS, e-mail) one client IP may have sent at once; one more every
        // minute after that. A carrier NAT or an office may need more than the default 20; the
        // browser tests, all from 127.0.0.1, do.
        if let Some(n) = parse_var::<u32>(&var, "MESSAGES_PER_IP_BURST")? {
            anyhow::ensure!(n >= 1, "MESSAGES_PER_IP_BURST must be at least 1");
            accounts.limits.sends_per_ip.burst = n;
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
        let payments = payments_from(&var, mode)?;
        let config = Config {
            mode,
            database_url: var("DATABASE_URL").unwrap_or_else(|| "sqlite://data/carthage.db".into()),
            redis_url: var("REDIS_URL").filter(|u| !u.trim().is_empty()),
            crash_drain: std::time::Duration::from_millis(var("CRASH_DRAIN_MS").and_then(|v| v.trim().parse().ok()).unwrap_or(25_000)),
            bind,
            public_url,
            web_dir: var("WEB_DIR").filter(|d| !d.is_empty()).map(Into::into),
            secure_cookies: parse_var(&var, "SECURE_COOKIES")?.unwrap_or(mode == Mode::Production),
            trust_proxy: parse_var(&var, "TRUST_PROXY")?.unwrap_or(false),
            allowed_origins: list(var("ALLOWED_ORIGINS")),
            max_body_bytes: parse_var(&var, "MAX_BODY_BYTES")?.unwrap_or(64 * 1024),
            db_max_connections: parse_var(&var, "DATABASE_MAX_CONNECTIONS")?.unwrap_or(16),
            json_logs: parse_var(&var, "JSON_LOGS")?.unwrap_or(mode == Mode::Production),
            accounts,
            ledger_limits,
            adjust_four_eyes_above_major: parse_var::<i64>(&var, "ADJUST_FOUR_EYES_ABOVE")?.unwrap_or(1_000).max(0),
            transports: TransportConfig::from_lookup(var),
            outbox: OutboxConfig::default(),
            metrics_token: var("METRICS_TOKEN"),
            metrics_bind: parse_var(&var, "METRICS_BIND")?,
            csp_frame_sources: list(var("CSP_FRAME_SOURCES")),
            payments,
            cashier: payments::cashier::CashierConfig {
                list_first: parse_var(&var, "CASHIER_LIST_FIRST")?,
                list_last: parse_var(&var, "CASHIER_LIST_LAST")?,
                code_secret: var("CASHIER_CODE_SECRET"),
                ..Default::default()
            },
            sportsbook_feed: match var("SPORTSBOOK_FEED").as_deref().map(str::trim) {
                Some("off") => SportsbookFeed::Off,
                Some("sim") => SportsbookFeed::simulator(&var)?,
                Some("push") => match var("SPORTSBOOK_FEED_SECRET") {
                    Some(secret) if secret.len() >= 16 => SportsbookFeed::Push { secret },
                    _ => anyhow::bail!("SPORTSBOOK_FEED=push needs SPORTSBOOK_FEED_SECRET (at least 16 characters)"),
                },
                None if mode == Mode::Demo => SportsbookFeed::simulator(&var)?,
                None => SportsbookFeed::Off,
                Some(other) => anyhow::bail!("SPORTSBOOK_FEED must be sim, push or off, not {other:?}"),
            },
            partners: Default::default(),
            providers: Vec::new(),
            catalogue: crate::catalogue_refresh::RefreshConfig::for_tests(),
        };
        let mut config = config;
        config.partners = crate::partners::PartnersConfig::from_lookup(&var, mode == Mode::Demo)?;
        config.providers = provider_settings(&var, mode == Mode::Demo, &config.public_url)?;
        config.catalogue = crate::catalogue_refresh::RefreshConfig::from_lookup(&var, mode == Mode::Demo, &config.providers)?;
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
            redis_url: None,
            // Test apps stop at once (a drain would wait for a 5 s betting window); the
            // duties tests set their own.
            crash_drain: std::time::Duration::ZERO,
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_url: "http://127.0.0.1:8080".into(),
            web_dir: None,
            secure_cookies: false,
            trust_proxy: false,
            allowed_origins: vec![],
            max_body_bytes: 64 * 1024,
            db_max_connections: 16,
            json_logs: false,
            accounts,
            ledger_limits: wallet::LedgerLimits::default(),
            adjust_four_eyes_above_major: 1_000,
            transports: TransportConfig::default(),
            outbox: OutboxConfig { poll: std::time::Duration::from_millis(100), ..OutboxConfig::default() },
            metrics_token: None,
            metrics_bind: None,
            csp_frame_sources: vec![],
            payments: payments::PaymentsConfig::default(),
            cashier: payments::cashier::CashierConfig::default(),
            sportsbook_feed: SportsbookFeed::Off,
            partners: crate::partners::PartnersConfig::from_lookup(&|_: &str| None, true).expect("the demo partner settings"),
            providers: provider_settings(&|_: &str| None, true, "http://127.0.0.1:8080").expect("the demo provider settings"),
            catalogue: crate::catalogue_refresh::RefreshConfig::for_tests(),
        }
    }
}

/// Every provider adapter's settings from `PROVIDER_<NAME>_<SETTING>`, then the providers
/// known by their list and launch only (`providers::import::LINK_PROVIDERS`: enabled by
/// their own settings, never filled in by demo mode).
pub fn provider_settings(var: &dyn Fn(&str) -> Option<String>, demo: bool, public_url: &str) -> anyhow::Result<Vec<providers::ProviderSettings>> {
    providers::settings::WALLET_PROVIDERS
        .iter()
        .map(|name| providers::ProviderSettings::from_lookup(name, var, demo, public_url, providers::extra_settings(name)).map_err(|e| anyhow::anyhow!(e)))
        .chain(providers::import::LINK_PROVIDERS.iter().map(|name| providers::ProviderSettings::from_lookup(name, var, false, public_url, &[]).map_err(|e| anyhow::anyhow!(e))))
        .collect()
}

/// Where our sportsbook's line comes from.
#[derive(Debug, Clone)]
pub enum SportsbookFeed {
    /// No feed: the line holds only what is applied to it (tests, or betting closed).
    Off,
    /// The built-in simulator (`sportsbook::sim`), ticked every `tick_ms`.
    Simulator { seed: u64, config: sportsbook::sim::SimConfig, tick_ms: u64 },
    /// An operator's feed adapter pushes the documented JSON feed to `POST
    /// /api/sportsbook/feed`, signed with this secret (docs/SPORTSBOOK.md "Importing a feed").
    Push { secret: String },
}

impl SportsbookFeed {
    /// `SPORTSBOOK_SIM_SEED` (default: random), `SPORTSBOOK_SIM_SPEED` (match clock × real
    /// time, default 15), `SPORTSBOOK_SIM_LIVE` (matches in play at once, default 24),
    /// `SPORTSBOOK_SIM_TICK_MS` (real time between ticks, each one frame of live updates; 100).
    fn simulator(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<SportsbookFeed> {
        let mut config = sportsbook::sim::SimConfig::default();
        if let Some(speed) = parse_var(var, "SPORTSBOOK_SIM_SPEED")? {
            config.speed = speed;
        }
        config.live_events = parse_var(var, "SPORTSBOOK_SIM_LIVE")?.unwrap_or(24);
        let seed = parse_var(var, "SPORTSBOOK_SIM_SEED")?.unwrap_or_else(|| kernel::ids::next_id() as u64);
        // One tick is one frame to every live-update subscriber: fewer, fuller frames when
        // thousands of matches are in play (docs/PERFORMANCE.md "Sportsbook").
        let tick_ms = parse_var(var, "SPORTSBOOK_SIM_TICK_MS")?.unwrap_or(100u64).clamp(10, 5_000);
        Ok(SportsbookFeed::Simulator { seed, config, tick_ms })
    }
}

/// The payment settings (docs/OPERATIONS.md "Payments"). Demo mode: the sandbox and the
/// Paykassma emulation, with demo keys. Production: the sandbox only with
/// `PAYMENTS_SANDBOX=1` (and its own secret); Paykassma only with `PAYKASSMA_ENABLED=1` and
/// every `PAYKASSMA_*` key — it refuses to start without them.
fn payments_from(var: &impl Fn(&str) -> Option<String>, mode: Mode) -> anyhow::Result<payments::PaymentsConfig> {
    let demo = mode == Mode::Demo;
    let mut p = payments::PaymentsConfig { sandbox_enabled: parse_var(var, "PAYMENTS_SANDBOX")?.unwrap_or(demo), ..Default::default() };
    match var("PAYMENTS_SANDBOX_SECRET") {
        Some(s) => p.sandbox_secret = s,
        None if p.sandbox_enabled && !demo => anyhow::bail!("PAYMENTS_SANDBOX=1 in production needs PAYMENTS_SANDBOX_SECRET"),
        None => {}
    }
    if p.sandbox_secret.len() < 16 {
        anyhow::bail!("PAYMENTS_SANDBOX_SECRET must be at least 16 characters");
    }
    p.sandbox_framable = !parse_var::<bool>(var, "PAYMENTS_SANDBOX_TOP_LEVEL")?.unwrap_or(false);
    let paykassma = parse_var::<bool>(var, "PAYKASSMA_ENABLED")?.unwrap_or(demo);
    p.paykassma = if paykassma {
        let mut k = payments::PaykassmaConfig::demo();
        k.api_url = var("PAYKASSMA_API_URL").map(|u| u.trim_end_matches('/').to_string()).or(k.api_url);
        k.plugin_url = var("PAYKASSMA_PLUGIN_URL").or(k.plugin_url);
        let mut missing = Vec::new();
        for (key, slot) in [
            ("PAYKASSMA_POSTBACK_ACCESS_KEY", &mut k.postback_access_key),
            ("PAYKASSMA_POSTBACK_PRIVATE_KEY", &mut k.postback_private_key),
            ("PAYKASSMA_PRIVATE_KEY", &mut k.private_key),
            ("PAYKASSMA_WALLET_TYPE", &mut k.wallet_type),
        ] {
            match var(key) {
                Some(v) => *slot = v,
                None => missing.push(key),
            }
        }
        if !demo {
            if k.api_url.is_none() {
                missing.push("PAYKASSMA_API_URL");
            }
            if k.plugin_url.is_none() {
                missing.push("PAYKASSMA_PLUGIN_URL");
            }
            if !missing.is_empty() {
                anyhow::bail!("PAYKASSMA_ENABLED=1 needs {}", missing.join(", "));
            }
        }
        k.top_level = parse_var(var, "PAYKASSMA_TOP_LEVEL")?.unwrap_or(!demo);
        Some(k)
    } else {
        None
    };
    if let Some(rates) = var("PAYMENTS_USDT_RATES") {
        let mut out = Vec::new();
        for pair in rates.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (c, r) = pair.split_once('=').ok_or_else(|| anyhow::anyhow!("PAYMENTS_USDT_RATES: {pair:?} is not CUR=rate"))?;
            let currency: kernel::Currency = c.trim().parse().map_err(|_| anyhow::anyhow!("PAYMENTS_USDT_RATES: unknown currency {c:?}"))?;
            let ok = kernel::money::parse_major(r.trim(), kernel::Currency::Usdt).is_ok_and(|v| v > 0);
            anyhow::ensure!(ok, "PAYMENTS_USDT_RATES: {r:?} is not a positive rate with at most 6 decimals");
            out.push((currency, r.trim().to_string()));
        }
        p.usdt_rates = out;
    }
    if let Some(m) = parse_var::<i64>(var, "PAYMENTS_DEPOSIT_TTL_MINUTES")? {
        anyhow::ensure!(m >= 1, "PAYMENTS_DEPOSIT_TTL_MINUTES must be at least 1");
        p.deposit_ttl_ms = m * 60_000;
    }
    if let Some(h) = parse_var::<i64>(var, "PAYMENTS_WITHDRAWAL_BLOCK_HOURS")? {
        anyhow::ensure!(h >= 0, "PAYMENTS_WITHDRAWAL_BLOCK_HOURS must not be negative");
        p.withdrawal_block_ms = h * 3_600_000;
    }
    if let Some(s) = parse_var::<i64>(var, "PAYMENTS_RECONCILE_STALE_SECONDS")? {
        anyhow::ensure!(s >= 1, "PAYMENTS_RECONCILE_STALE_SECONDS must be at least 1");
        p.reconcile_stale_ms = s * 1000;
    }
    // Withdrawals above this many major units wait for staff approval; `off` never.
    match var("WITHDRAWAL_REVIEW_ABOVE").as_deref().map(str::trim) {
        None => {}
        Some("off") => p.withdrawal_review_above = None,
        Some(v) => {
            let major: i64 = v.parse().map_err(|_| anyhow::anyhow!("WITHDRAWAL_REVIEW_ABOVE: {v:?} is not a whole amount or `off`"))?;
            anyhow::ensure!(major >= 0, "WITHDRAWAL_REVIEW_ABOVE must not be negative");
            p.withdrawal_review_above = Some(major);
        }
    }
    if let Some(s) = parse_var::<u64>(var, "PAYMENTS_JOBS_SECONDS")? {
        anyhow::ensure!(s >= 1, "PAYMENTS_JOBS_SECONDS must be at least 1");
        p.jobs_every = std::time::Duration::from_secs(s);
    }
    p.callback_base = var("PAYMENTS_CALLBACK_BASE").map(|b| b.trim_end_matches('/').to_string());
    Ok(p)
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
    fn the_per_ip_message_burst_is_a_setting() {
        assert_eq!(config(&[("CARTHAGE_MODE", "demo")]).unwrap().accounts.limits.sends_per_ip.burst, 20);
        let c = config(&[("CARTHAGE_MODE", "demo"), ("MESSAGES_PER_IP_BURST", "300")]).unwrap();
        assert_eq!(c.accounts.limits.sends_per_ip.burst, 300);
        assert!(config(&[("CARTHAGE_MODE", "demo"), ("MESSAGES_PER_IP_BURST", "0")]).is_err());
        assert!(config(&[("CARTHAGE_MODE", "demo"), ("MESSAGES_PER_IP_BURST", "-5")]).is_err());
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

    #[test]
    fn payment_settings() {
        // Demo: the sandbox and the Paykassma emulation, with demo keys.
        let c = config(&[("CARTHAGE_MODE", "demo")]).unwrap();
        assert!(c.payments.sandbox_enabled && c.payments.paykassma.as_ref().is_some_and(|k| k.api_url.is_none() && !k.top_level));
        // Production: neither unless asked; Paykassma refuses to start without its keys.
        let prod = [PROD, ("SIGNUP_METHODS", "oneclick")];
        let c = config(&prod).unwrap();
        assert!(!c.payments.sandbox_enabled && c.payments.paykassma.is_none());
        let e = config(&[PROD, ("SIGNUP_METHODS", "oneclick"), ("PAYKASSMA_ENABLED", "true")]).unwrap_err();
        assert!(e.to_string().contains("PAYKASSMA_POSTBACK_ACCESS_KEY") && e.to_string().contains("PAYKASSMA_API_URL"), "{e}");
        let full = [
            PROD,
            ("SIGNUP_METHODS", "oneclick"),
            ("PAYKASSMA_ENABLED", "true"),
            ("PAYKASSMA_API_URL", "https://api.paykassma.example/"),
            ("PAYKASSMA_PLUGIN_URL", "https://plugin.paykassma.example/"),
            ("PAYKASSMA_POSTBACK_ACCESS_KEY", "a"),
            ("PAYKASSMA_POSTBACK_PRIVATE_KEY", "b"),
            ("PAYKASSMA_PRIVATE_KEY", "c"),
            ("PAYKASSMA_WALLET_TYPE", "upi_s"),
        ];
        let k = config(&full).unwrap().payments.paykassma.unwrap();
        assert_eq!((k.api_url.as_deref(), k.top_level), (Some("https://api.paykassma.example"), true));
        // The sandbox in production needs its own secret.
        assert!(config(&[PROD, ("SIGNUP_METHODS", "oneclick"), ("PAYMENTS_SANDBOX", "true")]).is_err());
        assert!(config(&[PROD, ("SIGNUP_METHODS", "oneclick"), ("PAYMENTS_SANDBOX", "true"), ("PAYMENTS_SANDBOX_SECRET", "0123456789abcdef")]).is_ok());
        // Rates and delays.
        let c = config(&[("CARTHAGE_MODE", "demo"), ("PAYMENTS_USDT_RATES", "TND=3.2, HTG=130.5"), ("PAYMENTS_DEPOSIT_TTL_MINUTES", "5")]).unwrap();
        assert_eq!(c.payments.usdt_rates.len(), 2);
        assert_eq!(c.payments.deposit_ttl_ms, 300_000);
        for bad in ["TND", "XXX=1", "TND=-1", "TND=1.0000001"] {
            assert!(config(&[("CARTHAGE_MODE", "demo"), ("PAYMENTS_USDT_RATES", bad)]).is_err(), "{bad}");
        }
    }
}
