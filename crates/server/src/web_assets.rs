//! The web apps (player, studio, desk) as `carthage serve` sends them from inside its own binary,
//! so the server started from any directory serves them (issue 21 §3).
//!
//! `web/dist` is embedded at compile time with rust-embed, the precompressed copies the web
//! build writes beside each file (`x.br`, `x.gz`, web/vite.config.ts) included: a browser gets
//! the copy its `Accept-Encoding` takes (brotli, then gzip, then the plain file; `q=0` refuses a
//! coding), never compressed on the fly. In a debug build rust-embed reads the same folder from
//! disk at run time (its path in the source tree is compiled in), so `cargo run` serves the
//! latest `npm run build` without recompiling; a release build carries the files it was built
//! with. `WEB_DIR` still serves a folder from disk instead (app.rs `static_app`).
//!
//! The routing is the one the disk folder has always had: `/studio` and `/desk` (and every path
//! under them) are their own pages, `/assets/*` are hashed files cached for a year (a missing
//! one is a 404, never `index.html` sent as JavaScript), a file at the root is itself, and every
//! other path is `index.html` (the app routes in the browser). Each reply carries
//! `Vary: accept-encoding`, an ETag per variant (the SHA-256 of the bytes sent; a matching
//! `If-None-Match` gets a 304) and `Content-Length`; HEAD gets the headers alone.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Router;
use std::collections::HashMap;
use std::sync::Arc;

/// Cache-Control of a hashed asset: its name changes with its bytes.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Cache-Control of everything else (`index.html`, the service worker, icons): revalidated.
pub const REVALIDATE: &str = "no-cache";

/// The Cache-Control of a static reply: immutable for a successful `/assets/*`, else revalidated.
pub fn cache_control(path: &str, success: bool) -> HeaderValue {
    HeaderValue::from_static(if path.starts_with("/assets/") && success { IMMUTABLE } else { REVALIDATE })
}

/// One stored file: its bytes and their SHA-256 (the ETag).
#[derive(Clone)]
pub struct File {
    pub bytes: Bytes,
    pub sha256: [u8; 32],
}

/// Where the app's files come from: the binary ([`Embedded`]) or memory ([`Memory`], tests).
pub trait Assets: Send + Sync + 'static {
    /// The file at `path`: relative to the app's root, `/`-separated, no leading slash.
    fn get(&self, path: &str) -> Option<File>;
}

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct Dist;

/// `web/dist` as compiled into the binary (read from disk at run time in debug builds).
pub struct Embedded;

impl Assets for Embedded {
    fn get(&self, path: &str) -> Option<File> {
        let file = Dist::get(path)?;
        let bytes = match file.data {
            std::borrow::Cow::Borrowed(b) => Bytes::from_static(b),
            std::borrow::Cow::Owned(v) => Bytes::from(v),
        };
        Some(File { bytes, sha256: file.metadata.sha256_hash() })
    }
}

impl Embedded {
    /// How many files are embedded, precompressed copies included.
    pub fn count() -> usize {
        Dist::iter().count()
    }
}

/// Files held in memory (tests).
#[derive(Clone, Default)]
pub struct Memory(HashMap<String, File>);

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Adds (or replaces) the file at `path` (no leading slash).
    pub fn with(mut self, path: &str, bytes: impl Into<Vec<u8>>) -> Memory {
        use sha2::Digest;
        let bytes: Vec<u8> = bytes.into();
        let sha256 = sha2::Sha256::digest(&bytes).into();
        self.0.insert(path.to_string(), File { bytes: Bytes::from(bytes), sha256 });
        self
    }
}

impl Assets for Memory {
    fn get(&self, path: &str) -> Option<File> {
        self.0.get(path).cloned()
    }
}

/// The router that serves `assets`, or the "not built" notice when they hold no `index.html`.
pub fn router(assets: Arc<dyn Assets>) -> Router {
    if assets.get("index.html").is_none() {
        return Router::new().fallback(not_built);
    }
    Router::new().fallback(handle).with_state(assets)
}

/// The page served when there is no built app to serve.
pub async fn not_built() -> Response {
    (
        StatusCode::OK,
        Html("<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Carthage</title><body><h1>Carthage</h1><p>The player app is not built. Run <code>make run</code>.</p></body></html>"),
    )
        .into_response()
}

