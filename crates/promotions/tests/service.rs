//! The promotions service on a real database: SQLite always, PostgreSQL too when
//! `TEST_DATABASE_URL` is set. Stakes are posted through the ledger exactly as the games post
//! them; the service sees them only through the wallet's observer.

use futures::future::join_all;
use kernel::{Currency, ErrorCode};
use promotions::service::{Grant, Promotions};
use promotions::terms::{Amount, Product, Template, WageringBase};
use store::testing::{backends, TestDb};
use store::Db;
use wallet::*;

const TND: Currency = Currency::Tnd;

async fn with_each_backend<F, Fut>(f: F)
where
    F: Fn(Db) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for backend in backends() {
        let (t, db) = TestDb::migrated(backend).await.expect("test database");
        eprintln!("backend: {backend:?}");
        f(db.clone()).await;
        db.close().await;
        t.cleanup().await;
    }
}

fn casino_terms(amount: i64, multiple: u32, max_bet: i64, max_conversion: i64) -> Template {
    Template {
        product: Product::Casino,
        amount: Amount::Fixed { amount },
        wagering_multiple: multiple,
        wagering_base: WageringBase::Bonus,
        max_bet,
        max_conversion,
        life_days: 30,
        min_odds: 0,
    }
}

async fn fund(ledger: &Ledger, user: i64, amount: i64) {
    ledger
        .adjust(
            user,
            TND,
            BalanceKind::Real,
            amount,
            "test",
            "funding",
            format!("fund:{user}:{amount}"),
        )
        .await
        .unwrap();
}

fn stake(user: i64, amount: i64, key: &str, game: &str) -> PostingRequest {
    PostingRequest::transfer(
        TxType::BetStake,
        key,
        Some(user),
        TND,
        AccountRef::Player {
            user_id: user,
            kind: BalanceKind::Real,
        },
        AccountRef::House(HouseAccount::Games),
        amount,
    )
    .metadata(serde_json::json!({ "provider": "studio", "gameId": game, "kind": "bet" }))
}

/// An amount in major units as the API writes it.
fn txt(m: &kernel::money::MajorUnits) -> String {
    serde_json::to_string(m).unwrap()
}

async fn balance(ledger: &Ledger, user: i64, kind: BalanceKind) -> i64 {
    ledger.balance(user, kind, TND).await.unwrap()
}

async fn status(p: &Promotions, user: i64, id: i64) -> String {
    p.bonuses(user)
        .await
        .unwrap()
        .into_iter()
        .find(|b| b.id == id.to_string())
        .map(|b| b.status)
        .unwrap_or_default()
}

/// Waits for the converter task (at most ~5 s), then sweeps: conversion happens either way.
async fn settle(p: &Promotions, user: i64, id: i64) {
    for _ in 0..100 {
        if status(p, user, id).await != "met" {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    p.sweep().await.unwrap();
}

#[tokio::test]
async fn a_template_above_the_maximum_multiple_is_refused_when_created() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db, ledger);
        let err = p
            .create_template("greedy", TND, &casino_terms(50_000, 11, 0, 0), "test")
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::BonusTermsRefused);
        assert!(p.template_id("greedy").await.unwrap().is_none());
        assert!(p
            .create_template("fair", TND, &casino_terms(50_000, 10, 0, 0), "test")
            .await
            .is_ok());
        assert_eq!(
            p.create_template("fair", TND, &casino_terms(1, 1, 0, 0), "test")
                .await
                .unwrap_err()
                .code,
            ErrorCode::BonusTermsRefused
        );
    })
    .await;
}

