//! The notes a whole fight calls for once its units are known: ride-downs in a retreat (5.4.4),
//! scatter columns (5.1.1 g, R-MED-22), horse archers (10.5.1), ranged units held in a stack
//! (10.3.3, R-MED-21) and the leaders' rolls and retreats (8.2.4–8.2.7).

use super::modifiers::Cms;
use super::strength::Fighters;
use super::CombatSituation;
use crate::contract::Note;
use crate::systems::medieval::data::MedievalData;
use crate::systems::medieval::units::Unit;

/// The closing notes, in the order the resolution gives them.
pub(super) fn closing(
    data: &MedievalData,
    s: &CombatSituation,
    sides: [&Fighters; 2],
    cms: &Cms,
) -> Vec<Note> {
    let mut notes = Vec::new();
    let own_route = s
        .attackers
        .iter()
        .map(|h| &h.retreat_hexes)
        .chain(s.defenders.iter().map(|h| &h.retreat_hexes))
        .any(Option::is_some);
    if s.attacker.retreat_hexes.is_none() && s.defender.retreat_hexes.is_none() && !own_route {
        notes.push(Note::new(
            "Cavalry retreating through a hex of friendly non-cavalry rides it down (eliminated); describe the retreat hexes and the referee finds who.",
            "5.4.4",
            None,
        ));
    }
    notes.extend(unit_notes(data, sides));
    notes.extend(leader_notes(sides, cms));
    notes
}

/// What the fighting units' types call for: mixed scatter columns, armour other than the type's,
/// horse archers fighting as cavalry, ranged units held in a mixed stack.
fn unit_notes(data: &MedievalData, [attackers, defenders]: [&Fighters; 2]) -> Vec<Note> {
    let mut notes = Vec::new();
    let both = || attackers.units.iter().chain(&defenders.units);
    if [attackers, defenders].iter().any(|side| {
        side.units
            .iter()
            .any(|(u, _)| u.scatter != side.units[0].0.scatter)
    }) {
        notes.push(Note::new(
            "Units of several types: one scatter roll, read for each unit; the forecast uses the most easily scattered.",
            &data.scatter.rule,
            None,
        ));
    }
    if let Some((u, _)) = both().find(|(u, _)| {
        let own = data.unit_types.get(&u.key).map(|t| t.scatter.as_str());
        own.is_some_and(|column| column != u.scatter)
    }) {
        notes.push(Note::new(
            format!(
                "{} with armour {} scatter on the COMBAT SCATTER column of that armour.",
                u.name, u.armour
            ),
            &data.scatter.rule,
            Some("R-MED-22"),
        ));
    }
    if let Some((u, _)) = both().find(|(u, _)| u.cavalry && u.ranged.is_some()) {
        notes.push(Note::new(
            format!(
                "{} fight as cavalry: their SPs count in full, they retreat, and they scatter as light cavalry at armour 0.",
                u.name
            ),
            "10.5.1",
            Some("R-MED-24"),
        ));
    }
    let held = |u: &Unit| u.fights_as_ranged() && !u.movement_formation;
    if [attackers, defenders].iter().any(|side| {
        side.units.iter().any(|(u, _)| held(u)) && !side.units.iter().all(|(u, _)| held(u))
    }) {
        notes.push(Note::new(
            "Ranged units in combat formation stacked with other units retreat with the stack; only ranged units fighting on their own cannot retreat.",
            "10.3.3",
            Some("R-MED-21"),
        ));
    }
    notes
}

/// A leader on one of several hexes counts his own hex's losses (R-MED-31); a stacked leader
/// retreats on his own (8.2.6, 8.2.7).
fn leader_notes([attackers, defenders]: [&Fighters; 2], cms: &Cms) -> Vec<Note> {
    let mut notes = Vec::new();
    if [attackers, defenders]
        .iter()
        .any(|side| side.leaders.len() > 1 && side.leader_on_a_hex())
    {
        notes.push(Note::new(
            "The leader's death roll counts the SPs lost on his own hex: the forecast puts there only the losses the side's other hexes cannot take, as its player chooses who loses.",
            "8.2.4, 8.2.5, 5.4.7",
            Some("R-MED-31"),
        ));
    }
    if cms.a_leader_stacked() {
        notes.push(Note::new(
            "A stacked leader retreats on his own, ignoring enemy ZoCs; if he cannot retreat he stops at the last hex he can reach.",
            "8.2.6, 8.2.7",
            None,
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{counted, situation};
    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn closing_rules(v: serde_json::Value) -> Vec<(String, Option<String>)> {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(v);
        let fight = counted(data, &s);
        closing(data, &s, fight.sides(), &fight.cms)
            .into_iter()
            .map(|n| (n.rule, n.ruling))
            .collect()
    }

    #[test]
    fn horse_archers_and_a_leader_on_one_of_two_hexes_are_noted() {
        let rules = closing_rules(serde_json::json!({
            "attackers": [
                { "leader": true, "units": [{ "type": "horse_archers", "sp": 2 }] },
                { "units": [{ "type": "heavy_cavalry", "sp": 2 }] }
            ],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "heavy_infantry", "sp": 2 }] }],
            "attacker": { "retreat_hexes": [] }
        }));
        let has = |rule: &str, ruling: Option<&str>| {
            rules
                .iter()
                .any(|(r, g)| r == rule && g.as_deref() == ruling)
        };
        assert!(!has("5.4.4", None));
        assert!(has("10.5.1", Some("R-MED-24")));
        assert!(has("8.2.4, 8.2.5, 5.4.7", Some("R-MED-31")));
        assert!(has("8.2.6, 8.2.7", None));
    }

    #[test]
    fn a_ranged_unit_in_a_mixed_stack_retreats_with_it() {
        let rules = closing_rules(serde_json::json!({
            "attackers": [{ "units": [{ "type": "heavy_cavalry", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [
                { "type": "archers", "sp": 1 }, { "type": "heavy_infantry", "sp": 1 }
            ] }]
        }));
        assert_eq!(rules[0].0, "5.4.4");
        assert!(rules.contains(&("10.3.3".to_string(), Some("R-MED-21".to_string()))));
    }
}
