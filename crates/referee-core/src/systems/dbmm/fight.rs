//! DBMM combats opened from the roster: the first element picked on each side fights; in close
//! combat the others picked are overlaps of the enemy element (p. 35).

use serde_json::{json, Value};

use super::data::DbmmData;
use crate::battle::fight::{not_a_combat, one_each, with, Fighter, Labels, Opening, Sides};
use crate::error::RefereeError;

/// The fighting element and up to one overlap on each of the enemy's two flanks (p. 35).
const MOST_PICKED: usize = 3;

pub fn open(_data: &DbmmData, action: &str, sides: &Sides) -> Result<Opening, RefereeError> {
    let (a, b) = (&sides.attackers[0], &sides.defenders[0]);
    let (situation, asks) = match action {
        "close_combat" => {
            if sides.attackers.len() > MOST_PICKED || sides.defenders.len() > MOST_PICKED {
                return Err(RefereeError::new(
                    "fight.too_many_units",
                    "An element has two flanks: pick the element in front contact and at most two overlapping it on each side.",
                )
                .rule("p. 35"));
            }
            (
                json!({
                    "a": { "element": element(a), "overlaps": overlaps(&sides.defenders[1..]) },
                    "b": { "element": element(b), "overlaps": overlaps(&sides.attackers[1..]) },
                    // The attackers are the side whose bound it is.
                    "bound": "a",
                }),
                vec![
                    "The second and third elements picked on a side overlap the enemy element (p. 35): move any that give rear support instead (p. 36).".into(),
                    "Set the going, the edge in contact and the tactical factors claimed (p. 36–38).".into(),
                ],
            )
        }
        "shooting" => {
            if sides.attackers.len() > 1 || sides.defenders.len() > 1 {
                return Err(one_each(
                    "Shooting is resolved between the primary shooter and its target",
                    "p. 34",
                ));
            }
            (
                json!({
                    "shooter": { "element": element(a) },
                    "target": { "element": element(b) },
                    "bound": "shooter",
                }),
                vec!["Set the range in paces and any aiding shooters (p. 34, p. 37).".into()],
            )
        }
        _ => return Err(not_a_combat(action)),
    };
    let mut asks = asks;
    // An (X) element fights ungraded until its X-grading line is entered (R-DBMM-6).
    for f in [a, b] {
        let stats = &f.unit.stats;
        if stats.get("grade").and_then(Value::as_str) == Some("X")
            && stats.get("counts_as").is_none_or(Value::is_null)
        {
            asks.push(format!(
                "{} is graded (X): enter the X-grading line it counts as in this combat (p. 4–9, R-DBMM-6).",
                f.label
            ));
        }
    }
    Ok(Opening {
        situation,
        labels: Labels::Units,
        asks,
    })
}

/// The element as the sheet takes it, named as on the roster; the battle's own `state` (how it
/// left the table) is no part of it.
fn element(f: &Fighter) -> Value {
    let mut stats = with(&f.unit.stats, "name", json!(f.label));
    if let Some(map) = stats.as_object_mut() {
        map.remove("state");
    }
    stats
}

fn overlaps(fighters: &[Fighter]) -> Vec<Value> {
    fighters
        .iter()
        .map(|f| json!({ "type": f.unit.stats.get("type"), "grade": f.unit.stats.get("grade") }))
        .collect()
}
