//! What a player reads about their money (issue 18 items 9, 11, 14): the operations history
//! names every row (a sports bet and its event, a payout, a deposit and its method), the demo
//! player of the README deposits online like a web sign-up, and the hosted payment pages
//! speak the app's number format and keep the 3-D-Secure step on the Paykassma page.

use crate::common::*;
use kernel::clock::now_ms;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use wallet::BalanceKind;

const TND: i64 = 1000;

fn msg(v: Value) -> sportsbook::FeedMessage {
    sportsbook::feed::decode(&v.to_string()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// A football match `id` ("Home {id} – Away {id}") with 1X2 at 2.10 / 3.40 / 3.50.
async fn add_match(app: &TestApp, id: &str) {
    let now = now_ms();
    let b = &app.state.betting;
    b.apply(
        msg(json!({"type": "fixture_change", "timestamp": now, "event_id": id,
            "sport": {"id": "sr:sport:1", "name": "Soccer", "kind": "football"},
            "category": {"id": "sr:category:1", "sport_id": "sr:sport:1", "name": "England"},
            "tournament": {"id": "sr:tournament:17", "category_id": "sr:category:1", "name": "Premier Division"},
            "kind": "pre_match", "start_time": now + 3_600_000,
            "home": {"id": format!("{id}:h"), "name": format!("Home {id}")},
            "away": {"id": format!("{id}:a"), "name": format!("Away {id}")}})),
        now,
    )
    .await
    .unwrap();
    let outcomes: Vec<Value> = [("1", 2100), ("2", 3400), ("3", 3500)].iter().map(|(o, x)| json!({"id": o, "odds": x, "active": true})).collect();
    b.apply(msg(json!({"type": "odds_change", "timestamp": now_ms(), "event_id": id,
            "markets": [{"market": "1", "status": "active", "outcomes": outcomes}]})), now_ms())
        .await
        .unwrap();
}

fn leg(event: &str, outcome: &str, odds: &str) -> Value {
    json!({"event_id": event, "market": "1", "outcome_id": outcome, "odds": decimal(odds)})
}

async fn place(api: &Api, key: &str, body: Value) -> Value {
    ok(api.exec(api.req(Method::POST, "/api/sportsbook/bets").header("Idempotency-Key", key).json(&body)).await.pair())
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

/// A sandbox card deposit paid with the test card that succeeds: the intent id.
async fn card_deposit(app: &TestApp, api: &Api, amount: Value) -> i64 {
    let token = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
    let r = ok(api.post("/api/payment/deposit", json!({"amount": amount, "sessionToken": token})).await);
    let id = r["id"].as_i64().unwrap();
    let url = r["invoice_url"].as_str().unwrap().split('?').next().unwrap().to_string();
    let page = app
        .bare_client()
        .exec(app.http.post(format!("{}{url}", app.base)).header("content-type", "application/x-www-form-urlencoded").body("action=card&card=4242424242424242"))
        .await;
    assert!(page.text.contains("data-payment-status=\"succeeded\""), "{}", page.text);
    wait_status(api, id, "succeeded").await;
    id
}

fn rows_of(list: &Value, payment_mode: i64) -> Vec<Value> {
    list.as_array().unwrap().iter().filter(|r| r["payment_mode"] == payment_mode).cloned().collect()
}

#[tokio::test]
async fn history_rows_name_the_bet_the_event_and_the_payment() {
    each_backend(async |app| {
        for m in ["h:1", "h:2", "h:3"] {
            add_match(app, m).await;
        }
        let (api, id, _) = app.player("reader@example.tn").await;
        app.credit(id, BalanceKind::Real, 200 * TND).await;

        // A cashier withdrawal (held), a single that wins, an express, a card deposit and a
        // cash deposit at the demo desk.
        let w = ok(api.post("/api/payment/cashier_withdrawal_request", json!({"amount": 20})).await);
        let single = place(&api, "s-1", json!({"kind": "single", "stake": 10, "legs": [leg("h:1", "1", "2.1")]})).await;
        let express = place(&api, "x-1", json!({"kind": "express", "stake": 5, "legs": [leg("h:2", "1", "2.1"), leg("h:3", "3", "3.5")]})).await;
        app.state
            .betting
            .apply(msg(json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": "h:1",
                "markets": [{"market": "1", "outcomes": [{"id": "1", "win": true}, {"id": "2", "win": false}, {"id": "3", "win": false}]}]})), now_ms())
            .await
            .unwrap();
        let intent = card_deposit(app, &api, json!(50)).await;
        let desk = app.client();
        ok(desk.login("cashier@carthage.local", "Cashier123").await);
        ok(desk.exec(desk.req(Method::POST, "/api/desk/deposit").header("Idempotency-Key", "h-cash-1").json(&json!({"player_id": id, "amount": 7}))).await.pair());

        let list = ok(api.get("/api/user/transactions?limit=50").await);
        // Stakes: each names its bet and the events it is on.
        let stakes = rows_of(&list, 211);
        assert_eq!(stakes.len(), 2, "{list}");
        let s = stakes.iter().find(|r| r["bet"]["id"] == single["id"]).expect("the single's stake names its bet");
        assert_eq!(s["bet"]["kind"], "single");
        assert_eq!(s["bet"]["events"], json!(["Home h:1 – Away h:1"]));
        let x = stakes.iter().find(|r| r["bet"]["id"] == express["id"]).expect("the express's stake names its bet");
        assert_eq!(x["bet"]["kind"], "express");
        assert_eq!(x["bet"]["events"], json!(["Home h:2 – Away h:2", "Home h:3 – Away h:3"]));
        // The payout names the same bet.
        let payouts = rows_of(&list, 212);
        assert_eq!(payouts.len(), 1, "{list}");
        assert_eq!(payouts[0]["bet"]["id"], single["id"]);
        assert_eq!(payouts[0]["value"].as_f64(), Some(21.0));
        // Deposits and the withdrawal name their method (and the payment they belong to).
        let card = rows_of(&list, 16);
        assert_eq!(card[0]["payment"], json!({"id": intent, "method": "sandbox"}), "{list}");
        let cash = rows_of(&list, 114);
        assert_eq!(cash[0]["payment"], json!({"id": null, "method": "cashier"}));
        let hold = rows_of(&list, 10);
        assert_eq!(hold[0]["payment"], json!({"id": w["id"], "method": "cashier"}));
        // Other rows carry neither.
        let credit = rows_of(&list, 200);
        assert_eq!((credit[0]["bet"].clone(), credit[0]["payment"].clone()), (Value::Null, Value::Null));
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn history_the_readme_demo_player_deposits_online() {
    each_backend(async |app| {
        // The demo player named by the README and printed by `make run`.
        let api = app.client();
        let me = ok(api.login("player@carthage.local", "Player123").await)["user"].clone();
        assert_eq!(me["canDepositOnline"], true, "{me}");
        let token = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
        let d = ok(api.post("/api/payment/deposit", json!({"amount": 50, "sessionToken": token})).await);
        assert_eq!(d["status"], "pending", "{d}");
        let p = ok(api.post("/paykassma/deposit/init", json!({"amount": 10})).await);
        assert!(p["invoice_url"].as_str().unwrap().starts_with("/pay/paykassma/plugin?"), "{p}");
        // Its starting balance is the seed's alone (no sign-up demo credit on top).
        let id = me["id"].as_i64().unwrap();
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, server::seed::DEMO_PLAYER_CREDIT_TND * TND);

        // A database seeded before: the seed upgrades the demo player, once.
        app.sql(&format!("UPDATE users SET registered_via = 'seed' WHERE id = {id}")).await;
        server::seed::run(&app.state).await.unwrap();
        server::seed::run(&app.state).await.unwrap();
        assert_eq!(ok(api.check().await)["canDepositOnline"], true);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, server::seed::DEMO_PLAYER_CREDIT_TND * TND);

        // A player who did not sign up on the website is told so by the user reply, before
        // any amount form (the server still refuses with 82).
        let (web, _, _) = app.player("web@example.tn").await;
        assert_eq!(ok(web.check().await)["canDepositOnline"], true);
        let (desk_made, desk_id, _) = app.player("desk-made@example.tn").await;
        app.sql(&format!("UPDATE users SET registered_via = 'cli' WHERE id = {desk_id}")).await;
        assert_eq!(ok(desk_made.check().await)["canDepositOnline"], false);
        let token = ok(desk_made.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
        fail(desk_made.post("/api/payment/deposit", json!({"amount": 50, "sessionToken": token})).await, 200, 82);
        // Staff never deposit online.
        let staff = app.client();
        let cashier = ok(staff.login("cashier@carthage.local", "Cashier123").await);
        assert_eq!(cashier["user"]["canDepositOnline"], false);
    })
    .await;
}

/// A query string without its `lang` pair (the tests set their own).
fn without_lang(query: &str) -> String {
    query.split('&').filter(|p| !p.starts_with("lang=")).collect::<Vec<_>>().join("&")
}

/// Posts the emulated Paykassma plugin's form; answers the HTML.
async fn plugin_post(api: &Api, form: String) -> String {
    let r = api.exec(api.req(Method::POST, "/pay/paykassma/plugin").header("content-type", "application/x-www-form-urlencoded").body(form)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.text
}

#[tokio::test]
async fn history_paykassma_page_asks_the_3ds_card_to_confirm() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pk3ds@example.tn").await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        for (confirm, amount) in [(true, 12), (false, 13)] {
            let d = ok(api.post("/paykassma/deposit/init", json!({"amount": amount})).await);
            let id = d["id"].as_i64().unwrap();
            let query = without_lang(d["invoice_url"].as_str().unwrap().split_once('?').unwrap().1);
            // The 3-D-Secure test card: the confirmation step, nothing paid yet.
            let step = plugin_post(&api, format!("{query}&lang=fr&action=card&card=4000+0000+0000+3220")).await;
            assert!(step.contains("value=\"confirm\"") && step.contains("Confirmez ce paiement"), "{step}");
            assert!(!step.contains("data-payment-status"), "{step}");
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_ne!(ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"], "succeeded");
            // The step keeps the payment's fields: confirm pays, cancel fails.
            let action = if confirm { "confirm" } else { "cancel" };
            let fields: String = ["label", "currency_code", "custom_transaction_id", "fixed_amount"]
                .iter()
                .map(|k| {
                    let v = step.split(&format!("name=\"{k}\" value=\"")).nth(1).unwrap().split('"').next().unwrap();
                    format!("&{k}={}", urlencode(v))
                })
                .collect();
            let done = plugin_post(&api, format!("lang=fr&action={action}{fields}")).await;
            let want = if confirm { "succeeded" } else { "failed" };
            assert!(done.contains(&format!("data-payment-status=\"{want}\"")), "{done}");
            wait_status(&api, id, want).await;
        }
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 12 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn history_payment_pages_write_amounts_as_the_app_does() {
    each_backend(async |app| {
        let (api, _, _) = app.player("format@example.tn").await;
        let token = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
        let d = ok(api.post("/api/payment/deposit", json!({"amount": 1250.5, "sessionToken": token})).await);
        let url = d["invoice_url"].as_str().unwrap().split('?').next().unwrap().to_string();
        // The app shows 1 250,500 TND in French, 1,250.500 TND in English and Arabic.
        for (lang, shown) in [("fr", "1\u{202F}250,500 TND"), ("en", "1,250.500 TND"), ("ar", "1,250.500 TND")] {
            let page = api.exec(api.req(Method::GET, &format!("{url}?lang={lang}"))).await;
            assert!(page.text.contains(&format!("<bdi>{shown}</bdi>")), "{lang}: {}", page.text);
        }
        // The Paykassma page too.
        let p = ok(api.post("/paykassma/deposit/init", json!({"amount": 50})).await);
        let (path, query) = p["invoice_url"].as_str().unwrap().split_once('?').unwrap();
        let page = api.exec(api.req(Method::GET, &format!("{path}?{}&lang=fr", without_lang(query)))).await;
        assert!(page.text.contains("<bdi>50,000 TND</bdi>"), "{}", page.text);
    })
    .await;
}
