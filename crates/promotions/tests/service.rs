//! The promotions service on a real database: SQLite always, PostgreSQL too when
//! `TEST_DATABASE_URL` is set. Stakes are posted through the ledger exactly as the games post
//! them; the service sees them only through the wallet's observer.

use futures::future::join_all;
use kernel::{Currency, ErrorCode};
use promotions::service::{Grant, Promotions};
use promotions::terms::{Amount, Product, Template, WageringBase};
use store::testing::with_each_backend;
use store::Db;
use wallet::*;

const TND: Currency = Currency::Tnd;

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

async fn user(db: &Db, id: i64, currency: &str, created_at: i64, ref_id: Option<&str>) {
    store::sqlx::query(
        "INSERT INTO users (id, email, password_hash, currency, ref_id, registered_via, created_at, updated_at) VALUES ($1, $2, 'x', $3, $4, 'web', $5, $5)",
    )
    .bind(id)
    .bind(format!("u{id}@test.local"))
    .bind(currency)
    .bind(ref_id)
    .bind(created_at)
    .execute(db.writer())
    .await
    .unwrap();
}

fn spec(code: &str, kind: &str) -> promotions::service::CodeSpec {
    serde_json::from_value(serde_json::json!({ "code": code, "kind": kind })).unwrap()
}

fn posting(t: TxType, user: i64, key: &str, amount: i64, to_player: bool) -> PostingRequest {
    let player = AccountRef::Player {
        user_id: user,
        kind: BalanceKind::Real,
    };
    let house = AccountRef::House(HouseAccount::Payments);
    let (from, to) = if to_player {
        (house, player)
    } else {
        (player, house)
    };
    PostingRequest::transfer(t, key, Some(user), TND, from, to, amount)
}

#[tokio::test]
async fn every_promo_code_refusal_2200_to_2215() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let now = kernel::clock::now_ms();
        let t = p
            .create_template("code-bonus", TND, &casino_terms(10_000, 5, 0, 0), "test")
            .await
            .unwrap();
        let mk = |code: &'static str, patch: serde_json::Value| {
            let p = p.clone();
            async move {
                let mut v =
                    serde_json::json!({ "code": code, "kind": "bonus", "template": "code-bonus" });
                for (k, x) in patch.as_object().unwrap() {
                    v[k] = x.clone();
                }
                p.create_code(&serde_json::from_value(v).unwrap(), "test")
                    .await
                    .unwrap();
            }
        };
        use serde_json::json;
        mk("OPEN", json!({})).await;
        mk("OLD", json!({ "valid_until": now - 1 })).await;
        mk("LATER", json!({ "valid_from": now + 3_600_000 })).await;
        mk("PARTNER9", json!({ "partner_id": 9 })).await;
        mk("BLOCKME", json!({})).await;
        mk("DEP", json!({ "kind": "deposit_bonus" })).await;
        mk("TURN", json!({ "min_turnover": 1 })).await;
        mk("TWODEP", json!({ "min_deposits": 2 })).await;
        mk("ONCE", json!({ "max_uses": 1 })).await;
        mk("NEWBIE", json!({ "new_players_only": true })).await;
        mk("PYGONLY", json!({ "currency": "PYG" })).await;
        mk(
            "REF9",
            json!({ "kind": "partner_referral", "partner_id": 9, "template": null }),
        )
        .await;
        p.block_code("blockme", true).await.unwrap();
        store::sqlx::query("UPDATE promo_codes SET kind = 'lottery' WHERE code = 'OPEN'")
            .execute(db.writer())
            .await
            .unwrap();
        mk("FINE", json!({})).await;

        user(&db, 601, "TND", now - 86_400_000, Some("7")).await; // referred by partner 7, registered yesterday
        user(&db, 9, "TND", now - 86_400_000, None).await; // partner 9
        user(&db, 602, "TND", now + 60_000, None).await; // registered after the codes were created
                                                         // 601 deposited then withdrew.
        ledger
            .post(posting(TxType::Deposit, 601, "d1", 5_000, true))
            .await
            .unwrap();
        ledger
            .post(posting(TxType::Withdrawal, 601, "w1", 1_000, false))
            .await
            .unwrap();

        let code = |u: i64, c: &'static str, signup: bool| {
            let p = p.clone();
            async move {
                p.activate_code(u, c, signup)
                    .await
                    .map(|_| ())
                    .map_err(|e| e.code.code())
            }
        };
        assert_eq!(code(601, "NOPE", false).await, Err(2200));
        assert_eq!(code(601, "OLD", false).await, Err(2201));
        assert_eq!(code(601, "FINE", false).await, Ok(()));
        assert_eq!(code(601, "FINE", false).await, Err(2202));
        assert_eq!(code(601, "PARTNER9", false).await, Err(2203));
        assert_eq!(code(9, "PARTNER9", false).await, Err(2204));
        assert_eq!(code(601, "OPEN", false).await, Err(2205));
        assert_eq!(code(601, "BLOCKME", false).await, Err(2206));
        assert_eq!(code(601, "DEP", false).await, Err(2207));
        assert_eq!(code(601, "TURN", false).await, Err(2208));
        assert_eq!(code(601, "TWODEP", false).await, Err(2209));
        assert_eq!(code(601, "LATER", false).await, Err(2210));
        assert_eq!(code(602, "ONCE", false).await, Ok(()));
        assert_eq!(code(601, "ONCE", false).await, Err(2211));
        assert_eq!(code(601, "NEWBIE", false).await, Err(2212));
        assert_eq!(code(601, "PYGONLY", false).await, Err(2213));
        assert_eq!(code(602, "REF9", false).await, Err(2214));
        assert_eq!(code(602, "REF9", true).await, Ok(()));
        let ref_id: Option<String> =
            store::sqlx::query_scalar("SELECT ref_id FROM users WHERE id = 602")
                .fetch_one(db.reader())
                .await
                .unwrap();
        assert_eq!(
            ref_id.as_deref(),
            Some("9"),
            "the referral links the player to its partner"
        );
        // Ten wrong codes in an hour, then 2215 even for a good one.
        for i in 0..9 {
            assert_eq!(
                p.check_code(602, &format!("WRONG{i}"), false)
                    .await
                    .unwrap_err()
                    .code
                    .code(),
                2200
            );
        }
        assert_eq!(
            code(602, "NEWBIE", false).await,
            Ok(()),
            "a good code under the limit"
        );
        assert_eq!(code(602, "WRONG9", false).await, Err(2200));
        assert_eq!(code(602, "PYGONLY", false).await, Err(2215));
        assert_eq!(t, p.template_id("code-bonus").await.unwrap().unwrap());
        // Each refused activation changed nothing: one bonus for 601 (FINE), none for the rest.
        let bonuses: i64 =
            store::sqlx::query_scalar("SELECT COUNT(*) FROM bonuses WHERE user_id = 601")
                .fetch_one(db.reader())
                .await
                .unwrap();
        assert_eq!(bonuses, 1);
    })
    .await;
}

