//! Missile combat (5.x, Table 2.13): formed fire as one roll-off, combined skirmish fire, engines
//! (9.2), and the chained answer: hits, a stand lost, the stand-loss morale check (5.53).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::checks::{frenzy_effects, thrown_for_a_hit_elephant};
use super::data::GtsData;
use super::data::Row;
use super::rolloff::{fire_hits, hits_word, skirmish_fire};
use super::units::{Unit, UnitEntry};
use crate::contract::{
    effect, Chance, Change, Check, Modifier, Note, Resolution, ResultOdds, Shown, Target, Total,
};
use crate::error::RefereeError;
use crate::odds::Dist;
use crate::rule_system::resolve::is_default;
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};
use crate::ErrorCode;

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
    /// That leader's name, when he has a row of his own on the roster: his casualty test's
    /// result lands on him there (1.9, Table 1.10). Without it, on the target.
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional)]
    pub target_leader_name: Option<String>,
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
    let mut notes: Vec<Note> = Vec::new();
    let firer = Unit::build(data, &s.firer, "firer")?;
    super::units::check_pv(s.target_leader_pv, "target_leader_pv")?;
    let target = Unit::build(data, &s.target, "target")?;
    let weapon = fired_weapon(&firer, s)?;
    check_range(&firer, &weapon, s, &mut notes)?;
    let engine = matches!(firer.weapon_key.as_str(), "BL" | "CT");
    let modifiers = attack_modifiers(data, &firer, &target, &weapon, s, engine);
    let attack: i64 = modifiers.iter().map(|m| m.value).sum();
    let (defence, defence_label) = defence(data, &target, s, engine, &mut notes);
    let shooting = Shooting::new(data, s, firer, target, engine, attack, defence)?;
    let shots = shooting.shots()?;
    let distribution = shooting.distribution(&shots);
    let names = shooting.names(&shots);
    // The dice asked in turn: the shot's (two d10, or four for artillery firing twice, 9.21),
    // then, where a stand is lost, the stand-loss check (5.53) and, where it Routs a unit with a
    // leader, his casualty test and Table 1.10 (1.9), then an elephant's frenzy tests, its
    // driver's d10 and its heading (7.41–7.42, 4.46). Combined skirmish fire is entered on the
    // table (one roll per stand) and takes no dice here.
    let combined = s.skirmish_stands.is_some_and(|n| n > 1);
    if combined && dice.is_some() {
        return Err(RefereeError::new(
            ErrorCode::DiceInvalid,
            "combined skirmish fire: enter each stand's roll on the table; the referee gives the odds",
        )
        .field("dice"));
    }
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let outcome = if combined {
        None
    } else {
        shooting.played(dice.unwrap_or(&[]), &mut throws)?
    };
    let shown_faces = throws.finish()?;
    let forecast = shooting.forecast(&shots)?;
    Ok(Resolution {
        shown: Shown {
            faces: shown_faces,
            in_turn: !combined,
            names,
            modifiers_shift: None,
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

/// The weapon the unit fires: its primary, or its secondary (2.13); a unit that cannot fire
/// says why (5.1, 3.14).
fn fired_weapon(firer: &Unit, s: &FireSituation) -> Result<Row, RefereeError> {
    let weapon = if s.secondary {
        firer.secondary.clone().ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationNoSecondary,
                "the unit has no secondary weapon",
            )
            .field("secondary")
            .rule("2.13")
        })?
    } else {
        firer.weapon.clone()
    };
    if weapon.ranges.is_empty() {
        return Err(RefereeError::new(
            ErrorCode::SituationCannotFire,
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
            ErrorCode::SituationCannotFire,
            "units in March formation or routed do not fire",
        )
        .field("firer")
        .rule("3.14, 5.1"));
    }
    Ok(weapon)
}

fn inches(tenths: u32) -> f64 {
    f64::from(tenths) / 10.0
}

/// The range against the weapon's reach (5.1, Table 2.13): horse archers' range (R-GTS-21),
/// a sling's ammunition (R-GTS-20), an engine's least range (9.26).
fn check_range(
    firer: &Unit,
    weapon: &Row,
    s: &FireSituation,
    notes: &mut Vec<Note>,
) -> Result<(), RefereeError> {
    // The measured range is compared exactly with the text's limits (5.1, Table 2.13): the
    // ruleset keeps them in tenths of an inch, and a tenth divided by ten is the same double as
    // the decimal the umpire types, so 1.5 is short range for a bow and 1.54 is not.
    if !s.range.is_finite() || s.range <= 0.0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRange,
            "range must be more than 0\"",
        )
        .field("range")
        .rule("5.1"));
    }
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
    let longest = sling_reach(firer, weapon, s, longest)?;
    if s.range > inches(longest) {
        return Err(RefereeError::new(
            ErrorCode::SituationOutOfRange,
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
            ErrorCode::SituationOutOfRange,
            format!("{} cannot fire under {}\"", weapon.name, inches(m)),
        )
        .field("range")
        .rule("9.26"));
    }
    Ok(())
}

