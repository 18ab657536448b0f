//! Placing a bet: checked against the line and the limits (`sportsbook::slip`), recorded,
//! the stake posted through the ledger, exactly once per (player, client key).

use crate::{internal, BetView, Betting};
use futures::FutureExt;
use kernel::{AppError, Currency, ErrorCode, Minor};
use sha2::{Digest, Sha256};
use sportsbook::slip::{
    self, AcceptedBet, BetKind, BetRequest, Funding, LegRequest, PlayerState, Refusal,
};
use sportsbook::{MarketKey, Odds, OddsPolicy};
use std::collections::{BTreeMap, BTreeSet};
use store::sqlx::{self, Row};
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

/// Who is betting, as the caller knows them.
#[derive(Debug, Clone)]
pub struct Bettor {
    pub id: i64,
    pub currency: Currency,
    /// False for a role that may not bet or a player under a responsible-gambling block (616).
    pub allowed: bool,
}

/// One selection as the client sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegInput {
    pub event_id: String,
    /// Canonical market key (`18|total=2.5`).
    pub market: String,
    pub outcome_id: String,
    /// The decimal odds the player saw (`"1.85"`).
    pub odds: String,
}

/// A bet as the client sent it (the stake already in minor units).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlaceInput {
    pub legs: Vec<LegInput>,
    pub stake: Minor,
    pub kind: BetKind,
    pub funding: Funding,
    pub policy: OddsPolicy,
}

impl PlaceInput {
    /// The fingerprint a retry must match (same key, same request).
    fn hash(&self) -> String {
        let mut h = Sha256::new();
        h.update(format!(
            "{:?}|{:?}|{:?}|{}",
            self.kind, self.funding, self.policy, self.stake
        ));
        for l in &self.legs {
            h.update(format!(
                "|{}|{}|{}|{}",
                l.event_id, l.market, l.outcome_id, l.odds
            ));
        }
        hex::encode(h.finalize())
    }

