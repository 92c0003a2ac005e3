//! From a resolution's effects to concrete changes on roster units, with the choices the rules
//! leave to the players asked for explicitly.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::event::{AppliedChange, Subject};
use crate::contract::{effect, Change, Chooser, Effect, Target};
use crate::error::RefereeError;
use crate::state::{BattleState, UnitId};
use crate::ErrorCode;

/// Which roster units each effect target is, and the players' choices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Mapping {
    /// Effect target (attacker, defender, hex:<label>, unit:<label>) → unit ids. An
    /// empty list says the target is not on the roster and its effects are skipped.
    #[serde(default)]
    pub targets: BTreeMap<String, Vec<UnitId>>,
    /// Effect index (as a string) → the units that take each loss, one id per unit or SP lost.
    #[serde(default)]
    pub choices: BTreeMap<String, Vec<UnitId>>,
    /// A move of one entry: how many of its units move, the others staying where they are (the
    /// ones moving become an entry of their own). None: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub units_moving: Option<u32>,
}

pub use crate::contract::target_key;

fn chooser(c: Chooser) -> &'static str {
    match c {
        Chooser::Attacker => "attacker",
        Chooser::Defender => "defender",
    }
}

/// The concrete changes a resolution's effects make, given the mapping. Every target must be
/// mapped (or named by a unique label); every loss spread over more than one unit needs the
/// choosing player's answer.
pub fn changes_for(
    state: &BattleState,
    effects: &[Effect],
    mapping: &Mapping,
) -> Result<Vec<AppliedChange>, RefereeError> {
    let mut out = Vec::new();
    for (i, e) in effects.iter().enumerate() {
        if left_off(&e.target, mapping) {
            continue;
        }
        if let Target::Army(_) | Target::Battle = &e.target {
            let side = match &e.target {
                Target::Army(side) => side.as_str(),
                // The battle's own change lands through its first side.
                _ => "A",
            };
            out.push(AppliedChange {
                subject: Subject::Side(side_name(state, side)?),
                change: e.change.clone(),
                text: e.text.clone(),
                rule: e.rule.clone(),
                ruling: e.ruling.clone(),
                follow_on: false,
            });
            continue;
        }
        if let Target::EnemyOf(label) = &e.target {
            let side = enemy_of(state, label, mapping)?;
            out.push(AppliedChange {
                subject: Subject::Side(side),
                change: e.change.clone(),
                text: e.text.clone(),
                rule: e.rule.clone(),
                ruling: e.ruling.clone(),
                follow_on: false,
            });
            continue;
        }
        if let Target::Within { of, inches } = &e.target {
            // The players' choice (the map is theirs): each unit picked takes the whole change.
            for id in picked_within(state, e, i, of, *inches, mapping)? {
                out.push(concrete(state, id, e.change.clone(), e));
            }
            continue;
        }
        if let Target::Command(_) | Target::SideOf(_) = &e.target {
            // Each unit of the command or side takes the whole change (8.1.4, 8.1.5), but for
            // those this result already takes off the table.
            for id in followers(state, &e.target, mapping)? {
                if !taken_off(state, &out, id) {
                    out.push(concrete(state, id, e.change.clone(), e));
                }
            }
            continue;
        }
        let key = target_key(&e.target);
        let ids = units_of(state, &e.target, &key, mapping)?;
        for id in &ids {
            live(state, *id, &format!("targets.{key}"))?;
        }
        let spread = match e.change {
            Change::LoseUnits { count, chosen_by } | Change::LoseSp { count, chosen_by } => {
                Some((count, chosen_by))
            }
            _ => None,
        };
        match spread {
            Some((count, chosen_by)) if ids.len() > 1 => {
                let field = format!("choices.{i}");
                let picked = mapping.choices.get(&i.to_string()).ok_or_else(|| {
                    RefereeError::new(
                        ErrorCode::BattleChoiceNeeded,
                        format!(
                            "{}: the {} chooses which of {} take {}: pick the units that take them",
                            e.text,
                            chooser(chosen_by),
                            names(state, &ids),
                            if count == 1 {
                                "the loss".to_string()
                            } else {
                                format!("the {count} losses")
                            }
                        ),
                    )
                    .field(field.clone())
                    .rule(&e.rule)
                })?;
                if picked.len() != count as usize || picked.iter().any(|p| !ids.contains(p)) {
                    return Err(RefereeError::new(
                        ErrorCode::BattleChoiceNeeded,
                        format!(
                            "choose exactly {} among {}",
                            crate::error::counted(i64::from(count), "loss", "losses"),
                            names(state, &ids)
                        ),
                    )
                    .field(field)
                    .rule(&e.rule));
                }
                let mut per_unit: BTreeMap<UnitId, u32> = BTreeMap::new();
                for p in picked {
                    *per_unit.entry(*p).or_default() += 1;
                }
                for (id, n) in per_unit {
                    let change = match e.change {
                        Change::LoseUnits { .. } => Change::LoseUnits {
                            count: n,
                            chosen_by,
                        },
                        _ => Change::LoseSp {
                            count: n,
                            chosen_by,
                        },
                    };
                    out.push(concrete(state, id, change, e));
                }
            }
            _ => {
                for id in ids {
                    out.push(concrete(state, id, e.change.clone(), e));
                }
            }
        }
    }
    Ok(out)
}

