//! The app's capability set is exactly what docs/security.md lists; the CSP allows nothing
//! remote; the only Tauri plugin is the store, for preferences, driven from Rust (the page has no
//! plugin package and no plugin permission).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn permissions(capabilities: &Value) -> BTreeSet<String> {
    capabilities["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

/// The permissions in the first column of docs/security.md's table.
fn documented() -> BTreeSet<String> {
    let doc = read("docs/security.md");
    let table = &doc[doc.find("| permission | command | why |").unwrap()..];
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .trim()
                .trim_matches('`')
                .to_string()
        })
        .collect()
}

#[test]
fn the_capability_set_is_the_documented_one() {
    let source: Value = serde_json::from_str(&read("src-tauri/capabilities/default.json")).unwrap();
    assert_eq!(permissions(&source), documented());
    assert_eq!(source["windows"], serde_json::json!(["main"]));
    // The store plugin is driven from Rust on one file: the window may not name a store's path.
    assert!(
        permissions(&source).iter().all(|p| p.starts_with("allow-")),
        "only the app's own commands: {:?}",
        permissions(&source)
    );
    // Once the app has been built (clippy or a build runs its build script), the capability set
    // Tauri resolved must be the same.
    let built = root().join("src-tauri/gen/schemas/capabilities.json");
    if let Ok(text) = std::fs::read_to_string(built) {
        let all: Value = serde_json::from_str(&text).unwrap();
        let map = all.as_object().unwrap();
        assert_eq!(map.len(), 1, "one capability: {:?}", map.keys());
        assert_eq!(permissions(&map["default"]), documented());
    }
}

#[test]
fn the_csp_allows_nothing_remote_and_only_the_store_plugin_is_linked() {
    let conf: Value = serde_json::from_str(&read("src-tauri/tauri.conf.json")).unwrap();
    let csp = conf["app"]["security"]["csp"].as_str().unwrap();
    for directive in csp.split(';') {
        for source in directive.split_whitespace().skip(1) {
            let allowed = ["'self'", "'none'", "data:", "ipc:", "http://ipc.localhost"];
            assert!(
                allowed.contains(&source),
                "CSP source `{source}` in `{directive}`"
            );
        }
    }
    // One plugin, the store for preferences (docs/security.md); no other.
    let cargo = read("src-tauri/Cargo.toml");
    let linked: BTreeSet<&str> = cargo
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| name.starts_with("tauri-plugin"))
        .collect();
    assert_eq!(
        linked,
        BTreeSet::from(["tauri-plugin-store"]),
        "Tauri plugins linked"
    );
    let package: Value = serde_json::from_str(&read("package.json")).unwrap();
    let installed: BTreeSet<&str> = package["dependencies"]
        .as_object()
        .unwrap()
        .keys()
        .chain(package["devDependencies"].as_object().unwrap().keys())
        .map(String::as_str)
        .filter(|name| name.starts_with("@tauri-apps/plugin-"))
        .collect();
    // The store is driven from Rust: the page has no plugin package at all.
    assert_eq!(
        installed,
        BTreeSet::new(),
        "Tauri plugin packages in the page"
    );
}
