//! Application state and router assembly.

use crate::api;
use crate::api::envelope::ApiError;
use crate::config::{Config, Mode};
use crate::metrics::Metrics;
use accounts::notify::{OutboxConfig, OutboxWorker, Transports};
use accounts::{Accounts, Channels};
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use content::Content;
use kernel::{AppError, ErrorCode};
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use store::Db;
use tower_http::services::{ServeDir, ServeFile};
use wallet::Ledger;

/// The services every handler reaches, behind one `Arc`: axum clones the state for every
/// request (and the middleware again), so a clone must be one reference count, not one per
/// service (a profile of the provider wallet under load showed 9 % of the server's CPU in
/// `AppState::clone` and its drop when it was a struct of ~60 `Arc`s). Fields read through
/// `Deref` (`state.ledger`).
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;
    fn deref(&self) -> &Services {
        &self.0
    }
}

pub struct Services {
    pub config: Arc<Config>,
    pub db: Db,
    pub ledger: Ledger,
    pub accounts: Accounts,
    pub content: Content,
    pub casino: casino::Casino,
    pub single: games::single::Single,
    pub crash: games::crash::CrashEngine, // crash
    /// The studio's virtual races (`serve` runs their loop; docs/VIRTUALS.md).
    pub virtuals: games::races::Virtuals,
    /// Deposits and withdrawals through payment providers (`serve` runs its jobs).
    pub payments: payments::Payments,
    pub metrics: Arc<Metrics>,
    /// Delivers the message outbox (`serve` runs it; tests may run passes of their own).
    pub outbox: OutboxWorker,
    /// The address `/metrics` is served on when `METRICS_BIND` is set (known once bound).
    pub metrics_addr: Arc<OnceLock<SocketAddr>>,
    /// The cashier network: locations, floats, cash deposits, cashier withdrawals.
    pub cashier: payments::cashier::Cashier,
    /// Our sportsbook: the line, bets and settlement.
    pub betting: betting::Betting,
    /// The partner sportsbooks (Digitain, GR8).
    pub partners: crate::partners::Partners,
    /// Bonuses, promo codes, free bets (the ledger's posting observer).
    pub promotions: promotions::service::Promotions,
    /// The game providers' wallet adapters (`/api/providers/{provider}/…`).
    pub providers: providers::Registry,
    /// The single-owner duties this instance holds or stands by for (`serve` runs them).
    pub duties: store::lease::Duties,
    /// The bus between instances (store::bus): local on SQLite.
    pub bus: store::bus::Bus,
    /// This process's id-generator node, held while the state lives (store::ids).
    pub id_node: store::ids::IdNode,
}

/// Every session of a player ended (recovery, ban): so do their game sessions.
struct EndGameSessions(casino::Sessions);

#[async_trait::async_trait]
impl accounts::SessionsEnded for EndGameSessions {
    async fn all_sessions_ended(&self, user_id: i64) -> Result<(), AppError> {
        self.0.end_all(user_id).await
    }
}

/// Every deposit intent and every cash deposit at a desk asks the player's responsible-gambling state first: a cool-off or
/// a self-exclusion refuses it (121/122), and so does a deposit above one of the player's
/// own limits (120) — counted with the intents still open, and checked again inside the
/// transaction that records the deposit (`reserve_deposit`), so concurrent deposits cannot
/// pass the limit together.
struct DepositLimits(Accounts);

#[async_trait::async_trait]
impl payments::DepositGuard for DepositLimits {
    async fn check_deposit(&self, user_id: i64, amount: kernel::Minor, currency: kernel::Currency) -> Result<(), AppError> {
        self.0.rg().check_deposit(user_id, currency, amount).await
    }

    async fn reserve_deposit(&self, conn: &mut store::sqlx::AnyConnection, user_id: i64, amount: kernel::Minor, currency: kernel::Currency) -> Result<(), AppError> {
        self.0.rg().reserve_deposit(conn, user_id, currency, amount).await
    }
}

/// A cashier withdrawal obeys the same rules as a provider withdrawal: the open wagering
/// requirement (6252 with the amount to wager) and the block after a password recovery
/// (6252 with `{reason, until}`), besides the limits and funds the cashier part checks.
struct CashierWithdrawalRules {
    payments: payments::Payments,
    accounts: Accounts,
}

#[async_trait::async_trait]
impl payments::cashier::WithdrawalGuard for CashierWithdrawalRules {
    async fn check_withdrawal(&self, user_id: i64, amount: kernel::Minor, currency: kernel::Currency) -> Result<(), AppError> {
        let user = self.accounts.user_by_id(user_id).await?.ok_or(ErrorCode::NotAuthenticated)?;
        let payer = payments::Payer { id: user.id, currency, registered_via: user.registered_via, phone: user.phone, lang: user.lang };
        self.payments.check_withdrawal(&payer, payments::rules::LimitKey::Withdrawal, amount).await
    }
}

