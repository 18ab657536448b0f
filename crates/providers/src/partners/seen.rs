//! Signatures seen (issue 18). Digitain signs `timestamp + operatorId`, never the body
//! (docs/PARTNERS.md): a valid signature proves that someone holding the secret sent
//! *something* at that time, not what. So a timestamp and its signature are accepted with
//! one body only: the first request that brings a pair records it here with a hash of its
//! method and body (a unique key, in the database: it holds across instances and restarts),
//! and later its reply.
//!
//! * the same pair with the same body again (a retry) → answered as the first time (the
//!   stored reply of a refusal; see `digitain::keeps_reply` for what is stored);
//! * the same pair with any other body → refused;
//! * rows are dropped once their timestamp is outside the window (a pair that old is
//!   refused by the window check anyway).
//!
//! The writes go through a [`WriteBatch`]: on SQLite many requests' claims share one commit.

use futures::FutureExt;
use kernel::AppError;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use store::sqlx::{self, Row};
use store::{Db, WriteBatch};

/// How long after its timestamp a pair's row is kept beyond the window itself.
const MARGIN_MS: i64 = 60_000;
/// Expired rows are swept at most this often per instance.
const SWEEP_EVERY_MS: i64 = 60_000;

/// What a claim found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The pair is new: process the request, then record its reply ([`SeenSignatures::answer`]).
    New,
    /// The pair came before with this very body: its reply, or `None` while the first is
    /// still being processed or when its outcome was not kept (process it again: the wallet
    /// is idempotent per transaction).
    Again(Option<String>),
    /// The pair came before with another body: refuse.
    OtherBody,
}

/// The hash a pair is bound to: the method and the raw body.
pub fn body_hash(method: &str, body: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(method.as_bytes());
    h.update(b"\n");
    h.update(body);
    hex::encode(h.finalize())
}

#[derive(Clone)]
pub struct SeenSignatures {
    batch: WriteBatch,
    swept_at: Arc<AtomicI64>,
}

impl SeenSignatures {
    pub fn new(db: Db) -> SeenSignatures {
        SeenSignatures { batch: WriteBatch::new(db), swept_at: Arc::new(AtomicI64::new(0)) }
    }

    /// Claims `(signed_at, signature)` for `hash`. `window_ms`: how long a timestamp is
    /// accepted either side of now; the row is kept until `signed_at_ms + window_ms` and a
    /// margin.
    pub async fn claim(&self, partner: &str, signed_at: &str, signature: &str, hash: &str, signed_at_ms: i64, window_ms: i64) -> Result<Claim, AppError> {
        let now = kernel::clock::now_ms();
        self.sweep(now).await;
        let (partner, signed_at, signature, hash) = (partner.to_string(), signed_at.to_string(), signature.to_string(), hash.to_string());
        let expires_at = signed_at_ms.max(now) + window_ms + MARGIN_MS;
        self.batch
            .run(move |conn| {
                async move {
                    let inserted = sqlx::query(
                        "INSERT INTO partner_signatures (partner, signed_at, signature, body_hash, reply, created_at, expires_at) \
                         VALUES ($1, $2, $3, $4, NULL, $5, $6) ON CONFLICT (partner, signed_at, signature) DO NOTHING",
                    )
                    .bind(&partner)
                    .bind(&signed_at)
                    .bind(&signature)
                    .bind(&hash)
                    .bind(now)
                    .bind(expires_at)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
                    if inserted == 1 {
                        return Ok(Claim::New);
                    }
                    let row = sqlx::query("SELECT body_hash, reply FROM partner_signatures WHERE partner = $1 AND signed_at = $2 AND signature = $3")
                        .bind(&partner)
                        .bind(&signed_at)
                        .bind(&signature)
                        .fetch_optional(&mut *conn)
                        .await?;
                    Ok::<_, sqlx::Error>(match row {
                        Some(r) if r.get::<String, _>(0) == hash => Claim::Again(r.get(1)),
                        _ => Claim::OtherBody,
                    })
                }
                .boxed()
            })
            .await
            .map_err(AppError::internal)?
            .map_err(AppError::internal)
    }

    /// Records the reply of a claimed pair (the first reply only).
    pub async fn answer(&self, partner: &str, signed_at: &str, signature: &str, reply: &str) -> Result<(), AppError> {
        let (partner, signed_at, signature, reply) = (partner.to_string(), signed_at.to_string(), signature.to_string(), reply.to_string());
        self.batch
            .run(move |conn| {
                async move {
                    sqlx::query("UPDATE partner_signatures SET reply = $1 WHERE partner = $2 AND signed_at = $3 AND signature = $4 AND reply IS NULL")
                        .bind(&reply)
                        .bind(&partner)
                        .bind(&signed_at)
                        .bind(&signature)
                        .execute(&mut *conn)
                        .await
                        .map(|_| ())
                }
                .boxed()
            })
            .await
            .map_err(AppError::internal)?
            .map_err(AppError::internal)
    }

    /// Drops rows whose timestamps the window refuses anyway (at most once a minute).
    async fn sweep(&self, now: i64) {
        let last = self.swept_at.load(Ordering::Relaxed);
        if now - last < SWEEP_EVERY_MS || self.swept_at.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_err() {
            return;
        }
        let swept = self
            .batch
            .run(move |conn| {
                async move { sqlx::query("DELETE FROM partner_signatures WHERE expires_at < $1").bind(now).execute(&mut *conn).await.map(|r| r.rows_affected()) }.boxed()
            })
            .await;
        match swept {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "partners: sweeping old signatures failed"),
            Err(e) => tracing::warn!(error = %e, "partners: sweeping old signatures failed"),
        }
    }
}
