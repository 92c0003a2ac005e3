//! Victory points (7.0, R-ITACS-6), panic (5.4, 7.1) and victory levels (7.2).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::ItacsData;
use super::results::effect;
use super::situation::{resolve_units, Unit, UnitEntry};
use super::strength::show_half_points;
use crate::contract::{Change, Check, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VictoryRules {
    pub rule: String,
    pub ruling: Option<String>,
    /// Classes whose cost is doubled (cavalry).
    pub doubled_classes: Vec<String>,
    pub panic_rule: String,
    pub panic_ruling: Option<String>,
    pub levels_rule: String,
    /// Ascending: a side wins at a level when it has more than more_than times the other's points.
    pub levels: Vec<VictoryLevel>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VictoryLevel {
    pub name: String,
    pub more_than: u32,
}

/// Horse archers: a class that rides and shoots (Mf, 6.2) — not elephants or chariots, which
/// move as mounted but are class D.
fn horse_archers(data: &ItacsData, u: &Unit) -> bool {
    u.class
        .as_ref()
        .and_then(|c| data.unit_classes.get(c))
        .is_some_and(|c| c.mounted && c.missile)
}

/// The ruling a unit's cost follows: horse archers ride (9.0) but are class Mf, and 7.0 doubles
/// class C only (R-ITACS-37); every other cost is R-ITACS-6's formula.
fn cost_ruling(data: &ItacsData, u: &Unit) -> Option<String> {
    let doubled = u
        .class
        .as_ref()
        .is_some_and(|c| data.victory.doubled_classes.contains(c));
    let priced = u.type_data(data).is_some_and(|t| t.vp.is_some());
    if !priced && !doubled && horse_archers(data, u) {
        Some("R-ITACS-37".into())
    } else {
        data.victory.ruling.clone()
    }
}

/// A unit's victory points, in half points, with how they were reached.
pub fn unit_cost(data: &ItacsData, u: &Unit, field: &str) -> Result<(u64, String), RefereeError> {
    if let Some(vp) = u.type_data(data).and_then(|t| t.vp) {
        return Ok((
            2 * u64::from(vp),
            format!("{vp} (the ruleset's cost for {})", u.label),
        ));
    }
    // In half points: n ÷ 2 victory points are n half points.
    let combat = u.combat_strength(field)?.half_points(false).unwrap_or(0);
    let base = combat / 2 + 2 * u64::from(u.fire);
    let doubled = u
        .class
        .as_ref()
        .is_some_and(|c| data.victory.doubled_classes.contains(c));
    let cost = if doubled { 2 * base } else { base };
    let mounted_not_doubled = !doubled && horse_archers(data, u);
    let how = format!(
        "{} ÷ 2 + {}{} = {}",
        show_half_points(combat),
        u.fire,
        if doubled {
            ", doubled for cavalry"
        } else if mounted_not_doubled {
            ", not doubled: horse archers are class Mf, and only class C is"
        } else {
            ""
        },
        show_half_points(cost)
    );
    Ok((cost, how))
}

/// One side: its panic level and the units it has lost (destroyed or routed off the map).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsVictorySide")]
pub struct SideEntry {
    pub name: String,
    /// The scenario's panic level for this army (5.4).
    #[serde(default)]
    #[ts(optional)]
    pub panic_level: Option<u32>,
    /// Units lost: destroyed in combat or routed off the map (7.0).
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<UnitEntry>>")]
    pub lost: Vec<UnitEntry>,
    /// Victory points the scenario awards this side besides the enemy's losses (8.0), e.g. for
    /// a hex held or a leader captured.
    #[serde(default)]
    #[ts(optional, as = "Option<u32>")]
    pub awarded: u32,
}

/// victory: points, panic and the victory level (7.0–7.2).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsVictorySituation")]
pub struct VictorySituation {
    pub sides: Vec<SideEntry>,
    /// An army has already panicked this game: both are immune now (5.4).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub panic_happened: bool,
}

pub fn victory(data: &ItacsData, s: &VictorySituation) -> Result<Resolution, RefereeError> {
    let v = &data.victory;
    if s.sides.len() != 2 {
        return Err(
            RefereeError::new(ErrorCode::SituationTwoSides, "enter exactly two sides")
                .field("sides")
                .rule(&v.rule),
        );
    }
    let mut totals = Vec::new();
    // lost[i]: half points of side i's losses, awarded to the other side.
    let mut lost = [0u64; 2];
    for (i, side) in s.sides.iter().enumerate() {
        if side.lost.is_empty() {
            continue;
        }
        let field = format!("sides[{i}].lost");
        let units = resolve_units(data, &side.lost, "")?;
        for (j, u) in units.iter().enumerate() {
            let (cost, how) = unit_cost(data, u, &format!("{field}[{j}]"))?;
            lost[i] += cost * u64::from(u.count);
            totals.push(Total {
                label: format!("{} lost {} × {}", side.name, u.count, u.label),
                value: format!("{how} each"),
                rule: v.rule.clone(),
                ruling: cost_ruling(data, u),
            });
        }
    }
    let mut score = [lost[1], lost[0]];
    for (i, side) in s.sides.iter().enumerate() {
        if side.awarded > 0 {
            score[i] += 2 * u64::from(side.awarded);
            totals.push(Total {
                label: format!("{} awarded by the scenario", side.name),
                value: side.awarded.to_string(),
                rule: "8.0, 7.2".into(),
                ruling: Some("R-ITACS-32".into()),
            });
        }
    }
    for (i, side) in s.sides.iter().enumerate() {
        totals.push(Total {
            label: format!("{} victory points", side.name),
            value: show_half_points(score[i]),
            rule: v.rule.clone(),
            ruling: v.ruling.clone(),
        });
    }
    let mut checks = Vec::new();
    let mut effects = Vec::new();
    let mut panicking = Vec::new();
    for (i, side) in s.sides.iter().enumerate() {
        let Some(level) = side.panic_level else {
            continue;
        };
        let enemy = score[1 - i];
        let reached = enemy >= 2 * u64::from(level);
        checks.push(
            Check::holds(
                format!(
                    "The enemy's points ({}) reach {}'s panic level ({level}){}",
                    show_half_points(enemy),
                    side.name,
                    if reached {
                        String::new()
                    } else {
                        format!(": {} to go", show_half_points(2 * u64::from(level) - enemy))
                    }
                ),
                reached,
                &v.panic_rule,
            )
            .ruling(v.panic_ruling.as_deref()),
        );
        if reached && !s.panic_happened {
            panicking.push(i);
        }
    }
    if s.panic_happened {
        checks.push(Check::holds(
            "Panic already happened this game: both armies are immune",
            true,
            &v.panic_rule,
        ));
    }
    for i in &panicking {
        effects.push(effect(
            Target::Army(s.sides[*i].name.clone()),
            Change::Rout,
            &v.panic_rule,
            None,
        ));
    }
    if panicking.len() == 2 {
        checks.push(
            Check::umpire(
                "Both armies reached their panic levels: only the first to reach it panics",
                &v.panic_rule,
            )
            .ruling(v.panic_ruling.as_deref()),
        );
    }
    let (lead, trail) = if score[0] >= score[1] { (0, 1) } else { (1, 0) };
    let (a, b) = (score[lead], score[trail]);
    let level = v
        .levels
        .iter()
        .rev()
        .find(|l| a > u64::from(l.more_than) * b);
    let next = v.levels.iter().find(|l| a <= u64::from(l.more_than) * b);
    // The key names the level and the side by its place ("marginal_victory_b"); the words, the
    // side by its name.
    let (result, meaning, name) = match level {
        None => (
            "no_victory".to_string(),
            "Neither side wins: neither has more victory points.".to_string(),
            "No victory".to_string(),
        ),
        Some(l) => (
            format!(
                "{}_victory_{}",
                l.name.to_lowercase().replace(' ', "_"),
                ["a", "b"][lead]
            ),
            format!(
                "{} {} {} victory, with {} victory points against {}.",
                crate::error::side_verb(&s.sides[lead].name, "win", "wins"),
                crate::error::article_for(&l.name),
                l.name.to_lowercase(),
                show_half_points(a),
                show_half_points(b)
            ),
            format!(
                "{} victory: {}",
                crate::error::sentence(&l.name),
                s.sides[lead].name
            ),
        ),
    };
    if let Some(n) = next {
        // Points come in halves only with odd strengths: when both tallies are whole, so is the
        // gap to close.
        let mut needed = u64::from(n.more_than) * b + 1 - a;
        if a % 2 == 0 && b % 2 == 0 && needed % 2 == 1 {
            needed += 1;
        }
        totals.push(Total {
            label: format!("{} to reach a {} victory", s.sides[lead].name, n.name),
            value: format!("{} more victory points", show_half_points(needed)),
            rule: v.levels_rule.clone(),
            ruling: None,
        });
    }
    let mut r = Resolution::certain(&data.system.id, "victory", &result, &meaning, effects)
        .named(&result, name);
    r.totals = totals;
    r.checks = checks;
    r.notes.push(crate::contract::Note::new(
        "These are the default victory conditions; a scenario's own conditions come first.",
        &v.levels_rule,
        None,
    ));
    Ok(r)
}
