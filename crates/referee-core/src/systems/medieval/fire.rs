//! Ranged fire (10.2–10.7): archers, crossbowmen, horse archers and bombards on the later,
//! authoritative tables; armour, cover and weak-unit modifiers (R-MED-8); friendly fire, the
//! leader's 12, and the scatter tests after losses — as exact odds.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::MedievalData;
use super::result::{Part, Who};
use super::scatter::{and_list, ScatterRead};
use super::units::{group_mean, resolve_hex, terrain, unit, MedUnit};
use crate::contract::{
    effect, Chance, Change, Check, Chooser, Modifier, Note, Outcome, Resolution, ResultOdds, Shown,
    Target, Total,
};
use crate::error::RefereeError;
use crate::odds::{DiceSpec, Dist, RollTable};
use crate::rule_system::resolve::is_default;
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};

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

pub fn resolve(
    data: &MedievalData,
    s: &FireSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let fr = &data.fire_rules;
    let shooter = unit(data, &s.shooter, "shooter")?;
    let mut key = shooter.ranged.clone().ok_or_else(|| {
        RefereeError::new(
            "situation.not_ranged",
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
            "situation.no_target",
            format!("{} fire at units: enter the target", shooter.name),
        )
        .field("target")
        .rule("10.2")
    })?;
    if shooter.movement_formation {
        return Err(RefereeError::new(
            "situation.movement_formation",
            "a ranged unit shoots only in combat formation",
        )
        .field("shooter.movement_formation")
        .rule("10.1.2"));
    }
    // 10.1.5, 10.1.6, 10.5.6, 10.5.7: when and how often it may shoot.
    let horse_archers = shooter.cavalry;
    let per_turn = if horse_archers {
        fr.horse_archer_shots_per_turn
    } else {
        fr.shots_per_turn
    };
    if s.phase == FirePhase::OwnMovement && !horse_archers {
        return Err(RefereeError::new(
            "situation.no_shot_left",
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
            "situation.no_shot_left",
            format!("{} have already shot in this phase", shooter.name),
        )
        .field("shot_this_phase")
        .rule(if horse_archers { "10.5.7" } else { "10.1.6" }));
    }
    if let Some(shots) = s.shots_this_turn.filter(|n| *n >= per_turn) {
        return Err(RefereeError::new(
            "situation.no_shot_left",
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
            "situation.out_of_range",
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
    let mut modifiers = Vec::new();
    let mut notes = Vec::new();
    let mut target_scatter = "other".to_string();
    let mut target_read = None;
    let mut target_name = ("The target".to_string(), true);
    if let Some(t) = &s.target {
        let ground = terrain(data, &t.terrain, "target.terrain")?;
        let units = resolve_hex(data, &t.units, "target.units", ground.fortified)?;
        // The target hex named by its units ("Light cavalry and Crossbowmen").
        let mut names: Vec<&str> = Vec::new();
        for u in &units {
            if !names.contains(&u.name.as_str()) {
                names.push(&u.name);
            }
        }
        let one = units.len() == 1 && units[0].count == 1;
        match &t.label {
            Some(label) => target_name = (label.clone(), one),
            None if !names.is_empty() => target_name = (and_list(&names), one),
            None => {}
        }
        target_read = Some(ScatterRead {
            side: Target::Defender,
            thrower: Thrower::B,
            hexes: vec![t.label.clone().unwrap_or_else(|| and_list(&names))],
            units: units.iter().map(|u| (u.clone(), 0)).collect(),
            by_hex: false,
            track_full: false,
        });
        let armour = group_mean(units.iter().map(|u| (u.armour, u.count)));
        target_scatter = units
            .iter()
            .max_by_key(|u| data.scatter.threshold(&u.scatter, 1))
            .map(|u| u.scatter.clone())
            .unwrap_or(target_scatter);
        match table.armour_only {
            Some(level) if armour == level => modifiers.push(Modifier::new(
                format!("Target armour {armour}"),
                -1,
                &table.rule,
                None,
            )),
            Some(_) => {}
            None if armour > 0 => modifiers.push(Modifier::new(
                format!("Target armour {armour}"),
                -(armour as i64),
                &fr.armour_rule,
                fr.armour_ruling.as_deref(),
            )),
            None => {}
        }
        if !table.ignores_terrain && fr.cover_terrain.contains(&t.terrain) {
            modifiers.push(Modifier::new(
                format!("Target in {}", ground.name),
                fr.cover_modifier,
                &fr.cover_rule,
                fr.armour_ruling.as_deref(),
            ));
        }
    }
    if let (Some(at), Some(m)) = (table.weak_at_sp, table.weak_modifier) {
        if shooter.sp <= at {
            modifiers.push(Modifier::new(
                format!("{} at {} SP", table.name, shooter.sp),
                m,
                "10.5.9",
                None,
            ));
        }
    }
    let total_modifier: i64 = modifiers.iter().map(|m| m.value).sum();
    let row = &table.ranges[s.range as usize - 1];
    let spec: DiceSpec = data
        .system
        .dice
        .parse()
        .map_err(|e: String| RefereeError::new("ruleset.invalid", e))?;
    let rt = RollTable {
        rows: table.bands().into_iter().zip(row.iter().cloned()).collect(),
    };
    let modified = spec.distribution()?.plus(total_modifier);
    let codes = rt.distribution(&modified)?;
    let parse = |code: &str| {
        FireResult::parse(code).ok_or_else(|| {
            RefereeError::new("ruleset.invalid", format!("“{code}” is not a fire result"))
                .rule(&table.rule)
        })
    };
    let effects_of = |r: &FireResult| {
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
    };
    let who = Who {
        name: &target_name.0,
        one: target_name.1,
    };
    let meaning = |r: &FireResult| format!("{}.", r.words(&who));
    // In a friendly ZoC the friendly-fire d6 comes first: on a 1 the table is not used (10.2.1).
    let friendly_fire = "friendly fire".to_string();
    let friendly_effects = vec![effect(
        Target::Unit("a friendly unit beside the target".into()),
        Change::LoseSp {
            count: 1,
            chosen_by: Chooser::Attacker,
        },
        &fr.friendly_fire_rule,
        None,
    )];
    let shot: Dist<String> = if s.in_friendly_zoc {
        let hit = Dist::die(6)?.map(|r| *r <= i64::from(fr.friendly_fire_on));
        hit.joint(&codes)?
            .map(|(h, c)| if *h { friendly_fire.clone() } else { c.clone() })
    } else {
        codes.clone()
    };
    let mut distribution = Vec::new();
    if s.in_friendly_zoc {
        distribution.push(ResultOdds::new(
            &friendly_fire,
            "A friendly unit next to the target (owner's choice) loses 1 SP; the target loses nothing.",
            format!("d6 ≤ {}", fr.friendly_fire_on),
            shot.probability(&friendly_fire),
            friendly_effects.clone(),
        ));
    }
    let mut seen: Vec<&String> = Vec::new();
    let mut names = std::collections::BTreeMap::new();
    for code in row {
        if seen.contains(&code) {
            continue;
        }
        seen.push(code);
        let r = parse(code)?;
        // The bar and the table name a result in words, with its code as printed.
        names.insert(code.clone(), format!("{} ({code})", r.words(&who)));
        distribution.push(ResultOdds::new(
            code,
            &meaning(&r),
            crate::contract::rolls_text(&modified, |m| rt.lookup(m).is_ok_and(|c| c == code)),
            shot.probability(code),
            effects_of(&r),
        ));
    }
    if let Some(roll) = s.friendly_fire_roll {
        if !s.in_friendly_zoc || !(1..=6).contains(&roll) {
            return Err(RefereeError::new(
                "situation.invalid_field",
                "a friendly-fire d6 (1–6) is rolled only for a target in a friendly ZoC",
            )
            .field("friendly_fire_roll")
            .rule(&fr.friendly_fire_rule));
        }
    }
    // Asked in turn: the friendly-fire d6 in a friendly ZoC (10.2.1) unless entered, the table's
    // 2d6 when it spares the friend, then the scatter d6 after losses (10.6.3, 10.5.10).
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let friendly_face = match (s.friendly_fire_roll, s.in_friendly_zoc) {
        (Some(roll), _) => Some(roll),
        (None, true) => throws.one(Die::of(6, Thrower::A, &shooter.name, "friendly fire"))?,
        (None, false) => Some(0),
    };
    let friendly_hit = |face: u32| s.in_friendly_zoc && (1..=fr.friendly_fire_on).contains(&face);
    let mut table_dice = crate::rule_system::dice_of(&data.system.dice).unwrap_or_default();
    for d in &mut table_dice {
        d.purpose = Some("fire".into());
    }
    let outcome = match friendly_face {
        None => None,
        Some(face) if friendly_hit(face) => Some(Outcome {
            dice: vec![face],
            roll: i64::from(face),
            modified: i64::from(face),
            result: friendly_fire.clone(),
            meaning: "A friendly unit next to the target (owner's choice) loses 1 SP; the target loses nothing.".into(),
            effects: friendly_effects.clone(),
            sides: Vec::new(),
        }),
        Some(_) => match throws.stage(table_dice)? {
            None => None,
            Some(faces) => {
                let roll = crate::rule_system::resolve::faces_total(&spec, &faces)?;
                let code = rt.lookup(roll + total_modifier)?.clone();
                let r = parse(&code)?;
                let test = match &target_read {
                    Some(read) if r.loss > 0 && !r.scattered => table.loss_scatter_on.map(|on| (read, on, true))
                        .or(table.loss_scatter_row.map(|row| (read, row, false))),
                    _ => None,
                };
                let scatter_face = match test {
                    Some((read, _, _)) => throws.one(read.die())?.map(Some),
                    None => Some(None),
                };
                scatter_face.map(|scatter_face| {
                    let mut effects = effects_of(&r);
                    let mut meaning = meaning(&r);
                    if let (Some((read, n, on)), Some(face)) = (test, scatter_face) {
                        let targets = if on {
                            read.scattered_by(|_| face >= n)
                        } else {
                            read.scattered(data, n, face)
                        };
                        meaning = format!("{meaning} {}", read.words(face, &targets));
                        let rule = table.loss_scatter_rule.as_deref().unwrap_or(&table.rule);
                        effects.extend(read.effects(targets, rule, table.ruling.as_deref()));
                    }
                    Outcome {
                        dice: dice.unwrap_or(&[]).to_vec(),
                        roll,
                        modified: roll + total_modifier,
                        meaning,
                        effects,
                        result: code,
                        sides: Vec::new(),
                    }
                })
            }
        },
    };

    // Chained: friendly fire first (10.2.1), then the table, then the scatter tests after losses
    // (crossbows 10.6.3, horse archers 10.5.10).
    let results: Dist<FireResult> =
        codes.and_then(|c| Ok(Dist::certain(parse(c).unwrap_or_default())))?;
    let friendly: Dist<bool> = if s.in_friendly_zoc {
        Dist::die(6)?.map(|r| *r <= i64::from(fr.friendly_fire_on))
    } else {
        Dist::certain(false)
    };
    let after = friendly.joint(&results)?.and_then(|(friendly_hit, r)| {
        if *friendly_hit {
            return Ok(Dist::certain((true, 0u32, false)));
        }
        let extra_scatter: Dist<bool> = if r.loss > 0 && !r.scattered {
            if let Some(on) = table.loss_scatter_on {
                Dist::die(6)?.map(move |d| *d >= i64::from(on))
            } else if let Some(row) = table.loss_scatter_row {
                let at_most = data.scatter.threshold(&target_scatter, row);
                Dist::die(6)?.map(move |d| *d <= i64::from(at_most))
            } else {
                Dist::certain(false)
            }
        } else {
            Dist::certain(r.scattered)
        };
        let loss = r.loss;
        Ok(extra_scatter.map(move |sc| (false, loss, *sc)))
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
    let mut checks = vec![Check::umpire(
        "Line of sight: not blocked by hills, forest, village or fortifications (friendly units do not block)",
        "10.2.5",
    )];
    if s.in_friendly_zoc {
        forecast.push(Chance::new(
            "A friendly unit beside the target loses 1 SP instead",
            after.probability_where(|(f, _, _)| *f),
            &fr.friendly_fire_rule,
        ));
        notes.push(Note::new(
            "Friendly fire: a d6 of 1 hits a friendly unit next to the target (owner's choice) and spares the target.",
            &fr.friendly_fire_rule,
            None,
        ));
    }
    if s.leader_in_target_hex {
        let leader = spec.distribution()?.map(|r| *r >= fr.leader_hit_on);
        forecast.push(Chance::new(
            "The leader in the target hex dies (2d6 of 12 for this shooter)",
            leader.probability(&true),
            &fr.leader_hit_rule,
        ));
    }
    let limit =
        "Each ranged unit shoots once per turn (horse archers twice: once in each movement phase)";
    checks.push(if s.shots_this_turn.is_some() {
        Check::holds(limit, true, "10.1.6, 10.5.6, 10.5.7")
    } else {
        Check::umpire(limit, "10.1.6, 10.5.6")
    });
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
    Ok(Resolution {
        shown: Shown {
            faces: throws.finish()?,
            in_turn: true,
            names,
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
        checks,
        notes,
        outcome,
    })
}
