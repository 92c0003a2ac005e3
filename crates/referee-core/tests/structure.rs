//! The layout ARCHITECTURE.md promises, held by the code itself: each rule system in its own
//! folder behind one contract, the battle speaking to systems only through it, no system speaking
//! to the battle or to another system, unit state typed, and no rule knowledge in the app.

mod source;

use std::fs;
use std::path::PathBuf;

use source::files;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The lines of `files` (not tests) that contain any of `needles`, as "file:line: text".
fn offending(files: &[(PathBuf, String)], needles: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        let name = path.to_string_lossy();
        if name.ends_with("tests.rs") || name.ends_with(".test.ts") || name.contains("test_support")
        {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            if needles.iter().any(|n| line.contains(n)) {
                out.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    out
}

const SYSTEMS: [&str; 4] = ["itacs", "medieval", "gts", "dbmm"];

#[test]
fn no_system_imports_the_battle_or_another_system() {
    let src = root().join("src/systems");
    let battle = offending(&files(&src, &["rs"]), &["crate::battle"]);
    assert!(
        battle.is_empty(),
        "systems import the battle:\n{}",
        battle.join("\n")
    );
    for system in SYSTEMS {
        let others: Vec<String> = SYSTEMS
            .iter()
            .filter(|s| **s != system)
            .map(|s| format!("systems::{s}"))
            .collect();
        let others: Vec<&str> = others.iter().map(String::as_str).collect();
        let found = offending(&files(&src.join(system), &["rs"]), &others);
        assert!(
            found.is_empty(),
            "{system} imports another system:\n{}",
            found.join("\n")
        );
    }
}

#[test]
fn the_battle_and_the_contract_know_no_system() {
    let named: Vec<String> = SYSTEMS.iter().map(|s| format!("systems::{s}")).collect();
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    for dir in ["src/battle", "src/rule_system", "src/state"] {
        let found = offending(&files(&root().join(dir), &["rs"]), &named);
        assert!(
            found.is_empty(),
            "{dir} names a system:\n{}",
            found.join("\n")
        );
    }
    // The contract and the state sit below the battle and the systems.
    for dir in ["src/rule_system", "src/state"] {
        let found = offending(
            &files(&root().join(dir), &["rs"]),
            &["crate::battle", "use crate::systems"],
        );
        assert!(
            found.is_empty(),
            "{dir} imports from above:\n{}",
            found.join("\n")
        );
    }
    // Nor does any of them rest on a system's ruling, even in a comment: a rule lives with its
    // system.
    for dir in ["src/battle", "src/rule_system", "src/state"] {
        for (path, text) in files(&root().join(dir), &["rs"]) {
            if path.to_string_lossy().ends_with("tests.rs") {
                continue;
            }
            for (i, line) in text.lines().enumerate() {
                for system in ["R-ITACS-", "R-MED-", "R-GTS-", "R-DBMM-"] {
                    assert!(
                        !line.contains(system),
                        "{}:{}: a ruling outside its system: {}",
                        path.display(),
                        i + 1,
                        line.trim()
                    );
                }
            }
        }
    }
    // No closed list of systems is matched anywhere: the registry holds one line per system.
    let all = files(&root().join("src"), &["rs"]);
    let matched = offending(&all, &["SystemRules"]);
    assert!(matched.is_empty(), "{}", matched.join("\n"));
}

/// A struct's body, from `pub struct Name {` to its closing brace.
fn struct_body<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text
        .find(&format!("pub struct {name} {{"))
        .unwrap_or_else(|| panic!("no struct {name}"));
    let end = text[start..].find("\n}").unwrap();
    &text[start..start + end]
}

#[test]
fn unit_state_is_typed_and_fights_open_typed_situations() {
    let unit = fs::read_to_string(root().join("src/state/unit.rs")).unwrap();
    assert!(!struct_body(&unit, "UnitState").contains("Value"));
    for (file, name) in [
        ("src/systems/itacs/roster.rs", "ItacsUnit"),
        ("src/systems/medieval/roster.rs", "MedievalCounter"),
        ("src/systems/gts/roster.rs", "GtsUnit"),
        ("src/systems/dbmm/roster.rs", "DbmmElement"),
    ] {
        let text = fs::read_to_string(root().join(file)).unwrap();
        assert!(
            !struct_body(&text, name).contains("Value"),
            "{name} holds JSON"
        );
    }
    for system in SYSTEMS {
        let fight =
            fs::read_to_string(root().join(format!("src/systems/{system}/fight.rs"))).unwrap();
        assert!(
            !fight.contains("json!"),
            "{system}'s fight builder writes JSON by hand"
        );
        assert!(
            !fight.contains("serde_json::Value"),
            "{system}'s fight builder"
        );
    }
}

#[test]
fn the_app_compares_no_rule_system_by_name() {
    let ui = root().join("../../ui/src");
    let code: Vec<(PathBuf, String)> = files(&ui, &["ts", "svelte"])
        .into_iter()
        .filter(|(p, _)| {
            let name = p.to_string_lossy();
            !name.contains("generated") && !name.contains("test-fixtures")
        })
        .collect();
    let ids: Vec<String> = SYSTEMS
        .iter()
        .flat_map(|s| [format!("'{s}'"), format!("\"{s}\"")])
        .collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let found = offending(&code, &ids);
    assert!(
        found.is_empty(),
        "the app knows a system by name:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_system_is_registered_on_one_line() {
    let registry = fs::read_to_string(root().join("src/systems/mod.rs")).unwrap();
    for system in SYSTEMS {
        let lines = registry
            .lines()
            .filter(|l| l.contains(&format!("\"{system}.toml\"")))
            .count();
        assert_eq!(
            lines, 1,
            "{system} is registered on one line of systems/mod.rs"
        );
    }
}

/// The lines of each function in `text` that is longer than `limit`, as (name, first line,
/// lines): its braces matched after strings and comments are blanked.
fn long_functions(text: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let code: Vec<String> = lines.iter().map(|l| without_strings(l)).collect();
    let mut out = Vec::new();
    for (i, line) in code.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let (mut depth, mut opened) = (0i64, false);
        for (j, l) in code.iter().enumerate().skip(i) {
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
            for c in l.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth == 0 {
                if j - i + 1 > limit {
                    out.push((name.to_string(), i + 1, j - i + 1));
                }
                break;
            }
        }
    }
    out
}

/// `fn name` at the start of a line (after its visibility and qualifiers).
fn fn_name(line: &str) -> Option<&str> {
    let mut words = line
        .split_whitespace()
        .skip_while(|w| w.starts_with("pub") || ["const", "async", "unsafe", "extern"].contains(w));
    (words.next()? == "fn")
        .then(|| words.next())
        .flatten()
        .map(|w| w.split(['(', '<']).next().unwrap_or(w))
}

/// The line with its string and char literals emptied and its comment cut.
fn without_strings(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                chars.next();
            }
            (true, '"') => in_string = false,
            (true, _) => {}
            (false, '"') => in_string = true,
            (false, '\'') if chars.clone().nth(1) == Some('\'') => {
                chars.next();
                chars.next();
            }
            (false, '/') if chars.peek() == Some(&'/') => break,
            (false, c) => out.push(c),
        }
    }
    out
}

