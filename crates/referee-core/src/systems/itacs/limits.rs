//! The once-per-turn limits of a battle in play (4.2, 4.3.1, 4.4, 4.5.4, 5.3.1, 6.2): a resolution knows only
//! its own hexes, so the battle checks its action against the results applied this turn. A hex
//! is the roster entries standing in it (fight.rs: a defending hex is its whole stack; an
//! attacking hex the entries picked in it).
//!
//! A target hex is never attacked twice: refused. A unit attacking twice is refused when its
//! stack is one unit; a stack of several is only warned, because units of one stack may attack
//! different hexes (4.5.4: "two PP units can be stacked in a single hex, and each can attack a
//! different defending hex"; 4.2: "each of the attacker's combat units … may attack one hex").
//! A roster entry moves once a turn (4.3.1, 5.3.1): a move is always of the whole entry, so a
//! second one is refused.

use crate::error::RefereeError;
use crate::state::{BattleState, TurnCombat, UnitId};
use crate::ErrorCode;

/// A limit: the earlier actions this turn that a new action may not repeat on the same units.
struct Limit {
    earlier: &'static [&'static str],
    /// What the earlier result did to the units, in words: "fired on", "attacked".
    done: &'static str,
    /// The rule in its own words.
    words: &'static str,
    rule: &'static str,
    ruling: Option<&'static str>,
    /// Units of one stack may act apart (R-ITACS-35): a stack of several repeating is only
    /// warned. A move takes its whole roster entry, so a second one is refused.
    stack_may_split: bool,
}

const FIRE_ACTIONS: &[&str] = &["missile", "horse_archer_fire"];

/// The limit on the hex attacked (the picked defenders).
fn target_limit(action: &str) -> Option<Limit> {
    Some(match action {
        "missile" => Limit {
            earlier: FIRE_ACTIONS,
            done: "fired on by missiles",
            words: "no hex may be attacked more than once each player turn by missiles",
            rule: "4.2",
            ruling: None,
            stack_may_split: true,
        },
        // 6.2: horse archers fire "in exactly the same way as missile combat".
        "horse_archer_fire" => Limit {
            earlier: FIRE_ACTIONS,
            done: "fired on by missiles",
            words: "no hex may be attacked more than once each player turn by missiles, horse archers' fire after movement included",
            rule: "4.2, 6.2",
            ruling: Some("R-ITACS-34"),
            stack_may_split: true,
        },
        // 4.4: the defenders firing on one attacking hex add their strengths, "the same as for
        // regular missile combat".
        "defensive_fire" => Limit {
            earlier: &["defensive_fire"],
            done: "fired on in defensive fire",
            words: "all the defending units firing on one attacking hex fire together, once, as in missile combat",
            rule: "4.4, 4.2",
            ruling: Some("R-ITACS-34"),
            stack_may_split: true,
        },
        "melee" => Limit {
            earlier: &["melee"],
            done: "attacked in melee",
            words: "each defending hex may only be subject to one melee combat each game turn",
            rule: "4.5.4",
            ruling: None,
            stack_may_split: true,
        },
        _ => return None,
    })
}

