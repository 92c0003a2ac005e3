//! The elephant's contact test chained into the roll-off (4.45, R-GTS-28): an elephant that makes
//! contact in good order, or frenzied, puts the unit it contacts to a response test before the
//! roll-off; a failure Disorders it, and it fights Disordered. The answer is both branches, each
//! weighted by the test's exact chance.

use super::data::GtsData;
use super::melee::{sides, MeleeSituation, Side};
use crate::contract::{effect, Chance, Change, Note, Outcome, Resolution, ResultOdds, Target};
use crate::error::RefereeError;
use crate::odds::{Dist, Probability};

/// Who takes the test: the side's field, the unit's index there, its name and the response
/// number it tests against.
struct ContactTest {
    side: &'static str,
    index: usize,
    name: String,
    number: i64,
}

/// The test this situation calls for, if any: side A's elephant in good order making contact
/// (`contact`), or a frenzied elephant on either side, against the enemy's modifying unit when
/// it is in good order once contact is made (camels and rough terrain may have Disordered it).
fn contact_test(s: &MeleeSituation, sides: [&Side; 2]) -> Option<ContactTest> {
    let elephant_contacts = |side: &Side, moved: bool| {
        side.units.iter().any(|(u, e)| {
            u.class == "elephant" && (e.frenzied || (moved && !u.disordered && !u.routed))
        })
    };
    for (k, field) in [(1, "side_b"), (0, "side_a")] {
        if !elephant_contacts(sides[1 - k], s.contact && k == 1) {
            continue;
        }
        let target = sides[k];
        let (u, e) = &target.units[target.modifying];
        if u.disordered || u.routed {
            continue;
        }
        return Some(ContactTest {
            side: field,
            index: target.modifying,
            name: u.name.clone(),
            number: u.response.value + e.leader_valour().unwrap_or(0),
        });
    }
    None
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
    let rule = "2.11 b, 4.45";
    let pass_odds = Dist::die(10)?.probability_where(|r| *r <= test.number);
    let fail_odds = Probability::new(
        pass_odds.denominator() - pass_odds.numerator(),
        pass_odds.denominator(),
    );
    let mut passed = s.clone();
    passed.elephant_tested = true;
    let mut failed = passed.clone();
    {
        let units = if test.side == "side_a" {
            &mut failed.side_a
        } else {
            &mut failed.side_b
        };
        units[test.index].unit.disordered = true;
    }
    let who = format!(
        "{} ({})",
        if test.side == "side_a" { "A" } else { "B" },
        test.name
    );
    let disorder = effect(
        Target::Unit(test.name.clone()),
        Change::Disorder,
        "4.45",
        Some("R-GTS-28"),
    );
    let (test_die, rest) = match dice {
        None => (None, None),
        Some(faces) => {
            let (first, rest) = faces.split_first().ok_or_else(bad_dice)?;
            if !(1..=10).contains(first) {
                return Err(bad_dice());
            }
            (Some(i64::from(*first)), Some(rest))
        }
    };
    let pass = resolve(
        &passed,
        rest.filter(|_| test_die.is_some_and(|d| d <= test.number)),
    )?;
    let fail = resolve(
        &failed,
        rest.filter(|_| test_die.is_some_and(|d| d > test.number)),
    )?;
    let times = |a: &str, b: Probability| {
        let a = Probability::parse(a).unwrap_or(Probability::ZERO);
        Probability::new(
            a.numerator() * b.numerator(),
            a.denominator() * b.denominator(),
        )
    };
    let pass_words = format!("{who} passes the elephant test");
    let fail_words = format!("{who} fails the elephant test and is Disordered");
    let mut out = pass.clone();
    out.dice = format!("d10 (elephant contact), then {}", pass.dice);
    out.distribution = pass
        .distribution
        .iter()
        .map(|d| (d, pass_odds, &pass_words, false))
        .chain(
            fail.distribution
                .iter()
                .map(|d| (d, fail_odds, &fail_words, true)),
        )
        .filter(|(_, w, _, _)| w.numerator() > 0)
        .map(|(d, w, words, disordered)| {
            let mut effects = d.effects.clone();
            if disordered {
                effects.insert(0, disorder.clone());
            }
            let label = format!("{words}; {}", d.result);
            ResultOdds::new(
                &label,
                &label,
                d.rolls.clone(),
                times(&d.probability, w),
                effects,
            )
        })
        .collect();
    // The forecast: each line's chance in both branches, weighted.
    let mut forecast: Vec<Chance> = vec![Chance::new(
        format!("{who} is Disordered by the elephant's contact"),
        fail_odds,
        rule,
    )];
    forecast[0].ruling = Some("R-GTS-28".into());
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
        let p = weight(&pass, pass_odds)
            .plus(&weight(&fail, fail_odds))
            .ok_or(crate::odds::OddsError::TooLarge)?;
        let mut line = Chance::new(c.label.clone(), p, &c.rule);
        line.ruling.clone_from(&c.ruling);
        forecast.push(line);
    }
    out.forecast = forecast;
    out.notes.push(Note::new(
        format!(
            "The elephant's contact puts {} to a response test before the roll-off: a d10 of {} or less passes; a failure Disorders it and it fights Disordered. The odds weigh both.",
            test.name, test.number
        ),
        rule,
        Some("R-GTS-28"),
    ));
    // The contact test's die first, then the dice of the branch it chose (or would choose on a
    // pass, before it is thrown) — asked in turn when the branch asks its own that way.
    let chosen = match test_die {
        Some(d) if d > test.number => &fail,
        _ => &pass,
    };
    out.shown.faces = std::iter::once(crate::rule_system::Die {
        sides: 10,
        thrower: None,
        label: Some(test.name.clone()),
        purpose: Some("elephant contact test".into()),
    })
    .chain(if chosen.shown.faces.is_empty() {
        crate::rule_system::dice_of(&chosen.dice).unwrap_or_default()
    } else {
        chosen.shown.faces.clone()
    })
    .collect();
    out.shown.in_turn = chosen.shown.in_turn;
    out.outcome = match (dice, test_die) {
        (Some(faces), Some(d)) => {
            let (branch, words, failed_test) = if d <= test.number {
                (&pass, &pass_words, false)
            } else {
                (&fail, &fail_words, true)
            };
            branch.outcome.clone().map(|o| {
                let mut effects = o.effects.clone();
                if failed_test {
                    effects.insert(0, disorder.clone());
                }
                let result = format!("{words}; {}", o.result);
                Outcome {
                    dice: faces.to_vec(),
                    result,
                    meaning: format!("Elephant test {d} against {}: {}", test.number, o.meaning),
                    effects,
                    ..o
                }
            })
        }
        _ => None,
    };
    Ok(out)
}

fn bad_dice() -> RefereeError {
    RefereeError::new(
        "dice.invalid",
        "the elephant's contact test's d10 first (1–10), then side A's and side B's d10",
    )
    .field("dice")
    .rule("4.45")
}
