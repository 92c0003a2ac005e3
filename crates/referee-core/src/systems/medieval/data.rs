//! The shape of `rulesets/medieval.toml`: every table and modifier carries its rule section.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::result::CombatResult;
use crate::error::RefereeError;
use crate::odds::Band;
use crate::rule_system::shared::SystemHeader;
use crate::rule_system::Phase;
use crate::ruleset::{check_rows, Citation, Cited, Problem, SystemData};
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MedievalData {
    pub system: SystemHeader,
    pub unit_types: BTreeMap<String, UnitType>,
    pub terrain: BTreeMap<String, Terrain>,
    pub road: Road,
    pub fortification_costs: FortificationCosts,
    pub combat: CombatRules,
    pub scatter: ScatterTable,
    pub retreat: RetreatRules,
    pub pursuit: PursuitRules,
    pub leader_death: DiceRule,
    pub ride_down: RideDownRules,
    pub fire: BTreeMap<String, FireTable>,
    pub fire_rules: FireRules,
    pub movement: MovementRules,
    pub morale: MoraleRules,
    pub regroup: RegroupRules,
    pub fatigue: FatigueRules,
    pub map_edge: MapEdgeRules,
    pub demolition: DemolitionRules,
    pub sequence: Vec<Phase>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapEdgeRules {
    pub rule: String,
    pub full_turns: u32,
    pub cavalry_reentry: u32,
    pub other_reentry: u32,
    pub hex_number_step: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DemolitionRules {
    pub rule: String,
    pub full_turns: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub name: String,
    #[serde(default)]
    pub cavalry: bool,
    /// Armour level 0–2 (1.1).
    pub armour: u32,
    /// A key of [fire] for ranged units (10.0).
    pub ranged: Option<String>,
    /// Gets no combat modifier from its charge factor (horse archers, 10.5.3).
    #[serde(default)]
    pub no_charge_modifier: bool,
    /// Its COMBAT SCATTER column.
    pub scatter: String,
    /// The column for a counter of armour 0, 1, 2 when its shields differ from the type's: the
    /// table names its columns by class and armour (R-MED-22).
    #[serde(default)]
    pub scatter_by_armour: Vec<String>,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub name: String,
    /// Extra movement points over clear for infantry and cavalry (TERRAIN EFFECT).
    pub infantry: u32,
    pub cavalry: u32,
    /// No entry but along a road.
    #[serde(default)]
    pub prohibited: bool,
    /// Combat modifiers for a defender there (R-MED-4).
    pub combat: u32,
    #[serde(default)]
    pub no_charge: bool,
    #[serde(default)]
    pub enter_loses_sp: bool,
    #[serde(default)]
    pub fortified: bool,
    /// Attacking into it is charging uphill: at least one hex uphill, CF −1 (5.6.9, R-MED-16).
    #[serde(default)]
    pub uphill: bool,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Road {
    pub infantry_sixths: u32,
    pub cavalry_sixths: u32,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FortificationCosts {
    /// By armour level 0, 1, 2.
    pub infantry: Vec<u32>,
    pub cavalry: Vec<u32>,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatRow {
    pub roll: i64,
    pub results: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    pub rule: String,
    pub ratio_rule: String,
    pub ratio_ruling: Option<String>,
    pub shift_rule: String,
    pub shift_ruling: Option<String>,
    pub table_rule: String,
    pub result_ruling: Option<String>,
    /// 1:4 … 9:1, left to right.
    pub columns: Vec<String>,
    pub rows: Vec<CombatRow>,
    pub armour: Citation,
    pub charge: Citation,
    pub charge_cap_over_armour: u32,
    pub max_charge_factor: u32,
    pub leader_stacked: Cited,
    pub leader_in_range: Cited,
    pub banner: Cited,
    pub rear_per_hex: Cited,
    pub opposing_directions: Cited,
    pub ranged_target: Cited,
    pub morale: Citation,
    pub bridge_cf: u32,
    pub stream_cf: u32,
    pub uphill_cf_per_hex: u32,
    pub after_combat_cf: u32,
    pub fortified_defence_max: u32,
    pub leader_alone_rule: String,
}

impl CombatRules {
    /// Charge factor lost on the way: a stream, a bridge, each hex uphill (5.6.7–5.6.9).
    pub fn crossing_cf(&self, stream: bool, bridge: bool, uphill: u32) -> u32 {
        u32::from(stream) * self.stream_cf
            + u32::from(bridge) * self.bridge_cf
            + uphill * self.uphill_cf_per_hex
    }

    /// (a, b) of each a:b column.
    pub fn column_ratios(&self) -> Vec<Option<(u64, u64)>> {
        self.columns
            .iter()
            .map(|c| {
                let (a, b) = c.split_once(':')?;
                Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
            })
            .collect()
    }
}

/// COMBAT SCATTER: for each type column, the highest d6 that scatters after a retreat of 1–5
/// hexes (0: never).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct ScatterTable {
    pub rule: String,
    pub ruling: Option<String>,
    pub leader_rule: String,
    #[serde(flatten)]
    pub columns: BTreeMap<String, Vec<u32>>,
}

impl ScatterTable {
    /// The highest d6 that scatters a unit of this column after retreating hexes.
    pub fn threshold(&self, column: &str, hexes: u32) -> u32 {
        if hexes == 0 {
            return 0;
        }
        self.columns
            .get(column)
            .and_then(|row| row.get(hexes.min(row.len() as u32) as usize - 1))
            .copied()
            .unwrap_or(0)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetreatRules {
    pub blocked_sp_per_hex: u32,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PursuitRules {
    pub rule: String,
    pub ruling: Option<String>,
    pub dice: String,
    pub high_morale: i64,
    pub high_morale_modifier: i64,
    pub high_morale_rule: String,
    /// "+2 MORALE" read as at least +2 (R-MED-20).
    pub high_morale_ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceRule {
    pub rule: String,
    pub ruling: Option<String>,
    pub dice: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RideDownRules {
    pub rule: String,
    pub min_cf: u32,
    pub protected_terrain: Vec<String>,
}

/// A column of a fire table: modified 2d6 rolls min…max.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollBand {
    pub min: Option<i64>,
    pub max: Option<i64>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    pub name: String,
    pub rule: String,
    pub ruling: Option<String>,
    pub columns: Vec<RollBand>,
    /// One row per range, 1 upwards.
    pub ranges: Vec<Vec<String>>,
    /// Only this armour level counts, as −1 (bombards, 10.7.3).
    pub armour_only: Option<u32>,
    #[serde(default)]
    pub ignores_terrain: bool,
    /// Fires at objects (fortifications), not units.
    #[serde(default)]
    pub objects: bool,
    pub loss_scatter_on: Option<u32>,
    pub loss_scatter_row: Option<u32>,
    pub loss_scatter_rule: Option<String>,
    pub weak_at_sp: Option<u32>,
    pub weak_modifier: Option<i64>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireRules {
    pub armour_rule: String,
    pub armour_ruling: Option<String>,
    pub cover_terrain: Vec<String>,
    pub cover_modifier: i64,
    pub cover_rule: String,
    pub friendly_fire_on: u32,
    pub friendly_fire_rule: String,
    pub leader_hit_on: i64,
    pub leader_hit_rule: String,
    /// Shots a ranged unit has a turn (10.1.6); horse archers', one in each movement phase
    /// (10.5.6, 10.5.7).
    pub shots_per_turn: u32,
    pub horse_archer_shots_per_turn: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    pub rule: String,
    pub turn_rule: String,
    pub turn_ruling: Option<String>,
    pub infantry_turn_cost: u32,
    pub horse_archer_turn_sixths: u32,
    pub enemy_zoc_turn_extra: u32,
    pub enemy_zoc_rule: String,
    pub sharp_turn_max_cf: u32,
    pub zoc_pass_cf_margin: u32,
    pub zoc_pass_extra: u32,
    pub zoc_rule: String,
    pub friendly_hex_extra: u32,
    pub hold_cf_extra: u32,
    pub lower_cf_extra: u32,
    pub leave_map_cost: u32,
    /// Horse archers shooting in their own movement phase (10.5.8).
    pub horse_archer_fire_cost: u32,
    /// Passing a banner to another unit (7.1.4).
    pub pass_banner_cost: u32,
    /// A leader's movement points (8.1.2) and the rules of his moving (8.1.1–8.1.3).
    pub leader_mp: u32,
    pub leader_rule: String,
    pub stacking_sp: u32,
    pub fortified_stacking_sp: u32,
    pub fortified_cavalry_sp: u32,
    pub stacking_rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoraleRules {
    pub rule: String,
    pub elimination: i64,
    pub banner: i64,
    pub leader: i64,
    pub grand_leader: i64,
    pub elimination_rule: String,
    pub banner_rule: String,
    pub leader_rule: String,
    pub grand_leader_rule: String,
    pub applied_rule: String,
    /// The last box of the MORALE track each way (6.1.1, 6.1.3): a value beyond it is refused.
    /// The rule text prints no extent; the ruleset gives 20 (R-MED-30), a scenario's map its own.
    #[serde(default)]
    pub track_ends: Option<i64>,
}

impl MoraleRules {
    /// Refuses a MORALE value beyond the track's last box, never clamping it silently.
    pub fn on_track(&self, value: i64, field: &str) -> Result<(), RefereeError> {
        match self.track_ends {
            Some(end) if value.abs() > end => Err(RefereeError::new(
                ErrorCode::SituationOffTheTrack,
                format!(
                    "a MORALE of {value:+} is beyond the MORALE track, which runs from {} to {end:+}",
                    -end
                ),
            )
            .field(field)
            .rule("6.1.1, 6.1.3")
            .ruling("R-MED-30")),
            _ => Ok(()),
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegroupRules {
    pub rule: String,
    pub dice: String,
    pub at_least: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FatigueRules {
    pub rule: String,
    pub above: u32,
    pub dice: String,
    pub scatter_below: i64,
}

impl FireTable {
    pub fn bands(&self) -> Vec<Band> {
        self.columns
            .iter()
            .map(|c| Band {
                min: c.min,
                max: c.max,
            })
            .collect()
    }
}

impl SystemData for MedievalData {
    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let c = &self.combat;
        let ratios = c.column_ratios();
        for (i, r) in ratios.iter().enumerate() {
            if r.is_none_or(|(a, b)| a == 0 || b == 0 || (a != 1 && b != 1)) {
                problems.push(Problem::new(
                    format!("combat.columns[{i}]"),
                    "expected a ratio n:1 or 1:n",
                ));
            }
        }
        for (i, row) in c.rows.iter().enumerate() {
            if row.results.len() != c.columns.len() {
                problems.push(Problem::new(
                    format!("combat.rows[{i}].results"),
                    format!(
                        "{} results for {} columns",
                        row.results.len(),
                        c.columns.len()
                    ),
                ));
            }
            for (j, code) in row.results.iter().enumerate() {
                if let Err(e) = code.parse::<CombatResult>() {
                    problems.push(Problem::new(format!("combat.rows[{i}].results[{j}]"), e));
                }
            }
        }
        let rolls: Vec<i64> = c.rows.iter().map(|r| r.roll).collect();
        if rolls != (2..=12).collect::<Vec<_>>() {
            problems.push(Problem::new(
                "combat.rows",
                "expected one row for each 2d6 roll, 2 to 12, in order",
            ));
        }
        for (name, t) in &self.unit_types {
            if !self.scatter.columns.contains_key(&t.scatter) {
                problems.push(Problem::new(
                    format!("unit_types.{name}.scatter"),
                    format!("no COMBAT SCATTER column “{}”", t.scatter),
                ));
            }
            if !t.scatter_by_armour.is_empty() && t.scatter_by_armour.len() != 3 {
                problems.push(Problem::new(
                    format!("unit_types.{name}.scatter_by_armour"),
                    "expected three columns, for armour 0, 1 and 2",
                ));
            }
            for column in &t.scatter_by_armour {
                if !self.scatter.columns.contains_key(column) {
                    problems.push(Problem::new(
                        format!("unit_types.{name}.scatter_by_armour"),
                        format!("no COMBAT SCATTER column “{column}”"),
                    ));
                }
            }
            if let Some(r) = &t.ranged {
                if !self.fire.contains_key(r) {
                    problems.push(Problem::new(
                        format!("unit_types.{name}.ranged"),
                        format!("no fire table “{r}”"),
                    ));
                }
            }
            if t.armour > 2 {
                problems.push(Problem::new(
                    format!("unit_types.{name}.armour"),
                    "armour levels are 0, 1 or 2 (1.1)",
                ));
            }
        }
        for (key, row) in &self.scatter.columns {
            if row.len() != 5 || row.iter().any(|v| *v > 6) {
                problems.push(Problem::new(
                    format!("scatter.{key}"),
                    "expected 5 d6 thresholds (retreats of 1 to 5 hexes), each 0–6",
                ));
            }
        }
        for (key, t) in &self.fire {
            let bands: Vec<_> = t.columns.iter().map(|b| (b.min, b.max)).collect();
            check_rows(&format!("fire.{key}.columns"), &bands, &mut problems);
            for (i, row) in t.ranges.iter().enumerate() {
                if row.len() != t.columns.len() {
                    problems.push(Problem::new(
                        format!("fire.{key}.ranges[{i}]"),
                        format!("{} results for {} columns", row.len(), t.columns.len()),
                    ));
                }
                for (j, code) in row.iter().enumerate() {
                    if super::fire::FireResult::parse(code).is_none() {
                        problems.push(Problem::new(
                            format!("fire.{key}.ranges[{i}][{j}]"),
                            format!("“{code}” is not a fire result (-, -N, -NR, S, D)"),
                        ));
                    }
                }
            }
        }
        for (path, dice) in [
            ("system.dice", &self.system.dice),
            ("pursuit.dice", &self.pursuit.dice),
            ("leader_death.dice", &self.leader_death.dice),
            ("regroup.dice", &self.regroup.dice),
            ("fatigue.dice", &self.fatigue.dice),
        ] {
            if dice.parse::<crate::odds::DiceSpec>().is_err() {
                problems.push(Problem::new(path, "expected dice notation such as 2d6"));
            }
        }
        for (i, k) in self.fire_rules.cover_terrain.iter().enumerate() {
            if !self.terrain.contains_key(k) {
                problems.push(Problem::new(
                    format!("fire_rules.cover_terrain[{i}]"),
                    format!("unknown terrain “{k}”"),
                ));
            }
        }
        problems.extend(crate::rule_system::resolve::sequence_problems(
            &self.sequence,
            &crate::rule_system::action_infos::<super::Medieval>(),
        ));
        problems
    }
}
