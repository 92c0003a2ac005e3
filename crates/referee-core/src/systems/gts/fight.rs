//! GTS combats opened from the roster: each picked unit with the stands it has left, its hits,
//! Disorder and rout (2.11, 3.32, 6.13), named as on the roster.

use super::fire::FireSituation;
use super::melee::{LeaderCondition, MeleeSituation, MeleeUnit};
use super::roster::GtsUnit;
use super::units::UnitEntry;
use crate::error::RefereeError;
use crate::rule_system::fight::{not_a_combat, one_each, targets, Fighter, Labels, Opening, Sides};
use crate::state::LeaderFate;

pub fn open(action: &str, sides: &Sides<GtsUnit>) -> Result<Opening, RefereeError> {
    match action {
        "melee" | "recoil" | "melee_round" => Opening::new(
            &MeleeSituation {
                side_a: sides.attackers.iter().map(melee_unit).collect(),
                side_b: sides.defenders.iter().map(melee_unit).collect(),
                ..MeleeSituation::default()
            },
            targets(sides, Labels::Units),
            vec![
                "Tick flanked, flanking and elevation for each unit, and the first turn of this combat (2.14, 7.1); after contact made this turn, tick contact and any unit touching rough terrain (4.43, 4.47, 4.54); for an elephant or chariot with an escort, enter the escort stand (3.164).".into(),
            ],
        ),
        "fire" => {
            if sides.attackers.len() > 1 || sides.defenders.len() > 1 {
                return Err(one_each("A fire event is one unit firing at one unit", "5.5"));
            }
            Opening::new(
                &FireSituation {
                    firer: unit(&sides.attackers[0]),
                    target: unit(&sides.defenders[0]),
                    range: 1.0,
                    // The target's leader from the roster, while he is in play (1.6, 1.9).
                    target_leader_pv: leader_in_play(&sides.defenders[0]).unwrap_or(0),
                    target_leader: leader_in_play(&sides.defenders[0]).is_some(),
                    ..FireSituation::default()
                },
                targets(sides, Labels::Units),
                vec!["Set the range in inches and the target's cover and elevation (5.0); for an elephant or chariot with an escort, enter the escort stand (3.163).".into()],
            )
        }
        _ => Err(not_a_combat(action)),
    }
}

/// A unit in a melee with what the roster keeps of its leader (Table 1.10, R-GTS-25): his
/// state until the turn ends, his wounds, and result 8's −1 within 6" of a fallen leader.
fn melee_unit(f: &Fighter<GtsUnit>) -> MeleeUnit {
    MeleeUnit {
        unit: unit(f),
        leader_condition: f.unit.leader.map(|l| match l {
            LeaderFate::Dazed => LeaderCondition::Dazed,
            LeaderFate::Unhorsed => LeaderCondition::Unhorsed,
            LeaderFate::SeriouslyWounded => LeaderCondition::SeriouslyWounded,
            LeaderFate::PassedOut => LeaderCondition::PassedOut,
            LeaderFate::Killed => LeaderCondition::Killed,
            LeaderFate::Captured => LeaderCondition::Captured,
        }),
        leader_wounds: f.unit.leader_wounds,
        // The leader attached on the roster (1.6): his valour without retyping it.
        leader_pv: f.own.leader_pv,
        near_fallen_leader: f.own.near_fallen_leader,
        // A bonus used in an earlier combat is not used again (2.14).
        first_turn_spent: f.own.first_turn_spent,
        ..MeleeUnit::default()
    }
}

/// The valour of the leader attached to a unit on the roster as he fights now (R-GTS-25): none
/// out of play, −1 dazed, +1 a wound to at most +2.
fn leader_in_play(f: &Fighter<GtsUnit>) -> Option<i64> {
    let pv = f.own.leader_pv?;
    match f.unit.leader {
        Some(l) if l.out_of_play() => None,
        Some(LeaderFate::Dazed) => Some(-1),
        _ => Some((pv + i64::from(f.unit.leader_wounds)).min(2)),
    }
}

/// The unit now, named as the roster names it so its effects find it.
fn unit(f: &Fighter<GtsUnit>) -> UnitEntry {
    f.own.now(f.unit, &f.label)
}
