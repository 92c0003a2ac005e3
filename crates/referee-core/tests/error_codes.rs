//! Error codes come from the one enum, `ErrorCode`: no code is written as a string where a code
//! belongs, every code is raised somewhere, and the table of codes in docs/api.md is rendered from
//! the enum (`UPDATE_DOCS=1` rewrites it).

mod source;

use std::fs;
use std::path::PathBuf;

use referee_core::ErrorCode;
use source::files;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Rust source the app runs, without its tests: each crate's `src` and the app's, less
/// `tests.rs` files and the `#[cfg(test)] mod … {` that ends a file (tests compare codes with the
/// dotted strings the user sees, which is what they are for).
fn shipped_rust() -> Vec<(PathBuf, String)> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .collect();
    dirs.push(root().join("src-tauri/src"));
    dirs.iter()
        .filter(|d| d.is_dir())
        .flat_map(|d| files(d, &["rs"]))
        .filter(|(path, _)| !path.ends_with("tests.rs") && !path.ends_with("error_code.rs"))
        .map(|(path, text)| {
            let lines: Vec<&str> = text.lines().collect();
            let end = lines
                .iter()
                .enumerate()
                .find(|(i, l)| {
                    **l == "#[cfg(test)]"
                        && lines[i + 1..]
                            .iter()
                            .find(|n| !n.trim().is_empty())
                            .is_some_and(|n| n.starts_with("mod ") && n.ends_with('{'))
                })
                .map_or(lines.len(), |(i, _)| i);
            (path, lines[..end].join("\n"))
        })
        .collect()
}

/// Each string literal of `text` that is a dotted error code, or is passed where a code belongs
/// (`RefereeError::new("…"`, `code: "…"`), with its line.
fn code_literals(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let literal = code
            .split('"')
            .skip(1)
            .step_by(2)
            .find(|s| ErrorCode::ALL.iter().any(|c| c == s));
        let squeezed: String = code.split_whitespace().collect();
        let passed = squeezed.contains("RefereeError::new(\"") || squeezed.contains("code:\"");
        if literal.is_some() || passed {
            out.push((i + 1, line.trim().to_string()));
        }
    }
    out
}

#[test]
fn no_code_is_written_as_a_string_outside_the_enum() {
    let source = shipped_rust();
    assert!(source.len() > 50, "found only {} files", source.len());
    let mut found = Vec::new();
    for (path, text) in &source {
        for (line, what) in code_literals(text) {
            found.push(format!("{}:{line}: {what}", path.display()));
        }
    }
    assert!(
        found.is_empty(),
        "error codes written as strings (use ErrorCode):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_a_code_written_as_a_string() {
    // The scan above would catch what the enum replaced.
    for line in [
        r#"RefereeError::new("situation.invalid_field", "x")"#,
        r#"RefereeError::new( "new.typo", "x")"#,
        r#"code: "preset.syntax".into(),"#,
        r#"Err(e) if e.code.as_str() == "store.conflict" => {}"#,
    ] {
        assert_eq!(code_literals(line).len(), 1, "{line}");
    }
    assert!(code_literals(r#"RefereeError::new(ErrorCode::DiceInvalid, "x")"#).is_empty());
}

#[test]
fn every_code_is_raised_somewhere() {
    let rust: String = shipped_rust().into_iter().map(|(_, t)| t).collect();
    // The app's screen raises a few of its own (a page opened outside the app's window).
    let ui: String = files(&root().join("ui/src"), &["ts", "svelte"])
        .into_iter()
        .filter(|(p, _)| !p.to_string_lossy().contains("generated"))
        .map(|(_, t)| t)
        .collect();
    let unused: Vec<&str> = ErrorCode::ALL
        .iter()
        .filter(|c| {
            let variant = format!("ErrorCode::{c:?}");
            let raised = rust.match_indices(&variant).any(|(i, _)| {
                !rust[i + variant.len()..].starts_with(|ch: char| ch.is_alphanumeric())
            });
            !raised && !ui.contains(&format!("'{}'", c.as_str()))
        })
        .map(|c| c.as_str())
        .collect();
    assert!(
        unused.is_empty(),
        "codes nothing raises (remove them from ErrorCode): {unused:?}"
    );
}

const TABLE_START: &str =
    "<!-- The table below is generated from ErrorCode (crates/referee-core/src/error_code.rs): UPDATE_DOCS=1 cargo test -p referee-core --test error_codes -->";
const TABLE_END: &str = "<!-- End of the generated table of error codes. -->";

/// The docs' table: a row per code, in the enum's order, with its meaning.
fn docs_table() -> String {
    let mut table = String::from("| code | when |\n|---|---|\n");
    for code in ErrorCode::ALL {
        table.push_str(&format!("| `{code}` | {} |\n", code.meaning()));
    }
    table
}

#[test]
fn the_docs_table_of_codes_is_the_enum() {
    let path = root().join("docs/api.md");
    let doc = fs::read_to_string(&path).unwrap();
    let start = doc
        .find(TABLE_START)
        .expect("docs/api.md has the table's start marker")
        + TABLE_START.len()
        + 1;
    let end = doc[start..]
        .find(TABLE_END)
        .expect("docs/api.md has the table's end marker")
        + start;
    let fresh = docs_table();
    if std::env::var_os("UPDATE_DOCS").is_some() && doc[start..end] != fresh {
        fs::write(&path, format!("{}{fresh}{}", &doc[..start], &doc[end..])).unwrap();
        return;
    }
    assert!(
        doc[start..end] == fresh,
        "docs/api.md's table of error codes is not ErrorCode's: run UPDATE_DOCS=1 cargo test -p referee-core --test error_codes and commit it"
    );
}
