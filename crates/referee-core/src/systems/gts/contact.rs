//! The tests contact calls for, chained in front of the roll-off: an elephant that makes contact in
//! good order, or frenzied, puts the unit it contacts to a response test (4.45, R-GTS-28); each
//! charge of cavalry in good order into formed infantry puts it to a morale check against its
//! response, one per charging unit until one fails (4.43). A failure Disorders it, and it fights
//! Disordered. The answer is both branches, each weighted by the tests' exact chance; with dice,
//! each test's d10 is asked in turn before the roll-off's.

use super::data::GtsData;
use super::melee::{sides, MeleeSituation, Side};
use crate::contract::{effect, Chance, Change, Note, Outcome, Resolution, ResultOdds, Target};
use crate::error::{possessive, RefereeError};
use crate::odds::{Dist, Probability};
use crate::rule_system::throws::Throws;
use crate::rule_system::{Die, Thrower};

/// Who takes the test: the side's field, the unit's index there, its name and the response
/// number it tests against; the units whose contact calls for a test (one test each, until one
/// fails), and what the test is.
struct ContactTest {
    side: &'static str,
    index: usize,
    name: String,
    number: i64,
    callers: Vec<String>,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Elephant,
    CavalryCharge,
}

impl Kind {
    fn rule(self) -> &'static str {
        match self {
            Kind::Elephant => "2.11 b, 4.45",
            Kind::CavalryCharge => "2.11 b, 4.43",
        }
    }
    fn ruling(self) -> Option<&'static str> {
        match self {
            Kind::Elephant => Some("R-GTS-28"),
            Kind::CavalryCharge => None,
        }
    }
    /// The test, as "passes …" and "fails …" name it.
    fn test(self) -> &'static str {
        match self {
            Kind::Elephant => "the elephant test",
            Kind::CavalryCharge => "the morale check against the cavalry charge",
        }
    }
    fn cause(self) -> &'static str {
        match self {
            Kind::Elephant => "the elephant's contact",
            Kind::CavalryCharge => "the cavalry's charge",
        }
    }
}

/// Mounted troops that charge as cavalry: camelry are cavalry (2.1).
pub(super) fn charges_as_cavalry(class: &str) -> bool {
    matches!(class, "cavalry" | "camelry")
}

/// The test this situation calls for, if any: side A's elephant in good order making contact
/// (`contact`), or a frenzied elephant on either side, against the enemy's modifying unit when
/// it is in good order once contact is made (camels and rough terrain may have Disordered it);
/// else side A's cavalry in good order charging formed infantry in good order (4.43).
fn contact_test(s: &MeleeSituation, sides: [&Side; 2]) -> Option<ContactTest> {
    let elephant_contacts = |side: &Side, moved: bool| {
        side.units.iter().any(|(u, e)| {
            u.class == "elephant" && (e.frenzied || (moved && !u.disordered && !u.routed))
        })
    };
    let target = |k: usize| {
        let side = sides[k];
        let (u, e) = &side.units[side.modifying];
        (!u.disordered && !u.routed).then_some((side.modifying, u, e))
    };
    for (k, field) in [(1, "side_b"), (0, "side_a")] {
        if !elephant_contacts(sides[1 - k], s.contact && k == 1) {
            continue;
        }
        let Some((index, u, e)) = target(k) else {
            continue;
        };
        let elephant = sides[1 - k]
            .units
            .iter()
            .find(|(u, _)| u.class == "elephant")
            .map(|(u, _)| u.name.clone())
            .unwrap_or_default();
        return Some(ContactTest {
            side: field,
            index,
            name: u.name.clone(),
            number: u.response.value + e.leader_valour().unwrap_or(0),
            callers: vec![elephant],
            kind: Kind::Elephant,
        });
    }
    if !s.contact {
        return None;
    }
    let (index, u, e) = target(1)?;
    let chargers: Vec<String> = sides[0]
        .units
        .iter()
        .filter(|(c, _)| charges_as_cavalry(&c.class) && !c.disordered && !c.routed)
        .map(|(c, _)| c.name.clone())
        .collect();
    (u.class == "infantry" && !u.skirmish && !chargers.is_empty()).then(|| ContactTest {
        side: "side_b",
        index,
        name: u.name.clone(),
        number: u.response.value + e.leader_valour().unwrap_or(0),
        callers: chargers,
        kind: Kind::CavalryCharge,
    })
}

