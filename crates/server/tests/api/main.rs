//! HTTP integration tests of the `carthage` server: every endpoint's success and every
//! failure code it can answer, over a real TCP connection, on every backend (SQLite
//! always; PostgreSQL too when `TEST_DATABASE_URL` is set). No request may get a 5xx.

mod common;
mod access;
mod four_eyes;
mod players;
mod staff_sign_in;
mod withdrawal_review;
mod reports;

mod casino;
mod cashback_coupons;
mod cashier;
mod crash;
mod deposit_bonus;
mod duties;
mod relay;
mod history;
mod money;
mod payments;
mod promotions;
mod promotions_admin;
mod promotions_payouts;
mod provider_links;
mod provider_wallet;
mod rg;
mod slots_history;
mod sessions_hardening;
mod static_files;
mod partners;
mod partner_conformance;
mod sportsbook;
mod sportsbook_fixtures;
mod studio;
mod virtuals;
mod contract;
mod backup;
mod observability;
mod shared_limits;

use common::*;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use wallet::BalanceKind;

const TND: i64 = 1000; // millimes in one dinar

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect();
    k.sort();
    k
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// =====================================================================================
// POST /api/user/phone/code
// =====================================================================================

#[tokio::test]
async fn phone_code_sends_an_sms_code() {
    each_backend(async |app| {
        // The hash is over the phone exactly as sent (here with a leading +).
        let r = ok(app.request_phone_code(app, "+21650000001").await);
        assert_eq!(r["phone"], "21650000001", "the phone is answered normalised");
        assert!(r["id"].as_i64().unwrap() > 0);
        let outbox = app.outbox("21650000001").await;
        assert_eq!(outbox.len(), 1);
        assert_eq!(outbox[0]["channel"], "sms");
        let code = str_of(&outbox[0]["code"]);
        assert_eq!(code.len(), 6);
        assert!(code.chars().all(|c| c.is_ascii_digit()));
        assert!(str_of(&outbox[0]["text"]).contains(code));
        // An upper-case hash is the same hash.
        let hash = app.phone_hash("21650000002").await.to_ascii_uppercase();
        ok(app.post("/api/user/phone/code", json!({ "phone": "21650000002", "hash": hash })).await);
        // 8 local digits get the country code.
        let r = ok(app.request_phone_code(app, "50000003").await);
        assert_eq!(r["phone"], "21650000003");
    })
    .await;
}

#[tokio::test]
async fn phone_code_refusals_send_nothing() {
    each_backend(async |app| {
        // 19: the hash is not sha256(phone + salt).
        fail(app.post("/api/user/phone/code", json!({ "phone": "21650000001", "hash": "00" })).await, 200, 19);
        let other = app.phone_hash("21650000009").await;
        fail(app.post("/api/user/phone/code", json!({ "phone": "21650000001", "hash": other })).await, 200, 19);
        let unsalted = sha256_hex("21650000001");
        fail(app.post("/api/user/phone/code", json!({ "phone": "21650000001", "hash": unsalted })).await, 200, 19);
        // 15: a right hash over an invalid phone.
        for bad in ["+33612345678", "2165000000", "21650000001x", "123"] {
            fail(app.request_phone_code(app, bad).await, 200, 15);
        }
        // 1: the phone belongs to an account (the seeded demo player).
        fail(app.request_phone_code(app, "21620000001").await, 200, 1);
        fail(app.request_phone_code(app, "+216 20 000 001").await, 200, 1);
        assert!(app.outbox("21650000001").await.is_empty());
        assert!(app.outbox("21620000001").await.is_empty());
        assert_eq!(app.count("phone_codes").await, 0);
    })
    .await;
}

#[tokio::test]
async fn phone_code_daily_limit_per_phone() {
    each_backend_with(
        |cfg| cfg.accounts.sms_daily_limit_per_phone = 2,
        async |app| {
            ok(app.request_phone_code(app, "21650000001").await);
            ok(app.request_phone_code(app, "+21650000001").await);
            fail(app.request_phone_code(app, "21650000001").await, 200, 13);
            fail(app.request_phone_code(app, "50000001").await, 200, 13);
            assert_eq!(app.outbox("21650000001").await.len(), 2, "no SMS beyond the daily limit");
            // Another phone is not affected.
            ok(app.request_phone_code(app, "21650000002").await);
        },
    )
    .await;
}

#[tokio::test]
async fn phone_code_rate_limited_per_address_and_ip() {
    each_backend_with(
        |cfg| {
            cfg.accounts.limits.sends_per_address = Limit { burst: 1, period: Duration::from_secs(3600) };
            cfg.accounts.limits.sends_per_ip = Limit { burst: 3, period: Duration::from_secs(3600) };
        },
        async |app| {
            ok(app.request_phone_code(app, "21650000001").await);
            // Same address again: 14 (HTTP 429) with the wait in result and Retry-After.
            let hash = app.phone_hash("21650000001").await;
            let resp = app
                .exec(app.req(Method::POST, "/api/user/phone/code").json(&json!({ "phone": "21650000001", "hash": hash })))
                .await;
            let data = fail(resp.pair(), 429, 14);
            let wait = data["retryAfterSeconds"].as_u64().expect("retryAfterSeconds");
            assert!((1..=3600).contains(&wait), "{wait}");
            assert_eq!(resp.header("retry-after"), Some(wait.to_string()));
            assert_eq!(app.outbox("21650000001").await.len(), 1);
            // The per-IP quota (3 sends, the refused one above included) runs out too.
            ok(app.request_phone_code(app, "21650000002").await);
            let data = fail(app.request_phone_code(app, "21650000003").await, 429, 14);
            assert!(data["retryAfterSeconds"].as_u64().unwrap() >= 1);
            assert!(app.outbox("21650000003").await.is_empty());
        },
    )
    .await;
}

#[tokio::test]
async fn every_send_is_rate_limited_per_address() {
    each_backend_with(
        |cfg| cfg.accounts.limits.sends_per_address = Limit { burst: 1, period: Duration::from_secs(3600) },
        async |app| {
            // The sign-up e-mail took the address's only send: recovery must wait.
            app.signup_email_unverified(app, "ali@example.tn", PASSWORD).await;
            let data = fail(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await, 429, 14);
            assert!(data["retryAfterSeconds"].as_u64().unwrap() >= 1);
            assert_eq!(app.outbox("ali@example.tn").await.len(), 1);
            // Likewise by phone, and for a new e-mail sign-up of a fresh address.
            app.signup_phone(&app.client(), "21612345678", PASSWORD).await;
            fail(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await, 429, 14);
            assert_eq!(app.outbox("21612345678").await.len(), 1);
            ok(app.post("/api/user/signup", json!({ "email": "new@example.tn", "password": PASSWORD })).await);
        },
    )
    .await;
}

// =====================================================================================
// POST /api/user/signup/phone
// =====================================================================================

#[tokio::test]
async fn phone_signup_signs_in() {
    each_backend(async |app| {
        let api = app.client();
        ok(app.request_phone_code(&api, "21650000001").await);
        let code = app.last_code("21650000001").await;
        let resp = api
            .send(
                Method::POST,
                "/api/user/signup/phone",
                Some(json!({ "phone": "+21650000001", "phoneCode": code, "password": PASSWORD, "login": "+21650000001", "lang": "fr" })),
            )
            .await;
        let s = ok(resp.pair());
        let token = str_of(&s["token"]);
        assert_eq!(token.len(), 64);
        assert!(s["expiresAt"].as_str().unwrap().ends_with('Z'));
        let cookie = resp.set_cookie("carthage_session").expect("session cookie");
        assert!(cookie.starts_with(&format!("carthage_session={token};")), "{cookie}");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"), "{cookie}");
        let user = &s["user"];
        assert_eq!(user["phone"], "21650000001");
        assert_eq!(user["login"], "21650000001");
        assert_eq!(user["email"], Value::Null);
        assert_eq!(user["currency"], "TND");
        assert_eq!(user["role"], 0);
        assert_eq!(user["lang"], "fr-fr");
        assert_eq!(user["emailVerified"], true);
        // The cookie is a session.
        let me = ok(api.check().await);
        assert_eq!(me["id"], user["id"]);
        // The code is also accepted as `code`; `code` wins over `phoneCode`.
        let api2 = app.client();
        ok(app.request_phone_code(&api2, "21650000002").await);
        let code = app.last_code("21650000002").await;
        let s = ok(api2
            .post("/api/user/signup/phone", json!({ "phone": "21650000002", "code": code, "password": PASSWORD, "currency": "TMT" }))
            .await);
        assert_eq!(s["user"]["currency"], "TMT");
        let api3 = app.client();
        ok(app.request_phone_code(&api3, "21650000003").await);
        let code = app.last_code("21650000003").await;
        ok(api3
            .post("/api/user/signup/phone", json!({ "phone": "21650000003", "phoneCode": "000000x", "code": code, "password": PASSWORD }))
            .await);
        // And signs in with the phone.
        ok(app.bare_client().login_phone("21650000003", PASSWORD).await);
    })
    .await;
}

#[tokio::test]
async fn phone_signup_code_failures() {
    each_backend(async |app| {
        let signup = |phone: &str, code: &str| json!({ "phone": phone, "phoneCode": code, "password": PASSWORD });
        // No code was ever requested.
        fail(app.post("/api/user/signup/phone", signup("21650000001", "123456")).await, 200, 12);
        // A wrong code; nothing is created.
        ok(app.request_phone_code(app, "21650000001").await);
        let code = app.last_code("21650000001").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        fail(app.post("/api/user/signup/phone", signup("21650000001", wrong)).await, 200, 12);
        fail(app.bare_client().login_phone("21650000001", PASSWORD).await, 200, 3);
        // An empty code.
        fail(app.post("/api/user/signup/phone", json!({ "phone": "21650000001", "password": PASSWORD })).await, 200, 12);
        // Attempts exhausted: after 5 wrong codes (the empty one counted) even the right
        // one is refused.
        for _ in 0..3 {
            fail(app.post("/api/user/signup/phone", signup("21650000001", wrong)).await, 200, 12);
        }
        fail(app.post("/api/user/signup/phone", signup("21650000001", &code)).await, 200, 12);
        fail(app.bare_client().login_phone("21650000001", PASSWORD).await, 200, 3);
        // A new code works.
        ok(app.request_phone_code(app, "21650000001").await);
        let code = app.last_code("21650000001").await;
        ok(app.bare_client().post("/api/user/signup/phone", signup("21650000001", &code)).await);
        // A used code: free the phone (as support would) and replay the code.
        ok(app.request_phone_code(app, "21650000003").await);
        let code = app.last_code("21650000003").await;
        let s = ok(app.bare_client().post("/api/user/signup/phone", signup("21650000003", &code)).await);
        let id = s["user"]["id"].as_i64().unwrap();
        app.sql(&format!("UPDATE users SET phone = '21659999999' WHERE id = {id}")).await;
        fail(app.post("/api/user/signup/phone", signup("21650000003", &code)).await, 200, 12);
        assert_eq!(app.count("users WHERE phone = '21650000003'").await, 0);
        // A superseded code: only the newest one counts.
        ok(app.request_phone_code(app, "21650000002").await);
        let first = app.last_code("21650000002").await;
        ok(app.request_phone_code(app, "21650000002").await);
        let second = app.last_code("21650000002").await;
        if first != second {
            fail(app.post("/api/user/signup/phone", signup("21650000002", &first)).await, 200, 12);
        }
        // An expired code.
        app.sql(&format!("UPDATE phone_codes SET expires_at = {} WHERE phone = '21650000002'", now_ms() - 1000)).await;
        fail(app.post("/api/user/signup/phone", signup("21650000002", &second)).await, 200, 12);
        fail(app.bare_client().login_phone("21650000002", PASSWORD).await, 200, 3);
        assert_eq!(app.count("users WHERE phone = '21650000002'").await, 0);
    })
    .await;
}

#[tokio::test]
async fn phone_signup_validation_keeps_the_code() {
    each_backend(async |app| {
        ok(app.request_phone_code(app, "21650000001").await);
        let code = app.last_code("21650000001").await;
        let body = |phone: &str, password: &str, currency: Option<&str>| {
            json!({ "phone": phone, "phoneCode": code, "password": password, "currency": currency })
        };
        fail(app.post("/api/user/signup/phone", body("2165000000", PASSWORD, None)).await, 200, 15);
        fail(app.post("/api/user/signup/phone", body("+33650000001", PASSWORD, None)).await, 200, 15);
        for weak in ["abc12", "abcdefg1", "1234567a", "", "123456"] {
            fail(app.post("/api/user/signup/phone", body("21650000001", weak, None)).await, 200, 231);
        }
        for currency in ["FUN", "fun", "EUR", "USD", "XYZ"] {
            fail(app.post("/api/user/signup/phone", body("21650000001", PASSWORD, Some(currency))).await, 200, 17);
        }
        // The demo player's phone exists.
        fail(
            app.post("/api/user/signup/phone", json!({ "phone": "21620000001", "code": "123456", "password": PASSWORD })).await,
            200,
            1,
        );
        assert_eq!(app.count("users WHERE phone = '21650000001'").await, 0);
        // None of the refusals used the code up.
        let s = ok(app.post("/api/user/signup/phone", body("21650000001", PASSWORD, Some("tnd"))).await);
        assert_eq!(s["user"]["currency"], "TND");
        // 1: the phone is now registered.
        fail(app.post("/api/user/signup/phone", body("+216 50 000 001", PASSWORD, None)).await, 200, 1);
        assert_eq!(app.count("users WHERE phone = '21650000001'").await, 1);
    })
    .await;
}

