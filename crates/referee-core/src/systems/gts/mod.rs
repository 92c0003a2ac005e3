//! GTS (Go Tell the Spartans): the unit builder, d10 roll-offs for fire and melee, exact recoil
//! for several units a side, the chained melee round, response and command tests, elephants and
//! the army break point, over the shared engine.

pub mod checks;
pub mod contact;
pub mod data;
pub mod fight;
pub mod fire;
pub mod interpenetration;
pub mod leader;
pub mod melee;
pub mod movement;
mod played;
pub mod recoil;
pub mod rolloff;
pub mod roster;
pub mod round;
mod standing;
pub mod units;

use crate::contract::{Change, Resolution};
use crate::error::RefereeError;
use crate::rule_system::shared::SystemHeader;
use crate::rule_system::{
    Action, ActionGroup, Choice, ChoiceList, CommonSituation, Opening, Phase, RuleSystem, Sides,
    Standing, UnitField, UnitPreview,
};
use crate::state::{BattleState, UnitId, UnitSpec, UnitState, UnitWords};

pub use data::GtsData;
pub use leader::GtsLeader;
pub use roster::GtsUnit;

/// GTS (Go Tell the Spartans), as the referee plays it.
pub struct Gts;

impl RuleSystem for Gts {
    type Data = GtsData;
    type Unit = GtsUnit;
    type Leader = GtsLeader;

    const ID: &'static str = "gts";
    // "Resolve" opens the whole round: hits, Disorder, stand loss, recoil, rout, leaders (6–7).
    const MAIN_ACTION: &'static str = "melee_round";

    fn header(data: &GtsData) -> &SystemHeader {
        &data.system
    }

    fn sequence(data: &GtsData) -> &[Phase] {
        &data.sequence
    }

    fn actions() -> Vec<Action<GtsData>> {
        use Action as A;
        use ActionGroup::{Checks, Combat, Movement, Tables};
        vec![
            A::certain("unit", "Unit builder", "2.1, 2.10, 2.11", Tables, unit),
            A::rolled("fire", "Missile combat", "5.0", Combat, fire::resolve).fights(),
            A::rolled("melee", "Melee roll-off", "6.0", Combat, melee::melee).fights(),
            A::rolled("recoil", "Recoil", "7.1", Combat, melee::recoil).fights(),
            A::rolled(
                "melee_round",
                "One melee round: hits, disorder, recoil",
                "6.12–7.1",
                Combat,
                round::round,
            )
            .fights(),
            A::rolled(
                "response_test",
                "Response test",
                "2.11",
                Checks,
                checks::response_test,
            )
            .for_a_unit(),
            A::rolled(
                "command_points",
                "Command points",
                "1.2",
                Checks,
                checks::command_points,
            )
            .for_a_unit(),
            A::rolled(
                "leader_casualty",
                "Leader casualty",
                "1.9",
                Checks,
                checks::leader_casualty,
            ),
            A::rolled("frenzy", "Elephant frenzy", "7.4", Checks, checks::frenzy),
            A::certain(
                "army_break",
                "Army break point and victory",
                "8.0",
                Checks,
                checks::army_break,
            ),
            A::certain(
                "movement",
                "Movement allowance",
                "4.1",
                Movement,
                movement::movement,
            )
            .for_a_unit(),
            A::certain(
                "interpenetration",
                "Passing through a friend",
                "4.7",
                Movement,
                interpenetration::interpenetration,
            )
            .for_a_unit(),
            A::certain(
                "wheel_cost",
                "Wheeling cost",
                "4.13",
                Movement,
                checks::wheel_cost,
            ),
        ]
    }

    fn choices(data: &GtsData) -> Vec<ChoiceList> {
        choices(data)
    }

    fn common_situations() -> Vec<CommonSituation> {
        // The boxes of a turn's fights: a flank, contact made this turn (a charge: 4.43, 4.45,
        // 4.54) and a target in cover (5.0) — up front as chips, not down the form.
        CommonSituation::list(&[
            ("flanked", "Flanked"),
            ("flanking", "Flanking"),
            ("contact", "Contact this turn"),
            ("target_in_cover", "Target in cover"),
        ])
    }

