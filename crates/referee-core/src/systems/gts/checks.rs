//! The d10 tests around the fighting: response tests (2.11–2.12, 3.15, 5.53, 7.2–7.3, …),
//! command points (1.2–1.5), leader casualties (1.9–1.10, Table 1.10), elephant frenzy (7.41–7.42,
//! 4.46), general costs (1.11) and the army break point with victory levels (8.0).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::data::{fraction, GtsData, ResponseTest};
use super::units::{Unit, UnitEntry};
use crate::contract::{effect, Chance, Change, Check, Modifier, Note, Resolution, Target, Total};
use crate::error::RefereeError;
use crate::odds::{Band, DiceSpec, Dist};
use crate::rule_system::resolve::{is_default, roll_named};
use crate::ErrorCode;

/// response_test: a unit's d10 against its response number (2.11).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsResponseSituation")]
pub struct ResponseSituation {
    /// Which test (2.11): a rally, a cavalry charge, …
    pub test: String,
    pub unit: UnitEntry,
    /// Personal valour of an attached leader (1.6).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<i64>")]
    pub leader_pv: i64,
    /// Within 2" of a formed enemy unit: a failed voluntary rout then Disorders (4.311).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub near_formed_enemy: bool,
    /// Within 6" of a leader who fell on his sword this turn (Table 1.10, 8): −1 to its
    /// response tests, a rally among them (R-GTS-25).
    #[serde(default, skip_serializing_if = "is_default")]
    #[ts(optional, as = "Option<bool>")]
    pub near_fallen_leader: bool,
}

pub fn response_test(
    data: &GtsData,
    s: &ResponseSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let rr = &data.response;
    let test = rr.tests.get(&s.test).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationUnknownTest,
            format!(
                "unknown test {}; the tests are {}",
                crate::error::given(&s.test),
                crate::error::choices(rr.tests.keys())
            ),
        )
        .field("test")
        .rule(&rr.rule)
    })?;
    let u = Unit::build(data, &s.unit, "unit")?;
    super::units::check_pv(s.leader_pv, "leader_pv")?;
    if let Some(cannot) = test_refused(data, s, test, &u)? {
        return Ok(cannot);
    }
    let modifiers = response_modifiers(data, s, &u);
    let number: i64 = modifiers.iter().map(|m| m.value).sum();
    let pass_text = test.pass.clone();
    let fail_text = if test.fail_only_near_enemy && !s.near_formed_enemy {
        "No consequence: the unit is not within 2\" of a formed enemy unit.".to_string()
    } else {
        test.fail.clone()
    };
    let effects = |list: &[super::data::Consequence]| -> Vec<crate::contract::Effect> {
        list.iter()
            .flat_map(|c| c.changes())
            .map(|c| {
                effect(
                    Target::Unit(u.name.clone()),
                    c,
                    &test.rule,
                    test.ruling.as_deref(),
                )
            })
            .collect()
    };
    let fail_effects = if test.fail_only_near_enemy && !s.near_formed_enemy {
        Vec::new()
    } else if u.disordered {
        effects(&test.on_fail_disordered)
    } else {
        effects(&test.on_fail)
    };
    let pass_effects = effects(&test.on_pass);
    let rows = pass_bands(test, number);
    let eliminated_effects = vec![effect(
        Target::Unit(u.name.clone()),
        Change::Hits {
            count: u.hits_per_stand - u.hits,
        },
        &test.rule,
        test.ruling.as_deref(),
    )];
    let meaning = |code: &str| match code {
        "passes" => (pass_text.clone(), pass_effects.clone()),
        "eliminated" => (
            "The skirmish stand is eliminated.".to_string(),
            eliminated_effects.clone(),
        ),
        _ => (fail_text.clone(), fail_effects.clone()),
    };
    let (distribution, outcome) = roll_named("d10", &rows, &meaning, dice)?;
    let mut r = Resolution::certain(&data.system.id, "response_test", "", "", Vec::new());
    r.dice = "d10".into();
    // The die on a pad named by the unit that throws it and the test it is for.
    r.shown.faces = vec![crate::rule_system::Die {
        sides: 10,
        thrower: None,
        label: Some(u.name.clone()),
        purpose: Some(test.name.clone()),
        face_names: Vec::new(),
    }];
    r.distribution = distribution;
    r.outcome = outcome;
    r.modifiers = modifiers;
    r.totals.push(Total::new(
        format!("{}: passes on a d10 of at most", test.name),
        number.to_string(),
        &test.rule,
        test.ruling.as_deref(),
    ));
    if s.test == "formation_change" {
        r.totals.extend(formation_change(data, &u));
    }
    Ok(r)
}

