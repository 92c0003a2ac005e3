//! The standings: each player's event points from the results in (a bye as the settings say),
//! then the tie-breaks the settings name, in order; players tied on everything share a rank.

use serde::Serialize;
use ts_rs::TS;

use super::{Scoring, Tournament};

/// A player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct StandingRow {
    /// 1 for the top; players tied on every tie-break share a rank.
    pub rank: u32,
    /// The rank is shared with another player.
    pub shared: bool,
    pub player: String,
    pub army: String,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub points: f64,
    pub victory_points: f64,
    pub strength_of_schedule: f64,
}

/// The standings after the results in force.
pub fn standings(t: &Tournament, _scoring: &Scoring) -> Vec<StandingRow> {
    // Placeholder: every player, in the order entered (the standings helper replaces it).
    t.players
        .iter()
        .enumerate()
        .map(|(i, p)| StandingRow {
            rank: i as u32 + 1,
            shared: false,
            player: p.name.clone(),
            army: p.army.clone(),
            played: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
            points: 0.0,
            victory_points: 0.0,
            strength_of_schedule: 0.0,
        })
        .collect()
}
