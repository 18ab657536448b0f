//! The catalogue for the player app: providers, game lists (spec §4 rules), search,
//! favourites, the blocklist and launching a game.

use crate::common::*;
use serde_json::{json, Value};

fn ids(games: &Value) -> Vec<String> {
    games.as_array().unwrap().iter().map(|g| g["gameId"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn providers_and_game_lists() {
    each_backend(async |app| {
        let guest = app.bare_client();
        let providers = ok(guest.get("/api/casino/providers?casinoType=slots").await);
        let studio = providers.as_array().unwrap().iter().find(|p| p["name"] == "studio").expect("studio listed").clone();
        assert_eq!(studio["displayName"], "Carthage Studio");
        assert_eq!(studio["gameCount"], 6);
        // The demo provider is for the wallet protocol, not the lobby.
        assert!(providers.as_array().unwrap().iter().all(|p| p["name"] != "demo"));
        // The live provider (Evolution's demo) is listed, every table behind an account (spec §6).
        let live = ok(guest.get("/api/casino/providers?casinoType=casinolive").await);
        assert!(live.as_array().unwrap().iter().all(|p| p["authRequired"] == true && p["gameCount"] == 0), "{live}");
        assert!(live.as_array().unwrap().iter().any(|p| p["name"] == "evolution"), "{live}");

        let games = ok(guest.get("/api/casino/game_list?provider=studio").await);
        let list = ids(&games);
        for id in ["neon-fruits", "desert-gold", "atlantis-pearls", "crash", "roulette", "dice"] {
            assert!(list.contains(&id.to_string()), "{id} missing from {list:?}");
        }
        // Featured first: crash leads.
        assert_eq!(list[0], "crash");
        let crash = &games[0];
        assert!(crash["tab"].as_array().unwrap().contains(&json!("crashGames")));
        // RTPs are exact decimals in the JSON text (two places), never floats.
        let raw = guest.send(reqwest::Method::GET, "/api/casino/game_list?provider=studio", None).await.text;
        assert!(raw.contains("\"rtp\":99.00,"), "{raw}");
        assert!(raw.contains("\"rtp\":97.30,"), "{raw}");
        let roulette = games.as_array().unwrap().iter().find(|g| g["gameId"] == "roulette").unwrap();
        assert!(roulette["tab"].as_array().unwrap().contains(&json!("roulette")));
        let slot = games.as_array().unwrap().iter().find(|g| g["gameId"] == "desert-gold").unwrap();
        assert!(slot["tab"].as_array().unwrap().contains(&json!("slotMachines")));
        assert_eq!(slot["imageUrl"], "/games/studio/desert-gold.svg");
        assert_eq!(slot["routeProvider"], "studio");
        let rtp: f64 = slot["rtp"].as_f64().unwrap();
        assert!((95.0..=97.0).contains(&rtp), "{rtp}");

        // Spec §4: unknown provider → 60; auth-required provider → empty for guests.
        fail(guest.get("/api/casino/game_list?provider=nobody").await, 200, 60);
        assert_eq!(ok(guest.get("/api/casino/game_list?provider=demo").await), json!([]));
        fail(guest.get("/api/casino/game_list").await, 400, 40);
        let (player, _, _) = app.player("lobby1@example.com").await;
        assert_eq!(ids(&ok(player.get("/api/casino/game_list?provider=demo").await)), vec!["demo-table"]);
        // A role other than player gets nothing.
        let partner = app.client();
        ok(partner.login_email("partner@carthage.local", "Partner123").await);
        assert_eq!(ok(partner.check().await)["role"], 1);
        assert_eq!(ok(partner.get("/api/casino/game_list?provider=studio").await), json!([]));

        // Search by name, case-insensitive.
        assert_eq!(ids(&ok(guest.get("/api/casino/search?q=DESERT").await)), vec!["desert-gold"]);
        assert_eq!(ok(guest.get("/api/casino/search?q=zzz").await), json!([]));
        assert_eq!(ok(guest.get("/api/casino/search?q=%25").await), json!([]));
    })
    .await;
}

#[tokio::test]
async fn blocklist_hides_providers_everywhere() {
    each_backend(async |app| {
        let (player, user, _) = app.player("block1@example.com").await;
        assert_eq!(ok(player.get("/api/user/blocklist").await), json!([]));
        assert_eq!(ok(app.bare_client().get("/api/user/blocklist").await), json!([]));
        let game = ok(player.get("/api/casino/game_list?provider=studio").await)[0].clone();
        ok(player.post("/api/favorite_slots/add", json!({"slot": game["id"]})).await);

        app.state.casino.catalogue().set_blocked(user, "Studio", true).await.unwrap();
        assert_eq!(ok(player.get("/api/user/blocklist").await), json!(["studio"]));
        assert!(ok(player.get("/api/casino/providers").await).as_array().unwrap().iter().all(|p| p["name"] != "studio"));
        assert_eq!(ok(player.get("/api/casino/game_list?provider=studio").await), json!([]));
        assert_eq!(ok(player.get("/api/casino/search?q=dice").await), json!([]));
        assert_eq!(ok(player.get("/api/favorite_slots/get_list").await), json!([]));
        fail(player.post("/api/casino/session", json!({"provider": "studio", "gameId": "dice", "lang": "en", "platform": "mobile"})).await, 200, 71);
        // Others still see it.
        assert!(!ok(app.bare_client().get("/api/casino/game_list?provider=studio").await).as_array().unwrap().is_empty());

        app.state.casino.catalogue().set_blocked(user, "studio", false).await.unwrap();
        assert_eq!(ok(player.get("/api/user/blocklist").await), json!([]));
        assert_eq!(ok(player.get("/api/favorite_slots/get_list").await).as_array().unwrap().len(), 1);
    })
    .await;
}

#[tokio::test]
async fn favourites_add_remove_list() {
    each_backend(async |app| {
        let (player, _, _) = app.player("fav1@example.com").await;
        let games = ok(player.get("/api/casino/game_list?provider=studio").await);
        let (a, b) = (games[1]["id"].clone(), games[2]["id"].clone());
        let added = ok(player.post("/api/favorite_slots/add", json!({"slot": a})).await);
        assert!(added["tab"].as_array().unwrap().contains(&json!("favorite")));
        ok(player.post("/api/favorite_slots/add", json!({"slot": a})).await); // idempotent
        ok(player.post("/api/favorite_slots/add", json!({"slot": b})).await);
        let list = ok(player.get("/api/favorite_slots/get_list").await);
        assert_eq!(list.as_array().unwrap().len(), 2);
        assert!(list.as_array().unwrap().iter().all(|g| g["tab"].as_array().unwrap().contains(&json!("favorite"))));
        assert_eq!(ok(player.post("/api/favorite_slots/remove", json!({"id": a})).await), json!(true));
        ok(player.post("/api/favorite_slots/remove", json!({"id": a})).await); // idempotent
        let list = ok(player.get("/api/favorite_slots/get_list").await);
        assert_eq!(list.as_array().unwrap().iter().map(|g| g["id"].clone()).collect::<Vec<_>>(), vec![b]);
        // Another player's list is their own.
        let (other, _, _) = app.player("fav2@example.com").await;
        assert_eq!(ok(other.get("/api/favorite_slots/get_list").await), json!([]));
        // Guests, unknown games, bad bodies.
        fail(app.bare_client().get("/api/favorite_slots/get_list").await, 401, 23);
        fail(app.bare_client().post("/api/favorite_slots/add", json!({"slot": a})).await, 401, 23);
        fail(player.post("/api/favorite_slots/add", json!({"slot": 42})).await, 200, 62);
        fail(player.post("/api/favorite_slots/add", json!({"slot": "x"})).await, 400, 40);
    })
    .await;
}

#[tokio::test]
async fn launch_rules() {
    each_backend(async |app| {
        let body = |provider: &str, game: &str| json!({"provider": provider, "gameId": game, "lang": "fr-fr", "platform": "mobile"});
        // Guests and non-players: 61 (spec §4 "not allowed to place bets").
        fail(app.bare_client().post("/api/casino/session", body("studio", "dice")).await, 200, 61);
        let partner = app.client();
        ok(partner.login_email("partner@carthage.local", "Partner123").await);
        fail(partner.post("/api/casino/session", body("studio", "dice")).await, 200, 61);

        let (player, user, _) = app.player("launch1@example.com").await;
        fail(player.post("/api/casino/session", body("nobody", "dice")).await, 200, 60);
        fail(player.post("/api/casino/session", body("studio", "no-such-game")).await, 200, 62);
        fail(player.post("/api/casino/session", json!({"provider": "studio"})).await, 400, 40);
        let launch = ok(player.post("/api/casino/session", body("studio", "desert-gold")).await);
        let token = launch["sessionToken"].as_str().unwrap();
        assert_eq!(token.len(), 64);
        assert_eq!(launch["url"], format!("/studio/desert-gold?token={token}&lang=fr"));
        // Only the token's hash is stored.
        assert_eq!(app.count(&format!("game_sessions WHERE user_id = {user} AND token_hash = '{}'", sha256_hex(token))).await, 1);
        assert_eq!(app.count(&format!("game_sessions WHERE token_hash = '{token}'")).await, 0);

    })
    .await;
}

#[tokio::test]
async fn demo_credit_on_sign_up_is_a_ledger_posting() {
    each_backend(async |app| {
        // The test configuration leaves it off; a demo server credits 500 by default.
        let (_, user, _) = app.player("nocredit@example.com").await;
        assert_eq!(app.minor_balance(user, wallet::BalanceKind::Real).await, 0);
    })
    .await;
    each_backend_with(
        |cfg| cfg.accounts.demo_credit_major = Some(250),
        async |app| {
            let (player, user, _) = app.player("credit@example.com").await;
            assert_eq!(app.minor_balance(user, wallet::BalanceKind::Real).await, 250_000);
            assert_eq!(app.count(&format!("ledger_transactions WHERE user_id = {user} AND tx_type = 202")).await, 1);
            assert_eq!(player.balance().await["balance"].as_f64(), Some(250.0));
            app.assert_ledger_consistent().await;
        },
    )
    .await;
}

#[tokio::test]
async fn the_studio_page_is_served_and_framable_by_our_pages_only() {
    // A built app: index.html for the SPA, studio.html for game clients.
    let dir = std::env::temp_dir().join(format!("carthage-web-{}", kernel::ids::next_id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><div id=\"root\"></div>").unwrap();
    std::fs::write(dir.join("studio.html"), "<!doctype html><div id=\"studio\"></div>").unwrap();
    let web = dir.clone();
    each_backend_with(
        move |cfg| cfg.web_dir = Some(web.clone()),
        async |app| {
            let c = app.bare_client();
            for path in ["/studio/desert-gold?token=abc&lang=en", "/studio", "/studio/crash"] {
                let page = c.send(reqwest::Method::GET, path, None).await;
                assert_eq!(page.status, 200, "{path}");
                assert!(page.text.contains("id=\"studio\""), "{path}: {}", page.text);
                assert_eq!(page.header("x-frame-options").as_deref(), Some("SAMEORIGIN"));
                let csp = page.header("content-security-policy").unwrap_or_default();
                assert!(csp.ends_with("frame-ancestors 'self'"), "{path}: {csp}");
            }
            let home = c.send(reqwest::Method::GET, "/slots/studio/desert-gold", None).await;
            assert!(home.text.contains("id=\"root\""));
            assert_eq!(home.header("x-frame-options").as_deref(), Some("DENY"));
            assert!(home.header("content-security-policy").unwrap_or_default().ends_with("frame-ancestors 'none'"));
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(dir);
}
