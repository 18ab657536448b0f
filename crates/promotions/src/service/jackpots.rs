//! Jackpots Mega / Medium / Small: progressive pools with a provably fair must-drop point
//! (`crate::fair`). Contributions are written by the wallet observer in each casino stake's
//! transaction (a row and a `JackpotContribution` posting); [`Promotions::fold_jackpots`], run
//! by one owner, adds them to their pool in id order. The contribution that first takes a pool
//! to its drop point wins: the win is paid under `jackpot:{pool}:{cycle}` with the pool's next
//! cycle and the revealed seed in the same transaction, so a pool drops once per cycle whatever
//! runs at the same time (the pool's update is conditional on the cycle and amount it read).

use super::{db_err, Promotions};
use crate::fair;
use crate::Minor;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, Row};
use studio::fair::{hex32, new_server_seed, parse_hex32, seed_hash};
use wallet::{attached, AccountRef, BalanceKind, HouseAccount, LedgerError, PostingRequest, TxType};

/// A pool as contributions need it (cached by the service).
#[derive(Debug, Clone)]
pub(crate) struct PoolConf {
    pub id: String,
    pub currency: Currency,
    pub share_bps: i64,
}

/// A jackpot as the widget shows it (spec §3 Jackpot).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JackpotView {
    pub id: i64,
    pub pool: String,
    pub name: String,
    pub image: String,
    pub currency: Currency,
    #[schema(value_type = f64)]
    pub amount: MajorUnits,
    #[schema(value_type = f64)]
    pub start_amount: MajorUnits,
    /// The most the pool can reach: it drops at the latest there.
    #[schema(value_type = f64)]
    pub cap: MajorUnits,
    /// SHA-256 of this cycle's server seed, published when the cycle began.
    pub seed_hash: String,
    pub cycle: i64,
    /// Seconds since the cycle began.
    pub timer: i64,
    /// The last winner's masked id, if any.
    pub last_winner: Option<String>,
    pub is_outcome: bool,
}

/// A drop, for the winner's modal and the public history.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JackpotWin {
    pub id: String,
    pub pool: String,
    pub name: String,
    pub image: String,
    pub currency: Currency,
    #[schema(value_type = f64)]
    pub amount: MajorUnits,
    pub user_id: i64,
    pub cycle: i64,
    pub created_at: i64,
    /// Everything needed to recompute the drop point (`promotions::fair::drop_point`).
    pub server_seed: String,
    pub seed_hash: String,
    #[schema(value_type = f64)]
    pub seed_amount: MajorUnits,
    #[schema(value_type = f64)]
    pub cap_amount: MajorUnits,
    #[schema(value_type = f64)]
    pub drop_point: MajorUnits,
}

struct PoolRow {
    id: String,
    currency: Currency,
    seed_amount: Minor,
    cap: Minor,
    cycle: i64,
    amount: Minor,
    server_seed: String,
    seed_hash: String,
    drop_point: Minor,
}

const POOL: &str = "SELECT id, currency, seed_amount, cap, cycle, amount, server_seed, seed_hash, drop_point FROM jackpot_pools";

fn pool_row(r: &store::sqlx::any::AnyRow) -> Result<PoolRow, AppError> {
    let currency: String = r.get(1);
    Ok(PoolRow {
        id: r.get(0),
        currency: Currency::from_str(&currency).map_err(|_| db_err("pool currency"))?,
        seed_amount: r.get(2),
        cap: r.get(3),
        cycle: r.get(4),
        amount: r.get(5),
        server_seed: r.get(6),
        seed_hash: r.get(7),
        drop_point: r.get(8),
    })
}

/// A new cycle's secret seed, its public hash and its drop point.
fn draw_cycle(pool: &str, cycle: i64, seed_amount: Minor, cap: Minor) -> Result<(String, String, Minor), AppError> {
    let seed = new_server_seed();
    let drop = fair::drop_point(&seed, pool, cycle as u64, seed_amount, cap).map_err(|e| AppError::with_detail(ErrorCode::BonusTermsRefused, e.to_string()))?;
    Ok((hex32(&seed), hex32(&seed_hash(&seed)), drop))
}

