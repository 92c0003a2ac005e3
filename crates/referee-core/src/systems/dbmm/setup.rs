//! Setting up a battle (p. 18–22, 23, 26): dicing for aggression (Invader and Defender), the
//! season, the Defender's facing, dicing for deployment (who deploys first, the weather score, the
//! hour deployment is complete), when the battle starts and who takes the first bound — exactly,
//! over every throw; and the two dice that place a terrain (p. 20). Tables are `[setup]` in
//! `rulesets/dbmm.toml`; the readings of the flattened sheet are R-DBMM-25 and R-DBMM-26.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::combat::Time;
use super::data::DbmmData;
use super::daylight;
use crate::contract::{
    Chance, Check, Note, Outcome, Resolution, ResultOdds, Shown, SideThrow, Total,
};
use crate::error::RefereeError;
use crate::odds::Probability;
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};
use crate::ErrorCode;

const SETUP_RULING: &str = "R-DBMM-25";
const FIRST_BOUND_RULING: &str = "R-DBMM-26";
const CLIMATE_RULING: &str = "R-DBMM-30";

#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupTables {
    /// "p. 18": aggression, season, facing.
    pub rule: String,
    pub deployment_rule: String,
    pub time_rule: String,
    pub first_bound_rule: String,
    pub terrain_rule: String,
    /// The least and greatest aggression factor an army list gives.
    pub aggression: [i64; 2],
    /// The seasons in the order one follows another.
    pub seasons: Vec<String>,
    /// The optional adjustments of a deployment die (+3 or −1) and who may take them.
    pub adjustments: Vec<i64>,
    pub adjustment_text: String,
    /// Visibility below which the Invader takes the first bound.
    pub first_bound_visibility: i64,
    /// The six faces of the first terrain die: the battlefield edge.
    pub edges: Vec<String>,
    /// Paces per pip of the second terrain die.
    pub distance_step: i64,
    /// The fixed order of placing terrain: stage by stage, the terrain codes.
    pub placement_order: Vec<Vec<String>>,
    /// Placed where the chooser wants, without dicing.
    pub without_dice: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupSide {
    #[serde(default)]
    pub name: String,
    /// The army list's aggression factor (0–4).
    pub aggression: i64,
    /// The season its C-in-C nominates.
    pub season: String,
    /// Its army list's climate (the battle is in the Defender's).
    pub climate: String,
    /// Added to its deployment die: +3 or −1, only if every element it deploys at first is
    /// Mounted, Ps or Bge (F).
    #[serde(default)]
    pub deployment_adjustment: i64,
    /// Every element it deploys at first is Mounted, Ps or Bge (F).
    #[serde(default)]
    pub mounted_ps_bge_only: bool,
    /// Its C-in-C is Inert.
    #[serde(default)]
    pub inert_c_in_c: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupSituation {
    /// The two armies, in the order their dice are given.
    pub sides: Vec<SetupSide>,
    /// The weather when the battle starts (default clear), for visibility and the first bound.
    #[serde(default)]
    pub weather: Option<String>,
    /// If deployment ends between dusk and dawn, the side deploying second starts a night
    /// attack; if not, the battle starts at sunrise.
    #[serde(default)]
    pub night_attack: bool,
}

fn side_name(s: &SetupSide, i: usize) -> String {
    if s.name.trim().is_empty() {
        format!("Army {}", i + 1)
    } else {
        s.name.trim().to_string()
    }
}

/// What one deciding aggression throw and one deciding deployment throw make of the set-up.
struct Setup {
    invader: usize,
    season_delay: usize,
    /// The battle's season, as an index of the seasons.
    season: usize,
    faces_west: bool,
    defender_deploys_first: bool,
    weather_score: u32,
    hour: u32,
    starts: String,
    visibility: Option<i64>,
    invader_first_bound: bool,
}

fn clock(at: u32) -> String {
    format!("{:02}:{:02}", at / 60 % 24, at % 60)
}

struct Checked<'a> {
    names: [String; 2],
    seasons: [usize; 2],
    rows: [&'a daylight::DaylightRow; 2],
    weather: &'a daylight::Sight,
}

fn check<'a>(data: &'a DbmmData, s: &SetupSituation) -> Result<Checked<'a>, RefereeError> {
    let t = &data.setup;
    if s.sides.len() != 2 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "a battle is set up by two armies: give both sides",
        )
        .field("sides")
        .rule(t.rule.clone()));
    }
    let same = |a: &str, b: &str| a.eq_ignore_ascii_case(b.trim());
    let mut seasons = [0; 2];
    let mut rows = Vec::new();
    for (i, side) in s.sides.iter().enumerate() {
        let [lo, hi] = t.aggression;
        if !(lo..=hi).contains(&side.aggression) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidRange,
                format!(
                    "an army's aggression factor is {lo} to {hi}: {} cannot be",
                    side.aggression
                ),
            )
            .field(format!("sides[{i}].aggression"))
            .rule(t.rule.clone()));
        }
        seasons[i] = t
            .seasons
            .iter()
            .position(|x| same(x, &side.season))
            .ok_or_else(|| {
                RefereeError::new(
                    ErrorCode::SituationUnknownSeason,
                    format!(
                        "no season {}: the seasons are {}",
                        crate::error::given(&side.season),
                        t.seasons.join(", ")
                    ),
                )
                .field(format!("sides[{i}].season"))
                .rule(t.rule.clone())
            })?;
        let row = data
            .daylight
            .times
            .iter()
            .find(|r| same(&r.climate, &side.climate))
            .ok_or_else(|| {
                let mut climates: Vec<&str> = data
                    .daylight
                    .times
                    .iter()
                    .map(|r| r.climate.as_str())
                    .collect();
                climates.dedup();
                RefereeError::new(
                    ErrorCode::SituationUnknownClimate,
                    format!(
                        "the climate table has no climate {}: climates are {}",
                        crate::error::given(&side.climate),
                        climates.join(", ")
                    ),
                )
                .field(format!("sides[{i}].climate"))
                .rule(data.daylight.rule.clone())
            })?;
        rows.push(row);
        if side.deployment_adjustment != 0 {
            if !t.adjustments.contains(&side.deployment_adjustment) {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    format!(
                        "a deployment die is adjusted by {} or not at all: {} cannot be",
                        t.adjustments
                            .iter()
                            .map(|a| format!("{a:+}"))
                            .collect::<Vec<_>>()
                            .join(" or "),
                        side.deployment_adjustment
                    ),
                )
                .field(format!("sides[{i}].deployment_adjustment"))
                .rule(t.deployment_rule.clone()));
            }
            if !side.mounted_ps_bge_only {
                return Err(RefereeError::new(
                    ErrorCode::SituationInvalidField,
                    format!(
                        "{} may adjust its deployment die only {}",
                        side_name(side, i),
                        t.adjustment_text
                    ),
                )
                .field(format!("sides[{i}].deployment_adjustment"))
                .rule(t.deployment_rule.clone()));
            }
        }
    }
    let weather = data.daylight.weather_named(s.weather.as_deref())?;
    Ok(Checked {
        names: [side_name(&s.sides[0], 0), side_name(&s.sides[1], 1)],
        seasons,
        rows: [rows[0], rows[1]],
        weather,
    })
}

