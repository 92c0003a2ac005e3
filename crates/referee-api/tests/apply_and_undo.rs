//! Applying a shown result once, and what undo takes back: a key applies one result once while it
//! is in force; turns and phases are navigation, never on the undo stack; an ITACS hex is meleed
//! once a turn, until that melee is undone or the turn ends.

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
    // Another key, or none, is another result (a turn later: a hex is meleed once a turn).
    battles.advance_turn(&referee, id, None, None).unwrap();
    battles
        .apply(&referee, id, &melee([1, 1], Some("shown-2")))
        .unwrap();
    battles.advance_turn(&referee, id, None, None).unwrap();
    battles.apply(&referee, id, &melee([1, 1], None)).unwrap();
    battles.advance_turn(&referee, id, None, None).unwrap();
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
    battles.advance_turn(&referee, id, None, None).unwrap();
    assert_eq!(
        file["version"], 5,
        "every export carries its events' hashes and the chain's head (version 5)"
    );
    assert!(!file.to_string().contains("apply_key"));

    battles
        .apply(&referee, id, &melee([1, 1], Some("shown-1")))
        .unwrap();
    let file = battles.export(&referee, id).unwrap();
    assert_eq!(file.version, 5);
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
    assert_eq!(undone.log.last().unwrap().text, format!("Undo: {text}"));
    assert_eq!(
        undone.state.units[&2].strength, 2,
        "the melee is taken back"
    );
    // A phase change between undo and redo keeps the redo.
    let moved = battles.advance_turn(&referee, id, Some(2), None).unwrap();
    assert_eq!(moved.redo, combat.undo);
    let redone = battles.redo(&referee, id).unwrap();
    assert_eq!(redone.state.units, combat.state.units);
    assert_eq!(redone.log.last().unwrap().text, format!("Redo: {text}"));
    assert_eq!(redone.state.turn, 2);
    // Undo goes on past the phase changes to the units, never to a turn.
    let mut view = redone;
    while view.undo.is_some() {
        view = battles.undo(&referee, id).unwrap();
    }
    assert_eq!((view.state.turn, view.state.units.len()), (2, 0));
}

#[test]
fn undo_back_to_an_entry_takes_back_everything_after_it_in_one_stored_event() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = skirmish(&mut battles, &referee);
    let begun = battles.view(&referee, id).unwrap();
    let entry = begun.log.last().unwrap().seq;
    battles.apply(&referee, id, &melee([1, 1], None)).unwrap();
    battles.advance_turn(&referee, id, Some(2), None).unwrap();
    let fought = battles.apply(&referee, id, &melee([6, 6], None)).unwrap();
    // Each entry knows its turn, and whether undo can take it back.
    let turns: Vec<(&str, u32, bool)> = fought
        .log
        .iter()
        .map(|e| (e.kind.as_str(), e.turn, e.undoable))
        .collect();
    assert_eq!(
        turns,
        vec![
            ("created", 1, false),
            ("unit_added", 1, true),
            ("unit_added", 1, true),
            ("applied", 1, true),
            ("turn_advanced", 2, false),
            ("applied", 2, true)
        ]
    );
    let back = battles.undo_to(&referee, id, entry).unwrap();
    assert_eq!(back.events, fought.events + 1, "one event");
    assert_eq!(back.state.units, begun.state.units);
    assert_eq!(back.state.turn, 2);
    let undone: Vec<bool> = back.log.iter().map(|e| e.undone).collect();
    assert_eq!(undone, [false, false, false, true, false, true, false]);
    assert!(back.log.iter().all(|e| !e.undoable || e.seq <= entry));
    // The log says in words what was undone, not the number of an entry.
    assert_eq!(
        back.log.last().unwrap().text,
        format!("Undo back to: {}", begun.log.last().unwrap().text)
    );
    // Stored: a fresh reading of the database gives the same battle.
    let (mut fresh, _) = open(&dir);
    let reread = fresh.view(&referee, id).unwrap();
    assert_eq!(reread.state, back.state);
    // The battle file carries it, and imports to the same battle.
    let file = fresh.export_text(&referee, id).unwrap();
    let imported = fresh.import(&referee, &file).unwrap();
    assert_eq!(imported.state, back.state);
    assert_eq!(
        fresh.undo_to(&referee, id, 999).unwrap_err().code,
        "battle.unknown_event"
    );
}

