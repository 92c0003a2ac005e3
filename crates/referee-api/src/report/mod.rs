//! Sharing a battle: its story told once (`Story`: the rules, the sides and their units, each
//! turn's events in force with their dice and odds, the standing after each turn and at the end),
//! then written as a plain-text log (`text.rs`) or a printable HTML page (`page.rs`, with the
//! break gauges charted over the turns by `chart.rs`, all through the escaping writer of
//! `html.rs`). Nothing here reads or writes the store: `Battles` gathers what a report needs.

mod chart;
pub(crate) mod html;
mod page;
pub(crate) use page::print_style_base;
mod text;

use std::collections::BTreeMap;

use referee_core::battle::{
    standing, Battle, Event, EventBody, Gauge, Standing, UnitId, UnitState,
};
use referee_core::rule_system::Phase;
use referee_core::ErrorCode;
use referee_core::{RefereeError, Ruleset};

pub use page::html_report;
pub use text::text_log;

use crate::battles::UnitEntries;

/// What a report is told from, gathered by `Battles`.
pub struct Source<'a> {
    pub ruleset: &'a Ruleset,
    pub battle: &'a Battle,
    /// Each applied event's (or edited roll's) stored situation and resolution, by seq.
    pub details: BTreeMap<u64, serde_json::Value>,
    /// The names of the house rules in force for this ruleset.
    pub house_rules: Vec<String>,
}

/// A battle's story: what both the text log and the HTML report tell.
pub struct Story {
    pub title: String,
    pub system: String,
    pub house_rules: Vec<String>,
    /// The battle began under other ruleset or house-rule files than those in force now.
    pub rules_changed: bool,
    pub sides: Vec<SideRoster>,
    /// When the battle began and its latest event, in words ("21 November 2026, 10:00 UTC").
    pub began: String,
    pub last: String,
    pub turns: Vec<TurnStory>,
    /// The standing at the start, then at the end of each turn, oldest first; the last is the
    /// final standing.
    pub samples: Vec<Sample>,
    pub standing: Standing,
    /// Events taken back by an undo: left out of the story.
    pub left_out: usize,
}

pub struct SideRoster {
    pub name: String,
    pub units: Vec<UnitLine>,
}

pub struct UnitLine {
    pub label: String,
    pub kind: String,
    pub state: String,
}

pub struct TurnStory {
    pub heading: String,
    pub entries: Vec<Entry>,
}

/// One event in force, in words.
pub struct Entry {
    pub text: String,
    pub changes: Vec<String>,
    pub roll: Option<Roll>,
    /// What the result was worked out from: the situation's figures and the modifiers.
    pub workings: Option<Workings>,
    /// Its roll was corrected later: the entry tells the corrected roll.
    pub corrected: bool,
}

/// What a result was worked out from, each line with its rule section (and ruling): the
/// situation's figures ("Attack strength 24 (4.5.10)") and every modifier ("Rear attack +2
/// (4.5.8, 10.5)"), with their sum on the dice where there is one.
pub struct Workings {
    pub situation: Vec<String>,
    pub modifiers: Vec<String>,
    /// "+6 on the dice", when the modifiers come to a sum the dice take.
    pub on_dice: Option<String>,
}

/// "(4.5.8, 10.5)", "(6.12; ruling R-GTS-4)".
fn cited(rule: &str, ruling: Option<&str>) -> String {
    match (rule.is_empty(), ruling) {
        (true, None) => String::new(),
        (true, Some(r)) => format!(" (ruling {r})"),
        (false, None) => format!(" ({rule})"),
        (false, Some(r)) => format!(" ({rule}; ruling {r})"),
    }
}

/// "+2", "−1": a modifier as the rules print it.
fn signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", -v)
    } else {
        format!("+{v}")
    }
}

