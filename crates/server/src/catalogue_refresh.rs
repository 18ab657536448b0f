//! The providers' catalogue refresh job (issue 20; docs/OPERATIONS.md "Provider
//! catalogues", docs/providers/endpoints.md): every enabled provider with a list format
//! (`providers::import`) has its list fetched from `PROVIDER_<NAME>_LIST_URL` (default
//! `{PROVIDER_<NAME>_URL}/games`, what the demo fakes serve), normalised, its images
//! downloaded once into `CATALOGUE_IMAGE_DIR` (served by us at `/provider-images/…`), and
//! its catalogue replaced in one transaction.
//!
//! * **One owner**: each provider's pass holds a lease in `provider_catalogue` (taken by a
//!   conditional update, extended at every page), so instances and the CLI never refresh
//!   the same provider at once; a lease left by a crashed owner lapses after ten minutes.
//! * **Idempotent**: a pass replaces the provider's games with what its list says (games
//!   gone are disabled, never deleted); a repeated pass changes nothing. The periodic task
//!   skips a provider refreshed less than `CATALOGUE_REFRESH_MINUTES` ago (after a failure,
//!   `CATALOGUE_RETRY_MINUTES`), on whichever instance.
//! * **Never dies on one provider**: each provider runs in its own task; a failure (down,
//!   an error answer, a list that does not read, an empty list) keeps the provider's last
//!   catalogue and counts a failure, which shows it "temporarily unavailable" until a pass
//!   succeeds.

use crate::app::AppState;
use casino::feeds::ImportedGame;
use casino::NewProvider;
use futures::StreamExt;
use providers::import::{self, Feed, FeedUrls};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// How long a pass holds its provider without showing progress.
const LEASE_MS: i64 = 10 * 60_000;
/// Most games one provider's catalogue may hold.
const MAX_GAMES: usize = 20_000;
/// Images downloaded at once.
const IMAGE_CONCURRENCY: usize = 4;

#[derive(Debug, Clone)]
pub struct RefreshConfig {
    /// `CATALOGUE_REFRESH_MINUTES` (0: no periodic task; the CLI still refreshes): how old
    /// a good catalogue may get. Default 360 (60 in demo mode).
    pub interval: Option<Duration>,
    /// `CATALOGUE_RETRY_MINUTES` (default 5): how soon a provider whose pass failed is
    /// tried again.
    pub retry: Duration,
    /// `CATALOGUE_IMAGE_DIR` (default `data/provider-images`): the images, one folder per
    /// provider (shared storage when several instances serve).
    pub image_dir: PathBuf,
    /// Each provider's `PROVIDER_<NAME>_LIST_URL`, `_IMAGE_URL`, `_LAUNCH_URL`, `_PARTNER`.
    pub feeds: BTreeMap<String, FeedUrls>,
    /// The first periodic pass after the start.
    pub first_pass_after: Duration,
}

impl RefreshConfig {
    pub fn from_lookup(var: &dyn Fn(&str) -> Option<String>, demo: bool, providers: &[providers::ProviderSettings]) -> anyhow::Result<RefreshConfig> {
        let minutes = |key: &str, default: u64| -> anyhow::Result<u64> {
            match var(key) {
                None => Ok(default),
                Some(v) => v.trim().parse::<u64>().ok().filter(|m| *m <= 100_000).ok_or_else(|| anyhow::anyhow!("{key} must be a number of minutes, not {v:?}")),
            }
        };
        let interval = minutes("CATALOGUE_REFRESH_MINUTES", if demo { 60 } else { 360 })?;
        let retry = minutes("CATALOGUE_RETRY_MINUTES", 5)?.max(1);
        let mut feeds = BTreeMap::new();
        for p in providers {
            feeds.insert(p.name.clone(), FeedUrls::from_lookup(&p.name, var).map_err(|e| anyhow::anyhow!(e))?);
        }
        Ok(RefreshConfig {
            interval: (interval > 0).then(|| Duration::from_secs(interval * 60)),
            retry: Duration::from_secs(retry * 60),
            image_dir: var("CATALOGUE_IMAGE_DIR").unwrap_or_else(|| "data/provider-images".into()).into(),
            feeds,
            first_pass_after: Duration::from_secs(if demo { 2 } else { 15 }),
        })
    }

    /// Tests: no periodic task (a test runs passes itself), images in the temporary folder.
    pub fn for_tests() -> RefreshConfig {
        RefreshConfig {
            interval: None,
            retry: Duration::from_secs(300),
            image_dir: std::env::temp_dir().join("carthage-provider-images"),
            feeds: BTreeMap::new(),
            first_pass_after: Duration::from_secs(1),
        }
    }
}

