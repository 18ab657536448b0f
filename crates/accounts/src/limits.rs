//! Rate limits (governor, in memory per instance).
//!
//! * Failed sign-ins per account and per IP: each failure takes a cell; when the bucket is
//!   empty the key is locked until a cell is back (code 16 for an account, 14 for an IP).
//!   The account quota (burst 10, one cell every 40 s) caps failures at 10 + 90 = 100 per
//!   hour and account. Before the lock, replies to repeated failures slow down.
//! * SMS and e-mail sends per address and per IP.
//! * Unknown-account probes per IP: a sign-in or recovery naming a login, e-mail or phone
//!   that does not exist (codes 3, 21, 22) takes a cell; when the bucket is empty the IP
//!   is refused (14) on every sign-in and recovery lookup until a cell is back, so nobody
//!   learns which accounts exist faster than the quota (burst 30, one every 20 s: at most
//!   210 names an hour and IP).

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub burst: u32,
    /// One cell comes back every `period`.
    pub period: Duration,
}

impl Limit {
    fn quota(self) -> Quota {
        Quota::with_period(self.period)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN))
    }
}

#[derive(Debug, Clone, Copy)]
pub struct LimitsConfig {
    pub login_failures_per_account: Limit,
    pub login_failures_per_ip: Limit,
    pub sends_per_address: Limit,
    pub sends_per_ip: Limit,
    /// Sign-ins and recoveries that named no existing account, per IP.
    pub unknown_accounts_per_ip: Limit,
    /// Failures after which replies are delayed.
    pub slow_down_after: u32,
    pub slow_down_step: Duration,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            login_failures_per_account: Limit { burst: 10, period: Duration::from_secs(40) },
            login_failures_per_ip: Limit { burst: 50, period: Duration::from_secs(10) },
            sends_per_address: Limit { burst: 5, period: Duration::from_secs(12 * 60) },
            sends_per_ip: Limit { burst: 20, period: Duration::from_secs(60) },
            unknown_accounts_per_ip: Limit { burst: 30, period: Duration::from_secs(20) },
            slow_down_after: 3,
            slow_down_step: Duration::from_millis(250),
        }
    }
}

pub struct Limits {
    cfg: LimitsConfig,
    fail_account: DefaultKeyedRateLimiter<String>,
    fail_ip: DefaultKeyedRateLimiter<String>,
    send_address: DefaultKeyedRateLimiter<String>,
    send_ip: DefaultKeyedRateLimiter<String>,
    probe_ip: DefaultKeyedRateLimiter<String>,
    locked: Mutex<HashMap<String, Instant>>,
    recent_failures: Mutex<HashMap<String, (u32, Instant)>>,
}

/// Why a request was refused, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    AccountLocked(Duration),
    IpLimited(Duration),
}

impl Limits {
    pub fn new(cfg: LimitsConfig) -> Limits {
        Limits {
            cfg,
            fail_account: RateLimiter::keyed(cfg.login_failures_per_account.quota()),
            fail_ip: RateLimiter::keyed(cfg.login_failures_per_ip.quota()),
            send_address: RateLimiter::keyed(cfg.sends_per_address.quota()),
            send_ip: RateLimiter::keyed(cfg.sends_per_ip.quota()),
            probe_ip: RateLimiter::keyed(cfg.unknown_accounts_per_ip.quota()),
            locked: Mutex::new(HashMap::new()),
            recent_failures: Mutex::new(HashMap::new()),
        }
    }

    fn lock_key(account: &str) -> String {
        format!("a:{account}")
    }
    fn ip_key(ip: &str) -> String {
        format!("i:{ip}")
    }
    fn probe_key(ip: &str) -> String {
        format!("p:{ip}")
    }

    fn locked_for(&self, key: &str) -> Option<Duration> {
        let mut locked = self.locked.lock().unwrap_or_else(|p| p.into_inner());
        match locked.get(key) {
            Some(until) if *until > Instant::now() => Some(*until - Instant::now()),
            Some(_) => {
                locked.remove(key);
                None
            }
            None => None,
        }
    }

    /// Before checking a password: is this account or IP locked?
    pub fn check_login(&self, account: &str, ip: &str) -> Result<(), Refusal> {
        if let Some(d) = self.locked_for(&Self::lock_key(account)) {
            return Err(Refusal::AccountLocked(d));
        }
        if let Some(d) = self.locked_for(&Self::ip_key(ip)) {
            return Err(Refusal::IpLimited(d));
        }
        Ok(())
    }

    /// After a failed sign-in: takes a cell for the account and the IP; returns the
    /// delay to apply before answering, or the refusal when a bucket ran out.
    pub fn record_failure(&self, account: &str, ip: &str) -> Result<Duration, Refusal> {
        let clock = DefaultClock::default();
        if let Err(not_until) = self.fail_account.check_key(&account.to_string()) {
            let wait = not_until.wait_time_from(clock.now());
            self.locked.lock().unwrap_or_else(|p| p.into_inner()).insert(Self::lock_key(account), Instant::now() + wait);
            return Err(Refusal::AccountLocked(wait));
        }
        if let Err(not_until) = self.fail_ip.check_key(&ip.to_string()) {
            let wait = not_until.wait_time_from(clock.now());
            self.locked.lock().unwrap_or_else(|p| p.into_inner()).insert(Self::ip_key(ip), Instant::now() + wait);
            return Err(Refusal::IpLimited(wait));
        }
        let mut recent = self.recent_failures.lock().unwrap_or_else(|p| p.into_inner());
        let entry = recent.entry(account.to_string()).or_insert((0, Instant::now()));
        if entry.1.elapsed() > Duration::from_secs(15 * 60) {
            *entry = (0, Instant::now());
        }
        entry.0 += 1;
        let over = entry.0.saturating_sub(self.cfg.slow_down_after);
        Ok(self.cfg.slow_down_step * over.min(8))
    }

