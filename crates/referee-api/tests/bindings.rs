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
