//! A request as the app or the CLI sends it, read into its type: what serde refuses (a number
//! too large for its field, text where a number goes, a field the request does not take) comes
//! back as a sentence naming the field in words, with the field's path in `field` — never serde's
//! own wording, nor the window's "invalid args" message for a request it could not read.

use referee_core::ErrorCode;
use referee_core::RefereeError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use ts_rs::TS;

/// The bounds every field the umpire types keeps to, as the API checks them: the app checks a
/// field against the same numbers before it sends anything (`FIELD_LIMITS` in the bindings).
/// A field's own bounds (a panic level's, a unit's strength) come with its form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
pub struct FieldLimits {
    /// The longest name: a battle's, a side's, a command's, a unit's label (`names.rs`).
    pub name_max_chars: usize,
    /// No number on the table is larger than this, or more negative than its opposite
    /// (situations refuse larger ones at the door).
    pub value_max: i64,
}

pub const FIELD_LIMITS: FieldLimits = FieldLimits {
    name_max_chars: crate::names::NAME_MAX_CHARS,
    value_max: referee_core::rule_system::resolve::MAX_VALUE,
};

/// Reads `value` as a `T`; `at` is where the value was given (`request`, `dice`), the start of
/// the field path of a refusal (`request.sides[0].panic_level`, `dice[1]`).
pub fn parse_request<T: DeserializeOwned>(
    value: serde_json::Value,
    at: &str,
) -> Result<T, RefereeError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = path.trim_start_matches('.');
        let field = match (at.is_empty(), path.is_empty()) {
            (true, _) => path.to_string(),
            (false, true) => at.to_string(),
            (false, false) if path.starts_with('[') => format!("{at}{path}"),
            (false, false) => format!("{at}.{path}"),
        };
        let message = referee_core::error::plain_serde_error(&e.inner().to_string(), &field);
        let error = RefereeError::new(ErrorCode::InputInvalid, message);
        if field.is_empty() {
            error
        } else {
            error.field(field)
        }
    })
}
