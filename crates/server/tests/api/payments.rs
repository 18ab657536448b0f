//! Payments (docs/PAYMENTS.md): the sandbox deposit end to end (token → intent → hosted
//! page → signed callback over HTTP → balance), refused callbacks (forged, stale, replayed,
//! amount/currency mismatch, unknown payment), success after expiry, 20 concurrent
//! callbacks, 50 parallel withdrawals against a balance for 10, the rules (106, 84, 508,
//! 6252 number and object, 82), a restart during `pending` reconciled, Paykassma against a
//! local fake that follows its postback rules (and its emulation in demo mode), Telegram
//! USDT, code 20, and the pay history. `ledger verify` after each.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use store::sqlx::{self, Row};
use wallet::{AccountRef, BalanceKind, PostingRequest, TxType};

const TND: i64 = 1000;

async fn token(api: &Api) -> String {
    ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().expect("token").to_string()
}

/// A sandbox deposit: `(intent id, sandbox reference)`.
async fn deposit(api: &Api, amount: Value) -> (i64, String) {
    let t = token(api).await;
    let r = ok(api.post("/api/payment/deposit", json!({ "amount": amount, "sessionToken": t })).await);
    assert_eq!(r["status"], "pending", "{r}");
    let url = r["invoice_url"].as_str().expect("invoice_url");
    assert!(url.starts_with("/pay/sandbox/sbx_"), "{url}");
    let reference = url.trim_start_matches("/pay/sandbox/").split('?').next().unwrap().to_string();
    (r["id"].as_i64().unwrap(), reference)
}

/// Submits a sandbox page form; answers the HTML.
async fn page_post(app: &TestApp, reference: &str, form: &str) -> String {
    let r = app
        .bare_client()
        .exec(app.http.post(format!("{}/pay/sandbox/{reference}", app.base)).header("content-type", "application/x-www-form-urlencoded").body(form.to_string()))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.text
}

async fn wait_status(api: &Api, id: i64, status: &str) -> Value {
    for _ in 0..200 {
        let r = ok(api.get(&format!("/api/payment/intent/{id}")).await);
        if r["status"] == status {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(75)).await;
    }
    panic!("intent {id} never reached {status}: {}", ok(api.get(&format!("/api/payment/intent/{id}")).await));
}

fn secret(app: &TestApp) -> String {
    app.state.config.payments.sandbox_secret.clone()
}

/// A sandbox-style callback body.
fn event(id: &str, reference: &str, intent: i64, kind: &str, status: &str, amount: i64, currency: &str) -> String {
    json!({"id": id, "type": format!("payment.{status}"), "data": {
        "reference": reference, "intent_id": intent.to_string(), "kind": kind, "status": status, "amount": amount, "currency": currency}})
    .to_string()
}

async fn send_callback(app: &TestApp, provider: &str, body: &str, signature: Option<String>) -> Resp {
    let mut req = app.http.post(format!("{}/api/payment/callback/{provider}", app.base)).header("content-type", "application/json").body(body.to_string());
    if let Some(s) = signature {
        req = req.header("Carthage-Signature", s);
    }
    app.bare_client().exec(req).await
}

fn sign(app: &TestApp, body: &str, t: i64) -> String {
    payments::signature::sign_header(&secret(app), t, body.as_bytes())
}

fn now_s() -> i64 {
    now_ms() / 1000
}

async fn credits(app: &TestApp, intent: i64) -> i64 {
    app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key = 'pay:{intent}:credit'")).await
}

async fn row_text(app: &TestApp, sql: &str) -> String {
    let r = sqlx::query(sql).fetch_one(app.state.db.reader()).await.expect(sql);
    r.get::<String, _>(0)
}

// =====================================================================================

