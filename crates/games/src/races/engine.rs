//! One pass of the races' loop — schedule, close, settle — and the loop itself.
//!
//! Every step is keyed on the state it reads, so a pass may be interrupted anywhere and run
//! again: scheduling is one transaction; a race closes with `UPDATE … WHERE phase = 'open'`;
//! a bet settles with `UPDATE … WHERE status IN ('placing', 'open')` after its win was
//! posted under the bet's own key (`vr:{bet}:win`), so a repeated win is a replay, never a
//! second payment; a race is `settled` only when none of its bets is left.

use super::maths::{self, payout, RaceResult, Selection};
use super::{chain, lock, RaceRow, Virtuals, RACE_SELECT};
use casino::{RollbackCall, WalletCall, STUDIO};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::AppError;
use serde::Serialize;
use std::time::Duration;
use store::sqlx::{self, Row};
use studio::fair::hex32;

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TickReport {
    pub scheduled: usize,
    pub closed: usize,
    pub settled_races: usize,
    pub settled_bets: usize,
    /// Bets (or races) that failed this pass and are retried on the next.
    pub failures: usize,
}

/// The provider transaction id of a bet's stake, win or void.
pub fn tx_id(bet_id: i64, kind: &str) -> String {
    format!("vr:{bet_id}:{kind}")
}

/// The loop: a pass every `tick_ms`. A pass runs in a task of its own, so an error or even a
/// panic in one pass is logged and the next pass runs; the loop itself only ends when it is
/// stopped (then `/healthz` fails).
pub(super) async fn run(v: Virtuals) {
    tracing::info!("virtual races: loop starting");
    /// Stopping the loop stops the pass it is waiting for too (as a process exit would).
    struct AbortOnDrop(tokio::task::AbortHandle);
    impl Drop for AbortOnDrop {
        fn drop(&mut self) {
            self.0.abort();
        }
    }
    loop {
        let me = v.clone();
        let pass = tokio::spawn(async move { me.tick().await });
        let _guard = AbortOnDrop(pass.abort_handle());
        match pass.await {
            Ok(Ok(r)) => {
                if r.failures > 0 {
                    tracing::warn!(?r, "virtual races: a pass left work for the next one");
                }
            }
            Ok(Err(e)) => tracing::error!(error = %e.text(), "virtual races: a pass failed; retrying"),
            Err(e) if e.is_panic() => tracing::error!("virtual races: a pass panicked; retrying"),
            Err(_) => return,
        }
        let tick = v.config().tick_ms.max(10);
        tokio::time::sleep(Duration::from_millis(tick)).await;
    }
}

impl Virtuals {
    /// One pass at the races' clock: schedule races up to the horizon, close the races whose
    /// start has come, settle the races that have been shown. Every part runs even when
    /// another failed; a failing race or bet is logged and retried on the next pass.
    pub async fn tick(&self) -> Result<TickReport, AppError> {
        let _one = self.inner.pass.lock().await;
        let now = self.now();
        let mut report = TickReport::default();
        let mut first_error = None;
        match self.schedule(now).await {
            Ok(n) => report.scheduled = n,
            Err(e) => {
                tracing::error!(error = %e.text(), "virtual races: scheduling failed");
                report.failures += 1;
                first_error.get_or_insert(e);
            }
        }
        match self.close(now).await {
            Ok(n) => report.closed = n,
            Err(e) => {
                tracing::error!(error = %e.text(), "virtual races: closing failed");
                report.failures += 1;
                first_error.get_or_insert(e);
            }
        }
        match self.settle_due(now, &mut report).await {
            Ok(()) => {}
            Err(e) => {
                tracing::error!(error = %e.text(), "virtual races: reading races to settle failed");
                report.failures += 1;
                first_error.get_or_insert(e);
            }
        }
        if report.scheduled + report.closed + report.settled_races + report.settled_bets > 0 {
            self.lobby_changed();
        }
        // Every part was tried; a pass that could do nothing at all (the database is gone)
        // reports the first error.
        match first_error {
            Some(e) if report.scheduled + report.closed + report.settled_races + report.settled_bets == 0 && report.failures >= 3 => Err(e),
            _ => Ok(report),
        }
    }

    /// The active chain, created at the first pass and when used up.
    async fn active_chain(&self, needed: u64) -> Result<(chain::Chain, i64), AppError> {
        let db = &self.inner.db;
        let cached = lock(&self.inner.chain).clone();
        let mut current = match cached {
            Some(c) => Some(c),
            None => chain::load(db, None).await?,
        };
        loop {
            if let Some(c) = current.take() {
                let row = sqlx::query("SELECT CAST(COALESCE(MAX(number), 0) AS BIGINT) FROM virtual_races WHERE chain_id = $1")
                    .bind(c.id)
                    .fetch_one(db.writer())
                    .await
                    .map_err(AppError::internal)?;
                let last: i64 = row.get(0);
                if last as u64 + needed <= c.length {
                    *lock(&self.inner.chain) = Some(c.clone());
                    return Ok((c, last));
                }
                tracing::info!(chain = c.id, "virtual races: the hash chain is used up; starting a new one");
            }
            let config = self.config();
            let created = chain::create(db, config.chain_length.max(needed), config.checkpoint_every, config.salt.clone()).await?;
            current = Some(created);
        }
    }

