//! The cashier network over HTTP (docs/PAYMENTS.md "Cashier network", "Cashier desk API"):
//! the cashier list, withdrawal request / cancel / payout by code, the desk's deposits,
//! floats and report, role checks, and the races (cancel vs payout, parallel requests,
//! parallel deposits against a float), on every backend, with `ledger verify` after.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use wallet::{BalanceKind, HouseAccount};

const TND: i64 = 1000;
const REQUEST: &str = "/api/payment/cashier_withdrawal_request";
const HISTORY: &str = "/api/payment/cashier_withdrawal_request/history";
const CANCEL: &str = "/api/payment/cashier_withdrawal_request/cancel";

async fn staff(app: &TestApp, email: &str, password: &str) -> Api {
    let api = app.client();
    ok(api.login(email, password).await);
    api
}

async fn cashier(app: &TestApp) -> Api {
    staff(app, "cashier@carthage.local", "Cashier123").await
}

async fn agent(app: &TestApp) -> Api {
    staff(app, "agent@carthage.local", "Agent1234").await
}

async fn user_id(app: &TestApp, login: &str) -> i64 {
    app.state.accounts.find_by_login(login).await.unwrap().unwrap().id
}

/// A player holding exactly `tnd` on the real balance.
async fn funded_player(app: &TestApp, email: &str, tnd: i64) -> (Api, i64) {
    let (api, id, _) = app.player(email).await;
    let have = app.minor_balance(id, BalanceKind::Real).await;
    if have < tnd * TND {
        app.credit(id, BalanceKind::Real, tnd * TND - have).await;
    }
    assert_eq!(app.minor_balance(id, BalanceKind::Real).await, tnd * TND);
    (api, id)
}

async fn pending_total(app: &TestApp) -> i64 {
    app.scalar(&format!(
        "SELECT CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
         WHERE a.is_house = 1 AND a.kind = '{}'",
        HouseAccount::WithdrawalsPending.as_str()
    ))
    .await
}

fn with_key(api: &Api, method: Method, path: &str, key: &str, body: Value) -> reqwest::RequestBuilder {
    api.req(method, path).header("Idempotency-Key", key).json(&body)
}

