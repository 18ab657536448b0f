//! Wagering terms on a player's account: a **stake cap** and a **wagering progress** counter
//! toward a **target**. Promotions set them when a bonus opens (the cap is the bonus's maximum
//! bet, the target its requirement) and clear them when it closes. They are not money — a
//! balance moves only by postings — but they ride on the stake's own conditional balance
//! `UPDATE` (posting.rs `update_player`, the set-wise step alike), so a bonus being wagered
//! costs a stake no statement of its own:
//!
//! - a stake the observer marks capped ([`crate::Checked::capped`]) is refused by that update
//!   when it is above the cap: nothing moves, the claim is released;
//! - the stake's counted amount ([`crate::Checked::progress`]) is added to the progress while a
//!   target is set, and the observer learns when the progress reaches the target
//!   ([`crate::Applied::met`]).
//!
//! Every function here runs on the caller's connection, inside its transaction (the one that
//! opens or closes the bonus with its posting).

use crate::model::BalanceKind;
use kernel::{Currency, Minor};
use store::sqlx::{self, AnyConnection, Row};

/// Sets an account's terms and starts its progress at `progress` (usually 0): `cap` (`None`:
/// no cap) and `target` (`None`: no wagering counted). Opens the player's accounts in that
/// currency if needed.
pub async fn set_wager_terms(
    conn: &mut AnyConnection,
    user_id: i64,
    kind: BalanceKind,
    currency: Currency,
    cap: Option<Minor>,
    target: Option<Minor>,
    progress: Minor,
) -> Result<(), sqlx::Error> {
    crate::posting::open_accounts_on(conn, user_id, currency).await?;
    sqlx::query(
        "UPDATE ledger_accounts SET stake_cap = $1, wager_target = $2, wager_progress = $3 \
         WHERE owner_id = $4 AND kind = $5 AND currency = $6 AND is_house = 0",
    )
    .bind(cap)
    .bind(target)
    .bind(progress)
    .bind(user_id)
    .bind(kind.as_str())
    .bind(currency.code())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Clears an account's terms (no cap, no target) and answers the progress it had.
pub async fn clear_wager_terms(conn: &mut AnyConnection, user_id: i64, kind: BalanceKind, currency: Currency) -> Result<Minor, sqlx::Error> {
    let (progress, _) = wager_progress(conn, user_id, kind, currency).await?;
    sqlx::query(
        "UPDATE ledger_accounts SET stake_cap = NULL, wager_target = NULL, wager_progress = 0 \
         WHERE owner_id = $1 AND kind = $2 AND currency = $3 AND is_house = 0",
    )
    .bind(user_id)
    .bind(kind.as_str())
    .bind(currency.code())
    .execute(&mut *conn)
    .await?;
    Ok(progress)
}

/// An account's current progress and target (`None` when no target is set).
pub async fn wager_progress(conn: &mut AnyConnection, user_id: i64, kind: BalanceKind, currency: Currency) -> Result<(Minor, Option<Minor>), sqlx::Error> {
    let row = sqlx::query("SELECT wager_progress, wager_target FROM ledger_accounts WHERE owner_id = $1 AND kind = $2 AND currency = $3 AND is_house = 0")
        .bind(user_id)
        .bind(kind.as_str())
        .bind(currency.code())
        .fetch_optional(&mut *conn)
        .await?;
    Ok(match row {
        Some(r) => (r.try_get(0)?, r.try_get(1)?),
        None => (0, None),
    })
}

/// Takes `amount` back from an account's progress (a rolled-back stake), while a target is set.
pub async fn take_back_progress(conn: &mut AnyConnection, user_id: i64, kind: BalanceKind, currency: Currency, amount: Minor) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE ledger_accounts SET wager_progress = wager_progress - $1 \
         WHERE owner_id = $2 AND kind = $3 AND currency = $4 AND is_house = 0 AND wager_target IS NOT NULL",
    )
    .bind(amount)
    .bind(user_id)
    .bind(kind.as_str())
    .bind(currency.code())
    .execute(&mut *conn)
    .await?;
    Ok(())
}
