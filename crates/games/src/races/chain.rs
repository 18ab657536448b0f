//! The races' hash chain in the database, built like the crash game's (`crash::chain`,
//! docs/CRASH.md "Hash chain"): a secret c_0, c_{k+1} = SHA-256(c_k), the public terminating
//! hash c_N, a public salt, and checkpoints every K links. Race number r (1-based, in order
//! of betting close) uses seed h_r = c_{N−r}.

use crate::crash::chain::generate;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::AppError;
use store::sqlx::{self, Row};
use store::Db;
use studio::fair::{hex32, new_server_seed, parse_hex32, Hash32};

/// The crash game's chain type: race r's seed is `round_hash(r)` = c_{N−r}.
pub use crate::crash::chain::Chain;

fn parse(text: &str) -> Result<Hash32, AppError> {
    parse_hex32(text).ok_or_else(|| AppError::internal("virtual races chain: a stored hash is not 64 hex digits"))
}

/// A chain by id (the active one or an older one: races keep their chain).
pub async fn load(db: &Db, id: Option<i64>) -> Result<Option<Chain>, AppError> {
    let row = match id {
        Some(id) => sqlx::query("SELECT id, length, terminating_hash, salt, checkpoint_every FROM virtual_chains WHERE id = $1")
            .bind(id)
            .fetch_optional(db.writer())
            .await,
        None => sqlx::query(
            "SELECT id, length, terminating_hash, salt, checkpoint_every FROM virtual_chains WHERE active = 1 ORDER BY id DESC LIMIT 1",
        )
        .fetch_optional(db.writer())
        .await,
    }
    .map_err(AppError::internal)?;
    let Some(row) = row else { return Ok(None) };
    let id: i64 = row.get(0);
    let rows = sqlx::query("SELECT hash FROM virtual_chain_checkpoints WHERE chain_id = $1 ORDER BY position")
        .bind(id)
        .fetch_all(db.writer())
        .await
        .map_err(AppError::internal)?;
    let checkpoints = rows.iter().map(|r| parse(&r.get::<String, _>(0))).collect::<Result<Vec<_>, _>>()?;
    Ok(Some(Chain {
        id,
        length: row.get::<i64, _>(1) as u64,
        terminating_hash: parse(&row.get::<String, _>(2))?,
        salt: row.get(3),
        checkpoint_every: row.get::<i64, _>(4) as u64,
        checkpoints,
    }))
}

/// Creates a chain from a fresh secret, retires the previous one and makes it active.
pub async fn create(db: &Db, length: u64, checkpoint_every: u64, salt: Option<String>) -> Result<Chain, AppError> {
    let seed = new_server_seed();
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
    let salt = salt.unwrap_or_else(|| hex::encode(&new_server_seed()[..16]));
    let id = next_id();
    let mut tx = db.writer().begin().await.map_err(AppError::internal)?;
    sqlx::query("UPDATE virtual_chains SET active = 0 WHERE active = 1").execute(&mut *tx).await.map_err(AppError::internal)?;
    sqlx::query(
        "INSERT INTO virtual_chains (id, seed, length, terminating_hash, salt, checkpoint_every, active, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7)",
    )
    .bind(id)
    .bind(hex32(&seed))
    .bind(length as i64)
    .bind(hex32(&h))
    .bind(&salt)
    .bind(k as i64)
    .bind(now_ms())
    .execute(&mut *tx)
    .await
    .map_err(AppError::internal)?;
    for (chunk_no, chunk) in checkpoints.chunks(200).enumerate() {
        let sql = format!("INSERT INTO virtual_chain_checkpoints (chain_id, position, hash) VALUES {}", store::values(chunk.len(), 3, 1));
        let mut q = sqlx::query(&sql);
        for (i, cp) in chunk.iter().enumerate() {
            q = q.bind(id).bind(((chunk_no * 200 + i) as u64 * k) as i64).bind(hex32(cp));
        }
        q.execute(&mut *tx).await.map_err(AppError::internal)?;
    }
    tx.commit().await.map_err(AppError::internal)?;
    tracing::info!(chain = id, length, terminating_hash = %hex32(&h), "virtual races: new hash chain");
    Ok(Chain { id, length, terminating_hash: h, salt, checkpoint_every: k, checkpoints })
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio::crash::chain_advance;

    #[test]
    fn seeds_walk_from_the_checkpoints() {
        let c0 = [9u8; 32];
        let (term, checkpoints) = generate(&c0, 500, 32);
        let chain = Chain { id: 1, length: 500, terminating_hash: term, salt: "s".into(), checkpoint_every: 32, checkpoints };
        for r in [1u64, 2, 31, 32, 33, 250, 468, 469, 499, 500] {
            assert_eq!(chain.round_hash(r), Some(chain_advance(&c0, 500 - r)), "race {r}");
            // SHA-256 applied r times to h_r gives the terminating hash.
            assert_eq!(chain_advance(&chain.round_hash(r).unwrap(), r), term);
        }
        assert_eq!(chain.round_hash(0), None);
        assert_eq!(chain.round_hash(501), None);
    }
}
