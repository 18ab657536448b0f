//! The profile's slots bet history (`POST /api/user/getSlotsBetHistory`, spec §7): studio
//! spins and a third-party provider's bets, wins and rollbacks as rounds with their amounts
//! and statuses; filters, paging, dates; another player's rounds never shown.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use wallet::BalanceKind;

const HISTORY: &str = "/api/user/getSlotsBetHistory";
const SECRET: &str = "demo-secret";

/// A signed call of the demo provider's wallet.
async fn wallet_call(app: &TestApp, op: &str, body: &Value) -> Value {
    let raw = serde_json::to_vec(body).unwrap();
    let ts = (now_ms() / 1000).to_string();
    let sig = casino::signature::sign(SECRET, &ts, &raw);
    let c = app.bare_client();
    let b = c
        .req(Method::POST, &format!("/api/wallet/v1/{op}"))
        .header("content-type", "application/json")
        .header("x-provider", "demo")
        .header("x-timestamp", ts)
        .header("x-signature", sig)
        .body(raw);
    ok(c.exec(b).await.pair())
}

fn money(token: &str, tx: &str, round: &str, amount: i64) -> Value {
    json!({"sessionToken": token, "transactionId": tx, "roundId": round, "gameId": "demo-table", "amount": amount, "currency": "TND"})
}

fn rollback(token: &str, tx: &str, reference: &str, round: &str) -> Value {
    json!({"sessionToken": token, "transactionId": tx, "referenceTransactionId": reference, "roundId": round, "gameId": "demo-table"})
}

async fn launch(api: &Api, provider: &str, game: &str) -> String {
    let launch = ok(api.post("/api/casino/session", json!({"provider": provider, "gameId": game, "lang": "en", "platform": "mobile"})).await);
    launch["sessionToken"].as_str().unwrap().to_string()
}

async fn spin(app: &TestApp, token: &str, bet: i64) -> Value {
    let c = app.bare_client();
    ok(c.exec(c.req(Method::POST, "/api/studio/slots/spin").header("x-game-session", token).json(&json!({"bet": bet}))).await.pair())
}

async fn history(api: &Api, body: Value) -> Value {
    ok(api.post(HISTORY, body).await)
}

fn round<'a>(list: &'a Value, provider: &str, id: &str) -> &'a Value {
    list["items"].as_array().unwrap().iter().find(|r| r["provider"] == provider && r["roundId"] == id).unwrap_or_else(|| panic!("no round {provider}/{id} in {list}"))
}

fn ids(list: &Value) -> Vec<String> {
    list["items"].as_array().unwrap().iter().map(|r| format!("{}/{}", r["provider"].as_str().unwrap(), r["roundId"].as_str().unwrap())).collect()
}

/// `text` as exact thousandths (test code never holds money in a float).
fn minor(v: &Value) -> i64 {
    let s = v.to_string();
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let neg = int.starts_with('-');
    let int: i64 = int.trim_start_matches('-').parse().unwrap();
    let frac: i64 = format!("{frac:0<3}")[..3].parse().unwrap();
    let m = int * 1000 + frac;
    if neg { -m } else { m }
}

