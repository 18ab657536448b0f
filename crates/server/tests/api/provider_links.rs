//! The spec's per-provider list and link endpoints (§3 payloads, §7 parameters, §9 rules)
//! and the catalogue refresh job that fills them: every catalogue here is imported by the
//! job from a running HTTP server — the demo fakes' own lists (`/demo-providers/{p}/games`)
//! and, for the providers known by list and launch only, sample payloads in their formats.

use crate::common::*;
use axum::extract::{Path, State};
use axum::response::IntoResponse;
use axum::routing::get;
use providers::import::{Feed, FeedUrls};
use providers::ProviderSettings;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Sample list payloads, in each provider's format, with what the §9 rules must leave out.
fn samples() -> HashMap<&'static str, Value> {
    HashMap::from([
        ("amatic", json!({ "games": [
            { "gameid": "am-roulette", "name": "Roulette Royale", "iconurl": "am-roulette.svg" },
            { "gameid": "am-card", "name": "Lucky Card", "iconurl": "am-card.svg" },
            { "gameid": "am-lotto", "name": "Lotto Madness" },
            { "gameid": "am-book", "name": "Book of Fortune", "iconurl": "am-book.svg" },
        ]})),
        ("outcome_amatic", json!({ "Games": [{ "Id": "oa-1", "Name": "Hot Fruits 100", "Format": "html5", "SectionId": "amatic" }] })),
        ("outcome", json!({ "Games": [
            { "Id": "o1", "Name": "Book of Aztec", "Description": "Ten lines", "Format": "html5", "SectionId": "amatic" },
            { "Id": "o2", "Name": "Elven Princess", "Description": "", "Format": "html5", "SectionId": "evoplay" },
            { "Id": "o3", "Name": "Sweet Bonanza", "Description": "Tumble", "Format": "html5", "SectionId": "pragmatic" },
        ]})),
        ("fiable", json!({ "game_list": [
            { "id": 11, "name": "Fortune Wheel", "description": "A wheel", "image_name": "11.svg", "url": "https://fiable.example/g/11", "is_active": true },
            { "id": 12, "name": "Retired", "description": "", "image_name": "12.svg", "url": "https://fiable.example/g/12", "is_active": false },
            { "id": 13, "name": "Keno Fiable", "description": "Numbers", "image_name": "13.svg", "url": "https://fiable.example/g/13", "is_active": 1 },
        ]})),
        ("pragmaticf", json!({ "games": [
            { "gameid": "vs20demo", "name": "Desert Pharaoh", "iconurl1": "vs20demo.svg" },
            { "gameid": "vs40f", "name": "Fortune Forty", "iconurl1": "vs40f.svg" },
        ]})),
        ("pgsoft", json!({ "data": [
            { "gameId": 65, "gameName": "Mahjong Ways", "gameCode": "mahjong-ways", "iconurl": "65.svg" },
            { "gameId": 98, "gameName": "Fortune Ox", "iconurl": "98.svg" },
        ], "error": null })),
        ("tvbet", json!({ "games": [{ "id": "7bet", "name": "7Bet" }, { "id": "wheelbet", "name": "WheelBet" }] })),
        ("evolutionlive", json!([
            { "PageCode": "el1", "Trans": { "en": "Speed Baccarat", "fr": "Baccara Rapide" }, "MerchantName": "betsolutions", "ImageURL": "el1.svg", "System": "bs", "GameType": "live" },
            { "PageCode": "el2", "Trans": { "en": "Other Roulette" }, "MerchantName": "Evolution", "ImageURL": "el2.svg", "System": "evo", "GameType": "live" },
        ])),
        ("slotegrator", json!({ "items": [
            { "uuid": "u1", "name": "Book of Sands", "provider": "Amatic", "type": "slots", "image": "u1.svg", "is_mobile": 0 },
            { "uuid": "u1m", "name": "Book of Sands", "provider": "Amatic", "type": "slots", "image": "u1.svg", "is_mobile": 1 },
            { "uuid": "u2", "name": "Instant Keno", "provider": "Lotto Instant Win", "type": "lottery", "is_mobile": 0 },
            { "uuid": "u3", "name": "Virtual Cup", "provider": "Betradar", "type": "virtual", "is_mobile": 0 },
            { "uuid": "u4", "name": "Golden Shot", "provider": "betsolutions", "type": "crash", "is_mobile": 0 },
            { "uuid": "u5", "name": "Crash X", "provider": "Demo", "type": "crash", "image": "u5.svg", "is_mobile": 0 },
        ], "_meta": { "totalCount": 6, "pageCount": 1, "currentPage": 1, "perPage": 50 } })),
        ("goldenrace", json!({ "games": [
            { "gameId": "g4", "name": "Speedway" },
            { "gameId": "g9", "name": "Penalty Kicks" },
            { "gameId": "g2", "name": "Basketball" },
            { "gameId": "g1", "name": "Horse Races" },
        ]})),
    ])
}

struct Provider {
    samples: HashMap<&'static str, Value>,
}

async fn sample_list(State(p): State<Arc<Provider>>, Path(provider): Path<String>) -> axum::response::Response {
    match p.samples.get(provider.as_str()) {
        Some(v) => ([("content-type", "application/json")], v.to_string()).into_response(),
        None => (axum::http::StatusCode::NOT_FOUND, "no such sample").into_response(),
    }
}

