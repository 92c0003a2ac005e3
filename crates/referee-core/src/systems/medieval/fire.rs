//! Ranged fire (10.2–10.7): archers, crossbowmen, horse archers and bombards on the later,
//! authoritative tables; armour, cover and weak-unit modifiers (R-MED-8); friendly fire, the
//! leader's 12, and the scatter tests after losses — as exact odds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use std::collections::BTreeMap;

use super::data::{FireRules, FireTable, MedievalData};
use super::result::{Part, Who};
use super::scatter::ScatterRead;
use super::units::{group_mean, resolve_hex, terrain, unit, MedUnit, Unit};
use crate::contract::{
    effect, Chance, Change, Check, Chooser, Effect, Modifier, Note, Outcome, Resolution,
    ResultOdds, Shown, Target, Total,
};
use crate::error::and_list;
use crate::error::RefereeError;
use crate::odds::{DiceSpec, Dist, RollTable};
use crate::rule_system::resolve::is_default;
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};
use crate::ErrorCode;

/// One cell of a fire table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct FireResult {
    pub loss: u32,
    /// R after a loss, or S: the target is scattered.
    pub scattered: bool,
    /// D: the object is destroyed.
    pub destroyed: bool,
}

impl FireResult {
    pub fn parse(code: &str) -> Option<FireResult> {
        match code.trim() {
            "-" => Some(FireResult::default()),
            "S" => Some(FireResult {
                scattered: true,
                ..FireResult::default()
            }),
            "D" => Some(FireResult {
                destroyed: true,
                ..FireResult::default()
            }),
            other => {
                let rest = other.strip_prefix('-')?;
                let (n, scattered) = match rest.strip_suffix('R') {
                    Some(n) => (n, true),
                    None => (rest, false),
                };
                Some(FireResult {
                    loss: n.parse().ok().filter(|n| *n > 0)?,
                    scattered,
                    destroyed: false,
                })
            }
        }
    }

    /// The result in words naming the target ("Spears loses 1 SP and is scattered").
    fn words(&self, who: &Who) -> String {
        if self.destroyed {
            return "The object is destroyed".into();
        }
        let part = Part {
            loss: self.loss,
            retreat: 0,
            scattered: self.scattered,
        };
        part.words(who).unwrap_or_else(|| "No effect".into())
    }
}

/// fire: one ranged unit shooting (10.2).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalFireSituation")]
pub struct FireSituation {
    /// The shooting unit (archers, crossbowmen, horse archers, bombards).
    pub shooter: MedUnit,
    /// Hexes to the target.
    pub range: u32,
    /// The target hex's units and terrain; leave out for bombards firing at an object.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub target: Option<FireTarget>,
    /// The target stands in a friendly unit's ZoC (10.2.1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub in_friendly_zoc: bool,
    /// The friendly-fire d6 when it was rolled (10.2.1): at 1 the friend is hit and the table
    /// is not rolled.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub friendly_fire_roll: Option<u32>,
    /// A leader is in the target hex (10.2.4).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub leader_in_target_hex: bool,
    /// The phase it shoots in: the enemy's movement phase (any ranged unit, 10.1.5) or, for horse
    /// archers only, their own (10.5.6).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<FirePhase>")]
    pub phase: FirePhase,
    /// Shots the unit has already fired this turn, and whether one of them was in this phase:
    /// once a turn, horse archers twice, once in each movement phase (10.1.6, 10.5.6, 10.5.7).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub shots_this_turn: Option<u32>,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub shot_this_phase: bool,
    /// The enemy shoots back at the same moment: both use their strength before the exchange,
    /// losses set after both have shot (10.2.6).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub concurrent: bool,
}

/// The movement phase a ranged unit shoots in (10.1.5, 10.5.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MedievalFirePhase")]
pub enum FirePhase {
    #[default]
    EnemyMovement,
    OwnMovement,
}

#[derive(Clone, Debug, PartialEq, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "MedievalFireTarget")]
pub struct FireTarget {
    /// The target hex's name: its units' labels from the roster (default: their types).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub label: Option<String>,
    pub terrain: String,
    pub units: Vec<MedUnit>,
}

