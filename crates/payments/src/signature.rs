//! Callback signatures.
//!
//! * **Stripe style** (the sandbox): header `Carthage-Signature: t=<unix s>,v1=<hex>[,v1=…]`,
//!   `v1 = hex(HMAC_SHA256(secret, t + "." + raw body))`; accepted when any `v1` matches in
//!   constant time and `|now − t| ≤ 300 s`. Checked on the raw body, before parsing.
//! * **Paykassma postbacks**: `signature = sha1(access_key . private_key . md5(data))` where
//!   `data` is the postback's members other than `signature`, as received (see
//!   [`paykassma_data_text`]).

use hmac::{Hmac, Mac};
use kernel::{AppError, ErrorCode};
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// How far a callback's timestamp may be from our clock.
pub const TOLERANCE_S: i64 = 300;

/// The header the sandbox signs its callbacks with.
pub const HEADER: &str = "carthage-signature";

pub fn hmac_hex(secret: &str, t: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(t.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

/// The header value for `body` signed at `t` (what the sandbox and the tests send).
pub fn sign_header(secret: &str, t: i64, body: &[u8]) -> String {
    format!("t={t},v1={}", hmac_hex(secret, t, body))
}

/// Constant-time equality of two strings.
pub fn same(a: &str, b: &str) -> bool {
    ct_eq(a, b)
}

fn ct_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Verifies a Stripe-style header: 65 stale or missing timestamp, 64 bad signature.
pub fn verify_header(secret: &str, header: Option<&str>, body: &[u8], now_s: i64) -> Result<(), AppError> {
    let header = header.unwrap_or("");
    let mut t: Option<i64> = None;
    let mut sigs = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = v.trim().parse().ok(),
            Some(("v1", v)) => sigs.push(v.trim().to_ascii_lowercase()),
            _ => {}
        }
    }
    let Some(t) = t else {
        return Err(AppError::new(ErrorCode::TimestampStale));
    };
    if (now_s - t).abs() > TOLERANCE_S {
        return Err(AppError::new(ErrorCode::TimestampStale));
    }
    let expected = hmac_hex(secret, t, body);
    // Every candidate is compared (no early exit on the first match).
    let matched = sigs.iter().fold(false, |acc, s| ct_eq(s, &expected) | acc);
    if !matched {
        return Err(AppError::new(ErrorCode::SignatureInvalid));
    }
    Ok(())
}

pub fn md5_hex(data: &[u8]) -> String {
    hex::encode(Md5::digest(data))
}

pub fn sha1_hex(data: &[u8]) -> String {
    hex::encode(Sha1::digest(data))
}

/// Paykassma's postback signature over the `data` text.
pub fn paykassma_sign(access_key: &str, private_key: &str, data_text: &str) -> String {
    sha1_hex(format!("{access_key}{private_key}{}", md5_hex(data_text.as_bytes())).as_bytes())
}

pub fn paykassma_verify(access_key: &str, private_key: &str, data_text: &str, given: &str) -> bool {
    ct_eq(&given.trim().to_ascii_lowercase(), &paykassma_sign(access_key, private_key, data_text))
}

/// The text Paykassma hashes: PHP's `json_encode($data, JSON_UNESCAPED_SLASHES |
/// JSON_UNESCAPED_UNICODE)` of the postback without its `signature`. We do not re-encode
/// (serde would reorder keys and re-escape strings); we re-join the members **as received**
/// — each key and value exactly as its bytes arrived — compactly (`{"k":v,…}`) in the
/// received order, leaving `signature` out. For a sender that encodes compactly with those
/// flags (PHP does) this is byte-for-byte its `json_encode`. `None` when the body is not a
/// JSON object or has no string `signature`.
pub fn paykassma_data_text(body: &[u8]) -> Option<(String, String)> {
    use serde::de::{Deserializer, MapAccess, Visitor};
    use serde_json::value::RawValue;
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, Box<RawValue>)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some((k, v)) = map.next_entry::<String, Box<RawValue>>()? {
                out.push((k, v));
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    let members = (&mut de).deserialize_map(Members).ok()?;
    de.end().ok()?;
    let mut signature = None;
    let mut text = String::from("{");
    for (k, v) in members {
        if k == "signature" {
            signature = serde_json::from_str::<String>(v.get()).ok();
            continue;
        }
        if text.len() > 1 {
            text.push(',');
        }
        // The key re-encoded as PHP would (unescaped slashes and unicode).
        text.push_str(&php_string(&k));
        text.push(':');
        text.push_str(v.get());
    }
    text.push('}');
    Some((text, signature?))
}

/// A JSON string as PHP's `json_encode` writes it with `JSON_UNESCAPED_SLASHES |
/// JSON_UNESCAPED_UNICODE` (serde_json already leaves `/` and non-ASCII alone).
pub fn php_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// sha256 hex (stored payment tokens).
pub fn sha256_hex(s: &str) -> String {
    hex::encode(Sha256::digest(s.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripe_style_header() {
        let body = br#"{"id":"evt_1"}"#;
        let h = sign_header("whsec", 1_700_000_000, body);
        assert!(verify_header("whsec", Some(&h), body, 1_700_000_100).is_ok());
        // Several v1: any may match.
        let two = format!("t=1700000000,v1={},{}", "0".repeat(64), h.split_once(',').unwrap().1);
        assert!(verify_header("whsec", Some(&two), body, 1_700_000_000).is_ok());
        assert_eq!(verify_header("whsec", Some(&h), br#"{"id":"evt_2"}"#, 1_700_000_000).unwrap_err().code, ErrorCode::SignatureInvalid);
        assert_eq!(verify_header("other", Some(&h), body, 1_700_000_000).unwrap_err().code, ErrorCode::SignatureInvalid);
        assert_eq!(verify_header("whsec", Some(&h), body, 1_700_000_301).unwrap_err().code, ErrorCode::TimestampStale);
        assert_eq!(verify_header("whsec", Some(&h), body, 1_699_999_699).unwrap_err().code, ErrorCode::TimestampStale);
        assert_eq!(verify_header("whsec", None, body, 1).unwrap_err().code, ErrorCode::TimestampStale);
        assert_eq!(verify_header("whsec", Some("t=1700000000"), body, 1_700_000_000).unwrap_err().code, ErrorCode::SignatureInvalid);
    }

    #[test]
    fn known_hmac_vector() {
        // RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?").
        let mut mac = Hmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(hex::encode(mac.finalize().into_bytes()), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }

    #[test]
    fn paykassma_data_keeps_the_received_members() {
        let body = r#"{"transaction_id":"pk/1","amount":30000,"label":"é","converted_amount":{"USD":1.5},"signature":"abc"}"#.as_bytes();
        let (text, sig) = paykassma_data_text(body).unwrap();
        assert_eq!(sig, "abc");
        assert_eq!(text, r#"{"transaction_id":"pk/1","amount":30000,"label":"é","converted_amount":{"USD":1.5}}"#);
        let signed = paykassma_sign("a", "p", &text);
        assert!(paykassma_verify("a", "p", &text, &signed));
        assert!(!paykassma_verify("a", "q", &text, &signed));
        assert!(paykassma_data_text(b"[1]").is_none());
        assert!(paykassma_data_text(br#"{"a":1}"#).is_none(), "no signature");
        assert!(paykassma_data_text(br#"{"a":1,"signature":"x"} trailing"#).is_none());
    }
}
