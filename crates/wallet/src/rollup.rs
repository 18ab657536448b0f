//! Report rollups maintained **in the postings' own database transaction** (issue 22 §1
//! "Reports"; docs/BACKOFFICE.md "Reports"): no lag, and no report ever scans the ledger.
//!
//! Every applied posting adds one [`Delta`] (its day, currency, transaction type, product,
//! provider and game; one posting, what the players' balances gave the house, the real-money
//! part of it and the gross volume) to the operation's deferred rows. A posting rolled back to
//! its savepoint takes its delta with it (the same buffer as the observer's rows); the batch
//! writes what stays with one `INSERT … ON CONFLICT DO UPDATE` per chunk right before the
//! commit ([`flush`]): one statement for a whole group commit, however many postings.
//!
//! * Rows are kept per game and per provider total (`game = ''`): the GGR report by day,
//!   product or provider reads the totals only, so its cost depends on days × providers, not
//!   on the ledger's size or on the number of games.
//! * `shard`: the group-commit writer that wrote the row. Two PostgreSQL writers never update
//!   the same row, so their commits never wait on each other's row locks; a report sums the
//!   shards.
//! * A rollback counts against the posting it cancels (its type, provider and game; one
//!   posting fewer), so a report never shows a stake that was taken back.
//! * A player's first stake of a day marks them active that day (`report_player_days`, one
//!   row per player and day; `report_actives` counts them).
//! * The day is the operator's (Africa/Tunis, UTC+1 all year since 2009: [`DAY_OFFSET_MS`]).
//!
//! [`verify`] recomputes every row from the ledger's transactions and entries and compares;
//! [`rebuild`] rewrites them (a database that had postings before the rollups existed is
//! rebuilt once at start, `report_state`).

use crate::model::*;
use kernel::Currency;
use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;
use store::sqlx::{self, AnyConnection, Row};
use store::Db;

/// The operator's day starts at midnight in Tunis (UTC+1, no summer time since 2009).
pub const DAY_OFFSET_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;

/// The operator's day of an instant (days since 1970-01-01).
pub fn day_of(ms: i64) -> i64 {
    (ms + DAY_OFFSET_MS).div_euclid(DAY_MS)
}

/// The instant the operator's `day` begins.
pub fn day_start_ms(day: i64) -> i64 {
    day * DAY_MS - DAY_OFFSET_MS
}

/// What a report groups by, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub day: i64,
    pub currency: String,
    pub tx_type: i64,
    pub product: String,
    pub provider: String,
    pub game: String,
}

/// The sums kept per key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Measures {
    /// Postings (a rollback: −1 on the posting it cancels).
    pub postings: i64,
    /// What the players' balances (every kind) gave the house: a stake +, a win −.
    pub amount: i64,
    /// The same, real-money balances only.
    pub real_amount: i64,
    /// The posting's gross flow (the sum of its credits; a rollback: minus the original's).
    pub volume: i64,
}

impl Measures {
    fn add(&mut self, o: &Measures) {
        self.postings += o.postings;
        self.amount += o.amount;
        self.real_amount += o.real_amount;
        self.volume += o.volume;
    }
}

/// One applied posting's contribution, deferred to the end of its transaction.
#[derive(Debug, Clone)]
pub(crate) struct Delta {
    pub key: Key,
    pub m: Measures,
    /// A stake's player: active on `key.day`.
    pub active: Option<i64>,
}

/// The product a posting belongs to: by its type first, then by the house account it
/// touches.
fn product_of(tx_type: TxType, legs: &[Leg]) -> &'static str {
    use TxType::*;
    match tx_type {
        JackpotContribution | JackpotWin => return "jackpot",
        Deposit | PaymentService | CashierPayment | RefillBalance | Withdrawal | WithdrawalSettled | WithdrawalReleased | CashierPayout => {
            return "payments"
        }
        BonusGrant | BonusConversion | BonusForfeit | FreeBetGrant | FreeBetExpiry | WeeklyCashbackPayout | Rakeback | RakebackReversal
        | CouponPrize | SuperAgentCashback | CashbackTransfer => return "bonus",
        _ => {}
    }
    for leg in legs {
        if let AccountRef::House(h) = leg.account {
            match h {
                HouseAccount::Games => return "casino",
                HouseAccount::Sportsbook => return "sport",
                HouseAccount::PartnerSports => return "partner_sport",
                _ => {}
            }
        }
    }
    "other"
}

