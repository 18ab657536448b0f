//! docs/SPORTSBOOK.md stays true: its feed examples decode and apply in order to an empty line,
//! and its refusal table lists every code of `slip::REFUSAL_CODES` with the same name.

use sportsbook::feed::{decode, FeedMessage};
use sportsbook::slip::REFUSAL_CODES;
use sportsbook::Line;

fn doc() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/SPORTSBOOK.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim()) {
            (None, "```json") => current = Some(String::new()),
            (Some(b), "```") => {
                blocks.push(std::mem::take(b));
                current = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn feed_examples_decode_and_apply() {
    let blocks = json_blocks(&doc());
    let mut line = Line::new();
    let mut kinds = Vec::new();
    for block in &blocks {
        let message: FeedMessage = decode(block).unwrap_or_else(|e| panic!("{e}\n{block}"));
        line.apply(&message).unwrap_or_else(|e| panic!("{e}\n{block}"));
        kinds.push(message.kind());
    }
    assert_eq!(kinds, ["fixture_change", "odds_change", "bet_stop", "bet_settlement", "bet_cancel", "score_change"]);
}

#[test]
fn refusal_table_lists_every_code() {
    let text = doc();
    for (code, name, _) in REFUSAL_CODES {
        let row = format!("| {code} | {name} |");
        assert!(text.contains(&row), "docs/SPORTSBOOK.md lacks the row {row}");
    }
}
