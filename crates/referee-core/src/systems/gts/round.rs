//! The chained melee round, one exact forecast per unit: the roll-off's hits (6.12), Disorder
//! (6.13, 3.32), the stand-loss check of a modifying unit that lost a stand (R-GTS-19), every
//! unit's recoil test (7.1), then the recoil-move test (7.2), the victor's follow-up (7.3) and the
//! leader casualty test of a unit that routs or loses a stand while Routed (1.9–1.10).

use std::collections::BTreeMap;

use super::checks::{chained_frenzy, Frenzy};
use super::data::GtsData;
use super::melee::{
    disordered_by, fate_word, fight, melee, melee_notes, recoil_test, MeleeSituation, MeleeUnit,
    Side,
};
use super::recoil::{nobody_passes, unit_fate, Fate, Test};
use super::units::Unit;
use crate::contract::{Chance, Check, Note, Resolution};
use crate::error::RefereeError;
use crate::odds::{Dist, OddsError};
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};

/// The stand-loss check of a side's modifying unit after the roll-off (5.53, R-GTS-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum StandLoss {
    /// No stand lost: no check.
    None,
    Passed,
    /// Failed in good order.
    Disordered,
    /// Failed while Disordered.
    Routed,
    /// A stand lost by a unit already Routed: no check, but its leader tests (1.9).
    WhileRouted,
    /// Its last stand is gone.
    Eliminated,
}

/// What a unit does after its recoil test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Holds,
    /// Held, made every enemy unit give ground and passed its command test (7.3).
    FollowsUp,
    Recoils,
    Routs,
    Locked,
    /// Locked, and the lock's hits with the roll-off's make a stand's worth this melee phase:
    /// Disordered (6.13).
    LockedDisordered,
    /// Already Routed: another rout move instead of a recoil test (6.21).
    RoutMove,
    Eliminated,
}

/// A unit's end of the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct End {
    step: Step,
    stand_loss: StandLoss,
    /// The recoil-move test (7.2): None untested; a failure Disorders, or costs a hit when the
    /// unit is already Disordered.
    recoil_move: Option<RecoilMove>,
    /// The leader's test (1.9): None untested, 0 unharmed, 1…10 Table 1.10's result.
    leader: Option<u8>,
    /// The victorious side's leader's test at +1 that this leader's test calls for (1.10), read
    /// the same way.
    victor_leader: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RecoilMove {
    Passed,
    Disordered,
    Hit,
}

/// Hits to each side's modifying unit and their stand-loss checks.
type Scenario = (u32, u32, StandLoss, StandLoss);

fn d10_at_most(n: i64) -> Result<Dist<bool>, OddsError> {
    Ok(Dist::die(10)?.map(|r| *r <= n))
}

/// The stand-loss check a side's modifying unit takes after `hits`: certain, or a d10 of
/// `number` or less passes (a failure Disorders it, or Routs it when `disordered`).
pub(super) enum StandLossTest {
    Certain(StandLoss),
    Check { number: i64, disordered: bool },
}

impl StandLossTest {
    pub(super) fn of(data: &GtsData, side: &Side, hits: u32) -> StandLossTest {
        let (u, e) = &side.units[side.modifying];
        let (stands, _) = u.after_hits(hits);
        if stands == 0 {
            return StandLossTest::Certain(StandLoss::Eliminated);
        }
        if stands == u.stands {
            return StandLossTest::Certain(StandLoss::None);
        }
        if u.routed {
            return StandLossTest::Certain(StandLoss::WhileRouted);
        }
        let disordered = disordered_by(u, hits);
        let penalty = if disordered {
            data.response.disordered.modifier
        } else {
            0
        };
        StandLossTest::Check {
            number: u.response.value + e.leader_valour().unwrap_or(0) + penalty,
            disordered,
        }
    }

