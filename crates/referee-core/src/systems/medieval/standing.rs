//! A Medieval battle's standing: the MORALE track (6.1) and each side's losses.

use super::data::MedievalData;
use super::morale::{morale, this_turn};
use super::roster::MedievalCounter;
use crate::rule_system::standing::{gauge, of_side, Gauge, SideVerdict, Standing, Verdict};
use crate::state::BattleState;
use crate::tournament::Outcome;

fn plural(n: i64) -> &'static str {
    if n.abs() == 1 {
        ""
    } else {
        "s"
    }
}

/// The MORALE track, and each side's SPs lost, units eliminated and scattered.
pub fn standing(data: &MedievalData, state: &BattleState) -> Standing {
    let m = &data.morale;
    let favour = |track: i64| match (track.cmp(&0), state.sides.first(), state.sides.get(1)) {
        (std::cmp::Ordering::Greater, Some(a), _) => {
            format!("{track:+}: {} gains {track} CM{}", a.name, plural(track))
        }
        (std::cmp::Ordering::Less, _, Some(b)) => {
            format!("{track:+}: {} gains {} CM{}", b.name, -track, plural(track))
        }
        _ => "0: no side gains CMs".to_string(),
    };
    // The counter moves with every result; the combats take the value phase 9 set (6.1.9).
    let mut gauges = vec![
        Gauge {
            amount: Some(state.morale_track as f64),
            ..gauge(
                None,
                "MORALE track",
                favour(state.morale_track),
                &format!("{}, {}", m.elimination_rule, m.applied_rule),
            )
        },
        Gauge {
            amount: Some(state.morale_in_force as f64),
            ruling: Some("R-MED-35".into()),
            ..gauge(
                None,
                "MORALE in force this turn",
                favour(state.morale_in_force),
                &m.applied_rule,
            )
        },
    ];
    for side in &state.sides {
        let sp_lost: u32 = of_side(state, &side.name)
            .map(|u| u.starting.saturating_sub(u.strength))
            .sum();
        let eliminated = of_side(state, &side.name).filter(|u| u.lost).count();
        let scattered = of_side(state, &side.name)
            .filter(|u| !u.lost && u.detail::<MedievalCounter>().is_some_and(|c| c.scattered))
            .count();
        gauges.push(Gauge {
            amount: Some(f64::from(sp_lost)),
            ..gauge(
                Some(&side.name),
                "Strength points",
                format!("lost {sp_lost} SP{}", if sp_lost == 1 { "" } else { "s" }),
                "1.2",
            )
        });
        // Every unit lost counts, those ridden down too (5.8.3); the MORALE track moves only for
        // the enemy's eliminations that are not ride-downs (6.1.4, 5.8.4), by the results'
        // own MORALE effects, so this count is not the MORALE's (R-MED-34).
        gauges.push(Gauge {
            amount: Some(eliminated as f64),
            ruling: Some("R-MED-34".into()),
            ..gauge(
                Some(&side.name),
                "Units eliminated, ridden down included",
                format!("{eliminated} eliminated"),
                &format!("5.8.3, {}", m.elimination_rule),
            )
        });
        gauges.push(Gauge {
            amount: Some(scattered as f64),
            ..gauge(
                Some(&side.name),
                "Units scattered",
                format!("{scattered} scattered"),
                "9.1",
            )
        });
    }
    let resolutions = morale(data, &this_turn(data, state)).into_iter().collect();
    Standing {
        gauges,
        resolutions,
    }
}

/// The battle's verdict for an event: the rules give no victory conditions beyond a scenario's,
/// so an army that has lost every unit loses; otherwise the MORALE track — the battle's course
/// (6.0, 6.1.1) — decides: the side it favours wins, at 0 the game is a draw (R-EVENT-5). Each side's victory points are the SPs the enemy lost,
/// the tie-break. None until both sides have units.
pub fn verdict(data: &MedievalData, state: &BattleState) -> Option<Verdict> {
    let [a, b] = [state.sides.first()?, state.sides.get(1)?];
    if [a, b]
        .iter()
        .any(|s| of_side(state, &s.name).next().is_none())
    {
        return None;
    }
    let sp_lost = |side: &str| -> u32 {
        of_side(state, side)
            .map(|u| u.starting.saturating_sub(u.strength))
            .sum()
    };
    let track = state.morale_track;
    let wiped = |side: &str| of_side(state, side).all(|u| u.lost);
    let (outcomes, words) = match (wiped(&a.name), wiped(&b.name)) {
        (true, true) => (
            [Outcome::Draw, Outcome::Draw],
            "Both armies have lost every unit: the game is a draw.".to_string(),
        ),
        (false, true) | (true, false) => {
            let (winner, loser) = if wiped(&b.name) { (a, b) } else { (b, a) };
            let outcomes = if winner.name == a.name {
                [Outcome::Win, Outcome::Loss]
            } else {
                [Outcome::Loss, Outcome::Win]
            };
            (
                outcomes,
                format!(
                    "{} every unit: {}.",
                    crate::error::side_verb(&loser.name, "have lost", "has lost"),
                    crate::error::side_verb(&winner.name, "win", "wins")
                ),
            )
        }
        (false, false) => morale_decides(a, b, track),
    };
    Some(Verdict {
        sides: vec![
            SideVerdict {
                side: a.name.clone(),
                outcome: outcomes[0],
                victory_points: Some(f64::from(sp_lost(&b.name))),
            },
            SideVerdict {
                side: b.name.clone(),
                outcome: outcomes[1],
                victory_points: Some(f64::from(sp_lost(&a.name))),
            },
        ],
        words,
        rule: format!("6.0, {}", data.morale.elimination_rule),
        ruling: Some("R-EVENT-5".to_string()),
    })
}

/// The MORALE track's verdict between two armies still on the map.
fn morale_decides(
    a: &crate::state::SideState,
    b: &crate::state::SideState,
    track: i64,
) -> ([Outcome; 2], String) {
    match track.cmp(&0) {
        std::cmp::Ordering::Greater => (
            [Outcome::Win, Outcome::Loss],
            format!(
                "The MORALE track stands at {track:+} for {}: {}.",
                a.name,
                crate::error::side_verb(&a.name, "win", "wins")
            ),
        ),
        std::cmp::Ordering::Less => (
            [Outcome::Loss, Outcome::Win],
            format!(
                "The MORALE track stands at {} for {}: {}.",
                format_args!("{:+}", -track),
                b.name,
                crate::error::side_verb(&b.name, "win", "wins")
            ),
        ),
        std::cmp::Ordering::Equal => (
            [Outcome::Draw, Outcome::Draw],
            "The MORALE track stands at 0: the game is a draw.".to_string(),
        ),
    }
}