// =====================================================================================
// POST /api/user/signup (e-mail) and GET /api/user/email/verify/{code}
// =====================================================================================

#[tokio::test]
async fn email_signup_and_verification() {
    each_backend(async |app| {
        let api = app.client();
        let r = ok(api
            .post(
                "/api/user/signup",
                json!({ "email": " Ali.Ben@Example.TN ", "password": PASSWORD, "name": "", "currency": "RUB", "lang": "ar", "promocode": "X", "ref_id": "7" }),
            )
            .await);
        assert_eq!(r["email"], "ali.ben@example.tn");
        assert_eq!(r["verificationSent"], true);
        let id = r["id"].as_i64().unwrap();
        assert!((10_000_000..100_000_000).contains(&id), "8-digit user id: {id}");
        let mails = app.outbox("ali.ben@example.tn").await;
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0]["channel"], "email");
        let link = str_of(&mails[0]["link"]);
        assert!(link.contains("/verify?code="), "{link}");
        // Not verified: sign-in answers 11 and sets no cookie.
        let resp = api.send(Method::POST, "/api/user/login/email", Some(json!({ "email": "ali.ben@example.tn", "password": PASSWORD }))).await;
        fail(resp.pair(), 200, 11);
        assert!(resp.set_cookie("carthage_session").is_none());
        // ... and the right password on an unverified account sends the link again.
        let again = app.outbox("ali.ben@example.tn").await;
        assert_eq!(again.len(), 2, "the verification link is sent again");
        assert_ne!(again[0]["link"], mails[0]["link"]);
        fail(api.login("ali.ben@example.tn", PASSWORD).await, 200, 11);
        fail(api.check().await, 401, 23);
        // A wrong password is still a wrong password.
        fail(api.login_email("ali.ben@example.tn", "Wrong123").await, 200, 4);
        // Verify.
        let code = app.last_verify_code("ali.ben@example.tn").await;
        let v = ok(app.get(&format!("/api/user/email/verify/{code}")).await);
        assert_eq!(v, json!({ "id": id, "email": "ali.ben@example.tn", "verified": true }));
        fail(app.get(&format!("/api/user/email/verify/{code}")).await, 200, 8);
        fail(app.get("/api/user/email/verify/0123456789abcdef").await, 200, 6);
        fail(app.get(&format!("/api/user/email/verify/{}", "a".repeat(64))).await, 200, 6);
        // Now sign-in works.
        let s = ok(api.login_email("ALI.BEN@example.tn", PASSWORD).await);
        assert_eq!(s["user"]["id"], id);
        assert_eq!(s["user"]["emailVerified"], true);
        assert_eq!(s["user"]["currency"], "RUB");
        assert_eq!(s["user"]["lang"], "ar-ar");
        assert_eq!(s["user"]["login"], "ali.ben@example.tn");
        assert_eq!(ok(api.check().await)["id"], id);
    })
    .await;
}

#[tokio::test]
async fn email_signup_refusals() {
    each_backend(async |app| {
        let signup = |email: &str, password: &str, currency: Option<&str>| {
            json!({ "email": email, "password": password, "currency": currency })
        };
        for bad in ["", "ali", "ali@", "@example.tn", "ali@example", "ali@@example.tn", "a b@example.tn", "ali@example.t1"] {
            fail(app.post("/api/user/signup", signup(bad, PASSWORD, None)).await, 200, 18);
        }
        for weak in ["ab12", "abcdefgh", "12345678", "abcdef1"] {
            fail(app.post("/api/user/signup", signup("ali@example.tn", weak, None)).await, 200, 231);
        }
        for currency in ["FUN", "EUR", "USD", "???"] {
            fail(app.post("/api/user/signup", signup("ali@example.tn", PASSWORD, Some(currency))).await, 200, 17);
        }
        assert!(app.outbox("ali@example.tn").await.is_empty());
        assert_eq!(app.count("users WHERE email = 'ali@example.tn'").await, 0);
        ok(app.post("/api/user/signup", signup("ali@example.tn", PASSWORD, None)).await);
        fail(app.post("/api/user/signup", signup("ALI@Example.tn", PASSWORD, None)).await, 200, 1);
        fail(app.post("/api/user/signup", signup("player@carthage.local", PASSWORD, None)).await, 200, 1);
        assert_eq!(app.outbox("ali@example.tn").await.len(), 1, "no second e-mail for a refused sign-up");
        assert_eq!(app.count("users WHERE email = 'ali@example.tn'").await, 1);
    })
    .await;
}

#[tokio::test]
async fn email_verification_link_expires() {
    each_backend(async |app| {
        app.signup_email_unverified(app, "late@example.tn", PASSWORD).await;
        let code = app.last_verify_code("late@example.tn").await;
        app.sql(&format!("UPDATE email_tokens SET expires_at = {} WHERE purpose = 'verify'", now_ms() - 1000)).await;
        fail(app.get(&format!("/api/user/email/verify/{code}")).await, 200, 7);
        fail(app.login_email("late@example.tn", PASSWORD).await, 200, 11);
        assert_eq!(app.count("users WHERE email = 'late@example.tn' AND email_verified_at IS NULL").await, 1);
    })
    .await;
}

// =====================================================================================
// Sign-in: /login/email, /login/phone, /login
// =====================================================================================

#[tokio::test]
async fn login_in_every_form() {
    each_backend(async |app| {
        let phone_id = app.signup_phone(&app.client(), "21612345678", PASSWORD).await["user"]["id"].clone();
        let email_id = app.signup_email(&app.client(), "ali@example.tn", PASSWORD).await["user"]["id"].clone();
        for phone in ["21612345678", "+21612345678", "12345678", "+216 12 345 678", "0021612345678"] {
            let api = app.client();
            let resp = api.send(Method::POST, "/api/user/login/phone", Some(json!({ "phone": phone, "password": PASSWORD }))).await;
            let s = ok(resp.pair());
            assert_eq!(s["user"]["id"], phone_id, "{phone}");
            assert_eq!(s["token"].as_str().unwrap().len(), 64);
            assert!(resp.set_cookie("carthage_session").is_some());
            assert_eq!(ok(api.check().await)["id"], phone_id);
        }
        for login in ["21612345678", "+21612345678", "12345678"] {
            assert_eq!(ok(app.client().login(login, PASSWORD).await)["user"]["id"], phone_id, "{login}");
        }
        for login in ["ali@example.tn", "Ali@Example.TN", " ali@example.tn "] {
            assert_eq!(ok(app.client().login(login, PASSWORD).await)["user"]["id"], email_id, "{login}");
            assert_eq!(ok(app.client().login_email(login, PASSWORD).await)["user"]["id"], email_id, "{login}");
        }
        // Each sign-in is its own session.
        let before = app.count("sessions").await;
        ok(app.client().login("ali@example.tn", PASSWORD).await);
        assert_eq!(app.count("sessions").await, before + 1);
    })
    .await;
}

#[tokio::test]
async fn login_refusals() {
    each_backend(async |app| {
        app.signup_phone(&app.client(), "21612345678", PASSWORD).await;
        let user = app.signup_email(&app.client(), "ali@example.tn", PASSWORD).await;
        let sessions = app.count("sessions").await;
        // 2: not an e-mail / not a phone.
        fail(app.login_email("not-an-email", PASSWORD).await, 200, 2);
        fail(app.login_email("21612345678", PASSWORD).await, 200, 2);
        fail(app.login_phone("12ab5678", PASSWORD).await, 200, 2);
        fail(app.login_phone("+33612345678", PASSWORD).await, 200, 2);
        fail(app.login_phone("ali@example.tn", PASSWORD).await, 200, 2);
        fail(app.login("abc", PASSWORD).await, 200, 2);
        fail(app.login("1234567", PASSWORD).await, 200, 2);
        fail(app.login("ali@example", PASSWORD).await, 200, 2);
        fail(app.login("", PASSWORD).await, 200, 2);
        // 3: no such user.
        fail(app.login_email("nobody@example.tn", PASSWORD).await, 200, 3);
        fail(app.login_phone("21699999999", PASSWORD).await, 200, 3);
        fail(app.login("+21699999999", PASSWORD).await, 200, 3);
        fail(app.login("nobody@example.tn", PASSWORD).await, 200, 3);
        // 4: wrong password (and an empty or oversized one).
        fail(app.login_email("ali@example.tn", "Wrong123").await, 200, 4);
        fail(app.login_phone("21612345678", "Wrong123").await, 200, 4);
        fail(app.login("12345678", "secret42").await, 200, 4);
        fail(app.login("ali@example.tn", "").await, 200, 4);
        fail(app.login("ali@example.tn", &"a1".repeat(100)).await, 200, 4);
        assert_eq!(app.count("sessions").await, sessions, "no session for a refused sign-in");
        // 5: banned (HTTP 403), even with the right password.
        let id = user["user"]["id"].as_i64().unwrap();
        app.state.accounts.set_banned(id, true).await.unwrap();
        let resp = app.send(Method::POST, "/api/user/login/email", Some(json!({ "email": "ali@example.tn", "password": PASSWORD }))).await;
        fail(resp.pair(), 403, 5);
        assert!(resp.set_cookie("carthage_session").is_none());
        fail(app.login("ali@example.tn", PASSWORD).await, 403, 5);
        fail(app.check().await, 401, 23);
        assert_eq!(app.count("sessions WHERE revoked_at IS NULL").await, app.count("sessions").await - 1);
        // Unbanned: back in.
        app.state.accounts.set_banned(id, false).await.unwrap();
        ok(app.login("ali@example.tn", PASSWORD).await);
    })
    .await;
}

#[tokio::test]
async fn login_lockout_after_repeated_failures() {
    each_backend_with(
        |cfg| {
            cfg.accounts.limits.login_failures_per_account = Limit { burst: 3, period: Duration::from_secs(3600) };
            cfg.accounts.limits.slow_down_step = Duration::ZERO;
        },
        async |app| {
            app.signup_phone(&app.client(), "21612345678", PASSWORD).await;
            app.signup_email(&app.client(), "other@example.tn", PASSWORD).await;
            for _ in 0..3 {
                fail(app.login_phone("21612345678", "Wrong123").await, 200, 4);
            }
            let resp = app
                .exec(app.req(Method::POST, "/api/user/login/phone").json(&json!({ "phone": "21612345678", "password": "Wrong123" })))
                .await;
            let data = fail(resp.pair(), 429, 16);
            let wait = data["retryAfterSeconds"].as_u64().expect("retryAfterSeconds");
            assert!((1..=3600).contains(&wait), "{wait}");
            assert_eq!(resp.header("retry-after"), Some(wait.to_string()));
            // The right password is refused while locked, in every form of the login.
            for (path, body) in [
                ("/api/user/login/phone", json!({ "phone": "21612345678", "password": PASSWORD })),
                ("/api/user/login/phone", json!({ "phone": "12345678", "password": PASSWORD })),
                ("/api/user/login", json!({ "login": "+21612345678", "password": PASSWORD })),
            ] {
                let resp = app.exec(app.req(Method::POST, path).json(&body)).await;
                let data = fail(resp.pair(), 429, 16);
                assert!(data["retryAfterSeconds"].as_u64().unwrap() >= 1);
                assert!(resp.header("retry-after").is_some());
                assert!(resp.set_cookie("carthage_session").is_none());
            }
            // Another account is not affected.
            ok(app.client().login_email("other@example.tn", PASSWORD).await);
        },
    )
    .await;
}

#[tokio::test]
async fn login_failures_rate_limited_per_ip() {
    each_backend_with(
        |cfg| {
            cfg.accounts.limits.login_failures_per_ip = Limit { burst: 2, period: Duration::from_secs(3600) };
            cfg.accounts.limits.slow_down_step = Duration::ZERO;
        },
        async |app| {
            app.signup_email(&app.client(), "a@example.tn", PASSWORD).await;
            app.signup_email(&app.client(), "b@example.tn", PASSWORD).await;
            fail(app.login_email("a@example.tn", "Wrong123").await, 200, 4);
            fail(app.login_email("b@example.tn", "Wrong123").await, 200, 4);
            let data = fail(app.login_email("a@example.tn", "Wrong123").await, 429, 14);
            assert!(data["retryAfterSeconds"].as_u64().unwrap() >= 1);
            // This address is limited for every account, right password or not.
            fail(app.login_email("b@example.tn", PASSWORD).await, 429, 14);
            fail(app.login("nobody@example.tn", PASSWORD).await, 429, 14);
        },
    )
    .await;
}

// =====================================================================================
// GET /api/user/check, sessions, bans, logout
// =====================================================================================

