//! Harness of the HTTP integration suite: a real `carthage` server per test and per
//! backend (SQLite always, PostgreSQL too when `TEST_DATABASE_URL` is set), on
//! `127.0.0.1:0`, driven by `reqwest` over TCP.
//!
//! * [`each_backend`] / [`each_backend_with`] run a test body once per backend of
//!   [`store::testing::backends`] on a fresh, migrated and seeded database.
//! * Every response is checked: no request of the suite may be answered with a 5xx.
//! * [`ok`] and [`fail`] assert the reply envelope (`{status, result, error_message}`).

#![allow(dead_code)]

use reqwest::header::HeaderMap;
use reqwest::Method;
use serde_json::{json, Value};
use server::app::AppState;
use server::config::Config;
use sha2::{Digest, Sha256};
use std::net::SocketAddr;
use std::time::Duration;
use store::sqlx::{self, Row};
use store::testing::{backends, TestDb};
use store::Backend;
use wallet::{AccountRef, BalanceKind, PostingRequest, Receipt, TxType};

pub use accounts::limits::Limit;

/// Polls `cond` every 20 ms until it holds (how long that took) or `limit` passes (`None`).
pub async fn until(limit: Duration, mut cond: impl AsyncFnMut() -> bool) -> Option<Duration> {
    let t = std::time::Instant::now();
    while t.elapsed() < limit {
        if cond().await {
            return Some(t.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

/// A strong password (letters and digits).
pub const PASSWORD: &str = "Secret42";

// ------------------------------------------------------------------ running tests

/// Runs `body` once per backend on a fresh app with the test configuration.
pub async fn each_backend(body: impl AsyncFn(&TestApp)) {
    each_backend_with(|_| {}, body).await
}

/// Like [`each_backend`], with `tweak` applied to the configuration first (limits etc.).
pub async fn each_backend_with(tweak: impl Fn(&mut Config), body: impl AsyncFn(&TestApp)) {
    for backend in selected_backends() {
        eprintln!("=== backend: {backend:?}");
        let mut app = spawn_app_with(backend, &tweak).await;
        body(&app).await;
        app.cleanup().await;
    }
}

/// [`backends`], optionally narrowed by `TEST_BACKEND=sqlite|postgres` (for debugging).
pub fn selected_backends() -> Vec<Backend> {
    let only = std::env::var("TEST_BACKEND").unwrap_or_default().to_ascii_lowercase();
    backends()
        .into_iter()
        .filter(|b| match only.as_str() {
            "sqlite" => *b == Backend::Sqlite,
            "postgres" | "postgresql" | "pg" => *b == Backend::Postgres,
            _ => true,
        })
        .collect()
}

/// The test configuration: demo mode (outbox), fast argon2, and a per-IP send quota
/// high enough that a test's own sign-ups never hit it (tests of that limit lower it).
pub fn test_config(url: &str) -> Config {
    let mut cfg = Config::for_tests(url);
    cfg.accounts.limits.sends_per_ip = Limit { burst: 10_000, period: Duration::from_millis(10) };
    cfg
}

pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |_| {}).await
}

pub async fn spawn_app_with(backend: Backend, tweak: impl Fn(&mut Config)) -> TestApp {
    let db = TestDb::new(backend).await.expect("test database");
    let url = db.url.clone();
    start_app(backend, &url, tweak, Some(db)).await
}

/// Another instance on `app`'s database (ARCHITECTURE §7: several `carthage serve` on one
/// PostgreSQL), not seeded again; its cleanup stops it and leaves the database to `app`.
pub async fn spawn_peer(app: &TestApp, tweak: impl Fn(&mut Config)) -> TestApp {
    let url = app.state.config.database_url.clone();
    start_app(app.backend, &url, tweak, None).await
}

async fn start_app(backend: Backend, url: &str, tweak: impl Fn(&mut Config), db: Option<TestDb>) -> TestApp {
    let mut cfg = test_config(url);
    tweak(&mut cfg);
    let state = server::prepare(cfg).await.expect("prepare");
    // What `make run` does: site content and the demo accounts (once per database).
    if db.is_some() {
        server::seed::run(&state).await.expect("seed");
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::serve(state.clone(), listener, async move {
        let _ = rx.await;
    }));
    let base = format!("http://{addr}");
    let api = Api::new(&base, backend, true);
    TestApp { backend, state, addr, base, api, shutdown: Some(tx), server: Some(server), db }
}

pub struct TestApp {
    pub backend: Backend,
    /// The server's state (same database, ledger, accounts service).
    pub state: AppState,
    pub addr: SocketAddr,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// The default client (with a cookie store).
    pub api: Api,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    db: Option<TestDb>,
}

impl std::ops::Deref for TestApp {
    type Target = Api;
    fn deref(&self) -> &Api {
        &self.api
    }
}

impl TestApp {
    /// Another browser: its own cookie jar.
    pub fn client(&self) -> Api {
        Api::new(&self.base, self.backend, true)
    }

    /// A client without cookies (token clients, scripts).
    pub fn bare_client(&self) -> Api {
        Api::new(&self.base, self.backend, false)
    }

    /// Stops the server (a graceful stop: its duties are released at once); the database
    /// stays for the other instances and [`Self::cleanup`].
    pub async fn stop_instance(&mut self) {
        assert!(self.stop_server(Duration::from_secs(15)).await, "the server did not stop within 15 s");
        self.state.db.close().await;
    }

    /// Stops the server and drops the database.
    pub async fn cleanup(&mut self) {
        if !self.stop_server(Duration::from_secs(5)).await {
            eprintln!("server did not stop within 5 s");
        }
        self.state.db.close().await;
        if let Some(db) = self.db.take() {
            db.cleanup().await;
        }
    }

    /// Sends the stop signal and waits up to `limit` for the server to return (false if it
    /// did not); a server that returned an error fails the test.
    async fn stop_server(&mut self, limit: Duration) -> bool {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        match self.server.take() {
            Some(handle) => match tokio::time::timeout(limit, handle).await {
                Ok(joined) => {
                    joined.expect("server task").expect("server result");
                    true
                }
                Err(_) => false,
            },
            None => true,
        }
    }

    /// A plain GET (status and body text): `/healthz`, `/metrics`.
    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let r = reqwest::get(format!("{}{path}", self.base)).await.expect("request");
        (r.status().as_u16(), r.text().await.unwrap_or_default())
    }

    // -------------------------------------------------------------- database access

    /// Runs a statement on the app's database (writer pool); returns rows affected.
    pub async fn sql(&self, sql: &str) -> u64 {
        sqlx::query(sql)
            .execute(self.state.db.writer())
            .await
            .unwrap_or_else(|e| panic!("[{:?}] {sql}: {e}", self.backend))
            .rows_affected()
    }

    /// The first column of the first row, as an integer.
    pub async fn scalar(&self, sql: &str) -> i64 {
        sqlx::query(sql)
            .fetch_one(self.state.db.writer())
            .await
            .unwrap_or_else(|e| panic!("[{:?}] {sql}: {e}", self.backend))
            .get::<i64, _>(0)
    }

    pub async fn count(&self, table_and_where: &str) -> i64 {
        self.scalar(&format!("SELECT CAST(COUNT(*) AS BIGINT) FROM {table_and_where}")).await
    }

    // -------------------------------------------------------------- site & outbox

    pub async fn settings(&self) -> Value {
        ok(self.get("/api/site/settings").await)
    }

    pub async fn salt(&self) -> String {
        self.settings().await["phoneCodeSalt"].as_str().expect("phoneCodeSalt").to_string()
    }

    /// Lowercase hex SHA-256 of the phone (as sent) followed by the public salt.
    pub async fn phone_hash(&self, phone: &str) -> String {
        sha256_hex(&format!("{phone}{}", self.salt().await))
    }

    /// The demo outbox for a phone or e-mail, newest first.
    pub async fn outbox(&self, to: &str) -> Vec<Value> {
        let url = format!("/api/dev/outbox?to={}", urlencode(to));
        ok(self.get(&url).await).as_array().expect("outbox list").clone()
    }

    /// The code of the newest message to `to`.
    pub async fn last_code(&self, to: &str) -> String {
        let list = self.outbox(to).await;
        let m = list.first().unwrap_or_else(|| panic!("no message to {to}"));
        m["code"].as_str().unwrap_or_else(|| panic!("no code in {m}")).to_string()
    }

    /// The verification code of the newest e-mail link to `to`.
    pub async fn last_verify_code(&self, to: &str) -> String {
        let list = self.outbox(to).await;
        let link = list
            .iter()
            .find_map(|m| m["link"].as_str())
            .unwrap_or_else(|| panic!("no link sent to {to}: {list:?}"));
        link.split("/verify?code=").nth(1).unwrap_or_else(|| panic!("not a verify link: {link}")).to_string()
    }

    // -------------------------------------------------------------- sign-up helpers

    /// `POST /api/user/phone/code` with the right hash.
    pub async fn request_phone_code(&self, api: &Api, phone: &str) -> (u16, Value) {
        let hash = self.phone_hash(phone).await;
        api.post("/api/user/phone/code", json!({ "phone": phone, "hash": hash })).await
    }

    /// Phone sign-up through the SMS code; `api` is signed in. Returns the session reply.
    pub async fn signup_phone(&self, api: &Api, phone: &str, password: &str) -> Value {
        ok(self.request_phone_code(api, phone).await);
        let code = self.last_code(phone).await;
        ok(api.post("/api/user/signup/phone", json!({ "phone": phone, "phoneCode": code, "password": password })).await)
    }

    /// E-mail sign-up (unverified). Returns the reply (`id`, `email`, `verificationSent`).
    pub async fn signup_email_unverified(&self, api: &Api, email: &str, password: &str) -> Value {
        ok(api.post("/api/user/signup", json!({ "email": email, "password": password, "name": "" })).await)
    }

    /// E-mail sign-up, verification through the e-mailed link, sign-in on `api`.
    /// Returns the session reply.
    pub async fn signup_email(&self, api: &Api, email: &str, password: &str) -> Value {
        self.signup_email_unverified(api, email, password).await;
        let code = self.last_verify_code(email).await;
        ok(api.get(&format!("/api/user/email/verify/{code}")).await);
        ok(api.post("/api/user/login/email", json!({ "email": email, "password": password })).await)
    }

    /// A signed-in e-mail player on a new client: `(client, user id, token)`.
    pub async fn player(&self, email: &str) -> (Api, i64, String) {
        let api = self.client();
        let s = self.signup_email(&api, email, PASSWORD).await;
        (api, s["user"]["id"].as_i64().expect("user id"), s["token"].as_str().expect("token").to_string())
    }

    /// A user of `role` (any but player) created directly and signed in (staff roles to the
    /// console, with a code; partners, cashiers and super agents as the player app does): its
    /// client and id.
    pub async fn staff(&self, role: accounts::Role, email: &str) -> (Api, i64) {
        let user = self
            .state
            .accounts
            .create_user(accounts::NewUser {
                email: Some(email.into()),
                phone: None,
                password: PASSWORD.into(),
                role,
                currency: kernel::Currency::Tnd,
                first_name: String::new(),
                last_name: String::new(),
                registered_via: "test",
            })
            .await
            .expect("staff user");
        if role.is_staff() {
            return (self.console(email, PASSWORD).await, user.id);
        }
        // Partners, cashiers, super agents: the player app's sign-in.
        let api = self.client();
        ok(api.login(email, PASSWORD).await);
        (api, user.id)
    }

    /// A client signed in to the console as the staff account `login`, the way a staff
    /// member does it: the authenticator is set up at the first sign-in
    /// (`/api/staff/totp/enrol`), then `/api/staff/login` with a code computed here from the
    /// secret (RFC 6238, independently of the server's `accounts::totp`). A code signs in
    /// once, so a second sign-in within the same 30 s takes the next step's code, waiting for
    /// it when that is still ahead.
    pub async fn console(&self, login: &str, password: &str) -> Api {
        let api = self.client();
        let user = self.state.accounts.find_by_login(login).await.expect("user").expect("staff account");
        let stored = |app: &TestApp| {
            let db = app.state.db.clone();
            async move {
                sqlx::query("SELECT secret, last_step, confirmed_at FROM staff_totp WHERE user_id = $1")
                    .bind(user.id)
                    .fetch_optional(db.writer())
                    .await
                    .expect("staff_totp")
                    .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1), r.get::<Option<i64>, _>(2).is_some()))
            }
        };
        if !stored(self).await.is_some_and(|(_, _, confirmed)| confirmed) {
            // The first sign-in: the right password without a code says "set it up" (144).
            let (_, first) = api.post("/api/staff/login", json!({ "login": login, "password": password })).await;
            assert_eq!(first["status"], 144, "an account without an authenticator: {first}");
            let enrolled = ok(api.post("/api/staff/totp/enrol", json!({ "login": login, "password": password })).await);
            assert!(enrolled["otpauthUri"].as_str().unwrap().starts_with("otpauth://totp/"), "{enrolled}");
        }
        for _ in 0..8 {
            let (secret, last_step, _) = stored(self).await.expect("an authenticator");
            let now = totp_step_now();
            let step = now.max(last_step + 1);
            if step > now + 1 {
                // Both this step's and the next one's codes are spent: wait for a new step.
                tokio::time::sleep(Duration::from_millis(30_000 - (kernel::clock::now_ms().rem_euclid(30_000)) as u64 + 50)).await;
                continue;
            }
            let (_, reply) = api.post("/api/staff/login", json!({ "login": login, "password": password, "code": totp_code(&secret, step) })).await;
            if reply["status"] == 0 {
                assert_eq!(reply["result"]["user"]["id"], user.id, "{reply}");
                return api;
            }
            // 143: another sign-in took the step first (or the step turned): once more.
            assert_eq!(reply["status"], 143, "staff sign-in of {login}: {reply}");
        }
        panic!("no console sign-in for {login} after 8 codes");
    }

    // -------------------------------------------------------------- money

    /// Credits `minor` units of the user's currency to one of their balances, through the
    /// ledger (house-funded, like `carthage wallet adjust`).
    pub async fn credit(&self, user_id: i64, kind: BalanceKind, minor: i64) -> Receipt {
        let user = self.state.accounts.user_by_id(user_id).await.expect("user").expect("user exists");
        let key = format!("test-credit:{}", kernel::ids::next_id());
        let posting = PostingRequest::transfer(
            TxType::ManualAdjustment,
            key,
            Some(user_id),
            user.currency,
            AccountRef::House(kind.funding_house()),
            AccountRef::Player { user_id, kind },
            minor,
        )
        .comment("test credit");
        self.state.ledger.post(posting).await.expect("credit")
    }

    pub async fn minor_balance(&self, user_id: i64, kind: BalanceKind) -> i64 {
        let user = self.state.accounts.user_by_id(user_id).await.expect("user").expect("user exists");
        self.state.ledger.balance(user_id, kind, user.currency).await.expect("balance")
    }

    /// After a test moved postings in time (`UPDATE ledger_entries SET created_at …`): the
    /// report rollups follow, as `carthage report rebuild` makes them after such an edit.
    pub async fn rollups_follow_history(&self) {
        wallet::rollup::rebuild(&self.state.db).await.expect("rollup rebuild");
    }

    pub async fn assert_ledger_consistent(&self) {
        let report = self.state.ledger.verify().await.expect("verify");
        assert!(report.is_consistent(), "[{:?}] ledger inconsistent: {report:?}", self.backend);
        // Every staff action the test made is in the audit chain, and the chain holds.
        let audit = store::audit::verify(&self.state.db).await.expect("audit verify");
        assert!(audit.is_consistent(), "[{:?}] audit chain broken: {audit:?}", self.backend);
        // The report rollups written with the postings agree with a recomputation from the
        // ledger (every posting the test made, rollbacks included).
        let rollups = wallet::rollup::verify(&self.state.db).await.expect("rollup verify");
        assert!(rollups.consistent(), "[{:?}] report rollups differ from the ledger: {rollups:?}", self.backend);
    }
}

