//! Live break points: how each army stands against the thresholds of its system, and how far it
//! is from the next one.

use serde::Serialize;
use serde_json::json;
use ts_rs::TS;

use super::model::{BattleState, Role, UnitState};
use crate::contract::Resolution;
use crate::systems::itacs::situation::resolve_units;
use crate::systems::itacs::strength::show_half_points;
use crate::systems::itacs::victory::unit_cost;
use crate::systems::{dbmm, gts, itacs, medieval, parse_situation, Ruleset, SystemRules};

/// One figure against its threshold, in phrases the app joins as
/// "label — status · value · to_go" (parts absent are skipped), e.g. "Housecarls — broken ·
/// lost 2 of 6 ME · ½ ME to shattered".
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Gauge {
    /// The side it belongs to; none for a battle-wide figure (the MORALE track).
    #[ts(optional)]
    pub side: Option<String>,
    /// What is measured: "Army", a command's name, "Panic level", "Army break point".
    pub label: String,
    /// Where it stands, in the rules' word: "steady", "disheartened", "broken", "shattered",
    /// "panicked", "defeated", "broken" (GTS army).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<String>,
    /// The figure as a phrase: "lost 2 of 6 ME", "enemy has 7 of 10 points".
    pub value: String,
    /// The threshold itself, for a tooltip: "more than 1/4 lost", "10 points".
    #[ts(optional)]
    pub threshold: Option<String>,
    /// How far to the threshold, saying which: "½ ME to shattered", "3 points to panic".
    #[ts(optional)]
    pub to_go: Option<String>,
    /// What passing the threshold makes of it, for the outlook: "shattered", "defeated".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next: Option<String>,
    /// Share of the way to the threshold, 0–1, for a bar (display only).
    #[ts(optional)]
    pub progress: Option<f64>,
    /// The figure as a number, in the unit of `value` (ME lost, points, units lost, SPs lost,
    /// MORALE track boxes), for charts over the turns; none for a setting (a stacking limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub amount: Option<f64>,
    /// The threshold as a number in the same unit, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<f64>,
    pub reached: bool,
    pub rule: String,
    #[ts(optional)]
    pub ruling: Option<String>,
}

/// The battle's standing: gauges, and the system's own cited resolution of it (ITACS
/// `victory`, Medieval `morale`, GTS `army_break`) built from the roster.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Standing {
    pub gauges: Vec<Gauge>,
    pub resolutions: Vec<Resolution>,
}

fn gauge(
    side: Option<&str>,
    label: impl Into<String>,
    value: impl Into<String>,
    rule: &str,
) -> Gauge {
    Gauge {
        side: side.map(str::to_string),
        label: label.into(),
        status: None,
        value: value.into(),
        threshold: None,
        to_go: None,
        next: None,
        progress: None,
        amount: None,
        limit: None,
        reached: false,
        rule: rule.to_string(),
        ruling: None,
    }
}

fn of_side<'a>(state: &'a BattleState, side: &'a str) -> impl Iterator<Item = &'a UnitState> {
    state.units.values().filter(move |u| u.side == side)
}

pub fn standing(ruleset: &Ruleset, state: &BattleState) -> Standing {
    match &ruleset.rules {
        SystemRules::Itacs(data) => itacs_standing(data, state),
        SystemRules::Medieval(data) => medieval_standing(data, state),
        SystemRules::Gts(data) => gts_standing(data, state),
        SystemRules::Dbmm(data) => dbmm_standing(data, state),
    }
}

/// A DBMM side as the morale rules see it: its commands, each with its elements and what became
/// of them (the `state` the outcomes wrote on the unit).
fn dbmm_army(state: &BattleState, side: &str) -> dbmm::morale::ArmySituation {
    let mut commands: Vec<dbmm::morale::CommandSituation> = Vec::new();
    for unit in of_side(state, side) {
        let mut stats = unit.stats.clone();
        let fate = stats
            .as_object_mut()
            .and_then(|m| m.remove("state"))
            .and_then(|v| v.as_str().map(str::to_string));
        let Ok(element) = parse_situation::<dbmm::element::Element>(&stats) else {
            continue;
        };
        let element_state = match fate.as_deref() {
            Some("destroyed") => dbmm::morale::ElementState::Destroyed,
            Some("spent") => dbmm::morale::ElementState::Spent,
            Some("off_table") => dbmm::morale::ElementState::OffTable,
            _ => dbmm::morale::ElementState::InPlay,
        };
        let name = unit.command.clone().unwrap_or_else(|| side.to_string());
        let entry = dbmm::morale::CommandElement {
            element,
            state: element_state,
        };
        match commands.iter_mut().find(|c| c.name == name) {
            Some(c) => c.elements.push(entry),
            None => commands.push(dbmm::morale::CommandSituation {
                name,
                elements: vec![entry],
                tally: None,
                general_lost: false,
                nearby_broken_me: None,
            }),
        }
    }
    dbmm::morale::ArmySituation {
        name: side.to_string(),
        commands,
    }
}

