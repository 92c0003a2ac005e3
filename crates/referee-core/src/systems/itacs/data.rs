//! The shape of `rulesets/itacs.toml`: every table row and modifier carries its rule section.
//! The JSON schema of the file is generated from these types (`referee schema itacs`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::odds::Band;
use crate::ruleset::{Problem, SystemData};

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItacsData {
    pub system: SystemHeader,
    pub unit_classes: BTreeMap<String, UnitClass>,
    pub unit_types: BTreeMap<String, UnitType>,
    pub terrain: BTreeMap<String, Terrain>,
    pub stream: Overlay,
    pub scarp: Scarp,
    pub missile: MissileRules,
    pub defensive_fire: DefensiveFireRules,
    pub melee: MeleeRules,
    pub unit_modifiers: UnitModifierTable,
    pub results: BTreeMap<String, ResultSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SystemHeader {
    pub id: String,
    pub name: String,
    /// The rule text this data transcribes.
    pub source: String,
    /// Dice notation of every combat roll.
    pub dice: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitClass {
    pub name: String,
    #[serde(default)]
    pub mounted: bool,
    #[serde(default)]
    pub leader: bool,
    #[serde(default)]
    pub missile: bool,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub name: String,
    /// Unset where the rule text never states it: the umpire enters it from the counter.
    pub class: Option<String>,
    /// As printed: a number, `.` (dot) or `[n]` (bracketed), 2.4.6.
    pub combat: Option<String>,
    pub fire: Option<u32>,
    pub movement: Option<u32>,
    #[serde(default)]
    pub shields: bool,
    /// Where the rule text gives these values.
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub name: String,
    /// Missile combat modifier; unset where no missile combat into the hex is possible.
    pub missile: Option<i64>,
    /// Melee combat modifier; unset where melee is not allowed.
    pub melee: Option<i64>,
    /// Melee modifier instead of `melee` when mounted (C, Mf) units defend there.
    pub mounted_melee: Option<i64>,
    /// Where melee attackers must stand to attack the hex (unset: anywhere).
    pub melee_from: Option<Vec<AttackPosition>>,
    /// Attacking from these positions ignores the melee modifier.
    #[serde(default)]
    pub melee_modifier_ignored_from: Vec<AttackPosition>,
    pub rule: String,
    pub ruling: Option<String>,
    pub note: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum AttackPosition {
    /// An ordinary adjacent hex.
    Ground,
    /// A ladder or siege tower.
    LadderOrTower,
    /// An adjacent wall hex.
    Wall,
}

impl AttackPosition {
    /// Where attackers stand, in the rule's words.
    pub fn describe(&self) -> &'static str {
        match self {
            AttackPosition::Ground => "an adjacent hex",
            AttackPosition::LadderOrTower => "a ladder or siege tower",
            AttackPosition::Wall => "an adjacent wall hex",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    pub name: String,
    pub missile: i64,
    pub melee: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scarp {
    pub firing_down: i64,
    pub firing_up: i64,
    pub rule: String,
}

/// A modifier with its citation.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cited {
    pub modifier: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

impl Cited {
    /// This modifier as a cited line of a resolution.
    pub fn line(&self, label: &str) -> crate::contract::Modifier {
        crate::contract::Modifier::new(label, self.modifier, &self.rule, self.ruling.as_deref())
    }
}

/// A band of values (fire strength, units, range) and its modifier; open ends allowed.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BandModifier {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub modifier: i64,
}

impl BandModifier {
    pub fn band(&self) -> Band {
        Band {
            min: self.min,
            max: self.max,
        }
    }
}

/// A row of a results table: modified rolls `min…max` (open ends allowed) give `result`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultRow {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub result: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MissileRules {
    pub rule: String,
    pub table_rule: String,
    pub fire_strength: Vec<BandModifier>,
    pub stacking: Vec<BandModifier>,
    pub range: Vec<BandModifier>,
    pub shields: Cited,
    pub rear: Cited,
    pub elite_attacking: Cited,
    pub results: Vec<ResultRow>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefensiveFireRules {
    pub rule: String,
    /// Defensive fire reaches only this far (adjacent hexes).
    pub range: u32,
    /// D markers on firers of these classes left without a leader or another unit with a non-dot
    /// strength in their hex (4.4.1: Ff).
    pub ff_disruption: u32,
    pub ff_disruption_classes: Vec<String>,
    pub ff_disruption_rule: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BelowLowest {
    /// Resolve on the lowest column and flag it.
    LowestColumn,
    /// Refuse the attack.
    Forbid,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatioColumn {
    /// `a:b`, e.g. `3:1`.
    pub ratio: String,
    pub modifier: i64,
    /// How the column is printed when it is open-ended (`7:1 or more`).
    pub label: Option<String>,
}

impl RatioColumn {
    /// `(a, b)` of `a:b`.
    pub fn parts(&self) -> Option<(u64, u64)> {
        let (a, b) = self.ratio.split_once(':')?;
        let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        (a > 0 && b > 0).then_some((a, b))
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeleeRules {
    pub rule: String,
    pub table_rule: String,
    pub ratio_rule: String,
    pub ratio_ruling: Option<String>,
    pub columns: Vec<RatioColumn>,
    pub below_lowest_column: BelowLowest,
    pub rear: Cited,
    pub elite_attacking: Cited,
    pub elite_defending: Cited,
    pub results: Vec<ResultRow>,
    /// Results that force an attacker on a square to break (2.6.1).
    pub square_breaks_attacker_on: Vec<String>,
    pub square_rule: String,
    pub leader_rule: String,
    pub leader_ruling: Option<String>,
}

/// 10.6: rows by defending class, columns by attacking class.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitModifierTable {
    pub rule: String,
    pub ruling: Option<String>,
    pub defending: BTreeMap<String, BTreeMap<String, i64>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attacker,
    Defender,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    DMarkers,
    LoseUnits,
    DestroyAll,
    MustBreak,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectSpec {
    pub side: Side,
    pub kind: EffectKind,
    /// Markers placed or units lost.
    pub count: Option<u32>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultSpec {
    /// The rule text's wording.
    pub text: String,
    pub rule: String,
    pub effects: Vec<EffectSpec>,
    /// Effects instead of `effects` when exactly one unit defends.
    pub single_defender_effects: Option<Vec<EffectSpec>>,
    pub single_defender_ruling: Option<String>,
}

/// A results table must give a result for every modified roll, exactly once.
fn check_rows(path: &str, rows: &[(Option<i64>, Option<i64>)], problems: &mut Vec<Problem>) {
    if rows.is_empty() {
        problems.push(Problem::new(path, "the table has no rows"));
        return;
    }
    if rows[0].0.is_some() {
        problems.push(Problem::new(
            format!("{path}[0].min"),
            "the first row must be open below (leave out `min`)",
        ));
    }
    for (i, pair) in rows.windows(2).enumerate() {
        match (pair[0].1, pair[1].0) {
            (Some(max), Some(min)) if min == max + 1 => {}
            (Some(max), Some(min)) if min <= max => problems.push(Problem::new(
                format!("{path}[{}].min", i + 1),
                format!("rows overlap: {min} is already in the row before"),
            )),
            (Some(max), Some(min)) => problems.push(Problem::new(
                format!("{path}[{}].min", i + 1),
                format!("rolls {} to {} have no row", max + 1, min - 1),
            )),
            _ => problems.push(Problem::new(
                format!("{path}[{}]", i + 1),
                "only the first row may leave out `min` and only the last `max`",
            )),
        }
    }
    if let Some(last) = rows.last() {
        if last.1.is_some() {
            problems.push(Problem::new(
                format!("{path}[{}].max", rows.len() - 1),
                "the last row must be open above (leave out `max`)",
            ));
        }
    }
}

impl SystemData for ItacsData {
    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.system.dice.parse::<crate::odds::DiceSpec>().is_err() {
            problems.push(Problem::new(
                "system.dice",
                "expected dice notation such as 2d6",
            ));
        }
        for (path, rows) in [
            ("missile.results", &self.missile.results),
            ("melee.results", &self.melee.results),
        ] {
            let bands: Vec<_> = rows.iter().map(|r| (r.min, r.max)).collect();
            check_rows(path, &bands, &mut problems);
            for (i, row) in rows.iter().enumerate() {
                if !self.results.contains_key(&row.result) {
                    problems.push(Problem::new(
                        format!("{path}[{i}].result"),
                        format!("result `{}` is not described under [results]", row.result),
                    ));
                }
            }
        }
        for (path, bands) in [
            ("missile.fire_strength", &self.missile.fire_strength),
            ("missile.range", &self.missile.range),
            ("missile.stacking", &self.missile.stacking),
        ] {
            if bands.is_empty() {
                problems.push(Problem::new(path, "the table has no rows"));
            }
            for (i, b) in bands.iter().enumerate() {
                if let (Some(lo), Some(hi)) = (b.min, b.max) {
                    if lo > hi {
                        problems.push(Problem::new(format!("{path}[{i}]"), "min is above max"));
                    }
                }
            }
        }
        let mut previous: Option<(u64, u64)> = None;
        for (i, c) in self.melee.columns.iter().enumerate() {
            match c.parts() {
                None => problems.push(Problem::new(
                    format!("melee.columns[{i}].ratio"),
                    format!("expected a ratio such as 3:1, got `{}`", c.ratio),
                )),
                Some((a, b)) => {
                    if let Some((pa, pb)) = previous {
                        if u128::from(a) * u128::from(pb) <= u128::from(pa) * u128::from(b) {
                            problems.push(Problem::new(
                                format!("melee.columns[{i}].ratio"),
                                "columns must rise from left to right",
                            ));
                        }
                    }
                    previous = Some((a, b));
                }
            }
        }
        if self.melee.columns.is_empty() {
            problems.push(Problem::new("melee.columns", "the table has no columns"));
        }
        for code in &self.melee.square_breaks_attacker_on {
            if !self.results.contains_key(code) {
                problems.push(Problem::new(
                    "melee.square_breaks_attacker_on",
                    format!("result `{code}` is not described under [results]"),
                ));
            }
        }
        for class in &self.defensive_fire.ff_disruption_classes {
            if !self.unit_classes.contains_key(class) {
                problems.push(Problem::new(
                    "defensive_fire.ff_disruption_classes",
                    format!("unknown unit class `{class}`"),
                ));
            }
        }
        for (name, t) in &self.unit_types {
            if let Some(class) = &t.class {
                if !self.unit_classes.contains_key(class) {
                    problems.push(Problem::new(
                        format!("unit_types.{name}.class"),
                        format!("unknown unit class `{class}`"),
                    ));
                }
            }
            if let Some(combat) = &t.combat {
                if let Err(e) = super::strength::CombatStrength::parse(combat) {
                    problems.push(Problem::new(format!("unit_types.{name}.combat"), e));
                }
            }
        }
        for (def, row) in &self.unit_modifiers.defending {
            for class in std::iter::once(def).chain(row.keys()) {
                if !self.unit_classes.contains_key(class) {
                    problems.push(Problem::new(
                        format!("unit_modifiers.defending.{def}"),
                        format!("unknown unit class `{class}`"),
                    ));
                }
            }
        }
        for (code, spec) in &self.results {
            let lists = std::iter::once(("effects", &spec.effects)).chain(
                spec.single_defender_effects
                    .iter()
                    .map(|e| ("single_defender_effects", e)),
            );
            for (list, effects) in lists {
                for (i, e) in effects.iter().enumerate() {
                    let counted = matches!(e.kind, EffectKind::DMarkers | EffectKind::LoseUnits);
                    if counted && e.count.unwrap_or(0) == 0 {
                        problems.push(Problem::new(
                            format!("results.{code}.{list}[{i}].count"),
                            "this effect needs a count of 1 or more",
                        ));
                    }
                }
            }
        }
        problems
    }
}