/// A test the unit may not take is refused (4.324's skirmish tests, 4.12's withdrawal); a rally
/// past the terminal rout trigger is answered "cannot rally" (2.11, 3.33).
fn test_refused(
    data: &GtsData,
    s: &ResponseSituation,
    test: &ResponseTest,
    u: &Unit,
) -> Result<Option<Resolution>, RefereeError> {
    if test.skirmish_only && !u.skirmish {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            format!("{} is for skirmish stands", test.name.to_lowercase()),
        )
        .field("unit.skirmish")
        .rule(&test.rule));
    }
    if s.test == "rally" {
        // The terminal rout trigger is read from the stands the unit started with (2.11): a unit
        // down to half must not be offered a rally the rules deny, so they are asked for.
        if s.unit.starting_stands.is_none() {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "a rally needs the stands the unit started the battle with, for its terminal rout trigger",
            )
            .field("unit.starting_stands")
            .rule("2.11, 3.33"));
        }
        if !u.routed {
            return Err(RefereeError::new(
                ErrorCode::SituationNotRouted,
                "only a routed unit rallies",
            )
            .field("unit.routed")
            .rule("3.33"));
        }
        if u.trigger_breached(u.stands, u.hits) {
            let mut r = Resolution::certain(
                &data.system.id,
                "response_test",
                "cannot_rally",
                "The unit has breached its terminal rout trigger: it never recovers from Rout.",
                Vec::new(),
            );
            r.checks.push(Check::holds(
                "Not past the terminal rout trigger",
                false,
                "2.11, 3.33",
            ));
            return Ok(Some(r));
        }
    }
    if s.test == "withdrawal" && !u.drilled {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "only Drilled units withdraw from combat",
        )
        .field("unit.training")
        .rule("4.12, 4.22"));
    }
    Ok(None)
}

/// The response number's parts: the unit's response, its leader's valour, Disorder, a fallen
/// leader within 6" (2.11, 2.12, R-GTS-25).
fn response_modifiers(data: &GtsData, s: &ResponseSituation, u: &Unit) -> Vec<Modifier> {
    let rr = &data.response;
    let mut modifiers = vec![Modifier::new(
        format!("Response of {}", u.name),
        u.response.value,
        "2.10, 2.11",
        Some("R-GTS-1"),
    )];
    if s.leader_pv != 0 {
        modifiers.push(Modifier::new(
            "Leader's personal valour",
            s.leader_pv,
            "1.6, 2.12",
            None,
        ));
    }
    if u.disordered {
        modifiers.push(rr.disordered.line("Unit is Disordered"));
    }
    if s.near_fallen_leader {
        modifiers.push(Modifier::new(
            "Within 6\" of a leader who fell on his sword",
            data.leader_casualty.near_fallen_leader,
            "Table 1.10",
            Some("R-GTS-25"),
        ));
    }
    modifiers
}

/// The d10's bands: at most the number passes; a natural face eliminates a skirmish stand
/// whatever the number (4.324).
fn pass_bands(test: &ResponseTest, number: i64) -> Vec<(Band, String)> {
    match test.eliminated_on {
        // 4.324: a natural face eliminates the stand whatever the response number.
        Some(face) => {
            let mut rows = vec![(
                Band {
                    min: None,
                    max: Some(number.min(face - 1)),
                },
                "passes".to_string(),
            )];
            if number < face - 1 {
                rows.push((
                    Band {
                        min: Some(number + 1),
                        max: Some(face - 1),
                    },
                    "fails".to_string(),
                ));
            }
            rows.push((
                Band {
                    min: Some(face),
                    max: None,
                },
                "eliminated".to_string(),
            ));
            rows
        }
        None => vec![
            (Band::at_most(number), "passes".to_string()),
            (Band::above(number), "fails".to_string()),
        ],
    }
}

/// From March to Attack formation: when it may be made and what it costs (3.15, 3.1512–3.1513).
fn formation_change(data: &GtsData, u: &Unit) -> Vec<Total> {
    let rr = &data.response;
    let mut totals = Vec::new();
    // 3.1512–3.1513: from March to Attack at the end of the move.
    let (text, rule) = match (u.professional, u.drilled) {
        (true, true) => ("Allowed at the end of its move (Professional and Drilled), as its one formation change", "3.1512"),
        (_, true) => ("At the end of its move only if a general spent two command points on it in the command phase (Drilled)", "3.1513"),
        _ => ("At the start of its move only (neither Drilled nor Professional and Drilled)", "3.15, 3.1512"),
    };
    totals.push(Total::new(
        "From March to Attack formation",
        text,
        rule,
        (rule == "3.1512").then_some("R-GTS-24"),
    ));
    let cost = rr.formation_change_base - u.response.value;
    totals.push(Total::new(
        "Formation change cost",
        format!(
            "{}\" (10 − response {}); or the whole move at its start",
            cost.max(0),
            u.response.value
        ),
        "3.15",
        None,
    ));
    totals
}

/// command_points: a general's command points this phase (1.2–1.5).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsCommandSituation")]
pub struct CommandSituation {
    /// Personal command rating 1–5.
    pub pc: u32,
    /// Tactical skill: E, G, A or P.
    pub ts: String,
    /// A wing general who received no command point from the army general uses only his PC
    /// (1.3).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub wing_without_army_point: bool,
    /// The general whose row takes the points, by his name on the roster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub leader: Option<String>,
}

/// The points landing on the general's row, when the test names him (1.2).
fn points_on(s: &CommandSituation, points: i64) -> Vec<crate::contract::Effect> {
    s.leader
        .iter()
        .map(|name| {
            effect(
                Target::Unit(name.clone()),
                Change::CommandPoints {
                    points: points.max(0) as u32,
                },
                "1.2",
                None,
            )
        })
        .collect()
}