/// The climate table's row for the Defender's climate in the battle's season.
fn season_row<'a>(
    data: &'a DbmmData,
    c: &Checked<'a>,
    defender: usize,
    season: usize,
) -> &'a daylight::DaylightRow {
    let climate = &c.rows[defender].climate;
    let season = &data.setup.seasons[season];
    data.daylight
        .times
        .iter()
        .find(|r| &r.climate == climate && r.season.eq_ignore_ascii_case(season))
        .unwrap_or(c.rows[defender])
}

/// Everything that follows from one deciding aggression throw (`a`, raw dice of sides 0 and 1),
/// the number of equal throws before it, and the deciding deployment throw (`d`: Invader's and
/// Defender's raw dice).
fn settle(
    data: &DbmmData,
    s: &SetupSituation,
    c: &Checked,
    a: [i64; 2],
    ties: usize,
    d: [i64; 2],
) -> Setup {
    let t = &data.setup;
    let score = |i: usize| a[i] + s.sides[i].aggression;
    let invader = if score(0) > score(1) { 0 } else { 1 };
    let defender = 1 - invader;
    let adj = |die: i64, side: usize| die + s.sides[side].deployment_adjustment;
    let (inv, def) = (adj(d[0], invader), adj(d[1], defender));
    // "Doubles" is at least twice (R-DBMM-25).
    let defender_deploys_first = inv < 2 * def;
    let season = (c.seasons[invader] + ties) % t.seasons.len();
    let row = season_row(data, c, defender, season);
    let hour = (d[0] + d[1]) as u32;
    let done = hour * 60;
    let minutes = daylight::table_minutes;
    let (dawn, sunrise, dusk) = (
        minutes(&row.dawn),
        minutes(&row.sunrise),
        minutes(&row.dusk),
    );
    let dark = done >= dusk || done < dawn;
    let (start, starts) = if dark && !s.night_attack {
        (sunrise, format!("{} (sunrise)", row.sunrise))
    } else if dark {
        (done, format!("{} (a night attack)", clock(done)))
    } else {
        (done, clock(done))
    };
    let start_period = daylight::period(row, start);
    let period_key = daylight::period_key(start_period, false);
    let by_period = data
        .daylight
        .periods
        .iter()
        .find(|p| p.key == period_key)
        .and_then(|p| p.paces);
    let by_weather = if start_period == Time::Night {
        c.weather.night_paces.or(c.weather.paces)
    } else {
        c.weather.paces
    };
    let visibility = [by_period, by_weather].into_iter().flatten().min();
    let inert = [
        s.sides[invader].inert_c_in_c,
        s.sides[defender].inert_c_in_c,
    ];
    let invader_first_bound = match inert {
        [true, false] => false,
        [false, true] => true,
        _ => !defender_deploys_first || visibility.is_some_and(|v| v < t.first_bound_visibility),
    };
    Setup {
        invader,
        season_delay: ties,
        season,
        faces_west: a[defender] % 2 == 1,
        defender_deploys_first,
        weather_score: (d[0] - d[1]).unsigned_abs() as u32,
        hour,
        starts,
        visibility,
        invader_first_bound,
    }
}

