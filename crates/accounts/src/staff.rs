//! What the operator's staff do to players' accounts (issue 22; docs/BACKOFFICE.md "Players"):
//! find them, and ban or unban them with a reason. Each change and its audit record
//! (`store::audit`) are one transaction.

use crate::{db_err, user_from_row, Accounts, User, USER_COLUMNS};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use store::sqlx;

/// At most this many players per search.
pub const SEARCH_LIMIT: i64 = 50;

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
