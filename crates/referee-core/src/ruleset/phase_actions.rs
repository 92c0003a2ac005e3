//! Actions a companion file adds to the ruleset's phases: the sequence of play is in the
//! fingerprinted ruleset file, so an action written after its bytes were fixed is offered in its
//! phase (and, if named, by the step it resolves) from the companion instead.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{nearest_line, SourceFile};
use crate::error::RefereeError;
use crate::ErrorCode;

/// The companion's key that lists the actions added to phases.
pub const KEY: &str = "phase_actions";

/// An action a phase of the sequence of play also offers.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseAction {
    /// The phase that offers it, as the sequence of play names it.
    pub phase: String,
    /// The action offered.
    pub action: String,
    /// The action it is listed before; last when left out.
    #[serde(default)]
    pub before: Option<String>,
    /// The step of the phase it resolves, in the step's own words.
    #[serde(default)]
    pub step: Option<String>,
}

/// Adds each of the companion's phase actions to the sequence in table. `known` lists the
/// system's actions; an unknown phase, action, step or neighbour is refused at the companion's
/// own line.
pub fn add(
    table: &mut toml::Table,
    value: toml::Value,
    companion: SourceFile,
    known: &[String],
) -> Result<(), RefereeError> {
    let refuse = |path: String, message: String| {
        RefereeError::new(ErrorCode::RulesetInvalid, message)
            .location(format!(
                "{}:{}",
                companion.name,
                nearest_line(companion.text, &path)
            ))
            .field(path)
    };
    let added: Vec<PhaseAction> = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = format!("{KEY}{}", e.path()).replace(".[", "[");
        refuse(
            path.trim_end_matches('.').to_string(),
            crate::error::plain_serde_error(e.inner().message(), ""),
        )
    })?;
    let mut phases: Vec<&mut toml::Table> = match table.get_mut("sequence") {
        Some(toml::Value::Array(a)) => a.iter_mut().filter_map(|p| p.as_table_mut()).collect(),
        _ => Vec::new(),
    };
    for (i, add) in added.iter().enumerate() {
        let at = |key: &str| format!("{KEY}[{i}].{key}");
        if !known.iter().any(|k| k == &add.action) {
            return Err(refuse(
                at("action"),
                format!(
                    "unknown action “{}”; the system’s actions: {}",
                    add.action,
                    known.join(", ")
                ),
            ));
        }
        let names: Vec<String> = phases.iter().filter_map(|p| text(p, "key")).collect();
        let Some(phase) = phases
            .iter_mut()
            .find(|p| text(p, "key").as_deref() == Some(&add.phase))
        else {
            return Err(refuse(
                at("phase"),
                format!(
                    "no phase “{}” in the sequence of play; its phases: {}",
                    add.phase,
                    names.join(", ")
                ),
            ));
        };
        let name = text(phase, "name").unwrap_or_else(|| add.phase.clone());
        // A phase without its list of actions is the ruleset file's error: its typed check says so.
        let Some(actions) = phase.get_mut("actions").and_then(|a| a.as_array_mut()) else {
            continue;
        };
        let offered: Vec<String> = actions
            .iter()
            .filter_map(|a| a.as_str().map(str::to_string))
            .collect();
        if offered.contains(&add.action) {
            return Err(refuse(
                at("action"),
                format!("the phase {name} already offers “{}”", add.action),
            ));
        }
        let place = match &add.before {
            None => offered.len(),
            Some(b) => offered.iter().position(|a| a == b).ok_or_else(|| {
                refuse(
                    at("before"),
                    format!(
                        "the phase {name} does not offer “{b}”; it offers: {}",
                        offered.join(", ")
                    ),
                )
            })?,
        };
        actions.insert(place, toml::Value::String(add.action.clone()));
        if let Some(step) = &add.step {
            let mut none = Vec::new();
            let steps = match phase.get_mut("steps") {
                Some(toml::Value::Array(steps)) => steps,
                _ => &mut none,
            };
            let texts: Vec<String> = steps
                .iter()
                .filter_map(|s| s.as_table().and_then(|s| text(s, "text")))
                .collect();
            let Some(found) = steps
                .iter_mut()
                .filter_map(|s| s.as_table_mut())
                .find(|s| text(s, "text").as_deref() == Some(step))
            else {
                return Err(refuse(
                    at("step"),
                    format!(
                        "the phase {name} has no step “{step}”; its steps: {}",
                        texts.join("; ")
                    ),
                ));
            };
            if let Some(other) = text(found, "action") {
                return Err(refuse(
                    at("step"),
                    format!("the step “{step}” is already resolved by “{other}”"),
                ));
            }
            found.insert("action".into(), toml::Value::String(add.action.clone()));
        }
    }
    Ok(())
}

fn text(table: &toml::Table, key: &str) -> Option<String> {
    table.get(key).and_then(|v| v.as_str()).map(str::to_string)
}
