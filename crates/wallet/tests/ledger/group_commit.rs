//! The group-commit writers under adversity (issue 21 §2): a posting that fails inside a
//! batch fails alone; on PostgreSQL, a batch that loses a deadlock or a serialization
//! failure runs again and every posting lands exactly once; idempotency keys hold across
//! two instances (two `Ledger`s on two pools, each with its writers) retrying at once.
//! The PostgreSQL tests run when `TEST_DATABASE_URL` is set. A module of the ledger's test
//! binary: the postings and the consistency check are its (`main.rs`).

use crate::{assert_consistent, credit, debit, TND};
use futures::future::join_all;
use store::sqlx::{self, Row};
use store::testing::{with_each_backend, TestDb};
use store::{Backend, Db};
use wallet::*;

fn player(user_id: i64) -> AccountRef {
    AccountRef::Player { user_id, kind: BalanceKind::Real }
}

async fn transactions_under(db: &Db, key: &str) -> i64 {
    sqlx::query("SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key = $1").bind(key).fetch_one(db.reader()).await.unwrap().get(0)
}

/// A ledger on `db` whose players 1..=`players` hold 1,000 each (keys `fund-{u}`).
async fn funded(db: &Db, players: i64) -> Ledger {
    let ledger = Ledger::new(db.clone());
    for u in 1..=players {
        ledger.post(credit(u, 1_000, &format!("fund-{u}"))).await.unwrap();
    }
    ledger
}

/// A batch of plain postings, some that must fail (short of funds, a key reused with
/// another body) and repeats of a key with its own body: the failures fail alone, every
/// other posting commits, the repeats replay, and they did share batches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_posting_fails_alone_in_its_batch() {
    with_each_backend(|db| async move {
        let ledger = funded(&db, 40).await;
        let before = ledger.batch_counts();
        let mut calls = Vec::new();
        for u in 1..=40i64 {
            calls.push(debit(u, 100, &format!("ok-{u}")));
            if u % 4 == 0 {
                calls.push(debit(u, 5_000, &format!("short-{u}")));
            }
            if u % 5 == 0 {
                // The key of the player's funding, another body: a conflict.
                calls.push(credit(u, 999, &format!("fund-{u}")));
                // The same body again: a replay.
                calls.push(credit(u, 1_000, &format!("fund-{u}")));
            }
        }
        let results = join_all(calls.iter().cloned().map(|c| {
            let ledger = ledger.clone();
            async move { ledger.post(c).await }
        }))
        .await;
        for (call, result) in calls.iter().zip(&results) {
            let key = call.idempotency_key.as_str();
            match result {
                Ok(r) if key.starts_with("ok-") => assert!(!r.replayed, "{key}"),
                Ok(r) if key.starts_with("fund-") => {
                    assert!(r.replayed, "{key}");
                    assert_eq!(call.legs[1].amount, 1_000, "{key}: only the same body replays");
                }
                Err(LedgerError::Insufficient(_)) => assert!(key.starts_with("short-"), "{key}"),
                Err(LedgerError::IdempotencyConflict) => assert_eq!(call.legs[1].amount, 999, "{key}"),
                other => panic!("{key}: {other:?}"),
            }
        }
        for u in 1..=40 {
            assert_eq!(ledger.balance(u, BalanceKind::Real, TND).await.unwrap(), 900, "player {u}");
            assert_eq!(transactions_under(&db, &format!("short-{u}")).await, 0);
        }
        let after = ledger.batch_counts();
        assert!(after.largest > 1, "postings arriving together share a commit: {after:?}");
        assert!(after.batches - before.batches < results.len() as u64, "{before:?} → {after:?}");
        assert!(after.set_wise > before.set_wise, "plain postings go set-wise: {after:?}");
        assert!(ledger.writer_alive());
        assert_consistent(&ledger).await;
    })
    .await;
}

