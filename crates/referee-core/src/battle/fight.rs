//! "Resolve" from the roster: the umpire ticks attackers and defenders, and the action's situation
//! opens with exactly those units in their state now (markers, units, SPs, stands and hits left),
//! with the mapping that lands the result back on them. The system opens its situation (through
//! the `rule_system` contract); this module checks the picks and maps the effect targets.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use ts_rs::TS;

use crate::contract::{target_key, Change, Target};
use crate::error::RefereeError;
use crate::rule_system::fight::{not_a_combat, Contacts, Fighter, Opening, PlaceList, Sides};
use crate::rule_system::resolve::unknown_action;
use crate::rule_system::{ActionInfo, ChoiceList};
use crate::state::{BattleState, Role, UnitId, UnitState};
use crate::systems::Ruleset;
use crate::ErrorCode;

/// A combat opened from the roster: the situation resolves as it is; the umpire may still set
/// what the roster cannot know (terrain, range), as `asks` says.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Fight {
    pub action: String,
    /// The action's situation, with the picked units in their current state.
    #[ts(type = "unknown")]
    pub situation: serde_json::Value,
    /// Effect target (attacker, defender, hex:<label>, unit:<label>) → the picked units it is:
    /// the mapping that applies the result.
    pub targets: BTreeMap<String, Vec<UnitId>>,
    /// What the umpire still has to set, in the rules' words.
    pub asks: Vec<String>,
    /// The fight's own values for fields of its situation, naming the picked units (which unit
    /// gives a side's modifiers).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<ChoiceList>>")]
    pub choices: Vec<ChoiceList>,
    /// The fight's own words for fields of its situation ("Persian cavalry charged"), by field.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[ts(optional, as = "Option<BTreeMap<String, String>>")]
    pub labels: BTreeMap<String, String>,
    /// Lists of the situation picked place by place from the roster, in order (a Medieval
    /// side's retreat route, hex by hex, with what stands on each hex filled in).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<PlaceList>>")]
    pub places: Vec<PlaceList>,
}

/// Opens `action` with the picked units of `state`, each in its current state; a step of the
/// whole battle (recovery, say) opens from every unit it concerns, without picks. Fought in the
/// attackers' bound, with no contacts besides the picks.
pub fn fight(
    ruleset: &Ruleset,
    state: &BattleState,
    action: &str,
    attackers: &[UnitId],
    defenders: &[UnitId],
) -> Result<Fight, RefereeError> {
    fight_with(
        ruleset,
        state,
        action,
        attackers,
        defenders,
        &Contacts::default(),
    )
}