/// The operator's money that starts a cycle (`house:games` → `house:jackpots`).
fn seed_posting(pool: &str, cycle: i64, currency: Currency, amount: Minor) -> PostingRequest {
    PostingRequest::transfer(
        TxType::JackpotContribution,
        format!("jackpot:{pool}:{cycle}:seed"),
        None,
        currency,
        AccountRef::House(HouseAccount::Games),
        AccountRef::House(HouseAccount::Jackpots),
        amount,
    )
    .comment(format!("Jackpot {pool} cycle {cycle} seed"))
}

impl Promotions {
    /// Creates a pool (idempotent by id): its first cycle's seed hash is public at once.
    #[allow(clippy::too_many_arguments)]
    pub async fn create_pool(&self, id: &str, num: i64, name: &str, currency: Currency, seed_amount: Minor, cap: Minor, share_bps: i64, image: &str) -> Result<(), AppError> {
        if !(1..=10_000).contains(&share_bps) || seed_amount < 0 || cap <= seed_amount {
            return Err(AppError::with_detail(ErrorCode::BonusTermsRefused, "a pool needs 0 ≤ seed < cap and a share of 0.01–100 %"));
        }
        let (seed, hash, drop) = draw_cycle(id, 1, seed_amount, cap)?;
        let now = now_ms();
        sqlx::query(
            "INSERT INTO jackpot_pools (id, num, name, currency, seed_amount, cap, share_bps, image, cycle, amount, server_seed, seed_hash, drop_point, cycle_started_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $5, $9, $10, $11, $12, $12) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(num)
        .bind(name)
        .bind(currency.code())
        .bind(seed_amount)
        .bind(cap)
        .bind(share_bps)
        .bind(image)
        .bind(seed)
        .bind(hash)
        .bind(drop)
        .bind(now)
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        if seed_amount > 0 {
            self.ledger().post(seed_posting(id, 1, currency, seed_amount)).await?;
        }
        self.load_pools().await
    }

    /// Reads the pools' contribution settings into the observer's cache.
    pub async fn load_pools(&self) -> Result<(), AppError> {
        let rows = sqlx::query("SELECT id, currency, share_bps FROM jackpot_pools ORDER BY num").fetch_all(self.db().reader()).await.map_err(db_err)?;
        let mut pools = Vec::with_capacity(rows.len());
        for r in rows {
            let currency: String = r.get(1);
            pools.push(PoolConf { id: r.get(0), currency: Currency::from_str(&currency).map_err(|_| db_err("pool currency"))?, share_bps: r.get(2) });
        }
        *self.inner.pools.write().unwrap_or_else(|p| p.into_inner()) = pools;
        Ok(())
    }

    /// Caches every catalogue game's wagering category, so a stake's check (in memory) counts
    /// it by its catalogue category from the first stake on (a game added later is cached by
    /// the first stake's `applied`, counted by its id until then).
    pub async fn load_categories(&self) -> Result<usize, AppError> {
        let rows = sqlx::query("SELECT provider, game_id, kind, casino_type, name FROM casino_games").fetch_all(self.db().reader()).await.map_err(db_err)?;
        let mut cache = self.inner.categories.lock().unwrap_or_else(|p| p.into_inner());
        for r in &rows {
            let category = super::watch::category_of(&r.get::<String, _>(2), &r.get::<String, _>(3), &r.get::<String, _>(4));
            cache.insert((r.get(0), r.get(1)), category);
        }
        Ok(rows.len())
    }

    /// Folds every pool's new contributions (one owner runs this every few hundred ms).
    /// Returns the drops it paid.
    pub async fn fold_jackpots(&self) -> Result<usize, AppError> {
        let ids: Vec<String> = sqlx::query("SELECT id FROM jackpot_pools").fetch_all(self.db().reader()).await.map_err(db_err)?.iter().map(|r| r.get(0)).collect();
        let mut drops = 0;
        for id in ids {
            // Bounded: a pool with a long backlog continues at the next call.
            for _ in 0..20 {
                match self.fold_pool(&id).await? {
                    Fold::Idle => break,
                    Fold::Folded => {}
                    Fold::Dropped => drops += 1,
                }
            }
        }
        Ok(drops)
    }

    async fn fold_pool(&self, pool: &str) -> Result<Fold, AppError> {
        let p = match sqlx::query(&format!("{POOL} WHERE id = $1")).bind(pool).fetch_optional(self.db().writer()).await.map_err(db_err)? {
            Some(r) => pool_row(&r)?,
            None => return Ok(Fold::Idle),
        };
        // The cycle's seed money is posted after a drop commits; a crash in between is repaired here.
        if p.seed_amount > 0 && self.ledger().lookup(&format!("jackpot:{}:{}:seed", p.id, p.cycle)).await?.is_none() {
            self.ledger().post(seed_posting(&p.id, p.cycle, p.currency, p.seed_amount)).await?;
        }
        let rows = sqlx::query("SELECT id, user_id, amount FROM jackpot_contributions WHERE pool = $1 AND folded = 0 ORDER BY id LIMIT 500")
            .bind(pool)
            .fetch_all(self.db().writer())
            .await
            .map_err(db_err)?;
        if rows.is_empty() {
            return Ok(Fold::Idle);
        }
        let mut taken = Vec::new();
        let mut at = p.amount;
        let mut winner = None;
        for r in &rows {
            let (id, user, amount): (i64, i64, i64) = (r.get(0), r.get(1), r.get(2));
            taken.push(id);
            let after = at + amount;
            if fair::crosses(at, after, p.drop_point) {
                winner = Some((id, user));
                at = after;
                break;
            }
            at = after;
        }
        let Some((contribution, user_id)) = winner else {
            let mut tx = self.db().writer().begin().await.map_err(db_err)?;
            let moved = sqlx::query("UPDATE jackpot_pools SET amount = $1, updated_at = $2 WHERE id = $3 AND cycle = $4 AND amount = $5")
                .bind(at)
                .bind(now_ms())
                .bind(pool)
                .bind(p.cycle)
                .bind(p.amount)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            if moved.rows_affected() == 1 {
                mark_folded(&mut *tx, &taken).await.map_err(db_err)?;
                tx.commit().await.map_err(db_err)?;
            }
            return Ok(Fold::Folded);
        };
        // The drop: the win, the revealed seed and the next cycle, in one transaction.
        let next = p.cycle + 1;
        let (seed, hash, drop) = draw_cycle(&p.id, next, p.seed_amount, p.cap)?;
        let win_id = next_id();
        let now = now_ms();
        let posting = PostingRequest::transfer(
            TxType::JackpotWin,
            format!("jackpot:{}:{}", p.id, p.cycle),
            Some(user_id),
            p.currency,
            AccountRef::House(HouseAccount::Jackpots),
            AccountRef::Player { user_id, kind: BalanceKind::Real },
            at,
        )
        .comment(format!("Jackpot {}", p.id))
        .metadata(serde_json::json!({ "pool": p.id, "cycle": p.cycle, "winId": win_id.to_string() }));
        let (pool_id, cycle, amount_read, currency) = (p.id.clone(), p.cycle, p.amount, p.currency);
        let (old_seed, old_hash, seed_amount, cap, drop_point) = (p.server_seed.clone(), p.seed_hash.clone(), p.seed_amount, p.cap, p.drop_point);
        let work = attached(move |conn| {
            Box::pin(async move {
                let moved = sqlx::query(
                    "UPDATE jackpot_pools SET cycle = $1, amount = seed_amount, server_seed = $2, seed_hash = $3, drop_point = $4, \
                     cycle_started_at = $5, updated_at = $5 WHERE id = $6 AND cycle = $7 AND amount = $8",
                )
                .bind(next)
                .bind(&seed)
                .bind(&hash)
                .bind(drop)
                .bind(now)
                .bind(&pool_id)
                .bind(cycle)
                .bind(amount_read)
                .execute(&mut *conn)
                .await?;
                if moved.rows_affected() != 1 {
                    return Ok(false);
                }
                mark_folded(&mut *conn, &taken).await?;
                sqlx::query(
                    "INSERT INTO jackpot_wins (id, pool, cycle, user_id, amount, currency, contribution_id, server_seed, seed_hash, seed_amount, cap, drop_point, shown, created_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13)",
                )
                .bind(win_id)
                .bind(&pool_id)
                .bind(cycle)
                .bind(user_id)
                .bind(at)
                .bind(currency.code())
                .bind(contribution)
                .bind(&old_seed)
                .bind(&old_hash)
                .bind(seed_amount)
                .bind(cap)
                .bind(drop_point)
                .bind(now)
                .execute(&mut *conn)
                .await?;
                Ok(true)
            })
        });
        match self.ledger().post_with(posting, work).await {
            Ok(r) if !r.replayed => {
                self.forget_pools_snapshot();
                if p.seed_amount > 0 {
                    self.ledger().post(seed_posting(&p.id, next, p.currency, p.seed_amount)).await?;
                }
                self.forget_player(user_id);
                tracing::info!(pool = %p.id, cycle = p.cycle, user_id, amount = at, "jackpot dropped");
                Ok(Fold::Dropped)
            }
            // Another folder moved the pool first: nothing was written; read again.
            Ok(_) | Err(LedgerError::Declined | LedgerError::IdempotencyConflict) => Ok(Fold::Folded),
            Err(e) => Err(e.into()),
        }
    }

    /// Demo mode: the operator tops a pool up to one minor unit below its drop point, so the
    /// next eligible stake's contribution drops it. Stays verifiable: the drop point is the one
    /// committed when the cycle began. Answers the amount added.
    pub async fn force_drop(&self, pool: &str) -> Result<Minor, AppError> {
        self.fold_jackpots().await?;
        let p = pool_row(&sqlx::query(&format!("{POOL} WHERE id = $1")).bind(pool).fetch_optional(self.db().writer()).await.map_err(db_err)?.ok_or(ErrorCode::NotFound)?)?;
        let pending: i64 = sqlx::query("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM jackpot_contributions WHERE pool = $1 AND folded = 0")
            .bind(pool)
            .fetch_one(self.db().writer())
            .await
            .map_err(db_err)?
            .get(0);
        let boost = p.drop_point - 1 - p.amount - pending;
        if boost <= 0 {
            return Ok(0);
        }
        let id = next_id();
        let posting = PostingRequest::transfer(
            TxType::JackpotContribution,
            format!("jackpot:{}:{}:boost", p.id, p.cycle),
            None,
            p.currency,
            AccountRef::House(HouseAccount::Adjustments),
            AccountRef::House(HouseAccount::Jackpots),
            boost,
        )
        .comment(format!("Jackpot {} topped up (demo)", p.id));
        let pool_id = p.id.clone();
        let work = attached(move |conn| {
            Box::pin(async move {
                sqlx::query("INSERT INTO jackpot_contributions (id, pool, user_id, tx_id, amount, folded, created_at) VALUES ($1, $2, 0, 0, $3, 0, $4)")
                    .bind(id)
                    .bind(&pool_id)
                    .bind(boost)
                    .bind(now_ms())
                    .execute(&mut *conn)
                    .await?;
                Ok(true)
            })
        });
        match self.ledger().post_with(posting, work).await {
            Ok(r) if !r.replayed => {}
            Ok(_) => return Ok(0),
            Err(e) => return Err(e.into()),
        }
        self.fold_jackpots().await?;
        self.forget_pools_snapshot();
        Ok(boost)
    }

    /// The pools as the widget shows them.
    pub async fn jackpots(&self) -> Result<Vec<JackpotView>, AppError> {
        let rows = sqlx::query(
            "SELECT p.num, p.id, p.name, p.image, p.currency, p.amount, p.seed_amount, p.cap, p.seed_hash, p.cycle, p.cycle_started_at, \
             (SELECT w.user_id FROM jackpot_wins w WHERE w.pool = p.id ORDER BY w.cycle DESC LIMIT 1) FROM jackpot_pools p ORDER BY p.num",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let now = now_ms();
        rows.iter()
            .map(|r| {
                let currency = Currency::from_str(&r.get::<String, _>(4)).map_err(|_| db_err("pool currency"))?;
                let last: Option<i64> = r.get(11);
                Ok(JackpotView {
                    id: r.get(0),
                    pool: r.get(1),
                    name: r.get(2),
                    image: r.get(3),
                    currency,
                    amount: MajorUnits::new(r.get(5), currency),
                    start_amount: MajorUnits::new(r.get(6), currency),
                    cap: MajorUnits::new(r.get(7), currency),
                    seed_hash: r.get(8),
                    cycle: r.get(9),
                    timer: (now - r.get::<i64, _>(10)).max(0) / 1000,
                    last_winner: last.map(mask_id),
                    is_outcome: false,
                })
            })
            .collect()
    }

    /// Drops: the player's not yet shown (`mine` with `unshown`), or everyone's in a time range.
    pub async fn jackpot_wins(&self, user: Option<i64>, unshown: bool, from_ms: i64, to_ms: i64, limit: i64, offset: i64) -> Result<(i64, Vec<JackpotWin>), AppError> {
        let mut filter = String::from("w.created_at >= $1 AND w.created_at < $2");
        if user.is_some() {
            filter.push_str(" AND w.user_id = $3");
        }
        if unshown {
            filter.push_str(" AND w.shown = 0");
        }
        let count_sql = format!("SELECT COUNT(*) FROM jackpot_wins w WHERE {filter}");
        let mut q = sqlx::query(&count_sql).bind(from_ms).bind(to_ms);
        if let Some(u) = user {
            q = q.bind(u);
        }
        let total: i64 = q.fetch_one(self.db().reader()).await.map_err(db_err)?.get(0);
        let sql = format!(
            "SELECT w.id, w.pool, p.name, p.image, w.currency, w.amount, w.user_id, w.cycle, w.created_at, w.server_seed, w.seed_hash, w.seed_amount, w.cap, w.drop_point \
             FROM jackpot_wins w JOIN jackpot_pools p ON p.id = w.pool WHERE {filter} ORDER BY w.created_at DESC, w.id DESC LIMIT {} OFFSET {}",
            limit.clamp(1, 100),
            offset.max(0)
        );
        let mut q = sqlx::query(&sql).bind(from_ms).bind(to_ms);
        if let Some(u) = user {
            q = q.bind(u);
        }
        let rows = q.fetch_all(self.db().reader()).await.map_err(db_err)?;
        let wins = rows
            .iter()
            .map(|r| {
                let currency = Currency::from_str(&r.get::<String, _>(4)).map_err(|_| db_err("win currency"))?;
                let m = |i: usize| MajorUnits::new(r.get::<i64, _>(i), currency);
                Ok(JackpotWin {
                    id: r.get::<i64, _>(0).to_string(),
                    pool: r.get(1),
                    name: r.get(2),
                    image: r.get(3),
                    currency,
                    amount: m(5),
                    user_id: r.get(6),
                    cycle: r.get(7),
                    created_at: r.get(8),
                    server_seed: r.get(9),
                    seed_hash: r.get(10),
                    seed_amount: m(11),
                    cap_amount: m(12),
                    drop_point: m(13),
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        Ok((total, wins))
    }

    /// The winner saw the modal (`jackpot_is_shown`): `false` when it is not theirs.
    pub async fn jackpot_shown(&self, user_id: i64, win_id: i64) -> Result<bool, AppError> {
        let r = sqlx::query("UPDATE jackpot_wins SET shown = 1 WHERE id = $1 AND user_id = $2")
            .bind(win_id)
            .bind(user_id)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        self.forget_player(user_id);
        Ok(r.rows_affected() == 1)
    }
}

/// Recomputes a drop point from a revealed seed (the verifier's side): `None` when the seed
/// does not match its published hash.
pub fn verify_drop(server_seed: &str, published_hash: &str, pool: &str, cycle: i64, seed_amount: Minor, cap: Minor) -> Option<Minor> {
    let seed = parse_hex32(server_seed)?;
    if hex32(&seed_hash(&seed)) != published_hash.to_ascii_lowercase() {
        return None;
    }
    fair::drop_point(&seed, pool, cycle as u64, seed_amount, cap).ok()
}

fn mask_id(id: i64) -> String {
    let s = id.to_string();
    let keep = s.len().min(3);
    format!("***{}", &s[s.len() - keep..])
}

enum Fold {
    Idle,
    Folded,
    Dropped,
}

async fn mark_folded(conn: &mut store::sqlx::AnyConnection, ids: &[i64]) -> Result<(), sqlx::Error> {
    for part in ids.chunks(400) {
        let sql = format!("UPDATE jackpot_contributions SET folded = 1 WHERE id IN {}", store::values(1, part.len(), 1));
        let sql = store::positional(conn, &sql);
        let mut q = sqlx::query(&sql);
        for id in part {
            q = q.bind(*id);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

impl Promotions {
    /// The promotions' invariants over the ledger (`carthage ledger verify` reports them): per
    /// currency, `house:jackpots` holds exactly what the pools hold plus the contributions not
    /// folded yet; no player holds bonus money without ever having been granted a bonus.
    pub async fn verify(&self) -> Result<Vec<String>, AppError> {
        let mut problems = Vec::new();
        let house = sqlx::query(
            "SELECT a.currency, CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id \
             WHERE a.is_house = 1 AND a.kind = 'house:jackpots' GROUP BY a.currency",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let pools = sqlx::query(
            "SELECT p.currency, CAST(SUM(p.amount) AS BIGINT), \
             CAST(COALESCE((SELECT SUM(c.amount) FROM jackpot_contributions c JOIN jackpot_pools q ON q.id = c.pool WHERE c.folded = 0 AND q.currency = p.currency), 0) AS BIGINT) \
             FROM jackpot_pools p GROUP BY p.currency",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let mut held: std::collections::BTreeMap<String, i64> = house.iter().map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1))).collect();
        for r in &pools {
            let (currency, amount, pending): (String, i64, i64) = (r.get(0), r.get(1), r.get(2));
            let in_house = held.remove(&currency).unwrap_or(0);
            if in_house != amount + pending {
                problems.push(format!("house:jackpots {currency} holds {in_house}, the pools {amount} and unfolded contributions {pending}"));
            }
        }
        for (currency, in_house) in held {
            if in_house != 0 {
                problems.push(format!("house:jackpots {currency} holds {in_house} without a pool"));
            }
        }
        let strays = sqlx::query(
            "SELECT a.owner_id, a.currency, a.balance FROM ledger_accounts a WHERE a.is_house = 0 AND a.kind = 'bonus' AND a.balance <> 0 \
             AND NOT EXISTS (SELECT 1 FROM bonuses b WHERE b.user_id = a.owner_id) LIMIT 20",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        for r in strays {
            let (user, currency, balance): (i64, String, i64) = (r.get(0), r.get(1), r.get(2));
            problems.push(format!("player {user} holds {balance} {currency} of bonus money and was never granted a bonus"));
        }
        // Rakeback (224) only on real-money bets settled lost, or taken back since (225).
        let stray_rakeback = sqlx::query(&format!(
            "SELECT t.idempotency_key FROM ledger_transactions t WHERE t.tx_type = {} \
             AND NOT EXISTS (SELECT 1 FROM sb_bets b WHERE b.user_id = t.user_id AND 'rakeback:' || CAST(b.id AS TEXT) = t.idempotency_key AND b.funding = 'real' AND b.status = 'lost') \
             AND NOT EXISTS (SELECT 1 FROM ledger_transactions r WHERE r.idempotency_key = t.idempotency_key || ':reverse' AND r.tx_type = {}) LIMIT 20",
            wallet::TxType::Rakeback.code(),
            wallet::TxType::RakebackReversal.code()
        ))
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        for r in stray_rakeback {
            problems.push(format!("rakeback {} pays a bet that is not a lost real-money bet", r.get::<String, _>(0)));
        }
        // Coupon prizes (226): exactly the drawn winners of a draw with a prize, each once.
        let prizes = sqlx::query(&format!(
            "SELECT d.id, d.winners, (SELECT COUNT(*) FROM ledger_transactions t WHERE t.tx_type = {} AND t.idempotency_key LIKE 'coupon:' || d.id || ':%') \
             FROM coupon_draws d WHERE d.prize_amount > 0 AND d.drawn_at IS NOT NULL",
            wallet::TxType::CouponPrize.code()
        ))
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        for r in prizes {
            let (id, winners, paid): (String, Option<String>, i64) = (r.get(0), r.get(1), r.get(2));
            let winners = winners.and_then(|w| serde_json::from_str::<Vec<String>>(&w).ok()).map_or(0, |w| w.len() as i64);
            if paid > winners {
                problems.push(format!("coupon draw {id} paid {paid} prizes for {winners} winners"));
            }
        }
        // Sport wagering: a bonus's counted settled bets never exceed what it records as wagered
        // while it is open (each bet counts once).
        let over = sqlx::query(
            "SELECT b.id FROM bonuses b WHERE b.product = 'sport' AND b.status = 'active' \
             AND (SELECT COALESCE(SUM(w.counted), 0) FROM sport_wagering w WHERE w.bonus_id = b.id) > b.wagered LIMIT 20",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        for r in over {
            problems.push(format!("sport bonus {} records less wagering than its settled bets", r.get::<i64, _>(0)));
        }
        Ok(problems)
    }
}
