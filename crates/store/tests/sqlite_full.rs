//! SQLite rolls a whole transaction back by itself when the disk is full (`SQLITE_FULL`);
//! sqlx's own `ROLLBACK` then fails and its transaction count stays at 1. The pool must not
//! hand that connection out again: its next `begin()` would be a `SAVEPOINT`, its `commit()`
//! a `RELEASE`, and after one rolled-back savepoint every later commit would stay inside a
//! transaction that is never committed (answered as durable, lost at shutdown) — what the
//! disk-full fault test (tests/faults, issue 21 §4) found. A full disk is simulated with
//! `PRAGMA max_page_count` on the writer connection.

use store::sqlx::{self, Row};
use store::testing::TestDb;
use store::Backend;

#[tokio::test]
async fn a_transaction_sqlite_rolled_back_on_a_full_disk_leaves_later_commits_durable() {
    let (t, db) = TestDb::migrated(Backend::Sqlite).await.unwrap();
    sqlx::query("CREATE TABLE full_t (id BIGINT PRIMARY KEY, v TEXT NOT NULL)").execute(db.writer()).await.unwrap();
    let pages: i64 = sqlx::query("PRAGMA page_count").fetch_one(db.writer()).await.unwrap().get(0);
    // The disk is "full" a few pages from now (the writer pool has one connection).
    sqlx::query(&format!("PRAGMA max_page_count = {}", pages + 4)).execute(db.writer()).await.unwrap();

    // A big transaction fails with SQLITE_FULL; SQLite rolls it back by itself.
    let mut tx = db.writer().begin().await.unwrap();
    let mut failed = None;
    for i in 0..10_000i64 {
        if let Err(e) = sqlx::query("INSERT INTO full_t (id, v) VALUES ($1, $2)").bind(i).bind("x".repeat(500)).execute(&mut *tx).await {
            failed = Some(e);
            break;
        }
    }
    let e = failed.expect("the insert fails once the pages are used");
    assert!(e.to_string().contains("full"), "{e}");
    assert!(tx.rollback().await.is_err(), "SQLite already rolled the transaction back");

    // Space returns (a replaced connection has no limit; the same one would need this).
    let _ = sqlx::query("PRAGMA max_page_count = 1073741823").execute(db.writer()).await;
    // A transaction refused by the application (rolled back), then one committed.
    let mut tx = db.writer().begin().await.unwrap();
    sqlx::query("INSERT INTO full_t (id, v) VALUES (-1, 'refused')").execute(&mut *tx).await.unwrap();
    tx.rollback().await.unwrap();
    let mut tx = db.writer().begin().await.unwrap();
    sqlx::query("INSERT INTO full_t (id, v) VALUES (-2, 'committed')").execute(&mut *tx).await.unwrap();
    tx.commit().await.unwrap();
    // Two more after it, the way a busy writer goes on.
    for id in [-3i64, -4] {
        let mut tx = db.writer().begin().await.unwrap();
        sqlx::query("INSERT INTO full_t (id, v) VALUES ($1, 'committed')").bind(id).execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
    }

    // Durable: another connection (a reader, then a new process's connection) sees them.
    let seen: Vec<i64> = sqlx::query("SELECT id FROM full_t ORDER BY id").fetch_all(db.reader()).await.unwrap().iter().map(|r| r.get(0)).collect();
    assert_eq!(seen, vec![-4, -3, -2], "the commits after the full disk are visible to other connections");
    db.close().await;
    let again = store::Db::connect(&t.url).await.unwrap();
    let n: i64 = sqlx::query("SELECT COUNT(*) FROM full_t").fetch_one(again.reader()).await.unwrap().get(0);
    assert_eq!(n, 3, "and survive a restart");
    again.close().await;
    t.cleanup().await;
}
