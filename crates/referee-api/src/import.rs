//! Reading a battle file whole before anything is stored: its size, format and version, every
//! field, the ruleset it was played under, the events numbered 1, 2, 3…, every number within the
//! ranges the rules and the referee use, the chain of event hashes (when the file carries them),
//! and every event folded.

use referee_core::battle::{AppliedChange, Battle, Event, EventBody, Subject};
use referee_core::ErrorCode;
use referee_core::RefereeError;
use referee_store::{BattleFile, FileEvent};

use crate::{Limited, Referee};

/// The highest turn a battle can stand at: far beyond any scenario's length, and a bound that
/// keeps "next turn" from ever overflowing.
pub const MAX_TURN: u32 = 9_999;
/// The most of anything one change moves (markers, losses, points, hexes, morale boxes).
const MAX_CHANGE: u64 = 10_000;
/// Dice faces: a die has at most 100 sides, a roll at most 12 dice in each of its parts.
const MAX_FACE: u32 = 100;
const MAX_DICE: usize = 64;

/// Reads and checks a battle file completely (size, format, version, fields, ruleset fingerprint,
/// numbering, ranges, hashes, every event folded) without storing anything.
pub fn read_battle_file(
    referee: &Referee,
    text: &str,
) -> Result<(BattleFile, Battle), RefereeError> {
    Limited::BattleFile.check(text.len())?;
    let file = BattleFile::parse(text)?;
    let ruleset = referee.ruleset(&file.ruleset)?;
    if file.fingerprint != ruleset.info.fingerprint {
        return Err(RefereeError::new(
            ErrorCode::ImportForeignRuleset,
            format!(
                "the battle was played under other {} rules or house rules than those chosen now: choose the same house rules in Settings, then import again",
                ruleset.info.name
            ),
        )
        .field("fingerprint"));
    }
    let events: Vec<Event> = file.events.iter().map(FileEvent::event).collect();
    if let Some(Event {
        body: EventBody::Created { setup },
        ..
    }) = events.first()
    {
        if setup.fingerprint != file.fingerprint || setup.ruleset != file.ruleset {
            return Err(RefereeError::new(
                ErrorCode::ImportInvalid,
                "the battle's first event names another ruleset than the file",
            )
            .field("events[0]"));
        }
    }
    check_ranges(&events)?;
    let battle = Battle::open(ruleset, events)?;
    // Last, so a file damaged in a way that makes no sense is named by what is wrong in it.
    file.check_chain()?;
    Limited::BattleFile.check_export(exported_len(&file))?;
    Ok((file, battle))
}

