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
    for (id, _, _) in referee_core::systems::BUILTIN {
        let path = dir.join(format!("{id}.schema.json"));
        let fresh =
            serde_json::to_string_pretty(&referee_api::Referee::ruleset_schema(id).unwrap())
                .unwrap()
                + "\n";
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