/// A short text field of the metadata (at most 64 characters), or "".
fn meta(metadata: &serde_json::Value, field: &str) -> String {
    match metadata.get(field) {
        Some(serde_json::Value::String(s)) => s.chars().take(64).collect(),
        Some(v @ serde_json::Value::Number(_)) => v.to_string(),
        _ => String::new(),
    }
}

/// The delta of a posting applied at `at_ms` (entries' time) with `legs`. `as_of`: for a
/// rollback, the cancelled posting's type and metadata (the delta counts against it).
pub(crate) fn delta(tx_type: TxType, metadata: &serde_json::Value, legs: &[Leg], user_id: Option<i64>, at_ms: i64, rollback_of: Option<(TxType, &serde_json::Value)>) -> Option<Delta> {
    let currency = legs.iter().find(|l| matches!(l.account, AccountRef::Player { .. })).or(legs.first())?.currency;
    let mut m = Measures { postings: 1, ..Default::default() };
    for leg in legs {
        if let AccountRef::Player { kind, .. } = leg.account {
            m.amount -= leg.amount;
            if kind == BalanceKind::Real {
                m.real_amount -= leg.amount;
            }
        }
        if leg.amount > 0 {
            m.volume += leg.amount;
        }
    }
    // A reversal's legs touch the original's accounts: its product is the original's.
    let (tx_type, metadata) = match rollback_of {
        Some((t, md)) => {
            m.postings = -1;
            m.volume = -m.volume;
            (t, md)
        }
        None => (tx_type, metadata),
    };
    if tx_type == TxType::Tombstone || legs.is_empty() {
        return None;
    }
    let product = product_of(tx_type, legs);
    let provider = match product {
        "sport" => "sportsbook".to_string(),
        _ => meta(metadata, "provider"),
    };
    let game = match product {
        "casino" | "partner_sport" => meta(metadata, "gameId"),
        "sport" => meta(metadata, "sport"),
        _ => String::new(),
    };
    let day = day_of(at_ms);
    let active = (rollback_of.is_none() && TxType::STAKES.contains(&tx_type) && m.amount > 0).then_some(user_id).flatten();
    Some(Delta { key: Key { day, currency: currency.code().to_string(), tx_type: tx_type.code(), product: product.to_string(), provider, game }, m, active })
}

