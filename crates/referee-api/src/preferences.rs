//! The app's preferences (theme, dice mode, units, house rules in force): one JSON object the
//! window keeps through the app, never battle data. Checked here so a page cannot fill the disk
//! or store something that is not a set of preferences.

use referee_core::RefereeError;

/// The most a preferences object may take, as JSON text: far above what Settings write (under
/// 1 kB with dozens of house rules).
pub const PREFERENCES_MAX_BYTES: usize = 64 * 1024;

/// Refuses what is not a preferences object of a sensible size.
pub fn check_preferences(value: &serde_json::Value) -> Result<(), RefereeError> {
    if !value.is_object() {
        return Err(RefereeError::new(
            "preferences.invalid",
            "the preferences were not kept: they must be a set of named choices",
        ));
    }
    let size = serde_json::to_string(value).map_or(usize::MAX, |t| t.len());
    if size > PREFERENCES_MAX_BYTES {
        return Err(RefereeError::new(
            "preferences.too_large",
            format!(
                "the preferences were not kept: they take {size} bytes, more than the {PREFERENCES_MAX_BYTES} allowed"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