/// `fight` with the contacts picked besides the fighters and whose bound it is: each contact a
/// unit of either side on the table, picked once (the system says what each counts for).
pub fn fight_with<'s>(
    ruleset: &Ruleset,
    state: &'s BattleState,
    action: &str,
    attackers: &[UnitId],
    defenders: &[UnitId],
    contacts: &Contacts,
) -> Result<Fight, RefereeError> {
    if state.ruleset != ruleset.info.id {
        return Err(RefereeError::new(
            ErrorCode::FightWrongRuleset,
            format!(
                "This battle is fought under {}, not {}.",
                state.ruleset, ruleset.info.name
            ),
        ));
    }
    let info = action_info(ruleset, action)?;
    if info.from_roster && attackers.is_empty() && defenders.is_empty() {
        return Ok(Fight::opened(
            action,
            ruleset.system.open_battle(action, state)?,
        ));
    }
    // A test of one unit, opened from its row (a GTS rally): the unit alone, as it is now.
    if info.for_a_unit && defenders.is_empty() && contacts.is_empty() {
        let [id] = attackers else {
            return Err(RefereeError::new(
                ErrorCode::FightNoUnits,
                format!(
                    "{} is taken by one unit: open it from that unit's row.",
                    info.name
                ),
            ));
        };
        // A leader's own row takes its tests too (a GTS general's command points, 1.2).
        let unit = match state.units.get(id) {
            Some(u) if u.role == Role::Leader && !u.lost => u,
            _ => picked(state, &[*id], "attackers")?[0],
        };
        return Ok(Fight::opened(
            action,
            ruleset.system.open_unit(action, state, unit)?,
        ));
    }
    if !info.fights {
        return Err(not_a_combat(&info.name));
    }
    if !contacts.is_empty() && !ruleset.system.takes_contacts() {
        return Err(RefereeError::new(
            ErrorCode::FightNoContacts,
            format!(
                "{} fights with the units picked only: pick them as attackers or defenders, with no bound's side or friends behind or on a flank.",
                ruleset.info.name
            ),
        ));
    }
    if attackers.is_empty() || defenders.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::FightNoUnits,
            "Pick at least one unit on each side.",
        ));
    }
    let mut seen = BTreeSet::new();
    let picked_besides = contacts.behind.iter().chain(&contacts.on_enemy_flank);
    for id in attackers.iter().chain(defenders).chain(picked_besides) {
        if !seen.insert(*id) {
            let unit = state.units.get(id);
            return Err(RefereeError::new(
                ErrorCode::FightPickedTwice,
                format!(
                    "{} is picked twice: a unit fights once, on one side.",
                    unit.map_or_else(|| format!("Unit #{id}"), |u| u.named())
                ),
            ));
        }
    }
    let attacking = picked(state, attackers, "attackers")?;
    let defending = picked(state, defenders, "defenders")?;
    let side_of = |units: &[&UnitState], field: &str| {
        let side = &units[0].side;
        match units.iter().find(|u| &u.side != side) {
            Some(other) => Err(RefereeError::new(
                ErrorCode::FightMixedSides,
                format!(
                    "{} is of {} and {} of {}: the {field} are all of one side.",
                    units[0].named(),
                    side,
                    other.named(),
                    other.side
                ),
            )
            .field(field.to_string())),
            None => Ok(side.clone()),
        }
    };
    let (a, d) = (
        side_of(&attacking, "attackers")?,
        side_of(&defending, "defenders")?,
    );
    if a == d {
        return Err(RefereeError::new(
            ErrorCode::FightSameSide,
            format!("The attackers and the defenders are all of {a}: pick the enemy as defenders."),
        )
        .field("defenders"));
    }
    let behind = picked(state, &contacts.behind, "behind")?;
    let on_enemy_flank = picked(state, &contacts.on_enemy_flank, "on_enemy_flank")?;
    for u in behind.iter().chain(&on_enemy_flank) {
        if u.side != a && u.side != d {
            return Err(RefereeError::new(
                ErrorCode::FightNotInThisFight,
                format!(
                    "{} is of {}, which fights on neither side here: pick friends of the attackers or of the defenders.",
                    u.named(),
                    u.side
                ),
            ));
        }
    }
    let attackers_bound = match &contacts.bound_of {
        None => true,
        Some(side) if *side == a => true,
        Some(side) if *side == d => false,
        Some(side) => {
            return Err(RefereeError::new(
                ErrorCode::FightUnknownBound,
                format!("It can be the bound of {a} or of {d} here, not of {side}."),
            )
            .field("bound_of"))
        }
    };
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    for u in attacking
        .iter()
        .chain(&defending)
        .chain(&behind)
        .chain(&on_enemy_flank)
    {
        *counts.entry(u.label.as_str()).or_default() += 1;
    }
    let fighter = |u: &'s UnitState| Fighter {
        unit: u,
        own: &u.detail,
        label: if counts[u.label.as_str()] > 1 {
            format!("{} (#{})", u.label, u.id)
        } else {
            u.label.clone()
        },
    };
    let sides = Sides {
        state,
        attackers: attacking.iter().copied().map(fighter).collect(),
        defenders: defending.iter().copied().map(fighter).collect(),
        behind: behind.iter().copied().map(fighter).collect(),
        on_enemy_flank: on_enemy_flank.iter().copied().map(fighter).collect(),
        attackers_bound,
        path: Vec::new(),
    };
    let opening = ruleset
        .system
        .open(action, &sides)
        .map_err(|e| match e.code {
            ErrorCode::FightNotACombat => not_a_combat(&info.name),
            _ => e,
        })?;
    // What this turn's results already did to these units (ITACS 4.2, 4.5.4): every unit the
    // system brought in (a defending hex's whole stack), not only those picked.
    let mut asks = opening.asks;
    let side = |target: Target, picked: &[UnitId]| {
        opening
            .targets
            .get(&target_key(&target))
            .cloned()
            .unwrap_or_else(|| picked.to_vec())
    };
    let (all_attackers, all_defenders) = (
        side(Target::Attacker, attackers),
        side(Target::Defender, defenders),
    );
    asks.extend(
        ruleset
            .system
            .turn_limits(state, action, &all_attackers, &all_defenders)?,
    );
    Ok(Fight {
        action: action.to_string(),
        situation: opening.situation,
        targets: opening.targets,
        asks,
        choices: opening.choices,
        labels: opening.labels,
        places: opening.places,
    })
}