async fn sample_image(Path((_provider, file)): Path<(String, String)>) -> axum::response::Response {
    ([("content-type", "image/svg+xml")], format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{}</text></svg>", file.len())).into_response()
}

async fn down() -> axum::response::Response {
    (axum::http::StatusCode::SERVICE_UNAVAILABLE, "maintenance").into_response()
}

/// A running "provider side": the demo fakes under `/demo-providers`, the samples under
/// `/samples/{provider}`, and `/down/…` answering 503. Returns its base URL.
async fn provider_side() -> String {
    let fakes = providers::fake::Fakes::new("http://127.0.0.1:9", |_| providers::fake::Keys::default());
    let router = axum::Router::new()
        .route("/samples/{provider}/games", get(sample_list))
        .route("/samples/{provider}/img/{file}", get(sample_image))
        .route("/down/{*rest}", get(down).post(down))
        .with_state(Arc::new(Provider { samples: samples() }))
        .nest_service("/demo-providers", providers::fake::demo::router(fakes));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    format!("http://{addr}")
}

fn feed(name: &str, url: &str) -> Feed {
    Feed::new(ProviderSettings::local(name, &format!("{name}-secret"), url), FeedUrls::default())
}

/// Refreshes `name` from `url` now; asserts the outcome.
async fn refresh(app: &TestApp, name: &str, url: &str, outcome: &str) -> server::catalogue_refresh::Report {
    let r = server::catalogue_refresh::refresh(app.state.clone(), feed(name, url), true).await;
    assert_eq!(r.outcome, outcome, "{name}: {r:?}");
    r
}

/// Imports every provider the endpoints read: wallet providers from their demo fakes, the
/// others from samples.
async fn import_all(app: &TestApp, side: &str) {
    for p in ["pragmatic", "evolution", "habanero", "evoplay", "softswiss", "hub88"] {
        let r = refresh(app, p, &format!("{side}/demo-providers/{p}"), "refreshed").await;
        assert!(r.games > 0, "{r:?}");
    }
    // Slotegrator's fake pages one game a page: every page is read.
    let r = refresh(app, "slotegrator", &format!("{side}/demo-providers/slotegrator"), "refreshed").await;
    assert_eq!(r.games, providers::fake::catalogue::provider("slotegrator").unwrap().games.len());
    for p in ["amatic", "outcome_amatic", "outcome", "fiable", "pragmaticf", "pgsoft", "tvbet", "evolutionlive", "goldenrace"] {
        refresh(app, p, &format!("{side}/samples/{p}"), "refreshed").await;
    }
}

fn image_dir() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("carthage-links-test-{}", std::process::id()))
}

fn tweak(cfg: &mut server::config::Config) {
    cfg.catalogue.image_dir = image_dir();
}

fn strs(v: &Value, key: &str) -> Vec<String> {
    v.as_array().unwrap_or_else(|| panic!("not a list: {v}")).iter().map(|g| g[key].as_str().map(str::to_string).unwrap_or_else(|| g[key].to_string())).collect()
}