/// Writes the deltas of a transaction (what stayed of its postings), before its commit.
pub(crate) async fn flush(conn: &mut AnyConnection, shard: i64, deltas: Vec<Delta>) -> Result<(), sqlx::Error> {
    if deltas.is_empty() {
        return Ok(());
    }
    // Per game and the provider's total, summed in memory; written in key order (two
    // instances' writers lock shared rows in the same order).
    let mut rows: BTreeMap<Key, Measures> = BTreeMap::new();
    let mut actives: Vec<(i64, i64)> = Vec::new();
    for d in deltas {
        if !d.key.game.is_empty() {
            rows.entry(Key { game: String::new(), ..d.key.clone() }).or_default().add(&d.m);
        }
        if let Some(user) = d.active {
            actives.push((d.key.day, user));
        }
        rows.entry(d.key).or_default().add(&d.m);
    }
    upsert(conn, shard, &rows).await?;
    actives.sort_unstable();
    actives.dedup();
    let mut new_per_day: BTreeMap<i64, i64> = BTreeMap::new();
    for part in actives.chunks(500) {
        let sql = format!("INSERT INTO report_player_days (day, user_id) VALUES {} ON CONFLICT DO NOTHING RETURNING day", store::values(part.len(), 2, 1));
        let sql = store::positional(conn, &sql);
        let mut q = sqlx::query(&sql);
        for (day, user) in part {
            q = q.bind(*day).bind(*user);
        }
        for r in q.fetch_all(&mut *conn).await? {
            *new_per_day.entry(r.try_get::<i64, _>(0)?).or_default() += 1;
        }
    }
    if !new_per_day.is_empty() {
        let sql = format!(
            "INSERT INTO report_actives (day, shard, players) VALUES {} \
             ON CONFLICT (day, shard) DO UPDATE SET players = report_actives.players + excluded.players",
            store::values(new_per_day.len(), 3, 1)
        );
        let sql = store::positional(conn, &sql);
        let mut q = sqlx::query(&sql);
        for (day, n) in &new_per_day {
            q = q.bind(*day).bind(shard).bind(*n);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

async fn upsert(conn: &mut AnyConnection, shard: i64, rows: &BTreeMap<Key, Measures>) -> Result<(), sqlx::Error> {
    let rows: Vec<(&Key, &Measures)> = rows.iter().collect();
    for part in rows.chunks(400) {
        let sql = format!(
            "INSERT INTO report_daily (day, currency, tx_type, product, provider, game, shard, postings, amount, real_amount, volume) VALUES {} \
             ON CONFLICT (game, day, currency, tx_type, product, provider, shard) DO UPDATE SET \
             postings = report_daily.postings + excluded.postings, amount = report_daily.amount + excluded.amount, \
             real_amount = report_daily.real_amount + excluded.real_amount, volume = report_daily.volume + excluded.volume",
            store::values(part.len(), 11, 1)
        );
        let sql = store::positional(conn, &sql);
        let mut q = sqlx::query(&sql);
        for (k, m) in part {
            q = q
                .bind(k.day)
                .bind(k.currency.as_str())
                .bind(k.tx_type)
                .bind(k.product.as_str())
                .bind(k.provider.as_str())
                .bind(k.game.as_str())
                .bind(shard)
                .bind(m.postings)
                .bind(m.amount)
                .bind(m.real_amount)
                .bind(m.volume);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Every row as the ledger says it should be: transactions and their entries streamed in id
/// order, each posting's delta computed as the writers compute it. Memory holds the rows,
/// the active players and the rollbacks (whose originals are read afterwards, by id), never
/// the ledger.
async fn recompute(conn: &mut AnyConnection) -> Result<(BTreeMap<Key, Measures>, std::collections::BTreeSet<(i64, i64)>), sqlx::Error> {
    use futures::TryStreamExt;
    let sql = "SELECT t.id, t.tx_type, t.metadata, t.user_id, t.reverses_tx_id, e.created_at, a.owner_id, a.kind, a.currency, a.is_house, e.amount \
               FROM ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id JOIN ledger_accounts a ON a.id = e.account_id \
               ORDER BY t.id, e.id";
    struct Tx {
        id: i64,
        tx_type: i64,
        metadata: String,
        user_id: Option<i64>,
        reverses: Option<i64>,
        at: i64,
        legs: Vec<Leg>,
    }
    let mut rows: BTreeMap<Key, Measures> = BTreeMap::new();
    let mut actives: std::collections::BTreeSet<(i64, i64)> = Default::default();
    let mut add = |d: Delta| {
        if !d.key.game.is_empty() {
            rows.entry(Key { game: String::new(), ..d.key.clone() }).or_default().add(&d.m);
        }
        if let Some(u) = d.active {
            actives.insert((d.key.day, u));
        }
        rows.entry(d.key).or_default().add(&d.m);
    };
    // Rollbacks wait for their originals' type and metadata (read by id at the end).
    let mut rollbacks: Vec<Tx> = Vec::new();
    let done = |tx: Tx, rollbacks: &mut Vec<Tx>, add: &mut dyn FnMut(Delta)| {
        let Some(tx_type) = TxType::from_code(tx.tx_type) else { return };
        if tx_type == TxType::Rollback && tx.reverses.is_some() {
            rollbacks.push(tx);
            return;
        }
        let metadata: serde_json::Value = serde_json::from_str(&tx.metadata).unwrap_or_default();
        if let Some(d) = delta(tx_type, &metadata, &tx.legs, tx.user_id, tx.at, None) {
            add(d);
        }
    };
    {
        let mut current: Option<Tx> = None;
        let mut stream = sqlx::query(sql).fetch(&mut *conn);
        while let Some(r) = stream.try_next().await? {
            let id: i64 = r.try_get(0)?;
            if current.as_ref().map(|t| t.id) != Some(id) {
                if let Some(tx) = current.take() {
                    done(tx, &mut rollbacks, &mut add);
                }
                current = Some(Tx {
                    id,
                    tx_type: r.try_get(1)?,
                    metadata: r.try_get(2)?,
                    user_id: r.try_get(3)?,
                    reverses: r.try_get(4)?,
                    at: r.try_get(5)?,
                    legs: Vec::new(),
                });
            }
            let (owner, kind, currency, is_house, amount): (i64, String, String, i64, i64) = (r.try_get(6)?, r.try_get(7)?, r.try_get(8)?, r.try_get(9)?, r.try_get(10)?);
            let Ok(currency) = Currency::from_str(&currency) else { continue };
            let account = if is_house != 0 {
                match HouseAccount::parse(&kind) {
                    Some(h) => AccountRef::House(h),
                    None => continue,
                }
            } else {
                match BalanceKind::from_str(&kind) {
                    Ok(k) => AccountRef::Player { user_id: owner, kind: k },
                    Err(_) => continue,
                }
            };
            if let Some(tx) = current.as_mut() {
                tx.legs.push(Leg { account, currency, amount });
            }
        }
        if let Some(tx) = current.take() {
            done(tx, &mut rollbacks, &mut add);
        }
    }
    // The originals of the rollbacks: their type and metadata name the rows a rollback
    // counts against.
    let mut originals: HashMap<i64, (i64, serde_json::Value)> = HashMap::new();
    let ids: Vec<i64> = rollbacks.iter().filter_map(|t| t.reverses).collect();
    for part in ids.chunks(500) {
        let sql = format!("SELECT id, tx_type, metadata FROM ledger_transactions WHERE id IN {}", store::values(1, part.len(), 1));
        let sql = store::positional(conn, &sql);
        let mut q = sqlx::query(&sql);
        for id in part {
            q = q.bind(*id);
        }
        for r in q.fetch_all(&mut *conn).await? {
            let md: String = r.try_get(2)?;
            originals.insert(r.try_get(0)?, (r.try_get(1)?, serde_json::from_str(&md).unwrap_or_default()));
        }
    }
    for tx in rollbacks {
        let Some((original_type, original_md)) = tx.reverses.and_then(|o| originals.get(&o)) else { continue };
        let Some(original_type) = TxType::from_code(*original_type) else { continue };
        let metadata: serde_json::Value = serde_json::from_str(&tx.metadata).unwrap_or_default();
        if let Some(d) = delta(TxType::Rollback, &metadata, &tx.legs, tx.user_id, tx.at, Some((original_type, original_md))) {
            add(d);
        }
    }
    Ok((rows, actives))
}

fn per_day(actives: &std::collections::BTreeSet<(i64, i64)>) -> BTreeMap<i64, i64> {
    let mut per_day: BTreeMap<i64, i64> = BTreeMap::new();
    for (day, _) in actives {
        *per_day.entry(*day).or_default() += 1;
    }
    per_day
}

/// The stored rows, shards summed.
async fn stored(conn: &mut AnyConnection) -> Result<(BTreeMap<Key, Measures>, BTreeMap<i64, i64>), sqlx::Error> {
    let mut rows: BTreeMap<Key, Measures> = BTreeMap::new();
    for r in sqlx::query(
        "SELECT day, currency, tx_type, product, provider, game, CAST(SUM(postings) AS BIGINT), CAST(SUM(amount) AS BIGINT), \
         CAST(SUM(real_amount) AS BIGINT), CAST(SUM(volume) AS BIGINT) \
         FROM report_daily GROUP BY day, currency, tx_type, product, provider, game",
    )
    .fetch_all(&mut *conn)
    .await?
    {
        let key = Key { day: r.try_get(0)?, currency: r.try_get(1)?, tx_type: r.try_get(2)?, product: r.try_get(3)?, provider: r.try_get(4)?, game: r.try_get(5)? };
        let m = Measures { postings: r.try_get(6)?, amount: r.try_get(7)?, real_amount: r.try_get(8)?, volume: r.try_get(9)? };
        if m != Measures::default() {
            rows.insert(key, m);
        }
    }
    let mut per_day = BTreeMap::new();
    for r in sqlx::query("SELECT day, CAST(SUM(players) AS BIGINT) FROM report_actives GROUP BY day").fetch_all(&mut *conn).await? {
        per_day.insert(r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?);
    }
    Ok((rows, per_day))
}

/// What [`verify`] found.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollupReport {
    /// Rows the ledger implies.
    pub rows: usize,
    /// Rows whose stored sums differ from the ledger's, or are missing, or should not exist.
    pub mismatched: usize,
    /// Days whose active-player count differs.
    pub active_days_mismatched: usize,
    /// The first differences, for the operator (at most 20).
    pub examples: Vec<String>,
}

impl RollupReport {
    pub fn consistent(&self) -> bool {
        self.mismatched == 0 && self.active_days_mismatched == 0
    }
}

/// Recomputes every rollup row from the ledger and compares with what is stored. Reads the
/// whole ledger: an operator's check (`carthage report verify`), not a request's.
pub async fn verify(db: &Db) -> Result<RollupReport, sqlx::Error> {
    // One snapshot for both reads (SQLite: a read transaction; PostgreSQL: repeatable read),
    // so postings committed meanwhile are in both or in neither.
    let mut tx = db.reader().begin().await?;
    let conn: &mut AnyConnection = &mut tx;
    if db.backend() == store::Backend::Postgres {
        store::dialect::exec_script(conn, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ").await?;
    }
    let (want, actives) = recompute(conn).await?;
    let want_active = per_day(&actives);
    let (have, have_active) = stored(conn).await?;
    tx.rollback().await?;
    let mut out = RollupReport { rows: want.len(), ..Default::default() };
    for (k, m) in &want {
        let h = have.get(k).copied().unwrap_or_default();
        if h != *m && *m != Measures::default() {
            out.mismatched += 1;
            if out.examples.len() < 20 {
                out.examples.push(format!("{k:?}: ledger {m:?}, stored {h:?}"));
            }
        }
    }
    for (k, h) in &have {
        if !want.contains_key(k) {
            out.mismatched += 1;
            if out.examples.len() < 20 {
                out.examples.push(format!("{k:?}: not in the ledger, stored {h:?}"));
            }
        }
    }
    let days: std::collections::BTreeSet<i64> = want_active.keys().chain(have_active.keys()).copied().collect();
    for day in days {
        let (w, h) = (want_active.get(&day).copied().unwrap_or(0), have_active.get(&day).copied().unwrap_or(0));
        if w != h {
            out.active_days_mismatched += 1;
            if out.examples.len() < 20 {
                out.examples.push(format!("day {day}: {w} active players in the ledger, {h} stored"));
            }
        }
    }
    Ok(out)
}

/// Rewrites every rollup row from the ledger, in one transaction on the writer connection
/// (SQLite: the one writer; PostgreSQL: the rollup tables locked against every writer's
/// upserts until it commits). Answers the rows written.
pub async fn rebuild(db: &Db) -> Result<usize, sqlx::Error> {
    let mut tx = db.writer().begin().await?;
    if db.backend() == store::Backend::Postgres {
        store::dialect::exec_script(&mut tx, "LOCK TABLE report_daily, report_actives, report_player_days, report_state IN EXCLUSIVE MODE").await?;
    }
    store::dialect::exec_script(&mut tx, "DELETE FROM report_daily; DELETE FROM report_actives; DELETE FROM report_player_days").await?;
    let (rows, actives) = recompute(&mut tx).await?;
    let n = rows.len();
    upsert(&mut tx, 0, &rows).await?;
    let actives: Vec<(i64, i64)> = actives.into_iter().collect();
    let mut per_day: BTreeMap<i64, i64> = BTreeMap::new();
    for part in actives.chunks(500) {
        let sql = format!("INSERT INTO report_player_days (day, user_id) VALUES {}", store::values(part.len(), 2, 1));
        let sql = store::positional(&*tx, &sql);
        let mut q = sqlx::query(&sql);
        for (day, user) in part {
            q = q.bind(*day).bind(*user);
            *per_day.entry(*day).or_default() += 1;
        }
        q.execute(&mut *tx).await?;
    }
    for (day, n) in per_day {
        sqlx::query(&store::positional(&*tx, "INSERT INTO report_actives (day, shard, players) VALUES ($1, 0, $2)")).bind(day).bind(n).execute(&mut *tx).await?;
    }
    sqlx::query(&store::positional(&*tx, "DELETE FROM report_state WHERE id = 1")).execute(&mut *tx).await?;
    sqlx::query(&store::positional(&*tx, "INSERT INTO report_state (id, built_at) VALUES (1, $1)")).bind(kernel::clock::now_ms()).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(n)
}

/// Rebuilds the rollups once, when the database had postings before they existed
/// (migration 0039 marks a database without postings as built). Called at start.
pub async fn ensure_built(db: &Db) -> Result<Option<usize>, sqlx::Error> {
    let built = sqlx::query("SELECT COUNT(*) FROM report_state WHERE id = 1").fetch_one(db.reader()).await?.try_get::<i64, _>(0)? > 0;
    if built {
        return Ok(None);
    }
    rebuild(db).await.map(Some)
}

/// What a report groups its rows by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    Day,
    Product,
    Provider,
    Game,
}

/// A report over the operator's days `from_day..=to_day`.
#[derive(Debug, Clone)]
pub struct ReportQuery {
    pub from_day: i64,
    pub to_day: i64,
    /// One currency, or every currency (a row per currency).
    pub currency: Option<String>,
    pub by: GroupBy,
}

/// A report row's figures, in the row's currency's minor units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Figures {
    /// Stakes taken (casino, our sportsbook, the partner sportsbooks), net of rollbacks.
    pub bets: i64,
    pub stakes: i64,
    /// Returned to players: wins, sport payouts and resettlements, jackpot wins.
    pub wins: i64,
    /// Gross gaming revenue: stakes − wins.
    pub ggr: i64,
    /// What promotions gave players (bonuses, free bets, cashback, rakeback, prizes), net of
    /// what came back (forfeits, expiries, reversals, the unconverted part of a bonus).
    pub bonus_cost: i64,
    /// Net gaming revenue: GGR − bonus cost.
    pub ngr: i64,
    /// Deposits credited (providers, cashiers).
    pub deposits: i64,
    /// Withdrawals held for payment, net of those released back to the player.
    pub withdrawals: i64,
}

impl std::ops::AddAssign<&Figures> for Figures {
    fn add_assign(&mut self, f: &Figures) {
        self.bets += f.bets;
        self.stakes += f.stakes;
        self.wins += f.wins;
        self.ggr += f.ggr;
        self.bonus_cost += f.bonus_cost;
        self.ngr += f.ngr;
        self.deposits += f.deposits;
        self.withdrawals += f.withdrawals;
    }
}

impl<'a> std::iter::Sum<&'a Figures> for Figures {
    fn sum<I: Iterator<Item = &'a Figures>>(iter: I) -> Figures {
        let mut total = Figures::default();
        for f in iter {
            total += f;
        }
        total
    }
}

impl Figures {
    fn add(&mut self, tx_type: i64, product: &str, m: &Measures) {
        use TxType::*;
        let Some(t) = TxType::from_code(tx_type) else { return };
        match t {
            BetStake | SportStake | PartnerSportStake => {
                self.bets += m.postings;
                self.stakes += m.amount;
                self.ggr += m.amount;
                self.ngr += m.amount;
            }
            BetWin | SportPayout | SportResettle | PartnerSportPayout | JackpotWin => {
                self.wins -= m.amount;
                self.ggr += m.amount;
                self.ngr += m.amount;
            }
            Deposit | PaymentService | CashierPayment | RefillBalance => self.deposits -= m.amount,
            Withdrawal | WithdrawalReleased => self.withdrawals += m.amount,
            _ if product == "bonus" => {
                self.bonus_cost -= m.amount;
                self.ngr += m.amount;
            }
            _ => {}
        }
    }
}

/// One row of a report: its group (the fields of [`GroupBy`]) and figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    pub day: Option<i64>,
    pub currency: String,
    pub product: Option<String>,
    pub provider: Option<String>,
    pub game: Option<String>,
    pub figures: Figures,
    /// By day: players who staked that day (every currency).
    pub active_players: Option<i64>,
}

/// The report: sums of the rollup rows of the range, never the ledger. By day, product or
/// provider it reads the providers' totals (`game = ''`): days × providers rows, however
/// large the ledger; by game, the games' rows of the range. Rows in group order (by game:
/// GGR, largest first).
pub async fn report(db: &Db, q: &ReportQuery) -> Result<Vec<ReportRow>, sqlx::Error> {
    let game_rows = q.by == GroupBy::Game;
    // The database sums over what the report does not group by (a year by game: one row per
    // game and type, not per game, type and day); `tx_type` and `product` always, as the
    // figures are made of them.
    let grouped: &[&str] = match q.by {
        GroupBy::Day => &["day"],
        GroupBy::Product => &[],
        GroupBy::Provider => &["provider"],
        GroupBy::Game => &["provider", "game"],
    };
    let column = |name: &'static str, none: &'static str| if grouped.contains(&name) { name } else { none };
    let mut sql = format!(
        "SELECT {}, currency, tx_type, product, {}, {}, CAST(SUM(postings) AS BIGINT), CAST(SUM(amount) AS BIGINT), \
         CAST(SUM(real_amount) AS BIGINT), CAST(SUM(volume) AS BIGINT) FROM report_daily WHERE ",
        column("day", "CAST(0 AS BIGINT)"),
        column("provider", "CAST('' AS TEXT)"),
        column("game", "CAST('' AS TEXT)"),
    );
    sql.push_str(if game_rows { "game <> ''" } else { "game = ''" });
    sql.push_str(" AND day >= $1 AND day <= $2");
    if q.currency.is_some() {
        sql.push_str(" AND currency = $3");
    }
    sql.push_str(" GROUP BY currency, tx_type, product");
    for g in grouped {
        sql.push_str(", ");
        sql.push_str(g);
    }
    let mut query = sqlx::query(&sql).bind(q.from_day).bind(q.to_day);
    if let Some(c) = &q.currency {
        query = query.bind(c.as_str());
    }
    type Group = (Option<i64>, String, Option<String>, Option<String>, Option<String>);
    let mut groups: BTreeMap<Group, Figures> = BTreeMap::new();
    for r in query.fetch_all(db.reader()).await? {
        let (day, currency, tx_type, product, provider, game): (i64, String, i64, String, String, String) =
            (r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?, r.try_get(4)?, r.try_get(5)?);
        let m = Measures { postings: r.try_get(6)?, amount: r.try_get(7)?, real_amount: r.try_get(8)?, volume: r.try_get(9)? };
        let group: Group = match q.by {
            GroupBy::Day => (Some(day), currency, None, None, None),
            GroupBy::Product => (None, currency, Some(product.clone()), None, None),
            GroupBy::Provider => (None, currency, Some(product.clone()), Some(provider), None),
            GroupBy::Game => (None, currency, Some(product.clone()), Some(provider), Some(game)),
        };
        groups.entry(group).or_default().add(tx_type, &product, &m);
    }
    let actives: HashMap<i64, i64> = if q.by == GroupBy::Day {
        let mut out = HashMap::new();
        for r in sqlx::query("SELECT day, CAST(SUM(players) AS BIGINT) FROM report_actives WHERE day >= $1 AND day <= $2 GROUP BY day")
            .bind(q.from_day)
            .bind(q.to_day)
            .fetch_all(db.reader())
            .await?
        {
            out.insert(r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?);
        }
        out
    } else {
        HashMap::new()
    };
    let mut rows: Vec<ReportRow> = groups
        .into_iter()
        .map(|((day, currency, product, provider, game), figures)| ReportRow {
            active_players: day.map(|d| actives.get(&d).copied().unwrap_or(0)),
            day,
            currency,
            product,
            provider,
            game,
            figures,
        })
        .collect();
    if game_rows {
        rows.sort_by(|a, b| b.figures.ggr.cmp(&a.figures.ggr).then_with(|| a.game.cmp(&b.game)));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operators_day_starts_at_midnight_in_tunis() {
        // 2026-11-27 23:00 UTC is midnight of the 28th in Tunis.
        let d = kernel::clock::day_number("2026-11-28").unwrap();
        let start = day_start_ms(d);
        assert_eq!(kernel::clock::to_rfc3339(start), "2026-11-27T23:00:00.000Z");
        assert_eq!((day_of(start - 1), day_of(start), day_of(start + DAY_MS - 1), day_of(start + DAY_MS)), (d - 1, d, d, d + 1));
    }

    fn legs(player: i64, kind: BalanceKind, house: HouseAccount, amount: i64) -> Vec<Leg> {
        vec![Leg::player(player, kind, Currency::Tnd, -amount), Leg::house(house, Currency::Tnd, amount)]
    }

    #[test]
    fn a_posting_counts_under_its_product_provider_and_game() {
        let md = serde_json::json!({ "provider": "pragmatic", "gameId": "gates" });
        let d = delta(TxType::BetStake, &md, &legs(7, BalanceKind::Real, HouseAccount::Games, 500), Some(7), 0, None).unwrap();
        assert_eq!((d.key.product.as_str(), d.key.provider.as_str(), d.key.game.as_str()), ("casino", "pragmatic", "gates"));
        assert_eq!(d.m, Measures { postings: 1, amount: 500, real_amount: 500, volume: 500 });
        assert_eq!(d.active, Some(7));
        // A bonus-money stake: in the amount, not the real amount.
        let d = delta(TxType::SportStake, &serde_json::json!({ "sport": "1" }), &legs(7, BalanceKind::Bonus, HouseAccount::Sportsbook, 300), Some(7), 0, None).unwrap();
        assert_eq!((d.key.product.as_str(), d.key.provider.as_str(), d.key.game.as_str()), ("sport", "sportsbook", "1"));
        assert_eq!((d.m.amount, d.m.real_amount), (300, 0));
        // Its rollback: counted against the stake (one posting fewer, the money back).
        let reversal = legs(7, BalanceKind::Real, HouseAccount::Games, -500);
        let d = delta(TxType::Rollback, &serde_json::json!({}), &reversal, Some(7), 0, Some((TxType::BetStake, &md))).unwrap();
        assert_eq!((d.key.tx_type, d.key.game.as_str()), (TxType::BetStake.code(), "gates"));
        assert_eq!(d.m, Measures { postings: -1, amount: -500, real_amount: -500, volume: -500 });
        assert_eq!(d.active, None);
        // Text from outside is cut to 64 characters.
        let long = "x".repeat(300);
        let d = delta(TxType::BetWin, &serde_json::json!({ "provider": long, "gameId": 12 }), &legs(7, BalanceKind::Real, HouseAccount::Games, -5), Some(7), 0, None).unwrap();
        assert_eq!((d.key.provider.len(), d.key.game.as_str(), d.active), (64, "12", None));
    }

    #[test]
    fn figures_classify_every_kind_of_posting() {
        let mut f = Figures::default();
        let m = |postings, amount| Measures { postings, amount, real_amount: amount, volume: amount.abs() };
        f.add(TxType::BetStake.code(), "casino", &m(3, 3_000));
        f.add(TxType::BetWin.code(), "casino", &m(1, -1_200));
        f.add(TxType::SportResettle.code(), "sport", &m(1, 200));
        f.add(TxType::BonusGrant.code(), "bonus", &m(1, -500));
        f.add(TxType::BonusForfeit.code(), "bonus", &m(1, 100));
        f.add(TxType::PaymentService.code(), "payments", &m(1, -10_000));
        f.add(TxType::Withdrawal.code(), "payments", &m(1, 4_000));
        f.add(TxType::WithdrawalReleased.code(), "payments", &m(1, -1_000));
        f.add(TxType::ManualAdjustment.code(), "other", &m(1, -77));
        assert_eq!(
            f,
            Figures { bets: 3, stakes: 3_000, wins: 1_000, ggr: 2_000, bonus_cost: 400, ngr: 1_600, deposits: 10_000, withdrawals: 3_000 }
        );
    }
}