/// Resolves `resolve` (the roll-off or the chained round) with the 4.45 test chained in front,
/// or as it is when no elephant's contact calls for one. With dice, the test's d10 comes first.
pub fn with_elephant_contact(
    data: &GtsData,
    s: &MeleeSituation,
    dice: Option<&[u32]>,
    resolve: impl Fn(&MeleeSituation, Option<&[u32]>) -> Result<Resolution, RefereeError>,
) -> Result<Resolution, RefereeError> {
    if s.elephant_tested {
        return resolve(s, dice);
    }
    let (a, b) = sides(data, s)?;
    let Some(test) = contact_test(s, [&a, &b]) else {
        return resolve(s, dice);
    };
    let (pass_odds, fail_odds) = test.odds()?;
    let (passed, failed) = test.branches(s);
    let words = test.words();
    // The tests' dice, asked in turn: one per caller until one fails.
    let mut throws = Throws::new(dice.unwrap_or(&[]));
    let (thrown, verdict) = test.thrown(&mut throws)?;
    // The roll-off's (or the round's) faces after the tests', once the tests are settled.
    let rest = verdict.map(|_| throws.rest()).filter(|r| !r.is_empty());
    let pass = resolve(&passed, rest.filter(|_| verdict == Some(true)))?;
    let fail = resolve(&failed, rest.filter(|_| verdict == Some(false)))?;
    let mut out = pass.clone();
    out.dice = format!("d10 per test, then {}", pass.dice);
    out.distribution = test.distribution([&pass, &fail], [pass_odds, fail_odds], &words);
    // Each row in words: the test's branch, then the branch's own result in its words.
    out.shown.names = [(&pass, &words.pass, false), (&fail, &words.fail, true)]
        .into_iter()
        .flat_map(|(r, branch, failed)| {
            r.distribution.iter().map(move |d| {
                let inner = r.shown.names.get(&d.result).unwrap_or(&d.result);
                (
                    branch_key(failed, &d.result),
                    crate::error::sentence(&format!("{branch}; {inner}")),
                )
            })
        })
        .collect();
    out.forecast = test.forecast([&pass, &fail], [pass_odds, fail_odds], &words)?;
    out.notes.push(test.note());
    // The tests' dice first, then — once they are settled — the dice of the branch they chose,
    // asked in turn.
    let chosen = match verdict {
        Some(false) => Some(&fail),
        Some(true) => Some(&pass),
        None => None,
    };
    let mut faces = throws.asked().to_vec();
    if let Some(branch) = chosen {
        faces.extend(if branch.shown.faces.is_empty() {
            crate::rule_system::dice_of(&branch.dice).unwrap_or_default()
        } else {
            branch.shown.faces.clone()
        });
    }
    out.shown.faces = faces;
    out.shown.in_turn = true;
    out.outcome = match (dice, chosen) {
        (Some(faces), Some(branch)) => branch
            .outcome
            .clone()
            .map(|o| test.outcome(o, faces, &thrown, verdict == Some(false))),
        _ => None,
    };
    Ok(out)
}

/// A branch's weight times a chance given as exact text.
fn times(a: &str, b: Probability) -> Probability {
    let a = Probability::parse(a).unwrap_or(Probability::ZERO);
    Probability::new(
        a.numerator() * b.numerator(),
        a.denominator() * b.denominator(),
    )
}

/// The words of the two branches: "B (Levy) passes the elephant test", "… fails … and is
/// Disordered".
struct BranchWords {
    who: String,
    pass: String,
    fail: String,
}

impl ContactTest {
    /// Every test passed (one per caller, until one fails), exactly: the chances of passing and
    /// of failing.
    fn odds(&self) -> Result<(Probability, Probability), RefereeError> {
        let one = Dist::die(10)?.map(|r| *r <= self.number);
        let mut all = one.clone();
        for _ in 1..self.callers.len() {
            all = all.and_then(|ok| {
                Ok(if *ok {
                    one.clone()
                } else {
                    Dist::certain(false)
                })
            })?;
        }
        Ok((all.probability(&true), all.probability(&false)))
    }

    /// The situation after a pass, and after a failure (the tested unit Disordered).
    fn branches(&self, s: &MeleeSituation) -> (MeleeSituation, MeleeSituation) {
        let mut passed = s.clone();
        passed.elephant_tested = true;
        let mut failed = passed.clone();
        let units = if self.side == "side_a" {
            &mut failed.side_a
        } else {
            &mut failed.side_b
        };
        units[self.index].unit.disordered = true;
        (passed, failed)
    }

    fn words(&self) -> BranchWords {
        let who = self.name.clone();
        BranchWords {
            pass: format!("{who} passes {}", self.kind.test()),
            fail: format!("{who} fails {} and is Disordered", self.kind.test()),
            who,
        }
    }

    /// The failed test's Disorder (4.43, 4.45).
    fn disorder(&self) -> crate::contract::Effect {
        effect(
            Target::Unit(self.name.clone()),
            Change::Disorder,
            if self.kind == Kind::Elephant {
                "4.45"
            } else {
                "4.43"
            },
            self.kind.ruling(),
        )
    }

