//! The standings: each player's event points from the results in force (a bye as the settings
//! say), then the tie-breaks the settings name, in order; players tied on everything share a
//! rank.
//!
//! How a line is counted. A game with its result counts for both players, whatever its source
//! (a battle of this database, a battle file, or a result entered by hand): a win, a draw or a
//! loss is worth the settings' `win`, `draw` or `loss`, plus the battle's victory points when
//! `victory_points_are_points` (DBMM's 25 split). A bye is worth `bye_points` and
//! `bye_victory_points`; it is no game played. A result without victory points counts none.
//! Strength of schedule is the sum of the current event points of every opponent met (a bye
//! meets none).
//!
//! How ties are broken (ruled R-EVENT-2). Players are ranked by event points; players level on
//! them are split by the first tie-break, those still level by the next, and so on. Head to head
//! is read among the players still level when it is reached: each scores the event points he
//! took in the games between them (none if they never met). Players level on everything share
//! the rank `1 + the number ranked above them`, and are listed by name.

use std::collections::HashMap;

use serde::Serialize;
use ts_rs::TS;

use super::scoring::TieBreak;
use super::{Outcome, PlayerResult, Scoring, Tournament};

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

/// The event points one player takes from a game's result.
pub fn game_points(scoring: &Scoring, result: &PlayerResult) -> f64 {
    let base = match result.outcome {
        Outcome::Win => scoring.win,
        Outcome::Draw => scoring.draw,
        Outcome::Loss => scoring.loss,
    };
    if scoring.victory_points_are_points {
        base + result.victory_points.unwrap_or(0.0)
    } else {
        base
    }
}

/// The standings after the results in force, best first.
pub fn standings(t: &Tournament, scoring: &Scoring) -> Vec<StandingRow> {
    let index: HashMap<&str, usize> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    let mut rows: Vec<StandingRow> = t
        .players
        .iter()
        .map(|p| StandingRow {
            rank: 0,
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
        .collect();
    let mut opponents: Vec<Vec<usize>> = vec![Vec::new(); rows.len()];
    for round in &t.rounds {
        if let Some(&i) = round.bye.as_deref().and_then(|b| index.get(b)) {
            rows[i].byes += 1;
            rows[i].points += scoring.bye_points;
            rows[i].victory_points += scoring.bye_victory_points;
        }
        for result in round.games.iter().filter_map(|g| g.result.as_ref()) {
            let ids: Vec<Option<usize>> = result
                .players
                .iter()
                .map(|p| index.get(p.player.as_str()).copied())
                .collect();
            for (k, p) in result.players.iter().enumerate() {
                let Some(i) = ids[k] else { continue };
                let row = &mut rows[i];
                row.played += 1;
                match p.outcome {
                    Outcome::Win => row.wins += 1,
                    Outcome::Draw => row.draws += 1,
                    Outcome::Loss => row.losses += 1,
                }
                row.points += game_points(scoring, p);
                row.victory_points += p.victory_points.unwrap_or(0.0);
                if let Some(Some(j)) = ids.get(1 - k.min(1)) {
                    opponents[i].push(*j);
                }
            }
        }
    }
    for i in 0..rows.len() {
        rows[i].strength_of_schedule = opponents[i].iter().map(|&j| rows[j].points).sum();
    }
    let mut groups = Vec::new();
    split(
        (0..rows.len()).collect(),
        &criteria(scoring),
        &|c, i, group| key(t, scoring, &rows, c, i, group),
        &mut groups,
    );
    let mut ranked = Vec::with_capacity(rows.len());
    for mut group in groups {
        group.sort_by(|&a, &b| {
            let (a, b) = (&rows[a].player, &rows[b].player);
            a.to_lowercase().cmp(&b.to_lowercase()).then(a.cmp(b))
        });
        let rank = ranked.len() as u32 + 1;
        let shared = group.len() > 1;
        for i in group {
            ranked.push(StandingRow {
                rank,
                shared,
                ..rows[i].clone()
            });
        }
    }
    ranked
}

/// What players are ranked by, in order: event points, then the settings' tie-breaks.
#[derive(Clone, Copy)]
enum Criterion {
    Points,
    Break(TieBreak),
}

fn criteria(scoring: &Scoring) -> Vec<Criterion> {
    std::iter::once(Criterion::Points)
        .chain(scoring.tie_breaks.iter().copied().map(Criterion::Break))
        .collect()
}

/// Player `i`'s value under `c`, among the players of `group` still level with him.
fn key(
    t: &Tournament,
    scoring: &Scoring,
    rows: &[StandingRow],
    c: Criterion,
    i: usize,
    group: &[usize],
) -> f64 {
    match c {
        Criterion::Points => rows[i].points,
        Criterion::Break(TieBreak::VictoryPoints) => rows[i].victory_points,
        Criterion::Break(TieBreak::StrengthOfSchedule) => rows[i].strength_of_schedule,
        Criterion::Break(TieBreak::HeadToHead) => {
            let name = rows[i].player.as_str();
            let level = |n: &str| group.iter().any(|&j| j != i && rows[j].player == n);
            t.rounds
                .iter()
                .flat_map(|r| r.games.iter())
                .filter_map(|g| g.result.as_ref())
                .filter(|r| r.players.iter().any(|p| level(&p.player)))
                .flat_map(|r| r.players.iter().filter(|p| p.player == name))
                .map(|p| game_points(scoring, p))
                .sum()
        }
    }
}

/// Splits `group` (players level so far) by the first criterion, best first, and each part by
/// the rest; what is left level on everything is one group of `out`.
fn split(
    group: Vec<usize>,
    criteria: &[Criterion],
    key: &dyn Fn(Criterion, usize, &[usize]) -> f64,
    out: &mut Vec<Vec<usize>>,
) {
    let Some((&c, rest)) = criteria.split_first() else {
        out.push(group);
        return;
    };
    if group.len() < 2 {
        out.push(group);
        return;
    }
    let mut keyed: Vec<(usize, f64)> = group.iter().map(|&i| (i, key(c, i, &group))).collect();
    keyed.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut start = 0;
    for end in 1..=keyed.len() {
        if end == keyed.len() || keyed[end].1 != keyed[start].1 {
            split(
                keyed[start..end].iter().map(|k| k.0).collect(),
                rest,
                key,
                out,
            );
            start = end;
        }
    }
}
