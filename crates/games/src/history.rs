//! The player's casino rounds (spec §7 `getSlotsBetHistory`, §2 profile "slots bet history"):
//! the studio's games, crash and every third-party provider alike, read from the ledger.
//!
//! Every round's money is already in the ledger under one shape (the provider wallet, even
//! for the studio): stakes type 203, wins type 6, rollbacks type 204 naming what they
//! cancel (`reverses_tx_id`), each with `{provider, roundId, gameId}` in its metadata. So
//! there is no second copy of the rounds to keep in step, and nothing is added to the
//! stake's hot path. The read is one range of the player's real-money entries by
//! `(account_id, created_at)` (the index every balance history uses), grouped into rounds
//! here; its cost is the player's casino postings in the chosen dates, never anyone else's.
//!
//! * A round is placed at its first stake (a round without a stake — a provider's bonus
//!   win — at its first win). Entries up to an hour after the range are read too, so a win
//!   landing just after `to` still belongs to its round; a win in the range whose stake is
//!   older than `from` (its round group says so) belongs to the earlier range.
//! * Status: `refunded` when every stake was rolled back and nothing is won, `won` when the
//!   round paid anything, `open` while the studio still plays it (a slot round being
//!   settled, a crash bet in flight), else `lost`. Third-party providers do not report a
//!   round's end to our wallet, so one of their rounds with a stake and no win yet is `lost`.

use casino::STUDIO;
use kernel::{AppError, Currency, ErrorCode};
use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use store::sqlx::{self, Row};
use store::Db;

/// Wins this long after the range still join their round.
const LATE_WIN_MS: i64 = 3_600_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundStatus {
    Won,
    Lost,
    Refunded,
    Open,
}

impl RoundStatus {
    pub const ALL: [RoundStatus; 4] = [RoundStatus::Won, RoundStatus::Lost, RoundStatus::Refunded, RoundStatus::Open];