#[tokio::test]
async fn check_answers_the_user_for_cookie_and_bearer() {
    each_backend(async |app| {
        let api = app.client();
        let s = app.signup_email(&api, "ali@example.tn", PASSWORD).await;
        let token = str_of(&s["token"]).to_string();
        let me = ok(api.check().await);
        assert_eq!(
            keys(&me),
            sorted(&[
                "id", "login", "email", "phone", "currency", "firstName", "lastName", "role", "isBannedOnBetroute", "isPartner",
                "isOnPaykassmaPayment", "canDepositOnline", "emailVerified", "lang"
            ])
        );
        assert_eq!(me, s["user"]);
        assert_eq!(me["login"], "ali@example.tn");
        assert_eq!(me["email"], "ali@example.tn");
        assert_eq!(me["phone"], Value::Null);
        assert_eq!(me["role"], 0);
        assert_eq!(me["isPartner"], false);
        assert_eq!(me["isOnPaykassmaPayment"], true);
        assert_eq!(me["isBannedOnBetroute"], false);
        assert_eq!(me["emailVerified"], true);
        assert_eq!(me["lang"], "en-US");
        assert_eq!(me["firstName"], "");
        // No session.
        fail(app.bare_client().check().await, 401, 23);
        // The token alone, without cookies (Bearer, or bare as some clients send it).
        let bare = app.bare_client();
        assert_eq!(ok(bare.get_bearer("/api/user/check", &token).await)["id"], me["id"]);
        let r = bare.exec(bare.req(Method::GET, "/api/user/check").header("Authorization", token.as_str())).await;
        assert_eq!(ok(r.pair())["id"], me["id"]);
        // Garbage tokens: 23, also when a valid cookie is present (the header wins).
        let garbage_tokens = ["garbage".to_string(), "f".repeat(64), token[..63].to_string(), format!("{token}0")];
        for garbage in &garbage_tokens {
            fail(bare.get_bearer("/api/user/check", garbage).await, 401, 23);
            fail(api.get_bearer("/api/user/check", garbage).await, 401, 23);
        }
        let r = bare.exec(bare.req(Method::GET, "/api/user/check").header("Cookie", "carthage_session=nope")).await;
        fail(r.pair(), 401, 23);
        let r = bare.exec(bare.req(Method::GET, "/api/user/check").header("Cookie", format!("other=1; carthage_session={token}"))).await;
        ok(r.pair());
        // A partner (seeded demo account).
        let p = app.client();
        let s = ok(p.login_email("partner@carthage.local", "Partner123").await);
        assert_eq!(s["user"]["isPartner"], true);
        assert_eq!(s["user"]["role"], 1);
        assert_eq!(ok(p.check().await)["isPartner"], true);
    })
    .await;
}

#[tokio::test]
async fn user_flags_follow_the_account() {
    const SPECIAL: i64 = 12_345_678;
    each_backend_with(
        |cfg| cfg.accounts.special_user_id = Some(SPECIAL),
        async |app| {
            let login_flags = async |email: &str| {
                let api = app.client();
                ok(api.login_email(email, PASSWORD).await);
                ok(api.check().await)
            };
            // A player under a cashier pays through the cashier ...
            let (_, id, _) = app.player("child@example.tn").await;
            app.sql(&format!("UPDATE users SET parent_cashier_id = 1, is_banned_on_betroute = 1 WHERE id = {id}")).await;
            let me = login_flags("child@example.tn").await;
            assert_eq!((me["isOnPaykassmaPayment"].clone(), me["isBannedOnBetroute"].clone()), (json!(false), json!(true)));
            app.sql(&format!("UPDATE users SET parent_cashier_id = NULL, parent_admin_id = 2 WHERE id = {id}")).await;
            assert_eq!(login_flags("child@example.tn").await["isOnPaykassmaPayment"], false);
            // ... except the one special account.
            let user = app
                .state
                .accounts
                .create_user(accounts::NewUser {
                    email: Some("special@example.tn".into()),
                    phone: None,
                    password: PASSWORD.into(),
                    role: accounts::Role::Player,
                    currency: kernel::Currency::Tnd,
                    first_name: "S".into(),
                    last_name: "P".into(),
                    registered_via: "cli",
                })
                .await
                .unwrap();
            app.sql(&format!("UPDATE users SET id = {SPECIAL}, parent_super_agent_id = 3, is_partner = 1 WHERE id = {}", user.id)).await;
            let me = login_flags("special@example.tn").await;
            assert_eq!(me["id"], SPECIAL);
            assert_eq!(me["isOnPaykassmaPayment"], true);
            assert_eq!(me["isPartner"], true);
            assert_eq!(me["firstName"], "S");
        },
    )
    .await;
}

#[tokio::test]
async fn banned_flag_is_answered_once_then_sessions_end() {
    each_backend(async |app| {
        // The ban flag set by the back office while sessions are live.
        let (a, a_id, a_token) = app.player("a@example.tn").await;
        let a2 = app.client();
        ok(a2.login_email("a@example.tn", PASSWORD).await);
        app.sql(&format!("UPDATE users SET is_banned = 1 WHERE id = {a_id}")).await;
        fail(a.check().await, 403, 5);
        fail(a.check().await, 401, 23);
        fail(a2.check().await, 401, 23);
        fail(app.bare_client().get_bearer("/api/user/check", &a_token).await, 401, 23);
        fail(app.client().login_email("a@example.tn", PASSWORD).await, 403, 5);

        // The balance poll of a banned player answers isBanned once, then 23.
        let (b, b_id, _) = app.player("b@example.tn").await;
        app.credit(b_id, BalanceKind::Real, 5 * TND).await;
        assert_eq!(b.balance().await["isBanned"], false);
        app.sql(&format!("UPDATE users SET is_banned = 1 WHERE id = {b_id}")).await;
        let bal = b.balance().await;
        assert_eq!(bal["isBanned"], true);
        assert_eq!(num(&bal["balance"]), 5.0);
        fail(b.get("/api/user/balance").await, 401, 23);
        fail(b.check().await, 401, 23);
        assert_eq!(app.count(&format!("sessions WHERE user_id = {b_id} AND revoked_at IS NULL")).await, 0);
    })
    .await;
}

// `Accounts::set_banned` (the one ban operation in the code base) revokes every session
// first, so the documented "5 once, then 23" of the session and the balance poll's
// `isBanned: true` are never answered to a live session: it just gets 23.

#[tokio::test]
async fn set_banned_answers_5_to_a_live_session() {
    each_backend(async |app| {
        let (a, a_id, _) = app.player("a@example.tn").await;
        app.state.accounts.set_banned(a_id, true).await.unwrap();
        fail(a.check().await, 403, 5);
        fail(a.check().await, 401, 23);
    })
    .await;
}

#[tokio::test]
async fn set_banned_answers_is_banned_to_the_balance_poll() {
    each_backend(async |app| {
        let (b, b_id, _) = app.player("b@example.tn").await;
        app.state.accounts.set_banned(b_id, true).await.unwrap();
        let (http, body) = b.get("/api/user/balance").await;
        assert_eq!((http, body["status"].clone(), body["result"]["isBanned"].clone()), (200, json!(0), json!(true)), "{body}");
        fail(b.get("/api/user/balance").await, 401, 23);
    })
    .await;
}

#[tokio::test]
async fn expired_sessions_are_refused() {
    each_backend(async |app| {
        let (idle, idle_id, _) = app.player("idle@example.tn").await;
        let (old, old_id, _) = app.player("old@example.tn").await;
        let past = now_ms() - 1000;
        app.sql(&format!("UPDATE sessions SET idle_expires_at = {past} WHERE user_id = {idle_id}")).await;
        app.sql(&format!("UPDATE sessions SET absolute_expires_at = {past} WHERE user_id = {old_id}")).await;
        fail(idle.check().await, 401, 23);
        fail(old.check().await, 401, 23);
        fail(old.get("/api/user/balance").await, 401, 23);
        ok(idle.login_email("idle@example.tn", PASSWORD).await);
        ok(idle.check().await);
    })
    .await;
}

#[tokio::test]
async fn logout_ends_the_session_and_clears_the_cookie() {
    each_backend(async |app| {
        let (api, _, token) = app.player("ali@example.tn").await;
        let other = app.client();
        ok(other.login_email("ali@example.tn", PASSWORD).await);
        let resp = api.send(Method::GET, "/api/user/logout", None).await;
        assert_eq!(ok(resp.pair()), json!({ "done": true }));
        let cookie = resp.set_cookie("carthage_session").expect("cookie cleared");
        assert!(cookie.starts_with("carthage_session=;") && cookie.contains("Max-Age=0"), "{cookie}");
        fail(api.check().await, 401, 23);
        fail(app.bare_client().get_bearer("/api/user/check", &token).await, 401, 23);
        // Only that session ended.
        ok(other.check().await);
        // Logging out without a session (or twice) is fine.
        ok(api.get("/api/user/logout").await);
        ok(app.bare_client().get("/api/user/logout").await);
        // By bearer token.
        let s = ok(app.bare_client().login_email("ali@example.tn", PASSWORD).await);
        let t = str_of(&s["token"]);
        let bare = app.bare_client();
        ok(bare.get_bearer("/api/user/check", t).await);
        ok(bare.get_bearer("/api/user/logout", t).await);
        fail(bare.get_bearer("/api/user/check", t).await, 401, 23);
    })
    .await;
}

// =====================================================================================
// Password recovery by e-mail
// =====================================================================================

#[tokio::test]
async fn restore_by_email_sends_a_code() {
    each_backend(async |app| {
        app.signup_email(&app.client(), "ali@example.tn", PASSWORD).await;
        let r = ok(app.post("/api/user/password/restore", json!({ "email": " ALI@example.tn" })).await);
        assert_eq!(r, json!({ "email": "ali@example.tn" }));
        let mails = app.outbox("ali@example.tn").await;
        let code = str_of(&mails[0]["code"]);
        assert_eq!(code.len(), 10);
        assert!(str_of(&mails[0]["text"]).contains(code));
        fail(app.post("/api/user/password/restore", json!({ "email": "nobody@example.tn" })).await, 200, 21);
        for bad in ["", "ali", "ali@example", "21612345678"] {
            fail(app.post("/api/user/password/restore", json!({ "email": bad })).await, 200, 18);
        }
        assert!(app.outbox("nobody@example.tn").await.is_empty());
        assert_eq!(app.outbox("ali@example.tn").await.len(), mails.len());
    })
    .await;
}

#[tokio::test]
async fn restore_by_email_sets_a_new_password() {
    each_backend(async |app| {
        let (old_session, _, _) = app.player("ali@example.tn").await;
        ok(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await);
        let code = app.last_code("ali@example.tn").await;
        // 231 before anything changes; the code stays usable.
        fail(app.post("/api/user/password/restore/new", json!({ "code": code, "new_password": "weak" })).await, 200, 231);
        ok(old_session.check().await);
        ok(app.client().login_email("ali@example.tn", PASSWORD).await);
        // 9: unknown code.
        fail(app.post("/api/user/password/restore/new", json!({ "code": "AAAAAAAAAA", "new_password": "Newpass99" })).await, 200, 9);
        fail(app.post("/api/user/password/restore/new", json!({ "code": "", "new_password": "Newpass99" })).await, 200, 9);
        // Success (the code is case-insensitive).
        let r = ok(app
            .post("/api/user/password/restore/new", json!({ "code": code.to_ascii_lowercase(), "new_password": "Newpass99" }))
            .await);
        assert_eq!(r, json!({ "done": true }));
        fail(old_session.check().await, 401, 23);
        ok(app.client().login_email("ali@example.tn", "Newpass99").await);
        fail(app.client().login_email("ali@example.tn", PASSWORD).await, 200, 4);
        // 9: used.
        fail(app.post("/api/user/password/restore/new", json!({ "code": code, "new_password": "Other999x" })).await, 200, 9);
        ok(app.client().login_email("ali@example.tn", "Newpass99").await);
        // 10: expired.
        ok(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await);
        let code = app.last_code("ali@example.tn").await;
        app.sql(&format!("UPDATE email_tokens SET expires_at = {} WHERE purpose = 'restore' AND used_at IS NULL", now_ms() - 1000)).await;
        fail(app.post("/api/user/password/restore/new", json!({ "code": code, "new_password": "Other999x" })).await, 200, 10);
        ok(app.client().login_email("ali@example.tn", "Newpass99").await);
    })
    .await;
}

#[tokio::test]
async fn outstanding_email_recovery_codes_die_when_the_password_is_reset() {
    each_backend(async |app| {
        app.signup_email(&app.client(), "ali@example.tn", PASSWORD).await;
        ok(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await);
        let first = app.last_code("ali@example.tn").await;
        ok(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await);
        let second = app.last_code("ali@example.tn").await;
        ok(app.post("/api/user/password/restore/new", json!({ "code": second, "new_password": "Newpass99" })).await);
        let (http, body) = app.post("/api/user/password/restore/new", json!({ "code": first, "new_password": "Hijack999" })).await;
        assert_ne!(body["status"], 0, "an older recovery code reset the password again after a reset: HTTP {http} {body}");
        ok(app.client().login_email("ali@example.tn", "Newpass99").await);
    })
    .await;
}

