//! Carriers: fleets (6.7), chariots (6.8) and elephants (6.9) — what they may carry, a fleet's
//! strength with its cargo, the fate of the cargo when the carrier is destroyed, and fire ships.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::ItacsData;
use super::results::effect;
use super::situation::{resolve_units, Unit, UnitEntry};
use super::strength::show_half_points;
use crate::contract::{Change, Check, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// One way of loading a carrier: up to max units of these classes.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadOption {
    pub max: u32,
    pub classes: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Carrier {
    /// A load is valid if it fits one option.
    pub options: Vec<LoadOption>,
    /// Leaders carried besides (unset: no limit stated).
    pub leaders: Option<u32>,
    /// Movement points of a carried unit (chariots, 6.8).
    pub carried_movement: Option<u32>,
    #[serde(default)]
    pub carried_horse_archer: bool,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FleetRules {
    pub rule: String,
    pub land_defence_classes: Vec<String>,
    pub land_defence_rule: String,
    pub sea_melee_modifier: i64,
    pub fleet_vs_fleet_rule: String,
    pub fleet_vs_fleet_ruling: Option<String>,
    /// A fleet in a river is attacked with the hex's own modifiers, not 6.7.3's 0 (R-ITACS-31).
    pub river_ruling: Option<String>,
    pub fire_ship_turns: u32,
    pub fire_ship_types: Vec<String>,
    pub fire_ship_rule: String,
    pub transported_rule: String,
    pub transported_disruption: u32,
    pub firers_per_fleet: u32,
    /// Movement points a fleet spends loading or unloading, whatever the number of units (6.7.2).
    pub load_cost: u32,
    pub load_rule: String,
}

/// transport: a carrier and its load.
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsTransportSituation")]
pub struct TransportSituation {
    /// The fleet, chariot or elephant, with its combat strength.
    pub carrier: UnitEntry,
    pub cargo: Vec<UnitEntry>,
    /// Leaders carried.
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub leaders: u32,
    /// The carrier has just been destroyed in combat (6.7.7).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub destroyed: bool,
    /// An adjacent land hex has room for the cargo (6.7.7).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub land_with_room: bool,
    /// The cargo is loaded or unloaded this movement phase (6.7.2), or mounts the chariot (6.8).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub loading: bool,
}

fn class_of<'u>(u: &'u Unit, field: &str) -> Result<&'u str, RefereeError> {
    u.require_class(field)
}

fn half(u: &Unit, defending: bool, field: &str) -> Result<u64, RefereeError> {
    Ok(u.combat_strength(field)?
        .half_points(defending)
        .unwrap_or(0)
        * u64::from(u.count))
}

/// Checks a carrier's load against its options (6.7.2, 6.8, 6.9); returns the carrier's data and
/// the cargo's units per class.
pub fn check_load<'d>(
    data: &'d ItacsData,
    carrier: &Unit,
    cargo: &[Unit],
    leaders: u32,
    field: &str,
) -> Result<(&'d Carrier, BTreeMap<String, u32>), RefereeError> {
    let code = carrier.unit_type.clone().unwrap_or_default();
    let spec = data.carriers.get(&code).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationNotACarrier,
            format!(
                "“{}” carries no units; the carriers are {}",
                carrier.label,
                data.carriers.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        )
        .field(format!("{field}.type"))
        .rule("6.7.2, 6.8, 6.9")
    })?;
    let mut by_class: BTreeMap<String, u32> = BTreeMap::new();
    for (i, u) in cargo.iter().enumerate() {
        *by_class
            .entry(class_of(u, &format!("{field}.cargo[{i}]"))?.to_string())
            .or_default() += u.count;
    }
    let total: u32 = by_class.values().sum();
    let fits = spec
        .options
        .iter()
        .any(|o| total <= o.max && by_class.keys().all(|c| o.classes.contains(c)));
    if !fits {
        let options = spec
            .options
            .iter()
            .map(|o| format!("up to {} of class {}", o.max, o.classes.join("/")))
            .collect::<Vec<_>>()
            .join(", or ");
        return Err(RefereeError::new(
            ErrorCode::SituationOverCapacity,
            format!(
                "a {code} carries {options}; this load is {total} units ({})",
                by_class.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        )
        .field(format!("{field}.cargo"))
        .rule(&spec.rule));
    }
    if let Some(max) = spec.leaders {
        if leaders > max {
            return Err(RefereeError::new(
                ErrorCode::SituationOverCapacity,
                format!("a {code} carries at most {max} leader"),
            )
            .field(format!("{field}.leaders"))
            .rule(&spec.rule));
        }
    }
    Ok((spec, by_class))
}