/// A withdrawal waits for open bonus wagering (6252 with the amount left), provider and
/// cashier withdrawals alike; the player may give the bonus up instead.
struct BonusWagering(promotions::service::Promotions);

#[async_trait::async_trait]
impl payments::WageringGuard for BonusWagering {
    async fn open_wagering(&self, user_id: i64) -> Result<kernel::Minor, AppError> {
        Ok(self.0.open_wagering(user_id).await?.map(|(left, _)| left).unwrap_or(0))
    }
}

/// Sends a cashier withdrawal's payout code by SMS through the accounts outbox, in the
/// player's language.
struct PayoutCodeSms {
    db: Db,
    accounts: Accounts,
    outbox: OutboxWorker,
}

#[async_trait::async_trait]
impl payments::cashier::CodeNotifier for PayoutCodeSms {
    async fn send_payout_code(&self, user_id: i64, phone: &str, code: &str, amount: kernel::Minor, currency: kernel::Currency) -> Result<(), AppError> {
        let lang = self.accounts.user_by_id(user_id).await?.map(|u| u.lang).unwrap_or_default();
        let (subject, text) = accounts::messages::payout_code(&lang, code, &kernel::money::format_major(amount, currency), currency.code());
        let message = accounts::notify::Message {
            channel: accounts::notify::Channel::Sms,
            to: phone.to_string(),
            subject,
            text,
            code: Some(code.to_string()),
            link: None,
        };
        let mut conn = self.db.writer().acquire().await.map_err(AppError::internal)?;
        accounts::notify::enqueue(&mut conn, &message, None).await.map_err(AppError::internal)?;
        self.outbox.wake();
        Ok(())
    }
}

impl AppState {
    /// Connects the services to the database (migrations are the caller's business).
    pub fn new(config: Config, db: Db, id_node: store::ids::IdNode) -> anyhow::Result<AppState> {
        let ledger = Ledger::with_limits(db.clone(), config.ledger_limits);
        let demo = config.mode == Mode::Demo;
        let transports = Transports::new(config.transports.clone()).map_err(|e| anyhow::anyhow!(e))?;
        // Demo mode delivers every channel (to the readable outbox, and through a transport
        // when one is configured); production only what a transport can carry.
        let channels = Channels {
            email: demo || config.transports.has(accounts::notify::Channel::Email),
            sms: demo || config.transports.has(accounts::notify::Channel::Sms),
        };
        let casino = casino::Casino::new(db.clone(), ledger.clone());
        let accounts = Accounts::new(db.clone(), ledger.clone(), accounts::AccountsConfig { channels, ..config.accounts.clone() })
            .on_sessions_ended(Arc::new(EndGameSessions(casino.sessions().clone())));
        let outbox = accounts.outbox_worker(Arc::new(transports), OutboxConfig { demo, ..config.outbox.clone() });
        let content = Content::new(db.clone());
        let single = games::single::Single::new(db.clone(), casino.wallet().clone(), casino.sessions().clone());
        let crash = games::crash::CrashEngine::new(db.clone(), ledger.clone(), casino.clone(), games::crash::CrashConfig::from_env()); // crash
        let virtuals = games::races::Virtuals::new(db.clone(), casino.clone(), games::races::VirtualsConfig::from_env());
        let payments = payments::Payments::new(db.clone(), ledger.clone(), content.clone(), config.payments.clone());
        payments.set_deposit_guard(Arc::new(DepositLimits(accounts.clone())));
        let cashier = payments::cashier::Cashier::new(db.clone(), ledger.clone(), config.cashier.clone());
        cashier.set_notifier(Arc::new(PayoutCodeSms { db: db.clone(), accounts: accounts.clone(), outbox: outbox.clone() }));
        cashier.set_deposit_guard(Arc::new(DepositLimits(accounts.clone())));
        cashier.set_withdrawal_guard(Arc::new(CashierWithdrawalRules { payments: payments.clone(), accounts: accounts.clone() }));
        let betting = betting::Betting::new(db.clone(), ledger.clone(), sportsbook::slip::SlipSettings::default());
        let partners = crate::partners::Partners::new(config.partners.clone(), db.clone());
        let promotions = promotions::service::Promotions::new(db.clone(), ledger.clone());
        payments.set_wagering_guard(Arc::new(BonusWagering(promotions.clone())));
        promotions.use_content(content.clone());
        betting.set_settle_hook(promotions.settle_hook());
        let providers = providers::Registry::from_settings(&config.providers);
        let duties = store::lease::Duties::new(db.clone(), store::lease::instance_id());
        // Between instances (PostgreSQL): the crash game's events and commands and the line.
        let bus = store::bus::Bus::for_db(&db, duties.owner().to_string(), config.redis_url.as_deref());
        crash.set_bus(bus.clone());
        betting.set_bus(bus.clone());
        Ok(AppState(Arc::new(Services {
            id_node,
            bus,
            duties,
            providers,
            promotions,
            partners,
            betting,
            cashier,
            config: Arc::new(config),
            db,
            ledger,
            accounts,
            content,
            casino,
            single,
            crash,
            virtuals,
            payments,
            metrics: Arc::new(Metrics::default()),
            outbox,
            metrics_addr: Arc::new(OnceLock::new()),
        })))
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
    // Demo mode: the providers' local fakes and their game pages (docs/PROVIDERS.md).
    let ops = if state.is_demo() {
        ops.nest_service("/demo-providers", demo_providers(&state.config)).route("/inbet/media/loader.js", get(providers::fake::demo::inbet_loader))
    } else {
        ops
    };
    // The providers' loader scripts (spec §7: fixed paths under /inbet/media and /rpl/media)
    // are the reverse proxy's to map to each provider's CDN (docs/OPERATIONS.md); anything
    // else here is a 404, never the player app's index page in a script's place.
    let ops = ops.route("/inbet/media/{*rest}", get(loader_not_here)).route("/rpl/media/{*rest}", get(loader_not_here));
    let headers = Arc::new(SecurityHeaders::new(&state.config));
    api.merge(ops)
        .fallback_service(static_app(state.config.web_dir.as_deref()))
        .layer(middleware::from_fn_with_state(headers, security_headers))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(|_| {
            ApiError(AppError::new(ErrorCode::Internal)).into_response()
        }))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        .layer(tower_http::request_id::PropagateRequestIdLayer::x_request_id())
        .layer(tower_http::request_id::SetRequestIdLayer::x_request_id(NewRequestId))
        .layer(middleware::from_fn(drop_unfit_request_id))
        .with_state(state)
}

