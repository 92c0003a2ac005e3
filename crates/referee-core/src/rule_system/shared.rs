//! Pieces of the ruleset files every system shares: the `[system]` header and results-table
//! rows read by the odds engine's tables. No system depends on another for them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::odds::Band;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SystemHeader {
    pub id: String,
    pub name: String,
    /// The rule text this data transcribes.
    pub source: String,
    /// Dice notation of every combat roll.
    pub dice: String,
}

/// A row of a results table: modified rolls `min…max` (open ends allowed) give `result`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultRow {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub result: String,
}

/// The rows of a results table as the engine's table.
pub fn roll_table(rows: &[ResultRow]) -> crate::odds::RollTable<String> {
    crate::odds::RollTable {
        rows: rows
            .iter()
            .map(|r| {
                (
                    Band {
                        min: r.min,
                        max: r.max,
                    },
                    r.result.clone(),
                )
            })
            .collect(),
    }
}
