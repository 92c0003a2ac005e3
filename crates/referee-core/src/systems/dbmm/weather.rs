//! Weather changes from the PIP averages (p. 25, WEATHER CHANGES): the wind's direction and
//! strength, the start and end of rain, snow or dust storm, fog and mist clearing; and the
//! weather's effects on combat and shooting (WEATHER EFFECT: wind, dazzle, thirst …) as lines
//! for the umpire. Thresholds and texts are `[weather]` in `rulesets/dbmm.toml` (R-DBMM-27).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use crate::contract::{Check, Note, Resolution, Total};
use crate::error::RefereeError;

const RULING: &str = "R-DBMM-27";
const COMPASS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// One effect of the weather on combat or shooting (p. 25), shown while it holds.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeatherEffect {
    pub key: String,
    pub text: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeatherChanges {
    pub rule: String,
    /// The Defender's average at or below which the wind shifts 45° clockwise.
    pub clockwise_at_most: i64,
    /// The Defender's average at or above which it shifts 45° anticlockwise.
    pub anticlockwise_at_least: i64,
    /// Any side's average at or above which a risk of rain, snow or dust storm starts.
    pub start_at_least: i64,
    /// Any side's average at or below which it ceases, or the risk ends.
    pub cease_at_most: i64,
    /// Any side's average at or below which fog or mist clears.
    pub clear_at_most: i64,
    /// Fog or mist clears this many hours after sunrise.
    pub clears_after_sunrise_hours: u32,
    pub effects: Vec<WeatherEffect>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Wind {
    #[default]
    None,
    Light,
    Strong,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    Rain,
    Snow,
    DustStorm,
}

impl Risk {
    fn word(self) -> &'static str {
        match self {
            Risk::Rain => "rain",
            Risk::Snow => "snow",
            Risk::DustStorm => "dust storm",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Haze {
    Fog,
    Mist,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeatherSituation {
    /// The Defender's PIP dice this bound.
    pub defender_pips: Vec<u32>,
    /// The Invader's PIP dice this bound.
    pub invader_pips: Vec<u32>,
    /// none (default), light or strong.
    #[serde(default)]
    pub wind: Wind,
    /// Where the wind blows from: N, NE, E, SE, S, SW, W, NW.
    #[serde(default)]
    pub wind_from: Option<String>,
    /// A risk of rain, snow or dust storm in the weather.
    #[serde(default)]
    pub risk: Option<Risk>,
    /// It has started: rain, snow or dust storm is falling.
    #[serde(default)]
    pub falling: bool,
    /// Fog or mist lies on the field.
    #[serde(default)]
    pub haze: Option<Haze>,
    /// Hours since sunrise (fog and mist clear 3 hours after it).
    #[serde(default)]
    pub hours_after_sunrise: Option<u32>,
    /// The weather's effects that hold now (WEATHER EFFECT): each is listed with what it does.
    #[serde(default)]
    pub effects: Vec<String>,
}

/// The mean of a side's PIP dice, exact.
fn average(dice: &[u32]) -> (u128, u128) {
    (
        dice.iter().map(|d| u128::from(*d)).sum(),
        dice.len() as u128,
    )
}

fn at_most((n, d): (u128, u128), limit: i64) -> bool {
    n <= limit.max(0) as u128 * d
}

fn at_least((n, d): (u128, u128), limit: i64) -> bool {
    n >= limit.max(0) as u128 * d
}

pub fn weather(data: &DbmmData, s: &WeatherSituation) -> Result<Resolution, RefereeError> {
    let w = &data.weather;
    for (dice, field) in [
        (&s.defender_pips, "defender_pips"),
        (&s.invader_pips, "invader_pips"),
    ] {
        if dice.is_empty() || dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(RefereeError::new(
                "situation.invalid_field",
                "a side's PIP dice this bound: one to six d6, each 1 to 6",
            )
            .field(field)
            .rule(data.pips.rule.clone()));
        }
    }
    let from = match (&s.wind, &s.wind_from) {
        (Wind::None, _) => None,
        (_, None) => {
            return Err(RefereeError::new(
                "situation.invalid_field",
                "a wind blows from a direction: give it as N, NE, E, SE, S, SW, W or NW",
            )
            .field("wind_from")
            .rule(w.rule.clone()))
        }
        (_, Some(dir)) => Some(
            COMPASS
                .iter()
                .position(|c| c.eq_ignore_ascii_case(dir.trim()))
                .ok_or_else(|| {
                    RefereeError::new(
                        "situation.invalid_field",
                        format!(
                            "{} is not a direction: N, NE, E, SE, S, SW, W or NW",
                            crate::error::given(dir)
                        ),
                    )
                    .field("wind_from")
                    .rule(w.rule.clone())
                })?,
        ),
    };
    if s.falling && s.risk.is_none() {
        return Err(RefereeError::new(
            "situation.invalid_field",
            "what is falling: give the risk it came from (rain, snow or dust storm)",
        )
        .field("risk")
        .rule(w.rule.clone()));
    }
    for (i, key) in s.effects.iter().enumerate() {
        if !w.effects.iter().any(|e| &e.key == key) {
            return Err(RefereeError::new(
                "situation.invalid_field",
                format!(
                    "no weather effect {}: the table has {}",
                    crate::error::given(key),
                    crate::error::choices(w.effects.iter().map(|e| e.key.as_str()))
                ),
            )
            .field(format!("effects[{i}]"))
            .rule(w.rule.clone()));
        }
    }
    let (def, inv) = (average(&s.defender_pips), average(&s.invader_pips));
    // Exact where whole; otherwise to two places, for display (the comparisons above are exact).
    let show = |(n, d): (u128, u128)| {
        if n % d == 0 {
            (n / d).to_string()
        } else {
            format!("{:.2}", n as f64 / d as f64)
        }
    };
    let mut totals = vec![
        Total::new("Defender's PIPs average", show(def), &w.rule, Some(RULING)),
        Total::new("Invader's PIPs average", show(inv), &w.rule, Some(RULING)),
    ];
    let mut notes = Vec::new();
    // The wind: the Defender's average turns it; a strong wind turned back (anticlockwise,
    // R-DBMM-27) drops to light.
    let wind_text = match (s.wind, from) {
        (Wind::None, _) | (_, None) => "No wind".to_string(),
        (strength, Some(at)) => {
            let (turned, shift) = if at_most(def, w.clockwise_at_most) {
                ((at + 1) % 8, Some("45° clockwise"))
            } else if at_least(def, w.anticlockwise_at_least) {
                ((at + 7) % 8, Some("45° anticlockwise"))
            } else {
                (at, None)
            };
            let strength = if strength == Wind::Strong && shift == Some("45° anticlockwise") {
                notes.push(Note::new(
                    "The strong wind shifted in reverse direction (anticlockwise): it is reduced to a light wind.",
                    &w.rule,
                    Some(RULING),
                ));
                Wind::Light
            } else {
                strength
            };
            let word = if strength == Wind::Strong {
                "Strong"
            } else {
                "Light"
            };
            match shift {
                Some(how) => format!("{word} wind {} (shifted {how})", COMPASS[turned]),
                None => format!("{word} wind {} (unchanged)", COMPASS[turned]),
            }
        }
    };
    totals.push(Total::new("Wind", wind_text, &w.rule, Some(RULING)));
    let starts = at_least(def, w.start_at_least) || at_least(inv, w.start_at_least);
    let ends = at_most(def, w.cease_at_most) || at_most(inv, w.cease_at_most);
    if let Some(risk) = s.risk {
        let word = risk.word();
        let text = match (s.falling, starts, ends) {
            // One side's average starts it and the other's ends it: they cancel (R-DBMM-27).
            (_, true, true) => format!(
                "{} (one average starts it, the other ends it: no change)",
                if s.falling {
                    format!("The {word} goes on")
                } else {
                    format!("Risk of {word} remains")
                }
            ),
            (true, _, true) => format!("The {word} ceases"),
            (true, _, false) => format!("The {word} goes on"),
            (false, true, false) => format!("The {word} starts"),
            (false, false, true) => format!("The risk of {word} ends"),
            (false, false, false) => format!("Risk of {word} remains"),
        };
        totals.push(Total::new(
            "Rain, snow or dust storm",
            text,
            &w.rule,
            Some(RULING),
        ));
    }
    if let Some(haze) = s.haze {
        let word = match haze {
            Haze::Fog => "fog",
            Haze::Mist => "mist",
        };
        let late = s
            .hours_after_sunrise
            .is_some_and(|h| h >= w.clears_after_sunrise_hours);
        let clears = at_most(def, w.clear_at_most) || at_most(inv, w.clear_at_most);
        let text = if late {
            format!(
                "The {word} clears ({} hours after sunrise)",
                w.clears_after_sunrise_hours
            )
        } else if clears {
            format!(
                "The {word} clears (a PIPs average of {} or less)",
                w.clear_at_most
            )
        } else {
            format!("The {word} stays")
        };
        totals.push(Total::new("Fog or mist", text, &w.rule, None));
    }
    let checks: Vec<Check> = s
        .effects
        .iter()
        .filter_map(|key| w.effects.iter().find(|e| &e.key == key))
        .map(|e| Check::umpire(e.text.clone(), &w.rule))
        .collect();
    notes.push(Note::new(
        "A side's PIPs average is the mean of its PIP dice this bound.",
        &w.rule,
        Some(RULING),
    ));
    let meaning = totals
        .iter()
        .skip(2)
        .map(|t| t.value.clone())
        .collect::<Vec<_>>()
        .join("; ")
        + ".";
    let mut r = Resolution::certain(&data.system.id, "weather", "weather", &meaning, Vec::new());
    r.totals = totals;
    r.notes = notes;
    r.checks = checks;
    Ok(r)
}
