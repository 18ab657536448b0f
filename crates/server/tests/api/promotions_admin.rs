//! Operator tools of issue 19 (api/promotions_admin.rs, `carthage promo …`) and the partner
//! set-promocode: admin only (24 for any other role, nothing changes), malformed input 400/40,
//! the maximum wagering multiple refused at creation (endpoint and CLI), a free-bet campaign
//! re-run granting once, every action audited with its actor.

use crate::common::*;
use clap::Parser;
use serde_json::{json, Value};
use server::cli::{promo_operator, Cli, Command};
use wallet::BalanceKind;

async fn admin(app: &TestApp) -> (Api, i64) {
    let api = app.console("admin@carthage.local", "Admin1234").await;
    let id = app.state.accounts.find_by_login("admin@carthage.local").await.unwrap().expect("the demo admin").id;
    (api, id)
}

/// Runs `carthage promo …` against the test server's state: its JSON, or the refusal's code.
async fn cli(app: &TestApp, args: &[&str]) -> Result<Value, u32> {
    let mut argv = vec!["carthage", "promo"];
    argv.extend_from_slice(args);
    let Some(Command::Promo { command }) = Cli::try_parse_from(argv).expect("arguments").command else { panic!("not a promo command") };
    match promo_operator(&app.state, command).await {
        Ok(text) => Ok(serde_json::from_str(&text).expect("the CLI prints JSON")),
        Err(e) => Err(e.code.code() as u32),
    }
}

fn template(name: &str, multiple: i64) -> Value {
    json!({ "name": name, "product": "casino", "currency": "TND", "amount": "20", "wageringMultiple": multiple, "maxBet": "2.500", "lifeDays": 14 })
}

async fn audits(app: &TestApp, action: &str) -> i64 {
    app.scalar(&format!("SELECT COUNT(*) FROM audit_log WHERE action = '{action}'")).await
}

#[tokio::test]
async fn operator_calls_refuse_players_and_guests_and_change_nothing() {
    each_backend(async |app| {
        let (player, _, _) = app.player("not-admin@example.com").await;
        let guest = app.client();
        let partner = app.client();
        ok(partner.post("/api/user/login/email", json!({ "email": "partner@carthage.local", "password": "Partner123" })).await);
        let before = (app.count("bonus_templates").await, app.count("promo_codes").await, app.count("free_bets").await, app.count("jackpot_pools").await, app.count("bonuses").await);
        let calls: Vec<(&str, Option<Value>)> = vec![
            ("/api/admin/promotions/templates", None),
            ("/api/admin/promotions/templates", Some(template("nope", 5))),
            ("/api/admin/promotions/codes", None),
            ("/api/admin/promotions/codes", Some(json!({ "code": "NOPE", "kind": "bonus", "template": "welcome-50" }))),
            ("/api/admin/promotions/codes/WELCOME/block", Some(json!({ "blocked": true }))),
            ("/api/admin/promotions/free-bets", Some(json!({ "campaign": "c1", "userIds": [1], "value": 10 }))),
            ("/api/admin/promotions/bonuses", Some(json!({ "userId": 1, "template": "welcome-50", "key": "k1" }))),
            ("/api/admin/jackpots", None),
            ("/api/admin/jackpots", Some(json!({ "id": "nope", "num": 9, "name": "Nope", "currency": "TND", "seedAmount": "1", "cap": "10", "shareBps": 10 }))),
            ("/api/admin/jackpots/small/force-drop", Some(json!({}))),
        ];
        for (path, body) in calls {
            let send = |api: &Api| {
                let api = api.clone();
                let body = body.clone();
                async move {
                    match body {
                        Some(b) => api.post(path, b).await,
                        None => api.get(path).await,
                    }
                }
            };
            fail(send(&player).await, 403, 24);
            fail(send(&partner).await, 403, 24);
            fail(send(&guest).await, 401, 23);
        }
        let after = (app.count("bonus_templates").await, app.count("promo_codes").await, app.count("free_bets").await, app.count("jackpot_pools").await, app.count("bonuses").await);
        assert_eq!(before, after);
        assert_eq!(app.scalar("SELECT blocked FROM promo_codes WHERE code = 'WELCOME'").await, 0);
        assert_eq!(app.count("audit_log WHERE action LIKE 'promo.%'").await, 0);
    })
    .await;
}