pub fn command_points(
    data: &GtsData,
    s: &CommandSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let c = &data.command;
    if !(1..=5).contains(&s.pc) {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidRating,
            "a PC rating runs from 1 to 5",
        )
        .field("pc")
        .rule("1.2"));
    }
    let die = c.dice.get(&s.ts).ok_or_else(|| {
        RefereeError::new(
            ErrorCode::SituationInvalidRating,
            format!(
                "tactical skill {}: E, G, A or P",
                crate::error::given(&s.ts)
            ),
        )
        .field("ts")
        .rule("1.2")
    })?;
    if s.wing_without_army_point {
        let key = format!("points_{}", s.pc);
        let mut r = Resolution::certain(
            &data.system.id,
            "command_points",
            &key,
            "Without a point from the army general, a wing general has his PC rating in points.",
            points_on(s, i64::from(s.pc)),
        )
        .named(&key, format!("{} points", s.pc));
        r.totals
            .push(Total::new("Command points", s.pc.to_string(), "1.3", None));
        return Ok(r);
    }
    let spec: DiceSpec = die
        .parse()
        .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
    let pc = i64::from(s.pc);
    let points = spec.distribution()?.map(|r| (*r).max(pc));
    let distribution = points
        .outcomes()
        .map(|(n, p)| {
            crate::contract::ResultOdds::new(
                &format!("points_{n}"),
                &format!("{n} command points this phase."),
                "—".into(),
                p,
                points_on(s, *n),
            )
        })
        .collect();
    let outcome = match dice {
        None => None,
        Some(faces) => {
            let roll = crate::rule_system::resolve::faces_total(&spec, faces)?;
            let n = roll.max(pc);
            Some(crate::contract::Outcome {
                dice: faces.to_vec(),
                roll,
                modified: n,
                result: format!("points_{n}"),
                meaning: format!("{n} command points this phase."),
                effects: points_on(s, n),
                sides: Vec::new(),
            })
        }
    };
    let mut r = Resolution::certain(&data.system.id, "command_points", "", "", Vec::new());
    r.shown.names = points
        .outcomes()
        .map(|(n, _)| (format!("points_{n}"), format!("{n} points")))
        .collect();
    r.dice = die.clone();
    r.distribution = distribution;
    r.outcome = outcome;
    r.totals = vec![
        Total::new(
            "Personal command rating (the minimum)",
            s.pc.to_string(),
            "1.2",
            None,
        ),
        Total::new(
            format!("Tactical skill {} rolls", s.ts),
            die.clone(),
            "1.2",
            None,
        ),
        Total::new(
            "Command radius (army / wing)",
            format!("{}\" / {}\"", c.army_radius, c.wing_radius),
            "1.3, 1.4",
            None,
        ),
    ];
    r.notes.push(Note::new(
        format!("Points are not saved. Placing a unit in Reserve costs the army general {} points (once a game).", c.reserve_cost),
        "1.2, 1.7 e, 3.31",
        None,
    ));
    Ok(r)
}

/// leader_casualty: a general with a unit that routs or loses a stand while routed (1.9–1.10).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsLeaderCasualtySituation")]
pub struct LeaderCasualtySituation {
    /// Two leaders in the combat: this one's side (1.10).
    #[serde(default)]
    #[ts(optional)]
    pub side: Option<LeaderSide>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "GtsLeaderSide")]
pub enum LeaderSide {
    /// With the routed units that caused the check: −1.
    Routed,
    /// On the victorious side: +1.
    Victorious,
}

/// What Table 1.10's result on `roll` does to the leader named `leader` (his own row on the
/// roster, or the unit he rides with) and, on 8, to the units of his side within 6" of him, which
/// the players pick as the result lands (R-GTS-25, R-GTS-33).
pub(super) fn table_effects(
    data: &GtsData,
    roll: Option<i64>,
    leader: &str,
) -> Vec<crate::contract::Effect> {
    let lc = &data.leader_casualty;
    let on = |rolls: &[i64]| roll.is_some_and(|n| rolls.contains(&n));
    let mut effects = Vec::new();
    let change = if on(&lc.killed_on) {
        // 6 and 8 are deaths too, for 8.0 as for the unit (R-GTS-30).
        Some((Change::LeaderKilled, Some("R-GTS-30")))
    } else if on(&lc.captured_on) {
        Some((Change::LeaderCaptured, None))
    } else if on(&lc.dazed_on) {
        Some((Change::LeaderDazed, Some("R-GTS-25")))
    } else if on(&lc.unhorsed_on) {
        Some((Change::LeaderUnhorsed, Some("R-GTS-25")))
    } else if on(&lc.passes_out_on) {
        Some((Change::LeaderSeriouslyWounded, Some("R-GTS-25")))
    } else if on(&lc.wound_on) {
        Some((Change::LeaderWounded, None))
    } else {
        None
    };
    if let Some((change, ruling)) = change {
        effects.push(effect(
            Target::Unit(leader.to_string()),
            change,
            "Table 1.10",
            ruling,
        ));
    }
    if on(&lc.nearby_minus_one_on) {
        effects.push(effect(
            Target::Within {
                of: leader.to_string(),
                inches: lc.nearby_inches,
            },
            Change::NearFallenLeader,
            "Table 1.10",
            Some("R-GTS-33"),
        ));
    }
    effects
}

/// The leader a casualty test typed by hand names: the umpire picks his row (or his unit) on the
/// roster where the result lands. From the roster the test is chained in the fight, naming him.
const THE_LEADER: &str = "the leader";

