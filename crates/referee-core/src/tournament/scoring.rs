//! An event's scoring settings as data (`rulesets/events/<id>.toml`, embedded like the presets;
//! a club's own in the data folder's `events/`): the event points a win, a draw, a loss and a
//! bye are worth, whether the battle's victory points count as event points (DBMM's 25 split),
//! and the tie-breaks in order. Texts come in from the caller; this module reads no files.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::RefereeError;
use crate::ruleset::SourceFile;

/// The scoring settings shipped with the app: (file, text).
pub const BUILTIN_SCORING: &[(&str, &str)] = &[
    (
        "rulesets/events/win-draw-loss.toml",
        include_str!("../../../../rulesets/events/win-draw-loss.toml"),
    ),
    (
        "rulesets/events/dbmm-25.toml",
        include_str!("../../../../rulesets/events/dbmm-25.toml"),
    ),
];

/// A tie-break, in the order the settings name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// The battles' victory points, summed over the player's games (a bye's as the settings say).
    VictoryPoints,
    /// The event points of the player's opponents, summed (a bye counts none).
    StrengthOfSchedule,
    /// Among players still tied, the event points each scored in the games between them.
    HeadToHead,
}

/// How an event turns verdicts into event points and ranks its players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    /// The file stem (`dbmm-25`); filled in from the file's name.
    #[serde(default)]
    pub id: String,
    pub name: String,
    /// One plain sentence for the create form.
    #[serde(default)]
    pub description: String,
    /// The rule systems these settings suit (ruleset ids); empty for any.
    #[serde(default)]
    pub rulesets: Vec<String>,
    /// Where the settings come from (the rules' page, or the club's own).
    #[serde(default)]
    pub rule: String,
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
    /// The battle's victory points are the event points (DBMM's 25 split as the sheets give
    /// it); win, draw and loss then add nothing unless set.
    #[serde(default)]
    pub victory_points_are_points: bool,
    /// The event points and victory points a bye is worth.
    pub bye_points: f64,
    #[serde(default)]
    pub bye_victory_points: f64,
    pub tie_breaks: Vec<TieBreak>,
    /// Shipped with the app, or a club's file.
    #[serde(default)]
    pub builtin: bool,
}

/// Reads and checks one scoring file; errors name `file:line` and the key.
pub fn load(file: SourceFile, builtin: bool) -> Result<Scoring, RefereeError> {
    todo_scoring(file, builtin)
}

fn todo_scoring(file: SourceFile, builtin: bool) -> Result<Scoring, RefereeError> {
    let table = crate::ruleset::parse_table(file)?;
    let mut s: Scoring = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            RefereeError::new(crate::ErrorCode::EventInvalid, e.message().to_string())
        })?;
    s.id = crate::preset::preset_id(file.name);
    s.builtin = builtin;
    Ok(s)
}