#[tokio::test]
async fn templates_are_created_listed_and_refused_above_the_maximum_multiple() {
    each_backend(async |app| {
        let (api, admin_id) = admin(app).await;
        let t = ok(api.post("/api/admin/promotions/templates", template("ten-x", 10)).await);
        assert_eq!((t["name"].as_str(), t["wageringMultiple"].as_i64(), t["amount"].as_f64(), t["maxBet"].as_f64()), (Some("ten-x"), Some(10), Some(20.0), Some(2.5)));
        assert_eq!(t["createdBy"].as_str(), Some(format!("admin:{admin_id}").as_str()));
        // 11× is above the operator's maximum (10×): refused when created, with its code.
        let refused = api.post("/api/admin/promotions/templates", template("eleven-x", 11)).await;
        assert!(refused.1["error_message"].as_str().unwrap().contains("above the operator's maximum"), "{}", refused.1);
        fail(refused, 200, 132);
        assert_eq!(cli(app, &["template-create", "--name", "eleven-cli", "--amount", "20", "--wagering", "11"]).await.unwrap_err(), 132);
        assert_eq!(app.count("bonus_templates WHERE name LIKE 'eleven%'").await, 0);
        // The CLI creates with its actor.
        let c = cli(app, &["template-create", "--name", "deposit-25", "--percent", "25", "--cap", "100", "--wagering", "5", "--base", "bonus_plus_deposit", "--life-days", "7"]).await.unwrap();
        assert_eq!((c["percentBps"].as_i64(), c["cap"].as_f64(), c["wageringBase"].as_str()), (Some(2500), Some(100.0), Some("bonus_plus_deposit")));
        assert!(c["createdBy"].as_str().unwrap().starts_with("cli:"), "{c}");
        let sport = ok(api.post("/api/admin/promotions/templates", json!({ "name": "sport-10", "product": "sport", "currency": "TND", "amount": "10", "wageringMultiple": 3, "lifeDays": 10, "minOdds": "1.80" })).await);
        assert_eq!(sport["minOdds"].as_f64(), Some(1.8));
        // A name in use, a life above 90 days, a zero amount: 132. Amount and percent both: 47.
        fail(api.post("/api/admin/promotions/templates", template("ten-x", 5)).await, 200, 132);
        fail(api.post("/api/admin/promotions/templates", json!({ "name": "long", "product": "casino", "currency": "TND", "amount": "5", "wageringMultiple": 1, "lifeDays": 91 })).await, 200, 132);
        fail(api.post("/api/admin/promotions/templates", json!({ "name": "zero", "product": "casino", "currency": "TND", "amount": "0", "wageringMultiple": 1, "lifeDays": 9 })).await, 200, 132);
        fail(api.post("/api/admin/promotions/templates", json!({ "name": "both", "product": "casino", "currency": "TND", "amount": "5", "percent": "5", "cap": "5", "wageringMultiple": 1, "lifeDays": 9 })).await, 200, 47);
        fail(api.post("/api/admin/promotions/templates", json!({ "name": "fine", "product": "casino", "currency": "TND", "amount": "5.0001", "wageringMultiple": 1, "lifeDays": 9 })).await, 200, 47);
        // What the document forbids: 400.
        for bad in [
            json!({ "name": "x", "product": "poker", "currency": "TND", "amount": "5", "wageringMultiple": 1, "lifeDays": 9 }),
            json!({ "name": "x", "product": "casino", "currency": "XYZ", "amount": "5", "wageringMultiple": 1, "lifeDays": 9 }),
            json!({ "name": "x".repeat(81), "product": "casino", "currency": "TND", "amount": "5", "wageringMultiple": 1, "lifeDays": 9 }),
            json!({ "name": "x", "product": "casino", "currency": "TND", "amount": "-5", "wageringMultiple": 1, "lifeDays": 9 }),
            json!({ "name": "x", "product": "casino", "currency": "TND", "amount": "5", "wageringMultiple": 1001, "lifeDays": 9 }),
            json!({ "name": "x", "product": "casino", "currency": "TND", "amount": "5", "wageringMultiple": 1, "lifeDays": 0 }),
            json!({ "name": "x", "product": "casino", "currency": "TND", "amount": 5, "wageringMultiple": 1, "lifeDays": 9 }),
        ] {
            fail(api.post("/api/admin/promotions/templates", bad).await, 400, 40);
        }
        let list = ok(api.get("/api/admin/promotions/templates").await);
        let names: Vec<&str> = list.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        for n in ["ten-x", "deposit-25", "sport-10", "welcome-50"] {
            assert!(names.contains(&n), "{names:?}");
        }
        assert_eq!(cli(app, &["templates"]).await.unwrap().as_array().unwrap().len(), list.as_array().unwrap().len());
        assert_eq!(audits(app, "promo.template.create").await, 3);
        assert_eq!(app.count(&format!("audit_log WHERE action = 'promo.template.create' AND actor = 'admin:{admin_id}'")).await, 2);
    })
    .await;
}

