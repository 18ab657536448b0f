//! Issue 9, item 7: the contract says what the server does. The schemathesis run of
//! `make test` (scripts/contract.sh) checks the whole document against the server; these
//! pin the cases it first found, and the shape of the document that makes them true.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};

async fn studio_token(app: &TestApp, email: &str) -> String {
    let (api, user_id, _) = app.player(email).await;
    app.credit(user_id, wallet::BalanceKind::Real, 100_000).await;
    let launch = ok(api.post("/api/casino/session", json!({"provider": "studio", "gameId": "dice", "lang": "en", "platform": "mobile"})).await);
    launch["sessionToken"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn game_client_calls_without_their_header_are_refused_with_a_4xx() {
    each_backend(async |app| {
        let c = app.bare_client();
        // No header, or an empty one: not a game client's request → 401 with its own code.
        fail(c.get("/api/studio/seeds").await, 401, 33);
        fail(c.exec(c.req(Method::GET, "/api/studio/seeds").header("x-game-session", " ")).await.pair(), 401, 33);
        // A header naming no session is the business answer 63, as before.
        fail(c.exec(c.req(Method::GET, "/api/studio/seeds").header("x-game-session", "nope")).await.pair(), 200, 63);
        let token = studio_token(app, "ct1@example.com").await;
        ok(c.exec(c.req(Method::GET, "/api/studio/seeds").header("x-game-session", &token)).await.pair());
    })
    .await;
}

#[tokio::test]
async fn bodies_must_be_json_objects_and_integral_numbers_are_integers() {
    each_backend(async |app| {
        let (api, _, _) = app.player("ct2@example.com").await;
        // serde reads a struct from an array: the extractor refuses anything but an object.
        let arr = api.exec(api.req(Method::PUT, "/api/user/profile/additional/update").header("content-type", "application/json").body("[null, null]")).await;
        fail(arr.pair(), 400, 40);
        let scalar = api.exec(api.req(Method::POST, "/api/user/signup/one-click").header("content-type", "application/json").body("7")).await;
        fail(scalar.pair(), 400, 40);
        // JSON (and JSON Schema) do not tell 500 from 500.0: both are the integer 500.
        let token = studio_token(app, "ct3@example.com").await;
        let c = app.bare_client();
        let roll = |amount: Value| {
            c.req(Method::POST, "/api/studio/dice/roll")
                .header("x-game-session", &token)
                .json(&json!({"amount": amount, "target": 5000, "over": true}))
        };
        ok(c.exec(roll(json!(500.0))).await.pair());
        // A real fraction stays malformed.
        fail(c.exec(roll(json!(500.5))).await.pair(), 400, 40);
        // Out-of-range values are business refusals (68), as the document's plain integers say.
        let far = c.req(Method::POST, "/api/studio/dice/roll").header("x-game-session", &token).json(&json!({"amount": 500, "target": 4_294_967_296_i64, "over": true}));
        fail(c.exec(far).await.pair(), 200, 68);
        let roulette = c.req(Method::POST, "/api/studio/roulette/spin").header("x-game-session", &token).json(&json!({"bets": [{"kind": "nonsense", "amount": 100}]}));
        fail(c.exec(roulette).await.pair(), 200, 68);
    })
    .await;
}

#[test]
fn the_document_describes_refusals() {
    let doc: Value = serde_json::from_str(&server::api::openapi_json()).unwrap();
    let error = json!({"$ref": "#/components/schemas/ErrorEnvelope"});
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            operations += 1;
            let ok_schema = &op["responses"]["200"]["content"]["application/json"]["schema"];
            assert!(ok_schema["anyOf"].as_array().is_some_and(|a| a.contains(&error)), "{method} {path}: 200 must allow the error envelope");
            assert!(op["responses"]["4XX"].is_object(), "{method} {path}: 4xx refusals undocumented");
            for p in op["parameters"].as_array().into_iter().flatten() {
                // Query structs once came out as path parameters.
                if p["in"] == "path" {
                    assert!(path.contains(&format!("{{{}}}", p["name"].as_str().unwrap())), "{method} {path}: {p}");
                }
            }
        }
    }
    assert!(operations > 40);
}