/// Whether the changes made so far take the unit off the table: its strength gone (a leader's
/// death after the combat that eliminated his own stack costs that stack nothing more).
fn taken_off(state: &BattleState, made: &[AppliedChange], id: UnitId) -> bool {
    let Some(unit) = state.units.get(&id) else {
        return false;
    };
    let mut left = unit.strength;
    for c in made.iter().filter(|c| c.subject == Subject::Unit(id)) {
        match c.change {
            Change::LoseSp { count, .. } | Change::LoseUnits { count, .. } => {
                left = left.saturating_sub(count)
            }
            Change::DestroyAll => left = 0,
            _ => {}
        }
    }
    unit.starting > 0 && left == 0
}

fn concrete(state: &BattleState, id: UnitId, change: Change, e: &Effect) -> AppliedChange {
    let label = state
        .units
        .get(&id)
        .map_or_else(|| format!("#{id}"), |u| u.label.clone());
    AppliedChange {
        subject: Subject::Unit(id),
        text: effect(Target::Unit(label), change.clone(), &e.rule, None).text,
        change,
        rule: e.rule.clone(),
        ruling: e.ruling.clone(),
        follow_on: false,
    }
}

/// A manual adjustment of one unit, as a change with its plain words.
pub fn adjustment(
    state: &BattleState,
    subject: Subject,
    change: Change,
    rule: &str,
) -> Result<AppliedChange, RefereeError> {
    let who = match &subject {
        Subject::Unit(id) => {
            state.units.get(id).ok_or_else(|| gone(*id, "unit"))?;
            Target::Unit(state.units[id].label.clone())
        }
        Subject::Side(s) => Target::Army(side_name(state, s)?),
    };
    let subject = match subject {
        Subject::Side(s) => Subject::Side(side_name(state, &s)?),
        other => other,
    };
    let worded = effect(who, change.clone(), rule, None);
    // A side's change by hand is said by the side's name, as the umpire named it on the
    // standing ("Romans: retreats at dusk …"), not as a result's target ("Army Romans").
    let text = match &subject {
        Subject::Side(name) => format!("{name}: {}", worded.what),
        Subject::Unit(_) => worded.text,
    };
    Ok(AppliedChange {
        subject,
        text,
        change,
        rule: rule.to_string(),
        ruling: None,
        follow_on: false,
    })
}

/// A side by name; Medieval's players A and B are the first and second side.
fn side_name(state: &BattleState, side: &str) -> Result<String, RefereeError> {
    if state.side_index(side).is_some() {
        return Ok(side.to_string());
    }
    let by_player = match side {
        "A" => state.sides.first(),
        "B" => state.sides.get(1),
        _ => None,
    };
    by_player
        .map(|s| s.name.clone())
        .ok_or_else(|| state.unknown_side(side, "side"))
}

fn units_of(
    state: &BattleState,
    target: &Target,
    key: &str,
    mapping: &Mapping,
) -> Result<Vec<UnitId>, RefereeError> {
    if let Some(ids) = mapping.targets.get(key) {
        return Ok(ids.clone());
    }
    if let Target::Unit(label) = target {
        let found: Vec<UnitId> = state
            .units
            .values()
            .filter(|u| &u.label == label && !u.lost)
            .map(|u| u.id)
            .collect();
        if found.len() == 1 {
            return Ok(found);
        }
    }
    Err(RefereeError::new(
        ErrorCode::BattleTargetUnmapped,
        format!("which roster units are “{key}”? Give their ids, or [] if none is on the roster"),
    )
    .field(format!("targets.{key}")))
}

/// The leader or unit a relative target names, as mapped (or by its unique label).
fn anchor<'s>(
    state: &'s BattleState,
    label: &str,
    mapping: &Mapping,
) -> Result<&'s crate::state::UnitState, RefereeError> {
    let key = target_key(&Target::Unit(label.to_string()));
    let ids = units_of(state, &Target::Unit(label.to_string()), &key, mapping)?;
    let first = ids
        .first()
        .and_then(|id| state.units.get(id))
        .ok_or_else(|| {
            RefereeError::new(
                ErrorCode::BattleTargetUnmapped,
                format!("Pick the {label} on the roster: the result lands on his side from him."),
            )
            .field(format!("targets.{key}"))
        })?;
    if let Some(other) = ids
        .iter()
        .filter_map(|id| state.units.get(id))
        .find(|u| u.side != first.side)
    {
        return Err(RefereeError::new(
            ErrorCode::BattleMixedSides,
            format!(
                "{} is of {} and {} of {}: the {label} is of one side.",
                first.named(),
                first.side,
                other.named(),
                other.side
            ),
        )
        .field(format!("targets.{key}")));
    }
    Ok(first)
}

