//! Morale equivalents, command and army breaks (p. 42–43, R-DBMM-2) and victory points (p. 43,
//! R-DBMM-3). ME are counted in halves, so every threshold is an exact integer comparison.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use super::element::{self, me_text, Element};
use crate::contract::{Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

/// What has become of an element of the command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ElementState {
    #[default]
    InPlay,
    Destroyed,
    Spent,
    /// Fled or routed off the table.
    OffTable,
    /// A 0 ME element taken off when its command became disheartened (p. 43): it counts no ME
    /// and is no element lost.
    Removed,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandElement {
    pub element: Element,
    #[serde(default)]
    pub state: ElementState,
}

/// ME tallies entered directly instead of an element list.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    /// The command's original ME.
    pub total: f64,
    #[serde(default)]
    pub destroyed: f64,
    #[serde(default)]
    pub spent: f64,
    #[serde(default)]
    pub off_table: f64,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandSituation {
    #[serde(default)]
    pub name: String,
    /// The command's elements with their state (or tally).
    #[serde(default)]
    pub elements: Vec<CommandElement>,
    /// ME tallies instead of elements.
    #[serde(default)]
    pub tally: Option<Tally>,
    /// Its general's element has been lost (p. 42: spent elements then count as lost).
    #[serde(default)]
    pub general_lost: bool,
    /// ME of a broken command whose elements it sees within 800p at the end of the bound (p. 43).
    #[serde(default)]
    pub nearby_broken_me: Option<f64>,
}

/// A command's ME in halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Halves {
    pub total: i64,
    pub destroyed: i64,
    pub spent: i64,
    pub off_table: i64,
    /// A spent general's element (always counts as lost).
    pub spent_general: i64,
    /// The general's element is destroyed or off-table.
    pub general_destroyed: bool,
    pub elements_lost: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CommandState {
    Steady,
    Disheartened,
    Broken,
    Shattered,
}

impl CommandState {
    pub fn code(self) -> &'static str {
        match self {
            CommandState::Steady => "steady",
            CommandState::Disheartened => "disheartened",
            CommandState::Broken => "broken",
            CommandState::Shattered => "shattered",
        }
    }
}

/// A command's state and every figure behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandStanding {
    pub name: String,
    pub me: Halves,
    /// Lost ME (halves) as the rules count it in this state.
    pub lost: i64,
    /// The temporary penalty for a nearby broken command (halves).
    pub penalty: i64,
    pub state: CommandState,
    /// Its general is lost (entered, or its element spent or destroyed).
    pub general_lost: bool,
    /// Halves still to lose before each threshold: disheartened, broken (by lost), broken (by
    /// lost or spent), shattered (destroyed or off-table); 0 once passed.
    pub to_go: [i64; 4],
}

fn halves(me: f64, field: &str) -> Result<i64, RefereeError> {
    if !(0.0..=10_000.0).contains(&me) || (me * 2.0).fract() != 0.0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidMe,
            format!("{me} is not a morale equivalent: whole or half ME, not negative"),
        )
        .field(field.to_string())
        .rule("p. 42"));
    }
    Ok((me * 2.0) as i64)
}

/// The least lost (halves) with lost × d > total × n: strictly more than the fraction.
fn threshold(total: i64, [n, d]: [u32; 2]) -> i64 {
    total * i64::from(n) / i64::from(d) + 1
}

fn past(lost: i64, total: i64, [n, d]: [u32; 2]) -> bool {
    lost * i64::from(d) > total * i64::from(n)
}

