//! RS256 JSON Web Tokens for the GR8 Tech sportsbook login (`get-jwt-token`), and the key
//! pair behind them. The private key is PKCS#8 PEM: from `GR8_PRIVATE_KEY` when set, else
//! generated once and kept in `cashier_secrets` (name `gr8_jwt_private_key`, the
//! platform's table of generated secrets) so it survives restarts and is shared by every
//! instance; the public half is served at `GET /gr8/public-key`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rsa::pkcs1v15::{Signature, SigningKey, VerifyingKey};
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use rsa::signature::{SignatureEncoding, Signer, Verifier};
use rsa::{RsaPrivateKey, RsaPublicKey};
use sha2::{Digest, Sha256};

/// The signing key with its public half and key id.
#[derive(Clone)]
pub struct JwtKey {
    signing: SigningKey<Sha256>,
    /// SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
    pub public_pem: String,
    /// First 16 hex digits of the SHA-256 of the public key's DER: the `kid` header.
    pub kid: String,
}

impl JwtKey {
    pub fn from_pem(private_pem: &str) -> Result<JwtKey, String> {
        let key = RsaPrivateKey::from_pkcs8_pem(private_pem.trim()).map_err(|e| format!("GR8 private key: {e}"))?;
        let public = RsaPublicKey::from(&key);
        let public_pem = public.to_public_key_pem(LineEnding::LF).map_err(|e| e.to_string())?;
        let der = public.to_public_key_der().map_err(|e| e.to_string())?;
        let kid = hex::encode(&Sha256::digest(der.as_bytes())[..8]);
        Ok(JwtKey { signing: SigningKey::<Sha256>::new(key), public_pem, kid })
    }

    /// A new 2048-bit key as PKCS#8 PEM.
    pub fn generate_pem() -> Result<String, String> {
        let key = RsaPrivateKey::new(&mut rand::rngs::OsRng, 2048).map_err(|e| e.to_string())?;
        Ok(key.to_pkcs8_pem(LineEnding::LF).map_err(|e| e.to_string())?.to_string())
    }

    /// `header.payload.signature` with `alg: RS256`.
    pub fn sign(&self, claims: &serde_json::Value) -> String {
        let header = serde_json::json!({ "alg": "RS256", "typ": "JWT", "kid": self.kid });
        let input = format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
        let signature: Signature = self.signing.sign(input.as_bytes());
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }
}

/// Verifies an RS256 token with a public key (PEM) and answers its claims; `now_s` checks
/// `exp`. What the partner does with our public key (and the demo partner page too).
pub fn verify(token: &str, public_pem: &str, now_s: i64) -> Result<serde_json::Value, String> {
    let key = RsaPublicKey::from_public_key_pem(public_pem.trim()).map_err(|e| e.to_string())?;
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err("not a JWT".into());
    };
    let header: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(h).map_err(|_| "bad header")?).map_err(|_| "bad header")?;
    if header["alg"] != "RS256" {
        return Err("not RS256".into());
    }
    let sig = Signature::try_from(URL_SAFE_NO_PAD.decode(s).map_err(|_| "bad signature")?.as_slice()).map_err(|_| "bad signature")?;
    VerifyingKey::<Sha256>::new(key).verify(format!("{h}.{p}").as_bytes(), &sig).map_err(|_| "signature mismatch")?;
    let claims: serde_json::Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(p).map_err(|_| "bad payload")?).map_err(|_| "bad payload")?;
    match claims["exp"].as_i64() {
        Some(exp) if exp > now_s => Ok(claims),
        _ => Err("expired".into()),
    }
}
