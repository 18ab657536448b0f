//! What the balance reply (polled every 15 s by every signed-in player, spec §3/§4) shows of
//! the promotions: the pools from an in-memory snapshot (one query a second per instance at
//! most, whoever polls), and the player's own rows — free bets in force, drops not yet shown,
//! this week's accrued cashback — in one small indexed query.

use super::{db_err, FreeBetView, JackpotView, Promotions};
use crate::freebets::FreeBetRule;
use crate::Minor;
use kernel::clock::now_ms;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency};
use std::str::FromStr;
use std::sync::Arc;
use store::sqlx::{self, Row};

/// How old the pools' snapshot may be before a reader refreshes it. The widget refreshes every
/// 60 s and the balance every 15 s: a second behind the folder is nothing to the player.
pub const POOLS_SNAPSHOT_MS: i64 = 1_000;

/// The pools as last read, and when.
#[derive(Default)]
pub(crate) struct PoolsSnapshot {
    pub at_ms: i64,
    pub pools: Option<Arc<Vec<JackpotView>>>,
}

/// A drop the player has not closed the modal of yet (the balance reply's `wonJackpots`).
#[derive(Debug, Clone)]
pub struct UnshownWin {
    pub id: i64,
    pub pool: String,
    pub currency: Currency,
    pub amount: Minor,
    pub created_at: i64,
}

/// A player's promotion rows for the balance reply.
#[derive(Debug, Clone, Default)]
pub struct PlayerPromotions {
    /// Free bets not used nor expired: `inactive` (to activate) and `active` (in the free-bet
    /// balance), oldest first.
    pub free_bets: Vec<FreeBetView>,
    pub unshown_wins: Vec<UnshownWin>,
    /// The weekly cashback accrued so far this ISO week (minor units; 0 before the first
    /// accrual), as [`Promotions::weekly_accrued`].
    pub weekly_accrued: Minor,
}

impl Promotions {
    /// The pools, at most [`POOLS_SNAPSHOT_MS`] old (the folder drops the snapshot when a pool
    /// drops, so a new cycle shows at once).
    pub async fn jackpots_snapshot(&self) -> Result<Arc<Vec<JackpotView>>, AppError> {
        let now = now_ms();
        {
            let s = self.inner.snapshot.read().unwrap_or_else(|p| p.into_inner());
            if let Some(pools) = &s.pools {
                if now - s.at_ms < POOLS_SNAPSHOT_MS {
                    return Ok(pools.clone());
                }
            }
        }
        let pools = Arc::new(self.jackpots().await?);
        *self.inner.snapshot.write().unwrap_or_else(|p| p.into_inner()) = PoolsSnapshot { at_ms: now, pools: Some(pools.clone()) };
        Ok(pools)
    }

    /// Forgets the pools' snapshot (a drop began a new cycle).
    pub(crate) fn forget_pools_snapshot(&self) {
        self.inner.snapshot.write().unwrap_or_else(|p| p.into_inner()).pools = None;
    }

    /// The player's free bets in force, unshown drops and this week's accrued cashback: one
    /// query over three indexed lookups (`free_bets_by_user`, `jackpot_wins_by_user`, the
    /// weekly row's primary key).
    pub async fn player_promotions(&self, user_id: i64) -> Result<PlayerPromotions, AppError> {
        let week = self.current_week()?;
        let now = now_ms();
        let rows = sqlx::query(
            "SELECT CAST(0 AS BIGINT), id, amount, currency, status, expires_at FROM free_bets \
               WHERE user_id = $1 AND status IN ('inactive', 'active') AND expires_at > $2 \
             UNION ALL SELECT CAST(1 AS BIGINT), id, amount, currency, pool, created_at FROM jackpot_wins WHERE user_id = $1 AND shown = 0 \
             UNION ALL SELECT CAST(2 AS BIGINT), CAST(0 AS BIGINT), amount, currency, period, CAST(0 AS BIGINT) FROM weekly_cashback WHERE period = $3 AND user_id = $1",
        )
        .bind(user_id)
        .bind(now)
        .bind(&week.key)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let min_odds = FreeBetRule::default().min_odds as f64 / 1000.0;
        let mut out = PlayerPromotions::default();
        for r in &rows {
            let currency = Currency::from_str(&r.get::<String, _>(3)).map_err(|_| db_err("promotion row currency"))?;
            let (id, amount, text, at): (i64, i64, String, i64) = (r.get(1), r.get(2), r.get(4), r.get(5));
            match r.get::<i64, _>(0) {
                0 => out.free_bets.push(FreeBetView { id: id.to_string(), amount: MajorUnits::new(amount, currency), currency, status: text, min_odds, expires_at: at }),
                1 => out.unshown_wins.push(UnshownWin { id, pool: text, currency, amount, created_at: at }),
                _ => out.weekly_accrued = amount,
            }
        }
        out.free_bets.sort_by(|a, b| (a.expires_at, &a.id).cmp(&(b.expires_at, &b.id)));
        out.unshown_wins.sort_by_key(|w| (w.created_at, w.id));
        Ok(out)
    }
}