fn workings_of(detail: Option<&serde_json::Value>) -> Option<Workings> {
    let resolution = detail?.get("resolution")?;
    let text = |v: &serde_json::Value, key: &str| {
        v.get(key)
            .and_then(|x| x.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let list = |key: &str| {
        resolution
            .get(key)
            .and_then(|x| x.as_array())
            .cloned()
            .unwrap_or_default()
    };
    let situation: Vec<String> = list("totals")
        .iter()
        .map(|t| {
            format!(
                "{} {}{}",
                text(t, "label"),
                text(t, "value"),
                cited(&text(t, "rule"), t.get("ruling").and_then(|r| r.as_str()))
            )
        })
        .collect();
    let modifiers: Vec<String> = list("modifiers")
        .iter()
        .map(|m| {
            let value = m.get("value").and_then(|v| v.as_i64()).unwrap_or(0);
            format!(
                "{} {}{}",
                text(m, "label"),
                signed(value),
                cited(&text(m, "rule"), m.get("ruling").and_then(|r| r.as_str()))
            )
        })
        .collect();
    let total = resolution
        .get("total_modifier")
        .and_then(|v| v.as_i64())
        .unwrap_or(0);
    let on_dice = (total != 0).then(|| format!("{} on the dice", signed(total)));
    (!situation.is_empty() || !modifiers.is_empty()).then_some(Workings {
        situation,
        modifiers,
        on_dice,
    })
}

/// The dice of an applied result and its odds, from the stored resolution.
pub struct Roll {
    pub result: String,
    pub meaning: String,
    /// The chance of the result rolled.
    pub chance: Option<Chance>,
    /// Every result the roll could give, with its chance.
    pub distribution: Vec<Chance>,
}

#[derive(Clone)]
pub struct Chance {
    pub result: String,
    /// Exact, "n/d".
    pub probability: String,
    /// For display only.
    pub p: f64,
}

impl Chance {
    /// "7/12 (58.3%)".
    pub fn words(&self) -> String {
        format!("{} ({:.1}%)", self.probability, 100.0 * self.p)
    }
}

/// The gauges at the start (every unit in, before the first result) or at the end of a turn.
pub struct Sample {
    /// "Start", "T1", "T2": where the chart's axis names it.
    pub label: String,
    pub gauges: Vec<Gauge>,
}

impl Sample {
    fn at_end_of(turn: u32, gauges: Vec<Gauge>) -> Sample {
        Sample {
            label: format!("T{turn}"),
            gauges,
        }
    }
}

/// "21 November 2026, 10:00 UTC" from the stored RFC 3339 time (as it is when it does not parse).
fn date_words(at: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(at)
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .format("%-d %B %Y, %H:%M UTC")
                .to_string()
        })
        .unwrap_or_else(|_| at.to_string())
}

fn roll_of(detail: Option<&serde_json::Value>) -> Option<Roll> {
    let resolution = detail?.get("resolution")?;
    let outcome = resolution.get("outcome")?;
    // A certain result (no dice) has no odds to tell.
    if outcome.get("dice")?.as_array()?.is_empty() {
        return None;
    }
    let text = |v: &serde_json::Value, key: &str| {
        v.get(key)
            .and_then(|x| x.as_str())
            .unwrap_or_default()
            .to_string()
    };
    // Each result as the screen names it: the system's words naming the units where it gives
    // them ("Knights loses 1 SP; Boyars retreats 2 hexes (-1/D2)"), else its code.
    let named = |code: String| {
        resolution
            .get("names")
            .and_then(|n| n.get(&code))
            .and_then(|n| n.as_str())
            .map_or(code, str::to_string)
    };
    // Kept by code until the words are given: two results may read alike (the result thrown is
    // found by its code, never by its words).
    let coded: Vec<(String, Chance)> = resolution
        .get("distribution")?
        .as_array()?
        .iter()
        .map(|o| {
            let code = text(o, "result");
            let chance = Chance {
                result: named(code.clone()),
                probability: text(o, "probability"),
                p: o.get("p").and_then(|p| p.as_f64()).unwrap_or(0.0),
            };
            (code, chance)
        })
        .filter(|(_, c)| c.p > 0.0)
        .collect();
    let code = text(outcome, "result");
    let chance = coded
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, c)| c.clone());
    let result = named(code);
    let distribution = coded.into_iter().map(|(_, c)| c).collect();
    Some(Roll {
        meaning: text(outcome, "meaning"),
        result,
        chance,
        distribution,
    })
}

/// The applied event as its edited roll (if one is in force) made it.
fn as_corrected(battle: &Battle, event: &Event) -> (EventBody, Option<u64>) {
    let edit = battle
        .history
        .edited
        .get(&event.seq)
        .and_then(|s| battle.events.iter().find(|e| e.seq == *s));
    match (&event.body, edit) {
        (
            EventBody::Applied {
                action,
                rolled_by,
                targets,
                choices,
                apply_key,
                ..
            },
            Some(Event {
                seq,
                body:
                    EventBody::RollEdited {
                        dice,
                        source,
                        result,
                        words,
                        changes,
                        ..
                    },
                ..
            }),
        ) => (
            EventBody::Applied {
                action: action.clone(),
                dice: dice.clone(),
                source: *source,
                rolled_by: rolled_by.clone(),
                result: result.clone(),
                words: words.clone(),
                targets: targets.clone(),
                choices: choices.clone(),
                changes: changes.clone(),
                apply_key: apply_key.clone(),
            },
            Some(*seq),
        ),
        (body, _) => (body.clone(), None),
    }
}