    /// What a d10 of `face` makes of the check.
    pub(super) fn with(&self, face: i64) -> StandLoss {
        match *self {
            StandLossTest::Certain(s) => s,
            StandLossTest::Check { number, .. } if face <= number => StandLoss::Passed,
            StandLossTest::Check {
                disordered: false, ..
            } => StandLoss::Disordered,
            StandLossTest::Check { .. } => StandLoss::Routed,
        }
    }
}

fn stand_loss(data: &GtsData, side: &Side, hits: u32) -> Result<Dist<StandLoss>, OddsError> {
    match StandLossTest::of(data, side, hits) {
        StandLossTest::Certain(s) => Ok(Dist::certain(s)),
        test => Ok(Dist::die(10)?.map(|r| test.with(*r))),
    }
}

/// A leader's casualty test and Table 1.10 (1.9–1.10), when the unit has one.
fn leader_test(
    data: &GtsData,
    has_leader: bool,
    modifier: i64,
) -> Result<Dist<Option<u8>>, OddsError> {
    if !has_leader {
        return Ok(Dist::certain(None));
    }
    let lc = &data.leader_casualty;
    let table = Dist::die(10)?.map(|r| Some(*r as u8));
    Dist::die(10)?.and_then(|r| {
        if *r + modifier <= lc.wounded_on {
            Ok(table.clone())
        } else {
            Ok(Dist::certain(Some(0)))
        }
    })
}

/// Unit `i` of side `s` after the roll-off and its side's stand-loss check: the hits it took, its
/// check, and (routed, eliminated, disordered) — only the modifying unit takes hits (6.12).
pub(super) fn after_roll_off(
    side: &Side,
    i: usize,
    hits: u32,
    check: StandLoss,
) -> (u32, StandLoss, (bool, bool, bool)) {
    let (h, c) = if i == side.modifying {
        (hits, check)
    } else {
        (0, StandLoss::None)
    };
    (h, c, status(side, i, h, c))
}

/// A unit's state after the roll-off and the stand-loss check: (routed, eliminated, disordered).
fn status(side: &Side, i: usize, hits: u32, check: StandLoss) -> (bool, bool, bool) {
    let u = &side.units[i].0;
    if i != side.modifying {
        return (u.routed, false, u.disordered);
    }
    (
        u.routed || check == StandLoss::Routed,
        check == StandLoss::Eliminated,
        disordered_by(u, hits) || check == StandLoss::Disordered,
    )
}