impl Drop for TestApp {
    /// A test that panicked never reached `cleanup`: drop its database anyway.
    fn drop(&mut self) {
        if let Some(db) = self.db.take() {
            let _ = std::thread::spawn(move || {
                if let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    rt.block_on(db.cleanup());
                }
            })
            .join();
        }
    }
}

// ------------------------------------------------------------------ the HTTP client

/// A client of the server (cheap to clone; clones share the cookie jar).
#[derive(Clone)]
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
    pub backend: Backend,
}

/// A reply: HTTP status, headers, raw text and the parsed JSON body (`Null` if not JSON).
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: HeaderMap,
    pub text: String,
    pub body: Value,
}

impl Resp {
    pub fn pair(&self) -> (u16, Value) {
        (self.status, self.body.clone())
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
    }

    pub fn set_cookies(&self) -> Vec<String> {
        self.headers
            .get_all(reqwest::header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_string)
            .collect()
    }

    /// The `Set-Cookie` header of a cookie, if set.
    pub fn set_cookie(&self, name: &str) -> Option<String> {
        self.set_cookies().into_iter().find(|c| c.starts_with(&format!("{name}=")))
    }
}

impl Api {
    pub fn new(base: &str, backend: Backend, cookies: bool) -> Api {
        let http = reqwest::Client::builder()
            .cookie_store(cookies)
            .no_proxy()
            .timeout(Duration::from_secs(60))
            .build()
            .expect("http client");
        Api { http, base: base.to_string(), backend }
    }