    pub fn as_str(self) -> &'static str {
        match self {
            RoundStatus::Won => "won",
            RoundStatus::Lost => "lost",
            RoundStatus::Refunded => "refunded",
            RoundStatus::Open => "open",
        }
    }

    /// Case-insensitive.
    pub fn parse(s: &str) -> Option<RoundStatus> {
        RoundStatus::ALL.into_iter().find(|v| v.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

/// What to read: `[from_ms, to_ms)`, the statuses (empty: all) and providers (`None`: all;
/// lower-case names) wanted, page `page` (from 0) of `count`.
#[derive(Debug, Clone)]
pub struct RoundQuery {
    pub user_id: i64,
    pub from_ms: i64,
    pub to_ms: i64,
    pub statuses: Vec<RoundStatus>,
    pub providers: Option<Vec<String>>,
    pub page: i64,
    pub count: i64,
}

/// One round (amounts in minor units of `currency`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CasinoRound {
    pub provider: String,
    pub round_id: String,
    pub game_id: String,
    pub currency: Currency,
    /// Every stake of the round, as taken.
    pub stake: i64,
    /// Stakes given back by rollbacks.
    pub refunded: i64,
    /// Wins paid, less wins rolled back.
    pub win: i64,
    pub status: RoundStatus,
    /// The round's first stake (or first win), epoch ms.
    pub created_at: i64,
    /// The ledger transaction of that first posting.
    pub tx_id: i64,
}

impl CasinoRound {
    /// What the round did to the balance: wins and refunds less stakes.
    pub fn net(&self) -> i64 {
        self.win + self.refunded - self.stake
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPage {
    pub items: Vec<CasinoRound>,
    pub total: i64,
    pub pages: i64,
}

/// A posting of the range as read.
struct Row_ {
    tx_id: i64,
    tx_type: i64,
    reverses: Option<i64>,
    amount: i64,
    created_at: i64,
    currency: String,
    provider: String,
    round_id: String,
    game_id: String,
}

fn meta_str<'a>(v: &'a serde_json::Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(|x| x.as_str())
}

/// The player's rounds, newest first.
pub async fn rounds(db: &Db, q: &RoundQuery) -> Result<RoundPage, AppError> {
    if !(1..=100).contains(&q.count) || q.page < 0 {
        return Err(AppError::with_detail(ErrorCode::BadRequest, "count must be 1 to 100 and page not negative"));
    }
    let empty = RoundPage { items: vec![], total: 0, pages: 0 };
    if q.providers.as_ref().is_some_and(|p| p.is_empty()) {
        return Ok(empty);
    }
    let rows = sqlx::query(
        "SELECT t.id, t.tx_type, t.reverses_tx_id, e.amount, e.created_at, a.currency, t.metadata \
         FROM ledger_accounts a \
         JOIN ledger_entries e ON e.account_id = a.id \
         JOIN ledger_transactions t ON t.id = e.tx_id \
         WHERE a.owner_id = $1 AND a.is_house = 0 AND a.kind = 'real' \
           AND e.created_at >= $2 AND e.created_at < $3 AND t.tx_type IN (203, 6, 204) \
         ORDER BY e.created_at, e.id",
    )
    .bind(q.user_id)
    .bind(q.from_ms)
    .bind(q.to_ms.saturating_add(LATE_WIN_MS))
    .fetch_all(db.reader())
    .await
    .map_err(AppError::internal)?;

    // The postings of casino rounds; a rollback takes its round from what it cancels.
    let mut read: Vec<Row_> = Vec::with_capacity(rows.len());
    let mut by_tx: HashMap<i64, usize> = HashMap::new();
    for r in rows {
        let tx_type: i64 = r.get(1);
        let reverses: Option<i64> = r.get(2);
        let metadata: String = r.get(6);
        let (provider, round_id, game_id) = if tx_type == 204 {
            match reverses.and_then(|o| by_tx.get(&o)).map(|&i| &read[i]) {
                Some(o) => (o.provider.clone(), o.round_id.clone(), o.game_id.clone()),
                // Cancels something outside the range (its round is placed there) or not a
                // casino posting at all.
                None => continue,
            }
        } else {
            let meta: serde_json::Value = serde_json::from_str(&metadata).unwrap_or(serde_json::Value::Null);
            match (meta_str(&meta, "provider"), meta_str(&meta, "roundId")) {
                (Some(p), Some(rid)) => (p.to_string(), rid.to_string(), meta_str(&meta, "gameId").unwrap_or("").to_string()),
                _ => continue,
            }
        };
        let tx_id: i64 = r.get(0);
        by_tx.insert(tx_id, read.len());
        read.push(Row_ { tx_id, tx_type, reverses, amount: r.get(3), created_at: r.get(4), currency: r.get(5), provider, round_id, game_id });
    }

    // Grouped by round, in order of first posting.
    struct Acc {
        round: CasinoRound,
        has_stake: bool,
    }
    let mut order: Vec<(String, String)> = vec![];
    let mut acc: HashMap<(String, String), Acc> = HashMap::new();
    for r in &read {
        let key = (r.provider.clone(), r.round_id.clone());
        let a = acc.entry(key.clone()).or_insert_with(|| {
            order.push(key.clone());
            Acc {
                round: CasinoRound {
                    provider: r.provider.clone(),
                    round_id: r.round_id.clone(),
                    game_id: r.game_id.clone(),
                    currency: Currency::from_str(&r.currency).unwrap_or(Currency::Tnd),
                    stake: 0,
                    refunded: 0,
                    win: 0,
                    status: RoundStatus::Lost,
                    created_at: r.created_at,
                    tx_id: r.tx_id,
                },
                has_stake: false,
            }
        });
        match r.tx_type {
            203 => {
                if !a.has_stake {
                    // Placed at its first stake, even when a win came first in the range.
                    a.has_stake = true;
                    a.round.created_at = r.created_at;
                    a.round.tx_id = r.tx_id;
                }
                a.round.stake -= r.amount;
            }
            6 => a.round.win += r.amount,
            _ => {
                let original = r.reverses.and_then(|o| by_tx.get(&o)).map(|&i| read[i].tx_type);
                if original == Some(203) {
                    a.round.refunded += r.amount;
                } else {
                    a.round.win += r.amount;
                }
            }
        }
    }

    // Rounds without a stake in the range: a stake before `from` places them earlier.
    let stakeless: Vec<String> = order
        .iter()
        .filter(|k| !acc[*k].has_stake)
        .map(|(p, rid)| format!("round:{p}:{rid}"))
        .collect();
    let mut staked_before: HashSet<String> = HashSet::new();
    for chunk in stakeless.chunks(200) {
        let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT DISTINCT group_key FROM ledger_transactions WHERE user_id = $1 AND group_key IN ({})",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql).bind(q.user_id);
        for g in chunk {
            query = query.bind(g);
        }
        for r in query.fetch_all(db.reader()).await.map_err(AppError::internal)? {
            staked_before.insert(r.get(0));
        }
    }

    // What the studio is still playing.
    let open = studio_open(db, q).await?;

    let wanted = |p: &str| q.providers.as_ref().is_none_or(|list| list.iter().any(|w| w.eq_ignore_ascii_case(p)));
    let mut all: Vec<CasinoRound> = Vec::new();
    for key in order {
        let Some(a) = acc.remove(&key) else { continue };
        let mut round = a.round;
        if round.created_at < q.from_ms || round.created_at >= q.to_ms || !wanted(&round.provider) {
            continue;
        }
        if !a.has_stake && staked_before.contains(&format!("round:{}:{}", round.provider, round.round_id)) {
            continue;
        }
        let is_open = round.provider == STUDIO
            && round.round_id.parse::<i64>().is_ok_and(|id| open.contains(&(round.game_id == "crash", id)));
        round.status = if round.win > 0 {
            RoundStatus::Won
        } else if round.stake > 0 && round.refunded >= round.stake {
            RoundStatus::Refunded
        } else if is_open {
            RoundStatus::Open
        } else if round.stake == 0 {
            // Nothing moved (a zero win alone, a cancelled win): not a round to show.
            continue;
        } else {
            RoundStatus::Lost
        };
        if !q.statuses.is_empty() && !q.statuses.contains(&round.status) {
            continue;
        }
        all.push(round);
    }
    all.sort_by(|a, b| (b.created_at, b.tx_id).cmp(&(a.created_at, a.tx_id)));
    let total = all.len() as i64;
    let pages = (total + q.count - 1) / q.count;
    let items = all.into_iter().skip((q.page * q.count) as usize).take(q.count as usize).collect();
    Ok(RoundPage { items, total, pages })
}

/// The studio rounds of the range still in play: `(is_crash, round id)`.
async fn studio_open(db: &Db, q: &RoundQuery) -> Result<HashSet<(bool, i64)>, AppError> {
    let mut out = HashSet::new();
    if q.providers.as_ref().is_some_and(|list| !list.iter().any(|p| p.eq_ignore_ascii_case(STUDIO))) {
        return Ok(out);
    }
    let rows = sqlx::query("SELECT id FROM studio_rounds WHERE user_id = $1 AND status = 'open' AND created_at >= $2 AND created_at < $3")
        .bind(q.user_id)
        .bind(q.from_ms - LATE_WIN_MS)
        .bind(q.to_ms)
        .fetch_all(db.reader())
        .await
        .map_err(AppError::internal)?;
    out.extend(rows.into_iter().map(|r| (false, r.get::<i64, _>(0))));
    let rows = sqlx::query("SELECT round_id FROM crash_bets WHERE user_id = $1 AND status IN ('placing', 'open')")
        .bind(q.user_id)
        .fetch_all(db.reader())
        .await
        .map_err(AppError::internal)?;
    out.extend(rows.into_iter().map(|r| (true, r.get::<i64, _>(0))));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_parse_case_insensitively() {
        assert_eq!(RoundStatus::parse(" WON "), Some(RoundStatus::Won));
        assert_eq!(RoundStatus::parse("refunded"), Some(RoundStatus::Refunded));
        assert_eq!(RoundStatus::parse("all"), None);
        assert_eq!(RoundStatus::parse(""), None);
    }
}
