//! Medieval combats opened from the roster: each picked counter is a hex of its own, with the
//! SPs it has left (1.2) and its charge factor now (5.6, lowered by results in its stats `cf`).

use serde_json::{json, Value};

use super::data::MedievalData;
use crate::battle::fight::{
    named, not_a_combat, one_each, open_ground, with, Fighter, Labels, Opening, Sides,
};
use crate::error::RefereeError;

pub fn open(data: &MedievalData, action: &str, sides: &Sides) -> Result<Opening, RefereeError> {
    for f in sides.attackers.iter().chain(&sides.defenders) {
        if f.unit.scattered {
            return Err(RefereeError::new(
                "fight.scattered",
                format!(
                    "{} is scattered: it fights again only once it has regrouped.",
                    named(f.unit)
                ),
            )
            .rule("9.1"));
        }
    }
    let terrain = open_ground(data.terrain.keys());
    let (situation, asks) = match action {
        "combat" => (
            json!({
                "attackers": sides.attackers.iter().map(|f| json!({
                    "label": f.label,
                    "units": [counter(f)],
                })).collect::<Vec<_>>(),
                "defenders": sides.defenders.iter().map(|f| json!({
                    "label": f.label,
                    "terrain": terrain,
                    "units": [counter(f)],
                })).collect::<Vec<_>>(),
                // The MORALE track counts for the attacker or the defender (6.1.2); the battle
                // keeps it in its first side's favour.
                "morale": if sides.attackers_first() { sides.state.morale_track } else { -sides.state.morale_track },
            }),
            vec![
                "Set the terrain of each defending hex and tick streams, bridges and rear attacks (5.6, 3.1.2).".into(),
                "Say where each side's leader is (8.2).".into(),
            ],
        ),
        "fire" => {
            if sides.attackers.len() > 1 {
                return Err(one_each(
                    "A ranged fire is one unit shooting at a hex",
                    "10.2",
                )
                .field("attackers"));
            }
            (
                json!({
                    "shooter": counter(&sides.attackers[0]),
                    "range": 1,
                    "target": {
                        "terrain": terrain,
                        "units": sides.defenders.iter().map(counter).collect::<Vec<_>>(),
                    },
                }),
                vec!["Set the range to the target and its terrain (10.2).".into()],
            )
        }
        _ => return Err(not_a_combat(action)),
    };
    Ok(Opening {
        situation,
        labels: Labels::Hexes,
        asks,
    })
}

/// The counter now: its SPs left.
fn counter(f: &Fighter) -> Value {
    with(&f.unit.stats, "sp", json!(f.unit.strength))
}