    /// A request builder on `path` (relative to the server).
    pub fn req(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}{path}", self.base))
    }

    /// Sends a request; asserts the server did not answer with a 5xx.
    pub async fn exec(&self, builder: reqwest::RequestBuilder) -> Resp {
        let request = builder.build().expect("request");
        let what = format!("{} {}", request.method(), request.url().path());
        let resp = self.http.execute(request).await.unwrap_or_else(|e| panic!("[{:?}] {what}: {e}", self.backend));
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = resp.text().await.unwrap_or_default();
        assert!(status < 500, "[{:?}] {what} answered HTTP {status} (no 5xx allowed): {text}", self.backend);
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Resp { status, headers, text, body }
    }

    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> Resp {
        let mut b = self.req(method, path);
        if let Some(body) = body {
            b = b.json(&body);
        }
        self.exec(b).await
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(Method::GET, path, None).await.pair()
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(Method::POST, path, Some(body)).await.pair()
    }

    pub async fn put(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(Method::PUT, path, Some(body)).await.pair()
    }

    pub async fn patch(&self, path: &str) -> (u16, Value) {
        self.send(Method::PATCH, path, None).await.pair()
    }

    /// A GET with `Authorization: Bearer <token>`.
    pub async fn get_bearer(&self, path: &str, token: &str) -> (u16, Value) {
        self.exec(self.req(Method::GET, path).bearer_auth(token)).await.pair()
    }

    pub async fn login_email(&self, email: &str, password: &str) -> (u16, Value) {
        self.post("/api/user/login/email", json!({ "email": email, "password": password })).await
    }

    pub async fn login_phone(&self, phone: &str, password: &str) -> (u16, Value) {
        self.post("/api/user/login/phone", json!({ "phone": phone, "password": password })).await
    }

    pub async fn login(&self, login: &str, password: &str) -> (u16, Value) {
        self.post("/api/user/login", json!({ "login": login, "password": password })).await
    }

    pub async fn check(&self) -> (u16, Value) {
        self.get("/api/user/check").await
    }

    pub async fn balance(&self) -> Value {
        ok(self.get("/api/user/balance").await)
    }
}

