//! Captured leaders (6.1.4): a leader whose stack is eliminated in melee is held by the units
//! that attacked it (the battle keeps them as `held_by`); when every one of them is eliminated
//! (by melee or missile combat, as the rule says, or by the umpire's hand) he walks free — in the
//! same event, so undo takes both back. Held, he is stacked under his captors' counter: he is in
//! their hex when taken and goes where they go.

use super::roster::{ItacsLeader, ItacsUnit};
use crate::contract::Change;
use crate::rule_system::form::hex_key;
use crate::rule_system::{FollowOn, Onto};
use crate::state::{BattleState, LeaderFate, UnitState};

/// The captured leaders a result leaves outside their captors' hex — just taken, or his captors
/// moved on —, put under their counter ("stack the leader under the attacking units' counter",
/// 6.1.4).
pub fn carried(after: &BattleState) -> Vec<FollowOn> {
    after
        .units
        .values()
        .filter(|l| l.leader == Some(LeaderFate::Captured) && !l.lost)
        .filter_map(|l| {
            let own = l.detail::<ItacsLeader>()?;
            let hex = l
                .held_by
                .iter()
                .filter_map(|id| after.units.get(id).filter(|u| !u.lost))
                .find_map(|u| u.detail::<ItacsUnit>()?.hex.clone())?;
            let here = own.hex.as_deref().map(hex_key);
            (here.as_deref() != Some(hex_key(&hex).as_str())).then(|| FollowOn {
                onto: Onto::Unit(l.id),
                text: format!(
                    "{}: held under his captors' counter ({}), in hex {hex}",
                    l.label,
                    names(after, l)
                ),
                change: Change::EntersHex { hex },
                rule: "6.1.4".into(),
                ruling: None,
            })
        })
        .collect()
}

/// The leaders a result frees by eliminating the last of their captors.
pub fn freed(before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
    let gone = |state: &BattleState, captors: &[crate::state::UnitId]| {
        captors
            .iter()
            .all(|id| state.units.get(id).is_none_or(|u| u.lost))
    };
    after
        .units
        .values()
        .filter(|l| l.leader == Some(LeaderFate::Captured) && !l.held_by.is_empty())
        .filter(|l| gone(after, &l.held_by) && !gone(before, &l.held_by))
        .map(|l| FollowOn {
            onto: Onto::Unit(l.id),
            change: Change::LeaderFreed,
            text: format!(
                "{}: walks free, his captors ({}) eliminated; he may rejoin his side (after a melee, move him to an adjacent hex holding units of his side)",
                l.label,
                names(after, l)
            ),
            rule: "6.1.4".into(),
            ruling: None,
        })
        .collect()
}

fn names(state: &BattleState, leader: &UnitState) -> String {
    leader
        .held_by
        .iter()
        .filter_map(|id| state.units.get(id).map(|u| u.label.clone()))
        .collect::<Vec<_>>()
        .join(", ")
}
