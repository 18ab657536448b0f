//! A provider's settings for one deployment, read from the environment as
//! `PROVIDER_<NAME>_<SETTING>` (docs/OPERATIONS.md lists them):
//!
//! | setting | meaning |
//! |---|---|
//! | `ENABLED` | `true`/`false`; default: on in demo mode, else on when a secret is set |
//! | `SECRET` | the shared secret / key of the dialect (PP secret key, Evolution authToken, Habanero passkey, …) |
//! | `URL` | the provider's base URL (launch and catalogue); demo: our local fake |
//! | `AUTH_REQUIRED` | guests see none of its games (spec §6); default `true` |
//! | anything else | dialect-specific (`OPERATOR_ID`, `PROJECT`, `PUBLIC_KEY`, …), see the dialect's module |
//!
//! Demo mode fills every provider in with working local values: a secret `"{name}-demo-secret"`
//! and the URL of the provider's local fake (`{public base}/demo-providers/{name}`), so
//! `make run` shows every adapter working with money flowing through its own dialect.

use std::collections::BTreeMap;

/// Every provider with a wallet adapter (the money dialects).
pub const WALLET_PROVIDERS: [&str; 10] = ["pragmatic", "evolution", "habanero", "slotegrator", "evoplay", "goldenrace", "softswiss", "hub88", "tvbet", "inbet"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    /// The provider code (lower case).
    pub name: String,
    pub enabled: bool,
    /// Demo mode: the provider is our local fake (labelled "demo" in the lobby).
    pub demo: bool,
    pub secret: Option<String>,
    pub url: String,
    pub auth_required: bool,
    /// Every `PROVIDER_<NAME>_<SETTING>` read, by lower-case setting name.
    pub values: BTreeMap<String, String>,
}

/// The demo secret of a provider (demo mode only; production needs `PROVIDER_<NAME>_SECRET`).
pub fn demo_secret(name: &str) -> String {
    format!("{name}-demo-secret")
}

