//! The shape of `rulesets/itacs.toml`: every table row and modifier carries its rule section.
//! The JSON schema of the file is generated from these types (`referee schema itacs`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::odds::Band;
pub use crate::rule_system::shared::{roll_table, ResultRow, SystemHeader};
use crate::ruleset::{check_rows, Problem, SystemData};

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
    pub markers: super::state::MarkerRules,
    pub movement: super::movement::MovementRules,
    pub after_combat: super::after_combat::AfterCombatRules,
    pub leader_fate: BTreeMap<String, super::after_combat::LeaderFate>,
    pub horse_archers: super::special::HorseArcherRules,
    pub feudal_cavalry: super::special::FeudalRules,
    pub conversions: Vec<super::special::Conversion>,
    pub throwing_weapons: super::special::ThrowingRules,
    pub carriers: BTreeMap<String, super::transport::Carrier>,
    pub fleets: super::transport::FleetRules,
    pub rampage: super::special::RampageRules,
    pub victory: super::victory::VictoryRules,
    pub sequence: Vec<crate::rule_system::Phase>,
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
    /// Standard combat units that may not fire missiles (2.4.1), throwing weapons aside (6.6).
    #[serde(default)]
    pub no_missiles: bool,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub name: String,
    /// Unset where the rule text never states it: the umpire enters it from the counter.
    pub class: Option<String>,
    /// As printed: a number, . (dot) or [n] (bracketed), 2.4.6.
    pub combat: Option<String>,
    pub fire: Option<u32>,
    /// Fire range in hexes, where the rule text gives it (4.2.3).
    pub fire_range: Option<u32>,
    pub movement: Option<u32>,
    #[serde(default)]
    pub shields: bool,
    /// Victory points instead of the formula of 7.0 (R-ITACS-6).
    pub vp: Option<u32>,
    /// Never breaks nor routs (elephants 6.9.2, fleets 6.7.5).
    #[serde(default)]
    pub never_breaks: bool,
    /// Disrupted by combat, it keeps its D marker for good and rampages (6.9.2).
    #[serde(default)]
    pub rampages: bool,
    /// Stacks alone, but for what it carries (6.9.3).
    #[serde(default)]
    pub stacks_alone: bool,
    /// A fleet: moves only on water, stacks one per hex (6.7).
    #[serde(default)]
    pub fleet: bool,
    /// A fleet that may also enter river hexes (6.7: VF and LF).
    #[serde(default)]
    pub enters_rivers: bool,
    /// Horse archer facing and fire after movement (6.2).
    #[serde(default)]
    pub horse_archer: bool,
    /// Must charge the nearest enemy unless a leader stops it (6.3).
    #[serde(default)]
    pub feudal: bool,
    /// Counts as cavalry on the terrain chart (chariots, 6.8).
    #[serde(default)]
    pub moves_as_mounted: bool,
    /// Terrain keys where it pays the infantry cost although mounted (elephants, 6.9.1).
    #[serde(default)]
    pub infantry_costs_in: Vec<String>,
    /// The ruling its movement costs rest on (elephants, R-ITACS-28).
    pub movement_ruling: Option<String>,
    /// Where the rule text gives these values.
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub name: String,
    /// No unit may ever be there (mountains, 10.3).
    #[serde(default)]
    pub impassable: bool,
    /// Movement points to enter (10.3).
    pub movement: Option<u32>,
    /// Movement points for cavalry (C, Mf) instead of movement.
    pub mounted_movement: Option<u32>,
    /// Unit classes that may not enter.
    #[serde(default)]
    pub closed_to: Vec<String>,
    /// Feudal cavalry charging (6.3) may enter although its class is closed out (trenches, 10.3).
    #[serde(default)]
    pub feudal_charge_enters: bool,
    /// Only fleets may enter (water, 6.7).
    #[serde(default)]
    pub fleets_only: bool,
    /// A lower stacking limit than the scenario's (walls, 3.1.4).
    pub stacking_limit: Option<u32>,
    /// Fire range added for units firing from this terrain at units not on such terrain
    /// (hills, 4.2.3, 10.3).
    pub fire_range_bonus: Option<u32>,
    /// Missile combat modifier; unset where no missile combat into the hex is possible.
    pub missile: Option<i64>,
    /// Melee combat modifier; unset where melee is not allowed.
    pub melee: Option<i64>,
    /// Melee modifier instead of melee when mounted (C, Mf) units defend there.
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
    /// Extra movement points to enter, on top of the background terrain (3.1.2).
    pub movement: u32,
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

pub use crate::ruleset::Cited;

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
    pub ff_disruption_ruling: Option<String>,
    /// Firing Ff units with a non-dot strength do not spare one another (R-ITACS-30).
    pub ff_firers_ruling: Option<String>,
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
    /// a:b, e.g. 3:1.
    pub ratio: String,
    pub modifier: i64,
    /// How the column is printed when it is open-ended (7:1 or more).
    pub label: Option<String>,
}