/// The limits on the units attacking (the picked attackers), each with the rule it rests on.
fn attacker_limits(action: &str) -> Vec<Limit> {
    match action {
        "missile" => vec![Limit {
            earlier: FIRE_ACTIONS,
            done: "fired",
            words: "each unit with missiles may attack one hex, and no unit may attack units in more than one hex",
            rule: "4.2",
            ruling: None,
            stack_may_split: true,
        }],
        "horse_archer_fire" => vec![
            Limit {
                earlier: FIRE_ACTIONS,
                done: "fired",
                words: "horse archers that have fired may not fire again after movement: they do so once per turn",
                rule: "6.2",
                ruling: None,
                stack_may_split: true,
            },
            Limit {
                earlier: &["melee"],
                done: "attacked in melee",
                words: "horse archers fire after movement instead of melee combat",
                rule: "6.2",
                ruling: None,
                stack_may_split: true,
            },
        ],
        "defensive_fire" => vec![Limit {
            earlier: &["defensive_fire"],
            done: "fired in defensive fire",
            words: "defensive fire is resolved as missile combat, where no unit may attack units in more than one hex",
            rule: "4.4, 4.2",
            ruling: Some("R-ITACS-34"),
            stack_may_split: true,
        }],
        "melee" => vec![
            Limit {
                earlier: &["melee"],
                done: "attacked",
                words: "each attacking unit may only attack once per game turn",
                rule: "4.5.4",
                ruling: None,
                stack_may_split: true,
            },
            Limit {
                earlier: &["horse_archer_fire"],
                done: "fired after movement",
                words: "horse archers fire after movement instead of melee combat",
                rule: "6.2",
                ruling: None,
                stack_may_split: true,
            },
        ],
        // 4.3.1: "the unit may use up to but not more than the number of movement points that
        // the unit has", in its movement phase; a routing unit "must make a rout move during
        // that movement phase" (5.3.1) — one move, whatever its kind.
        "move" => vec![Limit {
            earlier: &["move"],
            done: "moved",
            words: "a unit uses its movement points once, in its movement phase",
            rule: "4.3.1, 5.3.1",
            ruling: None,
            stack_may_split: false,
        }],
        _ => Vec::new(),
    }
}

/// Checks `action` with these attackers and defenders against the results applied this turn:
/// a refusal (`battle.once_per_turn`), or the warnings for stacks that may split (R-ITACS-35).
pub fn check(
    state: &BattleState,
    action: &str,
    attackers: &[UnitId],
    defenders: &[UnitId],
) -> Result<Vec<String>, RefereeError> {
    let mut warnings = Vec::new();
    if let Some(limit) = target_limit(action) {
        let again = repeated(state, &limit, defenders, |c| &c.defenders);
        if !again.is_empty() {
            return Err(refusal(
                format!(
                    "{} {} already {} this turn: {}. Undo that result first, or pick another target",
                    names(state, &again),
                    if again.len() == 1 { "was" } else { "were" },
                    limit.done,
                    limit.words
                ),
                "defenders",
                &limit,
            ));
        }
    }
    for limit in attacker_limits(action) {
        for id in repeated(state, &limit, attackers, |c| &c.attackers) {
            let Some(unit) = state.units.get(&id) else {
                continue;
            };
            if limit.stack_may_split && unit.strength > 1 {
                warnings.push(format!(
                    "{} already {} this turn ({}): only units of its stack that have not yet done so may attack now — set its count to them (R-ITACS-35).",
                    unit.named(),
                    limit.done,
                    limit.rule
                ));
            } else {
                return Err(refusal(
                    format!(
                        "{} already {} this turn: {}. Undo that result first, or pick another unit",
                        unit.named(),
                        limit.done,
                        limit.words
                    ),
                    "attackers",
                    &limit,
                ));
            }
        }
    }
    Ok(warnings)
}

/// The units of `picked` that an earlier result of the limit's actions this turn already took
/// on the same side.
fn repeated(
    state: &BattleState,
    limit: &Limit,
    picked: &[UnitId],
    side: impl Fn(&TurnCombat) -> &Vec<UnitId>,
) -> Vec<UnitId> {
    picked
        .iter()
        .copied()
        .filter(|id| {
            state
                .this_turn
                .iter()
                .filter(|c| limit.earlier.contains(&c.action.as_str()))
                .any(|c| side(c).contains(id))
        })
        .collect()
}

fn names(state: &BattleState, ids: &[UnitId]) -> String {
    let names: Vec<String> = ids
        .iter()
        .map(|id| {
            state
                .units
                .get(id)
                .map_or_else(|| format!("Unit #{id}"), |u| u.named())
        })
        .collect();
    names.join(" and ")
}

fn refusal(message: String, field: &str, limit: &Limit) -> RefereeError {
    let e = RefereeError::new(ErrorCode::BattleOncePerTurn, message)
        .field(field)
        .rule(limit.rule);
    match limit.ruling {
        Some(r) => e.ruling(r),
        None => e,
    }
}
