//! Weekly cashback (spec §9, docs/PROMOTIONS.md): a player's net loss of the ISO week in the
//! operator's zone earns the [`WeeklyRule`]'s tier, accrued hourly into `weekly_cashback` and
//! paid for the previous week every Monday 00:00 by one owner.
//!
//! - **Net loss**: real-money stakes of every stake type ([`TxType::STAKES`]) less their
//!   rollbacks, against real-money returns (wins 6, sports payouts 212, resettlements 213,
//!   partner payouts 215, rollbacks of wins) with their entry in the week.
//! - **Set-based**: one aggregate per chunk of players (a range of account owners), one
//!   multi-row upsert, and the payments by [`wallet::Ledger::post_many`] in chunks, so 100,000
//!   players are computed and paid in seconds (docs/PERFORMANCE.md).
//! - **Exactly once**: each payment is the posting `wcb:{week}:{user}`; a week's amounts are
//!   frozen once computed after its end (a closed week's entries never change, and a late
//!   accrual cannot touch a frozen row), so a run repeated, run twice at once, or killed midway
//!   and restarted posts every player's cashback once. With PostgreSQL one instance owns the job
//!   (advisory lock [`LOCK_KEY`]); SQLite serves one instance (an in-process lock).

use super::{db_err, Promotions};
use crate::cashback::{net_loss, WeeklyRule, SUPER_AGENT_BPS};
use crate::periods::{self, Week};
use crate::Minor;
use kernel::clock::now_ms;
use kernel::{AppError, Currency, ErrorCode};
use serde::Serialize;
use std::collections::HashMap;
use std::str::FromStr;
use store::sqlx::{self, Row};
use store::Backend;
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

/// The PostgreSQL advisory lock of the weekly cashback payer.
pub const LOCK_KEY: i64 = 7_351_019;

/// Players per aggregate, per upsert and per `post_many`.
pub const CHUNK: usize = 2_000;

/// The real-money returns: wins, sports payouts and resettlements, partner payouts.
const RETURNS: [TxType; 4] = [TxType::BetWin, TxType::SportPayout, TxType::SportResettle, TxType::PartnerSportPayout];

/// What a run of the weekly payer did.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CashbackRun {
    /// The ISO week, e.g. `2026-W48`.
    pub week: String,
    /// Another run owned the job: this one did nothing.
    pub busy: bool,
    /// Players whose week was computed by this run (0 when the week was already frozen).
    pub computed: i64,
    /// Payments posted by this run.
    pub paid: i64,
    /// Payments found already posted (a run killed between posting and marking), marked now.
    pub replayed: i64,
    /// Payments the ledger refused (left unpaid for the next run).
    pub failed: i64,
    /// Minor units paid by this run (per currency summed; the week is in one currency in practice).
    pub amount: Minor,
    /// Every player of the week with cashback is paid.
    pub finished: bool,
    /// Super agents paid their network's cashback by this run.
    pub agents_paid: i64,
    /// Minor units paid to super agents by this run.
    pub agents_amount: Minor,
}

/// Parses `2026-W48` into the week it names in `tz`.
pub fn parse_week(key: &str, tz: &jiff::tz::TimeZone) -> Result<Week, AppError> {
    let bad = || AppError::with_detail(ErrorCode::InvalidField, "week: an ISO week such as 2026-W48");
    let (y, w) = key.trim().split_once("-W").ok_or_else(bad)?;
    let (year, week): (i16, i8) = (y.parse().map_err(|_| bad())?, w.parse().map_err(|_| bad())?);
    let monday = jiff::civil::ISOWeekDate::new(year, week, jiff::civil::Weekday::Monday).map_err(|_| bad())?.date();
    let noon = monday.at(12, 0, 0, 0).to_zoned(tz.clone()).map_err(|_| bad())?.timestamp().as_second();
    let found = periods::week_of(noon, tz).map_err(|_| bad())?;
    if found.key != format!("{year:04}-W{week:02}") {
        return Err(bad());
    }
    Ok(found)
}

fn zone() -> Result<jiff::tz::TimeZone, AppError> {
    periods::zone(periods::DEFAULT_ZONE).map_err(db_err)
}

