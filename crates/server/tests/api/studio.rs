//! The studio's single-player games through their client API: provably-fair rounds that
//! settle through the provider wallet, seeds, history, persist-before-reveal recovery.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use studio::fair::{parse_hex32, FairDraws};
use wallet::BalanceKind;

/// A player with `credit` minor units and a studio session of `game`: (user id, token).
async fn studio_session(app: &TestApp, email: &str, game: &str, credit: i64) -> (i64, String) {
    let (api, user_id, _) = app.player(email).await;
    if credit > 0 {
        app.credit(user_id, BalanceKind::Real, credit).await;
    }
    let launch = ok(api.post("/api/casino/session", json!({"provider": "studio", "gameId": game, "lang": "en", "platform": "mobile"})).await);
    (user_id, launch["sessionToken"].as_str().unwrap().to_string())
}

async fn game_get(app: &TestApp, token: &str, path: &str) -> (u16, Value) {
    let c = app.bare_client();
    c.exec(c.req(Method::GET, path).header("x-game-session", token)).await.pair()
}

async fn game_post(app: &TestApp, token: &str, path: &str, body: Value) -> (u16, Value) {
    let c = app.bare_client();
    c.exec(c.req(Method::POST, path).header("x-game-session", token).json(&body)).await.pair()
}