/// A change relative to a leader or unit (his side, his command, the enemy facing him) whose
/// anchor the umpire mapped to no roster unit ("not on the roster"): left out with him, as the
/// units' own changes are, unless the units it lands on are given themselves.
fn left_off(target: &Target, mapping: &Mapping) -> bool {
    let (Target::EnemyOf(label) | Target::Command(label) | Target::SideOf(label)) = target else {
        return false;
    };
    let anchor = target_key(&Target::Unit(label.clone()));
    mapping.targets.get(&anchor).is_some_and(Vec::is_empty)
        && !mapping.targets.contains_key(&target_key(target))
}

/// The side facing the leader or unit named.
fn enemy_of(state: &BattleState, label: &str, mapping: &Mapping) -> Result<String, RefereeError> {
    let own = &anchor(state, label, mapping)?.side;
    state
        .sides
        .iter()
        .find(|s| &s.name != own)
        .map(|s| s.name.clone())
        .ok_or_else(|| state.unknown_side(own, "subject"))
}

/// The units on the table a leader's command or side is: given in the mapping, or those of his
/// side (and command) on the roster, leaders apart.
fn followers(
    state: &BattleState,
    target: &Target,
    mapping: &Mapping,
) -> Result<Vec<UnitId>, RefereeError> {
    let key = target_key(target);
    if let Some(ids) = mapping.targets.get(&key) {
        for id in ids {
            live(state, *id, &format!("targets.{key}"))?;
        }
        return Ok(ids.clone());
    }
    let (Target::Command(label) | Target::SideOf(label)) = target else {
        return Ok(Vec::new());
    };
    let leader = anchor(state, label, mapping)?;
    let command = match target {
        Target::Command(_) => Some(leader.command.clone().ok_or_else(|| {
            RefereeError::new(
                ErrorCode::BattleNoCommand,
                format!(
                    "{} has no command on the roster: give him and his units their command, or pick the units under his command.",
                    leader.named()
                ),
            )
            .field(format!("targets.{key}"))
        })?),
        _ => None,
    };
    Ok(state
        .units
        .values()
        .filter(|u| {
            u.role == crate::state::Role::Unit
                && !u.lost
                && u.side == leader.side
                && u.id != leader.id
                && command
                    .as_ref()
                    .is_none_or(|c| u.command.as_ref() == Some(c))
        })
        .map(|u| u.id)
        .collect())
}

/// The units the players picked as standing within `inches` of the leader or unit named: the
/// effect's answer in `choices` (none is an answer), or the units mapped to its target. Each is
/// on the table, a unit rather than a leader, and of his side when he is on the roster.
fn picked_within(
    state: &BattleState,
    e: &Effect,
    index: usize,
    of: &str,
    inches: u32,
    mapping: &Mapping,
) -> Result<Vec<UnitId>, RefereeError> {
    let field = format!("choices.{index}");
    let side = anchor(state, of, mapping).ok().map(|u| u.side.clone());
    let Some(ids) = mapping
        .choices
        .get(&index.to_string())
        .or_else(|| mapping.targets.get(&target_key(&e.target)))
    else {
        let whose = side
            .as_ref()
            .map(|s| format!(" of {s}"))
            .unwrap_or_default();
        return Err(RefereeError::new(
            ErrorCode::BattleChoiceNeeded,
            format!(
                "Which units{whose} stand within {inches}\" of {of}? Pick them, or none if none does: each takes {}",
                e.what
            ),
        )
        .field(field)
        .rule(&e.rule));
    };
    for id in ids {
        live(state, *id, &field)?;
        let u = &state.units[id];
        if u.role == crate::state::Role::Leader {
            return Err(RefereeError::new(
                ErrorCode::BattleChoiceNeeded,
                format!(
                    "{} is a leader: pick the units within {inches}\" of {of}.",
                    u.named()
                ),
            )
            .field(field)
            .rule(&e.rule));
        }
        if let Some(side) = side.as_ref().filter(|s| **s != u.side) {
            return Err(RefereeError::new(
                ErrorCode::BattleMixedSides,
                format!(
                    "{} is of {}: the units within {inches}\" of {of} that take it are of {side}.",
                    u.named(),
                    u.side
                ),
            )
            .field(field)
            .rule(&e.rule));
        }
    }
    Ok(ids.clone())
}

fn gone(id: UnitId, field: &str) -> RefereeError {
    RefereeError::new(
        ErrorCode::BattleUnitGone,
        format!("there is no unit #{id} in this battle"),
    )
    .field(field.to_string())
}

fn live(state: &BattleState, id: UnitId, field: &str) -> Result<(), RefereeError> {
    match state.units.get(&id) {
        None => Err(gone(id, field)),
        Some(u) if u.lost => Err(RefereeError::new(
            ErrorCode::BattleUnitGone,
            format!("{} (#{id}) is no longer on the table: it was lost", u.label),
        )
        .field(field.to_string())),
        Some(_) => Ok(()),
    }
}

fn names(state: &BattleState, ids: &[UnitId]) -> String {
    ids.iter()
        .map(|id| {
            state
                .units
                .get(id)
                .map_or_else(|| format!("#{id}"), |u| format!("{} (#{id})", u.label))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
