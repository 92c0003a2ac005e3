//! What the umpire enters for an ITACS action, and its checks against the ruleset.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::{AttackPosition, ItacsData, UnitType};
use super::strength::CombatStrength;
use crate::error::RefereeError;
use crate::rule_system::resolve::{is_default, is_false, is_true};
use crate::ErrorCode;

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// A unit as entered: a unit type from the ruleset (10.2) and/or the values printed on the
/// counter, which override the type's.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsUnit")]
pub struct UnitEntry {
    /// Unit type code, e.g. SD, LB.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unit_type: Option<String>,
    /// Unit class: A, B, C, D, Ff, Mf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub class: Option<String>,
    /// Printed combat strength: a number (4 or "4"), a dot or a number in brackets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub combat: Option<PrintedStrength>,
    /// Printed fire strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fire: Option<u32>,
    /// Printed fire range in hexes (the range allowance, 4.2, 6.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fire_range: Option<u32>,
    /// Printed movement points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub movement: Option<u32>,
    /// How many identical units (default 1).
    #[serde(default = "one")]
    #[schemars(range(min = 1))]
    #[ts(optional, as = "Option<u32>")]
    pub count: u32,
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub elite: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shields: Option<bool>,
    /// In fire: whether this unit fires (default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    #[schemars(extend("default" = true))]
    #[ts(optional, as = "Option<bool>")]
    pub firing: bool,
    /// In defensive fire: the unit fires with throwing weapons (6.6).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub throwing: bool,
    /// Units carried by a fleet, chariot or elephant (6.7–6.9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<UnitEntry>>")]
    pub cargo: Vec<UnitEntry>,
    /// Carried on a fleet: a marine adds its full strength in fleet combat (6.7.5).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(optional, as = "Option<bool>")]
    pub marine: bool,
}

/// A combat strength as printed on the counter: a plain number, or its printed text (4, a dot,
/// or 4 in brackets).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(untagged)]
pub enum PrintedStrength {
    Number(u32),
    Text(String),
}

impl PrintedStrength {
    /// The printed form, as the ruleset writes it.
    pub fn text(&self) -> String {
        match self {
            PrintedStrength::Number(n) => n.to_string(),
            PrintedStrength::Text(t) => t.clone(),
        }
    }
}

