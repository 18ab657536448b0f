//! Responsible gambling (issue 11 §1, docs/PAYMENTS.md "Responsible gambling"):
//!
//! * **Deposit limits** per player and period (rolling day = 24 h, week = 7 days, month =
//!   30 days), in the player's currency. A decrease applies at once; a raise or a removal
//!   waits [`RAISE_DELAY_MS`] (24 h) as a *pending* value. A deposit counts against the
//!   limits from the moment it is asked for: the deposits credited in the window (ledger
//!   types 16, 11 and 114) **plus the deposit intents still open** (`created`, `pending`:
//!   reserved, whatever their age; a failed, expired or cancelled intent no longer counts,
//!   which releases its amount) plus the new amount must stay within every limit in force.
//!   [`Rg::check_deposit`] is the quick check before anything is written (blocks, limits);
//!   [`Rg::reserve_deposit`] is the binding one, run inside the transaction that records
//!   the deposit (the intent row, the desk's posting) with that deposit already written:
//!   on PostgreSQL it locks the player's limit rows first (`FOR UPDATE`), so two deposits
//!   of one player are checked one after the other and the second sees the first; SQLite's
//!   single writer connection serialises the transactions by itself.
//! * **Self-exclusion** (6 months, 1 year, permanent; confirmed with the password) and
//!   **cool-off** (24 h, 7 days, 30 days): stored on the user row (`self_excluded_until`,
//!   `cool_off_until`), so sign-in, the session check and every stake (the game session's
//!   read joins the user) refuse them without another query ([`kernel::errors::rg_block`]).
//!   Taking one ends every session of the player (and their game sessions) at once. Neither
//!   can be shortened nor lifted by the player; both end by themselves.
//! * **Reality check**: a reminder interval in minutes (0 off, 15, 30, 60, 120) the app
//!   shows while the player is signed in, with the session's time and net result.
//!
//! Every change is recorded in `rg_events` (the audit trail). Times are explicit (`now`)
//! in the service so tests can ask about the future; the HTTP layer passes the clock.

use crate::{db_err, field_error, password, sha256_hex, validate::Reason, Accounts, User};
use kernel::clock::{now_ms, DAY_MS, HOUR_MS};
use kernel::errors::{rg_block, RG_PERMANENT};
use kernel::ids::next_id;
use kernel::money::{Minor, MajorUnits};
use kernel::{AppError, Currency, ErrorCode};
use serde::Serialize;
use store::sqlx::{self, AnyConnection, Row};

/// A raise or a removal of a deposit limit takes effect this long after it was asked.
pub const RAISE_DELAY_MS: i64 = 24 * HOUR_MS;

/// The ledger types that are deposits: provider (16), crypto (11), cash at a cashier (114).
pub const DEPOSIT_TX_TYPES: [i64; 3] = [16, 11, 114];

/// The reality-check intervals the player may choose (minutes; 0 = off).
pub const REALITY_CHECK_MINUTES: [i64; 5] = [0, 15, 30, 60, 120];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Period {
    Day,
    Week,
    Month,
}

impl Period {
    pub const ALL: [Period; 3] = [Period::Day, Period::Week, Period::Month];

    pub const fn as_str(self) -> &'static str {
        match self {
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
        }
    }

    /// The rolling window of the period.
    pub const fn window_ms(self) -> i64 {
        match self {
            Period::Day => DAY_MS,
            Period::Week => 7 * DAY_MS,
            Period::Month => 30 * DAY_MS,
        }
    }

    fn parse(s: &str) -> Option<Period> {
        Period::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// Self-exclusion periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exclusion {
    SixMonths,
    OneYear,
    Permanent,
}

impl Exclusion {
    /// `6m`, `1y`, `permanent`.
    pub fn parse(s: &str) -> Option<Exclusion> {
        match s.trim() {
            "6m" => Some(Exclusion::SixMonths),
            "1y" => Some(Exclusion::OneYear),
            "permanent" => Some(Exclusion::Permanent),
            _ => None,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Exclusion::SixMonths => "6m",
            Exclusion::OneYear => "1y",
            Exclusion::Permanent => "permanent",
        }
    }

