//! Missile combat (5.x, Table 2.13): formed fire as one roll-off, combined skirmish fire, engines
//! (9.2), and the chained answer: hits, a stand lost, the stand-loss morale check (5.53).

use schemars::JsonSchema;
use serde::Deserialize;
use ts_rs::TS;

use super::data::GtsData;
use super::rolloff::{formed_fire, skirmish_fire};
use super::units::{Unit, UnitEntry};
use crate::contract::{
    effect, Chance, Change, Check, Modifier, Note, Resolution, ResultOdds, Target, Total,
};
use crate::error::RefereeError;
use crate::odds::Dist;

/// fire: one fire event (5.5).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsFireSituation")]
pub struct FireSituation {
    pub firer: UnitEntry,
    pub target: UnitEntry,
    /// Inches to the target.
    pub range: f64,
    /// Fires its secondary weapon (−1).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub secondary: bool,
    /// Skirmish stands combining their fire at the target (5.5): one d10 each.
    #[serde(default)]
    #[ts(optional)]
    pub skirmish_stands: Option<u32>,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub target_elevated: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub target_in_cover: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub flank_or_rear: bool,
    /// Escort or runner stands firing from a chariot or elephant (3.163): −2.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub escort: bool,
    /// A ballista shooting over units (9.27): −1.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub indirect: bool,
    /// The personal valour of a leader attached to the target, for its stand-loss check.
    #[serde(default)]
    #[ts(optional, as = "Option<i64>")]
    pub target_leader_pv: i64,
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
    let hits: Dist<u32> = match s.skirmish_stands {
        Some(n) if n > 1 => {
            if !firer.skirmish {
                return Err(RefereeError::new(
                    "situation.invalid_field",
                    "combined fire of several stands is for skirmish stands",
                )
                .field("skirmish_stands")
                .rule("5.5"));
            }
            skirmish_fire(attack, defence, n)?
        }
        _ => formed_fire(attack, defence, max)?,
    };
    let most = hits.outcomes().map(|(h, _)| *h).max().unwrap_or(0);
    // What the hits Disorder: a chariot's or engine's second hit, for good (3.32), and a double
    // hit from one artillery shot (9.28).
    let disorder_by = |h: u32| -> Option<&'static str> {
        if target.disordered || h == 0 {
            None
        } else if target.disordered_for_good_by(h) {
            Some("3.32")
        } else if engine && h >= 2 {
            Some("9.28")
        } else {
            None
        }
    };
    let effects_for = |h: u32| {
        let mut out = Vec::new();
        if h > 0 {
            out.push(effect(
                Target::Defender,
                Change::Hits { count: h },
                &f.rule,
                f.ruling.as_deref(),
            ));
        }
        if let Some(rule) = disorder_by(h) {
            out.push(effect(Target::Defender, Change::Disorder, rule, None));
        }
        out
    };
    let name = |h: u32| match h {
        0 => "no effect".to_string(),
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    };
    let distribution: Vec<ResultOdds> = (0..=most)
        .map(|h| {
            ResultOdds::new(
                &name(h),
                &format!("The target takes {h} hit(s)."),
                "—".into(),
                hits.probability(&h),
                effects_for(h),
            )
        })
        .collect();
    let outcome = match dice {
        None => None,
        Some(faces) => {
            if s.skirmish_stands.is_some_and(|n| n > 1) {
                return Err(RefereeError::new(
                    "dice.invalid",
                    "combined skirmish fire: enter each stand's roll on the table; the referee gives the odds",
                )
                .field("dice"));
            }
            let (a, d) = super::rolloff::two_d10(faces, "the firer's, then the target's")?;
            let ma = (a + attack).clamp(1, 10);
            let md = (d + defence).clamp(1, 10);
            let h = super::rolloff::fire_hits(ma, md, max);
            Some(crate::contract::Outcome {
                dice: faces.to_vec(),
                roll: a,
                modified: ma,
                result: name(h),
                meaning: format!("Firer {ma} against target {md}: {}.", name(h)),
                effects: effects_for(h),
                sides: vec![
                    crate::contract::SideThrow::new("Firer", a as u32, attack, ma),
                    crate::contract::SideThrow::new("Target", d as u32, defence, md),
                ],
            })
        }
    };
    // Chained: a stand lost, then the stand-loss morale check (5.53), taken in the state the
    // hits left the unit in (a Disorder from 3.32 or 9.28 lands with the hits).
    let room = target.hits_per_stand - target.hits;
    let response = target.response.value + s.target_leader_pv;
    let penalty = data.response.disordered.modifier.abs();
    let ends = hits.joint(&Dist::die(10)?)?.map(|(h, roll)| {
        let lost = *h >= room;
        let disordered = target.disordered || disorder_by(*h).is_some();
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
            hits.probability_where(|h| target.disordered_for_good_by(*h)),
            "3.32",
        ));
    }
    if engine && !target.disordered {
        forecast.push(Chance::new(
            "The target is Disordered by a double hit from the shot",
            hits.probability_where(|h| *h >= 2),
            "9.28",
        ));
    }
    Ok(Resolution {
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
