//! DBMM 2.x: the troop model, close combat and shooting with exact outcome odds (grading by the
//! first comparison, R-DBMM-1), quick kills, morale equivalents with command and army breaks,
//! victory points, PIPs and distances, over the shared engine. Tables are `rulesets/dbmm.toml`.

pub mod combat;
pub mod data;
pub mod daylight;
pub mod deployment;
pub mod element;
pub mod fight;
pub mod going;
pub mod morale;
pub mod outcome;
pub mod pips;
pub mod selector;
pub mod setup;
pub mod weather;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::contract::{Resolution, Total};
use crate::error::RefereeError;
use crate::systems::{
    parse_situation as parse, without_dice, ActionGroup, ActionInfo, Choice, ChoiceList,
};

pub use data::DbmmData;

/// The action "Resolve" on the roster opens (SystemInfo::main_action).
pub const MAIN_ACTION: &str = "close_combat";

pub fn actions() -> Vec<ActionInfo> {
    vec![
        ActionInfo::new(
            "element",
            "Element: factors, ME, moves, quick kills",
            "p. 4–9, 29, 34, 36, 42",
            ActionGroup::Tables,
        ),
        ActionInfo::new(
            "close_combat",
            "Close combat",
            "p. 35–42",
            ActionGroup::Combat,
        )
        .fights(),
        ActionInfo::new("shooting", "Shooting", "p. 34, 36–42", ActionGroup::Combat).fights(),
        ActionInfo::new(
            "flee_through_friends",
            "Fleeing through friends",
            "p. 41",
            ActionGroup::Movement,
        ),
        ActionInfo::new(
            "command_morale",
            "Command morale",
            "p. 42–43",
            ActionGroup::Checks,
        ),
        ActionInfo::new("army_morale", "Army morale", "p. 43", ActionGroup::Checks),
        ActionInfo::new("victory", "Victory points", "p. 43", ActionGroup::Checks),
        ActionInfo::new("pips", "PIP dice", "p. 27", ActionGroup::Checks),
        ActionInfo::new(
            "pip_cost",
            "PIP cost of a move or halt",
            "p. 27",
            ActionGroup::Movement,
        ),
        ActionInfo::new(
            "daylight",
            "Time of day and visibility",
            "p. 23–25",
            ActionGroup::Tables,
        ),
        ActionInfo::new(
            "going",
            "Going by element",
            "p. 19–20",
            ActionGroup::Movement,
        ),
        ActionInfo::new(
            "weather",
            "Weather changes and effects",
            "p. 25",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "setup",
            "Setting up the battle: aggression, season, deployment, first bound",
            "p. 18–23, 26",
            ActionGroup::Tables,
        ),
        ActionInfo::new(
            "deployment",
            "Where an element may deploy",
            "p. 21–22",
            ActionGroup::Checks,
        ),
        ActionInfo::new(
            "place_terrain",
            "Placing a terrain",
            "p. 20",
            ActionGroup::Tables,
        ),
        ActionInfo::new(
            "distances",
            "Distances on the table",
            "p. 29, 34",
            ActionGroup::Tables,
        ),
    ]
}

pub fn choices(data: &DbmmData) -> Vec<ChoiceList> {
    vec![
        ChoiceList {
            field: "type".into(),
            options: data
                .types
                .iter()
                .map(|(k, t)| Choice {
                    key: k.clone(),
                    label: format!("{k} — {}", t.name),
                })
                .collect(),
        },
        ChoiceList {
            field: "grade".into(),
            options: data
                .grades
                .iter()
                .map(|(k, g)| Choice {
                    key: k.clone(),
                    label: format!("({k}) {}", g.name),
                })
                .collect(),
        },
        ChoiceList {
            field: "factors".into(),
            options: data
                .tactical_factors
                .iter()
                .filter(|f| !f.automatic && f.per.is_none())
                .fold(Vec::<Choice>::new(), |mut out, f| {
                    if !out.iter().any(|c| c.key == f.id) {
                        out.push(Choice {
                            key: f.id.clone(),
                            label: f.text.clone(),
                        });
                    }
                    out
                }),
        },
        listed(
            "action",
            data.pips.costs.iter().map(|c| (&c.id, c.text.as_str())),
        ),
        listed(
            "conditions",
            data.pips.modifiers.iter().map(|c| (&c.id, c.text.as_str())),
        ),
        listed(
            "weather",
            data.daylight
                .weather
                .iter()
                .map(|w| (&w.key, w.name.as_str())),
        ),
        // Each effect's text begins with its name: "Strong wind: −1 TF …".
        listed(
            "effects",
            data.weather
                .effects
                .iter()
                .map(|e| (&e.key, e.text.split(':').next().unwrap_or(&e.text))),
        ),
        // The climate table's climates and the seasons (p. 23), in the table's order.
        distinct("climate", data.daylight.times.iter().map(|r| &r.climate)),
        listed("season", data.setup.seasons.iter().map(|s| (s, s.as_str()))),
        // The terrain codes of the placing order (p. 20), as the sheet writes them.
        distinct(
            "terrain",
            data.setup
                .placement_order
                .iter()
                .flatten()
                .chain(&data.setup.without_dice),
        ),
        listed(
            "scale",
            data.scales.iter().map(|s| (&s.key, s.name.as_str())),
        ),
    ]
}

