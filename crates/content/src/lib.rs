//! Site content (spec §7 "Site"): settings, flat pages, slides, ads and languages.
//!
//! Reads are served from a short-lived in-memory cache (the app loads settings and flat
//! pages on every start); writes go to the database and clear the cache.

pub mod lang;
pub mod seed;

use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{AppError, Currency};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use store::sqlx::{self, Row};
use store::Db;

const CACHE_TTL: Duration = Duration::from_secs(10);

/// A flat page (spec §3): sanitised HTML in `text`.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct FlatPage {
    pub id: i64,
    #[serde(rename = "idName")]
    pub id_name: String,
    pub name: String,
    pub priority: i64,
    pub text: String,
}

/// A slide (spec §3).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Slide {
    pub id: i64,
    pub url: String,
    pub url_image: String,
    pub language: String,
}

/// An advertisement banner.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Ad {
    pub id: i64,
    pub placement: String,
    pub title: String,
    pub text: String,
    pub url: String,
    pub url_image: String,
    pub language: String,
}

#[derive(Default)]
struct Cache {
    settings: Option<(Instant, serde_json::Value)>,
    pages: HashMap<String, (Instant, Arc<Vec<FlatPage>>)>,
}

#[derive(Clone)]
pub struct Content {
    db: Db,
    cache: Arc<RwLock<Cache>>,
}

/// Flat-page HTML allowed through: text formatting, lists, links, headings, tables.
pub fn sanitize_html(html: &str) -> String {
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer nofollow"))
        .clean(html)
        .to_string()
}

fn db_err(e: sqlx::Error) -> AppError {
    AppError::internal(e)
}

fn fresh(at: &Instant) -> bool {
    at.elapsed() < CACHE_TTL
}

impl Content {
    pub fn new(db: Db) -> Content {
        Content { db, cache: Default::default() }
    }

    fn invalidate(&self) {
        *self.cache.write().unwrap_or_else(|p| p.into_inner()) = Cache::default();
    }

    /// The site settings document (spec §3 Settings). `FUN` never appears in currencies.
    pub async fn settings(&self) -> Result<serde_json::Value, AppError> {
        if let Some((at, v)) = &self.cache.read().unwrap_or_else(|p| p.into_inner()).settings {
            if fresh(at) {
                return Ok(v.clone());
            }
        }
        let row = sqlx::query("SELECT value FROM site_settings WHERE key = 'site'")
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?;
        let mut value: serde_json::Value = match row {
            Some(r) => serde_json::from_str(&r.get::<String, _>(0)).map_err(AppError::internal)?,
            None => seed::default_settings(),
        };
        if let Some(list) = value.get_mut("currencies").and_then(|c| c.as_array_mut()) {
            list.retain(|c| c.as_str().map(|s| !s.eq_ignore_ascii_case("FUN")).unwrap_or(false));
        }
        self.cache.write().unwrap_or_else(|p| p.into_inner()).settings = Some((Instant::now(), value.clone()));
        Ok(value)
    }

    /// Currencies a player may register with (the settings' `currencies`).
    pub async fn registration_currencies(&self) -> Result<Vec<Currency>, AppError> {
        let settings = self.settings().await?;
        Ok(settings
            .get("currencies")
            .and_then(|c| c.as_array())
            .map(|list| list.iter().filter_map(|c| c.as_str()).filter_map(|c| Currency::from_str(c).ok()).collect())
            .unwrap_or_default())
    }