pub fn leader_casualty(
    data: &GtsData,
    s: &LeaderCasualtySituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let lc = &data.leader_casualty;
    let modifier = match s.side {
        None => 0,
        Some(LeaderSide::Routed) => lc.routed_side,
        Some(LeaderSide::Victorious) => lc.victorious_side,
    };
    let check: DiceSpec = lc
        .check_dice
        .parse()
        .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
    let hurt = check
        .distribution()?
        .map(|r| *r + modifier <= lc.wounded_on);
    let outcome_dice: DiceSpec = lc
        .outcome_dice
        .parse()
        .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
    let table = crate::rule_system::shared::roll_table(&lc.outcomes);
    let consequences = outcome_dice
        .distribution()?
        .and_then(|r| Ok(Dist::certain(table.lookup(*r).cloned().unwrap_or_default())))?;
    let chained = hurt.and_then(|h| {
        if *h {
            Ok(consequences.clone())
        } else {
            Ok(Dist::certain("unharmed".to_string()))
        }
    })?;
    let mut r = Resolution::certain(&data.system.id, "leader_casualty", "", "", Vec::new());
    r.dice = format!("{} then {}", lc.check_dice, lc.outcome_dice);
    r.total_modifier = modifier;
    if modifier != 0 {
        r.modifiers.push(Modifier::new(
            if modifier < 0 {
                "Leader of the routed units"
            } else {
                "Leader on the victorious side"
            },
            modifier,
            "1.10",
            None,
        ));
    }
    // The Table 1.10 roll a result stands for, for the roster's change.
    let roll_of = |k: &str| {
        lc.outcomes
            .iter()
            .find(|row| row.result == k)
            .and_then(|row| row.min.or(row.max))
    };
    r.distribution = chained
        .outcomes()
        .map(|(k, p)| {
            let effects = table_effects(data, roll_of(k), THE_LEADER);
            crate::contract::ResultOdds::new(k, k, "—".into(), p, effects)
        })
        .collect();
    // Asked in turn: the check's die, then Table 1.10's only when the leader is hurt.
    let mut throws = crate::rule_system::throws::Throws::new(dice.unwrap_or(&[]));
    let die = |sides: u32, purpose: &str| crate::rule_system::Die {
        sides,
        thrower: None,
        label: None,
        purpose: Some(purpose.to_string()),
        face_names: Vec::new(),
    };
    let check_face = throws.one(die(check.sides, "casualty test"))?;
    let hurt_now = check_face.is_some_and(|c| i64::from(c) + modifier <= lc.wounded_on);
    let table_face = if hurt_now {
        throws.one(die(outcome_dice.sides, "Table 1.10"))?
    } else {
        None
    };
    let result = match (check_face, table_face) {
        (Some(_), Some(t)) => Some(table.lookup(i64::from(t))?.clone()),
        (Some(_), None) if !hurt_now => Some("unharmed".to_string()),
        _ => None,
    };
    r.outcome = match (check_face, result) {
        (Some(c), Some(result)) => {
            let effects = r
                .distribution
                .iter()
                .find(|d| d.result == result)
                .map(|d| d.effects.clone())
                .unwrap_or_default();
            Some(crate::contract::Outcome {
                dice: dice.unwrap_or(&[]).to_vec(),
                roll: i64::from(c),
                modified: i64::from(c) + modifier,
                meaning: result.clone(),
                result,
                effects,
                sides: Vec::new(),
            })
        }
        _ => None,
    };
    r.shown.faces = throws.finish()?;
    r.shown.in_turn = true;
    r.forecast.push(Chance::new(
        "The leader is hurt (d10 ≤ 3) and rolls on Table 1.10",
        hurt.probability(&true),
        &lc.rule,
    ));
    if lc.nearby_minus_one_on.iter().any(|n| {
        lc.outcomes
            .iter()
            .any(|row| row.min.or(row.max) == Some(*n))
    }) {
        r.checks.push(Check::umpire(
            "Result 8: the units of his side within 6\" of the fallen leader, picked as the result lands, each take −1 to melees and command tests until the turn ends",
            "Table 1.10",
        ));
    }
    r.forecast.push(Chance::new(
        "The leader leaves play (6–0 on Table 1.10)",
        chained.probability_where(|k| ["6", "7", "8", "9", "0"].iter().any(|d| k.starts_with(d))),
        "Table 1.10",
    ));
    Ok(r)
}

/// frenzy: an elephant's frenzy tests after hits, the driver's chance, the direction (7.41–7.42,
/// 4.46).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsFrenzySituation")]
pub struct FrenzySituation {
    /// Hits on the elephant stand before this round.
    pub hits_before: u32,
    /// Hits this round.
    pub new_hits: u32,
    /// The elephant has an escort stand: it is removed the instant the elephant frenzies
    /// (3.166).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub escort: bool,
}