/// Attached work and all-or-none groups in a batch beside plain postings: the one that
/// declines or fails is undone alone (its posting too), the others commit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attached_work_that_declines_is_undone_alone_in_its_batch() {
    with_each_backend(|db| async move {
        sqlx::query("CREATE TABLE gc_rows (id BIGINT PRIMARY KEY)").execute(db.writer()).await.unwrap();
        let ledger = funded(&db, 20).await;
        let results = join_all((1..=20i64).map(|u| {
            let ledger = ledger.clone();
            async move {
                let keep = u % 3 != 0;
                let work = attached(move |conn| {
                    Box::pin(async move {
                        sqlx::query("INSERT INTO gc_rows (id) VALUES ($1)").bind(u).execute(&mut *conn).await?;
                        Ok(keep)
                    })
                });
                let with = ledger.post_with(debit(u, 100, &format!("with-{u}")), work).await;
                (u, keep, with)
            }
        }))
        .await;
        for (u, keep, result) in results {
            if keep {
                assert!(result.is_ok(), "{u}: {result:?}");
                assert_eq!(ledger.balance(u, BalanceKind::Real, TND).await.unwrap(), 900);
            } else {
                assert!(matches!(result, Err(LedgerError::Declined)), "{u}: {result:?}");
                assert_eq!(ledger.balance(u, BalanceKind::Real, TND).await.unwrap(), 1_000);
            }
        }
        let rows: i64 = sqlx::query("SELECT COUNT(*) FROM gc_rows").fetch_one(db.reader()).await.unwrap().get(0);
        assert_eq!(rows, 14, "the rows of the 14 kept postings, none of the 6 declined");
        assert_consistent(&ledger).await;
    })
    .await;
}

/// Rows given as data ([`RowSet`]) with their postings, each row under a unique key: a
/// batch writes the rows of its set-wise postings together; a double tap (two postings, one
/// row key) books one of the two and declines the other alone, its posting undone; a posting
/// short of funds writes no row; a replay writes nothing again.
struct KeyedRows {
    largest: std::sync::atomic::AtomicUsize,
}

impl RowSet for KeyedRows {
    type Row = (i64, String);

