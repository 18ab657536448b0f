//! The partner sportsbooks (docs/PARTNERS.md): Digitain and GR8 Tech. Both settle through
//! the seamless wallet (`casino::ProviderWallet`, the only way provider money moves), each
//! through a small adapter speaking its partner's published dialect: verify → parse into a
//! wallet command → render the outcome in the partner's reply format. Their money is booked
//! as partner sport (types 214/215, `house:partner_sports`), apart from the casino's.

pub use crate::amount;
pub mod digitain;
pub mod gr8;
pub mod jwt;
pub mod seen;

use kernel::{AppError, ErrorCode};
use std::net::IpAddr;
use std::sync::Arc;
use store::sqlx::{self, Row};
use store::Db;

pub const DIGITAIN: &str = "digitain";
pub const GR8: &str = "gr8";
/// The game id of every partner game session (a sportsbook has no games of its own).
pub const SPORTSBOOK_GAME: &str = "sportsbook";
/// What `GET /digitain/front/token` answers a guest (the frame opens view-only).
pub const ANONYMOUS_TOKEN: &str = "anonymous";

/// Spec §9 sports-frame languages.
pub const FRAME_LANGS: [&str; 7] = ["en", "ru", "he", "fr", "ar", "es", "pt"];

/// A sports-frame language from anything the app sends (`fr`, `fr-fr`, `ar_AR`); unknown → `en`.
pub fn frame_lang(lang: Option<&str>) -> &'static str {
    let l = lang.unwrap_or("").trim().to_ascii_lowercase();
    let short = l.split(['-', '_']).next().unwrap_or("");
    FRAME_LANGS.iter().copied().find(|c| *c == short).unwrap_or("en")
}

/// The partner sportsbooks' settings (environment; demo mode has working defaults).
#[derive(Debug, Clone, Default)]
pub struct PartnersConfig {
    /// `DIGITAIN_SECRET`: the key of the Digitain signatures (both ways). Without it the
    /// Digitain wallet answers every call "invalid signature" (12).
    pub digitain_secret: Option<String>,
    /// `DIGITAIN_OPERATOR_ID`: our operator id at Digitain (checked on every call: 15).
    pub digitain_operator_id: String,
    /// `DIGITAIN_FRAME_URL`: the frame's base URL (demo: our page `/partners/digitain`).
    pub digitain_url: String,
    /// `GR8_SECRET`: the HMAC key of GR8's wallet calls (`X-Signature`).
    pub gr8_secret: Option<String>,
    /// `GR8_OPERATOR_ID`: the `X-Operator-Id` GR8 sends (checked).
    pub gr8_operator_id: String,
    /// `GR8_BRAND`: the `X-Brand` GR8 sends (checked when set).
    pub gr8_brand: String,
    /// `GR8_IFRAME_URL`: the iframe's base (demo: our page `/partners/gr8`).
    pub gr8_iframe_url: String,
    /// `GR8_PRIVATE_KEY`: PKCS#8 PEM of the JWT key; generated and stored when absent.
    pub gr8_private_key_pem: Option<String>,
    /// `GR8_JWT_TTL_S` (default 3600).
    pub gr8_jwt_ttl_s: i64,
    /// `GR8_COUNTRY`: the `country` claim (ISO 3166 alpha-2, default TN).
    pub gr8_country: String,
    /// `DIGITAIN_ALLOWED_IPS`: the addresses Digitain's wallet calls may come from.
    pub digitain_allowed: AddressList,
    /// `GR8_ALLOWED_IPS`: the addresses GR8's wallet calls may come from.
    pub gr8_allowed: AddressList,
}

/// A partner's addresses (`DIGITAIN_ALLOWED_IPS`, `GR8_ALLOWED_IPS`): comma-separated IP
/// addresses and CIDR blocks (`203.0.113.7, 198.51.100.0/24, 2001:db8::/32`), or `*` for
/// any address. Empty allows nothing (a default no caller reaches by accident: demo mode
/// fills in `*`, production refuses to start a partner without its list).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressList {
    any: bool,
    nets: Vec<(IpAddr, u8)>,
}

