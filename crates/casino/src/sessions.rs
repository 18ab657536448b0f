//! Game sessions: what a launch creates and what every wallet call names. The token is
//! 32 random bytes (hex) given to the game once; only its SHA-256 is stored.
//!
//! A game session lives inside the player session (sign-in) that launched it: every read
//! joins that session, so logout, a password change elsewhere, a recovery, a ban or the
//! sign-in's own expiry stop stakes at once, whoever forgets to end the game sessions. It
//! also has an absolute lifetime ([`SESSION_MAX_MS`]) however active it is. Wins and
//! rollbacks never need a live session (money owed is paid).

use kernel::clock::{now_ms, HOUR_MS};
use kernel::ids::next_id;
use kernel::{AppError, Currency, ErrorCode};
use rand::Rng;
use sha2::{Digest, Sha256};
use std::str::FromStr;
use store::sqlx::{self, Row};
use store::Db;

/// Idle lifetime of a game session: a stake extends it when less than half is left, so a
/// playing session costs one extra write an hour, not one per stake (on SQLite each such
/// write is its own fsync'd commit outside the ledger's group commit). A session idle for
/// between 1 and 2 hours has expired.
pub const SESSION_IDLE_MS: i64 = 2 * HOUR_MS;
const TOUCH_WHEN_LEFT_MS: i64 = SESSION_IDLE_MS / 2;

/// Absolute lifetime of a game session: no stake 12 hours after the launch, however active.
/// A token handed to a game (and to a third-party provider's servers and logs) must not
/// place bets for ever; 12 h is longer than any playing session we expect, and playing on
/// costs a relaunch (the game page reopens a studio game by itself when told its session
/// expired).
pub const SESSION_MAX_MS: i64 = 12 * HOUR_MS;

/// A game session with what stakes need to know about its player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSession {
    pub id: i64,
    pub user_id: i64,
    pub provider: String,
    pub game_id: String,
    pub currency: Currency,
    pub lang: String,
    pub platform: String,
    pub created_at: i64,
    /// Idle expiry (extended by stakes, never past `ends_at`).
    pub expires_at: i64,
    /// Absolute end ([`SESSION_MAX_MS`] after the launch).
    pub ends_at: i64,
    /// The player session that launched this one, as it is now: `Some(expiry)` while it is
    /// signed in (not revoked), `None` when it ended or there is none (a session the
    /// platform opened for itself to pay wins and refunds).
    pub player_session_until: Option<i64>,
    /// Player role (0 = player) and ban flag, read with the session.
    pub role: i64,
    pub banned: bool,
    /// Responsible gambling: the player's self-exclusion and cool-off ends (epoch ms), read
    /// with the session: an excluded player or one in a cool-off may not stake.
    pub self_excluded_until: Option<i64>,
    pub cool_off_until: Option<i64>,
}

