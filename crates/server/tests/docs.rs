//! The documents that describe the contract must not drift from the code.

use kernel::ErrorCode;

fn repo_file(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[test]
fn api_md_lists_every_error_code() {
    let doc = repo_file("docs/API.md");
    for code in ErrorCode::ALL {
        let row = format!("| {} | {} | {} | {} |", code.code(), code.name(), code.http_status(), code.message());
        assert!(doc.contains(&row), "docs/API.md lacks or misstates the row `{row}`");
    }
}
