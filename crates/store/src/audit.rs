//! The staff audit trail (issue 22): append-only and hash-chained.
//!
//! Every operator action (who, when, what, on what, the details with before and after) is one
//! row of `audit_log`, appended by [`append`] **in the transaction of the change it records**:
//! the change and its record commit together or not at all. Each row has its place in the
//! chain (`seq`: 1, 2, 3… with no gap), the previous row's hash and its own:
//!
//! ```text
//! hash = SHA-256( prev_hash ‖ "\n" ‖ JSON [seq, created_at, actor, action, subject, details] )
//! ```
//!
//! (hex; the first row's `prev_hash` is [`GENESIS`]). The chain's head, `audit_head` (last
//! `seq` and hash), is one row that every append updates first: on PostgreSQL concurrent
//! appends of several instances queue on its row lock until the appender commits, so the
//! chain's order is the commit order and no two rows take one place; SQLite's one writer
//! serialises them anyway. Triggers refuse to change or delete a chained row
//! ([`crate::dialect::protect_audit`]); whoever bypasses them (drops a trigger, edits the
//! file) breaks the chain, which [`verify`] (`carthage audit verify`) recomputes from the
//! first row: a changed row, a removed row, a row inserted out of the chain or a head that
//! does not match the last row are each reported with the place where the chain breaks.
//!
//! What the chain cannot show alone: a rewrite of the whole chain and its head by someone
//! holding the database. Anchoring the head outside the database (the daily published root
//! of issue 22's proof of liabilities) closes that; see docs/OPERATIONS.md "Audit trail".

use kernel::ids::next_id;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::{AnyConnection, Row};

/// The `prev_hash` of the first row.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What a staff action records.
#[derive(Debug, Clone)]
pub struct Record<'a> {
    /// Who: `admin:{id}`, `staff:{id}`, `cli:{user}`, `system:{job}`.
    pub actor: &'a str,
    /// What: a dotted name (`wallet.adjust`, `player.ban`, `promo.code.create`).
    pub action: &'a str,
    /// On what: `user:{id}`, `withdrawal:{id}`, `code:{code}`.
    pub subject: &'a str,
    /// The details as JSON text (before/after where something changed).
    pub details: &'a str,
}

/// The row [`append`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    pub id: i64,
    pub seq: i64,
    pub hash: String,
}

/// The hash of the row at `seq` whose predecessor's hash is `prev`.
pub fn row_hash(prev: &str, seq: i64, created_at: i64, r: &Record<'_>) -> String {
    let canonical = serde_json::json!([seq, created_at, r.actor, r.action, r.subject, r.details]).to_string();
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    h.update(b"\n");
    h.update(canonical.as_bytes());
    hex::encode(h.finalize())
}