/// A fleet's melee strength in half points: against land units its own strength plus its A and B
/// units (6.7.3, defending); against fleets its own plus half of its strongest carried unit and
/// its marines in full (6.7.5, R-ITACS-24).
pub fn fleet_strength(
    data: &ItacsData,
    fleet: &Unit,
    against_fleets: bool,
    defending: bool,
    field: &str,
) -> Result<u64, RefereeError> {
    let fr = &data.fleets;
    let mut total = half(fleet, defending && !against_fleets, field)?;
    if against_fleets {
        let mut best_half = 0u64;
        for (i, u) in fleet.cargo.iter().enumerate() {
            let f = format!("{field}.cargo[{i}]");
            if u.marine {
                total += half(u, false, &f)?;
            } else {
                let one = u.combat_strength(&f)?.half_points(false).unwrap_or(0);
                best_half = best_half.max(one / 2);
            }
        }
        total += best_half;
    } else if defending {
        for (i, u) in fleet.cargo.iter().enumerate() {
            if u.class
                .as_ref()
                .is_some_and(|c| fr.land_defence_classes.contains(c))
            {
                total += half(u, true, &format!("{field}.cargo[{i}]"))?;
            }
        }
    }
    Ok(total)
}

pub fn transport(data: &ItacsData, s: &TransportSituation) -> Result<Resolution, RefereeError> {
    let mut carrier = Unit::resolve(data, &s.carrier, "carrier")?;
    if !s.cargo.is_empty() {
        carrier.cargo = resolve_units(data, &s.cargo, "")?;
    }
    let cargo = carrier.cargo.clone();
    let (spec, by_class) = check_load(data, &carrier, &cargo, s.leaders, "carrier")?;
    let total: u32 = by_class.values().sum();
    let fleet = carrier.type_data(data).is_some_and(|t| t.fleet);
    let fr = &data.fleets;
    let mut totals = vec![Total {
        label: "Load".into(),
        value: format!("{total} units, {} leaders", s.leaders),
        rule: spec.rule.clone(),
        ruling: None,
    }];
    let mut notes = Vec::new();
    if fleet {
        totals.push(Total {
            label: "Defence against land units".into(),
            value: show_half_points(fleet_strength(data, &carrier, false, true, "carrier")?),
            rule: fr.land_defence_rule.clone(),
            ruling: None,
        });
        totals.push(Total {
            label: "Strength against fleets".into(),
            value: show_half_points(fleet_strength(data, &carrier, true, false, "carrier")?),
            rule: fr.fleet_vs_fleet_rule.clone(),
            ruling: fr.fleet_vs_fleet_ruling.clone(),
        });
        let ff = by_class.get("Ff").copied().unwrap_or(0);
        totals.push(Total {
            label: "Ff units that may fire".into(),
            value: ff.min(fr.firers_per_fleet).to_string(),
            rule: "6.7.4".into(),
            ruling: None,
        });
        notes.push(Note::new(
            "Carried land units (A, B, C) may not attack in melee.",
            "6.7.4",
            None,
        ));
        notes.push(Note::new(
            "Half of one carried unit's strength counts against fleets (rounded to half points).",
            &fr.fleet_vs_fleet_rule,
            None,
        ));
    }
    if let Some(mp) = spec.carried_movement {
        totals.push(Total {
            label: "Movement of the carried unit".into(),
            value: mp.to_string(),
            rule: spec.rule.clone(),
            ruling: None,
        });
    }
    if spec.carried_horse_archer && total > 0 {
        notes.push(Note::new(
            "The carried Ff unit and the chariot count as horse archers (6.2): extra side hexes and fire after movement.",
            &spec.rule,
            None,
        ));
    }
    let mut effects = Vec::new();
    let mut checks = Vec::new();
    if s.loading && fleet {
        if let Some(mp) = carrier.movement.filter(|mp| *mp < fr.load_cost) {
            return Err(RefereeError::new(
                ErrorCode::SituationOutOfMovement,
                format!(
                    "loading or unloading costs the fleet {} movement points and it has {mp}",
                    fr.load_cost
                ),
            )
            .field("carrier.movement")
            .rule(&fr.load_rule));
        }
        totals.push(Total {
            label: "Loading or unloading costs the fleet".into(),
            value: format!("{} MP", fr.load_cost),
            rule: fr.load_rule.clone(),
            ruling: None,
        });
        checks.push(Check::umpire(
            "The fleet is adjacent to the land hex",
            &fr.load_rule,
        ));
        checks.push(Check::umpire(
            "The units loaded or unloaded spend all their movement points: they begin or end the movement phase in the land hex",
            &fr.load_rule,
        ));
    } else if s.loading && spec.carried_movement.is_some() {
        checks.push(Check::umpire(
            "The Ff unit began the movement phase adjacent to the chariot",
            &spec.rule,
        ));
    }
    let (result, meaning) = if s.destroyed {
        let disruption = Change::DMarkers {
            count: fr.transported_disruption,
        };
        for (i, u) in cargo.iter().enumerate() {
            let mounted = u.mounted(data);
            let target = Target::Unit(format!("{} (cargo {})", u.label, i + 1));
            if mounted || !s.land_with_room {
                effects.push(effect(
                    target,
                    Change::DestroyAll,
                    &fr.transported_rule,
                    None,
                ));
            } else {
                effects.push(effect(
                    target,
                    disruption.clone(),
                    &fr.transported_rule,
                    None,
                ));
            }
        }
        checks.push(Check::holds(
            "An adjacent land hex has room: infantry may land there, disrupted",
            s.land_with_room,
            &fr.transported_rule,
        ));
        (
            "cargo_fate",
            "Cavalry aboard is destroyed; infantry lands disrupted if there is room, else is destroyed.",
        )
    } else {
        ("load_allowed", "The carrier may carry this load.")
    };
    let mut r = Resolution::certain(&data.system.id, "transport", result, meaning, effects);
    r.totals = totals;
    r.notes = notes;
    r.checks = checks;
    Ok(r)
}