#[tokio::test]
async fn payments_sandbox_deposit_end_to_end() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay1@example.tn").await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        let (id, reference) = deposit(&api, json!(50)).await;
        // The hosted page: a card form, framable by the app only, in the player's language.
        let page = api.exec(api.req(Method::GET, &format!("/pay/sandbox/{reference}?lang=ar"))).await;
        assert_eq!(page.status, 200);
        assert!(page.text.contains("dir=\"rtl\"") && page.text.contains("name=\"card\""), "{}", page.text);
        assert_eq!(page.header("x-frame-options").as_deref(), Some("SAMEORIGIN"));
        assert!(page.header("content-security-policy").unwrap().contains("frame-ancestors 'self'"));
        // An unknown card: the form again, nothing happens.
        let again = page_post(app, &reference, "action=card&card=1111+2222+3333+4444&lang=en").await;
        assert!(again.contains("test cards"), "{again}");
        // 4242…: succeeds; the sandbox calls our callback over HTTP, signed.
        let done = page_post(app, &reference, "action=card&card=4242+4242+4242+4242&lang=en").await;
        assert!(done.contains(&format!("data-payment-id=\"{id}\"")) && done.contains("data-payment-status=\"succeeded\""), "{done}");
        let r = wait_status(&api, id, "succeeded").await;
        assert_eq!((r["kind"].as_str(), r["provider"].as_str(), r["amount"].as_f64()), (Some("deposit"), Some("sandbox"), Some(50.0)));
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 50 * TND);
        assert_eq!(credits(app, id).await, 1);
        assert_eq!(app.scalar(&format!("SELECT tx_type FROM ledger_transactions WHERE idempotency_key = 'pay:{id}:credit'")).await, 16);
        // Every transition time-stamped.
        let events = app.state.payments.events(id).await.unwrap();
        let path: Vec<&str> = events.iter().map(|e| e.1.as_str()).collect();
        assert_eq!(path, ["created", "pending", "succeeded"]);
        // The page of a finished payment shows the result; paying again changes nothing.
        page_post(app, &reference, "action=card&card=4242424242424242").await;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 50 * TND);
        // A declined card, and the 3-D Secure step.
        let (declined, r2) = deposit(&api, json!(5.5)).await;
        assert!(page_post(app, &r2, "action=card&card=4000000000000002").await.contains("data-payment-status=\"failed\""));
        assert_eq!(wait_status(&api, declined, "failed").await["failure_reason"], "card declined");
        let (three, r3) = deposit(&api, json!(12.345)).await;
        let challenge = page_post(app, &r3, "action=card&card=4000000000003220&lang=fr").await;
        assert!(challenge.contains("value=\"confirm\"") && challenge.contains("Confirmez"), "{challenge}");
        page_post(app, &r3, "action=confirm&lang=fr").await;
        wait_status(&api, three, "succeeded").await;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 50 * TND + 12_345);
        // The pay history: deposits only, spec shape, newest first.
        let h = ok(api.get("/api/payment/history/payment-with-withdrawal").await);
        let list = h.as_array().unwrap();
        assert_eq!(list.len(), 3, "{h}");
        assert_eq!(list[0]["id"], three);
        assert_eq!(list[0]["value"], json!(12.345));
        assert_eq!((list[0]["type"].as_str(), list[0]["status"].as_str(), list[0]["is_closed"].as_bool()), (Some("payment"), Some("succeeded"), Some(true)));
        assert_eq!((list[0]["payment_mode"].as_i64(), list[0]["purse"].as_str()), (Some(16), Some("sandbox")));
        assert_eq!(list[1]["status"], "failed");
        // A game stake is not a payment: it stays out of the pay history.
        let stake = PostingRequest::transfer(TxType::BetStake, format!("t:{user}:stake"), Some(user), kernel::Currency::Tnd,
            AccountRef::Player { user_id: user, kind: BalanceKind::Real }, AccountRef::House(wallet::HouseAccount::Games), 1000);
        app.state.ledger.post(stake).await.unwrap();
        assert_eq!(ok(api.get("/api/payment/history/payment-with-withdrawal").await).as_array().unwrap().len(), 3);
        // Another player sees none of it.
        let (other, _, _) = app.player("pay1b@example.tn").await;
        fail(other.get(&format!("/api/payment/intent/{id}")).await, 200, 85);
        assert_eq!(ok(other.get("/api/payment/history/payment-with-withdrawal").await), json!([]));
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payments_refused_callbacks_change_nothing() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay2@example.tn").await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        let (id, reference) = deposit(&api, json!(20)).await;
        let good = event("evt_a", &reference, id, "deposit", "succeeded", 20 * TND, "TND");
        // Forged: another secret.
        let forged = payments::signature::sign_header("not-the-secret-at-all", now_s(), good.as_bytes());
        fail(send_callback(app, "sandbox", &good, Some(forged)).await.pair(), 401, 64);
        // The signature of another body.
        let other = event("evt_a", &reference, id, "deposit", "succeeded", 200 * TND, "TND");
        fail(send_callback(app, "sandbox", &other, Some(sign(app, &good, now_s()))).await.pair(), 401, 64);
        // No signature; stale (outside 300 s either way).
        fail(send_callback(app, "sandbox", &good, None).await.pair(), 401, 65);
        fail(send_callback(app, "sandbox", &good, Some(sign(app, &good, now_s() - 400))).await.pair(), 401, 65);
        fail(send_callback(app, "sandbox", &good, Some(sign(app, &good, now_s() + 400))).await.pair(), 401, 65);
        // Amount and currency mismatches, signed correctly.
        let body = event("evt_b", &reference, id, "deposit", "succeeded", 20 * TND + 1, "TND");
        fail(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair(), 200, 86);
        let body = event("evt_c", &reference, id, "deposit", "succeeded", 20 * TND, "HTG");
        fail(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair(), 200, 87);
        // Unknown payment: unknown reference and id; a known id with another reference; the wrong kind.
        let body = event("evt_d", "sbx_unknown", 42, "deposit", "succeeded", 20 * TND, "TND");
        fail(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair(), 200, 85);
        let body = event("evt_e", "sbx_other", id, "deposit", "succeeded", 20 * TND, "TND");
        fail(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair(), 200, 85);
        let body = event("evt_f", &reference, id, "withdrawal", "succeeded", 20 * TND, "TND");
        fail(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair(), 200, 85);
        // Signed garbage is malformed (40); an unknown provider 66; the crypto provider's
        // callback for a sandbox payment is unknown to it (85).
        for junk in ["{", "[]", "{\"id\":1}", "null"] {
            fail(send_callback(app, "sandbox", junk, Some(sign(app, junk, now_s()))).await.pair(), 400, 40);
        }
        fail(send_callback(app, "stripe", &good, Some(sign(app, &good, now_s()))).await.pair(), 401, 66);
        fail(send_callback(app, "crypto", &good, Some(sign(app, &good, now_s()))).await.pair(), 200, 85);
        // Nothing changed.
        assert_eq!(ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"], "pending");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before);
        assert_eq!(credits(app, id).await, 0);
        // The real one: applied once; replayed (same header, and re-signed): acknowledged, nothing more.
        let header = sign(app, &good, now_s());
        let r = ok(send_callback(app, "sandbox", &good, Some(header.clone())).await.pair());
        assert_eq!((r["status"].as_str(), r["duplicate"].as_bool()), (Some("succeeded"), Some(false)));
        let r = ok(send_callback(app, "sandbox", &good, Some(header)).await.pair());
        assert_eq!(r["duplicate"], true);
        ok(send_callback(app, "sandbox", &good, Some(sign(app, &good, now_s() - 10))).await.pair());
        // A late failure for it is refused (90): a success is final.
        let late = event("evt_g", &reference, id, "deposit", "failed", 20 * TND, "TND");
        fail(send_callback(app, "sandbox", &late, Some(sign(app, &late, now_s()))).await.pair(), 200, 90);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 20 * TND);
        assert_eq!(credits(app, id).await, 1);
        assert_eq!(ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"], "succeeded");
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payments_success_after_expiry_is_credited_and_flagged() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay3@example.tn").await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        let (id, reference) = deposit(&api, json!(7)).await;
        app.sql(&format!("UPDATE payment_intents SET expires_at = 1 WHERE id = {id}")).await;
        let report = app.state.payments.expire_once().await.unwrap();
        assert_eq!(report.expired, 1);
        assert_eq!(ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"], "expired");
        // Expiring again does nothing.
        assert_eq!(app.state.payments.expire_once().await.unwrap().expired, 0);
        // The money arrives anyway (out of order): credited, flagged for reconciliation.
        let body = event("evt_late", &reference, id, "deposit", "succeeded", 7 * TND, "TND");
        ok(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair());
        assert_eq!(ok(api.get(&format!("/api/payment/intent/{id}")).await)["status"], "succeeded");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 7 * TND);
        assert_eq!(app.scalar(&format!("SELECT needs_review FROM payment_intents WHERE id = {id}")).await, 1);
        let events = app.state.payments.events(id).await.unwrap();
        let last = events.last().unwrap();
        assert_eq!((last.0.as_deref(), last.1.as_str()), (Some("expired"), "succeeded"));
        assert!(last.3.contains("reconciliation"), "{last:?}");
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payments_one_callback_retried_20_times_concurrently_credits_once() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay4@example.tn").await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        let (id, reference) = deposit(&api, json!(33.333)).await;
        let body = event("evt_race", &reference, id, "deposit", "succeeded", 33_333, "TND");
        let header = sign(app, &body, now_s());
        let calls = (0..20).map(|_| send_callback(app, "sandbox", &body, Some(header.clone())));
        let replies = futures::future::join_all(calls).await;
        for r in replies {
            let r = ok(r.pair());
            assert_eq!(r["status"], "succeeded");
        }
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 33_333);
        assert_eq!(credits(app, id).await, 1);
        assert_eq!(app.count("payment_intent_events WHERE to_status = 'succeeded'").await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payments_50_parallel_withdrawals_against_a_balance_for_10_create_10() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay5@example.tn").await;
        let start = app.minor_balance(user, BalanceKind::Real).await;
        // A balance for exactly 10 withdrawals of 20.
        let top = 200 * TND - start;
        app.credit(user, BalanceKind::Real, top).await;
        let mut tokens = Vec::new();
        for _ in 0..50 {
            tokens.push(token(&api).await);
        }
        let calls = tokens.iter().map(|t| api.post("/api/payment/withdrawal", json!({"amount": 20, "phone_number": "+216 50 123 456", "sessionToken": t})));
        let replies = futures::future::join_all(calls).await;
        let mut created = Vec::new();
        let mut refused = 0;
        for r in replies {
            match r.1["status"].as_i64() {
                Some(0) => created.push(r.1["result"].clone()),
                Some(508) => refused += 1,
                other => panic!("unexpected reply {other:?}: {}", r.1),
            }
        }
        assert_eq!((created.len(), refused), (10, 40));
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 0);
        assert_eq!(app.count(&format!("payment_intents WHERE user_id = {user} AND kind = 'withdrawal'")).await, 10);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {user} AND tx_type = 10")).await, 10);
        let w = &created[0];
        assert_eq!((w["status"].as_str(), w["user_amount"].as_f64(), w["user_currency"].as_str()), (Some("pending"), Some(20.0), Some("TND")));
        // The sandbox e-wallet page: one payout confirmed (settled, 206), one rejected (released, 207).
        let reference = |w: &Value| w["invoice_url"].as_str().unwrap().trim_start_matches("/pay/sandbox/").split('?').next().unwrap().to_string();
        let page = api.exec(api.req(Method::GET, &format!("/pay/sandbox/{}?lang=en", reference(&created[0])))).await;
        assert!(page.text.contains("21650123456") && page.text.contains("value=\"payout\""), "{}", page.text);
        page_post(app, &reference(&created[0]), "action=payout").await;
        page_post(app, &reference(&created[1]), "action=reject").await;
        let a = created[0]["id"].as_i64().unwrap();
        let b = created[1]["id"].as_i64().unwrap();
        wait_status(&api, a, "succeeded").await;
        wait_status(&api, b, "failed").await;
        assert_eq!(app.scalar(&format!("SELECT tx_type FROM ledger_transactions WHERE idempotency_key = 'pay:{a}:settle'")).await, 206);
        assert_eq!(app.scalar(&format!("SELECT tx_type FROM ledger_transactions WHERE idempotency_key = 'pay:{b}:release'")).await, 207);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 20 * TND);
        // A success for the released one is refused (90) and flagged; nothing moves.
        let body = event("evt_w", &reference(&created[1]), b, "withdrawal", "succeeded", 20 * TND, "TND");
        fail(send_callback(app, "sandbox", &body, Some(sign(app, &body, now_s()))).await.pair(), 200, 90);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 20 * TND);
        // The pay history shows the withdrawals, negative.
        let h = ok(api.get("/api/payment/history/payment-with-withdrawal").await);
        let first = h.as_array().unwrap().iter().find(|e| e["id"] == a).unwrap().clone();
        assert_eq!((first["type"].as_str(), first["value"].as_f64(), first["payment_mode"].as_i64()), (Some("withdrawal"), Some(-20.0), Some(10)));
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payments_withdrawal_and_deposit_rules() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay6@example.tn").await;
        let w = |amount: Value, t: String| json!({"amount": amount, "phone_number": "21650000001", "sessionToken": t});
        // Limits (eWithdrawal 20..5000), phone, amount.
        fail(api.post("/api/payment/withdrawal", w(json!(19.999), token(&api).await)).await, 200, 106);
        fail(api.post("/api/payment/withdrawal", w(json!(5001), token(&api).await)).await, 200, 84);
        fail(api.post("/api/payment/withdrawal", w(json!(0), token(&api).await)).await, 200, 91);
        fail(api.post("/api/payment/withdrawal", w(json!(20.0001), token(&api).await)).await, 200, 91);
        fail(api.post("/api/payment/withdrawal", json!({"amount": 20, "phone_number": "abc", "sessionToken": token(&api).await})).await, 200, 92);
        // 508: not enough.
        let have = app.minor_balance(user, BalanceKind::Real).await;
        let r = fail(api.post("/api/payment/withdrawal", w(json!((have + 20 * TND) / TND), token(&api).await)).await, 200, 508);
        assert!(r.is_null());
        // Deposit limits (topUp 5..20000), token checks.
        fail(api.post("/api/payment/deposit", json!({"amount": 4.999, "sessionToken": token(&api).await})).await, 200, 81);
        fail(api.post("/api/payment/deposit", json!({"amount": 20001, "sessionToken": token(&api).await})).await, 200, 83);
        fail(api.post("/api/payment/deposit", json!({"amount": 10, "sessionToken": "pt_forged"})).await, 200, 80);
        let (other, _, _) = app.player("pay6b@example.tn").await;
        fail(api.post("/api/payment/deposit", json!({"amount": 10, "sessionToken": token(&other).await})).await, 200, 80);
        // A retry with the same token answers the same payment; another amount with it is 26.
        let t = token(&api).await;
        let a = ok(api.post("/api/payment/deposit", json!({"amount": 50, "sessionToken": t})).await);
        let b = ok(api.post("/api/payment/deposit", json!({"amount": 50, "sessionToken": t})).await);
        assert_eq!(a["id"], b["id"]);
        assert_eq!(a["invoice_url"], b["invoice_url"]);
        fail(api.post("/api/payment/deposit", json!({"amount": 51, "sessionToken": t})).await, 409, 26);
        // Malformed requests: 40; not signed in: 23.
        fail(api.post("/api/payment/deposit", json!({"amount": "ten", "sessionToken": t})).await, 400, 40);
        fail(api.post("/api/payment/deposit", json!({"amount": 10})).await, 400, 40);
        fail(api.post("/api/payment/withdrawal", json!([])).await, 400, 40);
        fail(api.get("/api/payment/intent/abc").await, 400, 40);
        fail(app.bare_client().post("/api/payment/token", json!({})).await, 401, 23);
        // Pay the deposit: now 50 must be staked before a withdrawal (6252 with the amount to wager).
        let reference = a["invoice_url"].as_str().unwrap().trim_start_matches("/pay/sandbox/").split('?').next().unwrap().to_string();
        page_post(app, &reference, "action=card&card=4242424242424242").await;
        wait_status(&api, a["id"].as_i64().unwrap(), "succeeded").await;
        let r = fail(api.post("/api/payment/withdrawal", w(json!(20), token(&api).await)).await, 200, 6252);
        assert_eq!(r.as_f64(), Some(50.0), "the amount still to wager: {r}");
        // Staking 30 of it leaves 20 to wager.
        let stake = PostingRequest::transfer(TxType::BetStake, format!("t:{user}:s1"), Some(user), kernel::Currency::Tnd,
            AccountRef::Player { user_id: user, kind: BalanceKind::Real }, AccountRef::House(wallet::HouseAccount::Games), 30 * TND);
        app.state.ledger.post(stake).await.unwrap();
        let r = fail(api.post("/api/payment/withdrawal", w(json!(20), token(&api).await)).await, 200, 6252);
        assert_eq!(r.as_f64(), Some(20.0));
        let stake = PostingRequest::transfer(TxType::BetStake, format!("t:{user}:s2"), Some(user), kernel::Currency::Tnd,
            AccountRef::Player { user_id: user, kind: BalanceKind::Real }, AccountRef::House(wallet::HouseAccount::Games), 20 * TND);
        app.state.ledger.post(stake).await.unwrap();
        // A password recovery within 24 h blocks withdrawals (6252 with an object: the app's 6252-1).
        let now = now_ms();
        app.sql(&format!(
            "INSERT INTO email_tokens (id, purpose, token_hash, user_id, email, created_at, expires_at, used_at) \
             VALUES ({}, 'restore', 'h{now}', {user}, 'pay6@example.tn', {now}, {}, {now})", kernel::ids::next_id(), now + 60_000)).await;
        let r = fail(api.post("/api/payment/withdrawal", w(json!(20), token(&api).await)).await, 200, 6252);
        assert_eq!(r["reason"], "recovery");
        assert!(r["until"].is_string());
        app.sql(&format!("UPDATE email_tokens SET used_at = {} WHERE user_id = {user}", now - 25 * 3_600_000)).await;
        // Wagered and not blocked: the withdrawal goes through (with money to withdraw).
        app.credit(user, BalanceKind::Real, 20 * TND).await;
        ok(api.post("/api/payment/withdrawal", w(json!(20), token(&api).await)).await);
        // Online deposits only for web sign-ups (82).
        app.sql(&format!("UPDATE users SET registered_via = 'cli' WHERE id = {user}")).await;
        fail(api.post("/api/payment/deposit", json!({"amount": 10, "sessionToken": token(&api).await})).await, 200, 82);
        fail(api.post("/paykassma/deposit/init", json!({"amount": 10})).await, 200, 82);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn payments_redirect_code_20_when_the_page_cannot_be_framed() {
    each_backend_with(|c| c.payments.sandbox_framable = false, async |app| {
        let (api, _, _) = app.player("pay7@example.tn").await;
        let r = fail(api.post("/api/payment/deposit", json!({"amount": 10, "sessionToken": token(&api).await})).await, 200, 20);
        assert!(r["url"].as_str().unwrap().starts_with("/pay/sandbox/"), "{r}");
        assert!(r["id"].as_i64().is_some());
    })
    .await;
}

