//! `carthage backup` and `carthage restore` (docs/OPERATIONS.md "Backups and restore").
//!
//! SQLite: the backup is `VACUUM INTO` on a connection of its own, SQLite's online copy: it
//! reads one snapshot (a read transaction under WAL), so the server keeps writing while it
//! runs and the copy holds exactly the transactions committed before it started. It is
//! written to `<file>.partial`, fsynced, then linked to `<file>` (never over an existing
//! file), so a crash never leaves a file that looks complete.
//!
//! The restore copies a checked file into place: the file must be a SQLite database that
//! passes `PRAGMA integrity_check` and carries only migrations this binary knows; the
//! target must not be open anywhere (a running server keeps its connections, and an
//! exclusive lock cannot be had while one is open); the copy goes to a temporary file
//! beside the target, is fsynced and renamed over it, and the target's stale `-wal` and
//! `-shm` go (a WAL left from the old file would be replayed into the new one). Then the
//! ledger is verified, as `carthage ledger verify` does.
//!
//! PostgreSQL: `pg_dump --format=custom` and `pg_restore --clean --if-exists --no-owner
//! --single-transaction` (a failed restore leaves the database as it was), then the same
//! verification. Production should rather use point-in-time recovery (base backups plus
//! WAL archiving); see the runbook.

use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use store::sqlx::sqlite::{SqliteConnectOptions, SqliteLockingMode};
use store::sqlx::{self, Connection, Row, SqliteConnection};
use store::{Backend, Db};

/// What `backup` wrote.
#[derive(Debug, Clone, Serialize)]
pub struct BackupReport {
    pub backend: String,
    pub path: PathBuf,
    pub bytes: u64,
    pub elapsed_ms: u128,
}

/// What `restore` did and what the ledger verification found.
#[derive(Debug, Clone, Serialize)]
pub struct RestoreReport {
    pub backend: String,
    pub source: PathBuf,
    /// The highest migration of the restored database before the binary's own were applied.
    pub schema_version: i64,
    /// Migrations this binary applied after the restore (a backup of an older release).
    pub migrations_applied: Vec<i64>,
    pub ledger: wallet::VerifyReport,
    /// The promotions' invariants that fail (empty when they hold).
    pub promotions: Vec<String>,
    /// The staff audit trail's chain (`audit verify`).
    pub audit: store::audit::Report,
    pub elapsed_ms: u128,
}

impl RestoreReport {
    /// True when the restored database passes `ledger verify` and `audit verify`.
    pub fn is_consistent(&self) -> bool {
        self.ledger.is_consistent() && self.promotions.is_empty() && self.audit.is_consistent()
    }
}

/// Makes a consistent copy of the database named by `url` at `path` while it is in use.
/// Refuses when `path` exists.
pub async fn backup(url: &str, path: &Path) -> anyhow::Result<BackupReport> {
    let started = Instant::now();
    if path.exists() {
        anyhow::bail!("{} already exists: a backup never overwrites a file", path.display());
    }
    let partial = partial_path(path);
    let backend = Backend::from_url(url)?;
    match backend {
        Backend::Sqlite => backup_sqlite(url, &partial).await?,
        Backend::Postgres => backup_postgres(url, &partial).await?,
    }
    sync_file(&partial)?;
    publish(&partial, path)?;
    let bytes = std::fs::metadata(path)?.len();
    Ok(BackupReport { backend: backend_name(backend), path: path.to_path_buf(), bytes, elapsed_ms: started.elapsed().as_millis() })
}