/// Appends `r` at the end of the chain, on `conn`, which must be inside the transaction of
/// the change recorded (the head's lock is held until it commits; a rollback takes the row
/// and its place back together).
pub async fn append(conn: &mut AnyConnection, r: &Record<'_>, now: i64) -> Result<Appended, sqlx::Error> {
    let head = sqlx::query("UPDATE audit_head SET seq = seq + 1 WHERE id = 1 RETURNING seq, hash").fetch_one(&mut *conn).await?;
    let (seq, prev): (i64, String) = (head.try_get(0)?, head.try_get(1)?);
    let hash = row_hash(&prev, seq, now, r);
    let id = next_id();
    sqlx::query(
        "INSERT INTO audit_log (id, actor, action, subject, details, created_at, seq, prev_hash, hash) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(id)
    .bind(r.actor)
    .bind(r.action)
    .bind(r.subject)
    .bind(r.details)
    .bind(now)
    .bind(seq)
    .bind(&prev)
    .bind(&hash)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE audit_head SET hash = $1 WHERE id = 1").bind(&hash).execute(&mut *conn).await?;
    Ok(Appended { id, seq, hash })
}

/// Appends `r` in a transaction of its own on `db`'s writer (an action whose change is not in
/// this database transaction, or that changes nothing but must be recorded).
pub async fn append_alone(db: &crate::Db, r: &Record<'_>) -> Result<Appended, sqlx::Error> {
    let mut tx = db.writer().begin().await?;
    let done = append(&mut *tx, r, kernel::clock::now_ms()).await?;
    tx.commit().await?;
    Ok(done)
}

/// Chains the rows written without a place, in the order they were written (`created_at`,
/// then id), in one transaction. Run once, by the migration run that creates the chain (the
/// rows written before it); never again on its own, so a row written around the chain later
/// stays outside it. Returns how many rows it chained.
pub async fn adopt(conn: &mut AnyConnection) -> Result<u64, sqlx::Error> {
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    let rows = sqlx::query("SELECT id, actor, action, subject, details, created_at FROM audit_log WHERE seq IS NULL ORDER BY created_at, id")
        .fetch_all(&mut *tx)
        .await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let head = sqlx::query("SELECT seq, hash FROM audit_head WHERE id = 1").fetch_one(&mut *tx).await?;
    let (mut seq, mut prev): (i64, String) = (head.try_get(0)?, head.try_get(1)?);
    for row in &rows {
        let (id, actor, action, subject, details, created_at): (i64, String, String, String, String, i64) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?, row.try_get(3)?, row.try_get(4)?, row.try_get(5)?);
        seq += 1;
        let hash = row_hash(&prev, seq, created_at, &Record { actor: &actor, action: &action, subject: &subject, details: &details });
        sqlx::query("UPDATE audit_log SET seq = $1, prev_hash = $2, hash = $3 WHERE id = $4 AND seq IS NULL")
            .bind(seq)
            .bind(&prev)
            .bind(&hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        prev = hash;
    }
    sqlx::query("UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1").bind(seq).bind(&prev).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(rows.len() as u64)
}

/// What [`verify`] found.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Report {
    /// Chained rows checked.
    pub rows: i64,
    /// The head's place and hash.
    pub head_seq: i64,
    pub head_hash: String,
    /// Rows with no place in the chain (written around it).
    pub unchained: i64,
    /// Where the chain breaks first, and why; `None` when it holds.
    pub first_break: Option<Break>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Break {
    pub seq: i64,
    pub reason: String,
}

impl Report {
    pub fn is_consistent(&self) -> bool {
        self.first_break.is_none() && self.unchained == 0
    }
}

/// Recomputes the chain from its first row (streamed in `seq` order: memory stays flat).
pub async fn verify(db: &crate::Db) -> Result<Report, sqlx::Error> {
    use futures::TryStreamExt;
    let head = sqlx::query("SELECT seq, hash FROM audit_head WHERE id = 1").fetch_one(db.reader()).await?;
    let mut report = Report { head_seq: head.try_get(0)?, head_hash: head.try_get(1)?, ..Report::default() };
    report.unchained = sqlx::query("SELECT COUNT(*) FROM audit_log WHERE seq IS NULL").fetch_one(db.reader()).await?.try_get(0)?;
    let mut rows = sqlx::query(
        "SELECT seq, prev_hash, hash, actor, action, subject, details, created_at FROM audit_log WHERE seq IS NOT NULL ORDER BY seq",
    )
    .fetch(db.reader());
    let (mut expected, mut prev) = (1i64, GENESIS.to_string());
    while let Some(row) = rows.try_next().await? {
        let (seq, prev_hash, hash): (i64, String, String) = (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        let (actor, action, subject, details, created_at): (String, String, String, String, i64) =
            (row.try_get(3)?, row.try_get(4)?, row.try_get(5)?, row.try_get(6)?, row.try_get(7)?);
        report.rows += 1;
        if report.first_break.is_some() {
            continue;
        }
        let reason = if seq != expected {
            Some(format!("row {expected} is missing (the next row is {seq})"))
        } else if prev_hash != prev {
            Some("its previous hash is not the hash of the row before it".to_string())
        } else if row_hash(&prev, seq, created_at, &Record { actor: &actor, action: &action, subject: &subject, details: &details }) != hash {
            Some("its content does not match its hash (changed after it was written)".to_string())
        } else {
            None
        };
        if let Some(reason) = reason {
            report.first_break = Some(Break { seq: expected.min(seq), reason });
        }
        expected = seq + 1;
        prev = hash;
    }
    if report.first_break.is_none() && (report.head_seq != expected - 1 || report.head_hash != prev) {
        report.first_break = Some(Break {
            seq: expected,
            reason: format!("the head names row {} but the chain ends at row {}", report.head_seq, expected - 1),
        });
    }
    Ok(report)
}

/// Which rows [`page`] reads: each field narrows (exact match; `action` ending in `.` matches
/// every action under it, `promo.` for `promo.code.create`…).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub actor: Option<String>,
    pub action: Option<String>,
    pub subject: Option<String>,
}

/// One chained row as read back.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Chained {
    pub seq: i64,
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub details: String,
    pub created_at: i64,
    pub prev_hash: String,
    pub hash: String,
}

