//! What the operator's staff do to players' accounts (issue 22; docs/BACKOFFICE.md "Players"):
//! find them, and ban or unban them with a reason. Each change and its audit record
//! (`store::audit`) are one transaction.

use crate::{db_err, user_from_row, Accounts, User, USER_COLUMNS};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use store::sqlx;

/// At most this many players per search.
pub const SEARCH_LIMIT: i64 = 50;
/// A note's length, in characters.
pub const NOTE_MAX_CHARS: usize = 2000;

/// A staff note on a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub id: i64,
    /// As the audit trail names the author (`support:12`).
    pub author: String,
    pub body: String,
    pub created_at: i64,
}

/// A device a player signed in from: an address and a browser, with its sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub ip: String,
    pub user_agent: String,
    pub sessions: i64,
    pub first_seen: i64,
    pub last_seen: i64,
    /// Other accounts that signed in from the same address (a multi-accounting signal; a
    /// shared address — a café, a mobile carrier's NAT — explains some).
    pub other_accounts: i64,
}

/// How a search text reads: an id or a phone (digits), an e-mail (has `@`), or a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    Digits { id: Option<i64>, phone: Option<String> },
    Email(String),
    Name(String),
}

impl Query {
    /// `None` for a text too short to search by (fewer than 2 characters) or too long.
    pub fn parse(text: &str) -> Option<Query> {
        let t = text.trim();
        if t.chars().count() < 2 || t.len() > 100 {
            return None;
        }
        let compact: String = t.chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != '.').collect();
        let digits = compact.strip_prefix('+').unwrap_or(&compact);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Some(Query::Digits { id: digits.parse().ok(), phone: crate::validate::normalize_phone(t) });
        }
        if t.contains('@') {
            return Some(Query::Email(t.to_lowercase()));
        }
        Some(Query::Name(t.to_lowercase()))
    }
}

/// `%`, `_` and `\` taken literally in a `LIKE … ESCAPE '\'` pattern.
fn like_prefix(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 1);
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

impl Accounts {
    /// Players (role 0) matching `q`: by id or phone, by e-mail (its beginning), or by the
    /// beginning of a first name, a last name or an e-mail (any case); newest first.
    pub async fn search_players(&self, q: &Query) -> Result<Vec<User>, AppError> {
        let cols = USER_COLUMNS;
        let limit = SEARCH_LIMIT;
        let rows = match q {
            Query::Digits { id, phone } => {
                sqlx::query(&format!("SELECT {cols} FROM users WHERE role = 0 AND (id = $1 OR phone = $2) ORDER BY created_at DESC LIMIT {limit}"))
                    .bind(id.unwrap_or(-1))
                    .bind(phone.clone().unwrap_or_default())
                    .fetch_all(self.db.reader())
                    .await
            }
            Query::Email(e) => {
                sqlx::query(&format!("SELECT {cols} FROM users WHERE role = 0 AND LOWER(email) LIKE $1 ESCAPE '\\' ORDER BY created_at DESC LIMIT {limit}"))
                    .bind(like_prefix(e))
                    .fetch_all(self.db.reader())
                    .await
            }
            Query::Name(n) => {
                sqlx::query(&format!(
                    "SELECT {cols} FROM users WHERE role = 0 AND (LOWER(first_name) LIKE $1 ESCAPE '\\' OR LOWER(last_name) LIKE $1 ESCAPE '\\' \
                     OR LOWER(email) LIKE $1 ESCAPE '\\') \
                     ORDER BY created_at DESC LIMIT {limit}"
                ))
                .bind(like_prefix(n))
                .fetch_all(self.db.reader())
                .await
            }
        }
        .map_err(db_err)?;
        Ok(rows.iter().map(user_from_row).collect())
    }