impl AddressList {
    /// Any address.
    pub fn any() -> AddressList {
        AddressList { any: true, nets: Vec::new() }
    }

    pub fn parse(text: &str) -> Result<AddressList, String> {
        let mut list = AddressList::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "*" {
                list.any = true;
                continue;
            }
            let (addr, bits) = match part.split_once('/') {
                Some((a, b)) => (a.trim(), Some(b.trim())),
                None => (part, None),
            };
            let ip: IpAddr = addr.parse().map_err(|_| format!("{part:?} is not an IP address or CIDR block"))?;
            let ip = ip.to_canonical();
            let max = if ip.is_ipv4() { 32 } else { 128 };
            let bits = match bits {
                None => max,
                Some(b) => b.parse::<u8>().ok().filter(|b| *b <= max).ok_or_else(|| format!("{part:?}: the prefix length must be 0 to {max}"))?,
            };
            list.nets.push((ip, bits));
        }
        Ok(list)
    }

    /// Nothing listed (not even `*`).
    pub fn is_empty(&self) -> bool {
        !self.any && self.nets.is_empty()
    }

    /// Whether a call from `ip` is let through (`None`: the address is unknown, which only
    /// `*` lets through).
    pub fn allows(&self, ip: Option<IpAddr>) -> bool {
        if self.any {
            return true;
        }
        let Some(ip) = ip.map(|ip| ip.to_canonical()) else { return false };
        self.nets.iter().any(|(net, bits)| match (net, ip) {
            (IpAddr::V4(n), IpAddr::V4(a)) => prefix_eq(&n.octets(), &a.octets(), *bits),
            (IpAddr::V6(n), IpAddr::V6(a)) => prefix_eq(&n.octets(), &a.octets(), *bits),
            _ => false,
        })
    }
}

/// The first `bits` bits of `a` and `b` are equal.
fn prefix_eq(a: &[u8], b: &[u8], bits: u8) -> bool {
    let (full, rest) = ((bits / 8) as usize, bits % 8);
    if a[..full] != b[..full] {
        return false;
    }
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        a[full] & mask == b[full] & mask
    }
}

pub const DEMO_DIGITAIN_SECRET: &str = "digitain-demo-secret";
pub const DEMO_GR8_SECRET: &str = "gr8-demo-secret";
pub const DEMO_OPERATOR_ID: &str = "carthage-demo";
pub const DEMO_BRAND: &str = "carthage";

impl PartnersConfig {
    /// The settings from the environment. Production refuses to start a partner whose
    /// secret is set without its address list (`*` says "any address" explicitly).
    pub fn from_lookup(var: &dyn Fn(&str) -> Option<String>, demo: bool) -> anyhow::Result<PartnersConfig> {
        let or_demo = |k: &str, d: &str| var(k).or_else(|| demo.then(|| d.to_string()));
        let allowed = |key: &str, secret: &Option<String>| -> anyhow::Result<AddressList> {
            let list = AddressList::parse(&var(key).unwrap_or_default()).map_err(|e| anyhow::anyhow!("{key}: {e}"))?;
            if !list.is_empty() {
                return Ok(list);
            }
            if demo {
                return Ok(AddressList::any());
            }
            if secret.as_deref().is_some_and(|s| !s.is_empty()) {
                anyhow::bail!("{key} must list the partner's addresses (IPs or CIDR blocks, comma-separated), or be * to accept any address");
            }
            Ok(list)
        };
        let digitain_secret = or_demo("DIGITAIN_SECRET", DEMO_DIGITAIN_SECRET);
        let gr8_secret = or_demo("GR8_SECRET", DEMO_GR8_SECRET);
        Ok(PartnersConfig {
            digitain_allowed: allowed("DIGITAIN_ALLOWED_IPS", &digitain_secret)?,
            gr8_allowed: allowed("GR8_ALLOWED_IPS", &gr8_secret)?,
            digitain_secret,
            digitain_operator_id: or_demo("DIGITAIN_OPERATOR_ID", DEMO_OPERATOR_ID).unwrap_or_default(),
            digitain_url: or_demo("DIGITAIN_FRAME_URL", "/partners/digitain").unwrap_or_default(),
            gr8_secret,
            gr8_operator_id: or_demo("GR8_OPERATOR_ID", DEMO_OPERATOR_ID).unwrap_or_default(),
            gr8_brand: or_demo("GR8_BRAND", DEMO_BRAND).unwrap_or_default(),
            gr8_iframe_url: or_demo("GR8_IFRAME_URL", "/partners/gr8").unwrap_or_default(),
            gr8_private_key_pem: var("GR8_PRIVATE_KEY").map(|k| k.replace("\\n", "\n")),
            gr8_jwt_ttl_s: var("GR8_JWT_TTL_S").and_then(|v| v.parse().ok()).filter(|v| *v > 0).unwrap_or(3600),
            gr8_country: var("GR8_COUNTRY").unwrap_or_else(|| "TN".into()),
        })
    }
}

