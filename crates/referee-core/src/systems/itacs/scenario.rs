//! Scenario settings (8.0): what a scenario sheet sets for each side — stacking limit (4.3.3),
//! panic level (5.4), elite units (6.10), shields on other types (4.2.5) — and the game turns
//! (4.1). The action checks them against the ruleset and states them, cited; the battle keeps
//! them and fills the matching fields of each action (`stacking_limit`, `panic_level`, `elite`,
//! `shields`).

use schemars::JsonSchema;
use serde::Deserialize;
use ts_rs::TS;

use super::data::ItacsData;
use crate::contract::{Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsScenarioSide")]
pub struct ScenarioSide {
    pub name: String,
    /// Units per hex for this side (default 3, 4.3.3).
    #[serde(default)]
    #[ts(optional)]
    pub stacking_limit: Option<u32>,
    #[serde(default)]
    #[ts(optional)]
    pub panic_level: Option<u32>,
    /// Unit types that are elite in this scenario (6.10).
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub elite_types: Vec<String>,
    /// Unit types with shields besides those the ruleset gives them (4.2.5).
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub shield_types: Vec<String>,
}

/// scenario: a scenario's settings.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsScenarioSituation")]
pub struct ScenarioSituation {
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// Game turns each player plays (4.1).
    pub turns: u32,
    /// The side that plays the first game turn (4.1).
    pub first_side: String,
    pub sides: Vec<ScenarioSide>,
    /// The game turn being played, to count what is left.
    #[serde(default)]
    #[ts(optional)]
    pub turn: Option<u32>,
}

fn refuse(message: String, field: String, rule: &str) -> RefereeError {
    RefereeError::new(ErrorCode::SituationInvalidScenario, message)
        .field(field)
        .rule(rule)
}

/// A cited figure that rests on no ruling.
fn total(label: impl Into<String>, value: impl Into<String>, rule: &str) -> Total {
    Total::new(label, value, rule, None)
}

pub fn scenario(data: &ItacsData, s: &ScenarioSituation) -> Result<Resolution, RefereeError> {
    if s.sides.len() != 2 || s.sides[0].name == s.sides[1].name {
        return Err(refuse(
            "a scenario has two sides with different names".into(),
            "sides".into(),
            "8.0",
        ));
    }
    if s.turns == 0 {
        return Err(refuse(
            "a scenario plays 1 game turn or more".into(),
            "turns".into(),
            "4.1",
        ));
    }
    if !s.sides.iter().any(|x| x.name == s.first_side) {
        return Err(refuse(
            format!(
                "{} is not one of the two sides",
                crate::error::given(&s.first_side)
            ),
            "first_side".into(),
            "4.1, 8.0",
        ));
    }
    if let Some(turn) = s.turn {
        if turn == 0 || turn > s.turns {
            return Err(refuse(
                format!("game turn {turn} is outside 1 to {}", s.turns),
                "turn".into(),
                "4.1",
            ));
        }
    }
    let mv = &data.movement;
    let mut totals = vec![total(
        "Game turns per player",
        s.turns.to_string(),
        "4.1, 8.0",
    )];
    if let Some(turn) = s.turn {
        totals.push(total(
            "Game turns left after this one",
            (s.turns - turn).to_string(),
            "4.1",
        ));
    }
    totals.push(total("First player", s.first_side.clone(), "4.1, 8.0"));
    for (i, side) in s.sides.iter().enumerate() {
        let field = format!("sides[{i}]");
        if side.stacking_limit == Some(0) {
            return Err(refuse(
                "a stacking limit is 1 unit or more".into(),
                format!("{field}.stacking_limit"),
                &mv.stacking_rule,
            ));
        }
        for (list, key, rule) in [
            (&side.elite_types, "elite_types", "6.10"),
            (&side.shield_types, "shield_types", "4.2.5"),
        ] {
            for (j, t) in list.iter().enumerate() {
                if !data.unit_types.contains_key(t) {
                    return Err(RefereeError::new(
                        ErrorCode::SituationUnknownUnitType,
                        format!("unknown unit type {}", crate::error::given(t)),
                    )
                    .field(format!("{field}.{key}[{j}]"))
                    .rule(rule));
                }
            }
        }
        let limit = side.stacking_limit.unwrap_or(mv.stacking_limit);
        totals.push(total(
            format!("{}: stacking limit", side.name),
            format!(
                "{limit}{}",
                if side.stacking_limit.is_none() {
                    " (default)"
                } else {
                    ""
                }
            ),
            &mv.stacking_rule,
        ));
        totals.push(total(
            format!("{}: panic level", side.name),
            side.panic_level
                .map(|p| p.to_string())
                .unwrap_or_else(|| "none".to_string()),
            &data.victory.panic_rule,
        ));
        if !side.elite_types.is_empty() {
            totals.push(total(
                format!("{}: elite", side.name),
                side.elite_types.join(", "),
                "6.10",
            ));
        }
        let mut shields: Vec<String> = data
            .unit_types
            .iter()
            .filter(|(_, t)| t.shields)
            .map(|(k, _)| k.clone())
            .collect();
        shields.extend(side.shield_types.iter().cloned());
        shields.sort();
        shields.dedup();
        totals.push(total(
            format!("{}: shields", side.name),
            shields.join(", "),
            "4.2.5",
        ));
    }
    let name = s.name.clone().unwrap_or_else(|| "The scenario".into());
    let mut r = Resolution::certain(
        &data.system.id,
        "scenario",
        "settings",
        &format!("{name}: the settings every action of the battle uses."),
        Vec::new(),
    );
    r.totals = totals;
    r.notes = vec![
        Note::new(
            format!(
                "Squares hold {} units whatever the stacking limit; leaders do not count; walls hold 1.",
                mv.square_stacking
            ),
            "2.6.1, 4.3.3, 3.1.4",
            None,
        ),
        Note::new(
            "Panic happens once per game, to the first army whose enemy reaches its panic level.",
            "5.4",
            None,
        ),
    ];
    Ok(r)
}
