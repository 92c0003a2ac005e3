//! GTS combats opened from the roster: each picked unit with the stands it has left, its hits,
//! Disorder and rout (2.11, 3.32, 6.13), named as on the roster, with the leader attached to it
//! (1.5–1.6) and the escort stand running with it (3.16) read from their own rows.

use super::checks::{CommandSituation, ResponseSituation};
use super::fire::FireSituation;
use super::interpenetration::{DisorderedOne, InterpenetrationSituation, Passage};
use super::leader::{escort_of, leader_of, valour_now, GtsLeader, COMMAND_POINTS};
use super::melee::{LeaderCondition, MeleeSituation, MeleeUnit};
use super::movement::MovementSituation;
use super::roster::{GtsUnit, INTERPENETRATION, MOVEMENT, RALLY_TEST};
use super::units::UnitEntry;
use std::collections::BTreeMap;

use crate::contract::{target_key, Target};
use crate::error::{and_list, RefereeError};
use crate::rule_system::fight::{not_a_combat, one_each, targets, Fighter, Labels, Opening, Sides};
use crate::rule_system::{Choice, ChoiceList};
use crate::state::{BattleState, LeaderFate, UnitState};
use crate::ErrorCode;

pub fn open(action: &str, sides: &Sides<GtsUnit>) -> Result<Opening, RefereeError> {
    let state = sides.state;
    // An escort stand fights with its elephant or chariot, not as a unit of its own (3.163,
    // 3.164): picked as a target or into a melee, the elephant or chariot is picked instead. It
    // fires on its own (3.163).
    let firing = action == "fire";
    for (i, f) in sides.attackers.iter().chain(&sides.defenders).enumerate() {
        if firing && i < sides.attackers.len() {
            continue;
        }
        if let Some(with) = &f.own.escorts {
            return Err(RefereeError::new(
                ErrorCode::FightNotAUnit,
                format!(
                    "{} is the escort of {with}: pick {with} instead — the escort comes in with it.",
                    f.unit.label
                ),
            )
            .rule(if firing { "3.163" } else { "3.164" }));
        }
    }
    let mut mapped = targets(sides, Labels::Units);
    // The leaders and escort stands linked to the picked units on the roster (1.5, 3.16) come
    // in with them, and their results land on their own rows.
    for f in sides.attackers.iter().chain(&sides.defenders) {
        if let Some((row, _)) = leader_of(state, f.unit) {
            mapped.insert(target_key(&Target::Unit(row.label.clone())), vec![row.id]);
        }
        if let Some((row, _)) = escort_of(state, f.unit) {
            mapped.insert(target_key(&Target::Unit(row.label.clone())), vec![row.id]);
        }
    }
    match action {
        "melee" | "recoil" | "melee_round" => {
            let side = |fighters: &[Fighter<GtsUnit>]| -> Vec<MeleeUnit> {
                fighters.iter().map(|f| melee_unit(state, f)).collect()
            };
            let (choices, labels) = melee_words(sides);
            Opening::new(
                &MeleeSituation {
                    side_a: side(&sides.attackers),
                    side_b: side(&sides.defenders),
                    ..MeleeSituation::default()
                },
                mapped,
                vec![
                    "Tick flanked, flanking and elevation for each unit, and the first turn of this combat (2.14, 7.1); if the attackers charged this turn, say so, and tick any unit touching rough terrain (4.43, 4.47, 4.54).".into(),
                ],
            )
            .map(|o| o.worded(choices, labels))
        }
        "fire" => {
            if sides.attackers.len() > 1 || sides.defenders.len() > 1 {
                return Err(one_each(
                    "A fire event is one unit firing at one unit",
                    "5.5",
                ));
            }
            let (firer, target) = (&sides.attackers[0], &sides.defenders[0]);
            let leader = attached_leader(state, target.unit, target.own);
            Opening::new(
                &FireSituation {
                    firer: unit(firer),
                    target: unit(target),
                    range: 1.0,
                    // The target's leader from the roster, while he is in play (1.6, 1.9).
                    target_leader_pv: leader.as_ref().and_then(|l| l.valour).unwrap_or(0),
                    target_leader: leader.as_ref().is_some_and(|l| l.valour.is_some()),
                    target_leader_name: leader.and_then(|l| l.name),
                    // A runner or escort stand fires from its elephant or chariot (3.163).
                    escort: firer.own.escorts.is_some(),
                    target_escort: escort_of(state, target.unit)
                        .map(|(row, own)| own.now(row, &row.label)),
                    ..FireSituation::default()
                },
                mapped,
                vec!["Set the range in inches and the target's cover and elevation (5.0).".into()],
            )
        }
        _ => Err(not_a_combat(action)),
    }
}