#[tokio::test]
async fn wagering_counts_every_stake_by_its_contribution_then_converts_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db, ledger.clone());
        // 50 TND bonus, 2× wagering = 100 TND, at most 40 TND converts.
        let t = p
            .create_template("welcome", TND, &casino_terms(50_000, 2, 0, 40_000), "test")
            .await
            .unwrap();
        let user = 501;
        fund(&ledger, user, 500_000).await;
        let g = p
            .grant(user, TND, t, 0, "code", "code:WELCOME:501")
            .await
            .unwrap();
        let Grant::Active(id) = g else {
            panic!("{g:?}")
        };
        assert_eq!(
            p.grant(user, TND, t, 0, "code", "code:WELCOME:501")
                .await
                .unwrap(),
            Grant::Existing(id),
            "a retry grants nothing more"
        );
        assert_eq!(balance(&ledger, user, BalanceKind::Bonus).await, 50_000);
        // A second bonus of the same product waits for the first.
        let Grant::Queued(second) = p.grant(user, TND, t, 0, "code", "other:501").await.unwrap()
        else {
            panic!()
        };
        assert_eq!(balance(&ledger, user, BalanceKind::Bonus).await, 50_000);

        // Roulette counts 20 %: 50 TND staked → 10 TND.
        ledger
            .post(stake(user, 50_000, "r1", "roulette"))
            .await
            .unwrap();
        let view = |p: Promotions| async move {
            p.bonuses(user)
                .await
                .unwrap()
                .into_iter()
                .find(|b| b.id == id.to_string())
                .unwrap()
        };
        let v = view(p.clone()).await;
        assert_eq!(
            (txt(&v.wagered), txt(&v.remaining)),
            ("10.000".into(), "90.000".into())
        );
        // A rolled-back stake takes its contribution back.
        ledger
            .post(stake(user, 30_000, "s-void", "slots"))
            .await
            .unwrap();
        assert_eq!(txt(&view(p.clone()).await.wagered), "40.000");
        ledger
            .rollback(RollbackRequest {
                original_key: "s-void".into(),
                rollback_key: "rb".into(),
                user_id: Some(user),
                comment: "void".into(),
                metadata: serde_json::Value::Null,
            })
            .await
            .unwrap();
        assert_eq!(txt(&view(p.clone()).await.wagered), "10.000");
        // Slots count 100 %; set-wise postings count as well. 90 TND more meets 100.
        let many = ledger
            .post_many(vec![stake(user, 45_000, "s1", "slots")])
            .await;
        assert!(many[0].is_ok());
        assert_eq!(txt(&view(p.clone()).await.wagered), "55.000");
        ledger
            .post(stake(user, 45_000, "s2", "book-of-carthage"))
            .await
            .unwrap();
        settle(&p, user, id).await;
        let v = view(p.clone()).await;
        assert_eq!(v.status, "converted");
        assert_eq!(
            txt(&v.converted),
            "40.000",
            "capped at the maximum conversion"
        );
        // Real: 500 − 50 − 45 − 45 + 40 (conversion); the forfeited 10 went back to the house.
        assert_eq!(
            balance(&ledger, user, BalanceKind::Real).await,
            500_000 - 140_000 + 40_000
        );
        // The queued bonus opened as the first closed.
        assert_eq!(status(&p, user, second).await, "active");
        assert_eq!(balance(&ledger, user, BalanceKind::Bonus).await, 50_000);
        // Sweeping again converts nothing more.
        assert_eq!(p.sweep().await.unwrap(), (0, 0));
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}