    fn request(&self) -> Result<BetRequest, AppError> {
        let legs = self
            .legs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let bad = |what: &str| {
                    AppError::with_detail(ErrorCode::BetInvalid, format!("leg {i}: {what}"))
                        .data(serde_json::json!({ "leg": i }))
                };
                Ok(LegRequest {
                    event_id: l.event_id.clone(),
                    market: MarketKey::parse(&l.market).map_err(|_| bad("unknown market"))?,
                    outcome_id: l.outcome_id.clone(),
                    odds: Odds::parse(&l.odds).map_err(|_| bad("invalid odds"))?,
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        Ok(BetRequest {
            legs,
            stake: self.stake,
            kind: self.kind,
            funding: self.funding,
            policy: self.policy,
        })
    }
}

/// The balance a funding draws on.
pub(crate) fn funding_kind(f: Funding) -> BalanceKind {
    match f {
        Funding::Real => BalanceKind::Real,
        Funding::Bonus => BalanceKind::Bonus,
        Funding::FreeBet => BalanceKind::FreeBet,
    }
}

pub(crate) fn funding_str(f: Funding) -> &'static str {
    match f {
        Funding::Real => "real",
        Funding::Bonus => "bonus",
        Funding::FreeBet => "free_bet",
    }
}

pub(crate) fn parse_funding(s: &str) -> Funding {
    match s {
        "bonus" => Funding::Bonus,
        "free_bet" => Funding::FreeBet,
        _ => Funding::Real,
    }
}

/// A refusal of the slip as the reply code, with what the client needs in `result`
/// (604: every changed leg with the odds now offered).
pub(crate) fn refusal_error(r: Refusal) -> AppError {
    let code = ErrorCode::from_code(r.code()).unwrap_or(ErrorCode::BetInvalid);
    let data = serde_json::to_value(&r).unwrap_or(serde_json::Value::Null);
    AppError::with_detail(code, r.to_string()).data(data)
}

/// How long a retry waits for the first request with its key to finish.
const IN_FLIGHT_WAIT_MS: u64 = 5_000;

impl Betting {
    /// Places a bet once per `(player, client_key)`: a retry with the same key and request
    /// answers the same bet (`replayed`), the same key with another request is 26.
    pub async fn place(
        &self,
        who: &Bettor,
        input: &PlaceInput,
        client_key: &str,
        now: i64,
    ) -> Result<BetView, AppError> {
        let key = client_key.trim();
        if key.is_empty() || key.len() > 100 {
            return Err(AppError::with_detail(
                ErrorCode::InvalidField,
                "the idempotency key must be 1 to 100 characters",
            ));
        }
        let hash = input.hash();
        let req = input.request()?;
        // The replay check and the player's open bets are independent reads: at once.
        let (replayed, player) = tokio::join!(self.replay(who.id, key, &hash), self.player_state(who));
        if let Some(view) = replayed? {
            return Ok(view);
        }
        let player = player?;
        let settings = self.settings_for(who.currency);
        // Checked and named in one read of the line: the start time kept on each leg names
        // the fixture its results must come from.
        let (accepted, names) = self
            .with_line(|line| {
                slip::validate(&req, line, &settings, &player, now).map(|a| {
                    let names = leg_names(line, &a);
                    (a, names)
                })
            })
            .map_err(refusal_error)?;
        let bet_id = kernel::ids::next_id();
        let posting = PostingRequest::transfer(
            TxType::SportStake,
            format!("sb:{bet_id}:stake"),
            Some(who.id),
            who.currency,
            AccountRef::Player { user_id: who.id, kind: funding_kind(accepted.funding) },
            AccountRef::House(HouseAccount::Sportsbook),
            accepted.stake,
        )
        .comment(format!("Sports bet {bet_id}"))
        .metadata(serde_json::json!({
            "bet": bet_id, "kind": accepted.kind, "legs": accepted.legs.len(),
            "sport": names.iter().fold(None::<String>, |so_far, n| Some(bet_sport(so_far.as_deref(), &n.sport_id))).unwrap_or_default(),
        }));
        let row = std::sync::Arc::new(BetRow {
            id: bet_id,
            user_id: who.id,
            currency: who.currency.code().to_string(),
            key: key.to_string(),
            hash: hash.clone(),
            bet: accepted,
            names,
            now,
        });
        // The bet's rows are written in the stake's transaction (one commit; with the other
        // bets of the writer's batch, one statement for their rows): a bet is open exactly
        // when its stake moved. A row under this key already (a concurrent request with the
        // same key won) declines the posting: answered as a retry.
        match self.ledger.post_with_rows(posting, wallet::AttachedRows::new(open_bets(), row.clone())).await {
            Ok(_) => Ok(placed_view(&row, who.currency)),
            Err(wallet::LedgerError::Declined) => self.replayed_or_vanished(who.id, key, &hash).await,
            Err(e) => {
                let err: AppError = e.into();
                if err.code == ErrorCode::Internal {
                    return Err(err);
                }
                // Refused for good (funds, limits): the bet is kept as rejected, so a retry
                // with its key answers the same refusal.
                let inserted = self
                    .write(move |conn| async move { Ok(write_bets(conn, &[&*row], "rejected").await?.first() == Some(&true)) }.boxed())
                    .await?;
                if inserted {
                    Err(err)
                } else {
                    self.replayed_or_vanished(who.id, key, &hash).await
                }
            }
        }
    }

    /// The answer of a request that lost the race for its key to another.
    async fn replayed_or_vanished(&self, user_id: i64, key: &str, hash: &str) -> Result<BetView, AppError> {
        match self.replay(user_id, key, hash).await? {
            Some(view) => Ok(view),
            None => Err(AppError::internal("the bet under this key vanished")),
        }
    }

