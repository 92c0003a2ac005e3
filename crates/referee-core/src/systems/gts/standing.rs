//! A GTS battle's standing: each army against its break point (2.11, 8.0), and the army break
//! resolution with its verdict naming the side.

use super::checks::{army_break, break_point, ArmyBreakSituation};
use super::data::GtsData;
use super::roster::GtsUnit;
use crate::rule_system::standing::{gauge, of_side, Gauge, SideVerdict, Standing, Verdict};
use crate::state::{BattleState, LeaderFate, Role, UnitState};
use crate::tournament::Outcome;

/// In Rout now (3.32).
fn routed(u: &UnitState) -> bool {
    u.detail::<GtsUnit>().is_some_and(|g| g.rout)
}

/// GTS: a side's units at the start (FRU), lost (eliminated or routed), and whether its general
/// and baggage count against its break point.
struct GtsSide {
    units: u32,
    lost: u32,
    /// In Rout now: they count once the Rout is permanent (R-GTS-13).
    routed: u32,
    general_lost: bool,
    baggage_looted: bool,
    stands_lost: u32,
}

fn side(state: &BattleState, side: &str) -> GtsSide {
    let fighting: Vec<&UnitState> = of_side(state, side)
        .filter(|u| u.role == Role::Unit)
        .collect();
    GtsSide {
        units: fighting.len() as u32,
        lost: fighting.iter().filter(|u| u.lost).count() as u32,
        routed: fighting.iter().filter(|u| routed(u) && !u.lost).count() as u32,
        // Only a general killed or captured lowers the break point (8.0, R-GTS-25): dazed,
        // unhorsed, wounded or passed out, he is still the army's. Table 1.10's 6 and 8 are
        // deaths (R-GTS-30).
        general_lost: of_side(state, side)
            .filter(|u| {
                u.role == Role::General
                    || (u.role == Role::Leader
                        && u.detail::<super::leader::GtsLeader>()
                            .is_some_and(|l| l.army))
            })
            .any(|u| u.lost || matches!(u.leader, Some(LeaderFate::Killed | LeaderFate::Captured))),
        baggage_looted: of_side(state, side)
            .filter(|u| u.role == Role::Baggage)
            .any(|u| u.lost || routed(u) || 2 * u.strength <= u.starting),
        stands_lost: of_side(state, side)
            .map(|u| u.starting.saturating_sub(u.strength))
            .sum(),
    }
}

/// Each army against its break point (2.11, 8.0), with the verdict naming the side.
pub fn standing(data: &GtsData, state: &BattleState) -> Standing {
    let ab = &data.army_break;
    let mut gauges = Vec::new();
    let mut resolutions = Vec::new();
    let sides: Vec<GtsSide> = state.sides.iter().map(|s| side(state, &s.name)).collect();
    // Each army past its break point: both past it is the tactical draw (8.0, R-GTS-37).
    let broken: Vec<bool> = sides
        .iter()
        .map(|g| {
            g.units > 0 && g.lost >= break_point(data, g.units, g.general_lost, g.baggage_looted).0
        })
        .collect();
    for (i, (side, g)) in state.sides.iter().zip(&sides).enumerate() {
        if g.units == 0 {
            gauges.push(gauge(
                Some(&side.name),
                "Army break point",
                "no units yet",
                &ab.rule,
            ));
            continue;
        }
        let (abp, percent) = break_point(data, g.units, g.general_lost, g.baggage_looted);
        let left = abp.saturating_sub(g.lost);
        let units = |n: u32| format!("{n} unit{}", if n == 1 { "" } else { "s" });
        gauges.push(Gauge {
            status: (g.lost >= abp).then(|| "broken".to_string()),
            threshold: Some(format!("{} ({percent}% of {})", units(abp), g.units)),
            to_go: (left > 0).then(|| format!("{} to break", units(left))),
            next: Some("reached".into()),
            progress: Some(if abp == 0 {
                1.0
            } else {
                (f64::from(g.lost) / f64::from(abp)).min(1.0)
            }),
            amount: Some(f64::from(g.lost)),
            limit: Some(f64::from(abp)),
            reached: g.lost >= abp,
            ruling: Some("R-GTS-13".into()),
            ..gauge(
                Some(&side.name),
                "Army break point",
                if g.routed > 0 {
                    format!(
                        "lost {} of {} units ({} more in Rout)",
                        g.lost, g.units, g.routed
                    )
                } else {
                    format!("lost {} of {} units", g.lost, g.units)
                },
                &ab.rule,
            )
        });
        let enemy = &sides[1 - i];
        // Once this army breaks, the victory ratio compares the stands each side lost.
        let enemy_broken = broken.get(1 - i).copied().unwrap_or(false);
        let ratio = g.lost >= abp && g.stands_lost > 0 && !enemy_broken;
        let situation = ArmyBreakSituation {
            units: g.units,
            lost: g.lost.min(g.units),
            general_lost: g.general_lost,
            baggage_looted: g.baggage_looted,
            victor_stands_lost: ratio.then_some(enemy.stands_lost),
            defeated_stands_lost: ratio.then_some(g.stands_lost),
            general: None,
            enemy_broken,
        };
        if let Ok(mut r) = army_break(data, &situation) {
            // The verdict names the side: "Romans' army breaks".
            let army = crate::error::possessive(&side.name);
            let enemy_name = &state.sides[1 - i].name;
            let level = r
                .totals
                .iter()
                .find_map(|t| t.value.split("→ ").nth(1).map(str::to_string));
            let verdict = if g.lost >= abp && enemy_broken {
                format!(
                    "{army} army and {} army have both reached their break points: the battle is a tactical Draw.",
                    crate::error::possessive(enemy_name)
                )
            } else if g.lost >= abp {
                match level {
                    Some(level) => format!(
                        "{army} army breaks: {} {} {level}, unless {} break them too this turn, for a draw.",
                        crate::error::side_verb(enemy_name, "win", "wins"),
                        crate::error::article_for(&level),
                        side.name
                    ),
                    None => format!(
                        "{army} army breaks: in its Command phase it has this turn to break the {} too, for a draw.",
                        enemy_name
                    ),
                }
            } else {
                format!(
                    "{army} army holds: {} more lost and it breaks.",
                    units(left)
                )
            };
            if let Some(o) = r.outcome.as_mut() {
                o.meaning = verdict;
            }
            resolutions.push(r);
        }
    }
    Standing {
        gauges,
        resolutions,
    }
}