/// Every unit's end (side A's, then side B's) in one scenario.
fn ends(data: &GtsData, sides: [&Side; 2], sc: &Scenario) -> Result<Vec<Dist<End>>, OddsError> {
    let (ha, hb, ca, cb) = *sc;
    let hits = [ha, hb];
    let checks = [ca, cb];
    let r = &data.recoil;
    let (tests, index) = recoil_tests_after(data, sides, hits, checks);
    let has_leader = |s: usize| has_leader(sides[s]);
    let mut out = Vec::new();
    for s in 0..2 {
        let (own, other) = (&tests[s], &tests[1 - s]);
        let side = sides[s];
        // 1.10: with a leader on each side, the leader of the routed units tests at −1.
        let leader_modifier = if has_leader(1 - s) {
            data.leader_casualty.routed_side
        } else {
            0
        };
        let everyone_failed = nobody_passes(other)?;
        let victor = leader_test(
            data,
            has_leader(1 - s),
            data.leader_casualty.victorious_side,
        )?;
        for (i, (u, e)) in side.units.iter().enumerate() {
            let (h, check, (routed, eliminated, disordered)) =
                after_roll_off(side, i, hits[s], checks[s]);
            let end = |step, (leader, victor_leader): (Option<u8>, Option<u8>)| End {
                step,
                stand_loss: check,
                recoil_move: None,
                leader,
                victor_leader,
            };
            // 1.10: each leader casualty test of this side's leader calls for one by the
            // victorious side's leader too, at +1: an independent d10, chained exactly.
            let leader = leader_test(data, e.leader_valour().is_some(), leader_modifier)?
                .and_then(|l| match l {
                    Some(_) => Ok(victor.map(|v| (*l, *v))),
                    None => Ok(Dist::certain((None, None))),
                })?;
            let d = if eliminated {
                // 1.9: a Routed unit losing its last stand loses a stand while Routed: its
                // leader tests.
                if u.routed {
                    leader.map(|l| end(Step::Eliminated, *l))
                } else {
                    Dist::certain(end(Step::Eliminated, (None, None)))
                }
            } else if u.routed {
                // 1.9: a unit already Routed that loses a stand puts its leader to the test.
                if check == StandLoss::WhileRouted {
                    leader.map(|l| end(Step::RoutMove, *l))
                } else {
                    Dist::certain(end(Step::RoutMove, (None, None)))
                }
            } else if routed {
                leader.map(|l| end(Step::Routs, *l))
            } else if other.is_empty() {
                // Every enemy unit routed or was eliminated before the recoil tests: nobody is
                // left to press this unit, so it holds (R-GTS-23).
                Dist::certain(end(Step::Holds, (None, None)))
            } else {
                let k = index[s][i].unwrap_or(0);
                let fate = unit_fate(own, k, other, r.rout_multiple)?;
                // 7.3's command test, −1 within 6" of a fallen leader (Table 1.10, 8).
                let follow = d10_at_most(command_number(data, u, e))?;
                let recoil_move = d10_at_most(recoil_move_number(data, u, e, disordered))?;
                fate.and_then(|f| match f {
                    // 7.3: a unit in good order that held while every enemy unit gave ground
                    // takes a command test; the enemy's rolls are independent of its own.
                    Fate::Holds if !disordered => everyone_failed.and_then(|all| {
                        if *all {
                            Ok(follow.map(|ok| {
                                end(
                                    if *ok { Step::FollowsUp } else { Step::Holds },
                                    (None, None),
                                )
                            }))
                        } else {
                            Ok(Dist::certain(end(Step::Holds, (None, None))))
                        }
                    }),
                    Fate::Holds => Ok(Dist::certain(end(Step::Holds, (None, None)))),
                    Fate::Recoils => Ok(recoil_move.map(|ok| End {
                        recoil_move: Some(match (*ok, disordered) {
                            (true, _) => RecoilMove::Passed,
                            (false, false) => RecoilMove::Disordered,
                            (false, true) => RecoilMove::Hit,
                        }),
                        ..end(Step::Recoils, (None, None))
                    })),
                    Fate::Routs => Ok(leader.map(|l| end(Step::Routs, *l))),
                    Fate::Locked => Ok(Dist::certain(end(
                        if lock_disorders(data, u, h, disordered) {
                            Step::LockedDisordered
                        } else {
                            Step::Locked
                        },
                        (None, None),
                    ))),
                })?
            };
            out.push(d);
        }
    }
    Ok(out)
}

/// Who tests recoil after the roll-off and the stand-loss checks, and with what: each side's
/// tests, and each unit's index among them (None: Routed or eliminated, 6.21, 5.52).
pub(super) fn recoil_tests_after(
    data: &GtsData,
    sides: [&Side; 2],
    hits: [u32; 2],
    checks: [StandLoss; 2],
) -> ([Vec<Test>; 2], [Vec<Option<usize>>; 2]) {
    let mut tests: [Vec<Test>; 2] = [Vec::new(), Vec::new()];
    let mut index: [Vec<Option<usize>>; 2] = [Vec::new(), Vec::new()];
    for s in 0..2 {
        let side = sides[s];
        for (i, (u, e)) in side.units.iter().enumerate() {
            let (h, _, (routed, eliminated, disordered)) =
                after_roll_off(side, i, hits[s], checks[s]);
            if routed || eliminated {
                index[s].push(None);
            } else {
                index[s].push(Some(tests[s].len()));
                tests[s].push(recoil_test(data, u, e, u.after_hits(h).0, disordered));
            }
        }
    }
    (tests, index)
}