    /// The end of an exclusion taken at `now`: calendar months (the same day of the month,
    /// or the month's last day), [`RG_PERMANENT`] for a permanent one.
    pub fn until(self, now: i64) -> i64 {
        match self {
            Exclusion::SixMonths => add_months(now, 6),
            Exclusion::OneYear => add_months(now, 12),
            Exclusion::Permanent => RG_PERMANENT,
        }
    }
}

/// Cool-off periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoolOff {
    Day,
    Week,
    Month,
}

impl CoolOff {
    /// `24h`, `7d`, `30d`.
    pub fn parse(s: &str) -> Option<CoolOff> {
        match s.trim() {
            "24h" => Some(CoolOff::Day),
            "7d" => Some(CoolOff::Week),
            "30d" => Some(CoolOff::Month),
            _ => None,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            CoolOff::Day => "24h",
            CoolOff::Week => "7d",
            CoolOff::Month => "30d",
        }
    }

    pub const fn duration_ms(self) -> i64 {
        match self {
            CoolOff::Day => DAY_MS,
            CoolOff::Week => 7 * DAY_MS,
            CoolOff::Month => 30 * DAY_MS,
        }
    }
}

/// `ms` plus `months` calendar months (UTC), the day clamped to the month's length.
pub fn add_months(ms: i64, months: u32) -> i64 {
    let Ok(t) = time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000) else {
        return ms + months as i64 * 31 * DAY_MS;
    };
    let total = t.year() * 12 + (u8::from(t.month()) as i32 - 1) + months as i32;
    let (year, month) = (total.div_euclid(12), (total.rem_euclid(12) + 1) as u8);
    let Ok(month) = time::Month::try_from(month) else { return ms };
    let day = t.day().min(month.length(year));
    match time::Date::from_calendar_date(year, month, day) {
        Ok(date) => (date.with_time(t.time()).assume_utc().unix_timestamp_nanos() / 1_000_000) as i64,
        Err(_) => ms + months as i64 * 31 * DAY_MS,
    }
}

/// One deposit limit: in force now, and a pending raise or removal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limit {
    /// The limit in force (minor units); `None`: no limit.
    pub amount: Option<Minor>,
    /// A raise or removal waiting: `Some((new amount or None for removal, from))`.
    pub pending: Option<(Option<Minor>, i64)>,
}

impl Limit {
    /// The limit as it stands at `now` (a pending change whose time came is in force).
    fn at(self, now: i64) -> Limit {
        match self.pending {
            Some((amount, from)) if from <= now => Limit { amount, pending: None },
            _ => self,
        }
    }
}

/// The player's responsible-gambling state (the `GET` reply, minor units and epoch ms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgState {
    pub currency: Currency,
    /// Day, week, month (in [`Period::ALL`] order), as in force at the time asked.
    pub limits: [Limit; 3],
    /// Deposits credited in each rolling window.
    pub used: [Minor; 3],
    pub self_excluded_until: Option<i64>,
    pub cool_off_until: Option<i64>,
    pub reality_check_minutes: i64,
}

/// The refusal of a deposit above a limit: `{period, limit, used, remaining}` (major units).
#[derive(Debug, Serialize)]
struct LimitRefusal {
    period: &'static str,
    limit: MajorUnits,
    used: MajorUnits,
    remaining: MajorUnits,
}

/// The current sign-in session, for the reality check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    pub started_at: i64,
    /// Net result of the games since the session started (wins − stakes ± rollbacks), on
    /// the player's balances in their currency, minor units.
    pub net: Minor,
    pub reality_check_minutes: i64,
}

/// The ledger types of play counted in a session's net result: casino stake, win, rollback
/// (203, 6, 204), sportsbook stake, payout, resettlement (211, 212, 213) and the partner
/// sportsbooks' stake and payout (214, 215).
const PLAY_TX_TYPES: &str = "6, 203, 204, 211, 212, 213, 214, 215";

#[derive(Clone)]
pub struct Rg {
    accounts: Accounts,
}

impl Rg {
    pub fn new(accounts: Accounts) -> Rg {
        Rg { accounts }
    }

