//! A square on the roster (2.6.1): formed by hand from one entry of 4 identical SD, PS or PP
//! units alone in their hex (R-ITACS-43); ended in the same event by the result that disrupts it
//! or costs it a unit, its hex then marked to restack at its next movement while it holds more
//! units than the stacking limit; the mark cleared once the hex is within it.

use super::data::ItacsData;
use super::roster::ItacsUnit;
use crate::contract::Change;
use crate::error::RefereeError;
use crate::rule_system::form::hex_key;
use crate::rule_system::{FollowOn, Onto};
use crate::state::{BattleState, UnitState};
use crate::ErrorCode;

/// The mark on a broken square's row, in the rules' words.
pub const MUST_RESTACK: &str =
    "broken square: must restack to the stacking limit at its next movement (2.6.1)";

const RULE: &str = "2.6.1";
const RULING: &str = "R-ITACS-43";

/// Whether the entry's type is one that forms squares (SD, PS, PP: the ruleset's list).
pub fn forms_squares(data: &ItacsData, unit_type: Option<&str>) -> bool {
    unit_type.is_some_and(|t| data.melee.square_types.iter().any(|s| s == t))
}

/// Whether the row offers "Form square": 4 units of a type that forms squares, not disrupted,
/// not under a Break or Rout marker.
/// The hex holding nothing else is checked as the change lands (`refuse_forming`).
pub fn may_form(unit: &UnitState, own: &ItacsUnit) -> bool {
    why_not(unit, own).is_none()
}

fn why_not(unit: &UnitState, own: &ItacsUnit) -> Option<String> {
    if unit.lost || unit.strength == 0 {
        Some(format!("{} is off the map", unit.named()))
    } else if !own.may_square {
        Some("only SD, PS and PP units may form a square".into())
    } else if unit.strength != 4 {
        Some(format!(
            "a square is 4 identical units, and {} has {}",
            unit.named(),
            unit.strength
        ))
    } else if own.d_markers > 0 {
        Some("squares form only from units that are not disrupted".into())
    } else if own.broken || own.rout {
        // A stack under a Break or Rout marker makes a rout move, not a formation (5.2, 5.3).
        Some(
            "a stack under a Break or Rout marker makes its rout move; it cannot form a square"
                .into(),
        )
    } else {
        None
    }
}

/// Forming a square refused: the entry cannot, or its hex holds other units besides leaders (a
/// square is the 4 units in the hex, and a leader may stack with it).
pub fn refuse_forming(
    state: &BattleState,
    unit: &UnitState,
    own: &ItacsUnit,
) -> Option<RefereeError> {
    let refused = |why: String| {
        Some(
            RefereeError::new(
                ErrorCode::SituationInvalidSquare,
                format!("{} cannot form a square: {why}", unit.named()),
            )
            .rule(RULE)
            .ruling(RULING),
        )
    };
    if let Some(why) = why_not(unit, own) {
        return refused(why);
    }
    let others: Vec<String> = stack_of(state, unit, own)
        .into_iter()
        .filter(|u| u.id != unit.id)
        .map(UnitState::named)
        .collect();
    if others.is_empty() {
        return None;
    }
    let names: Vec<&str> = others.iter().map(String::as_str).collect();
    refused(format!(
        "its hex also holds {}; a square is 4 identical units alone in their hex (a leader may stack with it)",
        crate::error::and_list(&names)
    ))
}

/// The units standing in the entry's hex with it, leaders apart (itself included).
fn stack_of<'a>(state: &'a BattleState, unit: &UnitState, own: &ItacsUnit) -> Vec<&'a UnitState> {
    let Some(here) = own.hex.as_deref().map(hex_key) else {
        return state.units.get(&unit.id).into_iter().collect();
    };
    state
        .units
        .values()
        .filter(|u| !u.lost && u.strength > 0)
        .filter(|u| {
            u.detail::<ItacsUnit>()
                .and_then(|o| o.hex.as_deref())
                .is_some_and(|h| hex_key(h) == here)
        })
        .collect()
}

/// The units of the entry's hex against its side's stacking limit (the scenario's, else 3, 4.3.3).
fn over_the_limit(
    data: &ItacsData,
    state: &BattleState,
    unit: &UnitState,
    own: &ItacsUnit,
) -> bool {
    let limit = state
        .sides
        .iter()
        .find(|s| s.name == unit.side)
        .and_then(|s| s.stacking_limit)
        .unwrap_or(data.movement.stacking_limit);
    let units: u32 = stack_of(state, unit, own)
        .iter()
        .filter(|u| u.side == unit.side)
        .map(|u| u.strength)
        .sum();
    units > limit
}

/// What a result brings about for squares: a square it disrupted or cost a unit is no longer one,
/// marked to restack while over the stacking limit; a marked hex now within the limit is cleared.
pub fn follow_on(data: &ItacsData, before: &BattleState, after: &BattleState) -> Vec<FollowOn> {
    let mut out = Vec::new();
    for unit in after.units.values() {
        let Some(own) = unit.detail::<ItacsUnit>() else {
            continue;
        };
        let was = before
            .units
            .get(&unit.id)
            .and_then(|u| Some((u, u.detail::<ItacsUnit>()?)));
        let follow = |change: Change, text: String| FollowOn {
            onto: Onto::Unit(unit.id),
            change,
            text,
            rule: RULE.into(),
            ruling: Some(RULING.into()),
        };
        if let Some((before_unit, before_own)) = was.filter(|(_, b)| b.square && own.square) {
            let disrupted = own.d_markers > before_own.d_markers;
            let lost = unit.strength < before_unit.strength || unit.lost;
            if disrupted || lost {
                let why = if lost {
                    "it lost units"
                } else {
                    "it is disrupted"
                };
                out.push(follow(
                    Change::Square { formed: false },
                    format!("{}: no longer a square, {why}", unit.label),
                ));
                if !unit.lost && over_the_limit(data, after, unit, own) {
                    out.push(follow(
                        Change::MustRestack { needed: true },
                        format!("{}: {MUST_RESTACK}", unit.label),
                    ));
                }
                continue;
            }
        }
        if own.must_restack && (unit.lost || !over_the_limit(data, after, unit, own)) {
            out.push(follow(
                Change::MustRestack { needed: false },
                format!("{}: restacked, within the stacking limit", unit.label),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