/// A scarp hexside between the firers and the target (3.2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ScarpLine {
    #[default]
    None,
    FiringDown,
    FiringUp,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct FiringHex {
    /// A name for the hex, e.g. its map number 22.19.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    /// Hexes from this hex to the target.
    pub range: u32,
    /// Fires through a rear hex of the target (4.2.4).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub rear: bool,
    /// A leader is in this hex (4.4.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub leader: bool,
    /// Terrain key of the firing hex: hills add 1 to the fire range (4.2.3).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub terrain: Option<String>,
    /// The hex has D markers: its units may not fire (5.1, 9.0).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub disrupted: bool,
    pub units: Vec<UnitEntry>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TargetHex {
    /// Terrain key from the ruleset's terrain chart, e.g. clear, mud.
    pub terrain: String,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub stream: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub road: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<ScarpLine>")]
    pub scarp: ScarpLine,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub square: bool,
    /// D markers already on the hex, for the chained forecast (5.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub d_markers: u32,
    /// The hex already has a Rout marker.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub rout: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    pub units: Vec<UnitEntry>,
}

/// Missile combat (4.2) and defensive fire (4.4).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsFireSituation")]
pub struct FireSituation {
    pub firing_hexes: Vec<FiringHex>,
    pub target: TargetHex,
    /// Horse archers firing after movement (6.2): only when horse archers fire after moving.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub after_movement: Option<AfterMovement>,
}

/// Where horse archers fire from after movement, and whom they are in contact with (6.2).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AfterMovement {
    /// Terrain key of the horse archers' hex.
    pub terrain: String,
    /// The horse archers' movement points.
    pub movement: u32,
    /// Movement points of each enemy unit in contact with them.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<Vec<u32>>")]
    pub contact_movement: Vec<u32>,
    /// They already fired in the missile combat phase this turn.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub fired_before_movement: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct AttackingHex {
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    /// Attacks through a rear hex of the defender (4.5.8).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub rear: bool,
    /// The hex has D markers: its units may not attack (4.5).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub disrupted: bool,
    /// The units form a square (2.6.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub square: bool,
    /// A scarp hexside lies between this hex and the defenders: melee is not allowed (3.2.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub across_scarp: bool,
    pub units: Vec<UnitEntry>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct DefendingHex {
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    pub terrain: String,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub stream: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub road: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub square: bool,
    /// D markers already on the hex, for the chained forecast (5.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub d_markers: u32,
    /// The hex already has a Rout marker.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub rout: bool,
    /// The defending units stand on a ladder or siege tower against a wall (3.1.4).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub on_ladder_or_tower: bool,
    pub units: Vec<UnitEntry>,
    /// The leaders stacked in the hex, by name: a result that eliminates the defending units
    /// captures them (6.1.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub leaders: Vec<String>,
}

/// Melee combat (4.5).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsMeleeSituation")]
pub struct MeleeSituation {
    pub attackers: Vec<AttackingHex>,
    pub defenders: Vec<DefendingHex>,
    /// Where the attackers stand: only matters against walls (3.1.4).
    #[serde(default = "ground", skip_serializing_if = "on_the_ground")]
    #[ts(optional, as = "Option<AttackPosition>")]
    pub attack_from: AttackPosition,
    /// Sum of the bonuses of leaders stacked with the attacking formation (6.1.3).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub attacker_leader_bonus: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<u32>")]
    pub defender_leader_bonus: u32,
}

fn ground() -> AttackPosition {
    AttackPosition::Ground
}

fn on_the_ground(p: &AttackPosition) -> bool {
    *p == AttackPosition::Ground
}

/// A unit with every value it needs, from its type and its printed values.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub label: String,
    /// The unit type code, when one was entered.
    pub unit_type: Option<String>,
    /// Unset when neither the entry nor its type gives one; rules that read it require it.
    pub class: Option<String>,
    pub combat: Option<CombatStrength>,
    pub fire: u32,
    /// Fire range in hexes, from the entry or its type; unset when neither gives one.
    pub fire_range: Option<u32>,
    pub movement: Option<u32>,
    pub count: u32,
    pub elite: bool,
    pub shields: bool,
    pub firing: bool,
    pub throwing: bool,
    pub marine: bool,
    /// What it carries, when it is a carrier.
    pub cargo: Vec<Unit>,
}