fn dbmm_standing(data: &dbmm::DbmmData, state: &BattleState) -> Standing {
    let t = &data.morale.command;
    let me = |h: i64| format!("{} ME", dbmm::element::me_text(h));
    let mut gauges = Vec::new();
    let mut resolutions = Vec::new();
    let armies: Vec<_> = state
        .sides
        .iter()
        .map(|s| dbmm_army(state, &s.name))
        .collect();
    for (side, army) in state.sides.iter().zip(&armies) {
        let Ok(standing) = dbmm::morale::army_standing(data, army, "") else {
            gauges.push(gauge(
                Some(&side.name),
                "Army",
                "no elements yet",
                &t.army_rule,
            ));
            continue;
        };
        for c in &standing.commands {
            // The next threshold this command can pass, and how far it is.
            let frac = |f: [u32; 2]| format!("{}/{}", f[0], f[1]);
            let (next, to_go, of, share) = match c.state {
                dbmm::morale::CommandState::Steady => (
                    "disheartened",
                    c.to_go[0],
                    c.lost + c.to_go[0],
                    format!("more than {} lost", frac(t.disheartened_lost)),
                ),
                dbmm::morale::CommandState::Disheartened => {
                    let to_go = c.to_go[1].min(c.to_go[2]);
                    let share = format!(
                        "more than {} lost or {} lost or spent",
                        frac(t.broken_lost),
                        frac(t.broken_lost_or_spent)
                    );
                    ("broken", to_go, c.lost + to_go, share)
                }
                _ => (
                    "shattered",
                    c.to_go[3],
                    c.me.destroyed + c.me.off_table + c.to_go[3],
                    format!(
                        "more than {} destroyed or off table",
                        frac(t.shattered_destroyed)
                    ),
                ),
            };
            gauges.push(Gauge {
                status: Some(c.state.code().to_string()),
                // "more than 1/4 lost": strictly more (R-DBMM-2).
                threshold: Some(share),
                to_go: (c.state != dbmm::morale::CommandState::Shattered)
                    .then(|| format!("{} to {next}", me(to_go))),
                next: Some(next.to_string()),
                progress: Some(if of <= 0 {
                    1.0
                } else {
                    (c.lost as f64 / of as f64).min(1.0)
                }),
                // ME are counted in halves.
                amount: Some(c.lost as f64 / 2.0),
                limit: Some(of as f64 / 2.0),
                reached: to_go == 0,
                ruling: t.ruling.clone(),
                ..gauge(
                    Some(&side.name),
                    c.name.clone(),
                    format!(
                        "lost {} of {}",
                        dbmm::element::me_text(c.lost),
                        me(c.me.total)
                    ),
                    &t.rule,
                )
            });
        }
        gauges.push(Gauge {
            status: standing.defeated.then(|| "defeated".to_string()),
            threshold: Some(format!(
                "more than {}/{} lost",
                t.army_defeated[0], t.army_defeated[1]
            )),
            to_go: (!standing.defeated).then(|| format!("{} to defeat", me(standing.to_go))),
            next: Some("defeated".into()),
            progress: Some(if standing.total == 0 {
                1.0
            } else {
                (2.0 * standing.lost as f64 / standing.total as f64).min(1.0)
            }),
            // Halves of ME: the army is defeated past half its total.
            amount: Some(standing.lost as f64 / 2.0),
            limit: Some(standing.total as f64 / 4.0),
            reached: standing.defeated,
            ruling: t.ruling.clone(),
            ..gauge(
                Some(&side.name),
                "Army",
                format!(
                    "lost {} of {}",
                    dbmm::element::me_text(standing.lost),
                    me(standing.total)
                ),
                &t.army_rule,
            )
        });
        if let Ok(r) = dbmm::morale::army_morale(data, army) {
            resolutions.push(r);
        }
    }
    // Victory points once both armies have elements: the first side is taken as the invader.
    if let [invader, defender] = armies.as_slice() {
        let s = dbmm::morale::VictorySituation {
            invader: invader.clone(),
            defender: defender.clone(),
        };
        if let Ok(r) = dbmm::morale::victory(data, &s) {
            resolutions.push(r);
        }
    }
    Standing {
        gauges,
        resolutions,
    }
}

