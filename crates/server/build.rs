//! Release builds embed `web/dist` (rust-embed, `src/web_assets.rs`): rebuild the server when
//! the web build changes, also when `web/dist` did not exist at the first compile (cargo
//! scans a directory named here for any change). Debug builds read `web/dist` from disk at run
//! time, so they do not watch it (a web build never recompiles the debug server).
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        println!("cargo:rerun-if-changed=../../web/dist");
    }
}