/// What one provider's pass did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub provider: String,
    /// `refreshed`, `skipped` (held by another owner, or fresh enough) or `failed`.
    pub outcome: &'static str,
    pub games: usize,
    pub images: usize,
    /// Items the list held that were left out (a §9 rule, inactive, no id or name, repeated).
    pub dropped: usize,
    pub error: Option<String>,
}

impl Report {
    fn new(provider: &str, outcome: &'static str) -> Report {
        Report { provider: provider.into(), outcome, games: 0, images: 0, dropped: 0, error: None }
    }
    fn failed(provider: &str, error: impl Into<String>) -> Report {
        Report { error: Some(error.into()), ..Report::new(provider, "failed") }
    }
}

/// This process's name as a lease owner.
fn owner_id() -> &'static str {
    static OWNER: OnceLock<String> = OnceLock::new();
    OWNER.get_or_init(|| {
        use rand::Rng;
        format!("{}-{:016x}", std::process::id(), rand::rngs::OsRng.gen::<u64>())
    })
}

/// The feeds the job refreshes: enabled providers with a list format that either have a
/// wallet adapter (their money flows) or are known by list and launch only.
pub fn feeds(state: &AppState) -> Vec<Feed> {
    state
        .config
        .providers
        .iter()
        .filter(|s| s.enabled && import::supported(&s.name))
        .filter(|s| state.providers.get(&s.name).is_some() || import::LINK_PROVIDERS.contains(&s.name.as_str()))
        .map(|s| Feed::new(s.clone(), state.config.catalogue.feeds.get(&s.name).cloned().unwrap_or_default()))
        .collect()
}

/// One pass over every feed, each in its own task (a panic is that provider's failure).
/// `force` ignores the ages (not the leases).
pub async fn refresh_all(state: &AppState, force: bool) -> Vec<Report> {
    let mut reports = Vec::new();
    for feed in feeds(state) {
        let provider = feed.provider().to_string();
        let task = tokio::spawn(refresh(state.clone(), feed, force));
        reports.push(match task.await {
            Ok(r) => r,
            Err(e) => Report::failed(&provider, format!("the pass stopped: {e}")),
        });
    }
    reports
}

/// One provider's pass.
pub async fn refresh(state: AppState, feed: Feed, force: bool) -> Report {
    let feeds = state.casino.feeds().clone();
    let provider = feed.provider().to_string();
    let cfg = &state.config.catalogue;
    let (ok_age, failed_age) = if force { (0, 0) } else { (cfg.interval.map(|d| d.as_millis() as i64).unwrap_or(0), cfg.retry.as_millis() as i64) };
    match feeds.claim(&provider, owner_id(), LEASE_MS, ok_age, failed_age).await {
        Ok(true) => {}
        Ok(false) => return Report::new(&provider, "skipped"),
        Err(e) => return Report::failed(&provider, e.text()),
    }
    match pass(&state, &feed).await {
        Ok(report) => {
            tracing::info!(provider, games = report.games, images = report.images, dropped = report.dropped, "catalogue: refreshed");
            report
        }
        Err(error) => {
            tracing::warn!(provider, %error, "catalogue: refresh failed; the last catalogue is kept");
            if let Err(e) = feeds.finish_failed(&provider, owner_id(), &error).await {
                tracing::error!(provider, error = %e.text(), "catalogue: recording the failure failed");
            }
            Report::failed(&provider, error)
        }
    }
}

async fn pass(state: &AppState, feed: &Feed) -> Result<Report, String> {
    let feeds = state.casino.feeds();
    let provider = feed.provider();
    let rules = feeds.rules().await.map_err(|e| e.text())?;
    let http = import::http_client();
    let mut games: Vec<ImportedGame> = Vec::new();
    let mut seen = HashSet::new();
    let mut dropped = 0;
    let mut page = 1;
    loop {
        let p = import::fetch_page(&http, feed, &rules, page).await?;
        dropped += p.dropped;
        for g in p.games {
            if seen.insert(g.game.game_id.clone()) {
                games.push(g);
            } else {
                dropped += 1;
            }
        }
        if games.len() > MAX_GAMES {
            return Err(format!("the list holds more than {MAX_GAMES} games"));
        }
        if !feeds.progress(provider, owner_id(), games.len() as i64, 0, LEASE_MS).await.map_err(|e| e.text())? {
            return Err("the refresh lease was lost to another owner".into());
        }
        if page >= p.page_count || page >= import::MAX_PAGES {
            break;
        }
        page += 1;
    }
    if games.is_empty() {
        return Err("the list holds no game (the last catalogue is kept)".into());
    }
    for (i, g) in games.iter_mut().enumerate() {
        g.game.sort = i as i64;
    }
    let images = cache_images(state, feed, &http, &mut games).await?;
    let row = provider_row(feed, &games);
    feeds.finish_ok(&row, owner_id(), &games).await.map_err(|e| e.text())?;
    Ok(Report { games: games.len(), images, dropped, ..Report::new(provider, "refreshed") })
}

