//! What the whole-turn tests share (gts_turn, medieval_turn): a battle's unit by its label, an
//! event recorded, and a step recorded with its replay, undo and redo checked exact.

use referee_core::battle::{Battle, Event, EventBody, UnitId};
use referee_core::systems::Ruleset;

/// The roster unit of this label.
pub fn id_of(b: &Battle, label: &str) -> UnitId {
    b.state
        .units
        .values()
        .find(|u| u.label == label)
        .unwrap_or_else(|| panic!("no unit {label}"))
        .id
}

/// Records an event on the battle.
pub fn record(r: &Ruleset, b: &mut Battle, body: EventBody) {
    let seq = b.next_seq();
    b.record(
        r,
        Event {
            seq,
            at: "2026-01-01T00:00:00Z".into(),
            body,
        },
    )
    .unwrap();
}

/// Records one step; the replay equals the live battle, undo gives back the battle before the
/// step exactly and redo the one after.
pub fn step(r: &Ruleset, b: &mut Battle, body: EventBody) {
    let before = b.state.clone();
    record(r, b, body);
    let after = b.state.clone();
    let replayed = Battle::open(r, b.events.clone()).unwrap();
    assert_eq!(
        replayed.state, after,
        "the replay differs from the live battle"
    );
    let undo = b.undo().unwrap();
    record(r, b, undo);
    assert_eq!(b.state, before, "undo is not exact");
    let redo = b.redo().unwrap();
    record(r, b, redo);
    assert_eq!(b.state, after, "redo is not exact");
}
