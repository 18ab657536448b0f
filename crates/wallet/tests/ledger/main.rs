//! Ledger integration tests on a real database: SQLite always, PostgreSQL too when
//! `TEST_DATABASE_URL` is set. Every test runs on every backend. One test binary for the
//! wallet crate: the group-commit writers' tests are the module `group_commit`.

mod group_commit;
mod rollups;

use futures::future::join_all;
use kernel::Currency;
use store::testing::with_each_backend;
use wallet::*;

const TND: Currency = Currency::Tnd;

fn credit(user: i64, amount: i64, key: &str) -> PostingRequest {
    PostingRequest::transfer(
        TxType::ManualAdjustment,
        key,
        Some(user),
        TND,
        AccountRef::House(HouseAccount::Adjustments),
        AccountRef::Player { user_id: user, kind: BalanceKind::Real },
        amount,
    )
}

fn debit(user: i64, amount: i64, key: &str) -> PostingRequest {
    PostingRequest::transfer(
        TxType::BetStake,
        key,
        Some(user),
        TND,
        AccountRef::Player { user_id: user, kind: BalanceKind::Real },
        AccountRef::House(HouseAccount::Games),
        amount,
    )
}

/// The first column of the one row `sql` answers for the parameter `$1`.
async fn scalar(db: &store::Db, sql: &str, param: i64) -> i64 {
    let row = store::sqlx::query(sql).bind(param).fetch_one(db.reader()).await.unwrap();
    store::Row::get(&row, 0)
}

async fn assert_consistent(ledger: &Ledger) {
    let report = ledger.verify().await.expect("verify");
    assert!(report.is_consistent(), "ledger inconsistent: {report:?}");
    // The report rollups written with the postings agree with the ledger.
    let rollups = wallet::rollup::verify(ledger.db()).await.expect("rollup verify");
    assert!(rollups.consistent(), "report rollups differ from the ledger: {rollups:?}");
}

#[tokio::test]
async fn credit_debit_and_insufficient_funds() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.open_accounts(1, TND).await.unwrap();
        let r = ledger.post(credit(1, 10_000, "c1")).await.unwrap();
        assert_eq!(r.balance_after(1, BalanceKind::Real), Some(10_000));
        let r = ledger.post(debit(1, 2_500, "d1")).await.unwrap();
        assert_eq!(r.balance_after(1, BalanceKind::Real), Some(7_500));
        let err = ledger.post(debit(1, 7_501, "d2")).await.unwrap_err();
        assert!(matches!(err, LedgerError::Insufficient(BalanceKind::Real)));
        // A refused posting leaves nothing behind: the same key can be used again.
        let r = ledger.post(debit(1, 7_500, "d2")).await.unwrap();
        assert_eq!(r.balance_after(1, BalanceKind::Real), Some(0));
        assert_eq!(ledger.balance(1, BalanceKind::Real, TND).await.unwrap(), 0);
        // Insufficient bonus maps to the bonus code.
        let bonus = PostingRequest::transfer(
            TxType::BetStake,
            "b1",
            Some(1),
            TND,
            AccountRef::Player { user_id: 1, kind: BalanceKind::Bonus },
            AccountRef::House(HouseAccount::Games),
            1,
        );
        let err = ledger.post(bonus).await.unwrap_err();
        assert_eq!(kernel::AppError::from(err).code, kernel::ErrorCode::InsufficientBonus);
        // History, newest first.
        let h = ledger
            .history(&HistoryQuery { user_id: 1, from_ms: 0, to_ms: i64::MAX, limit: 10, offset: 0, kind: None })
            .await
            .unwrap();
        assert_eq!(h.iter().map(|e| e.amount).collect::<Vec<_>>(), vec![-7_500, -2_500, 10_000]);
        assert_eq!(h[0].balance_after, Some(0));
        assert_consistent(&ledger).await;
    })
    .await;
}

#[tokio::test]
async fn credit_to_unopened_account_opens_it() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        let r = ledger.post(credit(7, 1_000, "c7")).await.unwrap();
        assert_eq!(r.balance_after(7, BalanceKind::Real), Some(1_000));
        assert_eq!(ledger.balances(7).await.unwrap().len(), BalanceKind::ALL.len());
        assert_consistent(&ledger).await;
    })
    .await;
}

#[tokio::test]
async fn idempotent_replay_and_conflict() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.open_accounts(2, TND).await.unwrap();
        let first = ledger.post(credit(2, 5_000, "same")).await.unwrap();
        let again = ledger.post(credit(2, 5_000, "same")).await.unwrap();
        assert!(!first.replayed);
        assert!(again.replayed);
        assert_eq!(first.tx_id, again.tx_id);
        assert_eq!(first.balances, again.balances);
        assert_eq!(ledger.balance(2, BalanceKind::Real, TND).await.unwrap(), 5_000);
        let err = ledger.post(credit(2, 6_000, "same")).await.unwrap_err();
        assert!(matches!(err, LedgerError::IdempotencyConflict));
        assert_eq!(ledger.balance(2, BalanceKind::Real, TND).await.unwrap(), 5_000);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// 200 parallel debits of one account whose balance covers 50 of them: exactly 50
/// succeed, the balance never goes negative, the ledger verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_debits_never_overdraw() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.open_accounts(3, TND).await.unwrap();
        ledger.post(credit(3, 50 * 1_000, "fund")).await.unwrap();
        let tasks = (0..200).map(|i| {
            let ledger = ledger.clone();
            tokio::spawn(async move { ledger.post(debit(3, 1_000, &format!("debit-{i}"))).await })
        });
        let results: Vec<_> = join_all(tasks).await.into_iter().map(|r| r.unwrap()).collect();
        let ok = results.iter().filter(|r| r.is_ok()).count();
        let insufficient = results.iter().filter(|r| matches!(r, Err(LedgerError::Insufficient(_)))).count();
        assert_eq!(ok, 50, "exactly 50 debits succeed");
        assert_eq!(insufficient, 150, "the rest are refused for insufficient funds, not errors");
        for r in results.iter().flatten() {
            assert!(r.balance_after(3, BalanceKind::Real).unwrap() >= 0);
        }
        assert_eq!(ledger.balance(3, BalanceKind::Real, TND).await.unwrap(), 0);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// 50 concurrent repeats of one idempotency key: one posting, the same reply for all.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_repeats_of_one_key_post_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.open_accounts(4, TND).await.unwrap();
        ledger.post(credit(4, 100_000, "fund4")).await.unwrap();
        let tasks = (0..50).map(|_| {
            let ledger = ledger.clone();
            tokio::spawn(async move { ledger.post(debit(4, 1_234, "one-key")).await })
        });
        let results: Vec<Receipt> = join_all(tasks).await.into_iter().map(|r| r.unwrap().expect("no error")).collect();
        let originals = results.iter().filter(|r| !r.replayed).count();
        assert_eq!(originals, 1, "exactly one posting");
        let first = &results[0];
        for r in &results {
            assert_eq!(r.tx_id, first.tx_id);
            assert_eq!(r.balances, first.balances);
        }
        assert_eq!(ledger.balance(4, BalanceKind::Real, TND).await.unwrap(), 100_000 - 1_234);
        assert_consistent(&ledger).await;
    })
    .await;
}

