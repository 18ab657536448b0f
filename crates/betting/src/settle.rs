//! Settlement from the feed's results: each result is stored and copied onto the legs it
//! decides; a bet whose legs are decided is paid once (`sb:{bet}:payout`); a bet already
//! settled whose result changes is settled again and only the difference is posted
//! (`sb:{bet}:resettle:{version}`).

use crate::place::parse_funding;
use crate::{internal, Betting, SettledBet};
use futures::FutureExt;
use kernel::{AppError, Currency, ErrorCode};
use sportsbook::feed::{BetCancel, BetSettlement};
use sportsbook::settle::{self, BetOutcome, Settlement};
use sportsbook::slip::Funding;
use sportsbook::{Odds, OutcomeResult};
use store::sqlx::{self, Row};
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

fn outcome_str(o: BetOutcome) -> &'static str {
    match o {
        BetOutcome::Won => "won",
        BetOutcome::Lost => "lost",
        BetOutcome::Void => "void",
        BetOutcome::HalfWon => "half_won",
        BetOutcome::HalfLost => "half_lost",
        BetOutcome::DeadHeat => "dead_heat",
        BetOutcome::PartWon => "part_won",
    }
}

fn outcome_of(s: &str) -> Option<BetOutcome> {
    Some(match s {
        "won" => BetOutcome::Won,
        "lost" => BetOutcome::Lost,
        "void" => BetOutcome::Void,
        "half_won" => BetOutcome::HalfWon,
        "half_lost" => BetOutcome::HalfLost,
        "dead_heat" => BetOutcome::DeadHeat,
        "part_won" => BetOutcome::PartWon,
        _ => return None,
    })
}

/// The bet as the settlement hook sees it.
fn settled_bet(
    bet: &BetRow,
    s: &Settlement,
    previous: Option<BetOutcome>,
    legs: &[(Odds, Option<OutcomeResult>)],
    events: Vec<String>,
) -> SettledBet {
    SettledBet {
        id: bet.id,
        user_id: bet.user_id,
        currency: bet.currency,
        funding: bet.funding,
        stake: bet.stake,
        outcome: s.outcome,
        payout: returned(bet.funding, s, bet.stake),
        previous,
        legs: events
            .into_iter()
            .zip(legs)
            .map(|(e, (odds, result))| (e, *odds, *result))
            .collect(),
    }
}

/// What a settlement returns to the player, by funding: a free bet pays its winnings only.
fn returned(funding: Funding, s: &Settlement, stake: i64) -> i64 {
    match funding {
        Funding::FreeBet => settle::free_bet_cash(s, stake),
        _ => s.payout,
    }
}

/// Where a bet's return goes: a bonus bet back to the bonus balance, the others to real money.
fn return_kind(funding: Funding) -> BalanceKind {
    match funding {
        Funding::Bonus => BalanceKind::Bonus,
        _ => BalanceKind::Real,
    }
}

/// First settlements per ledger call and write.
const SETTLE_CHUNK: usize = 1000;

/// First settlements run in this many lanes at once, by player.
const SETTLE_LANES: usize = 4;

struct BetRow {
    id: i64,
    user_id: i64,
    stake: i64,
    funding: Funding,
    currency: Currency,
    status: String,
    payout: i64,
    version: i64,
    /// The legs' sport, or `mixed`: the report rollups' game dimension of its payouts.
    sport: String,
}

/// A bet's sport as its legs are read: the first leg's, kept while every leg agrees,
/// `mixed` otherwise (the same rule as its stake's, `place::bet_sport`).
fn bet_sport(first: bool, so_far: &str, leg: &str) -> String {
    crate::place::bet_sport(if first { None } else { Some(so_far) }, leg)
}