// =====================================================================================
// Password recovery by phone
// =====================================================================================

#[tokio::test]
async fn restore_by_phone_sends_a_code() {
    each_backend(async |app| {
        app.signup_phone(&app.client(), "21612345678", PASSWORD).await;
        let r = ok(app.post("/api/user/password/restore/phone", json!({ "phone": "+21612345678" })).await);
        assert_eq!(r["user_phone"], "21612345678");
        assert!(r["request_id"].as_i64().unwrap() > 0);
        let sms = app.outbox("21612345678").await;
        assert_eq!(sms.len(), 2, "the sign-up code, then the recovery code");
        assert!(str_of(&sms[0]["text"]).contains("password recovery"));
        fail(app.post("/api/user/password/restore/phone", json!({ "phone": "21699999999" })).await, 200, 22);
        for bad in ["", "123", "+33612345678", "2161234567x"] {
            fail(app.post("/api/user/password/restore/phone", json!({ "phone": bad })).await, 200, 15);
        }
        assert!(app.outbox("21699999999").await.is_empty());
        assert_eq!(app.outbox("21612345678").await.len(), 2);
    })
    .await;
}

#[tokio::test]
async fn restore_by_phone_sets_a_new_password() {
    each_backend(async |app| {
        let api = app.client();
        app.signup_phone(&api, "21612345678", PASSWORD).await;
        let new = |code: &str, password: &str| json!({ "phone": "21612345678", "code": code, "new_password": password });
        const PATH: &str = "/api/user/password/restore/phone/new";
        // 101: no recovery requested for this phone.
        fail(app.post(PATH, new("123456", "Newpass99")).await, 200, 101);
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let code = app.last_code("21612345678").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        // 102: wrong code; 231: weak; 22 / 15: phone.
        fail(app.post(PATH, new(wrong, "Newpass99")).await, 200, 102);
        fail(app.post(PATH, new(&code, "weak")).await, 200, 231);
        fail(app.post(PATH, json!({ "phone": "21699999999", "code": code, "new_password": "Newpass99" })).await, 200, 22);
        fail(app.post(PATH, json!({ "phone": "2169999", "code": code, "new_password": "Newpass99" })).await, 200, 15);
        ok(api.check().await);
        ok(app.client().login_phone("21612345678", PASSWORD).await);
        // Success: every session ends.
        assert_eq!(ok(app.post(PATH, json!({ "phone": "+21612345678", "code": code, "new_password": "Newpass99" })).await), json!({ "done": true }));
        fail(api.check().await, 401, 23);
        ok(app.client().login_phone("21612345678", "Newpass99").await);
        fail(app.client().login_phone("21612345678", PASSWORD).await, 200, 4);
        // The code is used up.
        fail(app.post(PATH, new(&code, "Other999x")).await, 200, 101);
        // 10: expired.
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let code = app.last_code("21612345678").await;
        app.sql(&format!("UPDATE phone_codes SET expires_at = {} WHERE purpose = 'restore' AND used_at IS NULL", now_ms() - 1000)).await;
        fail(app.post(PATH, new(&code, "Other999x")).await, 200, 10);
        ok(app.client().login_phone("21612345678", "Newpass99").await);
        // Attempts exhausted: 102 even for the right code.
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let code = app.last_code("21612345678").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            fail(app.post(PATH, new(wrong, "Other999x")).await, 200, 102);
        }
        fail(app.post(PATH, new(&code, "Other999x")).await, 200, 102);
        ok(app.client().login_phone("21612345678", "Newpass99").await);
    })
    .await;
}

#[tokio::test]
async fn superseded_recovery_sms_code_is_dead_after_the_newer_one_is_used() {
    each_backend(async |app| {
        app.signup_phone(&app.client(), "21612345678", PASSWORD).await;
        const PATH: &str = "/api/user/password/restore/phone/new";
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let older = app.last_code("21612345678").await;
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let newer = app.last_code("21612345678").await;
        if older == newer {
            return; // one chance in a million: nothing to tell apart
        }
        // The older code is superseded while the newer one is live ...
        fail(app.post(PATH, json!({ "phone": "21612345678", "code": older, "new_password": "Newpass99" })).await, 200, 102);
        ok(app.post(PATH, json!({ "phone": "21612345678", "code": newer, "new_password": "Newpass99" })).await);
        // ... and must stay dead once the newer one has been used.
        let (http, body) = app.post(PATH, json!({ "phone": "21612345678", "code": older, "new_password": "Hijack999" })).await;
        assert_ne!(body["status"], 0, "a superseded recovery code reset the password again: HTTP {http} {body}");
        ok(app.client().login_phone("21612345678", "Newpass99").await);
    })
    .await;
}

// =====================================================================================
// POST /api/user/password/change
// =====================================================================================

#[tokio::test]
async fn change_password_ends_other_sessions() {
    each_backend(async |app| {
        let (a, _, _) = app.player("ali@example.tn").await;
        let b = app.client();
        ok(b.login_email("ali@example.tn", PASSWORD).await);
        const PATH: &str = "/api/user/password/change";
        fail(a.post(PATH, json!({ "password": "Wrong123", "new_password": "Newpass99" })).await, 200, 4);
        fail(a.post(PATH, json!({ "password": "", "new_password": "Newpass99" })).await, 200, 4);
        fail(a.post(PATH, json!({ "password": PASSWORD, "new_password": "short1" })).await, 200, 231);
        fail(app.bare_client().post(PATH, json!({ "password": PASSWORD, "new_password": "Newpass99" })).await, 401, 23);
        // Nothing changed so far.
        ok(b.check().await);
        ok(app.client().login_email("ali@example.tn", PASSWORD).await);
        assert_eq!(ok(a.post(PATH, json!({ "password": PASSWORD, "new_password": "Newpass99" })).await), json!({ "done": true }));
        ok(a.check().await);
        fail(b.check().await, 401, 23);
        ok(app.client().login_email("ali@example.tn", "Newpass99").await);
        fail(app.client().login_email("ali@example.tn", PASSWORD).await, 200, 4);
    })
    .await;
}

// =====================================================================================
// GET /api/user/profile, PUT /api/user/profile/additional/update
// =====================================================================================

#[tokio::test]
async fn profile_read_and_update() {
    each_backend(async |app| {
        let (api, id, _) = app.player("ali@example.tn").await;
        app.credit(id, BalanceKind::Real, 2_500).await;
        let p = ok(api.get("/api/user/profile").await);
        assert_eq!(
            keys(&p),
            sorted(&[
                "id", "email", "phone", "currency", "balance", "firstName", "lastName", "middleName", "birthDate", "gender",
                "numberDocument", "address", "card", "yandex"
            ])
        );
        assert_eq!(p["id"], id);
        assert_eq!(p["email"], "ali@example.tn");
        assert_eq!(p["currency"], "TND");
        assert_eq!(num(&p["balance"]), 2.5);
        assert_eq!(p["birthDate"], Value::Null);
        const PATH: &str = "/api/user/profile/additional/update";
        let u = ok(api
            .put(
                PATH,
                json!({
                    "first_name": " Ali ", "last_name": "Ben Salah", "middle_name": "M", "birth_date": "17-05-1990",
                    "phone": "+216 55 555 555", "number_document": "AB 123-456", "gander": "f"
                }),
            )
            .await);
        assert_eq!(u["firstName"], "Ali");
        assert_eq!(u["lastName"], "Ben Salah");
        assert_eq!(u["middleName"], "M");
        assert_eq!(u["birthDate"], "1990-05-17");
        assert_eq!(u["gender"], "female");
        assert_eq!(u["phone"], "21655555555");
        assert_eq!(u["numberDocument"], "AB 123-456");
        assert_eq!(ok(api.get("/api/user/profile").await), u, "persisted");
        // Only the fields sent change; `gender` is accepted for `gander`.
        let u2 = ok(api.put(PATH, json!({ "gender": "male", "birth_date": "1991-01-02" })).await);
        assert_eq!(u2["gender"], "male");
        assert_eq!(u2["birthDate"], "1991-01-02");
        assert_eq!(u2["firstName"], "Ali");
        assert_eq!(u2["phone"], "21655555555");
        let u3 = ok(api.put(PATH, json!({ "gander": "M" })).await);
        assert_eq!(u3["gender"], "male");
        // The same phone again is fine; the check shows the names.
        ok(api.put(PATH, json!({ "phone": "21655555555" })).await);
        let me = ok(api.check().await);
        assert_eq!((me["firstName"].clone(), me["phone"].clone()), (json!("Ali"), json!("21655555555")));
        // The new phone is a login.
        ok(app.client().login("55555555", PASSWORD).await);
        // An empty body changes nothing; empty values clear.
        assert_eq!(ok(api.put(PATH, json!({})).await), ok(api.get("/api/user/profile").await));
        let cleared = ok(api.put(PATH, json!({ "birth_date": "", "gander": "", "number_document": "" })).await);
        assert_eq!((cleared["birthDate"].clone(), cleared["gender"].clone(), cleared["numberDocument"].clone()), (Value::Null, Value::Null, Value::Null));
        assert_eq!(cleared["firstName"], "Ali");
    })
    .await;
}

#[tokio::test]
async fn profile_update_refusals_change_nothing() {
    each_backend(async |app| {
        let (api, _, _) = app.player("ali@example.tn").await;
        const PATH: &str = "/api/user/profile/additional/update";
        let before = ok(api.put(PATH, json!({ "first_name": "Ali", "birth_date": "1990-05-17", "gander": "male" })).await);
        for body in [
            json!({ "first_name": "Changed", "birth_date": "yesterday" }),
            json!({ "first_name": "Changed", "birth_date": "2015-06-01" }),
            json!({ "birth_date": "1990-02-30" }),
            json!({ "birth_date": "1850-01-01" }),
            json!({ "first_name": "Changed", "gander": "x" }),
            json!({ "gender": "unknown" }),
            json!({ "first_name": "x".repeat(65) }),
            json!({ "last_name": "a\u{0007}b" }),
            json!({ "number_document": "AB<script>" }),
        ] {
            fail(api.put(PATH, body).await, 200, 47);
        }
        for phone in ["123", "+33612345678", "2165555555x"] {
            fail(api.put(PATH, json!({ "first_name": "Changed", "phone": phone })).await, 200, 15);
        }
        // 1: the phone belongs to someone else (the demo player).
        fail(api.put(PATH, json!({ "first_name": "Changed", "phone": "21620000001" })).await, 200, 1);
        assert_eq!(ok(api.get("/api/user/profile").await), before, "refused updates changed nothing");
        // A phone, once set, is changed only by support (47).
        ok(api.put(PATH, json!({ "phone": "21655555555" })).await);
        fail(api.put(PATH, json!({ "phone": "21655555556" })).await, 200, 47);
        assert_eq!(ok(api.get("/api/user/profile").await)["phone"], "21655555555");
        // 23 without a session.
        let bare = app.bare_client();
        fail(bare.get("/api/user/profile").await, 401, 23);
        fail(bare.put(PATH, json!({ "first_name": "X" })).await, 401, 23);
    })
    .await;
}

// =====================================================================================
// Field refusals: `result` names the field (as sent) and a stable reason code
// =====================================================================================

/// Asserts a refusal with `code` whose `result` names `field` and `reason`; returns `result`.
#[track_caller]
fn field_refusal(reply: (u16, Value), code: u32, field: &str, reason: &str) -> Value {
    let data = fail(reply, 200, code);
    assert_eq!((data["field"].as_str(), data["reason"].as_str()), (Some(field), Some(reason)), "code {code}: {data}");
    data
}

#[tokio::test]
async fn profile_refusals_name_the_field_and_the_reason() {
    each_backend(async |app| {
        let (api, _, _) = app.player("ali@example.tn").await;
        const PATH: &str = "/api/user/profile/additional/update";
        for (body, field, reason) in [
            (json!({ "first_name": "Ali", "birth_date": "2015-06-01" }), "birth_date", "underage"),
            (json!({ "birth_date": "yesterday" }), "birth_date", "invalid_date"),
            (json!({ "birth_date": "1990-02-30" }), "birth_date", "invalid_date"),
            (json!({ "birth_date": "1850-01-01" }), "birth_date", "too_old"),
            (json!({ "gander": "x" }), "gander", "invalid_choice"),
            (json!({ "gender": "x" }), "gender", "invalid_choice"),
            (json!({ "first_name": "x".repeat(65) }), "first_name", "too_long"),
            (json!({ "middle_name": "x".repeat(65) }), "middle_name", "too_long"),
            (json!({ "last_name": "a\u{0007}b" }), "last_name", "bad_characters"),
            (json!({ "number_document": "AB<script>" }), "number_document", "bad_characters"),
            (json!({ "number_document": "A".repeat(33) }), "number_document", "too_long"),
        ] {
            field_refusal(api.put(PATH, body).await, 47, field, reason);
        }
        // The English message keeps naming the field.
        let (_, body) = api.put(PATH, json!({ "birth_date": "2015-06-01" })).await;
        assert_eq!(body["error_message"], "birth_date: players must be at least 18 years old");
        let (_, body) = api.put(PATH, json!({ "gender": "x" })).await;
        assert_eq!(body["error_message"], "gender: must be male or female");
        // Field-specific codes name their field too.
        field_refusal(api.put(PATH, json!({ "phone": "123" })).await, 15, "phone", "invalid");
        field_refusal(api.put(PATH, json!({ "phone": "21620000001" })).await, 1, "phone", "taken");
        ok(api.put(PATH, json!({ "phone": "21655555555" })).await);
        field_refusal(api.put(PATH, json!({ "phone": "21655555556" })).await, 47, "phone", "cannot_change");
    })
    .await;
}

