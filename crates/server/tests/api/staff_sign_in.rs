//! Staff two-factor sign-in (issue 22; `accounts::totp`): enrolment, a code signs in once
//! (also when raced), a wrong code is a failed sign-in (lockout), only console sessions reach
//! the console, they live shorter than a player's, and a reset ends them — each step audited.

use crate::common::*;
use accounts::Role;
use serde_json::json;

const STAFF: &str = "totp-admin@example.tn";

async fn staff_login(api: &Api, login: &str, code: Option<&str>) -> (u16, serde_json::Value) {
    api.post("/api/staff/login", json!({ "login": login, "password": PASSWORD, "code": code })).await
}

async fn secret_of(app: &TestApp, user: i64) -> (String, i64) {
    let secret: String = {
        use store::sqlx::{self, Row};
        sqlx::query("SELECT secret FROM staff_totp WHERE user_id = $1").bind(user).fetch_one(app.state.db.writer()).await.unwrap().get(0)
    };
    (secret, app.scalar(&format!("SELECT last_step FROM staff_totp WHERE user_id = {user}")).await)
}

#[tokio::test]
async fn staff_enrol_sign_in_with_a_code_once_and_reach_the_console_only_so() {
    each_backend(async |app| {
        let (player, _, _) = app.player("totp-player@example.tn").await;
        let (_, admin_id) = app.staff(Role::Admin, "totp-first@example.tn").await;
        let user = app
            .state
            .accounts
            .create_user(accounts::NewUser {
                email: Some(STAFF.into()),
                phone: None,
                password: PASSWORD.into(),
                role: Role::Finance,
                currency: kernel::Currency::Tnd,
                first_name: String::new(),
                last_name: String::new(),
                registered_via: "test",
            })
            .await
            .unwrap();
        let api = app.client();

        // Refusals that tell nothing about the second factor: a wrong password (4), a player
        // (24 after the right password; no enrolment either).
        fail(api.post("/api/staff/login", json!({ "login": STAFF, "password": "Wrong123", "code": "123456" })).await, 200, 4);
        fail(player.post("/api/staff/login", json!({ "login": "totp-player@example.tn", "password": PASSWORD })).await, 403, 24);
        fail(player.post("/api/staff/totp/enrol", json!({ "login": "totp-player@example.tn", "password": PASSWORD })).await, 403, 24);
        fail(api.post("/api/staff/totp/enrol", json!({ "login": STAFF, "password": "Wrong123" })).await, 200, 4);

        // Not enrolled: 144, with or without a code.
        fail(staff_login(&api, STAFF, None).await, 401, 144);
        fail(staff_login(&api, STAFF, Some("123456")).await, 401, 144);
        // Enrolment: a pending secret; enrolling again replaces it (the first one's codes die).
        let first = ok(api.post("/api/staff/totp/enrol", json!({ "login": STAFF, "password": PASSWORD })).await);
        let second = ok(api.post("/api/staff/totp/enrol", json!({ "login": STAFF, "password": PASSWORD })).await);
        let secret = second["secret"].as_str().unwrap().to_string();
        assert_ne!(first["secret"], second["secret"]);
        assert_eq!(secret.len(), 32, "160 bits in base32");
        let uri = second["otpauthUri"].as_str().unwrap();
        assert!(uri.starts_with("otpauth://totp/Carthage:totp-admin%40example.tn?") && uri.contains(&format!("secret={secret}")), "{uri}");
        let step = totp_step_now();
        fail(staff_login(&api, STAFF, Some(&totp_code(first["secret"].as_str().unwrap(), step))).await, 401, 143);
        fail(staff_login(&api, STAFF, None).await, 401, 144);

        // The first right code confirms the authenticator and signs in.
        let code = totp_code(&secret, step);
        let wrong = format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000);
        fail(staff_login(&api, STAFF, Some(&wrong)).await, 401, 143);
        let signed_in = ok(staff_login(&api, STAFF, Some(&code)).await);
        assert_eq!(signed_in["user"]["id"], user.id);
        // A console session: shorter than a player's (8 h against 30 days).
        let lives = async |flag: i32| app.scalar(&format!("SELECT MAX(absolute_expires_at - created_at) FROM sessions WHERE user_id = {} AND second_factor = {flag}", user.id)).await;
        assert_eq!(lives(1).await, 8 * 3_600_000, "a console session lives 8 h");
        let idle = app.scalar(&format!("SELECT MAX(idle_expires_at - created_at) FROM sessions WHERE user_id = {} AND second_factor = 1", user.id)).await;
        assert_eq!(idle, 30 * 60_000, "and 30 min idle");
        ok(api.get("/api/admin/players?q=totp").await);

        // The code is spent: again, or from another client, 143. Enrolling again: 145.
        let other = app.client();
        fail(staff_login(&other, STAFF, Some(&code)).await, 401, 143);
        fail(staff_login(&other, STAFF, None).await, 401, 142);
        fail(other.post("/api/staff/totp/enrol", json!({ "login": STAFF, "password": PASSWORD })).await, 200, 145);
        assert_eq!(secret_of(app, user.id).await.0, secret, "a confirmed secret is never replaced");

        // The same account signed in the player app's way reaches no console call (142),
        // and the console's cookie is not the player app's.
        let password_only = app.client();
        ok(password_only.login(STAFF, PASSWORD).await);
        fail(password_only.get("/api/admin/players?q=totp").await, 401, 142);
        fail(password_only.get("/api/admin/audit").await, 401, 142);
        fail(api.get("/api/user/check").await, 401, 23);

        assert_eq!(lives(0).await, 30 * 24 * 3_600_000, "a player-app session of the same account lives 30 days");

        // Five sign-ins raced with one fresh code: exactly one gets in (the others are failed
        // sign-ins: the account's lockout counts them).
        let (_, last) = secret_of(app, user.id).await;
        let next = (last + 1).max(totp_step_now());
        let fresh = totp_code(&secret, next);
        let clients: Vec<Api> = (0..5).map(|_| app.client()).collect();
        let results = futures::future::join_all(clients.iter().map(|c| staff_login(c, STAFF, Some(&fresh)))).await;
        let codes: Vec<i64> = results.iter().map(|(_, b)| b["status"].as_i64().unwrap()).collect();
        assert_eq!(codes.iter().filter(|c| **c == 0).count(), 1, "one sign-in per code: {codes:?}");
        assert!(codes.iter().all(|c| [0, 143].contains(c)), "{codes:?}");

        // Logging out of the console ends that session only; a player-app session named by
        // the header is not the console's to end (a player's, or the staff member's own).
        let (_, _, player_token) = app.player("totp-bystander@example.tn").await;
        let bystander = app.client();
        let r = bystander.exec(app.http.post(format!("{}/api/staff/logout", app.base)).bearer_auth(&player_token)).await;
        assert_eq!((r.status, r.body["status"].as_i64()), (200, Some(0)), "{}", r.text);
        let still = bystander.exec(app.http.get(format!("{}/api/user/check", app.base)).bearer_auth(&player_token)).await;
        assert_eq!(still.body["status"], 0, "the player's session lives: {}", still.text);
        ok(password_only.check().await);
        ok(api.post("/api/staff/logout", json!({})).await);
        fail(api.get("/api/admin/players?q=totp").await, 401, 23);
        ok(password_only.check().await);

        // A reset (a lost phone): the console sessions end, the next sign-in enrols again.
        let winner = &clients[codes.iter().position(|c| *c == 0).unwrap()];
        ok(winner.get("/api/admin/players?q=totp").await);
        assert!(app.state.accounts.reset_totp(user.id, &format!("admin:{admin_id}"), "lost phone").await.unwrap());
        fail(winner.get("/api/admin/players?q=totp").await, 401, 23);
        ok(password_only.check().await);
        fail(staff_login(&api, STAFF, Some(&fresh)).await, 401, 144);
        assert!(!app.state.accounts.reset_totp(user.id, &format!("admin:{admin_id}"), "again").await.unwrap());

        // The trail: each sign-in with a code (the first confirming the authenticator), the resets.
        let signed: i64 = app.count(&format!("audit_log WHERE action = 'staff.sign_in' AND subject = 'user:{}'", user.id)).await;
        assert_eq!(signed, 2, "two sign-ins with a code");
        assert_eq!(app.count(&format!("audit_log WHERE action = 'staff.totp_reset' AND subject = 'user:{}'", user.id)).await, 2);
        assert_eq!(
            app.count(&format!("audit_log WHERE action = 'staff.sign_in' AND subject = 'user:{}' AND details LIKE '%\"authenticatorConfirmed\":true%'", user.id)).await,
            1
        );
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn wrong_codes_lock_the_staff_account_like_wrong_passwords() {
    each_backend(async |app| {
        let (_, id) = app.staff(Role::Support, STAFF).await;
        let (secret, _) = secret_of(app, id).await;
        let api = app.client();
        // The account's burst is 10 failures: ten wrong codes, then even the right one waits.
        let right = totp_code(&secret, totp_step_now() + 1);
        let mut codes = Vec::new();
        for i in 0..10u32 {
            let wrong = format!("{:06}", (right.parse::<u32>().unwrap() + 1 + i) % 1_000_000);
            let (_, b) = staff_login(&api, STAFF, Some(&wrong)).await;
            codes.push(b["status"].as_i64().unwrap());
        }
        assert!(codes.iter().all(|c| *c == 143), "{codes:?}");
        fail(staff_login(&api, STAFF, Some(&right)).await, 429, 16);
        // The player sign-in counts the same failures: the account is locked there too.
        fail(api.login(STAFF, PASSWORD).await, 429, 16);
    })
    .await;
}