#[tokio::test]
async fn payments_telegram_usdt_deposit_at_the_recorded_rate() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pay8@example.tn").await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        let r = ok(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": 123456789, "amount": 10.5, "payment_currency": "USDT"})).await);
        assert_eq!((r["rate"].as_str(), r["credit_amount"].as_f64(), r["credit_currency"].as_str()), (Some("3.125000"), Some(32.812), Some("TND")));
        let id = r["id"].as_i64().unwrap();
        let reference = r["invoice_url"].as_str().unwrap().trim_start_matches("/pay/sandbox/").split('?').next().unwrap().to_string();
        assert!(reference.starts_with("cry_"));
        let page = api.exec(api.req(Method::GET, &format!("/pay/sandbox/{reference}"))).await;
        assert!(page.text.contains("10.500000 USDT"), "{}", page.text);
        page_post(app, &reference, "action=paid").await;
        let i = wait_status(&api, id, "succeeded").await;
        assert_eq!((i["amount"].as_f64(), i["currency"].as_str()), (Some(10.5), Some("USDT")));
        // 10.5 × 3.125 = 32.8125 TND, floored to the millime.
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 32_812);
        assert_eq!(app.scalar(&format!("SELECT tx_type FROM ledger_transactions WHERE idempotency_key = 'pay:{id}:credit'")).await, 11);
        fail(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": "1", "amount": 10, "payment_currency": "BTC"})).await, 200, 89);
        fail(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": "1", "amount": 10.0000001, "payment_currency": "USDT"})).await, 200, 91);
        fail(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": [1], "amount": 10, "payment_currency": "USDT"})).await, 400, 40);
        // An empty or over-long id is malformed whatever the currency (its schema: 1 to 64 characters).
        fail(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": "", "amount": 10, "payment_currency": ""})).await, 400, 40);
        fail(api.post("/api/payment/telegram/deposit", json!({"telegram_user_id": "é".repeat(65), "amount": 10, "payment_currency": "USDT"})).await, 400, 40);
        app.assert_ledger_consistent().await;
    })
    .await;
}

// ------------------------------------------------------------------ restart

struct Instance {
    state: server::app::AppState,
    base: String,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

async fn start(url: &str, tweak: impl Fn(&mut server::config::Config)) -> Instance {
    let mut cfg = test_config(url);
    tweak(&mut cfg);
    let state = server::prepare(cfg).await.expect("prepare");
    server::seed::run(&state).await.expect("seed");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(server::serve(state.clone(), listener, async move {
        let _ = rx.await;
    }));
    Instance { state, base, stop, task }
}

async fn stop(i: Instance) {
    let _ = i.stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(5), i.task).await;
    i.state.db.close().await;
}

async fn web_player(state: &server::app::AppState, email: &str) -> payments::Payer {
    let user = state
        .accounts
        .create_user(accounts::NewUser {
            email: Some(email.into()),
            phone: None,
            password: PASSWORD.into(),
            role: accounts::Role::Player,
            currency: kernel::Currency::Tnd,
            first_name: "R".into(),
            last_name: "S".into(),
            registered_via: "email",
        })
        .await
        .unwrap();
    payments::Payer { id: user.id, currency: user.currency, registered_via: "email".into(), phone: None, lang: "en".into() }
}

#[tokio::test]
async fn payments_a_restart_during_pending_is_reconciled() {
    for backend in selected_backends() {
        eprintln!("=== backend: {backend:?}");
        let db = store::testing::TestDb::new(backend).await.unwrap();
        // The first instance's callbacks go nowhere (its own address is unreachable).
        let first = start(&db.url, |c| c.payments.callback_base = Some("http://127.0.0.1:9".into())).await;
        let payer = web_player(&first.state, "pay9@example.tn").await;
        let p = &first.state.payments;
        let (deposit, _) = p.deposit(&payer, "sandbox", "25", None).await.unwrap();
        // The player pays on the page; the provider records it; its callback cannot arrive.
        let http = reqwest::Client::new();
        let reference = deposit.provider_ref.clone().unwrap();
        let page = http.post(format!("{}/pay/sandbox/{reference}", first.base)).header("content-type", "application/x-www-form-urlencoded")
            .body("action=card&card=4242424242424242").send().await.unwrap().text().await.unwrap();
        assert!(page.contains("data-payment-status=\"succeeded\""));
        // A withdrawal paid out by the provider, its callback lost the same way.
        first.state.ledger.post(PostingRequest::transfer(TxType::ManualAdjustment, format!("t:{}:c", payer.id), Some(payer.id), kernel::Currency::Tnd,
            AccountRef::House(wallet::HouseAccount::Adjustments), AccountRef::Player { user_id: payer.id, kind: BalanceKind::Real }, 40 * TND)).await.unwrap();
        let withdrawal = p.withdraw(&payer, "sandbox", "30", "21650000002", None).await.unwrap();
        assert!(withdrawal.held && withdrawal.status == payments::IntentStatus::Pending);
        let wref = withdrawal.provider_ref.clone().unwrap();
        http.post(format!("{}/pay/sandbox/{wref}", first.base)).header("content-type", "application/x-www-form-urlencoded")
            .body("action=payout").send().await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(p.intent(deposit.id).await.unwrap().unwrap().status, payments::IntentStatus::Pending);
        assert_eq!(p.intent(withdrawal.id).await.unwrap().unwrap().status, payments::IntentStatus::Pending);
        stop(first).await;

        // A new instance on the same database: the reconciliation asks the provider and
        // settles each exactly once, however often it runs.
        let second = start(&db.url, |c| c.payments.callback_base = Some("http://127.0.0.1:9".into())).await;
        let p = &second.state.payments;
        let r = p.reconcile_once(0).await.unwrap();
        assert_eq!(r.succeeded, 2, "{r:?}");
        assert_eq!(p.reconcile_once(0).await.unwrap().succeeded, 0);
        assert_eq!(p.intent(deposit.id).await.unwrap().unwrap().status, payments::IntentStatus::Succeeded);
        assert_eq!(p.intent(withdrawal.id).await.unwrap().unwrap().status, payments::IntentStatus::Succeeded);
        assert_eq!(second.state.ledger.balance(payer.id, BalanceKind::Real, kernel::Currency::Tnd).await.unwrap(), (25 + 40 - 30) * TND);
        let key_count = |k: String| {
            let db = second.state.db.clone();
            async move { sqlx::query("SELECT COUNT(*) FROM ledger_transactions WHERE idempotency_key = $1").bind(k).fetch_one(db.reader()).await.unwrap().get::<i64, _>(0) }
        };
        assert_eq!(key_count(format!("pay:{}:credit", deposit.id)).await, 1);
        assert_eq!(key_count(format!("pay:{}:settle", withdrawal.id)).await, 1);
        // The lost callbacks, delivered at last, change nothing.
        let body = event("evt_x", &reference, deposit.id, "deposit", "succeeded", 25 * TND, "TND");
        let h = payments::signature::sign_header(&second.state.config.payments.sandbox_secret, now_s(), body.as_bytes());
        let resp = http.post(format!("{}/api/payment/callback/sandbox", second.base)).header("Carthage-Signature", h).body(body).send().await.unwrap();
        assert_eq!(resp.status(), 200);
        assert_eq!(key_count(format!("pay:{}:credit", deposit.id)).await, 1);

        // A crash between a transition and its posting: the repair pass posts it once.
        let (d2, _) = p.deposit(&payer, "sandbox", "5", None).await.unwrap();
        sqlx::query("UPDATE payment_intents SET status = 'succeeded', settled_at = NULL, updated_at = 1 WHERE id = $1").bind(d2.id).execute(second.state.db.writer()).await.unwrap();
        assert_eq!(p.repair_once(0).await.unwrap().repaired, 1);
        assert_eq!(p.repair_once(0).await.unwrap().repaired, 0);
        assert_eq!(key_count(format!("pay:{}:credit", d2.id)).await, 1);
        // A withdrawal row written, the hold posted, `held` not yet recorded: the repair finds the hold.
        // (The 30 deposited since the last withdrawal are staked first: the turnover rule.)
        second.state.ledger.post(PostingRequest::transfer(TxType::BetStake, format!("t:{}:s", payer.id), Some(payer.id), kernel::Currency::Tnd,
            AccountRef::Player { user_id: payer.id, kind: BalanceKind::Real }, AccountRef::House(wallet::HouseAccount::Games), 30 * TND)).await.unwrap();
        second.state.ledger.post(PostingRequest::transfer(TxType::ManualAdjustment, format!("t:{}:c2", payer.id), Some(payer.id), kernel::Currency::Tnd,
            AccountRef::House(wallet::HouseAccount::Adjustments), AccountRef::Player { user_id: payer.id, kind: BalanceKind::Real }, 20 * TND)).await.unwrap();
        let (w2, _) = (p.withdraw(&payer, "sandbox", "20", "21650000002", None).await.unwrap(), ());
        sqlx::query("UPDATE payment_intents SET status = 'created', held = 0, updated_at = 1 WHERE id = $1").bind(w2.id).execute(second.state.db.writer()).await.unwrap();
        assert_eq!(p.repair_once(0).await.unwrap().repaired, 1, "held, found in the ledger");
        assert!(p.intent(w2.id).await.unwrap().unwrap().held);
        let report = second.state.ledger.verify().await.unwrap();
        assert!(report.is_consistent(), "{report:?}");
        stop(second).await;
        db.cleanup().await;
    }
}

// ------------------------------------------------------------------ Paykassma

const PK_ACCESS: &str = "test-access-key";
const PK_POSTBACK_PRIVATE: &str = "test-postback-private";
const PK_PRIVATE: &str = "test-private-key";

fn hex_sha1(s: &str) -> String {
    use sha1_smol_like::*;
    sha1(s)
}

/// Independent helpers for the fake (not the server's code).
mod sha1_smol_like {
    pub fn sha1(s: &str) -> String {
        use sha1::Digest;
        hex::encode(sha1::Sha1::digest(s.as_bytes()))
    }
    pub fn md5(s: &str) -> String {
        use md5::Digest;
        hex::encode(md5::Md5::digest(s.as_bytes()))
    }
}

/// The fake's postback body: compact JSON members in order, then the signature
/// `sha1(access . private . md5(json_encode(data)))`.
fn fake_postback(members: &[(&str, Value)]) -> String {
    let data = format!("{{{}}}", members.iter().map(|(k, v)| format!("{}:{}", json!(k), v)).collect::<Vec<_>>().join(","));
    let sig = hex_sha1(&format!("{PK_ACCESS}{PK_POSTBACK_PRIVATE}{}", sha1_smol_like::md5(&data)));
    format!("{},\"signature\":\"{sig}\"}}", &data[..data.len() - 1])
}

/// A local fake of Paykassma: `POST /v2/withdrawal/create` (checks the request signature),
/// and postbacks resent every 100 ms until answered HTTP 200 `{"status":"ok"}`.
#[derive(Clone, Default)]
struct FakePaykassma {
    callback: Arc<std::sync::Mutex<String>>,
    attempts: Arc<AtomicUsize>,
    acked: Arc<AtomicUsize>,
    creates: Arc<std::sync::Mutex<Vec<Value>>>,
}

impl FakePaykassma {
    async fn start() -> (FakePaykassma, String) {
        let fake = FakePaykassma::default();
        let f = fake.clone();
        let app = axum::Router::new().route(
            "/v2/withdrawal/create",
            axum::routing::post(move |body: axum::body::Bytes| {
                let f = f.clone();
                async move {
                    let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                    let field = |k: &str| match &v[k] { Value::String(s) => s.clone(), other => other.to_string() };
                    let joined = ["withdrawal_id", "payment_system", "amount", "currency_code", "label", "account_number"].map(field).join(":");
                    let expected = hex_sha1(&format!("{PK_PRIVATE}{}", sha1_smol_like::md5(&joined)));
                    if v["signature"] != expected.as_str() {
                        return axum::Json(json!({"status": "fail", "message": "signature"}));
                    }
                    f.creates.lock().unwrap().push(v.clone());
                    let postback = fake_postback(&[
                        ("transaction_id", json!(format!("PK-{}", field("withdrawal_id")))),
                        ("custom_transaction_id", json!(field("withdrawal_id"))),
                        ("type", json!("withdrawal")),
                        ("status", json!("success")),
                        ("amount", v["amount"].clone()),
                        ("currency_code", v["currency_code"].clone()),
                        ("label", v["label"].clone()),
                        ("wallet_type", json!("mobile")),
                    ]);
                    f.send(postback);
                    axum::Json(json!({"status": "ok"}))
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (fake, url)
    }

    /// Sends a postback until it is acknowledged (Paykassma's rule).
    fn send(&self, body: String) {
        let f = self.clone();
        tokio::spawn(async move {
            let http = reqwest::Client::new();
            for _ in 0..100 {
                f.attempts.fetch_add(1, Ordering::SeqCst);
                let url = f.callback.lock().unwrap().clone();
                if let Ok(resp) = http.post(&url).header("content-type", "application/json").body(body.clone()).send().await {
                    let ok = resp.status() == 200 && resp.json::<Value>().await.is_ok_and(|v| v == json!({"status": "ok"}));
                    if ok {
                        f.acked.fetch_add(1, Ordering::SeqCst);
                        return;
                    }
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
    }
}

#[tokio::test]
async fn payments_paykassma_against_a_local_fake() {
    let (fake, url) = FakePaykassma::start().await;
    let fake_ref = fake.clone();
    each_backend_with(
        move |c| {
            let k = c.payments.paykassma.as_mut().unwrap();
            k.api_url = Some(url.clone());
            k.postback_access_key = PK_ACCESS.into();
            k.postback_private_key = PK_POSTBACK_PRIVATE.into();
            k.private_key = PK_PRIVATE.into();
            k.wallet_type = "mobile".into();
        },
        async |app| {
            let fake = &fake_ref;
            *fake.callback.lock().unwrap() = format!("{}/api/payment/callback/paykassma", app.base);
            let (api, user, _) = app.player("pk1@example.tn").await;
            app.credit(user, BalanceKind::Real, 100 * TND).await;
            let before = app.minor_balance(user, BalanceKind::Real).await;
            // A withdrawal to a phone: created at Paykassma (signed), held, settled by the postback.
            let acked = fake.acked.load(Ordering::SeqCst);
            let w = ok(api.post("/paykassma/withdrawal/init", json!({"amount": 30, "phone_number": "+216 20 000 111"})).await);
            // The fake posts its postback while it answers the create, so the postback may be
            // booked before the init reply is written: "succeeded" is then the true state.
            assert!(w["status"] == "pending" || w["status"] == "succeeded", "{w}");
            let id = w["id"].as_i64().unwrap();
            let create = fake.creates.lock().unwrap().last().cloned().unwrap();
            assert_eq!((create["withdrawal_id"].as_str(), create["amount"].as_i64(), create["account_number"].as_str()), (Some(id.to_string().as_str()), Some(30), Some("21620000111")));
            wait_status(&api, id, "succeeded").await;
            for _ in 0..50 {
                if fake.acked.load(Ordering::SeqCst) > acked { break; }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert_eq!(fake.acked.load(Ordering::SeqCst), acked + 1, "the postback was acknowledged with {{\"status\":\"ok\"}}");
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before - 30 * TND);
            assert_eq!(app.scalar(&format!("SELECT tx_type FROM ledger_transactions WHERE idempotency_key = 'pay:{id}:settle'")).await, 206);
            // Whole amounts only (Paykassma's integer amount).
            fail(api.post("/paykassma/withdrawal/init", json!({"amount": 30.5, "phone_number": "21620000111"})).await, 200, 91);
            // A deposit: the plugin URL carries the intent; the fake's postback (resent until
            // acknowledged) credits it once.
            let d = ok(api.post("/paykassma/deposit/init", json!({"amount": 15})).await);
            let did = d["id"].as_i64().unwrap();
            assert!(d["invoice_url"].as_str().unwrap().contains(&format!("custom_transaction_id={did}")), "{d}");
            let postback = |status: &str, amount: Value| fake_postback(&[
                ("transaction_id", json!(format!("PKD-{did}"))),
                ("custom_transaction_id", json!(did.to_string())),
                ("type", json!("deposit")),
                ("status", json!(status)),
                ("amount", amount),
                ("currency_code", json!("TND")),
                ("label", json!(user.to_string())),
                ("wallet_type", json!("upi_s")),
                ("converted_amount", json!({"USD": 4.85})),
            ]);
            // Refused postbacks: forged, wrong amount (answered 4xx: Paykassma would resend).
            let forged = postback("success", json!(15)).replace("\"signature\":\"", "\"signature\":\"0");
            let r = app.bare_client().exec(app.http.post(format!("{}/api/payment/callback/paykassma", app.base)).body(forged)).await;
            assert_eq!((r.status, r.body["status"].as_i64()), (401, Some(64)));
            let r = app.bare_client().exec(app.http.post(format!("{}/api/payment/callback/paykassma", app.base)).body(postback("success", json!(16)))).await;
            assert_eq!((r.status, r.body["status"].as_i64()), (400, Some(86)));
            assert_eq!(credits(app, did).await, 0);
            let acked = fake.acked.load(Ordering::SeqCst);
            fake.send(postback("success", json!(15)));
            fake.send(postback("success", json!(15)));
            wait_status(&api, did, "succeeded").await;
            for _ in 0..50 {
                if fake.acked.load(Ordering::SeqCst) >= acked + 2 { break; }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert_eq!(fake.acked.load(Ordering::SeqCst), acked + 2);
            assert_eq!(credits(app, did).await, 1);
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before - 15 * TND);
            assert_eq!(row_text(app, &format!("SELECT provider_ref FROM payment_intents WHERE id = {did}")).await, format!("PKD-{did}"));
            app.assert_ledger_consistent().await;
        },
    )
    .await;
}

#[tokio::test]
async fn payments_paykassma_emulation_in_demo_mode() {
    each_backend(async |app| {
        let (api, user, _) = app.player("pk2@example.tn").await;
        app.credit(user, BalanceKind::Real, 50 * TND).await;
        let before = app.minor_balance(user, BalanceKind::Real).await;
        // A paykassma-style withdrawal to a phone with no other server.
        let w = ok(api.post("/paykassma/withdrawal/init", json!({"amount": 20, "phone_number": "21620000222"})).await);
        wait_status(&api, w["id"].as_i64().unwrap(), "succeeded").await;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before - 20 * TND);
        // A deposit through the emulated plugin page.
        let d = ok(api.post("/paykassma/deposit/init", json!({"amount": 10})).await);
        let url = d["invoice_url"].as_str().unwrap().to_string();
        assert!(url.starts_with("/pay/paykassma/plugin?"), "{url}");
        let page = api.exec(api.req(Method::GET, &url)).await;
        assert!(page.text.contains("name=\"custom_transaction_id\""), "{}", page.text);
        let form = url.split_once('?').unwrap().1.to_string() + "&action=card&card=4242424242424242";
        let r = api.exec(api.req(Method::POST, "/pay/paykassma/plugin").header("content-type", "application/x-www-form-urlencoded").body(form)).await;
        assert!(r.text.contains("data-payment-status=\"succeeded\""), "{}", r.text);
        wait_status(&api, d["id"].as_i64().unwrap(), "succeeded").await;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before - 10 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A flaky network in front of our callback endpoint: the first `fail` callbacks get HTTP
/// 503, the others are forwarded to the server.
async fn flaky_proxy(fail: usize, target: Arc<std::sync::Mutex<String>>) -> (String, Arc<AtomicUsize>) {
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let app = axum::Router::new().fallback(move |req: axum::extract::Request| {
        let (counter, target) = (counter.clone(), target.clone());
        async move {
            let n = counter.fetch_add(1, Ordering::SeqCst);
            if n < fail {
                return (axum::http::StatusCode::SERVICE_UNAVAILABLE, String::from("down")).into_response_pair();
            }
            let (parts, body) = req.into_parts();
            let body = axum::body::to_bytes(body, 1 << 20).await.unwrap_or_default();
            let mut fwd = reqwest::Client::new().post(format!("{}{}", target.lock().unwrap().clone(), parts.uri.path())).body(body.to_vec());
            for (k, v) in parts.headers.iter() {
                if k == "carthage-signature" || k == "content-type" {
                    fwd = fwd.header(k.as_str(), v.to_str().unwrap_or_default());
                }
            }
            match fwd.send().await {
                Ok(r) => (axum::http::StatusCode::from_u16(r.status().as_u16()).unwrap(), r.text().await.unwrap_or_default()).into_response_pair(),
                Err(e) => (axum::http::StatusCode::BAD_GATEWAY, e.to_string()).into_response_pair(),
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, seen)
}

trait IntoPair {
    fn into_response_pair(self) -> axum::response::Response;
}

impl IntoPair for (axum::http::StatusCode, String) {
    fn into_response_pair(self) -> axum::response::Response {
        axum::response::IntoResponse::into_response(self)
    }
}

#[tokio::test]
async fn payments_sandbox_callbacks_are_retried_until_answered_200() {
    let target = Arc::new(std::sync::Mutex::new(String::new()));
    let (proxy, seen) = flaky_proxy(2, target.clone()).await;
    let seen_ref = seen.clone();
    each_backend_with(
        move |c| c.payments.callback_base = Some(proxy.clone()),
        async |app| {
            *target.lock().unwrap() = app.base.clone();
            seen_ref.store(0, Ordering::SeqCst);
            let (api, user, _) = app.player("retry@example.tn").await;
            let before = app.minor_balance(user, BalanceKind::Real).await;
            let (id, reference) = deposit(&api, json!(9)).await;
            page_post(app, &reference, "action=card&card=4242424242424242").await;
            // Refused twice (503), then delivered after the back-off (1 s, then 2 s).
            wait_status(&api, id, "succeeded").await;
            assert_eq!(seen_ref.load(Ordering::SeqCst), 3);
            // The sandbox marks its callback delivered once the 200 is back, which can be a
            // moment after the intent succeeded (the credit happens while the callback is
            // answered): wait for the mark, for at most 10 s.
            let mut delivered = 0;
            for _ in 0..100 {
                delivered = app.count("sandbox_callbacks WHERE delivered_at IS NOT NULL").await;
                if delivered > 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            assert_eq!(delivered, 1, "the callback was never marked delivered");
            assert_eq!(app.scalar("SELECT attempts FROM sandbox_callbacks WHERE delivered_at IS NOT NULL").await, 3);
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 9 * TND);
            app.assert_ledger_consistent().await;
        },
    )
    .await;
}