/// A line of the sheet inside a sentence: "Activate ally …" → "activate ally …"; a word in
/// capitals ("PIPs …") stays.
pub(super) fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.clone().next()) {
        (Some(c), Some(d)) if c.is_uppercase() && !d.is_uppercase() => {
            c.to_lowercase().chain(chars).collect()
        }
        _ => text.to_string(),
    }
}

/// A pick list of codes the sheet writes as they are (climates, terrains), each once, in order.
fn distinct<'d>(field: &str, codes: impl Iterator<Item = &'d String>) -> ChoiceList {
    let mut options: Vec<Choice> = Vec::new();
    for code in codes {
        if !options.iter().any(|c| &c.key == code) {
            options.push(Choice {
                key: code.clone(),
                label: code.clone(),
            });
        }
    }
    ChoiceList {
        field: field.into(),
        options,
    }
}

/// A pick list of a field from the ruleset's rows, each as its key and the words shown.
fn listed<'d>(field: &str, rows: impl Iterator<Item = (&'d String, &'d str)>) -> ChoiceList {
    ChoiceList {
        field: field.into(),
        options: rows
            .map(|(key, label)| Choice {
                key: key.clone(),
                label: label.to_string(),
            })
            .collect(),
    }
}

/// An element and the figure scale its distances are wanted in.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DistancesSituation {
    pub element: element::Element,
    /// A figure scale of the ruleset (15mm, 25mm; default the first).
    #[serde(default)]
    pub scale: Option<String>,
}

