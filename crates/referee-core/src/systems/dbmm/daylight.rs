//! Time and visibility (p. 23–25): the climate table's dawn, sunrise, sunset and dusk by climate
//! and season, the period of the day a clock time falls in (R-DBMM-19), and how far an element
//! sees in it and in the weather. The tables are `[daylight]` in `rulesets/dbmm.toml`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::combat::Time;
use super::data::DbmmData;
use crate::contract::{effect, Change, Check, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::rule_system::Opening;
use crate::state::clock::{clock_text, minutes_of};
use crate::state::BattleState;
use crate::ErrorCode;

/// One climate and season's four times, "HH:MM".
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DaylightRow {
    pub climate: String,
    pub season: String,
    pub dawn: String,
    pub sunrise: String,
    pub sunset: String,
    pub dusk: String,
    /// The row's weather cells of the climate table (p. 23–24), left to right, as the flattened
    /// sheet keeps them: columns 1–5 of the deployment dice's difference (R-DBMM-30).
    #[serde(default)]
    pub weathers: Vec<String>,
}

/// How far an element sees (p. 25); `paces` none: no limit.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sight {
    pub key: String,
    pub name: String,
    #[serde(default)]
    pub paces: Option<i64>,
    /// Its limit at night, where the weather table gives one apart (mist, overcast).
    #[serde(default)]
    pub night_paces: Option<i64>,
    /// The furthest a move goes in it (WEATHER EFFECT, p. 25), by day and at night.
    #[serde(default)]
    pub move_paces: Option<i64>,
    #[serde(default)]
    pub night_move_paces: Option<i64>,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Daylight {
    pub rule: String,
    pub visibility_rule: String,
    pub times: Vec<DaylightRow>,
    /// By the period of the day: day, dusk, dawn, night_moonlight, night_moonless.
    pub periods: Vec<Sight>,
    /// By the weather: clear, overcast, mist, fog, dust_storm, snow.
    pub weather: Vec<Sight>,
    /// Bounds of rain after which `rain_stops` can no longer shoot.
    pub rain_bounds: u32,
    pub rain_stops: String,
    /// The climate table's column 0, the same for every climate and season (R-DBMM-30).
    #[serde(default)]
    pub clear_column: String,
    /// The climate table's notes that lost their rows (R-DBMM-30).
    #[serde(default)]
    pub climate_notes: Vec<String>,
    /// MOON EFFECTS (p. 23), by the Invader's first deployment die (R-DBMM-31).
    pub moon: Moon,
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Moon {
    pub rule: String,
    pub ruling: String,
    pub rows: Vec<MoonRow>,
}

/// One row of MOON EFFECTS: the faces of the Invader's first deployment die that give it.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoonRow {
    pub faces: Vec<u32>,
    pub course: MoonCourse,
    /// In the sheet's words; "{die}" is the die's face.
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoonCourse {
    /// No moon all night.
    None,
    /// Rises at the start of the first night bound after the die's bound; sets after sunrise.
    Rises,
    /// Risen already at sunset; sets at the end of the first night bound after the die's bound.
    Sets,
}

/// The climate table's weather for a weather score (0–5) in a row, and whether the flattened
/// sheet says it for certain (R-DBMM-30): column 0 is the same for all; a row of five cells has
/// one per column, a row of one cell spans them all; otherwise the row's cells, in order, are
/// the choices.
pub fn climate_weather(d: &Daylight, row: &DaylightRow, score: u32) -> (Vec<String>, bool) {
    const COLUMNS: usize = 5;
    let cells = &row.weathers;
    match (score, cells.len()) {
        (0, _) => (vec![d.clear_column.clone()], true),
        (_, 0) => (Vec::new(), false),
        (s, COLUMNS) => (vec![cells[s as usize - 1].clone()], true),
        (_, 1) => (cells.clone(), true),
        _ => {
            let mut choices: Vec<String> = Vec::new();
            for c in cells {
                if !choices.contains(c) {
                    choices.push(c.clone());
                }
            }
            let certain = choices.len() == 1;
            (choices, certain)
        }
    }
}

impl Daylight {
    /// The visibility table's row for a weather (clear when none is given), or a refusal that
    /// lists the table's weathers.
    pub fn weather_named(&self, key: Option<&str>) -> Result<&Sight, RefereeError> {
        let key = key.unwrap_or("clear");
        self.weather.iter().find(|w| w.key == key).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationUnknownWeather,
                format!(
                    "no weather {}: the visibility table has {}",
                    crate::error::given(key),
                    crate::error::choices(self.weather.iter().map(|w| w.key.as_str()))
                ),
            )
            .field("weather")
            .rule(self.visibility_rule.clone())
        })
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DaylightSituation {
    /// The defender's climate: Cold, Cool, Warm, Dry, Tropical.
    pub climate: String,
    /// Spring, Summer, Autumn, Winter.
    pub season: String,
    /// The clock time, "HH:MM".
    pub clock: String,
    /// The weather (default clear).
    #[serde(default)]
    pub weather: Option<String>,
    /// A moonlit night (default moonless); with the moon die, the moon table says instead.
    #[serde(default)]
    pub moonlight: bool,
    /// The Invader's first deployment die, for MOON EFFECTS (p. 23).
    #[serde(default)]
    pub moon_die: Option<u32>,
    /// The battle's bound now, counting every bound of both sides from the first (for the moon).
    #[serde(default)]
    pub bound: Option<u32>,
    /// The battle's bound in which this night began (default the bound now).
    #[serde(default)]
    pub night_began: Option<u32>,
    /// Applied to a battle, the check starts the battle's clock: the bound given (default 1)
    /// begins at the clock time given, in this climate and season, with the moon die when given
    /// (p. 23, R-DBMM-39).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub starts_clock: bool,
    /// Troops inside a terrain: whether they are seen, and see out (p. 25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<super::sight::InTerrain>,
}

/// The check opened from a battle (p. 23, R-DBMM-39): with the battle's clock started, its bound
/// now, the time, climate, season, the bound its night began and the moon die filled from it —
/// the umpire gives the weather only; without it (or without the moon die yet), what it needs,
/// which the result applied keeps for the rest of the battle.
pub fn open_battle(data: &DbmmData, state: &BattleState) -> Result<Opening, RefereeError> {
    use super::clock;
    let bound = state.turn.max(1);
    let now = state
        .clock
        .as_ref()
        .and_then(|c| Some((c, clock::now(data, c, bound)?)));
    let (situation, asks) = match now {
        Some((c, now)) => {
            let situation = DaylightSituation {
                climate: now.row.climate.clone(),
                season: now.row.season.clone(),
                clock: clock_text(now.at),
                // The weather set with the clock, read rather than asked again (p. 25).
                weather: c.weather.clone(),
                moonlight: false,
                moon_die: c.moon_die,
                bound: Some(bound),
                night_began: now.night_began,
                starts_clock: c.moon_die.is_none(),
                sight: None,
            };
            let asks = if c.moon_die.is_none() {
                vec![format!(
                    "The Invader's first deployment die, for the moon: applied, the battle keeps it ({}).",
                    data.daylight.moon.rule
                )]
            } else {
                Vec::new()
            };
            (serde_json::to_value(&situation), asks)
        }
        None => (
            Ok(serde_json::json!({ "bound": bound, "starts_clock": true })),
            vec![format!(
                "The time bound {bound} begins, the defender's climate and the season: applied, the battle keeps its clock, 10 minutes a bound ({}).",
                clock::RULE
            )],
        ),
    };
    let situation = situation.map_err(|_| crate::rule_system::fight::not_a_combat("daylight"))?;
    // The box in the rules' words, not its field's name ("Starts clock").
    let labels = [(
        "starts_clock".to_string(),
        format!(
            "The battle keeps this time as its clock: each bound adds 10 minutes ({})",
            clock::RULE
        ),
    )]
    .into();
    Ok(Opening::new(&situation, Default::default(), asks)?.worded(Vec::new(), labels))
}

/// Whether the moon is up in a night bound (p. 23, R-DBMM-31): the first night bound after the
/// die's bound is the later of the night's first bound and the die's bound + 1; a rising moon
/// is up from it on, a setting one until its end.
pub fn moon_up(course: MoonCourse, die: u32, bound: u32, night_began: u32) -> bool {
    let turning = night_began.max(die + 1);
    match course {
        MoonCourse::None => false,
        MoonCourse::Rises => bound >= turning,
        MoonCourse::Sets => bound <= turning,
    }
}

/// A time of the ruleset's table ("06:10") in minutes after midnight; the ruleset's own times
/// are checked when it loads.
pub(super) fn table_minutes(text: &str) -> u32 {
    minutes_of(text).unwrap_or(0)
}

/// The period of the day at `at` minutes after midnight (p. 23).
pub(super) fn period(row: &DaylightRow, at: u32) -> Time {
    let t = table_minutes;
    if at >= t(&row.dusk) || at < t(&row.dawn) {
        Time::Night
    } else if at < t(&row.sunrise) {
        Time::Dawn
    } else if at < t(&row.sunset) {
        Time::Day
    } else {
        Time::Dusk
    }
}

/// The visibility table's row for a period of the day.
pub(super) fn period_key(time: Time, moonlight: bool) -> &'static str {
    match time {
        Time::Day => "day",
        Time::Dusk => "dusk",
        Time::Dawn => "dawn",
        Time::Night if moonlight => "night_moonlight",
        Time::Night => "night_moonless",
    }
}