#[tokio::test]
async fn verify_detects_tampering() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        ledger.post(credit(5, 1_000, "c5")).await.unwrap();
        assert_consistent(&ledger).await;
        // Someone bypasses the ledger API: verify must notice.
        store::sqlx::query("UPDATE ledger_accounts SET balance = balance + 1 WHERE owner_id = 5 AND kind = 'real'")
            .execute(db.writer())
            .await
            .unwrap();
        let report = ledger.verify().await.unwrap();
        assert!(!report.is_consistent());
        assert_eq!(report.balance_mismatches.len(), 1);
        store::sqlx::query("DELETE FROM ledger_entries WHERE amount < 0").execute(db.writer()).await.unwrap();
        let report = ledger.verify().await.unwrap();
        assert!(!report.unbalanced_transactions.is_empty());
        assert!(!report.incomplete_transactions.is_empty());
    })
    .await;
}

#[tokio::test]
async fn invalid_postings_are_refused_before_touching_the_database() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        let mut bad = credit(6, 100, "bad");
        bad.legs[1].amount = 99;
        assert!(matches!(ledger.post(bad).await, Err(LedgerError::Invalid(_))));
        let empty_key = credit(6, 100, "");
        assert!(matches!(ledger.post(empty_key).await, Err(LedgerError::Invalid(_))));
        let report = ledger.verify().await.unwrap();
        assert_eq!(report.transactions, 0);
    })
    .await;
}

fn rollback_of(key: &str, rollback_key: &str) -> RollbackRequest {
    RollbackRequest {
        original_key: key.into(),
        rollback_key: rollback_key.into(),
        user_id: None,
        comment: "provider rollback".into(),
        metadata: serde_json::json!({}),
    }
}

/// A rollback of a posting reverses it; a retry replays the reversal.
#[tokio::test]
async fn rollback_reverses_a_posting_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.post(credit(8, 10_000, "fund8")).await.unwrap();
        ledger.post(debit(8, 2_500, "bet-1")).await.unwrap();
        let first = ledger.rollback(rollback_of("bet-1", "rb-1")).await.unwrap();
        let RollbackOutcome::Reversed(receipt) = &first else { panic!("expected a reversal, got {first:?}") };
        assert_eq!(receipt.balance_after(8, BalanceKind::Real), Some(10_000));
        let again = ledger.rollback(rollback_of("bet-1", "rb-1")).await.unwrap();
        let RollbackOutcome::Reversed(replayed) = &again else { panic!("expected a replay, got {again:?}") };
        assert!(replayed.replayed);
        assert_eq!(replayed.tx_id, receipt.tx_id);
        assert_eq!(ledger.balance(8, BalanceKind::Real, TND).await.unwrap(), 10_000);
        // The bet itself, retried, is still the original bet (a replay), not a new debit.
        assert!(ledger.post(debit(8, 2_500, "bet-1")).await.unwrap().replayed);
        assert_eq!(ledger.balance(8, BalanceKind::Real, TND).await.unwrap(), 10_000);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// A rollback of an unknown transaction leaves a tombstone: no money moves, and the
/// transaction is refused when it arrives later.
#[tokio::test]
async fn rollback_before_the_bet_tombstones_it() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.post(credit(9, 10_000, "fund9")).await.unwrap();
        assert_eq!(ledger.rollback(rollback_of("bet-late", "rb-late")).await.unwrap(), RollbackOutcome::Tombstoned);
        assert_eq!(ledger.rollback(rollback_of("bet-late", "rb-late")).await.unwrap(), RollbackOutcome::Tombstoned);
        let err = ledger.post(debit(9, 1_000, "bet-late")).await.unwrap_err();
        assert!(matches!(err, LedgerError::Tombstoned), "{err:?}");
        assert_eq!(kernel::AppError::from(err).code, kernel::ErrorCode::TransactionRolledBack);
        assert_eq!(ledger.balance(9, BalanceKind::Real, TND).await.unwrap(), 10_000);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// A bet and its rollback racing: whichever the unique index lets in first, the books end
/// either with the bet reversed or with the bet refused — never with money taken and a
/// tombstone.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bet_and_rollback_race_settles_consistently() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.post(credit(10, 1_000_000, "fund10")).await.unwrap();
        let mut tombstoned = 0;
        for i in 0..20 {
            let key = format!("race-bet-{i}");
            let (l1, l2) = (ledger.clone(), ledger.clone());
            let (k1, k2) = (key.clone(), key.clone());
            let bet = tokio::spawn(async move { l1.post(debit(10, 1_000, &k1)).await });
            let rb = tokio::spawn(async move { l2.rollback(rollback_of(&k2, &format!("{k2}-rb"))).await });
            let (bet, rb) = (bet.await.unwrap(), rb.await.unwrap().unwrap());
            match (&bet, &rb) {
                (Ok(_), RollbackOutcome::Reversed(_)) => {}
                (Err(LedgerError::Tombstoned), RollbackOutcome::Tombstoned) => tombstoned += 1,
                other => panic!("inconsistent outcome: {other:?}"),
            }
        }
        // Every bet was either reversed or refused: the balance is untouched.
        assert_eq!(ledger.balance(10, BalanceKind::Real, TND).await.unwrap(), 1_000_000);
        eprintln!("{tombstoned} of 20 races tombstoned");
        assert_consistent(&ledger).await;
    })
    .await;
}