/// What the partner adapters act on: the partners' runtime, the casino (wallet and
/// sessions), the ledger and the accounts (Digitain's `authenticate` answers the
/// player's details).
#[derive(Clone, Copy)]
pub struct PartnerState<'a> {
    pub partners: &'a Partners,
    pub casino: &'a casino::Casino,
    pub ledger: &'a wallet::Ledger,
    pub accounts: &'a accounts::Accounts,
}

/// The partners' runtime: the configuration, the GR8 key (loaded once) and the Digitain
/// signatures seen.
#[derive(Clone)]
pub struct Partners {
    pub config: Arc<PartnersConfig>,
    db: Db,
    key: Arc<tokio::sync::OnceCell<jwt::JwtKey>>,
    pub seen: seen::SeenSignatures,
}

const KEY_NAME: &str = "gr8_jwt_private_key";

impl Partners {
    pub fn new(config: PartnersConfig, db: Db) -> Partners {
        Partners { config: Arc::new(config), seen: seen::SeenSignatures::new(db.clone()), db, key: Arc::new(tokio::sync::OnceCell::new()) }
    }

    /// The GR8 JWT key: configured, else stored, else generated and stored (the first
    /// writer wins: `ON CONFLICT DO NOTHING`, then everyone reads the stored one).
    pub async fn gr8_key(&self) -> Result<&jwt::JwtKey, AppError> {
        self.key
            .get_or_try_init(|| async {
                if let Some(pem) = &self.config.gr8_private_key_pem {
                    return jwt::JwtKey::from_pem(pem).map_err(AppError::internal);
                }
                if let Some(pem) = self.stored_key().await? {
                    return jwt::JwtKey::from_pem(&pem).map_err(AppError::internal);
                }
                let pem = tokio::task::spawn_blocking(jwt::JwtKey::generate_pem).await.map_err(AppError::internal)?.map_err(AppError::internal)?;
                sqlx::query("INSERT INTO cashier_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING")
                    .bind(KEY_NAME)
                    .bind(&pem)
                    .bind(kernel::clock::now_ms())
                    .execute(self.db.writer())
                    .await
                    .map_err(AppError::internal)?;
                let pem = self.stored_key().await?.ok_or_else(|| AppError::internal("the GR8 key was not stored"))?;
                jwt::JwtKey::from_pem(&pem).map_err(AppError::internal)
            })
            .await
    }