    /// The bet already under `key`: the same request answers it (a rejected one answers its
    /// refusal again); another request is 26. Waits for a first request still in flight.
    async fn replay(
        &self,
        user_id: i64,
        key: &str,
        hash: &str,
    ) -> Result<Option<BetView>, AppError> {
        let started = std::time::Instant::now();
        loop {
            let row = sqlx::query("SELECT id, request_hash, status, funding FROM sb_bets WHERE user_id = $1 AND client_key = $2")
                .bind(user_id)
                .bind(key)
                .fetch_optional(self.db.reader())
                .await
                .map_err(internal)?;
            let Some(row) = row else { return Ok(None) };
            let (id, stored, status, funding): (i64, String, String, String) =
                (row.get(0), row.get(1), row.get(2), row.get(3));
            if stored != hash {
                return Err(ErrorCode::IdempotencyConflict.into());
            }
            match status.as_str() {
                "placing" if started.elapsed().as_millis() < IN_FLIGHT_WAIT_MS as u128 => {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                "placing" => {
                    return Err(AppError::internal(
                        "the first request with this key is still in progress",
                    ))
                }
                "rejected" => {
                    return Err(AppError::new(
                        funding_kind(parse_funding(&funding)).insufficient_code(),
                    ))
                }
                _ => return Ok(self.bet(user_id, id).await?.map(|b| b.replayed(true))),
            }
        }
    }

    /// The player's open bets per event and stake per market (for 617, 611, 613).
    async fn player_state(&self, who: &Bettor) -> Result<PlayerState, AppError> {
        let rows = sqlx::query(
            "SELECT b.id, l.event_id, l.market_key, b.stake FROM sb_bet_legs l JOIN sb_bets b ON b.id = l.bet_id \
             WHERE b.user_id = $1 AND b.status IN ('placing', 'open')",
        )
        .bind(who.id)
        .fetch_all(self.db.reader())
        .await
        .map_err(internal)?;
        let mut per_event: BTreeMap<String, BTreeSet<i64>> = BTreeMap::new();
        let mut staked: BTreeMap<(String, MarketKey), i64> = BTreeMap::new();
        for r in rows {
            let (bet, event, market, stake): (i64, String, String, i64) =
                (r.get(0), r.get(1), r.get(2), r.get(3));
            per_event.entry(event.clone()).or_default().insert(bet);
            if let Ok(key) = MarketKey::parse(&market) {
                *staked.entry((event, key)).or_default() += stake;
            }
        }
        Ok(PlayerState {
            betting_allowed: who.allowed,
            open_bets_per_event: per_event
                .into_iter()
                .map(|(e, s)| (e, s.len() as u32))
                .collect(),
            staked_per_market: staked,
        })
    }

    /// A conditional status change (`from` → `to`); false when the bet was not in `from`.
    pub(crate) async fn set_status(
        &self,
        id: i64,
        from: &'static str,
        to: &'static str,
    ) -> Result<bool, AppError> {
        self.write(move |conn| {
            async move {
                let n = sqlx::query("UPDATE sb_bets SET status = $1 WHERE id = $2 AND status = $3")
                    .bind(to)
                    .bind(id)
                    .bind(from)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
                Ok::<_, sqlx::Error>(n == 1)
            }
            .boxed()
        })
        .await
    }

    /// Finishes bets left `placing` for longer than `older_than_ms` (written by an older
    /// version, which wrote the row before the stake and crashed between them): open when the
    /// ledger has the stake, rejected otherwise. Bets are now written with their stake.
    /// Returns how many were finished.
    pub async fn recover(&self, older_than_ms: i64, now: i64) -> Result<usize, AppError> {
        let rows = sqlx::query("SELECT id FROM sb_bets WHERE status = 'placing' AND created_at < $1 ORDER BY created_at LIMIT 500")
            .bind(now - older_than_ms)
            .fetch_all(self.db.reader())
            .await
            .map_err(internal)?;
        let mut done = 0;
        for r in rows {
            let id: i64 = r.get(0);
            let posted = self
                .ledger
                .lookup(&format!("sb:{id}:stake"))
                .await
                .map_err(AppError::from)?
                .is_some_and(|t| !t.tombstone);
            if self
                .set_status(id, "placing", if posted { "open" } else { "rejected" })
                .await?
            {
                done += 1;
            }
        }
        Ok(done)
    }
}

/// A bet's rows as written (with its stake, or rejected).
pub(crate) struct BetRow {
    id: i64,
    user_id: i64,
    currency: String,
    key: String,
    hash: String,
    bet: AcceptedBet,
    names: Vec<LegNames>,
    now: i64,
}

/// Bets per `INSERT` (12 parameters each) and legs per `INSERT` (14 each): far below both
/// databases' parameter limits.
const BETS_PER_STATEMENT: usize = 256;
const LEGS_PER_STATEMENT: usize = 512;

/// The bets placed with their stakes ([`wallet::RowSet`]): the group-commit writer writes the
/// rows of a batch's bets in one statement for the bets and one for their legs.
pub(crate) struct OpenBets;

impl wallet::RowSet for OpenBets {
    type Row = std::sync::Arc<BetRow>;