/// Slings reach 4" with stones and 6" with lead shot (5.1, R-GTS-20): beyond the shorter, the
/// ammunition must be known.
fn sling_reach(
    firer: &Unit,
    weapon: &Row,
    s: &FireSituation,
    longest: u32,
) -> Result<u32, RefereeError> {
    if weapon.ammunition.is_empty() {
        return Ok(longest);
    }
    if let Some(r) = firer
        .ammunition
        .as_ref()
        .and_then(|a| weapon.ammunition.get(a))
    {
        return Ok(*r);
    }
    let shortest = weapon.ammunition.values().min().copied().unwrap_or(longest);
    if s.range > inches(shortest) {
        return Err(RefereeError::new(
            ErrorCode::SituationOutOfRange,
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
    Ok(shortest)
}

/// The firer's d10 modifiers (2.13, 5.51, 9.27).
fn attack_modifiers(
    data: &GtsData,
    firer: &Unit,
    target: &Unit,
    weapon: &Row,
    s: &FireSituation,
    engine: bool,
) -> Vec<Modifier> {
    let f = &data.fire;
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
    modifiers
}

/// The target's d10 modifier and its label: its fire defence, or against engines +0, +2 behind
/// woods, a village or walls (9.24–9.25).
fn defence(
    data: &GtsData,
    target: &Unit,
    s: &FireSituation,
    engine: bool,
    notes: &mut Vec<Note>,
) -> (i64, String) {
    if !engine {
        return (
            target.fire_defence.value,
            format!("Fire defence of {}", target.name),
        );
    }
    let d = if s.target_in_cover {
        notes.push(Note::new(
            "Against artillery, cover behind woods, a village or a wall gives the target +2 in place of the firer's −2 for cover.",
            "2.13, 9.25",
            Some("R-GTS-15"),
        ));
        data.fire.artillery_cover_defence
    } else {
        0
    };
    (d, "Fire defence against artillery (9.24–9.25)".to_string())
}

/// The escort stand of a target elephant or chariot (3.16), with the firer's modifier and its
/// own defence when the firer's die picks it (3.163).
struct Escort {
    unit: Unit,
    attack: i64,
    defence: i64,
}

/// One fire event worked out: the units and the numbers every step reads.
struct Shooting<'a> {
    data: &'a GtsData,
    s: &'a FireSituation,
    firer: Unit,
    target: Unit,
    engine: bool,
    catapult: bool,
    attack: i64,
    defence: i64,
    /// The most hits one roll-off gives: 2, or one for a lone skirmish stand's fire.
    max: u32,
    escort: Option<Escort>,
}

impl<'a> Shooting<'a> {
    fn new(
        data: &'a GtsData,
        s: &'a FireSituation,
        firer: Unit,
        target: Unit,
        engine: bool,
        attack: i64,
        defence: i64,
    ) -> Result<Shooting<'a>, RefereeError> {
        let f = &data.fire;
        let lone_skirmish = firer.skirmish && s.skirmish_stands.unwrap_or(1) == 1;
        let max = if lone_skirmish {
            f.skirmish_stand_max_hits
        } else {
            2
        };
        let catapult = firer.weapon_key == "CT";
        if s.twice && !engine {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "only mechanical artillery fires twice, in the defensive fire phase at a unit that has just contacted it",
            )
            .field("twice")
            .rule("9.21"));
        }
        if s.greek_fire && !catapult {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "Greek fire is shot from a catapult",
            )
            .field("greek_fire")
            .rule("9.28"));
        }
        let escort = target_escort(data, s, &target)?.map(|unit| {
            let mut a = attack;
            if target.skirmish {
                a -= f.target_skirmish.modifier;
            }
            if unit.skirmish {
                a += f.target_skirmish.modifier;
            }
            Escort {
                attack: a,
                defence: if engine {
                    defence
                } else {
                    unit.fire_defence.value
                },
                unit,
            }
        });
        Ok(Shooting {
            data,
            s,
            firer,
            target,
            engine,
            catapult,
            attack,
            defence,
            max,
            escort,
        })
    }

    /// One shot from the firer's and the target's faces (9.26: a catapult's unmodified 1 goes
    /// astray; 3.163: an even die hits the escort; 9.28: a double hit, or one hit of Greek fire,
    /// Disorders).
    fn shot(&self, x: i64, y: i64) -> Shot {
        let f = &self.data.fire;
        if self.catapult && x == f.catapult_astray_on {
            return Shot {
                astray: 1,
                ..Shot::default()
            };
        }
        match &self.escort {
            Some(e) if x % 2 == 0 => {
                let h = fire_hits(
                    (x + e.attack).clamp(1, 10),
                    (y + e.defence).clamp(1, 10),
                    self.max,
                );
                Shot {
                    escort_hits: h.min(e.unit.hits_per_stand - e.unit.hits),
                    ..Shot::default()
                }
            }
            _ => {
                let h = fire_hits(
                    (x + self.attack).clamp(1, 10),
                    (y + self.defence).clamp(1, 10),
                    self.max,
                );
                Shot {
                    hits: h,
                    shot_disorders: self.engine && (h >= 2 || (self.s.greek_fire && h >= 1)),
                    ..Shot::default()
                }
            }
        }
    }

    /// Every shot the fire may give: one roll-off, combined skirmish fire (5.5), or artillery
    /// firing twice (9.21).
    fn shots(&self) -> Result<Dist<Shot>, RefereeError> {
        let one: Dist<Shot> = match self.s.skirmish_stands {
            Some(n) if n > 1 => {
                if !self.firer.skirmish {
                    return Err(RefereeError::new(
                        ErrorCode::SituationInvalidField,
                        "combined fire of several stands is for skirmish stands",
                    )
                    .field("skirmish_stands")
                    .rule("5.5"));
                }
                skirmish_fire(self.attack, self.defence, n)?.map(|h| Shot {
                    hits: *h,
                    ..Shot::default()
                })
            }
            _ => Dist::die(10)?
                .joint(&Dist::die(10)?)?
                .map(|(x, y)| self.shot(*x, *y)),
        };
        if !self.s.twice {
            return Ok(one);
        }
        // Hits that eliminate an escort are not carried over (3.163).
        let escort_room = self
            .escort
            .as_ref()
            .map_or(0, |e| e.unit.hits_per_stand - e.unit.hits);
        Ok(one.joint(&one)?.map(|(p, q)| {
            let both = p.and(q);
            Shot {
                escort_hits: both.escort_hits.min(escort_room),
                ..both
            }
        }))
    }

    /// What the hits Disorder: a chariot's or engine's second hit, for good (3.32), and a double
    /// hit from one artillery shot or a hit of Greek fire (9.28).
    fn disorder_by(&self, sh: &Shot) -> Option<&'static str> {
        if self.target.disordered || sh.hits == 0 {
            None
        } else if self.target.disordered_for_good_by(sh.hits) {
            Some("3.32")
        } else if sh.shot_disorders {
            Some("9.28")
        } else {
            None
        }
    }

    fn escort_name(&self) -> String {
        self.escort
            .as_ref()
            .map(|e| e.unit.name.clone())
            .unwrap_or_default()
    }

    fn effects(&self, sh: &Shot) -> Vec<crate::contract::Effect> {
        let f = &self.data.fire;
        let mut out = Vec::new();
        if sh.hits > 0 {
            out.push(effect(
                Target::Defender,
                Change::Hits { count: sh.hits },
                &f.rule,
                f.ruling.as_deref(),
            ));
        }
        if let Some(rule) = self.disorder_by(sh) {
            out.push(effect(Target::Defender, Change::Disorder, rule, None));
        }
        if sh.escort_hits > 0 {
            out.push(effect(
                Target::Unit(self.escort_name()),
                Change::Hits {
                    count: sh.escort_hits,
                },
                "3.163, 3.165",
                None,
            ));
        }
        // 3.166: an elephant's escort is removed the instant the elephant is eliminated.
        let t = &self.target;
        let left = t.stands * t.hits_per_stand - t.hits;
        if self.escort.is_some() && t.class == "elephant" && sh.hits > 0 && sh.hits >= left {
            out.push(effect(
                Target::Unit(self.escort_name()),
                Change::DestroyAll,
                "3.166",
                None,
            ));
        }
        out
    }

    /// A row's key, from what the shot does: "hits_1", "hits_2_disordered", "hits_0_escort_2",
    /// "hits_0_astray", and "hits_0_astray_2" when both shots of a catapult firing twice stray
    /// (the same distinctions its words make).
    fn result_key(&self, sh: &Shot) -> String {
        let mut key = format!("hits_{}", sh.hits);
        if self.s.twice && self.disorder_by(sh) == Some("9.28") {
            key.push_str("_disordered");
        }
        if sh.escort_hits > 0 {
            key.push_str(&format!("_escort_{}", sh.escort_hits));
        }
        match sh.astray {
            0 => {}
            1 => key.push_str("_astray"),
            n => key.push_str(&format!("_astray_{n}")),
        }
        key
    }

    /// Each row's key in words: "2 hits; the escort takes 1".
    fn names(&self, shots: &Dist<Shot>) -> std::collections::BTreeMap<String, String> {
        shots
            .outcomes()
            .map(|(sh, _)| {
                (
                    self.result_key(sh),
                    crate::error::sentence(&self.result_name(sh)),
                )
            })
            .collect()
    }

    /// The result in words: "2 hits", "1 hit; the escort takes 1", "astray".
    fn result_name(&self, sh: &Shot) -> String {
        let mut words = match sh.hits {
            0 => "no effect".to_string(),
            1 => "1 hit".to_string(),
            n => format!("{n} hits"),
        };
        if self.s.twice && self.disorder_by(sh) == Some("9.28") {
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
    }

    fn meaning(&self, sh: &Shot) -> String {
        let f = &self.data.fire;
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
    }

    /// Rows by hits on the target, then the escort's, then astray; a shot's own Disorder kept
    /// only where it Disorders (9.28), so rows with the same effects are one row.
    fn distribution(&self, shots: &Dist<Shot>) -> Vec<ResultOdds> {
        shots
            .map(|sh| Shot {
                shot_disorders: self.disorder_by(sh) == Some("9.28"),
                ..*sh
            })
            .outcomes()
            .map(|(sh, p)| {
                ResultOdds::new(
                    &self.result_key(sh),
                    &self.meaning(sh),
                    "—".into(),
                    p,
                    self.effects(sh),
                )
            })
            .collect()
    }

    /// The target's stand-loss check number (5.53), in the state the hits left it in (a Disorder
    /// from 3.32 or 9.28 lands with the hits): the same for the chain and the forecast.
    fn stand_loss_number(&self, sh: &Shot) -> i64 {
        let response = self.target.response.value + self.s.target_leader_pv;
        let penalty = self.data.response.disordered.modifier.abs();
        response
            - if self.disordered_after(sh) {
                penalty
            } else {
                0
            }
    }

    fn disordered_after(&self, sh: &Shot) -> bool {
        self.target.disordered || self.disorder_by(sh).is_some()
    }

    /// A stand lost, the unit still on the table: the check (an eliminated unit takes none).
    fn loses_a_stand(&self, sh: &Shot) -> bool {
        let room = self.target.hits_per_stand - self.target.hits;
        sh.hits >= room && self.target.after_hits(sh.hits).0 > 0
    }

    /// The shot as thrown, then each die it calls for in turn: the stand-loss check (5.53) and,
    /// where it Routs a unit with a leader, his casualty test and Table 1.10 (1.9); last, an
    /// elephant's frenzy tests, its driver's d10 and its heading (7.41–7.42, 4.46, R-GTS-36), as
    /// the melee round's last stage. None while a die is still to be thrown.
    fn played(
        &self,
        dice: &[u32],
        throws: &mut Throws,
    ) -> Result<Option<crate::contract::Outcome>, RefereeError> {
        let Some((sh, mut o)) = self.shot_thrown(dice, throws)? else {
            return Ok(None);
        };
        if self.stand_loss_checked(&sh, &mut o, throws)?.is_none() {
            return Ok(None);
        }
        if self.frenzy_tested(&sh, &mut o, throws)?.is_none() {
            return Ok(None);
        }
        Ok(Some(o))
    }

    /// The shot's dice (two d10, or four for artillery firing twice, 9.21) and what they do.
    fn shot_thrown(
        &self,
        dice: &[u32],
        throws: &mut Throws,
    ) -> Result<Option<(Shot, crate::contract::Outcome)>, RefereeError> {
        let first = if self.s.twice { 4 } else { 2 };
        let shot_dice: Vec<Die> = (0..first)
            .map(|i| {
                let thrower = if i % 2 == 0 { Thrower::A } else { Thrower::B };
                Die::of(10, thrower, "", "fire")
            })
            .collect();
        let Some(faces) = throws.stage(shot_dice)? else {
            return Ok(None);
        };
        let (first, second) = if self.s.twice {
            (&faces[..2], Some(&faces[2..]))
        } else {
            (&faces[..], None)
        };
        let (a, d) = super::rolloff::two_d10(first, "the firer's, then the target's")?;
        let mut sh = self.shot(a, d);
        if let Some(more) = second {
            let (a2, d2) = super::rolloff::two_d10(more, "the firer's, then the target's")?;
            sh = sh.and(&self.shot(a2, d2));
        }
        // The throw's two sides by name; two that read alike say which fires.
        let (firer, target) = if self.firer.name == self.target.name {
            (
                format!("{} (firing)", self.firer.name),
                format!("{} (target)", self.target.name),
            )
        } else {
            (self.firer.name.clone(), self.target.name.clone())
        };
        let ma = (a + self.attack).clamp(1, 10);
        let md = (d + self.defence).clamp(1, 10);
        let o = crate::contract::Outcome {
            dice: dice.to_vec(),
            roll: a,
            modified: ma,
            result: self.result_key(&sh),
            meaning: format!(
                "{} {ma} against {} {md}: {}",
                firer,
                target,
                self.meaning(&sh)
            ),
            effects: self.effects(&sh),
            sides: vec![
                crate::contract::SideThrow::new(firer.clone(), a as u32, self.attack, ma),
                crate::contract::SideThrow::new(target.clone(), d as u32, self.defence, md),
            ],
        };
        Ok(Some((sh, o)))
    }

    /// A stand lost: its check (5.53) and, where it Routs a unit with a leader, his tests (1.9).
    /// None while a die is still to be thrown.
    fn stand_loss_checked(
        &self,
        sh: &Shot,
        o: &mut crate::contract::Outcome,
        throws: &mut Throws,
    ) -> Result<Option<()>, RefereeError> {
        if !self.loses_a_stand(sh) {
            return Ok(Some(()));
        }
        let name = &self.target.name;
        let Some(roll) = throws.one(Die::of(10, Thrower::B, name, "stand-loss check"))? else {
            return Ok(None);
        };
        if i64::from(roll) <= self.stand_loss_number(sh) {
            o.meaning
                .push_str(&format!(" {name} passes its stand-loss check."));
            return Ok(Some(()));
        }
        let (change, words) = if self.disordered_after(sh) {
            (Change::RoutUnit, "fails its stand-loss check and Routs")
        } else {
            (
                Change::Disorder,
                "fails its stand-loss check and is Disordered",
            )
        };
        o.meaning.push_str(&format!(" {name} {words}."));
        o.effects.push(effect(
            Target::Unit(name.clone()),
            change.clone(),
            "5.53",
            None,
        ));
        // 1.9: a Routing unit's leader takes his casualty test, then Table 1.10.
        if change == Change::RoutUnit && self.s.target_leader {
            return self.leader_tested(o, throws);
        }
        Ok(Some(()))
    }

    /// The Routing target's leader: his casualty test, then Table 1.10 where he is hurt (1.9).
    fn leader_tested(
        &self,
        o: &mut crate::contract::Outcome,
        throws: &mut Throws,
    ) -> Result<Option<()>, RefereeError> {
        let lc = &self.data.leader_casualty;
        let name = &self.target.name;
        match throws.one(Die::of(10, Thrower::B, name, "leader's casualty test"))? {
            None => return Ok(None),
            Some(c) if i64::from(c) <= lc.wounded_on => {
                let Some(t) = throws.one(Die::of(10, Thrower::B, name, "Table 1.10"))? else {
                    return Ok(None);
                };
                let table = crate::rule_system::shared::roll_table(&lc.outcomes);
                o.meaning.push_str(&format!(
                    " Its leader is hurt: Table 1.10 gives {}.",
                    table.lookup(i64::from(t))?
                ));
                o.effects.extend(super::checks::table_effects(
                    self.data,
                    Some(i64::from(t)),
                    self.s.target_leader_name.as_ref().unwrap_or(name),
                ));
            }
            Some(_) => o.meaning.push_str(" Its leader is unharmed."),
        }
        Ok(Some(()))
    }

    /// An elephant the fire hit tests for frenzy (7.41–7.42, R-GTS-36): a d8 per test, then its
    /// driver's d10, then, frenzied, its heading's d8 (4.46), each on the target's side and named
    /// by it; what they give lands with the fire, as the forecast's frenzy lines count it (the
    /// same stand and tests, `chained_frenzy`). None while a die is still to be thrown.
    fn frenzy_tested(
        &self,
        sh: &Shot,
        o: &mut crate::contract::Outcome,
        throws: &mut Throws,
    ) -> Result<Option<()>, RefereeError> {
        let t = &self.target;
        if t.class != "elephant" {
            return Ok(Some(()));
        }
        let whose = (t.name.as_str(), Some(Thrower::B));
        let hit = (t.stands, t.hits, sh.hits, t.hits_per_stand);
        let (end, heading, words) = match thrown_for_a_hit_elephant(self.data, hit, whose, throws)?
        {
            None => return Ok(None),
            Some(None) => return Ok(Some(())),
            Some(Some(thrown)) => thrown,
        };
        o.meaning.push_str(&format!(" {words}."));
        // An escort this fire's hits already eliminated is not removed a second time (3.166).
        let escort = self
            .escort
            .as_ref()
            .filter(|e| sh.escort_hits < e.unit.hits_per_stand - e.unit.hits)
            .map(|e| e.unit.name.as_str());
        o.effects.extend(frenzy_effects(
            self.data,
            end,
            (&t.name, heading.as_deref()),
            escort,
        ));
        Ok(Some(()))
    }

    /// The chances the text's sequence gives: a stand lost and the stand-loss check (5.52,
    /// 5.53), Disorder for good (3.32) or by the shot (9.28), a catapult's stray shot (9.26),
    /// the escort removed (3.165) and an elephant's frenzy (7.41–7.42).
    fn forecast(&self, shots: &Dist<Shot>) -> Result<Vec<Chance>, RefereeError> {
        let target = &self.target;
        let ends = shots.joint(&Dist::die(10)?)?.map(|(sh, roll)| {
            let lost = self.loses_a_stand(sh);
            let disordered = self.disordered_after(sh);
            let ok = *roll <= self.stand_loss_number(sh);
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
                shots.probability_where(|sh| self.disorder_by(sh) == Some("3.32")),
                "3.32",
            ));
        }
        if self.engine && !target.disordered {
            forecast.push(Chance::new(
                if self.s.greek_fire {
                    "The target is Disordered by a double hit or a hit of Greek fire"
                } else {
                    "The target is Disordered by a double hit from the shot"
                },
                shots.probability_where(|sh| self.disorder_by(sh) == Some("9.28")),
                "9.28",
            ));
        }
        if self.catapult {
            forecast.extend(self.stray_forecast(shots)?);
        }
        if let Some(e) = &self.escort {
            forecast.push(Chance::new(
                format!("The escort ({}) is removed", e.unit.name),
                shots.probability_where(|sh| sh.escort_hits >= e.unit.hits_per_stand - e.unit.hits),
                "3.165",
            ));
        }
        // 7.41–7.42: an elephant's hits put it to the frenzy test, chained.
        if target.class == "elephant" {
            let frenzy = shots.and_then(|sh| {
                super::checks::chained_frenzy(
                    self.data,
                    target.stands,
                    target.hits,
                    sh.hits,
                    target.hits_per_stand,
                )
            })?;
            forecast.push(Chance::new(
                "The elephant frenzies (its escort is removed)",
                frenzy.probability(&super::checks::Frenzy::Frenzied),
                "7.41, 3.166",
            ));
            forecast.push(Chance::new(
                "The elephant frenzies and its driver kills it",
                frenzy.probability(&super::checks::Frenzy::KilledByItsDriver),
                "7.42",
            ));
        }
        Ok(forecast)
    }

    /// A catapult's unmodified 1 strays (9.26); each stray shot is a "5" against a d10 + 0, and
    /// any unit where it lands is hit.
    fn stray_forecast(&self, shots: &Dist<Shot>) -> Result<Vec<Chance>, RefereeError> {
        let f = &self.data.fire;
        let stray = super::rolloff::modified_d10(0)?.map(|d| fire_hits(f.stray_shot, *d, 2) > 0);
        let stray_hits = shots.and_then(|sh| {
            let mut any = Dist::certain(false);
            for _ in 0..sh.astray {
                any = any.joint(&stray)?.map(|(x, y)| *x || *y);
            }
            Ok(any)
        })?;
        Ok(vec![
            Chance::new(
                "The catapult misses the mark (an unmodified 1) and the shot strays",
                shots.probability_where(|sh| sh.astray > 0),
                "9.26",
            ),
            Chance::new(
                "A stray shot hits whatever unit it lands on, of either side",
                stray_hits.probability(&true),
                "9.26",
            ),
        ])
    }
}

