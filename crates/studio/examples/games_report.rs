//! Prints what `carthage games list|rtp|simulate` print, without the server:
//! cargo run --release -p studio --example games_report -- [list | rtp GAME | simulate GAME SPINS [THREADS]]
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let out = match a.first().map(String::as_str) {
        None | Some("list") => Ok(studio::report::list_text()),
        Some("rtp") => studio::report::rtp_text(a.get(1).map(String::as_str).unwrap_or("")),
        Some("simulate") => studio::report::simulate_text(
            a.get(1).map(String::as_str).unwrap_or(""),
            a.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000_000),
            a.get(3).and_then(|s| s.parse().ok()).unwrap_or(0),
        ),
        Some(other) => Err(format!("unknown command {other}")),
    };
    match out {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