/// `post_many`: each posting of a batch succeeds or fails alone, as with `post`: stakes of
/// many players, one of them short of funds, one repeating an earlier key (replay), one
/// conflicting with it, one tombstoned, a credit to an account not opened yet, two postings on
/// one account (applied in order), an invalid one, and a posting with an audit record.
#[tokio::test]
async fn post_many_answers_each_posting_alone() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        for user in 100..110 {
            ledger.post(credit(user, 5_000, &format!("fund-{user}"))).await.unwrap();
        }
        let earlier = ledger.post(debit(100, 1_000, "earlier")).await.unwrap();
        ledger.rollback(rollback_of("late-bet", "late-bet:rb")).await.unwrap();
        let mut audited = credit(108, 7, "audited");
        audited.audit = Some(Audit { actor: "test".into(), action: "wallet.adjust".into(), subject: "user:108".into(), details: serde_json::json!({}) });
        let batch = vec![
            debit(101, 2_000, "m-101"),
            debit(102, 5_001, "m-102-short"),
            debit(100, 1_000, "earlier"),
            debit(100, 1_001, "earlier"),
            debit(103, 100, "late-bet"),
            credit(999, 300, "m-999-new-account"),
            debit(104, 3_000, "m-104-a"),
            debit(104, 2_000, "m-104-b"),
            debit(104, 1, "m-104-c-short"),
            {
                // Unbalanced: refused before it reaches the database.
                let mut bad = debit(105, 10, "m-105-bad");
                bad.legs[1].amount = 9;
                bad
            },
            audited,
        ];
        let r = ledger.post_many(batch).await;
        assert_eq!(r.len(), 11);
        assert_eq!(r[0].as_ref().unwrap().balance_after(101, BalanceKind::Real), Some(3_000));
        assert!(!r[0].as_ref().unwrap().replayed);
        assert!(matches!(r[1], Err(LedgerError::Insufficient(BalanceKind::Real))));
        let replay = r[2].as_ref().unwrap();
        assert!(replay.replayed);
        assert_eq!(replay.tx_id, earlier.tx_id);
        assert!(matches!(r[3], Err(LedgerError::IdempotencyConflict)));
        assert!(matches!(r[4], Err(LedgerError::Tombstoned)));
        assert_eq!(r[5].as_ref().unwrap().balance_after(999, BalanceKind::Real), Some(300));
        assert_eq!(r[6].as_ref().unwrap().balance_after(104, BalanceKind::Real), Some(2_000));
        assert_eq!(r[7].as_ref().unwrap().balance_after(104, BalanceKind::Real), Some(0));
        assert!(matches!(r[8], Err(LedgerError::Insufficient(_))));
        assert!(matches!(r[9], Err(LedgerError::Invalid(_))));
        assert_eq!(r[10].as_ref().unwrap().balance_after(108, BalanceKind::Real), Some(5_007));
        let expected = [(100, 4_000), (101, 3_000), (102, 5_000), (103, 5_000), (104, 0), (105, 5_000), (108, 5_007), (999, 300)];
        for (user, balance) in expected {
            assert_eq!(ledger.balance(user, BalanceKind::Real, TND).await.unwrap(), balance, "user {user}");
        }
        // A refused posting left nothing: its key is free; a repeat of the batch replays.
        assert!(ledger.lookup("m-102-short").await.unwrap().is_none());
        let again = ledger.post_many(vec![debit(101, 2_000, "m-101"), debit(102, 5_000, "m-102-short")]).await;
        assert!(again[0].as_ref().unwrap().replayed);
        assert_eq!(again[0].as_ref().unwrap().tx_id, r[0].as_ref().unwrap().tx_id);
        assert_eq!(again[1].as_ref().unwrap().balance_after(102, BalanceKind::Real), Some(0));
        assert_consistent(&ledger).await;
    })
    .await;
}

