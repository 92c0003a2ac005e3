//! The app's preferences (theme, dice mode, units, house rules in force): one JSON object the
//! window keeps through the app, never battle data. Checked here so a page cannot fill the disk
//! or store something that is not a set of preferences.

use referee_core::ErrorCode;
use referee_core::RefereeError;

/// The most a preferences object may take, as JSON text: far above what Settings write (under
/// 1 kB with dozens of house rules).
pub const PREFERENCES_MAX_BYTES: usize = 64 * 1024;

/// Refuses what is not a preferences object of a sensible size.
pub fn check_preferences(value: &serde_json::Value) -> Result<(), RefereeError> {
    if !value.is_object() {
        return Err(RefereeError::new(
            ErrorCode::PreferencesInvalid,
            "the preferences were not kept: they must be a set of named choices",
        ));
    }
    let size = serde_json::to_string(value).map_or(usize::MAX, |t| t.len());
    if size > PREFERENCES_MAX_BYTES {
        return Err(RefereeError::new(
            ErrorCode::PreferencesTooLarge,
            format!(
                "the preferences were not kept: they take {size} bytes, more than the {PREFERENCES_MAX_BYTES} allowed"
            ),
        ));
    }
    Ok(())
}

/// Writes the preferences store's entries to its file all or nothing, as the store reads it
/// (a JSON object of named values): a crash or a full disk mid-write leaves the file as it was.
pub fn write_preferences(
    path: &std::path::Path,
    entries: &serde_json::Map<String, serde_json::Value>,
) -> Result<(), RefereeError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            RefereeError::new(
                ErrorCode::FileUnwritable,
                format!("the folder of the preferences could not be made: {e}"),
            )
            .location(dir.display().to_string())
        })?;
    }
    // Serializing a map of JSON values cannot fail.
    let text = serde_json::to_vec_pretty(entries).unwrap_or_default();
    crate::write_atomically(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn preferences_are_written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app").join("settings.json");
        let entries = json!({"settings": {"theme": "dark"}});
        write_preferences(&path, entries.as_object().unwrap()).unwrap();
        let read: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(read, entries);
        // A write that cannot land (the path is a folder) leaves the file there before whole.
        let folder = dir.path().join("app");
        assert!(write_preferences(&folder, entries.as_object().unwrap()).is_err());
        let again: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(again, entries);
        // No temporary file is left beside it.
        let left: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
        assert_eq!(left.len(), 1);
    }

    #[test]
    fn only_an_object_of_sensible_size_is_kept() {
        assert!(
            check_preferences(&json!({"theme": "dark", "houseRules": {"a.toml": true}})).is_ok()
        );
        for bad in [json!(null), json!("dark"), json!([1, 2]), json!(3)] {
            assert_eq!(
                check_preferences(&bad).unwrap_err().code,
                "preferences.invalid"
            );
        }
        let huge = json!({ "theme": "x".repeat(PREFERENCES_MAX_BYTES) });
        let e = check_preferences(&huge).unwrap_err();
        assert_eq!(e.code, "preferences.too_large");
        assert!(e.message.ends_with("allowed."), "{}", e.message);
    }
}