    fn roster_advice() -> Option<&'static str> {
        Some("On the roster, give the army’s general and baggage their roles: losing them lowers the army break point (8.0).")
    }

    const DERIVED_VALUES: bool = true;

    fn unit_form(data: &GtsData) -> Vec<UnitField> {
        roster::fields(data)
    }

    fn leader_form(_data: &GtsData) -> Vec<UnitField> {
        leader::fields()
    }

    fn other_keys() -> &'static [&'static str] {
        &[
            roster::LEADER_PV,
            "name",
            "command",
            "ammunition",
            "hits",
            "starting_stands",
            "skirmish",
            "disordered",
            "routed",
            "march",
            "tag",
        ]
    }

    fn unit_preview(
        data: &GtsData,
        stats: &serde_json::Value,
    ) -> Result<UnitPreview, RefereeError> {
        roster::preview(data, stats)
    }

    fn check_entry(_data: &GtsData, stats: &serde_json::Value) -> Result<(), RefereeError> {
        roster::check_entry(stats)
    }

    fn enter(data: &GtsData, spec: &UnitSpec) -> Result<(u32, GtsUnit), RefereeError> {
        roster::enter(data, spec)
    }

    fn enter_leader(_data: &GtsData, spec: &UnitSpec) -> Result<GtsLeader, RefereeError> {
        leader::enter(spec)
    }

    fn leader_words(_data: &GtsData, unit: &UnitState, leader: &GtsLeader) -> UnitWords {
        leader::words(unit, leader)
    }

    fn check_among(
        _data: &GtsData,
        state: &BattleState,
        spec: &UnitSpec,
        editing: Option<UnitId>,
    ) -> Result<(), RefereeError> {
        leader::check_links(state, spec, editing)
    }

    fn keep(old: &GtsUnit, new: &mut GtsUnit) {
        roster::keep(old, new)
    }

    fn keep_leader(old: &GtsLeader, new: &mut GtsLeader) {
        leader::keep(old, new)
    }

    fn land(data: &GtsData, unit: &mut UnitState, own: &mut GtsUnit, change: &Change) -> bool {
        roster::land(data, unit, own, change)
    }

    fn refuse(
        state: &BattleState,
        unit: &UnitState,
        own: &GtsUnit,
        change: &Change,
        _rule: &str,
    ) -> Option<RefereeError> {
        roster::refuse(state, unit, own, change)
    }

    fn end_of_turn(_unit: &mut UnitState, own: &mut GtsUnit) {
        roster::end_of_turn(own)
    }

    fn land_on_leader(unit: &mut UnitState, change: &Change) -> bool {
        roster::land_on_leader(unit, change)
    }

    fn leader_at_turn_end(unit: &mut UnitState) {
        roster::leader_at_turn_end(unit);
        leader::at_turn_end(unit);
    }

    fn land_leader(
        _data: &GtsData,
        _unit: &mut UnitState,
        own: &mut GtsLeader,
        change: &Change,
    ) -> bool {
        leader::land(own, change)
    }

    fn refuse_leader(
        _state: &BattleState,
        unit: &UnitState,
        own: &GtsLeader,
        change: &Change,
    ) -> Option<RefereeError> {
        leader::refuse(unit, own, change)
    }

    fn words(data: &GtsData, unit: &UnitState, own: &GtsUnit) -> UnitWords {
        roster::words(data, unit, own)
    }

    fn open(
        _data: &GtsData,
        action: &str,
        sides: &Sides<GtsUnit>,
    ) -> Result<Opening, RefereeError> {
        fight::open(action, sides)
    }

    fn open_unit(
        _data: &GtsData,
        action: &str,
        state: &BattleState,
        unit: &UnitState,
    ) -> Result<Opening, RefereeError> {
        fight::open_unit(action, state, unit)
    }

    fn standing(data: &GtsData, state: &BattleState) -> Standing {
        standing::standing(data, state)
    }

    fn verdict(data: &GtsData, state: &BattleState) -> Option<crate::rule_system::Verdict> {
        standing::verdict(data, state)
    }
}

/// The unit builder: a unit's values from Table 2.10, each with its sources.
fn unit(data: &GtsData, e: &units::UnitEntry) -> Result<Resolution, RefereeError> {
    let u = units::Unit::build(data, e, "")?;
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
}

fn choices(data: &GtsData) -> Vec<ChoiceList> {
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
        // The response tests by their names in the rules (2.11), not by their keys.
        ChoiceList {
            field: "test".into(),
            options: data
                .response
                .tests
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: t.name.clone(),
                })
                .collect(),
        },
    ]
}

#[cfg(test)]
mod tests;

/// The built-in tables, for the steps' own tests.
#[cfg(test)]
fn test_data() -> GtsData {
    crate::systems::test_support::load("gts")
        .data::<Gts>()
        .unwrap()
        .clone()
}
