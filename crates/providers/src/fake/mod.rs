//! Local fakes of the providers: what each provider's server does when it calls our wallet
//! — the request in its dialect, signed its way, sent over real HTTP, its reply read its
//! way, and resent the way that provider resends (a timeout or a "retry" code: the same
//! request again, a few times, then give up).
//!
//! A fake is an HTTP server ([`router`]) with one control endpoint per provider,
//! `POST /fake/{provider}/deliver` taking a [`Delivery`] ("bet 1.500 TND for player 7 in
//! round r1 as transaction t1", optionally forged) and answering what the provider
//! concluded ([`Answer`]). The conformance suite drives every adapter through its fake;
//! demo mode mounts the same fakes behind the demo games' pages, so a demo spin really
//! travels through the provider's dialect.
//!
//! Each dialect's client side is written from the provider's published protocol
//! (PROTOCOLS.md), apart from its adapter, and each is unit-tested against fixed vectors,
//! so a mistake shared by both halves shows in those vectors.

pub mod catalogue;
pub mod demo;
pub mod evolution;
pub mod evoplay;
pub mod goldenrace;
pub mod habanero;
pub mod hub88;
pub mod pragmatic;
pub mod slotegrator;
pub mod softswiss;

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// What the test (or the demo game) asks the provider to send.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub op: Op,
    /// Our user id (the provider's player id).
    pub player: i64,
    /// The game session token the provider holds (from the launch link).
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub tx: String,
    #[serde(default)]
    pub round: String,
    #[serde(default)]
    pub game: String,
    /// Minor units of `currency`.
    #[serde(default)]
    pub amount: i64,
    #[serde(default = "tnd")]
    pub currency: String,
    /// The transaction a rollback cancels.
    #[serde(default)]
    pub of: Option<String>,
    #[serde(default)]
    pub forge: Forge,
}

fn tnd() -> String {
    "TND".into()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Op {
    Authenticate,
    Balance,
    Bet,
    Win,
    Rollback,
}

/// How a delivery is tampered with (the conformance suite's attacks).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Forge {
    #[default]
    None,
    /// Signed with a key that is not the provider's.
    WrongSecret,
    /// Raw-body dialects: the signature of a canonical re-serialisation, sent with other
    /// (equivalent) bytes — our side must refuse it.
    Reserialised,
    /// Raw-body dialects: unusual but valid formatting (spaces, key order), signed over the
    /// exact bytes sent — our side must accept it.
    OddFormatting,
    /// A request built and signed for this delivery's player, then pointed at `player`
    /// (its id and token) with the signature kept.
    ForOther { player: i64, token: String },
    /// Dialects whose replies are signed: a real reply's credentials (signature,
    /// fingerprint) put on a request. Others: not expressible (`None`).
    ReplyAsRequest,
}

/// An HTTP request of a provider to our wallet.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method path after `/api/providers/{provider}/`.
    pub path: String,
    pub query: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// What the provider concluded from our reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    pub outcome: Outcome,
    /// The dialect's status or code as received (`"0"`, `"OK"`, `"RS_ERROR_…"`).
    pub code: String,
    /// The balance the reply carried, in minor units.
    pub balance: Option<i64>,
    /// The provider would send it again.
    #[serde(default)]
    pub retry: bool,
    #[serde(default)]
    pub attempts: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Accepted (money moved, or a retry answered as before, or a tombstone left).
    Done,
    /// The dialect's own "already processed" status (Evolution `BET_ALREADY_EXIST`, …):
    /// the provider takes it as delivered before.
    Duplicate,
    Refused,
    /// The operation cannot be said in this dialect (e.g. naming a rollback in a dialect
    /// whose cancels name bets only).
    Unsupported,
}

impl Answer {
    pub fn of(outcome: Outcome, code: impl Into<String>, balance: Option<i64>) -> Answer {
        Answer { outcome, code: code.into(), balance, retry: false, attempts: 0 }
    }
    pub fn unsupported() -> Answer {
        Answer::of(Outcome::Unsupported, "", None)
    }
}

/// A provider's keys as the provider holds them.
#[derive(Debug, Clone, Default)]
pub struct Keys {
    pub secret: String,
    /// Dialect-specific (Hub88's private key PEM, an operator id, …).
    pub extra: BTreeMap<String, String>,
}

/// The client side of one dialect.
pub trait Dialect: Send + Sync {
    fn code(&self) -> &'static str;
    /// Whether the dialect signs the raw body (the re-serialisation attacks apply).
    fn signs_raw_body(&self) -> bool {
        false
    }
    /// The request for `d`, or `None` when the dialect cannot express it.
    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request>;
    /// The provider's reading of our reply.
    fn read(&self, d: &Delivery, status: u16, body: &[u8]) -> Answer;
}

/// How often and how fast a provider resends.
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    pub attempts: u32,
    pub pause: Duration,
}

impl Default for Retry {
    fn default() -> Retry {
        Retry { attempts: 3, pause: Duration::from_millis(40) }
    }
}

/// Sends `d` to our wallet at `base` the way the provider does, resending on a transport
/// failure, a 5xx or a "retry" answer.
pub async fn deliver(http: &reqwest::Client, base: &str, dialect: &dyn Dialect, keys: &Keys, d: &Delivery, retry: Retry) -> Answer {
    let Some(req) = dialect.request(d, keys) else {
        return Answer::unsupported();
    };
    send(http, base, dialect, &req, d, retry).await
}

