//! Issue 9, items 4–6: game sessions that end with the player's sign-in and have an
//! absolute lifetime; messages that go through an outbox in the same transaction as what
//! they announce, delivered by a worker with retries (one owner per message); the
//! hardening of `/metrics`, the security headers of the player app and the per-IP quota
//! of unknown-account probes.

use crate::common::*;
use crate::crash::{fast, round_where, Ws};
use accounts::notify::{OutboxConfig, TransportConfig, Transports};
use futures::StreamExt;
use reqwest::Method;
use serde_json::{json, Value};
use server::config::Mode;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use wallet::BalanceKind;

const SECRET: &str = "demo-secret";
const HOUR_MS: i64 = 3_600_000;

// =====================================================================================
// helpers
// =====================================================================================

/// Launches `game` of `provider` from the sign-in of `api`: the game session token.
async fn launch(api: &Api, provider: &str, game: &str) -> String {
    let r = ok(api.post("/api/casino/session", json!({ "provider": provider, "gameId": game, "lang": "en", "platform": "mobile" })).await);
    r["sessionToken"].as_str().expect("session token").to_string()
}

/// A signed provider-wallet call of the demo provider.
async fn call(app: &TestApp, op: &str, body: &Value) -> (u16, Value) {
    let raw = serde_json::to_vec(body).unwrap();
    let ts = (now_ms() / 1000).to_string();
    let c = app.bare_client();
    let b = c
        .req(Method::POST, &format!("/api/wallet/v1/{op}"))
        .header("content-type", "application/json")
        .header("x-provider", "demo")
        .header("x-timestamp", &ts)
        .header("x-signature", casino::signature::sign(SECRET, &ts, &raw))
        .body(raw);
    c.exec(b).await.pair()
}

fn money(token: &str, tx: &str, round: &str, amount: i64) -> Value {
    json!({ "sessionToken": token, "transactionId": tx, "roundId": round, "gameId": "demo-table", "amount": amount, "currency": "TND" })
}

/// A studio dice roll of 1 TND with the game session `token`.
async fn dice_roll(app: &TestApp, token: &str) -> (u16, Value) {
    let c = app.bare_client();
    c.exec(c.req(Method::POST, "/api/studio/dice/roll").header("x-game-session", token).json(&json!({ "amount": 1000, "target": 5000, "over": true })))
        .await
        .pair()
}

async fn studio_session(app: &TestApp, token: &str) -> (u16, Value) {
    let c = app.bare_client();
    c.exec(c.req(Method::GET, "/api/studio/session").header("x-game-session", token)).await.pair()
}

/// A win still pays on `token` (money owed is paid whatever became of the session).
async fn win_pays(app: &TestApp, user: i64, token: &str, tx: &str, round: &str) {
    let before = app.minor_balance(user, BalanceKind::Real).await;
    let r = ok(call(app, "win", &money(token, tx, round, 3_000)).await);
    assert_eq!(r["balance"].as_i64(), Some(before + 3_000));
    assert_eq!(app.minor_balance(user, BalanceKind::Real).await, before + 3_000);
}