pub fn frenzy(
    data: &GtsData,
    s: &FrenzySituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let fz = &data.frenzy;
    if s.hits_before + s.new_hits >= 6 {
        return Err(RefereeError::new(
            ErrorCode::SituationTooManyHits,
            "an elephant stand takes 6 hits: the sixth removes it",
        )
        .field("new_hits")
        .rule("5.52"));
    }
    let (tests, end) = frenzy_odds(data, s.hits_before, s.new_hits)?;
    let mut r = Resolution::certain(&data.system.id, "frenzy", "", "", Vec::new());
    r.dice = format!(
        "{} per test, then {}, then d{} for a frenzied elephant's heading",
        fz.dice,
        fz.driver_dice,
        fz.directions.len()
    );
    r.distribution = end
        .outcomes()
        .map(|(k, p)| {
            let effects =
                frenzy_effects(data, *k, ("elephant", None), s.escort.then_some("escort"));
            crate::contract::ResultOdds::new(k.code(), k.words(), "—".into(), p, effects)
        })
        .collect();
    let mut throws = crate::rule_system::throws::Throws::new(dice.unwrap_or(&[]));
    let mut result = thrown_frenzy(data, &tests, ("", None), &mut throws)?;
    // Frenzied, its heading is thrown next (4.46) and lands with it.
    let heading = match result {
        Some(Frenzy::Frenzied) => {
            let heading = thrown_heading(data, ("", None), &mut throws)?;
            if heading.is_none() {
                result = None;
            }
            heading
        }
        _ => None,
    };
    r.shown.faces = throws.finish()?;
    r.shown.in_turn = true;
    if tests.is_empty() {
        // No hit tests: calm, with nothing to throw.
        r.dice = String::new();
    }
    r.outcome = match result {
        Some(result) if dice.is_some() || tests.is_empty() => {
            let faces = dice.unwrap_or(&[]);
            let effects = frenzy_effects(
                data,
                result,
                ("elephant", heading.as_deref()),
                s.escort.then_some("escort"),
            );
            Some(crate::contract::Outcome {
                dice: faces.to_vec(),
                roll: i64::from(faces.first().copied().unwrap_or(0)),
                modified: i64::from(faces.first().copied().unwrap_or(0)),
                result: result.code().to_string(),
                meaning: match &heading {
                    Some(h) => format!("{}, heading {h}", result.words()),
                    None => result.words().to_string(),
                },
                effects,
                sides: Vec::new(),
            })
        }
        _ => None,
    };
    r.totals.push(Total::new(
        "Frenzy tests this round",
        tests.len().to_string(),
        &fz.rule,
        None,
    ));
    // 4.46: a frenzied elephant's direction, a d8 on the compass with its facing as north.
    if end.probability(&Frenzy::Frenzied).numerator() > 0 {
        let d8 = Dist::uniform(fz.directions.iter().cloned())?;
        let heading = end.and_then(|e| {
            if *e == Frenzy::Frenzied {
                Ok(d8.map(|d| Some(d.clone())))
            } else {
                Ok(Dist::certain(None))
            }
        })?;
        for (d, p) in heading.outcomes() {
            if let Some(d) = d {
                r.forecast.push(Chance::new(
                    format!("Frenzied, heading {d}"),
                    p,
                    &fz.direction_rule,
                ));
            }
        }
    }
    for (i, minus) in tests.iter().enumerate() {
        r.totals.push(Total::new(
            format!("Test {}: frenzy on a d8 of", i + 1),
            format!("1–3 after −{minus}"),
            &fz.rule,
            None,
        ));
    }
    r.notes.push(Note::new(
        format!("A frenzied elephant faces a d8 compass point ({}) and moves full distance plus panic dice; escorts are removed.", fz.directions.join(", ")),
        "4.46, 3.166",
        None,
    ));
    Ok(r)
}

/// What a frenzy does to the elephant and its escort (7.41–7.43, 3.166): frenzied, it rampages
/// (4.46); killed by its driver, it is removed; either way the escort goes the instant it
/// frenzies, whatever the driver does next.
/// `heading`: the compass point its d8 gave (4.46), none while the odds are laid out.
pub(super) fn frenzy_effects(
    data: &GtsData,
    end: Frenzy,
    (elephant, heading): (&str, Option<&str>),
    escort: Option<&str>,
) -> Vec<crate::contract::Effect> {
    let fz = &data.frenzy;
    let on = |name: &str| Target::Unit(name.to_string());
    let mut effects = match end {
        Frenzy::KilledByItsDriver => vec![effect(
            on(elephant),
            Change::DestroyAll,
            &fz.driver_rule,
            None,
        )],
        Frenzy::Frenzied => vec![effect(
            on(elephant),
            Change::Rampage {
                direction: heading.unwrap_or("to a d8 compass point").into(),
            },
            &fz.direction_rule,
            None,
        )],
        Frenzy::Calm => return Vec::new(),
    };
    if let Some(escort) = escort {
        effects.push(effect(on(escort), Change::DestroyAll, "3.166, 7.41", None));
    }
    effects
}

/// The frenzy tests thrown in turn (7.41–7.42): a d8 per test (`tests`: each test's −1s) until
/// one frenzies, then the driver's d10; each die named by `whose` (the elephant and its side's
/// thrower, or none). None while a die is still to be thrown.
pub(super) fn thrown_frenzy(
    data: &GtsData,
    tests: &[i64],
    (label, thrower): (&str, Option<crate::rule_system::Thrower>),
    throws: &mut crate::rule_system::throws::Throws,
) -> Result<Option<Frenzy>, RefereeError> {
    let fz = &data.frenzy;
    let die = |sides: u32, purpose: String| crate::rule_system::Die {
        sides,
        thrower,
        label: (!label.is_empty()).then(|| label.to_string()),
        purpose: Some(purpose),
        face_names: Vec::new(),
    };
    let sides = |spec: &str| {
        spec.parse::<DiceSpec>()
            .map(|d| d.sides)
            .map_err(|e| RefereeError::new(ErrorCode::RulesetInvalid, e))
    };
    let (d8, d10) = (sides(&fz.dice)?, sides(&fz.driver_dice)?);
    let mut frenzied = false;
    for (i, minus) in tests.iter().enumerate() {
        match throws.one(die(d8, format!("frenzy test {}", i + 1)))? {
            None => return Ok(None),
            Some(f) if i64::from(f) - minus <= fz.frenzy_on => {
                frenzied = true;
                break;
            }
            Some(_) => {}
        }
    }
    if !frenzied {
        return Ok(Some(Frenzy::Calm));
    }
    Ok(throws.one(die(d10, "driver".into()))?.map(|driver| {
        if i64::from(driver) <= fz.driver_kills_on {
            Frenzy::KilledByItsDriver
        } else {
            Frenzy::Frenzied
        }
    }))
}