#[tokio::test]
async fn cashier_withdrawal_request_cancel_and_payout() {
    each_backend(async |app| {
        let cashier_id = user_id(app, "cashier@carthage.local").await;
        let float0 = app.minor_balance(cashier_id, BalanceKind::Float).await;
        assert_eq!(float0, 5_000 * TND, "the seed gives the demo cashier 5000 TND of float");

        // The list: the demo cashier with its joined name.
        let list = ok(app.get("/api/payment/cashiers").await);
        let demo = list.as_array().unwrap().iter().find(|c| c["id"] == cashier_id).expect("demo cashier listed").clone();
        assert_eq!(demo["name"], "Demo cashier, 12 Avenue Habib Bourguiba, Tunis, +216 71 000 000");
        assert_eq!(demo["first_name"], "Demo cashier");

        let (player, pid) = funded_player(app, "ali@example.tn", 100).await;
        // Request → CREATED, funds held, a code of 8 digits.
        let w = ok(player.post(REQUEST, json!({ "amount": 30, "cashier_id": cashier_id })).await);
        assert_eq!(w["status"], "CREATED");
        assert_eq!(num(&w["amount"]), 30.0);
        assert_eq!(w["currency"], "TND");
        assert_eq!(w["cashier_id"], cashier_id);
        let code = w["code"].as_str().unwrap().to_string();
        assert!(code.len() == 8 && code.bytes().all(|b| b.is_ascii_digit()), "{code}");
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 70 * TND);
        assert_eq!(pending_total(app).await, 30 * TND);
        // The code is not stored in clear.
        assert_eq!(app.count(&format!("cashier_withdrawals WHERE code_hash = '{code}'")).await, 0);
        // History shows it with its code.
        let h = ok(player.get(HISTORY).await);
        assert_eq!(h["total"], 1);
        assert_eq!(h["pages"], 1);
        assert_eq!(h["items"][0]["code"], code.as_str());
        assert_eq!(h["items"][0]["status"], "CREATED");
        assert!(h["items"][0]["cashier"].as_str().unwrap().starts_with("Demo cashier"));

        // Cancel → CANCELED, funds back; the code no longer pays; a second cancel is 99.
        let c = ok(player.post(CANCEL, json!({ "id": w["id"] })).await);
        assert_eq!(c["status"], "CANCELED");
        assert_eq!(c["cancel_reason"], "player");
        assert!(c["code"].is_null());
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 100 * TND);
        fail(player.post(CANCEL, json!({ "id": w["id"] })).await, 200, 99);
        let desk = cashier(app).await;
        fail(desk.post("/api/desk/payout", json!({ "code": code })).await, 200, 96);

        // Another request, paid at the desk: hold → the cashier's float.
        let w2 = ok(player.post(REQUEST, json!({ "amount": 40.5 })).await);
        let code2 = w2["code"].as_str().unwrap().to_string();
        fail(desk.post("/api/desk/payout", json!({ "code": "00000000" })).await, 200, 96);
        fail(desk.post("/api/desk/payout", json!({ "code": "12ab" })).await, 200, 96);
        let spaced = format!("{} {}", &code2[..4], &code2[4..]);
        let paid = ok(desk.post("/api/desk/payout", json!({ "code": spaced })).await);
        assert_eq!(paid["status"], "PAID");
        assert_eq!(paid["id"], w2["id"]);
        assert_eq!(num(&paid["amount"]), 40.5);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 59_500);
        assert_eq!(app.minor_balance(cashier_id, BalanceKind::Float).await, float0 + 40_500);
        assert_eq!(pending_total(app).await, 0);
        // Paid once: the code is spent, the player cannot cancel it.
        fail(desk.post("/api/desk/payout", json!({ "code": code2 })).await, 200, 96);
        fail(player.post(CANCEL, json!({ "id": w2["id"] })).await, 200, 99);
        fail(player.post(CANCEL, json!({ "id": 12345 })).await, 200, 98);
        // Another player cannot see or cancel it.
        let (other, _) = funded_player(app, "other@example.tn", 0).await;
        fail(other.post(CANCEL, json!({ "id": w2["id"] })).await, 200, 98);
        assert_eq!(ok(other.get(HISTORY).await)["total"], 0);

        // History: filters, paging, refusals.
        let h = ok(player.get(HISTORY).await);
        assert_eq!(h["total"], 2);
        assert_eq!(h["items"][0]["status"], "PAID");
        assert!(h["items"][0]["code"].is_null());
        assert_eq!(ok(player.get(&format!("{HISTORY}?statuses=PAID")).await)["total"], 1);
        assert_eq!(ok(player.get(&format!("{HISTORY}?statuses=CANCELED,PAID")).await)["total"], 2);
        assert_eq!(ok(player.get(&format!("{HISTORY}?statuses=all&count=1&page=1")).await)["items"][0]["status"], "CANCELED");
        assert_eq!(ok(player.get(&format!("{HISTORY}?count=1")).await)["pages"], 2);
        assert_eq!(ok(player.get(&format!("{HISTORY}?date_from=2000-01-01&date_to=2000-01-02")).await)["total"], 0);
        fail(player.get(&format!("{HISTORY}?statuses=NEW")).await, 200, 47);
        fail(player.get(&format!("{HISTORY}?statuses=bogus")).await, 200, 47);
        fail(player.get(&format!("{HISTORY}?count=0")).await, 400, 40);
        fail(player.get(&format!("{HISTORY}?page=-1")).await, 400, 40);
        fail(player.get(&format!("{HISTORY}?date_from=nope")).await, 200, 46);
        fail(player.get(&format!("{HISTORY}?date_from=2030-01-03&date_to=2030-01-01")).await, 200, 46);

        // Request refusals change nothing.
        let before = app.minor_balance(pid, BalanceKind::Real).await;
        fail(player.post(REQUEST, json!({ "amount": 5 })).await, 200, 106);
        fail(player.post(REQUEST, json!({ "amount": 20000 })).await, 200, 84);
        fail(player.post(REQUEST, json!({ "amount": 1000 })).await, 200, 508);
        fail(player.post(REQUEST, json!({ "amount": 12.3456 })).await, 200, 47);
        fail(player.post(REQUEST, json!({ "amount": -20 })).await, 200, 47);
        fail(player.post(REQUEST, json!({ "amount": "20" })).await, 400, 40);
        fail(player.post(REQUEST, json!({ "amount": 20, "cashier_id": 42 })).await, 200, 95);
        fail(player.post(REQUEST, json!({ "amount": 20, "cashier_id": "x" })).await, 400, 40);
        fail(player.post(REQUEST, json!({})).await, 400, 40);
        fail(app.bare_client().post(REQUEST, json!({ "amount": 20 })).await, 401, 23);
        fail(desk.post(REQUEST, json!({ "amount": 20 })).await, 403, 24);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, before);
        assert_eq!(app.count("cashier_withdrawals").await, 2);

        // The pay-history entries the lead merges into payment-with-withdrawal.
        let entries = app.state.cashier.pay_history_entries(pid, 0, now_ms() + 1).await.unwrap();
        assert_eq!(entries.len(), 2);
        assert!(entries.iter().all(|e| e.payment_mode == "cashier" && e.kind == payments::cashier::PayEntryKind::Withdrawal && e.is_closed));
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payout_code_goes_out_by_sms() {
    each_backend(async |app| {
        let api = app.client();
        app.signup_phone(&api, "21650000077", PASSWORD).await;
        let id = ok(api.check().await)["id"].as_i64().unwrap();
        app.credit(id, BalanceKind::Real, 50 * TND).await;
        let w = ok(api.post(REQUEST, json!({ "amount": 20 })).await);
        let sms = app.outbox("21650000077").await;
        assert_eq!(sms[0]["channel"], "sms");
        assert_eq!(sms[0]["code"], w["code"]);
        assert!(sms[0]["text"].as_str().unwrap().contains(w["code"].as_str().unwrap()));
    })
    .await;
}

