//! A DBMM battle's standing: each command's morale (steady, disheartened, broken, shattered),
//! each army against defeat, and the victory points (p. 42–43).

use super::data::DbmmData;
use super::element::me_text;
use super::morale::{
    army_morale, army_standing, victory, victory_split, ArmySituation, CommandElement,
    CommandSituation, CommandState, VictorySituation,
};
use super::roster::DbmmElement;
use crate::rule_system::standing::{gauge, of_side, Gauge, SideVerdict, Standing, Verdict};
use crate::state::BattleState;
use crate::tournament::Outcome;

/// A DBMM side as the morale rules see it: its commands, each with its elements and what became
/// of them (the `state` the outcomes wrote on the unit).
fn army(data: &DbmmData, state: &BattleState, side: &str) -> ArmySituation {
    let mut commands: Vec<CommandSituation> = Vec::new();
    for (unit, own) in of_side(state, side).filter_map(|u| Some((u, u.detail::<DbmmElement>()?))) {
        let name = command_of(unit);
        let entry = CommandElement {
            element: own.element.clone(),
            state: own.state,
        };
        match commands.iter_mut().find(|c| c.name == name) {
            Some(c) => c.elements.push(entry),
            None => commands.push(CommandSituation {
                name,
                elements: vec![entry],
                tally: None,
                general_lost: false,
                nearby_broken_me: None,
            }),
        }
    }
    let mut army = ArmySituation {
        name: side.to_string(),
        commands,
    };
    see_broken(data, state, &mut army);
    army
}

/// The temporary ME a command counts for seeing a broken friendly command at the bound's end
/// (p. 43): the umpire marks an element that sees one (the battle knows no distances); its
/// command counts the largest broken command of its side (R-DBMM-36). Morale itself says whether
/// the command has lost an element yet and is unbroken.
fn see_broken(data: &DbmmData, state: &BattleState, army: &mut ArmySituation) {
    let Ok(standing) = army_standing(data, army, "") else {
        return;
    };
    let Some(largest) = standing
        .commands
        .iter()
        .filter(|c| c.state >= CommandState::Broken)
        .map(|c| c.me.total)
        .max()
    else {
        return;
    };
    let sees = |name: &str| {
        of_side(state, &army.name).any(|u| {
            !u.lost
                && command_of(u) == name
                && u.detail::<DbmmElement>().is_some_and(|e| e.sees_broken)
        })
    };
    for (c, s) in army.commands.iter_mut().zip(&standing.commands) {
        if s.state < CommandState::Broken && sees(&c.name) {
            c.nearby_broken_me = Some(largest as f64 / 2.0);
        }
    }
}

/// Each command of a side by name with its state now (p. 43): what its elements fight with,
/// read from its ME lost as the roster stands (R-DBMM-48).
pub fn command_states(
    data: &DbmmData,
    state: &BattleState,
    side: &str,
) -> Vec<(String, CommandState)> {
    army_standing(data, &army(data, state, side), "")
        .map(|a| a.commands.into_iter().map(|c| (c.name, c.state)).collect())
        .unwrap_or_default()
}

/// The command an element of `side` belongs to: its own, or the side's single one.
pub fn command_of(unit: &crate::state::UnitState) -> String {
    unit.command.clone().unwrap_or_else(|| unit.side.clone())
}

/// Each command against its thresholds and each army against defeat (p. 42–43), and the
/// victory points once both armies have elements.
pub fn standing(data: &DbmmData, state: &BattleState) -> Standing {
    let t = &data.morale.command;
    let me = |h: i64| format!("{} ME", me_text(h));
    // The battle's clock first: the bound and its time of day (p. 23).
    let mut gauges = super::clock::gauges(data, state);
    // Then the terrain chosen, in words (p. 20).
    gauges.extend(super::terrain_choice::gauges(data, state));
    let mut resolutions = Vec::new();
    let armies: Vec<_> = state
        .sides
        .iter()
        .map(|s| army(data, state, &s.name))
        .collect();
    for (side, army) in state.sides.iter().zip(&armies) {
        let Ok(standing) = army_standing(data, army, "") else {
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
                CommandState::Steady => (
                    "disheartened",
                    c.to_go[0],
                    c.lost + c.to_go[0],
                    format!("more than {} lost", frac(t.disheartened_lost)),
                ),
                CommandState::Disheartened => {
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
                to_go: (c.state != CommandState::Shattered)
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
                    if c.penalty > 0 {
                        // The temporary ME said apart, so the umpire sees why it counts more.
                        format!(
                            "lost {} of {}, {} of them for a broken command in sight this bound-end",
                            me_text(c.lost),
                            me(c.me.total),
                            me_text(c.penalty)
                        )
                    } else {
                        format!("lost {} of {}", me_text(c.lost), me(c.me.total))
                    },
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
                format!("lost {} of {}", me_text(standing.lost), me(standing.total)),
                &t.army_rule,
            )
        });
        if let Ok(r) = army_morale(data, army) {
            resolutions.push(r);
        }
    }
    // Victory points once both armies have elements: the first side is taken as the invader.
    if let [invader, defender] = armies.as_slice() {
        let s = VictorySituation {
            invader: invader.clone(),
            defender: defender.clone(),
        };
        if let Ok(r) = victory(data, &s) {
            resolutions.push(r);
        }
    }
    Standing {
        gauges,
        resolutions,
    }
}

/// The battle's verdict for an event: the 25 victory points split as p. 43 gives them (penalty
/// points included), the first side taken as the invader as the standing does; more points
/// win, equal points draw. None until both armies have elements.
pub fn verdict(data: &DbmmData, state: &BattleState) -> Option<Verdict> {
    let [invader, defender] = <[ArmySituation; 2]>::try_from(
        state
            .sides
            .iter()
            .map(|s| army(data, state, &s.name))
            .collect::<Vec<_>>(),
    )
    .ok()?;
    let s = VictorySituation { invader, defender };
    let split = victory_split(data, &s).ok()?;
    let words = victory(data, &s).ok()?.outcome?.meaning;
    let outcome = |own: i64, other: i64| match own.cmp(&other) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    };
    Some(Verdict {
        sides: vec![
            SideVerdict {
                side: s.invader.name.clone(),
                outcome: outcome(split.invader, split.defender),
                victory_points: Some(split.invader as f64),
            },
            SideVerdict {
                side: s.defender.name.clone(),
                outcome: outcome(split.defender, split.invader),
                victory_points: Some(split.defender as f64),
            },
        ],
        words,
        rule: data.victory.rule.clone(),
        ruling: data.victory.penalty_ruling.clone(),
    })
}
