//! Game sessions: what a launch creates and what every wallet call names. The token is
//! 32 random bytes (hex) given to the game once; only its SHA-256 is stored.

use kernel::clock::now_ms;
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
pub const SESSION_IDLE_MS: i64 = 2 * 60 * 60 * 1000;
const TOUCH_WHEN_LEFT_MS: i64 = SESSION_IDLE_MS / 2;

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
    pub expires_at: i64,
    /// Player role (0 = player) and ban flag, read with the session.
    pub role: i64,
    pub banned: bool,
}

impl GameSession {
    pub fn is_live(&self, now: i64) -> bool {
        now < self.expires_at
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
        Ok(())
    }
}

pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

const SESSION_SELECT: &str = "SELECT s.id, s.user_id, s.provider, s.game_id, s.currency, s.lang, s.platform, s.created_at, s.expires_at, u.role, u.is_banned \
     FROM game_sessions s JOIN users u ON u.id = s.user_id";

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
    })
}

#[derive(Clone)]
pub struct Sessions {
    db: Db,
}

pub struct NewSession<'a> {
    pub user_id: i64,
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

    /// Creates a session; returns it with its token (given out once).
    pub async fn create(&self, s: NewSession<'_>) -> Result<(GameSession, String), AppError> {
        let bytes: [u8; 32] = rand::rngs::OsRng.gen();
        let token = hex::encode(bytes);
        let now = now_ms();
        let id = next_id();
        sqlx::query(
            "INSERT INTO game_sessions (id, token_hash, user_id, provider, game_id, currency, lang, platform, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
        .execute(self.db.writer())
        .await
        .map_err(AppError::internal)?;
        let session = GameSession {
            id,
            user_id: s.user_id,
            provider: s.provider.into(),
            game_id: s.game_id.into(),
            currency: s.currency,
            lang: s.lang.into(),
            platform: s.platform.into(),
            created_at: now,
            expires_at: now + SESSION_IDLE_MS,
            role: 0,
            banned: false,
        };
        Ok((session, token))
    }

    /// The session of a token, live or expired (wins and rollbacks accept expired ones);
    /// unknown token → 63.
    pub async fn find(&self, token: &str) -> Result<GameSession, AppError> {
        if token.is_empty() || token.len() > 128 {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.find_where("s.token_hash = $1", token_hash(token)).await
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

    /// Slides the expiry forward when less than half of the idle time is left.
    pub async fn touch(&self, s: &mut GameSession, now: i64) -> Result<(), AppError> {
        if s.expires_at - now < TOUCH_WHEN_LEFT_MS {
            sqlx::query("UPDATE game_sessions SET expires_at = $1 WHERE id = $2 AND expires_at < $1")
                .bind(now + SESSION_IDLE_MS)
                .bind(s.id)
                .execute(self.db.writer())
                .await
                .map_err(AppError::internal)?;
            s.expires_at = now + SESSION_IDLE_MS;
        }
        Ok(())
    }

    /// Ends every session of a player (logout everywhere, ban).
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