#[tokio::test]
async fn desk_api_is_for_cashiers_and_super_agents_only() {
    each_backend(async |app| {
        let (player, _) = funded_player(app, "ali@example.tn", 10).await;
        let partner = staff(app, "partner@carthage.local", "Partner123").await;
        let admin = staff(app, "admin@carthage.local", "Admin1234").await;
        let anonymous = app.bare_client();
        let calls: Vec<(Method, &str, Option<Value>)> = vec![
            (Method::GET, "/api/desk/me", None),
            (Method::GET, "/api/desk/player?query=1", None),
            (Method::POST, "/api/desk/deposit", Some(json!({ "player_id": 1, "amount": 1 }))),
            (Method::POST, "/api/desk/payout", Some(json!({ "code": "12345678" }))),
            (Method::GET, "/api/desk/report", None),
            (Method::GET, "/api/desk/cashiers", None),
            (Method::POST, "/api/desk/float", Some(json!({ "cashier_id": 1, "amount": 1, "direction": "to_cashier" }))),
        ];
        for (m, path, body) in &calls {
            for who in [&player, &partner, &admin] {
                let r = match body {
                    Some(b) => who.exec(with_key(who, m.clone(), path, "k", b.clone())).await,
                    None => who.send(m.clone(), path, None).await,
                };
                fail(r.pair(), 403, 24);
            }
            let r = anonymous.send(m.clone(), path, body.clone()).await;
            fail(r.pair(), 401, 23);
        }
        // A cashier is not a super agent.
        let desk = cashier(app).await;
        fail(desk.get("/api/desk/cashiers").await, 403, 24);
        let r = desk.exec(with_key(&desk, Method::POST, "/api/desk/float", "k1", json!({ "cashier_id": 1, "amount": 1, "direction": "to_cashier" }))).await;
        fail(r.pair(), 403, 24);
        // Nothing moved.
        assert_eq!(app.count("ledger_transactions WHERE tx_type IN (114, 208, 209) AND idempotency_key NOT LIKE 'float:move:%:seed:%'").await, 0);
    })
    .await;
}