fn truthy(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

impl ProviderSettings {
    /// The settings of `name` from `var` (an environment lookup). `public_base` is where
    /// this server is reached (the demo fakes live under it).
    pub fn from_lookup(name: &str, var: &dyn Fn(&str) -> Option<String>, demo: bool, public_base: &str, extra: &[&str]) -> Result<ProviderSettings, String> {
        let up = name.to_ascii_uppercase();
        let get = |setting: &str| var(&format!("PROVIDER_{up}_{setting}")).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let mut values = BTreeMap::new();
        for setting in ["ENABLED", "SECRET", "URL", "AUTH_REQUIRED", "LAUNCH_URL"].iter().chain(extra) {
            if let Some(v) = get(setting) {
                values.insert(setting.to_ascii_lowercase(), v);
            }
        }
        let secret = get("SECRET").or_else(|| demo.then(|| demo_secret(name)));
        let enabled = match get("ENABLED") {
            Some(v) => truthy(&v).ok_or_else(|| format!("PROVIDER_{up}_ENABLED must be true or false, not {v:?}"))?,
            None => demo || get("SECRET").is_some() || (name == "hub88" && get("PUBLIC_KEY").is_some()),
        };
        // Hub88 signs with RSA (`PROVIDER_HUB88_PUBLIC_KEY`): it has no shared secret.
        if enabled && secret.is_none() && name != "hub88" {
            return Err(format!("PROVIDER_{up}_SECRET is required when the provider is enabled"));
        }
        let url = match get("URL") {
            Some(u) if u.starts_with("http://") || u.starts_with("https://") => u.trim_end_matches('/').to_string(),
            Some(u) => return Err(format!("PROVIDER_{up}_URL must be an http(s) URL, not {u:?}")),
            None if demo => format!("{}/demo-providers/{name}", public_base.trim_end_matches('/')),
            None if enabled => return Err(format!("PROVIDER_{up}_URL is required when the provider is enabled")),
            None => String::new(),
        };
        let auth_required = match get("AUTH_REQUIRED") {
            Some(v) => truthy(&v).ok_or_else(|| format!("PROVIDER_{up}_AUTH_REQUIRED must be true or false, not {v:?}"))?,
            None => true,
        };
        Ok(ProviderSettings { name: name.to_string(), enabled, demo: demo && get("URL").is_none(), secret, url, auth_required, values })
    }

    /// A dialect-specific setting (`"operator_id"`), read as `PROVIDER_<NAME>_OPERATOR_ID`.
    pub fn value(&self, setting: &str) -> Option<&str> {
        self.values.get(setting).map(String::as_str)
    }

    /// The launch link template of the provider's games (`{gameId}`, `{token}`, `{lang}`,
    /// `{userId}` replaced): the local fake's game page in demo mode; else
    /// `PROVIDER_<NAME>_LAUNCH_URL`, or `{URL}/launch?…` when it is not set.
    pub fn launch_template(&self) -> String {
        if self.demo {
            return format!("{}/play?game={{gameId}}&token={{token}}&lang={{lang}}&player={{userId}}", self.url);
        }
        self.value("launch_url").map(String::from).unwrap_or_else(|| format!("{}/launch?game={{gameId}}&token={{token}}&lang={{lang}}", self.url))
    }

    /// Settings for tests and the demo: enabled, a secret, the given URL.
    pub fn local(name: &str, secret: &str, url: &str) -> ProviderSettings {
        ProviderSettings {
            name: name.into(),
            enabled: true,
            demo: true,
            secret: Some(secret.into()),
            url: url.into(),
            auth_required: true,
            values: BTreeMap::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: BTreeMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn demo_fills_in_local_values() {
        let s = ProviderSettings::from_lookup("pragmatic", &env(&[]), true, "http://127.0.0.1:8080/", &[]).unwrap();
        assert!(s.enabled && s.demo && s.auth_required);
        assert_eq!(s.secret.as_deref(), Some("pragmatic-demo-secret"));
        assert_eq!(s.url, "http://127.0.0.1:8080/demo-providers/pragmatic");
    }

    #[test]
    fn production_needs_a_secret_and_a_url() {
        let off = ProviderSettings::from_lookup("pragmatic", &env(&[]), false, "", &[]).unwrap();
        assert!(!off.enabled);
        let e = ProviderSettings::from_lookup("pragmatic", &env(&[("PROVIDER_PRAGMATIC_ENABLED", "true")]), false, "", &[]).unwrap_err();
        assert!(e.contains("PROVIDER_PRAGMATIC_SECRET"), "{e}");
        let e = ProviderSettings::from_lookup("pragmatic", &env(&[("PROVIDER_PRAGMATIC_SECRET", "k")]), false, "", &[]).unwrap_err();
        assert!(e.contains("PROVIDER_PRAGMATIC_URL"), "{e}");
        let s = ProviderSettings::from_lookup(
            "hub88",
            &env(&[("PROVIDER_HUB88_SECRET", "k"), ("PROVIDER_HUB88_URL", "https://api.hub88.io/"), ("PROVIDER_HUB88_OPERATOR_ID", " 42 "), ("PROVIDER_HUB88_AUTH_REQUIRED", "no")]),
            false,
            "",
            &["OPERATOR_ID"],
        )
        .unwrap();
        assert!(s.enabled && !s.demo && !s.auth_required);
        assert_eq!((s.url.as_str(), s.value("operator_id")), ("https://api.hub88.io", Some("42")));
        assert!(ProviderSettings::from_lookup("x", &env(&[("PROVIDER_X_ENABLED", "maybe")]), true, "", &[]).is_err());
        assert!(ProviderSettings::from_lookup("x", &env(&[("PROVIDER_X_URL", "ftp://x")]), true, "", &[]).is_err());
    }
}
