//! Medieval (Taktyka i Strategia): combat ratios with column shifts, the COMBAT TABLE with
//! scatter and leader-death odds, pursuit, ride-down, countercharge, ranged fire, movement
//! costs, the MORALE track, regrouping and fatigue, over the shared engine.

pub mod after;
pub mod banners;
pub mod combat;
pub mod data;
pub mod fight;
pub mod fire;
pub mod leader;
pub mod map;
pub mod morale;
pub mod movement;
pub mod objects;
pub mod result;
pub mod retreat;
pub mod roster;
pub mod scatter;
mod standing;
pub mod units;

use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::shared::SystemHeader;
use crate::rule_system::{
    Action, ActionGroup, Choice, ChoiceList, CommonSituation, FollowOn, Opening, Phase, RuleSystem,
    Sides, Standing, UnitField, UnitPreview,
};
use crate::state::{BattleState, UnitSpec, UnitState, UnitWords};

pub use data::MedievalData;
pub use leader::MedievalLeader;
pub use roster::MedievalCounter;

/// Medieval (Taktyka i Strategia), as the referee plays it.
pub struct Medieval;

impl RuleSystem for Medieval {
    type Data = MedievalData;
    type Unit = MedievalCounter;
    type Leader = MedievalLeader;

    const ID: &'static str = "medieval";
    const MAIN_ACTION: &'static str = "combat";

    fn header(data: &MedievalData) -> &SystemHeader {
        &data.system
    }

    fn sequence(data: &MedievalData) -> &[Phase] {
        &data.sequence
    }

    fn actions() -> Vec<Action<MedievalData>> {
        use Action as A;
        use ActionGroup::{Checks, Combat, Movement, Tables};
        vec![
            A::rolled("combat", "Combat", "1.4–1.7, 5.0", Combat, combat::resolve).fights(),
            A::rolled("fire", "Ranged fire", "10.2–10.7", Combat, fire::resolve).fights(),
            A::rolled("pursuit", "Pursuit test", "5.5", Combat, after::pursuit).from_roster(),
            A::rolled(
                "leader_death",
                "Leader death roll",
                "8.2.4",
                Checks,
                after::leader_death,
            ),
            A::certain("ride_down", "Ride down", "5.8", Combat, after::ride_down),
            A::certain(
                "countercharge",
                "Countercharge",
                "5.7",
                Combat,
                after::countercharge,
            ),
            A::certain(
                "turn_cost",
                "Turning cost",
                "4.3",
                Movement,
                movement::turn_cost,
            ),
            A::certain(
                "move_cost",
                "Movement cost and charge factor",
                "4.0, 5.6",
                Movement,
                movement::move_cost,
            ),
            A::certain("morale", "MORALE track", "6.1", Checks, morale::morale).from_roster(),
            A::certain("banner", "Banners", "7.1", Checks, morale::banner),
            A::rolled(
                "regroup",
                "Regroup a scattered unit",
                "9.1.6",
                Checks,
                morale::regroup,
            ),
            A::rolled("fatigue", "Fatigue", "13.0", Checks, morale::fatigue),
            A::certain(
                "map_return",
                "Returning to the map",
                "4.4",
                Movement,
                objects::map_return,
            ),
            A::certain(
                "demolish",
                "Destroying fortifications",
                "11.1.6",
                Tables,
                objects::demolish,
            ),
        ]
    }

    fn choices(data: &MedievalData) -> Vec<ChoiceList> {
        choices(data)
    }

    fn common_situations() -> Vec<CommonSituation> {
        // The defending hex's terrain (its CMs, 5.3) and a leader stacked on a hex, worth 2 CMs
        // and keeping its units from scattering (8.2.1, 9.1.3): asked up front, on their hex.
        CommonSituation::list(&[
            ("terrain", "Terrain"),
            ("leader", "Leader stacked (+2 CMs)"),
            ("rear", "Rear"),
            ("stream", "Stream"),
            ("ford", "Ford"),
            ("uphill", "Uphill"),
            // A voluntary pursuit declined (5.5.4): the player's choice, asked up front.
            ("stays", "Stays if the pursuit is voluntary"),
        ])
    }

    fn unit_form(data: &MedievalData) -> Vec<UnitField> {
        roster::fields(data)
    }

