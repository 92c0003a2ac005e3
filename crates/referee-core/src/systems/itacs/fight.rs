//! ITACS combats opened from the roster: each picked roster unit is a stack, so one hex, labelled
//! as on the roster, with its D markers and Rout marker carried (5.1, 5.3).

use super::data::{AttackPosition, ItacsData};
use super::roster::ItacsUnit;
use super::situation::{
    AfterMovement, AttackingHex, DefendingHex, FireSituation, FiringHex, MeleeSituation, ScarpLine,
    TargetHex, Unit, UnitEntry,
};
use crate::error::RefereeError;
use crate::rule_system::fight::{not_a_combat, open_ground, Fighter, Labels, Opening, Sides};

type Picked<'a> = Fighter<'a, ItacsUnit>;

pub fn open(
    data: &ItacsData,
    action: &str,
    sides: &Sides<ItacsUnit>,
) -> Result<Opening, RefereeError> {
    for f in &sides.attackers {
        if f.own.d_markers > 0 {
            return Err(RefereeError::new(
                "fight.disrupted",
                format!(
                    "{} has {} D marker(s): disrupted units may not attack or fire.",
                    f.unit.named(),
                    f.own.d_markers
                ),
            )
            .field("attackers")
            .rule("5.1, 9.0"));
        }
    }
    let terrain = open_ground(data.terrain.keys());
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
        "horse_archer_fire" => vec![
            "Set the range of each firing hex and the horse archers' terrain (6.2).".into(),
        ],
        _ => return Err(not_a_combat(action)),
    };
    asks.extend(missing_values(data, action, sides));
    if action == "defensive_fire" {
        for f in sides.attackers.iter().filter(|f| f.own.threw) {
            asks.push(format!(
                "{} has already fired its throwing weapons in this battle: they are used once per game (6.6).",
                f.label
            ));
        }
    }
    match action {
        "melee" => Opening::new(&melee(sides, &terrain), Labels::Hexes, asks),
        _ => Opening::new(&fire(data, action, sides, &terrain), Labels::Hexes, asks),
    }
}

fn melee(sides: &Sides<ItacsUnit>, terrain: &str) -> MeleeSituation {
    MeleeSituation {
        attackers: sides
            .attackers
            .iter()
            .map(|f| AttackingHex {
                label: Some(f.label.clone()),
                rear: false,
                disrupted: false,
                square: false,
                across_scarp: false,
                units: vec![stack(f)],
            })
            .collect(),
        defenders: sides
            .defenders
            .iter()
            .map(|f| DefendingHex {
                label: Some(f.label.clone()),
                terrain: terrain.to_string(),
                stream: false,
                road: false,
                square: false,
                d_markers: f.own.d_markers,
                rout: f.own.rout,
                on_ladder_or_tower: false,
                units: vec![stack(f)],
            })
            .collect(),
        attack_from: AttackPosition::Ground,
        attacker_leader_bonus: 0,
        defender_leader_bonus: 0,
    }
}

fn fire(data: &ItacsData, action: &str, sides: &Sides<ItacsUnit>, terrain: &str) -> FireSituation {
    FireSituation {
        firing_hexes: sides
            .attackers
            .iter()
            .map(|f| FiringHex {
                label: Some(f.label.clone()),
                range: 1,
                rear: false,
                leader: false,
                terrain: None,
                disrupted: false,
                units: vec![stack(f)],
            })
            .collect(),
        target: target(sides, terrain),
        after_movement: (action == "horse_archer_fire").then(|| AfterMovement {
            terrain: terrain.to_string(),
            // The formation moves at its slowest unit's pace (4.3.1).
            movement: sides
                .attackers
                .iter()
                .filter_map(|f| movement(data, f))
                .min()
                .unwrap_or(0),
            contact_movement: sides
                .defenders
                .iter()
                .filter_map(|f| movement(data, f))
                .collect(),
            fired_before_movement: false,
        }),
    }
}

/// The stack as it stands now: the units left in it (4.5.11).
fn stack(f: &Picked) -> UnitEntry {
    f.own.now(f.unit.strength)
}

/// The defenders as one target hex: fire falls on a single hex (4.2), so the picked defenders are
/// the units stacked in it, with the most D markers any of them carries.
fn target(sides: &Sides<ItacsUnit>, terrain: &str) -> TargetHex {
    let labels: Vec<&str> = sides.defenders.iter().map(|f| f.label.as_str()).collect();
    TargetHex {
        terrain: terrain.to_string(),
        stream: false,
        road: false,
        scarp: ScarpLine::None,
        square: false,
        d_markers: sides
            .defenders
            .iter()
            .map(|f| f.own.d_markers)
            .max()
            .unwrap_or(0),
        rout: sides.defenders.iter().any(|f| f.own.rout),
        label: Some(labels.join(" + ")),
        units: sides.defenders.iter().map(stack).collect(),
    }
}

/// A roster unit as the rules read it, with its type's values.
fn resolved(data: &ItacsData, f: &Picked) -> Option<Unit> {
    Unit::resolve(data, &f.own.entry, "").ok()
}

/// The movement points of a unit, printed or from its type.
fn movement(data: &ItacsData, f: &Picked) -> Option<u32> {
    resolved(data, f)?.movement
}

/// The values the text does not give for a unit's type and its roster entry leaves out
/// (R-ITACS-17): the umpire reads them off the counter.
fn missing_values(data: &ItacsData, action: &str, sides: &Sides<ItacsUnit>) -> Vec<String> {
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