impl Unit {
    pub fn resolve(data: &ItacsData, entry: &UnitEntry, field: &str) -> Result<Unit, RefereeError> {
        let unit_type: Option<&UnitType> = match &entry.unit_type {
            Some(code) => Some(data.unit_types.get(code).ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::SituationUnknownUnitType,
                    format!(
                        "unknown unit type {}; the ruleset knows {}. Enter the class and strengths from the counter instead.",
                        crate::error::given(code),
                        crate::error::choices(data.unit_types.keys())
                    ),
                )
                .field(format!("{field}.type"))
                .rule("10.2")
            })?),
            None => None,
        };
        let class = entry
            .class
            .clone()
            .or_else(|| unit_type.and_then(|t| t.class.clone()));
        let class_data = match &class {
            None => None,
            Some(class) => Some(data.unit_classes.get(class).ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::SituationUnknownUnitClass,
                    format!(
                        "unknown unit class {}; the classes are {}",
                        crate::error::given(class),
                        crate::error::choices(data.unit_classes.keys())
                    ),
                )
                .field(format!("{field}.class"))
                .rule("2.4.4")
            })?),
        };
        if class_data.is_some_and(|c| c.leader) {
            return Err(RefereeError::new(
                ErrorCode::SituationLeaderAsUnit,
                "leaders do not fight as units: enter a leader's bonus with the side (melee) or tick leader on the firing hex",
            )
            .field(format!("{field}.class"))
            .rule("2.4.3, 6.1.3"));
        }
        let printed = entry
            .combat
            .as_ref()
            .map(PrintedStrength::text)
            .or_else(|| unit_type.and_then(|t| t.combat.clone()));
        let combat = match printed {
            Some(printed) => Some(CombatStrength::parse(&printed).map_err(|m| {
                RefereeError::new(ErrorCode::SituationInvalidStrength, m)
                    .field(format!("{field}.combat"))
                    .rule("2.4.6")
            })?),
            None => None,
        };
        if entry.count == 0 {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidCount,
                "count must be 1 or more: leave the unit out instead",
            )
            .field(format!("{field}.count")));
        }
        let label = entry
            .unit_type
            .clone()
            .or_else(|| class.as_ref().map(|c| format!("class {c}")))
            .unwrap_or_else(|| "unnamed".to_string());
        if entry.throwing && entry.fire.is_some() {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "a unit firing throwing weapons has their fire strength (6.6): leave out fire",
            )
            .field(format!("{field}.fire"))
            .rule("6.6"));
        }
        let cargo = entry
            .cargo
            .iter()
            .enumerate()
            .map(|(i, c)| Unit::resolve(data, c, &format!("{field}.cargo[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let fire = if entry.throwing {
            data.throwing_weapons.fire
        } else {
            entry.fire.or(unit_type.and_then(|t| t.fire)).unwrap_or(0)
        };
        Ok(Unit {
            label,
            unit_type: entry.unit_type.clone(),
            class,
            combat,
            fire,
            fire_range: if entry.throwing {
                Some(data.throwing_weapons.range)
            } else {
                entry.fire_range.or(unit_type.and_then(|t| t.fire_range))
            },
            movement: entry.movement.or(unit_type.and_then(|t| t.movement)),
            count: entry.count,
            elite: entry.elite,
            shields: entry
                .shields
                .unwrap_or(unit_type.is_some_and(|t| t.shields)),
            firing: entry.firing,
            throwing: entry.throwing,
            marine: entry.marine,
            cargo,
        })
    }

    /// The unit class, required where a rule reads it (unit modifiers, Ff disruption).
    pub fn require_class(&self, field: &str) -> Result<&str, RefereeError> {
        self.class.as_deref().ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationMissingClass,
                format!(
                    "enter the unit class printed on the {} counter (A, B, C, D, Ff, Mf)",
                    self.label
                ),
            )
            .field(format!("{field}.class"))
            .rule("2.4.4")
        })
    }

    /// The movement points, required where a rule compares or spends them.
    pub fn movement_points(&self, field: &str) -> Result<u32, RefereeError> {
        self.movement.ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationMissingMovement,
                format!(
                    "enter the movement points printed on the {} counter",
                    self.label
                ),
            )
            .field(format!("{field}.movement"))
            .rule("4.3.1")
        })
    }

    /// Fire strength of the entry: its own, plus what its cargo fires — every carried unit from
    /// a chariot or elephant, one Ff unit from a fleet (6.7.4, 6.8, 6.9).
    pub fn fire_strength(&self, data: &ItacsData) -> u32 {
        let own = self.fire * self.count;
        let carried: Vec<u32> = self
            .cargo
            .iter()
            .filter(|c| {
                c.class
                    .as_ref()
                    .and_then(|k| data.unit_classes.get(k))
                    .is_some_and(|k| k.missile && !k.mounted)
            })
            .flat_map(|c| std::iter::repeat_n(c.fire, c.count as usize))
            .collect();
        let from_cargo: u32 = if self.type_data(data).is_some_and(|t| t.fleet) {
            let mut sorted = carried;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            sorted
                .into_iter()
                .take(data.fleets.firers_per_fleet as usize)
                .sum()
        } else {
            carried.into_iter().sum()
        };
        own + from_cargo
    }

    /// The unit type's data, when a known type was entered.
    pub fn type_data<'d>(&self, data: &'d ItacsData) -> Option<&'d UnitType> {
        self.unit_type.as_ref().and_then(|t| data.unit_types.get(t))
    }

    /// Cavalry on the terrain chart: class C or Mf, or a type that moves as cavalry (6.8).
    pub fn mounted(&self, data: &ItacsData) -> bool {
        let class = self
            .class
            .as_ref()
            .and_then(|c| data.unit_classes.get(c))
            .is_some_and(|c| c.mounted);
        class || self.type_data(data).is_some_and(|t| t.moves_as_mounted)
    }

    /// The combat strength, required in melee.
    pub fn combat_strength(&self, field: &str) -> Result<CombatStrength, RefereeError> {
        self.combat.ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationMissingStrength,
                format!(
                    "enter the combat strength printed on the {} counter (a number, “.” or “[n]”)",
                    self.label
                ),
            )
            .field(format!("{field}.combat"))
            .rule("2.4.6")
        })
    }
}