/// `post_many_with`: the caller's rows are written in the postings' transaction. The work is
/// told which postings are booked (applied, or replayed under their key; not the refused or
/// invalid ones); it runs when no posting reaches the writer; its error undoes every posting
/// of the call, and a repeat with the same keys then applies them.
#[tokio::test]
async fn post_many_with_writes_the_callers_rows_in_the_postings_transaction() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        store::sqlx::query("CREATE TABLE settled_marks (k TEXT PRIMARY KEY)").execute(db.writer()).await.unwrap();
        ledger.post(credit(120, 1_000, "fund-120")).await.unwrap();
        ledger.post(credit(121, 1_000, "fund-121")).await.unwrap();
        let marks = |names: Vec<&'static str>| {
            wallet::attached_many(move |conn, booked| {
                Box::pin(async move {
                    for (name, ok) in names.into_iter().zip(booked) {
                        if ok {
                            store::sqlx::query(&format!("INSERT INTO settled_marks (k) VALUES ('{name}')")).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
        };
        let count = |db: store::Db| async move {
            store::sqlx::query("SELECT CAST(COUNT(*) AS BIGINT) FROM settled_marks").fetch_one(db.reader()).await.map(|r| store::Row::get::<i64, _>(&r, 0)).unwrap()
        };
        let invalid = {
            let mut bad = debit(121, 10, "w-bad");
            bad.legs[1].amount = 9;
            bad
        };
        let batch = vec![debit(120, 400, "w-a"), debit(121, 5_000, "w-short"), invalid, credit(120, 50, "w-c")];
        let r = ledger.post_many_with(batch, marks(vec!["a", "short", "bad", "c"])).await.unwrap();
        assert!(r[0].is_ok() && matches!(r[1], Err(LedgerError::Insufficient(_))) && matches!(r[2], Err(LedgerError::Invalid(_))) && r[3].is_ok());
        let rows: Vec<String> = store::sqlx::query("SELECT k FROM settled_marks ORDER BY k").fetch_all(db.reader()).await.unwrap().iter().map(|r| store::Row::get(r, 0)).collect();
        assert_eq!(rows, ["a", "c"]);
        // A repeat: replays count as booked (the mark's primary key would refuse a second
        // row, so the work here only writes what is new).
        let replayed = wallet::attached_many(|conn, booked| {
            Box::pin(async move {
                assert_eq!(booked, [true]);
                store::sqlx::query("INSERT INTO settled_marks (k) VALUES ('replay-seen')").execute(&mut *conn).await?;
                Ok(())
            })
        });
        let r = ledger.post_many_with(vec![debit(120, 400, "w-a")], replayed).await.unwrap();
        assert!(r[0].as_ref().unwrap().replayed);
        // No posting at all: the work still runs (a chunk of lost bets writes its states).
        assert!(ledger.post_many_with(Vec::new(), marks(Vec::new())).await.unwrap().is_empty());
        let lone = wallet::attached_many(|conn, booked| {
            Box::pin(async move {
                assert!(booked.is_empty());
                store::sqlx::query("INSERT INTO settled_marks (k) VALUES ('lone')").execute(&mut *conn).await?;
                Ok(())
            })
        });
        ledger.post_many_with(Vec::new(), lone).await.unwrap();
        assert_eq!(count(db.clone()).await, 4);
        // The work fails (its row repeats a key): nothing of the call is booked or written.
        let before = ledger.balance(121, BalanceKind::Real, TND).await.unwrap();
        let failing = marks(vec!["new-1", "a"]);
        let err = ledger.post_many_with(vec![debit(121, 100, "w-undone"), debit(120, 1, "w-undone-2")], failing).await;
        assert!(matches!(err, Err(LedgerError::Unavailable(_))), "{err:?}");
        assert_eq!(ledger.balance(121, BalanceKind::Real, TND).await.unwrap(), before);
        assert!(ledger.lookup("w-undone").await.unwrap().is_none() && ledger.lookup("w-undone-2").await.unwrap().is_none());
        assert_eq!(count(db.clone()).await, 4);
        // Run again with work that succeeds: applied once.
        let r = ledger.post_many_with(vec![debit(121, 100, "w-undone"), debit(120, 1, "w-undone-2")], marks(vec!["new-1", "new-2"])).await.unwrap();
        assert!(r.iter().all(|r| r.as_ref().is_ok_and(|r| !r.replayed)));
        assert_eq!(ledger.balance(121, BalanceKind::Real, TND).await.unwrap(), before - 100);
        assert_eq!(count(db.clone()).await, 6);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// `post_many_with` raced: 20 calls at once with the same three postings (a settlement chunk
/// delivered 20 times). Each posting is booked once — one call applies it, the others replay
/// it — every call's work sees all three booked, and the balances moved once.
#[tokio::test]
async fn post_many_with_raced_20_ways_books_each_posting_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        ledger.post(credit(130, 1_000, "fund-130")).await.unwrap();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let calls = (0..20).map(|_| {
            let seen = seen.clone();
            let work = wallet::attached_many(move |_conn, booked| {
                Box::pin(async move {
                    seen.lock().unwrap().push(booked);
                    Ok(())
                })
            });
            ledger.post_many_with(vec![debit(130, 100, "race-a"), credit(130, 250, "race-b"), credit(131, 40, "race-c")], work)
        });
        let replies = join_all(calls).await;
        let mut applied = [0; 3];
        for r in &replies {
            let r = r.as_ref().expect("the call as a whole");
            for (k, posting) in r.iter().enumerate() {
                if !posting.as_ref().expect("booked").replayed {
                    applied[k] += 1;
                }
            }
        }
        assert_eq!(applied, [1, 1, 1]);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 20);
        assert!(seen.iter().all(|b| b == &[true, true, true]), "{seen:?}");
        assert_eq!(ledger.balance(130, BalanceKind::Real, TND).await.unwrap(), 1_150);
        assert_eq!(ledger.balance(131, BalanceKind::Real, TND).await.unwrap(), 40);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// `post_many` with many credits to one player (a settlement paying a player's many bets):
/// each posting answers its own balance after, in input order, and its entry carries it; a
/// debit between credits keeps its place; of credits that pass the maximum together only the
/// one past it fails. (Written for a version that folded such credits into one balance row;
/// the fold was measured, showed no gain within the machine's noise, and was not kept:
/// docs/PERFORMANCE.md.)
#[tokio::test]
async fn post_many_credits_to_one_account_apply_in_input_order() {
    with_each_backend(|db| async move {
        let limits = LedgerLimits { max_amount_major: 1_000, max_balance_major: 2_500 };
        let ledger = Ledger::with_limits(db, limits);
        ledger.post(credit(40, 1_000, "f-40")).await.unwrap();
        ledger.post(credit(43, 1, "f-43")).await.unwrap();
        let batch = vec![
            credit(40, 100, "c-1"),
            credit(41, 500, "c-41"),
            credit(40, 200, "c-2"),
            debit(40, 1_250, "d-1"),
            credit(40, 300, "c-3"),
            credit(43, 1_000_000, "c-43-1"),
            credit(40, 400, "c-4"),
            credit(43, 1_000_000, "c-43-2"),
            credit(43, 600_000, "c-43-3"),
            credit(43, 499_999, "c-43-4"),
        ];
        let r = ledger.post_many(batch).await;
        let after = |i: usize, user: i64| r[i].as_ref().unwrap_or_else(|e| panic!("posting {i}: {e:?}")).balance_after(user, BalanceKind::Real);
        assert_eq!([after(0, 40), after(2, 40), after(3, 40), after(4, 40), after(6, 40)], [Some(1_100), Some(1_300), Some(50), Some(350), Some(750)]);
        assert_eq!(after(1, 41), Some(500));
        assert_eq!([after(5, 43), after(7, 43)], [Some(1_000_001), Some(2_000_001)]);
        assert!(matches!(r[8], Err(LedgerError::BalanceLimit)), "{:?}", r[8]);
        assert_eq!(after(9, 43), Some(2_500_000));
        for (user, balance) in [(40, 750), (41, 500), (43, 2_500_000)] {
            assert_eq!(ledger.balance(user, BalanceKind::Real, TND).await.unwrap(), balance, "user {user}");
        }
        let chain: Vec<i64> = store::sqlx::query_scalar(
            "SELECT e.balance_after FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE a.owner_id = 40 AND a.is_house = 0 ORDER BY e.id",
        )
        .fetch_all(ledger.db().reader())
        .await
        .unwrap();
        assert_eq!(chain, vec![1_000, 1_100, 1_300, 50, 350, 750], "each entry's balance after, in order");
        assert!(ledger.lookup("c-43-3").await.unwrap().is_none(), "the refused credit left nothing");
        assert_consistent(&ledger).await;
    })
    .await;
}

/// 600 stakes in one call (more than one set-wise step), then 600 wins, and concurrent
/// batches racing single postings on the same balances: nothing is lost or duplicated,
/// no balance goes negative.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn post_many_large_batches_and_races() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        let users: Vec<i64> = (1_000..1_600).collect();
        let funds: Vec<_> = users.iter().map(|u| credit(*u, 1_000, &format!("f-{u}"))).collect();
        assert!(ledger.post_many(funds).await.iter().all(|r| r.is_ok()));
        let stakes: Vec<_> = users.iter().map(|u| debit(*u, 400, &format!("s-{u}"))).collect();
        let r = ledger.post_many(stakes).await;
        assert!(r.iter().all(|r| r.as_ref().unwrap().balance_after(r.as_ref().unwrap().balances[0].user_id, BalanceKind::Real) == Some(600)));
        let wins: Vec<_> = users.iter().map(|u| credit(*u, 50, &format!("w-{u}"))).collect();
        assert!(ledger.post_many(wins).await.iter().all(|r| r.is_ok()));
        // Each player now holds 650: two concurrent batches of 400 and single 400s on the
        // same players; at most one stake per player can succeed.
        let a: Vec<_> = users.iter().map(|u| debit(*u, 400, &format!("ra-{u}"))).collect();
        let b: Vec<_> = users.iter().rev().map(|u| debit(*u, 400, &format!("rb-{u}"))).collect();
        let (l1, l2) = (ledger.clone(), ledger.clone());
        let ta = tokio::spawn(async move { l1.post_many(a).await });
        let tb = tokio::spawn(async move { l2.post_many(b).await });
        let singles: Vec<_> = users
            .iter()
            .step_by(10)
            .map(|u| {
                let l = ledger.clone();
                let u = *u;
                tokio::spawn(async move { l.post(debit(u, 400, &format!("rs-{u}"))).await })
            })
            .collect();
        let mut ok = 0;
        let mut other = 0;
        for r in ta.await.unwrap().into_iter().chain(tb.await.unwrap()) {
            match r {
                Ok(_) => ok += 1,
                Err(LedgerError::Insufficient(_)) => {}
                // PostgreSQL may abort a batch on a deadlock: every posting of it fails.
                Err(LedgerError::Unavailable(_)) => other += 1,
                Err(e) => panic!("unexpected {e:?}"),
            }
        }
        for t in singles {
            match t.await.unwrap() {
                Ok(_) => ok += 1,
                Err(LedgerError::Insufficient(_)) | Err(LedgerError::Unavailable(_)) => {}
                Err(e) => panic!("unexpected {e:?}"),
            }
        }
        assert!(ok <= users.len(), "at most one stake per player");
        if other == 0 {
            assert_eq!(ok, users.len(), "every player could afford exactly one");
        }
        let mut total = 0;
        for u in &users {
            let b = ledger.balance(*u, BalanceKind::Real, TND).await.unwrap();
            assert!(b == 250 || b == 650, "user {u}: {b}");
            total += b;
        }
        assert_eq!(total, (users.len() as i64 - ok as i64) * 650 + ok as i64 * 250);
        assert_consistent(&ledger).await;
    })
    .await;
}

fn win(user: i64, amount: i64, key: &str) -> PostingRequest {
    PostingRequest::transfer(
        TxType::BetWin,
        key,
        Some(user),
        TND,
        AccountRef::House(HouseAccount::Games),
        AccountRef::Player { user_id: user, kind: BalanceKind::Real },
        amount,
    )
}

/// Issue 9: a posting is reversed at most once, whatever keys the caller invents, and only
/// bets and wins are reversible.
#[tokio::test]
async fn a_posting_is_reversed_at_most_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db);
        ledger.post(credit(20, 10_000, "fund20")).await.unwrap();
        ledger.post(debit(20, 1_000, "drb-1")).await.unwrap();
        let RollbackOutcome::Reversed(first) = ledger.rollback(rollback_of("drb-1", "drb-rb1")).await.unwrap() else { panic!() };
        assert_eq!(first.balance_after(20, BalanceKind::Real), Some(10_000));
        // A second rollback under a new key answers the first reversal and moves nothing.
        let second = ledger.rollback(rollback_of("drb-1", "drb-rb2")).await.unwrap();
        let RollbackOutcome::AlreadyReversed(r) = &second else { panic!("expected the first reversal, got {second:?}") };
        assert_eq!((r.tx_id, r.replayed), (first.tx_id, true));
        assert_eq!(ledger.balance(20, BalanceKind::Real, TND).await.unwrap(), 10_000);
        // A rollback of a rollback is refused; so is a rollback of anything but a bet or a win.
        assert!(matches!(ledger.rollback(rollback_of("drb-rb1", "drb-rb3")).await, Err(LedgerError::NotReversible)));
        assert!(matches!(ledger.rollback(rollback_of("fund20", "drb-rb4")).await, Err(LedgerError::NotReversible)));
        // A win reversed three times under three keys takes its amount back once.
        ledger.post(win(20, 5_000, "w-1")).await.unwrap();
        for k in ["w-rb1", "w-rb2", "w-rb3"] {
            ledger.rollback(rollback_of("w-1", k)).await.unwrap();
        }
        assert_eq!(ledger.balance(20, BalanceKind::Real, TND).await.unwrap(), 10_000);
        // A rollback key that is another transaction's key is a conflict, and leaves no
        // tombstone behind for the (unknown) transaction it named.
        assert!(matches!(ledger.rollback(rollback_of("never-sent", "w-1")).await, Err(LedgerError::IdempotencyConflict)));
        assert!(ledger.lookup("never-sent").await.unwrap().is_none());
        // One rollback key cannot cancel a second, different transaction (even of the same amount).
        ledger.post(debit(20, 1_000, "drb-2")).await.unwrap();
        assert!(matches!(ledger.rollback(rollback_of("drb-2", "drb-rb1")).await, Err(LedgerError::IdempotencyConflict)));
        assert_eq!(ledger.balance(20, BalanceKind::Real, TND).await.unwrap(), 9_000);
        // Tombstones: a second rollback of an unknown key under another id answers the same.
        assert_eq!(ledger.rollback(rollback_of("late-1", "late-rb1")).await.unwrap(), RollbackOutcome::Tombstoned);
        assert_eq!(ledger.rollback(rollback_of("late-1", "late-rb2")).await.unwrap(), RollbackOutcome::Tombstoned);
        assert_eq!(ledger.rollback(rollback_of("late-1", "late-rb1")).await.unwrap(), RollbackOutcome::Tombstoned);
        // The tombstoning rollback claimed its own key: a bet under it is a conflict.
        assert!(matches!(ledger.post(debit(20, 1, "late-rb1")).await, Err(LedgerError::IdempotencyConflict)));
        assert_consistent(&ledger).await;
    })
    .await;
}