    /// Schedules every race slot in `(max(scheduled_until, now + min_open), now + horizon]`
    /// of every sport, numbered in order of betting close (ties in the lobby's order), after
    /// every race scheduled before: a race's seed is revealed at its close, and revealing
    /// h_r reveals every h_{r'} with r' < r, so those must all be closed already.
    async fn schedule(&self, now: i64) -> Result<usize, AppError> {
        let db = &self.inner.db;
        let config = self.config();
        let until: i64 = sqlx::query("SELECT scheduled_until FROM virtual_schedule WHERE id = 1")
            .fetch_optional(db.writer())
            .await
            .map_err(AppError::internal)?
            .map(|r| r.get(0))
            .unwrap_or(0);
        let target = now + config.horizon_ms;
        let from = until.max(now + config.min_open_ms);
        let mut slots: Vec<(i64, usize, super::Timetable)> = Vec::new();
        for (order, t) in config.timetables.iter().enumerate() {
            let every = t.every_ms.max(1_000);
            let mut at = (from.div_euclid(every) + 1) * every;
            while at <= target {
                slots.push((at, order, *t));
                at += every;
            }
        }
        if slots.is_empty() {
            return Ok(0);
        }
        slots.sort_by_key(|(at, order, _)| (*at, *order));
        let (chain, last) = self.active_chain(slots.len() as u64).await?;
        // The draws walk the chain (up to K − 1 hashes per race): off the runtime.
        let overround = config.overround_pct;
        let salt = chain.salt.clone();
        let planned = {
            let chain = chain.clone();
            tokio::task::spawn_blocking(move || {
                slots
                    .into_iter()
                    .enumerate()
                    .map(|(i, (at, _, t))| {
                        let number = last + 1 + i as i64;
                        let seed = chain.round_hash(number as u64).expect("the chain has room (checked above)");
                        let commit = maths::commitment(&seed);
                        let runners = maths::field(t.sport, &commit);
                        let prices = maths::prices(&runners, t.sport.places(), overround);
                        let order = maths::finishing_order(&seed, &salt, &runners);
                        (number, at, t, seed, commit, runners, prices, order)
                    })
                    .collect::<Vec<_>>()
            })
            .await
            .map_err(AppError::internal)?
        };
        let mut tx = db.writer().begin().await.map_err(AppError::internal)?;
        let created = now_ms();
        for (number, at, t, seed, commit, runners, prices, order) in &planned {
            sqlx::query(
                "INSERT INTO virtual_races (id, sport, chain_id, number, seed, commit_hash, runners, places, overround, prices, result, phase, \
                 opens_at, closes_at, finishes_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $13, $14, $15)",
            )
            .bind(next_id())
            .bind(t.sport.id())
            .bind(chain.id)
            .bind(*number)
            .bind(hex32(seed))
            .bind(hex32(commit))
            .bind(serde_json::to_string(runners).map_err(AppError::internal)?)
            .bind(t.sport.places() as i64)
            .bind(overround as i64)
            .bind(serde_json::to_string(prices).map_err(AppError::internal)?)
            .bind(serde_json::to_string(order).map_err(AppError::internal)?)
            .bind(now)
            .bind(*at)
            .bind(*at + t.run_ms)
            .bind(created)
            .execute(&mut *tx)
            .await
            .map_err(AppError::internal)?;
        }
        sqlx::query(
            "INSERT INTO virtual_schedule (id, scheduled_until) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET scheduled_until = excluded.scheduled_until",
        )
        .bind(target)
        .execute(&mut *tx)
        .await
        .map_err(AppError::internal)?;
        tx.commit().await.map_err(AppError::internal)?;
        Ok(planned.len())
    }

    /// Betting closes at the start: the race runs (its result, fixed since it was
    /// scheduled, becomes public).
    async fn close(&self, now: i64) -> Result<usize, AppError> {
        let done = sqlx::query("UPDATE virtual_races SET phase = 'running' WHERE phase = 'open' AND closes_at <= $1")
            .bind(now)
            .execute(self.inner.db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(done.rows_affected() as usize)
    }

    async fn settle_due(&self, now: i64, report: &mut TickReport) -> Result<(), AppError> {
        let rows = sqlx::query(&format!("{RACE_SELECT} WHERE r.phase = 'running' AND r.finishes_at <= $1 ORDER BY r.closes_at LIMIT 100"))
            .bind(now)
            .fetch_all(self.inner.db.writer())
            .await
            .map_err(AppError::internal)?;
        for row in &rows {
            let race = match super::race_row(row) {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!(error = %e.text(), "virtual races: an unreadable race is left unsettled");
                    report.failures += 1;
                    continue;
                }
            };
            match self.settle_race(&race).await {
                Ok((bets, failures)) => {
                    report.settled_bets += bets;
                    report.failures += failures;
                    if failures == 0 {
                        report.settled_races += 1;
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e.text(), race = race.id, "virtual races: settling a race failed; retrying");
                    report.failures += 1;
                }
            }
        }
        Ok(())
    }

