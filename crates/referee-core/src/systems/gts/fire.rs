//! Missile combat (5.x, Table 2.13): formed fire as one roll-off, combined skirmish fire, engines
//! (9.2), and the chained answer: hits, a stand lost, the stand-loss morale check (5.53).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::GtsData;
use super::rolloff::{fire_hits, hits_word, skirmish_fire};
use super::units::{Unit, UnitEntry};
use crate::contract::{
    effect, Chance, Change, Check, Modifier, Note, Resolution, ResultOdds, Shown, Target, Total,
};
use crate::error::RefereeError;
use crate::odds::Dist;
use crate::rule_system::resolve::is_default;
use crate::rule_system::{Die, Thrower};

/// fire: one fire event (5.5).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsFireSituation")]
pub struct FireSituation {
    pub firer: UnitEntry,
    pub target: UnitEntry,
    /// Inches to the target.
    pub range: f64,
    /// Fires its secondary weapon (−1).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub secondary: bool,
    /// Skirmish stands combining their fire at the target (5.5): one d10 each.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub skirmish_stands: Option<u32>,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub target_elevated: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub target_in_cover: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub flank_or_rear: bool,
    /// Escort or runner stands firing from a chariot or elephant (3.163): −2.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub escort: bool,
    /// A ballista shooting over units (9.27): −1.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub indirect: bool,
    /// Mechanical artillery firing twice in the defensive fire phase at a unit that has just
    /// contacted it (9.21): two shots, each its own roll-off.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub twice: bool,
    /// A catapult shooting Greek fire: a single hit Disorders (9.28).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub greek_fire: bool,
    /// The runner or escort stand of a target elephant or chariot (3.16): an even firer's die
    /// hits it, an odd one the elephant or chariot (3.163).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub target_escort: Option<UnitEntry>,
    /// The personal valour of a leader attached to the target, for its stand-loss check.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<i64>")]
    pub target_leader_pv: i64,
    /// A leader is attached to the target: if it Routs on its stand-loss check, he takes a
    /// casualty test (1.9).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub target_leader: bool,
}

/// What one shot (or two, 9.21) does: hits on the target and on its escort, whether a shot
/// Disorders by itself (9.28), and how many went astray (9.26).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Shot {
    hits: u32,
    escort_hits: u32,
    shot_disorders: bool,
    astray: u32,
}

impl Shot {
    fn and(&self, other: &Shot) -> Shot {
        Shot {
            hits: self.hits + other.hits,
            escort_hits: self.escort_hits + other.escort_hits,
            shot_disorders: self.shot_disorders || other.shot_disorders,
            astray: self.astray + other.astray,
        }
    }
}

