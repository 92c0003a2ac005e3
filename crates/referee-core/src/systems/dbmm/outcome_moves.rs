//! Outcome moves by element (p. 40–42) with their distances in paces: a recoil is the element's
//! base depth (ELEMENT BASING, p. 13, read by R-DBMM-42), a repulse 160p–240p, a flee a full
//! tactical move for the going it starts in (its first base depth a recoil), a rout twice that;
//! an (F) element adds the fast bonus to repulse and flee (R-DBMM-13).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use super::element::{self, Checked};
use crate::contract::Check;
use crate::fate::{Fate, FateChoice};

/// ELEMENT BASING (p. 13): element depth at 15 mm, in paces (1 mm a pace at 15 mm, R-DBMM-14, and
/// the bases of larger figures grow with the pace), row by row as R-DBMM-42 reads the flattened
/// table; the first row that selects the element holds. Kept in DBMM's companion file.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Basing {
    pub rule: String,
    pub ruling: String,
    /// Kn in Wedge.
    pub wedge_depth: i64,
    pub rows: Vec<BasingRow>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BasingRow {
    pub who: String,
    pub depth: i64,
}

/// "A repulsed element moves straight back still facing the opponent ≥ 160p ≤ 240p" (p. 40).
pub const REPULSE_PACES: [i64; 2] = [160, 240];
/// "Rout move is … twice a tactical move distance" (p. 41).
pub const ROUT_FACTOR: i64 = 2;
pub const RULE: &str = "p. 13, 40–42";
pub const RULING: &str = "R-DBMM-42";

/// The element's base depth in paces, if the basing table has its row.
pub fn base_depth(data: &DbmmData, element: &Checked) -> Option<i64> {
    if element.element.wedge && element.element.type_code == "Kn" {
        return Some(data.basing.wedge_depth);
    }
    let traits = element.own_traits(data);
    data.basing
        .rows
        .iter()
        .find(|r| data.selector(&r.who).matches(&traits))
        .map(|r| r.depth)
}

/// The fast bonus of an (F) element the bonus row selects (R-DBMM-13), else 0.
fn fast_bonus(data: &DbmmData, element: &Checked) -> i64 {
    let m = &data.movement;
    let fast = element.element.grade == "F"
        && data
            .selector(&m.fast_bonus_who)
            .matches(&element.own_traits(data));
    if fast {
        m.fast_bonus
    } else {
        0
    }
}

/// "80p GGo, 80p RGo, 40p DGo" — a distance by going; a going it may not enter is left out.
fn by_going(moves: &[Option<i64>], factor: i64) -> String {
    let parts: Vec<String> = ["GGo", "RGo", "DGo"]
        .iter()
        .zip(moves)
        .filter_map(|(going, p)| {
            p.filter(|p| *p > 0)
                .map(|p| format!("{}p {going}", p * factor))
        })
        .collect();
    parts.join(", ")
}

/// The outcome moves of one element as a check for the umpire, with their distances: "Hastati:
/// recoil 15p (its base depth); repulse 160p–240p; flee 160p GGo, 160p RGo, 80p DGo (the first
/// 15p a recoil); rout 320p GGo, 320p RGo, 160p DGo".
pub fn check(data: &DbmmData, label: &str, element: &Checked) -> Check {
    let distance = |fate| distance(data, element, fate);
    let mut parts = vec![format!(
        "recoil {}",
        distance(Fate::Recoil).unwrap_or_default()
    )];
    parts.extend(distance(Fate::Repulsed).map(|d| format!("repulse {d}")));
    if let Some(flee) = distance(Fate::Flee) {
        let first =
            base_depth(data, element).map_or("its base depth".to_string(), |d| format!("{d}p"));
        parts.push(format!("flee {flee} (the first {first} a recoil)"));
        parts.extend(distance(Fate::Rout).map(|d| format!("rout {d}")));
    }
    Check::umpire(format!("{label}: {}", parts.join("; ")), RULE).ruling(Some(RULING))
}

/// How far the outcome move a fate calls for goes, in paces: "15p (its base depth)",
/// "160p–240p", "160p GGo, 160p RGo, 80p DGo"; none for a fate that moves nothing.
pub fn distance(data: &DbmmData, element: &Checked, fate: Fate) -> Option<String> {
    let by_going_times = |factor| {
        element::moves(data, element)
            .map(|moves| by_going(&moves[..3], factor))
            .filter(|d| !d.is_empty())
    };
    match fate {
        Fate::Recoil => Some(match base_depth(data, element) {
            Some(d) => format!("{d}p (its base depth)"),
            None => "its base depth".to_string(),
        }),
        Fate::Repulsed => {
            let ([lo, hi], bonus) = (REPULSE_PACES, fast_bonus(data, element));
            Some(format!("{}p–{}p", lo + bonus, hi + bonus))
        }
        Fate::Flee => by_going_times(1),
        Fate::Rout => by_going_times(ROUT_FACTOR),
        _ => None,
    }
}