#[tokio::test]
async fn sign_up_sign_in_and_password_refusals_name_the_field() {
    each_backend(async |app| {
        // E-mail sign-up.
        let signup = |email: &str, password: &str| json!({ "email": email, "password": password, "name": "" });
        field_refusal(app.post("/api/user/signup", signup("ali@", PASSWORD)).await, 18, "email", "invalid");
        field_refusal(app.post("/api/user/signup", signup("ali@example.tn", "abc12")).await, 231, "password", "weak");
        field_refusal(app.post("/api/user/signup", signup("player@carthage.local", PASSWORD)).await, 1, "email", "taken");
        // Phone code and phone sign-up: the code field is named as it was sent.
        let (http, body) = app.post("/api/user/phone/code", json!({ "phone": "21620000001", "hash": app.phone_hash("21620000001").await })).await;
        field_refusal((http, body), 1, "phone", "taken");
        ok(app.request_phone_code(app, "21650000001").await);
        let code = app.last_code("21650000001").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        let d = field_refusal(
            app.post("/api/user/signup/phone", json!({ "phone": "21650000001", "phoneCode": wrong, "password": PASSWORD })).await,
            12,
            "phoneCode",
            "code_mismatch",
        );
        assert_eq!(d["attemptsLeft"], 4);
        let d = field_refusal(
            app.post("/api/user/signup/phone", json!({ "phone": "21650000001", "code": wrong, "password": PASSWORD })).await,
            12,
            "code",
            "code_mismatch",
        );
        assert_eq!(d["attemptsLeft"], 3);
        field_refusal(
            app.post("/api/user/signup/phone", json!({ "phone": "21650000002", "phoneCode": "123456", "password": PASSWORD })).await,
            12,
            "phoneCode",
            "code_expired",
        );
        field_refusal(
            app.post("/api/user/signup/phone", json!({ "phone": "2165", "phoneCode": code, "password": PASSWORD })).await,
            15,
            "phone",
            "invalid",
        );
        // Sign-in: the login field by endpoint.
        field_refusal(app.login("nobody@example.tn", PASSWORD).await, 3, "login", "unknown");
        field_refusal(app.login("player@carthage.local", "Wrong1234").await, 4, "password", "wrong");
        field_refusal(app.login_email("not-an-email", PASSWORD).await, 2, "email", "invalid");
        field_refusal(app.login_phone("12", PASSWORD).await, 2, "phone", "invalid");
        // Password change.
        let (a, _, _) = app.player("sami@example.tn").await;
        field_refusal(a.post("/api/user/password/change", json!({ "password": "Wrong123", "new_password": "Newpass99" })).await, 4, "password", "wrong");
        field_refusal(a.post("/api/user/password/change", json!({ "password": PASSWORD, "new_password": "short1" })).await, 231, "new_password", "weak");
        // Recovery by e-mail.
        field_refusal(app.post("/api/user/password/restore", json!({ "email": "nobody@example.tn" })).await, 21, "email", "unknown");
        field_refusal(
            app.post("/api/user/password/restore/new", json!({ "code": "NOPE", "new_password": "Newpass99" })).await,
            9,
            "code",
            "code_mismatch",
        );
    })
    .await;
}

#[tokio::test]
async fn recovery_by_phone_counts_the_attempts_left() {
    each_backend(async |app| {
        app.signup_phone(&app.client(), "21612345678", PASSWORD).await;
        const PATH: &str = "/api/user/password/restore/phone/new";
        let new = |code: &str| json!({ "phone": "21612345678", "code": code, "new_password": "Newpass99" });
        field_refusal(app.post(PATH, new("123456")).await, 101, "code", "code_expired");
        field_refusal(app.post("/api/user/password/restore/phone", json!({ "phone": "21699999999" })).await, 22, "phone", "unknown");
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let code = app.last_code("21612345678").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        field_refusal(
            app.post(PATH, json!({ "phone": "21612345678", "code": code, "new_password": "weak" })).await,
            231,
            "new_password",
            "weak",
        );
        // Each wrong guess says how many are left; the weak password above took none.
        for left in [4, 3, 2, 1, 0] {
            let d = field_refusal(app.post(PATH, new(wrong)).await, 102, "code", "code_mismatch");
            assert_eq!(d["attemptsLeft"], left, "{d}");
        }
        // None left: even the right code is refused, and the reply says so.
        let d = field_refusal(app.post(PATH, new(&code)).await, 102, "code", "code_mismatch");
        assert_eq!(d["attemptsLeft"], 0);
        // A new code: one wrong guess, then the right one works.
        ok(app.post("/api/user/password/restore/phone", json!({ "phone": "21612345678" })).await);
        let code = app.last_code("21612345678").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        assert_eq!(field_refusal(app.post(PATH, new(wrong)).await, 102, "code", "code_mismatch")["attemptsLeft"], 4);
        ok(app.post(PATH, new(&code)).await);
        ok(app.client().login_phone("21612345678", "Newpass99").await);
    })
    .await;
}

// =====================================================================================
// POST /api/user/signup/one-click
// =====================================================================================

#[tokio::test]
async fn one_click_signup() {
    each_backend(async |app| {
        let api = app.client();
        let resp = api.send(Method::POST, "/api/user/signup/one-click", Some(json!({}))).await;
        let r = ok(resp.pair());
        let email = str_of(&r["email"]).to_string();
        let password = str_of(&r["password"]).to_string();
        assert!(email.ends_with("@player.carthage.local"), "{email}");
        assert_eq!(password.len(), 10);
        assert!(resp.set_cookie("carthage_session").is_some());
        assert_eq!(r["user"]["login"], email.as_str());
        assert_eq!(r["user"]["currency"], "TND");
        assert_eq!(r["token"].as_str().unwrap().len(), 64);
        assert_eq!(ok(api.check().await)["id"], r["user"]["id"]);
        // The generated credentials sign in (e-mail and universal forms).
        assert_eq!(ok(app.bare_client().login_email(&email, &password).await)["user"]["id"], r["user"]["id"]);
        ok(app.bare_client().login(&email, &password).await);
        // Never stored in clear.
        assert_eq!(app.count(&format!("users WHERE password_hash = '{password}'")).await, 0);
        // Currency.
        let r = ok(app.client().post("/api/user/signup/one-click", json!({ "currency": "PYG", "lang": "fr-fr" })).await);
        assert_eq!(r["user"]["currency"], "PYG");
        assert_eq!(r["user"]["lang"], "fr-fr");
        let users = app.count("users").await;
        for currency in ["FUN", "EUR", "nope"] {
            fail(app.client().post("/api/user/signup/one-click", json!({ "currency": currency })).await, 200, 17);
        }
        assert_eq!(app.count("users").await, users);
    })
    .await;
}

// =====================================================================================
// GET /api/user/balance
// =====================================================================================

#[tokio::test]
async fn balance_in_exact_major_units() {
    each_backend(async |app| {
        let (api, id, _) = app.player("ali@example.tn").await;
        let b = api.balance().await;
        assert_eq!(
            keys(&b),
            sorted(&[
                "currency", "balance", "bonusBalance", "cashbackBalance", "freeBetBalance", "pointBalance", "weeklyCashback",
                "isBanned", "freeBets", "jackpots", "wonJackpots"
            ])
        );
        assert_eq!(num(&b["balance"]), 0.0);
        assert_eq!(b["freeBets"], json!({ "active": [], "inactive": [] }));
        app.credit(id, BalanceKind::Real, 12_345).await;
        app.credit(id, BalanceKind::Cashback, 1).await;
        app.credit(id, BalanceKind::Bonus, 500).await;
        app.credit(id, BalanceKind::FreeBet, 10 * TND).await;
        app.credit(id, BalanceKind::Points, 7).await;
        app.credit(id, BalanceKind::WeeklyCashback, 1_010).await;
        let resp = api.send(Method::GET, "/api/user/balance", None).await;
        let b = ok(resp.pair());
        assert!(resp.text.contains("\"balance\":12.345"), "{}", resp.text);
        assert!(resp.text.contains("\"cashbackBalance\":0.001"), "{}", resp.text);
        assert_eq!(b["balance"], json!(12.345));
        assert!(b["balance"].is_number());
        assert_eq!(num(&b["cashbackBalance"]), 0.001);
        assert_eq!(num(&b["bonusBalance"]), 0.5);
        assert_eq!(num(&b["freeBetBalance"]), 10.0);
        assert_eq!(num(&b["pointBalance"]), 0.007);
        // weeklyCashback is the cashback accrued this week (promotions' weekly_cashback rows, tested
        // in cashback_coupons.rs), not a ledger balance: nothing was accrued here.
        assert_eq!(num(&b["weeklyCashback"]), 0.0);
        assert_eq!(b["currency"], "TND");
        assert_eq!(b["isBanned"], false);
        // Other exponents: PYG has none, USDT six.
        let pyg = app.client();
        let r = ok(pyg.post("/api/user/signup/one-click", json!({ "currency": "PYG" })).await);
        app.credit(r["user"]["id"].as_i64().unwrap(), BalanceKind::Real, 700).await;
        let resp = pyg.send(Method::GET, "/api/user/balance", None).await;
        assert!(resp.text.contains("\"balance\":700,"), "{}", resp.text);
        assert_eq!(ok(resp.pair())["currency"], "PYG");
        let usdt = app.client();
        let r = ok(usdt.post("/api/user/signup/one-click", json!({ "currency": "USDT" })).await);
        app.credit(r["user"]["id"].as_i64().unwrap(), BalanceKind::Real, 1).await;
        let resp = usdt.send(Method::GET, "/api/user/balance", None).await;
        assert!(resp.text.contains("\"balance\":0.000001,"), "{}", resp.text);
        // 23 without a session.
        fail(app.bare_client().get("/api/user/balance").await, 401, 23);
        fail(app.bare_client().get_bearer("/api/user/balance", "nope").await, 401, 23);
    })
    .await;
}

// =====================================================================================
// PATCH /api/user/balance/move_cashback_to_real
// =====================================================================================

const MOVE: &str = "/api/user/balance/move_cashback_to_real";

async fn patch_with_key(api: &Api, key: &str) -> (u16, Value) {
    api.exec(api.req(Method::PATCH, MOVE).header("Idempotency-Key", key)).await.pair()
}