fn dice_error(text: &str) -> RefereeError {
    RefereeError::new(ErrorCode::DiceInvalid, text.to_string()).field("dice")
}

/// Both sides' aggression scores for one throw (`die`: sides 0 and 1): each die plus its army's
/// aggression factor (p. 18).
fn aggression_scores(s: &SetupSituation, die: [i64; 2]) -> [i64; 2] {
    [
        die[0] + s.sides[0].aggression,
        die[1] + s.sides[1].aggression,
    ]
}

/// The 36 throws of two d6, the first die slowest.
fn two_dice() -> Vec<[i64; 2]> {
    (1..=6).flat_map(|x| (1..=6).map(move |y| [x, y])).collect()
}

/// Whether a deployment throw (`d`: the Invader's and the Defender's raw dice) decides: equal
/// adjusted scores are thrown again (p. 21).
fn deploy_decides(s: &SetupSituation, invader: usize, d: [i64; 2]) -> bool {
    d[0] + s.sides[invader].deployment_adjustment
        != d[1] + s.sides[1 - invader].deployment_adjustment
}

/// How many of the 36 deployment throws decide, with this side the Invader.
fn deciding_deploys(s: &SetupSituation, invader: usize) -> u128 {
    two_dice()
        .into_iter()
        .filter(|d| deploy_decides(s, invader, *d))
        .count() as u128
}

/// The set-up's odds over every throw, as whole numbers over their denominators.
struct SetupOdds {
    /// Deciding aggression throws (of `deciding`) that make each side the Invader.
    by_invader: BTreeMap<usize, u128>,
    /// Aggression throws that decide, of 36.
    deciding: u128,
    /// Deciding aggression throws that leave the Defender facing west.
    west: u128,
    /// The season delayed by 0, 1, 2 … seasons, over `cycle`.
    delay_weights: Vec<u128>,
    cycle: u128,
    /// By side (0 or 1), weather score and hour, over `whole`.
    deploys_first: [u128; 2],
    first_bound: [u128; 2],
    weather_scores: BTreeMap<u32, u128>,
    hours: BTreeMap<u32, u128>,
    whole: u128,
}

/// Every deciding aggression throw is equally likely; the equal throws before it (the season's
/// delay) are independent of it; and each deciding deployment throw is equally likely among those
/// that decide for that Invader. Weights are whole numbers over a common denominator: delay
/// numerator × (product of both Invaders' counts ÷ this one's).
fn setup_odds(data: &DbmmData, s: &SetupSituation, c: &Checked) -> SetupOdds {
    let faces = two_dice();
    // Equal aggression scores are thrown again, each time delaying the season by one.
    let aggression_ties = faces
        .iter()
        .filter(|f| {
            let sc = aggression_scores(s, **f);
            sc[0] == sc[1]
        })
        .count() as u128;
    let deciding = 36 - aggression_ties;
    // P(k equal throws, then a deciding one) = t^k (1 − t); the season depends on k mod 4:
    // Σ_{k ≡ j (mod 4)} = (1 − t) t^j / (1 − t^4), with t = ties/36.
    let n_seasons = data.setup.seasons.len() as u32;
    let cycle = 36u128.pow(n_seasons) - aggression_ties.pow(n_seasons);
    let both = deciding_deploys(s, 0) * deciding_deploys(s, 1);
    let delay_weights: Vec<u128> = (0..n_seasons)
        .map(|j| deciding * aggression_ties.pow(j) * 36u128.pow(n_seasons - 1 - j))
        .collect();
    let mut by_invader: BTreeMap<usize, u128> = BTreeMap::new();
    let mut west = 0u128;
    // Counted by side, score and hour; worded once at the end.
    let mut deploys_first = [0u128; 2];
    let mut first_bound = [0u128; 2];
    let mut weather_scores: BTreeMap<u32, u128> = BTreeMap::new();
    let mut hours: BTreeMap<u32, u128> = BTreeMap::new();
    let mut whole = 0u128;
    for a in &faces {
        let sc = aggression_scores(s, *a);
        if sc[0] == sc[1] {
            continue;
        }
        let invader = if sc[0] > sc[1] { 0 } else { 1 };
        *by_invader.entry(invader).or_default() += 1;
        if a[1 - invader] % 2 == 1 {
            west += 1;
        }
        let share = both / deciding_deploys(s, invader);
        for (ties, delay) in delay_weights.iter().enumerate() {
            for d in faces.iter().filter(|d| deploy_decides(s, invader, **d)) {
                let weight = delay * share;
                let got = settle(data, s, c, *a, ties, *d);
                let defender = 1 - got.invader;
                let first = if got.defender_deploys_first {
                    defender
                } else {
                    got.invader
                };
                let bound = if got.invader_first_bound {
                    got.invader
                } else {
                    defender
                };
                deploys_first[first] += weight;
                first_bound[bound] += weight;
                *weather_scores.entry(got.weather_score).or_default() += weight;
                *hours.entry(got.hour).or_default() += weight;
                whole += weight;
            }
        }
    }
    SetupOdds {
        by_invader,
        deciding,
        west,
        delay_weights,
        cycle,
        deploys_first,
        first_bound,
        weather_scores,
        hours,
        whole,
    }
}

