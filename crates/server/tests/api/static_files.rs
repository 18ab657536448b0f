//! The built player app as the server sends it: the precompressed copies the web build writes
//! beside each file (`x.br`, `x.gz`) are sent as they are, by the browser's Accept-Encoding,
//! never compressed again; hashed assets stay immutable, the rest revalidated; unknown paths
//! get `index.html` (precompressed too).

use crate::common::*;
use reqwest::Method;

struct Raw {
    status: u16,
    encoding: Option<String>,
    vary: String,
    cache: Option<String>,
    content_type: Option<String>,
    body: Vec<u8>,
}

async fn fetch(api: &Api, path: &str, accept_encoding: Option<&str>) -> Raw {
    let mut req = api.req(Method::GET, path);
    if let Some(ae) = accept_encoding {
        req = req.header("accept-encoding", ae);
    }
    let resp = api.http.execute(req.build().unwrap()).await.expect("request");
    let h = resp.headers().clone();
    let text = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let vary = h.get_all("vary").iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>().join(", ").to_ascii_lowercase();
    Raw {
        status: resp.status().as_u16(),
        encoding: text("content-encoding"),
        vary,
        cache: text("cache-control"),
        content_type: text("content-type"),
        body: resp.bytes().await.expect("body").to_vec(),
    }
}