/// Issue 9: twenty concurrent rollbacks of one bet under twenty keys post exactly one
/// reversal — the database's unique index decides, on both backends.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_rollbacks_under_new_keys_reverse_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        ledger.post(credit(21, 10_000, "fund21")).await.unwrap();
        let bet = ledger.post(debit(21, 1_000, "c-bet")).await.unwrap();
        let outcomes = join_all((0..20).map(|i| {
            let l = ledger.clone();
            async move { l.rollback(rollback_of("c-bet", &format!("c-rb-{i}"))).await }
        }))
        .await;
        let mut reversed = 0;
        for o in &outcomes {
            match o {
                Ok(RollbackOutcome::Reversed(_)) => reversed += 1,
                Ok(RollbackOutcome::AlreadyReversed(_)) => {}
                other => panic!("unexpected outcome {other:?}"),
            }
        }
        assert_eq!(reversed, 1);
        assert_eq!(ledger.balance(21, BalanceKind::Real, TND).await.unwrap(), 10_000);
        let reversals = scalar(&db, "SELECT CAST(COUNT(*) AS BIGINT) FROM ledger_transactions WHERE reverses_tx_id = $1", bet.tx_id).await;
        assert_eq!(reversals, 1);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// Issue 21: the entries keep no foreign keys (migration 0034), so `ledger verify` is what
