//! A Medieval battle's standing: the MORALE track (6.1) and each side's losses.

use super::data::MedievalData;
use super::morale::{morale, this_turn};
use super::roster::MedievalCounter;
use crate::rule_system::standing::{gauge, of_side, Gauge, Standing};
use crate::state::BattleState;

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
