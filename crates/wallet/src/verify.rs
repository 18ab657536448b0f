//! `ledger verify`: every cached balance equals the sum of its entries, no player balance
//! is negative, every transaction has at least two entries and sums to zero per currency,
//! and reversals keep their rules: every rollback names the bet, win or tombstone it
//! cancels, cancels it exactly (its entries negate the original's, account by account),
//! and no transaction is reversed twice. A repeated rollback takes its money from a house
//! account, so the sums alone stay green: these checks are what catch it.

use crate::{LedgerError, TxType};
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
    /// `(rollback transaction id, what is wrong)`: not linked to what it cancels, linked to
    /// something that is not a bet, a win or a tombstone, a second reversal of the same
    /// transaction, or entries that do not negate the original's.
    pub reversal_errors: Vec<(i64, String)>,
    /// Entries whose transaction or account does not exist (the entries keep no foreign
    /// keys: only the ledger writes them, and this is the check).
    pub orphan_entries: Vec<i64>,
}

impl VerifyReport {
    pub fn is_consistent(&self) -> bool {
        self.balance_mismatches.is_empty()
            && self.negative_balances.is_empty()
            && self.unbalanced_transactions.is_empty()
            && self.incomplete_transactions.is_empty()
            && self.reversal_errors.is_empty()
            && self.orphan_entries.is_empty()
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
    // Tombstones and the rollbacks that left them move nothing; every other transaction has
    // at least two entries (a zero-amount record has two zero entries).
    let rows = sqlx::query(
        "SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.tx_id = t.id \
         LEFT JOIN ledger_transactions o ON o.id = t.reverses_tx_id \
         WHERE t.tx_type <> $1 AND NOT (t.tx_type = $2 AND o.tx_type = $1) GROUP BY t.id HAVING COUNT(e.id) < 2",
    )
    .bind(TxType::Tombstone.code())
    .bind(TxType::Rollback.code())
    .fetch_all(db.reader())
    .await?;
    report.incomplete_transactions = rows.iter().map(|r| r.get(0)).collect();
    report.reversal_errors = reversal_errors(db).await?;
    let rows = sqlx::query(
        "SELECT e.id FROM ledger_entries e LEFT JOIN ledger_transactions t ON t.id = e.tx_id \
         LEFT JOIN ledger_accounts a ON a.id = e.account_id WHERE t.id IS NULL OR a.id IS NULL ORDER BY e.id LIMIT 1000",
    )
    .fetch_all(db.reader())
    .await?;
    report.orphan_entries = rows.iter().map(|r| r.get(0)).collect();
    Ok(report)
}

async fn reversal_errors(db: &Db) -> Result<Vec<(i64, String)>, LedgerError> {
    let (rollback, tombstone) = (TxType::Rollback.code(), TxType::Tombstone.code());
    let mut out = Vec::new();
    // Every rollback names an existing bet, win or tombstone (casino or partner sportsbook:
    // the reversible types of `posting::is_reversible`).
    let rows = sqlx::query(
        "SELECT r.id, r.reverses_tx_id, o.tx_type FROM ledger_transactions r \
         LEFT JOIN ledger_transactions o ON o.id = r.reverses_tx_id WHERE r.tx_type = $1 \
         AND (o.id IS NULL OR o.tx_type NOT IN ($2, $3, $4, $5, $6))",
    )
    .bind(rollback)
    .bind(TxType::BetStake.code())
    .bind(TxType::BetWin.code())
    .bind(tombstone)
    .bind(TxType::PartnerSportStake.code())
    .bind(TxType::PartnerSportPayout.code())
    .fetch_all(db.reader())
    .await?;
    for r in rows {
        let (id, target, target_type): (i64, Option<i64>, Option<i64>) = (r.get(0), r.get(1), r.get(2));
        out.push((
            id,
            match (target, target_type) {
                (None, _) => "not linked to the transaction it cancels".to_string(),
                (Some(t), None) => format!("cancels transaction {t}, which does not exist"),
                (Some(t), Some(ty)) => format!("cancels transaction {t} of type {ty}, which is not a bet or a win"),
            },
        ));
    }
    // No transaction is reversed twice (the unique index says so; a copied or hand-edited
    // database may not have it).
    let rows = sqlx::query(
        "SELECT reverses_tx_id, CAST(COUNT(*) AS BIGINT) FROM ledger_transactions WHERE tx_type = $1 AND reverses_tx_id IS NOT NULL \
         GROUP BY reverses_tx_id HAVING COUNT(*) > 1",
    )
    .bind(rollback)
    .fetch_all(db.reader())
    .await?;
    for r in rows {
        let (target, n): (i64, i64) = (r.get(0), r.get(1));
        out.push((target, format!("transaction {target} is reversed {n} times")));
    }
    // A reversal negates its original exactly, account by account (a tombstone's rollback:
    // no entries on either side).
    let rows = sqlx::query(
        "SELECT x.rid, x.acc, CAST(SUM(x.amt) AS BIGINT) FROM ( \
           SELECT r.id AS rid, e.account_id AS acc, e.amount AS amt FROM ledger_transactions r \
             JOIN ledger_entries e ON e.tx_id = r.id WHERE r.tx_type = $1 \
           UNION ALL \
           SELECT r.id AS rid, e.account_id AS acc, e.amount AS amt FROM ledger_transactions r \
             JOIN ledger_entries e ON e.tx_id = r.reverses_tx_id WHERE r.tx_type = $1 \
         ) x GROUP BY x.rid, x.acc HAVING CAST(SUM(x.amt) AS BIGINT) <> 0",
    )
    .bind(rollback)
    .fetch_all(db.reader())
    .await?;
    for r in rows {
        let (id, account, sum): (i64, i64, i64) = (r.get(0), r.get(1), r.get(2));
        out.push((id, format!("does not cancel its original on account {account} (net {sum})")));
    }
    out.sort();
    out.dedup();
    Ok(out)
}
