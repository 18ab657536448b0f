//! One-time payout codes. A code is 8 digits derived from the request id with the
//! network's secret (HMAC-SHA256, reduced mod 10^8), so the player's history can show it
//! again without the database holding it: the table keeps only `sha256(secret ":" code)`,
//! which the desk's entry is compared with. Without the secret neither the code nor a
//! usable hash comes out of a copy of the withdrawals table.

use super::{db_err, Cashier};
use hmac::{Hmac, Mac};
use kernel::clock::now_ms;
use kernel::AppError;
use sha2::{Digest, Sha256};
use store::sqlx::{self, Row};

pub const CODE_DIGITS: usize = 8;

/// The code of request `id` under `secret`.
pub fn derive(secret: &[u8], id: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"cashier-withdrawal:");
    mac.update(&id.to_be_bytes());
    let out = mac.finalize().into_bytes();
    let n = u64::from_be_bytes(out[..8].try_into().expect("8 bytes")) % 100_000_000;
    format!("{n:08}")
}

/// What the table stores for `code`.
pub fn hash(secret: &[u8], code: &str) -> String {
    let mut h = Sha256::new();
    h.update(secret);
    h.update(b":");
    h.update(code.as_bytes());
    hex::encode(h.finalize())
}

/// A well-formed code: exactly 8 digits (spaces and dashes the cashier typed are dropped).
pub fn normalise(input: &str) -> Option<String> {
    let digits: String = input.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
    (digits.len() == CODE_DIGITS && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

impl Cashier {
    /// The network's secret: `CASHIER_CODE_SECRET`, else one generated on first use and kept
    /// in `cashier_secrets` (the first writer wins; every instance then reads the same).
    pub(crate) async fn secret(&self) -> Result<Vec<u8>, AppError> {
        if let Some(s) = self.secret.get() {
            return Ok(s.clone());
        }
        let value = match &self.cfg.code_secret {
            Some(s) if !s.is_empty() => s.as_bytes().to_vec(),
            _ => {
                let fresh: [u8; 32] = rand::random();
                sqlx::query("INSERT INTO cashier_secrets (name, value, created_at) VALUES ('payout_code', $1, $2) ON CONFLICT (name) DO NOTHING")
                    .bind(hex::encode(fresh))
                    .bind(now_ms())
                    .execute(self.db.writer())
                    .await
                    .map_err(db_err)?;
                let row = sqlx::query("SELECT value FROM cashier_secrets WHERE name = 'payout_code'")
                    .fetch_one(self.db.writer())
                    .await
                    .map_err(db_err)?;
                row.get::<String, _>(0).into_bytes()
            }
        };
        let _ = self.secret.set(value.clone());
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_digits_and_depend_on_id_and_secret() {
        let a = derive(b"k1", 42);
        assert_eq!(a.len(), 8);
        assert!(a.bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(a, derive(b"k1", 42));
        assert_ne!(a, derive(b"k1", 43));
        assert_ne!(a, derive(b"k2", 42));
        assert_ne!(hash(b"k1", &a), hash(b"k2", &a));
    }

    #[test]
    fn normalise_accepts_typed_separators_only() {
        assert_eq!(normalise(" 1234-5678 ").as_deref(), Some("12345678"));
        assert_eq!(normalise("1234 5678").as_deref(), Some("12345678"));
        assert_eq!(normalise("1234567"), None);
        assert_eq!(normalise("123456789"), None);
        assert_eq!(normalise("1234567a"), None);
        assert_eq!(normalise("１２３４５６７８"), None);
    }
}
