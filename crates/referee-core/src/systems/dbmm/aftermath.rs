//! What a command's morale does to its elements the moment it changes (p. 43): a command that
//! becomes disheartened loses its 0 ME elements; one that becomes broken routs. Each is a change
//! on the roster, landed with the result that brought it about (R-DBMM-35).

use std::collections::BTreeMap;

use super::data::DbmmData;
use super::element::{check, morale_halves};
use super::morale::CommandState;
use super::roster::DbmmElement;
use super::standing::{command_of, command_states};
use crate::contract::Change;
use crate::fate::Fate;
use crate::rule_system::{FollowOn, Onto};
use crate::state::{BattleState, UnitState};

/// The changes the battle's commands passing a threshold call for: for each command steadier
/// before than after, its elements removed or routing.
pub fn follow_on(data: &DbmmData, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
    let mut out = Vec::new();
    for side in &after.sides {
        let was: BTreeMap<String, CommandState> = command_states(data, before, &side.name)
            .into_iter()
            .collect();
        for (command, now) in command_states(data, after, &side.name) {
            let then = was.get(&command).copied().unwrap_or(CommandState::Steady);
            let disheartened =
                then < CommandState::Disheartened && now >= CommandState::Disheartened;
            let broken = then < CommandState::Broken && now >= CommandState::Broken;
            if !disheartened && !broken {
                continue;
            }
            let elements = after
                .units
                .values()
                .filter(|u| !u.lost && u.side == side.name && command_of(u) == command);
            for (unit, own) in elements.filter_map(|u| Some((u, u.detail::<DbmmElement>()?))) {
                if disheartened && removed_when_disheartened(data, own) {
                    out.push(removal(unit, &command, now));
                } else if broken && routs_when_broken(data, own) {
                    out.push(rout(unit, &command));
                }
            }
        }
    }
    out
}

/// "0 ME elements not required to be double-based are removed" (p. 43): the rear half of a
/// double-based element stays with its front.
fn removed_when_disheartened(data: &DbmmData, own: &DbmmElement) -> bool {
    !own.element.double_based_rear
        && check(data, &own.element, "").is_ok_and(|c| morale_halves(data, &c).0 == 0)
}

/// "All land elements must rout unless … Bge (S/O)" (p. 43). The battle cannot know which moved
/// or halted that bound, are in front-edge combat or inside a TF/PF: the rout names them for the
/// umpire to pass over (R-DBMM-35).
fn routs_when_broken(data: &DbmmData, own: &DbmmElement) -> bool {
    let e = &own.element;
    let baggage_holds = e.type_code == "Bge" && matches!(e.grade.as_str(), "S" | "O");
    let naval =
        check(data, e, "").is_ok_and(|c| data.selector("Naval").matches(&c.own_traits(data)));
    !baggage_holds && !naval
}

fn removal(unit: &UnitState, command: &str, now: CommandState) -> FollowOn {
    FollowOn {
        onto: Onto::Unit(unit.id),
        change: Change::ElementFate {
            fate: Fate::Removed.into(),
        },
        text: format!(
            "{}: is removed, a 0 ME element of {command}, which is now {}",
            unit.label,
            now.code()
        ),
        rule: "p. 43".into(),
        ruling: Some("R-DBMM-35".into()),
    }
}

fn rout(unit: &UnitState, command: &str) -> FollowOn {
    FollowOn {
        onto: Onto::Unit(unit.id),
        change: Change::ElementFate {
            fate: Fate::Rout.into(),
        },
        text: format!(
            "{}: routs, {command} being broken (not if it moved or halted this bound, is in front-edge combat or inside a TF/PF)",
            unit.label
        ),
        rule: "p. 43".into(),
        ruling: Some("R-DBMM-35".into()),
    }
}