#[tokio::test]
async fn precompressed_brotli_and_gzip_are_served_as_built() {
    let dir = std::env::temp_dir().join(format!("carthage-web-{}", kernel::ids::next_id()));
    std::fs::create_dir_all(dir.join("assets")).unwrap();
    // The bytes differ per variant, so each reply shows which file was sent, untouched.
    let js = b"console.log('carthage app, plain');".repeat(20);
    std::fs::write(dir.join("assets/index-abc123.js"), &js).unwrap();
    std::fs::write(dir.join("assets/index-abc123.js.br"), b"BROTLI BYTES OF index-abc123.js").unwrap();
    std::fs::write(dir.join("assets/index-abc123.js.gz"), b"GZIP BYTES OF index-abc123.js").unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><div id=\"root\"></div>").unwrap();
    std::fs::write(dir.join("index.html.br"), b"BROTLI BYTES OF index.html").unwrap();
    std::fs::write(dir.join("index.html.gz"), b"GZIP BYTES OF index.html").unwrap();
    std::fs::write(dir.join("studio.html"), "<!doctype html><div id=\"studio\"></div>").unwrap();
    std::fs::write(dir.join("sw.js"), b"self.addEventListener('fetch', () => {});".repeat(10)).unwrap();
    std::fs::write(dir.join("sw.js.br"), b"BROTLI BYTES OF sw.js").unwrap();
    let web = dir.clone();
    each_backend_with(
        move |cfg| cfg.web_dir = web.clone(),
        async |app| {
            let c = app.bare_client();
            let asset = "/assets/index-abc123.js";

            // A browser's Accept-Encoding (br first among equals): the .br file, as it is.
            let r = fetch(&c, asset, Some("gzip, deflate, br, zstd")).await;
            assert_eq!(r.status, 200);
            assert_eq!(r.encoding.as_deref(), Some("br"));
            assert_eq!(r.body, b"BROTLI BYTES OF index-abc123.js");
            assert!(r.vary.contains("accept-encoding"), "vary: {}", r.vary);
            assert_eq!(r.cache.as_deref(), Some("public, max-age=31536000, immutable"));
            assert!(r.content_type.as_deref().is_some_and(|t| t.contains("javascript")), "{:?}", r.content_type);

            let r = fetch(&c, asset, Some("br")).await;
            assert_eq!((r.encoding.as_deref(), r.body.as_slice()), (Some("br"), &b"BROTLI BYTES OF index-abc123.js"[..]));

            // Only gzip: the .gz file; nothing accepted: the plain file, uncompressed.
            let r = fetch(&c, asset, Some("gzip")).await;
            assert_eq!((r.encoding.as_deref(), r.body.as_slice()), (Some("gzip"), &b"GZIP BYTES OF index-abc123.js"[..]));
            let r = fetch(&c, asset, None).await;
            assert_eq!(r.encoding, None);
            assert_eq!(r.body, js);
            assert!(r.vary.contains("accept-encoding"), "vary: {}", r.vary);

            // A file without a .gz copy is sent plain to a gzip-only client (never compressed on the fly).
            let r = fetch(&c, "/sw.js", Some("gzip")).await;
            assert_eq!(r.encoding, None);
            assert!(r.body.starts_with(b"self.addEventListener"));
            let r = fetch(&c, "/sw.js", Some("br")).await;
            assert_eq!((r.encoding.as_deref(), r.body.as_slice()), (Some("br"), &b"BROTLI BYTES OF sw.js"[..]));
            assert_eq!(r.cache.as_deref(), Some("no-cache"), "the service worker is revalidated");

            // The SPA fallback and / answer index.html, precompressed, revalidated.
            for path in ["/", "/home", "/profile/some/deep/path"] {
                let r = fetch(&c, path, Some("br, gzip")).await;
                assert_eq!(r.status, 200, "{path}");
                assert_eq!((r.encoding.as_deref(), r.body.as_slice()), (Some("br"), &b"BROTLI BYTES OF index.html"[..]), "{path}");
                assert_eq!(r.cache.as_deref(), Some("no-cache"), "{path}");
                assert!(r.content_type.as_deref().is_some_and(|t| t.starts_with("text/html")), "{path}: {:?}", r.content_type);
            }
            let r = fetch(&c, "/home", None).await;
            assert!(String::from_utf8_lossy(&r.body).contains("id=\"root\""));

            // A missing hashed asset is a 404, not index.html.
            assert_eq!(fetch(&c, "/assets/missing-000.js", Some("br")).await.status, 404);
            // The API is never a static file: JSON, whatever the Accept-Encoding.
            let r = fetch(&c, "/api/site/settings", Some("br")).await;
            assert_eq!(r.encoding, None);
            assert!(String::from_utf8_lossy(&r.body).contains("\"status\":0"));
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The providers' loader scripts (spec §7: fixed paths under /inbet/media and /rpl/media):
/// demo mode serves the InBet fake's loader; anything else there is a plain 404, never the
/// player app's index page standing in for a script.
#[tokio::test]
async fn loader_scripts_are_scripts_or_404() {
    let dir = std::env::temp_dir().join(format!("carthage-web-{}", kernel::ids::next_id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><div id=\"root\"></div>").unwrap();
    let web = dir.clone();
    each_backend_with(
        move |cfg| cfg.web_dir = web.clone(),
        async |app| {
            let c = app.bare_client();
            let r = fetch(&c, "/inbet/media/loader.js", None).await;
            assert_eq!(r.status, 200);
            assert!(r.content_type.as_deref().is_some_and(|t| t.starts_with("text/javascript")), "{:?}", r.content_type);
            let js = String::from_utf8(r.body).unwrap();
            assert!(js.contains("window.InbetLoader") && js.contains("mount"), "{js}");
            for path in ["/inbet/media/other.js", "/rpl/media/loader.js"] {
                let r = fetch(&c, path, None).await;
                assert_eq!(r.status, 404, "{path}");
                assert!(!String::from_utf8_lossy(&r.body).contains("<div id=\"root\">"), "{path}");
            }
        },
    )
    .await;
    let web = dir.clone();
    each_backend_with(
        move |cfg| {
            cfg.web_dir = web.clone();
            cfg.mode = server::config::Mode::Production;
        },
        async |app| {
            let r = fetch(&app.bare_client(), "/inbet/media/loader.js", None).await;
            assert_eq!(r.status, 404, "production: the reverse proxy maps /inbet/media to the provider's CDN");
        },
    )
    .await;
    let _ = std::fs::remove_dir_all(dir);
}