#[tokio::test]
async fn move_cashback_to_real() {
    each_backend(async |app| {
        let (api, id, _) = app.player("ali@example.tn").await;
        // Nothing to move.
        fail(api.patch(MOVE).await, 200, 25);
        // Below the minimum of 10: refused, nothing moves.
        app.credit(id, BalanceKind::Cashback, 9_999).await;
        app.credit(id, BalanceKind::Real, 1_000).await;
        fail(api.patch(MOVE).await, 200, 25);
        assert_eq!(app.minor_balance(id, BalanceKind::Cashback).await, 9_999);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 1_000);
        // At 12.5: all of it moves.
        app.credit(id, BalanceKind::Cashback, 2_501).await;
        let b = ok(api.patch(MOVE).await);
        assert_eq!(num(&b["balance"]), 13.5);
        assert_eq!(num(&b["cashbackBalance"]), 0.0);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 13_500);
        assert_eq!(api.balance().await, b);
        fail(api.patch(MOVE).await, 200, 25);
        // Exactly 10 moves.
        app.credit(id, BalanceKind::Cashback, 10 * TND).await;
        assert_eq!(num(&ok(api.patch(MOVE).await)["balance"]), 23.5);
        // The transfer shows in the history.
        let h = ok(api.get("/api/user/transactions").await);
        let moved: Vec<&Value> = h.as_array().unwrap().iter().filter(|e| e["payment_mode"] == 201).collect();
        assert_eq!(moved.len(), 4, "two transfers, two legs each: {h}");
        // 23 without a session.
        fail(app.bare_client().patch(MOVE).await, 401, 23);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn move_cashback_with_idempotency_key() {
    each_backend(async |app| {
        let (api, id, _) = app.player("ali@example.tn").await;
        app.credit(id, BalanceKind::Cashback, 15 * TND).await;
        let first = ok(patch_with_key(&api, "k-1").await);
        assert_eq!(num(&first["balance"]), 15.0);
        // The retry answers 0 again and moves nothing.
        let again = ok(patch_with_key(&api, "k-1").await);
        assert_eq!(num(&again["balance"]), 15.0);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 15 * TND);
        assert_eq!(app.count("ledger_transactions WHERE tx_type = 201").await, 1);
        // A retry of that key is still the original request, even with new cashback.
        app.credit(id, BalanceKind::Cashback, 20 * TND).await;
        fail(patch_with_key(&api, "k-1").await, 409, 26);
        assert_eq!(app.minor_balance(id, BalanceKind::Cashback).await, 20 * TND);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 15 * TND);
        // A new key moves the new cashback.
        assert_eq!(num(&ok(patch_with_key(&api, "k-2").await)["balance"]), 35.0);
        // Without a key, below the minimum: 25 as usual; an unknown key likewise.
        fail(api.patch(MOVE).await, 200, 25);
        fail(patch_with_key(&api, "k-3").await, 200, 25);
        // Keys are per user: another player's k-1 is theirs.
        let (other, other_id, _) = app.player("other@example.tn").await;
        app.credit(other_id, BalanceKind::Cashback, 11 * TND).await;
        assert_eq!(num(&ok(patch_with_key(&other, "k-1").await)["balance"]), 11.0);
        // An over-long key is a bad request.
        fail(patch_with_key(&api, &"k".repeat(101)).await, 400, 40);
        assert_eq!(app.count("ledger_transactions WHERE tx_type = 201").await, 3);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_cashback_concurrently_moves_once() {
    each_backend(async |app| {
        let (api, id, _) = app.player("ali@example.tn").await;
        app.credit(id, BalanceKind::Cashback, 15 * TND).await;
        app.credit(id, BalanceKind::Real, 1_234).await;
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                let api = api.clone();
                tokio::spawn(async move { api.patch(MOVE).await })
            })
            .collect();
        let mut succeeded = 0;
        let mut refused = 0;
        for t in futures::future::join_all(tasks).await {
            let (http, body) = t.expect("request task");
            match body["status"].as_i64() {
                Some(0) => succeeded += 1,
                Some(25) => {
                    assert_eq!(http, 200);
                    refused += 1
                }
                _ => panic!("unexpected reply HTTP {http}: {body}"),
            }
        }
        assert_eq!((succeeded, refused), (1, 19));
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 1_234 + 15 * TND);
        assert_eq!(app.minor_balance(id, BalanceKind::Cashback).await, 0);
        assert_eq!(app.count("ledger_transactions WHERE tx_type = 201").await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_cashback_concurrent_retries_of_one_key_all_succeed_once() {
    each_backend(async |app| {
        let (api, id, _) = app.player("ali@example.tn").await;
        app.credit(id, BalanceKind::Cashback, 15 * TND).await;
        let tasks: Vec<_> = (0..20)
            .map(|_| {
                let api = api.clone();
                tokio::spawn(async move { patch_with_key(&api, "same-key").await })
            })
            .collect();
        for t in futures::future::join_all(tasks).await {
            ok(t.expect("request task"));
        }
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 15 * TND);
        assert_eq!(app.count("ledger_transactions WHERE tx_type = 201").await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

// =====================================================================================
// GET /api/user/transactions (every posting; the pay history is in payments.rs)
// =====================================================================================

#[tokio::test]
async fn payment_history() {
    each_backend(async |app| {
        const PATH: &str = "/api/user/transactions";
        let (api, id, _) = app.player("ali@example.tn").await;
        assert_eq!(ok(api.get(PATH).await), json!([]));
        let jan10 = app.credit(id, BalanceKind::Real, 1_500).await;
        let jan20 = app.credit(id, BalanceKind::Real, 2_250).await;
        let recent = app.credit(id, BalanceKind::Real, 3_000).await;
        let at10 = utc_ms(2026, 1, 10, 12);
        let at20 = utc_ms(2026, 1, 20, 12);
        app.sql(&format!("UPDATE ledger_entries SET created_at = {at10} WHERE tx_id = {}", jan10.tx_id)).await;
        app.sql(&format!("UPDATE ledger_entries SET created_at = {at20} WHERE tx_id = {}", jan20.tx_id)).await;
        app.rollups_follow_history().await;
        app.credit(id, BalanceKind::Cashback, 12 * TND).await;
        ok(api.patch(MOVE).await);
        // Default range: the last 30 days, newest first.
        let h = ok(api.get(PATH).await);
        let list = h.as_array().unwrap();
        assert_eq!(list.len(), 4, "{h}");
        for e in list {
            for k in ["created_at", "id", "value", "is_closed", "payment_mode", "purse", "comment", "transaction_id", "type", "currency"] {
                assert!(e.get(k).is_some(), "{k} missing in {e}");
            }
            assert_eq!(e["is_closed"], true);
            assert_eq!(e["currency"], "TND");
        }
        let times: Vec<&str> = list.iter().map(|e| str_of(&e["created_at"])).collect();
        let mut desc = times.clone();
        desc.sort_by(|a, b| b.cmp(a));
        assert_eq!(times, desc, "newest first");
        // The cashback transfer: a debit of cashback and a credit of real.
        let transfer: Vec<&Value> = list.iter().filter(|e| e["payment_mode"] == 201).collect();
        assert_eq!(transfer.len(), 2);
        let debit = transfer.iter().find(|e| e["purse"] == "cashback").expect("cashback leg");
        assert_eq!(num(&debit["value"]), -12.0);
        assert_eq!(debit["type"], "withdrawal");
        let credit = transfer.iter().find(|e| e["purse"] == "real").expect("real leg");
        assert_eq!(num(&credit["value"]), 12.0);
        assert_eq!(credit["type"], "payment");
        assert!(list.iter().any(|e| e["transaction_id"] == recent.tx_id && e["payment_mode"] == 200 && e["comment"] == "test credit"));
        // A date range.
        let jan = ok(api.get(&format!("{PATH}?begin=2026-01-01&end=2026-01-31")).await);
        let jan = jan.as_array().unwrap();
        assert_eq!(jan.len(), 2);
        assert_eq!(jan[0]["transaction_id"], jan20.tx_id);
        assert_eq!(jan[0]["created_at"], "2026-01-20T12:00:00.000Z");
        assert_eq!(jan[0]["value"], json!(2.25));
        assert_eq!(jan[0]["purse"], "real");
        assert_eq!(jan[0]["payment_mode"], 200);
        assert_eq!(jan[1]["transaction_id"], jan10.tx_id);
        assert_eq!(jan[1]["value"], json!(1.5));
        assert_eq!(num(&jan[1]["balance_after"]), 1.5);
        // The end date includes its whole day.
        let one = ok(api.get(&format!("{PATH}?begin=2026-01-10&end=2026-01-10")).await);
        assert_eq!(one.as_array().unwrap().len(), 1);
        assert_eq!(one[0]["transaction_id"], jan10.tx_id);
        assert_eq!(ok(api.get(&format!("{PATH}?begin=2026-01-11&end=2026-01-19")).await), json!([]));
        assert_eq!(ok(api.get(&format!("{PATH}?begin=10-01-2026&end=20-01-2026")).await).as_array().unwrap().len(), 2);
        // Paging.
        let first = ok(api.get(&format!("{PATH}?begin=2026-01-01&limit=1")).await);
        assert_eq!(first.as_array().unwrap().len(), 1);
        let second = ok(api.get(&format!("{PATH}?begin=2026-01-01&limit=1&offset=1")).await);
        assert_ne!(first[0]["id"], second[0]["id"]);
        assert_eq!(ok(api.get(&format!("{PATH}?begin=2026-01-01&limit=500")).await).as_array().unwrap().len(), 6);
        // 46: unparseable dates or end before begin.
        for q in ["begin=yesterday", "end=2026-13-45", "begin=2026-02-01&end=2026-01-01", "begin=2026/01/01"] {
            fail(api.get(&format!("{PATH}?{q}")).await, 200, 46);
        }
        // 40: bad limit or offset.
        for q in ["limit=0", "limit=501", "limit=abc", "limit=-1", "offset=-1", "offset=x"] {
            fail(api.get(&format!("{PATH}?{q}")).await, 400, 40);
        }
        // 23 without a session; another player sees none of it.
        fail(app.bare_client().get(PATH).await, 401, 23);
        let (other, _, _) = app.player("other@example.tn").await;
        assert_eq!(ok(other.get(&format!("{PATH}?begin=2026-01-01")).await), json!([]));
    })
    .await;
}

// =====================================================================================
// Races: one-shot codes and limits under parallel requests
// =====================================================================================

/// Runs `n` copies of a request in parallel; returns the replies.
async fn parallel(api: &Api, n: usize, method: Method, path: &'static str, body: Value) -> Vec<(u16, Value)> {
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let (api, method, body) = (api.clone(), method.clone(), body.clone());
            tokio::spawn(async move { api.send(method, path, Some(body)).await.pair() })
        })
        .collect();
    futures::future::join_all(tasks).await.into_iter().map(|t| t.expect("request task")).collect()
}

fn statuses(replies: &[(u16, Value)]) -> Vec<i64> {
    let mut v: Vec<i64> = replies.iter().map(|(_, b)| b["status"].as_i64().unwrap_or(-1)).collect();
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_phone_signups_with_one_code_create_one_account() {
    each_backend(async |app| {
        ok(app.request_phone_code(app, "21650000001").await);
        let code = app.last_code("21650000001").await;
        let body = json!({ "phone": "21650000001", "code": code, "password": PASSWORD });
        let replies = parallel(&app.bare_client(), 10, Method::POST, "/api/user/signup/phone", body).await;
        let st = statuses(&replies);
        assert_eq!(st.iter().filter(|s| **s == 0).count(), 1, "{st:?}");
        assert!(st.iter().all(|s| [0, 1, 12].contains(s)), "{st:?}");
        assert_eq!(app.count("users WHERE phone = '21650000001'").await, 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_email_signups_create_one_account() {
    each_backend(async |app| {
        let body = json!({ "email": "ali@example.tn", "password": PASSWORD });
        let replies = parallel(&app.bare_client(), 10, Method::POST, "/api/user/signup", body).await;
        let st = statuses(&replies);
        // One account; the others are told it exists (or, past the per-address send
        // quota of 5, to wait).
        assert_eq!(st.iter().filter(|s| **s == 0).count(), 1, "{st:?}");
        assert!(st.iter().all(|s| [0, 1, 14].contains(s)), "{st:?}");
        assert_eq!(app.count("users WHERE email = 'ali@example.tn'").await, 1);
        assert_eq!(app.outbox("ali@example.tn").await.len(), 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_uses_of_one_restore_code_reset_once() {
    each_backend(async |app| {
        app.signup_email(&app.client(), "ali@example.tn", PASSWORD).await;
        ok(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await);
        let code = app.last_code("ali@example.tn").await;
        let body = json!({ "code": code, "new_password": "Newpass99" });
        let replies = parallel(&app.bare_client(), 10, Method::POST, "/api/user/password/restore/new", body).await;
        let st = statuses(&replies);
        assert_eq!(st, [vec![0], vec![9; 9]].concat(), "{st:?}");
        ok(app.client().login_email("ali@example.tn", "Newpass99").await);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_email_verifications_verify_once() {
    each_backend(async |app| {
        app.signup_email_unverified(app, "ali@example.tn", PASSWORD).await;
        let code = app.last_verify_code("ali@example.tn").await;
        let api = app.bare_client();
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                let (api, path) = (api.clone(), format!("/api/user/email/verify/{code}"));
                tokio::spawn(async move { api.get(&path).await })
            })
            .collect();
        let replies: Vec<(u16, Value)> = futures::future::join_all(tasks).await.into_iter().map(|t| t.unwrap()).collect();
        assert_eq!(statuses(&replies), [vec![0], vec![8; 9]].concat());
        ok(app.client().login_email("ali@example.tn", PASSWORD).await);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sms_daily_limit_holds_under_parallel_requests() {
    each_backend_with(
        |cfg| {
            cfg.accounts.sms_daily_limit_per_phone = 2;
            cfg.accounts.limits.sends_per_address = Limit { burst: 100, period: Duration::from_millis(10) };
        },
        async |app| {
            let hash = app.phone_hash("21650000001").await;
            let body = json!({ "phone": "21650000001", "hash": hash });
            let replies = parallel(&app.bare_client(), 10, Method::POST, "/api/user/phone/code", body).await;
            let st = statuses(&replies);
            let sent = app.outbox("21650000001").await.len();
            assert!(sent <= 2, "{sent} SMS sent to one phone with a daily limit of 2 (replies {st:?})");
            assert_eq!(st.iter().filter(|s| **s == 0).count(), sent, "{st:?}");
            assert!(st.iter().all(|s| [0, 13].contains(s)), "{st:?}");
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sms_code_attempts_hold_under_parallel_guesses() {
    each_backend(async |app| {
        ok(app.request_phone_code(app, "21650000001").await);
        let code = app.last_code("21650000001").await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        let body = json!({ "phone": "21650000001", "code": wrong, "password": PASSWORD });
        let replies = parallel(&app.bare_client(), 20, Method::POST, "/api/user/signup/phone", body).await;
        assert_eq!(statuses(&replies), vec![12; 20]);
        // Each evaluated wrong guess counts one attempt; past 5 a guess is refused unseen.
        let attempts = app.scalar("SELECT attempts FROM phone_codes WHERE phone = '21650000001'").await;
        assert!(attempts <= 5, "{attempts} guesses were checked against one SMS code (at most 5 allowed)");
        fail(app.post("/api/user/signup/phone", json!({ "phone": "21650000001", "code": code, "password": PASSWORD })).await, 200, 12);
    })
    .await;
}

// =====================================================================================
// Site: settings, flat pages, slides, ads, language
// =====================================================================================

#[tokio::test]
async fn site_settings() {
    each_backend(async |app| {
        let s = app.settings().await;
        let currencies: Vec<&str> = s["currencies"].as_array().unwrap().iter().map(str_of).collect();
        assert!(currencies.contains(&"TND"));
        assert!(!currencies.iter().any(|c| c.eq_ignore_ascii_case("FUN")));
        assert_eq!(s["phoneCodeSalt"], app.state.config.accounts.phone_code_salt.as_str());
        assert!(s["limits"].is_object());
        assert_eq!(num(&s["limits"]["cashback"]["minTransfer"]), 10.0);
        assert_eq!(s["phoneCountryCode"], "+216");
        assert_eq!(s["phoneLength"], 8);
        assert_eq!(s["demo"], true);
        // An operator's settings listing FUN: it never reaches the app, nor registration.
        let mut custom = content::seed::default_settings();
        custom["currencies"] = json!(["TND", "FUN", "fun", "USD"]);
        app.state.content.put_settings(&custom).await.unwrap();
        let s = app.settings().await;
        assert_eq!(s["currencies"], json!(["TND", "USD"]));
        fail(app.client().post("/api/user/signup/one-click", json!({ "currency": "FUN" })).await, 200, 17);
        fail(app.client().post("/api/user/signup/one-click", json!({ "currency": "PYG" })).await, 200, 17);
        let r = ok(app.client().post("/api/user/signup/one-click", json!({ "currency": "USD" })).await);
        assert_eq!(r["user"]["currency"], "USD");
    })
    .await;
}

#[tokio::test]
async fn flat_pages_by_language() {
    each_backend(async |app| {
        // A row edited by hand (never sanitised on write) and one through the service.
        app.sql(
            "INSERT INTO flat_pages (id, id_name, lang, name, priority, text, updated_at) \
             VALUES (1, 'raw', 'en', 'Raw', 85, '<script>alert(2)</script><b onclick=\"x()\">bold</b>', 0)",
        )
        .await;
        app.state
            .content
            .upsert_flat_page("xss", "en", "XSS", 95, "<p>hi</p><script>alert(1)</script><img src=x onerror=alert(1)>")
            .await
            .unwrap();
        let mut lists = Vec::new();
        for lang in ["fr-fr", "en-US", "ar-ar", "de"] {
            let pages = ok(app.get(&format!("/api/site/flatpages/list/{lang}")).await);
            let pages = pages.as_array().unwrap().clone();
            assert!(pages.len() >= 3, "{lang}: {pages:?}");
            let priorities: Vec<i64> = pages.iter().map(|p| p["priority"].as_i64().unwrap()).collect();
            let mut desc = priorities.clone();
            desc.sort_by(|a, b| b.cmp(a));
            assert_eq!(priorities, desc, "{lang}: by priority, highest first");
            for p in &pages {
                assert_eq!(keys(p), sorted(&["id", "idName", "name", "priority", "text"]));
                let text = str_of(&p["text"]).to_ascii_lowercase();
                assert!(!text.contains("<script") && !text.contains("onerror") && !text.contains("onclick"), "{lang}: {text}");
            }
            lists.push(pages);
        }
        assert_eq!(lists[0][0]["name"], "Conditions générales");
        assert_eq!(lists[1][0]["name"], "Terms and conditions");
        assert_eq!(lists[2][0]["name"], "الشروط والأحكام");
        assert_eq!(lists[1], lists[3], "unknown languages get English");
        let en_ids: Vec<&str> = lists[1].iter().map(|p| str_of(&p["idName"])).collect();
        assert_eq!(&en_ids[..3], &["terms", "xss", "responsible-gaming"]);
        assert!(en_ids.contains(&"raw"));
        let xss = lists[1].iter().find(|p| p["idName"] == "xss").unwrap();
        assert!(str_of(&xss["text"]).contains("<p>hi</p>"));
        let raw = lists[1].iter().find(|p| p["idName"] == "raw").unwrap();
        assert!(str_of(&raw["text"]).contains("<b>bold</b>"), "{raw}");
        // Short forms.
        assert_eq!(ok(app.get("/api/site/flatpages/list/fr").await).as_array().unwrap(), &lists[0]);
    })
    .await;
}

#[tokio::test]
async fn slides_by_language() {
    each_backend(async |app| {
        for (lang, expected) in [("en-US", "en"), ("fr-fr", "fr"), ("ar-ar", "ar")] {
            let slides = ok(app.get(&format!("/api/site/slides?lang={lang}")).await);
            let slides = slides.as_array().unwrap();
            assert_eq!(slides.len(), 3, "{lang}");
            assert!(slides.iter().all(|s| s["language"] == expected), "{lang}: {slides:?}");
            let urls: Vec<&str> = slides.iter().map(|s| str_of(&s["url"])).collect();
            assert_eq!(urls, ["/promotions", "/promotions/cashback-percent", "/slots/lobby"], "by priority");
            assert_eq!(keys(&slides[0]), sorted(&["id", "url", "url_image", "language"]));
            assert!(str_of(&slides[0]["url_image"]).contains(expected));
        }
        let all = ok(app.get("/api/site/slides?lang=ru-ru").await);
        assert_eq!(all.as_array().unwrap().len(), 9);
        assert_eq!(ok(app.get("/api/site/slides").await), all);
        assert_eq!(ok(app.get("/api/site/slides?lang=").await), all);
    })
    .await;
}

#[tokio::test]
async fn ads_list() {
    each_backend(async |app| {
        let ads = ok(app.get("/api/site/ads").await);
        let ads = ads.as_array().unwrap();
        assert_eq!(ads.len(), 2);
        for ad in ads {
            assert_eq!(keys(ad), sorted(&["id", "placement", "title", "text", "url", "url_image", "language"]));
            assert_eq!(ad["placement"], "banner");
        }
        assert_eq!(ok(app.get("/api/site/ads?lang=fr-fr").await).as_array().unwrap().len(), 2);
    })
    .await;
}

#[tokio::test]
async fn set_language() {
    each_backend(async |app| {
        const PATH: &str = "/api/bs3/remote/SetLanguage";
        let resp = app.send(Method::POST, PATH, Some(json!({ "languageId": "en-US" }))).await;
        assert_eq!(ok(resp.pair()), json!({ "languageId": "en-US", "applied": 1 }));
        let cookie = resp.set_cookie("lang").expect("lang cookie");
        assert!(cookie.starts_with("lang=en-US;"), "{cookie}");
        assert_eq!(ok(app.post(PATH, json!({ "languageId": "fr" })).await), json!({ "languageId": "fr-fr", "applied": 1 }));
        assert_eq!(ok(app.post(PATH, json!({ "languageId": "ar-ar" })).await)["applied"], 1);
        assert_eq!(ok(app.post(PATH, json!({ "languageId": "ru-ru" })).await), json!({ "languageId": "ru-ru", "applied": 0 }));
        assert_eq!(ok(app.post(PATH, json!({ "languageId": "kk-kz" })).await), json!({ "languageId": "kk-KZ", "applied": 0 }));
        for bad in ["xx", "", "de-DE"] {
            fail(app.post(PATH, json!({ "languageId": bad })).await, 200, 48);
        }
        for bad in [json!({ "languageId": 5 }), json!({ "languageId": null }), json!({ "languageId": ["en-US"] }), json!({})] {
            fail(app.post(PATH, bad).await, 400, 40);
        }
        // Signed in: the player's language is stored.
        let (api, _, _) = app.player("ali@example.tn").await;
        ok(api.post(PATH, json!({ "languageId": "ru-ru" })).await);
        assert_eq!(ok(api.check().await)["lang"], "ru-ru");
        fail(api.post(PATH, json!({ "languageId": "xx" })).await, 200, 48);
        assert_eq!(ok(api.check().await)["lang"], "ru-ru");
    })
    .await;
}

// =====================================================================================
// GET /api/dev/outbox
// =====================================================================================

#[tokio::test]
async fn dev_outbox() {
    each_backend(async |app| {
        app.signup_email_unverified(app, "ali@example.tn", PASSWORD).await;
        ok(app.post("/api/user/password/restore", json!({ "email": "ali@example.tn" })).await);
        let list = app.outbox("ALI@example.tn").await;
        assert_eq!(list.len(), 2);
        // Newest first: the recovery code, then the verification link.
        assert!(list[0]["code"].is_string() && list[0]["link"].is_null(), "{list:?}");
        assert!(list[1]["link"].is_string() && list[1]["code"].is_null(), "{list:?}");
        assert!(str_of(&list[0]["createdAt"]) >= str_of(&list[1]["createdAt"]));
        for m in &list {
            assert_eq!(keys(m), sorted(&["to", "channel", "text", "code", "link", "createdAt"]));
            assert_eq!(m["to"], "ali@example.tn");
        }
        // Phones in any notation.
        ok(app.request_phone_code(app, "21650000001").await);
        ok(app.request_phone_code(app, "21650000001").await);
        let sms = app.outbox("+216 50 000 001").await;
        assert_eq!(sms.len(), 2);
        // The newest code is the one that signs up.
        let code = str_of(&sms[0]["code"]);
        ok(app.client().post("/api/user/signup/phone", json!({ "phone": "21650000001", "code": code, "password": PASSWORD })).await);
        assert!(app.outbox("nobody@example.tn").await.is_empty());
        fail(app.get("/api/dev/outbox").await, 400, 40);
    })
    .await;
}

// =====================================================================================
// Transport: unknown routes, methods, bodies, CSRF, ops endpoints
// =====================================================================================

#[tokio::test]
async fn unknown_paths_and_methods() {
    each_backend(async |app| {
        for (method, path) in [
            (Method::GET, "/api/nope"),
            (Method::POST, "/api/nope"),
            (Method::GET, "/api"),
            (Method::GET, "/api/user/check/extra"),
            (Method::DELETE, "/api/v2/user/check"),
        ] {
            let resp = app.send(method.clone(), path, None).await;
            fail(resp.pair(), 404, 43);
            assert_eq!(resp.header("content-type").as_deref(), Some("application/json"), "{method} {path}");
        }
        for (method, path) in [
            (Method::GET, "/api/user/login"),
            (Method::POST, "/api/user/check"),
            (Method::DELETE, "/api/user/check"),
            (Method::PUT, "/api/site/settings"),
            (Method::GET, "/api/user/balance/move_cashback_to_real"),
            (Method::POST, "/api/user/profile"),
        ] {
            let resp = app.send(method.clone(), path, None).await;
            fail(resp.pair(), 405, 44);
            assert_eq!(resp.header("content-type").as_deref(), Some("application/json"), "{method} {path}");
        }
    })
    .await;
}

#[tokio::test]
async fn malformed_bodies() {
    each_backend(async |app| {
        const PATH: &str = "/api/user/signup";
        let post_raw = |body: &'static str, content_type: Option<&'static str>| {
            let mut b = app.req(Method::POST, PATH).body(body);
            if let Some(ct) = content_type {
                b = b.header("Content-Type", ct);
            }
            b
        };
        for body in ["{", "not json", "", "{\"email\": \"a@b.tn\", \"password\": }", "[]", "null"] {
            let resp = app.exec(post_raw(body, Some("application/json"))).await;
            fail(resp.pair(), 400, 40);
        }
        // Missing field, wrong types.
        for body in [
            json!({ "email": "ali@example.tn" }),
            json!({ "password": PASSWORD }),
            json!({ "email": 5, "password": PASSWORD }),
            json!({ "email": "ali@example.tn", "password": ["x"] }),
            json!({ "email": "ali@example.tn", "password": PASSWORD, "currency": 1 }),
        ] {
            fail(app.post(PATH, body).await, 400, 40);
        }
        // No JSON content type.
        fail(app.exec(post_raw("{\"email\":\"ali@example.tn\",\"password\":\"Secret42\"}", None)).await.pair(), 415, 45);
        fail(app.exec(post_raw("{\"email\":\"ali@example.tn\",\"password\":\"Secret42\"}", Some("text/plain"))).await.pair(), 415, 45);
        fail(app.exec(post_raw("email=ali%40example.tn", Some("application/x-www-form-urlencoded"))).await.pair(), 415, 45);
        // Over 64 KiB.
        let big = json!({ "email": "ali@example.tn", "password": PASSWORD, "promocode": "x".repeat(65 * 1024) });
        fail(app.post(PATH, big).await, 413, 42);
        let big = json!({ "login": "x".repeat(100 * 1024), "password": PASSWORD });
        fail(app.post("/api/user/login", big).await, 413, 42);
        // Just under the limit is fine.
        let fits = json!({ "email": "ali@example.tn", "password": "x", "promocode": "x".repeat(60 * 1024) });
        fail(app.post(PATH, fits).await, 200, 231);
        // None of it created anything.
        assert_eq!(app.count("users WHERE email = 'ali@example.tn'").await, 0);
        assert!(app.outbox("ali@example.tn").await.is_empty());
        // Bad query strings and path parameters are 40 as well.
        let (api, _, _) = app.player("q@example.tn").await;
        fail(api.get("/api/payment/history/payment-with-withdrawal?limit=1.5").await, 400, 40);
    })
    .await;
}

#[tokio::test]
async fn cross_site_requests_are_refused() {
    each_backend(async |app| {
        let (api, id, token) = app.player("ali@example.tn").await;
        app.credit(id, BalanceKind::Cashback, 15 * TND).await;
        let evil = |b: reqwest::RequestBuilder| b.header("Origin", "https://evil.example");
        let cross = |b: reqwest::RequestBuilder| b.header("Sec-Fetch-Site", "cross-site");
        // Sign-up from another site: refused, nothing created, nothing sent.
        let signup = json!({ "email": "new@example.tn", "password": PASSWORD });
        for b in [cross(app.req(Method::POST, "/api/user/signup")), evil(app.req(Method::POST, "/api/user/signup"))] {
            let resp = app.exec(b.json(&signup)).await;
            fail(resp.pair(), 403, 41);
        }
        assert_eq!(app.count("users WHERE email = 'new@example.tn'").await, 0);
        assert!(app.outbox("new@example.tn").await.is_empty());
        // Password change, cashback move, logout: refused, nothing changed.
        let change = json!({ "password": PASSWORD, "new_password": "Newpass99" });
        fail(api.exec(evil(api.req(Method::POST, "/api/user/password/change")).json(&change)).await.pair(), 403, 41);
        fail(api.exec(cross(api.req(Method::POST, "/api/user/password/change")).json(&change)).await.pair(), 403, 41);
        fail(api.exec(evil(api.req(Method::PATCH, MOVE))).await.pair(), 403, 41);
        fail(api.exec(evil(api.req(Method::GET, "/api/user/logout"))).await.pair(), 403, 41);
        fail(api.exec(api.req(Method::PUT, "/api/user/profile/additional/update").header("Origin", "null").json(&json!({ "first_name": "X" }))).await.pair(), 403, 41);
        // Same origin but a cross-site fetch: refused too.
        let own = format!("http://{}", app.addr);
        fail(api.exec(cross(api.req(Method::PATCH, MOVE)).header("Origin", own.as_str())).await.pair(), 403, 41);
        ok(api.check().await);
        ok(app.client().login_email("ali@example.tn", PASSWORD).await);
        assert_eq!(app.minor_balance(id, BalanceKind::Cashback).await, 15 * TND);
        assert_eq!(ok(api.get("/api/user/profile").await)["firstName"], "");
        // Reads are not state-changing: allowed from anywhere.
        ok(app.exec(evil(app.req(Method::GET, "/api/site/settings"))).await.pair());
        ok(api.exec(cross(api.req(Method::GET, "/api/user/check"))).await.pair());
        // Our own origin (by Host, or the public URL) and same-origin fetches pass.
        let b = ok(api.exec(api.req(Method::PATCH, MOVE).header("Origin", own.as_str()).header("Sec-Fetch-Site", "same-origin")).await.pair());
        assert_eq!(num(&b["balance"]), 15.0);
        let public = app.state.config.public_url.clone();
        let r = app.exec(app.req(Method::POST, "/api/user/signup").header("Origin", public.as_str()).json(&signup)).await;
        ok(r.pair());
        let r = app.exec(app.req(Method::POST, "/api/bs3/remote/SetLanguage").header("Sec-Fetch-Site", "same-site").json(&json!({ "languageId": "fr" }))).await;
        ok(r.pair());
        ok(app.bare_client().get_bearer("/api/user/check", &token).await);
    })
    .await;
}

#[tokio::test]
async fn allowed_origins_pass_the_csrf_guard() {
    each_backend_with(
        |cfg| cfg.allowed_origins = vec!["https://app.example".into()],
        async |app| {
            let body = json!({ "languageId": "en-US" });
            let r = app.exec(app.req(Method::POST, "/api/bs3/remote/SetLanguage").header("Origin", "https://app.example/").json(&body)).await;
            ok(r.pair());
            let r = app.exec(app.req(Method::POST, "/api/bs3/remote/SetLanguage").header("Origin", "https://app.example.evil").json(&body)).await;
            fail(r.pair(), 403, 41);
        },
    )
    .await;
}

#[tokio::test]
async fn production_mode_has_no_outbox() {
    each_backend_with(
        |cfg| cfg.mode = server::config::Mode::Production,
        async |app| {
            fail(app.get("/api/dev/outbox?to=21620000001").await, 404, 43);
            assert_eq!(app.settings().await["demo"], false);
            // No demo accounts are seeded in production.
            fail(app.login_email("player@carthage.local", "Player123").await, 200, 3);
        },
    )
    .await;
}

#[tokio::test]
async fn healthz_metrics_and_headers() {
    each_backend(async |app| {
        let h = app.send(Method::GET, "/healthz", None).await;
        assert_eq!(h.status, 200);
        assert_eq!(h.body, json!({ "status": "ok", "database": "ok", "ledger": "ok", "payments": "ok", "virtuals": "ok", "duties": "ok" }));
        let s = app.send(Method::GET, "/api/site/settings", None).await;
        assert_eq!(s.header("x-content-type-options").as_deref(), Some("nosniff"));
        assert_eq!(s.header("x-frame-options").as_deref(), Some("DENY"));
        assert_eq!(s.header("cache-control").as_deref(), Some("no-store"));
        assert_eq!(s.header("content-type").as_deref(), Some("application/json"));
        app.get("/api/nope").await;
        let (_, id, _) = app.player("ali@example.tn").await;
        app.credit(id, BalanceKind::Real, 1).await;
        let m = app.send(Method::GET, "/metrics", None).await;
        assert_eq!(m.status, 200);
        assert!(m.header("content-type").unwrap().starts_with("text/plain"));
        assert!(m.text.contains("# TYPE http_requests_total counter"));
        assert!(m.text.contains("http_requests_total{method=\"GET\",route=\"/api/site/settings\",status=\"200\"}"), "{}", m.text);
        assert!(m.text.contains("route=\"/api/{*rest}\",status=\"404\"}"), "{}", m.text);
        assert!(m.text.contains("http_request_duration_seconds_bucket"));
        assert!(m.text.contains("# TYPE ledger_postings_total counter"));
        assert!(m.text.contains("ledger_postings_total{type=\"manual_adjustment\",outcome=\"posted\"}"), "{}", m.text);
        assert!(m.text.contains("ledger_postings_total{type=\"demo_credit\",outcome=\"posted\"} 1"), "{}", m.text);
        // Not the API: no envelope, and the SPA fallback answers the rest.
        let root = app.send(Method::GET, "/", None).await;
        assert_eq!(root.status, 200);
    })
    .await;
}

// =====================================================================================
// Back office: POST /api/admin/wallet/adjust
// =====================================================================================

#[tokio::test]
async fn admin_wallet_adjust() {
    each_backend(async |app| {
        const PATH: &str = "/api/admin/wallet/adjust";
        let (player, id, _) = app.player("ali@example.tn").await;
        let admin = app.console("admin@carthage.local", "Admin1234").await;
        let adjust = |amount: &str, key: &str| {
            json!({ "userId": id, "kind": "real", "amount": amount, "reason": "goodwill", "idempotencyKey": key })
        };
        let r = ok(admin.post(PATH, adjust("12.5", "adj-1")).await);
        assert_eq!(r["replayed"], false);
        assert_eq!(r["currency"], "TND");
        assert_eq!(num(&r["balance"]), 12.5);
        let again = ok(admin.post(PATH, adjust("12.5", "adj-1")).await);
        assert_eq!((again["replayed"].clone(), again["transactionId"].clone()), (json!(true), r["transactionId"].clone()));
        fail(admin.post(PATH, adjust("13", "adj-1")).await, 409, 26);
        assert_eq!(num(&player.balance().await["balance"]), 12.5);
        // Refusals.
        fail(player.post(PATH, adjust("100", "adj-2")).await, 403, 24);
        fail(app.bare_client().post(PATH, adjust("100", "adj-2")).await, 401, 23);
        fail(admin.post(PATH, json!({ "userId": id, "kind": "gold", "amount": "1", "reason": "r", "idempotencyKey": "k" })).await, 200, 47);
        for amount in ["0", "1.2345", "abc"] {
            fail(admin.post(PATH, adjust(amount, "adj-3")).await, 200, 47);
        }
        fail(admin.post(PATH, json!({ "userId": id, "kind": "real", "amount": "1", "reason": " ", "idempotencyKey": "k" })).await, 200, 47);
        fail(admin.post(PATH, json!({ "userId": 1, "kind": "real", "amount": "1", "reason": "r", "idempotencyKey": "k" })).await, 200, 3);
        fail(admin.post(PATH, adjust("-100", "adj-4")).await, 200, 501);
        let r = ok(admin.post(PATH, adjust("-2.5", "adj-5")).await);
        assert_eq!(num(&r["balance"]), 10.0);
        assert_eq!(num(&player.balance().await["balance"]), 10.0);
        assert_eq!(app.count("audit_log WHERE action = 'wallet.adjust'").await, 2);
        app.assert_ledger_consistent().await;
    })
    .await;
}

// =====================================================================================
// The OpenAPI contract
// =====================================================================================

const OPENAPI_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
const REGENERATE: &str = "run `cargo run -p server -- openapi > docs/openapi.json` (or `make openapi`) and commit it";

fn committed_openapi() -> String {
    std::fs::read_to_string(OPENAPI_PATH).unwrap_or_else(|e| panic!("cannot read docs/openapi.json ({e}): {REGENERATE}"))
}

/// The first place two JSON documents differ, as a JSON pointer with both values.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let p = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => first_difference(u, v, &p),
                    (u, v) => Some(format!("{p}: committed {u:?}, current {v:?}")),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (u, v))| first_difference(u, v, &format!("{path}/{i}")))
        }
        _ if a == b => None,
        _ => {
            let short = |v: &Value| v.to_string().chars().take(200).collect::<String>();
            Some(format!("{path}: committed {}, current {}", short(a), short(b)))
        }
    }
}

/// The committed contract is the API's document (as JSON: key order aside, see
/// `openapi_document_is_byte_stable`).
#[test]
fn openapi_document_is_current() {
    let committed: Value = serde_json::from_str(&committed_openapi())
        .unwrap_or_else(|e| panic!("docs/openapi.json is not JSON ({e}): {REGENERATE}"));
    let current: Value = serde_json::from_str(&server::api::openapi_json()).expect("the API's OpenAPI document is JSON");
    if let Some(diff) = first_difference(&committed, &current, "") {
        panic!("docs/openapi.json is stale (first difference at {diff}): {REGENERATE}");
    }
    // Every endpoint of the player app is in the contract, with the error catalogue.
    for p in [
        "/api/user/login/email", "/api/user/login/phone", "/api/user/login", "/api/user/signup", "/api/user/signup/phone",
        "/api/user/signup/one-click", "/api/user/email/verify/{code}", "/api/user/check", "/api/user/logout",
        "/api/user/phone/code", "/api/user/password/restore", "/api/user/password/restore/phone",
        "/api/user/password/restore/new", "/api/user/password/restore/phone/new", "/api/user/password/change",
        "/api/user/profile", "/api/user/profile/additional/update", "/api/user/balance",
        "/api/user/balance/move_cashback_to_real", "/api/payment/history/payment-with-withdrawal", "/api/site/settings",
        "/api/site/flatpages/list/{lang}", "/api/site/slides", "/api/site/ads", "/api/bs3/remote/SetLanguage", "/api/dev/outbox",
    ] {
        assert!(current["paths"].get(p).is_some(), "{p} is not in the OpenAPI document");
    }
    let codes = &current["components"]["schemas"]["ErrorCode"]["x-error-codes"];
    for code in kernel::ErrorCode::ALL {
        assert_eq!(codes[code.code().to_string()]["httpStatus"], code.http_status(), "{code:?}");
    }
}

/// The committed file is compared byte for byte by review tools and `git diff`: the
/// document must be the same text every time it is generated.
#[test]
fn openapi_document_is_byte_stable() {
    let committed = committed_openapi();
    for _ in 0..16 {
        let current = server::api::openapi_json();
        if current != committed {
            let line = committed.lines().zip(current.lines()).position(|(a, b)| a != b).unwrap_or(0);
            panic!(
                "docs/openapi.json differs from the generated text at line {}: committed {:?}, current {:?}: {REGENERATE}",
                line + 1,
                committed.lines().nth(line).unwrap_or("<end>"),
                current.lines().nth(line).unwrap_or("<end>"),
            );
        }
    }
}

// ---- the documents that describe the contract must not drift from the code ----


fn docs_repo_file(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[test]
fn api_md_lists_every_error_code() {
    let doc = docs_repo_file("docs/API.md");
    for code in kernel::ErrorCode::ALL {
        let row = format!("| {} | {} | {} | {} |", code.code(), code.name(), code.http_status(), code.message());
        assert!(doc.contains(&row), "docs/API.md lacks or misstates the row `{row}`");
    }
}
