//! ITACS: missile combat (4.2), defensive fire (4.4) and melee (4.5) over the shared engine.

pub mod after_combat;
mod captives;
pub mod data;
pub mod fight;
mod fire;
mod forecast;
pub mod limits;
mod melee;
pub mod movement;
mod results;
pub mod roster;
pub mod scenario;
pub mod situation;
pub mod special;
mod square;
mod standing;
pub mod state;
pub mod strength;
pub mod transport;
pub mod victory;

use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::resolve::MAX_VALUE;
use crate::rule_system::shared::SystemHeader;
use crate::rule_system::{
    Action, ActionGroup, Choice, ChoiceList, CommonSituation, FollowOn, Opening, Phase, RuleSystem,
    SideField, Sides, Standing, UnitField, UnitPreview,
};
use crate::state::{BattleSetup, BattleState, UnitId, UnitSpec, UnitState, UnitWords};
use crate::ErrorCode;

pub use data::ItacsData;
pub use roster::ItacsUnit;

/// ITACS, as the referee plays it.
pub struct Itacs;

impl RuleSystem for Itacs {
    type Data = ItacsData;
    type Unit = ItacsUnit;
    type Leader = roster::ItacsLeader;

    const ID: &'static str = "itacs";
    const MAIN_ACTION: &'static str = "melee";

    fn header(data: &ItacsData) -> &SystemHeader {
        &data.system
    }

    fn sequence(data: &ItacsData) -> &[Phase] {
        &data.sequence
    }

    fn actions() -> Vec<Action<ItacsData>> {
        use Action as A;
        use ActionGroup::{Checks, Combat, Movement, Tables};
        vec![
            A::rolled("missile", "Missile combat", "4.2", Combat, |d, s, dice| {
                fire::resolve(d, s, fire::FireKind::Missile, dice)
            })
            .fights(),
            A::rolled(
                "defensive_fire",
                "Defensive fire",
                "4.4",
                Combat,
                |d, s, dice| fire::resolve(d, s, fire::FireKind::Defensive, dice),
            )
            .fights(),
            A::rolled("melee", "Melee combat", "4.5", Combat, melee::resolve).fights(),
            A::rolled(
                "horse_archer_fire",
                "Horse archers fire after movement",
                "6.2",
                Combat,
                |d, s, dice| fire::resolve(d, s, fire::FireKind::HorseArchers, dice),
            )
            .fights(),
            A::certain(
                "markers",
                "Markers on a hex",
                "5.0–5.3",
                Checks,
                state::markers,
            ),
            A::certain(
                "end_of_movement",
                "End of movement: leaders and Break markers",
                "5.2.1, 6.1.1",
                Checks,
                state::end_of_movement,
            ),
            A::certain("recovery", "Recovery phase", "4.6", Checks, state::recovery).from_roster(),
            A::certain("move", "Movement", "4.3", Movement, movement::move_units).moves(),
            A::certain(
                "withdraw",
                "Withdraw before melee",
                "4.5.5",
                Movement,
                movement::withdraw,
            ),
            A::certain(
                "break_check",
                "Break after combat",
                "4.5.12, 5.2",
                Checks,
                after_combat::break_check,
            ),
            A::certain(
                "leader_fate",
                "Leader capture, recovery and death",
                "6.1.4",
                Checks,
                after_combat::leader_fate,
            ),
            A::rolled(
                "feudal_charge",
                "Feudal cavalry charge",
                "6.3",
                Combat,
                special::feudal_charge,
            ),
            A::certain(
                "conversion",
                "Cavalry and archer conversion",
                "6.4, 6.5",
                Movement,
                special::conversion,
            ),
            A::certain(
                "transport",
                "Fleets, chariots and elephants carrying units",
                "6.7, 6.8, 6.9",
                Movement,
                transport::transport,
            ),
            A::certain(
                "fire_ship",
                "Fire ships",
                "6.7.6",
                Combat,
                transport::fire_ship,
            ),
            A::rolled(
                "rampage",
                "Rampaging elephant",
                "6.9.2",
                Combat,
                special::rampage,
            ),
            A::certain(
                "victory",
                "Victory points, panic and victory level",
                "5.4, 7.0–7.2",
                Checks,
                victory::victory,
            ),
            A::certain(
                "scenario",
                "Scenario settings",
                "8.0",
                Tables,
                scenario::scenario,
            ),
        ]
    }

    fn choices(data: &ItacsData) -> Vec<ChoiceList> {
        choices(data)
    }

    fn common_situations() -> Vec<CommonSituation> {
        // The boxes a fight reaches for, each a chip with its worth (issue 31 item 4): an attack
        // through a rear hex (4.5.8), a stream (3.1.2), a square (2.6.1), a road (3.1.1), a
        // leader in a firing hex (4.4.1), defenders on a ladder or siege tower (3.1.4); the
        // defending or target hex's terrain (10.3) as a pick list beside them; and where the
        // attackers stand against a wall hex, which is attacked only from a ladder, a siege tower
        // or an adjacent wall hex, the last without the wall's modifier (3.1.4, 10.3).
        let mut chips = CommonSituation::list(&[
            ("terrain", "Terrain"),
            ("rear", "Rear"),
            ("stream", "Stream"),
            ("square", "Square"),
            ("road", "Road"),
            ("leader", "Leader"),
            ("on_ladder_or_tower", "On a ladder or tower"),
        ]);
        chips.extend([
            CommonSituation::pick(
                "attack_from",
                "ladder_or_tower",
                "From a ladder or siege tower",
            ),
            CommonSituation::pick("attack_from", "wall", "From an adjacent wall hex"),
        ]);
        chips
    }