/// Up to `limit` chained rows matching `filter`, newest first, with `seq` below `before` when
/// given (keyset paging: the next page starts before the last row's `seq`).
pub async fn page(db: &crate::Db, filter: &Filter, before: Option<i64>, limit: i64) -> Result<Vec<Chained>, sqlx::Error> {
    let mut sql = String::from(
        "SELECT seq, actor, action, subject, details, created_at, prev_hash, hash FROM audit_log WHERE seq IS NOT NULL",
    );
    let mut binds: Vec<BindValue> = Vec::new();
    let mut arg = |sql: &mut String, cond: &str, v: BindValue| {
        binds.push(v);
        sql.push_str(&cond.replace('?', &format!("${}", binds.len())));
    };
    if let Some(a) = &filter.actor {
        arg(&mut sql, " AND actor = ?", BindValue::Text(a.clone()));
    }
    if let Some(s) = &filter.subject {
        arg(&mut sql, " AND subject = ?", BindValue::Text(s.clone()));
    }
    match &filter.action {
        Some(a) if a.ends_with('.') => {
            // A prefix as a range (no LIKE: `_` is a wildcard there).
            let mut to = a.clone();
            to.pop();
            to.push('/');
            arg(&mut sql, " AND action >= ?", BindValue::Text(a.clone()));
            arg(&mut sql, " AND action < ?", BindValue::Text(to));
        }
        Some(a) => arg(&mut sql, " AND action = ?", BindValue::Text(a.clone())),
        None => {}
    }
    if let Some(b) = before {
        arg(&mut sql, " AND seq < ?", BindValue::Int(b));
    }
    arg(&mut sql, " ORDER BY seq DESC LIMIT ?", BindValue::Int(limit.clamp(1, 500)));
    let mut q = sqlx::query(&sql);
    for b in &binds {
        q = match b {
            BindValue::Text(t) => q.bind(t.as_str()),
            BindValue::Int(i) => q.bind(*i),
        };
    }
    let rows = q.fetch_all(db.reader()).await?;
    rows.iter()
        .map(|r| {
            Ok(Chained {
                seq: r.try_get(0)?,
                actor: r.try_get(1)?,
                action: r.try_get(2)?,
                subject: r.try_get(3)?,
                details: r.try_get(4)?,
                created_at: r.try_get(5)?,
                prev_hash: r.try_get(6)?,
                hash: r.try_get(7)?,
            })
        })
        .collect()
}

enum BindValue {
    Text(String),
    Int(i64),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec<'a>(details: &'a str) -> Record<'a> {
        Record { actor: "admin:1", action: "player.ban", subject: "user:7", details }
    }

    #[test]
    fn a_row_hash_covers_every_field_and_its_predecessor() {
        let base = row_hash(GENESIS, 1, 1_000, &rec("{}"));
        assert_eq!(base.len(), 64);
        assert_eq!(base, row_hash(GENESIS, 1, 1_000, &rec("{}")), "deterministic");
        assert_ne!(base, row_hash(GENESIS, 2, 1_000, &rec("{}")));
        assert_ne!(base, row_hash(GENESIS, 1, 1_001, &rec("{}")));
        assert_ne!(base, row_hash(GENESIS, 1, 1_000, &rec("{\"x\":1}")));
        assert_ne!(base, row_hash(&base, 1, 1_000, &rec("{}")));
        let moved = Record { actor: "admin:1player.ban", action: "", subject: "user:7", details: "{}" };
        assert_ne!(base, row_hash(GENESIS, 1, 1_000, &moved), "fields cannot slide into each other");
    }
}
