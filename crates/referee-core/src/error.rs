//! Typed errors with stable codes and messages a player understands.

use serde::Serialize;
use ts_rs::TS;

/// An error a player or umpire sees: a stable `code` (documented in docs/api.md), a message
/// that says what is wrong and what to do, the field or file location, and the rule it rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct RefereeError {
    pub code: String,
    pub message: String,
    /// The situation field or ruleset key path at fault (`target.terrain`, `melee.columns[2]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub field: Option<String>,
    /// `file:line` for ruleset and house-rule files.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub location: Option<String>,
    /// The rule section the check comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ruling: Option<String>,
}

impl RefereeError {
    pub fn new(code: &str, message: impl Into<String>) -> RefereeError {
        RefereeError {
            code: code.to_string(),
            message: message.into(),
            field: None,
            location: None,
            rule: None,
            ruling: None,
        }
    }

    pub fn field(mut self, field: impl Into<String>) -> RefereeError {
        self.field = Some(field.into());
        self
    }

    pub fn rule(mut self, rule: impl Into<String>) -> RefereeError {
        self.rule = Some(rule.into());
        self
    }

    pub fn ruling(mut self, ruling: impl Into<String>) -> RefereeError {
        self.ruling = Some(ruling.into());
        self
    }

    pub fn location(mut self, location: impl Into<String>) -> RefereeError {
        self.location = Some(location.into());
        self
    }

    /// One line: `location field: message (rule, ruling)`, as the CLI prints it.
    pub fn one_line(&self) -> String {
        let mut s = String::new();
        if let Some(l) = &self.location {
            s.push_str(l);
            s.push(' ');
        }
        if let Some(f) = &self.field {
            s.push_str(f);
            s.push_str(": ");
        }
        s.push_str(&self.message);
        match (&self.rule, &self.ruling) {
            (Some(r), Some(g)) => s.push_str(&format!(" ({r}, {g})")),
            (Some(r), None) => s.push_str(&format!(" ({r})")),
            (None, Some(g)) => s.push_str(&format!(" ({g})")),
            (None, None) => {}
        }
        s
    }
}

impl From<crate::odds::OddsError> for RefereeError {
    fn from(e: crate::odds::OddsError) -> RefereeError {
        RefereeError::new("odds.engine", e.to_string())
    }
}