/// The procedure as the sheets give it (p. 18–22, 26), said whatever the dice.
fn setup_notes(t: &SetupTables) -> Vec<Note> {
    vec![
        Note::new(
            "Dice for aggression, then add the army's aggression factor; if scores are equal, dice again. Higher score: Invader. Lower score: Defender.",
            &t.rule,
            None,
        ),
        Note::new(
            "The season is that nominated by the Invader, delayed by 1 season for each equal score.",
            &t.rule,
            None,
        ),
        Note::new(
            "The Defender faces west if his die was odd, east if even (if he places FW, in the direction his army list specifies).",
            &t.rule,
            Some(SETUP_RULING),
        ),
        Note::new(
            "Each army dices for deployment; the Defender deploys first unless the Invader doubles his score. The difference of the raw dice is the weather score; their total is the hour after midnight that deployment is complete.",
            &t.deployment_rule,
            Some(SETUP_RULING),
        ),
        Note::new(
            "If deployment ends between dusk and dawn, the side deploying second chooses whether to start a night attack; if not, the battle starts at sunrise. Each player's bound adds 10 minutes to the clock.",
            &t.time_rule,
            None,
        ),
        Note::new(
            format!(
                "First bound: if only one side's C-in-C is Inert, the other side; otherwise the Invader if he deployed first or visibility is below {}p, and the Defender if not.",
                t.first_bound_visibility
            ),
            &t.first_bound_rule,
            Some(FIRST_BOUND_RULING),
        ),
    ]
}

/// The key of a side invading, by its place: "invader_a".
fn invader_key(side: usize) -> String {
    format!("invader_{}", ["a", "b"][side])
}

/// Each side's chance of invading: the results of the aggression dice.
fn invasion_odds(names: &[String; 2], odds: &SetupOdds) -> Vec<ResultOdds> {
    (0..2)
        .map(|i| {
            let w = odds.by_invader.get(&i).copied().unwrap_or(0);
            ResultOdds::new(
                &invader_key(i),
                &format!("{} is the Invader, {} the Defender", names[i], names[1 - i]),
                "—".into(),
                Probability::new(w, odds.deciding),
                Vec::new(),
            )
        })
        .collect()
}

/// A chance resting on a ruling.
fn ruled_chance(label: String, p: Probability, rule: &str, ruling: &str) -> Chance {
    let mut chance = Chance::new(label, p, rule);
    chance.ruling = Some(ruling.to_string());
    chance
}

/// The chances of the facing, the season's delay, who deploys first, each weather score and
/// hour, and who takes the first bound.
fn setup_forecast(t: &SetupTables, names: &[String; 2], odds: &SetupOdds) -> Vec<Chance> {
    let p = |w: u128| Probability::new(w, odds.whole);
    let mut forecast = vec![Chance::new(
        "The Defender faces west",
        Probability::new(odds.west, odds.deciding),
        &t.rule,
    )];
    for (j, w) in odds.delay_weights.iter().enumerate() {
        let label = if j == 0 {
            "The season is the Invader's".to_string()
        } else {
            format!("The season is delayed by {j}")
        };
        forecast.push(Chance::new(
            label,
            Probability::new(*w, odds.cycle),
            &t.rule,
        ));
    }
    for (i, w) in odds.deploys_first.iter().enumerate() {
        forecast.push(ruled_chance(
            format!("{} deploys first", names[i]),
            p(*w),
            &t.deployment_rule,
            SETUP_RULING,
        ));
    }
    for (score, w) in &odds.weather_scores {
        forecast.push(ruled_chance(
            format!("Weather score {score}"),
            p(*w),
            &t.deployment_rule,
            SETUP_RULING,
        ));
    }
    for (hour, w) in &odds.hours {
        forecast.push(ruled_chance(
            format!("Deployment complete at {hour:02}:00"),
            p(*w),
            &t.time_rule,
            SETUP_RULING,
        ));
    }
    for (i, w) in odds.first_bound.iter().enumerate() {
        forecast.push(ruled_chance(
            format!("{} takes the first bound", names[i]),
            p(*w),
            &t.first_bound_rule,
            FIRST_BOUND_RULING,
        ));
    }
    forecast
}

/// The dice entered, read in turn: the deciding aggression throw (`aggression`, sides 0 and 1)
/// after `ties` equal ones, then the deciding deployment throw (`deployment`, the Invader's and
/// the Defender's) after `rethrown` equal ones.
#[derive(Debug, PartialEq, Eq)]
struct Thrown {
    aggression: [i64; 2],
    ties: usize,
    deployment: [i64; 2],
    rethrown: usize,
}

/// The dice asked in turn (the sweep of issue 35): the two aggression dice, the sides in order,
/// until the scores differ, then the deployment dice, the Invader's then the Defender's, until
/// they differ. The throws read so far (None while a pair is still to be thrown) and the dice
/// laid out for the screen.
fn read_throws(
    s: &SetupSituation,
    names: &[String; 2],
    faces: &[u32],
) -> Result<(Option<Thrown>, Vec<Die>), RefereeError> {
    let mut throws = Throws::new(faces);
    let thrown = thrown_in_turn(s, names, &mut throws)?;
    Ok((thrown, throws.finish()?))
}

