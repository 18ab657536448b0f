//! The standing offers (issue 19, docs/PROMOTIONS.md "Standing offers"): the opt-in deposit
//! bonus on each of the first 20 deposits whatever the rail (sandbox, cashier desk, ledger
//! deposit types 11/16/114), capped at `maxBonusSize`; never granted twice for one deposit
//! however the channel and the sweep race; and the registration bonus.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

const TND: i64 = 1000;

/// A deposit posting of `tx_type` credited to the player's real balance (what the payment
/// outcome, the crypto rail and the cashier desk post): its transaction id.
async fn deposit(app: &TestApp, user_id: i64, tx_type: TxType, minor: i64) -> i64 {
    let from = match tx_type {
        TxType::CashierPayment => {
            // A cash deposit debits a cashier's float: issue it first.
            let cashier = app.state.accounts.find_by_login("cashier@carthage.local").await.unwrap().unwrap().id;
            let issue = PostingRequest::transfer(TxType::FloatIssue, format!("float:{}", kernel::ids::next_id()), Some(cashier), kernel::Currency::Tnd,
                AccountRef::House(HouseAccount::Floats), AccountRef::Player { user_id: cashier, kind: BalanceKind::Float }, minor);
            app.state.ledger.post(issue).await.expect("float issue");
            AccountRef::Player { user_id: cashier, kind: BalanceKind::Float }
        }
        _ => AccountRef::House(HouseAccount::Payments),
    };
    let posting = PostingRequest::transfer(tx_type, format!("test-deposit:{}", kernel::ids::next_id()), Some(user_id), kernel::Currency::Tnd, from,
        AccountRef::Player { user_id, kind: BalanceKind::Real }, minor);
    app.state.ledger.post(posting).await.expect("deposit").tx_id
}

/// The player's deposit bonuses by deposit transaction: `(deposit tx id, amount, required)`.
async fn deposit_bonuses(app: &TestApp, user_id: i64) -> Vec<(i64, i64, i64)> {
    use store::sqlx::{self, Row};
    sqlx::query("SELECT source_key, amount, required FROM bonuses WHERE user_id = $1 AND source = 'deposit' ORDER BY granted_at, id")
        .bind(user_id)
        .fetch_all(app.state.db.writer())
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let key: String = r.get(0);
            (key.trim_start_matches("deposit:").parse().unwrap(), r.get(1), r.get(2))
        })
        .collect()
}

