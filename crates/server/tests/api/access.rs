//! The access-control matrix (issue 22): every console operation of the OpenAPI document
//! (`/api/admin/…`, whatever is added later) called as a guest and as each role. Only the
//! intended roles get past the role check; a guest gets 23, any other role 24 (whatever body it
//! sent), and a refused call changes nothing. The intended roles are this test's own table, not
//! the server's matrix (`api::staff`): a console path missing from it fails the test.

use crate::common::*;
use accounts::Role;
use reqwest::Method;
use serde_json::{json, Value};

/// Who should get past the role check, by path prefix.
const INTENDED: &[(&str, &[Role])] = &[
    ("/api/admin/audit", &[Role::Admin, Role::Support, Role::Finance]),
    ("/api/admin/wallet/", &[Role::Admin, Role::Finance]),
    ("/api/admin/payments/", &[Role::Admin, Role::Finance]),
    ("/api/admin/promotions/", &[Role::Admin]),
    ("/api/admin/jackpots", &[Role::Admin]),
    ("/api/admin/players/acl-probe/notes", &[Role::Admin, Role::Support, Role::Finance]),
    ("/api/admin/players/acl-probe/", &[Role::Admin]),
    ("/api/admin/players", &[Role::Admin, Role::Support, Role::Finance]),
    ("/api/admin/reports", &[Role::Admin, Role::Finance]),
    ("/api/admin/me", &[Role::Admin, Role::Support, Role::Finance, Role::Content]),
];

fn intended(path: &str) -> &'static [Role] {
    INTENDED
        .iter()
        .find(|(prefix, _)| path.starts_with(prefix))
        .map(|(_, roles)| *roles)
        .unwrap_or_else(|| panic!("{path}: a console operation missing from the access-control table"))
}

/// Every `/api/admin/` operation of the document: (method, path with its parameters filled).
fn console_operations() -> Vec<(Method, String)> {
    let doc: Value = serde_json::from_str(&server::api::openapi_json()).unwrap();
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/admin/") {
            continue;
        }
        let filled: String = path.split('/').map(|seg| if seg.starts_with('{') { "acl-probe" } else { seg }).collect::<Vec<_>>().join("/");
        for (method, _) in item.as_object().unwrap() {
            let m = match method.as_str() {
                "get" => Method::GET,
                "post" => Method::POST,
                "put" => Method::PUT,
                "patch" => Method::PATCH,
                "delete" => Method::DELETE,
                _ => continue,
            };
            ops.push((m, filled.clone()));
        }
    }
    ops
}

#[tokio::test]
async fn every_console_operation_admits_only_its_roles() {
    let ops = console_operations();
    assert!(ops.len() >= 15, "the document lists the console: {ops:?}");
    each_backend(async |app| {
        // A guest, and one signed-in client per role (staff through the console's sign-in,
        // with their code); then each staff role again, signed in the player app's way (the
        // password only): the role check passes, the missing second factor does not (142).
        let mut clients: Vec<(Option<Role>, bool, Api)> = vec![(None, true, app.client())];
        for role in Role::ALL {
            let email = format!("acl-{}@example.tn", role.name());
            if role == Role::Player {
                let (api, _, _) = app.player(&email).await;
                clients.push((Some(role), true, api));
                continue;
            }
            let (api, _) = app.staff(role, &email).await;
            clients.push((Some(role), true, api));
            if role.is_staff() {
                let password_only = app.client();
                ok(password_only.login(&email, PASSWORD).await);
                clients.push((Some(role), false, password_only));
            }
        }

        // Every caller on every operation. The refused must change nothing; the intended
        // roles send empty bodies and unknown ids, refused on their content, so the state
        // must not move at all.
        let state = async || (app.count("audit_log").await, app.count("ledger_transactions").await, app.count("bonus_templates").await, app.count("promo_codes").await, app.count("adjust_requests").await);
        let before = state().await;
        let mut passed = Vec::new();
        for (method, path) in &ops {
            let allowed = intended(path);
            for (role, second_factor, api) in &clients {
                let body = (*method != Method::GET).then(|| json!({}));
                let r = api.send(method.clone(), path, body).await;
                let code = r.body["status"].as_i64().unwrap_or(-1);
                match role {
                    None => assert_eq!(code, 23, "guest: {method} {path}: {}", r.text),
                    Some(role) if !allowed.contains(role) => assert_eq!(code, 24, "{role:?}: {method} {path}: {}", r.text),
                    Some(role) if !second_factor => assert_eq!(code, 142, "{role:?} without a code: {method} {path}: {}", r.text),
                    Some(role) => {
                        assert!(![23, 24].contains(&code), "{role:?} refused: {method} {path}: {}", r.text);
                        passed.push((role.name(), method.to_string(), path.clone()));
                    }
                }
            }
        }
        // The intended roles' calls carried empty bodies and unknown ids: refused on their
        // content (40, 43, 47…), so nothing changed either.
        assert_eq!(state().await, before, "a refused call changed something");
        for (_, roles) in INTENDED {
            for role in *roles {
                assert!(passed.iter().any(|(r, _, _)| *r == role.name()), "{role:?} passed no operation");
            }
        }
        eprintln!("{} operations × {} callers; {} role checks passed as intended", ops.len(), clients.len(), passed.len());
    })
    .await;
}