/// The unit's type by its name in the rules (a leader is a leader).
fn unit_kind(unit: &UnitState) -> String {
    if unit.words.type_name.is_empty() {
        format!("{:?}", unit.role).to_lowercase()
    } else {
        unit.words.type_name.clone()
    }
}

fn heading(turn: u32, phase: &Option<String>, phases: &[Phase]) -> String {
    referee_core::battle::turn_words(turn, phase.as_deref(), phases)
}

/// Consecutive units added to one side as one entry: "Added 6 units to Romans: 17.04, …".
fn added_together(entries: &mut Vec<Entry>, added: &mut Option<(String, Vec<String>)>) {
    if let Some((side, labels)) = added.take() {
        let text = match labels.as_slice() {
            [one] => format!("Added {one} to {side}"),
            many => format!("Added {} units to {side}: {}", many.len(), many.join(", ")),
        };
        entries.push(Entry {
            text,
            changes: Vec::new(),
            roll: None,
            workings: None,
            corrected: false,
        });
    }
}

impl Story {
    /// The battle told turn by turn: the events in force replayed from its creation (undone
    /// events, undo and redo left out, edited rolls put in place of the rolls they correct),
    /// the standing taken at the end of each turn.
    pub fn tell(source: &Source) -> Result<Story, RefereeError> {
        let Source {
            ruleset, battle, ..
        } = source;
        let first = battle.events.first().cloned().ok_or_else(|| {
            RefereeError::new(ErrorCode::StoreCorrupt, "the battle has no events").field("battle")
        })?;
        let mut replay = Battle::open(ruleset, vec![first])?;
        let mut turns = vec![TurnStory {
            heading: heading(replay.state.turn, &replay.state.phase, &ruleset.info.phases),
            entries: Vec::new(),
        }];
        let mut samples = Vec::new();
        let mut added: Option<(String, Vec<String>)> = None;
        let mut left_out = 0;
        let units = UnitEntries::of(battle);
        let label = |seq: u64, id: UnitId| units.before(seq, id).map(|u| u.label.clone());
        for event in &battle.events[1..] {
            if !battle.history.in_force(event.seq) {
                left_out += 1;
                continue;
            }
            if matches!(
                event.body,
                EventBody::Undone { .. }
                    | EventBody::Redone { .. }
                    | EventBody::UndoneTo { .. }
                    | EventBody::RollEdited { .. }
            ) {
                continue;
            }
            let (body, edit) = as_corrected(battle, event);
            // The standing before anything but the units: what the charts start from.
            let setting_up = matches!(
                body,
                EventBody::UnitAdded { .. }
                    | EventBody::UnitEdited { .. }
                    | EventBody::UnitRemoved { .. }
            );
            if samples.is_empty() && !setting_up {
                samples.push(Sample {
                    label: "Start".into(),
                    gauges: standing(ruleset, &replay.state).gauges,
                });
            }
            let entries = &mut turns.last_mut().expect("one turn at least").entries;
            match &body {
                EventBody::UnitAdded { unit, .. } => match &mut added {
                    Some((side, labels)) if *side == unit.side => labels.push(unit.label.clone()),
                    _ => {
                        added_together(entries, &mut added);
                        added = Some((unit.side.clone(), vec![unit.label.clone()]));
                    }
                },
                EventBody::TurnAdvanced { turn, phase } => {
                    added_together(entries, &mut added);
                    if *turn != replay.state.turn {
                        samples.push(Sample::at_end_of(
                            replay.state.turn,
                            standing(ruleset, &replay.state).gauges,
                        ));
                    }
                    turns.push(TurnStory {
                        heading: heading(*turn, phase, &ruleset.info.phases),
                        entries: Vec::new(),
                    });
                }
                _ => {
                    added_together(entries, &mut added);
                    // An adjustment's line already says its changes.
                    let changes = match &body {
                        EventBody::Applied { changes, .. } => {
                            changes.iter().map(|c| c.text.clone()).collect()
                        }
                        _ => Vec::new(),
                    };
                    let detail = source.details.get(&edit.unwrap_or(event.seq));
                    let roll = roll_of(detail);
                    let workings = workings_of(detail);
                    let mut text =
                        body.describe_in(|id| label(event.seq, id), &ruleset.info.phases);
                    // The result by its name in words, where the resolution gives one.
                    if let (EventBody::Applied { result, .. }, Some(r)) = (&body, &roll) {
                        text = text.replacen(&format!(": {result}"), &format!(": {}", r.result), 1);
                    }
                    entries.push(Entry {
                        text,
                        changes,
                        roll,
                        workings,
                        corrected: edit.is_some(),
                    });
                }
            }
            replay.record(
                ruleset,
                Event {
                    seq: event.seq,
                    at: event.at.clone(),
                    body,
                },
            )?;
        }
        if let Some(last) = turns.last_mut() {
            added_together(&mut last.entries, &mut added);
        }
        let standing = standing(ruleset, &replay.state);
        samples.push(Sample::at_end_of(
            replay.state.turn,
            standing.gauges.clone(),
        ));
        turns.retain(|t| !t.entries.is_empty());
        let state = &ruleset.worded(&battle.state);
        let sides = state
            .sides
            .iter()
            .map(|s| SideRoster {
                name: s.name.clone(),
                units: state
                    .units
                    .values()
                    .filter(|u| u.side == s.name)
                    .map(|u| UnitLine {
                        label: u.label.clone(),
                        kind: unit_kind(u),
                        state: u.words.summary.clone(),
                    })
                    .collect(),
            })
            .collect();
        let at = |e: Option<&Event>| e.map(|e| date_words(&e.at)).unwrap_or_default();
        Ok(Story {
            title: state.name.clone(),
            system: ruleset.info.name.clone(),
            house_rules: source.house_rules.clone(),
            rules_changed: state.fingerprint != ruleset.info.fingerprint,
            sides,
            began: at(battle.events.first()),
            last: at(battle.events.last()),
            turns,
            samples,
            standing,
            left_out,
        })
    }

