//! Where an element may deploy (p. 21–22): the set-up's restrictions for the centre line, the
//! short battlefield edges and enemy fortifications, each checked with its page. The distances
//! are `[deployment]` in `rulesets/dbmm.toml`; the reading of the flattened DEPLOYMENT ZONES
//! diagram is R-DBMM-32.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use super::element::{self, Element};
use crate::contract::{Check, CheckStatus, Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeploymentZones {
    pub rule: String,
    pub ruling: String,
    /// The army deploying first keeps this far from the centre line, the second this far.
    pub centre_line_first: i64,
    pub centre_line_second: i64,
    /// No element closer to a short battlefield edge than this …
    pub short_edge_none: i64,
    /// … and only `short_edge_light` (and a general grouped with them) closer than this.
    pub short_edge_light: i64,
    pub short_edge_light_who: String,
    /// Every element keeps more than this from an enemy TF or PF.
    pub enemy_fortification: i64,
    /// Stratagems and scouting: what the sheet lists for the umpire, not tables (R-DBMM-32).
    pub stratagems: Vec<String>,
}

/// Which army it belongs to: the one deploying first or second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Deploys {
    First,
    Second,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeploymentSituation {
    pub element: Element,
    /// Its army deploys first or second.
    pub deploys: Deploys,
    /// Paces from the centre line.
    pub from_centre_line: i64,
    /// Paces from the nearer short battlefield edge.
    pub from_short_edge: i64,
    /// Paces from the nearest enemy TF or PF, if there is one.
    #[serde(default)]
    pub from_enemy_fortification: Option<i64>,
    /// It deploys in ambush.
    #[serde(default)]
    pub in_ambush: bool,
    /// It deploys in a fortified BUA.
    #[serde(default)]
    pub in_fortified_bua: bool,
    /// A general's element grouped with light troops who may deploy nearer the short edge.
    #[serde(default)]
    pub grouped_with_light: bool,
}

fn paces(value: i64, field: &str, rule: &str) -> Result<i64, RefereeError> {
    if value < 0 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRange,
            format!("a distance is 0 paces or more, not {value}"),
        )
        .field(field)
        .rule(rule));
    }
    Ok(value)
}

pub fn deployment(data: &DbmmData, s: &DeploymentSituation) -> Result<Resolution, RefereeError> {
    let z = &data.deployment;
    let rule = z.rule.as_str();
    let element = element::check(data, &s.element, "element")?;
    let centre = paces(s.from_centre_line, "from_centre_line", rule)?;
    let edge = paces(s.from_short_edge, "from_short_edge", rule)?;
    let fort = match s.from_enemy_fortification {
        Some(p) => Some(paces(p, "from_enemy_fortification", rule)?),
        None => None,
    };
    let excused = s.in_ambush || s.in_fortified_bua;
    let name = element.element.label();
    let mut checks = Vec::new();
    let (least, whose) = match s.deploys {
        Deploys::First => (z.centre_line_first, "The army deploying first"),
        Deploys::Second => (z.centre_line_second, "The army deploying second"),
    };
    if s.deploys == Deploys::Second && excused {
        checks.push(Check::holds(
            format!(
                "{whose} is not held {least}p from the centre line in ambush or in a fortified BUA"
            ),
            true,
            rule,
        ));
    } else {
        checks.push(Check::holds(
            format!("{whose} deploys {least}p or more from the centre line (here {centre}p)"),
            centre >= least,
            rule,
        ));
    }
    let light = data
        .selector(&z.short_edge_light_who)
        .matches(&element.traits())
        || (element.element.general && s.grouped_with_light);
    if excused {
        checks.push(Check::holds(
            "In ambush or in a fortified BUA, it is not held back from the short battlefield edge",
            true,
            rule,
        ));
    } else {
        checks.push(Check::holds(
            format!(
                "No element deploys within {}p of a short battlefield edge (here {edge}p)",
                z.short_edge_none
            ),
            edge >= z.short_edge_none,
            rule,
        ));
        checks.push(Check::holds(
            if light {
                format!(
                    "{name} is among those who may deploy {}–{}p from a short edge",
                    z.short_edge_none, z.short_edge_light
                )
            } else {
                format!(
                    "Only {} (and a general grouped with them) deploy within {}p of a short edge: {name} deploys beyond (here {edge}p)",
                    z.short_edge_light_who, z.short_edge_light
                )
            },
            light || edge > z.short_edge_light,
            rule,
        ));
    }
    if let Some(fort) = fort {
        checks.push(Check::holds(
            format!(
                "More than {}p from an enemy TF or PF (here {fort}p)",
                z.enemy_fortification
            ),
            fort > z.enemy_fortification,
            rule,
        ));
    }
    let allowed = checks.iter().all(|c| c.status == CheckStatus::Met);
    let mut r = Resolution::certain(
        &data.system.id,
        "deployment",
        if allowed {
            "may_deploy_here"
        } else {
            "may_not_deploy_here"
        },
        &if allowed {
            format!("{name} may deploy here.")
        } else {
            let why: Vec<&str> = checks
                .iter()
                .filter(|c| c.status != CheckStatus::Met)
                .map(|c| c.label.as_str())
                .collect();
            format!("{name} may not deploy here: {}.", why.join("; "))
        },
        Vec::new(),
    );
    r.totals.push(Total::new(
        "Deploys",
        match s.deploys {
            Deploys::First => "first",
            Deploys::Second => "second",
        },
        rule,
        None,
    ));
    r.checks = checks;
    for line in &z.stratagems {
        r.notes.push(Note::new(line.clone(), rule, Some(&z.ruling)));
    }
    Ok(r)
}