/// Replaces the database named by `url` with the backup at `path`, then verifies the ledger.
/// An `Err` means nothing was restored (the target is untouched) or the verification could
/// not run; a report whose [`RestoreReport::is_consistent`] is false means the restored
/// ledger fails `ledger verify`.
pub async fn restore(url: &str, path: &Path) -> anyhow::Result<RestoreReport> {
    let started = Instant::now();
    if !path.is_file() {
        anyhow::bail!("{} is not a file", path.display());
    }
    let backend = Backend::from_url(url)?;
    let schema_version = match backend {
        Backend::Sqlite => restore_sqlite(url, path).await?,
        Backend::Postgres => restore_postgres(url, path).await?,
    };
    // What `carthage ledger verify` does: bring the schema to this binary's, then check.
    let db = Db::connect(url).await?;
    let result = async {
        let migrations_applied = db.migrate().await?;
        let ledger = wallet::Ledger::new(db.clone());
        let report = ledger.verify().await?;
        let promotions = promotions::service::Promotions::new(db.clone(), ledger)
            .verify()
            .await
            .map_err(|e| anyhow::anyhow!("promotions check: {}", e.text()))?;
        let audit = store::audit::verify(&db).await?;
        anyhow::Ok((migrations_applied, report, promotions, audit))
    }
    .await;
    db.close().await;
    let (migrations_applied, ledger, promotions, audit) = result?;
    Ok(RestoreReport {
        backend: backend_name(backend),
        source: path.to_path_buf(),
        schema_version,
        migrations_applied,
        ledger,
        promotions,
        audit,
        elapsed_ms: started.elapsed().as_millis(),
    })
}

fn backend_name(b: Backend) -> String {
    match b {
        Backend::Sqlite => "sqlite".into(),
        Backend::Postgres => "postgres".into(),
    }
}

fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    path.with_file_name(name)
}

/// Links the finished `partial` to `path` without ever replacing an existing file (a hard
/// link fails when the name is taken; a file system without hard links falls back to a
/// rename after a last check), then removes `partial` and fsyncs the directory.
fn publish(partial: &Path, path: &Path) -> anyhow::Result<()> {
    match std::fs::hard_link(partial, path) {
        Ok(()) => std::fs::remove_file(partial)?,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = std::fs::remove_file(partial);
            anyhow::bail!("{} already exists: a backup never overwrites a file", path.display());
        }
        Err(_) => {
            if path.exists() {
                let _ = std::fs::remove_file(partial);
                anyhow::bail!("{} already exists: a backup never overwrites a file", path.display());
            }
            std::fs::rename(partial, path)?;
        }
    }
    sync_dir(path)
}

fn sync_file(path: &Path) -> anyhow::Result<()> {
    std::fs::File::open(path)?.sync_all()?;
    Ok(())
}

fn sync_dir(path: &Path) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // Directories can be fsynced on Unix; elsewhere opening one fails, and there is nothing to do.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

// ------------------------------------------------------------------ SQLite

/// The file of a `sqlite://` URL.
pub fn sqlite_path(url: &str) -> anyhow::Result<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .ok_or_else(|| anyhow::anyhow!("not a sqlite URL: {url}"))?;
    let path = rest.split_once('?').map(|(p, _)| p).unwrap_or(rest);
    if path.is_empty() || path == ":memory:" {
        anyhow::bail!("in-memory SQLite has nothing to back up or restore");
    }
    Ok(PathBuf::from(path))
}

fn sqlite_options(path: &Path) -> SqliteConnectOptions {
    SqliteConnectOptions::new().filename(path).create_if_missing(false).foreign_keys(false)
}

async fn backup_sqlite(url: &str, partial: &Path) -> anyhow::Result<()> {
    let source = sqlite_path(url)?;
    if !source.is_file() {
        anyhow::bail!("no database at {}", source.display());
    }
    // A `.partial` is only ever a backup that did not finish: VACUUM INTO needs the name free.
    match std::fs::remove_file(partial) {
        Ok(()) => tracing::warn!(path = %partial.display(), "removed an unfinished backup"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    // Its own connection (never one of the server's pools): a read transaction over one WAL
    // snapshot. The busy timeout only matters while a checkpoint or recovery holds a lock.
    let mut conn = SqliteConnection::connect_with(&sqlite_options(&source).busy_timeout(Duration::from_secs(30))).await?;
    let target = partial.to_str().ok_or_else(|| anyhow::anyhow!("the backup path is not UTF-8"))?;
    let result = sqlx::query(&format!("VACUUM INTO '{}'", target.replace('\'', "''"))).execute(&mut conn).await;
    let _ = conn.close().await;
    if let Err(e) = result {
        let _ = std::fs::remove_file(partial);
        anyhow::bail!("backup of {} failed: {e}", source.display());
    }
    Ok(())
}

/// The SQLite file header: the first 16 bytes of every database.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Checks the backup, puts it in place of the target; returns its schema version.
async fn restore_sqlite(url: &str, source: &Path) -> anyhow::Result<i64> {
    let target = sqlite_path(url)?;
    {
        use std::io::Read;
        let mut head = [0u8; 16];
        let mut f = std::fs::File::open(source)?;
        if f.read_exact(&mut head).is_err() || &head != SQLITE_MAGIC {
            anyhow::bail!("{} is not a SQLite database", source.display());
        }
    }
    if let Some(dir) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    // The copy beside the target (same file system, so the rename is atomic).
    let tmp = sibling(&target, &format!("restore-{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let outcome = async {
        std::fs::copy(source, &tmp)?;
        sync_file(&tmp)?;
        let version = check_sqlite_copy(&tmp).await?;
        swap_into_place(&tmp, &target).await?;
        anyhow::Ok(version)
    }
    .await;
    if outcome.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    for suffix in ["-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(sibling_suffix(&tmp, suffix));
    }
    outcome
}

fn sibling(target: &Path, extra: &str) -> PathBuf {
    let mut name = target.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".{extra}"));
    target.with_file_name(name)
}

fn sibling_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(suffix);
    path.with_file_name(name)
}

