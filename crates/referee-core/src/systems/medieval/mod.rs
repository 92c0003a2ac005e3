//! Medieval (Taktyka i Strategia): combat ratios with column shifts, the COMBAT TABLE with
//! scatter and leader-death odds, pursuit, ride-down, countercharge, ranged fire, movement
//! costs, the MORALE track, regrouping and fatigue, over the shared engine.

pub mod after;
pub mod combat;
pub mod data;
pub mod fight;
pub mod fire;
pub mod morale;
pub mod movement;
pub mod objects;
pub mod result;
pub mod retreat;
pub mod units;

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::systems::{
    parse_situation as parse, without_dice, ActionGroup, ActionInfo, Choice, ChoiceList,
};

pub use data::MedievalData;

/// The action "Resolve" on the roster opens (SystemInfo::main_action).
pub const MAIN_ACTION: &str = "combat";

pub fn actions() -> Vec<ActionInfo> {
    vec![
        ActionInfo::new("combat", "Combat", "1.4–1.7, 5.0", ActionGroup::Combat).fights(),
        ActionInfo::new("fire", "Ranged fire", "10.2–10.7", ActionGroup::Combat).fights(),
        ActionInfo::new("pursuit", "Pursuit test", "5.5", ActionGroup::Combat),
        ActionInfo::new(
            "leader_death",
            "Leader death roll",
            "8.2.4",
            ActionGroup::Checks,
        ),
        ActionInfo::new("ride_down", "Ride down", "5.8", ActionGroup::Combat),
        ActionInfo::new("countercharge", "Countercharge", "5.7", ActionGroup::Combat),
        ActionInfo::new("turn_cost", "Turning cost", "4.3", ActionGroup::Movement),
        ActionInfo::new(
            "move_cost",
            "Movement cost and charge factor",
            "4.0, 5.6",
            ActionGroup::Movement,
        ),
        ActionInfo::new("morale", "MORALE track", "6.1", ActionGroup::Checks),
        ActionInfo::new("banner", "Banners", "7.1", ActionGroup::Checks),
        ActionInfo::new(
            "regroup",
            "Regroup a scattered unit",
            "9.1.6",
            ActionGroup::Checks,
        ),
        ActionInfo::new("fatigue", "Fatigue", "13.0", ActionGroup::Checks),
        ActionInfo::new(
            "map_return",
            "Returning to the map",
            "4.4",
            ActionGroup::Movement,
        ),
        ActionInfo::new(
            "demolish",
            "Destroying fortifications",
            "11.1.6",
            ActionGroup::Tables,
        ),
    ]
}

pub fn choices(data: &MedievalData) -> Vec<ChoiceList> {
    vec![
        ChoiceList {
            field: "unit_type".into(),
            options: data
                .unit_types
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: t.name.clone(),
                })
                .collect(),
        },
        ChoiceList {
            field: "terrain".into(),
            options: data
                .terrain
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: t.name.clone(),
                })
                .collect(),
        },
    ]
}

pub fn resolve(
    data: &MedievalData,
    action: &str,
    situation: &serde_json::Value,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    match action {
        "combat" => combat::resolve(data, &parse(situation)?, dice),
        "fire" => fire::resolve(data, &parse(situation)?, dice),
        "pursuit" => after::pursuit(data, &parse(situation)?, dice),
        "leader_death" => after::leader_death(data, &parse(situation)?, dice),
        "regroup" => morale::regroup(data, &parse(situation)?, dice),
        "ride_down" => without_dice(action, dice, || after::ride_down(data, &parse(situation)?)),
        "countercharge" => without_dice(action, dice, || {
            after::countercharge(data, &parse(situation)?)
        }),
        "turn_cost" => without_dice(action, dice, || {
            movement::turn_cost(data, &parse(situation)?)
        }),
        "move_cost" => without_dice(action, dice, || {
            movement::move_cost(data, &parse(situation)?)
        }),
        "morale" => without_dice(action, dice, || morale::morale(data, &parse(situation)?)),
        "banner" => without_dice(action, dice, || morale::banner(data, &parse(situation)?)),
        "fatigue" => without_dice(action, dice, || morale::fatigue(data, &parse(situation)?)),
        "map_return" => without_dice(action, dice, || {
            objects::map_return(data, &parse(situation)?)
        }),
        "demolish" => without_dice(action, dice, || objects::demolish(data, &parse(situation)?)),
        other => Err(crate::systems::unknown_action(
            "medieval",
            other,
            &actions(),
        )),
    }
}

pub fn situation_schema(action: &str) -> Option<schemars::Schema> {
    Some(match action {
        "combat" => schemars::schema_for!(combat::CombatSituation),
        "fire" => schemars::schema_for!(fire::FireSituation),
        "pursuit" => schemars::schema_for!(after::PursuitSituation),
        "leader_death" => schemars::schema_for!(after::LeaderDeathSituation),
        "ride_down" => schemars::schema_for!(after::RideDownSituation),
        "countercharge" => schemars::schema_for!(after::CounterchargeSituation),
        "turn_cost" => schemars::schema_for!(movement::TurnSituation),
        "move_cost" => schemars::schema_for!(movement::MoveSituation),
        "morale" => schemars::schema_for!(morale::MoraleSituation),
        "banner" => schemars::schema_for!(morale::BannerSituation),
        "regroup" => schemars::schema_for!(morale::RegroupSituation),
        "fatigue" => schemars::schema_for!(morale::FatigueSituation),
        "map_return" => schemars::schema_for!(objects::MapReturnSituation),
        "demolish" => schemars::schema_for!(objects::DemolishSituation),
        _ => return None,
    })
}

#[cfg(test)]
pub(crate) mod tests;