    fn write<'c>(&'c self, conn: &'c mut sqlx::AnyConnection, rows: Vec<&'c (i64, String)>) -> futures::future::BoxFuture<'c, Result<Vec<bool>, sqlx::Error>> {
        self.largest.fetch_max(rows.len(), std::sync::atomic::Ordering::SeqCst);
        Box::pin(async move {
            let mut written = Vec::new();
            for (user_id, key) in rows {
                let n = sqlx::query("INSERT INTO gc_set_rows (row_key, user_id) VALUES ($1, $2) ON CONFLICT (row_key) DO NOTHING")
                    .bind(key)
                    .bind(*user_id)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
                written.push(n == 1);
            }
            Ok(written)
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_as_data_are_written_with_their_postings_and_a_declined_row_undoes_its_own() {
    with_each_backend(|db| async move {
        sqlx::query("CREATE TABLE gc_set_rows (row_key VARCHAR(64) PRIMARY KEY, user_id BIGINT NOT NULL)").execute(db.writer()).await.unwrap();
        let ledger = funded(&db, 40).await;
        let set = std::sync::Arc::new(KeyedRows { largest: Default::default() });
        let post = |calls: Vec<(i64, String, i64, String)>| {
            let (ledger, set) = (ledger.clone(), set.clone());
            async move {
                let results = join_all(calls.iter().cloned().map(|(u, key, amount, row)| {
                    let (ledger, set) = (ledger.clone(), set.clone());
                    async move { ledger.post_with_rows(debit(u, amount, &key), AttachedRows::new(set, (u, row))).await }
                }))
                .await;
                calls.into_iter().zip(results).collect::<Vec<_>>()
            }
        };
        // One stake each: set-wise, the rows of several postings in one call.
        let before = ledger.batch_counts();
        for ((u, key, _, _), r) in post((1..=40i64).map(|u| (u, format!("bet-{u}"), 100, format!("row-{u}"))).collect()).await {
            assert!(r.as_ref().is_ok_and(|r| !r.replayed), "player {u} {key}: {r:?}");
        }
        let after = ledger.batch_counts();
        assert!(after.set_wise > before.set_wise, "the postings with rows went set-wise: {before:?} → {after:?}");
        assert!(set.largest.load(std::sync::atomic::Ordering::SeqCst) > 1, "rows of several postings were written in one call");
        // Double taps (two postings, one row key) and stakes short of funds, all at once.
        let mut calls = Vec::new();
        for u in 1..=40i64 {
            if u % 5 == 0 {
                calls.push((u, format!("tap-{u}-a"), 100, format!("tap-row-{u}")));
                calls.push((u, format!("tap-{u}-b"), 100, format!("tap-row-{u}")));
            }
            if u % 4 == 0 {
                calls.push((u, format!("short-{u}"), 5_000, format!("short-row-{u}")));
            }
        }
        let results = post(calls).await;
        for u in 1..=40i64 {
            let of = |prefix: &str| results.iter().filter(|((p, k, _, _), _)| *p == u && k.starts_with(prefix)).map(|(_, r)| r).collect::<Vec<_>>();
            let taps = of("tap-");
            if u % 5 == 0 {
                let booked = taps.iter().filter(|r| r.as_ref().is_ok_and(|r| !r.replayed)).count();
                let declined = taps.iter().filter(|r| matches!(r, Err(LedgerError::Declined))).count();
                assert_eq!((booked, declined), (1, 1), "player {u}: {taps:?}");
                let moved = transactions_under(&db, &format!("tap-{u}-a")).await + transactions_under(&db, &format!("tap-{u}-b")).await;
                assert_eq!(moved, 1, "player {u}: the declined twin left no transaction");
            }
            for short in of("short-") {
                assert!(matches!(short, Err(LedgerError::Insufficient(_))), "player {u}: {short:?}");
            }
            let expected = if u % 5 == 0 { 800 } else { 900 };
            assert_eq!(ledger.balance(u, BalanceKind::Real, TND).await.unwrap(), expected, "player {u}");
        }
        let rows: i64 = sqlx::query("SELECT COUNT(*) FROM gc_set_rows").fetch_one(db.reader()).await.unwrap().get(0);
        assert_eq!(rows, 48, "one row per booked posting (40 stakes, 8 taps), none for a declined or refused one");
        // A replay of a booked posting writes no row again (the row key is new: it would be
        // written if the set were called).
        let replay = ledger.post_with_rows(debit(1, 100, "bet-1"), AttachedRows::new(set.clone(), (1, "row-replay".into()))).await.unwrap();
        assert!(replay.replayed);
        let rows: i64 = sqlx::query("SELECT COUNT(*) FROM gc_set_rows").fetch_one(db.reader()).await.unwrap().get(0);
        assert_eq!(rows, 48);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// One stake with its row sent 20 times at once under one key (a retried request), and 20
/// stakes under 20 keys carrying one row key (a 20-fold tap): each moves money once and
/// writes one row; the 19 others replay (no row written again) or are declined (undone).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rows_as_data_raced_20_ways_book_once() {
    with_each_backend(|db| async move {
        sqlx::query("CREATE TABLE gc_set_rows (row_key VARCHAR(64) PRIMARY KEY, user_id BIGINT NOT NULL)").execute(db.writer()).await.unwrap();
        let ledger = funded(&db, 2).await;
        let set = std::sync::Arc::new(KeyedRows { largest: Default::default() });
        let race = |calls: Vec<(i64, String, String)>| {
            let (ledger, set) = (ledger.clone(), set.clone());
            async move {
                join_all(calls.into_iter().map(|(u, key, row)| {
                    let (ledger, set) = (ledger.clone(), set.clone());
                    tokio::spawn(async move { ledger.post_with_rows(debit(u, 100, &key), AttachedRows::new(set, (u, row))).await })
                }))
                .await
                .into_iter()
                .map(|r| r.unwrap())
                .collect::<Vec<_>>()
            }
        };
        let same_key = race((0..20).map(|i| (1, "retried".to_string(), format!("retried-row-{i}"))).collect()).await;
        let applied = same_key.iter().filter(|r| r.as_ref().is_ok_and(|r| !r.replayed)).count();
        let replayed = same_key.iter().filter(|r| r.as_ref().is_ok_and(|r| r.replayed)).count();
        assert_eq!((applied, replayed), (1, 19), "{same_key:?}");
        let taps = race((0..20).map(|i| (2, format!("tap-{i}"), "one-row".to_string())).collect()).await;
        let booked = taps.iter().filter(|r| r.as_ref().is_ok_and(|r| !r.replayed)).count();
        let declined = taps.iter().filter(|r| matches!(r, Err(LedgerError::Declined))).count();
        assert_eq!((booked, declined), (1, 19), "{taps:?}");
        assert_eq!(ledger.balance(1, BalanceKind::Real, TND).await.unwrap(), 900);
        assert_eq!(ledger.balance(2, BalanceKind::Real, TND).await.unwrap(), 900);
        let rows: i64 = sqlx::query("SELECT COUNT(*) FROM gc_set_rows").fetch_one(db.reader()).await.unwrap().get(0);
        assert_eq!(rows, 2, "one row for the retried stake, one for the taps");
        assert_eq!(transactions_under(&db, "retried").await, 1);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// Rows whose writer panics when given several at once: the batch's set-wise group is undone
/// and runs again one by one (one row each), every posting lands once, and the writer lives on.
struct PanicsOnMany;

impl RowSet for PanicsOnMany {
    type Row = i64;

    fn write<'c>(&'c self, conn: &'c mut sqlx::AnyConnection, rows: Vec<&'c i64>) -> futures::future::BoxFuture<'c, Result<Vec<bool>, sqlx::Error>> {
        Box::pin(async move {
            assert!(rows.len() == 1, "a row set that cannot take many");
            sqlx::query("INSERT INTO gc_one_rows (user_id) VALUES ($1)").bind(*rows[0]).execute(&mut *conn).await?;
            Ok(vec![true])
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_set_that_panics_in_a_batch_stops_no_writer() {
    with_each_backend(|db| async move {
        sqlx::query("CREATE TABLE gc_one_rows (user_id BIGINT PRIMARY KEY)").execute(db.writer()).await.unwrap();
        let ledger = funded(&db, 30).await;
        let set = std::sync::Arc::new(PanicsOnMany);
        let results = join_all((1..=30i64).map(|u| {
            let (ledger, set) = (ledger.clone(), set.clone());
            async move { ledger.post_with_rows(debit(u, 100, &format!("one-{u}")), AttachedRows::new(set, u)).await }
        }))
        .await;
        for (u, r) in (1..=30i64).zip(&results) {
            assert!(r.as_ref().is_ok_and(|r| !r.replayed), "player {u}: {r:?}");
            assert_eq!(ledger.balance(u, BalanceKind::Real, TND).await.unwrap(), 900, "player {u}");
        }
        let rows: i64 = sqlx::query("SELECT COUNT(*) FROM gc_one_rows").fetch_one(db.reader()).await.unwrap().get(0);
        assert_eq!(rows, 30);
        assert!(ledger.writer_alive());
        ledger.post(credit(1, 1, "after")).await.unwrap();
        assert_consistent(&ledger).await;
    })
    .await;
}

/// The writers stop as a crash would: `writer_alive` turns false and postings answer
/// `Unavailable` (retry), never a wrong answer.
#[tokio::test]
async fn a_halted_writer_is_reported_and_refuses_postings() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        assert!(ledger.writer_alive());
        ledger.post(credit(1, 1_000, "before")).await.unwrap();
        ledger.halt_writer().await;
        assert!(!ledger.writer_alive());
        assert!(matches!(ledger.post(credit(1, 1_000, "after")).await, Err(LedgerError::Unavailable(_))));
    })
    .await;
}

/// A fresh PostgreSQL database, or `None` when `TEST_DATABASE_URL` is unset.
async fn postgres() -> Option<(TestDb, Db)> {
    store::testing::postgres_admin_url()?;
    Some(TestDb::migrated(Backend::Postgres).await.expect("test database"))
}

/// PostgreSQL: another transaction (another instance's batch) holds player 2's row and then
/// asks for player 1's, which the ledger's batch holds while it waits for player 2: a
/// deadlock. PostgreSQL aborts the ledger's statement (the other side waits longer before it
/// checks); the ledger rolls that posting back to its savepoint, commits the rest of the
/// batch, runs the posting again, and it lands exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lost_deadlock_is_run_again_and_lands_once() {
    let Some((t, db)) = postgres().await else { return };
    let ledger = Ledger::new(db.clone());
    for u in 1..=2 {
        ledger.post(credit(u, 10_000, &format!("fund-{u}"))).await.unwrap();
    }
    let mut other = db.writer().begin().await.unwrap();
    sqlx::query("SET LOCAL deadlock_timeout = '60s'").execute(&mut *other).await.unwrap();
    let lock = |u: i64| format!("UPDATE ledger_accounts SET updated_at = updated_at WHERE owner_id = {u} AND kind = 'real' AND currency = 'TND'");
    sqlx::query(&lock(2)).execute(&mut *other).await.unwrap();
    // A transfer from player 1 to player 2: its legs lock player 1, then player 2.
    let transfer = PostingRequest::transfer(TxType::ManualAdjustment, "p1-to-p2", Some(1), TND, player(1), player(2), 2_500);
    let posting = tokio::spawn({
        let ledger = ledger.clone();
        async move { ledger.post(transfer).await }
    });
    // Plain postings of other players beside it, some in its batch.
    let beside = tokio::spawn({
        let ledger = ledger.clone();
        async move { join_all((3..=12).map(|u| ledger.post(credit(u, 500, &format!("beside-{u}"))))).await }
    });
    // Wait until the ledger waits for player 2's row.
    let mut waiting = false;
    for _ in 0..200 {
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").fetch_one(db.reader()).await.unwrap().get(0);
        if n > 0 {
            waiting = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(waiting, "the ledger's batch should wait for player 2's row");
    // Now ask for player 1's row: the cycle. The ledger's side is the victim.
    sqlx::query(&lock(1)).execute(&mut *other).await.unwrap();
    other.commit().await.unwrap();
    let receipt = posting.await.unwrap().expect("the posting lands after its retry");
    assert!(!receipt.replayed);
    for r in beside.await.unwrap() {
        r.expect("the postings beside it are not affected");
    }
    let counts = ledger.batch_counts();
    assert!(counts.retried >= 1, "the lost deadlock was run again: {counts:?}");
    assert_eq!(transactions_under(&db, "p1-to-p2").await, 1);
    assert_eq!(ledger.balance(1, BalanceKind::Real, TND).await.unwrap(), 7_500);
    assert_eq!(ledger.balance(2, BalanceKind::Real, TND).await.unwrap(), 12_500);
    assert_consistent(&ledger).await;
    db.close().await;
    t.cleanup().await;
}

/// PostgreSQL at SERIALIZABLE: two instances (two ledgers on two pools) post to the same
/// ten players at once, so their batches fail with serialization failures (40001) and
/// deadlocks; the failed operations run again. A client retries an `Unavailable` answer
/// with the same key, as a provider would. Every posting lands exactly once, every repeat
/// of a key (across the instances) answers the same transaction, and the ledger verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn serialization_failures_and_concurrent_retries_post_each_key_once() {
    let Some((t, db)) = postgres().await else { return };
    let name: String = sqlx::query("SELECT CAST(current_database() AS TEXT)").fetch_one(db.reader()).await.unwrap().get(0);
    sqlx::query(&format!("ALTER DATABASE {name} SET default_transaction_isolation = 'serializable'")).execute(db.writer()).await.unwrap();
    db.close().await;
    let a = Db::connect(&t.url).await.unwrap();
    let b = Db::connect(&t.url).await.unwrap();
    let level: String = sqlx::query("SELECT current_setting('transaction_isolation')").fetch_one(a.reader()).await.unwrap().get(0);
    assert_eq!(level, "serializable");
    let (la, lb) = (Ledger::new(a.clone()), Ledger::new(b.clone()));
    for u in 1..=10 {
        la.post(credit(u, 1_000_000, &format!("fund-{u}"))).await.unwrap();
    }
    // 400 keys, each sent twice to each instance at once (4 deliveries of one key).
    let keys: Vec<(i64, String, bool)> = (0..400).map(|i| (1 + i % 10, format!("k-{i}"), (i / 10) % 2 == 0)).collect();
    let deliveries = keys.iter().flat_map(|(u, key, is_debit)| {
        [&la, &lb, &la, &lb].into_iter().map(move |ledger| {
            let (ledger, key, u, is_debit) = (ledger.clone(), key.clone(), *u, *is_debit);
            tokio::spawn(async move {
                let req = if is_debit { debit(u, 7, &key) } else { credit(u, 3, &key) };
                for _ in 0..50 {
                    match ledger.post(req.clone()).await {
                        Err(LedgerError::Unavailable(_)) => tokio::time::sleep(std::time::Duration::from_millis(5)).await,
                        other => return (key, other),
                    }
                }
                (key, Err(LedgerError::Unavailable("still unavailable after 50 tries".into())))
            })
        })
    });
    let results: Vec<(String, Result<Receipt, LedgerError>)> = join_all(deliveries).await.into_iter().map(|r| r.unwrap()).collect();
    let mut by_key: std::collections::HashMap<String, Vec<Receipt>> = Default::default();
    for (key, r) in results {
        by_key.entry(key.clone()).or_default().push(r.unwrap_or_else(|e| panic!("{key}: {e:?}")));
    }
    for (key, receipts) in &by_key {
        assert_eq!(receipts.len(), 4);
        assert!(receipts.iter().all(|r| r.tx_id == receipts[0].tx_id), "{key}: one transaction for every delivery");
        assert!(receipts.iter().filter(|r| !r.replayed).count() <= 1, "{key}: at most one first answer");
        assert_eq!(transactions_under(&a, key).await, 1, "{key}");
    }
    for u in 1..=10 {
        // 40 keys a player: 20 debits of 7, 20 credits of 3.
        assert_eq!(la.balance(u, BalanceKind::Real, TND).await.unwrap(), 1_000_000 - 20 * 7 + 20 * 3, "player {u}");
    }
    let retried = la.batch_counts().retried + lb.batch_counts().retried;
    eprintln!("retried operations: {retried} ({:?}, {:?})", la.batch_counts(), lb.batch_counts());
    assert!(retried > 0, "two instances on the same rows at SERIALIZABLE must collide");
    assert_consistent(&la).await;
    a.close().await;
    b.close().await;
    t.cleanup().await;
}
