//! Pairing a round: round 1 random (in the order drawn by the caller) or seeded; later rounds
//! Swiss — players grouped by score, paired within the group, no rematch where avoidable —, or
//! round robin; a bye for an odd count (to the lowest-ranked player who has had none); tables
//! numbered from the top.

use super::{Pairing, Scoring, Tournament};
use crate::error::RefereeError;

/// The next round's pairings and bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPlan {
    pub pairings: Vec<Pairing>,
    pub bye: Option<String>,
}

/// Pairs the next round. `drawn` is the players' order drawn with the app's seeded dice, read
/// for a random first round only.
pub fn pair_next(
    t: &Tournament,
    _scoring: &Scoring,
    drawn: &[String],
) -> Result<RoundPlan, RefereeError> {
    // Placeholder: in the order drawn (the pairing module's helper replaces it).
    let mut names: Vec<String> = if drawn.is_empty() {
        t.players.iter().map(|p| p.name.clone()).collect()
    } else {
        drawn.to_vec()
    };
    let bye = (names.len() % 2 == 1).then(|| names.pop()).flatten();
    let pairings = names
        .chunks(2)
        .enumerate()
        .map(|(i, p)| Pairing {
            table: i as u32 + 1,
            a: p[0].clone(),
            b: p[1].clone(),
        })
        .collect();
    Ok(RoundPlan { pairings, bye })
}
