//! Money and trust (issue 18 items 2, 4, 5, 12), on every backend: deposit limits that
//! hold (open intents reserve their amount; parallel intents and concurrent desk deposits
//! never pass the limit together; a failed or expired intent releases it), every stake
//! type counts for the deposit turnover, payout-code guesses counted before they are
//! evaluated, the desk's player search throttled and masked, and the messages (SMS codes,
//! e-mails) in the player's language.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

const TND: i64 = 1000;
const LIMITS: &str = "/api/user/responsible-gambling/deposit-limits";

async fn token(api: &Api) -> String {
    ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().expect("token").to_string()
}

/// A sandbox card deposit request with its own payment token.
async fn sandbox_deposit(api: &Api, tnd: i64) -> (u16, Value) {
    let t = token(api).await;
    api.post("/api/payment/deposit", json!({ "amount": tnd, "sessionToken": t })).await
}

fn reference_of(intent: &Value) -> String {
    let url = intent["invoice_url"].as_str().expect("invoice_url");
    url.rsplit('/').next().unwrap().split('?').next().unwrap().to_string()
}

/// Pays (or declines) a sandbox page: `card` 4242… pays, 4000000000000002 declines.
async fn pay_page(app: &TestApp, reference: &str, card: &str) {
    let r = app
        .bare_client()
        .exec(
            app.http
                .post(format!("{}/pay/sandbox/{reference}", app.base))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(format!("action=card&card={card}")),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

async fn wait_status(api: &Api, id: i64, status: &str) {
    for _ in 0..200 {
        if ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"] == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(75)).await;
    }
    panic!("intent {id} never reached {status}");
}

/// Deposits credited to the player (types 16, 11, 114), minor units.
async fn credited(app: &TestApp, user: i64) -> i64 {
    app.scalar(&format!(
        "SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.tx_id \
         JOIN ledger_accounts a ON a.id = e.account_id WHERE t.tx_type IN (16, 11, 114) AND a.owner_id = {user} AND a.is_house = 0"
    ))
    .await
}

#[tokio::test]
async fn deposit_limit_counts_open_intents_and_releases_them() {
    each_backend(async |app| {
        let (api, user, _) = app.player("limit-seq@example.tn").await;
        ok(api.put(LIMITS, json!({ "day": 100 })).await);
        // An open intent of 100 reserves the whole day's limit: the next ones are refused,
        // whatever the path (sandbox card, Telegram USDT, Paykassma).
        let first = ok(sandbox_deposit(&api, 100).await);
        let refused = fail(sandbox_deposit(&api, 100).await, 200, 120);
        assert_eq!((refused["period"].as_str(), refused["used"].as_f64(), refused["remaining"].as_f64()), (Some("day"), Some(100.0), Some(0.0)), "{refused}");
        fail(sandbox_deposit(&api, 5).await, 200, 120);
        fail(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": "42", "amount": 10, "payment_currency": "USDT"})).await, 200, 120);
        fail(api.post("/paykassma/deposit/init", json!({"amount": 10})).await, 200, 120);
        // The state shows the reservation as used.
        assert_eq!(ok(api.get("/api/user/responsible-gambling").await)["used"]["day"].as_f64(), Some(100.0));
        // A declined card fails the intent: its amount is released.
        pay_page(app, &reference_of(&first), "4000000000000002").await;
        wait_status(&api, first["id"].as_i64().unwrap(), "failed").await;
        let second = ok(sandbox_deposit(&api, 100).await);
        fail(sandbox_deposit(&api, 100).await, 200, 120);
        // Expiry releases it too.
        app.sql(&format!("UPDATE payment_intents SET expires_at = 1 WHERE id = {}", second["id"])).await;
        assert_eq!(app.state.payments.expire_once().await.unwrap().expired, 1);
        let third = ok(sandbox_deposit(&api, 60).await);
        // Telegram and Paykassma intents reserve as well: 60 + 32.812 (10.5 USDT) fits, then
        // a Paykassma 10 would not.
        let tg = ok(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": "42", "amount": 10.5, "payment_currency": "USDT"})).await);
        assert_eq!(tg["credit_amount"].as_f64(), Some(32.812));
        fail(api.post("/paykassma/deposit/init", json!({"amount": 10})).await, 200, 120);
        // Paid: credited; the limit still holds with the money in.
        pay_page(app, &reference_of(&third), "4242424242424242").await;
        wait_status(&api, third["id"].as_i64().unwrap(), "succeeded").await;
        fail(sandbox_deposit(&api, 8).await, 200, 120);
        ok(sandbox_deposit(&api, 7).await);
        assert!(credited(app, user).await <= 100 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn parallel_deposit_intents_never_pass_the_limit() {
    each_backend(async |app| {
        let (api, user, _) = app.player("limit-par@example.tn").await;
        ok(api.put(LIMITS, json!({ "day": 100 })).await);
        let mut tokens = Vec::new();
        for _ in 0..10 {
            tokens.push(token(&api).await);
        }
        let replies = futures::future::join_all(tokens.iter().map(|t| {
            let api = api.clone();
            let t = t.clone();
            async move { api.post("/api/payment/deposit", json!({ "amount": 100, "sessionToken": t })).await }
        }))
        .await;
        let accepted: Vec<&Value> = replies.iter().filter(|r| r.0 == 200 && r.1["status"] == 0).map(|r| &r.1["result"]).collect();
        let refused = replies.iter().filter(|r| r.1["status"] == 120).count();
        assert_eq!((accepted.len(), refused), (1, 9), "{replies:?}");
        // Pay every reference there is: only the one intent exists to credit.
        let open = app.count(&format!("payment_intents WHERE user_id = {user} AND kind = 'deposit'")).await;
        assert_eq!(open, 1);
        pay_page(app, &reference_of(accepted[0]), "4242424242424242").await;
        wait_status(&api, accepted[0]["id"].as_i64().unwrap(), "succeeded").await;
        assert_eq!(credited(app, user).await, 100 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn concurrent_desk_deposits_stay_within_the_limit() {
    each_backend(async |app| {
        let desk = app.client();
        ok(desk.login("cashier@carthage.local", "Cashier123").await);
        let (api, user, _) = app.player("limit-desk@example.tn").await;
        ok(api.put(LIMITS, json!({ "day": 100 })).await);
        let replies = futures::future::join_all((0..10).map(|i| {
            let desk = desk.clone();
            async move {
                desk.exec(desk.req(Method::POST, "/api/desk/deposit").header("Idempotency-Key", format!("par-{i}")).json(&json!({ "player_id": user, "amount": 60 })))
                    .await
                    .pair()
            }
        }))
        .await;
        let done = replies.iter().filter(|r| r.1["status"] == 0).count();
        let refused: Vec<&Value> = replies.iter().filter(|r| r.1["status"] == 120).map(|r| &r.1["result"]).collect();
        assert_eq!((done, refused.len()), (1, 9), "{replies:?}");
        assert!(refused.iter().all(|r| r["used"].as_f64() == Some(60.0)), "{refused:?}");
        assert_eq!(credited(app, user).await, 60 * TND);
        // An open intent and a desk deposit reserve against each other as well.
        ok(sandbox_deposit(&api, 40).await);
        let r = desk.exec(desk.req(Method::POST, "/api/desk/deposit").header("Idempotency-Key", "after").json(&json!({ "player_id": user, "amount": 1 }))).await;
        fail(r.pair(), 200, 120);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Stakes of every product count for the deposit turnover (6252): the sportsbook's (211)
/// and a partner sportsbook's (214), not only the casino's (203).
#[tokio::test]
async fn sport_and_partner_stakes_count_for_the_deposit_turnover() {
    each_backend(async |app| {
        let desk = app.client();
        ok(desk.login("cashier@carthage.local", "Cashier123").await);
        let (api, user, _) = app.player("turnover@example.tn").await;
        let r = desk.exec(desk.req(Method::POST, "/api/desk/deposit").header("Idempotency-Key", "to-1").json(&json!({ "player_id": user, "amount": 50 }))).await;
        ok(r.pair());
        let request = |amount: i64| api.post("/api/payment/cashier_withdrawal_request", json!({ "amount": amount }));
        assert_eq!(fail(request(10).await, 200, 6252).as_f64(), Some(50.0));
        let stake = |tx: TxType, house: HouseAccount, key: &str, minor: i64| {
            PostingRequest::transfer(tx, format!("t:{user}:{key}"), Some(user), kernel::Currency::Tnd,
                AccountRef::Player { user_id: user, kind: BalanceKind::Real }, AccountRef::House(house), minor)
        };
        app.state.ledger.post(stake(TxType::SportStake, HouseAccount::Sportsbook, "sb", 30 * TND)).await.unwrap();
        assert_eq!(fail(request(10).await, 200, 6252).as_f64(), Some(20.0));
        app.state.ledger.post(stake(TxType::PartnerSportStake, HouseAccount::PartnerSports, "p", 20 * TND)).await.unwrap();
        app.credit(user, BalanceKind::Real, 10 * TND).await;
        assert_eq!(ok(request(10).await)["status"], "CREATED");
        assert!(TxType::STAKES.iter().all(|t| t.is_stake()) && !TxType::BetWin.is_stake());
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// 300 wrong payout codes from 100 tasks at once: exactly the limit (10) are evaluated
/// (96), every other one is refused before evaluation (113), and a real code is then
/// refused too until the window passes.
#[tokio::test]
async fn a_burst_of_wrong_codes_evaluates_exactly_the_limit() {
    each_backend(async |app| {
        let desk = app.client();
        ok(desk.login("cashier@carthage.local", "Cashier123").await);
        let (player, user, _) = app.player("codes@example.tn").await;
        app.credit(user, BalanceKind::Real, 50 * TND).await;
        let w = ok(player.post("/api/payment/cashier_withdrawal_request", json!({ "amount": 20 })).await);
        let tasks: Vec<_> = (0..100)
            .map(|t| {
                let desk = desk.clone();
                tokio::spawn(async move {
                    let mut codes = Vec::new();
                    for i in 0..3 {
                        let code = format!("{:08}", 10_000_000 + t * 3 + i);
                        codes.push(desk.post("/api/desk/payout", json!({ "code": code })).await);
                    }
                    codes
                })
            })
            .collect();
        let mut replies = Vec::new();
        for t in tasks {
            replies.extend(t.await.unwrap());
        }
        let evaluated = replies.iter().filter(|r| r.1["status"] == 96).count();
        let locked = replies.iter().filter(|r| r.0 == 429 && r.1["status"] == 113).count();
        assert_eq!((evaluated, locked), (10, 290));
        assert_eq!(app.count("cashier_code_failures").await, 10);
        fail(desk.post("/api/desk/payout", json!({ "code": w["code"] })).await, 429, 113);
    })
    .await;
}

/// The desk's search answers masked contact details and is throttled per desk.
#[tokio::test]
async fn desk_player_search_is_masked_and_throttled() {
    each_backend(async |app| {
        let desk = app.client();
        ok(desk.login("cashier@carthage.local", "Cashier123").await);
        let (_, by_mail, _) = app.player("ali.ben@example.tn").await;
        let phone_api = app.client();
        app.signup_phone(&phone_api, "21650000123", PASSWORD).await;
        let p = ok(desk.get(&format!("/api/desk/player?query={by_mail}")).await);
        assert_eq!((p["id"].as_i64(), p["login"].as_str()), (Some(by_mail), Some("a***@e***.tn")), "{p}");
        let p = ok(desk.get("/api/desk/player?query=50000123").await);
        assert_eq!((p["login"].as_str(), p["phone"].as_str()), (Some("+216 ** *** 123"), Some("+216 ** *** 123")), "{p}");
        assert!(!p.to_string().contains("50000123"), "{p}");
        // A burst of guesses: the desk's bucket (20) runs out, then 14 with a retry time.
        let replies = futures::future::join_all((0..150).map(|i| {
            let desk = desk.clone();
            async move { desk.get(&format!("/api/desk/player?query={}", 20_000_000 + i)).await }
        }))
        .await;
        let answered = replies.iter().filter(|r| r.1["status"] != 14).count();
        let throttled: Vec<&(u16, Value)> = replies.iter().filter(|r| r.1["status"] == 14).collect();
        assert!(answered <= 19, "{answered} guesses answered");
        assert_eq!(throttled.len(), 150 - answered);
        assert_eq!(throttled[0].0, 429);
        assert!(throttled[0].1["result"]["retryAfterSeconds"].as_u64().unwrap() >= 1, "{:?}", throttled[0]);
        // Another desk has its own bucket.
        let agent = app.client();
        ok(agent.login("agent@carthage.local", "Agent1234").await);
        ok(agent.get(&format!("/api/desk/player?query={by_mail}")).await);
    })
    .await;
}

/// SMS codes and e-mails go out in the player's language (fr, ar), English by default.
#[tokio::test]
async fn messages_are_in_the_players_language() {
    each_backend(async |app| {
        // A sign-up code: no account yet, the request's language (the app's Accept-Language).
        let code_request = |phone: &'static str, lang: &'static str| async move {
            let api = app.client();
            let hash = app.phone_hash(phone).await;
            api.exec(api.req(Method::POST, "/api/user/phone/code").header("Accept-Language", lang).json(&json!({ "phone": phone, "hash": hash }))).await.pair()
        };
        ok(code_request("21650000201", "fr").await);
        let sms = app.outbox("21650000201").await;
        assert!(sms[0]["text"].as_str().unwrap().starts_with("Carthage : votre code d'inscription est"), "{}", sms[0]);
        ok(code_request("21650000202", "ar-TN,ar;q=0.9").await);
        let sms = app.outbox("21650000202").await;
        assert!(sms[0]["text"].as_str().unwrap().contains("رمز التسجيل"), "{}", sms[0]);
        ok(code_request("21650000203", "en").await);
        assert!(app.outbox("21650000203").await[0]["text"].as_str().unwrap().starts_with("Carthage: your registration code"));

        // The verification e-mail: the language of the sign-up.
        let api = app.client();
        ok(api.post("/api/user/signup", json!({ "email": "arabe@example.tn", "password": PASSWORD, "lang": "ar-ar" })).await);
        let mail = app.outbox("arabe@example.tn").await;
        assert!(mail[0]["text"].as_str().unwrap().contains("أكّد عنوان بريدك الإلكتروني"), "{}", mail[0]);
        let api = app.client();
        ok(api.exec(api.req(Method::POST, "/api/user/signup").header("Accept-Language", "fr").json(&json!({ "email": "fr@example.tn", "password": PASSWORD }))).await.pair());
        assert!(app.outbox("fr@example.tn").await[0]["text"].as_str().unwrap().starts_with("Bienvenue sur Carthage"));

        // A recovery SMS: the player's stored language, whatever the request says.
        let api = app.client();
        ok(api.exec(api.req(Method::POST, "/api/user/phone/code").header("Accept-Language", "fr").json(&json!({ "phone": "21650000204", "hash": app.phone_hash("21650000204").await }))).await.pair());
        let code = app.last_code("21650000204").await;
        let s = ok(api.exec(api.req(Method::POST, "/api/user/signup/phone").header("Accept-Language", "fr").json(&json!({ "phone": "21650000204", "phoneCode": code, "password": PASSWORD }))).await.pair());
        let id = s["user"]["id"].as_i64().unwrap();
        ok(app.client().post("/api/user/password/restore/phone", json!({ "phone": "21650000204" })).await);
        let sms = app.outbox("21650000204").await;
        assert!(sms[0]["text"].as_str().unwrap().starts_with("Carthage : votre code de récupération du mot de passe"), "{}", sms[0]);
        // The cashier withdrawal's payout code.
        app.credit(id, BalanceKind::Real, 30 * TND).await;
        ok(api.post("/api/payment/cashier_withdrawal_request", json!({ "amount": 12.5 })).await);
        let sms = app.outbox("21650000204").await;
        assert!(sms[0]["text"].as_str().unwrap().contains("code de retrait au guichet") && sms[0]["text"].as_str().unwrap().contains("12,500 TND"), "{}", sms[0]);
    })
    .await;
}
