//! Rate limits shared by every instance (issue 21, crates/accounts/src/limits.rs): a brute
//! force spread over two instances on one PostgreSQL database gets no more tries than
//! against one, even when the tries race. PostgreSQL only (`TEST_DATABASE_URL`); SQLite
//! serves one instance (its single-instance limits are the tests of main.rs and
//! sessions_hardening.rs).

use crate::common::*;
use accounts::model::{NewUser, Role};
use reqwest::Method;
use serde_json::{json, Value};
use server::app::AppState;
use std::time::Duration;
use store::testing::TestDb;
use store::Backend;

/// One `carthage serve` on a shared database.
struct Instance {
    state: AppState,
    api: Api,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl Instance {
    async fn start(url: &str, seed: bool, tweak: impl Fn(&mut server::config::Config)) -> Instance {
        let mut cfg = test_config(url);
        tweak(&mut cfg);
        let state = server::prepare(cfg).await.expect("prepare");
        if seed {
            server::seed::run(&state).await.expect("seed");
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(server::serve(state.clone(), listener, async move {
            let _ = rx.await;
        }));
        Instance { state, api: Api::new(&base, Backend::Postgres, false), stop: Some(tx), server: Some(server) }
    }

    async fn stop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(h) = self.server.take() {
            let _ = tokio::time::timeout(Duration::from_secs(15), h).await;
        }
        self.state.db.close().await;
    }

    /// A sign-in from `ip` (the instances trust `X-Forwarded-For`, as behind the balancer).
    async fn login_from(&self, ip: &str, email: &str, password: &str) -> (u16, Value) {
        let req = self.api.req(Method::POST, "/api/user/login/email").header("x-forwarded-for", ip);
        self.api.exec(req.json(&json!({ "email": email, "password": password }))).await.pair()
    }
}

fn code(reply: &(u16, Value)) -> i64 {
    reply.1["status"].as_i64().unwrap_or(-1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_brute_force_spread_over_two_instances_gets_no_more_tries_than_against_one() {
    if store::testing::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    let t = TestDb::new(Backend::Postgres).await.expect("test database");
    let tweak = |cfg: &mut server::config::Config| {
        cfg.accounts.limits.login_failures_per_account = Limit { burst: 4, period: Duration::from_secs(3600) };
        cfg.accounts.limits.sends_per_address = Limit { burst: 2, period: Duration::from_secs(3600) };
        cfg.accounts.limits.slow_down_step = Duration::ZERO;
        cfg.trust_proxy = true;
    };
    let mut a = Instance::start(&t.url, true, tweak).await;
    let mut b = Instance::start(&t.url, false, tweak).await;
    let new = |email: &str| NewUser {
        email: Some(email.into()),
        phone: None,
        password: PASSWORD.into(),
        role: Role::Player,
        currency: kernel::Currency::Tnd,
        first_name: String::new(),
        last_name: String::new(),
        registered_via: "email",
    };
    a.state.accounts.create_user(new("victim@example.tn")).await.expect("victim");
    a.state.accounts.create_user(new("bystander@example.tn")).await.expect("bystander");

    // Sequential tries alternating between the instances, each from a new address: four
    // wrong passwords in all (the account's burst), then 16 everywhere.
    let mut wrong = 0;
    for i in 0..10 {
        let inst = if i % 2 == 0 { &a } else { &b };
        let r = inst.login_from(&format!("198.51.100.{i}"), "victim@example.tn", "Wrong123").await;
        match code(&r) {
            4 => wrong += 1,
            16 => assert!(r.1["result"]["retryAfterSeconds"].as_u64().unwrap() >= 1, "{r:?}"),
            _ => panic!("unexpected {r:?}"),
        }
    }
    assert_eq!(wrong, 4, "the account's four tries across both instances");
    // The right password is refused on both; another account is not affected.
    for inst in [&a, &b] {
        assert_eq!(code(&inst.login_from("203.0.113.1", "victim@example.tn", PASSWORD).await), 16);
        assert_eq!(code(&inst.login_from("203.0.113.1", "bystander@example.tn", PASSWORD).await), 0);
    }

    // Racing tries: 24 at once, half on each instance, against a fresh account.
    a.state.accounts.create_user(new("racer@example.tn")).await.expect("racer");
    let tries: Vec<_> = (0..24)
        .map(|i| {
            let api = if i % 2 == 0 { a.api.clone() } else { b.api.clone() };
            tokio::spawn(async move {
                let req = api.req(Method::POST, "/api/user/login/email").header("x-forwarded-for", format!("192.0.2.{i}"));
                api.exec(req.json(&json!({ "email": "racer@example.tn", "password": "Wrong123" }))).await.pair()
            })
        })
        .collect();
    let mut codes = Vec::new();
    for t in tries {
        codes.push(code(&t.await.unwrap()));
    }
    assert_eq!(codes.iter().filter(|c| **c == 4).count(), 4, "{codes:?}");
    assert_eq!(codes.iter().filter(|c| **c == 16).count(), 20, "{codes:?}");

    // SMS sends to one phone, spread and racing: the address's two sends in all.
    let hash = sha256_hex(&format!("21650000009{}", a.state.accounts.config().phone_code_salt));
    let sends: Vec<_> = (0..8)
        .map(|i| {
            let api = if i % 2 == 0 { a.api.clone() } else { b.api.clone() };
            let body = json!({ "phone": "21650000009", "hash": hash });
            tokio::spawn(async move {
                let req = api.req(Method::POST, "/api/user/phone/code").header("x-forwarded-for", format!("192.0.2.{}", 100 + i));
                api.exec(req.json(&body)).await.pair()
            })
        })
        .collect();
    let mut sent = 0;
    for s in sends {
        let r = s.await.unwrap();
        match code(&r) {
            0 => sent += 1,
            14 => assert!(r.1["result"]["retryAfterSeconds"].as_u64().unwrap() >= 1, "{r:?}"),
            _ => panic!("unexpected {r:?}"),
        }
    }
    assert_eq!(sent, 2, "two SMS across both instances");
    let messages: i64 = store::sqlx::query("SELECT COUNT(*) FROM outbox WHERE to_addr = '21650000009'").fetch_one(b.state.db.reader()).await.map(|r| store::Row::get(&r, 0)).unwrap();
    assert_eq!(messages, 2);

    // The refusals are counted in each instance's metrics.
    let (_, text) = (200, a.api.exec(a.api.req(Method::GET, "/metrics")).await.text);
    assert!(text.contains("carthage_rate_limited_total{bucket=\"sign_in_account\"}"), "{text}");

    a.stop().await;
    b.stop().await;
    t.cleanup().await;
}
