//! `ledger verify`: every cached balance equals the sum of its entries, no player balance
//! is negative, every transaction has at least two entries and sums to zero per currency.

use crate::LedgerError;
use serde::Serialize;
use store::sqlx::{self, Row};
use store::Db;

#[derive(Debug, Clone, Default, Serialize)]
pub struct VerifyReport {
    pub accounts: i64,
    pub transactions: i64,
    pub entries: i64,
    /// `(account id, cached balance, sum of entries)` that disagree.
    pub balance_mismatches: Vec<(i64, i64, i64)>,
    pub negative_balances: Vec<i64>,
    /// `(transaction id, currency, sum)` that are not zero.
    pub unbalanced_transactions: Vec<(i64, String, i64)>,
    /// Transactions with fewer than two entries (tombstones have none by design).
    pub incomplete_transactions: Vec<i64>,
}

impl VerifyReport {
    pub fn is_consistent(&self) -> bool {
        self.balance_mismatches.is_empty()
            && self.negative_balances.is_empty()
            && self.unbalanced_transactions.is_empty()
            && self.incomplete_transactions.is_empty()
    }
}

async fn count(db: &Db, table: &str) -> Result<i64, LedgerError> {
    Ok(sqlx::query(&format!("SELECT CAST(COUNT(*) AS BIGINT) FROM {table}")).fetch_one(db.reader()).await?.get(0))
}

pub async fn run(db: &Db) -> Result<VerifyReport, LedgerError> {
    let mut report = VerifyReport {
        accounts: count(db, "ledger_accounts").await?,
        transactions: count(db, "ledger_transactions").await?,
        entries: count(db, "ledger_entries").await?,
        ..Default::default()
    };
    let rows = sqlx::query(
        "SELECT a.id, a.balance, CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) AS total \
         FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id \
         WHERE a.is_house = 0 GROUP BY a.id, a.balance \
         HAVING a.balance <> CAST(COALESCE(SUM(e.amount), 0) AS BIGINT)",
    )
    .fetch_all(db.reader())
    .await?;
    report.balance_mismatches = rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect();
    let rows = sqlx::query("SELECT id FROM ledger_accounts WHERE is_house = 0 AND balance < 0").fetch_all(db.reader()).await?;
    report.negative_balances = rows.iter().map(|r| r.get(0)).collect();
    let rows = sqlx::query(
        "SELECT e.tx_id, a.currency, CAST(SUM(e.amount) AS BIGINT) FROM ledger_entries e \
         JOIN ledger_accounts a ON a.id = e.account_id GROUP BY e.tx_id, a.currency \
         HAVING CAST(SUM(e.amount) AS BIGINT) <> 0",
    )
    .fetch_all(db.reader())
    .await?;
    report.unbalanced_transactions = rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect();
    let rows = sqlx::query(
        "SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.tx_id = t.id \
         WHERE t.tx_type <> $1 GROUP BY t.id HAVING COUNT(e.id) < 2",
    )
    .bind(crate::TxType::Tombstone.code())
    .fetch_all(db.reader())
    .await?;
    report.incomplete_transactions = rows.iter().map(|r| r.get(0)).collect();
    Ok(report)
}
