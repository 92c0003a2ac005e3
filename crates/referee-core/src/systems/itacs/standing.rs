//! An ITACS battle's standing: each side's victory points from the enemy's losses, its stacking
//! limit and its panic level (5.4, 7.0–7.2), and the victory resolution built from the roster.

use super::data::ItacsData;
use super::roster::ItacsUnit;
use super::situation::{resolve_units, UnitEntry};
use super::strength::show_half_points;
use super::victory::{unit_cost, victory, SideEntry, VictorySituation};
use crate::contract::Change;
use crate::rule_system::standing::{gauge, of_side, Gauge, SideVerdict, Standing, Verdict};
use crate::state::{BattleState, QuickEdit, Role};
use crate::tournament::Outcome;

/// Lost counters of a side as unit entries (count = how many were lost), each with its cost.
fn losses(data: &ItacsData, state: &BattleState, side: &str) -> (Vec<UnitEntry>, u64) {
    let mut entries = Vec::new();
    let mut half_points = 0u64;
    for (u, own) in of_side(state, side)
        .filter(|u| u.role == Role::Unit)
        .filter_map(|u| Some((u, u.detail::<ItacsUnit>()?)))
    {
        let lost = u.starting.saturating_sub(u.strength);
        if lost == 0 {
            continue;
        }
        let entry = own.now(lost);
        // The entry was checked when the unit joined; a unit that no longer resolves costs 0.
        if let Ok(units) = resolve_units(data, std::slice::from_ref(&entry), "") {
            if let Some(unit) = units.first() {
                if let Ok((cost, _)) = unit_cost(data, unit, "") {
                    half_points += cost * u64::from(lost);
                }
            }
        }
        entries.push(entry);
    }
    (entries, half_points)
}

/// The side's hexes on the roster holding more units than its stacking limit (4.3.3), with the
/// units in each; leaders are not counted (4.3.3).
fn over_stacked(state: &BattleState, side: &str, limit: u32) -> Vec<(String, u32)> {
    let mut hexes: Vec<(String, u32)> = Vec::new();
    for (u, own) in of_side(state, side)
        .filter(|u| u.role == Role::Unit && !u.lost)
        .filter_map(|u| Some((u, u.detail::<ItacsUnit>()?)))
    {
        let Some(hex) = &own.hex else { continue };
        match hexes.iter_mut().find(|(h, _)| h == hex) {
            Some((_, n)) => *n += u.strength,
            None => hexes.push((hex.clone(), u.strength)),
        }
    }
    hexes.retain(|(_, n)| *n > limit);
    hexes
}

/// Half points as "7 points", "½ point", "1 point".
fn points(half_points: u64) -> String {
    let n = show_half_points(half_points);
    if half_points == 2 || half_points == 1 {
        format!("{n} point")
    } else {
        format!("{n} points")
    }
}

/// The victory resolution's situation from the roster: each side's lost counters, and, where
/// `with_awarded`, the points results awarded it (the verdict counts them as the gauges do).
fn victory_situation(
    state: &BattleState,
    losses: &[(Vec<UnitEntry>, u64)],
    with_awarded: bool,
) -> VictorySituation {
    VictorySituation {
        sides: state
            .sides
            .iter()
            .zip(losses)
            .map(|(s, (entries, _))| SideEntry {
                name: s.name.clone(),
                panic_level: s.panic_level,
                lost: entries.clone(),
                awarded: if with_awarded { s.points_awarded } else { 0 },
            })
            .collect(),
        panic_happened: state.panic_happened(),
    }
}