// ------------------------------------------------------------------ TOTP (RFC 6238)

/// The 30-second step of now.
pub fn totp_step_now() -> i64 {
    kernel::clock::now_ms().div_euclid(30_000)
}

/// The 6-digit code of `step` for a base32 secret: HMAC-SHA1 of the big-endian step,
/// dynamically truncated (RFC 4226 §5.3). Written out here so that the tests do not check the
/// server's TOTP with itself.
pub fn totp_code(secret: &str, step: i64) -> String {
    use hmac::{Hmac, Mac};
    let mut key = Vec::new();
    let (mut bits, mut acc) = (0u32, 0u64);
    for c in secret.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'2'..=b'7' => c - b'2' + 26,
            _ => panic!("not base32: {secret}"),
        };
        acc = (acc << 5) | u64::from(v);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            key.push((acc >> bits) as u8);
        }
    }
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(&key).expect("key");
    mac.update(&(step as u64).to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = (digest[19] & 0x0f) as usize;
    let value = u32::from_be_bytes(digest[offset..offset + 4].try_into().unwrap()) & 0x7fff_ffff;
    format!("{:06}", value % 1_000_000)
}

#[test]
fn totp_code_matches_rfc_6238() {
    // Appendix B, SHA-1: secret "12345678901234567890", T = 59 s → 94287082 (8 digits).
    assert_eq!(totp_code("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59 / 30), "287082");
    assert_eq!(totp_code("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 1_234_567_890 / 30), "005924");
}

// ------------------------------------------------------------------ envelope asserts

/// A JSON number as f64 (money is compared as numbers and, where exactness matters, as
/// raw text).
#[track_caller]
pub fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// An amount or odds as the app sends them: a JSON number written from its decimal text
/// (test code never holds money in a float).
pub fn decimal(text: &str) -> Value {
    serde_json::from_str(text).expect("a decimal number")
}

/// Asserts a success envelope (HTTP 200, `status` 0, no error message); returns `result`.
#[track_caller]
pub fn ok(reply: (u16, Value)) -> Value {
    let (http, body) = reply;
    assert_eq!((http, body["status"].as_i64()), (200, Some(0)), "expected HTTP 200 status 0, got HTTP {http}: {body}");
    assert!(body["error_message"].is_null(), "success with an error message: {body}");
    assert!(body.get("result").is_some(), "no result: {body}");
    body["result"].clone()
}

/// Asserts a failure envelope: HTTP status, catalogue code, a non-empty message, and that
/// the HTTP status is the catalogue's for that code. Returns `result` (data, often null).
#[track_caller]
pub fn fail(reply: (u16, Value), http: u16, code: u32) -> Value {
    let (got_http, body) = reply;
    assert_eq!(
        (got_http, body["status"].as_u64()),
        (http, Some(code as u64)),
        "expected HTTP {http} status {code}, got HTTP {got_http}: {body}"
    );
    let msg = body["error_message"].as_str().unwrap_or_default();
    assert!(!msg.is_empty(), "failure without error_message: {body}");
    let catalogued = kernel::ErrorCode::from_code(code).unwrap_or_else(|| panic!("code {code} is not in the catalogue"));
    assert_eq!(catalogued.http_status(), http, "code {code} is catalogued with HTTP {}", catalogued.http_status());
    body["result"].clone()
}

// ------------------------------------------------------------------ small utilities

pub fn sha256_hex(s: &str) -> String {
    hex::encode(Sha256::digest(s.as_bytes()))
}

/// Percent-encodes a query value (enough for phones and e-mails).
pub fn urlencode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Epoch milliseconds of `YYYY-MM-DDTHH:MM:SSZ`-like UTC components.
pub fn utc_ms(year: i64, month: i64, day: i64, hour: i64) -> i64 {
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    (days * 86_400 + hour * 3_600) * 1_000
}

pub fn now_ms() -> i64 {
    kernel::clock::now_ms()
}