pub fn resolve(
    data: &GtsData,
    s: &FireSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let f = &data.fire;
    let firer = Unit::build(data, &s.firer, "firer")?;
    super::units::check_pv(s.target_leader_pv, "target_leader_pv")?;
    let target = Unit::build(data, &s.target, "target")?;
    let weapon = if s.secondary {
        firer.secondary.clone().ok_or_else(|| {
            RefereeError::new("situation.no_secondary", "the unit has no secondary weapon")
                .field("secondary")
                .rule("2.13")
        })?
    } else {
        firer.weapon.clone()
    };
    if weapon.ranges.is_empty() {
        return Err(RefereeError::new(
            "situation.cannot_fire",
            format!(
                "{} cannot fire: {} is not a missile weapon",
                firer.name, weapon.name
            ),
        )
        .field("firer.weapon")
        .rule("5.1"));
    }
    if firer.march || firer.routed {
        return Err(RefereeError::new(
            "situation.cannot_fire",
            "units in March formation or routed do not fire",
        )
        .field("firer")
        .rule("3.14, 5.1"));
    }
    // The measured range is compared exactly with the text's limits (5.1, Table 2.13): the
    // ruleset keeps them in tenths of an inch, and a tenth divided by ten is the same double as
    // the decimal the umpire types, so 1.5 is short range for a bow and 1.54 is not.
    if !s.range.is_finite() || s.range <= 0.0 {
        return Err(
            RefereeError::new("situation.invalid_range", "range must be more than 0\"")
                .field("range")
                .rule("5.1"),
        );
    }
    let inches = |tenths: u32| f64::from(tenths) / 10.0;
    let mut notes: Vec<Note> = Vec::new();
    let longest = match (firer.mounted_fire, weapon.mounted_range) {
        (true, Some(m)) => {
            if !firer.mounted {
                notes.push(Note::new(
                    format!(
                        "{} shoot at the horse archers' range, {}\".",
                        firer.name,
                        inches(m)
                    ),
                    "5.1",
                    Some("R-GTS-21"),
                ));
            }
            m
        }
        _ => *weapon.ranges.last().unwrap_or(&0),
    };
    // Slings reach 4" with stones and 6" with lead shot (5.1, R-GTS-20): beyond the shorter,
    // the ammunition must be known.
    let longest = if weapon.ammunition.is_empty() {
        longest
    } else {
        match firer
            .ammunition
            .as_ref()
            .and_then(|a| weapon.ammunition.get(a))
        {
            Some(r) => *r,
            None => {
                let shortest = weapon.ammunition.values().min().copied().unwrap_or(longest);
                if s.range > inches(shortest) {
                    return Err(RefereeError::new(
                        "situation.out_of_range",
                        format!(
                            "a {} reaches {}\" with stones and {}\" with lead shot: say whether {} shoot stones or lead",
                            weapon.name.to_lowercase(),
                            inches(weapon.ammunition.get("stones").copied().unwrap_or(shortest)),
                            inches(weapon.ammunition.get("lead").copied().unwrap_or(longest)),
                            firer.name
                        ),
                    )
                    .field("firer.ammunition")
                    .rule("5.1")
                    .ruling("R-GTS-20"));
                }
                shortest
            }
        }
    };
    if s.range > inches(longest) {
        return Err(RefereeError::new(
            "situation.out_of_range",
            format!(
                "{} reach {}\", not {}\"",
                weapon.name,
                inches(longest),
                s.range
            ),
        )
        .field("range")
        .rule("5.1"));
    }
    if let Some(m) = weapon.min_range.filter(|m| s.range < inches(*m)) {
        return Err(RefereeError::new(
            "situation.out_of_range",
            format!("{} cannot fire under {}\"", weapon.name, inches(m)),
        )
        .field("range")
        .rule("9.26"));
    }
    let engine = matches!(firer.weapon_key.as_str(), "BL" | "CT");
    let mut modifiers = vec![Modifier::new(
        format!("Fire attack of {}", firer.name),
        firer.fire_attack.value,
        "2.10, 5.51",
        Some("R-GTS-1"),
    )];
    if firer.disordered {
        modifiers.push(f.disordered.line("Firing unit Disordered"));
    }
    if firer.skirmish || s.escort {
        modifiers.push(f.skirmish.line("Skirmish or escort fire"));
    }
    if target.skirmish {
        modifiers.push(f.target_skirmish.line("Target in Skirmish formation"));
    }
    if weapon.short_range.is_some_and(|sr| s.range <= inches(sr)) {
        if firer.weapon_key == "BL" {
            modifiers.push(Modifier::new(
                "Ballista close range",
                f.ballista_close,
                "2.10, 9.27",
                Some("R-GTS-15"),
            ));
        } else {
            modifiers.push(f.short_range.line("Short range"));
        }
    }
    if s.indirect {
        modifiers.push(Modifier::new(
            "Ballista indirect fire",
            f.ballista_indirect,
            "9.27",
            None,
        ));
    }
    if s.target_elevated {
        modifiers.push(f.elevated_target.line("Target elevated"));
    }
    if s.target_in_cover && !engine {
        modifiers.push(f.cover.line("Target in cover"));
    }
    if s.secondary {
        modifiers.push(f.secondary_weapon.line("Secondary weapon"));
    }
    if s.flank_or_rear {
        modifiers.push(f.flank_rear.line("Fire on flank or rear"));
    }
    let attack: i64 = modifiers.iter().map(|m| m.value).sum();
    // 9.24–9.25: against engines every target counts +0, or +2 behind woods/village/walls.
    let (defence, defence_label) = if engine {
        let d = if s.target_in_cover {
            f.artillery_cover_defence
        } else {
            0
        };
        if s.target_in_cover {
            notes.push(Note::new(
                "Against artillery, cover behind woods, a village or a wall gives the target +2 in place of the firer's −2 for cover.",
                "2.13, 9.25",
                Some("R-GTS-15"),
            ));
        }
        (d, "Fire defence against artillery (9.24–9.25)".to_string())
    } else {
        (
            target.fire_defence.value,
            format!("Fire defence of {}", target.name),
        )
    };
    let lone_skirmish = firer.skirmish && s.skirmish_stands.unwrap_or(1) == 1;
    let max = if lone_skirmish {
        f.skirmish_stand_max_hits
    } else {
        2
    };
    let catapult = firer.weapon_key == "CT";
    if s.twice && !engine {
        return Err(RefereeError::new(
            "situation.invalid_field",
            "only mechanical artillery fires twice, in the defensive fire phase at a unit that has just contacted it",
        )
        .field("twice")
        .rule("9.21"));
    }
    if s.greek_fire && !catapult {
        return Err(RefereeError::new(
            "situation.invalid_field",
            "Greek fire is shot from a catapult",
        )
        .field("greek_fire")
        .rule("9.28"));
    }
    // 3.163: against a mixed unit the firer's die picks the stand: even, the escort with its own
    // modifiers; odd, the elephant or chariot.
    let escort = match &s.target_escort {
        None => None,
        Some(e) => {
            if !matches!(target.class.as_str(), "elephant" | "chariot") {
                return Err(RefereeError::new(
                    "situation.invalid_field",
                    "only an elephant or a chariot has an escort stand",
                )
                .field("target_escort")
                .rule("3.16"));
            }
            let u = Unit::build(data, e, "target_escort")?;
            if u.stands != 1 {
                return Err(
                    RefereeError::new("situation.invalid_field", "an escort is one stand")
                        .field("target_escort.stands")
                        .rule("3.16"),
                );
            }
            Some(u)
        }
    };
    if escort.is_some() && s.skirmish_stands.is_some_and(|n| n > 1) {
        return Err(RefereeError::new(
            "situation.invalid_field",
            "against a mixed unit each stand's die picks the escort or the elephant or chariot: resolve each skirmish stand's fire on its own",
        )
        .field("skirmish_stands")
        .rule("3.163"));
    }
    let escort_attack = escort.as_ref().map(|e| {
        let mut a = attack;
        if target.skirmish {
            a -= f.target_skirmish.modifier;
        }
        if e.skirmish {
            a += f.target_skirmish.modifier;
        }
        a
    });
    let escort_defence = escort.as_ref().map(|e| {
        if engine {
            defence
        } else {
            e.fire_defence.value
        }
    });
    // One shot from the firer's and the target's faces (9.26: a catapult's unmodified 1 goes
    // astray; 9.28: a double hit, or one hit of Greek fire, Disorders).
    let shot = |x: i64, y: i64| -> Shot {
        if catapult && x == f.catapult_astray_on {
            return Shot {
                astray: 1,
                ..Shot::default()
            };
        }
        match (&escort, escort_attack, escort_defence) {
            (Some(e), Some(ea), Some(ed)) if x % 2 == 0 => {
                let h = fire_hits((x + ea).clamp(1, 10), (y + ed).clamp(1, 10), max);
                Shot {
                    escort_hits: h.min(e.hits_per_stand - e.hits),
                    ..Shot::default()
                }
            }
            _ => {
                let h = fire_hits((x + attack).clamp(1, 10), (y + defence).clamp(1, 10), max);
                Shot {
                    hits: h,
                    shot_disorders: engine && (h >= 2 || (s.greek_fire && h >= 1)),
                    ..Shot::default()
                }
            }
        }
    };
    let one: Dist<Shot> = match s.skirmish_stands {
        Some(n) if n > 1 => {
            if !firer.skirmish {
                return Err(RefereeError::new(
                    "situation.invalid_field",
                    "combined fire of several stands is for skirmish stands",
                )
                .field("skirmish_stands")
                .rule("5.5"));
            }
            skirmish_fire(attack, defence, n)?.map(|h| Shot {
                hits: *h,
                ..Shot::default()
            })
        }
        _ => Dist::die(10)?
            .joint(&Dist::die(10)?)?
            .map(|(x, y)| shot(*x, *y)),
    };
    // Hits that eliminate an escort are not carried over (3.163).
    let escort_room = escort.as_ref().map_or(0, |e| e.hits_per_stand - e.hits);
    let shots = if s.twice {
        one.joint(&one)?.map(|(p, q)| {
            let both = p.and(q);
            Shot {
                escort_hits: both.escort_hits.min(escort_room),
                ..both
            }
        })
    } else {
        one.clone()
    };
    // What the hits Disorder: a chariot's or engine's second hit, for good (3.32), and a double
    // hit from one artillery shot or a hit of Greek fire (9.28).
    let disorder_by = |sh: &Shot| -> Option<&'static str> {
        if target.disordered || sh.hits == 0 {
            None
        } else if target.disordered_for_good_by(sh.hits) {
            Some("3.32")
        } else if sh.shot_disorders {
            Some("9.28")
        } else {
            None
        }
    };
    let escort_name = escort.as_ref().map(|e| e.name.clone()).unwrap_or_default();
    let effects_for = |sh: &Shot| {
        let mut out = Vec::new();
        if sh.hits > 0 {
            out.push(effect(
                Target::Defender,
                Change::Hits { count: sh.hits },
                &f.rule,
                f.ruling.as_deref(),
            ));
        }
        if let Some(rule) = disorder_by(sh) {
            out.push(effect(Target::Defender, Change::Disorder, rule, None));
        }
        if sh.escort_hits > 0 {
            out.push(effect(
                Target::Unit(escort_name.clone()),
                Change::Hits {
                    count: sh.escort_hits,
                },
                "3.163, 3.165",
                None,
            ));
        }
        // 3.166: an elephant's escort is removed the instant the elephant is eliminated.
        let left = target.stands * target.hits_per_stand - target.hits;
        if escort.is_some() && target.class == "elephant" && sh.hits > 0 && sh.hits >= left {
            out.push(effect(
                Target::Unit(escort_name.clone()),
                Change::DestroyAll,
                "3.166",
                None,
            ));
        }
        out
    };
    let name = |sh: &Shot| {
        let mut words = match sh.hits {
            0 => "no effect".to_string(),
            1 => "1 hit".to_string(),
            n => format!("{n} hits"),
        };
        if s.twice && disorder_by(sh) == Some("9.28") {
            words.push_str(", Disordered");
        }
        if sh.escort_hits > 0 {
            words = if sh.hits == 0 {
                format!("the escort takes {}", sh.escort_hits)
            } else {
                format!("{words}; the escort takes {}", sh.escort_hits)
            };
        }
        match sh.astray {
            0 => words,
            1 if sh.hits == 0 && sh.escort_hits == 0 => "astray".to_string(),
            _ => format!("{words}; astray"),
        }
    };
    let meaning = |sh: &Shot| {
        let mut m = match sh.hits {
            0 => "The target takes no hits.".to_string(),
            h => format!("The target takes {}.", hits_word(h)),
        };
        if sh.escort_hits > 0 {
            m.push_str(&format!(" The escort takes {} (3.163).", sh.escort_hits));
        }
        if sh.astray > 0 {
            m.push_str(&format!(
                " The catapult misses the mark: roll a d8 for the direction (the target side's edge as north); the shot lands {}\" from the target's centre front as a \"{}\" shot on any unit there, which rolls a d10 + 0 (9.26).",
                f.stray_inches, f.stray_shot
            ));
        }
        m
    };
    // Rows by hits on the target, then the escort's, then astray; a shot's own Disorder kept
    // only where it Disorders (9.28), so rows with the same effects are one row.
    let distribution: Vec<ResultOdds> = shots
        .map(|sh| Shot {
            shot_disorders: disorder_by(sh) == Some("9.28"),
            ..*sh
        })
        .outcomes()
        .map(|(sh, p)| ResultOdds::new(&name(sh), &meaning(sh), "—".into(), p, effects_for(sh)))
        .collect();
    // The dice asked in turn: the shot's (two d10, or four for artillery firing twice, 9.21),
    // then, where a stand is lost, the stand-loss check (5.53) and, where it Routs a unit with a
    // leader, his casualty test and Table 1.10 (1.9). Combined skirmish fire is entered on the
    // table (one roll per stand) and takes no dice here.
    let combined = s.skirmish_stands.is_some_and(|n| n > 1);
    if combined && dice.is_some() {
        return Err(RefereeError::new(
            "dice.invalid",
            "combined skirmish fire: enter each stand's roll on the table; the referee gives the odds",
        )
        .field("dice"));
    }
    let mut throws = crate::rule_system::throws::Throws::new(dice.unwrap_or(&[]));
    let first = if s.twice { 4 } else { 2 };
    let shot_dice: Vec<Die> = (0..first)
        .map(|i| {
            let thrower = if i % 2 == 0 { Thrower::A } else { Thrower::B };
            Die::of(10, thrower, "", "fire")
        })
        .collect();
    let thrown = if combined {
        None
    } else {
        throws.stage(shot_dice)?
    };
    let outcome = match &thrown {
        None => None,
        Some(faces) => {
            let (first, second) = if s.twice {
                (&faces[..2], Some(&faces[2..]))
            } else {
                (&faces[..], None)
            };
            let (a, d) = super::rolloff::two_d10(first, "the firer's, then the target's")?;
            let mut sh = shot(a, d);
            if let Some(more) = second {
                let (a2, d2) = super::rolloff::two_d10(more, "the firer's, then the target's")?;
                sh = sh.and(&shot(a2, d2));
            }
            let ma = (a + attack).clamp(1, 10);
            let md = (d + defence).clamp(1, 10);
            Some((
                sh,
                crate::contract::Outcome {
                    dice: dice.unwrap_or(&[]).to_vec(),
                    roll: a,
                    modified: ma,
                    result: name(&sh),
                    meaning: format!("Firer {ma} against target {md}: {}", meaning(&sh)),
                    effects: effects_for(&sh),
                    sides: vec![
                        crate::contract::SideThrow::new("Firer", a as u32, attack, ma),
                        crate::contract::SideThrow::new("Target", d as u32, defence, md),
                    ],
                },
            ))
        }
    };
    // The stand-loss check (5.53), taken in the state the hits left the unit in (a Disorder
    // from 3.32 or 9.28 lands with the hits): the same numbers for the chain and the forecast.
    let room = target.hits_per_stand - target.hits;
    let response = target.response.value + s.target_leader_pv;
    let penalty = data.response.disordered.modifier.abs();
    // The check and what follows it, played as the forecast reads it.
    let outcome = match outcome {
        Some((sh, mut o)) => {
            let lost = sh.hits >= room && target.after_hits(sh.hits).0 > 0;
            let mut done = true;
            if lost {
                let disordered = target.disordered || disorder_by(&sh).is_some();
                let number = response - if disordered { penalty } else { 0 };
                match throws.one(Die::of(10, Thrower::B, &target.name, "stand-loss check"))? {
                    None => done = false,
                    Some(roll) if i64::from(roll) <= number => {
                        o.meaning
                            .push_str(&format!(" {} passes its stand-loss check.", target.name));
                    }
                    Some(_) => {
                        let (change, words) = if disordered {
                            (Change::RoutUnit, "fails its stand-loss check and Routs")
                        } else {
                            (
                                Change::Disorder,
                                "fails its stand-loss check and is Disordered",
                            )
                        };
                        o.meaning.push_str(&format!(" {} {words}.", target.name));
                        o.effects.push(effect(
                            Target::Unit(target.name.clone()),
                            change.clone(),
                            "5.53",
                            None,
                        ));
                        // 1.9: a Routing unit's leader takes his casualty test, then Table 1.10.
                        if change == Change::RoutUnit && s.target_leader {
                            let lc = &data.leader_casualty;
                            match throws.one(Die::of(
                                10,
                                Thrower::B,
                                &target.name,
                                "leader's casualty test",
                            ))? {
                                None => done = false,
                                Some(c) if i64::from(c) <= lc.wounded_on => {
                                    match throws.one(Die::of(
                                        10,
                                        Thrower::B,
                                        &target.name,
                                        "Table 1.10",
                                    ))? {
                                        None => done = false,
                                        Some(t) => {
                                            let table = crate::rule_system::shared::roll_table(
                                                &lc.outcomes,
                                            );
                                            o.meaning.push_str(&format!(
                                                " Its leader is hurt: Table 1.10 gives {}.",
                                                table.lookup(i64::from(t))?
                                            ));
                                            o.effects.extend(super::checks::table_effects(
                                                data,
                                                Some(i64::from(t)),
                                                Target::Unit(target.name.clone()),
                                            ));
                                        }
                                    }
                                }
                                Some(_) => o.meaning.push_str(" Its leader is unharmed."),
                            }
                        }
                    }
                }
            }
            done.then_some(o)
        }
        None => None,
    };
    let shown_faces = throws.finish()?;
    // Chained: a stand lost, then the stand-loss morale check (5.53), taken in the state the
    // hits left the unit in (a Disorder from 3.32 or 9.28 lands with the hits).
    let ends = shots.joint(&Dist::die(10)?)?.map(|(sh, roll)| {
        // A stand lost, the unit still on the table: the check (an eliminated unit takes none).
        let lost = sh.hits >= room && target.after_hits(sh.hits).0 > 0;
        let disordered = target.disordered || disorder_by(sh).is_some();
        let ok = *roll <= response - if disordered { penalty } else { 0 };
        (lost, lost && !ok && !disordered, lost && !ok && disordered)
    });
    let mut forecast = vec![
        Chance::new(
            "The target loses a stand",
            ends.probability_where(|e| e.0),
            "5.52",
        ),
        Chance::new(
            "The target is Disordered (stand-loss check failed)",
            ends.probability_where(|e| e.1),
            "5.53",
        ),
        Chance::new(
            "The target Routs (stand-loss check failed while Disordered)",
            ends.probability_where(|e| e.2),
            "5.53, 3.33",
        ),
    ];
    if target.second_hit_disorders && !target.disordered {
        forecast.push(Chance::new(
            "The target is Disordered for good (its second hit)",
            shots.probability_where(|sh| disorder_by(sh) == Some("3.32")),
            "3.32",
        ));
    }
    if engine && !target.disordered {
        forecast.push(Chance::new(
            if s.greek_fire {
                "The target is Disordered by a double hit or a hit of Greek fire"
            } else {
                "The target is Disordered by a double hit from the shot"
            },
            shots.probability_where(|sh| disorder_by(sh) == Some("9.28")),
            "9.28",
        ));
    }
    if catapult {
        forecast.push(Chance::new(
            "The catapult misses the mark (an unmodified 1) and the shot strays",
            shots.probability_where(|sh| sh.astray > 0),
            "9.26",
        ));
        // Each stray shot is a "5" against a d10 + 0 (9.26); any unit where it lands is hit.
        let stray = super::rolloff::modified_d10(0)?.map(|d| fire_hits(f.stray_shot, *d, 2) > 0);
        let stray_hits = shots.and_then(|sh| {
            let mut any = Dist::certain(false);
            for _ in 0..sh.astray {
                any = any.joint(&stray)?.map(|(x, y)| *x || *y);
            }
            Ok(any)
        })?;
        forecast.push(Chance::new(
            "A stray shot hits whatever unit it lands on, of either side",
            stray_hits.probability(&true),
            "9.26",
        ));
    }
    if let Some(e) = &escort {
        forecast.push(Chance::new(
            format!("The escort ({}) is removed", e.name),
            shots.probability_where(|sh| sh.escort_hits >= e.hits_per_stand - e.hits),
            "3.165",
        ));
    }
    // 7.41–7.42: an elephant's hits put it to the frenzy test, chained.
    if target.class == "elephant" {
        let frenzy = shots.and_then(|sh| {
            super::checks::chained_frenzy(
                data,
                target.stands,
                target.hits,
                sh.hits,
                target.hits_per_stand,
            )
        })?;
        forecast.push(Chance::new(
            "The elephant frenzies (its escort is removed)",
            frenzy.probability(&"frenzied"),
            "7.41, 3.166",
        ));
        forecast.push(Chance::new(
            "The elephant frenzies and its driver kills it",
            frenzy.probability(&"killed by its driver"),
            "7.42",
        ));
    }
    let in_turn = !combined;
    Ok(Resolution {
        shown: Shown {
            faces: shown_faces,
            in_turn,
            ..Shown::default()
        },
        system: data.system.id.clone(),
        action: "fire".into(),
        dice: "d10 v d10".into(),
        totals: vec![
            Total {
                label: "Firer's d10 modifier".into(),
                value: format!("{attack:+}"),
                rule: "2.13, 5.51".into(),
                ruling: Some("R-GTS-2".into()),
            },
            Total {
                label: defence_label,
                value: format!("{defence:+}"),
                rule: if engine { "9.24, 9.25" } else { "2.10, 5.51" }.into(),
                ruling: Some(if engine { "R-GTS-15" } else { "R-GTS-2" }.into()),
            },
        ],
        modifiers,
        total_modifier: attack,
        distribution,
        forecast,
        checks: vec![
            Check::umpire(
                "The target is the closest valid target in the fire arc, with LOS/LOF",
                "5.2, 5.4",
            ),
            Check::umpire(
                "Not in combat contact (but the first round, and Sparabara)",
                "5.11, 5.12",
            ),
        ],
        notes,
        outcome,
    })
}
