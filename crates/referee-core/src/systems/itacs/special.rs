//! Special unit types: horse archers (6.2), feudal cavalry (6.3), cavalry and archer conversion
//! (6.4, 6.5), throwing weapons (6.6) and rampaging elephants (6.9.2).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::{ItacsData, ResultRow};
use super::results::effect;
use crate::contract::{Change, Check, Resolution, Target};
use crate::error::RefereeError;
use crate::odds::Band;
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HorseArcherRules {
    pub rule: String,
    pub ruling: Option<String>,
    /// Terrain keys where they may break after firing instead of being disrupted.
    pub break_terrain: Vec<String>,
    pub slower_by_more_than: u32,
    /// D markers otherwise.
    pub disruption: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeudalRules {
    pub rule: String,
    /// Hexes within which an enemy formation in line of sight must be charged.
    pub range: u32,
    pub dice: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Conversion {
    /// The type a unit must have begun the scenario as.
    pub from: String,
    pub to: String,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThrowingRules {
    pub fire: u32,
    pub range: u32,
    pub rule: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RampageRules {
    pub rule: String,
    pub ruling: Option<String>,
    pub dice: String,
    /// 2d6 → direction relative to the elephant's facing.
    pub directions: Vec<ResultRow>,
}

/// feudal_charge: must this HC formation charge (6.3)?
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsFeudalSituation")]
pub struct FeudalSituation {
    /// An enemy formation is within 14 hexes and in line of sight.
    pub enemy_in_sight: bool,
    /// The bonus of a leader stacked in the formation, if one is.
    #[serde(default)]
    #[ts(optional)]
    pub leader_bonus: Option<u32>,
}

pub fn feudal_charge(
    data: &ItacsData,
    s: &FeudalSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let f = &data.feudal_cavalry;
    let sight = Check::holds(
        format!(
            "An enemy formation is within {} hexes and in line of sight",
            f.range
        ),
        s.enemy_in_sight,
        &f.rule,
    );
    let charge_checks = vec![
        Check::umpire(
            "The whole formation charges in a straight line at the closest enemy unit, before any other movement",
            &f.rule,
        ),
        Check::umpire(
            "Passing through a friendly unit disrupts both (4.3.3); ending over the stacking limit: the friendly unit takes 2 D markers and a Break marker",
            &f.rule,
        ),
    ];
    let answer = |result: &str, meaning: &str| {
        let mut r = Resolution::certain(&data.system.id, "feudal_charge", result, meaning, vec![]);
        r.checks.push(sight.clone());
        r
    };
    if !s.enemy_in_sight {
        return Ok(answer(
            "need_not_charge",
            "No enemy formation in range and sight: the HC need not charge.",
        ));
    }
    let Some(bonus) = s.leader_bonus else {
        let mut r = answer(
            "charges",
            "No leader in the formation to stop it: the HC formation charges.",
        );
        r.checks.extend(charge_checks);
        return Ok(r);
    };
    let rows = vec![
        (
            Band {
                min: None,
                max: Some(i64::from(bonus)),
            },
            "no_charge".to_string(),
        ),
        (
            Band {
                min: Some(i64::from(bonus) + 1),
                max: None,
            },
            "charges".to_string(),
        ),
    ];
    let meaning = |code: &str| {
        let text = if code == "charges" {
            "The roll is above the leader bonus: the HC formation charges."
        } else {
            "The roll is at most the leader bonus: the leader holds the HC back."
        };
        (text.to_string(), Vec::new())
    };
    let (distribution, outcome) =
        crate::rule_system::resolve::roll_named(&f.dice, &rows, &meaning, dice)?;
    let mut r = Resolution::certain(&data.system.id, "feudal_charge", "", "", vec![]);
    r.dice = f.dice.clone();
    r.distribution = distribution;
    r.outcome = outcome;
    r.totals.push(crate::contract::Total {
        label: "Leader bonus (2d6 at most this holds the charge)".into(),
        value: bonus.to_string(),
        rule: f.rule.clone(),
        ruling: None,
    });
    r.checks.push(sight);
    r.checks.extend(charge_checks);
    Ok(r)
}

/// rampage: the direction a rampaging elephant takes this turn (6.9.2, R-ITACS-18).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsRampageSituation")]
pub struct RampageSituation {
    #[serde(default)]
    #[ts(optional)]
    pub elephant: Option<String>,
}

pub fn rampage(
    data: &ItacsData,
    s: &RampageSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let rr = &data.rampage;
    let name = s.elephant.clone().unwrap_or_else(|| "The elephant".into());
    let rows = super::data::roll_table(&rr.directions).rows;
    let meaning = |code: &str| {
        (
            format!("Turn to face {code} and move the full allowance, attacking any unit met."),
            vec![effect(
                Target::Unit(name.clone()),
                Change::Rampage {
                    direction: code.to_string(),
                },
                &rr.rule,
                rr.ruling.as_deref(),
            )],
        )
    };
    let (distribution, outcome) =
        crate::rule_system::resolve::roll_named(&rr.dice, &rows, &meaning, dice)?;
    let mut r = Resolution::certain(&data.system.id, "rampage", "", "", vec![]);
    r.dice = rr.dice.clone();
    r.distribution = distribution;
    r.outcome = outcome;
    r.notes.push(crate::contract::Note::new(
        "The direction diagram is missing from the rule text: the ruleset's default mapping is used.",
        &rr.rule,
        rr.ruling.as_deref(),
    ));
    r.checks.push(Check::umpire(
        "It attacks any unit, friend or enemy, it comes into contact with; it never breaks nor routs",
        &rr.rule,
    ));
    Ok(r)
}

/// conversion: may this unit dismount, mount, or change its weapons (6.4, 6.5)?
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "ItacsConversionSituation")]
pub struct ConversionSituation {
    /// The unit's type now.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub unit_type: String,
    /// The type it began the scenario as (default: its type now).
    #[serde(default)]
    #[ts(optional)]
    pub original_type: Option<String>,
    /// It stays stationary for the whole movement phase.
    pub stationary: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub disrupted: bool,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub adjacent_enemy: bool,
}

pub fn conversion(data: &ItacsData, s: &ConversionSituation) -> Result<Resolution, RefereeError> {
    for (value, field) in [
        (Some(&s.unit_type), "type"),
        (s.original_type.as_ref(), "original_type"),
    ] {
        if let Some(t) = value {
            if !data.unit_types.contains_key(t) {
                return Err(RefereeError::new(
                    ErrorCode::SituationUnknownUnitType,
                    format!("unknown unit type {}", crate::error::given(t)),
                )
                .field(field)
                .rule("10.2"));
            }
        }
    }
    let original = s.original_type.as_ref().unwrap_or(&s.unit_type);
    let forward = data.conversions.iter().find(|c| c.from == s.unit_type);
    let back = data
        .conversions
        .iter()
        .find(|c| c.to == s.unit_type && &c.from == original);
    let (target, rule) = match (forward, back) {
        (Some(c), _) => (c.to.clone(), c.rule.clone()),
        (None, Some(c)) => (c.from.clone(), c.rule.clone()),
        (None, None) => {
            let started = data
                .conversions
                .iter()
                .find(|c| c.to == s.unit_type)
                .map(|c| {
                    format!(
                        ": it began as {original}, and only units that began as {} convert back",
                        c.from
                    )
                })
                .unwrap_or_default();
            let mut r = Resolution::certain(
                &data.system.id,
                "conversion",
                "cannot_convert",
                &format!("A {} unit has no conversion{started}.", s.unit_type),
                Vec::new(),
            );
            r.checks.push(Check::holds(
                "The type converts (HC↔PS, MC↔SD, LC↔MI, LB↔AX, CB↔MI; back only to the type it began as)",
                false,
                "6.4, 6.5",
            ));
            return Ok(r);
        }
    };
    let checks = vec![
        Check::holds(
            "Stationary for the entire movement phase",
            s.stationary,
            &rule,
        ),
        Check::holds("Not disrupted", !s.disrupted, "6.4"),
        Check::holds("Not adjacent to an enemy unit", !s.adjacent_enemy, "6.4"),
    ];
    let ok = checks
        .iter()
        .all(|c| c.status == crate::contract::CheckStatus::Met);
    let mut r = if ok {
        Resolution::certain(
            &data.system.id,
            "conversion",
            "converts",
            &format!(
                "At the end of the movement phase the {} unit becomes a {target} unit.",
                s.unit_type
            ),
            vec![effect(
                Target::Unit(s.unit_type.clone()),
                Change::ConvertTo {
                    unit_type: target.clone(),
                },
                &rule,
                None,
            )],
        )
    } else {
        Resolution::certain(
            &data.system.id,
            "conversion",
            "cannot_convert",
            "A condition of the conversion is not met.",
            Vec::new(),
        )
    };
    r.checks = checks;
    Ok(r)
}