/// The escort stand of a target elephant or chariot, when one is entered (3.16, 3.163).
fn target_escort(
    data: &GtsData,
    s: &FireSituation,
    target: &Unit,
) -> Result<Option<Unit>, RefereeError> {
    let Some(e) = &s.target_escort else {
        return Ok(None);
    };
    if !matches!(target.class.as_str(), "elephant" | "chariot") {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "only an elephant or a chariot has an escort stand",
        )
        .field("target_escort")
        .rule("3.16"));
    }
    let u = Unit::build(data, e, "target_escort")?;
    if u.stands != 1 {
        return Err(
            RefereeError::new(ErrorCode::SituationInvalidField, "an escort is one stand")
                .field("target_escort.stands")
                .rule("3.16"),
        );
    }
    if s.skirmish_stands.is_some_and(|n| n > 1) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "against a mixed unit each stand's die picks the escort or the elephant or chariot: resolve each skirmish stand's fire on its own",
        )
        .field("skirmish_stands")
        .rule("3.163"));
    }
    Ok(Some(u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::contract::Effect;
    use crate::odds::Probability;

    use crate::systems::gts::test_data as data;

    fn situation(firer: serde_json::Value, range: f64) -> FireSituation {
        serde_json::from_value(json!({
            "firer": firer,
            "target": { "class": "infantry", "armour": "N", "weapon": "SP", "stands": 4 },
            "range": range,
        }))
        .unwrap()
    }

    #[test]
    fn a_sling_reaches_four_inches_with_stones_and_six_with_lead() {
        // 5.1, R-GTS-20.
        let d = data();
        let reach = |ammunition: Option<&str>, range: f64| {
            let mut firer =
                json!({ "class": "infantry", "armour": "N", "weapon": "SL", "stands": 2 });
            if let Some(a) = ammunition {
                firer["ammunition"] = json!(a);
            }
            let s = situation(firer, range);
            let u = Unit::build(&d, &s.firer, "firer").unwrap();
            sling_reach(&u, &u.weapon, &s, 60)
        };
        assert_eq!(reach(None, 3.0).unwrap(), 40);
        assert_eq!(reach(Some("lead"), 5.0).unwrap(), 60);
        let e = reach(None, 5.0).unwrap_err();
        assert_eq!(
            (e.field.as_deref(), e.ruling.as_deref()),
            (Some("firer.ammunition"), Some("R-GTS-20"))
        );
    }

    #[test]
    fn artillery_meets_a_target_in_cover_at_plus_two() {
        // 9.24–9.25: against engines +0, or +2 behind woods, a village or walls.
        let d = data();
        let mut s = situation(
            json!({ "class": "engine", "weapon": "BL", "stands": 1 }),
            10.0,
        );
        let target = Unit::build(&d, &s.target, "target").unwrap();
        let mut notes = Vec::new();
        assert_eq!(defence(&d, &target, &s, true, &mut notes).0, 0);
        s.target_in_cover = true;
        assert_eq!(defence(&d, &target, &s, true, &mut notes).0, 2);
        assert_eq!(notes.len(), 1);
        // Against a bow, the target's own fire defence.
        let (own, label) = defence(&d, &target, &s, false, &mut notes);
        assert_eq!(
            (own, label),
            (
                target.fire_defence.value,
                format!("Fire defence of {}", target.name)
            )
        );
    }

    /// A throw of the whole chain: its chance, the effects its outcome lands, and what each of
    /// its dice was thrown for.
    type Thrown = (Probability, Vec<Effect>, Vec<String>);

    /// Every throw of the fire's chain, face by face, each die's faces equally likely.
    fn every_throw(d: &GtsData, s: &FireSituation) -> Vec<Thrown> {
        let mut out = Vec::new();
        let mut open: Vec<(Vec<u32>, u128)> = vec![(Vec::new(), 1)];
        while let Some((faces, den)) = open.pop() {
            let r = resolve(d, s, (!faces.is_empty()).then_some(&faces[..])).unwrap();
            if let Some(o) = r.outcome {
                let purposes = r.shown.faces.iter().flat_map(|d| d.purpose.clone());
                out.push((Probability::new(1, den), o.effects, purposes.collect()));
                continue;
            }
            let asked: Vec<u32> = r.shown.faces[faces.len()..]
                .iter()
                .map(|d| d.sides)
                .collect();
            assert!(!asked.is_empty(), "{faces:?}: no outcome and no die asked");
            let mut stage: Vec<Vec<u32>> = vec![Vec::new()];
            for sides in &asked {
                stage = stage
                    .into_iter()
                    .flat_map(|t| {
                        (1..=*sides).map(move |f| {
                            let mut t = t.clone();
                            t.push(f);
                            t
                        })
                    })
                    .collect();
            }
            let whole: u128 = asked.iter().map(|s| u128::from(*s)).product();
            for more in stage {
                let mut next = faces.clone();
                next.extend(more);
                open.push((next, den * whole));
            }
        }
        out
    }

    #[test]
    fn fire_at_an_elephant_lands_its_frenzy_exactly_as_often_as_it_forecasts() {
        // 7.41–7.42, 4.46, 5.53, R-GTS-36: every throw of the chain (the shot, the stand-loss
        // check and its leader's tests, the frenzy d8s, the driver's d10, the heading's d8),
        // weighted by its chance; what lands is counted exactly against the forecast's lines.
        let d = data();
        let bowmen = json!({ "class": "infantry", "armour": "N", "weapon": "BW", "stands": 3 });
        // Hit once: each hit tests. Hit four times: a hit tests at −3, two lose the stand and
        // call for the check, the leader's tests where it Routs (1.9).
        let escorted = json!({ "firer": bowmen, "range": 3.0,
            "target": { "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 2, "hits": 1 },
            "target_escort": { "name": "Runners", "class": "infantry", "armour": "N", "weapon": "JV", "stands": 1 } });
        let worn = json!({ "firer": bowmen, "range": 3.0,
            "target": { "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 2, "hits": 4, "disordered": true },
            "target_leader": true, "target_leader_pv": 1 });
        // Every change below lands on the elephant.
        type Pred<'a> = &'a dyn Fn(&Change, &str) -> bool;
        let lines: [(&str, Pred); 3] = [
            ("The elephant frenzies (its escort is removed)", &|c, _| {
                matches!(c, Change::Rampage { .. })
            }),
            (
                "The elephant frenzies and its driver kills it",
                &|c, rule| *c == Change::DestroyAll && rule == "7.42",
            ),
            (
                "The target Routs (stand-loss check failed while Disordered)",
                &|c, _| *c == Change::RoutUnit,
            ),
        ];
        for (situation, frenzy_removes_escort) in [(escorted, true), (worn, false)] {
            let s: FireSituation = serde_json::from_value(situation).unwrap();
            let forecast = resolve(&d, &s, None).unwrap().forecast;
            let throws = every_throw(&d, &s);
            for (label, landed) in lines {
                let on_elephant = |e: &Effect| {
                    e.target == Target::Unit("Surus".into()) && landed(&e.change, &e.rule)
                };
                let weight = throws
                    .iter()
                    .filter(|(_, effects, _)| effects.iter().any(on_elephant))
                    .fold(Probability::ZERO, |sum, (p, _, _)| sum.plus(p).unwrap());
                let said = forecast.iter().find(|c| c.label == label).unwrap();
                assert_eq!(said.probability, weight.to_string(), "{label}");
            }
            // The escort goes whenever the elephant frenzies, whatever its driver does (3.166).
            let frenzied = |effects: &[Effect]| {
                effects.iter().any(|e| {
                    e.target == Target::Unit("Surus".into())
                        && (matches!(e.change, Change::Rampage { .. }) || e.rule == "7.42")
                })
            };
            let escort_removed = |effects: &[Effect]| {
                effects.iter().any(|e| {
                    e.target == Target::Unit("Runners".into()) && e.change == Change::DestroyAll
                })
            };
            assert!(
                throws.iter().any(|(_, e, _)| frenzied(e)),
                "a throw frenzies it"
            );
            for (_, effects, _) in &throws {
                assert_eq!(
                    escort_removed(effects),
                    frenzy_removes_escort && frenzied(effects),
                    "{effects:?}"
                );
            }
        }
    }

    #[test]
    fn an_escort_the_fire_eliminated_is_not_removed_again_when_its_elephant_frenzies() {
        // 9.21, 3.163, 3.166: a ballista firing twice; its first shot (an even die) eliminates the
        // runners, its second (odd) hits the elephant, which frenzies (d8 2), lives (d10 9) and
        // heads North (d8 1). The runners go by their hits alone: a second removal would land
        // on a unit already lost.
        let d = data();
        let s: FireSituation = serde_json::from_value(json!({
            "firer": { "class": "engine", "weapon": "BL", "stands": 1 },
            "target": { "name": "Surus", "class": "elephant", "weapon": "SP", "stands": 2, "hits": 1 },
            "target_escort": { "name": "Runners", "class": "infantry", "armour": "N", "weapon": "JV",
                "stands": 1, "tag": { "hits_per_stand": 2 }, "hits": 1 },
            "range": 2.0, "twice": true }))
        .unwrap();
        let r = resolve(&d, &s, Some(&[10, 1, 9, 1, 2, 9, 1])).unwrap();
        let effects = r.outcome.unwrap().effects;
        let on = |name: &str| -> Vec<&Change> {
            effects
                .iter()
                .filter(|e| e.target == Target::Unit(name.into()))
                .map(|e| &e.change)
                .collect()
        };
        assert_eq!(on("Runners"), [&Change::Hits { count: 1 }]);
        assert!(
            on("Surus")
                .iter()
                .any(|c| matches!(c, Change::Rampage { .. })),
            "{effects:?}"
        );
    }

    #[test]
    fn fire_at_a_unit_not_an_elephant_asks_no_frenzy_dice() {
        // Bowmen at spearmen a hit from losing a stand: over every throw, the shot's two d10
        // and, where a stand goes, the stand-loss check; nothing of an elephant's.
        let d = data();
        let mut s = situation(
            json!({ "class": "infantry", "armour": "N", "weapon": "BW", "stands": 3 }),
            3.0,
        );
        s.target = serde_json::from_value(json!({ "class": "infantry", "armour": "N",
            "weapon": "SP", "stands": 4, "hits": 2 }))
        .unwrap();
        let asked: std::collections::BTreeSet<String> = every_throw(&d, &s)
            .into_iter()
            .flat_map(|(_, _, purposes)| purposes)
            .collect();
        assert_eq!(
            asked.into_iter().collect::<Vec<_>>(),
            ["fire", "stand-loss check"]
        );
    }

    #[test]
    fn the_stand_loss_check_is_taken_in_the_state_the_hits_left() {
        // 5.53 with 3.32: a chariot's second hit Disorders it for good, and it checks Disordered.
        let d = data();
        let mut s = situation(
            json!({ "class": "infantry", "armour": "N", "weapon": "BW", "stands": 3 }),
            3.0,
        );
        s.target = serde_json::from_value(
            json!({ "class": "chariot", "weapon": "JV", "stands": 2, "hits": 1 }),
        )
        .unwrap();
        let firer = Unit::build(&d, &s.firer, "firer").unwrap();
        let target = Unit::build(&d, &s.target, "target").unwrap();
        let response = target.response.value;
        let shooting = Shooting::new(&d, &s, firer, target, false, 0, 0).unwrap();
        let one = Shot {
            hits: 1,
            ..Shot::default()
        };
        assert!(shooting.disordered_after(&one));
        assert_eq!(shooting.stand_loss_number(&one), response - 2);
        assert_eq!(shooting.stand_loss_number(&Shot::default()), response);
    }
}