#[tokio::test]
async fn slot_spins_settle_through_the_wallet() {
    each_backend(async |app| {
        let (user, token) = studio_session(app, "slot1@example.com", "desert-gold", 50_000).await;
        let s = ok(game_get(app, &token, "/api/studio/session").await);
        assert_eq!((s["kind"].as_str(), s["currency"].as_str(), s["exponent"].as_i64()), (Some("slot"), Some("TND"), Some(3)));
        assert_eq!(s["balance"], 50_000);
        let levels: Vec<i64> = s["betLevels"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert!(levels.iter().all(|l| l % 20 == 0), "{levels:?}");
        let info = ok(game_get(app, &token, "/api/studio/slots/info").await);
        assert!(info.is_object());

        let mut expected = 50_000;
        let mut rounds = Vec::new();
        for _ in 0..12 {
            let r = ok(game_post(app, &token, "/api/studio/slots/spin", json!({"bet": 1000})).await);
            expected += r["win"].as_i64().unwrap() - 1000;
            assert_eq!(r["balance"], expected);
            assert_eq!(r["outcome"]["win"], r["win"]);
            rounds.push(r);
        }
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, expected);
        // Nonces count up from 0 under one committed seed.
        let nonces: Vec<i64> = rounds.iter().map(|r| r["seed"]["nonce"].as_i64().unwrap()).collect();
        assert_eq!(nonces, (0..12).collect::<Vec<_>>());
        // History: the last 10, newest first, seed not revealed yet.
        let hist = ok(game_get(app, &token, "/api/studio/rounds?limit=10").await);
        assert_eq!(hist.as_array().unwrap().len(), 10);
        assert_eq!(hist[0]["roundId"], rounds[11]["roundId"]);
        assert!(hist[0]["serverSeed"].is_null());
        // Bad stakes: not a bet level, not a multiple of the lines, too big; nothing moves.
        fail(game_post(app, &token, "/api/studio/slots/spin", json!({"bet": 1010})).await, 200, 68);
        fail(game_post(app, &token, "/api/studio/slots/spin", json!({"bet": 0})).await, 200, 68);
        fail(game_post(app, &token, "/api/studio/slots/spin", json!({"bet": 200_000})).await, 200, 68);
        fail(game_post(app, &token, "/api/studio/slots/spin", json!({"bet": "1000"})).await, 400, 40);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, expected);
        // A session of another game cannot spin this machine's endpoint for dice.
        fail(game_post(app, &token, "/api/studio/dice/roll", json!({"amount": 1000, "target": 5000, "over": true})).await, 200, 63);
        fail(game_get(app, "nope", "/api/studio/session").await, 200, 63);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn dice_is_provably_fair_and_verifiable_after_rotation() {
    each_backend(async |app| {
        let (user, token) = studio_session(app, "dice1@example.com", "dice", 100_000).await;
        let seed = ok(game_post(app, &token, "/api/studio/seeds/client", json!({"clientSeed": "lucky player"})).await);
        assert_eq!(seed["clientSeed"], "lucky player");
        fail(game_post(app, &token, "/api/studio/seeds/client", json!({"clientSeed": "a:b"})).await, 200, 47);
        let committed = seed["serverSeedHash"].as_str().unwrap().to_string();
        let mut results = Vec::new();
        for i in 0..5 {
            let r = ok(game_post(app, &token, "/api/studio/dice/roll", json!({"amount": 1000, "target": 4000 + i * 500, "over": i % 2 == 0})).await);
            assert_eq!(r["seed"]["serverSeedHash"], committed);
            results.push(r);
        }
        let rotation = ok(game_post(app, &token, "/api/studio/seeds/rotate", json!({})).await);
        assert_eq!(rotation["revealed"]["serverSeedHash"], committed);
        assert_eq!(rotation["revealed"]["nonces"], 5);
        assert_ne!(rotation["next"]["serverSeedHash"], committed);
        assert_eq!(rotation["next"]["nonce"], 0);
        assert_eq!(rotation["next"]["clientSeed"], "lucky player");
        // Recompute every roll from the revealed seed.
        let server_seed = parse_hex32(rotation["revealed"]["serverSeed"].as_str().unwrap()).unwrap();
        assert_eq!(studio::fair::hex32(&studio::fair::seed_hash(&server_seed)), committed);
        for r in &results {
            let nonce = r["seed"]["nonce"].as_u64().unwrap();
            let roll = studio::dice::roll(&mut FairDraws::new(&server_seed, "lucky player", nonce));
            assert_eq!(r["outcome"]["result"]["roll"].as_u64(), Some(roll as u64));
        }
        let hist = ok(game_get(app, &token, "/api/studio/rounds").await);
        assert_eq!(hist[0]["serverSeed"], rotation["revealed"]["serverSeed"]);
        // Out-of-range targets are refused.
        fail(game_post(app, &token, "/api/studio/dice/roll", json!({"amount": 1000, "target": 9990, "over": true})).await, 200, 68);
        fail(game_post(app, &token, "/api/studio/dice/roll", json!({"amount": 50, "target": 5000, "over": true})).await, 200, 68);
        let total: i64 = results.iter().map(|r| r["win"].as_i64().unwrap() - 1000).sum();
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 100_000 + total);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn roulette_pays_the_layout_and_refuses_impossible_bets() {
    each_backend(async |app| {
        let (user, token) = studio_session(app, "roul1@example.com", "roulette", 100_000).await;
        let bets = json!([
            {"kind": "straight", "numbers": [17], "amount": 1000},
            {"kind": "red", "numbers": [], "amount": 1000},
            {"kind": "split", "numbers": [0, 2], "amount": 500},
            {"kind": "dozen", "numbers": [2], "amount": 500}
        ]);
        let r = ok(game_post(app, &token, "/api/studio/roulette/spin", json!({"bets": bets})).await);
        assert_eq!(r["bet"], 3000);
        let n = r["outcome"]["result"]["number"].as_i64().unwrap();
        assert!((0..=36).contains(&n));
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 100_000 - 3000 + r["win"].as_i64().unwrap());
        fail(game_post(app, &token, "/api/studio/roulette/spin", json!({"bets": [{"kind": "split", "numbers": [1, 5], "amount": 1000}]})).await, 200, 68);
        fail(game_post(app, &token, "/api/studio/roulette/spin", json!({"bets": []})).await, 200, 68);
        // A kind the table does not have is a business refusal like an impossible selection
        // (the contract's request schema says `kind` is a string).
        fail(game_post(app, &token, "/api/studio/roulette/spin", json!({"bets": [{"kind": "nine", "amount": 1000}]})).await, 200, 68);
        // More than the balance: 501, the round is void and the stake can never land.
        let (poor, poor_token) = studio_session(app, "roul2@example.com", "roulette", 500).await;
        fail(game_post(app, &poor_token, "/api/studio/roulette/spin", json!({"bets": [{"kind": "red", "amount": 1000}]})).await, 200, 501);
        assert_eq!(app.minor_balance(poor, BalanceKind::Real).await, 500);
        assert_eq!(app.count(&format!("studio_rounds WHERE user_id = {poor} AND status = 'void'")).await, 1);
        assert_eq!(ok(game_get(app, &poor_token, "/api/studio/rounds").await), json!([]));
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn interrupted_rounds_are_settled_or_voided() {
    each_backend(async |app| {
        let (user, token) = studio_session(app, "rec1@example.com", "dice", 100_000).await;
        // Play rounds, then make two of them look interrupted:
        // A: the stake landed but the win was not paid; B: nothing landed.
        let mut winning = None;
        for _ in 0..40 {
            let r = ok(game_post(app, &token, "/api/studio/dice/roll", json!({"amount": 1000, "target": 2000, "over": true})).await);
            if r["win"].as_i64().unwrap() > 0 {
                winning = Some(r);
                break;
            }
        }
        let a = winning.expect("a win at 79 % chance within 40 rolls");
        let a_id = a["roundId"].as_i64().unwrap();
        let win = a["win"].as_i64().unwrap();
        let win_key = format!("prov:studio:{a_id}-win");
        let win_tx = app.scalar(&format!("SELECT id FROM ledger_transactions WHERE idempotency_key = '{win_key}'")).await;
        // Undo the win posting as if it never happened (entries, balance, transaction), keep the round open.
        app.sql(&format!("UPDATE ledger_accounts SET balance = balance - {win} WHERE owner_id = {user} AND kind = 'real'")).await;
        app.sql(&format!("DELETE FROM ledger_entries WHERE tx_id = {win_tx}")).await;
        app.sql(&format!("DELETE FROM ledger_transactions WHERE id = {win_tx}")).await;
        app.sql(&format!("UPDATE studio_rounds SET status = 'open', created_at = created_at - 60000 WHERE id = {a_id}")).await;
        // B: an open round whose stake never reached the ledger.
        let r = ok(game_post(app, &token, "/api/studio/dice/roll", json!({"amount": 1000, "target": 5000, "over": true})).await);
        let b_id = r["roundId"].as_i64().unwrap();
        let b_win = r["win"].as_i64().unwrap();
        for kind in ["bet", "win"] {
            let key = format!("prov:studio:{b_id}-{kind}");
            if let Some(tx) = app.state.ledger.lookup(&key).await.unwrap() {
                let amount = app.scalar(&format!("SELECT amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE e.tx_id = {} AND a.owner_id = {user}", tx.tx_id)).await;
                app.sql(&format!("UPDATE ledger_accounts SET balance = balance - ({amount}) WHERE owner_id = {user} AND kind = 'real'")).await;
                app.sql(&format!("DELETE FROM ledger_entries WHERE tx_id = {}", tx.tx_id)).await;
                app.sql(&format!("DELETE FROM ledger_transactions WHERE id = {}", tx.tx_id)).await;
            }
        }
        let _ = b_win;
        app.sql(&format!("UPDATE studio_rounds SET status = 'open', created_at = created_at - 60000 WHERE id = {b_id}")).await;
        // The erased postings leave the report rollups too (as a crash before the commit would).
        app.rollups_follow_history().await;
        app.assert_ledger_consistent().await;
        let before = app.minor_balance(user, BalanceKind::Real).await;

        let report = app.state.single.recover(30_000).await.unwrap();
        assert_eq!((report.settled, report.voided), (1, 1));
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + win);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM studio_rounds WHERE id = {a_id} AND status = 'settled'")).await, 1);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM studio_rounds WHERE id = {b_id} AND status = 'void'")).await, 1);
        // B's stake can never land now (tombstone); recovery is idempotent.
        assert!(app.state.ledger.lookup(&format!("prov:studio:{b_id}-bet")).await.unwrap().unwrap().tombstone);
        assert_eq!(app.state.single.recover(30_000).await.unwrap(), games::single::RecoveryReport::default());
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn crash_sessions_read_their_crash_history() {
    each_backend(async |app| {
        let (_, token) = studio_session(app, "crashhist@example.com", "crash", 10_000).await;
        let s = ok(game_get(app, &token, "/api/studio/session").await);
        assert_eq!(s["kind"], "crash");
        // No rounds played yet: an empty history, not an error (rounds are covered in crash.rs).
        assert_eq!(ok(game_get(app, &token, "/api/studio/rounds?limit=10").await), json!([]));
    })
    .await;
}

#[tokio::test]
async fn history_names_the_game_and_opens_each_round_s_fairness_record() {
    each_backend(async |app| {
        let (api, user, _) = app.player("histround@example.com").await;
        app.credit(user, BalanceKind::Real, 100_000).await;
        let launch = |game: &str| json!({"provider": "studio", "gameId": game, "lang": "en", "platform": "mobile"});
        let dice = ok(api.post("/api/casino/session", launch("dice")).await)["sessionToken"].as_str().unwrap().to_string();
        let slot = ok(api.post("/api/casino/session", launch("desert-gold")).await)["sessionToken"].as_str().unwrap().to_string();
        let roll = ok(game_post(app, &dice, "/api/studio/dice/roll", json!({"amount": 1000, "target": 5000, "over": true})).await);
        let spin = ok(game_post(app, &slot, "/api/studio/slots/spin", json!({"bet": 1000})).await);

        let hist = ok(api.get("/api/user/transactions?limit=50").await);
        let rows = hist.as_array().unwrap();
        let roll_id = roll["roundId"].as_i64().unwrap().to_string();
        let stake = rows.iter().find(|r| r["payment_mode"] == 203 && r["round_id"] == roll_id.as_str()).expect("the dice stake");
        assert_eq!(stake["game"]["game_name"], "Dice");
        assert_eq!(stake["game"]["provider"], "studio");
        assert_eq!(stake["game"]["provider_name"], "Carthage Studio");
        assert_eq!(stake["verifiable"], true);
        let spin_id = spin["roundId"].as_i64().unwrap().to_string();
        assert!(rows.iter().any(|r| r["round_id"] == spin_id.as_str() && r["game"]["game_id"] == "desert-gold"));
        // The credit is not a game posting.
        let credit = rows.iter().find(|r| r["payment_mode"] == 200).expect("the credit");
        assert!(credit["game"].is_null() && credit["round_id"].is_null());
        assert_eq!(credit["verifiable"], false);

        // The record of each round, with the player's own sign-in (no game session).
        let rec = ok(api.get(&format!("/api/studio/round?game=dice&round={roll_id}")).await);
        assert_eq!((rec["kind"].as_str(), rec["gameName"].as_str(), rec["currency"].as_str()), (Some("dice"), Some("Dice"), Some("TND")));
        assert_eq!(rec["round"]["roundId"], roll["roundId"]);
        assert_eq!(rec["round"]["serverSeedHash"], roll["seed"]["serverSeedHash"]);
        assert!(rec["round"]["serverSeed"].is_null(), "the seed is secret until rotated");
        assert!(rec["slot"].is_null());
        ok(game_post(app, &dice, "/api/studio/seeds/rotate", json!({})).await);
        let rec = ok(api.get(&format!("/api/studio/round?game=dice&round={roll_id}")).await);
        let server_seed = parse_hex32(rec["round"]["serverSeed"].as_str().expect("revealed after rotation")).unwrap();
        let nonce = rec["round"]["nonce"].as_u64().unwrap();
        let client_seed = rec["round"]["clientSeed"].as_str().unwrap();
        let recomputed = studio::dice::roll(&mut FairDraws::new(&server_seed, client_seed, nonce));
        assert_eq!(rec["round"]["outcome"]["result"]["roll"].as_u64(), Some(recomputed as u64));
        let rec = ok(api.get(&format!("/api/studio/round?game=desert-gold&round={spin_id}")).await);
        assert_eq!(rec["kind"], "slot");
        assert!(rec["slot"]["baseReels"].is_array(), "a slot record carries its machine: {}", rec["slot"]);

        // Someone else's round, an unknown game, a malformed id, the wrong game, a guest.
        let (other, _, _) = app.player("histround2@example.com").await;
        fail(other.get(&format!("/api/studio/round?game=dice&round={roll_id}")).await, 200, 32);
        fail(api.get(&format!("/api/studio/round?game=roulette&round={roll_id}")).await, 200, 32);
        fail(api.get(&format!("/api/studio/round?game=nope&round={roll_id}")).await, 200, 62);
        fail(api.get("/api/studio/round?game=dice&round=abc").await, 200, 32);
        fail(api.get("/api/studio/round?game=dice").await, 400, 40);
        fail(app.bare_client().get(&format!("/api/studio/round?game=dice&round={roll_id}")).await, 401, 23);
    })
    .await;
}

#[tokio::test]
async fn catalogue_texts_follow_the_app_language() {
    each_backend(async |app| {
        let c = app.bare_client();
        let description = async |lang: Option<&str>| -> String {
            let mut req = c.req(Method::GET, "/api/casino/game_list?provider=studio");
            if let Some(l) = lang {
                req = req.header("accept-language", l);
            }
            let list = ok(c.exec(req).await.pair());
            let dice = list.as_array().unwrap().iter().find(|g| g["gameId"] == "dice").expect("dice").clone();
            dice["description"].as_str().unwrap().to_string()
        };
        let en = description(None).await;
        assert!(en.starts_with("Roll over or under"), "{en}");
        assert!(description(Some("fr")).await.starts_with("Misez au-dessus"));
        assert!(description(Some("ar-TN,ar;q=0.9,en;q=0.5")).await.starts_with("راهن"));
        assert_eq!(description(Some("de-DE,de;q=0.9")).await, en);
        assert_eq!(description(Some("en-US,en;q=0.9")).await, en);
        // Every studio game has its text in the three languages.
        for lang in ["fr", "ar"] {
            let list = ok(c.exec(c.req(Method::GET, "/api/casino/game_list?provider=studio").header("accept-language", lang)).await.pair());
            for g in list.as_array().unwrap() {
                let text = g["description"].as_str().unwrap();
                assert!(!text.is_empty() && !text.contains("reel video slot") && !text.starts_with("Multiplayer"), "{lang}: {text}");
            }
        }
        // Search answers in the asked language too.
        let found = ok(c.exec(c.req(Method::GET, "/api/casino/search?q=dice").header("accept-language", "fr")).await.pair());
        assert!(found[0]["description"].as_str().unwrap().starts_with("Misez"));
    })
    .await;
}
