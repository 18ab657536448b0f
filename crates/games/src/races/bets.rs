//! Bets on virtual races: placement (idempotent by the player's key) and the player's list.
//!
//! A placement: the bet row is written `placing` — only while the race is open, in the same
//! statement that checks it — then the stake goes through the provider wallet
//! (`ProviderWallet::bet_with`, provider `studio`, transaction `vr:{bet}:bet`, round = the
//! race id) on the player's `virtuals` game session, which lives inside the sign-in that
//! placed it. A stake the wallet refuses is tombstoned (`vr:{bet}:void`) and the row
//! removed, so the same key may be tried again; a stake whose answer was lost is settled by
//! the race from the ledger's word (engine: `placing`).

use super::engine::{parse_selection, selection_text, tx_id};
use super::maths::{Selection, SelectionError};
use super::{VirtualBet, Virtuals, SESSION_GAME_ID};
use crate::single::limits;
use casino::sessions::NewSession;
use casino::{GameSession, RollbackCall, WalletCall, STUDIO};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::money::Fixed;
use kernel::{AppError, Currency, ErrorCode};
use std::str::FromStr;
use store::sqlx::{self, Row};

/// Who bets: a signed-in player.
#[derive(Debug, Clone)]
pub struct Bettor {
    pub user_id: i64,
    /// The sign-in session placing the bet (the game session ends with it).
    pub player_session_id: i64,
    pub currency: Currency,
    pub lang: String,
}

/// A bet as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetRequest {
    pub race_id: i64,
    /// `win`, `place` or `forecast`.
    pub kind: String,
    pub runners: Vec<u32>,
    /// Minor units of the player's currency.
    pub stake: i64,
}

const BET_SELECT: &str = "SELECT b.id, b.race_id, r.sport, b.kind, b.selection, b.price, b.stake, b.win, b.currency, b.status, \
     b.created_at, r.closes_at, r.finishes_at, r.phase FROM virtual_bets b JOIN virtual_races r ON r.id = b.race_id";

fn bet_view(r: &store::sqlx::any::AnyRow) -> VirtualBet {
    let currency: String = r.get(8);
    let price: i64 = r.get(5);
    let stake: i64 = r.get(6);
    VirtualBet {
        id: r.get(0),
        race_id: r.get(1),
        sport: r.get(2),
        kind: r.get(3),
        runners: parse_selection(&r.get::<String, _>(4)),
        price: Fixed::new(price, 2),
        stake,
        potential_win: potential_win(stake, price as u64),
        win: r.get(7),
        exponent: Currency::from_str(&currency).map(|c| c.exponent()).unwrap_or(0),
        currency,
        status: r.get(9),
        placed_at: r.get(10),
        closes_at: r.get(11),
        finishes_at: r.get(12),
        race_phase: r.get(13),
        replayed: false,
        balance: None,
    }
}

fn invalid(e: SelectionError) -> AppError {
    AppError::with_detail(ErrorCode::InvalidBet, e.to_string())
}