/// A frenzied elephant's heading (4.46, R-GTS-36): "rolling a d8, using the Elephant unit facing as North
/// on the compass", each face named by its compass point. None while the die is to be thrown.
pub(super) fn thrown_heading(
    data: &GtsData,
    (label, thrower): (&str, Option<crate::rule_system::Thrower>),
    throws: &mut crate::rule_system::throws::Throws,
) -> Result<Option<String>, RefereeError> {
    let points = &data.frenzy.directions;
    let die = crate::rule_system::Die {
        sides: points.len() as u32,
        thrower,
        label: (!label.is_empty()).then(|| label.to_string()),
        purpose: Some("rampage heading, its facing as North".into()),
        face_names: Vec::new(),
    }
    .naming_faces(points);
    Ok(throws
        .one(die)?
        .and_then(|f| points.get(f as usize - 1).cloned()))
}

/// How a hit elephant's tests end, its heading if frenzied, and the words.
pub(super) type ElephantHit = (Frenzy, Option<String>, String);

/// An elephant hit by a fire or a melee round (7.41–7.42, 4.46, R-GTS-36): the frenzy tests its
/// hits call for, thrown in turn, and, frenzied, its heading's d8; how they end, its heading and
/// the words ("Elephants frenzies and rampages heading E"). `hits` are its stands, the hits its
/// front stand had, those it takes and a stand's; Some(None) when nothing tests, None while a
/// die is to be thrown.
pub(super) fn thrown_for_a_hit_elephant(
    data: &GtsData,
    (stands, before, new, per_stand): (u32, u32, u32, u32),
    whose: (&str, Option<crate::rule_system::Thrower>),
    throws: &mut crate::rule_system::throws::Throws,
) -> Result<Option<Option<ElephantHit>>, RefereeError> {
    let Some((on_stand, hits)) = frenzy_stand(stands, before, new, per_stand) else {
        return Ok(Some(None));
    };
    let (tests, _) = frenzy_odds(data, on_stand, hits)?;
    if tests.is_empty() {
        return Ok(Some(None));
    }
    let Some(end) = thrown_frenzy(data, &tests, whose, throws)? else {
        return Ok(None);
    };
    // Frenzied, its heading's d8 is thrown next (4.46).
    let heading = match end {
        Frenzy::Frenzied => match thrown_heading(data, whose, throws)? {
            Some(h) => Some(h),
            None => return Ok(None),
        },
        _ => None,
    };
    let name = whose.0;
    let words = match (end, &heading) {
        (Frenzy::Calm, _) => format!("{name} stays calm"),
        (Frenzy::Frenzied, Some(h)) => format!("{name} frenzies and rampages heading {h}"),
        (Frenzy::Frenzied, None) => format!("{name} frenzies and rampages"),
        (Frenzy::KilledByItsDriver, _) => format!("{name} frenzies and its driver kills it"),
    };
    Ok(Some(Some((end, heading, words))))
}

/// How an elephant's frenzy tests end (7.41–7.42): in the order the results are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Frenzy {
    Calm,
    Frenzied,
    KilledByItsDriver,
}

impl Frenzy {
    /// The result's key.
    pub fn code(self) -> &'static str {
        match self {
            Frenzy::Calm => "calm",
            Frenzy::Frenzied => "frenzied",
            Frenzy::KilledByItsDriver => "killed_by_its_driver",
        }
    }

    /// The result in words.
    pub fn words(self) -> &'static str {
        match self {
            Frenzy::Calm => "calm",
            Frenzy::Frenzied => "frenzied",
            Frenzy::KilledByItsDriver => "killed by its driver",
        }
    }
}

/// The frenzy test chained after `new` hits on an elephant unit whose front stand has
/// `before` (7.41, R-GTS-27): hits that eliminate the front stand spill onto the next, which
/// tests as a stand of its own (its first hit tests nothing, R-GTS-10); the eliminated stand
/// does not frenzy, and nor does a unit with no stand left.
pub fn chained_frenzy(
    data: &GtsData,
    stands: u32,
    before: u32,
    new: u32,
    per_stand: u32,
) -> Result<Dist<Frenzy>, crate::odds::OddsError> {
    let Some((on_stand, hits)) = frenzy_stand(stands, before, new, per_stand) else {
        return Ok(Dist::certain(Frenzy::Calm));
    };
    frenzy_odds(data, on_stand, hits)
        .map(|(_, d)| d)
        .map_err(|_| crate::odds::OddsError::Empty)
}