#[tokio::test]
async fn every_list_answers_in_its_providers_shape() {
    let side = provider_side().await;
    each_backend_with(tweak, async |app| {
        let guest = app.bare_client();
        let (player, _, _) = app.player("links1@example.com").await;

        // Nothing imported yet: every list is empty, never an error, and the root paths are
        // the API's, not the player app's page.
        // (The providers with a wallet adapter are installed from their fakes in demo mode.)
        for (path, key) in [
            ("/amatic/game_list", "games"), ("/fiable/v1/game_list", "game_list"), ("/api/outcome/games/list", "Games"),
            ("/gitslotpark/game_list", "games"), ("/pgsoft/game_list", "games"),
        ] {
            let r = player.send(reqwest::Method::GET, path, None).await;
            assert!(r.header("content-type").unwrap_or_default().starts_with("application/json"), "{path}: {}", r.text);
            let list = ok(r.pair());
            assert_eq!(list[key], json!([]), "{path}");
            assert_eq!(list["unavailable"], false, "{path}");
        }
        for (path, key) in [
            ("/api/evolution/get_game_list", "games"), ("/habanero/game/list", "games"), ("/slotegrator/games/list", "games"),
            ("/api/pragmatic/game_list", "gameList"), ("/api/golden_race/game_list", "gamesList"), ("/api/evoplay/game_list", "games"),
        ] {
            let list = ok(player.get(path).await);
            assert!(list[key].is_array() || list[key].is_object(), "{path}: {list}");
        }

        import_all(app, &side).await;
        // Auth-required providers show guests nothing (spec §6); players see the lists.
        assert_eq!(ok(guest.get("/habanero/game/list").await)["games"], json!([]));

        // Amatic: amatic and outcome_amatic (shown as Amatic), tabs from the names.
        let amatic = ok(player.get("/amatic/game_list").await);
        let games = amatic["games"].as_array().unwrap();
        let tabs = |id: &str| games.iter().find(|g| g["gameid"] == id).unwrap_or_else(|| panic!("{id} in {amatic}"))["tab"].clone();
        assert!(tabs("am-roulette").as_array().unwrap().contains(&json!("roulette")));
        assert!(tabs("am-card").as_array().unwrap().contains(&json!("cardGames")));
        assert!(tabs("am-lotto").as_array().unwrap().contains(&json!("lotto")));
        assert!(tabs("am-book").as_array().unwrap().contains(&json!("slotMachines")));
        assert_eq!(games.iter().find(|g| g["gameid"] == "oa-1").unwrap()["provider"], "outcome_amatic");
        let book = games.iter().find(|g| g["gameid"] == "am-book").unwrap();
        assert!(book["iconurl"].as_str().unwrap().starts_with("/provider-images/amatic/"), "{book}");
        assert!(book["catalogueId"].as_i64().is_some());

        // Evolution-type: the fake's tables (merchant upgaming) and evolutionlive's
        // betsolutions game; the other merchant never imported.
        let evo = ok(player.get("/api/evolution/get_game_list").await);
        let codes = strs(&evo["games"], "PageCode");
        for id in ["roulette-demo", "blackjack-demo", "baccarat-demo", "el1"] {
            assert!(codes.contains(&id.to_string()), "{id} in {codes:?}");
        }
        assert!(!codes.contains(&"el2".to_string()));
        let el1 = evo["games"].as_array().unwrap().iter().find(|g| g["PageCode"] == "el1").unwrap().clone();
        assert_eq!((el1["Trans"]["en"].as_str(), el1["Trans"]["fr"].as_str()), (Some("Speed Baccarat"), Some("Baccara Rapide")));
        assert_eq!((el1["MerchantName"].as_str(), el1["System"].as_str(), el1["game_type"].as_str()), (Some("betsolutions"), Some("bs"), Some("live")));
        assert!(el1["ImageURL"].as_str().unwrap().starts_with("/provider-images/evolutionlive/"));
        assert_eq!(ok(player.get("/api/evolution/get_game_list?game_type=live").await)["games"].as_array().unwrap().len(), codes.len());
        assert_eq!(ok(player.get("/api/evolution/get_game_list?game_type=slots").await)["games"], json!([]));
        fail(player.get("/api/evolution/get_game_list?game_type=tv").await, 200, 47);

        // Fiable: inactive games are not imported.
        let fiable = ok(player.get("/fiable/v1/game_list").await);
        assert_eq!(strs(&fiable["game_list"], "id"), ["11", "13"]);
        let g = &fiable["game_list"][0];
        assert_eq!((g["name"].as_str(), g["description"].as_str(), g["url"].as_str(), g["is_active"].as_bool()), (Some("Fortune Wheel"), Some("A wheel"), Some("https://fiable.example/g/11"), Some(true)));
        assert!(g["image_name"].as_str().unwrap().starts_with("/provider-images/fiable/"));

        // Habanero: keyname, game_name, img_name — the image is ours and served.
        let hab = ok(player.get("/habanero/game/list").await);
        assert_eq!(strs(&hab["games"], "keyname"), ["SGDemoDragon", "SGDemoKoi"]);
        assert_eq!(hab["games"][0]["game_name"], "Dragon Lanterns");
        let img = hab["games"][0]["img_name"].as_str().unwrap().to_string();
        assert!(img.starts_with("/provider-images/habanero/") && img.ends_with(".svg"), "{img}");
        let r = guest.send(reqwest::Method::GET, &img, None).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-type").as_deref(), Some("image/svg+xml"));
        assert!(r.text.contains("Lanterns") && r.text.contains("DEMO"), "{}", r.text);
        assert!(r.header("content-security-policy").unwrap_or_default().contains("sandbox"));
        fail(guest.get("/provider-images/habanero/..%2F..%2Fetc%2Fpasswd").await, 404, 43);
        fail(guest.get("/provider-images/habanero/0123456789abcdef0123.svg").await, 404, 43);

        // Slotegrator from its fake (two pages): both games, the studio kept in `provider`.
        let slots = ok(player.get("/slotegrator/games/list?project_name=carthage").await);
        assert_eq!(strs(&slots["games"], "uuid"), ["a1b2c3d4-demo-0001", "a1b2c3d4-demo-0002"]);
        assert_eq!((slots["games"][0]["provider"].as_str(), slots["games"][0]["type"].as_str(), slots["project_name"].as_str()), (Some("Demo Studio"), Some("slots"), Some("carthage")));
        fail(player.get("/slotegrator/games/list?project_name=a%20b").await, 200, 47);
        fail(player.get("/slotegrator/games/list?platform=tablet").await, 200, 47);

        // Evoplay: an object keyed by id; images by name at /api/evoplay/images/{Name}.jpg.
        let evoplay = ok(player.get("/api/evoplay/game_list").await);
        assert_eq!(evoplay["games"]["9001"]["name"], "Mystic Elements");
        assert_eq!(evoplay["games"]["9001"]["type_id"], "1");
        assert_eq!(evoplay["games"]["9002"]["type_id"], "3");
        assert!(evoplay["games"]["9002"]["tab"].as_array().unwrap().contains(&json!("crashGames")));
        assert_eq!(evoplay["order"], json!(["9001", "9002"]));
        let image = evoplay["games"]["9001"]["image"].as_str().unwrap().to_string();
        assert_eq!(image, "/api/evoplay/images/Mystic%20Elements.jpg");
        let r = guest.send(reqwest::Method::GET, &image, None).await;
        assert_eq!((r.status, r.header("content-type").as_deref()), (200, Some("image/svg+xml")));
        fail(guest.get("/api/evoplay/images/Nothing.jpg").await, 404, 43);
        fail(guest.get("/api/evoplay/images/Mystic%20Elements.png").await, 404, 43);

        // Outcome: Evoplay's section is left out.
        let outcome = ok(player.get("/api/outcome/games/list").await);
        assert_eq!(strs(&outcome["Games"], "Id"), ["o1", "o3"]);
        let o1 = &outcome["Games"][0];
        assert_eq!((o1["Name"].as_str(), o1["Description"].as_str(), o1["Format"].as_str(), o1["SectionId"].as_str()), (Some("Book of Aztec"), Some("Ten lines"), Some("html5"), Some("amatic")));

        // Pragmatic: getCasinoGames read back, the game server's domain and the language.
        let pp = ok(player.get("/api/pragmatic/game_list?lang=fr-fr").await);
        assert_eq!(strs(&pp["gameList"], "gameID"), ["vs20demo", "vs10demo", "vs25demo", "vs5demo"]);
        let first = &pp["gameList"][0];
        assert_eq!((first["gameName"].as_str(), first["gameTypeID"].as_str(), first["technologyID"].as_str(), first["isLiveGame"].as_bool(), first["provider"].as_str()), (Some("Desert Pharaoh"), Some("vs"), Some("H5"), Some(false), Some("pragmatic")));
        assert_eq!(pp["language"], "fr");
        // The demo settings' host (the test configuration's public URL).
        assert_eq!(pp["game_server_domain"], "127.0.0.1:8080");

        // pragmaticf (gitslotpark) and PG Soft: gameid, name, iconurl1 / iconurl.
        let pf = ok(player.get("/gitslotpark/game_list").await);
        assert_eq!(strs(&pf["games"], "gameid"), ["vs20demo", "vs40f"]);
        assert!(pf["games"][0]["iconurl1"].as_str().unwrap().starts_with("/provider-images/pragmaticf/"));
        let pg = ok(player.get("/pgsoft/game_list").await);
        assert_eq!(strs(&pg["games"], "gameid"), ["65", "98"]);
        assert_eq!(pg["games"][0]["name"], "Mahjong Ways");
        assert!(pg["games"][0]["iconurl"].as_str().unwrap().starts_with("/provider-images/pgsoft/"));

        // Golden Race: the whitelist's titles only, in the whitelist's order.
        let gr = ok(player.get("/api/golden_race/game_list").await);
        assert_eq!(strs(&gr["gamesList"], "name"), ["Horse Races", "Basketball", "Speedway"]);
        let horse = &gr["gamesList"][0];
        assert_eq!((horse["gameId"].as_str(), horse["provider"].as_str(), horse["gameUrl"].as_str()), (Some("g1"), Some("goldenrace"), Some("/virtual-games/goldenrace/g1")));
        assert!(horse["id"].as_i64().is_some());

        // TV tiles: purple, red, black from data.
        let tv = ok(guest.get("/api/tvbet/tiles").await);
        assert_eq!(strs(&tv["tiles"], "id"), ["purple", "red", "black"]);
        assert!(tv["tiles"][0]["color"].as_str().unwrap().starts_with('#'));

        // The lobby sees the imported providers (with their flag) and their games.
        let providers = ok(player.get("/api/casino/providers").await);
        let pg_row = providers.as_array().unwrap().iter().find(|p| p["name"] == "pgsoft").expect("pgsoft listed").clone();
        assert_eq!((pg_row["gameCount"].as_i64(), pg_row["unavailable"].as_bool(), pg_row["displayName"].as_str()), (Some(2), Some(false), Some("PG Soft")));
        assert!(ok(player.get("/api/casino/providers?casinoType=virtual").await).as_array().unwrap().iter().any(|p| p["name"] == "goldenrace"));
    })
    .await;
}