fn thrown_in_turn(
    s: &SetupSituation,
    names: &[String; 2],
    throws: &mut Throws,
) -> Result<Option<Thrown>, RefereeError> {
    let thrower = |i: usize| if i == 0 { Thrower::A } else { Thrower::B };
    let mut pair = |first: usize, purpose: &str| -> Result<Option<[i64; 2]>, RefereeError> {
        let dice = vec![
            Die::of(6, thrower(first), &names[first], purpose),
            Die::of(6, thrower(1 - first), &names[1 - first], purpose),
        ];
        Ok(throws
            .stage(dice)?
            .map(|f| [i64::from(f[0]), i64::from(f[1])]))
    };
    let mut ties = 0;
    let aggression = loop {
        let Some(a) = pair(0, "aggression")? else {
            return Ok(None);
        };
        let sc = aggression_scores(s, a);
        if sc[0] != sc[1] {
            break a;
        }
        ties += 1;
    };
    let sc = aggression_scores(s, aggression);
    let invader = if sc[0] > sc[1] { 0 } else { 1 };
    let mut rethrown = 0;
    let deployment = loop {
        let Some(d) = pair(invader, "deployment")? else {
            return Ok(None);
        };
        if deploy_decides(s, invader, d) {
            break d;
        }
        rethrown += 1;
    };
    Ok(Some(Thrown {
        aggression,
        ties,
        deployment,
        rethrown,
    }))
}

/// What one set of dice made of the set-up, as the umpire reads it: who invades and defends, the
/// season, the facing, who deploys first, the weather score, the hour, the start, visibility and
/// the first bound (p. 18–23, 26).
fn settled_totals(
    data: &DbmmData,
    names: &[String; 2],
    got: &Setup,
    row: &daylight::DaylightRow,
) -> Vec<Total> {
    let t = &data.setup;
    let (inv, def) = (&names[got.invader], &names[1 - got.invader]);
    let season = &t.seasons[got.season];
    let first = if got.defender_deploys_first { def } else { inv };
    let bound = if got.invader_first_bound { inv } else { def };
    let seen = got
        .visibility
        .map_or("no limit".to_string(), |v| format!("{v}p"));
    vec![
        Total::new("Invader", inv.clone(), &t.rule, None),
        Total::new("Defender", def.clone(), &t.rule, None),
        Total::new(
            "Season",
            if got.season_delay == 0 {
                season.clone()
            } else {
                format!(
                    "{season} (delayed by {} for equal scores)",
                    got.season_delay
                )
            },
            &t.rule,
            None,
        ),
        Total::new(
            "Defender faces",
            if got.faces_west { "west" } else { "east" },
            &t.rule,
            Some(SETUP_RULING),
        ),
        Total::new(
            "Deploys first",
            first.clone(),
            &t.deployment_rule,
            Some(SETUP_RULING),
        ),
        Total::new(
            "Weather score",
            got.weather_score.to_string(),
            &t.deployment_rule,
            Some(SETUP_RULING),
        ),
        Total::new(
            "Deployment complete",
            format!("{:02}:00", got.hour),
            &t.time_rule,
            Some(SETUP_RULING),
        ),
        Total::new(
            "Battle starts",
            format!(
                "{} ({} {}: dawn {}, sunrise {}, sunset {}, dusk {})",
                got.starts, row.climate, row.season, row.dawn, row.sunrise, row.sunset, row.dusk
            ),
            &t.time_rule,
            None,
        ),
        Total::new(
            "Visibility at the start",
            seen,
            &data.daylight.visibility_rule,
            Some("R-DBMM-19"),
        ),
        Total::new(
            "First bound",
            bound.clone(),
            &t.first_bound_rule,
            Some(FIRST_BOUND_RULING),
        ),
    ]
}

/// The battle's weather from the climate table by the weather score (R-DBMM-30): its words, its
/// total, and the umpire's checks where the flattened table cannot say which.
fn battle_weather(
    data: &DbmmData,
    row: &daylight::DaylightRow,
    weather_score: u32,
) -> (String, Total, Vec<Check>) {
    let (weathers, certain) = daylight::climate_weather(&data.daylight, row, weather_score);
    let column = format!(
        "the climate table's column {} for {} {}",
        weather_score, row.climate, row.season
    );
    let words = if certain {
        weathers.join("")
    } else {
        format!("one of {}", weathers.join("; "))
    };
    let total = Total::new(
        "Weather",
        format!("{words} ({column})"),
        &data.daylight.rule,
        Some(CLIMATE_RULING),
    );
    let mut checks = Vec::new();
    if !certain {
        checks.push(
            Check::umpire(
                format!("Read which of {} the weather is in {column}: the flattened table lost how many columns each cell spans", weathers.join("; ")),
                &data.daylight.rule,
            )
            .ruling(Some(CLIMATE_RULING)),
        );
    }
    for note in &data.daylight.climate_notes {
        checks.push(
            Check::umpire(
                format!("Where the climate table says so: {note}"),
                &data.daylight.rule,
            )
            .ruling(Some(CLIMATE_RULING)),
        );
    }
    (words, total, checks)
}

/// What the dice entered make of the set-up: its totals, the umpire's checks, a note when equal
/// deployment scores were thrown again, and the outcome.
struct Diced {
    totals: Vec<Total>,
    checks: Vec<Check>,
    rethrown: Option<Note>,
    outcome: Outcome,
}

