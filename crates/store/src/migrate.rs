//! The one migration tree (`crates/store/migrations/NNNN_name.sql`), written in the SQL
//! subset both databases accept, applied in order, each file in its own transaction.

use crate::{dialect, Db, StoreError};
use kernel::clock::now_ms;
use sqlx::Row;

pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration { version: 1, name: "accounts", sql: include_str!("../migrations/0001_accounts.sql") },
    Migration { version: 2, name: "wallet", sql: include_str!("../migrations/0002_wallet.sql") },
    Migration { version: 3, name: "content", sql: include_str!("../migrations/0003_content.sql") },
    Migration { version: 4, name: "sms_quota", sql: include_str!("../migrations/0004_sms_quota.sql") },
    Migration { version: 5, name: "casino", sql: include_str!("../migrations/0005_casino.sql") },
    Migration { version: 6, name: "studio", sql: include_str!("../migrations/0006_studio.sql") },
    Migration { version: 7, name: "crash", sql: include_str!("../migrations/0007_crash.sql") },
    Migration { version: 8, name: "ledger_reversals", sql: include_str!("../migrations/0008_ledger_reversals.sql") },
    Migration { version: 9, name: "sessions_outbox", sql: include_str!("../migrations/0009_sessions_outbox.sql") },
    Migration { version: 10, name: "catalogue_texts", sql: include_str!("../migrations/0010_catalogue_texts.sql") },
    Migration { version: 11, name: "payments", sql: include_str!("../migrations/0011_payments.sql") },
    Migration { version: 12, name: "cashier", sql: include_str!("../migrations/0012_cashier.sql") },
    Migration { version: 13, name: "rg", sql: include_str!("../migrations/0013_rg.sql") },
    Migration { version: 14, name: "sportsbook", sql: include_str!("../migrations/0014_sportsbook.sql") },
    Migration { version: 15, name: "partner_signatures", sql: include_str!("../migrations/0015_partner_signatures.sql") },
    Migration { version: 17, name: "sportsbook_fixtures", sql: include_str!("../migrations/0017_sportsbook_fixtures.sql") },
    Migration { version: 18, name: "promotions", sql: include_str!("../migrations/0018_promotions.sql") },
    Migration { version: 19, name: "cashback_coupons", sql: include_str!("../migrations/0019_cashback_coupons.sql") },
    Migration { version: 20, name: "jackpots", sql: include_str!("../migrations/0020_jackpots.sql") },
    Migration { version: 23, name: "sport_wagering_rakeback", sql: include_str!("../migrations/0023_sport_wagering_rakeback.sql") },
    Migration { version: 25, name: "wager_terms", sql: include_str!("../migrations/0025_wager_terms.sql") },
    Migration { version: 26, name: "rate_limits", sql: include_str!("../migrations/0026_rate_limits.sql") },
    Migration { version: 27, name: "deposit_bonus_choice", sql: include_str!("../migrations/0027_deposit_bonus_choice.sql") },
    Migration { version: 28, name: "drop_bonus_wagering", sql: include_str!("../migrations/0028_drop_bonus_wagering.sql") },
    Migration { version: 29, name: "virtual_races", sql: include_str!("../migrations/0029_virtual_races.sql") },
    Migration { version: 30, name: "provider_catalogue", sql: include_str!("../migrations/0030_provider_catalogue.sql") },
    Migration { version: 31, name: "duty_leases", sql: include_str!("../migrations/0031_duty_leases.sql") },
    Migration { version: 33, name: "relay_snapshots", sql: include_str!("../migrations/0033_relay_snapshots.sql") },
    Migration { version: 34, name: "ledger_entries_unreferenced", sql: include_str!("../migrations/0034_ledger_entries_unreferenced.sql") },
    Migration { version: 35, name: "audit_chain", sql: include_str!("../migrations/0035_audit_chain.sql") },
    Migration { version: 36, name: "adjust_requests", sql: include_str!("../migrations/0036_adjust_requests.sql") },
    Migration { version: 37, name: "staff_totp", sql: include_str!("../migrations/0037_staff_totp.sql") },
    Migration { version: 38, name: "player_notes", sql: include_str!("../migrations/0038_player_notes.sql") },
    Migration { version: 39, name: "report_rollups", sql: include_str!("../migrations/0039_report_rollups.sql") },
];

/// Splits a migration file into statements: they end with `;` at the end of a line.
/// (No statement of ours has `;` at a line end inside a string literal.)
fn statements(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in sql.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("--") || trimmed.is_empty() {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        if trimmed.ends_with(';') {
            let stmt = current.trim().trim_end_matches(';').trim().to_string();
            if !stmt.is_empty() {
                out.push(stmt);
            }
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

pub async fn run(db: &Db) -> Result<Vec<i64>, StoreError> {
    let mut conn = db.writer().acquire().await?;
    dialect::lock_migrations(db, &mut conn).await?;
    let mut result = apply_pending(&mut conn).await;
    if let Ok(done) = &result {
        // The audit trail's guards, and the chaining of the rows written before it, under the
        // same lock. Only the run that creates the chain adopts rows: a row written around
        // the chain later (a binary older than migration 35 in a rolling upgrade, or a forged
        // row) stays outside it, where `carthage audit verify` reports it.
        if let Err(e) = finish_audit(db, &mut conn, done.contains(&AUDIT_CHAIN)).await {
            result = Err(e);
        }
    }
    dialect::unlock_migrations(db, &mut conn).await?;
    result
}

/// The migration that creates the audit chain.
const AUDIT_CHAIN: i64 = 35;

async fn finish_audit(db: &Db, conn: &mut sqlx::AnyConnection, adopt: bool) -> Result<(), StoreError> {
    dialect::protect_audit(db, conn).await?;
    if adopt {
        let adopted = crate::audit::adopt(conn).await?;
        tracing::info!(rows = adopted, "the audit rows written before the chain were chained");
    }
    Ok(())
}

async fn apply_pending(conn: &mut sqlx::AnyConnection) -> Result<Vec<i64>, StoreError> {
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    )
    .execute(&mut *conn)
    .await?;
    let rows = sqlx::query("SELECT version FROM schema_migrations").fetch_all(&mut *conn).await?;
    let applied: Vec<i64> = rows.iter().map(|r| r.get::<i64, _>(0)).collect();
    let mut done = Vec::new();
    for m in MIGRATIONS {
        if applied.contains(&m.version) {
            continue;
        }
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        for stmt in statements(m.sql) {
            sqlx::query(&stmt)
                .execute(&mut *tx)
                .await
                .map_err(|source| StoreError::Migration { version: m.version, source })?;
        }
        sqlx::query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)")
            .bind(m.version)
            .bind(m.name)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(version = m.version, name = m.name, "migration applied");
        done.push(m.version);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_statements() {
        let s = statements("-- c\nCREATE TABLE a (x BIGINT);\n\nCREATE INDEX i\n  ON a(x);\n");
        assert_eq!(s, vec!["CREATE TABLE a (x BIGINT)", "CREATE INDEX i\n  ON a(x)"]);
    }

    #[test]
    fn versions_increase() {
        for w in MIGRATIONS.windows(2) {
            assert!(w[0].version < w[1].version);
        }
    }
}