    fn write<'c>(&'c self, conn: &'c mut store::sqlx::AnyConnection, rows: Vec<&'c std::sync::Arc<BetRow>>) -> futures::future::BoxFuture<'c, Result<Vec<bool>, sqlx::Error>> {
        let rows: Vec<&BetRow> = rows.into_iter().map(|r| r.as_ref()).collect();
        async move { write_bets(conn, &rows, "open").await }.boxed()
    }
}

/// The one [`OpenBets`] (a batch writes the rows of one set together).
fn open_bets() -> std::sync::Arc<OpenBets> {
    static SET: std::sync::LazyLock<std::sync::Arc<OpenBets>> = std::sync::LazyLock::new(|| std::sync::Arc::new(OpenBets));
    SET.clone()
}

/// Writes bets and their legs in `status`; per bet, false (nothing written for it) when its
/// player already has a bet under its key.
async fn write_bets(conn: &mut store::sqlx::AnyConnection, rows: &[&BetRow], status: &str) -> Result<Vec<bool>, sqlx::Error> {
    let mut written = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(BETS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO sb_bets (id, user_id, client_key, request_hash, currency, kind, funding, stake, total_odds, potential_payout, status, created_at) \
             VALUES {} ON CONFLICT (user_id, client_key) DO NOTHING RETURNING id",
            store::values(chunk.len(), 12, 1)
        );
        let sql = store::positional(&*conn, &sql);
        let mut q = sqlx::query(&sql);
        for row in chunk {
            let bet = &row.bet;
            q = q
                .bind(row.id)
                .bind(row.user_id)
                .bind(&row.key)
                .bind(&row.hash)
                .bind(&row.currency)
                .bind(kind_str(bet.kind))
                .bind(funding_str(bet.funding))
                .bind(bet.stake)
                .bind(i64::try_from(bet.total_odds).unwrap_or(i64::MAX))
                .bind(bet.potential_payout)
                .bind(status)
                .bind(row.now);
        }
        let inserted: BTreeSet<i64> = q.fetch_all(&mut *conn).await?.iter().map(|r| r.get::<i64, _>(0)).collect();
        written.extend(chunk.iter().map(|row| inserted.contains(&row.id)));
    }
    let legs: Vec<(&BetRow, usize)> = rows
        .iter()
        .zip(&written)
        .filter(|(_, w)| **w)
        .flat_map(|(row, _)| (0..row.bet.legs.len().min(row.names.len())).map(move |i| (*row, i)))
        .collect();
    for chunk in legs.chunks(LEGS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO sb_bet_legs (bet_id, idx, event_id, market_key, outcome_id, odds, requested_odds, live, \
             event_name, market_name, outcome_name, sport_id, tournament_name, start_time) VALUES {}",
            store::values(chunk.len(), 14, 1)
        );
        let sql = store::positional(&*conn, &sql);
        let mut q = sqlx::query(&sql);
        for &(row, i) in chunk {
            let (leg, n) = (&row.bet.legs[i], &row.names[i]);
            q = q
                .bind(row.id)
                .bind(i as i64)
                .bind(&leg.event_id)
                .bind(leg.market.to_string())
                .bind(&leg.outcome_id)
                .bind(leg.odds.thousandths() as i64)
                .bind(leg.requested_odds.thousandths() as i64)
                .bind(leg.live as i64)
                .bind(&n.event)
                .bind(&n.market)
                .bind(&n.outcome)
                .bind(&n.sport_id)
                .bind(&n.tournament)
                .bind(n.start_time);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(written)
}