pub fn tally(data: &DbmmData, c: &CommandSituation, field: &str) -> Result<Halves, RefereeError> {
    let mut h = Halves::default();
    match (&c.tally, c.elements.is_empty()) {
        (Some(_), false) => {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "give the command's elements or its tally, not both",
            )
            .field(field.to_string()))
        }
        (None, true) => {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "a command needs its elements (or a tally of its ME)",
            )
            .field(field.to_string())
            .rule("p. 42"))
        }
        (Some(t), true) => {
            h.total = halves(t.total, &format!("{field}.tally.total"))?;
            h.destroyed = halves(t.destroyed, &format!("{field}.tally.destroyed"))?;
            h.spent = halves(t.spent, &format!("{field}.tally.spent"))?;
            h.off_table = halves(t.off_table, &format!("{field}.tally.off_table"))?;
            if h.destroyed + h.spent + h.off_table > h.total {
                return Err(RefereeError::new(
                    ErrorCode::SituationLossesExceedCommand,
                    format!(
                        "the command has {} ME but {} ME destroyed, spent or off-table",
                        me_text(h.total),
                        me_text(h.destroyed + h.spent + h.off_table)
                    ),
                )
                .field(format!("{field}.tally"))
                .rule("p. 42"));
            }
            h.elements_lost = u32::from(h.destroyed + h.spent + h.off_table > 0);
        }
        (None, false) => {
            for (i, ce) in c.elements.iter().enumerate() {
                let checked =
                    element::check(data, &ce.element, &format!("{field}.elements[{i}].element"))?;
                let (me, _) = element::morale_halves(data, &checked);
                h.total += me;
                match ce.state {
                    ElementState::InPlay | ElementState::Removed => {}
                    ElementState::Destroyed => h.destroyed += me,
                    ElementState::Spent if ce.element.general => h.spent_general += me,
                    ElementState::Spent => h.spent += me,
                    ElementState::OffTable => h.off_table += me,
                }
                if !matches!(ce.state, ElementState::InPlay | ElementState::Removed) {
                    h.elements_lost += 1;
                    h.general_destroyed |= ce.element.general && ce.state != ElementState::Spent;
                }
            }
        }
    }
    Ok(h)
}

/// The command's state (p. 43, R-DBMM-2).
pub fn standing(
    data: &DbmmData,
    c: &CommandSituation,
    field: &str,
) -> Result<CommandStanding, RefereeError> {
    let t = &data.morale.command;
    let me = tally(data, c, field)?;
    let penalty = match c.nearby_broken_me {
        Some(size) if me.elements_lost > 0 => {
            let size = halves(size, &format!("{field}.nearby_broken_me"))?;
            2 * i64::from(if size > 2 * i64::from(t.nearby_broken_large_above) {
                t.nearby_broken_large
            } else {
                t.nearby_broken_small
            })
        }
        _ => 0,
    };
    // Spent elements count as lost once the general's element is lost (p. 42).
    let general_gone = c.general_lost || me.general_destroyed || me.spent_general > 0;
    let spent_as_lost = if general_gone { me.spent } else { 0 };
    let lost = me.destroyed + me.off_table + me.spent_general + spent_as_lost + penalty;
    let spent_all = me.spent + me.spent_general;
    let total = me.total;
    let broken = past(lost, total, t.broken_lost)
        || past(
            lost - spent_as_lost + spent_all,
            total,
            t.broken_lost_or_spent,
        );
    let gone = me.destroyed + me.off_table;
    let (state, lost) = if broken {
        let lost = me.destroyed + me.off_table + spent_all + penalty;
        if past(gone, total, t.shattered_destroyed) {
            (CommandState::Shattered, lost)
        } else {
            (CommandState::Broken, lost)
        }
    } else if past(lost, total, t.disheartened_lost) {
        (CommandState::Disheartened, lost)
    } else {
        (CommandState::Steady, lost)
    };
    let lost_or_spent = me.destroyed + me.off_table + spent_all + penalty;
    let to_go = |have: i64, f: [u32; 2]| (threshold(total, f) - have).max(0);
    Ok(CommandStanding {
        name: c.name.clone(),
        general_lost: c.general_lost || me.spent_general > 0 || me.general_destroyed,
        me,
        lost,
        penalty,
        state,
        to_go: [
            to_go(lost, t.disheartened_lost),
            to_go(lost, t.broken_lost),
            to_go(lost_or_spent, t.broken_lost_or_spent),
            to_go(gone, t.shattered_destroyed),
        ],
    })
}

