//! Weather changes from the PIP averages (p. 25, WEATHER CHANGES): the wind's direction and
//! strength, the start and end of rain, snow or dust storm, fog and mist clearing; and the
//! weather's effects on combat and shooting (WEATHER EFFECT: wind, dazzle, thirst …) as lines
//! for the umpire. Thresholds and texts are `[weather]` in `rulesets/dbmm.toml` (R-DBMM-27).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::data::DbmmData;
use crate::contract::{Check, Note, Resolution, Total};
use crate::error::RefereeError;
use crate::ErrorCode;

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

/// The situation's refusals (p. 25): each side's PIP dice, the wind's direction, what is falling
/// and the effects named; the wind's direction as an index of the compass when a wind blows.
fn check(data: &DbmmData, s: &WeatherSituation) -> Result<Option<usize>, RefereeError> {
    let w = &data.weather;
    for (dice, field) in [
        (&s.defender_pips, "defender_pips"),
        (&s.invader_pips, "invader_pips"),
    ] {
        if dice.is_empty() || dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "a side's PIP dice this bound: one to six d6, each 1 to 6",
            )
            .field(field)
            .rule(data.pips.rule.clone()));
        }
    }
    let from = wind_from(w, s)?;
    if s.falling && s.risk.is_none() {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "what is falling: give the risk it came from (rain, snow or dust storm)",
        )
        .field("risk")
        .rule(w.rule.clone()));
    }
    for (i, key) in s.effects.iter().enumerate() {
        if !w.effects.iter().any(|e| &e.key == key) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
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
    Ok(from)
}

/// Where a blowing wind comes from, as an index of the compass; none when no wind blows.
fn wind_from(w: &WeatherChanges, s: &WeatherSituation) -> Result<Option<usize>, RefereeError> {
    match (&s.wind, &s.wind_from) {
        (Wind::None, _) => Ok(None),
        (_, None) => Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "a wind blows from a direction: give it as N, NE, E, SE, S, SW, W or NW",
        )
        .field("wind_from")
        .rule(w.rule.clone())),
        (_, Some(dir)) => COMPASS
            .iter()
            .position(|c| c.eq_ignore_ascii_case(dir.trim()))
            .map(Some)
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    format!(
                        "{} is not a direction: N, NE, E, SE, S, SW, W or NW",
                        crate::error::given(dir)
                    ),
                )
                .field("wind_from")
                .rule(w.rule.clone())
            }),
    }
}

/// An average as shown: exact where whole; otherwise to two places, for display only (the
/// comparisons are exact).
fn shown_average((n, d): (u128, u128)) -> String {
    if n % d == 0 {
        (n / d).to_string()
    } else {
        format!("{:.2}", n as f64 / d as f64)
    }
}

/// The wind after the Defender's average turns it (p. 25), and the note when a strong wind turned
/// back (anticlockwise) drops to light (R-DBMM-27).
fn wind_change(
    w: &WeatherChanges,
    wind: Wind,
    from: Option<usize>,
    def: (u128, u128),
) -> (String, Option<Note>) {
    let (strength, at) = match (wind, from) {
        (Wind::None, _) | (_, None) => return ("No wind".to_string(), None),
        (strength, Some(at)) => (strength, at),
    };
    let (turned, shift) = if at_most(def, w.clockwise_at_most) {
        ((at + 1) % 8, Some("45° clockwise"))
    } else if at_least(def, w.anticlockwise_at_least) {
        ((at + 7) % 8, Some("45° anticlockwise"))
    } else {
        (at, None)
    };
    let backed = strength == Wind::Strong && shift == Some("45° anticlockwise");
    let note = backed.then(|| {
        Note::new(
            "The strong wind shifted in reverse direction (anticlockwise): it is reduced to a light wind.",
            &w.rule,
            Some(RULING),
        )
    });
    let word = if strength == Wind::Strong && !backed {
        "Strong"
    } else {
        "Light"
    };
    let text = match shift {
        Some(how) => format!("{word} wind {} (shifted {how})", COMPASS[turned]),
        None => format!("{word} wind {} (unchanged)", COMPASS[turned]),
    };
    (text, note)
}