/// Waits until the player has `n` deposit bonuses (granted after each deposit's commit), then
/// lets the sweep run too: exactly `n` must be there.
async fn settle(app: &TestApp, user_id: i64, n: usize) -> Vec<(i64, i64, i64)> {
    for _ in 0..100 {
        if deposit_bonuses(app, user_id).await.len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    app.state.promotions.sweep().await.unwrap();
    let got = deposit_bonuses(app, user_id).await;
    assert_eq!(got.len(), n, "{got:?}");
    got
}

async fn sandbox_deposit(app: &TestApp, api: &Api, amount: Value) {
    let t = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
    let r = ok(api.post("/api/payment/deposit", json!({ "amount": amount, "sessionToken": t })).await);
    let id = r["id"].as_i64().unwrap();
    let reference = r["invoice_url"].as_str().unwrap().trim_start_matches("/pay/sandbox/").split('?').next().unwrap().to_string();
    let page = app
        .bare_client()
        .exec(app.http.post(format!("{}/pay/sandbox/{reference}", app.base)).header("content-type", "application/x-www-form-urlencoded").body("action=card&card=4242+4242+4242+4242"))
        .await;
    assert_eq!(page.status, 200, "{}", page.text);
    for _ in 0..200 {
        if ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"] == "succeeded" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the sandbox deposit {id} did not succeed");
}

#[tokio::test]
async fn an_opted_in_player_gets_a_quarter_of_each_of_the_first_20_deposits_whatever_the_rail() {
    each_backend(async |app| {
        let (api, user, _) = app.player("deposit-bonus@example.com").await;
        fail(app.client().get("/api/user/deposit-bonus").await, 401, 23);
        // Off by default; the figures are the settings' (spec §9).
        let offer = ok(api.get("/api/user/deposit-bonus").await);
        assert_eq!(offer["enabled"], false, "{offer}");
        assert_eq!((offer["percent"].as_f64(), offer["maxBonus"].as_f64(), offer["currency"].as_str()), (Some(25.0), Some(1000.0), Some("TND")));
        assert_eq!((offer["maxDeposits"].as_i64(), offer["depositsMade"].as_i64(), offer["depositsLeft"].as_i64()), (Some(20), Some(0), Some(20)));
        assert_eq!((offer["wageringMultiple"].as_i64(), offer["maxBet"].as_f64(), offer["lifeDays"].as_i64()), (Some(10), Some(5.0), Some(30)));
        fail(api.post("/api/user/deposit-bonus", json!({ "enabled": "yes" })).await, 400, 40);
        fail(api.post("/api/user/deposit-bonus", json!({})).await, 400, 40);

        // Deposit 1, before choosing: no bonus (never silently), but it is one of the 20.
        let first = deposit(app, user, TxType::PaymentService, 40 * TND).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        app.state.promotions.sweep().await.unwrap();
        assert!(deposit_bonuses(app, user).await.is_empty());
        let on = ok(api.post("/api/user/deposit-bonus", json!({ "enabled": true })).await);
        assert_eq!((on["enabled"].as_bool(), on["depositsMade"].as_i64(), on["depositsLeft"].as_i64()), (Some(true), Some(1), Some(19)));
        // Turning it on again keeps it on (and its start).
        ok(api.post("/api/user/deposit-bonus", json!({ "enabled": true })).await);

        // Deposit 2 online (the sandbox, type 16): 25 % of 50.
        sandbox_deposit(app, &api, json!(50)).await;
        let got = settle(app, user, 1).await;
        assert_eq!((got[0].1, got[0].2), (12_500, 125_000), "25 % of 50, to wager 10×");
        // The first is open at once, with its wagering bar.
        let list = ok(api.get("/api/user/bonuses").await);
        assert_eq!((list[0]["status"].as_str(), list[0]["amount"].as_f64(), list[0]["required"].as_f64(), list[0]["maxBet"].as_f64()), (Some("active"), Some(12.5), Some(125.0), Some(5.0)));
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 12_500);

        // Deposit 3 at the cashier desk (type 114) over HTTP.
        let desk = app.client();
        ok(desk.login("cashier@carthage.local", "Cashier123").await);
        ok(desk
            .exec(desk.req(Method::POST, "/api/desk/deposit").header("Idempotency-Key", "dep-bonus-1").json(&json!({ "player_id": user, "amount": 20.004 })))
            .await
            .pair());
        let got = settle(app, user, 2).await;
        assert_eq!(got[1].1, 5_001, "25 % of 20.004, rounded down to the millime");

        // Deposit 4: 4 000.004 TND (type 11) would give 1 000.001: capped at 1 000.
        deposit(app, user, TxType::Deposit, 4_000_004).await;
        let got = settle(app, user, 3).await;
        assert_eq!((got[2].1, got[2].2), (1_000 * TND, 10_000 * TND));

        // Deposits 5..20 alternating the rails, each 4 + i TND; then the 21st.
        let mut expected: Vec<i64> = got.iter().map(|g| g.1).collect();
        for i in 5..=20 {
            let t = if i % 2 == 0 { TxType::CashierPayment } else { TxType::PaymentService };
            deposit(app, user, t, (4 + i) * TND).await;
            expected.push((4 + i) * TND / 4);
        }
        let got = settle(app, user, 19).await;
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), expected);
        let last = deposit(app, user, TxType::PaymentService, 100 * TND).await;
        let got = settle(app, user, 19).await;
        assert!(got.iter().all(|g| g.0 != first && g.0 != last), "neither the deposit before the choice nor the 21st");
        let offer = ok(api.get("/api/user/deposit-bonus").await);
        assert_eq!((offer["depositsMade"].as_i64(), offer["depositsLeft"].as_i64()), (Some(20), Some(0)));
        // One open, the others wait their turn; the bonus balance holds the open one only.
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {user} AND status = 'active'")).await, 1);
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {user} AND status = 'queued'")).await, 18);
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 12_500);
        // Giving the open one up opens the next.
        let list = ok(api.get("/api/user/bonuses").await);
        let open = list.as_array().unwrap().iter().find(|b| b["status"] == "active").unwrap();
        let id = open["id"].as_str().unwrap().to_string();
        ok(api.post(&format!("/api/user/bonuses/{id}/give-up"), json!({})).await);
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 5_001);
        app.assert_ledger_consistent().await;
        assert_eq!(app.state.promotions.verify().await.unwrap(), Vec::<String>::new(), "bonus money invariants");
    })
    .await;
}