#[tokio::test]
async fn links_carry_each_providers_parameters() {
    let side = provider_side().await;
    each_backend_with(tweak, async |app| {
        import_all(app, &side).await;
        let (player, user, _) = app.player("links2@example.com").await;
        let link = |v: Value| -> (String, String) { (v["url"].as_str().unwrap().to_string(), v["token"].as_str().unwrap().to_string()) };

        let (url, token) = link(ok(player.get("/amatic/game_link?gameid=am-book&lang=fr-fr&lobbyUrl=https://carthage.example/slots").await));
        assert!(url.starts_with(&format!("{side}/samples/amatic/launch?game=am-book&token={token}&lang=fr")), "{url}");
        assert!(url.ends_with("&lobbyUrl=https%3A%2F%2Fcarthage.example%2Fslots"), "{url}");
        assert!(!token.is_empty());
        // outcome_amatic's game is reached through the same endpoint.
        let (url, _) = link(ok(player.get("/amatic/game_link?gameid=oa-1&lang=en").await));
        assert!(url.starts_with(&format!("{side}/samples/outcome_amatic/launch?game=oa-1")), "{url}");
        fail(player.get("/amatic/game_link?gameid=am-book&lobbyUrl=javascript:alert(1)").await, 200, 47);
        fail(player.get("/amatic/game_link").await, 200, 47);

        let (url, _) = link(ok(player.get("/api/evolution/open_frame?language=ar&page_id=el1&system=bs&game_type=live").await));
        assert!(url.contains("/samples/evolutionlive/launch?game=el1") && url.contains("lang=ar") && url.ends_with("&system=bs&game_type=live"), "{url}");
        let (url, _) = link(ok(player.get("/api/evolution/open_frame?language=en&page_id=roulette-demo").await));
        assert!(url.contains("/demo-providers/evolution/") && url.contains("game=roulette-demo"), "{url}");

        // Fiable: token, the language prefix and the home URL appended to the game's address.
        fail(player.get("/fiable/v1/token?game_type=live").await, 200, 47);
        let (url, token) = link(ok(player.get("/fiable/v1/token?game_type=main&game_id=13&lang=fr-fr&home=https://carthage.example/").await));
        assert_eq!(url, format!("https://fiable.example/g/13?token={token}&lang=fr&home=https%3A%2F%2Fcarthage.example%2F"));
        let (url, _) = link(ok(player.get("/fiable/v1/token?game_type=main&lang=en-US").await));
        assert!(url.starts_with("https://fiable.example/g/11?token="), "the first game by default: {url}");
        fail(player.get("/fiable/v1/token?game_type=main&game_id=12").await, 200, 62);

        let (url, _) = link(ok(player.get("/habanero/game/launch?game_id=SGDemoKoi&lang=fr").await));
        assert!(url.contains("/demo-providers/habanero/") && url.contains("game=SGDemoKoi") && url.contains("lang=fr"), "{url}");

        let (url, token) = link(ok(player.get("/slotegrator/games/link?project_name=carthage&return_url=https://carthage.example/back&game_uuid=a1b2c3d4-demo-0002&language=en").await));
        assert!(url.ends_with("&project_name=carthage&return_url=https%3A%2F%2Fcarthage.example%2Fback"), "{url}");
        let platform: String = store::sqlx::query_scalar("SELECT platform FROM game_sessions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1").bind(user).fetch_one(app.state.db.reader()).await.unwrap();
        assert_eq!(platform, "mobile", "return_url is sent on mobile");
        assert!(!token.is_empty());
        ok(player.get("/slotegrator/games/link?game_uuid=a1b2c3d4-demo-0001&language=en").await);
        let platform: String = store::sqlx::query_scalar("SELECT platform FROM game_sessions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1").bind(user).fetch_one(app.state.db.reader()).await.unwrap();
        assert_eq!(platform, "desktop");

        let (url, _) = link(ok(player.get("/api/evoplay/frame?project_name=carthage&game_id=9001&language=fr&user_geo=tn").await));
        assert!(url.ends_with("&project_name=carthage&user_geo=TN"), "{url}");
        fail(player.get("/api/evoplay/frame?game_id=9001&user_geo=TUN").await, 200, 47);

        let (url, _) = link(ok(player.post("/api/outcome/session/create", json!({ "game_id": "o1" })).await));
        assert!(url.contains("/samples/outcome/launch?game=o1"), "{url}");
        // Evoplay's games are not opened through Outcome (they were never imported).
        fail(player.post("/api/outcome/session/create", json!({ "game_id": "o2" })).await, 200, 62);
        fail(player.post("/api/outcome/session/create", json!({ "game": "o1" })).await, 400, 40);

        // Pragmatic: symbol, platform WEB|MOBILE, lang, technology (default H5).
        let (url, _) = link(ok(player.get("/api/pragmatic/game_link?symbol=vs10demo&platform=WEB&lang=ar").await));
        assert!(url.contains("/demo-providers/pragmatic/play?game=vs10demo") && url.contains("lang=ar"), "{url}");
        assert!(url.ends_with("&symbol=vs10demo&platform=WEB&technology=H5"), "{url}");
        fail(player.get("/api/pragmatic/game_link?symbol=vs10demo&platform=TV").await, 200, 47);
        fail(player.get("/api/pragmatic/game_link?symbol=vs10demo&technology=h5%3Bx").await, 200, 47);

        // gitslotpark (pragmaticf): the partner name, with _PYG for a PYG player.
        let (url, _) = link(ok(player.get("/gitslotpark/game_link?gameid=vs40f&symbol=vs40f&platform=MOBILE&lang=en&lobbyUrl=/slots/lobby").await));
        assert!(url.contains("/samples/pragmaticf/launch?game=vs40f"), "{url}");
        assert!(url.ends_with("&partner=carthage&symbol=vs40f&platform=MOBILE&technology=H5&lobbyUrl=%2Fslots%2Flobby"), "{url}");
        app.sql(&format!("UPDATE users SET currency = 'PYG' WHERE id = {user}")).await;
        let (url, _) = link(ok(player.get("/gitslotpark/game_link?symbol=vs40f").await));
        assert!(url.contains("&partner=carthage_PYG&"), "{url}");
        app.sql(&format!("UPDATE users SET currency = 'TND' WHERE id = {user}")).await;

        let (url, _) = link(ok(player.get("/pgsoft/game_link?gameid=98&lobbyUrl=https://carthage.example/&lang=fr").await));
        assert!(url.contains("/samples/pgsoft/launch?game=98") && url.ends_with("&lobbyUrl=https%3A%2F%2Fcarthage.example%2F"), "{url}");

        // Golden Race: open_frame and create_session (the app reads url).
        let (url, _) = link(ok(player.get("/api/golden_race/open_frame?game_id=g2&platform=desktop&lang=fr").await));
        assert!(url.contains("game=g2") && url.ends_with("&platform=desktop"), "{url}");
        let (url, token) = link(ok(player.post("/api/golden_race/create_session", json!({ "game_id": "g1", "platform": "mobile", "lang": "en" })).await));
        assert!(url.contains(&token) && url.ends_with("&platform=mobile"), "{url}");
        fail(player.post("/api/golden_race/create_session", json!({ "game_id": "g1", "platform": "tablet", "lang": "en" })).await, 200, 47);
        fail(player.get("/api/golden_race/open_frame?game_id=g9").await, 200, 62);

        // TV betting: a token for the TV provider's game (its money through the universal
        // wallet, so in demo mode its launch is the local fake's page).
        let (url, token) = link(ok(player.get("/api/tvbet/token?lang=fr").await));
        assert!(url.contains("/demo-providers/tvbet/play?game=7bet") && url.contains(&token) && url.contains("lang=fr"), "{url}");
        let (url, _) = link(ok(player.get("/api/tvbet/token?game_id=wheelbet").await));
        assert!(url.contains("game=wheelbet"), "{url}");

        // Every link opened a game session of its provider for this player.
        let sessions = app.count(&format!("game_sessions WHERE user_id = {user}")).await;
        assert!(sessions >= 16, "{sessions}");
    })
    .await;
}