// ---------------------------------------------------------------------- request ids

/// The longest request id accepted from a client or a load balancer.
const REQUEST_ID_MAX: usize = 64;

/// A fresh request id: 128 random bits in hex.
#[derive(Clone, Copy, Default)]
struct NewRequestId;

impl tower_http::request_id::MakeRequestId for NewRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<tower_http::request_id::RequestId> {
        let id = format!("{:032x}", rand::random::<u128>());
        HeaderValue::from_str(&id).ok().map(tower_http::request_id::RequestId::new)
    }
}

/// Whether an incoming `x-request-id` may be kept (a load balancer's or a client's): 1 to 64
/// characters of `[A-Za-z0-9._:-]`. Anything else (oversize, spaces, quotes, control or
/// non-ASCII bytes: a forged id meant to break or spoof log lines) is replaced.
pub fn request_id_is_fit(value: &[u8]) -> bool {
    (1..=REQUEST_ID_MAX).contains(&value.len()) && value.iter().all(|c| c.is_ascii_alphanumeric() || b"._:-".contains(c))
}

/// Drops an unfit incoming `x-request-id` (or several) so `SetRequestIdLayer` makes a new one.
async fn drop_unfit_request_id(mut req: Request, next: Next) -> Response {
    let ids = req.headers().get_all("x-request-id");
    let mut count = 0;
    let mut fit = true;
    for v in ids.iter() {
        count += 1;
        fit &= request_id_is_fit(v.as_bytes());
    }
    if count > 1 || !fit {
        req.headers_mut().remove("x-request-id");
    }
    next.run(req).await
}

/// The span of every request: its id and method, so every log line of the request carries
/// them (JSON logs: `span.request_id`). The path is left to the load balancer's access log,
/// which has the same id (echoed in the response): paths may carry tokens.
fn request_span<B>(req: &axum::http::Request<B>) -> tracing::Span {
    let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
    tracing::info_span!("request", request_id = %id, method = %req.method())
}

/// The fakes of every enabled demo provider, calling this server at `PUBLIC_URL` with the
/// provider's own settings.
fn demo_providers(config: &Config) -> Router {
    let settings = config.providers.clone();
    let fakes = providers::fake::Fakes::new(&config.public_url, move |code| providers::fake::Keys {
        secret: settings.iter().find(|s| s.name == code).and_then(|s| s.secret.clone()).unwrap_or_default(),
        extra: providers::fake::demo_keys(code),
    });
    providers::fake::demo::router(fakes)
}

