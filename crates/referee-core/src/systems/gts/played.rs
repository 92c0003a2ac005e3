//! The chained melee round played with the dice as they fell, one stage at a time: the
//! roll-off's hits, then the stand-loss checks of modifying units that lost a stand (R-GTS-19),
//! then a recoil d100 for every unit still fighting (7.1), then the command tests to follow up
//! (7.3), the recoil-move tests (7.2) and the leaders' casualty tests (1.9–1.10), then Table 1.10
//! for each leader hurt, then the frenzy tests of an elephant the roll-off hit (7.41–7.42). Each
//! stage is asked only once the one before is thrown, and reads the
//! same numbers as the round's forecast (round.rs), so what is applied is what was forecast.

use super::checks::{frenzy_effects, table_effects, thrown_for_a_hit_elephant};
use super::data::GtsData;
use super::melee::{escort_name, fate_word, fates_for_rolls, Fight, Side};
use super::recoil::{Fate, Test};
use super::round::{
    after_roll_off, command_number, has_leader, lock_disorders, recoil_move_number,
    recoil_tests_after, StandLoss, StandLossTest,
};
use crate::contract::{effect, Change, Effect, Target};
use crate::error::{possessive, RefereeError};
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};

/// What the round did after the roll-off: the changes, and each step in words.
#[derive(Debug, Default)]
pub(super) struct Played {
    pub(super) effects: Vec<Effect>,
    pub(super) words: Vec<String>,
}

/// A test of stage four or five, and the unit (side, index) that takes it.
enum Ask {
    /// 7.3: in good order, it held while every enemy unit gave ground.
    Command { number: i64 },
    /// 7.2: it recoiled.
    RecoilMove { number: i64, disordered: bool },
    /// 1.9: its leader, as it routs or loses a stand while Routed.
    Leader { modifier: i64 },
    /// 1.10: the victorious side's leader, at +1, for each test of a routed side's leader.
    Victor,
}

const THROWERS: [Thrower; 2] = [Thrower::A, Thrower::B];

fn name(side: &Side, i: usize) -> &str {
    &side.units[i].0.name
}

/// The unit of a side whose leader tests as the victor: the first with a leader in play.
fn leader_unit(side: &Side) -> Option<usize> {
    side.units
        .iter()
        .position(|(_, e)| e.leader_valour().is_some())
}

/// Plays the round after the roll-off (side A's d10 `x`, side B's `y`). None while a stage's dice
/// are still to be thrown; `throws` then holds the dice to ask.
pub(super) fn play(
    data: &GtsData,
    f: &Fight,
    (x, y): (i64, i64),
    throws: &mut Throws,
) -> Result<Option<Played>, RefereeError> {
    let (ha, hb) = f.hits_for(data, x, y);
    play_after(data, [&f.a, &f.b], [ha, hb], throws)
}

/// The round's stages once each side's modifying unit has taken its `hits`: the stand-loss
/// checks, the recoil d100s and what they call for. A recoil action (7.1) is these stages from
/// no hits, so it asks its dice and lands its result exactly as the round does.
pub(super) fn play_after(
    data: &GtsData,
    sides: [&Side; 2],
    hits: [u32; 2],
    throws: &mut Throws,
) -> Result<Option<Played>, RefereeError> {
    let round = Round { data, sides, hits };
    let mut out = Played::default();
    let Some(checks) = round.stand_loss_checks(throws, &mut out)? else {
        return Ok(None);
    };
    let Some(fates) = round.recoil_fates(checks, throws)? else {
        return Ok(None);
    };
    let asks = round.asks(checks, &fates, &mut out);
    let Some(hurt) = round.answers(&asks, throws, &mut out)? else {
        return Ok(None);
    };
    if round.leaders_hurt(&hurt, throws, &mut out)?.is_none() {
        return Ok(None);
    }
    if round.frenzies(throws, &mut out)?.is_none() {
        return Ok(None);
    }
    Ok(Some(out))
}

/// The round after its roll-off: both sides and the hits each side's modifying unit took.
struct Round<'a> {
    data: &'a GtsData,
    sides: [&'a Side; 2],
    hits: [u32; 2],
}

/// The recoil tests' outcome (7.1): each unit's fate, when both sides still test.
struct Fates {
    tests: [Vec<Test>; 2],
    index: [Vec<Option<usize>>; 2],
    contested: bool,
    fates: Vec<Fate>,
}