/// fire: shooter and table → the shot's limits → target and modifiers → the roll → effects →
/// the dice asked in turn → forecast.
pub fn resolve(
    data: &MedievalData,
    s: &FireSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let fr = &data.fire_rules;
    let (shooter, table) = shooter_and_table(data, s)?;
    check_shot(data, s, &shooter, table)?;
    let target = match &s.target {
        Some(t) => Some(aimed_at(data, t, table)?),
        None => None,
    };
    let mut modifiers = target
        .as_ref()
        .map(|t| t.modifiers.clone())
        .unwrap_or_default();
    modifiers.extend(weak_shooter(table, &shooter));
    let total_modifier: i64 = modifiers.iter().map(|m| m.value).sum();
    let roll = FireRoll::of(data, table, s.range, total_modifier)?;
    let name = target
        .as_ref()
        .map_or(("The target".to_string(), true), |t| t.name.clone());
    let who = Who {
        name: &name.0,
        one: name.1,
    };
    let (distribution, names) = roll.distribution(s.in_friendly_zoc, &who)?;
    check_friendly_fire_roll(s, fr)?;
    // Asked in turn: the friendly-fire d6 in a friendly ZoC (10.2.1) unless entered, the table's
    // 2d6 when it spares the friend, then the scatter d6 after losses (10.6.3, 10.5.10).
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let outcome = roll.outcome(s, &shooter, target.as_ref(), &who, &mut throws, dice)?;
    let scatter_column = target
        .as_ref()
        .map_or("other".to_string(), |t| t.scatter_column.clone());
    let forecast = roll.forecast(s, &scatter_column)?;
    Ok(Resolution {
        shown: Shown {
            faces: throws.finish()?,
            in_turn: true,
            names,
            modifiers_shift: None,
        },
        system: data.system.id.clone(),
        action: "fire".into(),
        dice: data.system.dice.clone(),
        totals: vec![
            Total {
                label: "Table".into(),
                value: table.name.clone(),
                rule: table.rule.clone(),
                ruling: table.ruling.clone(),
            },
            Total {
                label: "Range".into(),
                value: s.range.to_string(),
                rule: table.rule.clone(),
                ruling: None,
            },
        ],
        modifiers,
        total_modifier,
        distribution,
        forecast,
        checks: fire_checks(s),
        notes: fire_notes(s, fr),
        outcome,
    })
}

/// The shooting unit and the table it shoots on: its own, or its table against objects when
/// there is no target (10.0, 10.2, 10.7); only in combat formation (10.1.2).
fn shooter_and_table<'d>(
    data: &'d MedievalData,
    s: &FireSituation,
) -> Result<(Unit, &'d FireTable), RefereeError> {
    let shooter = unit(data, &s.shooter, "shooter")?;
    let mut key = shooter.ranged.clone().ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationNotRanged,
            format!("{} do not shoot: only ranged units fire", shooter.name),
        )
        .field("shooter.type")
        .rule("10.0")
    })?;
    if s.target.is_none() {
        key = format!("{key}_objects");
    }
    let table = data.fire.get(&key).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationNoTarget,
            format!("{} fire at units: enter the target", shooter.name),
        )
        .field("target")
        .rule("10.2")
    })?;
    if shooter.movement_formation {
        return Err(RefereeError::new(
            ErrorCode::SituationMovementFormation,
            "a ranged unit shoots only in combat formation",
        )
        .field("shooter.movement_formation")
        .rule("10.1.2"));
    }
    Ok((shooter, table))
}

/// When, how often and how far it may shoot (10.1.5, 10.1.6, 10.5.6, 10.5.7; the table's range).
fn check_shot(
    data: &MedievalData,
    s: &FireSituation,
    shooter: &Unit,
    table: &FireTable,
) -> Result<(), RefereeError> {
    let fr = &data.fire_rules;
    let horse_archers = shooter.cavalry;
    let per_turn = if horse_archers {
        fr.horse_archer_shots_per_turn
    } else {
        fr.shots_per_turn
    };
    if s.phase == FirePhase::OwnMovement && !horse_archers {
        return Err(RefereeError::new(
            ErrorCode::SituationNoShotLeft,
            format!(
                "{} shoot during the enemy's movement phase, not their own",
                shooter.name
            ),
        )
        .field("phase")
        .rule("10.1.5, 10.5.6"));
    }
    if s.shot_this_phase {
        return Err(RefereeError::new(
            ErrorCode::SituationNoShotLeft,
            format!("{} have already shot in this phase", shooter.name),
        )
        .field("shot_this_phase")
        .rule(if horse_archers { "10.5.7" } else { "10.1.6" }));
    }
    if let Some(shots) = s.shots_this_turn.filter(|n| *n >= per_turn) {
        return Err(RefereeError::new(
            ErrorCode::SituationNoShotLeft,
            format!(
                "{} shoot {} a turn and have shot {shots} times",
                shooter.name,
                if per_turn == 1 { "once" } else { "twice" }
            ),
        )
        .field("shots_this_turn")
        .rule(if horse_archers { "10.5.6" } else { "10.1.6" }));
    }
    if s.range == 0 || s.range as usize > table.ranges.len() {
        return Err(RefereeError::new(
            ErrorCode::SituationOutOfRange,
            format!(
                "{} reach 1 to {} hexes, not {}",
                table.name,
                table.ranges.len(),
                s.range
            ),
        )
        .field("range")
        .rule(&table.rule));
    }
    Ok(())
}

