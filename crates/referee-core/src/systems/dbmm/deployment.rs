//! Where an element may deploy (p. 21–22): the set-up's restrictions for the centre line, the
//! short battlefield edges and enemy fortifications, each checked with its page. The distances
//! are `[deployment]` in `rulesets/dbmm.toml`; the reading of the flattened DEPLOYMENT ZONES
//! diagram is R-DBMM-32.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use super::element::{self, Element};
use super::sight::paces;
use crate::contract::{Check, CheckStatus, Note, Resolution, Total};
use crate::error::RefereeError;

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

/// A command at deployment (p. 21), kept in DBMM's companion file.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandDeployment {
    pub rule: String,
    pub ruling: String,
    /// Paces from its general for land elements, and for naval.
    pub from_general_land: i64,
    pub from_general_naval: i64,
    /// Elements that may deploy apart from a group, and the others in words.
    pub alone_may: String,
    pub alone_also: String,
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
    /// Paces from its own general's element.
    #[serde(default)]
    pub from_general: Option<i64>,
    /// Its command's rectangle meets another command's.
    #[serde(default)]
    pub rectangle_meets_another: bool,
    /// It deploys alone, not as part of a group.
    #[serde(default)]
    pub alone: bool,
    /// It may deploy alone: in a TF or PF, command baggage or ambushers.
    #[serde(default)]
    pub alone_allowed: bool,
}

/// The command's own restrictions (p. 21): its rectangle, the distance from its general, groups.
fn command_checks(
    data: &DbmmData,
    element: &element::Checked,
    s: &DeploymentSituation,
    from_general: Option<i64>,
) -> Vec<Check> {
    let c = &data.command_deployment;
    let rule = c.rule.as_str();
    let ruling = Some(c.ruling.as_str());
    let mut checks = vec![Check::holds(
        "Its command deploys inside a rectangle parallel with the battlefield edges that does not meet another command's",
        !s.rectangle_meets_another,
        rule,
    )
    .ruling(ruling)];
    if let Some(p) = from_general.filter(|_| !element.element.general) {
        let (most, kind) = if element.class == super::data::Class::Naval {
            (c.from_general_naval, "Naval")
        } else {
            (c.from_general_land, "Land")
        };
        checks.push(
            Check::holds(
                format!("{kind} elements deploy within {most}p of their general (here {p}p)"),
                p <= most,
                rule,
            )
            .ruling(ruling),
        );
    }
    if s.alone {
        let may = data
            .selector(&c.alone_may)
            .matches(&element.own_traits(data))
            || s.alone_allowed;
        checks.push(
            Check::holds(
                format!(
                    "Elements deploy as groups unless {}, {}",
                    c.alone_may, c.alone_also
                ),
                may,
                rule,
            )
            .ruling(ruling),
        );
    }
    checks
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
    let from_general = match s.from_general {
        Some(p) => Some(paces(p, "from_general", rule)?),
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
    checks.extend(command_checks(data, &element, s, from_general));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn failed(extra: serde_json::Value, element: serde_json::Value) -> Vec<String> {
        let data = super::super::test_data();
        let mut s = json!({
            "element": element, "deploys": "first", "from_centre_line": 600, "from_short_edge": 1000
        });
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        let s: DeploymentSituation = serde_json::from_value(s).unwrap();
        let r = deployment(&data, &s).unwrap();
        let failed: Vec<String> = r
            .checks
            .iter()
            .filter(|c| c.status != CheckStatus::Met)
            .map(|c| c.label.clone())
            .collect();
        assert_eq!(
            r.outcome.unwrap().result == "may_deploy_here",
            failed.is_empty()
        );
        failed
    }

    /// p. 21: every element of a command inside its rectangle, within 800p of its general (2000p
    /// if naval), as groups unless El, Exp, Naval, in TF/PF, command baggage or ambushers.
    #[test]
    fn a_command_deploys_in_its_rectangle_near_its_general_as_groups() {
        let bd = json!({ "type": "Bd", "grade": "O" });
        let gal = json!({ "type": "Gal", "grade": "O" });
        let el = json!({ "type": "El", "grade": "O" });
        let general = json!({ "type": "Cv", "grade": "O", "general": true });
        let cases = [
            (json!({ "from_general": 800 }), bd.clone(), vec![]),
            (
                json!({ "from_general": 801 }),
                bd.clone(),
                vec!["Land elements deploy within 800p of their general (here 801p)"],
            ),
            (json!({ "from_general": 1600 }), gal.clone(), vec![]),
            (
                json!({ "from_general": 2400 }),
                gal,
                vec!["Naval elements deploy within 2000p of their general (here 2400p)"],
            ),
            // The general's own element is where its general is.
            (json!({ "from_general": 3000 }), general, vec![]),
            (
                json!({ "rectangle_meets_another": true }),
                bd.clone(),
                vec!["Its command deploys inside a rectangle parallel with the battlefield edges that does not meet another command's"],
            ),
            (
                json!({ "alone": true }),
                bd.clone(),
                vec!["Elements deploy as groups unless El | Exp | Naval, in TF/PF, Command Baggage, Ambushers"],
            ),
            (json!({ "alone": true }), el, vec![]),
            (json!({ "alone": true, "alone_allowed": true }), bd, vec![]),
        ];
        for (extra, element, expected) in cases {
            assert_eq!(
                failed(extra.clone(), element.clone()),
                expected,
                "{element} {extra}"
            );
        }
        let data = super::super::test_data();
        let s: DeploymentSituation = serde_json::from_value(json!({
            "element": { "type": "Bd", "grade": "O" }, "deploys": "first", "from_centre_line": 600,
            "from_short_edge": 1000, "from_general": -5
        }))
        .unwrap();
        assert_eq!(
            deployment(&data, &s).unwrap_err().field.as_deref(),
            Some("from_general")
        );
    }
}
