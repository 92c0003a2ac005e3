//! The UI's TypeScript types are generated from the Rust API types and committed; this fails when
//! they are stale. `npm run bindings` (UPDATE_BINDINGS=1) rewrites them.

use std::path::PathBuf;

#[test]
fn bindings_are_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/generated/api.ts");
    let fresh = referee_api::typescript_bindings();
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "ui/src/generated/api.ts is stale: run `npm run bindings` and commit it"
    );
}

/// The JSON schema of each ruleset file, generated from the Rust types, is committed beside the
/// rulesets (for editors); this fails when it is stale.
#[test]
fn ruleset_schemas_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/schema");
    let mut schemas = Vec::new();
    for id in referee_core::systems::BUILTIN.iter().map(|b| b.id) {
        schemas.push((
            id.to_string(),
            referee_api::Referee::ruleset_schema(id).unwrap(),
        ));
        // A companion file's tables have their own schema, named like the file.
        if let Some((file, schema)) = referee_core::systems::companion_schema(id).unwrap() {
            let stem = file
                .trim_start_matches("rulesets/")
                .trim_end_matches(".toml");
            schemas.push((stem.to_string(), schema.to_value()));
        }
    }
    for (name, schema) in schemas {
        let path = dir.join(format!("{name}.schema.json"));
        let fresh = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == fresh,
            "{} is stale: run `npm run bindings` and commit it",
            path.display()
        );
    }
}

/// The resolver starts each action from its docs/api.md example: they are committed as
/// `ui/src/generated/examples.json` (ruleset/action → situation); this fails when it is stale.
#[test]
fn resolver_examples_are_current() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/api.md")).unwrap();
    let mut examples = serde_json::Map::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(tag) = line.strip_prefix("```json example=") {
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            let key = tag.split_whitespace().next().unwrap().to_string();
            let value: serde_json::Value = serde_json::from_str(&body.join("\n")).unwrap();
            examples.entry(key).or_insert(value);
        }
    }
    let fresh = serde_json::to_string_pretty(&examples).unwrap() + "\n";
    let path = root.join("ui/src/generated/examples.json");
    if std::env::var_os("UPDATE_BINDINGS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "ui/src/generated/examples.json is stale: run `npm run bindings` and commit it"
    );
}