/// Issue 30: no function of the core over 200 lines (its tests aside): a combat is a pipeline of
/// named steps, each with its own tests.
#[test]
fn no_function_of_the_core_is_over_200_lines() {
    let mut long = Vec::new();
    for (path, text) in files(&root().join("src"), &["rs"]) {
        let name = path.to_string_lossy().to_string();
        if name.ends_with("tests.rs") {
            continue;
        }
        // A file's own tests module is the tests'.
        let text = text
            .split("\n#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or(&text);
        for (f, line, n) in long_functions(text, 200) {
            long.push(format!("{name}:{line}: {f} is {n} lines"));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
    // The measure itself: a 3-line function, a string with a brace, a declaration.
    let sample = "fn a() {\n    let s = \"{\";\n}\nfn b();\n";
    assert_eq!(long_functions(sample, 2), vec![("a".to_string(), 1, 3)]);
}

/// A box that is on unless the situation says otherwise is left out when on (`skip_serializing_if
/// = "is_true"`), and schemars then leaves its default out of the schema: the form would show it
/// off and the worth of boxes would read it as off. Each such field names its default for the
/// schema too.
#[test]
fn a_box_on_by_default_says_so_in_its_schema() {
    let mut missing = Vec::new();
    for (path, text) in files(&root().join("src/systems"), &["rs"]) {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains("skip_serializing_if = \"is_true\"")
                && !lines[i + 1..(i + 3).min(lines.len())]
                    .iter()
                    .any(|l| l.contains("#[schemars(extend(\"default\" = true))]"))
            {
                missing.push(format!("{}:{}", path.display(), i + 1));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fields on by default without their schema default:\n{}",
        missing.join("\n")
    );
}