/// Each side's victory points, stacking limit and panic level (5.4, 7.0–7.2).
pub fn standing(data: &ItacsData, state: &BattleState) -> Standing {
    let v = &data.victory;
    let losses: Vec<(Vec<UnitEntry>, u64)> = state
        .sides
        .iter()
        .map(|s| losses(data, state, &s.name))
        .collect();
    let mut gauges = Vec::new();
    // Side i scores the other side's losses, plus any points a result awarded it.
    let score = |i: usize| losses[1 - i].1 + 2 * u64::from(state.sides[i].points_awarded);
    for (i, side) in state.sides.iter().enumerate() {
        gauges.push(Gauge {
            amount: Some(score(i) as f64 / 2.0),
            ..gauge(
                Some(&side.name),
                "Victory points",
                format!("{} scored", points(score(i))),
                &v.rule,
            )
        });
        if let Some(limit) = side.stacking_limit {
            gauges.push(gauge(
                Some(&side.name),
                "Stacking limit",
                format!(
                    "{limit} {} a hex",
                    if limit == 1 { "unit" } else { "units" }
                ),
                "4.3.3, 8.0",
            ));
        }
        let limit = side.stacking_limit.unwrap_or(data.movement.stacking_limit);
        for (hex, units) in over_stacked(state, &side.name, limit) {
            gauges.push(gauge(
                Some(&side.name),
                format!("Hex {hex}"),
                format!(
                    "{units} units: over the stacking limit of {limit}, unless they are a square of 4 (2.6.1) — move one out"
                ),
                &data.movement.stacking_rule,
            ));
        }
        if let Some(level) = side.panic_level {
            let against = score(1 - i);
            let at = 2 * u64::from(level);
            let left = at.saturating_sub(against);
            gauges.push(Gauge {
                status: side.panicked.then(|| "panicked".to_string()),
                threshold: Some(points(at)),
                to_go: (left > 0 && !side.panicked).then(|| format!("{} to panic", points(left))),
                next: Some("reached".into()),
                progress: Some(if at == 0 {
                    1.0
                } else {
                    (against as f64 / at as f64).min(1.0)
                }),
                amount: Some(against as f64 / 2.0),
                limit: Some(at as f64 / 2.0),
                reached: against >= at,
                ruling: v.panic_ruling.clone(),
                // Reached, the side panics: every unit of it routs (5.4).
                offer: (against >= at && !side.panicked).then(|| QuickEdit {
                    label: format!("{} panics: every unit routs", side.name),
                    change: Change::Rout,
                    opens: None,
                }),
                ..gauge(
                    Some(&side.name),
                    "Panic level",
                    format!("enemy has {} of {}", show_half_points(against), points(at)),
                    &v.panic_rule,
                )
            });
        }
    }
    let situation = victory_situation(state, &losses, false);
    let resolutions = victory(data, &situation).into_iter().collect();
    Standing {
        gauges,
        resolutions,
    }
}

/// The battle's verdict for an event (7.0–7.2): each side's victory points (the enemy's losses
/// and the points results awarded it, as its gauge counts them); the side ahead wins when its
/// points reach the lowest victory level's ratio, else neither wins (a draw). The words are the
/// victory resolution's. None until both sides have units.
pub fn verdict(data: &ItacsData, state: &BattleState) -> Option<Verdict> {
    let v = &data.victory;
    if state.sides.len() != 2
        || state
            .sides
            .iter()
            .any(|s| of_side(state, &s.name).all(|u| u.role != Role::Unit))
    {
        return None;
    }
    let losses: Vec<(Vec<UnitEntry>, u64)> = state
        .sides
        .iter()
        .map(|s| losses(data, state, &s.name))
        .collect();
    let score = |i: usize| losses[1 - i].1 + 2 * u64::from(state.sides[i].points_awarded);
    let (a, b) = (score(0), score(1));
    let situation = victory_situation(state, &losses, true);
    let words = victory(data, &situation).ok()?.outcome?.meaning;
    // A win is a level reached: more than `more_than` times the enemy's points.
    let wins = |own: u64, other: u64| {
        v.levels
            .first()
            .is_some_and(|l| own > u64::from(l.more_than) * other)
    };
    let outcome = |own: u64, other: u64| {
        if wins(own, other) {
            Outcome::Win
        } else if wins(other, own) {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    };
    Some(Verdict {
        sides: vec![
            SideVerdict {
                side: state.sides[0].name.clone(),
                outcome: outcome(a, b),
                victory_points: Some(a as f64 / 2.0),
            },
            SideVerdict {
                side: state.sides[1].name.clone(),
                outcome: outcome(b, a),
                victory_points: Some(b as f64 / 2.0),
            },
        ],
        words,
        rule: v.levels_rule.clone(),
        ruling: v.ruling.clone(),
    })
}