#[tokio::test]
async fn concurrent_activations_grant_once_and_respect_the_global_limit() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let now = kernel::clock::now_ms();
        p.create_template("race-bonus", TND, &casino_terms(10_000, 5, 0, 0), "test")
            .await
            .unwrap();
        let mut s = spec("RACE", "bonus");
        s.template = Some("race-bonus".into());
        s.max_uses = 5;
        p.create_code(&s, "test").await.unwrap();
        for u in 700..720 {
            user(&db, u, "TND", now, None).await;
        }
        // One player tapping twenty times: one bonus. A tap that finds the activation booked
        // and its grant under way completes the same grant (the crash-repair path), so it
        // answers the same bonus; the others answer 2202.
        let same = join_all((0..20).map(|_| p.activate_code(700, "race", false))).await;
        let mut ids: Vec<String> = same.iter().filter_map(|r| r.as_ref().ok()).filter_map(|a| a.bonus_id.clone()).collect();
        ids.dedup();
        assert_eq!(ids.len(), 1, "{same:?}");
        assert!(same.iter().filter_map(|r| r.as_ref().err()).all(|e| e.code == ErrorCode::PromoAlreadyActivated));
        let mine: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM bonuses WHERE user_id = 700").fetch_one(db.reader()).await.unwrap();
        assert_eq!(mine, 1);
        // Twenty players for the five uses (one taken): exactly four more.
        let many = join_all((701..720).map(|u| p.activate_code(u, "RACE", false))).await;
        assert_eq!(many.iter().filter(|r| r.is_ok()).count(), 4);
        assert!(many
            .iter()
            .filter_map(|r| r.as_ref().err())
            .all(|e| e.code == ErrorCode::PromoUsedUp));
        let bonuses: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM bonuses")
            .fetch_one(db.reader())
            .await
            .unwrap();
        assert_eq!(bonuses, 5);
        assert_eq!(ledger.verify().await.unwrap().is_consistent(), true);
    })
    .await;
}