/// `PRAGMA integrity_check` on the copy (read only and immutable: no journal or WAL file is
/// made or read beside it), and its migrations known to this binary.
async fn check_sqlite_copy(copy: &Path) -> anyhow::Result<i64> {
    let opts = sqlite_options(copy).read_only(true).immutable(true);
    let mut conn = SqliteConnection::connect_with(&opts)
        .await
        .map_err(|e| anyhow::anyhow!("the backup cannot be opened as a SQLite database: {e}"))?;
    let result = async {
        let rows = sqlx::query("PRAGMA integrity_check")
            .fetch_all(&mut conn)
            .await
            .map_err(|e| anyhow::anyhow!("the backup is damaged: {e}"))?;
        let verdict: Vec<String> = rows.iter().map(|r| r.try_get::<String, _>(0).unwrap_or_default()).collect();
        if verdict != ["ok"] {
            anyhow::bail!("the backup is damaged: integrity_check says {}", verdict.join("; "));
        }
        let versions: Vec<i64> = sqlx::query("SELECT version FROM schema_migrations")
            .fetch_all(&mut conn)
            .await
            .map_err(|e| anyhow::anyhow!("the backup is not a Carthage database (no migrations table): {e}"))?
            .iter()
            .map(|r| r.get::<i64, _>(0))
            .collect();
        known_versions(&versions)
    }
    .await;
    let _ = conn.close().await;
    result
}

/// The highest version, when every one is a migration of this binary.
fn known_versions(versions: &[i64]) -> anyhow::Result<i64> {
    if versions.is_empty() {
        anyhow::bail!("the backup has no migrations applied: not a Carthage database");
    }
    let known: Vec<i64> = store::migrate::MIGRATIONS.iter().map(|m| m.version).collect();
    let unknown: Vec<i64> = versions.iter().copied().filter(|v| !known.contains(v)).collect();
    if !unknown.is_empty() {
        anyhow::bail!(
            "the backup has migrations this binary does not know ({unknown:?}; it knows up to {}): restore it with the release that made it",
            known.iter().max().copied().unwrap_or(0)
        );
    }
    Ok(versions.iter().copied().max().unwrap_or(0))
}

/// Renames `tmp` over `target` while holding an exclusive lock on the target, which cannot
/// be had while any connection has it open (under WAL every open connection keeps a shared
/// lock on the file): a running server makes this fail at once.
async fn swap_into_place(tmp: &Path, target: &Path) -> anyhow::Result<()> {
    let lock = if target.exists() {
        let opts = sqlite_options(target).locking_mode(SqliteLockingMode::Exclusive).busy_timeout(Duration::from_millis(250));
        let mut conn = SqliteConnection::connect_with(&opts)
            .await
            .map_err(|e| anyhow::anyhow!("{} is in use or unreadable ({e}); stop the server first", target.display()))?;
        // The first read takes the lock, and with locking_mode=EXCLUSIVE keeps it.
        let taken: Result<(), sqlx::Error> = async {
            sqlx::query("BEGIN EXCLUSIVE").execute(&mut conn).await?;
            sqlx::query("SELECT COUNT(*) FROM sqlite_master").fetch_one(&mut conn).await?;
            Ok(())
        }
        .await;
        if let Err(e) = taken {
            let _ = conn.close().await;
            anyhow::bail!("{} is in use ({e}); stop the server first", target.display());
        }
        Some(conn)
    } else {
        None
    };
    let renamed = std::fs::rename(tmp, target);
    // The old file's WAL and shared memory would otherwise be read as the new file's.
    for suffix in ["-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(sibling_suffix(target, suffix));
    }
    if let Some(mut conn) = lock {
        // Ends the transaction on the old file (already unlinked); closing may delete a
        // `-wal` by name, which is gone already.
        let _ = sqlx::query("ROLLBACK").execute(&mut conn).await;
        let _ = conn.close().await;
        for suffix in ["-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(sibling_suffix(target, suffix));
        }
    }
    renamed?;
    sync_dir(target)
}