/// notices an entry whose transaction or account does not exist — written by hand here, as
/// the ledger never writes one. A pair of them balances, so the sums alone stay green.
#[tokio::test]
async fn verify_reports_entries_of_no_transaction_or_no_account() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let paid = ledger.post(credit(23, 10_000, "fund23")).await.unwrap();
        assert_consistent(&ledger).await;
        let account = scalar(&db, "SELECT account_id FROM ledger_entries WHERE tx_id = $1 AND amount > 0", paid.tx_id).await;
        for sql in [
            // Of no transaction: +5 and -5 on a real account, so nothing is unbalanced.
            format!("INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) VALUES (910001, 999999001, {account}, 5, NULL, 1)"),
            format!("INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) VALUES (910002, 999999001, {account}, -5, NULL, 1)"),
            // Of no account, inside a real transaction: a zero amount, so it sums as before.
            format!("INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) VALUES (910003, {}, 999999002, 0, NULL, 1)", paid.tx_id),
        ] {
            store::sqlx::query(&sql).execute(db.writer()).await.unwrap();
        }
        let report = ledger.verify().await.unwrap();
        assert!(!report.is_consistent());
        assert_eq!(report.orphan_entries, vec![910001, 910002, 910003], "{report:?}");
        assert!(report.balance_mismatches.is_empty() && report.unbalanced_transactions.is_empty(), "{report:?}");
        store::sqlx::query("DELETE FROM ledger_entries WHERE id >= 910001 AND id <= 910003").execute(db.writer()).await.unwrap();
        assert_consistent(&ledger).await;
    })
    .await;
}

/// Issue 9: `ledger verify` catches a posting reversed twice, a reversal linked to nothing,
/// a reversal of a reversal and a reversal that does not negate its original — written by
/// hand, bypassing the ledger (and, for the double reversal, its unique index).
#[tokio::test]
async fn verify_detects_broken_reversals() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        ledger.post(credit(22, 10_000, "fund22")).await.unwrap();
        let bet = ledger.post(debit(22, 1_000, "v-bet")).await.unwrap();
        let RollbackOutcome::Reversed(rb) = ledger.rollback(rollback_of("v-bet", "v-rb1")).await.unwrap() else { panic!() };
        assert_consistent(&ledger).await;
        let exec = |sql: String| {
            let db = db.clone();
            async move { store::sqlx::query(&sql).execute(db.writer()).await.unwrap() }
        };
        // The accounts the bet touched, to copy the reversal's entries.
        let rows = store::sqlx::query("SELECT account_id, amount FROM ledger_entries WHERE tx_id = $1")
            .bind(rb.tx_id)
            .fetch_all(db.reader())
            .await
            .unwrap();
        let legs: Vec<(i64, i64)> = rows.iter().map(|r| (store::Row::get(r, 0), store::Row::get(r, 1))).collect();
        // A second reversal of the same bet, as a repeated rollback used to write it.
        exec("DROP INDEX ledger_transactions_reverses".into()).await;
        let write_reversal = |id: i64, key: &str, reverses: Option<i64>, scale: i64| {
            let key = key.to_string();
            let legs = legs.clone();
            let exec = exec.clone();
            async move {
                let reverses = reverses.map(|r| r.to_string()).unwrap_or("NULL".into());
                exec(format!(
                    "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at, reverses_tx_id) \
                     VALUES ({id}, 204, '{key}', 'x', 22, '', '{{}}', 1, {reverses})"
                ))
                .await;
                for (n, (account, amount)) in legs.iter().enumerate() {
                    exec(format!(
                        "INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) VALUES ({}, {id}, {account}, {}, NULL, 1)",
                        id * 10 + n as i64,
                        amount * scale
                    ))
                    .await;
                }
            }
        };
        write_reversal(900_001, "v-rb2", Some(bet.tx_id), 1).await;
        let report = ledger.verify().await.unwrap();
        assert!(!report.is_consistent());
        assert!(report.reversal_errors.iter().any(|(_, e)| e.contains("reversed 2 times")), "{report:?}");
        // Sums alone would not have noticed (the house account pays): only the new check fails.
        assert!(report.unbalanced_transactions.is_empty() && report.incomplete_transactions.is_empty());
        exec("DELETE FROM ledger_entries WHERE tx_id = 900001".into()).await;
        exec("DELETE FROM ledger_transactions WHERE id = 900001".into()).await;
        // A rollback that names nothing.
        write_reversal(900_002, "v-rb3", None, 1).await;
        let report = ledger.verify().await.unwrap();
        assert!(report.reversal_errors.iter().any(|(id, e)| *id == 900_002 && e.contains("not linked")), "{report:?}");
        exec("DELETE FROM ledger_entries WHERE tx_id = 900002".into()).await;
        exec("DELETE FROM ledger_transactions WHERE id = 900002".into()).await;
        // A rollback of the rollback (flips the money back).
        write_reversal(900_003, "v-rb4", Some(rb.tx_id), -1).await;
        let report = ledger.verify().await.unwrap();
        assert!(report.reversal_errors.iter().any(|(id, e)| *id == 900_003 && e.contains("not a bet or a win")), "{report:?}");
        exec("DELETE FROM ledger_entries WHERE tx_id = 900003".into()).await;
        exec("DELETE FROM ledger_transactions WHERE id = 900003".into()).await;
        assert_consistent(&ledger).await;
        // A reversal that cancels twice the amount of its original.
        exec(format!("UPDATE ledger_entries SET amount = amount * 2 WHERE tx_id = {}", rb.tx_id)).await;
        let report = ledger.verify().await.unwrap();
        assert!(report.reversal_errors.iter().any(|(id, e)| *id == rb.tx_id && e.contains("does not cancel")), "{report:?}");
    })
    .await;
}