/// fire_ship: a light fleet designated as a fire ship (6.7.6).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsFireShipSituation")]
pub struct FireShipSituation {
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub unit_type: String,
    /// The game turn it was designated, at the start of the movement phase.
    pub designated_turn: u32,
    /// It engages an enemy fleet in melee this turn.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub engages_fleet: bool,
}

pub fn fire_ship(data: &ItacsData, s: &FireShipSituation) -> Result<Resolution, RefereeError> {
    let fr = &data.fleets;
    if !fr.fire_ship_types.contains(&s.unit_type) {
        return Err(RefereeError::new(
            ErrorCode::SituationNotAFireShip,
            format!(
                "only {} units may become fire ships",
                fr.fire_ship_types.join(", ")
            ),
        )
        .field("type")
        .rule(&fr.fire_ship_rule));
    }
    if s.designated_turn == 0 {
        return Err(
            RefereeError::new(ErrorCode::SituationInvalidField, "game turns count from 1")
                .field("designated_turn"),
        );
    }
    let last = s.designated_turn + fr.fire_ship_turns - 1;
    let (result, meaning, effects) = if s.engages_fleet {
        (
            "both_destroyed",
            "The fire ship and the enemy fleet are both destroyed at once.".to_string(),
            vec![
                effect(
                    Target::Attacker,
                    Change::DestroyAll,
                    &fr.fire_ship_rule,
                    None,
                ),
                effect(
                    Target::Defender,
                    Change::DestroyAll,
                    &fr.fire_ship_rule,
                    None,
                ),
            ],
        )
    } else {
        (
            "burning",
            format!("The fire ship moves at half allowance and is destroyed at the end of game turn {last}."),
            Vec::new(),
        )
    };
    let mut r = Resolution::certain(&data.system.id, "fire_ship", result, &meaning, effects);
    r.totals = vec![Total {
        label: "Destroyed at the end of game turn".into(),
        value: last.to_string(),
        rule: fr.fire_ship_rule.clone(),
        ruling: None,
    }];
    r.checks.push(Check::umpire(
        "Each fire ship engages only one enemy fleet",
        &fr.fire_ship_rule,
    ));
    Ok(r)
}