impl Virtuals {
    /// The bet this player placed under `key`, if any.
    async fn bet_by_key(&self, user_id: i64, key: &str) -> Result<Option<VirtualBet>, AppError> {
        let row = sqlx::query(&format!("{BET_SELECT} WHERE b.user_id = $1 AND b.client_key = $2"))
            .bind(user_id)
            .bind(key)
            .fetch_optional(self.inner.db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(row.as_ref().map(bet_view))
    }

    /// A repeat of an earlier request under the same key: the same bet (`replayed`), or 26
    /// when the request differs.
    fn replay(req: &BetRequest, mut bet: VirtualBet) -> Result<VirtualBet, AppError> {
        if bet.race_id != req.race_id || bet.kind != req.kind || bet.runners != req.runners || bet.stake != req.stake {
            return Err(AppError::new(ErrorCode::IdempotencyConflict));
        }
        bet.replayed = true;
        Ok(bet)
    }

    /// The player's live `virtuals` game session inside this sign-in, opened on first use.
    async fn game_session(&self, who: &Bettor) -> Result<GameSession, AppError> {
        let sessions = self.inner.casino.sessions();
        let now = now_ms();
        let found = sqlx::query(
            "SELECT id FROM game_sessions WHERE user_id = $1 AND player_session_id = $2 AND provider = $3 AND game_id = $4 \
             AND expires_at > $5 AND ends_at > $5 ORDER BY created_at DESC LIMIT 1",
        )
        .bind(who.user_id)
        .bind(who.player_session_id)
        .bind(STUDIO)
        .bind(SESSION_GAME_ID)
        .bind(now)
        .fetch_optional(self.inner.db.writer())
        .await
        .map_err(AppError::internal)?;
        if let Some(row) = found {
            let s = sessions.by_id(row.get(0)).await?;
            if s.is_live(now) {
                return Ok(s);
            }
        }
        let token = sessions
            .create(NewSession {
                user_id: who.user_id,
                player_session_id: Some(who.player_session_id),
                provider: STUDIO,
                game_id: SESSION_GAME_ID,
                currency: who.currency,
                lang: &who.lang,
                platform: "mobile",
            })
            .await?;
        sessions.find(&token).await
    }

    /// Places a bet (see the module comment). Refusals: 43 no such race, 69 betting closed,
    /// 68 a selection or stake the race does not take, 26 the key reused for another bet,
    /// and the wallet's own (501 balance, 5 banned, 61 not a player, 121/122 blocked).
    pub async fn place(&self, who: &Bettor, req: &BetRequest, key: &str) -> Result<VirtualBet, AppError> {
        if let Some(bet) = self.bet_by_key(who.user_id, key).await? {
            return Self::replay(req, bet);
        }
        let race = self.race_row(req.race_id).await?.ok_or_else(|| AppError::with_detail(ErrorCode::NotFound, "no such race"))?;
        let now = self.now();
        if race.phase != "open" || race.closes_at <= now {
            return Err(AppError::new(ErrorCode::BettingClosed));
        }
        let selection = Selection::parse(&req.kind, &req.runners, race.runners.len()).map_err(invalid)?;
        let price = selection.price(&race.prices).ok_or_else(|| invalid(SelectionError::NotOffered))?;
        let l = limits(who.currency);
        if req.stake < l.min_bet || req.stake > l.max_bet {
            return Err(AppError::with_detail(
                ErrorCode::InvalidBet,
                format!("the stake must be between {} and {} minor units", l.min_bet, l.max_bet),
            ));
        }
        let session = self.game_session(who).await?;
        session.may_stake(now_ms())?;
        let id = next_id();
        let inserted = sqlx::query(
            "INSERT INTO virtual_bets (id, race_id, user_id, session_id, client_key, currency, kind, selection, price, stake, status, win, created_at) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'placing', 0, $11 WHERE EXISTS \
             (SELECT 1 FROM virtual_races WHERE id = $2 AND phase = 'open' AND closes_at > $12)",
        )
        .bind(id)
        .bind(race.id)
        .bind(who.user_id)
        .bind(session.id)
        .bind(key)
        .bind(who.currency.code())
        .bind(selection.kind())
        .bind(selection_text(&selection.runners()))
        .bind(price as i64)
        .bind(req.stake)
        .bind(now_ms())
        .bind(now)
        .execute(self.inner.db.writer())
        .await;
        match inserted {
            Ok(done) if done.rows_affected() == 1 => {}
            Ok(_) => return Err(AppError::new(ErrorCode::BettingClosed)),
            Err(e) if store::is_unique_violation(&e) => {
                // The same key, concurrently: answer as its first request does.
                return match self.bet_by_key(who.user_id, key).await? {
                    Some(bet) => Self::replay(req, bet),
                    None => Err(AppError::with_detail(ErrorCode::IdempotencyConflict, "a request with this key is being processed; retry")),
                };
            }
            Err(e) => return Err(AppError::internal(e)),
        }
        let game_id = race.sport.game_id();
        let call = WalletCall {
            session_token: String::new(),
            transaction_id: tx_id(id, "bet"),
            round_id: race.id.to_string(),
            game_id: game_id.into(),
            amount: req.stake,
            currency: who.currency.code().into(),
        };
        let wallet = self.inner.casino.wallet();
        let balance = match wallet.bet_with(STUDIO, session.clone(), &call).await {
            Ok(reply) => reply.balance,
            Err(e) => {
                // Refused, or its outcome unknown: make sure this stake never lands (or give
                // it back), then forget the bet so the key can be used again.
                let rb = RollbackCall {
                    session_token: String::new(),
                    transaction_id: tx_id(id, "void"),
                    reference_transaction_id: tx_id(id, "bet"),
                    round_id: race.id.to_string(),
                    game_id: game_id.into(),
                };
                match wallet.rollback_with(STUDIO, &session, &rb).await {
                    Ok(_) => {
                        let _ = sqlx::query("DELETE FROM virtual_bets WHERE id = $1 AND status = 'placing'")
                            .bind(id)
                            .execute(self.inner.db.writer())
                            .await;
                    }
                    Err(e2) => {
                        tracing::error!(error = %e2.text(), bet = id, "virtual races: voiding a refused stake failed (the race settles it from the ledger)")
                    }
                }
                return Err(e);
            }
        };
        sqlx::query("UPDATE virtual_bets SET status = 'open' WHERE id = $1 AND status = 'placing'")
            .bind(id)
            .execute(self.inner.db.writer())
            .await
            .map_err(AppError::internal)?;
        let mut bet = self.bet_by_key(who.user_id, key).await?.ok_or_else(|| AppError::internal("a placed virtual bet vanished"))?;
        bet.balance = Some(balance);
        Ok(bet)
    }

    /// The player's bets, newest first (`limit` clamped to 1..=100), optionally of one race.
    pub async fn bets(&self, user_id: i64, race_id: Option<i64>, limit: i64) -> Result<Vec<VirtualBet>, AppError> {
        let limit = limit.clamp(1, 100);
        let rows = match race_id {
            Some(race) => sqlx::query(&format!(
                "{BET_SELECT} WHERE b.user_id = $1 AND b.race_id = $2 AND b.status <> 'refused' ORDER BY b.id DESC LIMIT $3"
            ))
            .bind(user_id)
            .bind(race)
            .bind(limit)
            .fetch_all(self.inner.db.reader())
            .await,
            None => sqlx::query(&format!("{BET_SELECT} WHERE b.user_id = $1 AND b.status <> 'refused' ORDER BY b.id DESC LIMIT $2"))
                .bind(user_id)
                .bind(limit)
                .fetch_all(self.inner.db.reader())
                .await,
        }
        .map_err(AppError::internal)?;
        Ok(rows.iter().map(bet_view).collect())
    }
}

/// What a bet would return (the bet slip's figure): floor(stake × price / 100).
/// The same figure `maths::payout` pays for a winning bet.
pub fn potential_win(stake: i64, price: u64) -> i64 {
    ((stake as i128 * price as i128) / 100) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::races::maths::{payout, RaceResult};

    #[test]
    fn potential_wins_are_floored_to_the_minor_unit() {
        assert_eq!(potential_win(1_000, 347), 3_470);
        assert_eq!(potential_win(333, 347), 1_155);
        assert_eq!(potential_win(100, 101), 101);
        let won = RaceResult::Order { order: vec![1, 2], places: 1 };
        assert_eq!(potential_win(777, 1_234), payout(&Selection::Win(1), 777, 1_234, &won));
    }

    #[test]
    fn replays_need_the_same_request() {
        let bet = VirtualBet {
            id: 1,
            race_id: 7,
            sport: "horses".into(),
            kind: "win".into(),
            runners: vec![3],
            price: Fixed::new(250, 2),
            stake: 1_000,
            potential_win: 2_500,
            win: 0,
            currency: "TND".into(),
            exponent: 3,
            status: "open".into(),
            placed_at: 0,
            closes_at: 0,
            finishes_at: 0,
            race_phase: "open".into(),
            replayed: false,
            balance: None,
        };
        let req = BetRequest { race_id: 7, kind: "win".into(), runners: vec![3], stake: 1_000 };
        assert!(Virtuals::replay(&req, bet.clone()).unwrap().replayed);
        for other in [
            BetRequest { stake: 2_000, ..req.clone() },
            BetRequest { runners: vec![4], ..req.clone() },
            BetRequest { kind: "place".into(), ..req.clone() },
            BetRequest { race_id: 8, ..req.clone() },
        ] {
            assert_eq!(Virtuals::replay(&other, bet.clone()).unwrap_err().code, ErrorCode::IdempotencyConflict);
        }
    }
}