fn codes(types: &[TxType]) -> String {
    types.iter().map(|t| t.code().to_string()).collect::<Vec<_>>().join(", ")
}

/// Holds the PostgreSQL advisory lock on its own connection until dropped (unlocked first).
struct PgOwner(Option<sqlx::pool::PoolConnection<sqlx::Any>>);

impl PgOwner {
    async fn release(mut self) {
        if let Some(mut conn) = self.0.take() {
            let _ = sqlx::query("SELECT CAST(pg_advisory_unlock($1) AS TEXT)").bind(LOCK_KEY).execute(&mut *conn).await;
        }
    }
}

impl Promotions {
    /// The next `CHUNK` players (owners of a real-money account) after id `after`, in id order:
    /// the jobs walk every player this way.
    pub(crate) async fn players_after(&self, after: i64) -> Result<Vec<i64>, AppError> {
        Ok(sqlx::query("SELECT owner_id FROM ledger_accounts WHERE is_house = 0 AND kind = 'real' AND owner_id > $1 ORDER BY owner_id LIMIT $2")
            .bind(after)
            .bind(CHUNK as i64)
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    /// The weekly cashback rule (spec §9 tiers).
    pub fn weekly_rule(&self) -> WeeklyRule {
        WeeklyRule::default()
    }

    /// The cashback accrued so far this week (the balance reply's `weeklyCashback`), minor units
    /// of the player's currency; 0 before the first accrual of the week.
    pub async fn weekly_accrued(&self, user_id: i64) -> Result<Minor, AppError> {
        let week = periods::week_of(now_ms() / 1000, &zone()?).map_err(db_err)?;
        let row = sqlx::query("SELECT amount FROM weekly_cashback WHERE period = $1 AND user_id = $2")
            .bind(&week.key)
            .bind(user_id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?;
        Ok(row.map_or(0, |r| r.get::<i64, _>(0)))
    }

    /// The current week (operator's zone).
    pub fn current_week(&self) -> Result<Week, AppError> {
        periods::week_of(now_ms() / 1000, &zone()?).map_err(db_err)
    }

    /// The week before the current one (the one the Monday run pays).
    pub fn previous_week(&self) -> Result<Week, AppError> {
        periods::previous_week(now_ms() / 1000, &zone()?).map_err(db_err)
    }

    /// The week named `2026-W48` in the operator's zone.
    pub fn week(&self, key: &str) -> Result<Week, AppError> {
        parse_week(key, &zone()?)
    }

    /// Accrues the current week for every player (the hourly job): amounts shown to the player,
    /// not paid. Returns the number of players with activity.
    pub async fn accrue_current_week(&self) -> Result<i64, AppError> {
        let week = self.current_week()?;
        self.accrue_week(&week).await
    }

    /// Accrues `week` for every player (not frozen, not paid); the number of players with
    /// activity. The hourly job accrues the current week; the benchmark times it.
    pub async fn accrue_week(&self, week: &Week) -> Result<i64, AppError> {
        let players = self.compute_week(week, false).await?;
        // The balance reply's cached `weeklyCashback` figures are out of date (summary.rs).
        self.forget_players();
        Ok(players)
    }

    /// Computes `week` for every player, chunk by chunk; `freeze` marks the amounts final.
    async fn compute_week(&self, week: &Week, freeze: bool) -> Result<i64, AppError> {
        let rule = self.weekly_rule();
        let stakes = TxType::stake_codes_sql();
        let returns = codes(&RETURNS);
        // One aggregate per range of account owners: the players' real-money entries of the
        // week (index on entries (account_id, created_at)), a rollback classed by what it reverses.
        let aggregate = format!(
            "SELECT a.owner_id, a.currency, \
             CAST(COALESCE(SUM(CASE WHEN t.tx_type IN ({stakes}) OR (t.tx_type = {rb} AND o.tx_type IN ({stakes})) THEN -e.amount ELSE 0 END), 0) AS BIGINT), \
             CAST(COALESCE(SUM(CASE WHEN t.tx_type IN ({returns}) OR (t.tx_type = {rb} AND o.tx_type IN ({returns})) THEN e.amount ELSE 0 END), 0) AS BIGINT) \
             FROM ledger_accounts a \
             JOIN ledger_entries e ON e.account_id = a.id AND e.created_at >= $3 AND e.created_at < $4 \
             JOIN ledger_transactions t ON t.id = e.tx_id \
             LEFT JOIN ledger_transactions o ON o.id = t.reverses_tx_id \
             WHERE a.owner_id >= $1 AND a.owner_id <= $2 AND a.kind = 'real' AND a.is_house = 0 \
             AND t.tx_type IN ({stakes}, {returns}, {rb}) \
             GROUP BY a.owner_id, a.currency",
            rb = TxType::Rollback.code(),
        );
        let mut after = i64::MIN;
        let mut players = 0i64;
        loop {
            let owners = self.players_after(after).await?;
            let (Some(&lo), Some(&hi)) = (owners.first(), owners.last()) else { break };
            after = hi;
            let rows = sqlx::query(&aggregate)
                .bind(lo)
                .bind(hi)
                .bind(week.start * 1000)
                .bind(week.end * 1000)
                .fetch_all(self.db().reader())
                .await
                .map_err(db_err)?;
            // One row per player: their most staked currency (players have one in practice).
            let mut by_user: HashMap<i64, (Currency, Minor, Minor)> = HashMap::new();
            for r in rows {
                let (user, code, staked, returned): (i64, String, i64, i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
                let Ok(currency) = Currency::from_str(&code) else { continue };
                if staked == 0 && returned == 0 {
                    continue;
                }
                let keep = by_user.get(&user).is_none_or(|(_, s, _)| staked > *s);
                if keep {
                    by_user.insert(user, (currency, staked, returned));
                }
            }
            if by_user.is_empty() {
                continue;
            }
            players += by_user.len() as i64;
            let mut users: Vec<_> = by_user.into_iter().collect();
            users.sort_by_key(|(u, _)| *u);
            self.upsert(week, &users, &rule, freeze).await?;
        }
        Ok(players)
    }

    async fn upsert(&self, week: &Week, users: &[(i64, (Currency, Minor, Minor))], rule: &WeeklyRule, freeze: bool) -> Result<(), AppError> {
        let now = now_ms();
        let sql = format!(
            "INSERT INTO weekly_cashback (period, user_id, currency, staked, returned, amount, frozen, updated_at) VALUES {} \
             ON CONFLICT (period, user_id) DO UPDATE SET currency = excluded.currency, staked = excluded.staked, returned = excluded.returned, \
             amount = excluded.amount, frozen = excluded.frozen, updated_at = excluded.updated_at \
             WHERE weekly_cashback.paid_at IS NULL AND (weekly_cashback.frozen = 0 OR excluded.frozen = 1)",
            store::values(users.len(), 8, 1)
        );
        let mut conn = self.db().writer().acquire().await.map_err(db_err)?;
        let sql = store::positional(&conn, &sql).into_owned();
        let mut q = sqlx::query(&sql);
        for (user, (currency, staked, returned)) in users {
            let amount = rule.cashback(net_loss(*staked, *returned), *currency);
            q = q.bind(&week.key).bind(*user).bind(currency.code()).bind(*staked).bind(*returned).bind(amount).bind(i64::from(freeze)).bind(now);
        }
        q.execute(&mut *conn).await.map_err(db_err)?;
        Ok(())
    }

    /// Takes the job: `None` when another run owns it.
    async fn own(&self) -> Result<Option<(tokio::sync::MutexGuard<'_, ()>, Option<PgOwner>)>, AppError> {
        // In-process first (SQLite serves one instance; two runs of one instance never queue).
        let Ok(local) = self.inner.cashback_owner.try_lock() else { return Ok(None) };
        if self.db().backend() == Backend::Sqlite {
            return Ok(Some((local, None)));
        }
        let mut conn = self.db().writer().acquire().await.map_err(db_err)?;
        let got = sqlx::query("SELECT CAST(pg_try_advisory_lock($1) AS TEXT)")
            .bind(LOCK_KEY)
            .fetch_one(&mut *conn)
            .await
            .map_err(db_err)?
            .get::<String, _>(0);
        if got == "true" || got == "t" {
            Ok(Some((local, Some(PgOwner(Some(conn))))))
        } else {
            Ok(None)
        }
    }

    /// Pays `week` (which must have ended): computes and freezes every player's amount (once),
    /// then posts the unpaid ones chunk by chunk. Safe to repeat, to run on several instances
    /// at once and to kill at any point.
    pub async fn pay_weekly_cashback(&self, week: &Week) -> Result<CashbackRun, AppError> {
        self.pay_weekly_cashback_chunks(week, CHUNK, None).await
    }

    /// [`Self::pay_weekly_cashback`] paying `chunk` players per `post_many` and stopping after
    /// `max_chunks` chunks (`None`: all): what a run killed midway leaves behind (tests).
    pub async fn pay_weekly_cashback_chunks(&self, week: &Week, chunk: usize, max_chunks: Option<usize>) -> Result<CashbackRun, AppError> {
        let mut run = CashbackRun { week: week.key.clone(), ..Default::default() };
        if now_ms() < week.end * 1000 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "week: not over yet"));
        }
        let Some((_local, pg)) = self.own().await? else {
            run.busy = true;
            return Ok(run);
        };
        let result = self.pay_owned(week, chunk.max(1), max_chunks, &mut run).await;
        if let Some(pg) = pg {
            pg.release().await;
        }
        result.map(|()| run)
    }

    async fn pay_owned(&self, week: &Week, chunk: usize, max_chunks: Option<usize>, run: &mut CashbackRun) -> Result<(), AppError> {
        let now = now_ms();
        sqlx::query("INSERT INTO weekly_cashback_runs (period, updated_at) VALUES ($1, $2) ON CONFLICT (period) DO NOTHING")
            .bind(&week.key)
            .bind(now)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        let state = sqlx::query("SELECT computed_at, finished_at FROM weekly_cashback_runs WHERE period = $1")
            .bind(&week.key)
            .fetch_one(self.db().reader())
            .await
            .map_err(db_err)?;
        let (computed_at, finished_at): (Option<i64>, Option<i64>) = (state.get(0), state.get(1));
        if finished_at.is_some() {
            run.finished = true;
            return Ok(());
        }
        if computed_at.is_none() {
            run.computed = self.compute_week(week, true).await?;
            sqlx::query("UPDATE weekly_cashback_runs SET computed_at = $1, updated_at = $1 WHERE period = $2")
                .bind(now_ms())
                .bind(&week.key)
                .execute(self.db().writer())
                .await
                .map_err(db_err)?;
        }
        let mut after = i64::MIN;
        let mut chunks = 0usize;
        loop {
            if max_chunks.is_some_and(|m| chunks >= m) {
                return Ok(());
            }
            let rows = sqlx::query("SELECT user_id, currency, amount FROM weekly_cashback WHERE period = $1 AND paid_at IS NULL AND amount > 0 AND user_id > $2 ORDER BY user_id LIMIT $3")
                .bind(&week.key)
                .bind(after)
                .bind(chunk as i64)
                .fetch_all(self.db().reader())
                .await
                .map_err(db_err)?;
            let Some(last) = rows.last() else { break };
            after = last.get(0);
            chunks += 1;
            let mut reqs = Vec::with_capacity(rows.len());
            let mut users = Vec::with_capacity(rows.len());
            for r in &rows {
                let (user, code, amount): (i64, String, i64) = (r.get(0), r.get(1), r.get(2));
                let Ok(currency) = Currency::from_str(&code) else {
                    run.failed += 1;
                    continue;
                };
                users.push((user, amount));
                reqs.push(
                    PostingRequest::transfer(
                        TxType::WeeklyCashbackPayout,
                        format!("wcb:{}:{user}", week.key),
                        Some(user),
                        currency,
                        AccountRef::House(HouseAccount::Cashback),
                        AccountRef::Player { user_id: user, kind: BalanceKind::Cashback },
                        amount,
                    )
                    .comment(format!("Weekly cashback {}", week.key))
                    .metadata(serde_json::json!({ "week": week.key })),
                );
            }
            let results = self.ledger().post_many(reqs).await;
            let mut done = Vec::with_capacity(users.len());
            for ((user, amount), r) in users.into_iter().zip(results) {
                match r {
                    Ok(receipt) => {
                        if receipt.replayed {
                            run.replayed += 1;
                        } else {
                            run.paid += 1;
                            run.amount += amount;
                        }
                        done.push(user);
                    }
                    Err(e) => {
                        tracing::warn!(user, week = %week.key, error = %e, "weekly cashback: payment refused");
                        run.failed += 1;
                    }
                }
            }
            if !done.is_empty() {
                let sql = format!(
                    "UPDATE weekly_cashback SET paid_at = $1 WHERE period = $2 AND user_id IN {}",
                    store::values(1, done.len(), 3)
                );
                let mut q = sqlx::query(&sql).bind(now_ms()).bind(&week.key);
                for u in &done {
                    q = q.bind(*u);
                }
                q.execute(self.db().writer()).await.map_err(db_err)?;
            }
        }
        if run.failed == 0 {
            self.pay_super_agents(week, run).await?;
        }
        if run.failed == 0 {
            let totals = sqlx::query("SELECT COUNT(*), CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM weekly_cashback WHERE period = $1 AND paid_at IS NOT NULL")
                .bind(&week.key)
                .fetch_one(self.db().reader())
                .await
                .map_err(db_err)?;
            let (paid, total): (i64, i64) = (totals.get(0), totals.get(1));
            let players: i64 = sqlx::query("SELECT COUNT(*) FROM weekly_cashback WHERE period = $1")
                .bind(&week.key)
                .fetch_one(self.db().reader())
                .await
                .map_err(db_err)?
                .get(0);
            sqlx::query("UPDATE weekly_cashback_runs SET finished_at = $1, players = $2, paid = $3, total = $4, updated_at = $1 WHERE period = $5")
                .bind(now_ms())
                .bind(players)
                .bind(paid)
                .bind(total)
                .bind(&week.key)
                .execute(self.db().writer())
                .await
                .map_err(db_err)?;
            run.finished = true;
        }
        Ok(())
    }

    /// Super-agent cashback (spec §9) for a week whose players' amounts are frozen: 10 % of
    /// each super agent's **network** net loss, paid into the agent's cashback balance under
    /// `sacb:{week}:{agent}` (once). The network: players (role 0) whose
    /// `parent_super_agent_id` is the agent, and players whose `parent_cashier_id` is a
    /// cashier (role 2) of the agent (the cashier's `parent_super_agent_id`, set by
    /// `Cashier::assign_cashier`). Its net loss: the week's real-money stakes less returns of
    /// those players in the agent's currency (their frozen `weekly_cashback` rows), summed
    /// over the network (a winner offsets a loser), never negative. Each agent's row is
    /// computed once per week (kept as it is by later runs), then paid like the players'.
    async fn pay_super_agents(&self, week: &Week, run: &mut CashbackRun) -> Result<(), AppError> {
        let rows = sqlx::query(
            "SELECT a.id, a.currency, COUNT(*), CAST(SUM(w.staked) AS BIGINT), CAST(SUM(w.returned) AS BIGINT) \
             FROM weekly_cashback w JOIN users p ON p.id = w.user_id AND p.role = 0 \
             LEFT JOIN users c ON c.id = p.parent_cashier_id AND c.role = 2 \
             JOIN users a ON a.id = COALESCE(p.parent_super_agent_id, c.parent_super_agent_id) AND a.role = 3 \
             WHERE w.period = $1 AND w.currency = a.currency \
             GROUP BY a.id, a.currency ORDER BY a.id",
        )
        .bind(&week.key)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let now = now_ms();
        let mut agents = Vec::with_capacity(rows.len());
        for r in &rows {
            let (agent, code, players, staked, returned): (i64, String, i64, i64, i64) = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
            let amount = crate::bps_of(net_loss(staked, returned), SUPER_AGENT_BPS);
            agents.push((agent, code, players, staked, returned, amount));
        }
        for chunk in agents.chunks(CHUNK) {
            // Computed once: a row already there (another run) stays as it is.
            let sql = format!(
                "INSERT INTO super_agent_cashback (period, agent_id, currency, players, staked, returned, amount, created_at) VALUES {} \
                 ON CONFLICT (period, agent_id) DO NOTHING",
                store::values(chunk.len(), 8, 1)
            );
            let mut conn = self.db().writer().acquire().await.map_err(db_err)?;
            let sql = store::positional(&conn, &sql).into_owned();
            let mut q = sqlx::query(&sql);
            for (agent, code, players, staked, returned, amount) in chunk {
                q = q.bind(&week.key).bind(*agent).bind(code.as_str()).bind(*players).bind(*staked).bind(*returned).bind(*amount).bind(now);
            }
            q.execute(&mut *conn).await.map_err(db_err)?;
        }
        let unpaid = sqlx::query("SELECT agent_id, currency, amount, players FROM super_agent_cashback WHERE period = $1 AND paid_at IS NULL AND amount > 0 ORDER BY agent_id")
            .bind(&week.key)
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        for chunk in unpaid.chunks(CHUNK) {
            let mut reqs = Vec::with_capacity(chunk.len());
            let mut who = Vec::with_capacity(chunk.len());
            for r in chunk {
                let (agent, code, amount, players): (i64, String, i64, i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
                let Ok(currency) = Currency::from_str(&code) else {
                    run.failed += 1;
                    continue;
                };
                who.push((agent, amount));
                reqs.push(
                    PostingRequest::transfer(
                        TxType::SuperAgentCashback,
                        format!("sacb:{}:{agent}", week.key),
                        Some(agent),
                        currency,
                        AccountRef::House(HouseAccount::Cashback),
                        AccountRef::Player { user_id: agent, kind: BalanceKind::Cashback },
                        amount,
                    )
                    .comment(format!("Super-agent cashback {}", week.key))
                    .metadata(serde_json::json!({ "week": week.key, "players": players })),
                );
            }
            let mut done = Vec::new();
            for ((agent, amount), r) in who.into_iter().zip(self.ledger().post_many(reqs).await) {
                match r {
                    Ok(receipt) => {
                        if !receipt.replayed {
                            run.agents_paid += 1;
                            run.agents_amount += amount;
                        }
                        done.push(agent);
                    }
                    Err(e) => {
                        tracing::warn!(agent, week = %week.key, error = %e, "super-agent cashback: payment refused");
                        run.failed += 1;
                    }
                }
            }
            if !done.is_empty() {
                let sql = format!(
                    "UPDATE super_agent_cashback SET paid_at = $1 WHERE period = $2 AND agent_id IN {}",
                    store::values(1, done.len(), 3)
                );
                let mut q = sqlx::query(&sql).bind(now_ms()).bind(&week.key);
                for a in &done {
                    q = q.bind(*a);
                }
                q.execute(self.db().writer()).await.map_err(db_err)?;
            }
        }
        Ok(())
    }

    /// Pays the previous week unless it is paid already (the job checks every minute, so the
    /// payment starts at Monday 00:00 in the operator's zone). `None` when nothing was due.
    pub async fn pay_previous_week_if_due(&self) -> Result<Option<CashbackRun>, AppError> {
        let previous = self.previous_week()?;
        let finished: Option<i64> = sqlx::query("SELECT finished_at FROM weekly_cashback_runs WHERE period = $1")
            .bind(&previous.key)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .and_then(|r| r.get::<Option<i64>, _>(0));
        if finished.is_some() {
            return Ok(None);
        }
        Ok(Some(self.pay_weekly_cashback(&previous).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_parse_from_their_keys() {
        let tz = periods::zone(periods::DEFAULT_ZONE).unwrap();
        let w = parse_week("2026-W48", &tz).unwrap();
        assert_eq!(w.key, "2026-W48");
        assert_eq!(w.start, "2026-11-22T23:00:00Z".parse::<jiff::Timestamp>().unwrap().as_second());
        assert_eq!(parse_week("2026-W53", &tz).unwrap().key, "2026-W53");
        for bad in ["2026-W54", "2025-W53", "2026-48", "W48", "2026-W", "x-Wy"] {
            assert!(parse_week(bad, &tz).is_err(), "{bad}");
        }
    }
}