#[tokio::test]
async fn slots_history_shows_studio_and_provider_rounds_with_their_amounts() {
    each_backend(async |app| {
        let (api, user, _) = app.player("slots-h1@example.com").await;
        app.credit(user, BalanceKind::Real, 200_000).await;
        let slot = launch(&api, "studio", "desert-gold").await;
        let mut spins = Vec::new();
        for _ in 0..6 {
            spins.push(spin(app, &slot, 1000).await);
        }
        // A losing spin to mark as still being played (an interrupted round).
        let mut lost = spins.iter().find(|s| s["win"] == 0).cloned();
        for _ in 0..60 {
            if lost.is_some() {
                break;
            }
            let s = spin(app, &slot, 1000).await;
            if s["win"] == 0 {
                lost = Some(s.clone());
            }
            spins.push(s);
        }
        let lost = lost.expect("a losing spin in 66");

        let demo = launch(&api, "demo", "demo-table").await;
        // r-won: 2.5 staked, 6 won. r-refund: the stake rolled back. r-lost: no win.
        // r-cancelled: its win rolled back (lost). r-multi: two stakes, one win.
        wallet_call(app, "bet", &money(&demo, "b-won", "r-won", 2_500)).await;
        wallet_call(app, "win", &money(&demo, "w-won", "r-won", 6_000)).await;
        wallet_call(app, "bet", &money(&demo, "b-refund", "r-refund", 1_000)).await;
        wallet_call(app, "rollback", &rollback(&demo, "rb-refund", "b-refund", "r-refund")).await;
        wallet_call(app, "bet", &money(&demo, "b-lost", "r-lost", 500)).await;
        wallet_call(app, "bet", &money(&demo, "b-cancel", "r-cancelled", 1_000)).await;
        wallet_call(app, "win", &money(&demo, "w-cancel", "r-cancelled", 3_000)).await;
        wallet_call(app, "rollback", &rollback(&demo, "rb-cancel", "w-cancel", "r-cancelled")).await;
        wallet_call(app, "bet", &money(&demo, "b-m1", "r-multi", 700)).await;
        wallet_call(app, "bet", &money(&demo, "b-m2", "r-multi", 300)).await;
        wallet_call(app, "win", &money(&demo, "w-m", "r-multi", 1_500)).await;

        // Another player's rounds, on the same provider and game.
        let (other, other_id, _) = app.player("slots-h2@example.com").await;
        app.credit(other_id, BalanceKind::Real, 50_000).await;
        let other_demo = launch(&other, "demo", "demo-table").await;
        wallet_call(app, "bet", &money(&other_demo, "o-b", "o-r", 4_000)).await;
        let other_slot = launch(&other, "studio", "desert-gold").await;
        spin(app, &other_slot, 1000).await;

        let all = history(&api, json!({"count": 100})).await;
        let n = spins.len() as i64;
        assert_eq!(all["total"].as_i64(), Some(n + 5), "{all}");
        assert_eq!(all["pages"], 1);
        assert!(ids(&all).iter().all(|id| !id.starts_with("demo/o-")), "another player's round: {all}");
        // Newest first: the last provider round, the first spin last.
        assert_eq!(all["items"][0]["roundId"], "r-multi");
        assert_eq!(all["items"][(n + 4) as usize]["roundId"], spins[0]["roundId"].as_i64().unwrap().to_string());

        let r = round(&all, "demo", "r-won");
        assert_eq!((minor(&r["stake"]), minor(&r["win"]), minor(&r["refunded"]), minor(&r["net"])), (2_500, 6_000, 0, 3_500));
        assert_eq!((r["status"].as_str(), r["currency"].as_str(), r["gameId"].as_str()), (Some("won"), Some("TND"), Some("demo-table")));
        assert_eq!(r["verifiable"], false);
        let r = round(&all, "demo", "r-refund");
        assert_eq!((minor(&r["stake"]), minor(&r["refunded"]), minor(&r["net"]), r["status"].as_str()), (1_000, 1_000, 0, Some("refunded")));
        let r = round(&all, "demo", "r-lost");
        assert_eq!((minor(&r["stake"]), minor(&r["win"]), minor(&r["net"]), r["status"].as_str()), (500, 0, -500, Some("lost")));
        let r = round(&all, "demo", "r-cancelled");
        assert_eq!((minor(&r["win"]), minor(&r["net"]), r["status"].as_str()), (0, -1_000, Some("lost")));
        let r = round(&all, "demo", "r-multi");
        assert_eq!((minor(&r["stake"]), minor(&r["win"]), minor(&r["net"]), r["status"].as_str()), (1_000, 1_500, 500, Some("won")));

        // Every spin, with its stake and win; the studio's rounds are verifiable and named.
        for s in &spins {
            let r = round(&all, "studio", &s["roundId"].as_i64().unwrap().to_string());
            let win = s["win"].as_i64().unwrap();
            assert_eq!((minor(&r["stake"]), minor(&r["win"]), minor(&r["net"])), (1000, win, win - 1000));
            assert_eq!(r["status"], if win > 0 { "won" } else { "lost" });
            assert_eq!((r["verifiable"].as_bool(), r["gameId"].as_str()), (Some(true), Some("desert-gold")));
            assert_ne!(r["gameName"], "desert-gold", "the catalogue's name: {r}");
        }
        // The history's net equals what the balance did.
        let net: i64 = all["items"].as_array().unwrap().iter().map(|r| minor(&r["net"])).sum();
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 200_000 + net);

        // A round the studio is still settling is open.
        let lost_id = lost["roundId"].as_i64().unwrap();
        app.sql(&format!("UPDATE studio_rounds SET status = 'open' WHERE id = {lost_id}")).await;
        let open = history(&api, json!({"statuses": ["OPEN"]})).await;
        assert_eq!(ids(&open), vec![format!("studio/{lost_id}")]);

        // Filters: providers in any case, 'all' ignored, an unknown provider matches nothing.
        let demo_only = history(&api, json!({"providers": ["DEMO"]})).await;
        assert_eq!(demo_only["total"], 5);
        assert!(ids(&demo_only).iter().all(|id| id.starts_with("demo/")));
        assert_eq!(history(&api, json!({"providers": ["all"]})).await["total"].as_i64(), Some(n + 5));
        assert_eq!(history(&api, json!({"providers": ["all", "studio"]})).await["total"].as_i64(), Some(n));
        let none = history(&api, json!({"providers": ["pragmatic", "PRAGMATIC-NEW"]})).await;
        assert_eq!((none["total"].as_i64(), none["items"].as_array().map(Vec::len)), (Some(0), Some(0)));
        let refunded = history(&api, json!({"statuses": ["refunded"], "providers": ["demo"]})).await;
        assert_eq!(ids(&refunded), vec!["demo/r-refund"]);
        let won_lost = history(&api, json!({"statuses": ["won", "Lost"], "providers": ["demo"]})).await;
        assert_eq!(won_lost["total"], 4);
        assert_eq!(history(&api, json!({"statuses": ["all"], "providers": ["demo"]})).await["total"], 5);

        // Paging from 0: disjoint pages in order, the total on each.
        let p0 = history(&api, json!({"providers": ["demo"], "count": 2, "page": 0})).await;
        let p1 = history(&api, json!({"providers": ["demo"], "count": 2, "page": 1})).await;
        let p2 = history(&api, json!({"providers": ["demo"], "count": 2, "page": 2})).await;
        let p3 = history(&api, json!({"providers": ["demo"], "count": 2, "page": 3})).await;
        assert_eq!((p0["total"].as_i64(), p0["pages"].as_i64()), (Some(5), Some(3)));
        let paged: Vec<String> = [ids(&p0), ids(&p1), ids(&p2)].concat();
        assert_eq!(paged, ids(&demo_only));
        assert_eq!(ids(&p3), Vec::<String>::new());

        // Dates: today has them all, tomorrow none; unreadable or reversed dates are 46.
        let today = kernel::clock::to_rfc3339(now_ms())[..10].to_string();
        let tomorrow = kernel::clock::to_rfc3339(now_ms() + 86_400_000)[..10].to_string();
        let yesterday = kernel::clock::to_rfc3339(now_ms() - 86_400_000)[..10].to_string();
        assert_eq!(history(&api, json!({"from": today, "to": today})).await["total"].as_i64(), Some(n + 5));
        assert_eq!(history(&api, json!({"from": tomorrow, "to": tomorrow})).await["total"], 0);
        assert_eq!(history(&api, json!({"from": yesterday, "to": yesterday})).await["total"], 0);
        fail(api.post(HISTORY, json!({"from": "someday"})).await, 200, 46);
        fail(api.post(HISTORY, json!({"from": tomorrow, "to": yesterday})).await, 200, 46);
        // Bad paging and statuses; the shape of the body.
        fail(api.post(HISTORY, json!({"count": 0})).await, 400, 40);
        fail(api.post(HISTORY, json!({"count": 101})).await, 400, 40);
        fail(api.post(HISTORY, json!({"page": -1})).await, 400, 40);
        fail(api.post(HISTORY, json!({"statuses": ["pending"]})).await, 200, 47);
        fail(api.post(HISTORY, json!({"providers": "demo"})).await, 400, 40);
        fail(app.client().post(HISTORY, json!({})).await, 401, 23);

        // The other player sees only their own two rounds.
        let theirs = history(&other, json!({})).await;
        assert_eq!(theirs["total"], 2);
        assert_eq!(minor(&round(&theirs, "demo", "o-r")["stake"]), 4_000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A win just after midnight belongs to the round its stake opened the day before.
#[tokio::test]
async fn slots_history_places_a_round_at_its_stake() {
    each_backend(async |app| {
        let (api, user, _) = app.player("slots-h3@example.com").await;
        app.credit(user, BalanceKind::Real, 20_000).await;
        let demo = launch(&api, "demo", "demo-table").await;
        wallet_call(app, "bet", &money(&demo, "b-old", "r-old", 1_000)).await;
        wallet_call(app, "win", &money(&demo, "w-old", "r-old", 2_000)).await;
        // The stake ten minutes before today's midnight (UTC), the win ten minutes after.
        let day = 86_400_000;
        let midnight = now_ms() / day * day;
        for (key, at) in [("b-old", midnight - 600_000), ("w-old", midnight + 600_000)] {
            app.sql(&format!(
                "UPDATE ledger_entries SET created_at = {at} WHERE tx_id = (SELECT id FROM ledger_transactions WHERE idempotency_key = 'prov:demo:{key}')"
            ))
            .await;
        }
        app.rollups_follow_history().await;
        let today = kernel::clock::to_rfc3339(midnight)[..10].to_string();
        let yesterday = kernel::clock::to_rfc3339(midnight - day)[..10].to_string();
        assert_eq!(history(&api, json!({"from": today, "to": today})).await["total"], 0, "the win alone is not a round of today");
        let y = history(&api, json!({"from": yesterday, "to": yesterday})).await;
        let r = round(&y, "demo", "r-old");
        assert_eq!((minor(&r["stake"]), minor(&r["win"]), r["status"].as_str()), (1_000, 2_000, Some("won")));
        assert_eq!(history(&api, json!({"from": yesterday, "to": today})).await["total"], 1);
    })
    .await;
}
