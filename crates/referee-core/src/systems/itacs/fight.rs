//! ITACS combats opened from the roster: each picked roster unit is a stack, so one hex, labelled
//! as on the roster, with its D markers and Rout marker carried (5.1, 5.3).

use serde_json::{json, Value};

use super::data::ItacsData;
use super::situation::{Unit, UnitEntry};
use crate::battle::fight::{
    named, not_a_combat, open_ground, with, Fighter, Labels, Opening, Sides,
};
use crate::error::RefereeError;
use crate::systems::parse_situation;

pub fn open(data: &ItacsData, action: &str, sides: &Sides) -> Result<Opening, RefereeError> {
    for f in &sides.attackers {
        if f.unit.d_markers > 0 {
            return Err(RefereeError::new(
                "fight.disrupted",
                format!(
                    "{} has {} D marker(s): disrupted units may not attack or fire.",
                    named(f.unit),
                    f.unit.d_markers
                ),
            )
            .field("attackers")
            .rule("5.1, 9.0"));
        }
    }
    let terrain = open_ground(data.terrain.keys());
    let situation = match action {
        "melee" => json!({
            "attackers": sides.attackers.iter().map(|f| json!({
                "label": f.label,
                "units": [stack(f)],
            })).collect::<Vec<_>>(),
            "defenders": sides.defenders.iter().map(|f| json!({
                "label": f.label,
                "terrain": terrain,
                "d_markers": f.unit.d_markers,
                "rout": f.unit.rout,
                "units": [stack(f)],
            })).collect::<Vec<_>>(),
        }),
        "missile" | "defensive_fire" | "horse_archer_fire" => {
            let mut s = json!({
                "firing_hexes": sides.attackers.iter().map(|f| json!({
                    "label": f.label,
                    "range": 1,
                    "units": [stack(f)],
                })).collect::<Vec<_>>(),
                "target": target(sides, &terrain),
            });
            if action == "horse_archer_fire" {
                s["after_movement"] = json!({
                    // The formation moves at its slowest unit's pace (4.3.1).
                    "terrain": terrain,
                    "movement": sides.attackers.iter().filter_map(|f| movement(data, f)).min().unwrap_or(0),
                    "contact_movement": sides.defenders.iter().filter_map(|f| movement(data, f)).collect::<Vec<_>>(),
                });
            }
            s
        }
        _ => return Err(not_a_combat(action)),
    };
    let mut asks: Vec<String> = match action {
        "melee" => vec![
            "Set the terrain of each defending hex (10.3) and tick attacks through a rear hex (4.5.8).".into(),
            "Enter the bonus of leaders stacked with either side (6.1.3).".into(),
        ],
        "missile" => vec![
            "Set the range of each firing hex (4.2) and the terrain of the target hex (10.3).".into(),
        ],
        "defensive_fire" => vec![
            "Tick a leader in a firing hex (4.4.1) and set the terrain of the target hex (10.3).".into(),
        ],
        _ => vec![
            "Set the range of each firing hex and the horse archers' terrain (6.2).".into(),
        ],
    };
    asks.extend(missing_values(data, action, sides));
    if action == "defensive_fire" {
        for f in sides.attackers.iter().filter(|f| f.unit.threw) {
            asks.push(format!(
                "{} has already fired its throwing weapons in this battle: they are used once per game (6.6).",
                f.label
            ));
        }
    }
    Ok(Opening {
        situation,
        labels: Labels::Hexes,
        asks,
    })
}

/// The stack as it stands now: the units left in it (4.5.11).
fn stack(f: &Fighter) -> Value {
    with(&f.unit.stats, "count", json!(f.unit.strength))
}

/// The defenders as one target hex: fire falls on a single hex (4.2), so the picked defenders are
/// the units stacked in it, with the most D markers any of them carries.
fn target(sides: &Sides, terrain: &str) -> Value {
    let labels: Vec<&str> = sides.defenders.iter().map(|f| f.label.as_str()).collect();
    json!({
        "label": labels.join(" + "),
        "terrain": terrain,
        "d_markers": sides.defenders.iter().map(|f| f.unit.d_markers).max().unwrap_or(0),
        "rout": sides.defenders.iter().any(|f| f.unit.rout),
        "units": sides.defenders.iter().map(stack).collect::<Vec<_>>(),
    })
}

/// A roster unit as the rules read it, with its type's values.
fn resolved(data: &ItacsData, f: &Fighter) -> Option<Unit> {
    let entry: UnitEntry = parse_situation(&f.unit.stats).ok()?;
    Unit::resolve(data, &entry, "").ok()
}

/// The movement points of a unit, printed or from its type.
fn movement(data: &ItacsData, f: &Fighter) -> Option<u32> {
    resolved(data, f)?.movement
}

/// The values the text does not give for a unit's type and its roster entry leaves out
/// (R-ITACS-17): the umpire reads them off the counter.
fn missing_values(data: &ItacsData, action: &str, sides: &Sides) -> Vec<String> {
    let mut asks = Vec::new();
    for f in sides.attackers.iter().chain(&sides.defenders) {
        let Some(unit) = resolved(data, f) else {
            continue;
        };
        if unit.class.is_none() {
            asks.push(format!(
                "Enter the unit class printed on the {} counter (2.4.4).",
                f.label
            ));
        }
        if action == "melee" && unit.combat.is_none() {
            asks.push(format!(
                "Enter the combat strength printed on the {} counter (2.4.6).",
                f.label
            ));
        }
    }
    asks
}