/// The target hex as the shot sees it.
struct Aimed {
    /// Its name in a result's words, and whether it takes the verb's singular.
    name: (String, bool),
    /// The COMBAT SCATTER column of its most easily scattered unit.
    scatter_column: String,
    /// Who a scatter d6 after losses is read for (10.5.10, 10.6.3).
    read: ScatterRead,
    /// Its armour and cover (10.4, R-MED-8).
    modifiers: Vec<Modifier>,
}

/// The target hex: its units named ("Light cavalry and Crossbowmen"), its armour and its cover.
fn aimed_at(data: &MedievalData, t: &FireTarget, table: &FireTable) -> Result<Aimed, RefereeError> {
    let ground = terrain(data, &t.terrain, "target.terrain")?;
    let units = resolve_hex(data, &t.units, "target.units", ground.fortified)?;
    let mut names: Vec<&str> = Vec::new();
    for u in &units {
        if !names.contains(&u.name.as_str()) {
            names.push(&u.name);
        }
    }
    let one = units.len() == 1 && units[0].count == 1;
    let name = match &t.label {
        Some(label) => (label.clone(), one),
        None if !names.is_empty() => (and_list(&names), one),
        None => ("The target".to_string(), true),
    };
    let read = ScatterRead {
        side: Target::Defender,
        thrower: Thrower::B,
        hexes: vec![t.label.clone().unwrap_or_else(|| and_list(&names))],
        units: units.iter().map(|u| (u.clone(), 0)).collect(),
        by_hex: false,
        track_full: false,
    };
    let scatter_column = units
        .iter()
        .max_by_key(|u| data.scatter.threshold(&u.scatter, 1))
        .map_or_else(|| "other".to_string(), |u| u.scatter.clone());
    let armour = group_mean(units.iter().map(|u| (u.armour, u.count)));
    let mut modifiers: Vec<Modifier> = armour_modifier(data, table, armour).into_iter().collect();
    let fr = &data.fire_rules;
    if !table.ignores_terrain && fr.cover_terrain.contains(&t.terrain) {
        modifiers.push(Modifier::new(
            format!("Target in {}", ground.name),
            fr.cover_modifier,
            &fr.cover_rule,
            fr.armour_ruling.as_deref(),
        ));
    }
    Ok(Aimed {
        name,
        scatter_column,
        read,
        modifiers,
    })
}

/// The target's armour: −1 a level, or on a table that counts one armour only, −1 at that level
/// (10.4, R-MED-8).
fn armour_modifier(data: &MedievalData, table: &FireTable, armour: u32) -> Option<Modifier> {
    let fr = &data.fire_rules;
    match table.armour_only {
        Some(level) if armour == level => Some(Modifier::new(
            format!("Target armour {armour}"),
            -1,
            &table.rule,
            None,
        )),
        Some(_) => None,
        None if armour > 0 => Some(Modifier::new(
            format!("Target armour {armour}"),
            -(armour as i64),
            &fr.armour_rule,
            fr.armour_ruling.as_deref(),
        )),
        None => None,
    }
}

/// A weak unit shoots worse (10.5.9).
fn weak_shooter(table: &FireTable, shooter: &Unit) -> Option<Modifier> {
    let (at, m) = (table.weak_at_sp?, table.weak_modifier?);
    (shooter.sp <= at).then(|| {
        Modifier::new(
            format!("{} at {} SP", table.name, shooter.sp),
            m,
            "10.5.9",
            None,
        )
    })
}

/// 10.2.1: the friendly-fire d6, when entered, is 1–6 and only for a target in a friendly ZoC.
fn check_friendly_fire_roll(s: &FireSituation, fr: &FireRules) -> Result<(), RefereeError> {
    if let Some(roll) = s.friendly_fire_roll {
        if !s.in_friendly_zoc || !(1..=6).contains(&roll) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "a friendly-fire d6 (1–6) is rolled only for a target in a friendly ZoC",
            )
            .field("friendly_fire_roll")
            .rule(&fr.friendly_fire_rule));
        }
    }
    Ok(())
}

