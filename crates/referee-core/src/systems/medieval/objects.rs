//! Turn counting for units off the map (4.4.3–4.4.4) and for destroying fortifications (11.1.6,
//! 11.1.7).

use schemars::JsonSchema;
use serde::Deserialize;
use ts_rs::TS;

use super::data::MedievalData;
use crate::contract::{Check, Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// When the unit left the map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalLeftDuring")]
pub enum LeftDuring {
    /// In its movement phase.
    #[default]
    Movement,
    /// In a pursuit, after its movement phase.
    Pursuit,
}

/// map_return: when and where a unit that left the map may come back (4.4).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalMapReturnSituation")]
pub struct MapReturnSituation {
    /// The game turn it left.
    pub left_turn: u32,
    #[serde(default)]
    #[ts(optional, as = "Option<LeftDuring>")]
    pub left_during: LeftDuring,
    pub cavalry: bool,
    /// The map number of the departure hex, e.g. 2300.
    #[serde(default)]
    #[ts(optional)]
    pub departure_hex: Option<u32>,
}

/// A cited figure that rests on no ruling.
fn total(label: impl Into<String>, value: impl Into<String>, rule: &str) -> Total {
    Total::new(label, value, rule, None)
}

pub fn map_return(data: &MedievalData, s: &MapReturnSituation) -> Result<Resolution, RefereeError> {
    let m = &data.map_edge;
    if s.left_turn == 0 {
        return Err(
            RefereeError::new(ErrorCode::SituationInvalidField, "game turns count from 1")
                .field("left_turn")
                .rule(&m.rule),
        );
    }
    // 3 full game turns: leaving in the movement phase, the turn it left is not counted; leaving
    // later (a pursuit), the next movement phase is already gone too (4.4.3, both examples).
    let earliest = s.left_turn + m.full_turns + u32::from(s.left_during == LeftDuring::Pursuit);
    let reach = if s.cavalry {
        m.cavalry_reentry
    } else {
        m.other_reentry
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "map_return",
        &format!("turn_{earliest}"),
        &format!("It may come back in its movement phase of game turn {earliest} at the earliest, without moving that phase."),
        Vec::new(),
    )
    .named(&format!("turn_{earliest}"), format!("Turn {earliest}"));
    r.totals.push(total(
        "Earliest return: movement phase of turn",
        earliest.to_string(),
        "4.4.3, 4.4.5",
    ));
    r.totals.push(total(
        "Return within hexes of the departure hex",
        reach.to_string(),
        "4.4.4",
    ));
    if let Some(hex) = s.departure_hex {
        // Hex numbers run in hundreds along the edge: the first column is 1xx, so near it the
        // range stops there rather than at a hex the map does not have.
        let column = m.hex_number_step;
        if hex < column {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                format!(
                    "{hex} is not a hex number: the map's hexes are numbered from {column} on, a column of {column}s along the edge (2300 is column 23)"
                ),
            )
            .field("departure_hex")
            .rule("4.4.4"));
        }
        let step = reach * column;
        let first = hex % column + column;
        let low = hex
            .checked_sub(step)
            .filter(|l| *l >= first)
            .unwrap_or(first);
        r.totals.push(total(
            "Return hexes",
            format!("{low} to {} inclusive", hex + step),
            "4.4.4",
        ));
    }
    r.checks = vec![
        Check::umpire(
            "Not impassable terrain, not an enemy-occupied hex nor an enemy ZoC",
            "4.4.6, 4.4.7",
        ),
        Check::umpire("Within the stacking limit", "4.4.9"),
    ];
    r.notes.push(Note::new(
        "A delayed return keeps the same limits.",
        "4.4.8",
        None,
    ));
    Ok(r)
}

/// demolish: when a regular unit on a fortified hex destroys it (11.1.6, 11.1.7).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalDemolishSituation")]
pub struct DemolishSituation {
    /// The game turn the unit entered the fortified hex (and declared the destruction).
    pub entered_turn: u32,
    /// The last game turn it was attacked there, even by unsuccessful fire: the count restarts.
    #[serde(default)]
    #[ts(optional)]
    pub last_attacked_turn: Option<u32>,
}

pub fn demolish(data: &MedievalData, s: &DemolishSituation) -> Result<Resolution, RefereeError> {
    let d = &data.demolition;
    let start = s.entered_turn.max(s.last_attacked_turn.unwrap_or(0));
    if s.last_attacked_turn.is_some_and(|t| t < s.entered_turn) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "the unit was attacked before it entered the hex",
        )
        .field("last_attacked_turn")
        .rule(&d.rule));
    }
    let done = start + d.full_turns + 1;
    let mut r = Resolution::certain(
        &data.system.id,
        "demolish",
        &format!("turn_{done}"),
        &format!("The fortifications are destroyed at the start of the movement phase of game turn {done}."),
        Vec::new(),
    )
    .named(&format!("turn_{done}"), format!("Turn {done}"));
    r.totals.push(total(
        "Destroyed at the start of the movement phase of turn",
        done.to_string(),
        &d.rule,
    ));
    r.checks.push(Check::umpire(
        "The unit stays on the hex throughout; any attack on it, even unsuccessful fire, restarts the count",
        "11.1.7",
    ));
    Ok(r)
}