/// How long the battle file the referee exports of these events is: the file as it is, compact,
/// with a hash for each event that lacks one and the chain's head.
fn exported_len(file: &BattleFile) -> usize {
    struct Counted(usize);
    impl std::io::Write for Counted {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counted = Counted(0);
    let _ = serde_json::to_writer(&mut counted, file);
    // `,"hash":"` + 64 hex digits + `"`
    const HASH: usize = 74;
    let unhashed = file.events.iter().filter(|e| e.hash.is_none()).count();
    let head = match (&file.head, file.events.last()) {
        // `,"head":{"seq":` + N + `,"hash":"` + 64 hex digits + `"}`
        (None, Some(last)) => 15 + last.seq.to_string().len() + 9 + 64 + 2,
        _ => 0,
    };
    counted
        .0
        .saturating_add(unhashed.saturating_mul(HASH))
        .saturating_add(head)
}

fn out_of_range(i: usize, at: &str, message: String) -> RefereeError {
    RefereeError::new(ErrorCode::ImportOutOfRange, message).field(format!("events[{i}]{at}"))
}

/// Every event numbered in turn from 1, and every number in it within range: turns up to
/// `MAX_TURN`, units among those added so far, undo, redo and roll edits of earlier events, dice
/// faces a die can show, changes of at most `MAX_CHANGE`.
pub(crate) fn check_ranges(events: &[Event]) -> Result<(), RefereeError> {
    let mut added: u64 = 0;
    for (i, e) in events.iter().enumerate() {
        let place = u64::try_from(i).map_or(u64::MAX, |i| i.saturating_add(1));
        if e.seq != place {
            return Err(out_of_range(
                i,
                ".seq",
                format!(
                    "event {} stands at place {place}: a battle's events are numbered 1, 2, 3 and so on",
                    e.seq
                ),
            ));
        }
        let unit = |id: u32, at: &str, added: u64| {
            if id == 0 || u64::from(id) > added {
                Err(out_of_range(
                    i,
                    at,
                    format!(
                        "event {} names unit #{id}, but only {added} units were added before it",
                        e.seq
                    ),
                ))
            } else {
                Ok(())
            }
        };
        let earlier = |event: u64| {
            if event == 0 || event >= e.seq {
                Err(out_of_range(
                    i,
                    ".body.event",
                    format!(
                        "event {} takes back or edits event {event}, which is not an earlier one",
                        e.seq
                    ),
                ))
            } else {
                Ok(())
            }
        };
        let dice = |faces: &[u32]| {
            if faces.len() > MAX_DICE || faces.iter().any(|f| *f == 0 || *f > MAX_FACE) {
                Err(out_of_range(
                    i,
                    ".body.dice",
                    format!(
                        "event {} has dice no roll shows: at most {MAX_DICE} dice, each from 1 to {MAX_FACE}",
                        e.seq
                    ),
                ))
            } else {
                Ok(())
            }
        };
        let changes = |changes: &[AppliedChange], added: u64| {
            for (c, change) in changes.iter().enumerate() {
                if let Subject::Unit(id) = change.subject {
                    unit(id, &format!(".body.changes[{c}].subject"), added)?;
                }
                let value = serde_json::to_value(&change.change).unwrap_or_default();
                if !within(&value) {
                    return Err(out_of_range(
                        i,
                        &format!(".body.changes[{c}].change"),
                        format!(
                            "event {} changes more than {MAX_CHANGE} of something at once",
                            e.seq
                        ),
                    ));
                }
            }
            Ok(())
        };
        // Names within their length (older files may hold control characters: every output
        // shows them escaped).
        let name = |at: &str, text: &str| {
            if text.chars().count() > crate::NAME_MAX_CHARS {
                Err(out_of_range(
                    i,
                    at,
                    format!(
                        "event {} holds a name longer than {} characters",
                        e.seq,
                        crate::NAME_MAX_CHARS
                    ),
                ))
            } else {
                Ok(())
            }
        };
        match &e.body {
            EventBody::Created { setup } => {
                name(".body.setup.name", &setup.name)?;
                for side in &setup.sides {
                    name(".body.setup.sides", &side.name)?;
                    for command in &side.commands {
                        name(".body.setup.sides", command)?;
                    }
                }
            }
            EventBody::UnitAdded { id, unit: spec } => {
                added = added.saturating_add(1);
                unit(*id, ".body.id", added)?;
                name(".body.unit.label", &spec.label)?;
            }
            EventBody::UnitEdited { id, unit: spec } => {
                unit(*id, ".body.id", added)?;
                name(".body.unit.label", &spec.label)?;
            }
            EventBody::UnitRemoved { id } => {
                unit(*id, ".body.id", added)?;
            }
            EventBody::Applied {
                dice: faces,
                changes: c,
                targets,
                choices,
                ..
            } => {
                dice(faces)?;
                changes(c, added)?;
                for ids in targets.values().chain(choices.values()) {
                    for id in ids {
                        unit(*id, ".body.targets", added)?;
                    }
                }
            }
            EventBody::Adjusted { changes: c, .. } => changes(c, added)?,
            EventBody::TurnAdvanced { turn, .. } => {
                if *turn > MAX_TURN {
                    return Err(out_of_range(
                        i,
                        ".body.turn",
                        format!(
                            "event {} advances to turn {turn}; a battle's turns run up to {MAX_TURN}",
                            e.seq
                        ),
                    ));
                }
            }
            EventBody::Undone { event }
            | EventBody::Redone { event }
            | EventBody::UndoneTo { event } => earlier(*event)?,
            EventBody::RollEdited {
                event,
                dice: faces,
                changes: c,
                ..
            } => {
                earlier(*event)?;
                dice(faces)?;
                changes(c, added)?;
            }
        }
    }
    Ok(())
}

/// Every number in a change within ±`MAX_CHANGE`.
fn within(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Number(n) => {
            n.as_u64().is_some_and(|n| n <= MAX_CHANGE)
                || n.as_i64().is_some_and(|n| n.unsigned_abs() <= MAX_CHANGE)
        }
        serde_json::Value::Array(items) => items.iter().all(within),
        serde_json::Value::Object(map) => map.values().all(within),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Battles, NewBattle};

    #[test]
    fn the_length_of_an_export_is_known_before_storing() {
        let referee = Referee::builtin();
        let dir = tempfile::tempdir().unwrap();
        let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
        let new: NewBattle = serde_json::from_value(serde_json::json!({
            "name": "Cannae", "ruleset": "itacs",
            "sides": [{"name": "Romans"}, {"name": "Gauls"}],
            "units": [{"label": "Legio X", "side": "Romans", "stats": {"type": "SD", "count": 4}}],
        }))
        .unwrap();
        let id = battles.create(&referee, &new).unwrap().id;
        battles.advance_turn(&referee, id, None, None).unwrap();
        let text = battles.export_text(&referee, id).unwrap();
        // As exported, and as an older file without hashes or head: the export is as long as
        // worked out.
        let mut old: serde_json::Value = serde_json::from_str(&text).unwrap();
        old["version"] = serde_json::json!(1);
        old.as_object_mut().unwrap().remove("head");
        for e in old["events"].as_array_mut().unwrap() {
            e.as_object_mut().unwrap().remove("hash");
        }
        for file in [text.clone(), old.to_string()] {
            let (parsed, _) = read_battle_file(&referee, &file).unwrap();
            let view = battles.import(&referee, &file).unwrap();
            let again = battles.export_text(&referee, view.id).unwrap();
            assert_eq!(exported_len(&parsed), again.len());
        }
    }
}
