//! The wallet observer: every casino stake (type 203: studio games, crash, the provider
//! wallet) and every sportsbook stake (211) passes here inside its own database transaction.
//!
//! - check (in memory): the stake is held to its account's cap — an open bonus's maximum bet,
//!   refused before the debit by the stake's own balance update (130) — and a casino stake
//!   counts its contribution toward the real account's wagering progress (wallet terms.rs,
//!   same statement); the jackpot shares become extra legs of the stake's posting;
//! - applied: the contribution rows of the jackpot shares; the stake that met the wagering
//!   target marks the open casino bonus `met` (converted right after the commit);
//! - reversed: a rolled-back stake takes its contribution back (recomputed from its posting).

use super::Inner;
use crate::wagering::Category;
use futures::future::BoxFuture;
use futures::FutureExt;
use kernel::clock::now_ms;
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode, Minor};
use std::sync::Weak;
use store::sqlx::{self, AnyConnection, Row};
use std::str::FromStr;
use wallet::{
    AccountRef, Applied, BalanceKind, Checked, Deferred, HouseAccount, Leg, LedgerError, PostingObserver, PostingRequest, Reversed,
    TxType,
};

pub(crate) struct Watch(pub Weak<Inner>);

/// The stake of a posting: its player, the balance it came from and the amount.
fn stake_of(req: &PostingRequest) -> Option<(i64, BalanceKind, Minor)> {
    req.legs.iter().find_map(|l| match l.account {
        AccountRef::Player { user_id, kind } if l.amount < 0 => Some((user_id, kind, -l.amount)),
        _ => None,
    })
}

/// A catalogue game's wagering category from its kind, casino type and name.
pub(crate) fn category_of(kind: &str, casino_type: &str, name: &str) -> Category {
    if casino_type.to_ascii_lowercase().contains("live") {
        Category::Live
    } else {
        match Category::of_game(kind) {
            Category::Slots => Category::of_game(name),
            c => c,
        }
    }
}

impl Inner {
    /// Each pool's share of a casino stake in `currency` (pools of other currencies take none).
    pub(crate) fn shares(&self, stake: Minor, currency: kernel::Currency) -> Vec<(String, i64)> {
        self.pools
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|pool| pool.currency == currency)
            .map(|pool| (pool.id.clone(), crate::bps_of(stake, pool.share_bps)))
            .filter(|(_, share)| *share > 0)
            .collect()
    }

    /// A casino game's category if cached.
    fn cached_category(&self, req: &PostingRequest) -> Option<Category> {
        let key = (meta(req, "provider"), meta(req, "gameId"));
        self.categories.lock().unwrap_or_else(|p| p.into_inner()).get(&key).copied()
    }

    /// A casino game's category from the catalogue (cached); unknown games count as slots.
    async fn category(
        &self,
        conn: &mut AnyConnection,
        req: &PostingRequest,
    ) -> Result<Category, sqlx::Error> {
        let provider = req
            .metadata
            .get("provider")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned();
        let game = req
            .metadata
            .get("gameId")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned();
        let key = (provider, game);
        if let Some(c) = self
            .categories
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return Ok(*c);
        }
        let row = sqlx::query(
            "SELECT kind, casino_type, name FROM casino_games WHERE provider = $1 AND game_id = $2",
        )
        .bind(&key.0)
        .bind(&key.1)
        .fetch_optional(&mut *conn)
        .await?;
        let category = match row {
            Some(r) => category_of(&r.get::<String, _>(0), &r.get::<String, _>(1), &r.get::<String, _>(2)),
            None => Category::of_game(&key.1),
        };
        let mut cache = self.categories.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() > 50_000 {
            cache.clear();
        }
        cache.insert(key, category);
        Ok(category)
    }
}

impl Watch {
    /// What a casino stake counts toward wagering, from the cached catalogue category (a
    /// game not cached yet counts by its id's category; the cache is filled off the stake path
    /// by [`Inner::category`] when `applied` sees it).
    fn counted(inner: &Inner, req: &PostingRequest, stake: Minor) -> Minor {
        let category = inner.cached_category(req).unwrap_or_else(|| Category::of_game(&meta(req, "gameId")));
        inner.table.casino(stake, category)
    }
}