const FRIENDLY_FIRE: &str = "friendly fire";
const FRIENDLY_FIRE_MEANING: &str =
    "A friendly unit next to the target (owner's choice) loses 1 SP; the target loses nothing.";

/// 10.2.1: a friendly unit beside the target loses 1 SP instead.
fn friendly_fire_effects(fr: &FireRules) -> Vec<Effect> {
    vec![effect(
        Target::Unit("a friendly unit beside the target".into()),
        Change::LoseSp {
            count: 1,
            chosen_by: Chooser::Attacker,
        },
        &fr.friendly_fire_rule,
        None,
    )]
}

/// A fire result's effects on the target: its losses, the MORALE track if they eliminate it
/// (6.1.4), its scatter.
fn fire_effects(data: &MedievalData, table: &FireTable, r: &FireResult) -> Vec<Effect> {
    let mut out = Vec::new();
    if r.loss > 0 {
        out.push(effect(
            Target::Defender,
            Change::LoseSp {
                count: r.loss,
                chosen_by: Chooser::Defender,
            },
            &table.rule,
            table.ruling.as_deref(),
        ));
        // 6.1.4: a target the fire eliminates moves the track 1 box to the firing player.
        out.push(effect(
            Target::Defender,
            Change::MoraleIfEliminated {
                boxes: data.morale.elimination,
            },
            &data.morale.elimination_rule,
            Some("R-MED-34"),
        ));
    }
    if r.scattered {
        out.push(effect(
            Target::Defender,
            Change::Scatter,
            &table.rule,
            table.ruling.as_deref(),
        ));
    }
    out
}

/// The fire table's row for the range, read with the system's dice plus the modifiers.
struct FireRoll<'d> {
    data: &'d MedievalData,
    table: &'d FireTable,
    row: &'d [String],
    spec: DiceSpec,
    lookup: RollTable<String>,
    modified: Dist<i64>,
    /// The codes of the row by the odds of the modified roll.
    codes: Dist<String>,
    total_modifier: i64,
}