/// Issue 9: a posting that would take a balance past its maximum, or move more than the
/// per-transaction maximum, is refused with its own code and changes nothing; a zero
/// posting is a record that claims its key.
#[tokio::test]
async fn limits_and_zero_records() {
    with_each_backend(|db| async move {
        let limits = LedgerLimits { max_amount_major: 1_000, max_balance_major: 2_500 };
        let ledger = Ledger::with_limits(db, limits);
        assert!(matches!(ledger.post(credit(23, 1_000_001, "too-big")).await, Err(LedgerError::AmountTooLarge)));
        ledger.post(credit(23, 1_000_000, "l-1")).await.unwrap();
        ledger.post(credit(23, 1_000_000, "l-2")).await.unwrap();
        let err = ledger.post(credit(23, 1_000_000, "l-3")).await.unwrap_err();
        assert!(matches!(err, LedgerError::BalanceLimit), "{err:?}");
        assert_eq!(kernel::AppError::from(err).code, kernel::ErrorCode::BalanceLimit);
        // Up to the maximum exactly is fine; the refused key is free again.
        ledger.post(credit(23, 500_000, "l-3")).await.unwrap();
        assert_eq!(ledger.balance(23, BalanceKind::Real, TND).await.unwrap(), 2_500_000);
        // Set-wise (post_many) the same: one credit over the limit fails alone.
        let many = ledger.post_many(vec![credit(23, 1, "m-1"), credit(24, 1_000, "m-2")]).await;
        assert!(matches!(many[0], Err(LedgerError::BalanceLimit)), "{many:?}");
        assert!(many[1].is_ok());
        // Debits still work at the maximum.
        ledger.post(debit(23, 1_000, "l-d")).await.unwrap();
        // A zero stake is recorded: the same key later with an amount is a conflict.
        let zero = ledger.post(debit(23, 0, "z-1")).await.unwrap();
        assert_eq!(zero.balance_after(23, BalanceKind::Real), Some(2_499_000));
        assert!(matches!(ledger.post(debit(23, 5_000, "z-1")).await, Err(LedgerError::IdempotencyConflict)));
        assert!(ledger.post(debit(23, 0, "z-1")).await.unwrap().replayed);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// `post_with`: the caller's rows are written in the posting's transaction — kept with it,
/// undone with it (declined, failed, refused), never written again on a replay.
#[tokio::test]
async fn attached_writes_share_the_postings_fate() {
    with_each_backend(|db| async move {
        use futures::FutureExt;
        let ledger = Ledger::new(db.clone());
        ledger.open_accounts(3, TND).await.unwrap();
        ledger.post(credit(3, 1_000, "c3")).await.unwrap();
        // A row of ours, written on the posting's connection; `keep` decides.
        let row = |id: i64, keep: bool| {
            wallet::attached(move |conn| {
                async move {
                    store::sqlx::query("INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES ($1, 'test', 'attached', 'x', '{}', 0)")
                        .bind(id)
                        .execute(&mut *conn)
                        .await?;
                    Ok(keep)
                }
                .boxed()
            })
        };
        let rows = |id: i64| {
            let db = db.clone();
            async move {
                store::sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM audit_log WHERE id = $1").bind(id).fetch_one(db.reader()).await.unwrap()
            }
        };
        let balance = || ledger.balance(3, BalanceKind::Real, TND);

        let r = ledger.post_with(debit(3, 300, "w1"), row(1, true)).await.unwrap();
        assert_eq!(r.balance_after(3, BalanceKind::Real), Some(700));
        assert_eq!(rows(1).await, 1);
        // Declined: neither the posting nor the row; the key is free again.
        assert!(matches!(ledger.post_with(debit(3, 100, "w2"), row(2, false)).await, Err(LedgerError::Declined)));
        assert_eq!((balance().await.unwrap(), rows(2).await), (700, 0));
        // The work fails (the row's id is taken): the posting is undone with it.
        assert!(matches!(ledger.post_with(debit(3, 100, "w2"), row(1, true)).await, Err(LedgerError::Store(_))));
        assert_eq!(balance().await.unwrap(), 700);
        // Refused for funds: the work never runs.
        assert!(matches!(ledger.post_with(debit(3, 10_000, "w3"), row(3, true)).await, Err(LedgerError::Insufficient(_))));
        assert_eq!(rows(3).await, 0);
        // A replay answers the first receipt and writes nothing more.
        let again = ledger.post_with(debit(3, 300, "w1"), row(4, true)).await.unwrap();
        assert!(again.replayed);
        assert_eq!((balance().await.unwrap(), rows(4).await), (700, 0));
        ledger.post(debit(3, 100, "w2")).await.unwrap();
        assert_eq!(balance().await.unwrap(), 600);
        assert_consistent(&ledger).await;
    })
    .await;
}

/// The posting observer (promotions' hook): sees every watched posting, one by one, set-wise
/// and reversed, in the posting's own transaction; a refusal leaves nothing, not even the key.
#[tokio::test]
async fn the_observer_checks_and_records_every_watched_posting_in_its_transaction() {
    use futures::future::BoxFuture;
    use futures::FutureExt;
    use std::sync::Arc;
    use store::sqlx::AnyConnection;

    /// Refuses stakes above 500; writes one audit row per applied stake (id = tx id) and one per
    /// reversal (id = -original tx id).
    struct Watcher;
    impl PostingObserver for Watcher {
        fn watches(&self, t: TxType) -> bool {
            t == TxType::BetStake
        }
        fn check(&self, req: &PostingRequest) -> Result<Checked, LedgerError> {
            let stake = req.legs.iter().map(|l| l.amount).max().unwrap_or(0);
            if stake > 500 {
                Err(LedgerError::Refused(kernel::AppError::new(kernel::ErrorCode::TransactionFailed)))
            } else {
                // Every stake gives 1 of the house's part to another house account, is held
                // to its account's cap and counts its amount toward the account's target.
                Ok(Checked {
                    extra: vec![Leg::house(HouseAccount::Games, TND, -1), Leg::house(HouseAccount::Jackpots, TND, 1)],
                    capped: true,
                    progress: stake,
                })
            }
        }
        fn capped(&self, _req: &PostingRequest, cap: kernel::Minor) -> LedgerError {
            LedgerError::Refused(kernel::AppError::new(kernel::ErrorCode::BonusMaxBet).data(serde_json::json!({ "cap": cap })))
        }
        fn applied<'c>(
            &'c self,
            conn: &'c mut AnyConnection,
            postings: &'c [Applied<'c>],
            deferred: &'c mut Vec<Deferred>,
        ) -> BoxFuture<'c, Result<(), LedgerError>> {
            async move {
                for p in postings {
                    // A row written at the end of the transaction (id = -(tx id) - 1).
                    deferred.push(Box::new(p.tx_id));
                }
                for p in postings {
                    store::sqlx::query("INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES ($1, 'obs', $3, $2, '{}', 0)")
                        .bind(p.tx_id)
                        .bind(&p.req.idempotency_key)
                        .bind(if p.met { "met" } else { "applied" })
                        .execute(&mut *conn)
                        .await?;
                }
                // The legs as applied: the extra ones merged.
                for p in postings {
                    assert!(p.req.legs.iter().any(|l| l.account == AccountRef::House(HouseAccount::Jackpots)));
                }
                Ok(())
            }
            .boxed()
        }
        fn flush<'c>(&'c self, conn: &'c mut AnyConnection, deferred: Vec<Deferred>) -> BoxFuture<'c, Result<(), LedgerError>> {
            async move {
                for d in deferred {
                    let tx_id = *d.downcast::<i64>().expect("an i64");
                    store::sqlx::query("INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES ($1, 'obs', 'deferred', 'd', '{}', 0)")
                        .bind(-tx_id - 1)
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            }
            .boxed()
        }
        fn reversed<'c>(
            &'c self,
            conn: &'c mut AnyConnection,
            r: &'c Reversed,
            _deferred: &'c mut Vec<Deferred>,
        ) -> BoxFuture<'c, Result<(), LedgerError>> {
            async move {
                store::sqlx::query("INSERT INTO audit_log (id, actor, action, subject, details, created_at) VALUES ($1, 'obs', 'reversed', 'r', '{}', 0)")
                    .bind(-r.original_tx_id)
                    .execute(&mut *conn)
                    .await?;
                Ok(())
            }
            .boxed()
        }
    }

    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        assert!(ledger.set_observer(Arc::new(Watcher)));
        assert!(!ledger.set_observer(Arc::new(Watcher)), "one observer");
        for u in 10..14 {
            ledger
                .post(credit(u, 10_000, &format!("c{u}")))
                .await
                .unwrap();
        }
        let seen = |action: &'static str| {
            let db = db.clone();
            async move {
                store::sqlx::query_scalar::<_, i64>(
                    "SELECT COUNT(*) FROM audit_log WHERE actor = 'obs' AND action = $1",
                )
                .bind(action)
                .fetch_one(db.reader())
                .await
                .unwrap()
            }
        };
        // Credits are not watched.
        assert_eq!(seen("applied").await, 0);
        // One by one: accepted and recorded; refused before the debit, key left free.
        let ok = ledger.post(debit(10, 400, "s1")).await.unwrap();
        assert!(matches!(
            ledger.post(debit(10, 600, "s2")).await,
            Err(LedgerError::Refused(_))
        ));
        assert_eq!(
            ledger.balance(10, BalanceKind::Real, TND).await.unwrap(),
            9_600
        );
        assert!(
            ledger.lookup("s2").await.unwrap().is_none(),
            "the refused key is free"
        );
        assert_eq!(seen("applied").await, 1);
        // A replay does not reach the observer again.
        assert!(ledger.post(debit(10, 400, "s1")).await.unwrap().replayed);
        assert_eq!(seen("applied").await, 1);
        // Set-wise: each refused alone, the rest recorded in one call.
        let many = ledger
            .post_many(vec![
                debit(11, 100, "m1"),
                debit(12, 900, "m2"),
                debit(13, 200, "m3"),
                credit(11, 5, "m4"),
            ])
            .await;
        assert!(many[0].is_ok() && many[2].is_ok() && many[3].is_ok());
        assert!(matches!(many[1], Err(LedgerError::Refused(_))));
        assert!(ledger.lookup("m2").await.unwrap().is_none());
        assert_eq!(
            ledger.balance(12, BalanceKind::Real, TND).await.unwrap(),
            10_000
        );
        assert_eq!(seen("applied").await, 3);
        // Each applied posting's deferred row was written with it, a refused one's never.
        assert_eq!(seen("deferred").await, 3);
        // A reversal of a watched posting reaches it once.
        let req = |key: &str| RollbackRequest {
            rollback_key: key.into(),
            original_key: "s1".into(),
            user_id: Some(10),
            comment: "rollback".into(),
            metadata: serde_json::Value::Null,
        };
        ledger.rollback(req("r1")).await.unwrap();
        ledger.rollback(req("r2")).await.unwrap();
        assert_eq!(seen("reversed").await, 1);
        let rows: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE id = $1")
            .bind(-ok.tx_id)
            .fetch_one(db.reader())
            .await
            .unwrap();
        assert_eq!(rows, 1);
        // Each applied stake (one by one and set-wise) carried its extra legs: the house got 1
        // less per stake and the jackpots 1 more, in the stakes' own postings; the rollback of
        // s1 took its extra legs back too.
        let house = |kind: &'static str| {
            let db = db.clone();
            async move {
                store::sqlx::query_scalar::<_, i64>(
                    "SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = $1",
                )
                .bind(kind)
                .fetch_one(db.reader())
                .await
                .unwrap()
            }
        };
        assert_eq!(house("house:jackpots").await, 2, "m1 and m3");
        assert_eq!(house("house:games").await, 100 - 2 + 200 - 0);
        let stake_entries: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM ledger_entries WHERE tx_id = $1").bind(ok.tx_id).fetch_one(db.reader()).await.unwrap();
        assert_eq!(stake_entries, 3, "player, games, jackpots in the stake's own posting");
        // A retry of a stake replays it (its request hash is the caller's).
        assert!(ledger.post(debit(11, 100, "m1")).await.unwrap().replayed);

        // Wagering terms on the account (a bonus's maximum bet and requirement): a stake
        // above the cap is refused by its own balance update (nothing moves, the key stays
        // free), one by one and set-wise; the progress moves with each stake and the stake
        // that reaches the target is told so, once.
        {
            let mut conn = db.writer().acquire().await.unwrap();
            wallet::set_wager_terms(&mut conn, 11, BalanceKind::Real, TND, Some(300), Some(450), 0).await.unwrap();
        }
        let before = ledger.balance(11, BalanceKind::Real, TND).await.unwrap();
        match ledger.post(debit(11, 301, "cap1")).await {
            Err(LedgerError::Refused(e)) => assert_eq!(e.code, kernel::ErrorCode::BonusMaxBet),
            other => panic!("above the cap: {other:?}"),
        }
        let many = ledger.post_many(vec![debit(11, 350, "cap2"), debit(13, 350, "cap3")]).await;
        assert!(matches!(&many[0], Err(LedgerError::Refused(e)) if e.code == kernel::ErrorCode::BonusMaxBet), "{:?}", many[0]);
        assert!(many[1].is_ok(), "another account has no cap");
        assert!(ledger.lookup("cap1").await.unwrap().is_none() && ledger.lookup("cap2").await.unwrap().is_none());
        assert_eq!(ledger.balance(11, BalanceKind::Real, TND).await.unwrap(), before);
        let progress = |db: store::Db| async move {
            let mut conn = db.writer().acquire().await.unwrap();
            wallet::wager_progress(&mut conn, 11, BalanceKind::Real, TND).await.unwrap()
        };
        ledger.post(debit(11, 300, "w1a")).await.unwrap();
        assert_eq!(progress(db.clone()).await, (300, Some(450)));
        assert_eq!(seen("met").await, 0);
        let many = ledger.post_many(vec![debit(11, 200, "w1b")]).await;
        assert!(many[0].is_ok());
        assert_eq!(progress(db.clone()).await, (500, Some(450)));
        assert_eq!(seen("met").await, 1, "the stake that reached the target");
        // Lifted: no cap, no counting.
        let lifted = {
            let mut conn = db.writer().acquire().await.unwrap();
            wallet::clear_wager_terms(&mut conn, 11, BalanceKind::Real, TND).await.unwrap()
        };
        assert_eq!(lifted, 500);
        ledger.post(debit(11, 400, "w1c")).await.unwrap();
        assert_eq!(progress(db.clone()).await, (0, None));
        assert_consistent(&ledger).await;
    })
    .await;
}