/// Resolves every unit of a hex, refusing an empty hex.
pub fn resolve_units(
    data: &ItacsData,
    entries: &[UnitEntry],
    field: &str,
) -> Result<Vec<Unit>, RefereeError> {
    if entries.is_empty() {
        let at = if field.is_empty() {
            "units".to_string()
        } else {
            format!("{field}.units")
        };
        return Err(RefereeError::new(
            ErrorCode::SituationNoUnits,
            "the hex needs at least one unit",
        )
        .field(at));
    }
    let prefix = if field.is_empty() {
        String::new()
    } else {
        format!("{field}.")
    };
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| Unit::resolve(data, e, &format!("{prefix}units[{i}]")))
        .collect()
}

/// Checks a square: four identical units of a type that forms squares, not disrupted (2.6.1).
pub fn check_square(
    data: &ItacsData,
    units: &[Unit],
    d_markers: u32,
    field: &str,
    rule: &str,
) -> Result<(), RefereeError> {
    let types = &data.melee.square_types;
    if let Some(u) = units
        .iter()
        .find(|u| !u.unit_type.as_ref().is_some_and(|t| types.contains(t)))
    {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidSquare,
            format!(
                "only {} units may form a square, not {} units",
                types.join(", "),
                u.label
            ),
        )
        .field(format!("{field}.square"))
        .rule(rule));
    }
    if d_markers > 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidSquare,
            "a disrupted hex is no longer a square: squares form only from units that are not disrupted",
        )
        .field(format!("{field}.square"))
        .rule(rule));
    }
    let total: u32 = units.iter().map(|u| u.count).sum();
    let first = &units[0];
    let identical = units
        .iter()
        .all(|u| u.label == first.label && u.class == first.class && u.combat == first.combat);
    if total != 4 || !identical {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidSquare,
            "a square is exactly 4 identical units",
        )
        .field(format!("{field}.square"))
        .rule(rule));
    }
    Ok(())
}

/// Refuses a hex holding more units than any hex may (4.3.3: 3 by default, 4 in a square or a
/// scenario that allows it — the top of the stacking table, 10.4). Leaders are not counted and
/// cannot be entered as units here.
pub fn check_stacking(data: &ItacsData, units: &[Unit], field: &str) -> Result<(), RefereeError> {
    let most = data
        .missile
        .stacking
        .iter()
        .filter_map(|b| b.max)
        .max()
        .unwrap_or(4);
    let total: u32 = units.iter().map(|u| u.count).sum();
    if i64::from(total) > most {
        return Err(RefereeError::new(
            ErrorCode::SituationOverStacked,
            format!(
                "{total} units in one hex: no hex holds more than {most} (3 by default, 4 in a square); split them over their hexes"
            ),
        )
        .field(format!("{field}.units"))
        .rule("4.3.3"));
    }
    Ok(())
}

/// Looks a terrain up in the terrain chart (10.3): by its key, or by any name the chart prints
/// for it ("marsh" is the chart's "Swamp, Marsh, Moor"), in any case.
pub fn terrain<'d>(
    data: &'d ItacsData,
    key: &str,
    field: &str,
) -> Result<&'d super::data::Terrain, RefereeError> {
    let plain = |s: &str| {
        s.to_lowercase()
            .replace(['_', '-'], " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let wanted = plain(key);
    let named = || {
        data.terrain.iter().find_map(|(k, t)| {
            let names = std::iter::once(k.as_str()).chain(t.name.split(','));
            names.into_iter().any(|n| plain(n) == wanted).then_some(t)
        })
    };
    data.terrain.get(key).or_else(named).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownTerrain,
            format!(
                "unknown terrain {}; the terrain chart has {}",
                crate::error::given(key),
                crate::error::choices(data.terrain.keys())
            ),
        )
        .field(field)
        .rule("10.3")
    })
}