#[tokio::test]
async fn launch_refusals() {
    let side = provider_side().await;
    each_backend_with(tweak, async |app| {
        let guest = app.bare_client();
        let (player, user, _) = app.player("links3@example.com").await;
        // Not configured yet: 60 for a player; guests are refused first (61).
        fail(player.get("/pgsoft/game_link?gameid=65").await, 200, 60);
        fail(guest.get("/pgsoft/game_link?gameid=65").await, 200, 61);
        // The TV provider is a demo provider (its fake's catalogue installed): it opens at once.
        assert!(ok(player.get("/api/tvbet/token").await)["url"].as_str().is_some_and(|u| u.contains("/demo-providers/tvbet/play?game=tv-lucky7")));
        import_all(app, &side).await;

        let links: [(&str, Option<Value>); 14] = [
            ("/amatic/game_link?gameid=am-book", None),
            ("/api/evolution/open_frame?page_id=roulette-demo", None),
            ("/fiable/v1/token?game_type=main&game_id=11", None),
            ("/habanero/game/launch?game_id=SGDemoKoi", None),
            ("/slotegrator/games/link?game_uuid=a1b2c3d4-demo-0001", None),
            ("/api/evoplay/frame?game_id=9001", None),
            ("/api/outcome/session/create", Some(json!({ "game_id": "o1" }))),
            ("/api/pragmatic/game_link?symbol=vs20demo", None),
            ("/gitslotpark/game_link?gameid=vs40f", None),
            ("/pgsoft/game_link?gameid=65", None),
            ("/api/golden_race/open_frame?game_id=g1", None),
            ("/api/golden_race/create_session", Some(json!({ "game_id": "g1", "platform": "mobile", "lang": "en" }))),
            ("/api/tvbet/token", None),
            ("/api/tvbet/token?game_id=7bet", None),
        ];
        let call = |api: Api, path: &'static str, body: Option<Value>| async move {
            match body {
                Some(b) => api.post(path, b).await,
                None => api.get(path).await,
            }
        };
        let partner = app.client();
        ok(partner.login_email("partner@carthage.local", "Partner123").await);
        for (path, body) in links.iter().cloned() {
            ok(call(player.clone(), path, body.clone()).await);
            fail(call(guest.clone(), path, body.clone()).await, 200, 61);
            fail(call(partner.clone(), path, body.clone()).await, 200, 61);
        }

        // Unknown games: 62.
        for path in ["/amatic/game_link?gameid=nope", "/habanero/game/launch?game_id=nope", "/api/pragmatic/game_link?symbol=nope", "/pgsoft/game_link?gameid=nope", "/api/tvbet/token?game_id=nope"] {
            fail(player.get(path).await, 200, 62);
        }
        // A game the provider's list no longer holds is disabled, so it no longer opens.
        refresh(app, "pgsoft", &format!("{side}/samples/tvbet"), "refreshed").await;
        fail(player.get("/pgsoft/game_link?gameid=65").await, 200, 62);

        // A provider banned for the player: 71 on its link, nothing in its list.
        app.state.casino.catalogue().set_blocked(user, "habanero", true).await.unwrap();
        fail(player.get("/habanero/game/launch?game_id=SGDemoKoi").await, 200, 71);
        assert_eq!(ok(player.get("/habanero/game/list").await)["games"], json!([]));
        // Aliases: banning amatic hides outcome_amatic too (spec §9).
        app.state.casino.catalogue().set_blocked(user, "amatic", true).await.unwrap();
        fail(player.get("/amatic/game_link?gameid=oa-1").await, 200, 71);
        assert_eq!(ok(player.get("/amatic/game_list").await)["games"], json!([]));
        // Banning pragmatic bans pragmaticf (its alias).
        app.state.casino.catalogue().set_blocked(user, "pragmatic", true).await.unwrap();
        fail(player.get("/gitslotpark/game_link?gameid=vs40f").await, 200, 71);
        // A disabled provider's games do not open.
        app.sql("UPDATE casino_providers SET enabled = 0 WHERE name = 'evoplay'").await;
        fail(player.get("/api/evoplay/frame?game_id=9001").await, 200, 62);
        assert_eq!(ok(player.get("/api/evoplay/game_list").await)["games"], json!({}));
    })
    .await;
}

