//! Game providers (issue 20, docs/PROVIDERS.md): one module per provider dialect, each
//! **verify → parse into a wallet command → render in the provider's reply format** over
//! `casino::ProviderWallet`, which keeps every money rule (idempotency keys, tombstones,
//! reversal at most once, all-or-none batches, wins need a bet, the player named is the
//! session's). An adapter never moves money itself and never decides a money rule: it
//! translates.
//!
//! * [`ProviderAdapter`]: the wallet callbacks of one dialect, served by the server under
//!   `/api/providers/{provider}/{the provider's own method path}`.
//! * [`settings`]: a provider's deployment settings from `PROVIDER_<NAME>_<SETTING>`.
//! * [`fake`]: local fakes of the providers — HTTP servers that call our wallet exactly as
//!   each provider does, with its retries — used by the conformance suite and by demo mode.
//!
//! Verification always runs over the raw bytes received (form parameters as sent, the raw
//! JSON body), never over a re-serialisation: a provider adding a field, or formatting a
//! number differently, must not break the check, and a body re-serialised by a middlebox
//! must not pass it.

pub mod amount;
pub mod evolution;
pub mod evoplay;
pub mod fake;
pub mod glue;
pub mod goldenrace;
pub mod habanero;
pub mod hub88;
pub mod import;
pub mod ordered;
pub mod partners;
pub mod pragmatic;
pub mod rawjson;
pub mod settings;
pub mod slotegrator;
pub mod softswiss;

use async_trait::async_trait;
use axum::http::HeaderMap;
use std::collections::BTreeMap;
use std::sync::Arc;

pub use settings::ProviderSettings;

/// One callback as received: the method path after `/api/providers/{provider}/`, the raw
/// query string, the headers and the raw body.
#[derive(Debug, Clone, Copy)]
pub struct Inbound<'a> {
    pub path: &'a str,
    pub query: &'a str,
    pub headers: &'a HeaderMap,
    pub body: &'a [u8],
}

impl Inbound<'_> {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// The reply in the provider's format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outbound {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Outbound {
    pub fn json(status: u16, body: &serde_json::Value) -> Outbound {
        Outbound { status, content_type: "application/json", body: body.to_string().into_bytes() }
    }
    pub fn ok_json(body: &serde_json::Value) -> Outbound {
        Outbound::json(200, body)
    }
}

/// What every adapter acts on: the casino (its wallet, sessions and catalogue).
#[derive(Clone)]
pub struct Ctx {
    pub casino: casino::Casino,
}

/// One provider dialect.
#[async_trait]
pub trait ProviderAdapter: Send + Sync {
    /// The provider's code: its catalogue name, its path segment and its ledger keys'
    /// prefix (`prov:{code}:…`).
    fn code(&self) -> &'static str;
    /// Serves one wallet callback. Whatever arrives, the answer is in the provider's format
    /// (a malformed call gets the provider's own "bad request" code), never a panic.
    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound;
}

/// The dialect-specific settings a provider reads (`PROVIDER_<NAME>_<SETTING>`), beyond
/// `ENABLED`, `SECRET`, `URL` and `AUTH_REQUIRED`.
pub fn extra_settings(name: &str) -> &'static [&'static str] {
    match name {
        "hub88" => &["PUBLIC_KEY", "OPERATOR_ID"],
        "slotegrator" => &["MERCHANT_ID"],
        "evoplay" => &["PROJECT"],
        "goldenrace" => &["SITE_ID"],
        _ => &[],
    }
}

/// The adapters of a deployment, by provider code.
#[derive(Clone, Default)]
pub struct Registry {
    adapters: BTreeMap<&'static str, Arc<dyn ProviderAdapter>>,
}

impl Registry {
    /// The adapters of every provider whose settings enable it.
    pub fn from_settings(all: &[ProviderSettings]) -> Registry {
        let mut r = Registry::default();
        for s in all.iter().filter(|s| s.enabled) {
            let adapter: Option<Arc<dyn ProviderAdapter>> = match s.name.as_str() {
                pragmatic::CODE => Some(Arc::new(pragmatic::Pragmatic::new(s))),
                evolution::CODE => Some(Arc::new(evolution::Evolution::new(s))),
                habanero::CODE => Some(Arc::new(habanero::Habanero::new(s))),
                slotegrator::CODE => Some(Arc::new(slotegrator::Slotegrator::new(s))),
                evoplay::CODE => Some(Arc::new(evoplay::Evoplay::new(s))),
                goldenrace::CODE => Some(Arc::new(goldenrace::GoldenRace::new(s))),
                name if softswiss::speaker(name).is_some() => Some(Arc::new(softswiss::SoftSwiss::new(s))),
                hub88::CODE => Some(Arc::new(hub88::Hub88::new(s))),
                _ => None,
            };
            if let Some(a) = adapter {
                r.adapters.insert(a.code(), a);
            }
        }
        r
    }

    pub fn get(&self, code: &str) -> Option<&Arc<dyn ProviderAdapter>> {
        self.adapters.get(code)
    }

    pub fn codes(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.adapters.keys().copied()
    }
}

/// A JSON object written field by field, in order, with money as exact number texts (no
/// float on the way: `12.500` stays `12.500`, which a `serde_json::Value` would not keep).
#[derive(Debug, Clone, Default)]
pub struct JsonOut(Vec<(String, String)>);

impl JsonOut {
    pub fn new() -> JsonOut {
        JsonOut::default()
    }
    /// A string field.
    pub fn str(mut self, k: &str, v: &str) -> JsonOut {
        self.0.push((k.into(), serde_json::Value::String(v.into()).to_string()));
        self
    }
    /// An integer field.
    pub fn int(mut self, k: &str, v: i64) -> JsonOut {
        self.0.push((k.into(), v.to_string()));
        self
    }
    pub fn bool(mut self, k: &str, v: bool) -> JsonOut {
        self.0.push((k.into(), v.to_string()));
        self
    }
    /// A decimal number written verbatim (`amount::format` output).
    pub fn num(mut self, k: &str, decimal: &str) -> JsonOut {
        debug_assert!(decimal.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-'));
        self.0.push((k.into(), decimal.into()));
        self
    }
    /// Any JSON value (an echoed field, a nested object).
    pub fn value(mut self, k: &str, v: &serde_json::Value) -> JsonOut {
        self.0.push((k.into(), v.to_string()));
        self
    }
    pub fn obj(mut self, k: &str, v: JsonOut) -> JsonOut {
        self.0.push((k.into(), v.text()));
        self
    }
    pub fn text(&self) -> String {
        let fields: Vec<String> = self.0.iter().map(|(k, v)| format!("{}:{v}", serde_json::Value::String(k.clone()))).collect();
        format!("{{{}}}", fields.join(","))
    }
    pub fn reply(&self, status: u16) -> Outbound {
        Outbound { status, content_type: "application/json", body: self.text().into_bytes() }
    }
}
