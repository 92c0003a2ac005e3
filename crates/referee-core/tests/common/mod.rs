//! What several core tests read: the examples of docs/api.md, where they are written.

use std::path::PathBuf;

use serde_json::Value;

/// Every ```json example=<system>/<action> block of docs/api.md, in order: its tag and situation.
pub fn api_examples() -> Vec<(String, Value)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(tag) = line.strip_prefix("```json example=") {
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            let tag = tag.split_whitespace().next().unwrap().to_string();
            out.push((tag, serde_json::from_str(&body.join("\n")).unwrap()));
        }
    }
    assert!(out.len() > 40, "docs/api.md's examples are read");
    out
}
