//! The wallet observer: every casino stake (type 203: studio games, crash, the provider
//! wallet) and every sportsbook stake (211) passes here inside its own database transaction.
//!
//! - check: a stake above the open bonus's maximum bet is refused before the debit (130);
//! - applied: a casino stake adds its contribution to the open casino bonus's wagering (a row
//!   per stake in `bonus_wagering`), and a bonus whose requirement is met becomes `met` (the
//!   service converts it right after the commit);
//! - reversed: a rolled-back stake takes its contribution back.

use super::Inner;
use crate::wagering::{above_max_bet, Category};
use futures::future::BoxFuture;
use futures::FutureExt;
use kernel::clock::now_ms;
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode, Minor};
use std::sync::Weak;
use store::sqlx::{self, AnyConnection, Row};
use wallet::{
    AccountRef, Applied, BalanceKind, HouseAccount, Leg, LedgerError, PostingObserver, PostingRequest, Reversed,
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
            Some(r) => {
                let (kind, casino_type, name): (String, String, String) =
                    (r.get(0), r.get(1), r.get(2));
                if casino_type.to_ascii_lowercase().contains("live") {
                    Category::Live
                } else {
                    match Category::of_game(&kind) {
                        Category::Slots => Category::of_game(&name),
                        c => c,
                    }
                }
            }
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

impl PostingObserver for Watch {
    fn watches(&self, tx_type: TxType) -> bool {
        matches!(tx_type, TxType::BetStake | TxType::SportStake | TxType::Deposit | TxType::PaymentService | TxType::CashierPayment)
    }

    fn check<'c>(
        &'c self,
        conn: &'c mut AnyConnection,
        req: &'c PostingRequest,
    ) -> BoxFuture<'c, Result<Vec<Leg>, LedgerError>> {
        async move {
            let Some((user_id, kind, stake)) = stake_of(req) else { return Ok(Vec::new()) };
            // Casino stakes come from real money; a sport bonus is staked from the bonus balance.
            let product = match (req.tx_type, kind) {
                (TxType::BetStake, BalanceKind::Real) => "casino",
                (TxType::SportStake, BalanceKind::Bonus) => "sport",
                _ => return Ok(Vec::new()),
            };
            let row = sqlx::query("SELECT max_bet, currency FROM bonuses WHERE user_id = $1 AND product = $2 AND status = 'active'")
                .bind(user_id)
                .bind(product)
                .fetch_optional(&mut *conn)
                .await?;
            if let Some(r) = row {
                let max_bet: i64 = r.get(0);
                if above_max_bet(stake, max_bet) {
                    let currency = req.legs.first().map(|l| l.currency).unwrap_or(kernel::Currency::Tnd);
                    let max = serde_json::to_value(MajorUnits::new(max_bet, currency)).unwrap_or_default();
                    return Err(LedgerError::Refused(AppError::new(ErrorCode::BonusMaxBet).data(serde_json::json!({
                        "maxBet": max, "currency": currency.code()
                    }))));
                }
            }
            // Jackpots: a casino stake's house account gives each pool its share, in the
            // stake's own posting (the rows are written once it applied).
            let Some(inner) = self.0.upgrade() else { return Ok(Vec::new()) };
            let (total, currency) = match (product, req.legs.first().map(|l| l.currency)) {
                ("casino", Some(c)) => (inner.shares(stake, c).iter().map(|(_, s)| s).sum::<i64>(), c),
                _ => return Ok(Vec::new()),
            };
            let house = req.legs.iter().find_map(|l| match l.account {
                AccountRef::House(h) if l.amount > 0 => Some(h),
                _ => None,
            });
            Ok(match house {
                Some(h) if total > 0 => vec![Leg::house(h, currency, -total), Leg::house(HouseAccount::Jackpots, currency, total)],
                _ => Vec::new(),
            })
        }
        .boxed()
    }

    fn applied<'c>(
        &'c self,
        conn: &'c mut AnyConnection,
        postings: &'c [Applied<'c>],
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
                    let shares = inner.shares(stake, currency);
                    if !shares.is_empty() {
                        let sql = format!(
                            "INSERT INTO jackpot_contributions (id, pool, user_id, tx_id, amount, folded, created_at) VALUES {}",
                            store::values(shares.len(), 7, 1)
                        );
                        let sql = store::positional(conn, &sql).into_owned();
                        let mut q = sqlx::query(&sql);
                        for (pool, share) in &shares {
                            q = q.bind(kernel::ids::next_id()).bind(pool.as_str()).bind(user_id).bind(p.tx_id).bind(*share).bind(0i64).bind(now);
                        }
                        q.execute(&mut *conn).await?;
                    }
                }
                // Wagering: the open casino bonus's progress moves in one statement (none open:
                // nothing matches), then the stake's row for a rollback to take it back.
                let category = inner.category(conn, p.req).await?;
                let counted = inner.table.casino(stake, category);
                if counted <= 0 {
                    continue;
                }
                let moved = sqlx::query(
                    "UPDATE bonuses SET wagered = wagered + $1, \
                     status = CASE WHEN wagered + $1 >= required THEN 'met' ELSE status END \
                     WHERE user_id = $2 AND product = 'casino' AND status = 'active' RETURNING id, status",
                )
                .bind(counted)
                .bind(user_id)
                .fetch_optional(&mut *conn)
                .await?;
                let Some(moved) = moved else { continue };
                let (bonus_id, status): (i64, Option<String>) = (moved.get(0), moved.get(1));
                sqlx::query("INSERT INTO bonus_wagering (bonus_id, tx_id, stake, counted, category, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
                    .bind(bonus_id)
                    .bind(p.tx_id)
                    .bind(stake)
                    .bind(counted)
                    .bind(category.as_str())
                    .bind(now)
                    .execute(&mut *conn)
                    .await?;
                if status.as_deref() == Some("met") {
                    // Converted after this commit; if the transaction rolls back the bonus is
                    // still `active` and the conversion finds nothing to do.
                    let _ = inner.met.send(bonus_id);
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
    ) -> BoxFuture<'c, Result<(), LedgerError>> {
        async move {
            let rows = sqlx::query("SELECT bonus_id, counted FROM bonus_wagering WHERE tx_id = $1")
                .bind(r.original_tx_id)
                .fetch_all(&mut *conn)
                .await?;
            for row in rows {
                let (bonus_id, counted): (i64, i64) = (row.get(0), row.get(1));
                sqlx::query(
                    "UPDATE bonuses SET wagered = wagered - $1 WHERE id = $2 AND status = 'active'",
                )
                .bind(counted)
                .bind(bonus_id)
                .execute(&mut *conn)
                .await?;
            }
            sqlx::query("DELETE FROM bonus_wagering WHERE tx_id = $1")
                .bind(r.original_tx_id)
                .execute(&mut *conn)
                .await?;
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

/// Marks active free bets used, soonest to expire first, until `stake` is covered.
async fn use_free_bets(
    conn: &mut AnyConnection,
    user_id: i64,
    stake: Minor,
) -> Result<(), sqlx::Error> {
    let rows = sqlx::query("SELECT id, amount FROM free_bets WHERE user_id = $1 AND status = 'active' ORDER BY expires_at, id")
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await?;
    let mut left = stake;
    for r in rows {
        if left <= 0 {
            break;
        }
        let (id, amount): (i64, i64) = (r.get(0), r.get(1));
        sqlx::query("UPDATE free_bets SET status = 'used' WHERE id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
        left -= amount;
    }
    Ok(())
}