fn diced(
    data: &DbmmData,
    s: &SetupSituation,
    c: &Checked,
    faces: &[u32],
    thrown: Thrown,
) -> Result<Diced, RefereeError> {
    let t = &data.setup;
    let names = &c.names;
    let a = thrown.aggression;
    let got = settle(data, s, c, a, thrown.ties, thrown.deployment);
    let row = season_row(data, c, 1 - got.invader, got.season);
    let mut totals = settled_totals(data, names, &got, row);
    let (weather_words, weather, checks) = battle_weather(data, row, got.weather_score);
    totals.push(weather);
    let rethrown = (thrown.rethrown > 0).then(|| {
        Note::new(
            format!("Equal deployment scores were thrown again {} times: only the deciding throw counts.", thrown.rethrown),
            &t.deployment_rule,
            Some(SETUP_RULING),
        )
    });
    let (inv, def) = (&names[got.invader], &names[1 - got.invader]);
    let first = if got.defender_deploys_first { def } else { inv };
    let bound = if got.invader_first_bound { inv } else { def };
    let sc = aggression_scores(s, a);
    let outcome = Outcome {
        dice: faces.to_vec(),
        roll: sc[0].max(sc[1]),
        modified: sc[0].max(sc[1]),
        result: invader_key(got.invader),
        meaning: format!(
            "{inv} invades in {}; {first} deploys first; deployment complete at {:02}:00; weather: {}; {bound} takes the first bound",
            t.seasons[got.season],
            got.hour,
            super::lower_first(&weather_words)
        ),
        effects: Vec::new(),
        sides: vec![
            SideThrow::new(names[0].clone(), a[0] as u32, s.sides[0].aggression, sc[0]),
            SideThrow::new(names[1].clone(), a[1] as u32, s.sides[1].aggression, sc[1]),
        ],
    };
    Ok(Diced {
        totals,
        checks,
        rethrown,
        outcome,
    })
}