pub(super) fn has_leader(side: &Side) -> bool {
    side.units.iter().any(|(_, e)| e.leader_valour().is_some())
}

/// 6.13: the lock's hits (7.1) with the roll-off's `hits` make a stand's worth in this melee
/// phase, and the unit was in good order: it is Disordered.
pub(super) fn lock_disorders(data: &GtsData, u: &Unit, hits: u32, disordered: bool) -> bool {
    !disordered && hits + data.recoil.locked_hits >= u.hits_per_stand
}

/// 7.3's command test to follow up: response and valour, −1 within 6" of a fallen leader
/// (Table 1.10, 8).
pub(super) fn command_number(data: &GtsData, u: &Unit, e: &MeleeUnit) -> i64 {
    let fallen = if e.near_fallen_leader {
        data.leader_casualty.near_fallen_leader
    } else {
        0
    };
    u.response.value + e.leader_valour().unwrap_or(0) + fallen
}

/// 7.2's recoil-move test: response and valour, less the Disorder penalty.
pub(super) fn recoil_move_number(data: &GtsData, u: &Unit, e: &MeleeUnit, disordered: bool) -> i64 {
    let penalty = if disordered {
        data.response.disordered.modifier
    } else {
        0
    };
    u.response.value + e.leader_valour().unwrap_or(0) + penalty
}

/// A recoil action's lines, unit by unit (7.1–7.3, 1.9): the round's chain from no hits, so the
/// forecast reads the same numbers as the chain it lays out (played.rs).
pub(super) fn after_recoil_lines(
    data: &GtsData,
    [a, b]: [&Side; 2],
) -> Result<Vec<Chance>, OddsError> {
    let ends = ends(data, [a, b], &(0, 0, StandLoss::None, StandLoss::None))?;
    let names = a.units.iter().chain(&b.units).map(|(u, _)| u.name.as_str());
    Ok(names
        .zip(&ends)
        .flat_map(|(name, d)| unit_lines(name, false, d))
        .collect())
}

pub fn round(
    data: &GtsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    super::contact::with_elephant_contact(data, s, dice, |s, dice| chained(data, s, dice))
}