/// A routed unit's rally opened from its roster row (3.33): the response test's rally with the
/// unit as it is now, its leader's valour as it counts now from his own row (1.6, R-GTS-25,
/// R-GTS-32) and Table 1.10 result 8's −1 when the unit carries it (R-GTS-25).
pub fn open_unit(
    action: &str,
    state: &BattleState,
    unit: &UnitState,
) -> Result<Opening, RefereeError> {
    if let (Some(leader), COMMAND_POINTS) = (unit.detail::<GtsLeader>(), action) {
        return command_points(unit, leader);
    }
    // A general entered with his guard rolls his from his own row too (R-GTS-40).
    if let (Some(general), COMMAND_POINTS) = (
        unit.detail::<GtsUnit>().and_then(|o| o.general.as_ref()),
        action,
    ) {
        return command_points(unit, general);
    }
    let own = match unit.detail::<GtsUnit>() {
        Some(own) if action == MOVEMENT => {
            // The move measured from the row: the unit as it is now, its Reserve (3.31).
            let situation = MovementSituation {
                unit: own.now(unit, &unit.label),
                clear_inches: 0.0,
                rough_inches: 0.0,
                road_inches: 0.0,
                sidestep_inches: 0.0,
                withdrawal: false,
                formation_change: false,
                in_reserve: own.reserve,
            };
            let targets =
                BTreeMap::from([(target_key(&Target::Unit(unit.label.clone())), vec![unit.id])]);
            return Opening::new(&situation, targets, Vec::new());
        }
        Some(own) if action == INTERPENETRATION => return interpenetration(state, unit, own),
        Some(own) if action == RALLY_TEST => own,
        _ => return Err(not_a_combat(action)),
    };
    if !own.rout {
        return Err(RefereeError::new(
            ErrorCode::SituationNotRouted,
            format!("{} is not Routed: only a routed unit rallies.", unit.label),
        )
        .rule("3.33"));
    }
    let leader = attached_leader(state, unit, own);
    let situation = ResponseSituation {
        test: "rally".into(),
        unit: own.now(unit, &unit.label),
        leader_pv: leader.and_then(|l| l.valour).unwrap_or(0),
        near_formed_enemy: false,
        near_fallen_leader: own.near_fallen_leader,
    };
    let targets = BTreeMap::from([(target_key(&Target::Unit(unit.label.clone())), vec![unit.id])]);
    Opening::new(&situation, targets, Vec::new())
}