    pub async fn put_settings(&self, value: &serde_json::Value) -> Result<(), AppError> {
        sqlx::query(
            "INSERT INTO site_settings (key, value, updated_at) VALUES ('site', $1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(value.to_string())
        .bind(now_ms())
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        self.invalidate();
        Ok(())
    }

    /// Flat pages of a language (`fr`, `en`, `ar`), by priority, highest first.
    pub async fn flat_pages(&self, lang: &str) -> Result<Arc<Vec<FlatPage>>, AppError> {
        let short = lang::short_code(lang).unwrap_or("en");
        if let Some((at, pages)) = self.cache.read().unwrap_or_else(|p| p.into_inner()).pages.get(short) {
            if fresh(at) {
                return Ok(pages.clone());
            }
        }
        let rows = sqlx::query("SELECT id, id_name, name, priority, text FROM flat_pages WHERE lang = $1 ORDER BY priority DESC, id_name")
            .bind(short)
            .fetch_all(self.db.reader())
            .await
            .map_err(db_err)?;
        let pages: Arc<Vec<FlatPage>> = Arc::new(
            rows.iter()
                .map(|r| FlatPage {
                    id: r.get(0),
                    id_name: r.get(1),
                    name: r.get(2),
                    priority: r.get(3),
                    // Sanitised on write too; again here in case a row was edited by hand.
                    text: sanitize_html(&r.get::<String, _>(4)),
                })
                .collect(),
        );
        self.cache.write().unwrap_or_else(|p| p.into_inner()).pages.insert(short.to_string(), (Instant::now(), pages.clone()));
        Ok(pages)
    }

    /// Creates or replaces a flat page (HTML sanitised before it is stored).
    pub async fn upsert_flat_page(&self, id_name: &str, lang: &str, name: &str, priority: i64, html: &str) -> Result<(), AppError> {
        sqlx::query(
            "INSERT INTO flat_pages (id, id_name, lang, name, priority, text, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (id_name, lang) DO UPDATE SET name = excluded.name, priority = excluded.priority, text = excluded.text, \
             updated_at = excluded.updated_at",
        )
        .bind(next_id())
        .bind(id_name)
        .bind(lang)
        .bind(name)
        .bind(priority)
        .bind(sanitize_html(html))
        .bind(now_ms())
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        self.invalidate();
        Ok(())
    }

    /// Slides for a language code mapped by [`lang::slide_language`]: that language's
    /// slides plus those marked `all`; everything for `all`.
    pub async fn slides(&self, lang: Option<&str>) -> Result<Vec<Slide>, AppError> {
        let language = lang::slide_language(lang);
        let rows = sqlx::query(
            "SELECT id, url, url_image, language FROM slides WHERE active = 1 AND ($1 = 'all' OR language = $1 OR language = 'all') \
             ORDER BY priority DESC, id",
        )
        .bind(language)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        Ok(rows.iter().map(|r| Slide { id: r.get(0), url: r.get(1), url_image: r.get(2), language: r.get(3) }).collect())
    }

    /// Active ads, optionally for one language (plus `all`).
    pub async fn ads(&self, lang: Option<&str>) -> Result<Vec<Ad>, AppError> {
        let language = lang::slide_language(lang);
        let rows = sqlx::query(
            "SELECT id, placement, title, text, url, url_image, language FROM ads WHERE active = 1 \
             AND ($1 = 'all' OR language = $1 OR language = 'all') ORDER BY priority DESC, id",
        )
        .bind(language)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| Ad {
                id: r.get(0),
                placement: r.get(1),
                title: r.get(2),
                text: r.get(3),
                url: r.get(4),
                url_image: r.get(5),
                language: r.get(6),
            })
            .collect())
    }

    pub fn db(&self) -> &Db {
        &self.db
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize_html;

    #[test]
    fn sanitises_html() {
        let dirty = r#"<h2 onclick="x()">Terms</h2><script>alert(1)</script><p>Read <a href="javascript:alert(1)">this</a> and <a href="https://example.com">that</a>.</p><img src=x onerror=alert(1)>"#;
        let clean = sanitize_html(dirty);
        assert!(!clean.contains("script"));
        assert!(!clean.contains("onclick"));
        assert!(!clean.contains("onerror"));
        assert!(!clean.contains("javascript:"));
        assert!(clean.contains("<h2>Terms</h2>"));
        assert!(clean.contains(r#"href="https://example.com""#));
    }
}