#[tokio::test]
async fn a_free_bet_code_grants_inactive_free_bets_the_player_activates() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        user(&db, 801, "TND", kernel::clock::now_ms(), None).await;
        let mut s = spec("FREEBET", "free_bets");
        s.free_bet_amount = 10_000;
        s.free_bet_count = 1;
        p.create_code(&s, "test").await.unwrap();
        let mut bad = spec("ODDVALUE", "free_bets");
        bad.free_bet_amount = 12_000;
        bad.free_bet_count = 1;
        assert_eq!(
            p.create_code(&bad, "test").await.unwrap_err().code,
            ErrorCode::BonusTermsRefused
        );
        let a = p.activate_code(801, "freebet", false).await.unwrap();
        assert_eq!(a.free_bets, 1);
        assert_eq!(
            balance(&ledger, 801, BalanceKind::FreeBet).await,
            0,
            "inactive: nothing moved yet"
        );
        let fb = p.free_bets(801).await.unwrap();
        assert_eq!(
            (fb.len(), fb[0].status.as_str(), fb[0].min_odds),
            (1, "inactive", 2.2)
        );
        // Activation moves it into the free-bet balance, once.
        let twice = join_all((0..5).map(|_| p.activate_free_bets(801))).await;
        assert_eq!(twice.iter().filter(|r| r.is_ok()).count(), 1);
        assert!(twice
            .iter()
            .filter_map(|r| r.as_ref().err())
            .all(|e| e.code == ErrorCode::FreeBetsEmpty));
        assert_eq!(balance(&ledger, 801, BalanceKind::FreeBet).await, 10_000);
        // A free-bet stake uses it up.
        let stake = PostingRequest::transfer(
            TxType::SportStake,
            "fb-stake",
            Some(801),
            TND,
            AccountRef::Player {
                user_id: 801,
                kind: BalanceKind::FreeBet,
            },
            AccountRef::House(HouseAccount::Sportsbook),
            10_000,
        );
        ledger.post(stake).await.unwrap();
        assert_eq!(p.free_bets(801).await.unwrap()[0].status, "used");
        let stats = p.free_bet_stats(801).await.unwrap();
        assert_eq!(stats.possible_free_bets, 0);
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}

/// A stake of one chosen free bet uses that one: a player holding 10 and 50 who stakes 50 keeps
/// the 10 active (its value is still in the free-bet balance).
#[tokio::test]
async fn a_free_bet_stake_uses_the_free_bet_of_its_value() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        user(&db, 802, "TND", kernel::clock::now_ms(), None).await;
        p.grant_free_bets(802, TND, 10_000, 1, "fb-small").await.unwrap();
        p.grant_free_bets(802, TND, 50_000, 1, "fb-large").await.unwrap();
        p.activate_free_bets(802).await.unwrap();
        assert_eq!(balance(&ledger, 802, BalanceKind::FreeBet).await, 60_000);
        let stake = PostingRequest::transfer(
            TxType::SportStake,
            "fb-50",
            Some(802),
            TND,
            AccountRef::Player { user_id: 802, kind: BalanceKind::FreeBet },
            AccountRef::House(HouseAccount::Sportsbook),
            50_000,
        );
        ledger.post(stake).await.unwrap();
        let mut states: Vec<(String, String)> = p.free_bets(802).await.unwrap().into_iter().map(|f| (serde_json::to_string(&f.amount).unwrap(), f.status)).collect();
        states.sort();
        assert_eq!(states.iter().filter(|(_, s)| s == "used").count(), 1, "{states:?}");
        assert_eq!(states.iter().filter(|(_, s)| s == "active").count(), 1, "{states:?}");
        assert_eq!(balance(&ledger, 802, BalanceKind::FreeBet).await, 10_000);
        let active = p.free_bets(802).await.unwrap().into_iter().find(|f| f.status == "active").unwrap();
        assert_eq!(serde_json::to_value(&active.amount).unwrap(), serde_json::to_value(kernel::money::MajorUnits::new(10_000, TND)).unwrap());
    })
    .await;
}