/// The round once the elephant's contact test (4.45) is settled.
fn chained(
    data: &GtsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
) -> Result<Resolution, RefereeError> {
    let f = fight(data, s)?;
    let (a, b) = (&f.a, &f.b);
    let scenarios: Dist<Scenario> = f.hits.and_then(|(ha, hb)| {
        let (ca, cb) = (stand_loss(data, a, *ha)?, stand_loss(data, b, *hb)?);
        Ok(ca.joint(&cb)?.map(|(x, y)| (*ha, *hb, *x, *y)))
    })?;
    let mut per_scenario: BTreeMap<Scenario, Vec<Dist<End>>> = BTreeMap::new();
    for (sc, _) in scenarios.outcomes() {
        per_scenario.insert(*sc, ends(data, [a, b], sc)?);
    }
    let units: Vec<(String, bool)> = a
        .units
        .iter()
        .enumerate()
        .map(|(i, (u, _))| (u.name.clone(), i == a.modifying))
        .chain(
            b.units
                .iter()
                .enumerate()
                .map(|(i, (u, _))| (u.name.clone(), i == b.modifying)),
        )
        .collect();
    let mut forecast = Vec::new();
    for (k, (name, modifying)) in units.iter().enumerate() {
        let d = scenarios.and_then(|sc| {
            Ok(per_scenario
                .get(sc)
                .and_then(|v| v.get(k))
                .cloned()
                .unwrap_or_else(|| {
                    Dist::certain(End {
                        step: Step::Holds,
                        stand_loss: StandLoss::None,
                        recoil_move: None,
                        leader: None,
                        victor_leader: None,
                    })
                }))
        })?;
        forecast.extend(unit_lines(name, *modifying, &d));
    }
    // 7.41–7.42: an elephant that takes the roll-off's hits tests for frenzy, chained.
    for (side, first) in [(a, true), (b, false)] {
        let (u, _) = &side.units[side.modifying];
        if u.class != "elephant" {
            continue;
        }
        let frenzy = f.hits.and_then(|(ha, hb)| {
            let h = if first { *ha } else { *hb };
            chained_frenzy(data, u.stands, u.hits, h, u.hits_per_stand)
        })?;
        let who = &u.name;
        for (end, words, rule) in [
            (
                Frenzy::Frenzied,
                "frenzies (its escort is removed)",
                "7.41, 3.166",
            ),
            (
                Frenzy::KilledByItsDriver,
                "frenzies and its driver kills it",
                "7.42",
            ),
        ] {
            let p = frenzy.probability(&end);
            if p.numerator() > 0 {
                forecast.push(Chance::new(format!("{who} {words}"), p, rule));
            }
        }
    }
    // The dice asked in turn: the roll-off, then each stage the round calls for (played.rs).
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let roll_off = throws.stage(vec![
        Die::of(10, Thrower::A, "", "roll-off"),
        Die::of(10, Thrower::B, "", "roll-off"),
    ])?;
    let mut res = melee(data, s, roll_off.as_deref())?;
    if let Some(faces) = &roll_off {
        let (x, y) = (i64::from(faces[0]), i64::from(faces[1]));
        match super::played::play(data, &f, (x, y), &mut throws)? {
            Some(played) => {
                if let Some(o) = res.outcome.as_mut() {
                    // The whole chain's faces, as the log keeps them and an edited roll replays.
                    o.dice = dice.unwrap_or(&[]).to_vec();
                    o.effects.extend(played.effects);
                    if !played.words.is_empty() {
                        o.meaning = format!("{} {}.", o.meaning, played.words.join("; "));
                    }
                }
            }
            None => res.outcome = None,
        }
    }
    res.shown.faces = throws.finish()?;
    res.shown.in_turn = true;
    res.action = "melee_round".into();
    res.notes.extend(
        melee_notes([a, b], true)
            .into_iter()
            .filter(|n| n.ruling.as_deref() == Some("R-GTS-17")),
    );
    res.forecast = forecast;
    res.notes.push(Note::new(
        "One round chained: the roll-off's hits (Disorder at a stand's worth, 6.13), the stand-loss check of a unit that lost a stand (a failure Disorders, or Routs a unit already Disordered), every unit's recoil test, then the recoil-move test, the victor's follow-up and the leader's casualty test.",
        "6.13, 6.14, 7.1–7.3, 1.9",
        Some("R-GTS-23"),
    ));
    if [a, b]
        .iter()
        .any(|s| s.units[s.modifying].0.class == "elephant")
    {
        res.notes.push(Note::new(
            "An elephant the roll-off hits takes its frenzy tests last, a d8 per test and then its driver's d10, landing with the round: frenzied it rampages, killed by its driver it is removed, and either way its escort goes.",
            "7.41–7.43, 3.166",
            Some("R-GTS-36"),
        ));
    }
    res.notes.push(Note::new(
        "A unit whose enemies have all routed or been eliminated before the recoil tests holds: nobody is left to press it.",
        "6.21, 7.1",
        Some("R-GTS-23"),
    ));
    res.checks.push(Check::umpire(
        "Hits from being locked in combat or from a failed recoil-move test that cost a stand call for another stand-loss check",
        "7.1, 7.2, 5.53",
    ));
    Ok(res)
}

/// Whether a unit's end is of some kind.
type EndTest = dyn Fn(&End) -> bool;