    fn other_keys() -> &'static [&'static str] {
        &["count", "movement_formation"]
    }

    fn unit_preview(
        data: &MedievalData,
        stats: &serde_json::Value,
    ) -> Result<UnitPreview, RefereeError> {
        roster::preview(data, stats)
    }

    fn check_entry(data: &MedievalData, stats: &serde_json::Value) -> Result<(), RefereeError> {
        roster::check_entry(data, stats)
    }

    /// A leader added or corrected now: his hex is one the map prints (4.5); a row of an older
    /// battle with a hex of another kind still folds, the hex kept as a note.
    fn check_among(
        _data: &MedievalData,
        _state: &BattleState,
        spec: &UnitSpec,
        _editing: Option<crate::state::UnitId>,
    ) -> Result<(), RefereeError> {
        if spec.role == crate::state::Role::Leader {
            leader::check(spec)?;
        }
        Ok(())
    }

    fn enter(data: &MedievalData, spec: &UnitSpec) -> Result<(u32, MedievalCounter), RefereeError> {
        roster::enter(data, spec)
    }

    fn leader_form(_data: &MedievalData) -> Vec<UnitField> {
        leader::fields()
    }

    fn place_field() -> Option<&'static str> {
        Some("hex")
    }

    fn enter_leader(_data: &MedievalData, spec: &UnitSpec) -> Result<MedievalLeader, RefereeError> {
        leader::enter(spec)
    }

    fn leader_words(_data: &MedievalData, unit: &UnitState, own: &MedievalLeader) -> UnitWords {
        leader::words(unit, own)
    }

    fn land_leader(
        _data: &MedievalData,
        _unit: &mut UnitState,
        own: &mut MedievalLeader,
        change: &Change,
    ) -> bool {
        leader::land(own, change)
    }

    fn refuse_leader(
        _state: &BattleState,
        unit: &UnitState,
        own: &MedievalLeader,
        change: &Change,
    ) -> Option<RefereeError> {
        leader::refuse(unit, own, change)
    }

    fn leader_at_turn_end(unit: &mut UnitState) {
        leader::at_turn_end(unit)
    }

    fn keep(old: &MedievalCounter, new: &mut MedievalCounter) {
        roster::keep(old, new)
    }

    fn keep_leader(old: &MedievalLeader, new: &mut MedievalLeader) {
        leader::keep(old, new)
    }

    fn land(
        data: &MedievalData,
        unit: &mut UnitState,
        own: &mut MedievalCounter,
        change: &Change,
    ) -> bool {
        roster::land(data, unit, own, change)
    }

    fn words(data: &MedievalData, unit: &UnitState, own: &MedievalCounter) -> UnitWords {
        roster::words(data, unit, own)
    }

    fn open(
        data: &MedievalData,
        action: &str,
        sides: &Sides<MedievalCounter>,
    ) -> Result<Opening, RefereeError> {
        fight::open(data, action, sides)
    }

    /// The MORALE track moves in a side's favour, the first side's positive (6.1); the counter
    /// stops at the track's last box (6.1.1, R-MED-30).
    /// Phase 9 sets the value in force, the counter standing there too (6.1.9, R-MED-35).
    fn land_on_side(
        data: &MedievalData,
        state: &mut BattleState,
        side: usize,
        change: &Change,
        rule: &str,
    ) -> Option<Vec<Change>> {
        let favour = |n: i64| if side == 0 { n } else { n.saturating_neg() };
        let on_track = |n: i64| match data.morale.track_ends {
            Some(end) => n.clamp(-end, end),
            None => n,
        };
        match change {
            Change::Morale { boxes } => {
                state.morale_track = on_track(state.morale_track.saturating_add(favour(*boxes)));
                // A phase-9 step recorded before it set the value in force by its own change
                // moved the counter by its rule: it was the value in force too.
                if rule == data.morale.applied_rule {
                    state.morale_in_force = state.morale_track;
                }
            }
            Change::MoraleInForce { value } => {
                state.morale_track = on_track(favour(*value));
                state.morale_in_force = state.morale_track;
            }
            _ => return None,
        }
        Some(Vec::new())
    }

    /// The phase-9 MORALE step opens with what this turn's results did (6.1.9); the pursuit test
    /// with the last combat's attacker (5.5).
    fn open_battle(
        data: &MedievalData,
        action: &str,
        state: &BattleState,
    ) -> Result<Opening, RefereeError> {
        if action == "pursuit" {
            return fight::open_pursuit(data, state);
        }
        if action != "morale" {
            return Err(crate::rule_system::fight::not_a_combat(action));
        }
        let situation = morale::this_turn(data, state);
        let asks = if situation.events.is_empty() {
            vec!["No result moved the MORALE counter this turn.".to_string()]
        } else {
            Vec::new()
        };
        Opening::new(&situation, Default::default(), asks)
    }

    /// A banner's holder eliminated: a friend on his hex takes it, or it falls (7.1.5, 6.1.5).
    fn follow_on(data: &MedievalData, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
        banners::follow_on(data, before, after)
    }

    fn standing(data: &MedievalData, state: &BattleState) -> Standing {
        standing::standing(data, state)
    }

    fn verdict(data: &MedievalData, state: &BattleState) -> Option<crate::rule_system::Verdict> {
        standing::verdict(data, state)
    }
}

fn choices(data: &MedievalData) -> Vec<ChoiceList> {
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
            // Each terrain with its worth to a defender there (TERRAIN EFFECT, R-MED-4).
            options: data
                .terrain
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: match t.combat {
                        0 => t.name.clone(),
                        1 => format!("{} (defender +1 CM)", t.name),
                        n => format!("{} (defender +{n} CMs)", t.name),
                    },
                })
                .collect(),
        },
    ]
}

#[cfg(test)]
pub(crate) mod tests;