#[tokio::test]
async fn a_stake_above_the_maximum_bet_is_refused_before_the_debit() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db, ledger.clone());
        let t = p
            .create_template("capped", TND, &casino_terms(20_000, 5, 5_000, 0), "test")
            .await
            .unwrap();
        let user = 502;
        fund(&ledger, user, 100_000).await;
        // Without a bonus any stake goes.
        ledger
            .post(stake(user, 9_000, "free", "slots"))
            .await
            .unwrap();
        p.grant(user, TND, t, 0, "test", "t:502").await.unwrap();
        let err = ledger
            .post(stake(user, 5_001, "big", "slots"))
            .await
            .unwrap_err();
        let LedgerError::Refused(e) = err else {
            panic!("{err:?}")
        };
        assert_eq!(e.code, ErrorCode::BonusMaxBet);
        assert_eq!(e.data.as_ref().unwrap()["maxBet"].as_f64(), Some(5.0));
        assert_eq!(
            balance(&ledger, user, BalanceKind::Real).await,
            91_000,
            "nothing moved"
        );
        assert!(
            ledger.lookup("big").await.unwrap().is_none(),
            "nothing recorded"
        );
        // Set-wise too.
        let r = ledger
            .post_many(vec![
                stake(user, 6_000, "big2", "slots"),
                stake(user, 5_000, "ok2", "slots"),
            ])
            .await;
        assert!(matches!(&r[0], Err(LedgerError::Refused(e)) if e.code == ErrorCode::BonusMaxBet));
        // (Same account twice: the second runs in the next step, after the first was refused.)
        assert!(r[1].is_ok());
        assert_eq!(balance(&ledger, user, BalanceKind::Real).await, 86_000);
        ledger
            .post(stake(user, 5_000, "ok", "slots"))
            .await
            .unwrap();
    })
    .await;
}

#[tokio::test]
async fn giving_up_forfeits_the_bonus_and_keeps_real_money() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db, ledger.clone());
        let t = p
            .create_template("gift", TND, &casino_terms(30_000, 10, 0, 0), "test")
            .await
            .unwrap();
        let user = 503;
        fund(&ledger, user, 70_000).await;
        let id = p
            .grant(user, TND, t, 0, "test", "g:503")
            .await
            .unwrap()
            .id();
        ledger
            .post(stake(user, 10_000, "s", "slots"))
            .await
            .unwrap();
        assert_eq!(p.open_wagering(user).await.unwrap(), Some((290_000, TND)));
        p.give_up(user, id).await.unwrap();
        assert_eq!(balance(&ledger, user, BalanceKind::Bonus).await, 0);
        assert_eq!(balance(&ledger, user, BalanceKind::Real).await, 60_000);
        assert_eq!(status(&p, user, id).await, "given_up");
        assert_eq!(p.open_wagering(user).await.unwrap(), None);
        assert_eq!(
            p.give_up(user, id).await.unwrap_err().code,
            ErrorCode::NoSuchBonus
        );
        // Another player's bonus is not yours to give up.
        let other = p.grant(504, TND, t, 0, "test", "g:504").await.unwrap().id();
        assert_eq!(
            p.give_up(user, other).await.unwrap_err().code,
            ErrorCode::NoSuchBonus
        );
        assert_eq!(status(&p, 504, other).await, "active");
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}

#[tokio::test]
async fn concurrent_stakes_meeting_the_requirement_convert_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let t = p
            .create_template("race", TND, &casino_terms(10_000, 1, 0, 0), "test")
            .await
            .unwrap();
        let user = 505;
        fund(&ledger, user, 1_000_000).await;
        let id = p
            .grant(user, TND, t, 0, "test", "race:505")
            .await
            .unwrap()
            .id();
        // 40 stakes of 1 TND at once against a requirement of 10 TND; sweeps race the converter.
        let stakes = (0..40).map(|i| {
            let ledger = ledger.clone();
            async move {
                ledger
                    .post(stake(user, 1_000, &format!("c{i}"), "slots"))
                    .await
                    .unwrap()
            }
        });
        join_all(stakes).await;
        join_all((0..4).map(|_| p.sweep())).await;
        settle(&p, user, id).await;
        assert_eq!(status(&p, user, id).await, "converted");
        let conversions: i64 = store::sqlx::query_scalar(
            "SELECT COUNT(*) FROM ledger_transactions WHERE tx_type = $1 AND user_id = $2",
        )
        .bind(TxType::BonusConversion.code())
        .bind(user)
        .fetch_one(db.reader())
        .await
        .unwrap();
        assert_eq!(conversions, 1);
        assert_eq!(
            balance(&ledger, user, BalanceKind::Real).await,
            1_000_000 - 40_000 + 10_000
        );
        assert_eq!(balance(&ledger, user, BalanceKind::Bonus).await, 0);
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}
