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
        move |cfg| cfg.web_dir = Some(web.clone()),
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
        move |cfg| cfg.web_dir = Some(web.clone()),
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
            cfg.web_dir = Some(web.clone());
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

/// The embedded path (no `WEB_DIR`): the same replies from files held by the server itself.
/// Served here from an in-memory set through the router `carthage serve` uses for the embedded
/// files, so the figures do not depend on whether `web/dist` is built.
#[tokio::test]
async fn embedded_files_are_negotiated_like_the_folder() {
    use server::web_assets::{router, Memory};
    let js = b"console.log('carthage app, plain');".repeat(20);
    let files = Memory::new()
        .with("assets/index-abc123.js", js.clone())
        .with("assets/index-abc123.js.br", "BROTLI BYTES OF index-abc123.js")
        .with("assets/index-abc123.js.gz", "GZIP BYTES OF index-abc123.js")
        .with("index.html", "<!doctype html><div id=\"root\"></div>")
        .with("index.html.br", "BROTLI BYTES OF index.html")
        .with("index.html.gz", "GZIP BYTES OF index.html")
        .with("studio.html", "<!doctype html><div id=\"studio\"></div>")
        .with("desk.html", "<!doctype html><div id=\"desk\"></div>")
        .with("sw.js", b"self.addEventListener('fetch', () => {});".repeat(10))
        .with("sw.js.br", "BROTLI BYTES OF sw.js");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move { axum::serve(listener, router(std::sync::Arc::new(files))).await });
    let c = Api::new(&base, store::Backend::Sqlite, false);
    let asset = "/assets/index-abc123.js";

    let r = fetch(&c, asset, Some("gzip, deflate, br, zstd")).await;
    assert_eq!((r.status, r.encoding.as_deref(), r.body.as_slice()), (200, Some("br"), &b"BROTLI BYTES OF index-abc123.js"[..]));
    assert!(r.vary.contains("accept-encoding"), "vary: {}", r.vary);
    assert_eq!(r.cache.as_deref(), Some("public, max-age=31536000, immutable"));
    assert!(r.content_type.as_deref().is_some_and(|t| t.contains("javascript")), "{:?}", r.content_type);
    let r = fetch(&c, asset, Some("gzip")).await;
    assert_eq!((r.encoding.as_deref(), r.body.as_slice()), (Some("gzip"), &b"GZIP BYTES OF index-abc123.js"[..]));
    let r = fetch(&c, asset, Some("br;q=0, gzip")).await;
    assert_eq!(r.encoding.as_deref(), Some("gzip"), "q=0 refuses brotli");
    let r = fetch(&c, asset, None).await;
    assert_eq!((r.encoding, r.body), (None, js.clone()));
    let r = fetch(&c, "/sw.js", Some("gzip")).await;
    assert_eq!(r.encoding, None);
    assert_eq!(r.cache.as_deref(), Some("no-cache"));

    for path in ["/", "/home", "/profile/some/deep/path"] {
        let r = fetch(&c, path, Some("br, gzip")).await;
        assert_eq!((r.status, r.encoding.as_deref(), r.body.as_slice()), (200, Some("br"), &b"BROTLI BYTES OF index.html"[..]), "{path}");
        assert_eq!(r.cache.as_deref(), Some("no-cache"), "{path}");
        assert!(r.content_type.as_deref().is_some_and(|t| t.starts_with("text/html")), "{path}");
    }
    assert!(String::from_utf8_lossy(&fetch(&c, "/studio/crash", None).await.body).contains("id=\"studio\""));
    assert!(String::from_utf8_lossy(&fetch(&c, "/desk/payout", None).await.body).contains("id=\"desk\""));
    assert_eq!(fetch(&c, "/assets/missing-000.js", Some("br")).await.status, 404);

    // Revalidation: the ETag of the variant sent, a 304 when it is presented again.
    let resp = c.http.get(format!("{base}{asset}")).header("accept-encoding", "br").send().await.unwrap();
    let etag = resp.headers().get("etag").expect("etag").to_str().unwrap().to_string();
    let resp = c.http.get(format!("{base}{asset}")).header("accept-encoding", "br").header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 304);
    // HEAD: the headers of the GET, no body.
    let resp = c.http.head(format!("{base}{asset}")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(resp.headers().get("content-length").unwrap(), "29");
    assert_eq!(resp.headers().get("content-encoding").unwrap(), "gzip");
    assert!(resp.bytes().await.unwrap().is_empty());
    server.abort();
}

/// No `WEB_DIR` (the tests' configuration, as a deployed binary's): the whole app serves what the
/// binary embeds. In a debug build that is web/dist read at run time: the built app when it is
/// there, else the "not built" notice.
#[tokio::test]
async fn without_web_dir_the_app_serves_the_embedded_files() {
    each_backend_with(
        |cfg| cfg.web_dir = None,
        async |app| {
            let c = app.bare_client();
            let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
            let r = fetch(&c, "/home", None).await;
            assert_eq!(r.status, 200);
            assert!(r.content_type.as_deref().is_some_and(|t| t.starts_with("text/html")), "{:?}", r.content_type);
            match std::fs::read(dist.join("index.html")) {
                Ok(index) => {
                    assert_eq!(r.body, index);
                    assert!(r.vary.contains("accept-encoding"), "vary: {}", r.vary);
                    assert_eq!(fetch(&c, "/assets/missing-000.js", Some("br")).await.status, 404);
                    if dist.join("index.html.br").exists() {
                        let r = fetch(&c, "/", Some("br")).await;
                        assert_eq!((r.encoding.as_deref(), r.body), (Some("br"), std::fs::read(dist.join("index.html.br")).unwrap()));
                    }
                }
                Err(_) => assert!(String::from_utf8_lossy(&r.body).contains("not built"), "{}", String::from_utf8_lossy(&r.body)),
            }
            // The API is never a static file.
            let r = fetch(&c, "/api/site/settings", Some("br")).await;
            assert_eq!(r.encoding, None);
            assert!(String::from_utf8_lossy(&r.body).contains("\"status\":0"));
        },
    )
    .await;
}