    /// Settles every bet of a race still `placing` or `open`, then marks the race settled
    /// when none failed. Returns (bets settled, bets failed).
    pub(crate) async fn settle_race(&self, race: &RaceRow) -> Result<(usize, usize), AppError> {
        let db = &self.inner.db;
        let bets = sqlx::query(
            "SELECT id, session_id, currency, kind, selection, price, stake, status FROM virtual_bets \
             WHERE race_id = $1 AND status IN ('placing', 'open') ORDER BY id",
        )
        .bind(race.id)
        .fetch_all(db.writer())
        .await
        .map_err(AppError::internal)?;
        let (mut settled, mut failed) = (0, 0);
        for b in &bets {
            let bet = StoredBet {
                id: b.get(0),
                session_id: b.get(1),
                currency: b.get(2),
                kind: b.get(3),
                selection: b.get(4),
                price: b.get(5),
                stake: b.get(6),
                status: b.get(7),
            };
            match self.settle_bet(race, &bet).await {
                Ok(()) => settled += 1,
                Err(e) => {
                    tracing::error!(error = %e.text(), race = race.id, bet = bet.id, "virtual races: settling a bet failed; retrying");
                    failed += 1;
                }
            }
        }
        if failed == 0 {
            sqlx::query("UPDATE virtual_races SET phase = 'settled', settled_at = $1 WHERE id = $2 AND phase = 'running'")
                .bind(now_ms())
                .bind(race.id)
                .execute(db.writer())
                .await
                .map_err(AppError::internal)?;
        }
        Ok((settled, failed))
    }

    async fn settle_bet(&self, race: &RaceRow, bet: &StoredBet) -> Result<(), AppError> {
        let db = &self.inner.db;
        let casino = &self.inner.casino;
        let session = casino.sessions().by_id(bet.session_id).await?;
        let game_id = race.sport.game_id();
        if bet.status == "placing" {
            // The placement was interrupted between its row and its stake's answer: the
            // ledger says whether the stake landed. Not landed: tombstoned (it can never
            // land later) and the bet is dropped as refused.
            let key = casino::wallet::ledger_key(STUDIO, &tx_id(bet.id, "bet"));
            let staked = casino.wallet().ledger().lookup(&key).await?.is_some_and(|t| !t.tombstone);
            if !staked {
                let rb = RollbackCall {
                    session_token: String::new(),
                    transaction_id: tx_id(bet.id, "void"),
                    reference_transaction_id: tx_id(bet.id, "bet"),
                    round_id: race.id.to_string(),
                    game_id: game_id.into(),
                };
                casino.wallet().rollback_with(STUDIO, &session, &rb).await?;
                sqlx::query("UPDATE virtual_bets SET status = 'refused', settled_at = $1 WHERE id = $2 AND status = 'placing'")
                    .bind(now_ms())
                    .bind(bet.id)
                    .execute(db.writer())
                    .await
                    .map_err(AppError::internal)?;
                return Ok(());
            }
        }
        let runners: Vec<u32> = parse_selection(&bet.selection);
        let selection = Selection::parse(&bet.kind, &runners, race.runners.len())
            .map_err(|e| AppError::internal(format!("virtual bet {}: stored selection: {e}", bet.id)))?;
        let result = RaceResult::Order { order: race.result.clone(), places: race.places as usize };
        let win = payout(&selection, bet.stake, bet.price as u64, &result);
        if win > 0 {
            let call = WalletCall {
                session_token: String::new(),
                transaction_id: tx_id(bet.id, "win"),
                round_id: race.id.to_string(),
                game_id: game_id.into(),
                amount: win,
                currency: bet.currency.clone(),
            };
            casino.wallet().win_with(STUDIO, &session, &call).await?;
        }
        sqlx::query("UPDATE virtual_bets SET status = $1, win = $2, settled_at = $3 WHERE id = $4 AND status IN ('placing', 'open')")
            .bind(if win > 0 { "won" } else { "lost" })
            .bind(win)
            .bind(now_ms())
            .bind(bet.id)
            .execute(db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }
}

struct StoredBet {
    id: i64,
    session_id: i64,
    currency: String,
    kind: String,
    selection: String,
    price: i64,
    stake: i64,
    status: String,
}

/// A stored selection: runner numbers joined by `-` (`"3"`, `"3-5"`).
pub(super) fn parse_selection(s: &str) -> Vec<u32> {
    s.split('-').filter_map(|p| p.parse().ok()).collect()
}

pub(super) fn selection_text(runners: &[u32]) -> String {
    runners.iter().map(u32::to_string).collect::<Vec<_>>().join("-")
}