impl<'d> FireRoll<'d> {
    fn of(
        data: &'d MedievalData,
        table: &'d FireTable,
        range: u32,
        total_modifier: i64,
    ) -> Result<FireRoll<'d>, RefereeError> {
        let row = &table.ranges[range as usize - 1];
        let spec: DiceSpec = data
            .system
            .dice
            .parse()
            .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
        let lookup = RollTable {
            rows: table.bands().into_iter().zip(row.iter().cloned()).collect(),
        };
        let modified = spec.distribution()?.plus(total_modifier);
        let codes = lookup.distribution(&modified)?;
        Ok(FireRoll {
            data,
            table,
            row,
            spec,
            lookup,
            modified,
            codes,
            total_modifier,
        })
    }

    fn parse(&self, code: &str) -> Result<FireResult, RefereeError> {
        FireResult::parse(code).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::RulesetInvalid,
                format!("“{code}” is not a fire result"),
            )
            .rule(&self.table.rule)
        })
    }

    /// Whether the friendly-fire d6 hits the friend (10.2.1), by the odds of a d6.
    fn friendly_hit(fr: &FireRules, in_friendly_zoc: bool) -> Result<Dist<bool>, RefereeError> {
        Ok(if in_friendly_zoc {
            Dist::die(6)?.map(|r| *r <= i64::from(fr.friendly_fire_on))
        } else {
            Dist::certain(false)
        })
    }

    /// Each result once, friendly fire first in a friendly ZoC (10.2.1), then the row's codes in
    /// order, with the names the bar and the table give them.
    fn distribution(
        &self,
        in_friendly_zoc: bool,
        who: &Who,
    ) -> Result<(Vec<ResultOdds>, BTreeMap<String, String>), RefereeError> {
        let data = self.data;
        let fr = &data.fire_rules;
        let friendly_fire = FRIENDLY_FIRE.to_string();
        // In a friendly ZoC the friendly-fire d6 comes first: on a 1 the table is not used.
        let shot: Dist<String> = if in_friendly_zoc {
            Self::friendly_hit(fr, true)?
                .joint(&self.codes)?
                .map(|(h, c)| if *h { friendly_fire.clone() } else { c.clone() })
        } else {
            self.codes.clone()
        };
        let mut distribution = Vec::new();
        if in_friendly_zoc {
            distribution.push(ResultOdds::new(
                &friendly_fire,
                FRIENDLY_FIRE_MEANING,
                format!("d6 ≤ {}", fr.friendly_fire_on),
                shot.probability(&friendly_fire),
                friendly_fire_effects(fr),
            ));
        }
        let mut seen: Vec<&String> = Vec::new();
        let mut names = BTreeMap::new();
        for code in self.row {
            if seen.contains(&code) {
                continue;
            }
            seen.push(code);
            let r = self.parse(code)?;
            // The bar and the table name a result in words, with its code as printed.
            names.insert(code.clone(), format!("{} ({code})", r.words(who)));
            distribution.push(ResultOdds::new(
                code,
                &format!("{}.", r.words(who)),
                crate::contract::rolls_text(&self.modified, |m| {
                    self.lookup.lookup(m).is_ok_and(|c| c == code)
                }),
                shot.probability(code),
                fire_effects(data, self.table, &r),
            ));
        }
        Ok((distribution, names))
    }

    /// The scatter test a result with losses asks (crossbows 10.6.3: a d6 at least so much;
    /// horse archers 10.5.10: the COMBAT SCATTER row), with whether it is the former.
    fn loss_scatter<'r>(
        &self,
        target: Option<&'r Aimed>,
        r: &FireResult,
    ) -> Option<(&'r ScatterRead, u32, bool)> {
        let table = self.table;
        match target {
            Some(t) if r.loss > 0 && !r.scattered => table
                .loss_scatter_on
                .map(|on| (&t.read, on, true))
                .or(table.loss_scatter_row.map(|row| (&t.read, row, false))),
            _ => None,
        }
    }

    /// The outcome of the dice entered so far: the friendly-fire d6 (or its roll as entered),
    /// the table's 2d6, then the scatter d6 after losses.
    fn outcome(
        &self,
        s: &FireSituation,
        shooter: &Unit,
        target: Option<&Aimed>,
        who: &Who,
        throws: &mut Throws,
        dice: Option<&[u32]>,
    ) -> Result<Option<Outcome>, RefereeError> {
        let data = self.data;
        let fr = &data.fire_rules;
        let friendly_face = match (s.friendly_fire_roll, s.in_friendly_zoc) {
            (Some(roll), _) => Some(roll),
            (None, true) => throws.one(Die::of(6, Thrower::A, &shooter.name, FRIENDLY_FIRE))?,
            (None, false) => Some(0),
        };
        let Some(face) = friendly_face else {
            return Ok(None);
        };
        if s.in_friendly_zoc && (1..=fr.friendly_fire_on).contains(&face) {
            return Ok(Some(Outcome {
                dice: vec![face],
                roll: i64::from(face),
                modified: i64::from(face),
                result: FRIENDLY_FIRE.to_string(),
                meaning: FRIENDLY_FIRE_MEANING.into(),
                effects: friendly_fire_effects(fr),
                sides: Vec::new(),
            }));
        }
        let mut table_dice = crate::rule_system::dice_of(&data.system.dice).unwrap_or_default();
        for d in &mut table_dice {
            d.purpose = Some("fire".into());
        }
        let Some(faces) = throws.stage(table_dice)? else {
            return Ok(None);
        };
        let roll = crate::rule_system::resolve::faces_total(&self.spec, &faces)?;
        let code = self.lookup.lookup(roll + self.total_modifier)?.clone();
        let r = self.parse(&code)?;
        let test = self.loss_scatter(target, &r);
        let scatter_face = match test {
            Some((read, _, _)) => throws.one(read.die())?.map(Some),
            None => Some(None),
        };
        Ok(scatter_face.map(|scatter_face| {
            let mut effects = fire_effects(data, self.table, &r);
            let mut meaning = format!("{}.", r.words(who));
            if let (Some((read, n, on)), Some(face)) = (test, scatter_face) {
                let targets = if on {
                    read.scattered_by(|_| face >= n)
                } else {
                    read.scattered(data, n, face)
                };
                meaning = format!("{meaning} {}", read.words(face, &targets));
                let rule = self
                    .table
                    .loss_scatter_rule
                    .as_deref()
                    .unwrap_or(&self.table.rule);
                effects.extend(read.effects(targets, rule, self.table.ruling.as_deref()));
            }
            Outcome {
                dice: dice.unwrap_or(&[]).to_vec(),
                roll,
                modified: roll + self.total_modifier,
                meaning,
                effects,
                result: code,
                sides: Vec::new(),
            }
        }))
    }

    /// Chained: friendly fire first (10.2.1), then the table, then the scatter tests after
    /// losses (crossbows 10.6.3, horse archers 10.5.10); the leader's 12 (10.2.4).
    fn forecast(
        &self,
        s: &FireSituation,
        scatter_column: &str,
    ) -> Result<Vec<Chance>, RefereeError> {
        let data = self.data;
        let fr = &data.fire_rules;
        let table = self.table;
        let results: Dist<FireResult> = self
            .codes
            .and_then(|c| Ok(Dist::certain(self.parse(c).unwrap_or_default())))?;
        let friendly = Self::friendly_hit(fr, s.in_friendly_zoc)?;
        let after = friendly.joint(&results)?.and_then(|(friendly_hit, r)| {
            if *friendly_hit {
                return Ok(Dist::certain((true, 0u32, false)));
            }
            let loss = r.loss;
            Ok(after_losses(data, table, scatter_column, r)?.map(move |sc| (false, loss, *sc)))
        })?;
        let mut forecast = Vec::new();
        if s.target.is_some() {
            forecast.push(Chance::new(
                "The target loses SP",
                after.probability_where(|(_, l, _)| *l > 0),
                &table.rule,
            ));
            forecast.push(Chance::new(
                "The target is scattered",
                after.probability_where(|(_, _, sc)| *sc),
                table.loss_scatter_rule.as_deref().unwrap_or(&table.rule),
            ));
        } else {
            forecast.push(Chance::new(
                "The object is destroyed",
                results.probability_where(|r| r.destroyed),
                &table.rule,
            ));
        }
        if s.in_friendly_zoc {
            forecast.push(Chance::new(
                "A friendly unit beside the target loses 1 SP instead",
                after.probability_where(|(f, _, _)| *f),
                &fr.friendly_fire_rule,
            ));
        }
        if s.leader_in_target_hex {
            let leader = self.spec.distribution()?.map(|r| *r >= fr.leader_hit_on);
            forecast.push(Chance::new(
                "The leader in the target hex dies (2d6 of 12 for this shooter)",
                leader.probability(&true),
                &fr.leader_hit_rule,
            ));
        }
        Ok(forecast)
    }
}