// ------------------------------------------------------------------ PostgreSQL

fn tool(name: &str) -> anyhow::Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| anyhow::anyhow!("{name} is not on PATH: install the PostgreSQL client tools (Debian: postgresql-client) of the server's major version"))
}

async fn run_tool(name: &str, args: &[&std::ffi::OsStr]) -> anyhow::Result<()> {
    tool_output(name, args).await.map(|_| ())
}

/// Runs a PostgreSQL client tool; its standard output when it succeeds.
async fn tool_output(name: &str, args: &[&std::ffi::OsStr]) -> anyhow::Result<String> {
    let exe = tool(name)?;
    let out = tokio::process::Command::new(&exe).args(args).kill_on_drop(true).output().await?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        anyhow::bail!("{name} failed ({}): {}", out.status, stderr.trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The first column of the rows of the first `COPY … FROM stdin;` block of a SQL script.
fn copy_block_versions(script: &str) -> Vec<i64> {
    script
        .lines()
        .skip_while(|l| !(l.starts_with("COPY ") && l.ends_with("FROM stdin;")))
        .skip(1)
        .take_while(|l| *l != "\\.")
        .filter_map(|l| l.split('\t').next()?.trim().parse().ok())
        .collect()
}

async fn backup_postgres(url: &str, partial: &Path) -> anyhow::Result<()> {
    let _ = std::fs::remove_file(partial);
    let file = format!("--file={}", partial.display());
    let db = format!("--dbname={}", url);
    let result = run_tool("pg_dump", &["--format=custom".as_ref(), file.as_ref(), db.as_ref()]).await;
    if result.is_err() {
        let _ = std::fs::remove_file(partial);
    }
    result
}

async fn restore_postgres(url: &str, source: &Path) -> anyhow::Result<i64> {
    // A damaged or foreign file is refused before anything is dropped.
    run_tool("pg_restore", &["--list".as_ref(), source.as_os_str()])
        .await
        .map_err(|e| anyhow::anyhow!("{} is not a pg_dump archive: {e}", source.display()))?;
    // A backup of a newer release is refused before anything is dropped: the archive's own
    // `schema_migrations` rows, printed as a COPY block.
    let rows = tool_output("pg_restore", &["--data-only".as_ref(), "--table=schema_migrations".as_ref(), "--file=-".as_ref(), source.as_os_str()])
        .await
        .map_err(|e| anyhow::anyhow!("{} cannot be read: {e}", source.display()))?;
    known_versions(&copy_block_versions(&rows))
        .map_err(|e| anyhow::anyhow!("{} was refused: {e}", source.display()))?;
    let db = format!("--dbname={}", url);
    run_tool(
        "pg_restore",
        &[
            "--clean".as_ref(),
            "--if-exists".as_ref(),
            "--no-owner".as_ref(),
            // One transaction: a restore that fails half way leaves the database as it was.
            "--single-transaction".as_ref(),
            db.as_ref(),
            source.as_os_str(),
        ],
    )
    .await?;
    sqlx::any::install_default_drivers();
    let mut conn = <sqlx::AnyConnection as Connection>::connect(url).await?;
    let versions: Vec<i64> = sqlx::query("SELECT version FROM schema_migrations")
        .fetch_all(&mut conn)
        .await?
        .iter()
        .map(|r| r.get::<i64, _>(0))
        .collect();
    let _ = conn.close().await;
    known_versions(&versions)
}