/// The catalogue row of a provider known only from its feed (a row already there is kept).
fn provider_row(feed: &Feed, games: &[ImportedGame]) -> NewProvider {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for g in games {
        *counts.entry(g.game.casino_type.as_str()).or_default() += 1;
    }
    let casino_type = counts.into_iter().max_by_key(|(t, n)| (*n, *t)).map(|(t, _)| t.to_string()).unwrap_or_else(|| "slots".into());
    NewProvider {
        name: feed.provider().into(),
        display_name: casino::catalogue::display_name(feed.provider()),
        casino_type,
        auth_required: feed.settings.auth_required,
        listed: true,
        priority: 10,
        wallet_secret: None,
        launch_url: feed.launch_template(),
        logo_url: None,
    }
}

/// The cached file name of an image address.
fn image_name(source: &str, ext: &str) -> String {
    let digest = hex::encode(Sha256::digest(source.as_bytes()));
    format!("{}.{ext}", &digest[..40])
}

/// Downloads the images not cached yet (once per address), sets each game's image to our
/// copy (`/provider-images/{provider}/{file}`), else to the provider's when it is HTTPS,
/// else none. A failed download is not the pass's failure. Returns the images cached.
async fn cache_images(state: &AppState, feed: &Feed, http: &import::HttpClient, games: &mut [ImportedGame]) -> Result<usize, String> {
    let provider = feed.provider();
    let dir = state.config.catalogue.image_dir.join(provider);
    let writable = match tokio::fs::create_dir_all(&dir).await {
        Ok(()) => true,
        Err(e) => {
            tracing::error!(provider, dir = %dir.display(), error = %e, "catalogue: the image folder cannot be created; images are not cached");
            false
        }
    };
    let cached = state.casino.feeds().cached_images(provider).await.map_err(|e| e.text())?;
    let mut files: HashMap<String, String> = HashMap::new();
    let mut missing: Vec<String> = Vec::new();
    for source in games.iter().map(|g| g.image_source.clone()).filter(|s| !s.is_empty()) {
        if files.contains_key(&source) || missing.contains(&source) {
            continue;
        }
        match cached.get(&source) {
            Some(file) if dir.join(file).is_file() => {
                files.insert(source, file.clone());
            }
            _ if writable => missing.push(source),
            _ => {}
        }
    }
    let mut done = 0usize;
    let mut downloads = futures::stream::iter(missing.into_iter().map(|source| {
        let dir = dir.clone();
        async move {
            let saved = match import::download_image(http, &source).await {
                Ok((bytes, ext)) => save(&dir, &image_name(&source, ext), &bytes).await,
                Err(e) => Err(e),
            };
            (source, saved)
        }
    }))
    .buffer_unordered(IMAGE_CONCURRENCY);
    while let Some((source, saved)) = downloads.next().await {
        match saved {
            Ok(file) => {
                files.insert(source, file);
            }
            Err(e) => tracing::debug!(provider, %source, error = %e, "catalogue: image not cached"),
        }
        done += 1;
        if done % 25 == 0 {
            let _ = state.casino.feeds().progress(provider, owner_id(), games.len() as i64, files.len() as i64, LEASE_MS).await;
        }
    }
    for g in games.iter_mut() {
        match files.get(&g.image_source) {
            Some(file) => {
                g.image_file = file.clone();
                g.game.image_url = format!("/provider-images/{provider}/{file}");
            }
            None => {
                g.image_file.clear();
                g.game.image_url = if g.image_source.starts_with("https://") { g.image_source.clone() } else { String::new() };
            }
        }
    }
    Ok(games.iter().filter(|g| !g.image_file.is_empty()).count())
}

