//! Promotions through the API (issue 19): the demo codes, a code typed at sign-up, wagering
//! from studio spins, the maximum bet refused before the debit, give up, free bets.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use std::time::Duration;
use wallet::BalanceKind;

async fn spin(app: &TestApp, token: &str, bet: i64) -> (u16, Value) {
    let c = app.bare_client();
    c.exec(
        c.req(Method::POST, "/api/studio/slots/spin")
            .header("x-game-session", token)
            .json(&json!({ "bet": bet })),
    )
    .await
    .pair()
}

#[tokio::test]
async fn a_code_at_sign_up_opens_a_bonus_wagered_by_spins_within_its_maximum_bet() {
    each_backend(async |app| {
        // The sign-up form checks the code before an account exists.
        let guest = app.client();
        let c = ok(guest.post("/api/payment/promocode/check_promocode", json!({ "code": " welcome " })).await);
        assert_eq!((c["success"].as_bool(), c["state"].as_i64(), c["kind"].as_str()), (Some(true), Some(2), Some("bonus")));
        fail(guest.post("/api/payment/promocode/check_promocode", json!({ "code": "NOSUCHCODE" })).await, 200, 2200);
        fail(guest.post("/api/payment/promocode/check_promocode", json!({ "code": 5 })).await, 400, 40);

        let api = app.client();
        let email = "bonus@example.com";
        ok(api.post("/api/user/signup", json!({ "email": email, "password": PASSWORD, "name": "", "promocode": "WELCOME" })).await);
        let code = app.last_verify_code(email).await;
        ok(api.get(&format!("/api/user/email/verify/{code}")).await);
        let s = ok(api.post("/api/user/login/email", json!({ "email": email, "password": PASSWORD })).await);
        let user = s["user"]["id"].as_i64().unwrap();
        let list = ok(api.get("/api/user/bonuses").await);
        let b = &list[0];
        assert_eq!((b["status"].as_str(), b["product"].as_str()), (Some("active"), Some("casino")));
        assert_eq!((b["amount"].as_f64(), b["required"].as_f64(), b["maxBet"].as_f64()), (Some(50.0), Some(500.0), Some(5.0)));
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 50_000);
        let bal = ok(api.get("/api/user/balance").await);
        assert_eq!(bal["bonusBalance"].as_f64(), Some(50.0));
        // Activating it again: 2202.
        fail(api.post("/api/payment/promocode/activation", json!({ "code": "WELCOME" })).await, 200, 2202);

        app.credit(user, BalanceKind::Real, 100_000).await;
        let launch = ok(api.post("/api/casino/session", json!({"provider": "studio", "gameId": "desert-gold", "lang": "en", "platform": "mobile"})).await);
        let token = launch["sessionToken"].as_str().unwrap().to_string();
        // Above the maximum bet: refused before the debit, nothing moves.
        let big = fail(spin(app, &token, 10_000).await, 200, 130);
        assert_eq!(big["maxBet"].as_f64(), Some(5.0), "{big}");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 100_000);
        // Within it: the stake counts in full (slots).
        let r = ok(spin(app, &token, 1_000).await);
        let list = ok(api.get("/api/user/bonuses").await);
        assert_eq!(list[0]["wagered"].as_f64(), Some(1.0));
        assert_eq!(list[0]["remaining"].as_f64(), Some(499.0));
        // Give up: the bonus goes, real money stays exactly as it is.
        let real = app.minor_balance(user, BalanceKind::Real).await;
        assert_eq!(real, 100_000 - 1_000 + r["win"].as_i64().unwrap());
        let id = list[0]["id"].as_str().unwrap().to_string();
        fail(app.client().post(&format!("/api/user/bonuses/{id}/give-up"), json!({})).await, 401, 23);
        let after = ok(api.post(&format!("/api/user/bonuses/{id}/give-up"), json!({})).await);
        assert_eq!(after[0]["status"].as_str(), Some("given_up"));
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 0);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, real);
        fail(api.post(&format!("/api/user/bonuses/{id}/give-up"), json!({})).await, 200, 131);
        fail(api.post("/api/user/bonuses/x/give-up", json!({})).await, 200, 131);
        // Without a bonus the big stake goes.
        ok(spin(app, &token, 10_000).await);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn the_freebet_code_gives_one_free_bet_the_player_activates() {
    each_backend(async |app| {
        let (api, user, _) = app.player("freebet@example.com").await;
        fail(
            api.post("/api/user/activate-free-bets", json!({})).await,
            200,
            506,
        );
        let a = ok(api
            .post(
                "/api/payment/promocode/activation",
                json!({ "code": "freebet" }),
            )
            .await);
        assert_eq!(
            (a["kind"].as_str(), a["freeBets"].as_i64()),
            (Some("free_bets"), Some(1))
        );
        let fb = ok(api.get("/api/user/free-bets").await);
        assert_eq!(
            (
                fb[0]["status"].as_str(),
                fb[0]["amount"].as_f64(),
                fb[0]["minOdds"].as_f64()
            ),
            (Some("inactive"), Some(10.0), Some(2.2))
        );
        assert_eq!(app.minor_balance(user, BalanceKind::FreeBet).await, 0);
        let act = ok(api.post("/api/user/activate-free-bets", json!({})).await);
        assert_eq!(act["activated"].as_i64(), Some(1));
        assert_eq!(app.minor_balance(user, BalanceKind::FreeBet).await, 10_000);
        fail(
            api.post("/api/user/activate-free-bets", json!({})).await,
            200,
            506,
        );
        let stats = ok(api.get("/api/user/actualFreeBetStats").await);
        assert_eq!(
            (
                stats["bets_total_now"].as_f64(),
                stats["possible_free_bets"].as_i64()
            ),
            (Some(0.0), Some(0))
        );
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn a_withdrawal_waits_for_open_bonus_wagering_or_its_give_up() {
    each_backend(async |app| {
        let (api, user, _) = app.player("withdraw-bonus@example.com").await;
        // Real money that needs no deposit turnover (credited, not deposited).
        app.credit(user, BalanceKind::Real, 100_000).await;
        let token = |api: &Api| {
            let api = api.clone();
            async move { ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string() }
        };
        let withdraw = |t: String| json!({"amount": 20, "phone_number": "+216 50 123 456", "sessionToken": t});
        ok(api.post("/api/payment/promocode/activation", json!({ "code": "WELCOME" })).await);
        // 500 to wager on the bonus: 6252 with that amount, in the player's currency units.
        let left = fail(api.post("/api/payment/withdrawal", withdraw(token(&api).await)).await, 200, 6252);
        assert_eq!(left.as_f64(), Some(500.0), "{left}");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 100_000, "nothing held");
        // Given up, the withdrawal goes; the bonus money is gone, the real money is the player's.
        let id = ok(api.get("/api/user/bonuses").await)[0]["id"].as_str().unwrap().to_string();
        ok(api.post(&format!("/api/user/bonuses/{id}/give-up"), json!({})).await);
        ok(api.post("/api/payment/withdrawal", withdraw(token(&api).await)).await);
        assert_eq!(app.minor_balance(user, BalanceKind::Bonus).await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn a_forced_jackpot_drop_is_won_by_the_next_spin_shown_once_and_verifiable() {
    each_backend(async |app| {
        let pools = ok(app.client().get("/api/jackpots").await);
        assert_eq!(pools.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect::<Vec<_>>(), ["Mega", "Medium", "Small"]);
        assert_eq!(pools[2]["seedHash"].as_str().unwrap().len(), 64);
        let (api, user, _) = app.player("jackpot@example.com").await;
        app.credit(user, BalanceKind::Real, 100_000).await;
        // Only an admin forces a drop.
        fail(api.post("/api/admin/jackpots/small/force-drop", json!({})).await, 403, 24);
        let admin = app.console("admin@carthage.local", "Admin1234").await;
        fail(admin.post("/api/admin/jackpots/nope/force-drop", json!({})).await, 404, 43);
        let added = ok(admin.post("/api/admin/jackpots/small/force-drop", json!({})).await);
        assert!(added["added"].as_f64().unwrap() > 0.0);
        let launch = ok(api.post("/api/casino/session", json!({"provider": "studio", "gameId": "desert-gold", "lang": "en", "platform": "mobile"})).await);
        let token = launch["sessionToken"].as_str().unwrap().to_string();
        ok(spin(app, &token, 1_000).await);
        // The folder runs every 300 ms.
        let mut data = Value::Null;
        for _ in 0..50 {
            data = ok(api.get("/api/user/jackpot_data").await);
            if !data["wonJackpots"].as_array().unwrap().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let won = &data["wonJackpots"][0];
        assert_eq!(won["pool"].as_str(), Some("small"), "{data}");
        let id = won["id"].as_str().unwrap().to_string();
        // The drop point is recomputed from the revealed seed.
        let drop = promotions::service::verify_drop(won["serverSeed"].as_str().unwrap(), won["seedHash"].as_str().unwrap(), "small", 1, 100_000, 1_000_000).unwrap();
        assert_eq!((won["dropPoint"].as_f64().unwrap() * 1000.0).round() as i64, drop);
        // Someone else cannot mark it; the winner does, once.
        let (other, _, _) = app.player("other-jackpot@example.com").await;
        fail(other.post("/api/user/jackpot_is_shown", json!({ "JackpotId": id })).await, 404, 43);
        let after = ok(api.post("/api/user/jackpot_is_shown", json!({ "JackpotId": id })).await);
        assert!(after["wonJackpots"].as_array().unwrap().is_empty());
        fail(api.post("/api/user/jackpot_is_shown", json!({ "JackpotId": "x" })).await, 200, 47);
        // The public history: name lower-case, time as HH:mm DD.MM.YYYY, the winner masked.
        let list = ok(api.get("/api/user/jackpot_list?date_from=01-01-2020&limit=8&offset=0").await);
        assert_eq!(list["total"].as_i64(), Some(1));
        let item = &list["items"][0];
        assert_eq!(item["name"].as_str(), Some("small"));
        assert!(item["userId"].as_str().unwrap().starts_with("***"));
        assert_eq!(item["updatedAt"].as_str().unwrap().len(), "HH:mm DD.MM.YYYY".len());
        fail(api.get("/api/user/jackpot_list?date_from=someday").await, 200, 47);
        app.assert_ledger_consistent().await;
    })
    .await;
}