#[tokio::test]
async fn section_9_rules_from_the_editable_document() {
    let side = provider_side().await;
    each_backend_with(tweak, async |app| {
        import_all(app, &side).await;
        let (player, _, _) = app.player("links4@example.com").await;
        let feeds = app.state.casino.feeds();

        // The pragmatic → pragmaticf swap is a table in the rules document: a game in it that
        // pragmaticf holds is flagged and launched through pragmaticf; one it does not hold
        // stays Pragmatic's.
        let before = ok(player.get("/api/pragmatic/game_list").await);
        assert!(before["gameList"].as_array().unwrap().iter().all(|g| g["provider"] == "pragmatic"));
        feeds.put_rules(&json!({ "pragmaticSwap": ["vs20demo", "vs5demo"], "featured": ["pgsoft:98", "vs25demo"] })).await.unwrap();
        let after = ok(player.get("/api/pragmatic/game_list").await);
        let provider_of = |id: &str| after["gameList"].as_array().unwrap().iter().find(|g| g["gameID"] == id).unwrap()["provider"].clone();
        assert_eq!(provider_of("vs20demo"), "pragmaticf");
        assert_eq!(provider_of("vs5demo"), "pragmatic", "pragmaticf does not hold it");
        assert_eq!(provider_of("vs10demo"), "pragmatic");
        let url = ok(player.get("/api/pragmatic/game_link?symbol=vs20demo").await)["url"].as_str().unwrap().to_string();
        assert!(url.contains("/samples/pragmaticf/launch?game=vs20demo"), "{url}");
        let url = ok(player.get("/api/pragmatic/game_link?symbol=vs5demo").await)["url"].as_str().unwrap().to_string();
        assert!(url.contains("/demo-providers/pragmatic/play?game=vs5demo"), "{url}");

        // Featured ids first, in the list's order ("provider:id" or a bare id).
        assert_eq!(strs(&after["gameList"], "gameID"), ["vs25demo", "vs20demo", "vs10demo", "vs5demo"]);
        assert_eq!(strs(&ok(player.get("/pgsoft/game_list").await)["games"], "gameid"), ["98", "65"]);

        // The Golden Race whitelist and the TV tiles are data too.
        feeds.put_rules(&json!({ "goldenRaceWhitelist": ["Speedway", "Horse Races"], "tvTiles": [{ "id": "gold", "color": "#ffcc00", "gameId": "wheelbet" }] })).await.unwrap();
        let gr = ok(player.get("/api/golden_race/game_list").await);
        assert_eq!(strs(&gr["gamesList"], "name"), ["Speedway", "Horse Races"]);
        fail(player.get("/api/golden_race/open_frame?game_id=g2").await, 200, 62);
        let tv = ok(player.get("/api/tvbet/tiles").await);
        assert_eq!(tv["tiles"], json!([{ "id": "gold", "color": "#ffcc00", "gameId": "wheelbet" }]));

        // The exclusions are applied when the list is read as well: a studio excluded after
        // the import disappears at once.
        refresh(app, "slotegrator", &format!("{side}/samples/slotegrator"), "refreshed").await;
        let mobile = ok(player.get("/slotegrator/games/list").await);
        // 'lotto instant win', betradar and betsolutions never imported; one Book of Sands
        // per platform.
        assert_eq!(strs(&mobile["games"], "uuid"), ["u1m", "u5"]);
        assert_eq!((mobile["games"][0]["is_mobile"].as_bool(), mobile["games"][0]["haveTwoVersion"].as_bool()), (Some(true), Some(true)));
        assert_eq!(strs(&ok(player.get("/slotegrator/games/list?platform=desktop").await)["games"], "uuid"), ["u1", "u5"]);
        feeds.put_rules(&json!({ "slotegratorExcluded": ["demo"] })).await.unwrap();
        assert_eq!(strs(&ok(player.get("/slotegrator/games/list").await)["games"], "uuid"), ["u1m"]);
        // Likewise for merchants: keep only betsolutions.
        feeds.put_rules(&json!({ "evolutionMerchants": ["betsolutions"] })).await.unwrap();
        assert_eq!(strs(&ok(player.get("/api/evolution/get_game_list").await)["games"], "PageCode"), ["el1"]);

        // A bad document is refused and leaves the rules as they were.
        let e = feeds.put_rules(&json!({ "featured": "vs20demo" })).await.unwrap_err();
        assert_eq!(e.code, kernel::ErrorCode::InvalidField);
        assert_eq!(feeds.rules().await.unwrap().evolution_merchants, ["betsolutions"]);
        // A document broken by hand in the database: the defaults apply (never an empty lobby).
        app.sql("UPDATE site_settings SET value = '{\"featured\": 5}' WHERE key = 'providers'").await;
        tokio::time::sleep(std::time::Duration::from_millis(5_100)).await;
        assert_eq!(strs(&ok(player.get("/api/golden_race/game_list").await)["gamesList"], "name"), ["Horse Races", "Basketball", "Speedway"]);
    })
    .await;
}