/// The forecast lines of one unit: its fate first (they sum to one), then what follows.
fn unit_lines(name: &str, modifying: bool, d: &Dist<End>) -> Vec<Chance> {
    let mut out = Vec::new();
    let mut line =
        |label: String, p: crate::odds::Probability, rule: &str, ruling: Option<&str>| {
            if p.numerator() > 0 {
                let mut c = Chance::new(label, p, rule);
                c.ruling = ruling.map(str::to_string);
                out.push(c);
            }
        };
    let fates: [(&str, &EndTest, &str); 6] = [
        (
            fate_word(&Fate::Holds),
            &|e| matches!(e.step, Step::Holds | Step::FollowsUp),
            "7.1",
        ),
        (
            fate_word(&Fate::Recoils),
            &|e| e.step == Step::Recoils,
            "7.1, 7.2",
        ),
        (
            fate_word(&Fate::Routs),
            &|e| e.step == Step::Routs,
            "7.1, 5.53",
        ),
        (
            fate_word(&Fate::Locked),
            &|e| matches!(e.step, Step::Locked | Step::LockedDisordered),
            "7.1",
        ),
        (
            "makes another rout move",
            &|e| e.step == Step::RoutMove,
            "6.21",
        ),
        ("is eliminated", &|e| e.step == Step::Eliminated, "5.52"),
    ];
    for (word, pred, rule) in fates {
        line(
            format!("{name} {word}"),
            d.probability_where(pred),
            rule,
            None,
        );
    }
    if modifying {
        line(
            format!("{name} loses a stand"),
            d.probability_where(|e| e.stand_loss != StandLoss::None),
            "5.52, 6.12",
            None,
        );
        line(
            format!("{name} fails its stand-loss check and is Disordered"),
            d.probability_where(|e| e.stand_loss == StandLoss::Disordered),
            "5.53, 7.0",
            Some("R-GTS-19"),
        );
        line(
            format!("{name} fails its stand-loss check and routs"),
            d.probability_where(|e| e.stand_loss == StandLoss::Routed),
            "5.53, 7.0",
            Some("R-GTS-19"),
        );
    }
    line(
        format!("{name} is Disordered by the lock's hits (a stand's worth this phase)"),
        d.probability_where(|e| e.step == Step::LockedDisordered),
        "6.13, 7.1",
        None,
    );
    line(
        format!("{name} fails its recoil-move test and is Disordered"),
        d.probability_where(|e| e.recoil_move == Some(RecoilMove::Disordered)),
        "7.2",
        None,
    );
    line(
        format!("{name} fails its recoil-move test and takes a hit (already Disordered)"),
        d.probability_where(|e| e.recoil_move == Some(RecoilMove::Hit)),
        "7.2",
        None,
    );
    line(
        format!("{name} follows up to contact"),
        d.probability_where(|e| e.step == Step::FollowsUp),
        "7.3",
        None,
    );
    line(
        format!("{name}: its leader is hurt and rolls on Table 1.10"),
        d.probability_where(|e| e.leader.is_some_and(|l| l > 0)),
        "1.9, 1.10",
        None,
    );
    line(
        format!("{name}: its leader leaves play (6–0 on Table 1.10)"),
        d.probability_where(|e| e.leader.is_some_and(|l| l >= 6)),
        "Table 1.10",
        None,
    );
    line(
        format!("{name}: its leader's test calls the victorious side's leader to test at +1"),
        d.probability_where(|e| e.victor_leader.is_some()),
        "1.10",
        None,
    );
    line(
        format!("{name}: so the victorious side's leader is hurt and rolls on Table 1.10"),
        d.probability_where(|e| e.victor_leader.is_some_and(|l| l > 0)),
        "1.10",
        None,
    );
    line(
        format!("{name}: so the victorious side's leader leaves play (6–0 on Table 1.10)"),
        d.probability_where(|e| e.victor_leader.is_some_and(|l| l >= 6)),
        "Table 1.10",
        None,
    );
    out
}