#[tokio::test]
async fn codes_are_created_listed_with_their_usage_blocked_and_unblocked() {
    each_backend(async |app| {
        let (api, admin_id) = admin(app).await;
        ok(api.post("/api/admin/promotions/templates", template("spring", 5)).await);
        let c = ok(api.post("/api/admin/promotions/codes", json!({ "code": "spring26", "kind": "bonus", "template": "spring", "maxUses": 2 })).await);
        // Stored upper-case; the currency is the template's.
        assert_eq!((c["code"].as_str(), c["currency"].as_str(), c["uses"].as_i64(), c["maxUses"].as_i64()), (Some("SPRING26"), Some("TND"), Some(0), Some(2)));
        assert_eq!(c["createdBy"].as_str(), Some(format!("admin:{admin_id}").as_str()));
        let (player, user, _) = app.player("spring@example.com").await;
        let a = ok(player.post("/api/payment/promocode/activation", json!({ "code": "SPRING26" })).await);
        assert!(a["bonusId"].is_string());
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 20_000);
        let listed = ok(api.get("/api/admin/promotions/codes").await);
        let spring = listed.as_array().unwrap().iter().find(|c| c["code"] == "SPRING26").unwrap();
        assert_eq!((spring["uses"].as_i64(), spring["activations"].as_i64()), (Some(1), Some(1)));
        // Blocked: players get 2206; unblocked: it works again.
        let b = ok(api.post("/api/admin/promotions/codes/spring26/block", json!({ "blocked": true })).await);
        assert_eq!(b["blocked"].as_bool(), Some(true));
        let (other, _, _) = app.player("spring2@example.com").await;
        fail(other.post("/api/payment/promocode/activation", json!({ "code": "SPRING26" })).await, 200, 2206);
        assert_eq!(cli(app, &["code-block", "--code", "spring26", "--unblock"]).await.unwrap()["blocked"].as_bool(), Some(false));
        ok(other.post("/api/payment/promocode/activation", json!({ "code": "SPRING26" })).await);
        fail(api.post("/api/admin/promotions/codes/NOSUCH/block", json!({ "blocked": true })).await, 200, 2200);
        fail(api.post("/api/admin/promotions/codes/spring26/block", json!({ "blocked": "yes" })).await, 400, 40);
        // Free bets: a listed value in a named currency.
        let f = cli(app, &["code-create", "--code", "FB50", "--kind", "free_bets", "--free-bet-value", "50", "--free-bet-count", "2", "--currency", "tnd", "--valid-until", "2099-01-01T00:00:00Z"]).await.unwrap();
        assert_eq!((f["freeBetAmount"].as_f64(), f["freeBetCount"].as_i64()), (Some(50.0), Some(2)));
        assert!(f["createdBy"].as_str().unwrap().starts_with("cli:"));
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "FB20", "kind": "free_bets", "freeBetValue": 20, "currency": "TND" })).await, 200, 132);
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "FB10", "kind": "free_bets", "freeBetValue": 10 })).await, 200, 47);
        // Existing code, missing template, a referral code without partner, a partner who is not one.
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "Spring26", "kind": "bonus", "template": "spring" })).await, 200, 132);
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "T1", "kind": "bonus" })).await, 200, 132);
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "R1", "kind": "partner_referral" })).await, 200, 132);
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "R2", "kind": "partner_referral", "partnerId": user })).await, 200, 47);
        fail(api.post("/api/admin/promotions/codes", json!({ "code": "W1", "kind": "bonus", "template": "spring", "validFrom": 2000, "validUntil": 1000 })).await, 200, 47);
        for bad in [
            json!({ "code": "has space", "kind": "bonus", "template": "spring" }),
            json!({ "code": "X".repeat(41), "kind": "bonus", "template": "spring" }),
            json!({ "code": "K1", "kind": "cashback", "template": "spring" }),
            json!({ "code": "K2", "kind": "free_bets", "freeBetValue": 5000, "currency": "TND" }),
            json!({ "code": "K3", "kind": "bonus", "template": "spring", "maxUses": -1 }),
        ] {
            fail(api.post("/api/admin/promotions/codes", bad).await, 400, 40);
        }
        assert_eq!(audits(app, "promo.code.create").await, 2);
        assert_eq!((audits(app, "promo.code.block").await, audits(app, "promo.code.unblock").await), (1, 1));
        assert_eq!(cli(app, &["codes"]).await.unwrap().as_array().unwrap().len(), app.count("promo_codes").await as usize);
    })
    .await;
}

