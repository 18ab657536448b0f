//! The staff audit trail (crates/store/src/audit.rs): appended in the change's transaction,
//! chained without gaps under concurrent appends, guarded by triggers, and every kind of
//! tampering found by `verify` at the place it happened. Both databases (PostgreSQL when
//! `TEST_DATABASE_URL` is set).

use store::audit::{self, Filter, Record};
use store::sqlx::{self, Row};
use store::testing::with_each_backend;
use store::{Backend, Db};

fn rec<'a>(action: &'a str, subject: &'a str, details: &'a str) -> Record<'a> {
    Record { actor: "admin:1", action, subject, details }
}

async fn exec(db: &Db, sql: &str) -> Result<u64, sqlx::Error> {
    sqlx::query(sql).execute(db.writer()).await.map(|r| r.rows_affected())
}

async fn scalar(db: &Db, sql: &str) -> i64 {
    sqlx::query(sql).fetch_one(db.reader()).await.unwrap().get::<i64, _>(0)
}

/// Drops the guards, as someone holding the database could.
async fn drop_guards(db: &Db) {
    match db.backend() {
        Backend::Sqlite => {
            exec(db, "DROP TRIGGER audit_log_no_update").await.unwrap();
            exec(db, "DROP TRIGGER audit_log_no_delete").await.unwrap();
        }
        Backend::Postgres => {
            exec(db, "DROP TRIGGER audit_log_append_only ON audit_log").await.unwrap();
        }
    }
}