    async fn stored_key(&self) -> Result<Option<String>, AppError> {
        let row = sqlx::query("SELECT value FROM cashier_secrets WHERE name = $1")
            .bind(KEY_NAME)
            .fetch_optional(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(row.map(|r| r.get(0)))
    }
}

/// A partner's frame is offered only when its provider row is enabled (the operator's
/// switch: disabled answers 62, as a disabled casino provider does) and its URL is set (60).
pub fn frame_base(enabled: Option<bool>, url: &str) -> Result<String, AppError> {
    match enabled {
        None => Err(AppError::new(ErrorCode::ProviderNotConfigured)),
        Some(false) => Err(AppError::new(ErrorCode::GameNotFound)),
        Some(true) if url.trim().is_empty() => Err(AppError::new(ErrorCode::ProviderNotConfigured)),
        Some(true) => Ok(url.trim_end_matches('/').to_string()),
    }
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
pub use casino::urlencode;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_lists_match_ips_and_cidr_blocks() {
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        let list = AddressList::parse("203.0.113.7, 198.51.100.0/24,2001:db8::/32, 10.0.0.0/9").unwrap();
        assert!(list.allows(ip("203.0.113.7")));
        assert!(!list.allows(ip("203.0.113.8")));
        assert!(list.allows(ip("198.51.100.255")) && !list.allows(ip("198.51.101.0")));
        assert!(list.allows(ip("2001:db8:1::5")) && !list.allows(ip("2001:db9::1")));
        assert!(list.allows(ip("10.127.0.1")) && !list.allows(ip("10.128.0.1")));
        // An IPv4 peer seen through an IPv6 socket.
        assert!(list.allows(ip("::ffff:203.0.113.7")));
        assert!(!list.allows(None));
        assert!(AddressList::parse("").unwrap().is_empty());
        assert!(!AddressList::parse("").unwrap().allows(ip("127.0.0.1")));
        assert!(AddressList::parse("*").unwrap().allows(None));
        assert!(AddressList::parse("0.0.0.0/0").unwrap().allows(ip("8.8.8.8")));
        for bad in ["10.0.0.0/33", "example.com", "10.0.0/8", "::/129", "1.2.3.4/x"] {
            assert!(AddressList::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn production_needs_the_address_list_of_a_configured_partner() {
        let env = |pairs: &'static [(&'static str, &'static str)]| move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        // No secret: the partner is off, nothing to list.
        assert!(PartnersConfig::from_lookup(&env(&[]), false).is_ok());
        let err = PartnersConfig::from_lookup(&env(&[("DIGITAIN_SECRET", "s")]), false).unwrap_err().to_string();
        assert!(err.contains("DIGITAIN_ALLOWED_IPS"), "{err}");
        let err = PartnersConfig::from_lookup(&env(&[("GR8_SECRET", "s")]), false).unwrap_err().to_string();
        assert!(err.contains("GR8_ALLOWED_IPS"), "{err}");
        let c = PartnersConfig::from_lookup(&env(&[("DIGITAIN_SECRET", "s"), ("DIGITAIN_ALLOWED_IPS", "192.0.2.0/24")]), false).unwrap();
        assert!(c.digitain_allowed.allows(Some("192.0.2.9".parse().unwrap())) && !c.digitain_allowed.allows(Some("127.0.0.1".parse().unwrap())));
        let c = PartnersConfig::from_lookup(&env(&[("GR8_SECRET", "s"), ("GR8_ALLOWED_IPS", "*")]), false).unwrap();
        assert!(c.gr8_allowed.allows(None));
        // Demo mode: any address unless a list is given.
        let c = PartnersConfig::from_lookup(&env(&[]), true).unwrap();
        assert!(c.digitain_allowed.allows(None) && c.gr8_allowed.allows(None));
        assert!(PartnersConfig::from_lookup(&env(&[("GR8_ALLOWED_IPS", "nonsense")]), true).is_err());
    }

    #[test]
    fn frame_languages_map_to_the_spec_list() {
        assert_eq!(frame_lang(Some("fr-fr")), "fr");
        assert_eq!(frame_lang(Some("ar_AR")), "ar");
        assert_eq!(frame_lang(Some("HE")), "he");
        assert_eq!(frame_lang(Some("kk")), "en");
        assert_eq!(frame_lang(Some("<script>")), "en");
        assert_eq!(frame_lang(None), "en");
    }
}
