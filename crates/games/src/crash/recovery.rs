//! Settling rounds a restart interrupted (docs/CRASH.md §Recovery). The ledger is the
//! truth about money: for each bet we look up its stake and win under their deterministic
//! keys, then apply the rule:
//!
//! * a stake that never landed is tombstoned (it can never land later) — bet `refused`;
//! * a win already paid stands — bet `cashed`; a cash-out recorded but not paid is paid;
//! * round interrupted **in its betting window** (never started): the round is void,
//!   every stake is refunded (rollback) — bets `refunded`, round `voided`;
//! * round interrupted **while running**: the round is ended at its predetermined crash
//!   point for what was already determined — a bet whose auto cash-out (or max-win forced
//!   cash-out) lies below the crash point is paid at it, exactly as the round would have
//!   paid it; every other open bet is refunded, because the malfunction took away the
//!   player's chance to cash out by hand — bets `cashed` / `refunded`, round `interrupted`;
//! * round that had **crashed** (its end persisted) but was not fully settled: open bets
//!   lose as they did on screen; recorded cash-outs are paid — round `ended`.
//!
//! No player ends up worse off than if the round had been voided, and the outcome of no
//! round is changed. Every step is idempotent (ledger keys), so recovery itself may be
//! interrupted and run again.

use super::db;
use super::{target, tx_id, win_at, CrashConfig, GAME_ID};
use crate::single::limits;
use casino::sessions::NewSession;
use casino::{Casino, RollbackCall, WalletCall, STUDIO};
use kernel::{AppError, Currency};
use std::collections::HashMap;
use std::str::FromStr;
use store::sqlx;
use store::Db;
use wallet::Ledger;

/// Settles every unsettled round; returns how many.
pub async fn recover(db: &Db, ledger: &Ledger, casino: &Casino, config: &CrashConfig) -> Result<usize, AppError> {
    let rounds = db::unsettled_rounds(db).await?;
    for round in &rounds {
        settle_round(db, ledger, casino, config, round).await?;
    }
    Ok(rounds.len())
}

async fn posted(ledger: &Ledger, tx: &str) -> Result<bool, AppError> {
    Ok(ledger.lookup(&casino::wallet::ledger_key(STUDIO, tx)).await?.is_some_and(|t| !t.tombstone))
}

/// Writes one statement now (recovery runs before the loop's persister takes writes).
async fn write(db: &Db, round_id: i64, user_id: i64, status: &str, m: Option<i64>, win: i64, forced: bool) -> Result<(), AppError> {
    sqlx::query(
        "UPDATE crash_bets SET status = $1, cashed_out_at = COALESCE($2, cashed_out_at), win = $3, forced = $4, updated_at = $5 \
         WHERE round_id = $6 AND user_id = $7",
    )
    .bind(status)
    .bind(m)
    .bind(win)
    .bind(forced as i64)
    .bind(kernel::clock::now_ms())
    .bind(round_id)
    .bind(user_id)
    .execute(db.writer())
    .await
    .map_err(AppError::internal)?;
    Ok(())
}

async fn settle_round(db: &Db, ledger: &Ledger, casino: &Casino, config: &CrashConfig, round: &db::RoundRow) -> Result<(), AppError> {
    let bets = db::bets_of(db, round.id).await?;
    let cp = round.crash_point as u64;
    let rid = round.id;
    let mut tokens: HashMap<i64, String> = HashMap::new();
    let (mut paid, mut refunded, mut lost) = (0, 0, 0);
    for bet in &bets {
        let user = bet.user_id;
        let currency = Currency::from_str(&bet.currency).map_err(|_| AppError::internal("crash bet with an unknown currency"))?;
        // A session only the engine knows, to call the wallet for this player (wins and
        // rollbacks are honoured whatever the player's own session is).
        if !tokens.contains_key(&user) {
            let token = casino
                .sessions()
                .create(NewSession {
                    user_id: user,
                    // The engine's own session: it pays and refunds, it never stakes.
                    player_session_id: None,
                    provider: STUDIO,
                    game_id: GAME_ID,
                    currency,
                    lang: "en",
                    platform: "desktop",
                })
                .await?;
            tokens.insert(user, token);
        }
        let token = tokens[&user].clone();
        let rollback = || RollbackCall {
            session_token: token.clone(),
            transaction_id: tx_id(rid, user, "bet:rollback"),
            reference_transaction_id: tx_id(rid, user, "bet"),
            round_id: rid.to_string(),
            game_id: GAME_ID.into(),
        };
        let pay = |amount: i64| WalletCall {
            session_token: token.clone(),
            transaction_id: tx_id(rid, user, "win"),
            round_id: rid.to_string(),
            game_id: GAME_ID.into(),
            amount,
            currency: bet.currency.clone(),
        };
        if !posted(ledger, &tx_id(rid, user, "bet")).await? {
            // Never staked (or refused): make sure it never lands.
            casino.wallet().rollback(STUDIO, &rollback()).await?;
            write(db, rid, user, "refused", None, 0, false).await?;
            continue;
        }
        if posted(ledger, &tx_id(rid, user, "win")).await? {
            if bet.status != "cashed" {
                // Paid, but the row missed it: the win's metadata has no multiplier; keep
                // what the row has and mark it cashed.
                write(db, rid, user, "cashed", bet.cashed_out_at, bet.win, false).await?;
            }
            paid += 1;
            continue;
        }
        if bet.status == "cashed" {
            casino.wallet().win(STUDIO, &pay(bet.win)).await?;
            paid += 1;
            continue;
        }
        let max_win = config.max_win(&limits(currency));
        match round.phase.as_str() {
            "ended" => {
                write(db, rid, user, "lost", None, 0, false).await?;
                lost += 1;
            }
            "running" => match target(bet.amount, bet.auto_cash_out.map(|a| a as u64), max_win) {
                Some((m, forced)) if m < cp => {
                    let win = win_at(bet.amount, m, max_win);
                    write(db, rid, user, "cashed", Some(m as i64), win, forced).await?;
                    casino.wallet().win(STUDIO, &pay(win)).await?;
                    paid += 1;
                }
                _ => {
                    casino.wallet().rollback(STUDIO, &rollback()).await?;
                    write(db, rid, user, "refunded", None, 0, false).await?;
                    refunded += 1;
                }
            },
            _ => {
                casino.wallet().rollback(STUDIO, &rollback()).await?;
                write(db, rid, user, "refunded", None, 0, false).await?;
                refunded += 1;
            }
        }
    }
    let phase = match round.phase.as_str() {
        "ended" => "ended",
        "running" => "interrupted",
        _ => "voided",
    };
    // Recovery-created sessions end now.
    for token in tokens.values() {
        let _ = sqlx::query("UPDATE game_sessions SET expires_at = $1 WHERE token_hash = $2")
            .bind(kernel::clock::now_ms())
            .bind(casino::sessions::token_hash(token))
            .execute(db.writer())
            .await;
    }
    sqlx::query("UPDATE crash_rounds SET phase = $1, settled_at = $2, ended_at = COALESCE(ended_at, $2) WHERE id = $3")
        .bind(phase)
        .bind(kernel::clock::now_ms())
        .bind(rid)
        .execute(db.writer())
        .await
        .map_err(AppError::internal)?;
    tracing::warn!(round = rid, was = %round.phase, now = phase, crash_point = cp, paid, refunded, lost, "crash: interrupted round settled");
    Ok(())
}
