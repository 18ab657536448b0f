//! The hash chain in the database: the secret c_0, its length N, the public terminating
//! hash c_N and checkpoints c_0, c_K, c_2K, … so that a round hash is found by walking at
//! most K − 1 links (`studio::crash` has the maths; nothing here re-implements it).

use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::AppError;
use store::sqlx::{self, Row};
use store::Db;
use studio::crash::{chain_advance, chain_next};
use studio::fair::{hex32, new_server_seed, parse_hex32, Hash32};

/// A chain with its checkpoints in memory (the crash game's and the virtual races').
#[derive(Debug, Clone)]
pub struct Chain {
    pub id: i64,
    pub length: u64,
    pub terminating_hash: Hash32,
    pub salt: String,
    pub checkpoint_every: u64,
    /// checkpoints[i] = c_{i·K}
    pub(crate) checkpoints: Vec<Hash32>,
}

impl Chain {
    /// h_r = c_{N−r} for round r in 1..=N, walking from the nearest checkpoint below.
    pub fn round_hash(&self, round: u64) -> Option<Hash32> {
        if round < 1 || round > self.length {
            return None;
        }
        let position = self.length - round;
        let k = self.checkpoint_every.max(1);
        let i = (position / k) as usize;
        let from = self.checkpoints.get(i)?;
        Some(chain_advance(from, position - i as u64 * k))
    }
}

/// Walks c_0 → c_N, keeping every K-th link. (CPU-bound: call from `spawn_blocking`.)
pub fn generate(seed: &Hash32, length: u64, checkpoint_every: u64) -> (Hash32, Vec<Hash32>) {
    let k = checkpoint_every.max(1);
    let mut checkpoints = Vec::with_capacity((length / k + 1) as usize);
    let mut h = *seed;
    for position in 0..length {
        if position % k == 0 {
            checkpoints.push(h);
        }
        h = chain_next(&h);
    }
    (h, checkpoints)
}

fn parse(text: &str) -> Result<Hash32, AppError> {
    parse_hex32(text).ok_or_else(|| AppError::internal("crash chain: a stored hash is not 64 hex digits"))
}

/// The active chain, if any.
pub async fn load_active(db: &Db) -> Result<Option<Chain>, AppError> {
    let row = sqlx::query(
        "SELECT id, length, terminating_hash, salt, checkpoint_every FROM crash_chains WHERE active = 1 ORDER BY id DESC LIMIT 1",
    )
    .fetch_optional(db.writer())
    .await
    .map_err(AppError::internal)?;
    let Some(row) = row else { return Ok(None) };
    let id: i64 = row.get(0);
    let rows = sqlx::query("SELECT position, hash FROM crash_chain_checkpoints WHERE chain_id = $1 ORDER BY position")
        .bind(id)
        .fetch_all(db.writer())
        .await
        .map_err(AppError::internal)?;
    let mut checkpoints = Vec::with_capacity(rows.len());
    for r in &rows {
        checkpoints.push(parse(&r.get::<String, _>(1))?);
    }
    let length: i64 = row.get(1);
    Ok(Some(Chain {
        id,
        length: length as u64,
        terminating_hash: parse(&row.get::<String, _>(2))?,
        salt: row.get(3),
        checkpoint_every: row.get::<i64, _>(4) as u64,
        checkpoints,
    }))
}

/// Creates a chain from a fresh secret c_0, retires the previous one and makes it active.
/// The salt is the configured public value, or a random one when none is configured.
pub async fn create(db: &Db, length: u64, checkpoint_every: u64, salt: Option<String>) -> Result<Chain, AppError> {
    let seed = new_server_seed();
    // In slices of K links off the runtime, so that stopping the engine stops the walk.
    let k = checkpoint_every.max(1);
    let mut checkpoints = Vec::with_capacity((length / k + 1) as usize);
    let mut h = seed;
    let mut position = 0;
    while position < length {
        let steps = (length - position).min(k * 16);
        let (next, mut cps) = tokio::task::spawn_blocking(move || generate(&h, steps, k)).await.map_err(AppError::internal)?;
        checkpoints.append(&mut cps);
        h = next;
        position += steps;
    }
    let terminating = h;
    let salt = salt.unwrap_or_else(|| hex::encode(&new_server_seed()[..16]));
    let id = next_id();
    let mut tx = db.writer().begin().await.map_err(AppError::internal)?;
    sqlx::query("UPDATE crash_chains SET active = 0 WHERE active = 1").execute(&mut *tx).await.map_err(AppError::internal)?;
    sqlx::query(
        "INSERT INTO crash_chains (id, seed, length, terminating_hash, salt, checkpoint_every, active, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7)",
    )
    .bind(id)
    .bind(hex32(&seed))
    .bind(length as i64)
    .bind(hex32(&terminating))
    .bind(&salt)
    .bind(checkpoint_every as i64)
    .bind(now_ms())
    .execute(&mut *tx)
    .await
    .map_err(AppError::internal)?;
    for (chunk_no, chunk) in checkpoints.chunks(200).enumerate() {
        let mut sql = String::from("INSERT INTO crash_chain_checkpoints (chain_id, position, hash) VALUES ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push(',');
            }
            sql.push_str(&format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3));
        }
        let mut q = sqlx::query(&sql);
        for (i, h) in chunk.iter().enumerate() {
            let position = (chunk_no * 200 + i) as u64 * checkpoint_every.max(1);
            q = q.bind(id).bind(position as i64).bind(hex32(h));
        }
        q.execute(&mut *tx).await.map_err(AppError::internal)?;
    }
    tx.commit().await.map_err(AppError::internal)?;
    tracing::info!(chain = id, length, terminating_hash = %hex32(&terminating), "crash: new hash chain");
    Ok(Chain { id, length, terminating_hash: terminating, salt, checkpoint_every, checkpoints })
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio::crash::round_hash;

    #[test]
    fn checkpoints_give_the_same_hashes_as_walking() {
        let seed = [3u8; 32];
        let (term, checkpoints) = generate(&seed, 1_000, 64);
        assert_eq!(term, studio::crash::terminating_hash(&seed, 1_000));
        let chain = Chain { id: 1, length: 1_000, terminating_hash: term, salt: "s".into(), checkpoint_every: 64, checkpoints };
        for r in [1, 2, 63, 64, 65, 500, 936, 937, 999, 1_000] {
            assert_eq!(chain.round_hash(r), Some(round_hash(&seed, 1_000, r)), "round {r}");
        }
        assert_eq!(chain.round_hash(0), None);
        assert_eq!(chain.round_hash(1_001), None);
        assert_eq!(chain_next(&chain.round_hash(1).unwrap()), term);
    }
}