/// The stand that tests for frenzy after `new` hits on an elephant unit whose front stand has
/// `before` (R-GTS-27): the hits it had and the hits it takes; None when nothing tests.
pub(super) fn frenzy_stand(
    stands: u32,
    before: u32,
    new: u32,
    per_stand: u32,
) -> Option<(u32, u32)> {
    let total = before + new;
    if new == 0 || per_stand == 0 {
        return None;
    }
    if total < per_stand {
        Some((before, new))
    } else if total / per_stand >= stands || total.is_multiple_of(per_stand) {
        None
    } else {
        Some((0, total % per_stand))
    }
}

/// The frenzy tests of an elephant stand with `before` hits taking `new` more (7.41, R-GTS-10):
/// the −1s of each test, and the end: calm, frenzied, or killed by its driver (7.42).
pub fn frenzy_odds(
    data: &GtsData,
    before: u32,
    new: u32,
) -> Result<(Vec<i64>, Dist<Frenzy>), RefereeError> {
    let fz = &data.frenzy;
    // 7.41: after the first hit, each hit tests; several in one round test once per hit over
    // the first. −1 per hit over 2 on the stand at that moment.
    let mut tests = Vec::new();
    let mut on_stand = before;
    for k in 0..new {
        on_stand += 1;
        let counts = if new > 1 {
            k >= 1 && on_stand > 1
        } else {
            on_stand > 1
        };
        if counts {
            tests.push(i64::from(on_stand.saturating_sub(fz.free_hits)));
        }
    }
    let d8: DiceSpec = fz
        .dice
        .parse()
        .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
    let mut calm = Dist::certain(true);
    for minus in &tests {
        let ok = d8.distribution()?.map(|r| *r - minus > fz.frenzy_on);
        calm = calm.joint(&ok)?.map(|(a, b)| *a && *b);
    }
    let driver: DiceSpec = fz
        .driver_dice
        .parse()
        .map_err(|e: String| RefereeError::new(ErrorCode::RulesetInvalid, e))?;
    let kills = driver.distribution()?.map(|r| *r <= fz.driver_kills_on);
    let end = calm.and_then(|c| {
        if *c {
            Ok(Dist::certain(Frenzy::Calm))
        } else {
            Ok(kills.map(|k| {
                if *k {
                    Frenzy::KilledByItsDriver
                } else {
                    Frenzy::Frenzied
                }
            }))
        }
    })?;
    Ok((tests, end))
}

/// army_break: the army break point and, at the end, the victory level (8.0, R-GTS-7).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsArmyBreakSituation")]
pub struct ArmyBreakSituation {
    /// Units in the army at the start (FRU).
    pub units: u32,
    /// Units eliminated or in permanent Rout.
    pub lost: u32,
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub general_lost: bool,
    /// The baggage train routed or lost half its stands.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub baggage_looted: bool,
    /// For the victory level: stands eliminated of the victor and of the defeated.
    #[serde(default)]
    #[ts(optional)]
    pub victor_stands_lost: Option<u32>,
    #[serde(default)]
    #[ts(optional)]
    pub defeated_stands_lost: Option<u32>,
    /// Points of a general to cost: PC 1–5, TS letter, PV −2…+2 (1.11).
    #[serde(default)]
    #[ts(optional)]
    pub general: Option<GeneralRating>,
    /// The enemy army has reached its break point too: both broken, the battle is a tactical
    /// draw.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub enemy_broken: bool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsGeneralRating")]
pub struct GeneralRating {
    pub pc: u32,
    pub ts: String,
    pub pv: i64,
}

/// The army break point (units) and the percentage it rests on (8.0): the general's loss and the
/// baggage's looting each lower it.
pub fn break_point(
    data: &GtsData,
    units: u32,
    general_lost: bool,
    baggage_looted: bool,
) -> (u32, u32) {
    let ab = &data.army_break;
    let percent = match (general_lost, baggage_looted) {
        (true, true) => ab.both_losses_percent,
        (false, false) => ab.percent,
        _ => ab.one_loss_percent,
    };
    ((units * percent).div_ceil(100), percent)
}

pub fn army_break(data: &GtsData, s: &ArmyBreakSituation) -> Result<Resolution, RefereeError> {
    let ab = &data.army_break;
    if s.units == 0 || s.lost > s.units {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "an army has 1 unit or more, and cannot lose more units than it has",
        )
        .field(if s.units == 0 { "units" } else { "lost" })
        .rule(&ab.rule));
    }
    let (abp, percent) = break_point(data, s.units, s.general_lost, s.baggage_looted);
    let broken = s.lost >= abp;
    // 8.0: the broken side's turn to break the enemy "as well, thus rescuing a tactical Draw";
    // both armies past their break points is that draw (R-GTS-37).
    let draw = broken && s.enemy_broken;
    let mut r = Resolution::certain(
        &data.system.id,
        "army_break",
        if draw {
            "draw"
        } else if broken {
            "broken"
        } else {
            "holding"
        },
        &if draw {
            "Both armies have reached their break points: the battle is a tactical Draw."
                .to_string()
        } else if broken {
            "The army has reached its break point: in its Command phase it has this turn to break the enemy too, for a draw.".to_string()
        } else {
            format!(
                "{} more lost and the army breaks.",
                crate::error::counted(i64::from(abp - s.lost), "unit", "units")
            )
        },
        Vec::new(),
    );
    r.totals = vec![
        Total::new(
            "Army break point",
            format!("{abp} ({percent}% of {}, rounded up)", s.units),
            &ab.rule,
            ab.ruling.as_deref(),
        ),
        Total::new(
            "Units eliminated or permanently routed",
            s.lost.to_string(),
            &ab.rule,
            None,
        ),
        Total::new(
            "To the break point",
            abp.saturating_sub(s.lost).to_string(),
            &ab.rule,
            None,
        ),
    ];
    if let (Some(v), Some(d), false) = (s.victor_stands_lost, s.defeated_stands_lost, draw) {
        if d == 0 {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidField,
                "the defeated army lost no stands: no ratio",
            )
            .field("defeated_stands_lost")
            .rule(&ab.victory_rule));
        }
        let (mn, md) = fraction(&ab.marginal_at_least).unwrap_or((9, 10));
        let (dn, dd) = fraction(&ab.decisive_at_least).unwrap_or((3, 5));
        // VR = v / d compared exactly: v·md ≥ mn·d ⇔ VR ≥ mn/md.
        let (v, d) = (u64::from(v), u64::from(d));
        let level = if v * md >= mn * d {
            "marginal"
        } else if v * dd >= dn * d {
            "decisive"
        } else {
            "strategic"
        };
        r.totals.push(Total::new(
            "Victory ratio (victor's stands lost ÷ defeated's)",
            format!("{v}/{d} → {level} victory"),
            &ab.victory_rule,
            None,
        ));
    }
    if let Some(g) = &s.general {
        let gc = &data.general_cost;
        let grade = gc.grades.iter().position(|x| *x == g.ts).ok_or_else(|| {
            RefereeError::new(
                ErrorCode::SituationInvalidRating,
                format!(
                    "tactical skill {}: E, G, A or P",
                    crate::error::given(&g.ts)
                ),
            )
            .field("general.ts")
            .rule("1.2")
        })? as u32;
        if !(1..=5).contains(&g.pc) || !(-2..=2).contains(&g.pv) {
            return Err(RefereeError::new(
                ErrorCode::SituationInvalidRating,
                "PC runs 1–5 and PV −2…+2",
            )
            .field("general")
            .rule("1.2"));
        }
        let steps = (g.pc - 1) + grade + (g.pv + 2) as u32;
        r.totals.push(Total::new(
            format!("General {}({}) {:+}", g.pc, g.ts, g.pv),
            format!("{} pts", gc.base + gc.step * steps),
            &gc.rule,
            None,
        ));
    }
    Ok(r)
}

