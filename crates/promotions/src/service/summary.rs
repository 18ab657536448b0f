//! What the balance reply (polled every 15 s by every signed-in player, spec §3/§4) shows of
//! the promotions: the pools from an in-memory snapshot (one query a second per instance at
//! most, whoever polls), and the player's own rows — free bets in force, drops not yet shown,
//! this week's accrued cashback — in one small indexed query, cached per player for up to
//! [`PLAYER_CACHE_MS`] while the player's free-bet, bonus and cashback balances stay the same.
//!
//! What changes those rows without moving one of those balances forgets the player here: a
//! free-bet grant, a jackpot drop and its modal's close, the hourly accrual (everyone). On
//! another instance the reply may lag by at most [`PLAYER_CACHE_MS`] (the jackpot modal's own
//! poller and the free-bet screens read their own endpoints, uncached).

use super::{db_err, FreeBetView, JackpotView, Promotions};
use crate::freebets::FreeBetRule;
use crate::Minor;
use kernel::clock::now_ms;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency};
use std::str::FromStr;
use std::sync::Arc;

/// How long the balance reply reuses a player's promotion rows (the spec's widget refresh: the
/// balance is polled every 15 s, so an idle player's rows are read once in four polls).
pub const PLAYER_CACHE_MS: i64 = 60_000;
/// Past this many cached players, a store sweeps the stale ones.
const PLAYER_CACHE_SWEEP: usize = 20_000;

pub(crate) struct CachedPlayer {
    at_ms: i64,
    fingerprint: u64,
    rows: Arc<PlayerPromotions>,
}
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

    /// [`Promotions::player_promotions`], reused for up to [`PLAYER_CACHE_MS`] while
    /// `fingerprint` (the caller's digest of the player's free-bet, bonus and cashback balances)
    /// is unchanged.
    pub async fn player_promotions_cached(&self, user_id: i64, fingerprint: u64) -> Result<Arc<PlayerPromotions>, AppError> {
        let now = now_ms();
        if let Some(c) = self.inner.players.lock().unwrap_or_else(|p| p.into_inner()).get(&user_id) {
            if c.fingerprint == fingerprint && now - c.at_ms < PLAYER_CACHE_MS {
                return Ok(c.rows.clone());
            }
        }
        let rows = Arc::new(self.player_promotions(user_id).await?);
        let mut players = self.inner.players.lock().unwrap_or_else(|p| p.into_inner());
        if players.len() >= PLAYER_CACHE_SWEEP {
            players.retain(|_, c| now - c.at_ms < PLAYER_CACHE_MS);
        }
        players.insert(user_id, CachedPlayer { at_ms: now, fingerprint, rows: rows.clone() });
        Ok(rows)
    }

    /// The player's rows changed: the next balance reply reads them again.
    pub fn forget_player(&self, user_id: i64) {
        self.inner.players.lock().unwrap_or_else(|p| p.into_inner()).remove(&user_id);
    }

    /// Every player's rows may have changed (the weekly accrual).
    pub fn forget_players(&self) {
        self.inner.players.lock().unwrap_or_else(|p| p.into_inner()).clear();
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