#[tokio::test]
async fn an_opted_out_player_gets_nothing_on_any_rail() {
    each_backend(async |app| {
        let (api, user, _) = app.player("no-deposit-bonus@example.com").await;
        // On, then off again: deposits after turning it off earn nothing.
        ok(api.post("/api/user/deposit-bonus", json!({ "enabled": true })).await);
        let off = ok(api.post("/api/user/deposit-bonus", json!({ "enabled": false })).await);
        assert_eq!(off["enabled"], false);
        tokio::time::sleep(Duration::from_millis(5)).await;
        for t in [TxType::Deposit, TxType::PaymentService, TxType::CashierPayment] {
            deposit(app, user, t, 100 * TND).await;
        }
        sandbox_deposit(app, &api, json!(30)).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        settle(app, user, 0).await;
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 0);
        assert!(ok(api.get("/api/user/bonuses").await).as_array().unwrap().is_empty());
        // Never chose: nothing either.
        let (_, other, _) = app.player("never-chose@example.com").await;
        deposit(app, other, TxType::PaymentService, 100 * TND).await;
        settle(app, other, 0).await;
        app.assert_ledger_consistent().await;
        assert_eq!(app.state.promotions.verify().await.unwrap(), Vec::<String>::new(), "bonus money invariants");
    })
    .await;
}

#[tokio::test]
async fn the_same_deposit_never_grants_twice_when_the_channel_and_the_sweep_race() {
    each_backend(async |app| {
        let (api, user, _) = app.player("race-deposit-bonus@example.com").await;
        ok(api.post("/api/user/deposit-bonus", json!({ "enabled": true })).await);
        tokio::time::sleep(Duration::from_millis(5)).await;
        // Six deposits at once (each also wakes the channel), while sweeps and direct grants
        // run beside them.
        let p = &app.state.promotions;
        let deposits = futures::future::join_all((0..6).map(|i| {
            let t = if i % 2 == 0 { TxType::CashierPayment } else { TxType::PaymentService };
            deposit(app, user, t, (10 + i) * TND)
        }));
        let sweeps = futures::future::join_all((0..6).map(|_| async move {
            for _ in 0..4 {
                p.sweep().await.unwrap();
                p.grant_standing_deposit_bonuses(user).await.unwrap();
            }
        }));
        let (ids, _) = tokio::join!(deposits, sweeps);
        let racing = futures::future::join_all((0..8).map(|_| async move {
            p.sweep().await.unwrap();
            p.grant_standing_deposit_bonuses(user).await.unwrap()
        }))
        .await;
        let got = settle(app, user, 6).await;
        let mut keys: Vec<i64> = got.iter().map(|g| g.0).collect();
        keys.sort();
        let mut ids = ids;
        ids.sort();
        assert_eq!(keys, ids, "one bonus per deposit (racing grants: {racing:?})");
        // One open bonus, its money moved once; the grant postings are one per opened bonus.
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {user} AND status = 'active'")).await, 1);
        let open = app.scalar(&format!("SELECT amount FROM bonuses WHERE user_id = {user} AND status = 'active'")).await;
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, open);
        assert_eq!(app.count(&format!("ledger_transactions WHERE user_id = {user} AND tx_type = {}", TxType::BonusGrant.code())).await, 1);
        app.assert_ledger_consistent().await;
        assert_eq!(app.state.promotions.verify().await.unwrap(), Vec::<String>::new(), "bonus money invariants");
    })
    .await;
}

#[tokio::test]
async fn the_registration_bonus_is_granted_once_when_the_settings_give_one() {
    each_backend(async |app| {
        // The seed gives none.
        let (api, none, _) = app.player("no-registration-bonus@example.com").await;
        assert!(ok(api.get("/api/user/bonuses").await).as_array().unwrap().is_empty());
        assert!(app.state.promotions.grant_registration_bonus(none).await.unwrap().is_none());
        // 20 TND from now on.
        let mut settings = app.state.content.settings().await.unwrap();
        settings["limits"]["bonus"]["registrationBonus"] = json!(20);
        app.state.content.put_settings(&settings).await.unwrap();
        let (api, user, _) = app.player("registration-bonus@example.com").await;
        let list = ok(api.get("/api/user/bonuses").await);
        assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
        assert_eq!((list[0]["status"].as_str(), list[0]["amount"].as_f64(), list[0]["required"].as_f64()), (Some("active"), Some(20.0), Some(200.0)));
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 20 * TND);
        // Once: a second grant (a retry) finds it, concurrently too.
        let p = &app.state.promotions;
        let again = futures::future::join_all((0..5).map(|_| p.grant_registration_bonus(user))).await;
        assert!(again.iter().all(|g| matches!(g, Ok(Some(promotions::service::Grant::Existing(_))))), "{again:?}");
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {user}")).await, 1);
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 20 * TND);
        // The player registered before the setting got none afterwards.
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {none}")).await, 0);
        // A phone sign-up gets it too.
        let phone = app.client();
        app.signup_phone(&phone, "21650000077", PASSWORD).await;
        let list = ok(phone.get("/api/user/bonuses").await);
        assert_eq!(list[0]["amount"].as_f64(), Some(20.0), "{list}");
        app.assert_ledger_consistent().await;
        assert_eq!(app.state.promotions.verify().await.unwrap(), Vec::<String>::new(), "bonus money invariants");
    })
    .await;
}
