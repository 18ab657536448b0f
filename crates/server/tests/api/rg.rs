//! Responsible gambling (docs/PAYMENTS.md "Responsible gambling"): deposit limits and their
//! arithmetic over deposits posted to the ledger (types 16, 11, 114), self-exclusion and
//! cool-off (sessions end; every sign-in route, deposits and every stake path refuse;
//! wins and rollbacks are still paid; a cool-off ends by itself), the reality check.

use crate::common::*;
use crate::crash::{fast, round_where, Ws};
use accounts::rg::RAISE_DELAY_MS;
use accounts::{NewUser, Role};
use kernel::clock::{DAY_MS, HOUR_MS};
use kernel::{Currency, ErrorCode};
use reqwest::Method;
use serde_json::{json, Value};
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

const RG: &str = "/api/user/responsible-gambling";
const TND: i64 = 1000;

fn secs_from_now(iso: &Value) -> i64 {
    let t = kernel::clock::parse_bound(iso.as_str().unwrap_or_else(|| panic!("not a time: {iso}")), false).expect("ISO time");
    (t - now_ms()) / 1000
}

/// A deposit credited to the player's real balance, posted as the payment code posts it:
/// provider (16) or crypto (11) from `house:payments`.
async fn deposit(app: &TestApp, user_id: i64, tx: TxType, minor: i64) -> i64 {
    let posting = PostingRequest::transfer(
        tx,
        format!("pay:{}:credit", kernel::ids::next_id()),
        Some(user_id),
        Currency::Tnd,
        AccountRef::House(HouseAccount::Payments),
        AccountRef::Player { user_id, kind: BalanceKind::Real },
        minor,
    );
    app.state.ledger.post(posting).await.expect("deposit").tx_id
}

/// A cash deposit at a cashier desk (114: the cashier's float → the player), the float
/// issued first (210).
async fn cash_deposit(app: &TestApp, cashier: i64, user_id: i64, minor: i64) -> i64 {
    let issue = PostingRequest::transfer(
        TxType::FloatIssue,
        format!("float:{}", kernel::ids::next_id()),
        Some(cashier),
        Currency::Tnd,
        AccountRef::House(HouseAccount::Floats),
        AccountRef::Player { user_id: cashier, kind: BalanceKind::Float },
        minor,
    );
    app.state.ledger.post(issue).await.expect("float issue");
    let cash = PostingRequest::transfer(
        TxType::CashierPayment,
        format!("desk:{cashier}:{}", kernel::ids::next_id()),
        Some(user_id),
        Currency::Tnd,
        AccountRef::Player { user_id: cashier, kind: BalanceKind::Float },
        AccountRef::Player { user_id, kind: BalanceKind::Real },
        minor,
    );
    app.state.ledger.post(cash).await.expect("cash deposit").tx_id
}

async fn user(app: &TestApp, id: i64) -> accounts::User {
    app.state.accounts.user_by_id(id).await.unwrap().unwrap()
}

async fn check_deposit(app: &TestApp, id: i64, minor: i64) -> Result<(), kernel::AppError> {
    app.state.accounts.rg().check_deposit(id, Currency::Tnd, minor).await
}