#[tokio::test]
async fn concurrent_stakes_crossing_jackpot_drop_points_drop_each_cycle_once_verifiably() {
    with_each_backend(|db| async move {
        use store::sqlx::Row;
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        // Seed 1 TND, cap 3 TND, the whole stake contributes (a test pool): 200 concurrent
        // stakes of 0.010 bring 2 TND while four folders run, so the pool drops at least once
        // (each new cycle may drop again from the contributions that follow its winner).
        let (seed_amount, cap) = (1_000, 3_000);
        p.create_pool("mega", 1, "Mega", TND, seed_amount, cap, 10_000, "").await.unwrap();
        for u in 0..200 {
            fund(&ledger, 9_000 + u, 1_000).await;
        }
        let stakes = (0..200).map(|u| {
            let ledger = ledger.clone();
            async move { ledger.post(stake(9_000 + u, 10, &format!("jp{u}"), "slots")).await.unwrap() }
        });
        let folders = (0..4).map(|_| {
            let p = p.clone();
            async move {
                for _ in 0..20 {
                    p.fold_jackpots().await.unwrap();
                    tokio::task::yield_now().await;
                }
            }
        });
        futures::join!(join_all(stakes), join_all(folders));
        while p.fold_jackpots().await.unwrap() > 0 {}

        let (n, wins) = p.jackpot_wins(None, false, 0, i64::MAX, 100, 0).await.unwrap();
        assert!(n >= 1, "the pool dropped");
        let paid: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM ledger_transactions WHERE tx_type = $1").bind(TxType::JackpotWin.code()).fetch_one(db.reader()).await.unwrap();
        assert_eq!(paid, n, "every drop paid once");
        let mut cycles: Vec<i64> = wins.iter().map(|w| w.cycle).collect();
        cycles.sort();
        assert_eq!(cycles, (1..=n).collect::<Vec<_>>(), "one drop per cycle, none skipped");
        let minor = |m: &kernel::money::MajorUnits| (serde_json::to_value(m).unwrap().as_f64().unwrap() * 1000.0).round() as i64;
        let mut won = 0;
        for w in &wins {
            // Anyone recomputes the drop point from the revealed seed and its published hash …
            let drop = promotions::service::verify_drop(&w.server_seed, &w.seed_hash, "mega", w.cycle, seed_amount, cap).expect("the seed matches its hash");
            assert_eq!(minor(&w.drop_point), drop);
            // … and sees that the winning contribution took the pool from below it to it.
            let c = store::sqlx::query("SELECT c.amount, c.user_id FROM jackpot_contributions c JOIN jackpot_wins w ON w.contribution_id = c.id WHERE w.id = $1")
                .bind(w.id.parse::<i64>().unwrap())
                .fetch_one(db.reader())
                .await
                .unwrap();
            let (amount, user): (i64, i64) = (c.get(0), c.get(1));
            let paid = minor(&w.amount);
            assert!(paid - amount < drop && drop <= paid, "{paid} {amount} {drop}");
            assert_eq!(w.user_id, user);
            won += paid;
        }
        assert!(promotions::service::verify_drop(&wins[0].server_seed, &"0".repeat(64), "mega", 1, seed_amount, cap).is_none());
        // Conservation: every contribution counted once — the wins and what the pool holds now
        // are the seeds of every cycle begun plus all contributions.
        let view = p.jackpots().await.unwrap();
        assert_eq!(view[0].cycle, n + 1);
        assert_eq!(won + minor(&view[0].amount), seed_amount * (n + 1) + 200 * 10);
        let unfolded: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM jackpot_contributions WHERE folded = 0").fetch_one(db.reader()).await.unwrap();
        assert_eq!(unfolded, 0);
        // The house account holds exactly the pool: seeds and contributions in, wins out.
        let house: i64 = store::sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = 'house:jackpots'",
        )
        .fetch_one(db.reader())
        .await
        .unwrap();
        assert_eq!(house, minor(&view[0].amount));
        // A winner sees the modal once; another player cannot mark it.
        let user = wins[0].user_id;
        let id: i64 = wins[0].id.parse().unwrap();
        assert!(!p.jackpot_shown(user + 100_000, id).await.unwrap(), "not another player's");
        assert!(p.jackpot_shown(user, id).await.unwrap());
        assert!(ledger.verify().await.unwrap().is_consistent());
        assert_eq!(p.verify().await.unwrap(), Vec::<String>::new());
        // A pool that does not match its house account is reported (balanced postings cannot show it).
        store::sqlx::query("UPDATE jackpot_pools SET amount = amount + 1").execute(db.writer()).await.unwrap();
        assert_eq!(p.verify().await.unwrap().len(), 1);
    })
    .await;
}

