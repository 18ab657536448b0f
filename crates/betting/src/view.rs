//! The player's bets as the app shows them (open / settled, each leg with its result).

use crate::{internal, Betting};
use kernel::{AppError, Currency};
use sportsbook::OutcomeResult;
use store::sqlx::{self, Row};

/// One leg of a bet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetLegView {
    pub event_id: String,
    pub market: String,
    pub outcome_id: String,
    /// Thousandths.
    pub odds: i64,
    pub live: bool,
    pub event_name: String,
    pub market_name: String,
    pub outcome_name: String,
    pub sport_id: String,
    pub tournament_name: String,
    pub start_time: i64,
    /// `won`, `lost`, `void`, `half_won`, `half_lost`, `dead_heat`; None while undecided.
    pub result: Option<&'static str>,
}

/// A bet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetView {
    pub id: i64,
    pub kind: String,
    pub funding: String,
    pub currency: Currency,
    pub stake: i64,
    /// Thousandths, floored.
    pub total_odds: i64,
    pub potential_payout: i64,
    pub status: String,
    pub payout: i64,
    pub created_at: i64,
    pub settled_at: Option<i64>,
    pub legs: Vec<BetLegView>,
    /// This answer is a retry's (the bet was placed by an earlier request with the key).
    pub replayed: bool,
}

impl BetView {
    pub(crate) fn replayed(mut self, replayed: bool) -> BetView {
        self.replayed = replayed;
        self
    }
}

/// Which bets: `open` (placing or open), `settled` (every final state but rejected), `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BetsQuery {
    Open,
    Settled,
    All,
}

const BET_COLUMNS: &str = "id, kind, funding, currency, stake, total_odds, potential_payout, status, payout, created_at, settled_at";

/// A leg's result in words.
pub(crate) fn result_name(r: &OutcomeResult) -> &'static str {
    use sportsbook::settle::LegOutcome;
    match r.leg_outcome() {
        LegOutcome::Won => "won",
        LegOutcome::Lost => "lost",
        LegOutcome::Void => "void",
        LegOutcome::HalfWon => "half_won",
        LegOutcome::HalfLost => "half_lost",
        LegOutcome::DeadHeat => "dead_heat",
    }
}

impl Betting {
    /// One of the player's bets.
    pub async fn bet(&self, user_id: i64, id: i64) -> Result<Option<BetView>, AppError> {
        let row = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} FROM sb_bets WHERE id = $1 AND user_id = $2"
        ))
        .bind(id)
        .bind(user_id)
        .fetch_optional(self.db.reader())
        .await
        .map_err(internal)?;
        match row {
            None => Ok(None),
            Some(r) => {
                let mut bets = vec![bet_from_row(&r)?];
                self.fill_legs(&mut bets).await?;
                Ok(bets.pop())
            }
        }
    }

    /// The player's bets, newest first.
    pub async fn bets(
        &self,
        user_id: i64,
        which: BetsQuery,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<BetView>, AppError> {
        let filter = match which {
            BetsQuery::Open => "AND status IN ('placing', 'open')",
            BetsQuery::Settled => "AND status NOT IN ('placing', 'open', 'rejected')",
            BetsQuery::All => "AND status <> 'rejected'",
        };
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} FROM sb_bets WHERE user_id = $1 {filter} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(limit.clamp(1, 100))
        .bind(offset.max(0))
        .fetch_all(self.db.reader())
        .await
        .map_err(internal)?;
        let mut bets = rows
            .iter()
            .map(bet_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        self.fill_legs(&mut bets).await?;
        Ok(bets)
    }

    async fn fill_legs(&self, bets: &mut [BetView]) -> Result<(), AppError> {
        if bets.is_empty() {
            return Ok(());
        }
        let ids = bets
            .iter()
            .map(|b| b.id.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let rows = sqlx::query(&format!(
            "SELECT bet_id, event_id, market_key, outcome_id, odds, live, event_name, market_name, outcome_name, sport_id, \
             tournament_name, start_time, result FROM sb_bet_legs WHERE bet_id IN ({ids}) ORDER BY bet_id, idx"
        ))
        .fetch_all(self.db.reader())
        .await
        .map_err(internal)?;
        for r in rows {
            let bet_id: i64 = r.get(0);
            let result: Option<String> = r.get(12);
            let leg = BetLegView {
                event_id: r.get(1),
                market: r.get(2),
                outcome_id: r.get(3),
                odds: r.get(4),
                live: r.get::<i64, _>(5) == 1,
                event_name: r.get(6),
                market_name: r.get(7),
                outcome_name: r.get(8),
                sport_id: r.get(9),
                tournament_name: r.get(10),
                start_time: r.get(11),
                result: result
                    .and_then(|s| serde_json::from_str::<OutcomeResult>(&s).ok())
                    .map(|r| result_name(&r)),
            };
            if let Some(b) = bets.iter_mut().find(|b| b.id == bet_id) {
                b.legs.push(leg);
            }
        }
        Ok(())
    }
}

fn bet_from_row(r: &store::sqlx::any::AnyRow) -> Result<BetView, AppError> {
    let currency: String = r.get(3);
    Ok(BetView {
        id: r.get(0),
        kind: r.get(1),
        funding: r.get(2),
        currency: currency
            .parse()
            .map_err(|_| internal("unknown currency on a bet"))?,
        stake: r.get(4),
        total_odds: r.get(5),
        potential_payout: r.get(6),
        status: r.get(7),
        payout: r.get(8),
        created_at: r.get(9),
        settled_at: r.get(10),
        legs: Vec::new(),
        replayed: false,
    })
}

/// One of the biggest recent wins (spec §3 top winning).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopWin {
    pub bet_id: i64,
    pub user_id: i64,
    pub currency: Currency,
    pub stake: i64,
    pub payout: i64,
    pub created_at: i64,
    pub legs: Vec<BetLegView>,
}

impl Betting {
    /// The biggest payouts of winning bets settled since `since`, largest first.
    pub async fn top_winnings(&self, since: i64, limit: i64) -> Result<Vec<TopWin>, AppError> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS}, user_id FROM sb_bets WHERE status IN ('won', 'half_won', 'dead_heat', 'part_won') \
             AND settled_at >= $1 AND payout > stake ORDER BY payout DESC, id LIMIT $2"
        ))
        .bind(since)
        .bind(limit.clamp(1, 50))
        .fetch_all(self.db.reader())
        .await
        .map_err(internal)?;
        let mut bets = rows
            .iter()
            .map(bet_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let users: Vec<i64> = rows.iter().map(|r| r.get(11)).collect();
        self.fill_legs(&mut bets).await?;
        Ok(bets
            .into_iter()
            .zip(users)
            .map(|(b, user_id)| TopWin {
                bet_id: b.id,
                user_id,
                currency: b.currency,
                stake: b.stake,
                payout: b.payout,
                created_at: b.created_at,
                legs: b.legs,
            })
            .collect())
    }
}