#[tokio::test]
async fn rg_deposit_limits_count_credited_deposits_and_raise_after_24_hours() {
    each_backend(async |app| {
        let (api, id, _) = app.player("limits@example.com").await;
        let s = ok(api.get(RG).await);
        assert_eq!(s["deposit_limits"], json!({"day": null, "week": null, "month": null}));
        assert_eq!((s["used"]["day"].as_f64(), s["reality_check_minutes"].as_i64()), (Some(0.0), Some(0)));
        assert_eq!((s["self_excluded_until"].clone(), s["cool_off_until"].clone(), s["raise_delay_hours"].clone()), (Value::Null, Value::Null, json!(24)));
        // No limit: any deposit passes.
        check_deposit(app, id, 1_000_000 * TND).await.unwrap();

        // First limits apply at once.
        let s = ok(api.put(&format!("{RG}/deposit-limits"), json!({"day": 100, "week": 250.5, "month": null})).await);
        assert_eq!(s["deposit_limits"]["day"], json!({"amount": 100.0, "pending_amount": null, "pending_from": null}));
        assert_eq!(s["deposit_limits"]["week"]["amount"].as_f64(), Some(250.5));
        assert!(s["deposit_limits"]["month"].is_null());

        // Deposits credited: 40 (provider, 16) + 15.5 (crypto, 11) + 4.5 (cash, 114) = 60 today.
        let cashier = app
            .state
            .accounts
            .create_user(NewUser {
                email: Some("cashier-rg@example.com".into()),
                phone: None,
                password: PASSWORD.into(),
                role: Role::Cashier,
                currency: Currency::Tnd,
                first_name: "Desk".into(),
                last_name: "One".into(),
                registered_via: "cli",
            })
            .await
            .unwrap()
            .id;
        deposit(app, id, TxType::PaymentService, 40 * TND).await;
        deposit(app, id, TxType::Deposit, 15_500).await;
        cash_deposit(app, cashier, id, 4_500).await;
        // Neither money from elsewhere (an adjustment, a win) nor another player's deposit counts.
        app.credit(id, BalanceKind::Real, 1_000 * TND).await;
        let (_, other, _) = app.player("other@example.com").await;
        deposit(app, other, TxType::PaymentService, 90 * TND).await;
        // A deposit 25 h ago: outside the day, inside the week.
        let old = deposit(app, id, TxType::PaymentService, 100 * TND).await;
        app.sql(&format!("UPDATE ledger_transactions SET created_at = {} WHERE id = {old}", now_ms() - 25 * HOUR_MS)).await;

        let s = ok(api.get(RG).await);
        assert_eq!((s["used"]["day"].as_f64(), s["used"]["week"].as_f64(), s["used"]["month"].as_f64()), (Some(60.0), Some(160.0), Some(160.0)));

        // 40 more fits the day (60 + 40 = 100); 40.001 does not.
        check_deposit(app, id, 40 * TND).await.unwrap();
        let e = check_deposit(app, id, 40 * TND + 1).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::DepositLimitReached);
        assert_eq!(e.data.unwrap(), json!({"period": "day", "limit": 100.0, "used": 60.0, "remaining": 40.0}));
        // A removal waits 24 h like a raise.
        let s = ok(api.put(&format!("{RG}/deposit-limits"), json!({"day": null})).await);
        assert_eq!(s["deposit_limits"]["day"]["pending_amount"], Value::Null, "a removal is pending");
        assert_eq!(s["deposit_limits"]["day"]["amount"].as_f64(), Some(100.0), "the day limit stays in force for 24 h");
        let wait = secs_from_now(&s["deposit_limits"]["day"]["pending_from"]);
        assert!((RAISE_DELAY_MS / 1000 - 5..=RAISE_DELAY_MS / 1000).contains(&wait), "{wait}");

        // A decrease applies at once (and cancels the pending removal): now 60 ≥ 50, nothing fits.
        let s = ok(api.put(&format!("{RG}/deposit-limits"), json!({"day": 50})).await);
        assert_eq!(s["deposit_limits"]["day"], json!({"amount": 50.0, "pending_amount": null, "pending_from": null}));
        let e = check_deposit(app, id, 1).await.unwrap_err();
        assert_eq!(e.data.unwrap(), json!({"period": "day", "limit": 50.0, "used": 60.0, "remaining": 0.0}));

        // A raise waits 24 h: shown pending, the lower limit still refuses.
        let s = ok(api.put(&format!("{RG}/deposit-limits"), json!({"day": 200})).await);
        assert_eq!(s["deposit_limits"]["day"]["amount"].as_f64(), Some(50.0));
        assert_eq!(s["deposit_limits"]["day"]["pending_amount"].as_f64(), Some(200.0));
        let from = s["deposit_limits"]["day"]["pending_from"].clone();
        assert_eq!(check_deposit(app, id, TND).await.unwrap_err().code, ErrorCode::DepositLimitReached);
        // Asking again for the same raise keeps its time; an absent field changes nothing.
        let s = ok(api.put(&format!("{RG}/deposit-limits"), json!({"day": 200.000, "month": 5000})).await);
        assert_eq!(s["deposit_limits"]["day"]["pending_from"], from);
        assert_eq!(s["deposit_limits"]["week"]["amount"].as_f64(), Some(250.5));
        assert_eq!(s["deposit_limits"]["month"]["amount"].as_f64(), Some(5000.0));

        // 24 h later (explicit time): the raise is in force. The deposits of today are then
        // out of the day window but still in the week: 160 of 250.5.
        let rg = app.state.accounts.rg();
        let later = now_ms() + RAISE_DELAY_MS + 1_000;
        let st = rg.state(&user(app, id).await, later).await.unwrap();
        assert_eq!((st.limits[0].amount, st.limits[0].pending), (Some(200 * TND), None));
        rg.check_deposit_at(id, Currency::Tnd, 90_500, later).await.unwrap();
        let e = rg.check_deposit_at(id, Currency::Tnd, 90_501, later).await.unwrap_err();
        assert_eq!(e.data.unwrap()["period"], "week");
        // And through the API once the stored time has passed.
        app.sql(&format!("UPDATE rg_deposit_limits SET pending_from = {} WHERE user_id = {id} AND period = 'day'", now_ms() - 1)).await;
        let s = ok(api.get(RG).await);
        assert_eq!(s["deposit_limits"]["day"], json!({"amount": 200.0, "pending_amount": null, "pending_from": null}));
        check_deposit(app, id, 90 * TND).await.unwrap();

        // Bad values: nothing changes.
        for bad in [json!({"day": -5}), json!({"day": 0}), json!({"day": 1.0001}), json!({"week": 1e30})] {
            let e = fail(api.put(&format!("{RG}/deposit-limits"), bad.clone()).await, 200, 47);
            assert!(["day", "week", "month"].contains(&e["field"].as_str().unwrap()), "{bad} → {e}");
        }
        // A value of another type is malformed, whichever field it is in (the schema: number or null).
        for bad in [json!({"day": "200"}), json!({"week": true}), json!({"month": {}}), json!({"day": 0, "week": {}})] {
            fail(api.send(Method::PUT, &format!("{RG}/deposit-limits"), Some(bad)).await.pair(), 400, 40);
        }
        fail(api.send(Method::PUT, &format!("{RG}/deposit-limits"), Some(json!([1, 2]))).await.pair(), 400, 40);
        let after = ok(api.get(RG).await);
        assert_eq!(after["deposit_limits"], s["deposit_limits"]);
        // Every change is in the audit trail; guests are refused.
        assert!(app.count(&format!("rg_events WHERE user_id = {id} AND kind = 'deposit_limit'")).await >= 6);
        fail(app.bare_client().get(RG).await, 401, 23);
        fail(app.bare_client().put(&format!("{RG}/deposit-limits"), json!({"day": 5})).await, 401, 23);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn rg_self_exclusion_ends_sessions_and_refuses_every_sign_in_and_deposits() {
    each_backend(async |app| {
        let (api, id, _) = app.player("excluded@example.com").await;
        app.sql(&format!("UPDATE users SET phone = '21650007001' WHERE id = {id}")).await;
        let other = app.client();
        ok(other.login("21650007001", PASSWORD).await);
        ok(other.check().await);

        // Refused: wrong password, unknown period, malformed. Nothing changes.
        fail(api.post(&format!("{RG}/self-exclusion"), json!({"period": "6m", "password": "Wrong123"})).await, 200, 4);
        fail(api.post(&format!("{RG}/self-exclusion"), json!({"period": "2w", "password": PASSWORD})).await, 200, 47);
        fail(api.post(&format!("{RG}/self-exclusion"), json!({"period": 6})).await, 400, 40);
        ok(api.check().await);

        let resp = api.send(Method::POST, &format!("{RG}/self-exclusion"), Some(json!({"period": "6m", "password": PASSWORD}))).await;
        let cookie = resp.set_cookie("carthage_session").unwrap_or_default();
        let r = ok(resp.pair());
        assert!(cookie.contains("Max-Age=0"), "the cookie is cleared: {cookie}");
        assert_eq!(r["permanent"], false);
        let days = secs_from_now(&r["until"]) / 86_400;
        assert!((180..=184).contains(&days), "six calendar months: {days} days");
        // Every session ended at once (this browser and the other one).
        fail(api.check().await, 401, 23);
        fail(other.check().await, 401, 23);

        // Every sign-in route refuses with 121 and the end; a wrong password is still 4.
        for reply in [
            app.client().login_email("excluded@example.com", PASSWORD).await,
            app.client().login_phone("21650007001", PASSWORD).await,
            app.client().login("excluded@example.com", PASSWORD).await,
            app.client().login("+21650007001", PASSWORD).await,
        ] {
            let e = fail(reply, 200, 121);
            assert_eq!(e["until"], r["until"]);
        }
        fail(app.client().login_email("excluded@example.com", "Wrong123").await, 200, 4);
        assert_eq!(app.count(&format!("sessions WHERE user_id = {id} AND revoked_at IS NULL")).await, 0);
        // Deposits are refused too.
        assert_eq!(check_deposit(app, id, TND).await.unwrap_err().code, ErrorCode::SelfExcluded);
        assert_eq!(app.count(&format!("rg_events WHERE user_id = {id} AND kind = 'self_exclusion'")).await, 1);

        // It cannot be shortened: a cool-off or a shorter exclusion is refused (123), a longer one extends it.
        let rg = app.state.accounts.rg();
        let u = user(app, id).await;
        assert_eq!(rg.cool_off(&u, accounts::rg::CoolOff::Month, now_ms()).await.unwrap_err().code, ErrorCode::RgBlockShorter);
        let longer = rg.self_exclude(&u, accounts::rg::Exclusion::OneYear, PASSWORD, now_ms()).await.unwrap();
        assert_eq!(user(app, id).await.self_excluded_until, Some(longer));
        assert_eq!(rg.self_exclude(&u, accounts::rg::Exclusion::SixMonths, PASSWORD, now_ms()).await.unwrap_err().code, ErrorCode::RgBlockShorter);

        // Permanent: until null.
        let (api2, id2, _) = app.player("forever@example.com").await;
        let r = ok(api2.post(&format!("{RG}/self-exclusion"), json!({"period": "permanent", "password": PASSWORD})).await);
        assert_eq!((r["until"].clone(), r["permanent"].clone()), (Value::Null, json!(true)));
        let e = fail(app.client().login_email("forever@example.com", PASSWORD).await, 200, 121);
        assert_eq!(e, json!({"until": null, "permanent": true}));
        // Still excluded a century from now.
        let far = now_ms() + 36_500 * DAY_MS;
        assert_eq!(rg.check_deposit_at(id2, Currency::Tnd, 1, far).await.unwrap_err().code, ErrorCode::SelfExcluded);

        // A block set on the row while a session is live (another path, a race): the next
        // use of the session refuses and ends it.
        let (api3, id3, _) = app.player("race@example.com").await;
        app.sql(&format!("UPDATE users SET self_excluded_until = {} WHERE id = {id3}", now_ms() + DAY_MS)).await;
        fail(api3.check().await, 200, 121);
        app.sql(&format!("UPDATE users SET self_excluded_until = NULL WHERE id = {id3}")).await;
        fail(api3.check().await, 401, 23);
    })
    .await;
}

#[tokio::test]
async fn rg_cool_off_refuses_then_ends_by_itself() {
    each_backend(async |app| {
        let (api, id, _) = app.player("break@example.com").await;
        fail(api.post(&format!("{RG}/cool-off"), json!({"period": "1h"})).await, 200, 47);
        fail(api.post(&format!("{RG}/cool-off"), json!({})).await, 400, 40);
        let r = ok(api.post(&format!("{RG}/cool-off"), json!({"period": "7d"})).await);
        let secs = secs_from_now(&r["until"]);
        assert!((7 * 86_400 - 10..=7 * 86_400).contains(&secs), "{secs}");
        fail(api.check().await, 401, 23);
        let e = fail(app.client().login_email("break@example.com", PASSWORD).await, 200, 122);
        assert_eq!(e["until"], r["until"]);
        let e = check_deposit(app, id, TND).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::CoolingOff);
        // At its end (explicit time), deposits are accepted again…
        let rg = app.state.accounts.rg();
        rg.check_deposit_at(id, Currency::Tnd, TND, now_ms() + 7 * DAY_MS + 1_000).await.unwrap();
        // …and once the stored end has passed, sign-in works again.
        app.sql(&format!("UPDATE users SET cool_off_until = {} WHERE id = {id}", now_ms() - 1)).await;
        let again = app.client();
        ok(again.login_email("break@example.com", PASSWORD).await);
        let s = ok(again.get(RG).await);
        assert!(s["cool_off_until"].is_null());
        check_deposit(app, id, TND).await.unwrap();
        assert_eq!(app.count(&format!("rg_events WHERE user_id = {id} AND kind = 'cool_off'")).await, 1);
    })
    .await;
}

// ---------------------------------------------------------------------- stakes

const SECRET: &str = "demo-secret";

async fn provider_call(app: &TestApp, op: &str, body: &Value) -> (u16, Value) {
    let raw = serde_json::to_vec(body).unwrap();
    let ts = (now_ms() / 1000).to_string();
    let c = app.bare_client();
    let b = c
        .req(Method::POST, &format!("/api/wallet/v1/{op}"))
        .header("content-type", "application/json")
        .header("x-provider", "demo")
        .header("x-timestamp", &ts)
        .header("x-signature", casino::signature::sign(SECRET, &ts, &raw))
        .body(raw);
    c.exec(b).await.pair()
}

fn money(token: &str, tx: &str, round: &str, amount: i64) -> Value {
    json!({"sessionToken": token, "transactionId": tx, "roundId": round, "gameId": "demo-table", "amount": amount, "currency": "TND"})
}

/// A player with credit and a game session of `provider`/`game`: (client, user id, game token).
async fn launched(app: &TestApp, email: &str, provider: &str, game: &str) -> (Api, i64, String) {
    let (api, id, _) = app.player(email).await;
    app.credit(id, BalanceKind::Real, 100 * TND).await;
    let launch = ok(api.post("/api/casino/session", json!({"provider": provider, "gameId": game, "lang": "en", "platform": "mobile"})).await);
    (api, id, launch["sessionToken"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn rg_blocked_players_cannot_stake_anywhere_but_are_paid() {
    each_backend(async |app| {
        // Provider wallet: a block on the row refuses the stake (the session is still live),
        // the win and the rollback of earlier bets are paid.
        let (_, id, token) = launched(app, "prov@example.com", "demo", "demo-table").await;
        ok(provider_call(app, "bet", &money(&token, "b-1", "r-1", 2_000)).await);
        ok(provider_call(app, "bet", &money(&token, "b-2", "r-2", 1_000)).await);
        app.sql(&format!("UPDATE users SET cool_off_until = {} WHERE id = {id}", now_ms() + HOUR_MS)).await;
        let e = fail(provider_call(app, "bet", &money(&token, "b-3", "r-3", 1_000)).await, 200, 122);
        assert!(e["until"].is_string());
        app.sql(&format!("UPDATE users SET self_excluded_until = {} WHERE id = {id}", now_ms() + HOUR_MS)).await;
        fail(provider_call(app, "bet", &money(&token, "b-4", "r-4", 1_000)).await, 200, 121);
        assert_eq!(ok(provider_call(app, "win", &money(&token, "w-1", "r-1", 5_000)).await)["balance"], 102_000);
        let rb = json!({"sessionToken": token, "transactionId": "rb-2", "referenceTransactionId": "b-2", "roundId": "r-2", "gameId": "demo-table"});
        assert_eq!(ok(provider_call(app, "rollback", &rb).await)["balance"], 103_000);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 103_000);

        // Taking a cool-off through the API ends the game session too.
        let (api, id2, token2) = launched(app, "prov2@example.com", "demo", "demo-table").await;
        ok(api.post(&format!("{RG}/cool-off"), json!({"period": "24h"})).await);
        fail(provider_call(app, "bet", &money(&token2, "c-1", "s-1", 1_000)).await, 200, 63);
        assert_eq!(app.minor_balance(id2, BalanceKind::Real).await, 100 * TND);

        // Studio single-player game: refused, no money moves, the round is voided.
        let (_, id3, token3) = launched(app, "slot@example.com", "studio", "desert-gold").await;
        let c = app.bare_client();
        let spin = |t: &str| c.req(Method::POST, "/api/studio/slots/spin").header("x-game-session", t.to_string()).json(&json!({"bet": 1000}));
        ok(c.exec(spin(&token3)).await.pair());
        let before = app.minor_balance(id3, BalanceKind::Real).await;
        app.sql(&format!("UPDATE users SET self_excluded_until = {} WHERE id = {id3}", i64::MAX)).await;
        let e = fail(c.exec(spin(&token3)).await.pair(), 200, 121);
        assert!(e["until"].is_null());
        assert_eq!(app.minor_balance(id3, BalanceKind::Real).await, before);
        assert_eq!(app.count(&format!("studio_rounds WHERE user_id = {id3} AND status = 'open'")).await, 0);

        // Crash: the stake is refused in the betting window.
        fast(app, |_| {}).await;
        let (_, id4, token4) = launched(app, "crash@example.com", "studio", "crash").await;
        let mut ws = Ws::open(app, &token4).await;
        app.sql(&format!("UPDATE users SET cool_off_until = {} WHERE id = {id4}", now_ms() + HOUR_MS)).await;
        round_where(app, &mut ws, |_| true).await;
        ws.send(json!({ "type": "bet", "requestId": "x1", "amount": 1000 })).await;
        assert_eq!(ws.reply("x1").await["status"], 122);
        assert_eq!(app.minor_balance(id4, BalanceKind::Real).await, 100 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn rg_reality_check_interval_and_session_summary() {
    each_backend(async |app| {
        let (api, id, token) = launched(app, "reality@example.com", "demo", "demo-table").await;
        for bad in [7, -15, 1000] {
            fail(api.put(&format!("{RG}/reality-check"), json!({"minutes": bad})).await, 200, 47);
        }
        fail(api.put(&format!("{RG}/reality-check"), json!({"minutes": "30"})).await, 400, 40);
        let s = ok(api.put(&format!("{RG}/reality-check"), json!({"minutes": 30})).await);
        assert_eq!(s["reality_check_minutes"], 30);
        assert_eq!(ok(api.get(RG).await)["reality_check_minutes"], 30);
        // The session: stakes 3.000, a win of 1.200, a rollback of 0.500 → net −1.300.
        ok(provider_call(app, "bet", &money(&token, "b-1", "r-1", 2_500)).await);
        ok(provider_call(app, "bet", &money(&token, "b-2", "r-2", 500)).await);
        ok(provider_call(app, "win", &money(&token, "w-1", "r-1", 1_200)).await);
        let rb = json!({"sessionToken": token, "transactionId": "rb-2", "referenceTransactionId": "b-2", "roundId": "r-2", "gameId": "demo-table"});
        ok(provider_call(app, "rollback", &rb).await);
        let r = ok(api.get(&format!("{RG}/session")).await);
        assert_eq!((r["net"].as_f64(), r["currency"].as_str(), r["reality_check_minutes"].as_i64()), (Some(-1.3), Some("TND"), Some(30)));
        assert!(secs_from_now(&r["started_at"]) <= 0);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 100 * TND - 1_300);
        // Off again.
        assert_eq!(ok(api.put(&format!("{RG}/reality-check"), json!({"minutes": 0})).await)["reality_check_minutes"], 0);
        fail(app.bare_client().get(&format!("{RG}/session")).await, 401, 23);
    })
    .await;
}

/// The payment endpoints ask the limits before creating an intent: a sandbox deposit above the
/// day's limit is refused with 120 and no intent; within it, it is created; a cool-off then
/// refuses any deposit (the session ends, and the guard refuses the player itself).
#[tokio::test]
async fn rg_limits_guard_the_deposit_endpoints() {
    each_backend(async |app| {
        let (api, id, _) = app.player("guarded@example.com").await;
        ok(api.put(&format!("{RG}/deposit-limits"), json!({"day": 30, "week": null, "month": null})).await);
        let token = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
        let refused = fail(api.post("/api/payment/deposit", json!({"amount": 50, "sessionToken": token})).await, 200, 120);
        assert_eq!(refused["period"], "day", "{refused}");
        assert_eq!(refused["remaining"].as_f64(), Some(30.0), "{refused}");
        let intents = app.scalar(&format!("SELECT COUNT(*) FROM payment_intents WHERE user_id = {id}")).await;
        assert_eq!(intents, 0, "a refused deposit leaves no intent");
        let token = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
        ok(api.post("/api/payment/deposit", json!({"amount": 30, "sessionToken": token})).await);
        // Paykassma and Telegram USDT ask the same guard.
        fail(api.post("/paykassma/deposit/init", json!({"amount": 31})).await, 200, 120);
        // A cool-off: the guard refuses the player itself (checked directly: the session is gone).
        ok(api.post(&format!("{RG}/cool-off"), json!({"period": "24h"})).await);
        let e = app.state.accounts.rg().check_deposit(id, Currency::Tnd, TND).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::CoolingOff);
    })
    .await;
}