fn meta(req: &PostingRequest, key: &str) -> String {
    req.metadata.get(key).and_then(|v| v.as_str()).unwrap_or_default().to_owned()
}

impl PostingObserver for Watch {
    fn watches(&self, tx_type: TxType) -> bool {
        matches!(tx_type, TxType::BetStake | TxType::SportStake | TxType::Deposit | TxType::PaymentService | TxType::CashierPayment)
    }

    /// In memory: a casino stake from real money is held to the real account's cap (an open
    /// casino bonus's maximum bet) and counts toward its wagering; a sport stake from the bonus
    /// balance is held to the bonus account's cap (an open sport bonus's maximum bet; it counts
    /// at settlement). A casino stake's house account gives each jackpot pool its share.
    fn check(&self, req: &PostingRequest) -> Result<Checked, LedgerError> {
        let Some((_, kind, stake)) = stake_of(req) else { return Ok(Checked::default()) };
        let Some(inner) = self.0.upgrade() else { return Ok(Checked::default()) };
        match (req.tx_type, kind) {
            (TxType::BetStake, BalanceKind::Real) => {}
            (TxType::SportStake, BalanceKind::Bonus) => return Ok(Checked { capped: true, ..Checked::default() }),
            _ => return Ok(Checked::default()),
        }
        let progress = Watch::counted(&inner, req, stake);
        let Some(currency) = req.legs.first().map(|l| l.currency) else {
            return Ok(Checked { capped: true, progress, extra: Vec::new() });
        };
        let total: i64 = inner.shares(stake, currency).iter().map(|(_, s)| s).sum();
        let house = req.legs.iter().find_map(|l| match l.account {
            AccountRef::House(h) if l.amount > 0 => Some(h),
            _ => None,
        });
        let extra = match house {
            Some(h) if total > 0 => vec![Leg::house(h, currency, -total), Leg::house(HouseAccount::Jackpots, currency, total)],
            _ => Vec::new(),
        };
        Ok(Checked { extra, capped: true, progress })
    }

    fn capped(&self, req: &PostingRequest, cap: Minor) -> LedgerError {
        let currency = req.legs.first().map(|l| l.currency).unwrap_or(kernel::Currency::Tnd);
        let max = serde_json::to_value(MajorUnits::new(cap, currency)).unwrap_or_default();
        LedgerError::Refused(AppError::new(ErrorCode::BonusMaxBet).data(serde_json::json!({
            "maxBet": max, "currency": currency.code()
        })))
    }

    fn flush<'c>(&'c self, conn: &'c mut AnyConnection, deferred: Vec<Deferred>) -> BoxFuture<'c, Result<(), LedgerError>> {
        async move { Ok(flush_contributions(conn, deferred).await?) }.boxed()
    }

