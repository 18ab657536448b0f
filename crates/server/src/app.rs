//! Application state and router assembly.

use crate::api;
use crate::api::envelope::ApiError;
use crate::config::{Config, Mode};
use crate::metrics::Metrics;
use accounts::notify::{Notifier, Outbox, TransportConfig, Transports};
use accounts::Accounts;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use content::Content;
use kernel::{AppError, ErrorCode};
use std::sync::Arc;
use std::time::Instant;
use store::Db;
use tower_http::services::{ServeDir, ServeFile};
use wallet::Ledger;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub ledger: Ledger,
    pub accounts: Accounts,
    pub content: Content,
    pub casino: casino::Casino,
    pub single: games::single::Single,
    pub crash: games::crash::CrashEngine, // crash
    pub metrics: Arc<Metrics>,
}

impl AppState {
    /// Connects the services to the database (migrations are the caller's business).
    pub fn new(config: Config, db: Db) -> anyhow::Result<AppState> {
        let ledger = Ledger::with_limits(db.clone(), config.ledger_limits);
        let notifier: Arc<dyn Notifier> = match config.mode {
            Mode::Demo => Arc::new(Outbox::new(db.clone())),
            Mode::Production => Arc::new(Transports::new(TransportConfig::from_env()).map_err(|e| anyhow::anyhow!(e))?),
        };
        let accounts = Accounts::new(db.clone(), ledger.clone(), notifier, config.accounts.clone());
        let content = Content::new(db.clone());
        let casino = casino::Casino::new(db.clone(), ledger.clone());
        let single = games::single::Single::new(db.clone(), casino.wallet().clone(), casino.sessions().clone());
        let crash = games::crash::CrashEngine::new(db.clone(), ledger.clone(), casino.clone(), games::crash::CrashConfig::from_env()); // crash
        Ok(AppState { config: Arc::new(config), db, ledger, accounts, content, casino, single, crash, metrics: Arc::new(Metrics::default()) })
    }

    pub fn is_demo(&self) -> bool {
        self.config.mode == Mode::Demo
    }

    /// The player's last crash rounds (the studio's round history for game `crash`).
    pub async fn crash_rounds(&self, user_id: i64, limit: i64) -> Result<Vec<serde_json::Value>, AppError> {
        self.crash.player_rounds(user_id, limit).await
    }
}

pub fn router(state: AppState) -> Router {
    let api = api::routes(&state)
        .route("/api/{*rest}", any(api_not_found))
        .route("/api", any(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(middleware::from_fn_with_state(state.clone(), track_metrics))
        .layer(axum::extract::DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), csrf_guard));
    let ops = Router::new().route("/healthz", get(healthz)).route("/metrics", get(metrics));
    api.merge(ops)
        .fallback_service(static_app(&state.config.web_dir))
        .layer(middleware::from_fn(security_headers))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(|_| {
            ApiError(AppError::new(ErrorCode::Internal)).into_response()
        }))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

async fn api_not_found() -> ApiError {
    ApiError(AppError::new(ErrorCode::NotFound))
}

async fn method_not_allowed() -> ApiError {
    ApiError(AppError::new(ErrorCode::MethodNotAllowed))
}

/// 200 when the database answers and the ledger can post; 503 otherwise, so a load
/// balancer or supervisor takes the instance out and restarts it (a stopped SQLite ledger
/// writer refuses every posting until a restart).
async fn healthz(State(state): State<AppState>) -> Response {
    let database = match store::sqlx::query("SELECT 1").execute(state.db.reader()).await {
        Ok(_) => true,
        Err(e) => {
            tracing::error!(error = %e, "health check: database unavailable");
            false
        }
    };
    let ledger = state.ledger.writer_alive();
    if !ledger {
        tracing::error!("health check: the ledger writer has stopped");
    }
    let body = serde_json::json!({
        "status": if database && ledger { "ok" } else { "unavailable" },
        "database": if database { "ok" } else { "error" },
        "ledger": if ledger { "ok" } else { "stopped" },
    });
    let status = if database && ledger { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, axum::Json(body)).into_response()
}

async fn metrics(State(state): State<AppState>) -> Response {
    let body = state.metrics.render(&state.ledger.stats());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], body).into_response()
}

async fn track_metrics(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().as_str().to_string();
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string()).unwrap_or_else(|| "unmatched".into());
    let resp = next.run(req).await;
    state.metrics.observe(&method, &route, resp.status().as_u16(), start.elapsed());
    resp
}

/// CSRF: a browser request that changes state must come from our own origin. Modern
/// browsers send `Sec-Fetch-Site`; all send `Origin` on cross-origin POSTs. The session
/// cookie is also `SameSite=Lax`, and JSON bodies require `Content-Type:
/// application/json`, which no cross-site form can send without a CORS preflight (we
/// answer none).
async fn csrf_guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        || req.uri().path() == "/api/user/logout";
    if changes_state && !same_origin(&state, &req) {
        return ApiError(AppError::new(ErrorCode::CsrfRejected)).into_response();
    }
    next.run(req).await
}

fn same_origin(state: &AppState, req: &Request) -> bool {
    let headers = req.headers();
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site == "cross-site" {
            return false;
        }
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        // Not a browser cross-origin request (browsers send Origin on those).
        return true;
    };
    let origin = origin.trim_end_matches('/');
    if state.config.allowed_origins.iter().any(|o| o == origin) || origin == state.config.public_url.trim_end_matches('/') {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, h)| h).unwrap_or("");
    !host.is_empty() && origin_host.eq_ignore_ascii_case(host)
}

async fn security_headers(req: Request, next: Next) -> Response {
    // Game clients are framed by the game page; nothing else may be framed.
    let framable = req.uri().path().starts_with("/studio");
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    h.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    h.entry(header::X_FRAME_OPTIONS).or_insert(HeaderValue::from_static(if framable { "SAMEORIGIN" } else { "DENY" }));
    if framable {
        h.entry(header::CONTENT_SECURITY_POLICY).or_insert(HeaderValue::from_static("frame-ancestors 'self'"));
    }
    resp
}

/// The built player app: hashed assets cached for a year, everything else revalidated,
/// unknown paths answered with `index.html` (SPA routing).
fn static_app(dir: &std::path::Path) -> Router {
    let index = dir.join("index.html");
    if !index.exists() {
        tracing::warn!(dir = %dir.display(), "the player app is not built (run `make run`); serving a notice instead");
        return Router::new().fallback(not_built);
    }
    let spa = ServeDir::new(dir).fallback(ServeFile::new(index));
    // The studio game client: its own page, framed by the game page (same origin only).
    let studio_page = ServeFile::new(dir.join("studio.html"));
    Router::new()
        .nest_service("/studio", studio_page)
        // A missing hashed asset is a 404, never index.html served as JavaScript.
        .nest_service("/assets", ServeDir::new(dir.join("assets")))
        .fallback_service(spa)
        .layer(middleware::from_fn(static_cache_headers))
        .layer(tower_http::compression::CompressionLayer::new())
}

async fn not_built() -> Response {
    (
        StatusCode::OK,
        Html("<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Carthage</title><body><h1>Carthage</h1><p>The player app is not built. Run <code>make run</code>.</p></body></html>"),
    )
        .into_response()
}

async fn static_cache_headers(req: Request<Body>, next: Next) -> Response {
    let immutable = req.uri().path().starts_with("/assets/");
    let mut resp = next.run(req).await;
    let value = if immutable && resp.status().is_success() { "public, max-age=31536000, immutable" } else { "no-cache" };
    resp.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    resp
}
