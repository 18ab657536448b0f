//! The console's players (issue 22; api/players.rs, accounts::staff): search by id, phone,
//! e-mail and name; the card; ban and unban with a reason — audited in the change's
//! transaction, sessions ended at once, a repeat changes and records nothing.

use crate::common::*;
use accounts::Role;
use serde_json::json;

#[tokio::test]
async fn staff_find_a_player_read_the_card_and_an_admin_bans_and_unbans() {
    each_backend(async |app| {
        let (player, id, _) = app.player("ali.bensalah@example.tn").await;
        app.sql(&format!("UPDATE users SET first_name = 'Ali', last_name = 'Ben Salah' WHERE id = {id}")).await;
        let (_, other, _) = app.player("sami@example.tn").await;
        let phone_api = app.client();
        let phone_id = app.signup_phone(&phone_api, "21620555111", PASSWORD).await["user"]["id"].as_i64().unwrap();
        let (support, _) = app.staff(Role::Support, "sup-players@example.tn").await;
        let (admin, admin_id) = app.staff(Role::Admin, "adm-players@example.tn").await;
        let (staff_seen, _) = app.staff(Role::Finance, "ali.finance@example.tn").await;
        drop(staff_seen);

        let ids = |v: serde_json::Value| v.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect::<Vec<_>>();
        let search = |q: &str| format!("/api/admin/players?q={}", urlencode(q));
        assert_eq!(ids(ok(support.get(&search(&id.to_string())).await)), vec![id], "by id");
        assert_eq!(ids(ok(support.get(&search("ALI.BEN")).await)), vec![id], "by the e-mail's beginning, any case");
        assert_eq!(ids(ok(support.get(&search("sami@example.tn")).await)), vec![other], "by e-mail");
        assert_eq!(ids(ok(support.get(&search("ben s")).await)), vec![id], "by the last name's beginning");
        assert_eq!(ids(ok(support.get(&search("ali")).await)), vec![id], "by the first name; staff accounts are not players");
        assert_eq!(ids(ok(support.get(&search("+216 20 555 111")).await)), vec![phone_id], "by phone as typed");
        assert!(ids(ok(support.get(&search("zz%_")).await)).is_empty(), "wildcards are literal");
        fail(support.get(&search("a")).await, 200, 47);

        let card = ok(support.get(&format!("/api/admin/players/{id}")).await);
        assert_eq!((card["player"]["email"].as_str(), card["liveSessions"].as_i64(), card["player"]["isBanned"].as_bool()), (Some("ali.bensalah@example.tn"), Some(1), Some(false)));
        assert!(card["balances"].as_array().is_some());
        fail(support.get(&format!("/api/admin/players/{admin_id}")).await, 200, 3);

        // Support reads only; an admin bans: the session ends at once, the trail has why.
        let ban = format!("/api/admin/players/{id}/ban");
        fail(support.post(&ban, json!({ "reason": "chargeback" })).await, 403, 24);
        fail(admin.post(&ban, json!({ "reason": " " })).await, 200, 47);
        let r = ok(admin.post(&ban, json!({ "reason": "chargeback fraud, ticket 9" })).await);
        assert_eq!((r["isBanned"].as_bool(), r["changed"].as_bool()), (Some(true), Some(true)));
        assert_eq!(app.count(&format!("sessions WHERE user_id = {id} AND revoked_at IS NULL")).await, 0);
        fail(player.get("/api/user/check").await, 401, 23);
        fail(player.login_email("ali.bensalah@example.tn", PASSWORD).await, 403, 5);
        let again = ok(admin.post(&ban, json!({ "reason": "again" })).await);
        assert_eq!(again["changed"].as_bool(), Some(false));
        assert_eq!(app.count(&format!("audit_log WHERE action = 'player.ban' AND subject = 'user:{id}'")).await, 1, "a repeat records nothing");
        assert!(ok(support.get(&search("ali")).await)[0]["isBanned"].as_bool().unwrap());

        ok(admin.post(&format!("/api/admin/players/{id}/unban"), json!({ "reason": "cleared by the bank" })).await);
        ok(player.login_email("ali.bensalah@example.tn", PASSWORD).await);
        let card = ok(admin.get(&format!("/api/admin/players/{id}")).await);
        let trail: Vec<_> = card["audit"].as_array().unwrap().iter().map(|a| (a["action"].as_str().unwrap().to_string(), a["actor"].as_str().unwrap().to_string())).collect();
        assert_eq!(trail, vec![("player.unban".to_string(), format!("admin:{admin_id}")), ("player.ban".to_string(), format!("admin:{admin_id}"))]);
        assert_eq!(card["audit"][1]["details"]["reason"], "chargeback fraud, ticket 9");
        fail(admin.post(&format!("/api/admin/players/{}/ban", other + 1_000_000), json!({ "reason": "x" })).await, 200, 3);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn the_card_shows_devices_payments_transactions_and_notes_support_writes() {
    each_backend(async |app| {
        let (player, id, _) = app.player("card@example.tn").await;
        let (_, other, _) = app.player("card-other@example.tn").await;
        let (support, support_id) = app.staff(Role::Support, "sup-card@example.tn").await;
        let (content, _) = app.staff(Role::Content, "content-card@example.tn").await;
        ok(player.post("/api/payment/promocode/activation", json!({ "code": "WELCOME" })).await);
        app.credit(id, wallet::BalanceKind::Real, 75_500).await;
        // A deposit started through the payment provider (pending).
        let token = ok(player.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
        let intent = ok(player.post("/api/payment/deposit", json!({ "amount": 50, "sessionToken": token })).await);

        // Notes: support writes, content cannot; an empty or oversize note is refused.
        let notes = format!("/api/admin/players/{id}/notes");
        fail(content.post(&notes, json!({ "body": "hello" })).await, 403, 24);
        fail(support.post(&notes, json!({ "body": "  " })).await, 200, 47);
        fail(support.post(&notes, json!({ "body": "x".repeat(2001) })).await, 200, 47);
        fail(support.post(&notes, json!({ "body": "bell\u{7}" })).await, 200, 47);
        fail(support.post(&format!("/api/admin/players/{support_id}/notes"), json!({ "body": "a staff account" })).await, 200, 3);
        let first = ok(support.post(&notes, json!({ "body": "Called about a late withdrawal." })).await);
        ok(support.post(&notes, json!({ "body": "Sent the ID request.\nWaiting." })).await);
        assert_eq!(first["author"], format!("support:{support_id}"));

        let card = ok(support.get(&format!("/api/admin/players/{id}")).await);
        let bodies: Vec<&str> = card["notes"].as_array().unwrap().iter().map(|n| n["body"].as_str().unwrap()).collect();
        assert_eq!(bodies, vec!["Sent the ID request.\nWaiting.", "Called about a late withdrawal."], "newest first");
        assert_eq!(card["audit"][0]["action"], "player.note", "each note is in the trail");
        assert_eq!(app.count(&format!("audit_log WHERE action = 'player.note' AND subject = 'user:{id}'")).await, 2);

        // Devices: the test's address, with the other accounts seen there.
        let devices = card["devices"].as_array().unwrap();
        assert_eq!(devices.len(), 1, "{devices:?}");
        assert_eq!(devices[0]["ip"], "127.0.0.1");
        assert_eq!(devices[0]["sessions"], 1);
        let others = app.scalar(&format!("SELECT COUNT(DISTINCT user_id) FROM sessions WHERE ip = '127.0.0.1' AND user_id <> {id}")).await;
        assert!(others >= 3, "the other player and the staff signed in from there: {others}");
        assert_eq!(devices[0]["otherAccounts"].as_i64(), Some(others));
        let _ = other;

        // Payments and ledger entries, newest first.
        let payments = card["payments"].as_array().unwrap();
        assert_eq!(payments.len(), 1, "{payments:?}");
        assert_eq!(payments[0]["id"], intent["id"]);
        let transactions = card["transactions"].as_array().unwrap();
        assert_eq!(transactions[0]["value"].as_f64(), Some(75.5), "{transactions:?}");
        assert_eq!(transactions[0]["purse"], "real");
        // Bonuses: the code's bonus, with its wagering, as the player sees it.
        assert_eq!(card["bonuses"].as_array().map(Vec::len), Some(1), "{}", card["bonuses"]);
        assert_eq!(card["bonuses"], ok(player.get("/api/user/bonuses").await));
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn an_admin_blocks_a_provider_for_a_player_with_a_reason_and_lifts_it() {
    each_backend(async |app| {
        let (player, id, _) = app.player("blocked-games@example.tn").await;
        let (admin, admin_id) = app.staff(Role::Admin, "adm-blocks@example.tn").await;
        let (support, _) = app.staff(Role::Support, "sup-blocks@example.tn").await;
        let path = format!("/api/admin/players/{id}/provider-blocks");
        let launch = json!({ "provider": "studio", "gameId": "dice", "lang": "en", "platform": "mobile" });
        ok(player.post("/api/casino/session", launch.clone()).await);

        // Refusals change nothing: support (24), no reason, an unknown provider (47), a staff account (3).
        fail(support.post(&path, json!({ "provider": "studio", "blocked": true, "reason": "asked" })).await, 403, 24);
        fail(admin.post(&path, json!({ "provider": "studio", "blocked": true, "reason": "" })).await, 200, 47);
        fail(admin.post(&path, json!({ "provider": "nosuchstudio", "blocked": true, "reason": "asked" })).await, 200, 47);
        fail(admin.post(&format!("/api/admin/players/{admin_id}/provider-blocks"), json!({ "provider": "studio", "blocked": true, "reason": "x" })).await, 200, 3);
        assert_eq!(ok(player.get("/api/user/blocklist").await), json!([]));

        // Blocked (any case; a family name covers its aliases): gone from the lists, no launch.
        let r = ok(admin.post(&path, json!({ "provider": "Studio", "blocked": true, "reason": "asked by the player, ticket 12" })).await);
        assert_eq!((r["changed"].as_bool(), r["providerBlocks"].clone()), (Some(true), json!(["studio"])));
        ok(admin.post(&path, json!({ "provider": "pragmatic", "blocked": true, "reason": "bonus abuse review" })).await);
        let again = ok(admin.post(&path, json!({ "provider": "studio", "blocked": true, "reason": "again" })).await);
        assert_eq!(again["changed"].as_bool(), Some(false), "a repeat changes and records nothing");
        assert_eq!(ok(player.get("/api/user/blocklist").await), json!(["pragmatic", "studio"]));
        fail(player.post("/api/casino/session", launch.clone()).await, 200, 71);
        assert!(ok(player.get("/api/casino/providers").await).as_array().unwrap().iter().all(|p| p["name"] != "studio" && p["name"] != "pragmaticf"));
        let card = ok(support.get(&format!("/api/admin/players/{id}")).await);
        assert_eq!(card["providerBlocks"], json!(["pragmatic", "studio"]));

        // Lifted: the games launch again; the trail has both, with the reasons.
        ok(admin.post(&path, json!({ "provider": "studio", "blocked": false, "reason": "cooling-off over" })).await);
        ok(player.post("/api/casino/session", launch).await);
        let trail = async |action: &str| app.count(&format!("audit_log WHERE action = '{action}' AND subject = 'user:{id}' AND actor = 'admin:{admin_id}'")).await;
        assert_eq!((trail("player.provider_block").await, trail("player.provider_unblock").await), (2, 1));
        let card = ok(admin.get(&format!("/api/admin/players/{id}")).await);
        assert_eq!(card["audit"][0]["details"]["reason"], "cooling-off over");
        assert_eq!(card["providerBlocks"], json!(["pragmatic"]));
        app.assert_ledger_consistent().await;
    })
    .await;
}
