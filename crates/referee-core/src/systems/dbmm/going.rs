//! Going by element (p. 19–20): the terrain's going, changed for elephants, camelry and chariots
//! in the special cases of the terrain definitions, and a river's going for wading troops by its
//! width and state. The cases are `[going]` in `rulesets/dbmm.toml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::{DbmmData, Going};
use super::element::{self, Element};
use crate::contract::{Note, Resolution, Total};
use crate::error::RefereeError;

fn good_going() -> Going {
    Going::GGo
}

/// The going an element meets: one of the three, or none it may enter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum GoingFor {
    GGo,
    RGo,
    DGo,
    #[serde(rename = "impassable")]
    Impassable,
}

impl GoingFor {
    fn code(self) -> &'static str {
        match self {
            GoingFor::GGo => "GGo",
            GoingFor::RGo => "RGo",
            GoingFor::DGo => "DGo",
            GoingFor::Impassable => "impassable",
        }
    }

    /// Worse going ranks higher: the worse of two holds.
    fn rank(self) -> u8 {
        match self {
            GoingFor::GGo => 0,
            GoingFor::RGo => 1,
            GoingFor::DGo => 2,
            GoingFor::Impassable => 3,
        }
    }

    fn words(self) -> &'static str {
        match self {
            GoingFor::GGo => "good going",
            GoingFor::RGo => "rough going",
            GoingFor::DGo => "difficult going",
            GoingFor::Impassable => "impassable",
        }
    }
}

impl From<Going> for GoingFor {
    fn from(g: Going) -> GoingFor {
        match g {
            Going::GGo => GoingFor::GGo,
            Going::RGo => GoingFor::RGo,
            Going::DGo => GoingFor::DGo,
        }
    }
}

/// A river's state (p. 20, p. 24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RiverState {
    #[default]
    Normal,
    Spate,
    Low,
}

/// One line of the special cases or the wading table.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GoingCase {
    /// The terrain's code (special cases).
    #[serde(default)]
    pub terrain: Option<String>,
    /// A river at least 80p wide (`true`) or narrower (`false`) (wading).
    #[serde(default)]
    pub wide: Option<bool>,
    #[serde(default)]
    pub state: Option<RiverState>,
    /// Whom it is for, in the sheet's notation; none: any element.
    #[serde(default)]
    pub who: Option<String>,
    /// For camelry (Cm, Bge (F) and any element the army list mounts on camels).
    #[serde(default)]
    pub camelry: bool,
    /// For chariots (as the army list gives them).
    #[serde(default)]
    pub chariots: bool,
    pub going: GoingFor,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GoingTables {
    pub rule: String,
    pub water_rule: String,
    /// Who counts as camelry beside the flag: "Any Camelry incl. Bge (F)".
    pub camelry: String,
    pub special: Vec<GoingCase>,
    pub wading: Vec<GoingCase>,
    /// WEATHER EFFECT (p. 25): the going of terrains in mud, for any troops.
    pub mud: Vec<GoingCase>,
    pub mud_rule: String,
}

/// A river an element wades.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct River {
    /// Its width in paces (80p or more is a wide river).
    pub width: i64,
    /// normal (default), spate or low.
    #[serde(default)]
    pub state: RiverState,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GoingSituation {
    pub element: Element,
    /// The terrain's code, for its special cases (SH, RH, BF, SF, RF, D, CH) and mud (Rd, F, BF).
    #[serde(default)]
    pub terrain: Option<String>,
    /// The terrain's going for other troops (default GGo).
    #[serde(default = "good_going")]
    pub going: Going,
    /// The army list mounts it on camels.
    #[serde(default)]
    pub camelry: bool,
    /// The army list makes it chariots.
    #[serde(default)]
    pub chariots: bool,
    /// A river it wades instead of a terrain.
    #[serde(default)]
    pub river: Option<River>,
    /// The weather has made mud (p. 25): an unpaved Rd is RGo, F and BF DGo.
    #[serde(default)]
    pub mud: bool,
}

pub fn going(data: &DbmmData, s: &GoingSituation) -> Result<Resolution, RefereeError> {
    let checked = element::check(data, &s.element, "element")?;
    let g = &data.going;
    let traits = checked.own_traits(data);
    let camelry = s.camelry || data.selector(&g.camelry).matches(&traits);
    let fits = |c: &GoingCase| {
        (!c.camelry || camelry)
            && (!c.chariots || s.chariots)
            && c.who
                .as_ref()
                .is_none_or(|w| data.selector(w).matches(&traits))
    };
    let label = checked.element.label();
    let (found, rule, place) = match (&s.river, &s.terrain) {
        (Some(_), Some(_)) => {
            return Err(RefereeError::new(
                "situation.invalid_field",
                "an element wades a river or stands in a terrain: give one of them",
            )
            .field("river")
            .rule(g.water_rule.clone()))
        }
        (Some(river), None) => {
            if river.width <= 0 {
                return Err(RefereeError::new(
                    "situation.invalid_range",
                    format!(
                        "a river's width is a distance in paces, more than 0: {}p cannot be",
                        river.width
                    ),
                )
                .field("river.width")
                .rule(g.water_rule.clone()));
            }
            let wide = river.width >= 80;
            let case = g.wading.iter().find(|c| {
                c.wide == Some(wide) && c.state.unwrap_or_default() == river.state && fits(c)
            });
            let place = format!(
                "a river {}p wide{}",
                river.width,
                match river.state {
                    RiverState::Normal => "",
                    RiverState::Spate => ", in spate",
                    RiverState::Low => ", low",
                }
            );
            (case, g.water_rule.clone(), place)
        }
        (None, terrain) => {
            let case = terrain.as_ref().and_then(|t| {
                g.special
                    .iter()
                    .find(|c| c.terrain.as_deref() == Some(t.as_str()) && fits(c))
            });
            let place = terrain.clone().unwrap_or_else(|| "the terrain".into());
            (case, g.rule.clone(), place)
        }
    };
    let mut result = found.map_or(GoingFor::from(s.going), |c| c.going);
    // Mud makes some terrains worse for everyone; an element's own case stands if worse still
    // (R-DBMM-28).
    let muddy = match (&s.terrain, s.mud, &s.river) {
        (Some(t), true, None) => g
            .mud
            .iter()
            .find(|c| c.terrain.as_deref() == Some(t.as_str())),
        _ => None,
    };
    if let Some(m) = muddy {
        if m.going.rank() > result.rank() {
            result = m.going;
        }
    }
    let mut r = Resolution::certain(
        &data.system.id,
        "going",
        result.code(),
        &format!("{label} in {place}: {}.", result.words()),
        Vec::new(),
    );
    r.totals.push(Total::new(
        "Going",
        result.code(),
        &rule,
        muddy.map(|_| "R-DBMM-28"),
    ));
    if let Some(m) = muddy {
        r.notes
            .push(Note::new(m.text.clone(), &g.mud_rule, Some("R-DBMM-28")));
    }
    match found {
        Some(c) => r.notes.push(Note::new(c.text.clone(), &rule, None)),
        None if s.river.is_some() => {
            return Err(RefereeError::new(
                "situation.invalid_field",
                format!("the wading table has no line for {label} in {place}"),
            )
            .field("river")
            .rule(rule))
        }
        None => r.notes.push(Note::new(
            format!(
                "No special case of {place} for {label}: the terrain's own going ({}).",
                GoingFor::from(s.going).code()
            ),
            &rule,
            None,
        )),
    }
    Ok(r)
}