    /// The tests thrown, one per caller until one fails: the faces and the verdict (None while a
    /// die is to be thrown).
    fn thrown(&self, throws: &mut Throws) -> Result<(Vec<i64>, Option<bool>), RefereeError> {
        let thrower = if self.side == "side_a" {
            Thrower::A
        } else {
            Thrower::B
        };
        let mut thrown: Vec<i64> = Vec::new();
        for caller in &self.callers {
            let purpose = match self.kind {
                Kind::Elephant => "elephant contact test".to_string(),
                Kind::CavalryCharge => {
                    format!("morale check against {} charge", possessive(caller))
                }
            };
            match throws.one(Die::of(10, thrower, &self.name, &purpose))? {
                None => return Ok((thrown, None)),
                Some(f) => {
                    thrown.push(i64::from(f));
                    if i64::from(f) > self.number {
                        return Ok((thrown, Some(false)));
                    }
                }
            }
        }
        Ok((thrown, Some(true)))
    }

    /// Both branches' rows, each weighted by its branch and named by it; a failure's rows carry
    /// the Disorder first.
    fn distribution(
        &self,
        [pass, fail]: [&Resolution; 2],
        [pass_odds, fail_odds]: [Probability; 2],
        words: &BranchWords,
    ) -> Vec<ResultOdds> {
        pass.distribution
            .iter()
            .map(|d| (d, pass_odds, &words.pass, false))
            .chain(
                fail.distribution
                    .iter()
                    .map(|d| (d, fail_odds, &words.fail, true)),
            )
            .filter(|(_, w, _, _)| w.numerator() > 0)
            .map(|(d, w, branch, disordered)| {
                let mut effects = d.effects.clone();
                if disordered {
                    effects.insert(0, self.disorder());
                }
                ResultOdds::new(
                    &branch_key(disordered, &d.result),
                    &format!("{branch}; {}", d.meaning),
                    d.rolls.clone(),
                    times(&d.probability, w),
                    effects,
                )
            })
            .collect()
    }

    /// The forecast: the Disorder's chance, then each line's chance in both branches, weighted.
    fn forecast(
        &self,
        [pass, fail]: [&Resolution; 2],
        [pass_odds, fail_odds]: [Probability; 2],
        words: &BranchWords,
    ) -> Result<Vec<Chance>, RefereeError> {
        let rule = self.kind.rule();
        let mut forecast: Vec<Chance> = vec![Chance::new(
            format!("{} is Disordered by {}", words.who, self.kind.cause()),
            fail_odds,
            rule,
        )];
        forecast[0].ruling = self.kind.ruling().map(str::to_string);
        let mut labels: Vec<&Chance> = Vec::new();
        for c in pass.forecast.iter().chain(&fail.forecast) {
            if !labels.iter().any(|x| x.label == c.label) {
                labels.push(c);
            }
        }
        for c in labels {
            let weight = |r: &Resolution, w: Probability| {
                r.forecast
                    .iter()
                    .find(|x| x.label == c.label)
                    .map_or(Probability::ZERO, |x| times(&x.probability, w))
            };
            let p = weight(pass, pass_odds)
                .plus(&weight(fail, fail_odds))
                .ok_or(crate::odds::OddsError::TooLarge)?;
            let mut line = Chance::new(c.label.clone(), p, &c.rule);
            line.ruling.clone_from(&c.ruling);
            forecast.push(line);
        }
        Ok(forecast)
    }

    fn note(&self) -> Note {
        Note::new(
            match self.kind {
                Kind::Elephant => format!(
                    "The elephant's contact puts {} to a response test before the roll-off: a d10 of {} or less passes; a failure Disorders it and it fights Disordered. The odds weigh both.",
                    self.name, self.number
                ),
                Kind::CavalryCharge => format!(
                    "Each charge of cavalry in good order puts {} to a morale check against its response before the roll-off ({} in all, until one fails): a d10 of {} or less passes; a failure Disorders it and it fights Disordered. The odds weigh both.",
                    self.name,
                    self.callers.len(),
                    self.number
                ),
            },
            self.kind.rule(),
            self.kind.ruling(),
        )
    }

    /// The chosen branch's outcome, named by the test's verdict and faces.
    fn outcome(&self, o: Outcome, faces: &[u32], thrown: &[i64], failed_test: bool) -> Outcome {
        let mut effects = o.effects.clone();
        if failed_test {
            effects.insert(0, self.disorder());
        }
        let tests: Vec<String> = thrown.iter().map(i64::to_string).collect();
        Outcome {
            dice: faces.to_vec(),
            result: branch_key(failed_test, &o.result),
            meaning: format!(
                "{} {} against {}: {}",
                crate::error::sentence(self.kind.test()),
                tests.join(", "),
                self.number,
                o.meaning
            ),
            effects,
            ..o
        }
    }
}

/// A row's key: the test's branch, then the key of the result it leads to ("failed;hits_0_3").
fn branch_key(failed: bool, result: &str) -> String {
    format!("{};{result}", if failed { "failed" } else { "passed" })
}