#[tokio::test]
async fn a_free_bet_campaign_grants_each_player_once_however_often_it_runs() {
    each_backend(async |app| {
        let (api, admin_id) = admin(app).await;
        let (p1, u1, _) = app.player("camp1@example.com").await;
        let (_, u2, _) = app.player("camp2@example.com").await;
        let body = json!({ "campaign": "nov_26", "userIds": [u1, u2, u1], "value": 50, "count": 2 });
        let r = ok(api.post("/api/admin/promotions/free-bets", body.clone()).await);
        assert_eq!((r["granted"].as_i64(), r["players"].as_array().unwrap().len()), (Some(4), 2));
        // Re-runs, by the endpoint and by the CLI, grant nothing more.
        let again = ok(api.post("/api/admin/promotions/free-bets", body).await);
        assert_eq!(again["granted"].as_i64(), Some(0));
        let by_cli = cli(app, &["free-bets", "--campaign", "nov_26", "--user", &format!("{u1},{u2}"), "--value", "50", "--count", "2"]).await.unwrap();
        assert_eq!(by_cli["granted"].as_i64(), Some(0));
        assert_eq!(app.count(&format!("free_bets WHERE user_id = {u1}")).await, 2);
        assert_eq!(app.count(&format!("free_bets WHERE user_id = {u2}")).await, 2);
        assert_eq!(app.scalar(&format!("SELECT CAST(SUM(amount) AS BIGINT) FROM free_bets WHERE user_id = {u1}")).await, 100_000);
        // The same campaign with other free bets: 26 and nothing moves; a LIKE-wildcard twin id is another campaign.
        fail(api.post("/api/admin/promotions/free-bets", json!({ "campaign": "nov_26", "userIds": [u1], "value": 10, "count": 2 })).await, 409, 26);
        let twin = ok(api.post("/api/admin/promotions/free-bets", json!({ "campaign": "novX26", "userIds": [u1], "value": 10 })).await);
        assert_eq!(twin["granted"].as_i64(), Some(1));
        // Unknown player: 3 and nobody gets anything; an admin is not a player: 47.
        fail(api.post("/api/admin/promotions/free-bets", json!({ "campaign": "dec", "userIds": [u2, 999_999_999], "value": 10 })).await, 200, 3);
        fail(api.post("/api/admin/promotions/free-bets", json!({ "campaign": "dec", "userIds": [admin_id], "value": 10 })).await, 200, 47);
        assert_eq!(app.count(&format!("free_bets WHERE user_id = {u2}")).await, 2);
        fail(api.post("/api/admin/promotions/free-bets", json!({ "campaign": "dec", "userIds": [u2], "value": 20 })).await, 200, 47);
        for bad in [
            json!({ "campaign": "dec", "userIds": [], "value": 10 }),
            json!({ "campaign": "d e c", "userIds": [u2], "value": 10 }),
            json!({ "campaign": "dec", "userIds": [u2], "value": 5 }),
            json!({ "campaign": "dec", "userIds": [u2], "value": 10, "count": 21 }),
        ] {
            fail(api.post("/api/admin/promotions/free-bets", bad).await, 400, 40);
        }
        // The player activates them: 2 × 50 + 10 TND of free-bet balance.
        let act = ok(p1.post("/api/user/activate-free-bets", json!({})).await);
        assert_eq!(act["activated"].as_i64(), Some(3));
        assert_eq!(app.minor_balance(u1, BalanceKind::FreeBet).await, 110_000);
        // One audit row per player and grant that gave something.
        assert_eq!(audits(app, "promo.free_bets.grant").await, 3);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn a_bonus_granted_by_hand_is_granted_once_per_key() {
    each_backend(async |app| {
        let (api, _) = admin(app).await;
        let (player, user, _) = app.player("by-hand@example.com").await;
        let (_, other, _) = app.player("by-hand2@example.com").await;
        let g = ok(api.post("/api/admin/promotions/bonuses", json!({ "userId": user, "template": "welcome-50", "key": "goodwill-1" })).await);
        assert_eq!((g["replayed"].as_bool(), g["bonus"]["status"].as_str(), g["bonus"]["amount"].as_f64()), (Some(false), Some("active"), Some(50.0)));
        let id = g["bonus"]["id"].as_str().unwrap().to_string();
        let again = ok(api.post("/api/admin/promotions/bonuses", json!({ "userId": user, "template": "welcome-50", "key": "goodwill-1" })).await);
        assert_eq!((again["replayed"].as_bool(), again["bonus"]["id"].as_str()), (Some(true), Some(id.as_str())));
        let template_id = app.scalar("SELECT id FROM bonus_templates WHERE name = 'welcome-50'").await.to_string();
        let by_cli = cli(app, &["grant-bonus", "--user", &user.to_string(), "--template", &template_id, "--key", "goodwill-1"]).await.unwrap();
        assert_eq!(by_cli["replayed"].as_bool(), Some(true));
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 50_000);
        assert_eq!(ok(player.get("/api/user/bonuses").await).as_array().unwrap().len(), 1);
        // The key for someone else: 26, nothing granted. A second key queues behind the open bonus.
        fail(api.post("/api/admin/promotions/bonuses", json!({ "userId": other, "template": "welcome-50", "key": "goodwill-1" })).await, 409, 26);
        assert_eq!(app.minor_balance(other, BalanceKind::Bonus).await, 0);
        let queued = ok(api.post("/api/admin/promotions/bonuses", json!({ "userId": user, "template": "welcome-50", "key": "goodwill-2" })).await);
        assert_eq!(queued["bonus"]["status"].as_str(), Some("queued"));
        fail(api.post("/api/admin/promotions/bonuses", json!({ "userId": user, "template": "no-such", "key": "k" })).await, 200, 132);
        fail(api.post("/api/admin/promotions/bonuses", json!({ "userId": 999_999_999, "template": "welcome-50", "key": "k" })).await, 200, 3);
        fail(api.post("/api/admin/promotions/bonuses", json!({ "userId": user, "template": "welcome-50", "key": "not ok" })).await, 400, 40);
        fail(api.post("/api/admin/promotions/bonuses", json!({ "userId": user, "template": "welcome-50" })).await, 400, 40);
        assert_eq!(audits(app, "promo.bonus.grant").await, 2);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn pools_are_listed_created_once_and_force_dropped_in_demo() {
    each_backend(async |app| {
        let (api, admin_id) = admin(app).await;
        assert_eq!(ok(api.get("/api/admin/jackpots").await).as_array().unwrap().len(), 3);
        let body = json!({ "id": "weekly", "num": 4, "name": "Weekly", "currency": "TND", "seedAmount": "50", "cap": "500", "shareBps": 10 });
        let r = ok(api.post("/api/admin/jackpots", body.clone()).await);
        assert_eq!((r["created"].as_bool(), r["pool"]["amount"].as_f64(), r["pool"]["seedHash"].as_str().unwrap().len()), (Some(true), Some(50.0), 64));
        assert_eq!(ok(api.post("/api/admin/jackpots", body).await)["created"].as_bool(), Some(false));
        // Another pool with this id or number: 132; seed above cap: 132.
        fail(api.post("/api/admin/jackpots", json!({ "id": "weekly", "num": 5, "name": "W", "currency": "TND", "seedAmount": "50", "cap": "600", "shareBps": 10 })).await, 200, 132);
        fail(api.post("/api/admin/jackpots", json!({ "id": "daily", "num": 4, "name": "D", "currency": "TND", "seedAmount": "5", "cap": "60", "shareBps": 10 })).await, 200, 132);
        fail(api.post("/api/admin/jackpots", json!({ "id": "daily", "num": 6, "name": "D", "currency": "TND", "seedAmount": "60", "cap": "50", "shareBps": 10 })).await, 200, 132);
        fail(api.post("/api/admin/jackpots", json!({ "id": "Daily", "num": 6, "name": "D", "currency": "TND", "seedAmount": "5", "cap": "50", "shareBps": 10 })).await, 400, 40);
        fail(api.post("/api/admin/jackpots", json!({ "id": "daily", "num": 6, "name": "D", "currency": "TND", "seedAmount": "5", "cap": "50", "shareBps": 0 })).await, 400, 40);
        let by_cli = cli(app, &["pool-create", "--id", "daily", "--num", "6", "--name", "Daily", "--seed", "5", "--cap", "50", "--share-bps", "5"]).await.unwrap();
        assert_eq!(by_cli["created"].as_bool(), Some(true));
        assert_eq!(cli(app, &["pools"]).await.unwrap().as_array().unwrap().len(), 5);
        // Force-drop (demo): by the endpoint and the CLI, audited.
        assert!(ok(api.post("/api/admin/jackpots/weekly/force-drop", json!({})).await)["added"].as_f64().unwrap() > 0.0);
        assert!(cli(app, &["force-drop", "--pool", "daily"]).await.unwrap()["added"].as_f64().unwrap() > 0.0);
        assert_eq!(cli(app, &["force-drop", "--pool", "nope"]).await.unwrap_err(), 43);
        assert_eq!(app.count(&format!("audit_log WHERE action = 'promo.pool.force_drop' AND actor = 'admin:{admin_id}'")).await, 1);
        assert_eq!(audits(app, "promo.pool.force_drop").await, 2);
        assert_eq!(audits(app, "promo.pool.create").await, 2);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn force_drop_is_refused_outside_demo_mode() {
    each_backend_with(
        |cfg| cfg.mode = server::config::Mode::Production,
        async |app| {
            // No demo pools without demo mode: the operator creates one, then cannot force it.
            let (api, _) = admin_or_create(app).await;
            ok(api.post("/api/admin/jackpots", json!({ "id": "p1", "num": 1, "name": "P1", "currency": "TND", "seedAmount": "1", "cap": "10", "shareBps": 10 })).await);
            fail(api.post("/api/admin/jackpots/p1/force-drop", json!({})).await, 403, 24);
            assert_eq!(cli(app, &["force-drop", "--pool", "p1"]).await.unwrap_err(), 24);
        },
    )
    .await;
}

/// The demo admin, or (outside demo mode) an admin created for the test.
async fn admin_or_create(app: &TestApp) -> (Api, i64) {
    if app.state.accounts.find_by_login("admin@carthage.local").await.unwrap().is_none() {
        app.state
            .accounts
            .create_user(accounts::NewUser {
                email: Some("admin@carthage.local".into()),
                phone: None,
                password: "Admin1234".into(),
                role: accounts::Role::Admin,
                currency: kernel::Currency::Tnd,
                first_name: String::new(),
                last_name: String::new(),
                registered_via: "test",
            })
            .await
            .unwrap();
    }
    admin(app).await
}

async fn partner(app: &TestApp, email: &str) -> i64 {
    app.state
        .accounts
        .create_user(accounts::NewUser {
            email: Some(email.into()),
            phone: None,
            password: "Partner123".into(),
            role: accounts::Role::Partner,
            currency: kernel::Currency::Tnd,
            first_name: String::new(),
            last_name: String::new(),
            registered_via: "test",
        })
        .await
        .unwrap()
        .id
}

/// An e-mail player signed up with `ref_id` (as the app sends it from the link), signed in.
async fn referred_player(app: &TestApp, email: &str, ref_id: Option<i64>) -> (Api, i64) {
    let api = app.client();
    ok(api.post("/api/user/signup", json!({ "email": email, "password": PASSWORD, "name": "", "ref_id": ref_id.map(|r| r.to_string()) })).await);
    let code = app.last_verify_code(email).await;
    ok(api.get(&format!("/api/user/email/verify/{code}")).await);
    let s = ok(api.post("/api/user/login/email", json!({ "email": email, "password": PASSWORD })).await);
    (api, s["user"]["id"].as_i64().unwrap())
}

#[tokio::test]
async fn partner_set_promocode_links_a_new_player_once_and_refuses_what_it_must() {
    each_backend(async |app| {
        let (admin_api, _) = admin(app).await;
        let demo_partner = app.scalar("SELECT id FROM users WHERE email = 'partner@carthage.local'").await;
        let other_partner = partner(app, "partner2@example.com").await;
        ok(admin_api.post("/api/admin/promotions/codes", json!({ "code": "PARTNERX", "kind": "bonus", "template": "welcome-50", "partnerId": demo_partner })).await);
        ok(admin_api.post("/api/admin/promotions/codes", json!({ "code": "REFX", "kind": "partner_referral", "partnerId": demo_partner })).await);
        let set = "/api/user/partner/set-promocode";

        // A new player, not referred: linked to the code's partner, the bonus granted.
        let (api, user) = referred_player(app, "link@example.com", None).await;
        let r = ok(api.post(set, json!({ "betting": "partnerx", "ref_id": demo_partner.to_string() })).await);
        assert_eq!((r["linked"].as_bool(), r["replayed"].as_bool(), r["partnerId"].as_i64(), r["kind"].as_str()), (Some(true), Some(false), Some(demo_partner), Some("bonus")));
        assert_eq!(app.scalar(&format!("SELECT CAST(ref_id AS BIGINT) FROM users WHERE id = {user}")).await, demo_partner);
        // A retry answers the same, nothing granted twice.
        let again = ok(api.post(set, json!({ "betting": "PARTNERX", "ref_id": demo_partner.to_string() })).await);
        assert_eq!((again["replayed"].as_bool(), again["linked"].as_bool(), again["bonusId"].as_str()), (Some(true), Some(false), r["bonusId"].as_str()));
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 50_000);
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {user}")).await, 1);
        // Two at once (a double tap): both succeed, one grant, one link.
        let (twice, twice_id) = referred_player(app, "twice@example.com", None).await;
        let body = json!({ "betting": "PARTNERX", "ref_id": demo_partner.to_string() });
        let (a, b) = tokio::join!(twice.post(set, body.clone()), twice.post(set, body));
        let (a, b) = (ok(a), ok(b));
        assert_eq!(a["bonusId"], b["bonusId"]);
        assert_eq!((a["replayed"].as_bool().unwrap() as u8) + (b["replayed"].as_bool().unwrap() as u8), 1, "{a} {b}");
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {twice_id}")).await, 1);
        assert_eq!(app.minor_balance(twice_id, BalanceKind::Bonus).await, 50_000);

        // The partner with its own code: 2204.
        let p = app.client();
        ok(p.post("/api/user/login/email", json!({ "email": "partner@carthage.local", "password": "Partner123" })).await);
        fail(p.post(set, json!({ "betting": "PARTNERX" })).await, 200, 2204);
        // Another partner's code: 2203; a code of no partner: not a partner's business (24).
        let other_code = ok(admin_api.post("/api/admin/promotions/codes", json!({ "code": "OTHERP", "kind": "bonus", "template": "welcome-50", "partnerId": other_partner })).await);
        fail(p.post(set, json!({ "betting": other_code["code"] })).await, 200, 2203);
        fail(p.post(set, json!({ "betting": "WELCOME" })).await, 403, 24);
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {demo_partner}")).await, 0);
        // A player referred by another partner at sign-up: 2203, nothing changes.
        let (taken, taken_id) = referred_player(app, "taken@example.com", Some(other_partner)).await;
        fail(taken.post(set, json!({ "betting": "PARTNERX", "ref_id": demo_partner.to_string() })).await, 200, 2203);
        assert_eq!(app.scalar(&format!("SELECT CAST(ref_id AS BIGINT) FROM users WHERE id = {taken_id}")).await, other_partner);
        assert_eq!(app.count(&format!("bonuses WHERE user_id = {taken_id}")).await, 0);
        // A link naming another partner than the code's owner: 2203.
        let (fresh, fresh_id) = referred_player(app, "fresh@example.com", None).await;
        fail(fresh.post(set, json!({ "betting": "PARTNERX", "ref_id": other_partner.to_string() })).await, 200, 2203);
        // A referral code while new: linked (sign-up's own step), no bonus.
        let rr = ok(fresh.post(set, json!({ "betting": "REFX" })).await);
        assert_eq!((rr["linked"].as_bool(), rr["partnerId"].as_i64(), rr["bonusId"].is_null()), (Some(true), Some(demo_partner), true));
        assert_eq!(app.scalar(&format!("SELECT CAST(ref_id AS BIGINT) FROM users WHERE id = {fresh_id}")).await, demo_partner);

        // No longer new (registered two days ago): 2214 for a referral code, 2212 for another.
        let (old, old_id) = referred_player(app, "old@example.com", None).await;
        app.sql(&format!("UPDATE users SET created_at = created_at - 172800000 WHERE id = {old_id}")).await;
        fail(old.post(set, json!({ "betting": "REFX" })).await, 200, 2214);
        fail(old.post(set, json!({ "betting": "PARTNERX" })).await, 200, 2212);
        // New but with a deposit: not new either.
        let (dep, dep_id) = referred_player(app, "deposited@example.com", None).await;
        let deposit = wallet::PostingRequest::transfer(
            wallet::TxType::PaymentService,
            format!("test-deposit:{dep_id}"),
            Some(dep_id),
            kernel::Currency::Tnd,
            wallet::AccountRef::House(wallet::HouseAccount::Payments),
            wallet::AccountRef::Player { user_id: dep_id, kind: BalanceKind::Real },
            10_000,
        );
        app.state.ledger.post(deposit).await.unwrap();
        fail(dep.post(set, json!({ "betting": "PARTNERX" })).await, 200, 2212);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM users WHERE id IN ({old_id}, {dep_id}) AND ref_id IS NOT NULL AND ref_id <> ''")).await, 0);

        // A code without owner (WELCOME) with a partner's ref_id: linked to that partner.
        let (w, w_id) = referred_player(app, "welcome-link@example.com", None).await;
        let wr = ok(w.post(set, json!({ "betting": "WELCOME", "ref_id": other_partner.to_string() })).await);
        assert_eq!((wr["linked"].as_bool(), wr["partnerId"].as_i64()), (Some(true), Some(other_partner)));
        assert_eq!(app.minor_balance(w_id, BalanceKind::Bonus).await, 50_000);
        // A ref_id naming no partner is ignored.
        let (n, _) = referred_player(app, "no-partner@example.com", None).await;
        let nr = ok(n.post(set, json!({ "betting": "FREEBET", "ref_id": user.to_string() })).await);
        assert_eq!((nr["linked"].as_bool(), nr["partnerId"].is_null(), nr["freeBets"].as_i64()), (Some(false), true, Some(1)));

        // Refusals of the code itself, the role, the body.
        fail(n.post(set, json!({ "betting": "NOSUCHCODE" })).await, 200, 2200);
        fail(app.client().post(set, json!({ "betting": "PARTNERX" })).await, 401, 23);
        // The admin signed in the player app's way (the console's session is not a player's).
        let admin_in_app = app.client();
        ok(admin_in_app.login("admin@carthage.local", "Admin1234").await);
        fail(admin_in_app.post(set, json!({ "betting": "PARTNERX" })).await, 403, 24);
        fail(n.post(set, json!({ "betting": "" })).await, 400, 40);
        fail(n.post(set, json!({ "betting": "X".repeat(65) })).await, 400, 40);
        fail(n.post(set, json!({ "betting": "PARTNERX", "ref_id": 5 })).await, 400, 40);
        app.assert_ledger_consistent().await;
    })
    .await;
}