/// A melee of `attacker` on `defender` (single units), with the fight's own situation.
fn melee_of(
    battles: &mut Battles,
    referee: &Referee,
    id: i64,
    attacker: u32,
    defender: u32,
) -> Result<BattleView, referee_core::RefereeError> {
    let fight = battles.fight(
        referee,
        id,
        &referee_api::FightRequest {
            action: "melee".into(),
            attackers: vec![attacker],
            defenders: vec![defender],
            ..Default::default()
        },
    )?;
    // The first throw that leaves the attacker untouched and the defender on the table, so the
    // limits alone decide what follows.
    let itacs = referee.ruleset("itacs").unwrap();
    let faces = (1..=36)
        .map(|i| vec![1 + (i - 1) / 6, 1 + (i - 1) % 6])
        .find(|faces| {
            let r = itacs
                .resolve("melee", &fight.situation, Some(faces))
                .unwrap();
            r.outcome.unwrap().effects.iter().all(|e| {
                e.target == referee_api::Target::Defender
                    && !matches!(
                        e.change,
                        referee_api::Change::LoseUnits { .. } | referee_api::Change::DestroyAll
                    )
            })
        })
        .unwrap();
    let request = ApplyRequest {
        action: "melee".into(),
        situation: fight.situation,
        dice: DiceEntry::Physical(PhysicalDice { faces }),
        mapping: Mapping {
            units_moving: None,
            targets: fight.targets,
            choices: Default::default(),
        },
        rolled_by: None,
        apply_key: None,
    };
    battles.apply(referee, id, &request)
}

#[test]
fn a_defending_hex_is_meleed_once_a_turn_until_undone_or_the_next_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let new: NewBattle = serde_json::from_value(json!({
        "name": "Sentinum",
        "ruleset": "itacs",
        "sides": [{"name": "Romans"}, {"name": "Samnites"}],
        "units": [
            {"label": "17.04", "side": "Romans", "stats": {"type": "SD", "count": 1}},
            {"label": "18.05", "side": "Romans", "stats": {"type": "SD", "count": 1}},
            {"label": "17.03", "side": "Samnites", "stats": {"type": "PS", "count": 2}},
            {"label": "18.04", "side": "Samnites", "stats": {"type": "PS", "count": 2}}
        ]
    }))
    .unwrap();
    let id = battles.create(&referee, &new).unwrap().id;
    let first = melee_of(&mut battles, &referee, id, 1, 3).unwrap();
    assert!(!first.state.units[&3].lost && !first.state.units[&1].lost);

    // A second melee on 17.03, or by 17.04, this turn: refused, nothing written.
    for (a, d, field) in [(2, 3, "defenders"), (1, 4, "attackers")] {
        let e = melee_of(&mut battles, &referee, id, a, d).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref(), e.rule.as_deref()),
            ("battle.once_per_turn", Some(field), Some("4.5.4")),
            "{}",
            e.message
        );
        let (mut fresh, _) = open(&dir);
        assert_eq!(fresh.view(&referee, id).unwrap().events, first.events);
    }
    // The fight itself says so before any dice: the apply's refusal is the fight's.
    let e = melee_of(&mut battles, &referee, id, 2, 3).unwrap_err();
    assert!(
        e.message.starts_with("17.03 (#3) was already attacked in melee this turn: each defending hex may only be subject to one melee combat each game turn."),
        "{}",
        e.message
    );

    // Undo the first melee: the hex may be attacked again.
    battles.undo(&referee, id).unwrap();
    melee_of(&mut battles, &referee, id, 2, 3).unwrap();
    assert_eq!(
        melee_of(&mut battles, &referee, id, 1, 3).unwrap_err().code,
        "battle.once_per_turn"
    );
    // A phase change keeps the limit; the next turn lifts it.
    battles
        .advance_turn(&referee, id, None, Some("Recovery".into()))
        .unwrap();
    assert!(melee_of(&mut battles, &referee, id, 1, 3).is_err());
    battles.advance_turn(&referee, id, None, None).unwrap();
    melee_of(&mut battles, &referee, id, 1, 3).unwrap();
}