    /// "Romans v Gauls".
    pub fn sides_words(&self) -> String {
        self.sides
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(" v ")
    }

    /// The rules in words: "ITACS, with the house rules Longer pursuit and Wet ground".
    pub fn rules_words(&self) -> String {
        let mut words = match self.house_rules.as_slice() {
            [] => self.system.clone(),
            [one] => format!("{}, with the house rule {one}", self.system),
            many => format!("{}, with the house rules {}", self.system, many.join(", ")),
        };
        if self.rules_changed {
            words.push_str(" (the battle began under other rules or house rules)");
        }
        words
    }

    /// "3 entries taken back by undo are left out.", when any were.
    pub fn left_out_words(&self) -> Option<String> {
        let (what, verb) = if self.left_out == 1 {
            ("entry", "is")
        } else {
            ("entries", "are")
        };
        (self.left_out > 0).then(|| {
            format!(
                "{} {what} taken back by undo {verb} left out.",
                self.left_out
            )
        })
    }

    /// The system's verdicts on the final standing, as sentences.
    pub fn verdicts(&self) -> Vec<String> {
        self.standing
            .resolutions
            .iter()
            .filter_map(|r| r.outcome.as_ref())
            .map(|o| {
                let text = if o.meaning.is_empty() {
                    &o.result
                } else {
                    &o.meaning
                };
                referee_core::error::sentence(text)
            })
            .collect()
    }
}

/// A gauge as the app shows it (ui battle.ts gaugeText): "label — status · value · to go",
/// parts absent skipped.
pub fn gauge_words(g: &Gauge) -> String {
    let head = match &g.status {
        Some(status) => format!("{} — {status}", g.label),
        None => g.label.clone(),
    };
    [Some(head), Some(g.value.clone()), g.to_go.clone()]
        .into_iter()
        .flatten()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_thrown_is_found_by_its_code_when_two_results_read_alike() {
        // Two keys the core names in the same words: the chance is the thrown key's own.
        let detail = serde_json::json!({ "resolution": {
            "names": { "hits_1_0": "Hoplites take 1", "hits_1_0_x": "Hoplites take 1" },
            "distribution": [
                { "result": "hits_1_0", "probability": "1/4", "p": 0.25 },
                { "result": "hits_1_0_x", "probability": "3/4", "p": 0.75 }
            ],
            "outcome": { "result": "hits_1_0_x", "dice": [7], "meaning": "" }
        }});
        let roll = roll_of(Some(&detail)).unwrap();
        assert_eq!(roll.result, "Hoplites take 1");
        assert_eq!(roll.chance.unwrap().probability, "3/4");
        assert_eq!(roll.distribution.len(), 2);
    }
}
