//! Medieval combats opened from the roster: each picked counter is a hex of its own, with the
//! SPs it has left (1.2) and its charge factor now (5.6, lowered by results).

use super::combat::{AttackingHex, CombatSituation, DefendingHex};
use super::data::MedievalData;
use super::fire::{FireSituation, FireTarget};
use super::roster::MedievalCounter;
use super::units::MedUnit;
use crate::error::RefereeError;
use crate::rule_system::fight::{
    not_a_combat, one_each, open_ground, targets, Fighter, Labels, Opening, Sides,
};
use crate::ErrorCode;

pub fn open(
    data: &MedievalData,
    action: &str,
    sides: &Sides<MedievalCounter>,
) -> Result<Opening, RefereeError> {
    for f in sides.attackers.iter().chain(&sides.defenders) {
        if f.own.scattered {
            return Err(RefereeError::new(
                ErrorCode::FightScattered,
                format!(
                    "{} is scattered: it fights again only once it has regrouped.",
                    f.unit.named()
                ),
            )
            .rule("9.1"));
        }
    }
    let terrain = open_ground(data.terrain.keys());
    match action {
        "combat" => {
            let situation = CombatSituation {
                attackers: sides
                    .attackers
                    .iter()
                    .map(|f| AttackingHex {
                        label: Some(f.label.clone()),
                        units: vec![counter(f)],
                        ..AttackingHex::default()
                    })
                    .collect(),
                defenders: sides
                    .defenders
                    .iter()
                    .map(|f| DefendingHex {
                        label: Some(f.label.clone()),
                        terrain: terrain.clone(),
                        units: vec![counter(f)],
                        ..DefendingHex::default()
                    })
                    .collect(),
                // The value in force, not the counter: phase 9 sets it (6.1.9); in player A's
                // favour, the battle's first side.
                morale: sides.state.morale_in_force,
                attacker_player: if sides.attackers_first() {
                    super::morale::Player::A
                } else {
                    super::morale::Player::B
                },
                ..CombatSituation::default()
            };
            Opening::new(
                &situation,
                targets(sides, Labels::Hexes),
                vec![
                    "Set the terrain of each defending hex and tick streams, bridges and rear attacks (5.6, 3.1.2).".into(),
                    "Say where each side's leader is (8.2).".into(),
                ],
            )
        }
        "fire" => {
            if sides.attackers.len() > 1 {
                return Err(
                    one_each("A ranged fire is one unit shooting at a hex", "10.2")
                        .field("attackers"),
                );
            }
            let situation = FireSituation {
                shooter: counter(&sides.attackers[0]),
                range: 1,
                target: Some(FireTarget {
                    label: Some(
                        sides
                            .defenders
                            .iter()
                            .map(|f| f.label.as_str())
                            .collect::<Vec<_>>()
                            .join(" and "),
                    ),
                    terrain,
                    units: sides.defenders.iter().map(counter).collect(),
                }),
                ..FireSituation::default()
            };
            Opening::new(
                &situation,
                targets(sides, Labels::Hexes),
                vec!["Set the range to the target and its terrain (10.2).".into()],
            )
        }
        _ => Err(not_a_combat(action)),
    }
}

/// The counter now: its SPs left.
fn counter(f: &Fighter<MedievalCounter>) -> MedUnit {
    f.own.now(f.unit.strength)
}