#[tokio::test]
async fn a_forced_drop_is_the_next_stake_and_stays_verifiable() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        p.create_pool("small", 3, "Small", TND, 100_000, 1_000_000, 100, "").await.unwrap();
        fund(&ledger, 950, 100_000).await;
        assert!(p.force_drop("small").await.unwrap() > 0);
        assert_eq!(p.fold_jackpots().await.unwrap(), 0, "one below the point: no drop yet");
        ledger.post(stake(950, 1_000, "forced", "slots")).await.unwrap();
        assert_eq!(p.fold_jackpots().await.unwrap(), 1);
        let (_, w) = p.jackpot_wins(Some(950), true, 0, i64::MAX, 10, 0).await.unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(p.verify().await.unwrap(), Vec::<String>::new());
        let drop = promotions::service::verify_drop(&w[0].server_seed, &w[0].seed_hash, "small", 1, 100_000, 1_000_000).unwrap();
        assert_eq!(serde_json::to_string(&w[0].drop_point).unwrap(), serde_json::to_string(&kernel::money::MajorUnits::new(drop, TND)).unwrap());
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}

#[tokio::test]
async fn a_deposit_bonus_code_is_granted_by_the_next_deposit_whatever_its_rail() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let mut t = casino_terms(1, 5, 0, 0);
        t.amount = Amount::PercentOfDeposit { bps: 2_500, cap: 1_000_000 };
        p.create_template("deposit-25", TND, &t, "test").await.unwrap();
        let mut s = spec("DEP25", "deposit_bonus");
        s.template = Some("deposit-25".into());
        p.create_code(&s, "test").await.unwrap();
        for u in [960, 961] {
            user(&db, u, "TND", kernel::clock::now_ms(), None).await;
            p.activate_code(u, "DEP25", false).await.unwrap();
        }
        assert_eq!(balance(&ledger, 960, BalanceKind::Bonus).await, 0, "nothing before the deposit");
        // A provider deposit (16) for one, a cashier deposit (114) for the other.
        ledger.post(posting(TxType::PaymentService, 960, "dep960", 40_000, true)).await.unwrap();
        ledger.post(posting(TxType::CashierPayment, 961, "dep961", 8_000, true)).await.unwrap();
        for _ in 0..100 {
            if balance(&ledger, 960, BalanceKind::Bonus).await > 0 && balance(&ledger, 961, BalanceKind::Bonus).await > 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        p.sweep().await.unwrap();
        assert_eq!(balance(&ledger, 960, BalanceKind::Bonus).await, 10_000, "25 % of 40");
        assert_eq!(balance(&ledger, 961, BalanceKind::Bonus).await, 2_000, "25 % of 8");
        // A second deposit grants nothing more; a sweep neither.
        ledger.post(posting(TxType::PaymentService, 960, "dep960b", 40_000, true)).await.unwrap();
        p.sweep().await.unwrap();
        assert_eq!(p.grant_deposit_bonuses(960).await.unwrap(), 0);
        assert_eq!(balance(&ledger, 960, BalanceKind::Bonus).await, 10_000);
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}

