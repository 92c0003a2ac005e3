//! GTS combats opened from the roster: each picked unit with the stands it has left, its hits,
//! Disorder and rout (2.11, 3.32, 6.13), named as on the roster.

use serde_json::{json, Value};

use crate::battle::fight::{not_a_combat, one_each, with, Fighter, Labels, Opening, Sides};
use crate::battle::model::LeaderFate;
use crate::error::RefereeError;

pub fn open(action: &str, sides: &Sides) -> Result<Opening, RefereeError> {
    let (situation, asks) = match action {
        "melee" | "recoil" | "melee_round" => (
            json!({
                "side_a": sides.attackers.iter().map(melee_unit).collect::<Vec<_>>(),
                "side_b": sides.defenders.iter().map(melee_unit).collect::<Vec<_>>(),
            }),
            vec![
                "Tick flanked, flanking and elevation for each unit, and the first turn of this combat (2.14, 7.1); after contact made this turn, tick contact and any unit touching rough terrain (4.43, 4.47, 4.54); for an elephant or chariot with an escort, enter the escort stand (3.164).".into(),
            ],
        ),
        "fire" => {
            if sides.attackers.len() > 1 || sides.defenders.len() > 1 {
                return Err(one_each("A fire event is one unit firing at one unit", "5.5"));
            }
            (
                json!({
                    "firer": unit(&sides.attackers[0]),
                    "target": unit(&sides.defenders[0]),
                    "range": 1,
                }),
                vec!["Set the range in inches and the target's cover and elevation (5.0); for an elephant or chariot with an escort, enter the escort stand (3.163).".into()],
            )
        }
        _ => return Err(not_a_combat(action)),
    };
    Ok(Opening {
        situation,
        labels: Labels::Units,
        asks,
    })
}

/// A unit in a melee with what the roster keeps of its leader (Table 1.10, R-GTS-25): his
/// state until the turn ends, his wounds, and result 8's −1 within 6" of a fallen leader.
fn melee_unit(f: &Fighter) -> Value {
    let mut entry = json!({ "unit": unit(f) });
    let condition = f.unit.leader.map(|l| match l {
        LeaderFate::Dazed => "dazed",
        LeaderFate::Unhorsed => "unhorsed",
        LeaderFate::SeriouslyWounded => "seriously_wounded",
        LeaderFate::PassedOut => "passed_out",
        LeaderFate::Killed => "killed",
        LeaderFate::Captured => "captured",
    });
    if let Some(c) = condition {
        entry["leader_condition"] = json!(c);
    }
    if f.unit.leader_wounds > 0 {
        entry["leader_wounds"] = json!(f.unit.leader_wounds);
    }
    if f.unit.near_fallen_leader {
        entry["near_fallen_leader"] = json!(true);
    }
    entry
}

/// The unit now (the roster keeps stands, hits, disorder and rout in its stats), named as the
/// roster names it so its effects find it.
fn unit(f: &Fighter) -> Value {
    let stats = with(&f.unit.stats, "stands", json!(f.unit.strength));
    with(&stats, "name", json!(f.label))
}
