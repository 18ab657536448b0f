//! Passwords hashed with argon2id, off the async runtime (hashing is deliberately slow).

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

#[derive(Debug, Clone, Copy)]
pub struct HashParams {
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for HashParams {
    /// OWASP's argon2id recommendation: 19 MiB, 2 iterations, 1 lane.
    fn default() -> Self {
        HashParams { memory_kib: 19_456, iterations: 2, parallelism: 1 }
    }
}

fn argon2(p: HashParams) -> Argon2<'static> {
    let params = Params::new(p.memory_kib, p.iterations, p.parallelism, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

pub async fn hash(password: String, p: HashParams) -> Result<String, String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        argon2(p).hash_password(password.as_bytes(), &salt).map(|h| h.to_string()).map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Verifies with the parameters stored in the hash itself.
pub async fn verify(password: String, stored: String) -> bool {
    tokio::task::spawn_blocking(move || match PasswordHash::new(&stored) {
        Ok(parsed) => Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hash_and_verify() {
        let p = HashParams { memory_kib: 1024, iterations: 1, parallelism: 1 };
        let h = hash("Secret42".into(), p).await.unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("Secret42".into(), h.clone()).await);
        assert!(!verify("Secret43".into(), h).await);
        assert!(!verify("x".into(), "not a hash".into()).await);
    }
}
