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
            "situation.invalid_field",
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
                "situation.invalid_range",
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
                    "situation.unknown_season",
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
                    "situation.unknown_climate",
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
                    "situation.invalid_field",
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
                    "situation.invalid_field",
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
    RefereeError::new("dice.invalid", text.to_string()).field("dice")
}

pub fn setup(
    data: &DbmmData,
    s: &SetupSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let t = &data.setup;
    let c = check(data, s)?;
    let aggression = |die: [i64; 2]| {
        [
            die[0] + s.sides[0].aggression,
            die[1] + s.sides[1].aggression,
        ]
    };
    let faces: Vec<[i64; 2]> = (1..=6).flat_map(|x| (1..=6).map(move |y| [x, y])).collect();
    // Equal aggression scores are thrown again, each time delaying the season by one.
    let aggression_ties = faces
        .iter()
        .filter(|f| {
            let sc = aggression(**f);
            sc[0] == sc[1]
        })
        .count() as u128;
    let deciding = 36 - aggression_ties;
    // P(k equal throws, then a deciding one) = t^k (1 − t); the season depends on k mod 4:
    // Σ_{k ≡ j (mod 4)} = (1 − t) t^j / (1 − t^4), with t = ties/36.
    let n_seasons = t.seasons.len() as u32;
    let cycle = 36u128.pow(n_seasons) - aggression_ties.pow(n_seasons);
    let names = &c.names;
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
    let mut notes = vec![
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
    ];
    // Every deciding aggression throw is equally likely; the equal throws before it (the
    // season's delay, `delay_odds`) are independent of it; and each deciding deployment throw
    // is equally likely among those that decide for that Invader. Weights are whole numbers
    // over a common denominator: delay numerator × (product of both Invaders' counts ÷ this one's).
    let deciding_deploys = |invader: usize| {
        faces
            .iter()
            .filter(|d| {
                d[0] + s.sides[invader].deployment_adjustment
                    != d[1] + s.sides[1 - invader].deployment_adjustment
            })
            .count() as u128
    };
    let both = deciding_deploys(0) * deciding_deploys(1);
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
        let sc = aggression(*a);
        if sc[0] == sc[1] {
            continue;
        }
        let invader = if sc[0] > sc[1] { 0 } else { 1 };
        *by_invader.entry(invader).or_default() += 1;
        if a[1 - invader] % 2 == 1 {
            west += 1;
        }
        let share = both / deciding_deploys(invader);
        for (ties, delay) in delay_weights.iter().enumerate() {
            for d in &faces {
                let adjusted = [
                    d[0] + s.sides[invader].deployment_adjustment,
                    d[1] + s.sides[1 - invader].deployment_adjustment,
                ];
                if adjusted[0] == adjusted[1] {
                    continue;
                }
                let weight = delay * share;
                let got = settle(data, s, &c, *a, ties, *d);
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
    let p = |w: u128| Probability::new(w, whole);
    let distribution: Vec<ResultOdds> = (0..2)
        .map(|i| {
            let w = by_invader.get(&i).copied().unwrap_or(0);
            ResultOdds::new(
                &format!("{} invades", names[i]),
                &format!("{} is the Invader, {} the Defender", names[i], names[1 - i]),
                "—".into(),
                Probability::new(w, deciding),
                Vec::new(),
            )
        })
        .collect();
    let mut forecast = vec![Chance::new(
        "The Defender faces west",
        Probability::new(west, deciding),
        &t.rule,
    )];
    for (j, w) in delay_weights.iter().enumerate() {
        let label = if j == 0 {
            "The season is the Invader's".to_string()
        } else {
            format!("The season is delayed by {j}")
        };
        forecast.push(Chance::new(label, Probability::new(*w, cycle), &t.rule));
    }
    let with_ruling = |label: String, w: u128, rule: &str, ruling: &str| {
        let mut chance = Chance::new(label, p(w), rule);
        chance.ruling = Some(ruling.to_string());
        chance
    };
    for (i, w) in deploys_first.iter().enumerate() {
        forecast.push(with_ruling(
            format!("{} deploys first", names[i]),
            *w,
            &t.deployment_rule,
            SETUP_RULING,
        ));
    }
    for (score, w) in &weather_scores {
        forecast.push(with_ruling(
            format!("Weather score {score}"),
            *w,
            &t.deployment_rule,
            SETUP_RULING,
        ));
    }
    for (hour, w) in &hours {
        forecast.push(with_ruling(
            format!("Deployment complete at {hour:02}:00"),
            *w,
            &t.time_rule,
            SETUP_RULING,
        ));
    }
    for (i, w) in first_bound.iter().enumerate() {
        forecast.push(with_ruling(
            format!("{} takes the first bound", names[i]),
            *w,
            &t.first_bound_rule,
            FIRST_BOUND_RULING,
        ));
    }
    let mut checks = Vec::new();
    // Asked in turn: the two aggression dice (the sides in order) until the scores differ, then
    // the deployment dice (the Invader's, then the Defender's) until the scores differ.
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let thrower = |i: usize| if i == 0 { Thrower::A } else { Thrower::B };
    let pair = |throws: &mut Throws,
                first: usize,
                purpose: &str|
     -> Result<Option<[i64; 2]>, RefereeError> {
        let dice = vec![
            Die::of(6, thrower(first), &names[first], purpose),
            Die::of(6, thrower(1 - first), &names[1 - first], purpose),
        ];
        Ok(throws
            .stage(dice)?
            .map(|f| [i64::from(f[0]), i64::from(f[1])]))
    };
    let mut ties = 0;
    let decided = loop {
        let Some(a) = pair(&mut throws, 0, "aggression")? else {
            break None;
        };
        let sc = aggression(a);
        if sc[0] != sc[1] {
            break Some(a);
        }
        ties += 1;
    };
    let mut rethrown = 0;
    let thrown = match decided {
        None => None,
        Some(a) => {
            let sc = aggression(a);
            let invader = if sc[0] > sc[1] { 0 } else { 1 };
            let adj = [
                s.sides[invader].deployment_adjustment,
                s.sides[1 - invader].deployment_adjustment,
            ];
            loop {
                let Some(d) = pair(&mut throws, invader, "deployment")? else {
                    break None;
                };
                if d[0] + adj[0] != d[1] + adj[1] {
                    break Some((a, d));
                }
                rethrown += 1;
            }
        }
    };
    let shown = Shown {
        faces: throws.finish()?,
        in_turn: true,
        ..Shown::default()
    };
    let outcome = match (dice, thrown) {
        (None, _) | (_, None) => None,
        (Some(fs), Some((a, d))) => {
            let sc = aggression(a);
            let got = settle(data, s, &c, a, ties, d);
            let (inv, def) = (&names[got.invader], &names[1 - got.invader]);
            let season = &t.seasons[got.season];
            let row = season_row(data, &c, 1 - got.invader, got.season);
            let first = if got.defender_deploys_first { def } else { inv };
            let bound = if got.invader_first_bound { inv } else { def };
            let seen = got
                .visibility
                .map_or("no limit".to_string(), |v| format!("{v}p"));
            totals.push(Total::new("Invader", inv.clone(), &t.rule, None));
            totals.push(Total::new("Defender", def.clone(), &t.rule, None));
            totals.push(Total::new(
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
            ));
            totals.push(Total::new(
                "Defender faces",
                if got.faces_west { "west" } else { "east" },
                &t.rule,
                Some(SETUP_RULING),
            ));
            totals.push(Total::new(
                "Deploys first",
                first.clone(),
                &t.deployment_rule,
                Some(SETUP_RULING),
            ));
            totals.push(Total::new(
                "Weather score",
                got.weather_score.to_string(),
                &t.deployment_rule,
                Some(SETUP_RULING),
            ));
            totals.push(Total::new(
                "Deployment complete",
                format!("{:02}:00", got.hour),
                &t.time_rule,
                Some(SETUP_RULING),
            ));
            totals.push(Total::new(
                "Battle starts",
                format!(
                    "{} ({} {}: dawn {}, sunrise {}, sunset {}, dusk {})",
                    got.starts,
                    row.climate,
                    row.season,
                    row.dawn,
                    row.sunrise,
                    row.sunset,
                    row.dusk
                ),
                &t.time_rule,
                None,
            ));
            totals.push(Total::new(
                "Visibility at the start",
                seen,
                &data.daylight.visibility_rule,
                Some("R-DBMM-19"),
            ));
            totals.push(Total::new(
                "First bound",
                bound.clone(),
                &t.first_bound_rule,
                Some(FIRST_BOUND_RULING),
            ));
            let (weathers, certain) =
                daylight::climate_weather(&data.daylight, row, got.weather_score);
            let column = format!(
                "the climate table's column {} for {} {}",
                got.weather_score, row.climate, row.season
            );
            let weather_words = if certain {
                weathers.join("")
            } else {
                format!("one of {}", weathers.join("; "))
            };
            totals.push(Total::new(
                "Weather",
                format!("{weather_words} ({column})"),
                &data.daylight.rule,
                Some(CLIMATE_RULING),
            ));
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
            if rethrown > 0 {
                notes.push(Note::new(
                    format!("Equal deployment scores were thrown again {rethrown} times: only the deciding throw counts."),
                    &t.deployment_rule,
                    Some(SETUP_RULING),
                ));
            }
            Some(Outcome {
                dice: fs.to_vec(),
                roll: sc[0].max(sc[1]),
                modified: sc[0].max(sc[1]),
                result: format!("{inv} invades"),
                meaning: format!(
                    "{inv} invades in {season}; {first} deploys first; deployment complete at {:02}:00; weather: {}; {bound} takes the first bound",
                    got.hour,
                    super::lower_first(&weather_words)
                ),
                effects: Vec::new(),
                sides: vec![
                    SideThrow::new(
                        names[0].clone(),
                        a[0] as u32,
                        s.sides[0].aggression,
                        sc[0],
                    ),
                    SideThrow::new(
                        names[1].clone(),
                        a[1] as u32,
                        s.sides[1].aggression,
                        sc[1],
                    ),
                ],
            })
        }
    };
    Ok(Resolution {
        shown,
        system: data.system.id.clone(),
        action: "setup".into(),
        dice: "2d6".into(),
        totals,
        modifiers: Vec::new(),
        total_modifier: 0,
        distribution,
        forecast,
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
                "situation.unknown_terrain",
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
                "dice.not_rolled",
                format!("{code} is placed without dicing"),
            )
            .field("dice")
            .rule(t.terrain_rule.clone()));
        }
        let mut r = Resolution::certain(
            &data.system.id,
            "place_terrain",
            "placed without dice",
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
                &format!("Edge {}", i + 1),
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
                result: format!("Edge {}", fs[0]),
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
        shown: Shown::default(),
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
