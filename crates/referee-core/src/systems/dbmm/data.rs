//! The shape of `rulesets/dbmm.toml`, and its checks: every selector parses against the file's
//! own element types and grades, every score and bound is one the rules know.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::selector::Selector;
use crate::rule_system::shared::SystemHeader;
use crate::rule_system::Phase;
use crate::ruleset::{Problem, SystemData};

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DbmmData {
    pub system: SystemHeader,
    pub types: BTreeMap<String, ElementType>,
    pub classes: BTreeMap<String, ClassInfo>,
    pub grades: BTreeMap<String, Grade>,
    pub x_grading: Vec<XGrading>,
    pub combat_factors: Vec<CombatFactor>,
    pub rear_support: RearSupport,
    pub tactical_factors: Vec<TacticalFactor>,
    pub grading_factors: Vec<GradingFactor>,
    pub outcomes: Outcomes,
    pub pursuit: Pursuit,
    pub morale: Morale,
    pub victory: Victory,
    pub pips: Pips,
    pub movement: Movement,
    pub shooting: Shooting,
    pub scales: Vec<Scale>,
    /// Going by element (p. 19–20).
    pub going: super::going::GoingTables,
    /// Dawn to dusk by climate and season, and visibility (p. 23–25).
    pub deployment: super::deployment::DeploymentZones,
    pub daylight: super::daylight::Daylight,
    /// Setting up a battle and placing terrain (p. 18–23, 26).
    pub setup: super::setup::SetupTables,
    /// Weather changes from the PIP averages and the weather's effects (p. 25).
    pub weather: super::weather::WeatherChanges,
    pub sequence: Vec<Phase>,
    /// The tables of the companion file (kept apart so that the ruleset file's bytes, its
    /// fingerprint, stay as they were): element basing (p. 13) …
    pub basing: super::outcome_moves::Basing,
    /// … interpenetration of friendly troops (p. 32) …
    pub interpenetration: super::interpenetration::InterpenetrationTable,
    /// … choosing terrain, its FE costs and limits (p. 20) …
    pub terrain_choice: super::terrain_choice::TerrainChoice,
    /// … spontaneous advance (p. 30) and threat zones (p. 32) …
    pub spontaneous: super::spontaneous::SpontaneousTable,
    pub threat_zone: super::spontaneous::ThreatZoneTable,
    /// … a command at deployment (p. 21) …
    pub command_deployment: super::deployment::CommandDeployment,
    /// … and seeing into and out of terrain (p. 25).
    pub sight: super::sight::SightTable,
    /// Selectors parsed once: a combat reads hundreds of them.
    #[serde(skip)]
    #[schemars(skip)]
    pub parsed: SelectorCache,
}

/// Parsed selectors by their text, filled as they are first read.
#[derive(Default)]
pub struct SelectorCache(
    std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Selector>>>,
);

impl Clone for SelectorCache {
    fn clone(&self) -> Self {
        SelectorCache::default()
    }
}