    fn side_fields() -> Vec<SideField> {
        vec![
            SideField {
                key: "panic_level".into(),
                label: "Panic level".into(),
                rule: "5.4".into(),
                min: 0,
                max: MAX_VALUE as u32,
            },
            SideField {
                key: "stacking_limit".into(),
                label: "Stacking limit".into(),
                rule: "4.3.3".into(),
                min: 1,
                max: MAX_VALUE as u32,
            },
        ]
    }

    /// A scenario's stacking limit is a unit or more (4.3.3).
    fn check_setup(setup: &BattleSetup) -> Result<(), RefereeError> {
        if setup.sides.iter().any(|s| s.stacking_limit == Some(0)) {
            return Err(RefereeError::new(
                ErrorCode::BattleInvalidSetup,
                "a stacking limit is 1 unit or more",
            )
            .field("sides")
            .rule("4.3.3"));
        }
        Ok(())
    }

    fn unit_form(data: &ItacsData) -> Vec<UnitField> {
        roster::fields(data)
    }

    fn leader_form(_data: &ItacsData) -> Vec<UnitField> {
        roster::leader_fields()
    }

    fn place_field() -> Option<&'static str> {
        Some("hex")
    }

    fn enter_leader(
        _data: &ItacsData,
        spec: &UnitSpec,
    ) -> Result<roster::ItacsLeader, RefereeError> {
        roster::enter_leader(spec)
    }

    /// A leader's hex: where his captors take him (6.1.4).
    fn land_leader(
        _data: &ItacsData,
        _unit: &mut UnitState,
        own: &mut roster::ItacsLeader,
        change: &Change,
    ) -> bool {
        match change {
            Change::EntersHex { hex } => {
                own.hex = Some(hex.clone());
                true
            }
            _ => false,
        }
    }

    fn leader_words(
        _data: &ItacsData,
        unit: &UnitState,
        leader: &roster::ItacsLeader,
    ) -> UnitWords {
        roster::leader_words(unit, leader)
    }

    fn other_keys() -> &'static [&'static str] {
        &["fire_range", "firing", "throwing", "cargo", "marine"]
    }

    fn unit_preview(
        data: &ItacsData,
        stats: &serde_json::Value,
    ) -> Result<UnitPreview, RefereeError> {
        roster::preview(data, stats)
    }

    fn check_entry(data: &ItacsData, stats: &serde_json::Value) -> Result<(), RefereeError> {
        roster::check_entry(data, stats)
    }

    fn enter(data: &ItacsData, spec: &UnitSpec) -> Result<(u32, ItacsUnit), RefereeError> {
        roster::enter(data, spec)
    }

    fn keep(old: &ItacsUnit, new: &mut ItacsUnit) {
        roster::keep(old, new)
    }

    fn split(_data: &ItacsData, own: &ItacsUnit, units: u32) -> Option<(ItacsUnit, ItacsUnit)> {
        roster::split(own, units)
    }

    fn split_rule() -> Option<(&'static str, &'static str)> {
        Some(("4.3.3", "R-ITACS-44"))
    }

    fn land(data: &ItacsData, unit: &mut UnitState, own: &mut ItacsUnit, change: &Change) -> bool {
        roster::land(data, unit, own, change)
    }

    fn refuse(
        state: &BattleState,
        unit: &UnitState,
        own: &ItacsUnit,
        change: &Change,
        rule: &str,
    ) -> Option<RefereeError> {
        roster::refuse(state, unit, own, change, rule)
    }

    fn words(data: &ItacsData, unit: &UnitState, own: &ItacsUnit) -> UnitWords {
        roster::words(data, unit, own)
    }

    fn open(
        data: &ItacsData,
        action: &str,
        sides: &Sides<ItacsUnit>,
    ) -> Result<Opening, RefereeError> {
        fight::open(data, action, sides)
    }

    fn open_battle(
        data: &ItacsData,
        action: &str,
        state: &BattleState,
    ) -> Result<Opening, RefereeError> {
        fight::open_battle(data, action, state)
    }

    fn turn_limits(
        state: &BattleState,
        action: &str,
        attackers: &[UnitId],
        defenders: &[UnitId],
    ) -> Result<Vec<String>, RefereeError> {
        limits::check(state, action, attackers, defenders)
    }

    /// Victory points a result awards a side (7.0); a side that panics routs, every unit of it
    /// (5.4).
    fn land_on_side(
        _data: &ItacsData,
        state: &mut BattleState,
        side: usize,
        change: &Change,
        _rule: &str,
    ) -> Option<Vec<Change>> {
        let s = &mut state.sides[side];
        match change {
            Change::VictoryPoints { points } => {
                s.points_awarded = s.points_awarded.saturating_add(*points);
                Some(Vec::new())
            }
            Change::Rout | Change::MustBreak => {
                s.panicked = true;
                Some(vec![Change::Rout])
            }
            _ => None,
        }
    }

    fn follow_on(data: &ItacsData, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
        let mut follow = captives::freed(before, after);
        follow.extend(captives::carried(after));
        follow.extend(square::follow_on(data, before, after));
        follow
    }

    fn standing(data: &ItacsData, state: &BattleState) -> Standing {
        standing::standing(data, state)
    }

    fn verdict(data: &ItacsData, state: &BattleState) -> Option<crate::rule_system::Verdict> {
        standing::verdict(data, state)
    }
}

/// What the UI offers for unit types and terrain, straight from the data.
fn choices(data: &ItacsData) -> Vec<ChoiceList> {
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

#[cfg(test)]
pub(crate) mod tests;