/// Writes a file through a temporary name (a reader never sees half an image).
async fn save(dir: &Path, name: &str, bytes: &[u8]) -> Result<String, String> {
    use rand::Rng;
    let tmp = dir.join(format!(".{name}.{:08x}.tmp", rand::rngs::OsRng.gen::<u32>()));
    tokio::fs::write(&tmp, bytes).await.map_err(|e| format!("writing {}: {e}", tmp.display()))?;
    tokio::fs::rename(&tmp, dir.join(name)).await.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("saving {name}: {e}")
    })?;
    Ok(name.to_string())
}

/// The periodic task `serve` starts (none when `CATALOGUE_REFRESH_MINUTES=0`): a pass every
/// minute, in which only providers due (and not held elsewhere) are refreshed.
pub fn spawn_periodic(state: AppState) -> Option<tokio::task::JoinHandle<()>> {
    state.config.catalogue.interval?;
    let first = state.config.catalogue.first_pass_after;
    Some(tokio::spawn(async move {
        tokio::time::sleep(first).await;
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            let reports = refresh_all(&state, false).await;
            let failed = reports.iter().filter(|r| r.outcome == "failed").count();
            let outcome = if failed == 0 { "ok" } else { "error" };
            kernel::metrics::inc(kernel::metrics::JOB_RUNS, &[("job", "catalogue_refresh"), ("outcome", outcome)]);
            if failed > 0 {
                tracing::warn!(failed, "catalogue: providers not refreshed this pass");
            }
        }
    }))
}

/// The reply of a cached image (`/provider-images/{provider}/{file}`): the file, or `None`
/// for a name that is not one of ours or a file that is not there.
pub async fn read_image(dir: &Path, provider: &str, file: &str) -> Option<(Vec<u8>, &'static str)> {
    let provider_ok = !provider.is_empty() && provider.len() <= 32 && provider.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    let (stem, ext) = file.rsplit_once('.')?;
    let stem_ok = (16..=64).contains(&stem.len()) && stem.bytes().all(|b| b.is_ascii_hexdigit());
    let content_type = match ext {
        "png" => "image/png",
        "jpg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        _ => return None,
    };
    if !(provider_ok && stem_ok) {
        return None;
    }
    let bytes = tokio::fs::read(dir.join(provider).join(file)).await.ok()?;
    Some((bytes, content_type))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_from_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        let ps = crate::config::provider_settings(&|_: &str| None, true, "http://127.0.0.1:8080").unwrap();
        let c = RefreshConfig::from_lookup(&env(&[]), true, &ps).unwrap();
        assert_eq!(c.interval, Some(Duration::from_secs(3600)));
        assert_eq!(c.retry, Duration::from_secs(300));
        assert_eq!(c.image_dir, PathBuf::from("data/provider-images"));
        assert!(c.feeds.contains_key("pragmatic") && c.feeds.contains_key("pgsoft"));
        let c = RefreshConfig::from_lookup(&env(&[("CATALOGUE_REFRESH_MINUTES", "0"), ("CATALOGUE_IMAGE_DIR", "/srv/img")]), false, &ps).unwrap();
        assert_eq!((c.interval, c.image_dir), (None, PathBuf::from("/srv/img")));
        assert!(RefreshConfig::from_lookup(&env(&[("CATALOGUE_REFRESH_MINUTES", "soon")]), false, &ps).is_err());
        assert!(RefreshConfig::from_lookup(&env(&[("PROVIDER_PGSOFT_LIST_URL", "file:///etc/passwd")]), false, &ps).is_err());
    }

    #[test]
    fn image_names_are_ours_only() {
        let n = image_name("https://cdn.example/a.png", "png");
        assert!(n.ends_with(".png") && n.len() == 44);
        assert_ne!(n, image_name("https://cdn.example/b.png", "png"));
    }

    #[tokio::test]
    async fn cached_images_are_read_by_our_names_only() {
        let dir = std::env::temp_dir().join(format!("carthage-read-image-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pgsoft")).unwrap();
        let name = image_name("x", "svg");
        std::fs::write(dir.join("pgsoft").join(&name), b"<svg/>").unwrap();
        assert_eq!(read_image(&dir, "pgsoft", &name).await.map(|(b, t)| (b.len(), t)), Some((6, "image/svg+xml")));
        assert!(read_image(&dir, "pgsoft", "../pgsoft/x.svg").await.is_none());
        assert!(read_image(&dir, "../etc", &name).await.is_none());
        assert!(read_image(&dir, "pgsoft", &name.replace(".svg", ".html")).await.is_none());
        assert!(read_image(&dir, "pgsoft", &image_name("y", "svg")).await.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
