//! Going by element (p. 19–20): the terrain's going, changed for elephants, camelry and chariots
//! in the special cases of the terrain definitions, and a river's going for wading troops by its
//! width and state. The cases are `[going]` in `rulesets/dbmm.toml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::{DbmmData, Going};
use super::element::{self, Element};
use crate::contract::{Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

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
    /// TERRAIN DEFINITIONS (p. 19): each terrain's own going (R-DBMM-33).
    #[serde(default)]
    pub terrain_going: Vec<TerrainGoing>,
    #[serde(default)]
    pub terrain_going_ruling: Option<String>,
    /// The starred terrains: group moves in column, of Ps only, or into close combat.
    #[serde(default)]
    pub column_only: Vec<String>,
    #[serde(default)]
    pub column_only_text: String,
}

/// One column of the terrain definitions: the terrains whose own going it is.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainGoing {
    pub going: Going,
    pub terrains: Vec<String>,
}

impl GoingTables {
    /// A terrain's own going by the terrain definitions, if it is one of theirs.
    pub fn of_terrain(&self, code: &str) -> Option<Going> {
        self.terrain_going
            .iter()
            .find(|c| c.terrains.iter().any(|t| t == code))
            .map(|c| c.going)
    }
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
    /// The terrain's going for other troops; by default the terrain definitions' going for the
    /// terrain named, else good going. Given, it stands (frozen, or the umpire's reading).
    #[serde(default)]
    pub going: Option<Going>,
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
                ErrorCode::SituationInvalidField,
                "an element wades a river or stands in a terrain: give one of them",
            )
            .field("river")
            .rule(g.water_rule.clone()))
        }
        (Some(river), None) => {
            if river.width <= 0 {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidRange,
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
    // The terrain's own going: the umpire's if given, else the terrain definitions' (R-DBMM-33).
    let listed = s.terrain.as_deref().and_then(|t| g.of_terrain(t));
    if let (None, None, None, Some(t)) = (s.going, listed, found, &s.terrain) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            format!(
                "The terrain definitions give no going for {t}: give the going you read for it (a river is waded as a river)"
            ),
        )
        .field("going")
        .rule(g.rule.clone()));
    }
    let own = s.going.or(listed).unwrap_or(Going::GGo);
    let mut result = found.map_or(GoingFor::from(own), |c| c.going);
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
                ErrorCode::SituationInvalidField,
                format!("the wading table has no line for {label} in {place}"),
            )
            .field("river")
            .rule(rule))
        }
        None => r.notes.push(Note::new(
            format!(
                "No special case of {place} for {label}: the terrain's own going ({}).",
                GoingFor::from(own).code()
            ),
            &rule,
            None,
        )),
    }
    match (s.going, listed, &s.terrain) {
        (None, Some(l), Some(t)) => r.notes.push(Note::new(
            format!(
                "{t} is {} by the terrain definitions.",
                GoingFor::from(l).words()
            ),
            &g.rule,
            g.terrain_going_ruling.as_deref(),
        )),
        (Some(given), Some(l), Some(t)) if given != l => r.notes.push(Note::new(
            format!(
                "The going given ({}) stands, though the terrain definitions make {t} {}: frozen, or the umpire's reading.",
                GoingFor::from(given).code(),
                GoingFor::from(l).words()
            ),
            &g.rule,
            g.terrain_going_ruling.as_deref(),
        )),
        _ => {}
    }
    if s.terrain
        .as_ref()
        .is_some_and(|t| g.column_only.contains(t))
    {
        r.notes
            .push(Note::new(g.column_only_text.clone(), &g.rule, None));
    }
    Ok(r)
}
