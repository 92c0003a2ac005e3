//! Every ruling id the code, data, tests and docs cite is defined once in `docs/rulings.md`, so
//! the repository explains every ruling it applies without any file outside it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

const SYSTEM_PREFIXES: &[&str] = &["R-ITACS-", "R-MED-", "R-GTS-", "R-DBMM-", "R-EVENT-"];

/// The folders whose files ship with the build or the tests, relative to the repository root.
const CITING_DIRS: &[&str] = &[
    "crates",
    "src-tauri/src",
    "rulesets",
    "tests",
    "ui/src",
    "docs",
];

/// Installed packages and build output are not the project's own text.
const SKIPPED_DIR_NAMES: &[&str] = &["node_modules", "target", ".git"];

fn repository_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The ruling ids in `text`, with the 1-based line of each, in the order they appear.
fn ruling_ids_in(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for prefix in SYSTEM_PREFIXES {
            for (start, _) in line.match_indices(prefix) {
                let after_prefix = &line[start + prefix.len()..];
                let digits: String = after_prefix
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                if !digits.is_empty() {
                    found.push((format!("{prefix}{digits}"), index + 1));
                }
            }
        }
    }
    found
}

/// The id a definition bullet (`- **R-ITACS-n Title.** text`) defines, if the line is one.
fn defined_id(line: &str) -> Option<String> {
    let bold = line.strip_prefix("- **")?;
    SYSTEM_PREFIXES.iter().find_map(|prefix| {
        let after_prefix = bold.strip_prefix(prefix)?;
        let digits: String = after_prefix
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let rest = &after_prefix[digits.len()..];
        (!digits.is_empty() && rest.starts_with(' ')).then(|| format!("{prefix}{digits}"))
    })
}

/// Every file under `dir`, never following a symbolic link, which could lead out of the repository.
fn files_under(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let path = entry.path();
        if kind.is_dir() {
            let name = entry.file_name();
            if !SKIPPED_DIR_NAMES.iter().any(|skipped| name == *skipped) {
                files_under(&path, files);
            }
        } else if kind.is_file() {
            files.push(path);
        }
    }
}

/// Each id defined in `docs/rulings.md`, with the lines that define it.
fn definitions(root: &Path) -> BTreeMap<String, Vec<usize>> {
    let rulings = fs::read_to_string(root.join("docs/rulings.md")).unwrap();
    let mut defined: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, line) in rulings.lines().enumerate() {
        if let Some(id) = defined_id(line) {
            defined.entry(id).or_default().push(index + 1);
        }
    }
    defined
}

#[test]
fn every_cited_ruling_is_defined_in_docs_rulings_md() {
    let root = repository_root();
    let defined = definitions(&root);
    let mut files = Vec::new();
    for dir in CITING_DIRS {
        files_under(&root.join(dir), &mut files);
    }
    files.sort();

    let mut cited: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in &files {
        // Binary files (icons, screenshots) hold no citation; a lossy read simply finds none.
        let text = String::from_utf8_lossy(&fs::read(file).unwrap()).into_owned();
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        for (id, line) in ruling_ids_in(&text) {
            cited.entry(id).or_default().push(format!("{shown}:{line}"));
        }
    }
    assert!(
        cited.len() > 100,
        "Only {} ruling ids were found cited, so the walk of the repository missed files.",
        cited.len()
    );

    let undefined: Vec<String> = cited
        .iter()
        .filter(|(id, _)| !defined.contains_key(*id))
        .map(|(id, places)| format!("{id} is cited in {}.", places.join(", ")))
        .collect();
    assert!(
        undefined.is_empty(),
        "docs/rulings.md does not define these cited rulings:\n{}",
        undefined.join("\n")
    );
}

#[test]
fn docs_rulings_md_defines_each_ruling_once() {
    let defined = definitions(&repository_root());
    assert!(
        defined.len() > 100,
        "docs/rulings.md defines only {} rulings, so its bullets were not recognised.",
        defined.len()
    );
    let repeated: Vec<String> = defined
        .iter()
        .filter(|(_, lines)| lines.len() > 1)
        .map(|(id, lines)| {
            let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
            format!("{id} is defined on lines {}.", lines.join(", "))
        })
        .collect();
    assert!(
        repeated.is_empty(),
        "docs/rulings.md defines these rulings more than once:\n{}",
        repeated.join("\n")
    );
}

#[test]
fn ruling_ids_are_read_whole() {
    // Built at run time so that this file, which the walk reads too, cites no ruling itself.
    let id = |system: &str, number: u32| format!("R-{system}-{number}");
    let (med, dbmm, itacs, gts) = (id("MED", 3), id("DBMM", 12), id("ITACS", 1), id("GTS", 13));
    let text = format!("{med} and ({dbmm}), R-GTS- alone\n{itacs}…7");
    let expected = vec![(med, 1), (dbmm, 1), (itacs, 2)];
    assert_eq!(ruling_ids_in(&text), expected);
    assert_eq!(
        defined_id(&format!("- **{gts} Counting.** text")),
        Some(gts.clone())
    );
    assert_eq!(defined_id(&format!("  see {gts} above")), None);
    assert_eq!(defined_id(&format!("- **{gts}** text")), None);
}