impl GameSession {
    /// Live: neither idle-expired nor past its absolute end, and its player is still signed
    /// in with the session that launched it.
    pub fn is_live(&self, now: i64) -> bool {
        now < self.expires_at && now < self.ends_at && self.player_session_until.is_some_and(|until| now < until)
    }
    /// Stakes need a live session and a player allowed to play (ARCHITECTURE §3).
    pub fn may_stake(&self, now: i64) -> Result<(), AppError> {
        if !self.is_live(now) {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        if self.banned {
            return Err(AppError::new(ErrorCode::UserBanned));
        }
        if self.role != 0 {
            return Err(AppError::new(ErrorCode::BetsNotAllowed));
        }
        kernel::errors::rg_block(self.self_excluded_until, self.cool_off_until, now)
    }
}

pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Every read of a session brings its player and the player session that launched it
/// (`p`, the accounts' `sessions` table) in the same query.
const SESSION_SELECT: &str = "SELECT s.id, s.user_id, s.provider, s.game_id, s.currency, s.lang, s.platform, s.created_at, s.expires_at, u.role, u.is_banned, \
     s.ends_at, p.id, p.revoked_at, p.idle_expires_at, p.absolute_expires_at, u.self_excluded_until, u.cool_off_until \
     FROM game_sessions s JOIN users u ON u.id = s.user_id LEFT JOIN sessions p ON p.id = s.player_session_id";

fn session_of(row: &store::sqlx::any::AnyRow) -> Result<GameSession, AppError> {
    let currency: String = row.get(4);
    Ok(GameSession {
        id: row.get(0),
        user_id: row.get(1),
        provider: row.get(2),
        game_id: row.get(3),
        currency: Currency::from_str(&currency).map_err(|_| AppError::internal("session with an unknown currency"))?,
        lang: row.get(5),
        platform: row.get(6),
        created_at: row.get(7),
        expires_at: row.get(8),
        role: row.get(9),
        banned: store::flag(row.get(10)),
        ends_at: row.get(11),
        player_session_until: match (row.get::<Option<i64>, _>(12), row.get::<Option<i64>, _>(13)) {
            (Some(_), None) => Some(row.get::<i64, _>(14).min(row.get::<i64, _>(15))),
            _ => None,
        },
        self_excluded_until: row.get(16),
        cool_off_until: row.get(17),
    })
}

#[derive(Clone)]
pub struct Sessions {
    db: Db,
}

pub struct NewSession<'a> {
    pub user_id: i64,
    /// The player session (sign-in) launching the game: the game session's stakes end with
    /// it. `None` only for sessions the platform opens for itself (wins and refunds).
    pub player_session_id: Option<i64>,
    pub provider: &'a str,
    pub game_id: &'a str,
    pub currency: Currency,
    pub lang: &'a str,
    pub platform: &'a str,
}

impl Sessions {
    pub fn new(db: Db) -> Sessions {
        Sessions { db }
    }