/// What becomes of a risk of rain, snow or dust storm, or of one falling (p. 25): any side's
/// average may start it or end it.
fn precipitation(
    w: &WeatherChanges,
    risk: Risk,
    falling: bool,
    def: (u128, u128),
    inv: (u128, u128),
) -> String {
    let starts = at_least(def, w.start_at_least) || at_least(inv, w.start_at_least);
    let ends = at_most(def, w.cease_at_most) || at_most(inv, w.cease_at_most);
    let word = risk.word();
    match (falling, starts, ends) {
        // One side's average starts it and the other's ends it: they cancel (R-DBMM-27).
        (_, true, true) => format!(
            "{} (one average starts it, the other ends it: no change)",
            if falling {
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
    }
}

/// Whether fog or mist clears (p. 25): some hours after sunrise, or on a low enough average.
fn haze_change(
    w: &WeatherChanges,
    haze: Haze,
    hours_after_sunrise: Option<u32>,
    def: (u128, u128),
    inv: (u128, u128),
) -> String {
    let word = match haze {
        Haze::Fog => "fog",
        Haze::Mist => "mist",
    };
    let late = hours_after_sunrise.is_some_and(|h| h >= w.clears_after_sunrise_hours);
    let clears = at_most(def, w.clear_at_most) || at_most(inv, w.clear_at_most);
    if late {
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
    }
}

pub fn weather(data: &DbmmData, s: &WeatherSituation) -> Result<Resolution, RefereeError> {
    let w = &data.weather;
    let from = check(data, s)?;
    let (def, inv) = (average(&s.defender_pips), average(&s.invader_pips));
    let mut totals = vec![
        Total::new(
            "Defender's PIPs average",
            shown_average(def),
            &w.rule,
            Some(RULING),
        ),
        Total::new(
            "Invader's PIPs average",
            shown_average(inv),
            &w.rule,
            Some(RULING),
        ),
    ];
    let (wind_text, backed) = wind_change(w, s.wind, from, def);
    let mut notes: Vec<Note> = backed.into_iter().collect();
    totals.push(Total::new("Wind", wind_text, &w.rule, Some(RULING)));
    if let Some(risk) = s.risk {
        totals.push(Total::new(
            "Rain, snow or dust storm",
            precipitation(w, risk, s.falling, def, inv),
            &w.rule,
            Some(RULING),
        ));
    }
    if let Some(haze) = s.haze {
        totals.push(Total::new(
            "Fog or mist",
            haze_change(w, haze, s.hours_after_sunrise, def, inv),
            &w.rule,
            None,
        ));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dbmm::test_data as data;

    fn situation(v: serde_json::Value) -> WeatherSituation {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_wind_needs_a_direction_on_the_compass() {
        let d = data();
        let blowing = |from: serde_json::Value| {
            situation(serde_json::json!({
                "defender_pips": [3], "invader_pips": [3], "wind": "light", "wind_from": from
            }))
        };
        assert_eq!(
            wind_from(&d.weather, &blowing("sw".into())).unwrap(),
            Some(5)
        );
        assert_eq!(
            wind_from(&d.weather, &blowing(" NW ".into())).unwrap(),
            Some(7)
        );
        let e = wind_from(&d.weather, &blowing("up".into())).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("wind_from"));
        let calm = situation(serde_json::json!({ "defender_pips": [3], "invader_pips": [3] }));
        assert_eq!(wind_from(&d.weather, &calm).unwrap(), None);
    }

    #[test]
    fn the_checks_refuse_a_die_of_seven_and_rain_falling_from_no_risk() {
        let d = data();
        let seven = situation(serde_json::json!({ "defender_pips": [7], "invader_pips": [3] }));
        assert_eq!(
            check(&d, &seven).unwrap_err().field.as_deref(),
            Some("defender_pips")
        );
        let falling = situation(serde_json::json!({
            "defender_pips": [3], "invader_pips": [3], "falling": true
        }));
        assert_eq!(
            check(&d, &falling).unwrap_err().field.as_deref(),
            Some("risk")
        );
    }

    #[test]
    fn an_average_is_whole_or_shown_to_two_places() {
        assert_eq!(shown_average(average(&[6, 5])), "5.50");
        assert_eq!(shown_average(average(&[1, 2, 3])), "2");
        assert_eq!(shown_average(average(&[1, 1, 2])), "1.33");
    }

    #[test]
    fn the_defenders_average_turns_the_wind_and_a_strong_wind_backing_drops_to_light() {
        // p. 25: 2 or less shifts it 45° clockwise, 5 or more 45° anticlockwise (R-DBMM-27).
        let d = data();
        let w = &d.weather;
        let (text, note) = wind_change(w, Wind::Strong, Some(5), average(&[1, 2, 3]));
        assert_eq!(text, "Strong wind W (shifted 45° clockwise)");
        assert!(note.is_none());
        let (text, note) = wind_change(w, Wind::Strong, Some(0), average(&[6, 5]));
        assert_eq!(text, "Light wind NW (shifted 45° anticlockwise)");
        assert!(note.is_some());
        let (text, _) = wind_change(w, Wind::Light, Some(2), average(&[3, 4]));
        assert_eq!(text, "Light wind E (unchanged)");
        assert_eq!(wind_change(w, Wind::None, None, average(&[1])).0, "No wind");
    }

    #[test]
    fn one_average_starting_rain_and_the_other_ending_it_cancel() {
        // p. 25: 5 or more starts it, 3 or less ends it; both at once change nothing.
        let d = data();
        let w = &d.weather;
        let (high, low, mid) = (average(&[6, 5]), average(&[1, 2]), average(&[4]));
        assert_eq!(
            precipitation(w, Risk::Rain, false, low, high),
            "Risk of rain remains (one average starts it, the other ends it: no change)"
        );
        assert_eq!(
            precipitation(w, Risk::Snow, false, mid, high),
            "The snow starts"
        );
        assert_eq!(
            precipitation(w, Risk::DustStorm, true, mid, low),
            "The dust storm ceases"
        );
        assert_eq!(
            precipitation(w, Risk::Rain, false, mid, low),
            "The risk of rain ends"
        );
        assert_eq!(
            precipitation(w, Risk::Rain, true, mid, mid),
            "The rain goes on"
        );
    }

    #[test]
    fn fog_clears_three_hours_after_sunrise_or_on_an_average_of_three_or_less() {
        let d = data();
        let w = &d.weather;
        let (low, mid) = (average(&[1, 2]), average(&[4, 5]));
        assert_eq!(
            haze_change(w, Haze::Fog, Some(3), mid, mid),
            "The fog clears (3 hours after sunrise)"
        );
        assert_eq!(
            haze_change(w, Haze::Mist, Some(2), mid, low),
            "The mist clears (a PIPs average of 3 or less)"
        );
        assert_eq!(haze_change(w, Haze::Fog, None, mid, mid), "The fog stays");
    }
}