#[tokio::test]
async fn a_rolled_back_stake_takes_its_jackpot_share_back_folded_or_not() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        p.create_pool("medium", 2, "Medium", TND, 1_000_000, 100_000_000, 1_000, "").await.unwrap();
        fund(&ledger, 970, 100_000).await;
        let amount = |p: Promotions| async move { txt(&p.jackpots().await.unwrap()[0].amount) };
        let rollback = |key: &str| RollbackRequest {
            original_key: key.into(),
            rollback_key: format!("rb:{key}"),
            user_id: Some(970),
            comment: "void".into(),
            metadata: serde_json::Value::Null,
        };
        // Folded first: the rollback leaves a negative share the pool folds.
        ledger.post(stake(970, 10_000, "folded", "slots")).await.unwrap();
        p.fold_jackpots().await.unwrap();
        assert_eq!(amount(p.clone()).await, "1001.000");
        ledger.rollback(rollback("folded")).await.unwrap();
        p.fold_jackpots().await.unwrap();
        assert_eq!(amount(p.clone()).await, "1000.000");
        // Not folded yet: the share is simply dropped.
        ledger.post(stake(970, 10_000, "fresh", "slots")).await.unwrap();
        ledger.rollback(rollback("fresh")).await.unwrap();
        p.fold_jackpots().await.unwrap();
        assert_eq!(amount(p.clone()).await, "1000.000");
        // Staked and rolled back in one transaction (its share's row is still deferred when
        // the rollback comes): never written, the pool unchanged. Also concurrently, stakes and
        // rollbacks of other keys sharing SQLite's group commits.
        ledger
            .post_all(vec![AllRequest::Post(stake(970, 10_000, "same", "slots")), AllRequest::Rollback(rollback("same"))])
            .await
            .unwrap();
        let many = (0..20).map(|i| {
            let ledger = ledger.clone();
            async move {
                let key = format!("c{i}");
                ledger.post(stake(970, 1_000, &key, "slots")).await.unwrap();
                if i % 2 == 0 {
                    ledger.rollback(RollbackRequest { original_key: key.clone(), rollback_key: format!("rb:{key}"), user_id: Some(970), comment: "void".into(), metadata: serde_json::Value::Null }).await.unwrap();
                }
            }
        });
        join_all(many).await;
        p.fold_jackpots().await.unwrap();
        // Ten stakes of 1.000 stayed: 10 % each.
        assert_eq!(amount(p.clone()).await, "1001.000");
        let rows: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM jackpot_contributions WHERE amount > 0").fetch_one(db.reader()).await.unwrap();
        assert_eq!(rows, 1 + 10, "the folded stake's and the ten that stayed");
        assert_eq!(p.verify().await.unwrap(), Vec::<String>::new());
        assert_eq!(balance(&ledger, 970, BalanceKind::Real).await, 100_000 - 10_000);
        assert!(ledger.verify().await.unwrap().is_consistent());
    })
    .await;
}

/// Every new posting path raced and reversed as an attacker would: 20 give-ups at once forfeit
/// once, 20 conversions at once convert once, and no grant, conversion, forfeit or free-bet
/// posting can be rolled back (only bets and wins are reversible), under any key, twice.
#[tokio::test]
async fn bonus_postings_race_once_and_cannot_be_reversed() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let t = p.create_template("race-close", TND, &casino_terms(10_000, 1, 0, 0), "test").await.unwrap();
        let count = |t: TxType, user: i64| {
            let db = db.clone();
            async move {
                store::sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM ledger_transactions WHERE tx_type = $1 AND user_id = $2")
                    .bind(t.code())
                    .bind(user)
                    .fetch_one(db.reader())
                    .await
                    .unwrap()
            }
        };
        // 20 give-ups at once.
        fund(&ledger, 980, 50_000).await;
        let id = p.grant(980, TND, t, 0, "test", "race:980").await.unwrap().id();
        let tries = join_all((0..20).map(|_| p.give_up(980, id))).await;
        assert_eq!(tries.iter().filter(|r| r.is_ok()).count(), 1);
        assert_eq!(count(TxType::BonusForfeit, 980).await, 1);
        assert_eq!((balance(&ledger, 980, BalanceKind::Bonus).await, balance(&ledger, 980, BalanceKind::Real).await), (0, 50_000));
        // 20 conversions at once (the converter task and the sweep race them too).
        fund(&ledger, 981, 50_000).await;
        let id = p.grant(981, TND, t, 0, "test", "race:981").await.unwrap().id();
        ledger.post(stake(981, 10_000, "meet", "slots")).await.unwrap();
        let tries = join_all((0..20).map(|_| p.convert(id))).await;
        assert!(tries.iter().filter(|r| matches!(r, Ok(true))).count() <= 1);
        settle(&p, 981, id).await;
        assert_eq!(count(TxType::BonusConversion, 981).await, 1);
        assert_eq!(balance(&ledger, 981, BalanceKind::Real).await, 50_000 - 10_000 + 10_000);
        // Nothing of promotions is reversible, whatever rollback key is invented, twice.
        for (key, user) in [(format!("bonus:{id}:grant"), 981), (format!("bonus:{id}:close"), 981)] {
            for rk in ["rb1", "rb2"] {
                let r = ledger
                    .rollback(RollbackRequest { original_key: key.clone(), rollback_key: format!("{rk}:{key}"), user_id: Some(user), comment: "attack".into(), metadata: serde_json::Value::Null })
                    .await;
                assert!(matches!(r, Err(LedgerError::NotReversible)), "{key}: {r:?}");
            }
        }
        assert_eq!(balance(&ledger, 981, BalanceKind::Real).await, 50_000);
        assert!(ledger.verify().await.unwrap().is_consistent());
        assert_eq!(p.verify().await.unwrap(), Vec::<String>::new());
    })
    .await;
}