#[tokio::test]
async fn the_refresh_job_imports_and_a_provider_down_keeps_its_catalogue() {
    let side = provider_side().await;
    each_backend_with(tweak, async |app| {
        let (player, _, _) = app.player("links5@example.com").await;
        let fake = format!("{side}/demo-providers/pragmatic");
        let r = refresh(app, "pragmatic", &fake, "refreshed").await;
        assert_eq!((r.games, r.images, r.dropped), (4, 4, 0));
        let status = app.state.casino.feeds().status("pragmatic").await.unwrap().unwrap();
        assert_eq!((status.state.as_str(), status.games, status.images, status.failures), ("ok", 4, 4, 0));
        assert!(status.last_ok_at > 0);
        // The images are files in the image folder, served by us.
        let games = ok(player.get("/api/casino/game_list?provider=pragmatic").await);
        let image = games[0]["imageUrl"].as_str().unwrap().to_string();
        let file = image.rsplit('/').next().unwrap();
        assert!(image_dir().join("pragmatic").join(file).is_file(), "{image}");
        assert_eq!(player.send(reqwest::Method::GET, &image, None).await.status, 200);
        let pks: Vec<i64> = games.as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();

        // Idempotent: a second pass changes nothing (same games, same catalogue ids) and
        // downloads no image again.
        std::fs::write(image_dir().join("pragmatic").join(file), b"<svg xmlns=\"http://www.w3.org/2000/svg\"><!--kept--></svg>").unwrap();
        refresh(app, "pragmatic", &fake, "refreshed").await;
        let again = ok(player.get("/api/casino/game_list?provider=pragmatic").await);
        assert_eq!(again.as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect::<Vec<_>>(), pks);
        assert!(std::fs::read_to_string(image_dir().join("pragmatic").join(file)).unwrap().contains("kept"), "downloaded once");

        // The provider is down (503, then unreachable): its last catalogue stays, flagged.
        let (l, _) = (ok(player.get("/api/pragmatic/game_link?symbol=vs20demo").await), ());
        assert!(l["url"].as_str().is_some());
        let r = refresh(app, "pragmatic", &format!("{side}/down/pragmatic"), "failed").await;
        assert!(r.error.as_deref().unwrap_or_default().contains("503"), "{r:?}");
        refresh(app, "pragmatic", "http://127.0.0.1:9/nothing", "failed").await;
        let status = app.state.casino.feeds().status("pragmatic").await.unwrap().unwrap();
        assert_eq!((status.state.as_str(), status.games, status.failures), ("failed", 4, 2));
        assert!(!status.error.is_empty());
        let list = ok(player.get("/api/pragmatic/game_list").await);
        assert_eq!(list["unavailable"], true);
        assert_eq!(list["gameList"].as_array().unwrap().len(), 4, "the last catalogue is kept");
        assert_eq!(ok(player.get("/api/casino/game_list?provider=pragmatic").await).as_array().unwrap().len(), 4);
        let row = ok(player.get("/api/casino/providers").await).as_array().unwrap().iter().find(|p| p["name"] == "pragmatic").unwrap().clone();
        assert_eq!((row["unavailable"].as_bool(), row["gameCount"].as_i64()), (Some(true), Some(4)));
        // A list that does not read, or reads empty, is a failure too (never an empty lobby).
        refresh(app, "pragmatic", &format!("{side}/samples/nothing"), "failed").await;
        let r = refresh(app, "pgsoft", &format!("{side}/demo-providers/evoplay"), "failed").await;
        assert!(r.error.unwrap().contains("expected a list"));
        assert_eq!(ok(player.get("/api/pragmatic/game_list").await)["gameList"].as_array().unwrap().len(), 4);

        // Back up: the flag clears.
        refresh(app, "pragmatic", &fake, "refreshed").await;
        assert_eq!(ok(player.get("/api/pragmatic/game_list").await)["unavailable"], false);
        assert_eq!(app.state.casino.feeds().status("pragmatic").await.unwrap().unwrap().failures, 0);

        // One owner: a pass held by another instance (its lease live) is skipped; a lapsed
        // lease is taken over.
        let until = now_ms() + 60_000;
        app.sql(&format!("UPDATE provider_catalogue SET owner = 'other-instance', lease_until = {until}, state = 'running' WHERE provider = 'pragmatic'")).await;
        refresh(app, "pragmatic", &fake, "skipped").await;
        app.sql("UPDATE provider_catalogue SET lease_until = 1 WHERE provider = 'pragmatic'").await;
        refresh(app, "pragmatic", &fake, "refreshed").await;
        // The periodic pass leaves a fresh catalogue alone and retries a failed one only after
        // the retry delay.
        let feeds = app.state.casino.feeds();
        assert!(!feeds.claim("pragmatic", "me", 60_000, 3_600_000, 300_000).await.unwrap(), "fresh");
        refresh(app, "pragmatic", &format!("{side}/down/pragmatic"), "failed").await;
        assert!(!feeds.claim("pragmatic", "me", 60_000, 3_600_000, 300_000).await.unwrap(), "failed just now");
        assert!(feeds.claim("pragmatic", "me", 60_000, 3_600_000, 0).await.unwrap(), "retry due");
        feeds.finish_failed("pragmatic", "me", "test").await.unwrap();

        // What `serve` and the CLI refresh: enabled providers with an adapter or known by
        // list only; pragmatic (an adapter) is one, amatic (not configured) is not.
        let names: Vec<String> = server::catalogue_refresh::feeds(&app.state).iter().map(|f| f.provider().to_string()).collect();
        assert!(names.contains(&"pragmatic".to_string()), "{names:?}");
        assert!(!names.contains(&"amatic".to_string()), "{names:?}");
    })
    .await;
}

