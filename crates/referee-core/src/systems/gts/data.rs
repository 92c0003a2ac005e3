//! The shape of `rulesets/gts.toml`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rule_system::shared::{ResultRow, SystemHeader};
use crate::rule_system::Phase;
use crate::ruleset::{check_rows, Cited, Problem, SystemData};

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GtsData {
    pub system: SystemHeader,
    pub base: Base,
    pub classes: BTreeMap<String, UnitClass>,
    pub qualities: Vec<Quality>,
    pub rows: BTreeMap<String, Row>,
    pub rout_triggers: RoutTriggers,
    pub fire: FireRules,
    pub melee: MeleeRules,
    pub recoil: RecoilRules,
    pub command: CommandRules,
    pub leader_casualty: LeaderCasualtyRules,
    pub general_cost: GeneralCost,
    pub frenzy: FrenzyRules,
    pub army_break: ArmyBreakRules,
    pub response: ResponseRules,
    pub sequence: Vec<Phase>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResponseRules {
    pub rule: String,
    pub disordered: Cited,
    pub formation_change_base: i64,
    pub tests: BTreeMap<String, ResponseTest>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResponseTest {
    pub name: String,
    pub rule: String,
    pub pass: String,
    pub fail: String,
    pub on_pass: Vec<Consequence>,
    pub on_fail: Vec<Consequence>,
    /// On failure when the unit is already Disordered.
    pub on_fail_disordered: Vec<Consequence>,
    /// The failure's consequences apply only within 2" of a formed enemy unit (4.311).
    #[serde(default)]
    pub fail_only_near_enemy: bool,
    /// The ruling the test rests on, if any.
    #[serde(default)]
    pub ruling: Option<String>,
    /// A natural d10 face that eliminates the stand whatever its response (4.324: 10).
    #[serde(default)]
    pub eliminated_on: Option<i64>,
    /// Only skirmish stands take this test (4.324).
    #[serde(default)]
    pub skirmish_only: bool,
}

/// What a response test does to the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Consequence {
    Disorder,
    Rout,
    Hit,
    /// Rallied from Rout: the Rout ends, the unit takes Attack formation, Disordered (3.33;
    /// conditions are exclusive, 3.3).
    Rally,
}

impl Consequence {
    pub fn changes(self) -> Vec<crate::contract::Change> {
        use crate::contract::Change;
        match self {
            Consequence::Disorder => vec![Change::Disorder],
            Consequence::Rout => vec![Change::RoutUnit],
            Consequence::Hit => vec![Change::Hits { count: 1 }],
            Consequence::Rally => vec![Change::RemoveRout, Change::Disorder],
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Base {
    pub response: i64,
    pub quality: String,
    pub fire_attack: i64,
    pub fire_defence: i64,
    pub melee: i64,
    pub recoil: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitClass {
    pub name: String,
    /// Base move in inches; unset where the text gives none.
    #[serde(rename = "move")]
    pub move_inches: Option<i64>,
    #[serde(default)]
    pub mounted: bool,
    /// Hits per stand whatever the quality (elephants 6, engines and chariots 4).
    pub hits_per_stand: Option<u32>,
    /// Table 2.10 rows every unit of the class has (elephants: ELE).
    #[serde(default)]
    pub rows: Vec<String>,
    /// Disordered for good on the second hit (3.32).
    #[serde(default)]
    pub second_hit_disorders: bool,
    #[serde(default)]
    pub always_flanked: bool,
    /// Shoots bows at the horse archers' range though not mounted (chariots, R-GTS-21).
    #[serde(default)]
    pub mounted_fire: bool,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Quality {
    pub letter: String,
    pub recoil_bonus: i64,
    pub hits_per_stand: u32,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub name: String,
    /// morale, training, armour, weapon, order or class.
    pub group: String,
    #[serde(default)]
    pub response: i64,
    #[serde(default)]
    pub quality: i64,
    #[serde(default, rename = "move")]
    pub move_inches: i64,
    #[serde(default)]
    pub fire_attack: i64,
    #[serde(default)]
    pub fire_defence: i64,
    #[serde(default)]
    pub melee: i64,
    pub melee_first: Option<i64>,
    #[serde(default)]
    pub recoil: i64,
    /// a (longest) to e.
    pub weapon_class: Option<String>,
    /// Armour levels for the 2.14 gap modifier: none 0 … plate 4.
    pub armour_level: Option<u32>,
    /// Fire ranges in tenths of an inch: short first, then the longest for foot (and for
    /// mounted, mounted_range).
    #[serde(default)]
    pub ranges: Vec<u32>,
    pub short_range: Option<u32>,
    pub mounted_range: Option<u32>,
    pub min_range: Option<u32>,
    /// Longest range by ammunition, in tenths (slings: stones 4", lead shot 6"; 5.1, R-GTS-20).
    #[serde(default)]
    pub ammunition: BTreeMap<String, u32>,
    /// Training: Professional, and Drilled — a Drilled unit may withdraw (4.12); one both
    /// Professional and Drilled enters Attack formation from March at the end of its move
    /// (3.1512, R-GTS-24).
    #[serde(default)]
    pub professional: bool,
    #[serde(default)]
    pub drilled: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
pub struct RoutTriggers {
    pub rule: String,
    /// By quality letter, for 1–12 stands: "stands-hits".
    #[serde(flatten)]
    pub by_quality: BTreeMap<String, Vec<String>>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireRules {
    pub rule: String,
    pub ruling: Option<String>,
    pub disordered: Cited,
    pub skirmish: Cited,
    pub target_skirmish: Cited,
    pub short_range: Cited,
    pub elevated_target: Cited,
    pub cover: Cited,
    pub secondary_weapon: Cited,
    pub flank_rear: Cited,
    pub skirmish_stand_max_hits: u32,
    pub artillery_cover_defence: i64,
    pub ballista_close: i64,
    pub ballista_indirect: i64,
    /// 9.26: a catapult's unmodified d10 of this misses the mark; the shot strays
    /// `stray_inches` on a d8 and is a shot of `stray_shot` against any unit there (d10 + 0).
    pub catapult_astray_on: i64,
    pub stray_shot: i64,
    pub stray_inches: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TieBand {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub hits: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeleeRules {
    pub rule: String,
    pub elevation: Cited,
    pub disordered: Cited,
    pub routed: Cited,
    pub flanked: Cited,
    pub march: Cited,
    pub mass_per_unit: i64,
    pub mass_rule: String,
    pub mass_ruling: Option<String>,
    pub longer_weapon: i64,
    pub armour_level_gap: i64,
    pub weapon_rule: String,
    pub tie_rule: String,
    pub tie_ruling: Option<String>,
    pub ties: Vec<TieBand>,
    pub tie_default_hits: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecoilRules {
    pub rule: String,
    pub ruling: Option<String>,
    pub flanking: Cited,
    pub six_stands: Cited,
    pub three_stands: Cited,
    pub elevation: Cited,
    pub double_enemy_stands: Cited,
    pub disordered: Cited,
    pub march: Cited,
    pub locked_hits: u32,
    pub rout_multiple: i64,
    pub move_inches: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandRules {
    pub rule: String,
    pub army_radius: u32,
    pub wing_radius: u32,
    pub reserve_cost: u32,
    /// Tactical skill letter → die.
    pub dice: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaderCasualtyRules {
    pub rule: String,
    pub check_dice: String,
    pub wounded_on: i64,
    pub routed_side: i64,
    pub victorious_side: i64,
    pub outcome_dice: String,
    pub outcomes: Vec<ResultRow>,
    /// Table 1.10's rolls (0 = 10) that kill the leader or take him prisoner: either way he is
    /// removed from play, and the roster marks him so (8.0 counts both).
    pub killed_on: Vec<i64>,
    pub captured_on: Vec<i64>,
    /// Table 1.10's rolls that also give −1 to melees and command tests of every unit within
    /// 6" for one turn (result 8).
    pub nearby_minus_one_on: Vec<i64>,
    /// Table 1.10's rolls the roster keeps until the turn ends (R-GTS-25): dazed (P −1, result
    /// 2), out of play (result 4), on the field then passed out (result 5); and the lasting wound
    /// (one grade less effective, PV +1, result 3).
    pub dazed_on: Vec<i64>,
    pub unhorsed_on: Vec<i64>,
    pub passes_out_on: Vec<i64>,
    pub wound_on: Vec<i64>,
    /// Result 8's modifier to melees and command tests within 6" (−1).
    pub near_fallen_leader: i64,
    /// Result 8's reach: "all units within 6"" (Table 1.10). Defaulted, as the built-in file
    /// gives it in words only; a house rule may set another.
    #[serde(default = "six_inches")]
    pub nearby_inches: u32,
}

fn six_inches() -> u32 {
    6
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneralCost {
    pub rule: String,
    pub base: u32,
    pub step: u32,
    /// Tactical skill grades, worst first.
    pub grades: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrenzyRules {
    pub rule: String,
    pub dice: String,
    pub frenzy_on: i64,
    pub free_hits: u32,
    pub driver_rule: String,
    pub driver_dice: String,
    pub driver_kills_on: i64,
    pub direction_rule: String,
    pub directions: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyBreakRules {
    pub rule: String,
    pub ruling: Option<String>,
    pub percent: u32,
    pub one_loss_percent: u32,
    pub both_losses_percent: u32,
    pub victory_rule: String,
    pub marginal_at_least: String,
    pub decisive_at_least: String,
}

/// "a/b" → (a, b).
pub fn fraction(text: &str) -> Option<(u64, u64)> {
    let (a, b) = text.split_once('/')?;
    let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (b > 0).then_some((a, b))
}

/// "s-h" → (stands, hits).
pub fn trigger(text: &str) -> Option<(u32, u32)> {
    let (s, h) = text.split_once('-')?;
    Some((s.trim().parse().ok()?, h.trim().parse().ok()?))
}

impl GtsData {
    pub fn quality_index(&self, letter: &str) -> Option<usize> {
        self.qualities.iter().position(|q| q.letter == letter)
    }
}

impl SystemData for GtsData {
    /// A unit's move (4.1) offered in the Movement phase (0.0 B): written after the ruleset
    /// file's bytes were fixed as its fingerprint.
    const COMPANION: Option<crate::ruleset::SourceFile<'static>> =
        Some(crate::ruleset::SourceFile {
            name: "rulesets/gts-tables.toml",
            text: include_str!("../../../../../rulesets/gts-tables.toml"),
        });

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.quality_index(&self.base.quality).is_none() {
            problems.push(Problem::new(
                "base.quality",
                "not one of the quality letters",
            ));
        }
        for (letter, row) in &self.rout_triggers.by_quality {
            if self.quality_index(letter).is_none() {
                problems.push(Problem::new(
                    format!("rout_triggers.{letter}"),
                    "unknown quality letter",
                ));
            }
            for (i, t) in row.iter().enumerate() {
                if trigger(t).is_none() {
                    problems.push(Problem::new(
                        format!("rout_triggers.{letter}[{i}]"),
                        format!("“{t}” is not stands-hits"),
                    ));
                }
            }
        }
        for (key, class) in &self.classes {
            for r in &class.rows {
                if !self.rows.contains_key(r) {
                    problems.push(Problem::new(
                        format!("classes.{key}.rows"),
                        format!("unknown row “{r}”"),
                    ));
                }
            }
        }
        let groups = ["morale", "training", "armour", "weapon", "order", "class"];
        for (key, row) in &self.rows {
            if !groups.contains(&row.group.as_str()) {
                problems.push(Problem::new(
                    format!("rows.{key}.group"),
                    format!("expected one of {}", groups.join(", ")),
                ));
            }
            if row.group == "weapon" && row.weapon_class.is_none() {
                problems.push(Problem::new(
                    format!("rows.{key}.weapon_class"),
                    "a weapon needs its class a–e",
                ));
            }
        }
        let bands: Vec<_> = self
            .leader_casualty
            .outcomes
            .iter()
            .map(|r| (r.min, r.max))
            .collect();
        check_rows("leader_casualty.outcomes", &bands, &mut problems);
        for (path, text) in [
            (
                "army_break.marginal_at_least",
                &self.army_break.marginal_at_least,
            ),
            (
                "army_break.decisive_at_least",
                &self.army_break.decisive_at_least,
            ),
        ] {
            if fraction(text).is_none() {
                problems.push(Problem::new(path, "expected a fraction such as 9/10"));
            }
        }
        for (path, dice) in [
            ("system.dice", &self.system.dice),
            (
                "leader_casualty.check_dice",
                &self.leader_casualty.check_dice,
            ),
            (
                "leader_casualty.outcome_dice",
                &self.leader_casualty.outcome_dice,
            ),
            ("frenzy.dice", &self.frenzy.dice),
            ("frenzy.driver_dice", &self.frenzy.driver_dice),
        ]
        .into_iter()
        .chain(self.command.dice.values().map(|d| ("command.dice", d)))
        {
            if dice.parse::<crate::odds::DiceSpec>().is_err() {
                problems.push(Problem::new(path, "expected dice notation such as d10"));
            }
        }
        problems.extend(crate::rule_system::resolve::sequence_problems(
            &self.sequence,
            &crate::rule_system::action_infos::<super::Gts>(),
        ));
        problems
    }
}