/// Sends a request already built (and signed) for `d`, resending as [`deliver`] does (the
/// load generator builds its requests before it starts the clock).
pub async fn send(http: &reqwest::Client, base: &str, dialect: &dyn Dialect, req: &Request, d: &Delivery, retry: Retry) -> Answer {
    let mut url = format!("{}/api/providers/{}/{}", base.trim_end_matches('/'), dialect.code(), req.path);
    if !req.query.is_empty() {
        url = format!("{url}?{}", req.query);
    }
    let mut last = Answer::of(Outcome::Refused, "unreachable", None);
    for attempt in 1..=retry.attempts.max(1) {
        let mut b = http.post(&url).timeout(Duration::from_secs(10)).body(req.body.clone());
        for (k, v) in &req.headers {
            b = b.header(k, v);
        }
        last = match b.send().await {
            Ok(r) => {
                let status = r.status().as_u16();
                match r.bytes().await {
                    Ok(body) if status < 500 => dialect.read(d, status, &body),
                    Ok(_) => Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {status}"), None) },
                    Err(e) => Answer { retry: true, ..Answer::of(Outcome::Refused, format!("read: {e}"), None) },
                }
            }
            Err(e) => Answer { retry: true, ..Answer::of(Outcome::Refused, format!("send: {e}"), None) },
        };
        last.attempts = attempt;
        if !last.retry {
            break;
        }
        tokio::time::sleep(retry.pause * attempt).await;
    }
    last
}

/// The keys a fake holds beyond the shared secret, in demo mode and tests (Hub88's RSA
/// private key, …).
pub fn demo_keys(code: &str) -> BTreeMap<String, String> {
    match code {
        // DEMO ONLY: the published demo key (`hub88_demo_key.pem`); the adapter trusts its
        // public half in demo mode without PROVIDER_HUB88_PUBLIC_KEY.
        "hub88" => [("private_key".to_string(), hub88::demo_private_key().to_string())].into(),
        _ => BTreeMap::new(),
    }
}

/// Every dialect with a fake.
pub fn dialects() -> Vec<Arc<dyn Dialect>> {
    let own: Vec<Arc<dyn Dialect>> = vec![
        Arc::new(pragmatic::PragmaticFake),
        Arc::new(evolution::EvolutionFake),
        Arc::new(habanero::HabaneroFake),
        Arc::new(slotegrator::SlotegratorFake),
        Arc::new(evoplay::EvoplayFake),
        Arc::new(goldenrace::GoldenRaceFake),
        Arc::new(hub88::Hub88Fake),
    ];
    // The universal wallet, once for each provider that speaks it.
    own.into_iter().chain(crate::softswiss::SPEAKERS.iter().map(|&code| Arc::new(softswiss::SoftSwissFake { code }) as Arc<dyn Dialect>)).collect()
}

/// The fakes' shared state: where our wallet is, and each provider's keys.
#[derive(Clone)]
pub struct Fakes {
    pub base: String,
    pub http: reqwest::Client,
    pub dialects: BTreeMap<&'static str, Arc<dyn Dialect>>,
    pub keys: BTreeMap<String, Keys>,
    pub retry: Retry,
}

impl Fakes {
    /// Fakes of every dialect calling `base`, each with the keys `keys_of` gives.
    pub fn new(base: &str, keys_of: impl Fn(&str) -> Keys) -> Fakes {
        let dialects: BTreeMap<&'static str, Arc<dyn Dialect>> = dialects().into_iter().map(|d| (d.code(), d)).collect();
        let keys = dialects.keys().map(|c| (c.to_string(), keys_of(c))).collect();
        Fakes { base: base.into(), http: reqwest::Client::new(), dialects, keys, retry: Retry::default() }
    }

    pub async fn deliver(&self, provider: &str, d: &Delivery) -> Answer {
        let (Some(dialect), Some(keys)) = (self.dialects.get(provider), self.keys.get(provider)) else {
            return Answer::of(Outcome::Unsupported, "no such fake", None);
        };
        deliver(&self.http, &self.base, dialect.as_ref(), keys, d, self.retry).await
    }
}

/// `POST /fake/{provider}/deliver`.
pub fn router(fakes: Fakes) -> Router {
    Router::new().route("/fake/{provider}/deliver", post(deliver_route)).with_state(Arc::new(fakes))
}

async fn deliver_route(State(f): State<Arc<Fakes>>, Path(provider): Path<String>, Json(d): Json<Delivery>) -> Json<Answer> {
    Json(f.deliver(&provider, &d).await)
}

/// Starts the fakes on a loopback port; returns their base URL.
pub async fn spawn(fakes: Fakes) -> std::io::Result<String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, router(fakes)).await;
    });
    Ok(format!("http://{addr}"))
}

/// Minor units as a decimal text with the currency's decimals (what providers send).
pub fn major(minor: i64, currency: &str) -> String {
    let c = currency.parse::<kernel::Currency>().unwrap_or(kernel::Currency::Tnd);
    crate::amount::format(minor, c)
}

/// A decimal text in a reply as minor units (`None` when absent or not a plain amount).
pub fn minor_of(v: &serde_json::Value, currency: &str) -> Option<i64> {
    let c = currency.parse::<kernel::Currency>().unwrap_or(kernel::Currency::Tnd);
    let text = match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return None,
    };
    kernel::money::parse_major(&text, c).ok()
}