impl RatioColumn {
    /// (a, b) of a:b.
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
    /// The unit types that may form a square (2.6.1).
    pub square_types: Vec<String>,
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
    /// Effects instead of effects when exactly one unit defends.
    pub single_defender_effects: Option<Vec<EffectSpec>>,
    pub single_defender_ruling: Option<String>,
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
                        format!("result “{}” is not described under [results]", row.result),
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
                    format!("expected a ratio such as 3:1, got “{}”", c.ratio),
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
        for t in &self.melee.square_types {
            if !self.unit_types.contains_key(t) {
                problems.push(Problem::new(
                    "melee.square_types",
                    format!("unknown unit type `{t}`"),
                ));
            }
        }
        for code in &self.melee.square_breaks_attacker_on {
            if !self.results.contains_key(code) {
                problems.push(Problem::new(
                    "melee.square_breaks_attacker_on",
                    format!("result “{code}” is not described under [results]"),
                ));
            }
        }
        for class in &self.defensive_fire.ff_disruption_classes {
            if !self.unit_classes.contains_key(class) {
                problems.push(Problem::new(
                    "defensive_fire.ff_disruption_classes",
                    format!("unknown unit class “{class}”"),
                ));
            }
        }
        for (name, t) in &self.unit_types {
            if let Some(class) = &t.class {
                if !self.unit_classes.contains_key(class) {
                    problems.push(Problem::new(
                        format!("unit_types.{name}.class"),
                        format!("unknown unit class “{class}”"),
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
                        format!("unknown unit class “{class}”"),
                    ));
                }
            }
        }
        self.special_problems(&mut problems);
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

impl ItacsData {
    /// Cross-references of the unit-state, movement and special-unit sections.
    fn special_problems(&self, problems: &mut Vec<Problem>) {
        let class = |path: String, c: &String, problems: &mut Vec<Problem>| {
            if !self.unit_classes.contains_key(c) {
                problems.push(Problem::new(path, format!("unknown unit class “{c}”")));
            }
        };
        let unit_type = |path: String, t: &String, problems: &mut Vec<Problem>| {
            if !self.unit_types.contains_key(t) {
                problems.push(Problem::new(path, format!("unknown unit type “{t}”")));
            }
        };
        let terrain = |path: String, t: &String, problems: &mut Vec<Problem>| {
            if !self.terrain.contains_key(t) {
                problems.push(Problem::new(path, format!("unknown terrain “{t}”")));
            }
        };
        if self.markers.rout_at == 0 {
            problems.push(Problem::new("markers.rout_at", "must be 1 or more"));
        }
        for (name, t) in &self.terrain {
            for c in &t.closed_to {
                class(format!("terrain.{name}.closed_to"), c, problems);
            }
        }
        for (name, t) in &self.unit_types {
            for k in &t.infantry_costs_in {
                terrain(format!("unit_types.{name}.infantry_costs_in"), k, problems);
            }
        }
        for k in &self.horse_archers.break_terrain {
            terrain("horse_archers.break_terrain".into(), k, problems);
        }
        for (i, c) in self.conversions.iter().enumerate() {
            unit_type(format!("conversions[{i}].from"), &c.from, problems);
            unit_type(format!("conversions[{i}].to"), &c.to, problems);
        }
        for (name, carrier) in &self.carriers {
            unit_type(format!("carriers.{name}"), name, problems);
            for (i, o) in carrier.options.iter().enumerate() {
                for c in &o.classes {
                    class(format!("carriers.{name}.options[{i}].classes"), c, problems);
                }
            }
        }
        for c in &self.fleets.land_defence_classes {
            class("fleets.land_defence_classes".into(), c, problems);
        }
        for t in &self.fleets.fire_ship_types {
            unit_type("fleets.fire_ship_types".into(), t, problems);
        }
        for c in &self.victory.doubled_classes {
            class("victory.doubled_classes".into(), c, problems);
        }
        for code in &self.after_combat.must_break_results {
            if !self.results.contains_key(code) {
                problems.push(Problem::new(
                    "after_combat.must_break_results",
                    format!("result “{code}” is not described under [results]"),
                ));
            }
        }
        for (key, fate) in &self.leader_fate {
            if !["unaffected", "captured", "freed", "killed"].contains(&fate.result.as_str()) {
                problems.push(Problem::new(
                    format!("leader_fate.{key}.result"),
                    "expected unaffected, captured, freed or killed",
                ));
            }
        }
        let bands: Vec<_> = self
            .rampage
            .directions
            .iter()
            .map(|r| (r.min, r.max))
            .collect();
        check_rows("rampage.directions", &bands, problems);
        for (path, dice) in [
            ("rampage.dice", &self.rampage.dice),
            ("feudal_cavalry.dice", &self.feudal_cavalry.dice),
        ] {
            if dice.parse::<crate::odds::DiceSpec>().is_err() {
                problems.push(Problem::new(path, "expected dice notation such as 2d6"));
            }
        }
        let mut previous = 0;
        for (i, l) in self.victory.levels.iter().enumerate() {
            if l.more_than < 1 || (i > 0 && l.more_than <= previous) {
                problems.push(Problem::new(
                    format!("victory.levels[{i}].more_than"),
                    "levels must rise from 1",
                ));
            }
            previous = l.more_than;
        }
        problems.extend(crate::rule_system::resolve::sequence_problems(
            &self.sequence,
            &crate::rule_system::action_infos::<super::Itacs>(),
        ));
    }
}