/// wheel_cost: the inches a wheel costs, and whether it disorders (4.13).
#[derive(Clone, Debug, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "GtsWheelSituation")]
pub struct WheelSituation {
    pub unit: UnitEntry,
    /// Stands across the unit's front.
    pub front_stands: u32,
    /// Degrees wheeled.
    pub degrees: u32,
}

pub fn wheel_cost(data: &GtsData, s: &WheelSituation) -> Result<Resolution, RefereeError> {
    let u = Unit::build(data, &s.unit, "unit")?;
    if s.front_stands == 0 || s.front_stands > u.stands {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidField,
            "the front is 1 stand or more, and no more than the unit has",
        )
        .field("front_stands")
        .rule("4.13"));
    }
    if s.degrees == 0 || s.degrees > 90 {
        return Err(RefereeError::new(
            ErrorCode::SituationInvalidWheel,
            "a formed unit wheels 1° to 90° in one movement phase",
        )
        .field("degrees")
        .rule("4.13"));
    }
    let increments = s.degrees.div_ceil(45);
    let cost = s.front_stands * increments;
    // Cavalry, Flexible infantry, elephants and chariots wheel 90° in good order.
    let free = u.mounted
        || matches!(u.class.as_str(), "elephant" | "chariot")
        || (u.class == "infantry" && s.unit.training.as_deref() == Some("F"));
    let disorders = s.degrees > 45 && !free;
    let mut r = Resolution::certain(
        &data.system.id,
        "wheel_cost",
        &format!("{cost}\""),
        &if disorders {
            format!("The wheel costs {cost}\" and the unit is Disordered at its end.")
        } else {
            format!("The wheel costs {cost}\".")
        },
        if disorders {
            vec![effect(
                Target::Unit(u.name.clone()),
                Change::Disorder,
                "4.13",
                None,
            )]
        } else {
            Vec::new()
        },
    );
    r.totals.push(Total::new(
        "Cost: 1\" per front stand per 45° or part",
        format!("{} × {increments} = {cost}\"", s.front_stands),
        "4.13",
        None,
    ));
    r.checks.push(Check::holds(
        "Wheels up to 90° in good order (cavalry, Flexible infantry, elephants, chariots)",
        free,
        "4.13",
    ));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_natural_ten_eliminates_a_skirmish_stand_whatever_its_number() {
        // 4.324: the pass-through test's 10 eliminates; otherwise at most the number passes.
        let data = crate::systems::gts::test_data();
        let (key, test) = data
            .response
            .tests
            .iter()
            .find(|(_, t)| t.eliminated_on.is_some())
            .expect("a test with a natural elimination");
        let bands = pass_bands(test, 6);
        let names: Vec<&str> = bands.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["passes", "fails", "eliminated"], "{key}");
        assert_eq!(bands[2].0.min, Some(10));
        // A number of 12 leaves no failing band: 1–9 pass, 10 eliminates.
        assert_eq!(pass_bands(test, 12).len(), 2);
        let rally = &data.response.tests["rally"];
        assert_eq!(pass_bands(rally, 7).len(), 2);
    }
}