    /// Creates a session; returns its token (given out once). Every later read brings the
    /// player session with it ([`Self::find`]).
    pub async fn create(&self, s: NewSession<'_>) -> Result<String, AppError> {
        let bytes: [u8; 32] = rand::rngs::OsRng.gen();
        let token = hex::encode(bytes);
        let now = now_ms();
        let id = next_id();
        sqlx::query(
            "INSERT INTO game_sessions (id, token_hash, user_id, provider, game_id, currency, lang, platform, created_at, expires_at, \
             player_session_id, ends_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(id)
        .bind(token_hash(&token))
        .bind(s.user_id)
        .bind(s.provider)
        .bind(s.game_id)
        .bind(s.currency.code())
        .bind(s.lang)
        .bind(s.platform)
        .bind(now)
        .bind(now + SESSION_IDLE_MS)
        .bind(s.player_session_id)
        .bind(now + SESSION_MAX_MS)
        .execute(self.db.writer())
        .await
        .map_err(AppError::internal)?;
        Ok(token)
    }

    /// The session of a token, live or expired (wins and rollbacks accept expired ones);
    /// unknown token → 63.
    pub async fn find(&self, token: &str) -> Result<GameSession, AppError> {
        if token.is_empty() || token.len() > 128 {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.find_where("s.token_hash = $1", token_hash(token)).await
    }

    /// The player's most recent session with `provider`, live or expired (a partner that
    /// names the player, not the session, in its wallet calls: GR8).
    pub async fn latest(&self, user_id: i64, provider: &str) -> Result<Option<GameSession>, AppError> {
        let row = sqlx::query(&format!("{SESSION_SELECT} WHERE s.user_id = $1 AND s.provider = $2 ORDER BY s.created_at DESC, s.id DESC LIMIT 1"))
            .bind(user_id)
            .bind(provider)
            .fetch_optional(self.db.reader())
            .await
            .map_err(AppError::internal)?;
        row.as_ref().map(session_of).transpose()
    }

    /// A session by its id, live or expired (recovery of interrupted rounds).
    pub async fn by_id(&self, id: i64) -> Result<GameSession, AppError> {
        self.find_where("s.id = $1", id).await
    }

    /// Sessions by id as they are now (ended, expired, player banned since), in one read:
    /// a game that holds many players' sessions checks them all before staking. Unknown ids
    /// are missing from the map.
    pub async fn by_ids(&self, ids: &[i64]) -> Result<std::collections::HashMap<i64, GameSession>, AppError> {
        let mut out = std::collections::HashMap::with_capacity(ids.len());
        for part in ids.chunks(500) {
            let sql = format!("{SESSION_SELECT} WHERE s.id IN {}", store::values(1, part.len(), 1));
            let mut q = sqlx::query(&sql);
            for id in part {
                q = q.bind(*id);
            }
            for row in q.fetch_all(self.db.reader()).await.map_err(AppError::internal)? {
                let s = session_of(&row)?;
                out.insert(s.id, s);
            }
        }
        Ok(out)
    }

    async fn find_where<T>(&self, condition: &str, value: T) -> Result<GameSession, AppError>
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + Send,
    {
        let row = sqlx::query(&format!("{SESSION_SELECT} WHERE {condition}"))
            .bind(value)
            .fetch_optional(self.db.reader())
            .await
            .map_err(AppError::internal)?
            .ok_or_else(|| AppError::new(ErrorCode::GameSessionInvalid))?;
        session_of(&row)
    }

    /// A live session (stakes, game clients); expired or unknown → 63. Extends it.
    pub async fn live(&self, token: &str) -> Result<GameSession, AppError> {
        let mut s = self.find(token).await?;
        let now = now_ms();
        if !s.is_live(now) {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.touch(&mut s, now).await?;
        Ok(s)
    }

    /// Slides the idle expiry forward when less than half of the idle time is left, never
    /// past the absolute end.
    pub async fn touch(&self, s: &mut GameSession, now: i64) -> Result<(), AppError> {
        let extended = (now + SESSION_IDLE_MS).min(s.ends_at);
        if s.expires_at - now < TOUCH_WHEN_LEFT_MS && extended > s.expires_at {
            sqlx::query("UPDATE game_sessions SET expires_at = $1 WHERE id = $2 AND expires_at < $1")
                .bind(extended)
                .bind(s.id)
                .execute(self.db.writer())
                .await
                .map_err(AppError::internal)?;
            s.expires_at = extended;
        }
        Ok(())
    }

    /// Ends every session of a player (recovery, ban: every sign-in ended). Stakes stop
    /// without it (a session follows its player session); this makes the rows say so.
    pub async fn end_all(&self, user_id: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE game_sessions SET expires_at = $1 WHERE user_id = $2 AND expires_at > $1")
            .bind(now_ms())
            .bind(user_id)
            .execute(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(now: i64) -> GameSession {
        GameSession {
            id: 1,
            user_id: 2,
            provider: "studio".into(),
            game_id: "dice".into(),
            currency: Currency::Tnd,
            lang: "en".into(),
            platform: "mobile".into(),
            created_at: now,
            expires_at: now + SESSION_IDLE_MS,
            ends_at: now + SESSION_MAX_MS,
            player_session_until: Some(now + 48 * HOUR_MS),
            role: 0,
            banned: false,
            self_excluded_until: None,
            cool_off_until: None,
        }
    }

    #[test]
    fn stakes_need_the_player_session_and_stop_at_the_absolute_end() {
        let now = 1_000_000;
        assert!(session(now).may_stake(now).is_ok());
        let ended = GameSession { player_session_until: None, ..session(now) };
        assert_eq!(ended.may_stake(now).unwrap_err().code, ErrorCode::GameSessionInvalid);
        let signed_out_since = GameSession { player_session_until: Some(now - 1), ..session(now) };
        assert_eq!(signed_out_since.may_stake(now).unwrap_err().code, ErrorCode::GameSessionInvalid);
        // Extended by play all day long, it still ends 12 h after the launch.
        let old = GameSession { expires_at: now + SESSION_MAX_MS + SESSION_IDLE_MS, ..session(now) };
        assert!(old.may_stake(now + SESSION_MAX_MS - 1).is_ok());
        assert_eq!(old.may_stake(now + SESSION_MAX_MS).unwrap_err().code, ErrorCode::GameSessionInvalid);
    }
}