#[tokio::test]
async fn configured_link_providers_are_refreshed_and_a_panic_free_pass_survives_bad_input() {
    let side = provider_side().await;
    let amatic = format!("{side}/samples/amatic");
    each_backend_with(
        |cfg| {
            tweak(cfg);
            cfg.providers.retain(|p| p.name != "amatic" && p.name != "tvbet");
            cfg.providers.push(ProviderSettings::local("tvbet", "tv-secret", "http://127.0.0.1:9/tvbet-not-there"));
            let mut s = ProviderSettings::local("amatic", "am-secret", &amatic);
            s.demo = false;
            cfg.providers.push(s);
        },
        async |app| {
            let names: Vec<String> = server::catalogue_refresh::feeds(&app.state).iter().map(|f| f.provider().to_string()).collect();
            assert!(names.contains(&"amatic".to_string()) && names.contains(&"tvbet".to_string()), "{names:?}");
            // One pass per feed: tvbet is down, amatic refreshes anyway.
            let reports = server::catalogue_refresh::refresh_all(&app.state, true).await;
            let of = |p: &str| reports.iter().find(|r| r.provider == p).unwrap_or_else(|| panic!("{p} in {reports:?}")).clone();
            assert_eq!(of("amatic").outcome, "refreshed");
            assert_eq!(of("tvbet").outcome, "failed");
            let (player, _, _) = app.player("links6@example.com").await;
            assert_eq!(ok(player.get("/amatic/game_list").await)["games"].as_array().unwrap().len(), 4);
            assert_eq!(ok(player.get("/api/tvbet/tiles").await)["unavailable"], true);

            // No input gets a 5xx (the harness checks every reply).
            let long = "x".repeat(5000);
            for path in [
                format!("/amatic/game_link?gameid={long}"),
                "/amatic/game_link?gameid=%00".into(),
                "/api/evolution/open_frame?page_id=a&system=%0A".into(),
                "/slotegrator/games/link?game_uuid=%F0%9F%8E%B0&return_url=%2F%2Fevil".into(),
                "/api/evoplay/images/%2E%2E%2Fx.jpg".into(),
                format!("/api/evoplay/images/{long}.jpg"),
                "/provider-images/AMATIC/x.svg".into(),
                "/provider-images/amatic/zz.svg".into(),
                "/api/tvbet/token?game_id=%00".into(),
                "/gitslotpark/game_link?platform=web".into(),
                "/api/golden_race/open_frame".into(),
            ] {
                let (status, body) = player.get(&path).await;
                assert!(status < 500 && body["status"].as_u64().is_some_and(|s| s != 0), "{path}: {status} {body}");
            }
            for body in [json!({}), json!({ "game_id": 5 }), json!({ "game_id": "" }), json!({ "game_id": long })] {
                let (status, reply) = player.post("/api/outcome/session/create", body.clone()).await;
                assert!(status < 500 && reply["status"] != 0, "{body}: {reply}");
                let (status, reply) = player.post("/api/golden_race/create_session", body.clone()).await;
                assert!(status < 500 && reply["status"] != 0, "{body}: {reply}");
            }
            // Undecodable text in a parameter: refused or read, never a 5xx.
            player.get("/api/pragmatic/game_list?lang=%FF").await;
            let r = player.exec(player.req(reqwest::Method::POST, "/api/outcome/session/create").header("content-type", "application/json").body("[1,2")).await;
            assert_eq!(r.status, 400);
            fail(player.send(reqwest::Method::DELETE, "/amatic/game_list", None).await.pair(), 405, 44);
        },
    )
    .await;
}