    fn db(&self) -> &store::Db {
        &self.accounts.db
    }

    async fn event(&self, user_id: i64, kind: &str, detail: serde_json::Value, now: i64) -> Result<(), AppError> {
        sqlx::query("INSERT INTO rg_events (id, user_id, kind, detail, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(next_id())
            .bind(user_id)
            .bind(kind)
            .bind(detail.to_string())
            .bind(now)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// The stored limits (pending changes not folded in).
    async fn stored_limits(&self, user_id: i64) -> Result<[Limit; 3], AppError> {
        let rows = sqlx::query("SELECT period, amount, pending_set, pending_amount, pending_from FROM rg_deposit_limits WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(self.db().writer())
            .await
            .map_err(db_err)?;
        let mut out = [Limit::default(); 3];
        for r in rows {
            let Some(p) = Period::parse(&r.get::<String, _>(0)) else { continue };
            let pending = store::flag(r.get(2)).then(|| (r.get::<Option<i64>, _>(3), r.get::<Option<i64>, _>(4).unwrap_or(0)));
            out[p as usize] = Limit { amount: r.get(1), pending };
        }
        Ok(out)
    }

    /// What counts against the limits in `currency` for a window starting at `since`, read
    /// on `conn`: the deposits credited to the player's real balance since then, plus the
    /// deposit intents still open (reserved until they succeed, fail or expire).
    async fn counted_since(conn: &mut AnyConnection, user_id: i64, currency: Currency, since: i64) -> Result<Minor, AppError> {
        let credited: i64 = sqlx::query(
            "SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_transactions t \
             JOIN ledger_entries e ON e.tx_id = t.id JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE t.user_id = $1 AND t.tx_type IN (16, 11, 114) AND t.created_at > $2 \
             AND a.owner_id = $1 AND a.is_house = 0 AND a.kind = 'real' AND a.currency = $3",
        )
        .bind(user_id)
        .bind(since)
        .bind(currency.code())
        .fetch_one(&mut *conn)
        .await
        .map_err(db_err)?
        .get(0);
        let open: i64 = sqlx::query(
            "SELECT CAST(COALESCE(SUM(credit_amount), 0) AS BIGINT) FROM payment_intents \
             WHERE user_id = $1 AND kind = 'deposit' AND status IN ('created', 'pending') AND credit_currency = $2",
        )
        .bind(user_id)
        .bind(currency.code())
        .fetch_one(&mut *conn)
        .await
        .map_err(db_err)?
        .get(0);
        Ok(credited.saturating_add(open))
    }

    /// Deposits counted in each window ending at `now` (day, week, month): credited in the
    /// window, plus the open deposit intents.
    pub async fn used(&self, user_id: i64, currency: Currency, now: i64) -> Result<[Minor; 3], AppError> {
        let mut conn = self.db().reader().acquire().await.map_err(db_err)?;
        let mut used = [0; 3];
        for p in Period::ALL {
            used[p as usize] = Self::counted_since(&mut conn, user_id, currency, now - p.window_ms()).await?;
        }
        Ok(used)
    }

    /// The limits in `currency` on `conn` as in force at `now`; on PostgreSQL the rows are
    /// locked until the caller's transaction ends (`lock`).
    async fn limits_on(&self, conn: &mut AnyConnection, user_id: i64, currency: Currency, now: i64, lock: bool) -> Result<[Limit; 3], AppError> {
        let lock = if lock && self.db().backend() == store::Backend::Postgres { " FOR UPDATE" } else { "" };
        let rows = sqlx::query(&format!(
            "SELECT period, amount, pending_set, pending_amount, pending_from, currency FROM rg_deposit_limits WHERE user_id = $1{lock}"
        ))
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await
        .map_err(db_err)?;
        let mut out = [Limit::default(); 3];
        for r in rows {
            let Some(p) = Period::parse(&r.get::<String, _>(0)) else { continue };
            if r.get::<String, _>(5) != currency.code() {
                continue;
            }
            let pending = store::flag(r.get(2)).then(|| (r.get::<Option<i64>, _>(3), r.get::<Option<i64>, _>(4).unwrap_or(0)));
            out[p as usize] = Limit { amount: r.get(1), pending }.at(now);
        }
        Ok(out)
    }

    /// The limits check on `conn`: `amount` more (or, with `included`, `amount` already
    /// written on `conn` and counted) must keep every window within its limit, else 120 with
    /// `{period, limit, used, remaining}` (`used` without this deposit).
    async fn check_limits_on(&self, conn: &mut AnyConnection, user_id: i64, currency: Currency, amount: Minor, now: i64, included: bool) -> Result<(), AppError> {
        let limits = self.limits_on(conn, user_id, currency, now, included).await?;
        for p in Period::ALL {
            let Some(limit) = limits[p as usize].amount else { continue };
            let counted = Self::counted_since(conn, user_id, currency, now - p.window_ms()).await?;
            let used = if included { counted - amount } else { counted };
            if used.saturating_add(amount) > limit {
                return Err(AppError::new(ErrorCode::DepositLimitReached).data(LimitRefusal {
                    period: p.as_str(),
                    limit: MajorUnits::new(limit, currency),
                    used: MajorUnits::new(used.max(0), currency),
                    remaining: MajorUnits::new((limit - used).max(0), currency),
                }));
            }
        }
        Ok(())
    }

    /// The binding deposit-limit check, inside the transaction that records a deposit of
    /// `amount` (minor units of `currency`) for `user_id`: the intent row or the desk's
    /// posting is already written on `conn` (so it counts). Serialised per player (see the
    /// module docs); an `Err` must roll the caller's transaction back.
    pub async fn reserve_deposit(&self, conn: &mut AnyConnection, user_id: i64, currency: Currency, amount: Minor) -> Result<(), AppError> {
        self.check_limits_on(conn, user_id, currency, amount, now_ms(), true).await
    }

    /// The player's state at `now`.
    pub async fn state(&self, user: &User, now: i64) -> Result<RgState, AppError> {
        let limits = self.stored_limits(user.id).await?.map(|l| l.at(now));
        let used = self.used(user.id, user.currency, now).await?;
        let minutes = sqlx::query("SELECT reality_check_minutes FROM rg_settings WHERE user_id = $1")
            .bind(user.id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .map(|r| r.get::<i64, _>(0))
            .unwrap_or(0);
        let row = sqlx::query("SELECT self_excluded_until, cool_off_until FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        let live = |v: Option<i64>| v.filter(|u| *u > now);
        Ok(RgState {
            currency: user.currency,
            limits,
            used,
            self_excluded_until: live(row.get(0)),
            cool_off_until: live(row.get(1)),
            reality_check_minutes: minutes,
        })
    }

    /// The check before a deposit of `amount` (minor units of `currency`) for `user_id` at
    /// the current time. Refuses a self-excluded player (121) or one in a cool-off (122)
    /// with `{until}`, and a deposit that would take the deposits counted in a rolling
    /// window (credited, and open intents) above the player's limit for it (120) with
    /// `{period, limit, used, remaining}`. Limits are in the player's currency: a deposit in
    /// another currency is checked against blocks only. Not binding under concurrency: the
    /// code that records the deposit runs [`Self::reserve_deposit`] in its transaction.
    pub async fn check_deposit(&self, user_id: i64, currency: Currency, amount: Minor) -> Result<(), AppError> {
        self.check_deposit_at(user_id, currency, amount, now_ms()).await
    }

    /// [`Self::check_deposit`] at an explicit time.
    pub async fn check_deposit_at(&self, user_id: i64, currency: Currency, amount: Minor, now: i64) -> Result<(), AppError> {
        let user = self.accounts.user_by_id(user_id).await?.ok_or(ErrorCode::NoSuchUser)?;
        rg_block(user.self_excluded_until, user.cool_off_until, now)?;
        if currency != user.currency {
            return Ok(());
        }
        let mut conn = self.db().reader().acquire().await.map_err(db_err)?;
        self.check_limits_on(&mut conn, user_id, currency, amount, now, false).await
    }

    /// Sets the three deposit limits (minor units; `None`: no limit) at `now`: for each
    /// period, a decrease (or a first limit) applies at once and cancels a pending raise; a
    /// raise or a removal becomes pending for 24 h (asking again for the same pending value
    /// keeps its time); asking for the limit in force cancels what was pending.
    pub async fn set_deposit_limits(&self, user: &User, wanted: [Option<Minor>; 3], now: i64) -> Result<RgState, AppError> {
        for (p, w) in Period::ALL.iter().zip(wanted) {
            if w.is_some_and(|a| a <= 0) {
                return Err(field_error(ErrorCode::InvalidField, p.as_str(), Reason::Invalid));
            }
        }
        let stored = self.stored_limits(user.id).await?;
        for p in Period::ALL {
            let current = stored[p as usize].at(now);
            let want = wanted[p as usize];
            let next = match (current.amount, want) {
                (cur, w) if cur == w => Limit { amount: cur, pending: None },
                // A first limit, or a decrease: at once.
                (None, Some(w)) => Limit { amount: Some(w), pending: None },
                (Some(c), Some(w)) if w < c => Limit { amount: Some(w), pending: None },
                // A raise or a removal: after the delay (the same pending value keeps its time).
                (cur, w) => {
                    let from = match current.pending {
                        Some((amount, from)) if amount == w => from,
                        _ => now + RAISE_DELAY_MS,
                    };
                    Limit { amount: cur, pending: Some((w, from)) }
                }
            };
            if next == stored[p as usize] {
                continue;
            }
            sqlx::query(
                "INSERT INTO rg_deposit_limits (user_id, period, currency, amount, pending_set, pending_amount, pending_from, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (user_id, period) DO UPDATE SET amount = $4, pending_set = $5, pending_amount = $6, pending_from = $7, updated_at = $8",
            )
            .bind(user.id)
            .bind(p.as_str())
            .bind(user.currency.code())
            .bind(next.amount)
            .bind(next.pending.is_some() as i64)
            .bind(next.pending.and_then(|(a, _)| a))
            .bind(next.pending.map(|(_, f)| f))
            .bind(now)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
            let detail = serde_json::json!({
                "period": p.as_str(), "currency": user.currency.code(), "amount": next.amount,
                "pending_amount": next.pending.and_then(|(a, _)| a), "pending_from": next.pending.map(|(_, f)| f),
            });
            self.event(user.id, "deposit_limit", detail, now).await?;
        }
        self.state(user, now).await
    }

    /// Self-exclusion, confirmed with the password (4 when wrong). Ends every session of
    /// the player. Returns its end ([`RG_PERMANENT`] when permanent).
    pub async fn self_exclude(&self, user: &User, period: Exclusion, password: &str, now: i64) -> Result<i64, AppError> {
        let row = sqlx::query("SELECT password_hash FROM users WHERE id = $1")
            .bind(user.id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        let hash: String = row.get(0);
        if password.is_empty() || password.len() > 128 || !password::verify(password.to_string(), hash).await {
            return Err(field_error(ErrorCode::IncorrectPassword, "password", Reason::Wrong));
        }
        let until = period.until(now);
        self.block(user.id, "self_excluded_until", until, serde_json::json!({ "period": period.as_str(), "until": until }), "self_exclusion", now)
            .await?;
        Ok(until)
    }

    /// A cool-off from `now`. Ends every session of the player. Returns its end.
    pub async fn cool_off(&self, user: &User, period: CoolOff, now: i64) -> Result<i64, AppError> {
        let until = now + period.duration_ms();
        self.block(user.id, "cool_off_until", until, serde_json::json!({ "period": period.as_str(), "until": until }), "cool_off", now)
            .await?;
        Ok(until)
    }

    /// Sets a block column to `until` unless a block (either kind) ending later is in force
    /// (123: a break is never shortened), then ends every session. One conditional update:
    /// two requests racing keep the later end.
    async fn block(&self, user_id: i64, column: &str, until: i64, detail: serde_json::Value, kind: &str, now: i64) -> Result<(), AppError> {
        let res = sqlx::query(&format!(
            "UPDATE users SET {column} = $1, updated_at = $2 WHERE id = $3 \
             AND COALESCE(self_excluded_until, 0) <= $1 AND COALESCE(cool_off_until, 0) <= $1"
        ))
        .bind(until)
        .bind(now)
        .bind(user_id)
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        if res.rows_affected() == 0 {
            return Err(ErrorCode::RgBlockShorter.into());
        }
        self.event(user_id, kind, detail, now).await?;
        self.accounts.revoke_all_sessions(user_id, None).await
    }

    /// The reality-check interval: 0 (off), 15, 30, 60 or 120 minutes.
    pub async fn set_reality_check(&self, user_id: i64, minutes: i64, now: i64) -> Result<(), AppError> {
        if !REALITY_CHECK_MINUTES.contains(&minutes) {
            return Err(field_error(ErrorCode::InvalidField, "minutes", Reason::Invalid));
        }
        sqlx::query(
            "INSERT INTO rg_settings (user_id, reality_check_minutes, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET reality_check_minutes = $2, updated_at = $3",
        )
        .bind(user_id)
        .bind(minutes)
        .bind(now)
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        self.event(user_id, "reality_check", serde_json::json!({ "minutes": minutes }), now).await
    }

    /// The signed-in session behind `token` for the reality check: when it started, the
    /// net result of play since then (stakes, wins and rollbacks on the player's balances in
    /// their currency: one indexed read of the player's postings), and the interval.
    pub async fn session_summary(&self, user: &User, token: &str) -> Result<SessionSummary, AppError> {
        let started_at: i64 = sqlx::query("SELECT created_at FROM sessions WHERE token_hash = $1 AND user_id = $2")
            .bind(sha256_hex(token))
            .bind(user.id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NotAuthenticated)?
            .get(0);
        let net: i64 = sqlx::query(&format!(
            "SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_transactions t \
             JOIN ledger_entries e ON e.tx_id = t.id JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE t.user_id = $1 AND t.created_at >= $2 AND t.tx_type IN ({PLAY_TX_TYPES}) \
             AND a.owner_id = $1 AND a.is_house = 0 AND a.currency = $3"
        ))
        .bind(user.id)
        .bind(started_at)
        .bind(user.currency.code())
        .fetch_one(self.db().reader())
        .await
        .map_err(db_err)?
        .get(0);
        let minutes = sqlx::query("SELECT reality_check_minutes FROM rg_settings WHERE user_id = $1")
            .bind(user.id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .map(|r| r.get::<i64, _>(0))
            .unwrap_or(0);
        Ok(SessionSummary { started_at, net, reality_check_minutes: minutes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_are_calendar_months() {
        // 2026-08-31T10:00:00Z + 6 months = 2027-02-28T10:00:00Z (clamped).
        let aug31 = 1_788_170_400_000;
        assert_eq!(kernel::clock::to_rfc3339(aug31), "2026-08-31T10:00:00.000Z");
        assert_eq!(kernel::clock::to_rfc3339(add_months(aug31, 6)), "2027-02-28T10:00:00.000Z");
        assert_eq!(kernel::clock::to_rfc3339(add_months(aug31, 12)), "2027-08-31T10:00:00.000Z");
        assert_eq!(Exclusion::Permanent.until(aug31), RG_PERMANENT);
    }

    #[test]
    fn a_pending_change_applies_at_its_time() {
        let l = Limit { amount: Some(100), pending: Some((Some(500), 1_000)) };
        assert_eq!(l.at(999), l);
        assert_eq!(l.at(1_000), Limit { amount: Some(500), pending: None });
        let removal = Limit { amount: Some(100), pending: Some((None, 1_000)) };
        assert_eq!(removal.at(2_000), Limit { amount: None, pending: None });
    }

    #[test]
    fn periods_parse() {
        assert_eq!(Exclusion::parse("1y"), Some(Exclusion::OneYear));
        assert_eq!(Exclusion::parse("2y"), None);
        assert_eq!(CoolOff::parse("7d").map(CoolOff::duration_ms), Some(7 * DAY_MS));
        assert_eq!(Period::parse("week"), Some(Period::Week));
    }
}