impl std::fmt::Debug for SelectorCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SelectorCache")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Mounted,
    Foot,
    Train,
    Naval,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElementType {
    pub name: String,
    pub class: Class,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassInfo {
    pub name: String,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grade {
    pub name: String,
    /// Orders "same or higher grade"; higher is better.
    pub rank: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct XGrading {
    #[serde(rename = "type")]
    pub type_code: String,
    /// Type (G).
    pub counts_as: String,
    pub when: String,
    pub rule: String,
    pub ruling: Option<String>,
}

/// How an element is fighting, as the tables name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Fighting {
    #[default]
    Any,
    CloseCombat,
    FrontEdge,
    ShotAt,
    Shooting,
    /// Close combat or shot at.
    Combat,
    FrontEdgeOrShotAt,
    ShootingNotShotAt,
    ShotAtNotShooting,
    ShotAtOrCloseCombat,
    NotShooting,
    Disembarked,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatFactor {
    pub types: String,
    #[serde(default)]
    pub fighting: Fighting,
    pub label: Option<String>,
    pub vs_mounted: i64,
    pub vs_others: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    Own,
    Enemy,
    #[default]
    Both,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RearSupport {
    pub rule: String,
    pub only_if: Vec<String>,
    pub rows: Vec<RearSupportRow>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RearGrade {
    Same,
    SameOrHigher,
    SameAsSecond,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RearSupportRow {
    pub front: String,
    pub rear: String,
    pub rank: u32,
    pub rear_grade: Option<RearGrade>,
    #[serde(default)]
    pub second_same_as_front: bool,
    #[serde(default)]
    pub good_going: bool,
    #[serde(default)]
    pub double_based: bool,
    #[serde(default)]
    pub army_list: bool,
    #[serde(default)]
    pub assaulting_fortification: bool,
    pub against: String,
    pub bound: Bound,
    pub factor: i64,
    pub text: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum Going {
    GGo,
    RGo,
    DGo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeOfDay {
    Night,
    DuskToSunrise,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TacticalFactor {
    /// The id a situation claims it by (factors); two rows may share one (upslope).
    pub id: String,
    pub text: String,
    pub who: String,
    pub fighting: Fighting,
    #[serde(default)]
    pub bound: Bound,
    pub going: Option<Going>,
    pub against: Option<String>,
    /// The going the opponent must be in ("against Mounted (in GGo for them)", p. 37).
    pub against_going: Option<Going>,
    /// A count in the situation: the factor applies once per unit of it.
    pub per: Option<String>,
    pub time: Option<TimeOfDay>,
    /// Read from the going, the bound and the time: never claimed.
    #[serde(default)]
    pub automatic: bool,
    pub value: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GradingFactor {
    pub who: String,
    pub fighting: Fighting,
    /// The first comparison, from this element's side: >, =, <, <=.
    pub scoring: String,
    pub bound: Bound,
    pub against: String,
    /// The opponent must be of another element type ("Mounted not same").
    #[serde(default)]
    pub against_other_type: bool,
    pub value: i64,
    pub rule: String,
    pub ruling: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Doubled {
    /// Own total less than half the enemy's (R-DBMM-1).
    LessThanHalf,
    /// Own total at most half the enemy's (the sheet's probability table).
    AtMostHalf,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcomes {
    pub doubled: Doubled,
    pub doubled_rule: String,
    pub doubled_ruling: Option<String>,
    pub general: Vec<GeneralOutcome>,
    pub exceptions: Vec<OutcomeException>,
    pub disregard: Disregard,
    pub fleeing: FleeingContact,
    /// The terrain table's "Quick Kill deny" column (p. 19, R-DBMM-29): a winner in this going
    /// gets no quick kill in close combat.
    #[serde(default)]
    pub quick_kill_deny: Vec<QuickKillDeny>,
}

/// One cell of the "Quick Kill deny" column (p. 19): the elements that, in this going, are
/// denied their quick kills in close combat.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuickKillDeny {
    pub going: Going,
    pub who: String,
    pub text: String,
    pub rule: String,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What becomes of an element: one enum for the outcomes table and the roster's changes.
pub use crate::fate::Fate;

/// Conditions of the general outcomes that come before the exceptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GeneralCondition {
    FlankOrRear,
    /// Contacted on its rear edge in close combat (p. 40).
    RearContact,
    PfTower,
    FootAcrossFortification,
    AssaultingUndefended,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeneralOutcome {
    pub scoring: String,
    pub result: Fate,
    pub condition: Option<GeneralCondition>,
    pub text: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CombatKind {
    #[default]
    Any,
    /// Close combat only.
    Close,
    /// Shot at (distant combat).
    Shot,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeException {
    #[serde(rename = "type")]
    pub type_code: String,
    pub scoring: String,
    #[serde(default)]
    pub bound: Bound,
    #[serde(default)]
    pub combat: CombatKind,
    pub opponent: Option<String>,
    /// Goings it applies in, GGo | RGo.
    pub going: Option<String>,
    pub opponent_elephant_killer: Option<bool>,
    pub opponent_wedge: Option<bool>,
    pub in_bua: Option<bool>,
    pub in_group: Option<bool>,
    pub at_land: Option<bool>,
    pub result: Fate,
    #[serde(default)]
    pub quick_kill: bool,
    /// Only if the player wishes; otherwise the general outcome stands.
    #[serde(default)]
    pub choice: bool,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Disregard {
    pub rule: String,
    pub shooting_not_shot_back: String,
    pub as_overlap: String,
    pub against_rear: String,
    pub against_flank_engaged: String,
    pub against_flank_exp: String,
}

/// A fleeing element meeting enemy or friends it cannot pass (p. 41).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FleeingContact {
    pub rule: String,
    /// Its total more than the enemy's.
    pub burst_through: String,
    /// Its total equal or less.
    pub destroyed: String,
    /// The enemy it burst through.
    pub enemy_untouched: String,
    /// Friends it bursts through when its ME are equal or more than theirs.
    pub friends_recoil: String,
    /// Friends it bursts through when its ME are less.
    pub friends_spent: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pursuit {
    pub rule: String,
    pub impetuous: String,
    pub impetuous_in_wedge: String,
    pub impetuous_rule: String,
    pub press_forward_paces: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Morale {
    pub rule: String,
    pub general: f64,
    pub double_based_rear: f64,
    pub other: f64,
    pub values: Vec<MoraleValue>,
    pub command: CommandThresholds,
    pub effects: Vec<StateEffects>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoraleValue {
    pub who: String,
    #[serde(default)]
    pub army_baggage: bool,
    pub me: f64,
}

/// Fractions as [numerator, denominator]; a threshold is passed when strictly more is lost.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandThresholds {
    pub rule: String,
    pub ruling: Option<String>,
    pub disheartened_lost: [u32; 2],
    pub broken_lost: [u32; 2],
    pub broken_lost_or_spent: [u32; 2],
    pub shattered_destroyed: [u32; 2],
    pub nearby_broken_small: u32,
    pub nearby_broken_large: u32,
    pub nearby_broken_large_above: u32,
    pub nearby_broken_rule: String,
    pub army_defeated: [u32; 2],
    pub army_rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateEffects {
    pub state: String,
    pub rule: String,
    pub text: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub rule: String,
    pub total: i64,
    pub penalty_per_tenth: i64,
    pub penalty_per_command: i64,
    pub penalty_ruling: Option<String>,
    pub split: Vec<Split>,
    pub equal_neither_defeated: SideSplit,
    pub equal_both_defeated: SideSplit,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Split {
    pub difference_min: i64,
    pub difference_max: Option<i64>,
    pub least: i64,
    pub more: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideSplit {
    pub defender: i64,
    pub invader: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pips {
    pub rule: String,
    pub dice: String,
    pub inert_deduct: i64,
    pub brilliant_factor: i64,
    pub brilliant_range_paces: i64,
    pub allocation_rule: String,
    pub costs: Vec<PipCost>,
    pub modifiers: Vec<PipCondition>,
}

/// What a PIP cost row pays for: the sheet's conditions name a move or a halt (p. 27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PipKind {
    /// A move of an element or group, march moves and changes of formation included.
    Move,
    /// A halt of an element or group.
    Halt,
    /// Anything else: PO, mounting, feigned flight, activating an ally, changing orders.
    Other,
}

impl PipKind {
    pub fn word(self) -> &'static str {
        match self {
            PipKind::Move => "a move",
            PipKind::Halt => "a halt",
            PipKind::Other => "neither a move nor a halt",
        }
    }
}

/// A base PIP cost row (p. 27).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PipCost {
    pub id: String,
    pub text: String,
    pub cost: i64,
    /// A move, a halt or other: which conditions add to it.
    pub kind: PipKind,
}

/// A condition adding to or taking from a PIP cost (p. 27).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PipCondition {
    pub id: String,
    pub text: String,
    pub value: i64,
    /// The kinds of cost it adds to ("Move or halt …": move and halt); absent: every cost.
    pub applies_to: Option<Vec<PipKind>>,
}

impl PipCondition {
    pub fn applies(&self, kind: PipKind) -> bool {
        self.applies_to.as_ref().is_none_or(|k| k.contains(&kind))
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub rule: String,
    pub fast_bonus: i64,
    pub fast_bonus_who: String,
    pub fast_bonus_ruling: Option<String>,
    pub march_moves: String,
    pub rows: Vec<MoveRow>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRow {
    pub who: String,
    pub good: Option<i64>,
    pub rough: Option<i64>,
    pub difficult: Option<i64>,
    pub road: Option<i64>,
    pub ruling: Option<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shooting {
    pub rule: String,
    /// Who shoots at whom (p. 34), for the umpire.
    pub checklist: Vec<String>,
    pub ranges: Vec<RangeRow>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeRow {
    pub who: String,
    pub paces: i64,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    pub key: String,
    pub name: String,
    pub mm_per_pace: f64,
    /// The figure sizes it covers, smallest and largest in mm (R-DBMM-14): "28mm" is the 25mm
    /// scale's.
    #[serde(default)]
    pub figures_mm: Option<[u32; 2]>,
}

impl DbmmData {
    /// A figure scale by its key or by a figure size it covers ("20mm", "28 mm").
    pub fn scale(&self, given: &str) -> Option<&Scale> {
        if let Some(s) = self.scales.iter().find(|s| s.key == given) {
            return Some(s);
        }
        let size: u32 = given.trim().trim_end_matches("mm").trim().parse().ok()?;
        self.scales.iter().find(|s| {
            s.figures_mm
                .is_some_and(|[lo, hi]| (lo..=hi).contains(&size))
        })
    }
}

pub const SCORES: &[&str] = &[">", "=", "<", "<=", "<<"];

impl DbmmData {
    pub fn type_codes(&self) -> Vec<&str> {
        self.types.keys().map(String::as_str).collect()
    }

    pub fn grade_codes(&self) -> Vec<&str> {
        self.grades.keys().map(String::as_str).collect()
    }

    /// A selector of this file, parsed once; the checks at load make this infallible for the
    /// file's own text (a text that does not parse selects nothing).
    pub fn selector(&self, text: &str) -> std::sync::Arc<Selector> {
        let mut cache = self.parsed.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = cache.get(text) {
            return s.clone();
        }
        let parsed = std::sync::Arc::new(
            Selector::parse(text, &self.type_codes(), &self.grade_codes())
                .unwrap_or_else(|_| Selector::nothing()),
        );
        cache.insert(text.to_string(), parsed.clone());
        parsed
    }

    /// Every selector of the file with its key path.
    fn selectors(&self) -> Vec<(String, &str)> {
        let mut out: Vec<(String, &str)> = Vec::new();
        for (i, r) in self.combat_factors.iter().enumerate() {
            out.push((format!("combat_factors[{i}].types"), &r.types));
        }
        for (i, r) in self.rear_support.rows.iter().enumerate() {
            out.push((format!("rear_support.rows[{i}].front"), &r.front));
            out.push((format!("rear_support.rows[{i}].rear"), &r.rear));
            out.push((format!("rear_support.rows[{i}].against"), &r.against));
        }
        for (i, r) in self.tactical_factors.iter().enumerate() {
            out.push((format!("tactical_factors[{i}].who"), &r.who));
            if let Some(a) = &r.against {
                out.push((format!("tactical_factors[{i}].against"), a));
            }
        }
        for (i, r) in self.grading_factors.iter().enumerate() {
            out.push((format!("grading_factors[{i}].who"), &r.who));
            out.push((format!("grading_factors[{i}].against"), &r.against));
        }
        for (i, r) in self.outcomes.exceptions.iter().enumerate() {
            out.push((format!("outcomes.exceptions[{i}].type"), &r.type_code));
            if let Some(o) = &r.opponent {
                out.push((format!("outcomes.exceptions[{i}].opponent"), o));
            }
        }
        for (i, r) in self.basing.rows.iter().enumerate() {
            out.push((format!("basing.rows[{i}].who"), &r.who));
        }
        out.extend(self.interpenetration.selectors());
        out.push((
            "command_deployment.alone_may".into(),
            &self.command_deployment.alone_may,
        ));
        out.push((
            "spontaneous.never_halted".into(),
            &self.spontaneous.never_halted,
        ));
        out.push((
            "threat_zone.ineffective_by".into(),
            &self.threat_zone.ineffective_by,
        ));
        out.push((
            "deployment.short_edge_light_who".into(),
            &self.deployment.short_edge_light_who,
        ));
        for (i, r) in self.outcomes.quick_kill_deny.iter().enumerate() {
            out.push((format!("outcomes.quick_kill_deny[{i}].who"), &r.who));
        }
        for (i, r) in self.morale.values.iter().enumerate() {
            out.push((format!("morale.values[{i}].who"), &r.who));
        }
        for (i, r) in self.movement.rows.iter().enumerate() {
            out.push((format!("movement.rows[{i}].who"), &r.who));
        }
        out.push((
            "movement.fast_bonus_who".into(),
            &self.movement.fast_bonus_who,
        ));
        out.push(("pursuit.impetuous".into(), &self.pursuit.impetuous));
        out.push((
            "pursuit.impetuous_in_wedge".into(),
            &self.pursuit.impetuous_in_wedge,
        ));
        for (i, r) in self.shooting.ranges.iter().enumerate() {
            out.push((format!("shooting.ranges[{i}].who"), &r.who));
        }
        out.push(("going.camelry".to_string(), self.going.camelry.as_str()));
        out.push((
            "daylight.rain_stops".to_string(),
            self.daylight.rain_stops.as_str(),
        ));
        for (list, cases) in [
            ("special", &self.going.special),
            ("wading", &self.going.wading),
        ] {
            for (i, c) in cases.iter().enumerate() {
                if let Some(w) = &c.who {
                    out.push((format!("going.{list}[{i}].who"), w.as_str()));
                }
            }
        }
        out
    }
}

/// GGo | RGo → the goings named.
pub fn goings(text: &str) -> Result<Vec<Going>, String> {
    text.split('|')
        .map(|g| match g.trim() {
            "GGo" => Ok(Going::GGo),
            "RGo" => Ok(Going::RGo),
            "DGo" => Ok(Going::DGo),
            other => Err(format!("“{other}” is not a going (GGo, RGo, DGo)")),
        })
        .collect()
}

impl SystemData for DbmmData {
    const COMPANION: Option<crate::ruleset::SourceFile<'static>> =
        Some(crate::ruleset::SourceFile {
            name: "rulesets/dbmm-tables.toml",
            text: include_str!("../../../../../rulesets/dbmm-tables.toml"),
        });

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let (types, grades) = (self.type_codes(), self.grade_codes());
        problems.extend(self.companion_problems());
        for (path, text) in self.selectors() {
            if let Err(e) = Selector::parse(text, &types, &grades) {
                problems.push(Problem::new(path, e));
            }
        }
        for (i, x) in self.x_grading.iter().enumerate() {
            if !self.types.contains_key(&x.type_code) {
                problems.push(Problem::new(
                    format!("x_grading[{i}].type"),
                    format!("“{}” is not an element type", x.type_code),
                ));
            }
        }
        let score = |s: &str, path: String, problems: &mut Vec<Problem>| {
            if !SCORES.contains(&s) {
                problems.push(Problem::new(
                    path,
                    format!("“{s}” is not a score ({})", SCORES.join(" ")),
                ));
            }
        };
        for (i, g) in self.grading_factors.iter().enumerate() {
            score(
                &g.scoring,
                format!("grading_factors[{i}].scoring"),
                &mut problems,
            );
        }
        for (i, g) in self.outcomes.general.iter().enumerate() {
            score(
                &g.scoring,
                format!("outcomes.general[{i}].scoring"),
                &mut problems,
            );
        }
        for (i, e) in self.outcomes.exceptions.iter().enumerate() {
            score(
                &e.scoring,
                format!("outcomes.exceptions[{i}].scoring"),
                &mut problems,
            );
            if let Some(g) = &e.going {
                if let Err(m) = goings(g) {
                    problems.push(Problem::new(format!("outcomes.exceptions[{i}].going"), m));
                }
            }
        }
        for s in [">", "=", "<", "<<"] {
            if !self
                .outcomes
                .general
                .iter()
                .any(|g| g.scoring == s && g.condition.is_none())
            {
                problems.push(Problem::new(
                    "outcomes.general",
                    format!("no unconditional outcome for “{s}”"),
                ));
            }
        }
        for (i, r) in self.rear_support.rows.iter().enumerate() {
            if !(2..=4).contains(&r.rank) {
                problems.push(Problem::new(
                    format!("rear_support.rows[{i}].rank"),
                    "a rear rank is 2, 3 or 4",
                ));
            }
        }
        let t = &self.morale.command;
        for (name, f) in [
            ("disheartened_lost", t.disheartened_lost),
            ("broken_lost", t.broken_lost),
            ("broken_lost_or_spent", t.broken_lost_or_spent),
            ("shattered_destroyed", t.shattered_destroyed),
            ("army_defeated", t.army_defeated),
        ] {
            if f[1] == 0 || f[0] > f[1] {
                problems.push(Problem::new(
                    format!("morale.command.{name}"),
                    "a fraction [n, d] with 0 < d and n ≤ d",
                ));
            }
        }
        match self.pips.dice.parse::<crate::odds::DiceSpec>() {
            Err(e) => problems.push(Problem::new("pips.dice", e)),
            // Every throw of up to 6 commands is enumerated: one die of at most 10 sides.
            Ok(d) if d.count != 1 || d.sides > 10 => problems.push(Problem::new(
                "pips.dice",
                "a command's PIP roll is one die of at most 10 sides",
            )),
            Ok(_) => {}
        }
        if self.scales.is_empty() {
            problems.push(Problem::new("scales", "at least one figure scale"));
        }
        for (i, s) in self.scales.iter().enumerate() {
            if !(s.mm_per_pace > 0.0 && s.mm_per_pace < 100.0) {
                problems.push(Problem::new(
                    format!("scales[{i}].mm_per_pace"),
                    "millimetres per pace must be above 0 and below 100",
                ));
            }
        }
        for (i, v) in self.morale.values.iter().enumerate() {
            if !(0.0..=10.0).contains(&v.me) || (v.me * 2.0).fract() != 0.0 {
                problems.push(Problem::new(
                    format!("morale.values[{i}].me"),
                    "an ME is a whole or half number from 0 to 10",
                ));
            }
        }
        let setup = &self.setup;
        if setup.seasons.len() != 4 {
            problems.push(Problem::new("setup.seasons", "the four seasons in order"));
        }
        for (i, season) in setup.seasons.iter().enumerate() {
            if !self.daylight.times.iter().any(|r| &r.season == season) {
                problems.push(Problem::new(
                    format!("setup.seasons[{i}]"),
                    format!("“{season}” is not a season of the climate table"),
                ));
            }
        }
        if setup.edges.len() != 6 {
            problems.push(Problem::new(
                "setup.edges",
                "one edge for each face of a d6",
            ));
        }
        if setup.aggression[0] > setup.aggression[1] || setup.aggression[0] < 0 {
            problems.push(Problem::new(
                "setup.aggression",
                "the least and the greatest aggression factor, from 0",
            ));
        }
        if setup.distance_step <= 0 {
            problems.push(Problem::new("setup.distance_step", "paces more than 0"));
        }
        let placed: Vec<&String> = setup
            .placement_order
            .iter()
            .flatten()
            .chain(&setup.without_dice)
            .collect();
        for (i, c) in self.going.terrain_going.iter().enumerate() {
            for t in &c.terrains {
                if !placed.contains(&t) {
                    problems.push(Problem::new(
                        format!("going.terrain_going[{i}].terrains"),
                        format!("“{t}” is not a terrain of the placing order"),
                    ));
                }
            }
        }
        let mut faces: Vec<u32> = self
            .daylight
            .moon
            .rows
            .iter()
            .flat_map(|r| r.faces.iter().copied())
            .collect();
        faces.sort_unstable();
        if faces != [1, 2, 3, 4, 5, 6] {
            problems.push(Problem::new(
                "daylight.moon.rows",
                "each face of a d6, 1 to 6, in exactly one row",
            ));
        }
        for (i, r) in self.daylight.times.iter().enumerate() {
            if r.weathers.len() > 5 {
                problems.push(Problem::new(
                    format!("daylight.times[{i}].weathers"),
                    "at most one weather for each of the columns 1 to 5",
                ));
            }
        }
        problems
    }
}

impl DbmmData {
    /// The companion file's own checks beyond its selectors: depths and costs that can be.
    fn companion_problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (i, r) in self.basing.rows.iter().enumerate() {
            if r.depth <= 0 {
                problems.push(Problem::new(
                    format!("basing.rows[{i}].depth"),
                    format!("a base is deeper than 0 paces, not {}", r.depth),
                ));
            }
        }
        for (key, id) in [
            ("halt_cost", &self.spontaneous.halt_cost),
            ("irr_halt", &self.spontaneous.irr_halt),
        ] {
            let known = self.pips.costs.iter().any(|c| &c.id == id)
                || self.pips.modifiers.iter().any(|m| &m.id == id);
            if !known {
                problems.push(Problem::new(
                    format!("spontaneous.{key}"),
                    format!("“{id}” is not a PIP cost or condition of the ruleset"),
                ));
            }
        }
        let t = &self.terrain_choice;
        for (key, [least, most]) in [("invader", t.invader), ("defender", t.defender)] {
            if least < 0 || least > most {
                problems.push(Problem::new(
                    format!("terrain_choice.{key}"),
                    format!("the least FE comes first and is no more than the most, not {least} and {most}"),
                ));
            }
        }
        for (i, z) in t.sizes.iter().enumerate() {
            if z.halves < 0 {
                problems.push(Problem::new(
                    format!("terrain_choice.sizes[{i}].halves"),
                    format!("a cost is 0 or more, not {}", z.halves),
                ));
            }
        }
        problems
    }
}