/// The move a fate calls for, as the element's row says it until it is made: "recoils 15p (its
/// base depth)"; "is repulsed 160p–240p or recoils 15p (its base depth), as the player chooses".
pub fn called_for(data: &DbmmData, element: &Checked, fate: FateChoice) -> Option<String> {
    let one =
        |f: Fate| distance(data, element, f).map(|d| format!("{} {d}", FateChoice::one(f).words()));
    match fate.or {
        None => one(fate.fate),
        Some(or) => match (one(fate.fate)?, one(or)) {
            (first, Some(second)) => Some(format!("{first} or {second}, as the player chooses")),
            // A friend on the enemy's flank recoils if it can, else is spent (p. 38).
            (first, None) => Some(format!(
                "{first}; if it cannot, it {}",
                FateChoice::one(or).words()
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dbmm::element::{check as checked, Element};

    fn element(type_code: &str, grade: &str, wedge: bool) -> Element {
        serde_json::from_value(serde_json::json!({
            "type": type_code, "grade": grade, "wedge": wedge
        }))
        .unwrap()
    }

    #[test]
    fn each_element_recoils_its_base_depth() {
        let data = super::super::test_data();
        let cases = [
            ("Sp", "O", false, 15),
            ("Pk", "S", false, 15),
            ("Pk", "F", false, 20),
            ("Bd", "O", false, 15),
            ("Bd", "F", false, 20),
            ("Wb", "S", false, 15),
            ("Wb", "F", false, 20),
            ("Ps", "O", false, 20),
            ("Bw", "I", false, 20),
            ("Kn", "S", false, 30),
            ("Kn", "X", false, 20),
            ("Kn", "S", true, 40),
            ("Cv", "O", false, 30),
            ("LH", "F", false, 30),
            ("Hd", "O", false, 30),
            ("El", "O", false, 40),
            ("Art", "S", false, 40),
            ("Art", "O", false, 80),
            ("WWg", "O", false, 80),
            ("Bge", "S", false, 80),
            ("Bge", "O", false, 40),
            ("Gal", "O", false, 80),
        ];
        for (t, g, wedge, depth) in cases {
            let e = element(t, g, wedge);
            let c = checked(&data, &e, "element").unwrap();
            assert_eq!(
                base_depth(&data, &c),
                Some(depth),
                "{t} ({g}) wedge {wedge}"
            );
        }
    }

    #[test]
    fn the_moves_are_checks_with_their_distances() {
        let data = super::super::test_data();
        let e = element("Bd", "O", false);
        let c = checked(&data, &e, "element").unwrap();
        let check = check(&data, "Hastati", &c);
        assert_eq!(
            check.label,
            "Hastati: recoil 15p (its base depth); repulse 160p–240p; flee 160p GGo, 160p RGo, 80p DGo (the first 15p a recoil); rout 320p GGo, 320p RGo, 160p DGo"
        );
        assert_eq!(check.rule, "p. 13, 40–42");
        assert_eq!(check.ruling.as_deref(), Some("R-DBMM-42"));
        // An (F) element repulses and flees 40p further (R-DBMM-13).
        let e = element("Ax", "F", false);
        let c = checked(&data, &e, "element").unwrap();
        assert_eq!(
            super::check(&data, "Auxilia", &c).label,
            "Auxilia: recoil 20p (its base depth); repulse 200p–280p; flee 240p GGo, 240p RGo, 200p DGo (the first 20p a recoil); rout 480p GGo, 480p RGo, 400p DGo"
        );
    }

    /// Each outcome move applied is written on the element's row with its distance, until made.
    #[test]
    fn each_outcome_move_called_for_says_its_distance() {
        let data = super::super::test_data();
        let e = element("Ax", "F", false);
        let c = checked(&data, &e, "element").unwrap();
        let cases = [
            (
                FateChoice::one(Fate::Recoil),
                Some("recoils 20p (its base depth)"),
            ),
            (
                FateChoice::one(Fate::Repulsed),
                Some("is repulsed 200p–280p"),
            ),
            (
                FateChoice::one(Fate::Flee),
                Some("flees 240p GGo, 240p RGo, 200p DGo"),
            ),
            (
                FateChoice::one(Fate::Rout),
                Some("routs 480p GGo, 480p RGo, 400p DGo"),
            ),
            (
                FateChoice::either(Fate::Repulsed, Fate::Recoil),
                Some(
                    "is repulsed 200p–280p or recoils 20p (its base depth), as the player chooses",
                ),
            ),
            (
                FateChoice::either(Fate::Recoil, Fate::Spent),
                Some("recoils 20p (its base depth); if it cannot, it is spent"),
            ),
            (FateChoice::one(Fate::Pursue), None),
            (FateChoice::one(Fate::Stand), None),
        ];
        for (fate, words) in cases {
            assert_eq!(called_for(&data, &c, fate).as_deref(), words, "{fate:?}");
        }
    }
}