/// Lost counters of a side as unit entries (count = how many were lost), each with its cost.
fn itacs_losses(
    data: &itacs::ItacsData,
    state: &BattleState,
    side: &str,
) -> (Vec<serde_json::Value>, u64) {
    let mut entries = Vec::new();
    let mut half_points = 0u64;
    for u in of_side(state, side).filter(|u| u.role == Role::Unit) {
        let lost = u.starting.saturating_sub(u.strength);
        if lost == 0 {
            continue;
        }
        let mut entry = u.stats.clone();
        if let Some(m) = entry.as_object_mut() {
            m.insert("count".into(), json!(lost));
        }
        // The stats were checked when the unit joined; a unit that no longer resolves costs 0.
        if let Ok(e) = parse_situation(&entry) {
            if let Ok(units) = resolve_units(data, &[e], "") {
                if let Some(unit) = units.first() {
                    if let Ok((cost, _)) = unit_cost(data, unit, "") {
                        half_points += cost * u64::from(lost);
                    }
                }
            }
        }
        entries.push(entry);
    }
    (entries, half_points)
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

fn itacs_standing(data: &itacs::ItacsData, state: &BattleState) -> Standing {
    let v = &data.victory;
    let losses: Vec<(Vec<serde_json::Value>, u64)> = state
        .sides
        .iter()
        .map(|s| itacs_losses(data, state, &s.name))
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
        if let Some(level) = side.panic_level {
            let against = score(1 - i);
            let at = 2 * u64::from(level);
            let left = at.saturating_sub(against);
            gauges.push(Gauge {
                status: side.panicked.then(|| "panicked".to_string()),
                threshold: Some(points(at)),
                to_go: (left > 0).then(|| format!("{} to panic", points(left))),
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
                ..gauge(
                    Some(&side.name),
                    "Panic level",
                    format!("enemy has {} of {}", show_half_points(against), points(at)),
                    &v.panic_rule,
                )
            });
        }
    }
    let situation = json!({
        "sides": state.sides.iter().zip(&losses).map(|(s, (entries, _))| {
            let mut side = json!({"name": s.name, "lost": entries});
            if let Some(l) = s.panic_level { side["panic_level"] = json!(l); }
            side
        }).collect::<Vec<_>>(),
        "panic_happened": state.panic_happened(),
    });
    let resolutions = itacs::resolve(data, "victory", &situation, None)
        .into_iter()
        .collect();
    Standing {
        gauges,
        resolutions,
    }
}

fn plural(n: i64) -> &'static str {
    if n.abs() == 1 {
        ""
    } else {
        "s"
    }
}

fn medieval_standing(data: &medieval::MedievalData, state: &BattleState) -> Standing {
    let m = &data.morale;
    let track = state.morale_track;
    let favour = match (track.cmp(&0), state.sides.first(), state.sides.get(1)) {
        (std::cmp::Ordering::Greater, Some(a), _) => {
            format!("{track:+}: {} gains {track} CM{}", a.name, plural(track))
        }
        (std::cmp::Ordering::Less, _, Some(b)) => {
            format!("{track:+}: {} gains {} CM{}", b.name, -track, plural(track))
        }
        _ => "0: no side gains CMs".to_string(),
    };
    let mut gauges = vec![Gauge {
        amount: Some(track as f64),
        ..gauge(None, "MORALE track", favour, &m.applied_rule)
    }];
    for side in &state.sides {
        let sp_lost: u32 = of_side(state, &side.name)
            .map(|u| u.starting.saturating_sub(u.strength))
            .sum();
        let eliminated = of_side(state, &side.name).filter(|u| u.lost).count();
        let scattered = of_side(state, &side.name)
            .filter(|u| u.scattered && !u.lost)
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
    let situation = json!({"track": track, "events": []});
    let resolutions = medieval::resolve(data, "morale", &situation, None)
        .into_iter()
        .collect();
    Standing {
        gauges,
        resolutions,
    }
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

fn gts_side(state: &BattleState, side: &str) -> GtsSide {
    let fighting: Vec<&UnitState> = of_side(state, side)
        .filter(|u| u.role == Role::Unit)
        .collect();
    GtsSide {
        units: fighting.len() as u32,
        lost: fighting.iter().filter(|u| u.lost).count() as u32,
        routed: fighting.iter().filter(|u| u.rout && !u.lost).count() as u32,
        general_lost: of_side(state, side)
            .filter(|u| u.role == Role::General)
            .any(|u| u.lost || u.leader.is_some()),
        baggage_looted: of_side(state, side)
            .filter(|u| u.role == Role::Baggage)
            .any(|u| u.lost || u.rout || 2 * u.strength <= u.starting),
        stands_lost: of_side(state, side)
            .map(|u| u.starting.saturating_sub(u.strength))
            .sum(),
    }
}

fn gts_standing(data: &gts::GtsData, state: &BattleState) -> Standing {
    let ab = &data.army_break;
    let mut gauges = Vec::new();
    let mut resolutions = Vec::new();
    let sides: Vec<GtsSide> = state
        .sides
        .iter()
        .map(|s| gts_side(state, &s.name))
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
        let (abp, percent) =
            gts::checks::break_point(data, g.units, g.general_lost, g.baggage_looted);
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
        let mut situation = json!({
            "units": g.units,
            "lost": g.lost.min(g.units),
            "general_lost": g.general_lost,
            "baggage_looted": g.baggage_looted,
        });
        // Once this army breaks, the victory ratio compares the stands each side lost.
        if g.lost >= abp && g.stands_lost > 0 {
            situation["victor_stands_lost"] = json!(enemy.stands_lost);
            situation["defeated_stands_lost"] = json!(g.stands_lost);
        }
        if let Ok(mut r) = gts::resolve(data, "army_break", &situation, None) {
            // The verdict names the side: "Romans' army breaks".
            let army = crate::error::possessive(&side.name);
            let enemy_name = &state.sides[1 - i].name;
            let level = r
                .totals
                .iter()
                .find_map(|t| t.value.split("→ ").nth(1).map(str::to_string));
            let verdict = if g.lost >= abp {
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