    fn applied<'c>(
        &'c self,
        conn: &'c mut AnyConnection,
        postings: &'c [Applied<'c>],
        deferred: &'c mut Vec<Deferred>,
    ) -> BoxFuture<'c, Result<(), LedgerError>> {
        async move {
            let Some(inner) = self.0.upgrade() else { return Ok(()) };
            let now = now_ms();
            for p in postings {
                if matches!(p.req.tx_type, TxType::Deposit | TxType::PaymentService | TxType::CashierPayment) {
                    // A deposit credited: a deposit bonus waiting for it is granted after the commit.
                    let credited = p.req.legs.iter().find_map(|l| match l.account {
                        AccountRef::Player { user_id, kind: BalanceKind::Real } if l.amount > 0 => Some(user_id),
                        _ => None,
                    });
                    if let Some(user_id) = credited {
                        let _ = inner.deposited.send(user_id);
                    }
                    continue;
                }
                if p.req.tx_type == TxType::SportStake {
                    // Sports bets count toward a bonus at settlement; a free-bet stake uses up
                    // the player's active free bets, oldest first.
                    if let Some((user_id, BalanceKind::FreeBet, stake)) = stake_of(p.req) {
                        use_free_bets(conn, user_id, stake).await?;
                    }
                    continue;
                }
                let Some((user_id, BalanceKind::Real, stake)) = stake_of(p.req) else { continue };
                // Jackpots: the shares the check added to the posting, one row per pool (one
                // statement), only when the posting carries them.
                let currency = p.req.legs.first().map(|l| l.currency);
                let carried = p.req.legs.iter().any(|l| l.account == AccountRef::House(HouseAccount::Jackpots));
                if let (Some(currency), true) = (currency, carried) {
                    // Written with every other posting's of the commit (`flush`): one insert
                    // for a whole group commit on SQLite.
                    for (pool, amount) in inner.shares(stake, currency) {
                        deferred.push(Box::new(Contribution { pool, user_id, tx_id: p.tx_id, amount, created_at: now }));
                    }
                }
                // Wagering moved with the stake's balance (wallet terms); the stake that met
                // the target marks the open casino bonus `met` and lifts the account's terms.
                if p.met {
                    if let Some(currency) = currency {
                        if let Some(bonus_id) = super::bonuses::mark_met(conn, user_id, currency).await? {
                            // Converted after this commit; if the transaction rolls back the
                            // bonus is still `active` and the conversion finds nothing to do.
                            let _ = inner.met.send(bonus_id);
                        }
                    }
                }
                // Games not cached yet: cached now for the next stake's check.
                if inner.cached_category(p.req).is_none() {
                    inner.category(conn, p.req).await?;
                }
            }
            Ok(())
        }
        .boxed()
    }

    fn reversed<'c>(
        &'c self,
        conn: &'c mut AnyConnection,
        r: &'c Reversed,
        deferred: &'c mut Vec<Deferred>,
    ) -> BoxFuture<'c, Result<(), LedgerError>> {
        async move {
            // The stake's shares may not be written yet (the same commit): they never will be.
            deferred.push(Box::new(Cancelled(r.original_tx_id)));
            // A rolled-back casino stake takes its contribution back from the open casino
            // bonus it counted toward: recomputed from the stake's own posting, and only when
            // the stake came after the bonus opened (an earlier stake never counted).
            if r.original_type == TxType::BetStake {
                if let Some(inner) = self.0.upgrade() {
                    take_back(conn, &inner, r.original_tx_id).await?;
                }
            }
            // The rollback took the stake's jackpot shares back out of `house:jackpots`: shares
            // not folded yet are dropped; folded ones leave their pool as a negative share
            // (which never crosses a drop point).
            sqlx::query("DELETE FROM jackpot_contributions WHERE tx_id = $1 AND folded = 0").bind(r.original_tx_id).execute(&mut *conn).await?;
            let folded = sqlx::query("SELECT pool, user_id, amount FROM jackpot_contributions WHERE tx_id = $1 AND folded = 1 AND amount > 0")
                .bind(r.original_tx_id)
                .fetch_all(&mut *conn)
                .await?;
            for row in folded {
                let (pool, user_id, amount): (String, i64, i64) = (row.get(0), row.get(1), row.get(2));
                sqlx::query("INSERT INTO jackpot_contributions (id, pool, user_id, tx_id, amount, folded, created_at) VALUES ($1, $2, $3, $4, $5, 0, $6)")
                    .bind(kernel::ids::next_id())
                    .bind(pool)
                    .bind(user_id)
                    .bind(r.reversal_tx_id)
                    .bind(-amount)
                    .bind(now_ms())
                    .execute(&mut *conn)
                    .await?;
            }
            Ok(())
        }
        .boxed()
    }
}

/// A jackpot contribution row, deferred to the end of the stake's transaction.
struct Contribution {
    pool: String,
    user_id: i64,
    tx_id: i64,
    amount: Minor,
    created_at: i64,
}

/// The stake `.0` was rolled back in the same transaction: its deferred rows are not written.
struct Cancelled(i64);

