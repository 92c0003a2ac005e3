//! ITACS: missile combat (4.2), defensive fire (4.4) and melee (4.5) over the shared engine.

pub mod data;
mod fire;
mod melee;
mod results;
pub mod situation;
pub mod strength;

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::systems::{ActionInfo, Choice, ChoiceList};

pub use data::ItacsData;

pub fn actions() -> Vec<ActionInfo> {
    vec![
        ActionInfo::new("missile", "Missile combat", "4.2"),
        ActionInfo::new("defensive_fire", "Defensive fire", "4.4"),
        ActionInfo::new("melee", "Melee combat", "4.5"),
    ]
}

/// What the UI offers for unit types and terrain, straight from the data.
pub fn choices(data: &ItacsData) -> Vec<ChoiceList> {
    let list = |field: &str, options: Vec<Choice>| ChoiceList {
        field: field.into(),
        options,
    };
    vec![
        list(
            "unit_type",
            data.unit_types
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: format!("{k} — {}", t.name),
                })
                .collect(),
        ),
        list(
            "terrain",
            data.terrain
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: t.name.clone(),
                })
                .collect(),
        ),
        list(
            "unit_class",
            data.unit_classes
                .iter()
                .filter(|(_, c)| !c.leader)
                .map(|(k, c)| Choice {
                    key: k.clone(),
                    label: format!("{k} — {}", c.name),
                })
                .collect(),
        ),
    ]
}

pub fn resolve(
    data: &ItacsData,
    action: &str,
    situation: &serde_json::Value,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    match action {
        "missile" => fire::resolve(data, &situation::parse(situation)?, false, dice),
        "defensive_fire" => fire::resolve(data, &situation::parse(situation)?, true, dice),
        "melee" => melee::resolve(data, &situation::parse(situation)?, dice),
        other => Err(crate::systems::unknown_action("itacs", other, &actions())),
    }
}

pub fn situation_schema(action: &str) -> Option<schemars::Schema> {
    match action {
        "missile" | "defensive_fire" => Some(schemars::schema_for!(situation::FireSituation)),
        "melee" => Some(schemars::schema_for!(situation::MeleeSituation)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