/// Waits (≤ 20 s) until `cond` holds.
async fn eventually<F: std::future::Future<Output = bool>>(what: &str, mut cond: impl FnMut() -> F) {
    for _ in 0..400 {
        if cond().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

// =====================================================================================
// 4. game sessions end with the player session, and have an absolute lifetime
// =====================================================================================

#[tokio::test]
async fn game_sessions_take_no_stake_after_logout() {
    each_backend(async |app| {
        let (api, user, _) = app.player("gs-logout@example.com").await;
        app.credit(user, BalanceKind::Real, 50_000).await;
        let demo = launch(&api, "demo", "demo-table").await;
        let dice = launch(&api, "studio", "dice").await;
        ok(call(app, "bet", &money(&demo, "b-1", "r-1", 1_000)).await);
        ok(dice_roll(app, &dice).await);

        ok(api.get("/api/user/logout").await);
        // Stakes stop at once: the wallet API and the studio (not even its session info).
        fail(call(app, "bet", &money(&demo, "b-2", "r-2", 1_000)).await, 200, 63);
        fail(dice_roll(app, &dice).await, 200, 63);
        fail(studio_session(app, &dice).await, 200, 63);
        // What is owed still pays: the win of the round staked before, a rollback; the
        // retry of the stake accepted while the session was live answers as before.
        win_pays(app, user, &demo, "w-1", "r-1").await;
        ok(call(app, "bet", &money(&demo, "b-1", "r-1", 1_000)).await);
        ok(call(app, "rollback", &json!({ "sessionToken": demo, "transactionId": "rb-2", "referenceTransactionId": "b-2" })).await);
        ok(call(app, "balance", &json!({ "sessionToken": demo })).await);
        // Signing in again does not revive the game sessions of the ended sign-in.
        ok(api.login_email("gs-logout@example.com", PASSWORD).await);
        fail(call(app, "bet", &money(&demo, "b-3", "r-3", 1_000)).await, 200, 63);
        // A game launched from the new sign-in plays.
        let again = launch(&api, "demo", "demo-table").await;
        ok(call(app, "bet", &money(&again, "b-4", "r-4", 1_000)).await);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn game_sessions_take_no_stake_after_a_password_change_elsewhere() {
    each_backend(async |app| {
        let email = "gs-change@example.com";
        let (phone_app, user, _) = app.player(email).await;
        app.credit(user, BalanceKind::Real, 50_000).await;
        let laptop = app.client();
        ok(laptop.login_email(email, PASSWORD).await);
        let on_phone = launch(&phone_app, "demo", "demo-table").await;
        let dice_on_phone = launch(&phone_app, "studio", "dice").await;
        let on_laptop = launch(&laptop, "demo", "demo-table").await;
        ok(call(app, "bet", &money(&on_phone, "b-1", "r-1", 1_000)).await);

        // The password is changed on the laptop: the phone's sign-in ends, and with it its games.
        ok(laptop.post("/api/user/password/change", json!({ "password": PASSWORD, "new_password": "Newpass99" })).await);
        fail(phone_app.check().await, 401, 23);
        fail(call(app, "bet", &money(&on_phone, "b-2", "r-2", 1_000)).await, 200, 63);
        fail(dice_roll(app, &dice_on_phone).await, 200, 63);
        win_pays(app, user, &on_phone, "w-1", "r-1").await;
        // The laptop's sign-in stays, and so do its games.
        ok(call(app, "bet", &money(&on_laptop, "b-3", "r-3", 1_000)).await);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn game_sessions_take_no_stake_after_a_recovery() {
    each_backend(async |app| {
        let email = "gs-recover@example.com";
        let (api, user, _) = app.player(email).await;
        app.credit(user, BalanceKind::Real, 50_000).await;
        let demo = launch(&api, "demo", "demo-table").await;
        let dice = launch(&api, "studio", "dice").await;
        ok(call(app, "bet", &money(&demo, "b-1", "r-1", 1_000)).await);

        ok(app.bare_client().post("/api/user/password/restore", json!({ "email": email })).await);
        let code = app.last_code(email).await;
        ok(app.bare_client().post("/api/user/password/restore/new", json!({ "code": code, "new_password": "Newpass99" })).await);
        fail(call(app, "bet", &money(&demo, "b-2", "r-2", 1_000)).await, 200, 63);
        fail(dice_roll(app, &dice).await, 200, 63);
        win_pays(app, user, &demo, "w-1", "r-1").await;
        // Every game session of the player was ended too (not only refused through its sign-in).
        assert_eq!(app.count(&format!("game_sessions WHERE user_id = {user} AND expires_at > {}", now_ms())).await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn game_sessions_end_twelve_hours_after_launch_however_active() {
    each_backend(async |app| {
        let (api, user, _) = app.player("gs-lifetime@example.com").await;
        app.credit(user, BalanceKind::Real, 50_000).await;
        let demo = launch(&api, "demo", "demo-table").await;
        let dice = launch(&api, "studio", "dice").await;
        let lifetime = app.scalar(&format!("SELECT ends_at - created_at FROM game_sessions WHERE user_id = {user} ORDER BY id LIMIT 1")).await;
        assert_eq!(lifetime, 12 * HOUR_MS);
        ok(call(app, "bet", &money(&demo, "b-1", "r-1", 1_000)).await);

        // A stake extends the idle expiry, never past the absolute end.
        let now = now_ms();
        app.sql(&format!("UPDATE game_sessions SET expires_at = {}, ends_at = {} WHERE user_id = {user}", now + 10 * 60_000, now + 30 * 60_000)).await;
        ok(call(app, "bet", &money(&demo, "b-2", "r-2", 1_000)).await);
        assert_eq!(app.count(&format!("game_sessions WHERE user_id = {user} AND expires_at > ends_at")).await, 0);
        assert!(app.scalar(&format!("SELECT MAX(expires_at) FROM game_sessions WHERE user_id = {user}")).await > now + 10 * 60_000, "extended");

        // Twelve hours after the launch, played all along (idle expiry still ahead): no more stakes.
        let shift = 12 * HOUR_MS + 1_000;
        app.sql(&format!(
            "UPDATE game_sessions SET created_at = created_at - {shift}, ends_at = created_at - {shift} + {} , expires_at = {} WHERE user_id = {user}",
            12 * HOUR_MS,
            now_ms() + HOUR_MS
        ))
        .await;
        fail(call(app, "bet", &money(&demo, "b-3", "r-3", 1_000)).await, 200, 63);
        fail(dice_roll(app, &dice).await, 200, 63);
        win_pays(app, user, &demo, "w-1", "r-1").await;
        // The player is still signed in: a new launch plays.
        let fresh = launch(&api, "demo", "demo-table").await;
        ok(call(app, "bet", &money(&fresh, "b-4", "r-4", 1_000)).await);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn the_crash_engine_takes_no_stake_after_logout() {
    each_backend(async |app| {
        fast(app, |_| {}).await;
        let (api, user, _) = app.player("gs-crash@example.com").await;
        app.credit(user, BalanceKind::Real, 100_000).await;
        let token = launch(&api, "studio", "crash").await;
        let mut ws = Ws::open(app, &token).await;
        ok(api.get("/api/user/logout").await);
        // Connected before the logout: the stake is checked on the session as it is now.
        round_where(app, &mut ws, |_| true).await;
        ws.send(json!({ "type": "bet", "requestId": "x1", "amount": 1000 })).await;
        assert_eq!(ws.reply("x1").await["status"], 63);
        // A new connection with the token is refused.
        let url = format!("ws://{}/api/studio/crash/ws?token={token}", app.addr);
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
        let first = tokio::time::timeout(Duration::from_secs(10), socket.next()).await.expect("a message").expect("open").expect("ws");
        let v: Value = serde_json::from_str(first.to_text().unwrap_or("null")).unwrap_or(Value::Null);
        assert_eq!((v["type"].as_str(), v["status"].as_i64()), (Some("error"), Some(63)), "{v}");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 100_000);
    })
    .await;
}

// =====================================================================================
// 5. messages: outbox in the same transaction, a worker that retries, one owner each
// =====================================================================================

/// A fake SMS gateway: records every call; answers 500 to the first call of each message
/// (by its `reference`) when `fail_first`, 200 otherwise.
#[derive(Default)]
struct SmsGateway {
    fail_first: bool,
    /// (reference, to, text, status answered)
    calls: Mutex<Vec<(String, String, String, u16)>>,
}

impl SmsGateway {
    async fn spawn(fail_first: bool) -> (String, Arc<SmsGateway>) {
        use axum::extract::State;
        use axum::http::{HeaderMap, StatusCode};
        let gw = Arc::new(SmsGateway { fail_first, calls: Mutex::new(Vec::new()) });
        async fn send(State(gw): State<Arc<SmsGateway>>, headers: HeaderMap, axum::Json(body): axum::Json<Value>) -> StatusCode {
            assert_eq!(headers.get("authorization").and_then(|v| v.to_str().ok()), Some("Bearer sms-token"));
            let reference = body["reference"].as_str().unwrap_or_default().to_string();
            let mut calls = gw.calls.lock().unwrap();
            let seen = calls.iter().any(|c| c.0 == reference);
            let status = if gw.fail_first && !seen { 500 } else { 200 };
            calls.push((reference, body["to"].as_str().unwrap_or_default().into(), body["text"].as_str().unwrap_or_default().into(), status));
            StatusCode::from_u16(status).unwrap()
        }
        let router = axum::Router::new().route("/send", axum::routing::post(send)).with_state(gw.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/send", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        (url, gw)
    }

    fn calls_to(&self, to: &str) -> Vec<(String, String, String, u16)> {
        self.calls.lock().unwrap().iter().filter(|c| c.1 == to).cloned().collect()
    }
}

/// A fake SMTP server: refuses the first RCPT of each recipient (451, a temporary failure)
/// when `fail_first`, accepts everything else; keeps every message accepted.
#[derive(Default)]
struct SmtpServer {
    fail_first: bool,
    refused: Mutex<HashSet<String>>,
    /// (recipient, raw DATA)
    mails: Mutex<Vec<(String, String)>>,
}

impl SmtpServer {
    async fn spawn(fail_first: bool) -> (String, Arc<SmtpServer>) {
        let server = Arc::new(SmtpServer { fail_first, ..SmtpServer::default() });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("smtp://{}", listener.local_addr().unwrap());
        let s = server.clone();
        tokio::spawn(async move {
            while let Ok((conn, _)) = listener.accept().await {
                let s = s.clone();
                tokio::spawn(async move {
                    let _ = s.session(conn).await;
                });
            }
        });
        (url, server)
    }

    async fn session(&self, conn: tokio::net::TcpStream) -> std::io::Result<()> {
        let (read, mut write) = conn.into_split();
        let mut lines = BufReader::new(read).lines();
        write.write_all(b"220 fake ESMTP\r\n").await?;
        let mut rcpt = String::new();
        while let Some(line) = lines.next_line().await? {
            let upper = line.to_ascii_uppercase();
            let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                b"250 fake\r\n"
            } else if upper.starts_with("MAIL FROM") || upper.starts_with("RSET") || upper.starts_with("NOOP") {
                b"250 OK\r\n"
            } else if upper.starts_with("RCPT TO") {
                rcpt = line[8..].trim().trim_start_matches('<').trim_end_matches('>').to_ascii_lowercase();
                if self.fail_first && self.refused.lock().unwrap().insert(rcpt.clone()) {
                    b"451 4.3.0 Mailbox busy, try again later\r\n"
                } else {
                    b"250 OK\r\n"
                }
            } else if upper == "DATA" {
                write.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await?;
                let mut data = String::new();
                while let Some(l) = lines.next_line().await? {
                    if l == "." {
                        break;
                    }
                    data.push_str(&l);
                    data.push('\n');
                }
                self.mails.lock().unwrap().push((rcpt.clone(), data));
                b"250 queued\r\n"
            } else if upper.starts_with("QUIT") {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            } else {
                b"502 unknown command\r\n"
            };
            write.write_all(reply).await?;
        }
        Ok(())
    }

    fn mails_to(&self, to: &str) -> Vec<String> {
        self.mails.lock().unwrap().iter().filter(|m| m.0 == to).map(|m| m.1.clone()).collect()
    }
}

/// Fast retries for the tests.
fn fast_outbox(cfg: &mut server::config::Config) {
    cfg.outbox.retry_base_ms = 100;
    cfg.outbox.retry_max_ms = 400;
    cfg.outbox.poll = Duration::from_millis(50);
}

#[tokio::test]
async fn sign_up_writes_the_user_and_its_message_in_one_transaction() {
    each_backend(async |app| {
        // The outbox cannot be written: the sign-up fails whole — no user is left behind
        // to answer "user exists" to the retry.
        app.sql("ALTER TABLE outbox RENAME TO outbox_away").await;
        let signup = accounts::EmailSignup { email: "atomic@example.com".into(), password: PASSWORD.into(), ..Default::default() };
        let refused = app.state.accounts.signup_email(signup.clone(), &[kernel::Currency::Tnd], &accounts::Client::default()).await;
        assert_eq!(refused.map(|u| u.id).unwrap_err().code, kernel::ErrorCode::Internal);
        app.sql("ALTER TABLE outbox_away RENAME TO outbox").await;
        assert_eq!(app.count("users WHERE email = 'atomic@example.com'").await, 0);
        assert_eq!(app.count("email_tokens WHERE email = 'atomic@example.com'").await, 0);
        // The retry succeeds; user, token and message exist together.
        let r = ok(app.post("/api/user/signup", json!({ "email": "atomic@example.com", "password": PASSWORD, "name": "" })).await);
        assert_eq!(r["verificationSent"], true);
        assert_eq!(app.count("users WHERE email = 'atomic@example.com'").await, 1);
        assert_eq!(app.count("email_tokens WHERE email = 'atomic@example.com' AND purpose = 'verify'").await, 1);
        assert_eq!(app.count("outbox WHERE to_addr = 'atomic@example.com' AND channel = 'email'").await, 1);
        // Demo mode: the worker delivers it to the readable outbox (no transport configured).
        eventually("the demo delivery", || async move { app.count("outbox WHERE to_addr = 'atomic@example.com' AND status = 'sent'").await == 1 }).await;
        let code = app.last_verify_code("atomic@example.com").await;
        ok(app.get(&format!("/api/user/email/verify/{code}")).await);
    })
    .await;
}

#[tokio::test]
async fn the_worker_retries_an_e_mail_through_smtp() {
    let (smtp_url, smtp) = SmtpServer::spawn(true).await;
    each_backend_with(
        move |cfg| {
            cfg.transports.smtp_url = Some(smtp_url.clone());
            fast_outbox(cfg);
        },
        async |app| {
            let email = &format!("smtp-{:?}@example.com", app.backend).to_ascii_lowercase();
            let smtp = &smtp;
            ok(app.post("/api/user/signup", json!({ "email": email, "password": PASSWORD, "name": "" })).await);
            eventually("the e-mail marked sent", || async move {
                app.count(&format!("outbox WHERE to_addr = '{email}' AND status = 'sent' AND sent_at IS NOT NULL")).await == 1
            })
            .await;
            assert_eq!(app.scalar(&format!("SELECT attempts FROM outbox WHERE to_addr = '{email}'")).await, 2, "refused once (451), then delivered");
            let row = store::sqlx::query("SELECT last_error FROM outbox WHERE to_addr = $1").bind(email).fetch_one(app.state.db.writer()).await.unwrap();
            let error: Option<String> = store::sqlx::Row::get(&row, 0);
            assert!(error.as_deref().unwrap_or_default().contains("451"), "the first failure is recorded: {error:?}");
            let mails = smtp.mails_to(email);
            assert_eq!(mails.len(), 1, "delivered once");
            let id = app.scalar(&format!("SELECT id FROM outbox WHERE to_addr = '{email}'")).await;
            assert!(mails[0].contains(&format!("<outbox-{id}@carthage>")), "the outbox id is the Message-ID: {}", mails[0]);
            // The link in the delivered e-mail verifies the account.
            // The body is quoted-printable (a long line): soft breaks and `=3D` decoded.
            let body = mails[0].replace("=\n", "").replace("=3D", "=");
            let code = body.split("/verify?code=").nth(1).expect("a link").chars().take_while(|c| c.is_ascii_hexdigit()).collect::<String>();
            ok(app.get(&format!("/api/user/email/verify/{code}")).await);
            ok(app.login_email(email, PASSWORD).await);
        },
    )
    .await;
}

#[tokio::test]
async fn the_worker_retries_an_sms_and_never_sends_a_message_twice() {
    let (sms_url, gateway) = SmsGateway::spawn(true).await;
    let url = sms_url.clone();
    each_backend_with(
        move |cfg| {
            cfg.transports.sms_gateway_url = Some(url.clone());
            cfg.transports.sms_gateway_token = Some("sms-token".into());
            fast_outbox(cfg);
        },
        async |app| {
            let prefix = if app.backend == store::Backend::Sqlite { "2165100" } else { "2165200" };
            // One SMS: refused by the gateway once (500), delivered by the retry.
            let phone = &format!("{prefix}0000");
            ok(app.request_phone_code(app, phone).await);
            let code = app.last_code(phone).await;
            eventually("the SMS", || async move { app.count(&format!("outbox WHERE to_addr = '{phone}' AND status = 'sent'")).await == 1 }).await;
            let calls = gateway.calls_to(&format!("+{phone}"));
            assert_eq!(calls.iter().map(|c| c.3).collect::<Vec<_>>(), vec![500, 200], "{calls:?}");
            assert!(calls[1].2.contains(&code), "the code is in the SMS");
            let id = app.scalar(&format!("SELECT id FROM outbox WHERE to_addr = '{phone}'")).await;
            assert_eq!(calls[1].0, id.to_string(), "the outbox id is the gateway reference");
            assert_eq!(app.scalar(&format!("SELECT attempts FROM outbox WHERE id = {id}")).await, 2);
            // The code works.
            ok(app.client().post("/api/user/signup/phone", json!({ "phone": phone, "code": code, "password": PASSWORD })).await);

            // Rival workers (other instances) claim from the same outbox while 20 codes are
            // sent: every message reaches the gateway successfully exactly once.
            let transport = Arc::new(
                Transports::new(TransportConfig {
                    sms_gateway_url: Some(sms_url.clone()),
                    sms_gateway_token: Some("sms-token".into()),
                    ..TransportConfig::default()
                })
                .unwrap(),
            );
            let cfg = OutboxConfig { demo: true, retry_base_ms: 20, retry_max_ms: 100, ..OutboxConfig::default() };
            let rivals: Vec<_> = (0..3)
                .map(|_| {
                    let w = app.state.accounts.outbox_worker(transport.clone(), cfg.clone());
                    tokio::spawn(async move {
                        loop {
                            let _ = w.run_once().await;
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                    })
                })
                .collect();
            let phones: Vec<String> = (1..=20).map(|i| format!("{prefix}{i:04}")).collect();
            for p in &phones {
                ok(app.request_phone_code(app, p).await);
            }
            eventually("20 SMS", || async move { app.count(&format!("outbox WHERE to_addr LIKE '{prefix}%' AND status = 'sent'")).await == 21 }).await;
            for r in rivals {
                r.abort();
            }
            for p in &phones {
                let calls = gateway.calls_to(&format!("+{p}"));
                assert_eq!(calls.iter().filter(|c| c.3 == 200).count(), 1, "{p}: {calls:?}");
                assert_eq!(calls.len(), 2, "{p}: one refusal, one delivery: {calls:?}");
            }
            assert_eq!(app.count(&format!("outbox WHERE to_addr LIKE '{prefix}%' AND status <> 'sent'")).await, 0);
        },
    )
    .await;
}

#[tokio::test]
async fn disabled_sign_up_methods_and_missing_channels_are_refused() {
    // Production with no transport at all: only one-click sign-up can be offered.
    each_backend_with(
        |cfg| {
            cfg.mode = Mode::Production;
            cfg.accounts.signup = accounts::SignupMethods { email: false, phone: false, one_click: true };
        },
        async |app| {
            fail(app.post("/api/user/signup", json!({ "email": "off@example.com", "password": PASSWORD, "name": "" })).await, 200, 36);
            assert_eq!(app.count("users WHERE email = 'off@example.com'").await, 0);
            fail(app.request_phone_code(app, "21650000001").await, 200, 36);
            fail(app.post("/api/user/signup/phone", json!({ "phone": "21650000001", "code": "123456", "password": PASSWORD })).await, 200, 36);
            let one = ok(app.client().post("/api/user/signup/one-click", json!({})).await);
            // Recovery through a channel nothing can deliver: refused before anything is written.
            fail(app.post("/api/user/password/restore", json!({ "email": one["email"] })).await, 200, 37);
            fail(app.post("/api/user/password/restore/phone", json!({ "phone": "21650000001" })).await, 200, 37);
            assert_eq!(app.count("outbox").await, 0);
            assert_eq!(app.count("email_tokens").await, 0);
        },
    )
    .await;
}

// =====================================================================================
// 6. hardening: /metrics, security headers, unknown-account probes
// =====================================================================================

const METRICS_TOKEN: &str = "metrics-token-0123456789";

#[tokio::test]
async fn metrics_need_the_token_in_production() {
    each_backend_with(
        |cfg| {
            cfg.mode = Mode::Production;
            cfg.metrics_token = Some(METRICS_TOKEN.into());
        },
        async |app| {
            let c = app.bare_client();
            fail(c.get("/metrics").await, 401, 23);
            fail(c.get_bearer("/metrics", "metrics-token-wrong-guess").await, 401, 23);
            let r = c.exec(c.req(Method::GET, "/metrics").bearer_auth(METRICS_TOKEN)).await;
            assert_eq!(r.status, 200);
            assert!(r.text.contains("http_requests_total"), "{}", r.text);
        },
    )
    .await;
    // Production without a token or a separate address: never public.
    each_backend_with(
        |cfg| cfg.mode = Mode::Production,
        async |app| {
            fail(app.bare_client().get("/metrics").await, 404, 43);
        },
    )
    .await;
    // METRICS_BIND: only on the separate address.
    each_backend_with(
        |cfg| {
            cfg.mode = Mode::Production;
            cfg.metrics_bind = Some("127.0.0.1:0".parse().unwrap());
        },
        async |app| {
            fail(app.bare_client().get("/metrics").await, 404, 43);
            eventually("the metrics listener", || async move { app.state.metrics_addr.get().is_some() }).await;
            let addr = *app.state.metrics_addr.get().expect("metrics bound");
            let internal = Api::new(&format!("http://{addr}"), app.backend, false);
            let r = internal.send(Method::GET, "/metrics", None).await;
            assert_eq!(r.status, 200);
            assert!(r.text.contains("http_request"), "{}", r.text);
        },
    )
    .await;
}

#[tokio::test]
async fn the_app_is_served_with_csp_and_hsts() {
    let dir = std::env::temp_dir().join(format!("carthage-web-{}", kernel::ids::next_id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><div id=\"root\"></div><script type=\"module\" src=\"/assets/index.js\"></script>").unwrap();
    std::fs::write(dir.join("studio.html"), "<!doctype html><div id=\"studio\"></div>").unwrap();
    let web = dir.clone();
    each_backend_with(
        move |cfg| {
            cfg.web_dir = Some(web.clone());
            cfg.public_url = "https://carthage.example".into();
        },
        async |app| {
            let c = app.bare_client();
            let page = c.send(Method::GET, "/home", None).await;
            assert!(page.text.contains("id=\"root\""));
            let csp = page.header("content-security-policy").expect("CSP on the app");
            let directive = |name: &str| {
                csp.split(';').map(str::trim).find(|d| d.starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("no {name} in {csp}")).to_string()
            };
            assert_eq!(directive("default-src"), "default-src 'self'");
            assert_eq!(directive("script-src"), "script-src 'self'", "no inline or eval'd script");
            assert!(!csp.contains("unsafe-eval"), "{csp}");
            assert_eq!(directive("object-src"), "object-src 'none'");
            assert_eq!(directive("frame-src"), "frame-src 'self'", "the app frames /studio/ only");
            assert_eq!(directive("frame-ancestors"), "frame-ancestors 'none'", "nothing frames the app");
            assert_eq!(page.header("x-frame-options").as_deref(), Some("DENY"));
            let hsts = page.header("strict-transport-security").expect("HSTS with an https PUBLIC_URL");
            assert!(hsts.starts_with("max-age=") && hsts["max-age=".len()..].split(';').next().unwrap().parse::<u64>().unwrap() >= 31_536_000, "{hsts}");
            // The studio game clients: framed by the app (same origin) only.
            let studio = c.send(Method::GET, "/studio/dice?token=x", None).await;
            let csp = studio.header("content-security-policy").expect("CSP on /studio");
            assert!(csp.contains("frame-ancestors 'self'") && !csp.contains("frame-ancestors 'none'"), "{csp}");
            assert!(csp.contains("script-src 'self';"), "{csp}");
            assert_eq!(studio.header("x-frame-options").as_deref(), Some("SAMEORIGIN"));
            // API replies carry them too.
            let api = c.send(Method::GET, "/api/site/settings", None).await;
            assert!(api.header("content-security-policy").is_some() && api.header("strict-transport-security").is_some());
        },
    )
    .await;
    // Plain-HTTP demo (the tests' own configuration): no HSTS, the same CSP.
    let web = dir.clone();
    each_backend_with(
        move |cfg| cfg.web_dir = Some(web.clone()),
        async |app| {
            let page = app.bare_client().send(Method::GET, "/", None).await;
            assert!(page.header("strict-transport-security").is_none());
            assert!(page.header("content-security-policy").is_some());
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(dir);

    // The built app (when web/dist exists) needs nothing the policy forbids: no inline
    // script, no inline style element, no script from elsewhere.
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
    for page in ["index.html", "studio.html"] {
        let Ok(html) = std::fs::read_to_string(dist.join(page)) else {
            eprintln!("web/dist/{page} is not built: skipping its check");
            continue;
        };
        for script in html.split("<script").skip(1) {
            let tag = &script[..script.find('>').unwrap_or(script.len())];
            assert!(tag.contains("src=\"/"), "{page}: an inline or foreign script: <script{tag}>");
        }
        assert!(!html.contains("<style"), "{page}: an inline style element");
        assert!(!html.contains(" style=\""), "{page}: an inline style attribute");
    }
}

#[tokio::test]
async fn unknown_account_probes_are_rate_limited_per_ip() {
    each_backend_with(
        |cfg| {
            cfg.accounts.limits.unknown_accounts_per_ip = Limit { burst: 3, period: Duration::from_secs(3600) };
            cfg.trust_proxy = true;
        },
        async |app| {
            app.signup_email(&app.client(), "known@example.com", PASSWORD).await;
            let from = |ip: &'static str| {
                let c = app.bare_client();
                move |path: &'static str, body: Value| {
                    let c = c.clone();
                    async move { c.exec(c.req(Method::POST, path).header("x-forwarded-for", ip).json(&body)).await.pair() }
                }
            };
            let probe = from("203.0.113.7");
            fail(probe("/api/user/login/email", json!({ "email": "nobody1@example.com", "password": PASSWORD })).await, 200, 3);
            fail(probe("/api/user/password/restore", json!({ "email": "nobody2@example.com" })).await, 200, 21);
            fail(probe("/api/user/password/restore/phone", json!({ "phone": "21699999999" })).await, 200, 22);
            // The quota is used up: the next probe is refused, and so is every sign-in and
            // recovery lookup from this address (the refusal tells nothing about the account).
            let over = fail(probe("/api/user/login", json!({ "login": "nobody4@example.com", "password": PASSWORD })).await, 429, 14);
            assert!(over["retryAfterSeconds"].as_u64().unwrap() > 60, "{over}");
            fail(probe("/api/user/login/email", json!({ "email": "known@example.com", "password": PASSWORD })).await, 429, 14);
            fail(probe("/api/user/password/restore", json!({ "email": "known@example.com" })).await, 429, 14);
            fail(probe("/api/user/password/restore/phone/new", json!({ "phone": "21699999998", "code": "1", "new_password": "Newpass99" })).await, 429, 14);
            // A client cannot step out of its bucket by prepending an address of its own
            // choosing: the proxy's entry (the last) is the one that counts.
            let spoofed = from("192.0.2.55, 203.0.113.7");
            fail(spoofed("/api/user/login/email", json!({ "email": "nobody6@example.com", "password": PASSWORD })).await, 429, 14);
            // Another address is not affected.
            let other = from("198.51.100.9");
            fail(other("/api/user/login/email", json!({ "email": "nobody5@example.com", "password": PASSWORD })).await, 200, 3);
            ok(other("/api/user/login/email", json!({ "email": "known@example.com", "password": PASSWORD })).await);
        },
    )
    .await;
}
