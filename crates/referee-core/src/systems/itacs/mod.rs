//! ITACS: missile combat (4.2), defensive fire (4.4) and melee (4.5) over the shared engine.

pub mod after_combat;
pub mod data;
pub mod fight;
mod fire;
mod forecast;
pub mod limits;
mod melee;
pub mod movement;
mod results;
pub mod scenario;
pub mod situation;
pub mod special;
pub mod state;
pub mod strength;
pub mod transport;
pub mod victory;

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::systems::{ActionGroup, ActionInfo, Choice, ChoiceList};

pub use data::ItacsData;

/// The action "Resolve" on the roster opens (SystemInfo::main_action).
pub const MAIN_ACTION: &str = "melee";

pub fn actions() -> Vec<ActionInfo> {
    vec![
        ActionInfo::new("missile", "Missile combat", "4.2", ActionGroup::Combat).fights(),
        ActionInfo::new(
            "defensive_fire",
            "Defensive fire",
            "4.4",
            ActionGroup::Combat,
        )
        .fights(),
        ActionInfo::new("melee", "Melee combat", "4.5", ActionGroup::Combat).fights(),
        ActionInfo::new(
            "horse_archer_fire",
            "Horse archers fire after movement",
            "6.2",
            ActionGroup::Combat,
        )
        .fights(),
        ActionInfo::new(
            "markers",
            "Markers on a hex",
            "5.0–5.3",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "end_of_movement",
            "End of movement: leaders and Break markers",
            "5.2.1, 6.1.1",
            ActionGroup::Checks,
        ),
        ActionInfo::new("recovery", "Recovery phase", "4.6", ActionGroup::Checks),
        ActionInfo::new("move", "Movement", "4.3", ActionGroup::Movement),
        ActionInfo::new(
            "withdraw",
            "Withdraw before melee",
            "4.5.5",
            ActionGroup::Movement,
        ),
        ActionInfo::new(
            "break_check",
            "Break after combat",
            "4.5.12, 5.2",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "leader_fate",
            "Leader capture, recovery and death",
            "6.1.4",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "feudal_charge",
            "Feudal cavalry charge",
            "6.3",
            ActionGroup::Combat,
        ),
        ActionInfo::new(
            "conversion",
            "Cavalry and archer conversion",
            "6.4, 6.5",
            ActionGroup::Movement,
        ),
        ActionInfo::new(
            "transport",
            "Fleets, chariots and elephants carrying units",
            "6.7, 6.8, 6.9",
            ActionGroup::Movement,
        ),
        ActionInfo::new("fire_ship", "Fire ships", "6.7.6", ActionGroup::Combat),
        ActionInfo::new(
            "rampage",
            "Rampaging elephant",
            "6.9.2",
            ActionGroup::Combat,
        ),
        ActionInfo::new(
            "victory",
            "Victory points, panic and victory level",
            "5.4, 7.0–7.2",
            ActionGroup::Checks,
        ),
        ActionInfo::new("scenario", "Scenario settings", "8.0", ActionGroup::Tables),
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
    use crate::systems::{parse_situation as parse, without_dice};
    match action {
        "missile" => fire::resolve(data, &parse(situation)?, fire::FireKind::Missile, dice),
        "defensive_fire" => {
            fire::resolve(data, &parse(situation)?, fire::FireKind::Defensive, dice)
        }
        "horse_archer_fire" => {
            fire::resolve(data, &parse(situation)?, fire::FireKind::HorseArchers, dice)
        }
        "melee" => melee::resolve(data, &parse(situation)?, dice),
        "feudal_charge" => special::feudal_charge(data, &parse(situation)?, dice),
        "rampage" => special::rampage(data, &parse(situation)?, dice),
        "markers" => without_dice(action, dice, || state::markers(data, &parse(situation)?)),
        "end_of_movement" => without_dice(action, dice, || {
            state::end_of_movement(data, &parse(situation)?)
        }),
        "recovery" => without_dice(action, dice, || state::recovery(data, &parse(situation)?)),
        "move" => without_dice(action, dice, || {
            movement::move_units(data, &parse(situation)?)
        }),
        "withdraw" => without_dice(action, dice, || {
            movement::withdraw(data, &parse(situation)?)
        }),
        "break_check" => without_dice(action, dice, || {
            after_combat::break_check(data, &parse(situation)?)
        }),
        "leader_fate" => without_dice(action, dice, || {
            after_combat::leader_fate(data, &parse(situation)?)
        }),
        "conversion" => without_dice(action, dice, || {
            special::conversion(data, &parse(situation)?)
        }),
        "transport" => without_dice(action, dice, || {
            transport::transport(data, &parse(situation)?)
        }),
        "fire_ship" => without_dice(action, dice, || {
            transport::fire_ship(data, &parse(situation)?)
        }),
        "victory" => without_dice(action, dice, || victory::victory(data, &parse(situation)?)),
        "scenario" => without_dice(action, dice, || {
            scenario::scenario(data, &parse(situation)?)
        }),
        other => Err(crate::systems::unknown_action("itacs", other, &actions())),
    }
}

pub fn situation_schema(action: &str) -> Option<schemars::Schema> {
    Some(match action {
        "missile" | "defensive_fire" | "horse_archer_fire" => {
            schemars::schema_for!(situation::FireSituation)
        }
        "melee" => schemars::schema_for!(situation::MeleeSituation),
        "markers" => schemars::schema_for!(state::MarkersSituation),
        "end_of_movement" | "recovery" => schemars::schema_for!(state::PhaseSituation),
        "move" => schemars::schema_for!(movement::MoveSituation),
        "withdraw" => schemars::schema_for!(movement::WithdrawSituation),
        "break_check" => schemars::schema_for!(after_combat::BreakSituation),
        "leader_fate" => schemars::schema_for!(after_combat::LeaderFateSituation),
        "feudal_charge" => schemars::schema_for!(special::FeudalSituation),
        "rampage" => schemars::schema_for!(special::RampageSituation),
        "conversion" => schemars::schema_for!(special::ConversionSituation),
        "transport" => schemars::schema_for!(transport::TransportSituation),
        "fire_ship" => schemars::schema_for!(transport::FireShipSituation),
        "victory" => schemars::schema_for!(victory::VictorySituation),
        "scenario" => schemars::schema_for!(scenario::ScenarioSituation),
        _ => return None,
    })
}

#[cfg(test)]
pub(crate) mod tests;
