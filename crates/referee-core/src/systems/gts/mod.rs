//! GTS (Go Tell the Spartans): the unit builder, d10 roll-offs for fire and melee, exact recoil
//! for several units a side, the chained melee round, response and command tests, elephants and
//! the army break point, over the shared engine.

pub mod checks;
pub mod contact;
pub mod data;
pub mod fight;
pub mod fire;
pub mod melee;
pub mod recoil;
pub mod rolloff;
pub mod round;
pub mod units;

use crate::contract::Resolution;
use crate::error::RefereeError;
use crate::systems::{
    parse_situation as parse, without_dice, ActionGroup, ActionInfo, Choice, ChoiceList,
};

pub use data::GtsData;

/// The action "Resolve" on the roster opens (SystemInfo::main_action).
pub const MAIN_ACTION: &str = "melee";

pub fn actions() -> Vec<ActionInfo> {
    vec![
        ActionInfo::new(
            "unit",
            "Unit builder",
            "2.1, 2.10, 2.11",
            ActionGroup::Tables,
        ),
        ActionInfo::new("fire", "Missile combat", "5.0", ActionGroup::Combat).fights(),
        ActionInfo::new("melee", "Melee roll-off", "6.0", ActionGroup::Combat).fights(),
        ActionInfo::new("recoil", "Recoil", "7.1", ActionGroup::Combat).fights(),
        ActionInfo::new(
            "melee_round",
            "One melee round: hits, disorder, recoil",
            "6.12–7.1",
            ActionGroup::Combat,
        )
        .fights(),
        ActionInfo::new(
            "response_test",
            "Response test",
            "2.11",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "command_points",
            "Command points",
            "1.2",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "leader_casualty",
            "Leader casualty",
            "1.9",
            ActionGroup::Checks,
        ),
        ActionInfo::new("frenzy", "Elephant frenzy", "7.4", ActionGroup::Checks),
        ActionInfo::new(
            "army_break",
            "Army break point and victory",
            "8.0",
            ActionGroup::Checks,
        ),
        ActionInfo::new("wheel_cost", "Wheeling cost", "4.13", ActionGroup::Movement),
    ]
}

pub fn choices(data: &GtsData) -> Vec<ChoiceList> {
    let by_group = |group: &str| ChoiceList {
        field: group.to_string(),
        options: data
            .rows
            .iter()
            .filter(|(_, r)| r.group == group)
            .map(|(k, r)| Choice {
                key: k.clone(),
                label: r.name.clone(),
            })
            .collect(),
    };
    vec![
        ChoiceList {
            field: "class".into(),
            options: data
                .classes
                .iter()
                .map(|(k, c)| Choice {
                    key: k.clone(),
                    label: c.name.clone(),
                })
                .collect(),
        },
        by_group("morale"),
        by_group("training"),
        by_group("armour"),
        by_group("weapon"),
        by_group("order"),
    ]
}

pub fn resolve(
    data: &GtsData,
    action: &str,
    situation: &serde_json::Value,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    match action {
        "unit" => without_dice(action, dice, || {
            let e: units::UnitEntry = parse(situation)?;
            let u = units::Unit::build(data, &e, "")?;
            let mut r = Resolution::certain(
                &data.system.id,
                "unit",
                &format!("{}{}", u.response.value, u.quality.value),
                &format!(
                    "{}: response {}, quality {}",
                    u.name, u.response.value, u.quality.value
                ),
                Vec::new(),
            );
            r.totals = u.totals();
            if u.trigger_breached(u.stands, u.hits) {
                r.notes.push(crate::contract::Note::new(
                    "The unit is past its terminal rout trigger: any Rout is permanent.",
                    "2.11, 3.33",
                    None,
                ));
            }
            Ok(r)
        }),
        "fire" => fire::resolve(data, &parse(situation)?, dice),
        "melee" => melee::melee(data, &parse(situation)?, dice),
        "recoil" => melee::recoil(data, &parse(situation)?, dice),
        "melee_round" => round::round(data, &parse(situation)?, dice),
        "response_test" => checks::response_test(data, &parse(situation)?, dice),
        "command_points" => checks::command_points(data, &parse(situation)?, dice),
        "leader_casualty" => checks::leader_casualty(data, &parse(situation)?, dice),
        "frenzy" => checks::frenzy(data, &parse(situation)?, dice),
        "army_break" => without_dice(action, dice, || {
            checks::army_break(data, &parse(situation)?)
        }),
        "wheel_cost" => without_dice(action, dice, || {
            checks::wheel_cost(data, &parse(situation)?)
        }),
        other => Err(crate::systems::unknown_action("gts", other, &actions())),
    }
}

pub fn situation_schema(action: &str) -> Option<schemars::Schema> {
    Some(match action {
        "unit" => schemars::schema_for!(units::UnitEntry),
        "fire" => schemars::schema_for!(fire::FireSituation),
        "melee" | "recoil" | "melee_round" => schemars::schema_for!(melee::MeleeSituation),
        "response_test" => schemars::schema_for!(checks::ResponseSituation),
        "command_points" => schemars::schema_for!(checks::CommandSituation),
        "leader_casualty" => schemars::schema_for!(checks::LeaderCasualtySituation),
        "frenzy" => schemars::schema_for!(checks::FrenzySituation),
        "army_break" => schemars::schema_for!(checks::ArmyBreakSituation),
        "wheel_cost" => schemars::schema_for!(checks::WheelSituation),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
