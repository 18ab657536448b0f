//! Fresh databases for tests: a temporary SQLite file, or a new PostgreSQL database on
//! the server named by `TEST_DATABASE_URL` (dropped by [`TestDb::cleanup`]; `.ci/run`
//! also drops leftovers named `carthage_t_*`).

use crate::{Backend, Db, StoreError};

pub struct TestDb {
    pub url: String,
    pub backend: Backend,
    admin_url: Option<String>,
    db_name: Option<String>,
    dir: Option<std::path::PathBuf>,
}

/// The backends the suite runs on: SQLite always, PostgreSQL when `TEST_DATABASE_URL`
/// is set.
pub fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::Sqlite];
    if postgres_admin_url().is_some() {
        v.push(Backend::Postgres);
    }
    v
}

/// Runs `f` on a fresh migrated database of every backend of [`backends`], then drops it.
pub async fn with_each_backend<F, Fut>(f: F)
where
    F: Fn(Db) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for backend in backends() {
        let (t, db) = TestDb::migrated(backend).await.expect("test database");
        eprintln!("backend: {backend:?}");
        f(db.clone()).await;
        db.close().await;
        t.cleanup().await;
    }
}

pub fn postgres_admin_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL").ok().filter(|s| !s.trim().is_empty())
}

fn unique_name() -> String {
    format!("carthage_t_{}_{:08x}", std::process::id(), rand::random::<u32>())
}

impl TestDb {
    pub async fn new(backend: Backend) -> Result<TestDb, StoreError> {
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(unique_name());
                std::fs::create_dir_all(&dir).map_err(|e| StoreError::Config(e.to_string()))?;
                let url = format!("sqlite://{}/test.db", dir.display());
                Ok(TestDb { url, backend, admin_url: None, db_name: None, dir: Some(dir) })
            }
            Backend::Postgres => {
                let admin_url = postgres_admin_url()
                    .ok_or_else(|| StoreError::Config("TEST_DATABASE_URL is not set".into()))?;
                let name = unique_name();
                sqlx::any::install_default_drivers();
                let mut conn = <sqlx::AnyConnection as sqlx::Connection>::connect(&admin_url).await?;
                sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut conn).await?;
                sqlx::Connection::close(conn).await?;
                let url = replace_db_name(&admin_url, &name);
                Ok(TestDb { url, backend, admin_url: Some(admin_url), db_name: Some(name), dir: None })
            }
        }
    }

    /// A migrated database.
    pub async fn migrated(backend: Backend) -> Result<(TestDb, Db), StoreError> {
        let t = TestDb::new(backend).await?;
        let db = Db::connect(&t.url).await?;
        db.migrate().await?;
        Ok((t, db))
    }

    pub async fn cleanup(self) {
        if let (Some(admin), Some(name)) = (&self.admin_url, &self.db_name) {
            if let Ok(mut conn) = <sqlx::AnyConnection as sqlx::Connection>::connect(admin).await {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut conn).await;
                let _ = sqlx::Connection::close(conn).await;
            }
        }
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// `postgres://user@host:5432/postgres?x` with the database part replaced.
pub fn replace_db_name(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let new_base = match base[scheme_end..].find('/') {
        Some(slash) => format!("{}/{}", &base[..scheme_end + slash], name),
        None => format!("{base}/{name}"),
    };
    match query {
        Some(q) => format!("{new_base}?{q}"),
        None => new_base,
    }
}

#[cfg(test)]
mod tests {
    use super::replace_db_name;

    #[test]
    fn replaces_database_name() {
        assert_eq!(replace_db_name("postgres://root@127.0.0.1:5432/postgres", "x"), "postgres://root@127.0.0.1:5432/x");
        assert_eq!(replace_db_name("postgres://root@127.0.0.1:5432", "x"), "postgres://root@127.0.0.1:5432/x");
        assert_eq!(replace_db_name("postgres://h/db?sslmode=disable", "x"), "postgres://h/x?sslmode=disable");
    }
}