/// A unit passing through a friend, opened from its row (4.7): the friend picked from the army's
/// other units on the roster, each as it is now, their results landing on their own rows.
fn interpenetration(
    state: &BattleState,
    unit: &UnitState,
    own: &GtsUnit,
) -> Result<Opening, RefereeError> {
    let friends: BTreeMap<String, (UnitState, UnitEntry)> = state
        .units
        .values()
        .filter(|u| u.side == unit.side && u.id != unit.id && !u.lost)
        .filter_map(|u| {
            let theirs = u.detail::<GtsUnit>()?;
            (!theirs.off_table && theirs.escorts.is_none())
                .then(|| (u.label.clone(), (u.clone(), theirs.now(u, &u.label))))
        })
        .collect();
    let Some(first) = friends.keys().next().cloned() else {
        return Err(RefereeError::new(
            ErrorCode::FightNotAUnit,
            format!("{} has no friend on the table to pass through.", unit.label),
        )
        .rule("4.7"));
    };
    let mut targets =
        BTreeMap::from([(target_key(&Target::Unit(unit.label.clone())), vec![unit.id])]);
    for (label, (row, _)) in &friends {
        targets.insert(target_key(&Target::Unit(label.clone())), vec![row.id]);
    }
    let choices = vec![
        ChoiceList {
            field: "through".into(),
            options: friends
                .keys()
                .map(|label| Choice {
                    key: label.clone(),
                    label: label.clone(),
                })
                .collect(),
        },
        ChoiceList {
            field: "passage".into(),
            options: Passage::ALL
                .iter()
                .map(|p| Choice {
                    key: serde_json::to_value(p)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    label: p.words().into(),
                })
                .collect(),
        },
        ChoiceList {
            field: "without_gap".into(),
            options: vec![
                Choice {
                    key: "moving".into(),
                    label: unit.label.clone(),
                },
                Choice {
                    key: "passed_through".into(),
                    label: "The unit passed through".into(),
                },
            ],
        },
    ];
    let labels = BTreeMap::from([
        (
            "through".to_string(),
            format!("The friend {} passes through", unit.label),
        ),
        ("passage".to_string(), "How it passes".to_string()),
        ("gap".to_string(), "A gap of one stand".to_string()),
        (
            "without_gap".to_string(),
            "Without a gap, Disordered".to_string(),
        ),
    ]);
    let situation = InterpenetrationSituation {
        unit: own.now(unit, &unit.label),
        through: first,
        // A routed unit passes as a rout (4.31).
        passage: if own.rout {
            Passage::Rout
        } else {
            Passage::Movement
        },
        gap: false,
        without_gap: DisorderedOne::Moving,
        friends: friends.into_iter().map(|(k, (_, e))| (k, e)).collect(),
    };
    Opening::new(&situation, targets, Vec::new()).map(|o| o.worded(choices, labels))
}

/// A general's command points opened from his row: his PC and TS, the points landing on him
/// (1.2).
fn command_points(unit: &UnitState, leader: &GtsLeader) -> Result<Opening, RefereeError> {
    let (Some(pc), Some(ts)) = (leader.pc, &leader.ts) else {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRating,
            format!(
                "{}'s row gives no command rating and tactical skill: enter them on his row first.",
                unit.label
            ),
        )
        .rule("1.2"));
    };
    let situation = CommandSituation {
        pc: pc.clamp(1, 5) as u32,
        ts: ts.clone(),
        wing_without_army_point: false,
        leader: Some(unit.label.clone()),
    };
    let targets = BTreeMap::from([(target_key(&Target::Unit(unit.label.clone())), vec![unit.id])]);
    Opening::new(&situation, targets, Vec::new())
}

/// The melee's fields in the picked units' names (R-GTS-35): the unit whose modifiers count for
/// a side of several (6.12), picked by its name; and "who charged" — the attackers, having moved
/// into contact this turn (4.43, 4.45, 4.47, 4.54).
fn melee_words(sides: &Sides<GtsUnit>) -> (Vec<ChoiceList>, BTreeMap<String, String>) {
    let names = |fighters: &[Fighter<GtsUnit>]| {
        fighters.iter().map(|f| f.label.clone()).collect::<Vec<_>>()
    };
    let mut choices = Vec::new();
    let mut labels = BTreeMap::new();
    for (field, fighters) in [
        ("modifying_a", &sides.attackers),
        ("modifying_b", &sides.defenders),
    ] {
        let Some(first) = fighters.first().filter(|_| fighters.len() > 1) else {
            continue;
        };
        choices.push(ChoiceList {
            field: field.into(),
            options: names(fighters.as_slice())
                .into_iter()
                .enumerate()
                .map(|(i, label)| Choice {
                    key: i.to_string(),
                    label,
                })
                .collect(),
        });
        labels.insert(
            field.into(),
            format!("{}: the unit whose modifiers count", first.unit.side),
        );
    }
    // Each side of the melee by its army's name, not "Side A" (R-GTS-35).
    for (field, fighters) in [("side_a", &sides.attackers), ("side_b", &sides.defenders)] {
        if let Some(f) = fighters.first() {
            labels.insert(field.into(), f.unit.side.clone());
        }
    }
    let chargers = names(&sides.attackers);
    let chargers: Vec<&str> = chargers.iter().map(String::as_str).collect();
    labels.insert(
        "contact".into(),
        format!("Who charged: {} (contact this turn)", and_list(&chargers)),
    );
    (choices, labels)
}