#[tokio::test]
async fn appends_chain_without_gaps_and_verify_finds_every_tampering() {
    with_each_backend(|db| async move {
        // Rows written around the chain are reported, and a later migration run does not
        // make them part of it.
        for (i, at) in [(1, 300), (2, 100), (3, 200)] {
            exec(&db, &format!("INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES ({i}, 'cli:old', 'legacy', 'user:{i}', '{{}}', {at})"))
                .await
                .unwrap();
        }
        let report = audit::verify(&db).await.unwrap();
        assert_eq!((report.unchained, report.is_consistent()), (3, false));
        db.migrate().await.unwrap();
        assert_eq!(audit::verify(&db).await.unwrap().unchained, 3, "not adopted by a later run");
        // The run that creates the chain adopts what was written before it, in writing order.
        let mut conn = db.writer().acquire().await.unwrap();
        assert_eq!(audit::adopt(&mut conn).await.unwrap(), 3);
        drop(conn);
        let order: Vec<i64> = sqlx::query("SELECT id FROM audit_log ORDER BY seq").fetch_all(db.reader()).await.unwrap().iter().map(|r| r.get(0)).collect();
        assert_eq!(order, vec![2, 3, 1], "chained in the order they were written");
        assert_eq!(scalar(&db, "SELECT seq FROM audit_head").await, 3);
        assert!(audit::verify(&db).await.unwrap().is_consistent());

        // 24 concurrent appends, each in its own transaction; two more roll back.
        let mut tasks = Vec::new();
        for n in 0..24 {
            let db = db.clone();
            tasks.push(tokio::spawn(async move {
                let mut tx = db.writer().begin().await.unwrap();
                let subject = format!("user:{n}");
                let done = audit::append(&mut *tx, &rec("player.ban", &subject, "{\"before\":\"active\",\"after\":\"banned\"}"), 1_000 + n).await.unwrap();
                tx.commit().await.unwrap();
                done.seq
            }));
        }
        for n in 0..2 {
            let mut tx = db.writer().begin().await.unwrap();
            audit::append(&mut *tx, &rec("undone", &format!("user:{n}"), "{}"), 5).await.unwrap();
            tx.rollback().await.unwrap();
        }
        let mut seqs = Vec::new();
        for t in tasks {
            seqs.push(t.await.unwrap());
        }
        seqs.sort_unstable();
        assert_eq!(seqs, (4..=27).collect::<Vec<i64>>(), "one place each, no gap, none taken by a rollback");
        let alone = audit::append_alone(&db, &rec("settings.edit", "settings:limits.bets", "{}")).await.unwrap();
        assert_eq!(alone.seq, 28);
        let report = audit::verify(&db).await.unwrap();
        assert!(report.is_consistent(), "{report:?}");
        assert_eq!((report.rows, report.head_seq, report.head_hash.as_str()), (28, 28, alone.hash.as_str()));

        // Paging newest first, and the filters.
        let first = audit::page(&db, &Filter::default(), None, 10).await.unwrap();
        assert_eq!(first.iter().map(|r| r.seq).collect::<Vec<_>>(), (19..=28).rev().collect::<Vec<i64>>());
        let next = audit::page(&db, &Filter::default(), Some(19), 10).await.unwrap();
        assert_eq!((next[0].seq, next.len()), (18, 10));
        let user3 = audit::page(&db, &Filter { subject: Some("user:3".into()), ..Filter::default() }, None, 10).await.unwrap();
        assert_eq!(user3.iter().map(|r| r.action.as_str()).collect::<Vec<_>>(), vec!["player.ban", "legacy"]);
        let bans = audit::page(&db, &Filter { action: Some("player.".into()), ..Filter::default() }, None, 500).await.unwrap();
        assert_eq!(bans.len(), 24);
        let none = audit::page(&db, &Filter { action: Some("player".into()), actor: Some("admin:1".into()), ..Filter::default() }, None, 500).await.unwrap();
        assert!(none.is_empty(), "an action without its dot is an exact name");

        // The guards: a chained row is never changed or removed.
        assert!(exec(&db, "UPDATE audit_log SET details = '{\"x\":1}' WHERE seq = 5").await.is_err(), "update refused");
        assert!(exec(&db, "DELETE FROM audit_log WHERE seq = 28").await.is_err(), "delete refused");
        if db.backend() == Backend::Postgres {
            assert!(exec(&db, "TRUNCATE audit_log").await.is_err(), "truncate refused");
        }
        assert!(audit::verify(&db).await.unwrap().is_consistent());

        // Someone who drops the guards: each change shows at its place.
        drop_guards(&db).await;
        exec(&db, "UPDATE audit_log SET details = '{\"before\":\"active\",\"after\":\"active\"}' WHERE seq = 9").await.unwrap();
        let b = audit::verify(&db).await.unwrap().first_break.expect("a changed row");
        assert_eq!(b.seq, 9, "{b:?}");
        assert!(b.reason.contains("content"), "{b:?}");

        // Its hash recomputed to match: the next row no longer follows it.
        let r = sqlx::query("SELECT prev_hash, actor, action, subject, details, created_at FROM audit_log WHERE seq = 9").fetch_one(db.reader()).await.unwrap();
        let (prev, actor, action, subject, details, at): (String, String, String, String, String, i64) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5));
        let forged = audit::row_hash(&prev, 9, at, &Record { actor: &actor, action: &action, subject: &subject, details: &details });
        exec(&db, &format!("UPDATE audit_log SET hash = '{forged}' WHERE seq = 9")).await.unwrap();
        let b = audit::verify(&db).await.unwrap().first_break.expect("a re-hashed row");
        assert_eq!(b.seq, 10, "{b:?}");
        assert!(b.reason.contains("previous hash"), "{b:?}");
        exec(&db, "UPDATE audit_log SET details = '{\"before\":\"active\",\"after\":\"banned\"}' WHERE seq = 9").await.unwrap();
        let original = audit::row_hash(&prev, 9, at, &Record { actor: &actor, action: &action, subject: &subject, details: "{\"before\":\"active\",\"after\":\"banned\"}" });
        exec(&db, &format!("UPDATE audit_log SET hash = '{original}' WHERE seq = 9")).await.unwrap();
        assert!(audit::verify(&db).await.unwrap().is_consistent(), "put back as it was");

        // A removed row in the middle, then at the end.
        exec(&db, "DELETE FROM audit_log WHERE seq = 20").await.unwrap();
        let b = audit::verify(&db).await.unwrap().first_break.expect("a removed row");
        assert_eq!(b.seq, 20, "{b:?}");
        assert!(b.reason.contains("missing"), "{b:?}");
        exec(&db, "DELETE FROM audit_log WHERE seq >= 20").await.unwrap();
        let b = audit::verify(&db).await.unwrap().first_break.expect("the tail removed");
        assert!(b.reason.contains("head"), "{b:?}");

        // A row slipped in around the chain.
        exec(&db, "UPDATE audit_head SET seq = 19, hash = (SELECT hash FROM audit_log WHERE seq = 19)").await.unwrap();
        assert!(audit::verify(&db).await.unwrap().is_consistent());
        exec(&db, "INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES (99, 'x', 'forged', 'user:1', '{}', 1)").await.unwrap();
        db.migrate().await.unwrap();
        let report = audit::verify(&db).await.unwrap();
        assert_eq!((report.unchained, report.is_consistent()), (1, false), "a forged row stays outside the chain");
    })
    .await;
}
