//! The standing deposit bonus across a restart (issue 19): a deposit credited while no
//! promotions service watched (the process died between the deposit's commit and its grant)
//! is granted by the next process's sweep, exactly once however many sweeps race; a later
//! operator change of `limits.bonus` is read at grant time. SQLite always, PostgreSQL too when
//! `TEST_DATABASE_URL` is set.

use futures::future::join_all;
use kernel::Currency;
use promotions::service::Promotions;
use store::testing::with_each_backend;
use store::Db;
use wallet::*;

const TND: Currency = Currency::Tnd;

async fn user(db: &Db, id: i64) {
    store::sqlx::query(
        "INSERT INTO users (id, email, password_hash, currency, registered_via, created_at, updated_at) VALUES ($1, $2, 'x', 'TND', 'web', $3, $3)",
    )
    .bind(id)
    .bind(format!("u{id}@test.local"))
    .bind(kernel::clock::now_ms())
    .execute(db.writer())
    .await
    .unwrap();
}

fn deposit(t: TxType, user_id: i64, key: &str, amount: i64) -> PostingRequest {
    PostingRequest::transfer(t, key, Some(user_id), TND, AccountRef::House(HouseAccount::Payments),
        AccountRef::Player { user_id, kind: BalanceKind::Real }, amount)
}

async fn bonus_rows(db: &Db, user_id: i64) -> Vec<(String, i64)> {
    use store::sqlx::Row;
    store::sqlx::query("SELECT source_key, amount FROM bonuses WHERE user_id = $1 ORDER BY granted_at, id")
        .bind(user_id)
        .fetch_all(db.writer())
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

#[tokio::test]
async fn a_deposit_left_by_a_restart_is_granted_once_by_the_next_sweep() {
    with_each_backend(|db| async move {
        user(&db, 7001).await;
        // The first process: the player opts in, then the process dies (the service is gone,
        // so the deposit's observer no longer reaches it) before the deposit is granted.
        let ledger = Ledger::new(db.clone());
        let first = Promotions::new(db.clone(), ledger.clone());
        assert!(first.set_deposit_bonus(7001, true).await.unwrap().enabled);
        drop(first);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let tx = ledger.post(deposit(TxType::CashierPayment, 7001, "restart-dep", 80_000)).await.unwrap().tx_id;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert!(bonus_rows(&db, 7001).await.is_empty(), "nobody granted it");

        // The next process: its sweeps, racing, grant it once.
        let ledger = Ledger::new(db.clone());
        let next = Promotions::new(db.clone(), ledger.clone());
        let granted: usize = join_all((0..6).map(|_| next.sweep_standing_deposit_bonuses())).await.into_iter().map(|r| r.unwrap()).sum();
        assert_eq!(granted, 1);
        assert_eq!(bonus_rows(&db, 7001).await, vec![(format!("deposit:{tx}"), 20_000)]);
        assert_eq!(ledger.balance(7001, BalanceKind::Bonus, TND).await.unwrap(), 20_000);
        next.sweep().await.unwrap();
        assert_eq!(bonus_rows(&db, 7001).await.len(), 1);

        // The operator lowers the share to 10 % and the cap to 3: read at the next grant.
        let content = content::Content::new(db.clone());
        let mut s = content.settings().await.unwrap();
        s["limits"]["bonus"]["maxBonusPercent"] = serde_json::json!(0.1);
        s["limits"]["bonus"]["maxBonusSize"] = serde_json::json!("3");
        content.put_settings(&s).await.unwrap();
        next.use_content(content);
        ledger.post(deposit(TxType::Deposit, 7001, "dep-2", 20_000)).await.unwrap();
        ledger.post(deposit(TxType::PaymentService, 7001, "dep-3", 90_000)).await.unwrap();
        for _ in 0..100 {
            if bonus_rows(&db, 7001).await.len() == 3 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        next.sweep().await.unwrap();
        let amounts: Vec<i64> = bonus_rows(&db, 7001).await.iter().map(|r| r.1).collect();
        assert_eq!(amounts, vec![20_000, 2_000, 3_000], "10 % of 20; 10 % of 90 capped at 3");
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}