/// Whether the target ends scattered after a result: scattered by it, or by the d6 its losses
/// ask (crossbows 10.6.3: at least so much; horse archers 10.5.10: the COMBAT SCATTER row).
fn after_losses(
    data: &MedievalData,
    table: &FireTable,
    scatter_column: &str,
    r: &FireResult,
) -> Result<Dist<bool>, crate::odds::OddsError> {
    Ok(if r.loss > 0 && !r.scattered {
        if let Some(on) = table.loss_scatter_on {
            Dist::die(6)?.map(move |d| *d >= i64::from(on))
        } else if let Some(row) = table.loss_scatter_row {
            let at_most = data.scatter.threshold(scatter_column, row);
            Dist::die(6)?.map(move |d| *d <= i64::from(at_most))
        } else {
            Dist::certain(false)
        }
    } else {
        Dist::certain(r.scattered)
    })
}

/// What the umpire checks: the line of sight (10.2.5), and the shots a turn unless entered.
fn fire_checks(s: &FireSituation) -> Vec<Check> {
    let limit =
        "Each ranged unit shoots once per turn (horse archers twice: once in each movement phase)";
    vec![
        Check::umpire(
            "Line of sight: not blocked by hills, forest, village or fortifications (friendly units do not block)",
            "10.2.5",
        ),
        if s.shots_this_turn.is_some() {
            Check::holds(limit, true, "10.1.6, 10.5.6, 10.5.7")
        } else {
            Check::umpire(limit, "10.1.6, 10.5.6")
        },
    ]
}