async fn handle(State(assets): State<Arc<dyn Assets>>, req: Request) -> Response {
    respond(assets.as_ref(), req.method(), req.uri().path(), req.headers())
}

/// The reply to `method path` with the request's `headers` (Accept-Encoding, If-None-Match).
pub fn respond(assets: &dyn Assets, method: &Method, path: &str, headers: &HeaderMap) -> Response {
    let mut resp = if method != Method::GET && method != Method::HEAD {
        let mut r = StatusCode::METHOD_NOT_ALLOWED.into_response();
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    } else {
        match resolve(assets, path) {
            Some(name) => send(assets, &name, method, headers),
            None => StatusCode::NOT_FOUND.into_response(),
        }
    };
    let success = resp.status().is_success() || resp.status() == StatusCode::NOT_MODIFIED;
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, cache_control(path, success));
    // The same path answers brotli, gzip or plain bytes by Accept-Encoding: caches must key on it.
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    resp
}

/// The stored file that answers `path` (a request path, percent-encoded), by the app's routing.
fn resolve(assets: &dyn Assets, path: &str) -> Option<String> {
    // Undecodable or escaping paths name no file; outside /assets they still get the app.
    let decoded = decode_path(path);
    let rel = decoded.as_deref().unwrap_or("");
    let under = |prefix: &str| path == prefix || path.starts_with(&format!("{prefix}/"));
    let exists = |name: &str| assets.get(name).is_some();
    if under("/studio") {
        // The studio game client: its own page, framed by the game page (same origin only).
        return Some("studio.html".to_string()).filter(|n| exists(n));
    }
    if under("/desk") {
        // The cashier desk (web/desk.html): its own page for /desk and every path under it.
        return Some("desk.html".to_string()).filter(|n| exists(n));
    }
    if under("/console") {
        // The operator's console (web/console.html): its own page for /console and every path under it.
        return Some("console.html".to_string()).filter(|n| exists(n));
    }
    if under("/assets") {
        // A missing hashed asset is a 404, never index.html served as JavaScript.
        return decoded.filter(|n| !n.ends_with('/') && exists(n));
    }
    let name = if rel.is_empty() || rel.ends_with('/') { format!("{rel}index.html") } else { rel.to_string() };
    if decoded.is_some() && exists(&name) {
        return Some(name);
    }
    Some("index.html".to_string())
}

/// `/a/b%20c` → `a/b c`; `None` for bad escapes, non-UTF-8, or `.`/`..`/backslash segments.
fn decode_path(path: &str) -> Option<String> {
    let raw = path.strip_prefix('/').unwrap_or(path).as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%' {
            let hex = raw.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?);
            i += 3;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    let s = String::from_utf8(out).ok()?;
    let bad = |seg: &str| seg == "." || seg == ".." || seg.contains('\\') || seg.contains('\0');
    if s.split('/').any(bad) {
        return None;
    }
    Some(s)
}