async fn loader_not_here() -> Response {
    (axum::http::StatusCode::NOT_FOUND, [(axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8")], "provider loader scripts are served by the provider's CDN through the reverse proxy").into_response()
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
    // The payments' group-commit writer (intent transitions) is a shared worker too.
    let payments = state.payments.shared().batch.alive();
    if !payments {
        tracing::error!("health check: the payments write batch has stopped");
    }
    // The virtual races' loop (docs/VIRTUALS.md): a stopped loop leaves races unsettled.
    // Only the holder of its duty runs it; another instance stands by.
    let virtuals_held = state.duties.held(crate::duty::VIRTUAL_RACES);
    let virtuals = !virtuals_held || state.virtuals.alive();
    if !virtuals {
        tracing::error!("health check: the virtual races loop has stopped");
    }
    // A duty whose task died while this instance held it (it went to another instance).
    let failed = state.duties.failed();
    for (duty, why) in &failed {
        tracing::error!(duty = %duty, reason = %why, "health check: a duty's task has died");
    }
    let up = database && ledger && payments && virtuals && failed.is_empty();
    let body = serde_json::json!({
        "status": if up { "ok" } else { "unavailable" },
        "database": if database { "ok" } else { "error" },
        "ledger": if ledger { "ok" } else { "stopped" },
        "payments": if payments { "ok" } else { "stopped" },
        "virtuals": if !virtuals_held { "standby" } else if virtuals { "ok" } else { "stopped" },
        "duties": if failed.is_empty() { serde_json::json!("ok") } else { serde_json::json!(failed.into_iter().map(|(d, _)| d).collect::<Vec<_>>()) },
    });
    let status = if up { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, axum::Json(body)).into_response()
}

/// `/metrics` on the public listener: with `METRICS_BIND` it lives only there (404 here);
/// with `METRICS_TOKEN` it needs `Authorization: Bearer <token>` (401, code 23); production
/// without either never serves it publicly (404); demo mode serves it openly.
async fn metrics(State(state): State<AppState>, parts: axum::http::request::Parts) -> Response {
    let cfg = &state.config;
    if cfg.metrics_bind.is_some() || (cfg.metrics_token.is_none() && cfg.mode == Mode::Production) {
        return ApiError(AppError::new(ErrorCode::NotFound)).into_response();
    }
    metrics_reply(&state, &parts).await
}

/// The metrics text, behind the token when one is configured.
async fn metrics_reply(state: &AppState, parts: &axum::http::request::Parts) -> Response {
    if let Some(token) = &state.config.metrics_token {
        let given = parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
        if !given.is_some_and(|g| constant_time_eq(g.trim().as_bytes(), token.as_bytes())) {
            return ApiError(AppError::new(ErrorCode::NotAuthenticated)).into_response();
        }
    }
    let mut body = state.metrics.render(&state.ledger.stats());
    crate::metrics::render_operations(state, &mut body).await;
    // Which single-owner duties this instance holds (crates/store/src/lease.rs).
    body.push_str("# HELP carthage_duty_held Whether this instance holds the duty (1) or stands by (0).\n# TYPE carthage_duty_held gauge\n");
    let duties = state.duties.status();
    for d in &duties {
        body.push_str(&format!("carthage_duty_held{{duty=\"{}\"}} {}\n", d.duty, u8::from(d.held)));
    }
    body.push_str("# HELP carthage_duty_failed Whether the duty's task died in this instance (1).\n# TYPE carthage_duty_failed gauge\n");
    for d in &duties {
        body.push_str(&format!("carthage_duty_failed{{duty=\"{}\"}} {}\n", d.duty, u8::from(d.failed.is_some())));
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], body).into_response()
}

/// The router of the `METRICS_BIND` listener: `/metrics` only (token still checked if set).
pub fn metrics_router(state: AppState) -> Router {
    async fn handler(State(state): State<AppState>, parts: axum::http::request::Parts) -> Response {
        metrics_reply(&state, &parts).await
    }
    Router::new().route("/metrics", get(handler)).fallback(api_not_found).with_state(state)
}

/// Compares secrets without an early exit on the first differing byte.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
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

/// The security headers, computed once from the configuration.
pub struct SecurityHeaders {
    /// Everything but the studio game clients: may not be framed at all.
    csp: HeaderValue,
    /// `/studio/*`: framed by the player app (same origin only).
    csp_studio: HeaderValue,
    hsts: Option<HeaderValue>,
}

impl SecurityHeaders {
    pub fn new(config: &Config) -> SecurityHeaders {
        let csp = |frame_ancestors: &str| {
            let frames: String = config.csp_frame_sources.iter().map(|s| format!(" {s}")).collect();
            // Scripts and styles only from our own files (the built app has no inline script
            // or style element; React's `style` props go through the CSSOM, which CSP does not
            // govern). Images and media may come from providers' CDNs over HTTPS. The app
            // frames /studio/ (and CSP_FRAME_SOURCES), and nothing frames the app.
            let value = format!(
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; media-src 'self' https:; \
                 font-src 'self' data:; connect-src 'self'; frame-src 'self'{frames}; worker-src 'self'; manifest-src 'self'; \
                 object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors {frame_ancestors}"
            );
            HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'"))
        };
        SecurityHeaders {
            csp: csp("'none'"),
            csp_studio: csp("'self'"),
            // Two years, subdomains included: the whole site is HTTPS-only.
            hsts: config.hsts().then(|| HeaderValue::from_static("max-age=63072000; includeSubDomains")),
        }
    }
}

async fn security_headers(State(headers): State<Arc<SecurityHeaders>>, req: Request, next: Next) -> Response {
    // Game clients are framed by the game page, the sandbox's payment pages by the payment
    // frame, the demo partner sportsbooks by the sport pages (same origin only); nothing
    // else may be framed.
    let path = req.uri().path();
    let framable = path.starts_with("/studio") || path.starts_with("/pay/") || path.starts_with("/partners/") || path.starts_with("/demo-providers/");
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    h.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    h.entry(header::X_FRAME_OPTIONS).or_insert(HeaderValue::from_static(if framable { "SAMEORIGIN" } else { "DENY" }));
    h.entry(header::CONTENT_SECURITY_POLICY).or_insert(if framable { headers.csp_studio.clone() } else { headers.csp.clone() });
    if let Some(hsts) = &headers.hsts {
        h.entry(header::STRICT_TRANSPORT_SECURITY).or_insert(hsts.clone());
    }
    resp
}

/// The built web apps: embedded in the binary (src/web_assets.rs), or read from `WEB_DIR` when
/// it is set (development). Hashed assets cached for a year, everything else revalidated,
/// unknown paths answered with `index.html` (SPA routing). The build writes `x.br` and `x.gz`
/// beside every compressible file (web/vite.config.ts): they are sent as they are to a browser
/// that accepts them (brotli first), never compressed again on the fly.
fn static_app(dir: Option<&std::path::Path>) -> Router {
    use crate::web_assets;
    let Some(dir) = dir else {
        let files = web_assets::Embedded::count();
        if files == 0 {
            tracing::warn!("no web app embedded in this binary and no WEB_DIR (run `make run`); serving a notice instead");
        } else {
            tracing::info!(files, "serving the web apps embedded in the binary");
        }
        return web_assets::router(Arc::new(web_assets::Embedded));
    };
    let index = dir.join("index.html");
    if !index.exists() {
        tracing::warn!(dir = %dir.display(), "the player app is not built (run `make run`); serving a notice instead");
        return Router::new().fallback(web_assets::not_built);
    }
    tracing::info!(dir = %dir.display(), "serving the web apps from WEB_DIR");
    let file = |path: std::path::PathBuf| ServeFile::new(path).precompressed_br().precompressed_gzip();
    let folder = |path: std::path::PathBuf| ServeDir::new(path).precompressed_br().precompressed_gzip();
    let spa = folder(dir.to_path_buf()).fallback(file(index));
    // The studio game client: its own page, framed by the game page (same origin only).
    let studio_page = file(dir.join("studio.html"));
    // The cashier desk (web/desk.html): its own page for /desk and every path under it.
    let desk_page = file(dir.join("desk.html"));
    // The operator's console (web/console.html): likewise, for /console and every path under it.
    let console_page = file(dir.join("console.html"));
    Router::new()
        .nest_service("/studio", studio_page)
        .nest_service("/desk", desk_page)
        .nest_service("/console", console_page)
        // A missing hashed asset is a 404, never index.html served as JavaScript.
        .nest_service("/assets", folder(dir.join("assets")))
        .fallback_service(spa)
        .layer(middleware::from_fn(static_cache_headers))
}

async fn static_cache_headers(req: Request<Body>, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let mut resp = next.run(req).await;
    let value = crate::web_assets::cache_control(&path, resp.status().is_success());
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, value);
    // The same path answers brotli, gzip or plain bytes by Accept-Encoding: caches must key on it.
    if !h.get_all(header::VARY).iter().any(|v| v.to_str().is_ok_and(|v| v.to_ascii_lowercase().contains("accept-encoding"))) {
        h.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    resp
}
