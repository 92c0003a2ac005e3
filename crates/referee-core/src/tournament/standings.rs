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
        // Folded from +0: an empty float sum is -0, which a screen would show as "-0".
        rows[i].strength_of_schedule = opponents[i]
            .iter()
            .map(|&j| rows[j].points)
            .fold(0.0, |a, b| a + b);
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
                .fold(0.0, |a, b| a + b)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::sample::{result, scoring, setup};
    use crate::tournament::{FirstRound, Pairing, PairingMethod, Player, TournamentEntry};
    use Outcome::{Draw, Loss, Win};

    /// Five players over two rounds, by hand:
    /// round 1 Anna beats Bert 18–7, Carl and Dora draw 12.5 each, Emil has the bye;
    /// round 2 Carl beats Anna 15–10, Bert beats Emil 20–5, Dora has the bye.
    fn played() -> Tournament {
        let pairing = |table, a: &str, b: &str| Pairing {
            table,
            a: a.into(),
            b: b.into(),
        };
        let mut entries = vec![TournamentEntry::Created {
            setup: setup(PairingMethod::Swiss, FirstRound::Random, 3),
        }];
        for name in ["Anna", "Bert", "Carl", "Dora", "Emil"] {
            entries.push(TournamentEntry::PlayerAdded {
                player: Player {
                    name: name.into(),
                    army: "Later Romans".into(),
                    withdrawn: false,
                },
            });
        }
        let games = [
            (1, 1, ("Anna", Win, 18.0), ("Bert", Loss, 7.0)),
            (1, 2, ("Carl", Draw, 12.5), ("Dora", Draw, 12.5)),
            (2, 1, ("Anna", Loss, 10.0), ("Carl", Win, 15.0)),
            (2, 2, ("Bert", Win, 20.0), ("Emil", Loss, 5.0)),
        ];
        for (round, bye) in [(1, "Emil"), (2, "Dora")] {
            entries.push(TournamentEntry::RoundPaired {
                round,
                pairings: games
                    .iter()
                    .filter(|g| g.0 == round)
                    .map(|g| pairing(g.1, g.2 .0, g.3 .0))
                    .collect(),
                bye: Some(bye.into()),
                seed: None,
            });
            for g in games.iter().filter(|g| g.0 == round) {
                entries.push(TournamentEntry::ResultRecorded {
                    round,
                    table: g.1,
                    result: result(
                        (g.2 .0, g.2 .1, Some(g.2 .2)),
                        (g.3 .0, g.3 .1, Some(g.3 .2)),
                    ),
                });
            }
        }
        Tournament::open(&entries).unwrap()
    }

    fn with_breaks(id: &str, tie_breaks: &[TieBreak]) -> Scoring {
        Scoring {
            tie_breaks: tie_breaks.to_vec(),
            ..scoring(id)
        }
    }

    /// (rank, shared, player, points, victory points, strength of schedule)
    type Line = (u32, bool, &'static str, f64, f64, f64);

    fn lines(t: &Tournament, s: &Scoring) -> Vec<Line> {
        standings(t, s)
            .into_iter()
            .map(|r| {
                let name: &'static str = Box::leak(r.player.into_boxed_str());
                (
                    r.rank,
                    r.shared,
                    name,
                    r.points,
                    r.victory_points,
                    r.strength_of_schedule,
                )
            })
            .collect()
    }

    #[test]
    fn each_tie_break_splits_only_the_players_still_level() {
        use TieBreak::{HeadToHead, StrengthOfSchedule, VictoryPoints};
        let t = played();
        // Hand-computed: 3 a win, 1 a draw, 3 a bye (and no victory points).
        let cases: &[(&str, &[TieBreak], &[Line])] = &[
            (
                "win-draw-loss",
                &[VictoryPoints, StrengthOfSchedule, HeadToHead],
                &[
                    (1, false, "Carl", 4.0, 27.5, 7.0),
                    (2, false, "Dora", 4.0, 12.5, 4.0),
                    (3, false, "Anna", 3.0, 28.0, 7.0),
                    (4, false, "Bert", 3.0, 27.0, 6.0),
                    (5, false, "Emil", 3.0, 5.0, 3.0),
                ],
            ),
            (
                // Carl and Dora drew; Anna beat Bert, who beat Emil: Anna and Bert level on 3.
                "win-draw-loss",
                &[HeadToHead],
                &[
                    (1, true, "Carl", 4.0, 27.5, 7.0),
                    (1, true, "Dora", 4.0, 12.5, 4.0),
                    (3, true, "Anna", 3.0, 28.0, 7.0),
                    (3, true, "Bert", 3.0, 27.0, 6.0),
                    (5, false, "Emil", 3.0, 5.0, 3.0),
                ],
            ),
            (
                // The 25 split are the points; the bye is worth 15 and 15 (R-EVENT-1).
                "dbmm-25",
                &[StrengthOfSchedule, HeadToHead],
                &[
                    (1, false, "Anna", 28.0, 28.0, 54.5),
                    (2, false, "Carl", 27.5, 27.5, 55.5),
                    (3, false, "Dora", 27.5, 27.5, 27.5),
                    (4, false, "Bert", 27.0, 27.0, 48.0),
                    (5, false, "Emil", 20.0, 20.0, 27.0),
                ],
            ),
            (
                "dbmm-25",
                &[],
                &[
                    (1, false, "Anna", 28.0, 28.0, 54.5),
                    (2, true, "Carl", 27.5, 27.5, 55.5),
                    (2, true, "Dora", 27.5, 27.5, 27.5),
                    (4, false, "Bert", 27.0, 27.0, 48.0),
                    (5, false, "Emil", 20.0, 20.0, 27.0),
                ],
            ),
        ];
        for (id, breaks, expected) in cases {
            assert_eq!(
                lines(&t, &with_breaks(id, breaks)),
                *expected,
                "{id} {breaks:?}"
            );
        }
    }

    /// A player who has met nobody yet (a bye) has a strength of schedule of 0, not -0: an empty
    /// float sum is -0, which a page or a CSV would print as "-0".
    #[test]
    fn a_player_who_met_nobody_has_a_strength_of_schedule_of_plus_zero() {
        let mut t =
            crate::tournament::sample::event(setup(PairingMethod::Swiss, FirstRound::Seeded, 2), 3);
        t.apply(&TournamentEntry::RoundPaired {
            round: 1,
            pairings: vec![Pairing {
                table: 1,
                a: "P01".into(),
                b: "P02".into(),
            }],
            bye: Some("P03".into()),
            seed: None,
        })
        .unwrap();
        let rows = standings(&t, &scoring("win-draw-loss"));
        let p03 = rows.iter().find(|r| r.player == "P03").unwrap();
        assert!(p03.strength_of_schedule.is_sign_positive());
        assert_eq!(format!("{}", p03.strength_of_schedule), "0");
    }

    #[test]
    fn games_and_byes_are_counted_apart() {
        let rows = standings(&played(), &scoring("win-draw-loss"));
        let dora = rows.iter().find(|r| r.player == "Dora").unwrap();
        let counts = (dora.played, dora.wins, dora.draws, dora.losses, dora.byes);
        assert_eq!(counts, (1, 0, 1, 0, 1));
        let anna = rows.iter().find(|r| r.player == "Anna").unwrap();
        let counts = (anna.played, anna.wins, anna.draws, anna.losses, anna.byes);
        assert_eq!(counts, (2, 1, 0, 1, 0));
    }
}