#[tokio::test]
async fn desk_cash_deposit_search_and_report() {
    each_backend(async |app| {
        let cashier_id = user_id(app, "cashier@carthage.local").await;
        let desk = cashier(app).await;
        let me = ok(desk.get("/api/desk/me").await);
        assert_eq!(me["role"], "cashier");
        assert_eq!(num(&me["float"]), 5000.0);
        assert!(me["name"].as_str().unwrap().starts_with("Demo cashier"));

        let api = app.client();
        app.signup_phone(&api, "21650000088", PASSWORD).await;
        let pid = ok(api.check().await)["id"].as_i64().unwrap();
        let start = app.minor_balance(pid, BalanceKind::Real).await;
        // Found by id, by full phone and by 8 local digits.
        assert_eq!(ok(desk.get(&format!("/api/desk/player?query={pid}")).await)["id"], pid);
        assert_eq!(ok(desk.get("/api/desk/player?query=21650000088").await)["id"], pid);
        assert_eq!(ok(desk.get("/api/desk/player?query=50000088").await)["id"], pid);
        fail(desk.get("/api/desk/player?query=21699999999").await, 200, 111);
        fail(desk.get("/api/desk/player?query=abc").await, 200, 111);
        fail(desk.get(&format!("/api/desk/player?query={cashier_id}")).await, 200, 111);
        fail(desk.get("/api/desk/player").await, 400, 40);

        // Deposit with a key; a retry replays; the key with another amount is 26.
        let dep = |key: &str, body: Value| desk.exec(with_key(&desk, Method::POST, "/api/desk/deposit", key, body));
        let r = ok(dep("d-1", json!({ "player_id": pid, "amount": 25.5 })).await.pair());
        assert_eq!(num(&r["float"]), 4974.5);
        assert_eq!(r["replayed"], false);
        let again = ok(dep("d-1", json!({ "player_id": pid, "amount": 25.5 })).await.pair());
        assert_eq!((again["replayed"].clone(), again["tx_id"].clone()), (json!(true), r["tx_id"].clone()));
        fail(dep("d-1", json!({ "player_id": pid, "amount": 26 })).await.pair(), 409, 26);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, start + 25_500);
        // Refusals.
        fail(desk.post("/api/desk/deposit", json!({ "player_id": pid, "amount": 1 })).await, 400, 40);
        fail(dep(" ", json!({ "player_id": pid, "amount": 1 })).await.pair(), 200, 47);
        fail(dep(&"k".repeat(101), json!({ "player_id": pid, "amount": 1 })).await.pair(), 200, 47);
        fail(dep("d-2", json!({ "player_id": pid, "amount": 6000 })).await.pair(), 200, 110);
        fail(dep("d-3", json!({ "player_id": 1, "amount": 1 })).await.pair(), 200, 111);
        fail(dep("d-4", json!({ "player_id": cashier_id, "amount": 1 })).await.pair(), 200, 111);
        fail(dep("d-5", json!({ "player_id": pid, "amount": 0 })).await.pair(), 200, 47);
        fail(dep("d-6", json!({ "player_id": pid, "amount": 0.0001 })).await.pair(), 200, 47);
        fail(dep("d-7", json!({ "player_id": pid })).await.pair(), 400, 40);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, start + 25_500);

        // A cash deposit is a deposit: it must be staked once before a withdrawal (the AML
        // turnover rule, 6252 with the amount still to wager), as for a provider deposit.
        let left = fail(api.post(REQUEST, json!({ "amount": 10 })).await, 200, 6252);
        assert_eq!(left.as_f64(), Some(25.5), "{left}");
        let stake = wallet::PostingRequest::transfer(wallet::TxType::BetStake, format!("t:{pid}:stake"), Some(pid), kernel::Currency::Tnd,
            wallet::AccountRef::Player { user_id: pid, kind: BalanceKind::Real }, wallet::AccountRef::House(wallet::HouseAccount::Games), 25_500);
        app.state.ledger.post(stake).await.unwrap();
        app.credit(pid, BalanceKind::Real, 10_000).await;
        // A payout too, then the report.
        let w = ok(api.post(REQUEST, json!({ "amount": 10 })).await);
        ok(desk.post("/api/desk/payout", json!({ "code": w["code"] })).await);
        let rep = ok(desk.get("/api/desk/report").await);
        assert_eq!(rep["deposits"]["count"], 1);
        assert_eq!(num(&rep["deposits"]["amount"]), 25.5);
        assert_eq!(rep["payouts"]["count"], 1);
        assert_eq!(num(&rep["payouts"]["amount"]), 10.0);
        assert_eq!(num(&rep["net"]), 15.5);
        assert_eq!(num(&rep["float"]), 4984.5);
        let old = ok(desk.get("/api/desk/report?date_from=2000-01-01&date_to=2000-01-31").await);
        assert_eq!(old["deposits"]["count"], 0);
        assert_eq!(num(&old["net"]), 0.0);
        fail(desk.get("/api/desk/report?date_from=x").await, 200, 46);

        // The player's pay history gets the cash deposit.
        let entries = app.state.cashier.pay_history_entries(pid, 0, now_ms() + 1).await.unwrap();
        let deposit = entries.iter().find(|e| e.kind == payments::cashier::PayEntryKind::Deposit).expect("deposit entry");
        assert_eq!(deposit.amount_minor, 25_500);
        assert_eq!(entries.len(), 2);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A cash deposit is a deposit for responsible gambling: it counts towards the player's own
/// limits and is refused above them (120) or under a block (121/122); a desk retrying a
/// deposit that went through gets its receipt back although it now fills the limit.
#[tokio::test]
async fn desk_cash_deposit_obeys_responsible_gambling() {
    each_backend(async |app| {
        let desk = cashier(app).await;
        let (api, pid, _) = app.player("rg-desk@example.com").await;
        let start = app.minor_balance(pid, BalanceKind::Real).await;
        ok(api.put("/api/user/responsible-gambling/deposit-limits", json!({"day": 40})).await);
        let dep = |key: &str, amount: &str| desk.exec(with_key(&desk, Method::POST, "/api/desk/deposit", key, json!({ "player_id": pid, "amount": decimal(amount) })));
        let first = ok(dep("rg-1", "40.0").await.pair());
        let again = ok(dep("rg-1", "40.0").await.pair());
        assert_eq!((again["replayed"].clone(), again["tx_id"].clone()), (json!(true), first["tx_id"].clone()));
        let refused = fail(dep("rg-2", "0.5").await.pair(), 200, 120);
        assert_eq!((refused["period"].as_str(), refused["remaining"].as_f64()), (Some("day"), Some(0.0)), "{refused}");
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, start + 40 * TND);
        // A cool-off refuses any deposit, at the desk too.
        ok(api.put("/api/user/responsible-gambling/deposit-limits", json!({"day": null})).await);
        ok(api.post("/api/user/responsible-gambling/cool-off", json!({"period": "24h"})).await);
        fail(dep("rg-3", "1.0").await.pair(), 200, 122);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, start + 40 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn super_agent_moves_float_and_no_float_goes_negative() {
    each_backend(async |app| {
        let cashier_id = user_id(app, "cashier@carthage.local").await;
        let agent_id = user_id(app, "agent@carthage.local").await;
        let ag = agent(app).await;
        assert_eq!(num(&ok(ag.get("/api/desk/me").await)["float"]), 5000.0);
        let list = ok(ag.get("/api/desk/cashiers").await);
        assert_eq!(list.as_array().unwrap().len(), 1);
        assert_eq!(list[0]["id"], cashier_id);
        assert_eq!(num(&list[0]["float"]), 5000.0);

        let mv = |key: &str, body: Value| ag.exec(with_key(&ag, Method::POST, "/api/desk/float", key, body));
        let r = ok(mv("m-1", json!({ "cashier_id": cashier_id, "amount": 1000, "direction": "to_cashier" })).await.pair());
        assert_eq!(num(&r["float"]), 4000.0);
        assert_eq!(num(&r["cashier_float"]), 6000.0);
        let r = ok(mv("m-2", json!({ "cashier_id": cashier_id, "amount": 500.25, "direction": "from_cashier" })).await.pair());
        assert_eq!(num(&r["float"]), 4500.25);
        fail(mv("m-3", json!({ "cashier_id": cashier_id, "amount": 9000, "direction": "from_cashier" })).await.pair(), 200, 110);
        fail(mv("m-4", json!({ "cashier_id": cashier_id, "amount": 9000, "direction": "to_cashier" })).await.pair(), 200, 110);
        fail(mv("m-5", json!({ "cashier_id": cashier_id, "amount": 1, "direction": "sideways" })).await.pair(), 200, 47);
        fail(mv("m-6", json!({ "cashier_id": agent_id, "amount": 1, "direction": "to_cashier" })).await.pair(), 200, 112);
        fail(ag.post("/api/desk/float", json!({ "cashier_id": cashier_id, "amount": 1, "direction": "to_cashier" })).await, 400, 40);
        // A cashier of nobody (or of another agent) is not this agent's.
        let stranger = app
            .state
            .accounts
            .create_user(accounts::NewUser {
                email: Some("c2@carthage.local".into()),
                phone: None,
                password: PASSWORD.into(),
                role: accounts::Role::Cashier,
                currency: kernel::Currency::Tnd,
                first_name: "Other".into(),
                last_name: "Cashier".into(),
                registered_via: "seed",
            })
            .await
            .unwrap();
        fail(mv("m-7", json!({ "cashier_id": stranger.id, "amount": 1, "direction": "to_cashier" })).await.pair(), 200, 112);
        assert_eq!(app.minor_balance(agent_id, BalanceKind::Float).await, 4_500_250);
        assert_eq!(app.minor_balance(cashier_id, BalanceKind::Float).await, 5_499_750);

        // Parallel deposits against a float covering exactly 10 of them: 10 pass.
        let rest = app.minor_balance(cashier_id, BalanceKind::Float).await - 100 * TND;
        ok(mv("m-8", json!({ "cashier_id": cashier_id, "amount": rest as f64 / 1000.0, "direction": "from_cashier" })).await.pair());
        assert_eq!(app.minor_balance(cashier_id, BalanceKind::Float).await, 100 * TND);
        let (_, pid) = funded_player(app, "ali@example.tn", 0).await;
        let desk = cashier(app).await;
        let tasks: Vec<_> = (0..25)
            .map(|i| {
                let desk = desk.clone();
                tokio::spawn(async move {
                    desk.exec(with_key(&desk, Method::POST, "/api/desk/deposit", &format!("p-{i}"), json!({ "player_id": pid, "amount": 10 }))).await.pair()
                })
            })
            .collect();
        let mut passed = 0;
        for t in futures::future::join_all(tasks).await {
            let (http, body) = t.unwrap();
            assert_eq!(http, 200);
            match body["status"].as_u64() {
                Some(0) => passed += 1,
                Some(110) => {}
                other => panic!("unexpected {other:?}: {body}"),
            }
        }
        assert_eq!(passed, 10);
        assert_eq!(app.minor_balance(cashier_id, BalanceKind::Float).await, 0);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 100 * TND);
        // The CLI's float issue: to super agents only; a take-back cannot go below zero.
        let s = &app.state.cashier;
        assert!(s.issue_float(cashier_id, 1000, "x", "test").await.is_err());
        let err = s.issue_float(agent_id, -100_000 * TND, "back", "test").await.unwrap_err();
        assert_eq!(err.code, kernel::ErrorCode::FloatInsufficient);
        s.issue_float(agent_id, -500 * TND, "back-2", "test").await.unwrap();
        assert_eq!(app.minor_balance(agent_id, BalanceKind::Float).await, 4_500_250 + rest - 500 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn cancel_racing_payout_ends_in_exactly_one() {
    each_backend(async |app| {
        let cashier_id = user_id(app, "cashier@carthage.local").await;
        let float0 = app.minor_balance(cashier_id, BalanceKind::Float).await;
        let (player, pid) = funded_player(app, "ali@example.tn", 1000).await;
        let desk = cashier(app).await;
        const ROUNDS: usize = 30;
        let (mut paid, mut cancelled) = (0i64, 0i64);
        for round in 0..ROUNDS {
            let w = ok(player.post(REQUEST, json!({ "amount": 10 })).await);
            let (p, d) = (player.clone(), desk.clone());
            let id = w["id"].clone();
            let code = w["code"].clone();
            // Each side starts first in turn, the other after a delay that varies by round,
            // so both interleavings (and near-simultaneous ones) occur.
            let lag = std::time::Duration::from_micros((round as u64 % 5) * 700);
            let cancel_first = round % 2 == 0;
            let cancel = tokio::spawn(async move {
                if !cancel_first {
                    tokio::time::sleep(lag).await;
                }
                p.post(CANCEL, json!({ "id": id })).await
            });
            let payout = tokio::spawn(async move {
                if cancel_first {
                    tokio::time::sleep(lag).await;
                }
                d.post("/api/desk/payout", json!({ "code": code })).await
            });
            let (c, pay) = (cancel.await.unwrap(), payout.await.unwrap());
            let c_ok = c.1["status"] == 0;
            let p_ok = pay.1["status"] == 0;
            assert!(c_ok ^ p_ok, "exactly one must win: cancel {c:?}, payout {pay:?}");
            if c_ok {
                assert_eq!(pay.1["status"], 96);
                cancelled += 1;
            } else {
                assert_eq!(c.1["status"], 99);
                paid += 1;
            }
        }
        eprintln!("cancel vs payout: {paid} paid, {cancelled} cancelled");
        assert_eq!(paid + cancelled, ROUNDS as i64);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 1000 * TND - paid * 10 * TND);
        assert_eq!(app.minor_balance(cashier_id, BalanceKind::Float).await, float0 + paid * 10 * TND);
        assert_eq!(pending_total(app).await, 0);
        assert_eq!(app.count("ledger_transactions WHERE tx_type = 208").await, paid);
        assert_eq!(app.count("ledger_transactions WHERE tx_type = 207").await, cancelled);
        assert_eq!(app.count("cashier_withdrawals WHERE posted = 0").await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn fifty_parallel_requests_against_ten_create_ten() {
    each_backend(async |app| {
        let (player, pid) = funded_player(app, "ali@example.tn", 100).await;
        let tasks: Vec<_> = (0..50)
            .map(|_| {
                let p = player.clone();
                tokio::spawn(async move { p.post(REQUEST, json!({ "amount": 10 })).await })
            })
            .collect();
        let mut created = 0;
        for t in futures::future::join_all(tasks).await {
            let (http, body) = t.unwrap();
            assert_eq!(http, 200, "{body}");
            match body["status"].as_u64() {
                Some(0) => created += 1,
                Some(508) => {}
                other => panic!("unexpected {other:?}: {body}"),
            }
        }
        assert_eq!(created, 10);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 0);
        assert_eq!(app.count("cashier_withdrawals WHERE status = 'CREATED'").await, 10);
        assert_eq!(app.count("cashier_withdrawals").await, 10, "refused requests leave no row");
        assert_eq!(pending_total(app).await, 100 * TND);
        assert_eq!(ok(player.get(HISTORY).await)["total"], 10);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn wrong_codes_lock_the_desk_for_a_while() {
    each_backend_with(
        |cfg| cfg.cashier.max_code_failures = 3,
        async |app| {
            let (player, _) = funded_player(app, "ali@example.tn", 50).await;
            let w = ok(player.post(REQUEST, json!({ "amount": 20 })).await);
            let desk = cashier(app).await;
            for bad in ["11111111", "22222222", "x"] {
                fail(desk.post("/api/desk/payout", json!({ "code": bad })).await, 200, 96);
            }
            fail(desk.post("/api/desk/payout", json!({ "code": w["code"] })).await, 429, 113);
            // Another desk is not locked.
            let ag = agent(app).await;
            assert_eq!(ok(ag.post("/api/desk/payout", json!({ "code": w["code"] })).await)["status"], "PAID");
        },
    )
    .await;
}

#[tokio::test]
async fn recovery_settles_interrupted_requests() {
    each_backend(async |app| {
        let (player, pid) = funded_player(app, "ali@example.tn", 100).await;
        // A request that crashed after its CANCELED state but before its release.
        let w = ok(player.post(REQUEST, json!({ "amount": 30 })).await);
        app.sql(&format!("UPDATE cashier_withdrawals SET status = 'CANCELED', cancel_reason = 'player' WHERE id = {}", w["id"])).await;
        // A row left NEW without its hold (crash before the posting).
        let old = now_ms() - 3_600_000;
        app.sql(&format!(
            "INSERT INTO cashier_withdrawals (id, user_id, amount, currency, status, code_hash, posted, created_at, updated_at) \
             VALUES (900001, {pid}, 5000, 'TND', 'NEW', 'x', 0, {old}, {old})"
        ))
        .await;
        // A row left NEW after its hold was posted (crash before CREATED).
        let w2 = ok(player.post(REQUEST, json!({ "amount": 20 })).await);
        app.sql(&format!("UPDATE cashier_withdrawals SET status = 'NEW', created_at = {old} WHERE id = {}", w2["id"])).await;
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 50 * TND);

        let settled = app.state.cashier.recover(60_000).await.unwrap();
        assert_eq!(settled, 3);
        assert_eq!(app.minor_balance(pid, BalanceKind::Real).await, 80 * TND, "the cancelled request's hold came back once");
        assert_eq!(app.scalar(&format!("SELECT posted FROM cashier_withdrawals WHERE id = {}", w["id"])).await, 1);
        assert_eq!(app.count("cashier_withdrawals WHERE id = 900001 AND status = 'REFUSED'").await, 1);
        assert_eq!(app.count(&format!("cashier_withdrawals WHERE id = {} AND status = 'CREATED'", w2["id"])).await, 1);
        // The abandoned request's hold can never be posted any more.
        let late = wallet::PostingRequest::transfer(
            wallet::TxType::Withdrawal,
            "cwr:900001:hold",
            Some(pid),
            kernel::Currency::Tnd,
            wallet::AccountRef::Player { user_id: pid, kind: BalanceKind::Real },
            wallet::AccountRef::House(HouseAccount::WithdrawalsPending),
            5000,
        );
        assert!(app.state.ledger.post(late).await.is_err());
        // A second pass finds nothing to do.
        assert_eq!(app.state.cashier.recover(60_000).await.unwrap(), 0);
        assert_eq!(pending_total(app).await, 20 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn cashier_list_order_follows_the_settings() {
    each_backend(async |app| {
        let mut ids = vec![];
        for (email, name) in [("ca@carthage.local", "Aya"), ("cb@carthage.local", "Badis"), ("cc@carthage.local", "Chams")] {
            let u = app
                .state
                .accounts
                .create_user(accounts::NewUser {
                    email: Some(email.into()),
                    phone: None,
                    password: PASSWORD.into(),
                    role: accounts::Role::Cashier,
                    currency: kernel::Currency::Tnd,
                    first_name: name.into(),
                    last_name: String::new(),
                    registered_via: "seed",
                })
                .await
                .unwrap();
            app.state.cashier.set_location(u.id, name, "Tunis", "71000000").await.unwrap();
            ids.push(u.id);
        }
        // No configuration: by name.
        let names = |v: Value| -> Vec<String> { v.as_array().unwrap().iter().map(|c| c["first_name"].as_str().unwrap().to_string()).collect() };
        assert_eq!(names(ok(app.get("/api/payment/cashiers").await)), vec!["Aya", "Badis", "Chams", "Demo cashier"]);
        // CASHIER_LIST_FIRST = Chams, CASHIER_LIST_LAST = Aya.
        let configured = payments::cashier::Cashier::new(
            app.state.db.clone(),
            app.state.ledger.clone(),
            payments::cashier::CashierConfig { list_first: Some(ids[2]), list_last: Some(ids[0]), ..Default::default() },
        );
        let order: Vec<String> = configured.cashiers().await.unwrap().into_iter().map(|c| c.first_name).collect();
        assert_eq!(order, vec!["Chams", "Badis", "Demo cashier", "Aya"]);
        // A cashier without a location, or deactivated, is not listed; only cashiers get one.
        app.sql(&format!("UPDATE cashier_locations SET is_active = 0 WHERE user_id = {}", ids[1])).await;
        assert_eq!(names(ok(app.get("/api/payment/cashiers").await)), vec!["Aya", "Chams", "Demo cashier"]);
        let (player, pid) = funded_player(app, "ali@example.tn", 50).await;
        fail(player.post(REQUEST, json!({ "amount": 20, "cashier_id": ids[1] })).await, 200, 95);
        assert!(app.state.cashier.set_location(pid, "X", "Y", "Z").await.is_err());
    })
    .await;
}

/// The pay history holds the cashier network's money too: a cash deposit (114) and a cashier
/// withdrawal (10, CREATED then CANCELED) beside nothing else (no stake, no adjustment).
#[tokio::test]
async fn cash_deposits_and_cashier_withdrawals_are_in_the_pay_history() {
    each_backend(async |app| {
        let (api, pid, _) = app.player("payhist@example.com").await;
        let desk = cashier(app).await;
        ok(desk.exec(with_key(&desk, Method::POST, "/api/desk/deposit", "ph-1", json!({ "player_id": pid, "amount": 30 }))).await.pair());
        let stake = wallet::PostingRequest::transfer(wallet::TxType::BetStake, format!("t:{pid}:ph"), Some(pid), kernel::Currency::Tnd,
            wallet::AccountRef::Player { user_id: pid, kind: BalanceKind::Real }, wallet::AccountRef::House(wallet::HouseAccount::Games), 30_000);
        app.state.ledger.post(stake).await.unwrap();
        app.credit(pid, BalanceKind::Real, 100_000).await;
        let w = ok(api.post(REQUEST, json!({ "amount": 12 })).await);
        ok(api.post("/api/payment/cashier_withdrawal_request/cancel", json!({ "id": w["id"] })).await);
        let h = ok(api.get("/api/payment/history/payment-with-withdrawal").await);
        let items = h.as_array().expect("an array");
        assert_eq!(items.len(), 2, "{h}");
        let dep = items.iter().find(|e| e["type"] == "payment").expect("the cash deposit");
        assert_eq!((dep["value"].as_f64(), dep["payment_mode"].as_i64(), dep["purse"].as_str()), (Some(30.0), Some(114), Some("cashier")), "{dep}");
        let wd = items.iter().find(|e| e["type"] == "withdrawal").expect("the cashier withdrawal");
        assert_eq!(wd["value"].as_f64(), Some(-12.0), "{wd}");
        assert_eq!(wd["is_closed"], true, "{wd}");
    })
    .await;
}

#[tokio::test]
async fn the_desk_page_is_served_at_desk() {
    let dir = std::env::temp_dir().join(format!("carthage-desk-{}", kernel::ids::next_id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><div id=\"player\"></div>").unwrap();
    std::fs::write(dir.join("desk.html"), "<!doctype html><div id=\"desk\"></div>").unwrap();
    let web = dir.clone();
    each_backend_with(
        move |cfg| cfg.web_dir = Some(web.clone()),
        async |app| {
            for path in ["/desk", "/desk/", "/desk/payout"] {
                let r = app.send(Method::GET, path, None).await;
                assert_eq!(r.status, 200, "{path}");
                assert!(r.text.contains("id=\"desk\""), "{path} answered {}", r.text);
                assert_eq!(r.header("x-frame-options").as_deref(), Some("DENY"));
            }
            // The player app keeps its own page.
            assert!(app.send(Method::GET, "/profile/withdrawal", None).await.text.contains("id=\"player\""));
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(dir);
}
