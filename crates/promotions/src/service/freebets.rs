//! Free bets: granted inactive (no money moves), activated by the player into the free-bet
//! balance (one `FreeBetGrant` posting per free bet, keyed `freebet:{id}`, with the row's new
//! state in its transaction), used by the sportsbook's free-bet funding (the observer marks
//! them used, oldest first), expired after their life (`FreeBetExpiry`, keyed
//! `freebet:{id}:expire`).

use super::{db_err, Promotions};
use crate::freebets::FreeBetRule;
use crate::periods;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, Row};
use wallet::{
    attached, AccountRef, BalanceKind, HouseAccount, LedgerError, PostingRequest, TxType,
};

/// A free bet as the player sees it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FreeBetView {
    pub id: String,
    #[schema(value_type = f64)]
    pub amount: MajorUnits,
    pub currency: Currency,
    /// `inactive`, `active`, `used`, `expired`.
    pub status: String,
    /// The least total odds it can be used at (2.2).
    pub min_odds: f64,
    pub expires_at: i64,
}

/// `actualFreeBetStats`: sports stakes this week and the free bets they earned so far.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct FreeBetStats {
    #[schema(value_type = f64)]
    pub bets_total_now: MajorUnits,
    pub possible_free_bets: i64,
}

impl Promotions {
    /// Grants `count` free bets of `amount` (inactive), idempotent per `key` (`{key}:{n}`).
    pub async fn grant_free_bets(
        &self,
        user_id: i64,
        currency: Currency,
        amount: Minor,
        count: i64,
        key: &str,
    ) -> Result<i64, AppError> {
        let rule = FreeBetRule::default();
        let now = now_ms();
        let mut granted = 0;
        for n in 0..count.max(0) {
            let r = sqlx::query(
                "INSERT INTO free_bets (id, user_id, currency, amount, status, source_key, granted_at, activated_at, expires_at) \
                 VALUES ($1, $2, $3, $4, 'inactive', $5, $6, NULL, $7) ON CONFLICT (source_key) DO NOTHING",
            )
            .bind(next_id())
            .bind(user_id)
            .bind(currency.code())
            .bind(amount)
            .bind(format!("{key}:{n}"))
            .bind(now)
            .bind(rule.expires_at(now / 1000) * 1000)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
            granted += r.rows_affected() as i64;
        }
        self.forget_player(user_id);
        // Rows of an earlier call under the same key count as granted (a retry).
        let _ = granted;
        Ok(count.max(0))
    }

    /// The player's free bets, newest first (the last 50).
    pub async fn free_bets(&self, user_id: i64) -> Result<Vec<FreeBetView>, AppError> {
        let rows = sqlx::query("SELECT id, amount, currency, status, expires_at FROM free_bets WHERE user_id = $1 ORDER BY granted_at DESC, id DESC LIMIT 50")
            .bind(user_id)
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        let min_odds = FreeBetRule::default().min_odds as f64 / 1000.0;
        rows.iter()
            .map(|r| {
                let currency = Currency::from_str(&r.get::<String, _>(2))
                    .map_err(|_| db_err("free bet currency"))?;
                Ok(FreeBetView {
                    id: r.get::<i64, _>(0).to_string(),
                    amount: MajorUnits::new(r.get(1), currency),
                    currency,
                    status: r.get(3),
                    min_odds,
                    expires_at: r.get(4),
                })
            })
            .collect()
    }

    /// `activate-free-bets`: claims the free bets this week's sports stakes earned, then moves
    /// every inactive, unexpired free bet into the free-bet balance. 506 when there is none.
    pub async fn activate_free_bets(&self, user_id: i64) -> Result<i64, AppError> {
        self.claim_earned_free_bets(user_id).await?;
        let now = now_ms();
        let rows = sqlx::query("SELECT id, amount, currency FROM free_bets WHERE user_id = $1 AND status = 'inactive' AND expires_at > $2 ORDER BY id")
            .bind(user_id)
            .bind(now)
            .fetch_all(self.db().writer())
            .await
            .map_err(db_err)?;
        let mut activated = 0;
        for r in rows {
            let (id, amount, currency): (i64, i64, String) = (r.get(0), r.get(1), r.get(2));
            let currency =
                Currency::from_str(&currency).map_err(|_| db_err("free bet currency"))?;
            let posting = PostingRequest::transfer(
                TxType::FreeBetGrant,
                format!("freebet:{id}"),
                Some(user_id),
                currency,
                AccountRef::House(HouseAccount::Bonuses),
                AccountRef::Player {
                    user_id,
                    kind: BalanceKind::FreeBet,
                },
                amount,
            )
            .comment("Free bet")
            .metadata(serde_json::json!({ "freeBetId": id.to_string() }));
            let work = attached(move |conn| {
                Box::pin(async move {
                    let moved = sqlx::query("UPDATE free_bets SET status = 'active', activated_at = $1 WHERE id = $2 AND status = 'inactive'")
                        .bind(now)
                        .bind(id)
                        .execute(&mut *conn)
                        .await?;
                    Ok(moved.rows_affected() == 1)
                })
            });
            match self.ledger().post_with(posting, work).await {
                Ok(r) if !r.replayed => activated += 1,
                Ok(_) | Err(LedgerError::Declined) => {}
                Err(e) => return Err(e.into()),
            }
        }
        if activated == 0 {
            return Err(AppError::new(ErrorCode::FreeBetsEmpty));
        }
        Ok(activated)
    }