    /// After a successful sign-in the slow-down counter restarts (the hourly cap stays).
    pub fn record_success(&self, account: &str) {
        self.recent_failures.lock().unwrap_or_else(|p| p.into_inner()).remove(account);
    }

    /// Before sending an SMS or e-mail to `address` on behalf of `ip`.
    pub fn check_send(&self, address: &str, ip: &str) -> Result<(), Duration> {
        let clock = DefaultClock::default();
        if let Err(n) = self.send_ip.check_key(&ip.to_string()) {
            return Err(n.wait_time_from(clock.now()));
        }
        if let Err(n) = self.send_address.check_key(&address.to_string()) {
            return Err(n.wait_time_from(clock.now()));
        }
        Ok(())
    }

    /// Before looking an account up for a sign-in or a recovery: has this IP named too many
    /// accounts that do not exist? (The refusal does not depend on the account asked for,
    /// so it tells nothing about it.)
    pub fn check_probe(&self, ip: &str) -> Result<(), Duration> {
        match self.locked_for(&Self::probe_key(ip)) {
            Some(wait) => Err(wait),
            None => Ok(()),
        }
    }

    /// After a lookup found no account: takes a cell for the IP; when none is left the IP
    /// is refused until one is back (the wait is returned).
    pub fn record_unknown_account(&self, ip: &str) -> Result<(), Duration> {
        let clock = DefaultClock::default();
        if let Err(not_until) = self.probe_ip.check_key(&ip.to_string()) {
            let wait = not_until.wait_time_from(clock.now());
            self.locked.lock().unwrap_or_else(|p| p.into_inner()).insert(Self::probe_key(ip), Instant::now() + wait);
            return Err(wait);
        }
        Ok(())
    }

    /// Drops state of keys that have fully recovered (called periodically).
    pub fn housekeeping(&self) {
        self.fail_account.retain_recent();
        self.fail_ip.retain_recent();
        self.send_address.retain_recent();
        self.send_ip.retain_recent();
        self.probe_ip.retain_recent();
        let now = Instant::now();
        self.locked.lock().unwrap_or_else(|p| p.into_inner()).retain(|_, until| *until > now);
        self.recent_failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|_, (_, since)| since.elapsed() < Duration::from_secs(15 * 60));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_is_locked_after_its_burst_and_never_exceeds_100_an_hour() {
        let limits = Limits::new(LimitsConfig::default());
        let mut failures = 0;
        for i in 0..200 {
            if limits.check_login("acc", &format!("ip{i}")).is_err() {
                break;
            }
            match limits.record_failure("acc", &format!("ip{i}")) {
                Ok(_) => failures += 1,
                Err(Refusal::AccountLocked(wait)) => {
                    assert!(wait > Duration::from_secs(30));
                    break;
                }
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(failures, 10);
        assert!(matches!(limits.check_login("acc", "other"), Err(Refusal::AccountLocked(_))));
        // The quota itself bounds an hour: burst + 3600 s / period.
        let cfg = LimitsConfig::default().login_failures_per_account;
        assert!(cfg.burst as u64 + 3600 / cfg.period.as_secs() <= 100);
        // Another account is not affected.
        assert!(limits.check_login("other", "ip").is_ok());
    }

    #[test]
    fn replies_slow_down_before_the_lock() {
        let limits = Limits::new(LimitsConfig::default());
        let delays: Vec<Duration> = (0..5).map(|_| limits.record_failure("a", "ip").unwrap()).collect();
        assert_eq!(delays[0], Duration::ZERO);
        assert!(delays[4] > delays[3]);
        limits.record_success("a");
        assert_eq!(limits.record_failure("a", "ip").unwrap(), Duration::ZERO);
    }

    #[test]
    fn unknown_account_probes_are_limited_per_ip() {
        let cfg = LimitsConfig { unknown_accounts_per_ip: Limit { burst: 3, period: Duration::from_secs(3600) }, ..LimitsConfig::default() };
        let limits = Limits::new(cfg);
        for _ in 0..3 {
            assert!(limits.check_probe("ip").is_ok());
            assert!(limits.record_unknown_account("ip").is_ok());
        }
        let wait = limits.record_unknown_account("ip").unwrap_err();
        assert!(wait > Duration::from_secs(3000));
        assert!(limits.check_probe("ip").is_err(), "the IP stays refused");
        assert!(limits.check_probe("other").is_ok());
        // Sign-in failures are another budget.
        assert!(limits.check_login("acc", "ip").is_ok());
    }

    #[test]
    fn sends_are_limited_per_address() {
        let limits = Limits::new(LimitsConfig::default());
        for _ in 0..5 {
            assert!(limits.check_send("216", "ip").is_ok());
        }
        assert!(limits.check_send("216", "ip").is_err());
        assert!(limits.check_send("217", "ip").is_ok());
    }
}