    /// Live sessions of a user (not revoked, not expired).
    pub async fn live_sessions(&self, user_id: i64) -> Result<i64, AppError> {
        let now = now_ms();
        let row = sqlx::query("SELECT COUNT(*) FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND idle_expires_at > $2 AND absolute_expires_at > $2")
            .bind(user_id)
            .bind(now)
            .fetch_one(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(sqlx::Row::get(&row, 0))
    }

    /// The addresses and browsers player `user_id` signed in from, most recent first (at most
    /// `limit`), each with the number of other accounts seen at that address.
    pub async fn devices(&self, user_id: i64, limit: i64) -> Result<Vec<Device>, AppError> {
        let rows = sqlx::query(
            "SELECT COALESCE(ip, ''), COALESCE(user_agent, ''), COUNT(*), MIN(created_at), MAX(last_seen_at) FROM sessions \
             WHERE user_id = $1 GROUP BY ip, user_agent ORDER BY MAX(last_seen_at) DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let ip: String = sqlx::Row::get(&r, 0);
            let other_accounts = if ip.is_empty() {
                0
            } else {
                let row = sqlx::query("SELECT COUNT(DISTINCT user_id) FROM sessions WHERE ip = $1 AND user_id <> $2")
                    .bind(&ip)
                    .bind(user_id)
                    .fetch_one(self.db.reader())
                    .await
                    .map_err(db_err)?;
                sqlx::Row::get::<i64, _>(&row, 0)
            };
            out.push(Device {
                ip,
                user_agent: sqlx::Row::get(&r, 1),
                sessions: sqlx::Row::get(&r, 2),
                first_seen: sqlx::Row::get(&r, 3),
                last_seen: sqlx::Row::get(&r, 4),
                other_accounts,
            });
        }
        Ok(out)
    }

    /// The notes on player `user_id`, newest first (at most `limit`).
    pub async fn notes(&self, user_id: i64, limit: i64) -> Result<Vec<Note>, AppError> {
        let rows = sqlx::query("SELECT id, author, body, created_at FROM player_notes WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2")
            .bind(user_id)
            .bind(limit)
            .fetch_all(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| Note { id: sqlx::Row::get(r, 0), author: sqlx::Row::get(r, 1), body: sqlx::Row::get(r, 2), created_at: sqlx::Row::get(r, 3) })
            .collect())
    }

    /// Adds a note on player `user_id` by staff member `author_id` (`actor` as the audit trail
    /// names them): the note and its audit record (`player.note`) are one transaction. 3 for
    /// no such player; 47 for an empty note or one over [`NOTE_MAX_CHARS`].
    pub async fn add_note(&self, user_id: i64, author_id: i64, actor: &str, body: &str) -> Result<Note, AppError> {
        let body = body.trim();
        if body.is_empty() || body.chars().count() > NOTE_MAX_CHARS || body.chars().any(|c| c.is_control() && c != '\n') {
            return Err(AppError::with_detail(ErrorCode::InvalidField, format!("body: 1 to {NOTE_MAX_CHARS} characters, no control characters")));
        }
        let user = self.user_by_id(user_id).await?.filter(|u| u.role == crate::Role::Player).ok_or(ErrorCode::NoSuchUser)?;
        let now = now_ms();
        let note = Note { id: kernel::ids::next_id(), author: actor.to_string(), body: body.to_string(), created_at: now };
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        sqlx::query("INSERT INTO player_notes (id, user_id, author_id, author, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(note.id)
            .bind(user.id)
            .bind(author_id)
            .bind(actor)
            .bind(body)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let details = serde_json::json!({ "noteId": note.id, "body": body }).to_string();
        let subject = format!("user:{}", user.id);
        store::audit::append(&mut tx, &store::audit::Record { actor, action: "player.note", subject: &subject, details: &details }, now).await.map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(note)
    }

    /// Bans or unbans player `user_id` for `reason`, as `actor`. The flag, the end of every
    /// session (a ban) and the audit record (`player.ban` / `player.unban`, before and
    /// after) are one transaction; game sessions end right after. Returns whether anything
    /// changed (banning a banned player changes and records nothing). 3 for no such player.
    pub async fn set_banned_by(&self, user_id: i64, banned: bool, actor: &str, reason: &str) -> Result<bool, AppError> {
        let user = self.user_by_id(user_id).await?.filter(|u| u.role == crate::Role::Player).ok_or(ErrorCode::NoSuchUser)?;
        let now = now_ms();
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        let changed = sqlx::query("UPDATE users SET is_banned = $1, updated_at = $2 WHERE id = $3 AND is_banned <> $1")
            .bind(banned as i64)
            .bind(now)
            .bind(user.id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected()
            == 1;
        if !changed {
            return Ok(false);
        }
        let mut ended = 0;
        if banned {
            ended = sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL")
                .bind(now)
                .bind(user.id)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
        }
        let details = serde_json::json!({ "reason": reason, "before": { "banned": !banned }, "after": { "banned": banned }, "sessionsEnded": ended }).to_string();
        let subject = format!("user:{}", user.id);
        let action = if banned { "player.ban" } else { "player.unban" };
        store::audit::append(&mut tx, &store::audit::Record { actor, action, subject: &subject, details: &details }, now).await.map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        if banned {
            self.all_sessions_ended(user.id).await?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_text_reads_as_id_phone_email_or_name() {
        assert_eq!(Query::parse("x"), None, "too short");
        assert!(matches!(Query::parse("12345678"), Some(Query::Digits { id: Some(12345678), .. })));
        assert!(matches!(Query::parse("+216 20 000 001"), Some(Query::Digits { .. })));
        assert_eq!(Query::parse(" Ali@Example.TN "), Some(Query::Email("ali@example.tn".into())));
        assert_eq!(Query::parse("Ben Salah"), Some(Query::Name("ben salah".into())));
        assert_eq!(like_prefix("a_b%c\\"), "a\\_b\\%c\\\\%");
    }
}