/// The reply of a bet just placed, from what was written (no read back).
fn placed_view(row: &BetRow, currency: Currency) -> BetView {
    let bet = &row.bet;
    BetView {
        id: row.id,
        kind: kind_str(bet.kind).to_string(),
        funding: funding_str(bet.funding).to_string(),
        currency,
        stake: bet.stake,
        total_odds: i64::try_from(bet.total_odds).unwrap_or(i64::MAX),
        potential_payout: bet.potential_payout,
        status: "open".to_string(),
        payout: 0,
        created_at: row.now,
        settled_at: None,
        legs: bet
            .legs
            .iter()
            .zip(&row.names)
            .map(|(l, n)| crate::BetLegView {
                event_id: l.event_id.clone(),
                market: l.market.to_string(),
                outcome_id: l.outcome_id.clone(),
                odds: l.odds.thousandths() as i64,
                live: l.live,
                event_name: n.event.clone(),
                market_name: n.market.clone(),
                outcome_name: n.outcome.clone(),
                sport_id: n.sport_id.clone(),
                tournament_name: n.tournament.clone(),
                start_time: n.start_time,
                result: None,
            })
            .collect(),
        replayed: false,
    }
}

fn kind_str(kind: BetKind) -> &'static str {
    match kind {
        BetKind::Single => "single",
        BetKind::Express => "express",
    }
}

/// What the player saw of a leg, stored with the bet.
#[derive(Clone)]
pub(crate) struct LegNames {
    event: String,
    market: String,
    outcome: String,
    sport_id: String,
    tournament: String,
    start_time: i64,
}

/// A bet's sport (the report rollups' game dimension of its stake and payouts): its legs'
/// one sport, or `mixed`. `so_far`: the sport of the legs before this one (none: first).
pub(crate) fn bet_sport(so_far: Option<&str>, leg: &str) -> String {
    match so_far {
        None => leg.to_string(),
        Some(s) if s == leg => leg.to_string(),
        Some(_) => "mixed".to_string(),
    }
}

fn leg_names(line: &sportsbook::Line, bet: &AcceptedBet) -> Vec<LegNames> {
    bet.legs
        .iter()
        .map(
            |leg| match line.selection(&leg.event_id, &leg.market, &leg.outcome_id) {
                Some((e, m, o)) => LegNames {
                    event: format!("{} – {}", e.home.name, e.away.name),
                    market: m.name.clone(),
                    outcome: o.name.clone(),
                    sport_id: e.sport_id.clone(),
                    tournament: line
                        .tournaments
                        .get(&e.tournament_id)
                        .map(|t| t.name.clone())
                        .unwrap_or_default(),
                    start_time: e.start_time,
                },
                None => LegNames {
                    event: leg.event_id.clone(),
                    market: leg.market.to_string(),
                    outcome: leg.outcome_id.clone(),
                    sport_id: String::new(),
                    tournament: String::new(),
                    start_time: 0,
                },
            },
        )
        .collect()
}
