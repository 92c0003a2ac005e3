//! Applying a shown result once, and what undo takes back: a key applies one result once while it
//! is in force; turns and phases are navigation, never on the undo stack.

use serde_json::json;

use referee_api::{
    ApplyRequest, BattleView, Battles, DiceEntry, Mapping, NewBattle, PhysicalDice, Referee,
};

/// An ITACS battle with an attacking SD stack (unit 1) and a defending PS stack (unit 2).
fn skirmish(battles: &mut Battles, referee: &Referee) -> i64 {
    let new: NewBattle = serde_json::from_value(json!({
        "name": "Telamon",
        "ruleset": "itacs",
        "sides": [{"name": "Romans"}, {"name": "Gauls"}],
        "units": [
            {"label": "17.04", "side": "Romans", "stats": {"type": "SD", "count": 4}},
            {"label": "17.03", "side": "Gauls", "stats": {"type": "PS", "count": 2}}
        ]
    }))
    .unwrap();
    battles.create(referee, &new).unwrap().id
}

fn melee(faces: [u32; 2], key: Option<&str>) -> ApplyRequest {
    ApplyRequest {
        action: "melee".into(),
        situation: json!({
            "attackers": [{ "label": "17.04", "units": [{ "type": "SD", "count": 4 }] }],
            "defenders": [{ "label": "17.03", "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
        }),
        dice: DiceEntry::Physical(PhysicalDice {
            faces: faces.to_vec(),
        }),
        mapping: serde_json::from_value::<Mapping>(
            json!({"targets": {"attacker": [1], "defender": [2]}}),
        )
        .unwrap(),
        rolled_by: None,
        apply_key: key.map(str::to_string),
    }
}

fn open(dir: &tempfile::TempDir) -> (Battles, Referee) {
    (
        Battles::open(&dir.path().join("referee.db")).unwrap(),
        Referee::builtin(),
    )
}

#[test]
fn a_shown_result_applies_once_until_it_is_undone() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = skirmish(&mut battles, &referee);
    let first = battles
        .apply(&referee, id, &melee([1, 1], Some("shown-1")))
        .unwrap();

    // The same key again (a double tap, a retried request): refused before anything is written,
    // whatever the dice.
    for again in [
        melee([1, 1], Some("shown-1")),
        melee([6, 6], Some("shown-1")),
    ] {
        let e = battles.apply(&referee, id, &again).unwrap_err();
        assert_eq!(e.code, "battle.already_applied");
        assert_eq!(
            e.message,
            "This result is already on the roster. Undo it first to apply it again."
        );
        let (mut fresh, _) = open(&dir);
        assert_eq!(fresh.view(&referee, id).unwrap().events, first.events);
    }
    // Another key, or none, is another result.
    battles
        .apply(&referee, id, &melee([1, 1], Some("shown-2")))
        .unwrap();
    battles.apply(&referee, id, &melee([1, 1], None)).unwrap();
    battles.apply(&referee, id, &melee([1, 1], None)).unwrap();

    // Undone, the key is free again; redone, it is taken again.
    let mut battles = open(&dir).0;
    for _ in 0..4 {
        battles.undo(&referee, id).unwrap();
    }
    battles
        .apply(&referee, id, &melee([1, 1], Some("shown-1")))
        .unwrap();
    battles.undo(&referee, id).unwrap();
    battles.redo(&referee, id).unwrap();
    assert_eq!(
        battles
            .apply(&referee, id, &melee([1, 1], Some("shown-1")))
            .unwrap_err()
            .code,
        "battle.already_applied"
    );
}

#[test]
fn the_key_travels_in_the_battle_file_and_only_when_given() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = skirmish(&mut battles, &referee);
    battles.apply(&referee, id, &melee([1, 1], None)).unwrap();
    let file = serde_json::to_value(battles.export(&referee, id).unwrap()).unwrap();
    assert_eq!(
        file["version"], 4,
        "every export carries its events' hashes (version 4)"
    );
    assert!(!file.to_string().contains("apply_key"));

    battles
        .apply(&referee, id, &melee([1, 1], Some("shown-1")))
        .unwrap();
    let file = battles.export(&referee, id).unwrap();
    assert_eq!(file.version, 4);
    let copy = battles
        .import(&referee, &serde_json::to_string(&file).unwrap())
        .unwrap();
    assert_eq!(
        battles
            .apply(&referee, copy.id, &melee([1, 1], Some("shown-1")))
            .unwrap_err()
            .code,
        "battle.already_applied",
        "the imported battle knows the key"
    );
}

fn undo_target(view: &BattleView) -> Option<&str> {
    view.log
        .iter()
        .find(|e| Some(e.seq) == view.undo)
        .map(|e| e.text.as_str())
}

#[test]
fn undo_takes_back_the_combat_not_the_phase_change_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = skirmish(&mut battles, &referee);
    let combat = battles.apply(&referee, id, &melee([3, 4], None)).unwrap();
    let text = undo_target(&combat).unwrap().to_string();
    assert!(text.starts_with("Melee — 17.04, 17.03: "), "{text}");
    let moved = battles
        .advance_turn(&referee, id, None, Some("Melee phase".into()))
        .unwrap();
    assert_eq!(moved.undo, combat.undo, "the phase change is not undoable");
    assert_eq!(undo_target(&moved), Some(text.as_str()));

    let undone = battles.undo(&referee, id).unwrap();
    assert_eq!(undone.state.phase.as_deref(), Some("Melee phase"));
    assert_eq!(
        undone.state.units[&2].strength, 2,
        "the melee is taken back"
    );
    // A phase change between undo and redo keeps the redo.
    let moved = battles.advance_turn(&referee, id, Some(2), None).unwrap();
    assert_eq!(moved.redo, combat.undo);
    let redone = battles.redo(&referee, id).unwrap();
    assert_eq!(redone.state.units, combat.state.units);
    assert_eq!(redone.state.turn, 2);
    // Undo goes on past the phase changes to the units, never to a turn.
    let mut view = redone;
    while view.undo.is_some() {
        view = battles.undo(&referee, id).unwrap();
    }
    assert_eq!((view.state.turn, view.state.units.len()), (2, 0));
}