/// Writes the deferred contribution rows of a transaction (those of stakes not rolled back in
/// it), 500 to a statement.
pub(crate) async fn flush_contributions(conn: &mut AnyConnection, deferred: Vec<Deferred>) -> Result<(), sqlx::Error> {
    let mut rows = Vec::with_capacity(deferred.len());
    let mut cancelled = std::collections::HashSet::new();
    for d in deferred {
        match d.downcast::<Contribution>() {
            Ok(c) => rows.push(*c),
            Err(d) => {
                if let Ok(c) = d.downcast::<Cancelled>() {
                    cancelled.insert(c.0);
                }
            }
        }
    }
    rows.retain(|c| !cancelled.contains(&c.tx_id));
    for part in rows.chunks(500) {
        let sql = format!(
            "INSERT INTO jackpot_contributions (id, pool, user_id, tx_id, amount, folded, created_at) VALUES {}",
            store::values(part.len(), 7, 1)
        );
        let sql = store::positional(conn, &sql).into_owned();
        let mut q = sqlx::query(&sql);
        for c in part {
            q = q.bind(kernel::ids::next_id()).bind(c.pool.as_str()).bind(c.user_id).bind(c.tx_id).bind(c.amount).bind(0i64).bind(c.created_at);
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Takes a rolled-back casino stake's contribution back from the real account's wagering
/// progress, when an open casino bonus was active at the stake's time.
async fn take_back(conn: &mut AnyConnection, inner: &Inner, tx_id: i64) -> Result<(), sqlx::Error> {
    let tx = sqlx::query("SELECT metadata, created_at FROM ledger_transactions WHERE id = $1").bind(tx_id).fetch_optional(&mut *conn).await?;
    let Some(tx) = tx else { return Ok(()) };
    let (metadata, at): (String, i64) = (tx.get(0), tx.get(1));
    let debit = sqlx::query(
        "SELECT a.owner_id, a.currency, e.amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
         WHERE e.tx_id = $1 AND a.is_house = 0 AND a.kind = 'real' AND e.amount < 0",
    )
    .bind(tx_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(debit) = debit else { return Ok(()) };
    let (user_id, currency, amount): (i64, String, i64) = (debit.get(0), debit.get(1), debit.get(2));
    let Ok(currency) = kernel::Currency::from_str(&currency) else { return Ok(()) };
    let open = sqlx::query("SELECT activated_at FROM bonuses WHERE user_id = $1 AND product = 'casino' AND status = 'active' AND currency = $2")
        .bind(user_id)
        .bind(currency.code())
        .fetch_optional(&mut *conn)
        .await?;
    let Some(open) = open else { return Ok(()) };
    let activated: Option<i64> = open.get(0);
    if activated.is_none_or(|a| at < a) {
        return Ok(());
    }
    let mut req = PostingRequest::transfer(TxType::BetStake, String::new(), Some(user_id), currency, AccountRef::Player { user_id, kind: BalanceKind::Real }, AccountRef::House(HouseAccount::Games), -amount);
    req.metadata = serde_json::from_str(&metadata).unwrap_or_default();
    let counted = match inner.cached_category(&req) {
        Some(c) => inner.table.casino(-amount, c),
        None => inner.table.casino(-amount, inner.category(conn, &req).await?),
    };
    wallet::take_back_progress(conn, user_id, BalanceKind::Real, currency, counted).await
}

/// Marks the free bets a free-bet stake used: the soonest-to-expire one of exactly the stake's
/// value when there is one (the slip stakes one chosen free bet), else soonest to expire first,
/// each only while it fits in what is left (never a free bet the stake did not spend: its value
/// stays in the free-bet balance with its row active).
async fn use_free_bets(
    conn: &mut AnyConnection,
    user_id: i64,
    stake: Minor,
) -> Result<(), sqlx::Error> {
    let rows = sqlx::query("SELECT id, amount FROM free_bets WHERE user_id = $1 AND status = 'active' ORDER BY expires_at, id")
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await?;
    let active: Vec<(i64, i64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    let used: Vec<i64> = match active.iter().find(|(_, amount)| *amount == stake) {
        Some((id, _)) => vec![*id],
        None => {
            let mut left = stake;
            let mut ids = Vec::new();
            for (id, amount) in &active {
                if *amount <= left {
                    left -= amount;
                    ids.push(*id);
                }
            }
            ids
        }
    };
    for id in used {
        sqlx::query("UPDATE free_bets SET status = 'used' WHERE id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