/// A unit's attached leader as he fights now: his valour (none while out of play) and, when he
/// has a row of his own, the name his fate lands on.
struct Attached {
    valour: Option<i64>,
    name: Option<String>,
    fate: Option<LeaderFate>,
    wounds: u32,
    pv: Option<i64>,
}

/// The leader attached to a unit: his own row linked to it (1.5), or else a leader entered on the
/// unit's row (battles recorded before leaders had rows of their own).
fn attached_leader(state: &BattleState, unit: &UnitState, own: &GtsUnit) -> Option<Attached> {
    if let Some((row, leader)) = leader_of(state, unit) {
        return Some(Attached {
            valour: valour_now(row, leader.pv),
            name: Some(row.label.clone()),
            fate: row.leader,
            wounds: row.leader_wounds,
            pv: leader.pv.or(Some(0)),
        });
    }
    // A general entered with his guard fights with it, unless he leads another unit from the
    // front (1.5, R-GTS-43): then his guard fights without him.
    if let Some(general) = &own.general {
        if general.leads.is_some() || general.pv.is_none() {
            return None;
        }
        return Some(Attached {
            valour: valour_now(unit, general.pv),
            name: None,
            fate: unit.leader,
            wounds: unit.leader_wounds,
            pv: general.pv,
        });
    }
    let pv = own.leader_pv?;
    Some(Attached {
        valour: valour_now(unit, Some(pv)),
        name: None,
        fate: unit.leader,
        wounds: unit.leader_wounds,
        pv: Some(pv),
    })
}

/// A unit in a melee with what the roster keeps of its leader (Table 1.10, R-GTS-25): his
/// state until the turn ends, his wounds, and result 8's −1 within 6" of a fallen leader; and
/// the escort stand running with it (3.164).
fn melee_unit(state: &BattleState, f: &Fighter<GtsUnit>) -> MeleeUnit {
    let leader = attached_leader(state, f.unit, f.own);
    // Without a leader of its own row, what befell a leader entered on the unit's row.
    let (fate, wounds) = match &leader {
        Some(l) => (l.fate, l.wounds),
        None => (f.unit.leader, f.unit.leader_wounds),
    };
    MeleeUnit {
        unit: unit(f),
        leader_condition: fate.map(|l| match l {
            LeaderFate::Dazed => LeaderCondition::Dazed,
            LeaderFate::Unhorsed => LeaderCondition::Unhorsed,
            LeaderFate::SeriouslyWounded => LeaderCondition::SeriouslyWounded,
            LeaderFate::PassedOut => LeaderCondition::PassedOut,
            LeaderFate::Killed => LeaderCondition::Killed,
            LeaderFate::Captured => LeaderCondition::Captured,
        }),
        leader_wounds: wounds,
        // The leader attached on the roster (1.6): his valour without retyping it.
        leader_pv: leader.as_ref().and_then(|l| l.pv),
        leader_name: leader.and_then(|l| l.name),
        near_fallen_leader: f.own.near_fallen_leader,
        // A bonus used in an earlier combat is not used again (2.14).
        first_turn_spent: f.own.first_turn_spent,
        escort: escort_of(state, f.unit).map(|(row, own)| own.now(row, &row.label)),
        ..MeleeUnit::default()
    }
}

/// The unit now, named as the roster names it so its effects find it.
fn unit(f: &Fighter<GtsUnit>) -> UnitEntry {
    f.own.now(f.unit, &f.label)
}