/// Opens a move (`moves`) of the roster entries picked — one, or a stack's as one where the
/// system allows it — along the places the umpire names, in order (an ITACS rout move: 5.3.1):
/// the system reads each place from the roster. No enemy is picked; its effects land on the
/// movers and on the friends in the places they enter.
pub fn move_along(
    ruleset: &Ruleset,
    state: &BattleState,
    action: &str,
    movers: &[UnitId],
    path: &[String],
    units_moving: Option<u32>,
) -> Result<Fight, RefereeError> {
    let info = action_info(ruleset, action)?;
    if !info.moves {
        return Err(not_a_combat(&info.name));
    }
    let mut moving = picked(state, movers, "attackers")?;
    // Some of one entry's units: the move opened on them alone, as the entry they become.
    let part = match units_moving {
        Some(units) => part_moving(ruleset, state, action, movers, units)?.map(|unit| UnitState {
            strength: units,
            ..unit.clone()
        }),
        None => None,
    };
    if let Some(part) = &part {
        moving = vec![part];
    }
    if moving.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::FightNoUnits,
            "Pick the unit that moves.",
        ));
    }
    // Several entries move as one stack where the system allows it (an ITACS hex's entries).
    let sides = Sides {
        state,
        attackers: moving
            .iter()
            .map(|unit| Fighter {
                unit,
                own: &unit.detail,
                label: unit.label.clone(),
            })
            .collect(),
        defenders: Vec::new(),
        behind: Vec::new(),
        on_enemy_flank: Vec::new(),
        attackers_bound: true,
        path: path.to_vec(),
    };
    // A unit that has moved this turn is refused before its path is read (the turn's limits).
    let ids: Vec<UnitId> = moving.iter().map(|u| u.id).collect();
    let warnings = ruleset.system.turn_limits(state, action, &ids, &[])?;
    let mut fight = Fight::opened(action, ruleset.system.open(action, &sides)?);
    fight.asks.extend(warnings);
    Ok(fight)
}

/// "Units moving" of a move of one entry, checked against it: the entry when only some of its
/// units move (they become an entry of their own, as the system's split rule says), None when
/// all of them do.
pub fn part_moving<'s>(
    ruleset: &Ruleset,
    state: &'s BattleState,
    action: &str,
    movers: &[UnitId],
    units: u32,
) -> Result<Option<&'s UnitState>, RefereeError> {
    let Some((rule, ruling)) = ruleset.system.split_rule() else {
        return Err(RefereeError::new(
            ErrorCode::FightUnitsMoving,
            "Units moving are not asked under these rules: each entry moves whole.",
        )
        .field("units_moving"));
    };
    let refused = |why: String| {
        Err(RefereeError::new(ErrorCode::FightUnitsMoving, why)
            .field("units_moving")
            .rule(rule)
            .ruling(ruling))
    };
    if !action_info(ruleset, action)?.moves {
        return refused("Units moving are given for a move only.".into());
    }
    let [one] = movers else {
        return refused(
            "Units moving are given for one entry's move: entries picked together move whole."
                .into(),
        );
    };
    let unit = picked(state, &[*one], "attackers")?[0];
    if units == 0 || units > unit.strength {
        return refused(format!(
            "Units moving: from 1 to {} ({} has {}).",
            unit.strength,
            unit.label,
            crate::error::counted(i64::from(unit.strength), "unit", "units"),
        ));
    }
    if units == unit.strength {
        return Ok(None);
    }
    // The system's own refusal of the split (an ITACS square moves whole, 2.6.1).
    let split = Change::SplitOff {
        units,
        into: state.next_unit_id(),
        label: part_label(state, unit),
    };
    match ruleset.system.refuse(state, unit, &split, rule) {
        Some(e) => Err(e),
        None => Ok(Some(unit)),
    }
}

/// The label of the units leaving `unit` as an entry of their own: its label and the first
/// number no roster row has ("Pikes 2").
pub fn part_label(state: &BattleState, unit: &UnitState) -> String {
    (2..)
        .map(|n| format!("{} {n}", unit.label))
        .find(|label| !state.units.values().any(|u| &u.label == label))
        .unwrap_or_default()
}

/// The action by its id in the ruleset, or a refusal naming the actions it has.
fn action_info<'r>(ruleset: &'r Ruleset, action: &str) -> Result<&'r ActionInfo, RefereeError> {
    ruleset
        .info
        .actions
        .iter()
        .find(|a| a.id == action)
        .ok_or_else(|| unknown_action(&ruleset.info.id, action, &ruleset.info.actions))
}

impl Fight {
    /// The fight as its system opened it, nothing added.
    fn opened(action: &str, opening: Opening) -> Fight {
        Fight {
            action: action.to_string(),
            situation: opening.situation,
            targets: opening.targets,
            asks: opening.asks,
            choices: opening.choices,
            labels: opening.labels,
            places: opening.places,
        }
    }
}

/// The picked units, each on the table and a fighting unit.
fn picked<'s>(
    state: &'s BattleState,
    ids: &[UnitId],
    field: &str,
) -> Result<Vec<&'s UnitState>, RefereeError> {
    ids.iter()
        .map(|id| {
            let unit = state.units.get(id).ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::FightUnknownUnit,
                    format!("There is no unit #{id} in this battle."),
                )
                .field(field.to_string())
            })?;
            if unit.lost {
                return Err(RefereeError::new(
                    ErrorCode::FightUnitLost,
                    format!("{} is no longer on the table: it was lost.", unit.named()),
                )
                .field(field.to_string()));
            }
            if unit.role == Role::Leader {
                return Err(RefereeError::new(
                    ErrorCode::FightNotAUnit,
                    format!(
                        "{} is a leader: leaders do not fight as units; enter a leader's part in the situation.",
                        unit.named()
                    ),
                )
                .field(field.to_string()));
            }
            Ok(unit)
        })
        .collect()
}