/// Friendly fire (10.2.1), fire exchanged at once (10.2.6), a shot in the own phase (10.5.8).
fn fire_notes(s: &FireSituation, fr: &FireRules) -> Vec<Note> {
    let mut notes = Vec::new();
    if s.in_friendly_zoc {
        notes.push(Note::new(
            "Friendly fire: a d6 of 1 hits a friendly unit next to the target (owner's choice) and spares the target.",
            &fr.friendly_fire_rule,
            None,
        ));
    }
    if s.concurrent {
        notes.push(Note::new(
            "Fire exchanged at the same moment: both shoot with their strength before the exchange, and the losses are set after both have shot.",
            "10.2.6",
            None,
        ));
    }
    if s.phase == FirePhase::OwnMovement {
        notes.push(Note::new(
            "Shooting in their own movement phase costs the horse archers 1 MP.",
            "10.5.8",
            None,
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::systems::{medieval::Medieval, test_support::load};

    fn situation(v: serde_json::Value) -> FireSituation {
        serde_json::from_value(v).unwrap()
    }

    fn archers_at(target: serde_json::Value) -> FireSituation {
        situation(
            json!({ "shooter": { "type": "archers", "sp": 2 }, "range": 1, "target": target }),
        )
    }

    #[test]
    fn no_fire_result_calls_for_a_retreat() {
        // 10.2–10.7: the fire tables give losses, scatters and destroyed objects, never a
        // retreat: a fire has no route to pick (issue 32 c).
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        for table in data.fire.values() {
            for code in table.ranges.iter().flatten() {
                let r = FireResult::parse(code).unwrap();
                assert!(fire_effects(data, table, &r).iter().all(|e| !matches!(
                    e.change,
                    Change::Retreat { .. } | Change::RetreatTo { .. }
                )));
            }
        }
    }

    #[test]
    fn a_shooter_fires_on_its_own_table_and_bombards_without_target_on_objects() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s =
            archers_at(json!({ "terrain": "clear", "units": [{ "type": "cavalry", "sp": 2 }] }));
        assert_eq!(
            shooter_and_table(data, &s).unwrap().1.rule,
            "10.4.2, ARCHER FIRE"
        );
        let s = situation(json!({ "shooter": { "type": "bombards", "sp": 1 }, "range": 1 }));
        assert_eq!(
            shooter_and_table(data, &s).unwrap().1.rule,
            "10.7.5, BOMBARD FIRE (OBJECTS)"
        );
        let s = situation(json!({ "shooter": { "type": "archers", "sp": 2 }, "range": 1 }));
        assert_eq!(
            shooter_and_table(data, &s).unwrap_err().code,
            "situation.no_target"
        );
        let s = situation(json!({ "shooter": { "type": "cavalry", "sp": 2 }, "range": 1 }));
        assert_eq!(
            shooter_and_table(data, &s).unwrap_err().rule.as_deref(),
            Some("10.0")
        );
    }

    #[test]
    fn a_shot_keeps_to_its_phase_its_turn_and_its_range() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let target = json!({ "terrain": "clear", "units": [{ "type": "cavalry", "sp": 2 }] });
        let refused = |s: FireSituation| {
            let (shooter, table) = shooter_and_table(data, &s).unwrap();
            check_shot(data, &s, &shooter, table)
                .err()
                .and_then(|e| e.rule)
        };
        assert_eq!(refused(archers_at(target.clone())), None);
        let mut own = archers_at(target.clone());
        own.phase = FirePhase::OwnMovement;
        assert_eq!(refused(own).as_deref(), Some("10.1.5, 10.5.6"));
        let mut twice = archers_at(target.clone());
        twice.shots_this_turn = Some(1);
        assert_eq!(refused(twice).as_deref(), Some("10.1.6"));
        // Archers reach 4 hexes (ARCHER FIRE).
        let mut far = archers_at(target);
        far.range = 5;
        assert_eq!(refused(far).as_deref(), Some("10.4.2, ARCHER FIRE"));
    }

    #[test]
    fn the_target_counts_its_armour_and_its_cover() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let archers = &data.fire["archers"];
        let t: FireTarget = serde_json::from_value(json!({
            "terrain": "forest", "units": [{ "type": "heavy_cavalry", "sp": 2 }]
        }))
        .unwrap();
        let aimed = aimed_at(data, &t, archers).unwrap();
        let lines: Vec<(&str, i64)> = aimed
            .modifiers
            .iter()
            .map(|m| (m.rule.as_str(), m.value))
            .collect();
        // Heavy cavalry's armour 2 (10.2.2) and the forest's cover (10.2.3).
        assert_eq!(lines, [("10.2.2", -2), ("10.2.3", -1)]);
        assert_eq!(aimed.name, ("Heavy cavalry".to_string(), true));
        // Bombards count armour 2 only, as −1, and ignore the terrain (10.7.1).
        let bombards = &data.fire["bombards"];
        let aimed = aimed_at(data, &t, bombards).unwrap();
        let lines: Vec<i64> = aimed.modifiers.iter().map(|m| m.value).collect();
        assert_eq!(lines, [-1]);
    }

    #[test]
    fn horse_archers_at_1_sp_shoot_1_worse() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let table = &data.fire["horse_archers"];
        let mut shooter = unit(
            data,
            &serde_json::from_value(json!({ "type": "horse_archers", "sp": 1 })).unwrap(),
            "shooter",
        )
        .unwrap();
        assert_eq!(weak_shooter(table, &shooter).map(|m| m.value), Some(-1));
        shooter.sp = 2;
        assert!(weak_shooter(table, &shooter).is_none());
    }

    #[test]
    fn the_friendly_fire_d6_comes_first_and_spares_the_target_on_a_1() {
        // 10.2.1: archers at 1 hex, 2d6 on ARCHER FIRE's first row; in a friendly ZoC 1 of 6
        // hits the friend.
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let mut s =
            archers_at(json!({ "terrain": "clear", "units": [{ "type": "cavalry", "sp": 2 }] }));
        s.in_friendly_zoc = true;
        let roll = FireRoll::of(data, &data.fire["archers"], 1, 0).unwrap();
        let who = Who {
            name: "Cavalry",
            one: true,
        };
        let (distribution, _) = roll.distribution(true, &who).unwrap();
        assert_eq!(distribution[0].result, FRIENDLY_FIRE);
        assert_eq!(distribution[0].probability.to_string(), "1/6");
        let forecast = roll.forecast(&s, "other").unwrap();
        let friend = forecast.iter().find(|c| c.rule == "10.2.1").unwrap();
        assert_eq!(friend.probability.to_string(), "1/6");
        assert_eq!(check_friendly_fire_roll(&s, &data.fire_rules), Ok(()));
        s.in_friendly_zoc = false;
        s.friendly_fire_roll = Some(1);
        assert!(check_friendly_fire_roll(&s, &data.fire_rules).is_err());
    }

    #[test]
    fn crossbow_losses_scatter_the_target_on_a_6() {
        // 10.6.3: -1 on a crossbow row, then a d6 of 6 scatters.
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let table = &data.fire["crossbowmen"];
        let r = FireResult::parse("-1").unwrap();
        let after = after_losses(data, table, "other", &r).unwrap();
        assert_eq!(after.probability(&true).to_string(), "1/6");
        let scattered = FireResult::parse("-1R").unwrap();
        assert_eq!(
            after_losses(data, table, "other", &scattered)
                .unwrap()
                .probability(&true)
                .to_string(),
            "1/1"
        );
        assert_eq!(fire_effects(data, table, &scattered).len(), 3);
    }

    #[test]
    fn a_crossbow_loss_asks_the_scatter_d6_and_a_friendly_fire_1_ends_the_shot() {
        let ruleset = load("medieval");
        let data = ruleset.data::<Medieval>().unwrap();
        let s = situation(json!({
            "shooter": { "type": "crossbowmen", "sp": 2 }, "range": 1,
            "target": { "terrain": "clear", "units": [{ "type": "light_cavalry", "sp": 2 }] }
        }));
        let (shooter, table) = shooter_and_table(data, &s).unwrap();
        let aimed = aimed_at(data, s.target.as_ref().unwrap(), table).unwrap();
        let roll = FireRoll::of(data, table, 1, 0).unwrap();
        let who = Who {
            name: "Light cavalry",
            one: true,
        };
        let rolled = |faces: &[u32]| {
            let mut throws = Throws::new(faces);
            roll.outcome(&s, &shooter, Some(&aimed), &who, &mut throws, Some(faces))
                .unwrap()
        };
        // 2d6 of 6 on CROSSBOW FIRE at 1 hex: -1; the scatter d6 is asked next (10.6.3).
        assert!(rolled(&[3, 3]).is_none());
        let kept = rolled(&[3, 3, 5]).unwrap();
        let scattered = rolled(&[3, 3, 6]).unwrap();
        assert_eq!(kept.result, "-1");
        assert_eq!(scattered.effects.len(), kept.effects.len() + 1);
        // 10.2.1: in a friendly ZoC, a 1 on the first d6 hits the friend; no 2d6 follows.
        let mut zoc = s.clone();
        zoc.in_friendly_zoc = true;
        let mut throws = Throws::new(&[1]);
        let friend = roll
            .outcome(&zoc, &shooter, Some(&aimed), &who, &mut throws, Some(&[1]))
            .unwrap()
            .unwrap();
        assert_eq!((friend.result.as_str(), friend.roll), (FRIENDLY_FIRE, 1));
    }
}