fn distances(data: &DbmmData, s: &DistancesSituation) -> Result<Resolution, RefereeError> {
    let checked = element::check(data, &s.element, "element")?;
    let scale = match &s.scale {
        None => &data.scales[0],
        Some(key) => data.scale(key).ok_or_else(|| {
            RefereeError::new(
                "situation.unknown_scale",
                format!(
                    "no figure scale {}; the ruleset has {}",
                    crate::error::given(key),
                    crate::error::choices(data.scales.iter().map(|x| {
                        match x.figures_mm {
                            Some([lo, hi]) if lo > 1 => format!("{} ({lo}–{hi} mm figures)", x.key),
                            Some([_, hi]) => format!("{} (figures up to {hi} mm)", x.key),
                            None => x.key.clone(),
                        }
                    }))
                ),
            )
            .field("scale")
            .ruling("R-DBMM-14")
        })?,
    };
    let show = |paces: i64| {
        let mm = paces as f64 * scale.mm_per_pace;
        format!("{paces}p = {mm:.0} mm = {:.1}\"", mm / 25.4)
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "distances",
        &scale.key,
        &format!(
            "{} at {} ({} mm per pace)",
            checked.element.label(),
            scale.name,
            scale.mm_per_pace
        ),
        Vec::new(),
    );
    let ruling = Some("R-DBMM-14");
    if let Some(m) = element::moves(data, &checked) {
        for (label, v) in ["GGo", "RGo", "DGo", "Road (march)"].iter().zip(m) {
            r.totals.push(Total::new(
                format!("Move in {label}"),
                v.map_or("may not enter".to_string(), |p| {
                    if p == 0 {
                        "may not move".into()
                    } else {
                        show(p)
                    }
                }),
                &data.movement.rule,
                ruling,
            ));
        }
    }
    if let Some(range) = element::shooting_range(data, &checked) {
        r.totals.push(Total::new(
            "Shooting range",
            show(range),
            &data.shooting.rule,
            ruling,
        ));
    }
    r.totals
        .push(Total::new("Threat zone", show(80), "p. 32", ruling));
    r.notes.push(crate::contract::Note::new(
        data.movement.march_moves.clone(),
        &data.movement.rule,
        None,
    ));
    Ok(r)
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElementSituation {
    pub element: element::Element,
}

fn describe(data: &DbmmData, s: &ElementSituation) -> Result<Resolution, RefereeError> {
    let checked = element::check(data, &s.element, "element")?;
    let (me, _) = element::morale_halves(data, &checked);
    let mut r = Resolution::certain(
        &data.system.id,
        "element",
        &format!("{} ({})", checked.type_code, checked.grade),
        &format!("{}: {} ME", checked.element.label(), element::me_text(me)),
        Vec::new(),
    );
    r.totals = element::describe(data, &checked);
    let traits = checked.traits();
    for (symbol, label) in [
        ("=", "Quick kill if it scores equal"),
        ("<", "Quick kill if it scores less"),
    ] {
        let lines: Vec<&str> = data
            .outcomes
            .exceptions
            .iter()
            .filter(|e| {
                e.quick_kill && e.scoring == symbol && data.selector(&e.type_code).matches(&traits)
            })
            .map(|e| e.text.as_str())
            .collect();
        if !lines.is_empty() {
            r.totals.push(Total::new(
                label,
                lines.join("; "),
                "p. 38–39",
                Some("R-DBMM-10"),
            ));
        }
    }
    if outcome::impetuous(data, &checked) {
        r.totals.push(Total::new(
            "Impetuous",
            "yes",
            &data.pursuit.impetuous_rule,
            None,
        ));
    }
    Ok(r)
}

pub fn resolve(
    data: &DbmmData,
    action: &str,
    situation: &serde_json::Value,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    match action {
        "element" => without_dice(action, dice, || describe(data, &parse(situation)?)),
        "close_combat" => combat::close_combat(data, &parse(situation)?, dice),
        "shooting" => combat::shooting(data, &parse(situation)?, dice),
        "flee_through_friends" => without_dice(action, dice, || {
            outcome::flee_through_friends(data, &parse(situation)?)
        }),
        "command_morale" => without_dice(action, dice, || {
            morale::command_morale(data, &parse(situation)?)
        }),
        "army_morale" => without_dice(action, dice, || {
            morale::army_morale(data, &parse(situation)?)
        }),
        "victory" => without_dice(action, dice, || morale::victory(data, &parse(situation)?)),
        "pips" => pips::pips(data, &parse(situation)?, dice),
        "pip_cost" => without_dice(action, dice, || pips::pip_cost(data, &parse(situation)?)),
        "distances" => without_dice(action, dice, || distances(data, &parse(situation)?)),
        "going" => without_dice(action, dice, || going::going(data, &parse(situation)?)),
        "daylight" => without_dice(action, dice, || {
            daylight::daylight(data, &parse(situation)?)
        }),
        "setup" => setup::setup(data, &parse(situation)?, dice),
        "weather" => without_dice(action, dice, || weather::weather(data, &parse(situation)?)),
        "place_terrain" => setup::place_terrain(data, &parse(situation)?, dice),
        "deployment" => without_dice(action, dice, || {
            deployment::deployment(data, &parse(situation)?)
        }),
        other => Err(crate::systems::unknown_action("dbmm", other, &actions())),
    }
}

pub fn situation_schema(action: &str) -> Option<schemars::Schema> {
    Some(match action {
        "element" => schemars::schema_for!(ElementSituation),
        "close_combat" => schemars::schema_for!(combat::CloseCombatSituation),
        "shooting" => schemars::schema_for!(combat::ShootingSituation),
        "flee_through_friends" => schemars::schema_for!(outcome::FleeThroughFriendsSituation),
        "command_morale" => schemars::schema_for!(morale::CommandSituation),
        "army_morale" => schemars::schema_for!(morale::ArmySituation),
        "victory" => schemars::schema_for!(morale::VictorySituation),
        "pips" => schemars::schema_for!(pips::PipsSituation),
        "pip_cost" => schemars::schema_for!(pips::PipCostSituation),
        "distances" => schemars::schema_for!(DistancesSituation),
        "going" => schemars::schema_for!(going::GoingSituation),
        "daylight" => schemars::schema_for!(daylight::DaylightSituation),
        "setup" => schemars::schema_for!(setup::SetupSituation),
        "weather" => schemars::schema_for!(weather::WeatherSituation),
        "place_terrain" => schemars::schema_for!(setup::PlaceTerrainSituation),
        "deployment" => schemars::schema_for!(deployment::DeploymentSituation),
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