    /// This week's sports stakes (operator's zone) and the free bets they earn.
    pub async fn free_bet_stats(&self, user_id: i64) -> Result<FreeBetStats, AppError> {
        let (currency, staked, granted) = self.week_sport_stakes(user_id).await?;
        let rule = FreeBetRule::default();
        Ok(FreeBetStats {
            bets_total_now: MajorUnits::new(staked, currency),
            possible_free_bets: rule.possible(staked, granted, currency),
        })
    }

    async fn week_sport_stakes(&self, user_id: i64) -> Result<(Currency, Minor, i64), AppError> {
        let tz = periods::zone(periods::DEFAULT_ZONE).map_err(db_err)?;
        let week = periods::week_of(now_ms() / 1000, &tz).map_err(db_err)?;
        let currency: String = sqlx::query("SELECT currency FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?
            .get(0);
        let currency = Currency::from_str(&currency).map_err(|_| db_err("user currency"))?;
        let staked: i64 = sqlx::query(
            "SELECT CAST(COALESCE(SUM(-e.amount), 0) AS BIGINT) FROM ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id \
             JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE t.user_id = $1 AND t.tx_type = $2 AND t.created_at >= $3 AND t.created_at < $4 \
             AND a.is_house = 0 AND a.kind = 'real' AND e.amount < 0",
        )
        .bind(user_id)
        .bind(TxType::SportStake.code())
        .bind(week.start * 1000)
        .bind(week.end * 1000)
        .fetch_one(self.db().reader())
        .await
        .map_err(db_err)?
        .get(0);
        let granted: i64 =
            sqlx::query("SELECT COUNT(*) FROM free_bets WHERE user_id = $1 AND source_key LIKE $2")
                .bind(user_id)
                .bind(format!("earned:{}:{user_id}:%", week.key))
                .fetch_one(self.db().reader())
                .await
                .map_err(db_err)?
                .get(0);
        Ok((currency, staked, granted))
    }

    /// Grants the free bets this week's stakes earned and not yet granted (smallest value each).
    async fn claim_earned_free_bets(&self, user_id: i64) -> Result<(), AppError> {
        let tz = periods::zone(periods::DEFAULT_ZONE).map_err(db_err)?;
        let week = periods::week_of(now_ms() / 1000, &tz).map_err(db_err)?;
        let (currency, staked, granted) = self.week_sport_stakes(user_id).await?;
        let rule = FreeBetRule::default();
        let earned = staked / currency.major(rule.per_staked_major).max(1);
        let value = currency.major(rule.values_major[0]);
        for n in granted..earned {
            self.grant_free_bets(
                user_id,
                currency,
                value,
                1,
                &format!("earned:{}:{user_id}:{n}", week.key),
            )
            .await?;
        }
        Ok(())
    }

    /// Expires active free bets past their life (their unused value back to the house) and
    /// inactive ones (nothing moved). Idempotent.
    pub async fn expire_free_bets(&self) -> Result<usize, AppError> {
        let now = now_ms();
        sqlx::query("UPDATE free_bets SET status = 'expired' WHERE status = 'inactive' AND expires_at <= $1")
            .bind(now)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        let rows = sqlx::query("SELECT id, user_id, amount, currency FROM free_bets WHERE status = 'active' AND expires_at <= $1")
            .bind(now)
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        let mut expired = 0;
        for r in rows {
            let (id, user_id, amount, currency): (i64, i64, i64, String) =
                (r.get(0), r.get(1), r.get(2), r.get(3));
            let currency =
                Currency::from_str(&currency).map_err(|_| db_err("free bet currency"))?;
            let balance = self
                .ledger()
                .balance(user_id, BalanceKind::FreeBet, currency)
                .await?;
            // What is left of it (a zero record when it was staked meanwhile).
            let back = amount.min(balance).max(0);
            let from = AccountRef::Player {
                user_id,
                kind: BalanceKind::FreeBet,
            };
            let posting = PostingRequest::transfer(
                TxType::FreeBetExpiry,
                format!("freebet:{id}:expire"),
                Some(user_id),
                currency,
                from,
                AccountRef::House(HouseAccount::Bonuses),
                back,
            )
            .comment("Free bet expired")
            .metadata(serde_json::json!({ "freeBetId": id.to_string() }));
            let work = attached(move |conn| {
                Box::pin(async move {
                    let moved = sqlx::query("UPDATE free_bets SET status = 'expired' WHERE id = $1 AND status = 'active'").bind(id).execute(&mut *conn).await?;
                    Ok(moved.rows_affected() == 1)
                })
            });
            match self.ledger().post_with(posting, work).await {
                Ok(r) if !r.replayed => expired += 1,
                Ok(_) | Err(LedgerError::Declined | LedgerError::Insufficient(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(expired)
    }
}