/// The reply for the stored file `name`: the variant the client accepts, or a 304.
fn send(assets: &dyn Assets, name: &str, method: &Method, headers: &HeaderMap) -> Response {
    let accept = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(",");
    let (file, encoding) = choose(assets, name, &accept);
    let Some(file) = file else { return StatusCode::NOT_FOUND.into_response() };
    let etag = format!("\"{}\"", hex::encode(&file.sha256[..16]));
    let mut resp = if none_match(headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let len = file.bytes.len();
        let body = if method == Method::HEAD { Body::empty() } else { Body::from(file.bytes) };
        let mut r = Response::new(body);
        let h = r.headers_mut();
        let mime = mime_guess::from_path(name).first_raw().unwrap_or("application/octet-stream");
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
        h.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
        if let Some(coding) = encoding {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        r
    };
    if let Ok(v) = HeaderValue::from_str(&etag) {
        resp.headers_mut().insert(header::ETAG, v);
    }
    resp
}

/// The precompressed copies, in the order a tie between equal q-values is broken.
const CODINGS: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

/// The file to send for `name` and its Content-Encoding: the accepted precompressed copy with
/// the highest q-value (brotli first among equals) that exists, else the plain file.
fn choose(assets: &dyn Assets, name: &str, accept: &str) -> (Option<File>, Option<&'static str>) {
    let mut ranked: Vec<(u16, &'static str, &'static str)> =
        CODINGS.iter().map(|&(coding, ext)| (qvalue(accept, coding), coding, ext)).filter(|(q, _, _)| *q > 0).collect();
    // Stable: equal q-values keep brotli before gzip.
    ranked.sort_by(|a, b| b.0.cmp(&a.0));
    for (_, coding, ext) in ranked {
        if let Some(file) = assets.get(&format!("{name}{ext}")) {
            return (Some(file), Some(coding));
        }
    }
    (assets.get(name), None)
}

/// The q-value (in thousandths) `accept` gives `coding`: its own entry, else `*`, else 0.
/// A malformed q-value counts as 0 (the coding is not sent).
fn qvalue(accept: &str, coding: &str) -> u16 {
    let (mut exact, mut star) = (None::<u16>, None::<u16>);
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        if name.is_empty() {
            continue;
        }
        let mut q = 1000;
        for param in parts {
            let (key, value) = param.split_once('=').unwrap_or((param, ""));
            if key.trim().eq_ignore_ascii_case("q") {
                q = parse_q(value.trim()).unwrap_or(0);
            }
        }
        let same = name.eq_ignore_ascii_case(coding) || (coding == "gzip" && name.eq_ignore_ascii_case("x-gzip"));
        if same {
            exact = Some(exact.map_or(q, |e| e.max(q)));
        } else if name == "*" {
            star = Some(q);
        }
    }
    exact.or(star).unwrap_or(0)
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2), in thousandths.
fn parse_q(v: &str) -> Option<u16> {
    let (int, frac) = v.split_once('.').unwrap_or((v, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{frac:0<3}").parse::<u16>().ok()?;
    match int {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// Whether `If-None-Match` names `etag` (weak comparison, `*` matches any).
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).any(|v| {
        v.split(',').map(str::trim).any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> Memory {
        Memory::new()
            .with("index.html", "<!doctype html><div id=\"root\"></div>")
            .with("index.html.br", "BR index")
            .with("index.html.gz", "GZ index")
            .with("studio.html", "<div id=\"studio\"></div>")
            .with("studio.html.br", "BR studio")
            .with("desk.html", "<div id=\"desk\"></div>")
            .with("console.html", "<div id=\"console\"></div>")
            .with("assets/app-abc.js", "console.log('plain')")
            .with("assets/app-abc.js.br", "BR js")
            .with("assets/app-abc.js.gz", "GZ js")
            .with("assets/app-abc.css", "body{}")
            .with("assets/app-abc.css.gz", "GZ css")
            .with("sw.js", "self.x=1")
            .with("sw.js.br", "BR sw")
            .with("icons/a b.svg", "<svg/>")
    }

    struct Reply {
        status: u16,
        headers: HeaderMap,
        body: Vec<u8>,
    }

    impl Reply {
        fn header(&self, name: header::HeaderName) -> Option<&str> {
            self.headers.get(name).and_then(|v| v.to_str().ok())
        }
    }

    async fn call(assets: &dyn Assets, method: Method, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            map.append(header::HeaderName::from_bytes(k.as_bytes()).unwrap(), HeaderValue::from_str(v).unwrap());
        }
        let resp = respond(assets, &method, path, &map);
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX).await.unwrap().to_vec();
        Reply { status, headers, body }
    }

    async fn get(path: &str, accept: &str) -> Reply {
        call(&app(), Method::GET, path, &[("accept-encoding", accept)]).await
    }

    #[tokio::test]
    async fn brotli_then_gzip_then_plain() {
        let r = get("/assets/app-abc.js", "gzip, deflate, br, zstd").await;
        assert_eq!((r.status, r.header(header::CONTENT_ENCODING), r.body.as_slice()), (200, Some("br"), &b"BR js"[..]));
        assert!(r.header(header::CONTENT_TYPE).unwrap().contains("javascript"));
        assert_eq!(r.header(header::CONTENT_LENGTH), Some("5"));
        assert_eq!(r.header(header::VARY), Some("accept-encoding"));
        assert_eq!(r.header(header::CACHE_CONTROL), Some(IMMUTABLE));

        let r = get("/assets/app-abc.js", "gzip").await;
        assert_eq!((r.header(header::CONTENT_ENCODING), r.body.as_slice()), (Some("gzip"), &b"GZ js"[..]));
        let r = get("/assets/app-abc.js", "x-gzip").await;
        assert_eq!(r.header(header::CONTENT_ENCODING), Some("gzip"));
        let r = get("/assets/app-abc.js", "").await;
        assert_eq!((r.header(header::CONTENT_ENCODING), r.body.as_slice()), (None, &b"console.log('plain')"[..]));
        assert_eq!(r.header(header::VARY), Some("accept-encoding"));
        let r = call(&app(), Method::GET, "/assets/app-abc.js", &[]).await;
        assert_eq!(r.header(header::CONTENT_ENCODING), None);

        // A missing .br copy: gzip if accepted, else plain (never compressed on the fly).
        let r = get("/assets/app-abc.css", "br, gzip").await;
        assert_eq!((r.header(header::CONTENT_ENCODING), r.body.as_slice()), (Some("gzip"), &b"GZ css"[..]));
        assert_eq!(r.header(header::CONTENT_TYPE), Some("text/css"));
        let r = get("/sw.js", "gzip").await;
        assert_eq!((r.header(header::CONTENT_ENCODING), r.body.as_slice()), (None, &b"self.x=1"[..]));
        assert_eq!(r.header(header::CACHE_CONTROL), Some(REVALIDATE));
        let r = get("/sw.js", "*").await;
        assert_eq!(r.header(header::CONTENT_ENCODING), Some("br"));
    }

    #[tokio::test]
    async fn q_values_are_respected() {
        // q=0 refuses a coding, in any of its spellings.
        for accept in ["br;q=0, gzip", "br; q=0.0, gzip", "br;Q=0.000, gzip;q=0.5", "gzip, *;q=0"] {
            let r = get("/assets/app-abc.js", accept).await;
            assert_eq!(r.header(header::CONTENT_ENCODING), Some("gzip"), "{accept}");
        }
        for accept in ["br;q=0, gzip;q=0", "*;q=0", "identity", "br;q=2, gzip;q=abc", "deflate"] {
            let r = get("/assets/app-abc.js", accept).await;
            assert_eq!(r.header(header::CONTENT_ENCODING), None, "{accept}");
        }
        // The higher q-value wins; equal ones go to brotli.
        assert_eq!(get("/assets/app-abc.js", "br;q=0.5, gzip;q=0.8").await.header(header::CONTENT_ENCODING), Some("gzip"));
        assert_eq!(get("/assets/app-abc.js", "gzip;q=0.8, br;q=0.8").await.header(header::CONTENT_ENCODING), Some("br"));
        assert_eq!(get("/assets/app-abc.js", "gzip;q=1.0, br;q=1").await.header(header::CONTENT_ENCODING), Some("br"));
        assert_eq!(parse_q("0.001"), Some(1));
        assert_eq!(parse_q("1.001"), None);
        assert_eq!(parse_q("0.0001"), None);
    }

    #[tokio::test]
    async fn etag_per_variant_and_304() {
        let br = get("/assets/app-abc.js", "br").await;
        let gz = get("/assets/app-abc.js", "gzip").await;
        let etag = br.header(header::ETAG).unwrap().to_string();
        assert!(etag.starts_with('"') && etag.ends_with('"') && etag.len() == 34, "{etag}");
        assert_ne!(Some(etag.as_str()), gz.header(header::ETAG), "each variant has its own ETag");

        for inm in [etag.clone(), format!("W/{etag}"), format!("\"other\", {etag}"), "*".to_string()] {
            let r = call(&app(), Method::GET, "/assets/app-abc.js", &[("accept-encoding", "br"), ("if-none-match", &inm)]).await;
            assert_eq!(r.status, 304, "{inm}");
            assert!(r.body.is_empty());
            assert_eq!(r.header(header::ETAG), Some(etag.as_str()));
            assert_eq!(r.header(header::VARY), Some("accept-encoding"));
            assert_eq!(r.header(header::CACHE_CONTROL), Some(IMMUTABLE));
        }
        // The brotli copy's tag does not validate the gzip copy.
        let r = call(&app(), Method::GET, "/assets/app-abc.js", &[("accept-encoding", "gzip"), ("if-none-match", &etag)]).await;
        assert_eq!((r.status, r.body.as_slice()), (200, &b"GZ js"[..]));
        // index.html too (revalidated on every load, so the 304 is what a reload costs).
        let i = get("/home", "br").await;
        let tag = i.header(header::ETAG).unwrap().to_string();
        let r = call(&app(), Method::GET, "/", &[("accept-encoding", "br"), ("if-none-match", &tag)]).await;
        assert_eq!((r.status, r.header(header::CACHE_CONTROL)), (304, Some(REVALIDATE)));
    }

    #[tokio::test]
    async fn head_has_the_headers_and_no_body() {
        let r = call(&app(), Method::HEAD, "/assets/app-abc.js", &[("accept-encoding", "gzip")]).await;
        assert_eq!(r.status, 200);
        assert!(r.body.is_empty());
        assert_eq!(r.header(header::CONTENT_LENGTH), Some("5"));
        assert_eq!(r.header(header::CONTENT_ENCODING), Some("gzip"));
        assert!(r.header(header::ETAG).is_some());
        let r = call(&app(), Method::HEAD, "/home", &[]).await;
        assert_eq!((r.status, r.body.len()), (200, 0));
        assert_eq!(r.header(header::CONTENT_LENGTH), Some("36"));
        let r = call(&app(), Method::POST, "/home", &[]).await;
        assert_eq!((r.status, r.header(header::ALLOW)), (405, Some("GET, HEAD")));
    }

    #[tokio::test]
    async fn routing_matches_the_folder() {
        // The SPA: /, unknown paths and deep paths answer index.html, revalidated.
        for path in ["/", "/home", "/profile/some/deep/path", "/index.html", "/nope.js", "/a/../../etc/passwd", "/%zz"] {
            let r = get(path, "br").await;
            assert_eq!((r.status, r.body.as_slice()), (200, &b"BR index"[..]), "{path}");
            assert_eq!(r.header(header::CONTENT_TYPE), Some("text/html"), "{path}");
            assert_eq!(r.header(header::CACHE_CONTROL), Some(REVALIDATE), "{path}");
        }
        // Files at the root are themselves (percent-decoded).
        let r = get("/icons/a%20b.svg", "br").await;
        assert_eq!((r.status, r.body.as_slice(), r.header(header::CONTENT_TYPE)), (200, &b"<svg/>"[..], Some("image/svg+xml")));
        // The studio and the desk: their pages for the prefix and every path under it.
        for path in ["/studio", "/studio/", "/studio/game/1"] {
            let r = get(path, "br, gzip").await;
            assert_eq!((r.status, r.body.as_slice()), (200, &b"BR studio"[..]), "{path}");
        }
        for path in ["/desk", "/desk/shift"] {
            let r = get(path, "br, gzip").await;
            assert_eq!((r.status, r.body.as_slice()), (200, &b"<div id=\"desk\"></div>"[..]), "{path}");
            assert_eq!(r.header(header::CACHE_CONTROL), Some(REVALIDATE));
        }
        for path in ["/console", "/console/players/7"] {
            let r = get(path, "br, gzip").await;
            assert_eq!((r.status, r.body.as_slice()), (200, &b"<div id=\"console\"></div>"[..]), "{path}");
        }
        // /studiox is not the studio.
        assert_eq!(get("/studiox", "br").await.body, b"BR index");
        // A missing asset is a 404, never index.html; so are escapes and the folder itself.
        for path in ["/assets/missing-000.js", "/assets/", "/assets", "/assets/../index.html", "/assets/%2e%2e/index.html"] {
            let r = get(path, "br").await;
            assert_eq!(r.status, 404, "{path}");
            assert_eq!(r.header(header::CACHE_CONTROL), Some(REVALIDATE), "{path}");
            assert_eq!(r.header(header::VARY), Some("accept-encoding"), "{path}");
        }
        // No desk page built: /desk is a 404, as ServeFile answered.
        let no_desk = Memory::new().with("index.html", "i");
        assert_eq!(call(&no_desk, Method::GET, "/desk", &[]).await.status, 404);
    }

    #[tokio::test]
    async fn not_built_without_index() {
        use tower::ServiceExt;
        let empty = router(Arc::new(Memory::new().with("assets/x.js", "x")));
        let resp = empty.oneshot(Request::get("/home").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(resp.status(), 200);
        let body = axum::body::to_bytes(resp.into_body(), usize::MAX).await.unwrap();
        assert!(String::from_utf8_lossy(&body).contains("not built"));

        let built = router(Arc::new(app()));
        let req = Request::get("/assets/app-abc.js").header("accept-encoding", "br").body(Body::empty()).unwrap();
        let resp = built.oneshot(req).await.unwrap();
        assert_eq!(resp.headers().get(header::CONTENT_ENCODING).unwrap(), "br");
    }
}