/// The battle's verdict for an event (8.0): an army past its break point loses to one that is
/// not, with the level of victory the army break resolution names; both past it, a tactical
/// Draw; neither, a draw as the game stands when its result is taken (R-EVENT-4). Each side's
/// victory points are the enemy's units lost, the tie-break. None until both armies have units.
pub fn verdict(data: &GtsData, state: &BattleState) -> Option<Verdict> {
    let sides: Vec<GtsSide> = state.sides.iter().map(|s| side(state, &s.name)).collect();
    if sides.len() != 2 || sides.iter().any(|g| g.units == 0) {
        return None;
    }
    let broken: Vec<bool> = sides
        .iter()
        .map(|g| g.lost >= break_point(data, g.units, g.general_lost, g.baggage_looted).0)
        .collect();
    let names = [&state.sides[0].name, &state.sides[1].name];
    let (outcomes, words, ruling) = match (broken[0], broken[1]) {
        (true, true) | (false, false) => {
            let words = if broken[0] {
                format!(
                    "{} army and {} army have both reached their break points: the battle is a tactical Draw.",
                    crate::error::possessive(names[0]),
                    crate::error::possessive(names[1])
                )
            } else {
                format!(
                    "Neither {} army nor {} has reached its break point: the game counts as a draw.",
                    crate::error::possessive(names[0]),
                    crate::error::possessive(names[1])
                )
            };
            let ruling = if broken[0] { "R-GTS-37" } else { "R-EVENT-4" };
            ([Outcome::Draw, Outcome::Draw], words, ruling)
        }
        (loser_first, _) => {
            let loser = usize::from(!loser_first);
            // The army break resolution's own words for the broken side: the level of victory.
            let words = standing(data, state)
                .resolutions
                .get(loser)
                .and_then(|r| r.outcome.as_ref())
                .map(|o| o.meaning.clone())
                .unwrap_or_default();
            let mut outcomes = [Outcome::Win, Outcome::Win];
            outcomes[loser] = Outcome::Loss;
            (outcomes, words, "R-GTS-13")
        }
    };
    Some(Verdict {
        sides: (0..2)
            .map(|i| SideVerdict {
                side: names[i].clone(),
                outcome: outcomes[i],
                victory_points: Some(f64::from(sides[1 - i].lost)),
            })
            .collect(),
        words,
        rule: data.army_break.rule.clone(),
        ruling: Some(ruling.to_string()),
    })
}
