use clap::Parser;

// The sqlx Any driver and JSON replies allocate a lot of small values per request;
// mimalloc serves them faster than the system allocator (docs/PERFORMANCE.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use server::cli::{run, Cli};
use tracing_subscriber::EnvFilter;

fn init_logging() {
    let json = match std::env::var("JSON_LOGS").ok().as_deref() {
        Some("true") | Some("1") => true,
        Some(_) => false,
        None => std::env::var("CARTHAGE_MODE").map(|m| m != "demo").unwrap_or(true),
    };
    let filter = EnvFilter::try_from_env("RUST_LOG").unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=warn"));
    if json {
        tracing_subscriber::fmt().with_env_filter(filter).json().init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
}

#[tokio::main]
async fn main() {
    init_logging();
    let cli = Cli::parse();
    match run(cli).await {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(2);
        }
    }
}