impl Betting {
    /// Stores a `bet_settlement`'s results, copies them onto the legs **of this fixture** (the
    /// event the line holds, with its start time `start_time`), settles what they decide. A
    /// leg placed on another fixture under the same event id (an id a feed reused) is never
    /// touched, whatever feed sends the result.
    pub(crate) async fn store_results(&self, s: &BetSettlement, start_time: i64, now: i64) -> Result<(), AppError> {
        let mut rows = Vec::new();
        for m in &s.markets {
            for o in &m.outcomes {
                let json = serde_json::to_string(&o.result).map_err(internal)?;
                rows.push((m.market.to_string(), o.id.clone(), json));
            }
        }
        let event = s.event_id.clone();
        let started = std::time::Instant::now();
        self.write(move |conn| {
                async move {
                    for (market, outcome, json) in rows {
                        sqlx::query(
                            "INSERT INTO sb_fixture_results (event_id, start_time, market_key, outcome_id, result, version, received_at) VALUES ($1, $2, $3, $4, $5, 1, $6) \
                             ON CONFLICT (event_id, start_time, market_key, outcome_id) DO UPDATE SET result = excluded.result, \
                             version = sb_fixture_results.version + 1, received_at = excluded.received_at WHERE sb_fixture_results.result <> excluded.result",
                        )
                        .bind(&event)
                        .bind(start_time)
                        .bind(&market)
                        .bind(&outcome)
                        .bind(&json)
                        .bind(now)
                        .execute(&mut *conn)
                        .await?;
                        sqlx::query("UPDATE sb_bet_legs SET result = $1 WHERE event_id = $2 AND market_key = $3 AND outcome_id = $4 AND start_time = $5")
                            .bind(&json)
                            .bind(&event)
                            .bind(&market)
                            .bind(&outcome)
                            .bind(start_time)
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok::<_, sqlx::Error>(())
                }
                .boxed()
            })
            .await?;
        tracing::debug!(event = %s.event_id, ms = started.elapsed().as_millis() as u64, "sportsbook: results stored on the legs");
        // Undecided legs under this id on another fixture: the feed reused the id (or moved a
        // fixture while we were down). This result is not theirs; they are left to the
        // lost-results rule (`void_orphans`). Logged for the operator.
        let others: i64 = sqlx::query(
            "SELECT COUNT(*) FROM sb_bet_legs WHERE event_id = $1 AND start_time <> $2 AND result IS NULL",
        )
        .bind(&s.event_id)
        .bind(start_time)
        .fetch_one(self.db.reader())
        .await
        .map_err(internal)?
        .get(0);
        if others > 0 {
            tracing::warn!(event = %s.event_id, start_time, legs = others, "sportsbook: a result for this event id does not settle legs placed on another fixture");
        }
        self.settle_event(&s.event_id, now).await
    }

    /// A `bet_cancel`: the legs on the markets named (all the event's when none are), of bets
    /// placed inside the window when there is one, become void — legs of this fixture only
    /// (`start_time`, as for results).
    pub(crate) async fn store_cancel(&self, c: &BetCancel, start_time: i64, now: i64) -> Result<(), AppError> {
        let void = serde_json::to_string(&OutcomeResult::VOID).map_err(internal)?;
        let markets: Option<Vec<String>> = c
            .markets
            .as_ref()
            .map(|m| m.iter().map(|k| k.to_string()).collect());
        let (event, from, to) = (
            c.event_id.clone(),
            c.start_time.unwrap_or(i64::MIN),
            c.end_time.unwrap_or(i64::MAX),
        );
        self.write(move |conn| {
                async move {
                    let targets = match markets {
                        Some(m) => m.into_iter().map(Some).collect::<Vec<_>>(),
                        None => vec![None],
                    };
                    for market in targets {
                        sqlx::query(
                            "UPDATE sb_bet_legs SET result = $1 WHERE event_id = $2 AND start_time = $6 AND ($3 IS NULL OR market_key = $3) \
                             AND bet_id IN (SELECT id FROM sb_bets WHERE created_at >= $4 AND created_at <= $5)",
                        )
                        .bind(&void)
                        .bind(&event)
                        .bind(market.as_deref())
                        .bind(from)
                        .bind(to)
                        .bind(start_time)
                        .execute(&mut *conn)
                        .await?;
                    }
                    Ok::<_, sqlx::Error>(())
                }
                .boxed()
            })
            .await?;
        self.settle_event(&c.event_id, now).await
    }

    /// A fixture the line holds moved its start time (a feed's `fixture_change`): its legs
    /// and results follow, so its results still find them.
    pub(crate) async fn fixture_moved(&self, event_id: &str, from: i64, to: i64) -> Result<(), AppError> {
        let event = event_id.to_string();
        self.write(move |conn| {
                async move {
                    sqlx::query("UPDATE sb_bet_legs SET start_time = $1 WHERE event_id = $2 AND start_time = $3")
                        .bind(to)
                        .bind(&event)
                        .bind(from)
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("UPDATE sb_fixture_results SET start_time = $1 WHERE event_id = $2 AND start_time = $3")
                        .bind(to)
                        .bind(&event)
                        .bind(from)
                        .execute(&mut *conn)
                        .await?;
                    Ok::<_, sqlx::Error>(())
                }
                .boxed()
            })
            .await?;
        tracing::info!(event = event_id, from, to, "sportsbook: fixture moved; its legs follow");
        Ok(())
    }

    /// Settles (or settles again) every placed bet with a leg on `event_id`. First
    /// settlements are batched: the bets and legs are read in one query, streamed from a
    /// reader connection into lanes by player while the lanes already post (the read and the
    /// writes overlap); each lane settles chunks of [`SETTLE_CHUNK`] bets, a chunk's payouts
    /// and the bets' new states in one commit ([`Self::settle_first`]); a resettlement (a
    /// corrected result) goes one bet at a time.
    pub async fn settle_event(&self, event_id: &str, now: i64) -> Result<(), AppError> {
        let started = std::time::Instant::now();
        // Lanes by player, run at once: PostgreSQL commits them on separate connections (two
        // lanes never touch the same player's balance, so they never wait on each other's
        // locks nor deadlock); SQLite's writer takes what the lanes have queued in one commit.
        type Chunk = Vec<(BetRow, Settlement, SettledBet)>;
        let (senders, receivers): (Vec<_>, Vec<_>) =
            (0..SETTLE_LANES).map(|_| tokio::sync::mpsc::channel::<Chunk>(2)).unzip();
        let lanes = futures::future::join_all(receivers.into_iter().map(|mut chunks| async move {
            let mut outcome = Ok(());
            while let Some(chunk) = chunks.recv().await {
                // After a failed chunk the lane stops settling (the next result retries its
                // bets) but keeps draining, so the reader never waits on it.
                if outcome.is_ok() {
                    outcome = self.settle_first(&chunk, now).await;
                }
            }
            outcome
        }));
        let read = async move {
            let mut rows = sqlx::query(
                "SELECT b.id, b.user_id, b.stake, b.funding, b.currency, b.status, b.payout, b.settle_version, l.odds, l.result, l.event_id, l.sport_id \
                 FROM sb_bets b JOIN sb_bet_legs l ON l.bet_id = b.id \
                 WHERE b.id IN (SELECT bet_id FROM sb_bet_legs WHERE event_id = $1) AND b.status NOT IN ('placing', 'rejected') \
                 ORDER BY b.id, l.idx",
            )
            .bind(event_id)
            .fetch(self.db.reader());
            let mut pending: Vec<Chunk> = (0..SETTLE_LANES).map(|_| Vec::new()).collect();
            let (mut read, mut settled) = (0usize, 0usize);
            // The bet being read, with its legs and the legs' events (the settlement hook's
            // rakeback counts events); a bet is whole when the next row is another bet's.
            let mut current: Option<(BetRow, Vec<(Odds, Option<OutcomeResult>)>, Vec<String>)> = None;
            loop {
                let row = futures::TryStreamExt::try_next(&mut rows).await.map_err(internal)?;
                let id: Option<i64> = row.as_ref().map(|r| r.get(0));
                if current.as_ref().is_some_and(|(b, _, _)| Some(b.id) != id) {
                    if let Some((bet, legs, events)) = current.take() {
                        read += 1;
                        if bet.status == "open" {
                            if let Some(s) = settle::settle_when_decided(bet.stake, &legs) {
                                let settled_bet = settled_bet(&bet, &s, None, &legs, events);
                                let lane = bet.user_id.rem_euclid(SETTLE_LANES as i64) as usize;
                                pending[lane].push((bet, s, settled_bet));
                                settled += 1;
                                if pending[lane].len() >= SETTLE_CHUNK {
                                    let chunk = std::mem::take(&mut pending[lane]);
                                    // A lane that stopped still drains: the send cannot fail
                                    // while `senders` lives.
                                    let _ = senders[lane].send(chunk).await;
                                }
                            }
                        } else if let Err(e) = self.settle_bet(&bet, &legs, events, now).await {
                            // One bet's problem must not stop the others (the next result retries it).
                            tracing::error!(bet = bet.id, error = %e, "sportsbook: resettlement failed");
                        }
                    }
                }
                let Some(r) = row else { break };
                let id: i64 = r.get(0);
                if current.is_none() {
                    let currency: String = r.get(4);
                    let funding: String = r.get(3);
                    current = Some((
                        BetRow {
                            id,
                            user_id: r.get(1),
                            stake: r.get(2),
                            funding: parse_funding(&funding),
                            currency: currency
                                .parse()
                                .map_err(|_| internal("unknown currency on a bet"))?,
                            status: r.get(5),
                            payout: r.get(6),
                            version: r.get(7),
                            sport: String::new(),
                        },
                        Vec::new(),
                        Vec::new(),
                    ));
                }
                let odds = Odds::new(r.get::<i64, _>(8) as u32)
                    .map_err(|_| internal("invalid odds on a leg"))?;
                let result: Option<String> = r.get(9);
                let result = match result {
                    Some(s) => Some(serde_json::from_str::<OutcomeResult>(&s).map_err(internal)?),
                    None => None,
                };
                if let Some((bet, legs, events)) = current.as_mut() {
                    let sport: Option<String> = r.get(11);
                    bet.sport = bet_sport(legs.is_empty(), &bet.sport, sport.as_deref().unwrap_or(""));
                    legs.push((odds, result));
                    events.push(r.get(10));
                }
            }
            for (lane, chunk) in pending.into_iter().enumerate() {
                if !chunk.is_empty() {
                    let _ = senders[lane].send(chunk).await;
                }
            }
            // The lanes end when their senders go.
            drop(senders);
            tracing::debug!(event = event_id, bets = read, ms = started.elapsed().as_millis() as u64, "sportsbook: bets read");
            Ok::<_, AppError>(settled)
        };
        let (settled, lanes_done) = tokio::join!(read, lanes);
        lanes_done.into_iter().collect::<Result<(), AppError>>()?;
        let settled = settled?;
        tracing::debug!(event = event_id, settled, ms = started.elapsed().as_millis() as u64, "sportsbook: first settlements");
        Ok(())
    }

    /// First settlements of open bets: the payouts (and the hook's postings, a rakeback) in
    /// one ledger call, the states (and the hook's rows, the bonus wagering) in one write.
    async fn settle_first(&self, bets: &[(BetRow, Settlement, SettledBet)], now: i64) -> Result<(), AppError> {
        let house = AccountRef::House(HouseAccount::Sportsbook);
        let hook = self.settle_hook();
        let mut postings = Vec::new();
        let mut paying = Vec::new();
        for (i, (bet, s, settled)) in bets.iter().enumerate() {
            if let Some(p) = hook.as_ref().and_then(|h| h.first_posting(settled)) {
                postings.push(p);
                paying.push(i);
            }
            let due = returned(bet.funding, s, bet.stake);
            if due > 0 {
                let to = AccountRef::Player {
                    user_id: bet.user_id,
                    kind: return_kind(bet.funding),
                };
                postings.push(
                    PostingRequest::transfer(
                        TxType::SportPayout,
                        format!("sb:{}:payout", bet.id),
                        Some(bet.user_id),
                        bet.currency,
                        house,
                        to,
                        due,
                    )
                    .comment(format!("Sports bet {} {}", bet.id, outcome_str(s.outcome)))
                    .metadata(serde_json::json!({ "bet": bet.id, "outcome": s.outcome, "sport": bet.sport })),
                );
                paying.push(i);
            }
        }
        // Each bet's new state, and the hook's rows, are written in the payouts' own
        // transaction (one commit): a bet is settled exactly when its payout is booked. A bet
        // whose payout is refused keeps `open` (retried with the next result).
        let states: Vec<(i64, &'static str, i64, SettledBet)> = bets
            .iter()
            .map(|(bet, s, settled)| (bet.id, outcome_str(s.outcome), returned(bet.funding, s, bet.stake), settled.clone()))
            .collect();
        // The bet of each posting, for the log of a refused payout.
        let paying_ids: Vec<i64> = paying.iter().map(|&i| bets[i].0.id).collect();
        let after_commit: std::sync::Arc<std::sync::Mutex<Option<crate::hook::AfterCommit>>> = Default::default();
        let after_slot = after_commit.clone();
        let work = wallet::attached_many(move |conn, booked| {
            async move {
                let mut paid = vec![true; states.len()];
                for (&i, ok) in paying.iter().zip(&booked) {
                    if !ok {
                        paid[i] = false;
                    }
                }
                // One UPDATE for the chunk, each bet's state and payout from a VALUES row
                // (real stakes and odds give nearly every bet its own payout).
                let mut rows: Vec<(i64, &'static str, i64)> = Vec::new();
                let mut done = Vec::new();
                for ((id, status, payout, settled), ok) in states.into_iter().zip(paid) {
                    if ok {
                        rows.push((id, status, payout));
                        done.push(settled);
                    }
                }
                if !rows.is_empty() {
                    let sql = format!(
                        "UPDATE sb_bets SET status = v.column2, payout = v.column3, settle_version = 1, settled_at = $1 \
                         FROM (VALUES {}) AS v WHERE sb_bets.id = v.column1 AND sb_bets.status = 'open'",
                        store::values(rows.len(), 3, 2)
                    );
                    let sql = store::positional(&*conn, &sql);
                    let mut q = sqlx::query(&sql).bind(now);
                    for (id, status, payout) in rows {
                        q = q.bind(id).bind(status).bind(payout);
                    }
                    q.execute(&mut *conn).await?;
                }
                // The hook's rows go with the states: a bet another run settled first
                // keeps that run's rows (the hook's rows are unique per bet).
                if let Some(h) = hook {
                    if !done.is_empty() {
                        let after = h.settled(&mut *conn, &done, true).await?;
                        *after_slot.lock().unwrap_or_else(|p| p.into_inner()) = after;
                    }
                }
                Ok(())
            }
            .boxed()
        });
        // Err: nothing of the chunk was written (its bets stay open for the next result).
        let results = self.ledger.post_many_with(postings, work).await.map_err(AppError::from)?;
        for (bet, result) in paying_ids.iter().zip(&results) {
            if let Err(e) = result {
                tracing::error!(bet, error = %e, "sportsbook: payout failed; retried with the next result");
            }
        }
        let after = after_commit.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(after) = after {
            after();
        }
        Ok(())
    }

    /// A bet already settled: settles it again on the results now known (a correction).
    async fn settle_bet(
        &self,
        bet: &BetRow,
        legs: &[(Odds, Option<OutcomeResult>)],
        events: Vec<String>,
        now: i64,
    ) -> Result<(), AppError> {
        let Some(s) = settle::settle_when_decided(bet.stake, legs) else {
            return Ok(());
        };
        let due = returned(bet.funding, &s, bet.stake);
        let to = AccountRef::Player {
            user_id: bet.user_id,
            kind: return_kind(bet.funding),
        };
        let house = AccountRef::House(HouseAccount::Sportsbook);
        // Settled already: a corrected result moves only the difference.
        if due == bet.payout && bet.status == outcome_str(s.outcome) {
            return Ok(());
        }
        let version = bet.version + 1;
        let delta = due - bet.payout;
        if delta != 0 {
            let (from, to, amount) = if delta > 0 {
                (house, to, delta)
            } else {
                (to, house, -delta)
            };
            let posting = PostingRequest::transfer(TxType::SportResettle, format!("sb:{}:resettle:{version}", bet.id), Some(bet.user_id), bet.currency, from, to, amount)
                .comment(format!("Sports bet {} settled again: {}", bet.id, outcome_str(s.outcome)))
                .metadata(serde_json::json!({ "bet": bet.id, "outcome": s.outcome, "previous_payout": bet.payout, "payout": due, "sport": bet.sport }));
            if let Err(e) = self.ledger.post(posting).await {
                let e: AppError = e.into();
                if e.code != ErrorCode::Internal {
                    // The player no longer holds what a correction takes back: flagged for the
                    // operator; the bet keeps its last settlement.
                    self.flag_review(bet.id).await?;
                }
                return Err(e);
            }
        }
        // The hook's postings for the new outcome (a rakeback due now, or one paid before
        // taken back): keyed, so a correction replayed moves nothing; one that fails is
        // logged and the settlement goes on (the operator sees it; money is never invented).
        let settled = settled_bet(bet, &s, outcome_of(&bet.status), legs, events);
        let hook = self.settle_hook();
        if let Some(h) = &hook {
            let extra = h.resettle_postings(&settled).await;
            if !extra.is_empty() {
                for r in self.ledger.post_many(extra).await {
                    if let Err(e) = r {
                        tracing::warn!(bet = bet.id, error = %e, "sportsbook: a resettlement's promotion posting failed");
                    }
                }
            }
        }
        self.finish(
            bet.id,
            &bet.status,
            bet.version,
            outcome_str(s.outcome),
            due,
            now,
            hook.map(|h| (h, settled)),
        )
        .await?;
        Ok(())
    }

    /// Records a (re)settlement, conditional on the state it was computed from.
    async fn finish(
        &self,
        id: i64,
        from_status: &str,
        from_version: i64,
        status: &'static str,
        payout: i64,
        now: i64,
        hook: Option<(std::sync::Arc<dyn crate::SettleHook>, SettledBet)>,
    ) -> Result<bool, AppError> {
        let from_status = from_status.to_string();
        let (moved, after) = self.write(move |conn| {
                async move {
                    let n = sqlx::query(
                        "UPDATE sb_bets SET status = $1, payout = $2, settle_version = settle_version + 1, settled_at = $3, needs_review = 0 \
                         WHERE id = $4 AND status = $5 AND settle_version = $6",
                    )
                    .bind(status)
                    .bind(payout)
                    .bind(now)
                    .bind(id)
                    .bind(&from_status)
                    .bind(from_version)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
                    let after = match hook {
                        Some((h, bet)) if n == 1 => h.settled(&mut *conn, std::slice::from_ref(&bet), false).await?,
                        _ => None,
                    };
                    Ok::<_, sqlx::Error>((n == 1, after))
                }
                .boxed()
            })
            .await?;
        if let Some(after) = after {
            after();
        }
        Ok(moved)
    }

    async fn flag_review(&self, id: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE sb_bets SET needs_review = 1 WHERE id = $1")
            .bind(id)
            .execute(self.db.writer())
            .await
            .map_err(internal)?;
        Ok(())
    }
}

impl Betting {
    /// Housekeeping for the line and the bets it can no longer decide:
    /// * closed and cancelled events that started more than an hour ago leave the line;
    /// * a leg still undecided on an event the line does not hold (the feed lost it — after a
    ///   restart the simulator starts a new line) that started more than `orphan_after_ms`
    ///   ago is void, as a sportsbook's rules void a bet whose result never comes, and its
    ///   bet is settled (a single refunded, an express at the other legs' odds). A line that
    ///   holds the event id for another fixture (another start time: a reused id) does not
    ///   hold the leg's fixture: its results will never come either.
    ///
    /// Returns how many legs were voided.
    pub async fn void_orphans(&self, orphan_after_ms: i64, now: i64) -> Result<usize, AppError> {
        {
            let mut line = self.line.write().unwrap_or_else(|p| p.into_inner());
            line.prune(now - 3_600_000);
        }
        let rows = sqlx::query(
            "SELECT DISTINCT l.event_id, l.start_time FROM sb_bet_legs l JOIN sb_bets b ON b.id = l.bet_id \
             WHERE b.status = 'open' AND l.result IS NULL AND l.start_time < $1",
        )
        .bind(now - orphan_after_ms)
        .fetch_all(self.db.reader())
        .await
        .map_err(internal)?;
        let lost: Vec<(String, i64)> = rows
            .iter()
            .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1)))
            .filter(|(e, start)| self.with_line(|line| line.event(e).is_none_or(|ev| ev.start_time != *start)))
            .collect();
        let void = serde_json::to_string(&OutcomeResult::VOID).map_err(internal)?;
        let mut voided = 0;
        for (event, start) in lost {
            let (event_id, void) = (event.clone(), void.clone());
            let n = self
                .write(move |conn| {
                    async move {
                        let n = sqlx::query("UPDATE sb_bet_legs SET result = $1 WHERE event_id = $2 AND start_time = $3 AND result IS NULL")
                            .bind(&void)
                            .bind(&event_id)
                            .bind(start)
                            .execute(&mut *conn)
                            .await?
                            .rows_affected();
                        Ok::<_, sqlx::Error>(n as usize)
                    }
                    .boxed()
                })
            .await?;
            tracing::warn!(event = %event, legs = n, "sportsbook: no result from the feed; legs void");
            voided += n;
            self.settle_event(&event, now).await?;
        }
        Ok(voided)
    }
}
