//! A combat result in words (5.1.1 f): each side by its hexes' labels (the roster's units), else
//! "the attacker" and "the defender"; a leader alone by his title.

use super::effects::{Aftermath, SideAftermath};
use super::CombatSituation;
use crate::error::and_list;
use crate::systems::medieval::result::{CombatResult, Part, Who};
use crate::systems::medieval::retreat::Landing;

/// Each side's name in a result's words, and whether it takes the verb's singular.
pub(super) struct SideNames {
    attacker: (String, bool),
    defender: (String, bool),
    leader_alone: bool,
}

impl SideNames {
    pub fn of(s: &CombatSituation) -> SideNames {
        let attacker = side_name(
            s.attackers.iter().map(|h| h.label.as_deref()).collect(),
            "The attacker",
        );
        let defender = if s.leader_alone {
            ("The leader".to_string(), true)
        } else {
            side_name(
                s.defenders.iter().map(|h| h.label.as_deref()).collect(),
                "The defender",
            )
        };
        SideNames {
            attacker,
            defender,
            leader_alone: s.leader_alone,
        }
    }

    /// "Knights loses 1 SP; the defender retreats 2 hexes"; a leader alone is killed (8.2.9).
    pub fn result(&self, r: &CombatResult) -> String {
        let attacker = Who {
            name: &self.attacker.0,
            one: self.attacker.1,
        };
        if self.leader_alone {
            let own = r.attacker.words(&attacker);
            return match own {
                Some(w) => format!("{w}; the leader is killed"),
                None => "The leader is killed".to_string(),
            };
        }
        let defender = Who {
            name: &self.defender.0,
            one: self.defender.1,
        };
        r.words(&attacker, &defender)
    }

    /// The result as a sentence.
    pub fn meaning(&self, r: &CombatResult) -> String {
        format!("{}.", self.result(r))
    }

    /// Where each retreating side now stands on the roster, in words (R-MED-44): on the route's
    /// hex, or — past the hexes the route names, or with none picked for a side the roster
    /// names — where it fought, for the umpire to set.
    pub fn landings(&self, r: &CombatResult, after: &Aftermath) -> Vec<String> {
        let mut out = Vec::new();
        let mut sides = vec![(
            &self.attacker.0,
            r.attacker,
            &after.attacker,
            "The attacker",
        )];
        if !self.leader_alone {
            sides.push((
                &self.defender.0,
                r.defender,
                &after.defender,
                "The defender",
            ));
        }
        for (name, part, side, role) in sides {
            out.extend(landing_words(name, name != role, part, side));
        }
        out
    }
}

/// One side's landing in words, if it retreats: the side's, or each fighting hex's (R-MED-50).
fn landing_words(name: &str, named: bool, part: Part, side: &SideAftermath) -> Vec<String> {
    // A side scattered outright leaves the map (9.1): where it retreated is moot.
    if part.retreat == 0 || part.scattered {
        return Vec::new();
    }
    let unset =
        "the roster leaves its units where they fought: move them on the map and set their hex";
    let landings = side.landings(part);
    let several = landings.len() > 1;
    landings
        .into_iter()
        .filter_map(|(stack, landing)| {
            let name = match &stack {
                Some(stack) if several => stack.as_str(),
                _ => name,
            };
            match landing {
                Landing::On(hex) => Some(format!("{name}: the retreat ends on hex {hex}.")),
                Landing::Overfull(hex) if several => Some(format!(
                    "{name}: cannot end on hex {hex} with the side's other stacks retreating there, over its {} SPs (4.5.2); move them on the map and set their hex.",
                    side.route.stacking_limit(&hex).unwrap_or_default()
                )),
                Landing::Overfull(hex) => Some(format!(
                    "{name}: the stacks from the side's hexes cannot all end on hex {hex}, over its {} SPs (4.5.2); move them on the map and set their hexes.",
                    side.route.stacking_limit(&hex).unwrap_or_default()
                )),
                Landing::Unnamed if side.route.described() => Some(format!(
                    "{name}: the retreat route names no hex where the retreat ends; {unset}."
                )),
                Landing::Unnamed if named => {
                    Some(format!("{name}: no retreat route picked; {unset}."))
                }
                _ => None,
            }
        })
        .collect()
}

/// A side by its hexes' labels when every hex has one, else by its role; singular for one label.
fn side_name(labels: Vec<Option<&str>>, word: &'static str) -> (String, bool) {
    let named: Vec<&str> = labels.iter().flatten().copied().collect();
    if named.is_empty() || named.len() < labels.len() {
        (word.to_string(), true)
    } else {
        (and_list(&named), named.len() == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::situation;
    use super::*;

    #[test]
    fn sides_are_named_by_their_labels_else_by_their_role() {
        assert_eq!(
            side_name(vec![Some("Knights")], "The attacker"),
            ("Knights".to_string(), true)
        );
        assert_eq!(
            side_name(vec![Some("Knights"), Some("Sergeants")], "The attacker"),
            ("Knights and Sergeants".to_string(), false)
        );
        assert_eq!(
            side_name(vec![Some("Knights"), None], "The attacker"),
            ("The attacker".to_string(), true)
        );
    }

    #[test]
    fn the_5_1_1_result_in_words_and_a_leader_alone_killed() {
        let r: CombatResult = "-1/D2".parse().unwrap();
        let mut s = situation(serde_json::json!({
            "attackers": [{ "label": "Knights", "units": [{ "type": "heavy_cavalry", "sp": 2 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "light_cavalry", "sp": 2 }] }]
        }));
        assert_eq!(
            SideNames::of(&s).meaning(&r),
            "Knights loses 1 SP; The defender retreats 2 hexes."
        );
        s.leader_alone = true;
        assert_eq!(
            SideNames::of(&s).result(&r),
            "Knights loses 1 SP; the leader is killed"
        );
    }
}