pub fn setup(
    data: &DbmmData,
    s: &SetupSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let t = &data.setup;
    let c = check(data, s)?;
    let names = &c.names;
    let odds = setup_odds(data, s, &c);
    let mut totals = vec![
        Total::new(
            format!("{} aggression", names[0]),
            format!("d6 {:+}", s.sides[0].aggression),
            &t.rule,
            None,
        ),
        Total::new(
            format!("{} aggression", names[1]),
            format!("d6 {:+}", s.sides[1].aggression),
            &t.rule,
            None,
        ),
    ];
    let mut notes = setup_notes(t);
    let mut checks = Vec::new();
    let (thrown, faces) = read_throws(s, names, dice.unwrap_or(&[]))?;
    let shown = Shown {
        faces,
        in_turn: true,
        ..Shown::default()
    };
    let outcome = match (dice, thrown) {
        (None, _) | (_, None) => None,
        (Some(faces), Some(thrown)) => {
            let d = diced(data, s, &c, faces, thrown)?;
            totals.extend(d.totals);
            checks = d.checks;
            notes.extend(d.rethrown);
            Some(d.outcome)
        }
    };
    let shown = Shown {
        names: (0..2)
            .map(|i| (invader_key(i), format!("{} invades", names[i])))
            .collect(),
        ..shown
    };
    Ok(Resolution {
        shown,
        system: data.system.id.clone(),
        action: "setup".into(),
        dice: "2d6".into(),
        totals,
        modifiers: Vec::new(),
        total_modifier: 0,
        distribution: invasion_odds(names, &odds),
        forecast: setup_forecast(t, names, &odds),
        checks,
        notes,
        outcome,
    })
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceTerrainSituation {
    /// The terrain's code (S, WW, L, Oa, Rv, M, D, DH, WH, CH, Wd, RH, SH, GH, V, Rd, BUA, F,
    /// E, O, B, BF, SF, RF, G).
    pub terrain: String,
    /// The first terrain placed on its edge (the second die is then its greatest distance from
    /// the edge; after the first, the least distance from any other terrain).
    #[serde(default)]
    pub first_on_edge: bool,
}

pub fn place_terrain(
    data: &DbmmData,
    s: &PlaceTerrainSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let t = &data.setup;
    let code = s.terrain.trim();
    let stage = t
        .placement_order
        .iter()
        .position(|stage| stage.iter().any(|c| c == code))
        .ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationUnknownTerrain,
                format!(
                    "no terrain {} in the order of placing: {}",
                    crate::error::given(code),
                    crate::error::choices(t.placement_order.iter().flatten().map(String::as_str))
                ),
            )
            .field("terrain")
            .rule(t.terrain_rule.clone())
        })?;
    let distance_words = if s.first_on_edge {
        "at most this far from that edge"
    } else {
        "at least this far from any terrain already placed"
    };
    let stage_total = Total::new(
        "Placing stage",
        format!("{} of {}", stage + 1, t.placement_order.len()),
        &t.terrain_rule,
        None,
    );
    if t.without_dice.iter().any(|c| c == code) {
        if dice.is_some() {
            return Err(RefereeError::new(
                ErrorCode::DiceNotRolled,
                format!("{code} is placed without dicing"),
            )
            .field("dice")
            .rule(t.terrain_rule.clone()));
        }
        let mut r = Resolution::certain(
            &data.system.id,
            "place_terrain",
            "placed_without_dice",
            &format!("{code} is placed by its chooser without dicing."),
            Vec::new(),
        );
        r.totals.push(stage_total);
        return Ok(r);
    }
    let distribution = t
        .edges
        .iter()
        .enumerate()
        .map(|(i, edge)| {
            ResultOdds::new(
                &format!("edge_{}", i + 1),
                edge,
                (i + 1).to_string(),
                Probability::new(1, t.edges.len() as u128),
                Vec::new(),
            )
        })
        .collect();
    let notes = vec![Note::new(
        format!(
            "The first die is the battlefield edge the terrain is closer to than to any other; the second, in multiples of {}p, the greatest distance from that edge for the first terrain of the edge, and the least distance from any other terrain after it.",
            t.distance_step
        ),
        &t.terrain_rule,
        None,
    ), Note::new(
        "Edges are marked 1 to 4 clockwise from the Defender's left; the Defender marks 5 and the Invader 6.",
        &t.terrain_rule,
        None,
    )];
    let outcome = match dice {
        None => None,
        Some(fs) => {
            let sides = t.edges.len() as u32;
            if fs.len() != 2 || fs.iter().any(|f| !(1..=sides).contains(f)) {
                return Err(dice_error(
                    "two d6: the edge, then the distance in multiples of 80p",
                ));
            }
            let paces = i64::from(fs[1]) * t.distance_step;
            Some(Outcome {
                dice: fs.to_vec(),
                roll: i64::from(fs[0]),
                modified: i64::from(fs[0]),
                result: format!("edge_{}", fs[0]),
                meaning: format!(
                    "{code} goes by {}, {paces}p: {distance_words}.",
                    t.edges[fs[0] as usize - 1]
                ),
                effects: Vec::new(),
                sides: Vec::new(),
            })
        }
    };
    Ok(Resolution {
        shown: Shown {
            names: (1..=t.edges.len())
                .map(|n| (format!("edge_{n}"), format!("Edge {n}")))
                .collect(),
            ..Shown::default()
        },
        system: data.system.id.clone(),
        action: "place_terrain".into(),
        dice: "2d6".into(),
        totals: vec![stage_total],
        modifiers: Vec::new(),
        total_modifier: 0,
        distribution,
        forecast: Vec::new(),
        checks: Vec::new(),
        notes,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dbmm::test_data as data;
    use serde_json::json;

    /// The golden case of p. 18: Rome (aggression 0, Warm, Summer) against the Gauls (3, Cold,
    /// Spring).
    fn rome_v_gauls() -> SetupSituation {
        serde_json::from_value(json!({
            "sides": [
                { "name": "Rome", "aggression": 0, "season": "Summer", "climate": "Warm" },
                { "name": "Gauls", "aggression": 3, "season": "Spring", "climate": "Cold" }
            ]
        }))
        .unwrap()
    }

    fn value<'t>(totals: &'t [Total], label: &str) -> &'t str {
        &totals.iter().find(|t| t.label == label).unwrap().value
    }

    #[test]
    fn aggression_adds_each_armys_factor_to_its_die() {
        let s = rome_v_gauls();
        assert_eq!(aggression_scores(&s, [4, 1]), [4, 4]);
        assert_eq!(aggression_scores(&s, [6, 2]), [6, 5]);
    }

    #[test]
    fn a_deployment_throw_decides_unless_the_adjusted_scores_are_equal() {
        // p. 21: without adjustments 30 of 36 throws decide; the Invader's +3 makes 3 of 36
        // equal (1-4, 2-5, 3-6).
        let mut s = rome_v_gauls();
        assert_eq!(deciding_deploys(&s, 0), 30);
        s.sides[0].deployment_adjustment = 3;
        assert!(!deploy_decides(&s, 0, [2, 5]));
        assert!(deploy_decides(&s, 1, [2, 5]));
        assert_eq!(deciding_deploys(&s, 0), 33);
        assert_eq!(deciding_deploys(&s, 1), 33);
    }

    #[test]
    fn the_dice_are_read_pair_by_pair_until_each_throw_decides() {
        let s = rome_v_gauls();
        // The golden throw: 4-1 is equal (4 v 4), 6-2 decides; then 2-3 decides.
        let names = ["Rome".to_string(), "Gauls".to_string()];
        let read = |faces: &[u32]| read_throws(&s, &names, faces);
        assert_eq!(
            read(&[4, 1, 6, 2, 2, 3]).unwrap().0.unwrap(),
            Thrown {
                aggression: [6, 2],
                ties: 1,
                deployment: [2, 3],
                rethrown: 0
            }
        );
        let again = read(&[6, 2, 3, 3, 2, 3]).unwrap().0.unwrap();
        assert_eq!((again.deployment, again.rethrown), ([2, 3], 1));
        // Asked in turn: an unfinished throw lays out the next pair, named by who throws it.
        for short in [&[6, 2, 2][..], &[4, 1]] {
            let (thrown, dice) = read(short).unwrap();
            assert!(thrown.is_none(), "{short:?}");
            assert!(dice.len() > short.len(), "{short:?}");
        }
        let (_, dice) = read(&[4, 1]).unwrap();
        assert_eq!(dice[2].purpose.as_deref(), Some("aggression"));
        for wrong in [&[6, 2, 2, 3, 1][..], &[6, 2, 2, 7]] {
            let e = read(wrong).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("dice"), "{wrong:?}");
        }
    }

    #[test]
    fn the_odds_count_every_deciding_throw_and_every_delay() {
        // 3 of 36 aggression throws are equal (x = y + 3); Rome invades on 3 of the other 33.
        let (d, s) = (data(), rome_v_gauls());
        let c = check(&d, &s).unwrap();
        let odds = setup_odds(&d, &s, &c);
        assert_eq!(odds.deciding, 33);
        assert_eq!(odds.by_invader.get(&0), Some(&3));
        assert_eq!(odds.by_invader.get(&1), Some(&30));
        // (1 − t)(1 + t + t² + t³) = 1 − t⁴: the delays sum to the whole cycle.
        assert_eq!(odds.cycle, 36u128.pow(4) - 3u128.pow(4));
        assert_eq!(odds.delay_weights.iter().sum::<u128>(), odds.cycle);
        assert_eq!(
            Probability::new(odds.delay_weights[0], odds.cycle).to_string(),
            "1728/1885"
        );
        assert_eq!(odds.deploys_first.iter().sum::<u128>(), odds.whole);
        assert_eq!(odds.first_bound.iter().sum::<u128>(), odds.whole);
        // Unadjusted equal dice are thrown again: no hour 2 or 12 (1-1, 6-6), no weather score 0.
        assert_eq!(
            odds.hours.keys().copied().collect::<Vec<_>>(),
            (3..=11).collect::<Vec<_>>()
        );
        assert_eq!(
            odds.weather_scores.keys().copied().collect::<Vec<_>>(),
            (1..=5).collect::<Vec<_>>()
        );
        let names = c.names.clone();
        let invading = invasion_odds(&names, &odds);
        assert_eq!(invading[0].probability, "1/11");
        assert_eq!(invading[1].probability, "10/11");
        let forecast = setup_forecast(&d.setup, &names, &odds);
        let first = forecast
            .iter()
            .find(|c| c.label == "The season is the Invader's")
            .unwrap();
        assert_eq!(first.probability, "1728/1885");
        let bound = forecast
            .iter()
            .find(|c| c.label == "Rome takes the first bound")
            .unwrap();
        assert_eq!(bound.ruling.as_deref(), Some(FIRST_BOUND_RULING));
    }

    #[test]
    fn the_notes_give_the_procedure_and_the_first_bounds_visibility() {
        let d = data();
        let notes = setup_notes(&d.setup);
        assert_eq!(notes.len(), 6);
        assert_eq!(notes[2].ruling.as_deref(), Some(SETUP_RULING));
        assert!(notes[5].message.contains(&format!(
            "visibility is below {}p",
            d.setup.first_bound_visibility
        )));
    }

    #[test]
    fn the_golden_throw_reads_as_the_text_says() {
        // p. 18: Rome invades in Autumn (Summer delayed by one); the Gauls deploy first at 05:00.
        let (d, s) = (data(), rome_v_gauls());
        let c = check(&d, &s).unwrap();
        let dice = |faces: &[u32]| {
            let thrown = read_throws(&s, &c.names, faces).unwrap().0.unwrap();
            diced(&d, &s, &c, faces, thrown).unwrap()
        };
        let got = dice(&[4, 1, 6, 2, 2, 3]);
        assert_eq!(value(&got.totals, "Invader"), "Rome");
        assert_eq!(
            value(&got.totals, "Season"),
            "Autumn (delayed by 1 for equal scores)"
        );
        assert_eq!(value(&got.totals, "Defender faces"), "east");
        assert_eq!(value(&got.totals, "Deploys first"), "Gauls");
        assert_eq!(value(&got.totals, "Weather score"), "1");
        assert_eq!(value(&got.totals, "Deployment complete"), "05:00");
        assert_eq!(value(&got.totals, "Visibility at the start"), "400p");
        assert_eq!(value(&got.totals, "First bound"), "Gauls");
        assert!(got.rethrown.is_none());
        assert_eq!(got.outcome.result, "invader_a");
        assert_eq!((got.outcome.roll, got.outcome.sides[1].total), (6, 5));
        let again = dice(&[6, 2, 3, 3, 2, 3]);
        assert!(again
            .rethrown
            .unwrap()
            .message
            .contains("thrown again 1 times"));
    }

    #[test]
    fn an_uncertain_climate_cell_asks_the_umpire_which_weather() {
        // R-DBMM-30: column 1 for Cold Autumn is one of three weathers.
        let (d, s) = (data(), rome_v_gauls());
        let c = check(&d, &s).unwrap();
        let row = season_row(&d, &c, 1, 2);
        let (words, total, checks) = battle_weather(&d, row, 1);
        assert_eq!(words, "one of Light wind NE; Strong wind SW; Light wind NW");
        assert_eq!(
            total.value,
            "one of Light wind NE; Strong wind SW; Light wind NW (the climate table's column 1 for Cold Autumn)"
        );
        assert_eq!(checks.len(), 1 + d.daylight.climate_notes.len());
        assert!(checks[0].label.starts_with("Read which of Light wind NE"));
    }
}