fn me(h: i64) -> String {
    format!("{} ME", me_text(h))
}

pub fn command_morale(data: &DbmmData, c: &CommandSituation) -> Result<Resolution, RefereeError> {
    let s = standing(data, c, "")?;
    if s.me.total == 0 {
        // Fractions of nothing: no loss can pass them (p. 42).
        return Err(RefereeError::new(
            ErrorCode::SituationNoMoraleEquivalents,
            "the command counts 0 ME, so no share of its ME can be lost: enter its elements or its original ME",
        )
        .field(if c.tally.is_some() { "tally.total" } else { "elements" })
        .rule(&data.morale.rule));
    }
    let t = &data.morale.command;
    let ruling = t.ruling.as_deref();
    let name = if s.name.is_empty() {
        "The command".to_string()
    } else {
        s.name.clone()
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "command_morale",
        s.state.code(),
        &format!("{name} is {}", s.state.code()),
        Vec::new(),
    );
    let frac = |f: [u32; 2]| format!("{}/{}", f[0], f[1]);
    let lines = [
        ("Original ME", me(s.me.total)),
        ("Destroyed", me(s.me.destroyed)),
        ("Spent", me(s.me.spent + s.me.spent_general)),
        ("Off-table", me(s.me.off_table)),
        ("Lost (as counted)", me(s.lost)),
    ];
    for (label, value) in lines {
        r.totals
            .push(Total::new(label, value, &data.morale.rule, ruling));
    }
    if s.penalty > 0 {
        r.totals.push(Total::new(
            "Nearby broken command (this bound-end only)",
            format!("+{}", me(s.penalty)),
            &t.nearby_broken_rule,
            ruling,
        ));
    }
    let gauge = |label: String, to_go: i64| {
        Total::new(
            label,
            if to_go == 0 {
                "passed".to_string()
            } else {
                format!("{} to go", me(to_go))
            },
            &t.rule,
            ruling,
        )
    };
    r.totals.push(gauge(
        format!(
            "Disheartened: lost > {} of {}",
            frac(t.disheartened_lost),
            me(s.me.total)
        ),
        s.to_go[0],
    ));
    r.totals.push(gauge(
        format!("Broken: lost > {}", frac(t.broken_lost)),
        s.to_go[1],
    ));
    r.totals.push(gauge(
        format!("Broken: lost or spent > {}", frac(t.broken_lost_or_spent)),
        s.to_go[2],
    ));
    r.totals.push(gauge(
        format!(
            "Shattered (once broken): destroyed or off-table > {}",
            frac(t.shattered_destroyed)
        ),
        s.to_go[3],
    ));
    for effects in data.morale.effects.iter().filter(|e| {
        let state = match e.state.as_str() {
            "disheartened" => CommandState::Disheartened,
            "broken" => CommandState::Broken,
            _ => CommandState::Shattered,
        };
        state == s.state || (state == CommandState::Broken && s.state == CommandState::Shattered)
    }) {
        for line in &effects.text {
            r.notes.push(Note::new(line.clone(), &effects.rule, None));
        }
    }
    Ok(r)
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmySituation {
    #[serde(default)]
    pub name: String,
    pub commands: Vec<CommandSituation>,
}

/// An army's figures: its commands' standings, original ME and losses (with penalties).
pub struct ArmyStanding {
    pub commands: Vec<CommandStanding>,
    pub total: i64,
    pub lost: i64,
    pub defeated: bool,
    pub to_go: i64,
}

pub fn army_standing(
    data: &DbmmData,
    a: &ArmySituation,
    field: &str,
) -> Result<ArmyStanding, RefereeError> {
    if a.commands.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "an army has at least one command",
        )
        .field(format!("{field}commands"))
        .rule("p. 43"));
    }
    let commands = a
        .commands
        .iter()
        .enumerate()
        .map(|(i, c)| standing(data, c, &format!("{field}commands[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let total: i64 = commands.iter().map(|c| c.me.total).sum();
    let lost: i64 = commands.iter().map(|c| c.lost).sum();
    let f = data.morale.command.army_defeated;
    Ok(ArmyStanding {
        defeated: past(lost, total, f),
        to_go: (threshold(total, f) - lost).max(0),
        commands,
        total,
        lost,
    })
}

pub fn army_morale(data: &DbmmData, a: &ArmySituation) -> Result<Resolution, RefereeError> {
    let s = army_standing(data, a, "")?;
    let t = &data.morale.command;
    let ruling = t.ruling.as_deref();
    // "Saxons: the army …": the verb agrees whether the side is named in the singular or the
    // plural ("Rome", "Saxons").
    let name = if a.name.is_empty() {
        "The army".to_string()
    } else {
        format!("{}: the army", a.name)
    };
    let (code, text) = if s.defeated {
        ("defeated", format!("{name} is defeated"))
    } else {
        ("fighting", format!("{name} fights on"))
    };
    let mut r = Resolution::certain(&data.system.id, "army_morale", code, &text, Vec::new());
    for (i, c) in s.commands.iter().enumerate() {
        let label = if c.name.is_empty() {
            format!("Command {}", i + 1)
        } else {
            c.name.clone()
        };
        r.totals.push(Total::new(
            label,
            format!(
                "{} — lost {} of {}",
                c.state.code(),
                me(c.lost),
                me(c.me.total)
            ),
            &t.rule,
            ruling,
        ));
    }
    r.totals.push(Total::new(
        "Army original ME",
        me(s.total),
        &t.army_rule,
        ruling,
    ));
    r.totals.push(Total::new(
        "Army losses (with temporary penalties)",
        me(s.lost),
        &t.army_rule,
        ruling,
    ));
    r.totals.push(Total::new(
        format!(
            "Defeated: losses > {}/{}",
            t.army_defeated[0], t.army_defeated[1]
        ),
        if s.to_go == 0 {
            "passed".into()
        } else {
            format!("{} to go", me(s.to_go))
        },
        &t.army_rule,
        ruling,
    ));
    Ok(r)
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VictorySituation {
    pub invader: ArmySituation,
    pub defender: ArmySituation,
}

/// Penalty points (p. 43, R-DBMM-3).
pub fn penalty_points(data: &DbmmData, s: &ArmyStanding) -> (i64, i64, i64) {
    let v = &data.victory;
    let lost_or_broken: i64 = s
        .commands
        .iter()
        .map(|c| {
            if c.state >= CommandState::Broken {
                c.me.total
            } else {
                c.lost - c.penalty
            }
        })
        .sum();
    let tenths = if s.total == 0 {
        0
    } else {
        lost_or_broken * 10 / s.total
    };
    let commands = s
        .commands
        .iter()
        .filter(|c| {
            c.state < CommandState::Broken
                && (c.state == CommandState::Disheartened || c.general_lost)
        })
        .count() as i64;
    (
        tenths * v.penalty_per_tenth + commands * v.penalty_per_command,
        tenths,
        commands,
    )
}

/// The 25 victory points split between the invader and the defender (p. 43), with how the split
/// was reached in words ("neither defeated, penalty points differ by 3").
pub struct VictorySplit {
    pub invader: i64,
    pub defender: i64,
    pub how: String,
}

/// The victory points of p. 43: a defeated army's enemy takes the total less its own penalty
/// points; otherwise the split table by the difference in penalty points.
pub fn victory_split(data: &DbmmData, s: &VictorySituation) -> Result<VictorySplit, RefereeError> {
    let v = &data.victory;
    let inv = army_standing(data, &s.invader, "invader.")?;
    let def = army_standing(data, &s.defender, "defender.")?;
    let (pi, pd) = (penalty_points(data, &inv).0, penalty_points(data, &def).0);
    let (invader, defender, how) = match (inv.defeated, def.defeated) {
        (false, true) => {
            let w = (v.total - pi).max(0);
            (w, v.total - w, "the defender is defeated".to_string())
        }
        (true, false) => {
            let w = (v.total - pd).max(0);
            (v.total - w, w, "the invader is defeated".to_string())
        }
        (a, b) => {
            let both = a && b;
            let diff = (pi - pd).abs();
            let what = if both {
                "both defeated"
            } else {
                "neither defeated"
            };
            if diff == 0 {
                let split = if both {
                    &v.equal_both_defeated
                } else {
                    &v.equal_neither_defeated
                };
                (
                    split.invader,
                    split.defender,
                    format!("{what}, penalty points equal"),
                )
            } else {
                let row = v
                    .split
                    .iter()
                    .find(|r| {
                        diff >= r.difference_min && r.difference_max.is_none_or(|m| diff <= m)
                    })
                    .ok_or_else(|| {
                        RefereeError::new(
                            ErrorCode::RulesetInvalid,
                            format!("victory.split has no row for a difference of {diff}"),
                        )
                    })?;
                let (least, more) = (row.least, row.more);
                let (vi, vd) = if pi < pd {
                    (least, more)
                } else {
                    (more, least)
                };
                (vi, vd, format!("{what}, penalty points differ by {diff}"))
            }
        }
    };
    Ok(VictorySplit {
        invader,
        defender,
        how,
    })
}

pub fn victory(data: &DbmmData, s: &VictorySituation) -> Result<Resolution, RefereeError> {
    let v = &data.victory;
    let inv = army_standing(data, &s.invader, "invader.")?;
    let def = army_standing(data, &s.defender, "defender.")?;
    let pp = [penalty_points(data, &inv), penalty_points(data, &def)];
    let VictorySplit {
        invader: vi,
        defender: vd,
        how,
    } = victory_split(data, s)?;
    let mut r = Resolution::certain(
        &data.system.id,
        "victory",
        &format!("{vi}-{vd}"),
        &{
            let name = |a: &ArmySituation, role: &str| {
                if a.name.trim().is_empty() {
                    role.to_string()
                } else {
                    a.name.clone()
                }
            };
            let (i, d) = (
                name(&s.invader, "the invader"),
                name(&s.defender, "the defender"),
            );
            let verdict = match vi.cmp(&vd) {
                std::cmp::Ordering::Greater => format!(
                    "{} {vi}–{vd} on victory points",
                    crate::error::side_verb(&i, "win", "wins")
                ),
                std::cmp::Ordering::Less => format!(
                    "{} {vd}–{vi} on victory points",
                    crate::error::side_verb(&d, "win", "wins")
                ),
                std::cmp::Ordering::Equal => {
                    format!("{i} and {d} draw {vi}–{vd} on victory points")
                }
            };
            crate::error::sentence(&format!("{verdict} ({how})."))
        },
        Vec::new(),
    );
    let ruling = v.penalty_ruling.as_deref();
    for (side, standing, p) in [("Invader", &inv, pp[0]), ("Defender", &def, pp[1])] {
        r.totals.push(Total::new(
            format!("{side} losses"),
            format!(
                "{} of {}{}",
                me(standing.lost),
                me(standing.total),
                if standing.defeated {
                    " — defeated"
                } else {
                    ""
                }
            ),
            &data.morale.command.army_rule,
            data.morale.command.ruling.as_deref(),
        ));
        r.totals.push(Total::new(
            format!("{side} penalty points"),
            format!(
                "{} ({} × {} for complete tenths lost or broken, {} × {} for commands disheartened or without their general)",
                p.0, p.1, v.penalty_per_tenth, p.2, v.penalty_per_command
            ),
            &v.rule,
            ruling,
        ));
    }
    r.totals.push(Total::new(
        "Victory points",
        format!("invader {vi}, defender {vd}"),
        &v.rule,
        None,
    ));
    Ok(r)
}