pub fn daylight(data: &DbmmData, s: &DaylightSituation) -> Result<Resolution, RefereeError> {
    let d = &data.daylight;
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b.trim());
    let row = d
        .times
        .iter()
        .find(|r| same(&r.climate, &s.climate) && same(&r.season, &s.season))
        .ok_or_else(|| {
            let mut climates: Vec<&str> = d.times.iter().map(|r| r.climate.as_str()).collect();
            climates.dedup();
            RefereeError::new(
                ErrorCode::SituationUnknownClimate,
                format!(
                    "the climate table has no {} {}: climates are {}, seasons Spring, Summer, Autumn, Winter",
                    s.climate,
                    s.season,
                    climates.join(", ")
                ),
            )
            .field("climate")
            .rule(d.rule.clone())
        })?;
    let at = minutes_of(&s.clock).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationInvalidClock,
            format!(
                "{} is not a time of day: write it as hours and minutes, 18:40",
                crate::error::given(&s.clock)
            ),
        )
        .field("clock")
        .rule(d.rule.clone())
    })?;
    let time = period(row, at);
    // Bounds are counted from the first, 1.
    for (field, bound) in [("bound", s.bound), ("night_began", s.night_began)] {
        if bound == Some(0) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidRange,
                "bounds are counted from 1, the battle's first bound",
            )
            .field(field)
            .rule(d.moon.rule.clone()));
        }
    }
    let moon = match s.moon_die {
        None => None,
        Some(die) => {
            let m = &d.moon;
            let found = m
                .rows
                .iter()
                .find(|r| r.faces.contains(&die))
                .ok_or_else(|| {
                    RefereeError::new(
                        ErrorCode::SituationInvalidRange,
                        format!("a die shows 1 to 6, not {die}"),
                    )
                    .field("moon_die")
                    .rule(m.rule.clone())
                })?;
            let began = s.night_began.or(s.bound);
            if let (Some(b), Some(n)) = (s.bound, began) {
                if n > b {
                    return Err(RefereeError::new(
                        ErrorCode::SituationInvalidRange,
                        format!("the night cannot begin in bound {n}, after the bound now ({b})"),
                    )
                    .field("night_began")
                    .rule(m.rule.clone()));
                }
            }
            let up = match (time, s.bound, began) {
                (Time::Night, Some(b), Some(n)) => Some(moon_up(found.course, die, b, n)),
                (Time::Night, _, _) if found.course == MoonCourse::None => Some(false),
                (Time::Night, _, _) => None,
                _ => Some(false),
            };
            Some((found, die, up))
        }
    };
    let moonlight = match moon {
        Some((_, _, Some(up))) => up,
        _ => s.moonlight,
    };
    let period_key = period_key(time, moonlight);
    let weather = d.weather_named(s.weather.as_deref())?;
    let by_period = d.periods.iter().find(|p| p.key == period_key);
    let night = time == Time::Night;
    let (weather_sight, weather_move) = if night {
        (
            weather.night_paces.or(weather.paces),
            weather.night_move_paces.or(weather.move_paces),
        )
    } else {
        (weather.paces, weather.move_paces)
    };
    // The shorter of the two limits holds.
    let limits = [by_period.and_then(|p| p.paces), weather_sight];
    let sight = limits.iter().flatten().min().copied();
    let seen = sight.map_or("no limit".to_string(), |p| format!("{p}p"));
    let word = match time {
        Time::Day => "day",
        Time::Dusk => "dusk (sunset until dusk)",
        Time::Dawn => "dawn (dawn until sunrise)",
        Time::Night => "night (dusk until dawn)",
    };
    let effects = if s.starts_clock {
        vec![start_clock(row, s, at, &weather.name)]
    } else {
        Vec::new()
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "daylight",
        period_key,
        &format!(
            "At {} in a {} {}: {word}; elements see {seen}.",
            s.clock.trim(),
            row.climate,
            row.season,
        ),
        effects,
    );
    for (label, value) in [
        ("Dawn", &row.dawn),
        ("Sunrise", &row.sunrise),
        ("Sunset", &row.sunset),
        ("Dusk", &row.dusk),
    ] {
        r.totals
            .push(Total::new(label, value.clone(), &d.rule, None));
    }
    r.totals
        .push(Total::new("Time of day", word, &d.rule, Some("R-DBMM-19")));
    r.totals
        .push(Total::new("Visibility", seen, &d.visibility_rule, None));
    if let Some(most) = weather_move {
        r.totals.push(Total::new(
            format!("Moves at most ({})", weather.name),
            format!("{most}p"),
            &d.visibility_rule,
            None,
        ));
    }
    if let Some((found, die, up)) = moon {
        let m = &d.moon;
        let course = found.text.replace("{die}", &die.to_string());
        r.totals.push(Total::new(
            "The moon",
            match (up, time) {
                (_, t) if t != Time::Night => course,
                (Some(true), _) => format!("{course}: up now"),
                (Some(false), _) => format!("{course}: not up now"),
                (None, _) => course,
            },
            &m.rule,
            Some(&m.ruling),
        ));
        if up.is_none() {
            r.checks.push(
                Check::umpire(
                    "Whether the moon is up: give the battle's bound now to have it counted",
                    &m.rule,
                )
                .ruling(Some(&m.ruling)),
            );
        }
    }
    if let Some(t) = &s.sight {
        let (totals, checks) = super::sight::in_terrain(data, t, &row.season, &row.climate, sight)?;
        r.totals.extend(totals);
        r.checks.extend(checks);
    }
    r.notes.push(Note::new(
        "An element or group that cannot see enemy cannot move closer to enemy or to the enemy's rear battlefield edge; the time of day is the close combat's time.",
        &d.rule,
        None,
    ));
    Ok(r)
}

/// The effect that starts the battle's clock from the check: the first bound's time, the clock
/// run back from the bound given (p. 23, R-DBMM-39).
fn start_clock(
    row: &DaylightRow,
    s: &DaylightSituation,
    at: u32,
    weather_name: &str,
) -> crate::contract::Effect {
    let bound = s.bound.unwrap_or(1);
    let start = clock_text(super::clock::first_bound_at(at, bound));
    let moon = s.moon_die.map_or(String::new(), |d| {
        format!("; the moon by the Invader's {d}")
    });
    let mut e = effect(
        Target::Battle,
        Change::BattleClock {
            start,
            climate: row.climate.clone(),
            season: row.season.clone(),
            moon_die: s.moon_die,
            weather: s.weather.clone(),
        },
        super::clock::RULE,
        Some(super::clock::RULING),
    );
    let weather = match s.weather {
        Some(_) => format!(", {weather_name}"),
        None => String::new(),
    };
    e.what = format!(
        "the battle's clock: bound {bound} at {}, {} {}{moon}{weather}",
        clock_text(at),
        row.climate,
        row.season
    );
    e.text = format!("{}.", crate::error::sentence(&e.what));
    e
}