/// A road does not change the hex's combat modifiers (3.1.1, R-ITACS-4).
pub fn road_note() -> crate::contract::Note {
    crate::contract::Note::new(
        "Road: the background terrain's modifier applies.",
        "3.1.1",
        Some("R-ITACS-4"),
    )
}

/// Squares have no rear hexes, in fire as in melee (2.6.1, R-ITACS-5).
pub fn square_has_no_rear_note(square_rule: &str) -> crate::contract::Note {
    crate::contract::Note::new(
        "A square has no rear hexes: no rear modifier.",
        square_rule,
        Some("R-ITACS-5"),
    )
}

/// The state of a stack for the chained forecast: its units, markers and what they are immune to.
pub fn stack_state(
    data: &ItacsData,
    units: &[Unit],
    d_markers: u32,
    rout: bool,
    square: bool,
) -> super::state::HexState {
    let types: Vec<&UnitType> = units
        .iter()
        .filter_map(|u| u.unit_type.as_ref().and_then(|t| data.unit_types.get(t)))
        .collect();
    super::state::HexState {
        units: units.iter().map(|u| u.count).sum(),
        d_markers,
        broken: false,
        rout,
        square,
        never_breaks: !units.is_empty()
            && types.len() == units.len()
            && types.iter().all(|t| t.never_breaks),
        rampages: types.iter().any(|t| t.rampages),
        rampaging: false,
    }
}

/// Refuses units standing where their class may not be: impassable terrain, water for land units,
/// land for fleets, walls, towers and trenches for cavalry (10.3, 3.1.4, 6.7).
pub fn check_can_stand(
    data: &ItacsData,
    units: &[Unit],
    ground: &super::data::Terrain,
    stream: bool,
    field: &str,
) -> Result<(), RefereeError> {
    let refuse = |message: String| {
        Err(
            RefereeError::new(ErrorCode::SituationTerrainClosed, message)
                .field(format!("{field}.terrain"))
                .rule(&ground.rule),
        )
    };
    if ground.impassable {
        return refuse(format!(
            "{} is impassable: no unit can be there",
            ground.name
        ));
    }
    for u in units {
        let kind = u.type_data(data);
        let fleet = kind.is_some_and(|t| t.fleet);
        if ground.fleets_only && !fleet {
            return refuse(format!(
                "{} units cannot be in a {} hex: only fleets enter it (6.7)",
                u.label, ground.name
            ));
        }
        if fleet && !ground.fleets_only {
            if !stream {
                return refuse(format!(
                    "a fleet moves only in sea hexes (and light or Viking fleets in rivers), not {} (6.7)",
                    ground.name
                ));
            }
            if !kind.is_some_and(|t| t.enters_rivers) {
                return refuse(format!(
                    "{} units may not enter river hexes: only light and Viking fleets may (6.7)",
                    u.label
                ));
            }
        }
        if let Some(class) = &u.class {
            // Feudal cavalry is there only by charging (6.3, 10.3): the move checks the charge.
            let charged = ground.feudal_charge_enters && kind.is_some_and(|t| t.feudal);
            if ground.closed_to.contains(class) && !charged {
                return refuse(format!(
                    "class {class} units ({}) may not enter {} hexes",
                    u.label, ground.name
                ));
            }
        }
    }
    Ok(())
}

/// Horse archers' arcs (6.2): four side hexes and one rear hex. Where they fire or are fired on,
/// the umpire checks the arc on the map.
pub fn horse_archer_arcs(
    data: &ItacsData,
    attacking: &[Unit],
    defending: &[Unit],
    rear: bool,
) -> Vec<crate::contract::Check> {
    let is_ha = |u: &Unit| u.type_data(data).is_some_and(|t| t.horse_archer);
    let rule = data.horse_archers.rule.as_str();
    let mut checks = Vec::new();
    if attacking.iter().any(is_ha) {
        checks.push(crate::contract::Check::umpire(
            "Horse archers attack through their front hex or the four side hexes beside it",
            rule,
        ));
    }
    if rear && defending.iter().any(is_ha) {
        checks.push(crate::contract::Check::umpire(
            "Horse archers have a single rear hex: the rear modifier needs an attacker in it",
            rule,
        ));
    }
    checks
}
