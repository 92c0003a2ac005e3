//! "Resolve" from the roster: the umpire ticks attackers and defenders, and the action's situation
//! opens with exactly those units in their state now (markers, units, SPs, stands and hits left),
//! with the mapping that lands the result back on them. Each system's module
//! (`systems/<system>/fight.rs`) builds its situation; this one checks the picks and maps the
//! effect targets.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use ts_rs::TS;

use super::changes::target_key;
use super::model::{BattleState, Role, UnitId, UnitState};
use crate::contract::Target;
use crate::error::RefereeError;
use crate::systems::{self, Ruleset, SystemRules};

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
}

/// A picked unit and the label it goes by in this fight (its roster label, with its id when two
/// picked units share one, so every effect target names exactly one unit).
#[derive(Clone, Debug)]
pub struct Fighter<'a> {
    pub unit: &'a UnitState,
    pub label: String,
}

/// Both sides as picked, attackers first.
#[derive(Clone, Debug)]
pub struct Sides<'a> {
    pub state: &'a BattleState,
    pub attackers: Vec<Fighter<'a>>,
    pub defenders: Vec<Fighter<'a>>,
}

impl Sides<'_> {
    /// The attackers belong to the battle's first side.
    pub fn attackers_first(&self) -> bool {
        self.state.sides.first().map(|s| s.name.as_str())
            == Some(self.attackers[0].unit.side.as_str())
    }
}

/// How the system's effects name single units or hexes: the labels of the fighters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// ITACS: each picked unit is a hex (`hex:<label>`).
    Hexes,
    /// GTS, DBMM: `unit:<label>`.
    Units,
    /// Medieval: the sides only.
    SidesOnly,
}

/// What a system's builder opens: the situation, how its targets are named, what to ask.
pub struct Opening {
    pub situation: serde_json::Value,
    pub labels: Labels,
    pub asks: Vec<String>,
}

/// Opens `action` with the picked units of `state`, each in its current state.
pub fn fight<'s>(
    ruleset: &Ruleset,
    state: &'s BattleState,
    action: &str,
    attackers: &[UnitId],
    defenders: &[UnitId],
) -> Result<Fight, RefereeError> {
    if state.ruleset != ruleset.info.id {
        return Err(RefereeError::new(
            "fight.wrong_ruleset",
            format!(
                "This battle is fought under {}, not {}.",
                state.ruleset, ruleset.info.name
            ),
        ));
    }
    let info = ruleset
        .info
        .actions
        .iter()
        .find(|a| a.id == action)
        .ok_or_else(|| systems::unknown_action(&ruleset.info.id, action, &ruleset.info.actions))?;
    if !info.fights {
        return Err(not_a_combat(&info.name));
    }
    if attackers.is_empty() || defenders.is_empty() {
        return Err(RefereeError::new(
            "fight.no_units",
            "Pick at least one unit on each side.",
        ));
    }
    let mut seen = BTreeSet::new();
    for id in attackers.iter().chain(defenders) {
        if !seen.insert(*id) {
            let unit = state.units.get(id);
            return Err(RefereeError::new(
                "fight.picked_twice",
                format!(
                    "{} is picked twice: a unit fights once, on one side.",
                    unit.map_or_else(|| format!("Unit #{id}"), named)
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
                "fight.mixed_sides",
                format!(
                    "{} is of {} and {} of {}: the {field} are all of one side.",
                    named(units[0]),
                    side,
                    named(other),
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
            "fight.same_side",
            format!("The attackers and the defenders are all of {a}: pick the enemy as defenders."),
        )
        .field("defenders"));
    }
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    for u in attacking.iter().chain(&defending) {
        *counts.entry(u.label.as_str()).or_default() += 1;
    }
    let fighter = |u: &'s UnitState| Fighter {
        unit: u,
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
    };
    let opening = match &ruleset.rules {
        SystemRules::Itacs(data) => systems::itacs::fight::open(data, action, &sides),
        SystemRules::Medieval(data) => systems::medieval::fight::open(data, action, &sides),
        SystemRules::Gts(_) => systems::gts::fight::open(action, &sides),
        SystemRules::Dbmm(data) => systems::dbmm::fight::open(data, action, &sides),
    }
    .map_err(|e| match e.code.as_str() {
        "fight.not_a_combat" => not_a_combat(&info.name),
        _ => e,
    })?;
    // What this turn's results already did to these units (ITACS 4.2, 4.5.4).
    let mut asks = opening.asks;
    asks.extend(systems::turn_limits(state, action, attackers, defenders)?);
    Ok(Fight {
        action: action.to_string(),
        situation: opening.situation,
        targets: targets(&sides, opening.labels),
        asks,
    })
}

/// The mapping: each side's effects to its picked units, each label to its one unit.
fn targets(sides: &Sides, labels: Labels) -> BTreeMap<String, Vec<UnitId>> {
    let ids = |fighters: &[Fighter]| fighters.iter().map(|f| f.unit.id).collect::<Vec<_>>();
    let mut out = BTreeMap::from([
        (target_key(&Target::Attacker), ids(&sides.attackers)),
        (target_key(&Target::Defender), ids(&sides.defenders)),
    ]);
    for f in sides.attackers.iter().chain(&sides.defenders) {
        let target = match labels {
            Labels::Hexes => Target::Hex(f.label.clone()),
            Labels::Units => Target::Unit(f.label.clone()),
            Labels::SidesOnly => continue,
        };
        out.insert(target_key(&target), vec![f.unit.id]);
    }
    out
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
                    "fight.unknown_unit",
                    format!("There is no unit #{id} in this battle."),
                )
                .field(field.to_string())
            })?;
            if unit.lost {
                return Err(RefereeError::new(
                    "fight.unit_lost",
                    format!("{} is no longer on the table: it was lost.", named(unit)),
                )
                .field(field.to_string()));
            }
            if unit.role == Role::Leader {
                return Err(RefereeError::new(
                    "fight.not_a_unit",
                    format!(
                        "{} is a leader: leaders do not fight as units; enter a leader's part in the situation.",
                        named(unit)
                    ),
                )
                .field(field.to_string()));
            }
            Ok(unit)
        })
        .collect()
}

/// A unit in a sentence: its label and roster id.
pub fn named(unit: &UnitState) -> String {
    format!("{} (#{})", unit.label, unit.id)
}

/// The refusal of an action that takes no units from the roster.
pub fn not_a_combat(action_name: &str) -> RefereeError {
    RefereeError::new(
        "fight.not_a_combat",
        format!("{action_name} takes no sides of roster units: fill in its situation instead."),
    )
    .field("action")
}

/// The refusal of more picks than the action fights with.
pub fn one_each(what: &str, rule: &str) -> RefereeError {
    RefereeError::new(
        "fight.one_each",
        format!("{what}: pick one unit on each side."),
    )
    .rule(rule)
}

/// A unit's stats with `key` set, for the situation.
pub fn with(stats: &serde_json::Value, key: &str, value: serde_json::Value) -> serde_json::Value {
    let mut stats = stats.clone();
    if let Some(map) = stats.as_object_mut() {
        map.insert(key.to_string(), value);
    }
    stats
}

/// The default terrain of a situation: clear when the ruleset has it, else its first.
pub fn open_ground<'k>(mut keys: impl Iterator<Item = &'k String> + Clone) -> String {
    keys.clone()
        .find(|k| k.as_str() == "clear")
        .or_else(|| keys.next())
        .cloned()
        .unwrap_or_else(|| "clear".into())
}