impl Fates {
    /// Unit `i` of side `s`: its fate, or none when it took no test; a side whose enemies all
    /// routed or were eliminated holds (R-GTS-23).
    fn of(&self, s: usize, i: usize) -> Option<Fate> {
        let k = self.index[s][i]?;
        if !self.contested {
            return Some(Fate::Holds);
        }
        self.fates
            .get(if s == 0 { k } else { self.tests[0].len() + k })
            .copied()
    }

    fn all_gave_ground(&self, side: &Side, s: usize) -> bool {
        (0..side.units.len()).all(|i| !matches!(self.of(s, i), Some(Fate::Holds)))
    }
}

impl Round<'_> {
    fn to(&self, s: usize, i: usize) -> Target {
        Target::Unit(name(self.sides[s], i).to_string())
    }

    /// Unit `i` of side `s`'s leader, as his fate names him: his own row on the roster, or else
    /// the unit he leads (1.9).
    fn leader_of(&self, s: usize, i: usize) -> String {
        let (unit, e) = &self.sides[s].units[i];
        e.leader_name.clone().unwrap_or_else(|| unit.name.clone())
    }

    /// Stage two: the stand-loss checks of the modifying units that lost a stand (5.53,
    /// R-GTS-19). None while their dice are to be thrown.
    fn stand_loss_checks(
        &self,
        throws: &mut Throws,
        out: &mut Played,
    ) -> Result<Option<[StandLoss; 2]>, RefereeError> {
        let (data, sides) = (self.data, self.sides);
        let tests = [
            StandLossTest::of(data, sides[0], self.hits[0]),
            StandLossTest::of(data, sides[1], self.hits[1]),
        ];
        let dice: Vec<Die> = (0..2)
            .filter(|s| matches!(tests[*s], StandLossTest::Check { .. }))
            .map(|s| {
                let side = sides[s];
                Die::of(
                    10,
                    THROWERS[s],
                    name(side, side.modifying),
                    "stand-loss check",
                )
            })
            .collect();
        let Some(faces) = throws.stage(dice)? else {
            return Ok(None);
        };
        let mut faces = faces.into_iter();
        let mut checks = [StandLoss::None; 2];
        for s in 0..2 {
            checks[s] = match &tests[s] {
                StandLossTest::Certain(c) => *c,
                test => test.with(i64::from(faces.next().unwrap_or(1))),
            };
            let who = name(sides[s], sides[s].modifying);
            let rule = Some("R-GTS-19");
            match checks[s] {
                StandLoss::Passed => out.words.push(format!("{who} passes its stand-loss check")),
                StandLoss::Disordered => {
                    out.words.push(format!(
                        "{who} fails its stand-loss check and is Disordered"
                    ));
                    out.effects.push(effect(
                        self.to(s, sides[s].modifying),
                        Change::Disorder,
                        "5.53, 7.0",
                        rule,
                    ));
                }
                StandLoss::Routed => {
                    out.words
                        .push(format!("{who} fails its stand-loss check and routs"));
                    out.effects.push(effect(
                        self.to(s, sides[s].modifying),
                        Change::RoutUnit,
                        "5.53, 7.0",
                        rule,
                    ));
                }
                StandLoss::Eliminated => out.words.push(format!("{who} is eliminated")),
                StandLoss::None | StandLoss::WhileRouted => {}
            }
        }
        Ok(Some(checks))
    }

    /// Stage three: a d100 for each unit still fighting, side A's first (7.1). None while they
    /// are to be thrown.
    fn recoil_fates(
        &self,
        checks: [StandLoss; 2],
        throws: &mut Throws,
    ) -> Result<Option<Fates>, RefereeError> {
        // The recoil tests (7.1): a d100 for each unit still fighting, side A's first; a side whose
        // enemies all routed or were eliminated holds without one (R-GTS-23).
        let (recoil, index) = recoil_tests_after(self.data, self.sides, self.hits, checks);
        let contested = !recoil[0].is_empty() && !recoil[1].is_empty();
        let mut dice: Vec<Die> = Vec::new();
        for s in (0..2).filter(|_| contested) {
            for (i, k) in index[s].iter().enumerate() {
                if k.is_some() {
                    dice.push(Die::of(
                        100,
                        THROWERS[s],
                        name(self.sides[s], i),
                        "recoil test",
                    ));
                }
            }
        }
        let Some(faces) = throws.stage(dice)? else {
            return Ok(None);
        };
        let fates = if contested {
            fates_for_rolls(
                &recoil[0],
                &recoil[1],
                &faces,
                self.data.recoil.rout_multiple,
            )
        } else {
            Vec::new()
        };
        Ok(Some(Fates {
            tests: recoil,
            index,
            contested,
            fates,
        }))
    }

    /// Stage four: what each unit's fate calls for, side A's units first: the command test to
    /// follow up (7.3), the recoil-move test (7.2), the leaders' casualty tests (1.9–1.10); the
    /// moves, routs and the lock's hits land as they are read.
    fn asks(
        &self,
        checks: [StandLoss; 2],
        fates: &Fates,
        out: &mut Played,
    ) -> Vec<(usize, usize, Ask)> {
        // Stage four: what each unit's fate calls for, side A's units first.
        let (data, sides, hits) = (self.data, self.sides, self.hits);
        let r = &data.recoil;
        let lc = &data.leader_casualty;
        let mut asks: Vec<(usize, usize, Ask)> = Vec::new();
        for s in 0..2 {
            let side = sides[s];
            let other = 1 - s;
            for (i, (u, _)) in side.units.iter().enumerate() {
                let (h, check, (routed, eliminated, disordered)) =
                    after_roll_off(side, i, hits[s], checks[s]);
                let leader_tests = |asks: &mut Vec<(usize, usize, Ask)>| {
                    if side.units[i].1.leader_valour().is_none() {
                        return;
                    }
                    let modifier = if has_leader(sides[other]) {
                        lc.routed_side
                    } else {
                        0
                    };
                    asks.push((s, i, Ask::Leader { modifier }));
                    if let Some(v) = leader_unit(sides[other]) {
                        asks.push((other, v, Ask::Victor));
                    }
                };
                let who = &u.name;
                if eliminated {
                    // 1.9: its last stand lost while Routed, its leader tests.
                    if u.routed {
                        leader_tests(&mut asks);
                    }
                    continue;
                }
                if u.routed {
                    out.words.push(format!("{who} makes another rout move"));
                    if check == StandLoss::WhileRouted {
                        leader_tests(&mut asks);
                    }
                    continue;
                }
                if routed {
                    leader_tests(&mut asks);
                    continue;
                }
                let Some(fate) = fates.of(s, i) else { continue };
                out.words.push(format!("{who} {}", fate_word(&fate)));
                let e = &side.units[i].1;
                match fate {
                    Fate::Holds
                        if fates.contested
                            && !disordered
                            && fates.all_gave_ground(sides[other], other) =>
                    {
                        asks.push((
                            s,
                            i,
                            Ask::Command {
                                number: command_number(data, u, e),
                            },
                        ))
                    }
                    Fate::Holds => {}
                    Fate::Recoils => {
                        out.effects.push(effect(
                            self.to(s, i),
                            Change::RecoilMove {
                                inches: r.move_inches,
                            },
                            &r.rule,
                            r.ruling.as_deref(),
                        ));
                        asks.push((
                            s,
                            i,
                            Ask::RecoilMove {
                                number: recoil_move_number(data, u, e, disordered),
                                disordered,
                            },
                        ));
                    }
                    Fate::Routs => {
                        out.effects.push(effect(
                            self.to(s, i),
                            Change::RoutUnit,
                            &r.rule,
                            r.ruling.as_deref(),
                        ));
                        leader_tests(&mut asks);
                    }
                    Fate::Locked => {
                        out.effects.push(effect(
                            self.to(s, i),
                            Change::Hits {
                                count: r.locked_hits,
                            },
                            &r.rule,
                            r.ruling.as_deref(),
                        ));
                        if lock_disorders(data, u, h, disordered) {
                            out.words.push(format!(
                                "{who} is Disordered: with the lock's hits it took a stand's worth this phase"
                            ));
                            out.effects.push(effect(
                                self.to(s, i),
                                Change::Disorder,
                                "6.13, 7.1",
                                None,
                            ));
                        }
                    }
                }
            }
        }
        asks
    }

    /// The tests of stage four thrown; the leaders hurt, for Table 1.10. None while the dice are
    /// to be thrown.
    fn answers(
        &self,
        asks: &[(usize, usize, Ask)],
        throws: &mut Throws,
        out: &mut Played,
    ) -> Result<Option<Vec<(usize, usize)>>, RefereeError> {
        let lc = &self.data.leader_casualty;
        let purpose = |a: &Ask| match a {
            Ask::Command { .. } => "command test to follow up",
            Ask::RecoilMove { .. } => "recoil-move test",
            Ask::Leader { .. } => "leader's casualty test",
            Ask::Victor => "victorious leader's casualty test",
        };
        let dice = asks
            .iter()
            .map(|(s, i, a)| Die::of(10, THROWERS[*s], name(self.sides[*s], *i), purpose(a)))
            .collect();
        let Some(faces) = throws.stage(dice)? else {
            return Ok(None);
        };
        let mut hurt: Vec<(usize, usize)> = Vec::new();
        for ((s, i, ask), face) in asks.iter().zip(faces) {
            let (s, i, face) = (*s, *i, i64::from(face));
            let who = name(self.sides[s], i);
            match ask {
                Ask::Command { number } if face <= *number => {
                    out.words.push(format!("{who} follows up to contact"));
                    out.effects
                        .push(effect(self.to(s, i), Change::FollowUp, "7.3", None));
                }
                Ask::Command { .. } => out
                    .words
                    .push(format!("{who} fails its command test and stays")),
                Ask::RecoilMove { number, .. } if face <= *number => {}
                Ask::RecoilMove { disordered, .. } => {
                    let (change, words) = if *disordered {
                        (Change::Hits { count: 1 }, "takes a hit")
                    } else {
                        (Change::Disorder, "is Disordered")
                    };
                    out.words
                        .push(format!("{who} fails its recoil-move test and {words}"));
                    out.effects.push(effect(self.to(s, i), change, "7.2", None));
                }
                Ask::Leader { modifier } if face + modifier <= lc.wounded_on => hurt.push((s, i)),
                Ask::Victor if face + lc.victorious_side <= lc.wounded_on => hurt.push((s, i)),
                Ask::Leader { .. } | Ask::Victor => out
                    .words
                    .push(format!("{} leader is unharmed", possessive(who))),
            }
        }
        Ok(Some(hurt))
    }

    /// Last, an elephant the roll-off hit tests for frenzy (7.41–7.42, R-GTS-36): a d8 per test,
    /// in turn, then its driver's d10, side A's elephant first, each die named by it; a frenzied
    /// elephant rampages (4.46), one its driver kills is removed, and its escort goes (3.166).
    /// None while a die is to be thrown.
    fn frenzies(&self, throws: &mut Throws, out: &mut Played) -> Result<Option<()>, RefereeError> {
        for (s, (side, thrower)) in self.sides.iter().zip(THROWERS).enumerate() {
            let (u, e) = &side.units[side.modifying];
            if u.class != "elephant" {
                continue;
            }
            let whose = (u.name.as_str(), Some(thrower));
            let hit = (u.stands, u.hits, self.hits[s], u.hits_per_stand);
            let (end, heading, words) =
                match thrown_for_a_hit_elephant(self.data, hit, whose, throws)? {
                    None => return Ok(None),
                    Some(None) => continue,
                    Some(Some(thrown)) => thrown,
                };
            out.words.push(words);
            let escort = escort_name(u, e);
            out.effects.extend(frenzy_effects(
                self.data,
                end,
                (&u.name, heading.as_deref()),
                escort.as_deref(),
            ));
        }
        Ok(Some(()))
    }

    /// Stage five: Table 1.10 for each leader hurt. None while the dice are to be thrown.
    fn leaders_hurt(
        &self,
        hurt: &[(usize, usize)],
        throws: &mut Throws,
        out: &mut Played,
    ) -> Result<Option<()>, RefereeError> {
        // Table 1.10 for each leader hurt.
        let dice = hurt
            .iter()
            .map(|(s, i)| Die::of(10, THROWERS[*s], name(self.sides[*s], *i), "Table 1.10"))
            .collect();
        let Some(faces) = throws.stage(dice)? else {
            return Ok(None);
        };
        let table = crate::rule_system::shared::roll_table(&self.data.leader_casualty.outcomes);
        for ((s, i), face) in hurt.iter().zip(faces) {
            let who = name(self.sides[*s], *i);
            let result = table.lookup(i64::from(face))?;
            out.words.push(format!(
                "{} leader is hurt: Table 1.10 gives {result}",
                possessive(who)
            ));
            out.effects.extend(table_effects(
                self.data,
                Some(i64::from(face)),
                &self.leader_of(*s, *i),
            ));
        }
        Ok(Some(()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::systems::gts::melee::{fight, MeleeSituation};
    use crate::systems::test_support::load;

    fn data() -> GtsData {
        toml::from_str(crate::systems::builtin("gts").unwrap().text).unwrap()
    }

    /// A seeded xorshift: the same samples every run.
    struct Dice(u64);
    impl Dice {
        fn roll(&mut self, sides: u32) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % u64::from(sides)) as u32 + 1
        }
    }

    /// Plays `n` rounds with random dice, each stage thrown as it is asked, and counts how
    /// often each unit's effects show a change.
    fn sample(data: &GtsData, f: &Fight, n: usize) -> Vec<Played> {
        let mut dice = Dice(0x9E37_79B9_7F4A_7C15);
        (0..n)
            .map(|_| {
                let roll_off = (i64::from(dice.roll(10)), i64::from(dice.roll(10)));
                let mut faces: Vec<u32> = Vec::new();
                loop {
                    let mut throws = Throws::new(&faces);
                    if let Some(p) = play(data, f, roll_off, &mut throws).unwrap() {
                        return p;
                    }
                    let asked: Vec<u32> = throws.asked()[faces.len()..]
                        .iter()
                        .map(|d| d.sides)
                        .collect();
                    faces.extend(asked.into_iter().map(|s| dice.roll(s)));
                }
            })
            .collect()
    }

    #[test]
    fn played_rounds_land_as_often_as_the_round_forecasts() {
        // What the dice do, round after round, agrees with the exact forecast of the round: each
        // unit routs, recoils and follows up as often as forecast, within five standard
        // deviations of 20,000 seeded rounds — a threshold read one face off on a d10 moves a
        // line by a tenth of its stage and fails this.
        let data = data();
        let levies = json!({ "name": "Levies", "class": "infantry", "armour": "M", "weapon": "SP",
            "stands": 3, "tag": { "hits_per_stand": 5, "recoil": 50, "response": 6 } });
        let veterans = json!({ "name": "Veterans", "class": "infantry", "armour": "M", "weapon": "SP",
            "stands": 2, "tag": { "hits_per_stand": 4, "recoil": 50 } });
        let persians = json!({ "name": "Persian cavalry", "class": "cavalry", "armour": "N", "weapon": "BW", "stands": 3 });
        let greeks = json!({ "name": "Greek cavalry", "class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3 });
        // An elephant already hit once: the roll-off's hits put it to the frenzy test (7.41).
        let elephant = json!({ "name": "War elephant", "class": "elephant", "weapon": "SP", "stands": 2, "hits": 1 });
        let situations = [
            json!({ "side_a": [{ "unit": levies, "leader_pv": 1 }], "side_b": [{ "unit": veterans, "leader_pv": 0 }] }),
            json!({ "side_a": [{ "unit": persians }, { "unit": levies }], "side_b": [{ "unit": greeks, "leader_pv": 0 }] }),
            json!({ "side_a": [{ "unit": elephant }], "side_b": [{ "unit": greeks }] }),
        ];
        let n = 20_000;
        for s in situations {
            let forecast = load("gts").resolve("melee_round", &s, None).unwrap();
            let situation: MeleeSituation = serde_json::from_value(s.clone()).unwrap();
            let f = fight(&data, &situation).unwrap();
            let played = sample(&data, &f, n);
            for side in [&f.a, &f.b] {
                for (u, _) in &side.units {
                    let count = |pred: &dyn Fn(&Effect) -> bool| {
                        played
                            .iter()
                            .filter(|p| {
                                p.effects
                                    .iter()
                                    .any(|e| e.target == Target::Unit(u.name.clone()) && pred(e))
                            })
                            .count()
                    };
                    type Pred<'a> = &'a dyn Fn(&Effect) -> bool;
                    let lines: [(&str, Pred); 6] = [
                        ("routs", &|e| e.change == Change::RoutUnit),
                        ("recoils 3\"", &|e| {
                            matches!(e.change, Change::RecoilMove { .. })
                        }),
                        ("follows up to contact", &|e| e.change == Change::FollowUp),
                        (
                            "is Disordered by the lock's hits (a stand's worth this phase)",
                            &|e| e.change == Change::Disorder && e.rule == "6.13, 7.1",
                        ),
                        ("frenzies (its escort is removed)", &|e| {
                            matches!(e.change, Change::Rampage { .. })
                        }),
                        ("frenzies and its driver kills it", &|e| {
                            e.change == Change::DestroyAll && e.rule == "7.42"
                        }),
                    ];
                    for (word, pred) in lines {
                        let label = format!("{} {word}", u.name);
                        let p = forecast
                            .forecast
                            .iter()
                            .find(|c| c.label == label)
                            .map_or(0.0, |c| c.p);
                        let seen = count(pred) as f64 / n as f64;
                        let sd = (p * (1.0 - p) / n as f64).sqrt().max(1e-4);
                        assert!(
                            (seen - p).abs() <= 5.0 * sd,
                            "{label}: forecast {p:.4}, played {seen:.4} of {n}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_recoil_enumerated_face_by_face_lands_exactly_as_it_forecasts() {
        // The recoil action is the round's stages from no hits: every d100 pair, then every face
        // of the d10s they call for (the recoil-move test, the command test to follow up), each
        // weighted by its chance. What lands is counted exactly against the forecast's lines.
        let data = data();
        let s = json!({
            "side_a": [{ "unit": { "name": "Levies", "class": "infantry", "armour": "M", "weapon": "SP",
                "stands": 3, "tag": { "recoil": 50, "response": 6 } } }],
            "side_b": [{ "unit": { "name": "Veterans", "class": "infantry", "armour": "M", "weapon": "SP",
                "stands": 2, "tag": { "recoil": 40, "response": 4 } } }] });
        let forecast = load("gts").resolve("recoil", &s, None).unwrap();
        let situation: MeleeSituation = serde_json::from_value(s).unwrap();
        let f = fight(&data, &situation).unwrap();
        // Weights over 100² × 10² (at most one d10 a unit here).
        const WHOLE: u128 = 1_000_000;
        let mut landed: Vec<(Effect, u128)> = Vec::new();
        for x in 1..=100 {
            for y in 1..=100 {
                let first = [x, y];
                let mut throws = Throws::new(&first);
                let done = play_after(&data, [&f.a, &f.b], [0, 0], &mut throws).unwrap();
                let more = throws.asked().len() - 2;
                assert!(done.is_some() == (more == 0), "{x} {y}: asks {more} more");
                for k in 0..10u32.pow(more as u32) {
                    let mut faces = first.to_vec();
                    faces.extend((0..more).map(|j| k / 10u32.pow(j as u32) % 10 + 1));
                    let mut throws = Throws::new(&faces);
                    let p = play_after(&data, [&f.a, &f.b], [0, 0], &mut throws)
                        .unwrap()
                        .expect("every die thrown");
                    let w = WHOLE / 10_000 / 10u128.pow(more as u32);
                    landed.extend(p.effects.into_iter().map(|e| (e, w)));
                }
            }
        }
        type Pred<'a> = &'a dyn Fn(&Effect) -> bool;
        for name in ["Levies", "Veterans"] {
            let lines: [(&str, Pred); 4] = [
                ("routs", &|e| e.change == Change::RoutUnit),
                ("recoils 3\"", &|e| {
                    matches!(e.change, Change::RecoilMove { .. })
                }),
                ("follows up to contact", &|e| e.change == Change::FollowUp),
                ("fails its recoil-move test and is Disordered", &|e| {
                    e.change == Change::Disorder && e.rule == "7.2"
                }),
            ];
            for (word, pred) in lines {
                let label = format!("{name} {word}");
                let weight: u128 = landed
                    .iter()
                    .filter(|(e, _)| e.target == Target::Unit(name.into()) && pred(e))
                    .map(|(_, w)| w)
                    .sum();
                let said = forecast
                    .forecast
                    .iter()
                    .find(|c| c.label == label)
                    .map_or("0/1".to_string(), |c| c.probability.clone());
                assert_eq!(
                    said,
                    crate::odds::Probability::new(weight, WHOLE).to_string(),
                    "{label}"
                );
                assert!(weight > 0, "{label}: the case is exercised");
            }
        }
    }
}
