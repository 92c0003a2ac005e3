//! The battles API over a real database file: scripted battles for each system replayed from the
//! store equal the live state; imports are all or nothing; rosters copy in one transaction.

use serde_json::json;

use referee_api::{
    roster_from_csv, AppDice, ApplyRequest, BattleView, Battles, DiceEntry, HouseRuleChoice,
    Mapping, NewBattle, PhysicalDice, Referee, UnitSpec,
};

fn new(ruleset: &str, sides: serde_json::Value) -> NewBattle {
    NewBattle {
        name: format!("{ruleset} battle"),
        ruleset: ruleset.into(),
        sides: serde_json::from_value(sides).unwrap(),
        units: vec![],
        preset_sides: None,
    }
}

fn unit(label: &str, side: &str, stats: serde_json::Value) -> UnitSpec {
    serde_json::from_value(json!({"label": label, "side": side, "stats": stats})).unwrap()
}

fn mapping(targets: serde_json::Value) -> Mapping {
    serde_json::from_value(json!({ "targets": targets })).unwrap()
}

/// The battle as a fresh process reads it from the file must equal the live one.
fn same_after_reopening(path: &std::path::Path, referee: &Referee, live: &BattleView) {
    let mut fresh = Battles::open(path).unwrap();
    let reread = fresh.view(referee, live.id).unwrap();
    assert_eq!(
        serde_json::to_value(&reread.state).unwrap(),
        serde_json::to_value(&live.state).unwrap()
    );
    assert_eq!((reread.undo, reread.redo), (live.undo, live.redo));
    assert_eq!(reread.log.len(), live.log.len());
}

#[test]
fn an_itacs_battle_with_app_dice_undo_and_an_edited_roll_replays_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let v = battles
        .create(
            &referee,
            &new(
                "itacs",
                json!([{"name": "Romans", "panic_level": 4}, {"name": "Gauls", "panic_level": 6}]),
            ),
        )
        .unwrap();
    let id = v.id;
    battles
        .add_unit(
            &referee,
            id,
            unit("17.04", "Gauls", json!({"type": "SD", "count": 4})),
        )
        .unwrap();
    let v = battles
        .add_unit(
            &referee,
            id,
            unit("17.03", "Romans", json!({"type": "PS", "count": 2})),
        )
        .unwrap();
    same_after_reopening(&path, &referee, &v);
    let melee = json!({
        "attackers": [{ "label": "17.04", "units": [{ "type": "SD", "count": 4 }] }],
        "defenders": [{ "label": "17.03", "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
    });
    let request = ApplyRequest {
        action: "melee".into(),
        situation: melee.clone(),
        dice: DiceEntry::App(AppDice { seed: Some(7) }),
        mapping: mapping(json!({"attacker": [1], "defender": [2]})),
        rolled_by: Some("Vercingetorix".into()),
        apply_key: None,
    };
    let v = battles.apply(&referee, id, &request).unwrap();
    let applied = v.applied.clone().unwrap();
    let faces = applied.outcome.as_ref().unwrap().dice.clone();
    // The seed is logged, and replays the same faces.
    let entry = v.log.last().unwrap();
    assert!(
        entry.text.contains("app dice, seed 7") && entry.text.contains("Vercingetorix"),
        "{}",
        entry.text
    );
    assert_eq!(
        referee_api::roll(&referee_api::RollRequest {
            dice: "2d6".into(),
            seed: Some(7)
        })
        .unwrap()
        .faces,
        faces
    );
    same_after_reopening(&path, &referee, &v);

    // The same roll entered as physical dice gives the same changes (a turn later: the hex is
    // meleed once a turn, 4.5.4).
    battles.advance_turn(&referee, id, None, None).unwrap();
    let physical = ApplyRequest {
        dice: DiceEntry::Physical(PhysicalDice {
            faces: faces.clone(),
        }),
        ..request.clone()
    };
    let v2 = battles.apply(&referee, id, &physical).unwrap();
    assert_eq!(v2.log[5].changes, v2.log[3].changes);
    let v = battles.undo(&referee, id).unwrap();
    assert!(v.log[5].undone);
    same_after_reopening(&path, &referee, &v);

    // Edit the first roll to double sixes: preview, then apply.
    let (preview, none) = battles
        .edit_roll(&referee, id, 4, vec![6, 6], true)
        .unwrap();
    assert!(none.is_none());
    let events_before = battles.view(&referee, id).unwrap().log.len();
    assert_eq!(events_before, 7, "a preview writes nothing");
    let (done, view) = battles
        .edit_roll(&referee, id, 4, vec![6, 6], false)
        .unwrap();
    assert_eq!(done.result, preview.result);
    let view = view.unwrap();
    assert!(view.log[3].edited);
    same_after_reopening(&path, &referee, &view);
    let e = battles
        .edit_roll(&referee, id, 2, vec![6, 6], true)
        .unwrap_err();
    assert_eq!(e.code, "battle.not_a_roll");
}

#[test]
fn a_gts_and_a_medieval_battle_replay_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();

    let id = battles
        .create(
            &referee,
            &new("gts", json!([{"name": "Greeks"}, {"name": "Persians"}])),
        )
        .unwrap()
        .id;
    battles
        .add_unit(
            &referee,
            id,
            unit(
                "Archers",
                "Greeks",
                json!({ "class": "infantry", "weapon": "BW", "armour": "N", "stands": 3 }),
            ),
        )
        .unwrap();
    battles.add_unit(&referee, id, unit("Immortals", "Persians", json!({ "class": "infantry", "weapon": "SP", "armour": "M", "stands": 3, "hits": 3 }))).unwrap();
    let fire = json!({
        "firer": { "class": "infantry", "weapon": "BW", "armour": "N", "stands": 3 },
        "target": { "class": "infantry", "weapon": "SP", "armour": "M", "stands": 3, "hits": 3 },
        "range": 1.5
    });
    let resolution = referee
        .ruleset("gts")
        .unwrap()
        .resolve("fire", &fire, Some(&[9, 2, 1]))
        .unwrap();
    let keys: Vec<String> = resolution
        .outcome
        .as_ref()
        .unwrap()
        .effects
        .iter()
        .map(|e| referee_core::battle::target_key(&e.target))
        .collect();
    let mut targets = serde_json::Map::new();
    for k in keys {
        targets.insert(k, json!([2]));
    }
    let v = battles
        .apply(
            &referee,
            id,
            &ApplyRequest {
                action: "fire".into(),
                situation: fire,
                dice: DiceEntry::Physical(PhysicalDice {
                    faces: vec![9, 2, 1],
                }),
                mapping: mapping(serde_json::Value::Object(targets)),
                rolled_by: None,
                apply_key: None,
            },
        )
        .unwrap();
    assert!(!v.standing.gauges.is_empty());
    same_after_reopening(&path, &referee, &v);

    let id = battles
        .create(
            &referee,
            &new(
                "medieval",
                json!([{"name": "Order"}, {"name": "Lithuania"}]),
            ),
        )
        .unwrap()
        .id;
    battles
        .add_unit(
            &referee,
            id,
            unit(
                "Knights",
                "Order",
                json!({"type": "heavy_cavalry", "sp": 2, "cf": 2}),
            ),
        )
        .unwrap();
    let v = battles
        .apply(&referee, id, &ApplyRequest {
            action: "morale".into(),
            situation: json!({"track": 0, "events": [{"kind": "elimination", "to": "b", "count": 2}]}),
            dice: DiceEntry::None,
            mapping: Mapping::default(),
            rolled_by: None,
            apply_key: None,
        })
        .unwrap();
    assert_eq!(v.state.morale_track, -2);
    let v = battles.advance_turn(&referee, id, None, None).unwrap();
    assert_eq!(v.state.turn, 2);
    same_after_reopening(&path, &referee, &v);
}

#[test]
fn imports_are_checked_whole_and_never_partial() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let id = battles
        .create(
            &referee,
            &new("itacs", json!([{"name": "A"}, {"name": "B"}])),
        )
        .unwrap()
        .id;
    battles
        .add_unit(&referee, id, unit("a", "A", json!({"type": "SD"})))
        .unwrap();
    let file = serde_json::to_value(battles.export(&referee, id).unwrap()).unwrap();
    let count = || Battles::open(&path).unwrap().list().unwrap().len();
    assert_eq!(count(), 1);

    let cases: Vec<(&str, serde_json::Value)> = vec![
        (
            "import.not_a_battle",
            json!({"format": "something", "version": 1}),
        ),
        ("import.newer_version", {
            let mut f = file.clone();
            f["version"] = json!(99);
            f
        }),
        ("import.invalid", {
            let mut f = file.clone();
            f["surprise"] = json!(1);
            f
        }),
        ("import.invalid", {
            let mut f = file.clone();
            f["events"][1]["seq"] = json!("two");
            f
        }),
        ("import.foreign_ruleset", {
            let mut f = file.clone();
            f["fingerprint"] = json!("0000");
            f
        }),
        ("ruleset.unknown", {
            let mut f = file.clone();
            f["ruleset"] = json!("chess");
            f
        }),
        // A unit the ruleset rejects, deep in the file.
        ("situation.unknown_unit_type", {
            let mut f = file.clone();
            f["events"][1]["body"]["unit"]["stats"]["type"] = json!("ZZ");
            f
        }),
        ("import.out_of_range", {
            let mut f = file.clone();
            f["events"][1]["seq"] = json!(1);
            f
        }),
        // Issue 18: seq 2⁶⁴−1 made a battle that could never be opened, 2⁶³−1 one whose next
        // turn panicked, turn u32::MAX one whose next turn panicked.
        ("import.out_of_range", {
            let mut f = file.clone();
            f["events"][1]["seq"] = json!(u64::MAX);
            f
        }),
        ("import.out_of_range", {
            let mut f = file.clone();
            f["events"][1]["seq"] = json!(i64::MAX);
            f
        }),
        ("import.out_of_range", {
            let mut f = file.clone();
            let mut turn = f["events"][1].clone();
            turn["seq"] = json!(3);
            turn["body"] = json!({"kind": "turn_advanced", "turn": u32::MAX});
            turn.as_object_mut().unwrap().remove("hash");
            f["events"].as_array_mut().unwrap().push(turn);
            f
        }),
        ("import.out_of_range", {
            let mut f = file.clone();
            f["events"][1]["body"]["id"] = json!(u32::MAX);
            f
        }),
        // One character changed in an event of a file with hashes.
        ("import.damaged", {
            let mut f = file.clone();
            let at = f["events"][1]["at"]
                .as_str()
                .unwrap()
                .replace('Z', "+00:00");
            f["events"][1]["at"] = json!(at);
            f
        }),
        ("import.damaged", {
            let mut f = file.clone();
            f["events"][1].as_object_mut().unwrap().remove("hash");
            f
        }),
        ("file.too_large", {
            let mut f = file.clone();
            f["events"][1]["at"] = json!("x".repeat(referee_api::BATTLE_FILE_LIMIT as usize));
            f
        }),
    ];
    for (code, bad) in cases {
        let e = battles.import(&referee, &bad.to_string()).unwrap_err();
        assert_eq!(e.code, code, "{e:?}");
        assert_eq!(count(), 1, "{code}: nothing imported");
    }
    let e = battles.import(&referee, "{ not json").unwrap_err();
    assert_eq!(e.code, "import.invalid");
    // A file from before hashes (version 3 and older) still imports.
    let mut old = file.clone();
    old["version"] = json!(1);
    for e in old["events"].as_array_mut().unwrap() {
        e.as_object_mut().unwrap().remove("hash");
    }
    let v = battles.import(&referee, &old.to_string()).unwrap();
    assert_eq!(v.state.units.len(), 1);
    battles.delete(v.id).unwrap();
    assert_eq!(
        file["version"], 5,
        "an export carries hashes and the chain's head"
    );
    let v = battles.import(&referee, &file.to_string()).unwrap();
    assert_eq!(count(), 2);
    assert_eq!(v.state.units.len(), 1);
    let dup = battles.duplicate(&referee, v.id).unwrap();
    assert_ne!(dup.id, v.id);
    battles.delete(dup.id).unwrap();
    assert_eq!(
        battles.view(&referee, dup.id).unwrap_err().code,
        "battle.unknown"
    );
}

#[test]
fn rosters_from_csv_are_checked_and_copied_in_one_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let csv = "label,role,type,count,elite\nLegio I,,SD,4,true\nLegio II,unit,SD,2,\nConsul,leader,,,\nLegio X,,XX,1,\n";
    let roster = roster_from_csv("Romans", "itacs", csv).unwrap();
    assert_eq!(
        roster.units[0].stats,
        json!({"type": "SD", "count": 4, "elite": true})
    );
    let e = battles.save_roster(&referee, &roster).unwrap_err();
    assert!(e.field.as_deref().unwrap().starts_with("units[3]"), "{e:?}");
    let mut roster = roster;
    roster.units.pop();
    let rid = battles.save_roster(&referee, &roster).unwrap();
    assert_eq!(battles.rosters().unwrap()[0].units, 3);
    let bad = roster_from_csv("x", "itacs", "label,type\nA,SD,extra\n").unwrap_err();
    assert_eq!(bad.location.as_deref(), Some("line 2"));
    let bad = roster_from_csv("x", "itacs", "label,type\n\nA,SD\nB,SD,extra\n").unwrap_err();
    assert_eq!(bad.location.as_deref(), Some("line 4"), "blank lines count");
    // A quoted cell keeps its comma: one label, not two cells.
    let quoted = roster_from_csv("x", "itacs", "label,type\n\"Legio I, Gemina\",SD\n").unwrap();
    assert_eq!(quoted.units[0].label, "Legio I, Gemina");
    assert_eq!(
        roster_from_csv("x", "itacs", "type\nSD\n")
            .unwrap_err()
            .code,
        "roster.invalid"
    );

    let id = battles
        .create(
            &referee,
            &new("itacs", json!([{"name": "Rome"}, {"name": "Carthage"}])),
        )
        .unwrap()
        .id;
    let v = battles.copy_roster(&referee, id, rid, "Rome").unwrap();
    assert_eq!(v.state.units.len(), 3);
    assert!(v.state.units.values().all(|u| u.side == "Rome"));
    assert_eq!(
        battles
            .copy_roster(&referee, id, rid, "Sparta")
            .unwrap_err()
            .code,
        "battle.unknown_side"
    );
    assert_eq!(
        battles.view(&referee, id).unwrap().state.units.len(),
        3,
        "a failed copy adds nothing"
    );
    let gid = battles
        .create(&referee, &new("gts", json!([{"name": "A"}, {"name": "B"}])))
        .unwrap()
        .id;
    assert_eq!(
        battles
            .copy_roster(&referee, gid, rid, "A")
            .unwrap_err()
            .code,
        "roster.wrong_ruleset"
    );
}

#[test]
fn bad_requests_leave_the_battle_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let id = battles
        .create(
            &referee,
            &new("itacs", json!([{"name": "A"}, {"name": "B"}])),
        )
        .unwrap()
        .id;
    assert_eq!(
        battles.undo(&referee, id).unwrap_err().code,
        "battle.nothing_to_undo"
    );
    assert_eq!(
        battles
            .create(
                &referee,
                &new("itacs", json!([{"name": "A"}, {"name": "A"}]))
            )
            .unwrap_err()
            .code,
        "battle.invalid_setup"
    );
    let e = battles
        .add_unit(
            &referee,
            id,
            unit("x", "A", json!({"type": "SD", "count": 0})),
        )
        .unwrap_err();
    assert!(e.field.unwrap().starts_with("unit.stats"));
    let adjust: referee_api::AdjustRequest = serde_json::from_value(
        json!({"subject": {"unit": 9}, "change": {"kind": "d_markers", "count": 1}}),
    )
    .unwrap();
    assert_eq!(
        battles.adjust(&referee, id, &adjust).unwrap_err().code,
        "battle.unit_gone"
    );
    let apply = ApplyRequest {
        action: "melee".into(),
        situation: json!({"attackers": [], "defenders": []}),
        dice: DiceEntry::Physical(PhysicalDice { faces: vec![3, 4] }),
        mapping: Mapping::default(),
        rolled_by: None,
        apply_key: None,
    };
    assert!(battles.apply(&referee, id, &apply).is_err());
    assert_eq!(
        Battles::open(&path)
            .unwrap()
            .view(&referee, id)
            .unwrap()
            .log
            .len(),
        1
    );
}

#[test]
fn a_battle_opened_under_other_rulings_names_the_choice_it_began_under() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let mut battles = Battles::open(&path).unwrap();
    let forbid = "rulesets/switches/itacs-forbid-below-lowest-column.toml";
    let hills = "rulesets/switches/itacs-hills-missile-chart.toml";
    let switched = Referee::choosing(
        None,
        &HouseRuleChoice {
            on: vec![forbid.into()],
            off: vec![],
        },
    );
    let plain = Referee::builtin();
    let id = battles
        .create(
            &switched,
            &new("itacs", json!([{ "name": "Romans" }, { "name": "Gauls" }])),
        )
        .unwrap()
        .id;
    let same = battles.view(&switched, id).unwrap();
    assert_eq!(
        (same.ruleset_changed, same.began_under.is_none()),
        (None, true)
    );

    let other = battles.view(&plain, id).unwrap();
    assert!(other.ruleset_changed.unwrap().contains(forbid));
    let began = other
        .began_under
        .expect("the switch gives the battle's rules");
    assert_eq!(began.on, vec![forbid]);
    assert_eq!(began.off, vec![hills]);
    // That choice, put in force, is the battle's rules again.
    let again = Referee::choosing(None, &began);
    assert_eq!(battles.view(&again, id).unwrap().ruleset_changed, None);
    // A battle begun under a file no longer offered cannot be matched.
    assert_eq!(plain.choice_for("itacs", "0123456789abcdef"), None);
}

#[test]
fn units_are_edited_and_removed_in_one_transaction_each_and_travel_in_the_battle_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let id = battles
        .create(
            &referee,
            &new(
                "itacs",
                json!([{"name": "Romans", "panic_level": 4}, {"name": "Gauls", "panic_level": 6}]),
            ),
        )
        .unwrap()
        .id;
    battles
        .add_unit(
            &referee,
            id,
            unit("17.04", "Gauls", json!({"type": "SD", "count": 4})),
        )
        .unwrap();
    let v = battles
        .add_unit(
            &referee,
            id,
            unit("17.03", "Romans", json!({"type": "PS", "count": 2})),
        )
        .unwrap();
    assert_eq!(v.log.last().unwrap().text, "Added 17.03 to Romans");
    let v = battles
        .edit_unit(
            &referee,
            id,
            2,
            unit("17.02", "Romans", json!({"type": "PS", "count": 3})),
        )
        .unwrap();
    let last = v.log.last().unwrap();
    assert_eq!(last.kind, "unit_edited");
    assert_eq!(last.text, "Edited 17.02 (was 17.03)");
    assert_eq!(last.changes, vec!["label 17.03 → 17.02", "count 2 → 3"]);
    assert_eq!(v.state.units[&2].strength, 3);
    // Refused: nothing written.
    let events = v.events;
    let e = battles
        .edit_unit(
            &referee,
            id,
            2,
            unit("17.02", "Romans", json!({"type": "XX", "count": 3})),
        )
        .unwrap_err();
    assert_eq!(e.code, "situation.unknown_unit_type");
    let e = battles.remove_unit(&referee, id, 7).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("battle.unit_gone", Some("unit"))
    );
    assert_eq!(battles.view(&referee, id).unwrap().events, events);

    let v = battles.remove_unit(&referee, id, 1).unwrap();
    assert_eq!(v.log.last().unwrap().text, "Removed 17.04");
    assert!(!v.state.units.contains_key(&1));
    same_after_reopening(&path, &referee, &v);
    let v = battles.undo(&referee, id).unwrap();
    assert!(v.state.units.contains_key(&1));
    let v = battles.redo(&referee, id).unwrap();
    assert!(!v.state.units.contains_key(&1));

    // The battle file carries the new events (version 2 holds them; every export is version 5,
    // which adds the hashes and the chain's head) and imports to the same state.
    let file = battles.export(&referee, id).unwrap();
    assert_eq!(file.version, 5);
    let text = serde_json::to_string(&file).unwrap();
    let copy = battles.import(&referee, &text).unwrap();
    assert_eq!(
        serde_json::to_value(&copy.state).unwrap(),
        serde_json::to_value(&v.state).unwrap()
    );
}

/// "Resolve" on the roster: the picked units open the main combat, which applies back onto them.
#[test]
fn a_fight_from_the_roster_resolves_and_applies_to_the_picked_units() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let mut battle = new("gts", json!([{"name": "Persians"}, {"name": "Greeks"}]));
    battle.units = vec![
        unit(
            "Archers",
            "Persians",
            json!({"class": "cavalry", "armour": "N", "weapon": "BW", "stands": 3}),
        ),
        unit(
            "Lancers",
            "Greeks",
            json!({"class": "cavalry", "armour": "M", "weapon": "LN", "stands": 3}),
        ),
    ];
    let id = battles.create(&referee, &battle).unwrap().id;
    let main = referee.ruleset("gts").unwrap().info.main_action.clone();
    let request: referee_api::FightRequest =
        serde_json::from_value(json!({"action": main, "attackers": [1], "defenders": [2]}))
            .unwrap();
    let fight = battles.fight(&referee, id, &request).unwrap();
    let applied = battles
        .apply(
            &referee,
            id,
            &serde_json::from_value(json!({
                "action": fight.action,
                "situation": fight.situation,
                // The whole round rolled by the app, every stage of its chain from one seed.
                "dice": {"kind": "app", "seed": 7},
                "mapping": {"targets": fight.targets},
            }))
            .unwrap(),
        )
        .unwrap();
    let last = applied.log.last().unwrap();
    assert!(!last.changes.is_empty(), "{last:?}");
    assert!(
        last.changes
            .iter()
            .all(|c| c.contains("Archers") || c.contains("Lancers")),
        "{:?}",
        last.changes
    );
    let bad: Result<referee_api::FightRequest, _> = serde_json::from_value(
        json!({"action": "melee", "attackers": [1], "defenders": [2], "dice": 3}),
    );
    assert!(bad.is_err(), "unknown fields are refused");
}

#[test]
fn turns_stop_at_the_last_a_battle_can_reach_instead_of_overflowing() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let id = battles
        .create(
            &referee,
            &new("itacs", json!([{"name": "A"}, {"name": "B"}])),
        )
        .unwrap()
        .id;
    let e = battles
        .advance_turn(&referee, id, Some(u32::MAX), None)
        .unwrap_err();
    assert_eq!(e.code, "battle.turn_out_of_range");
    let last = referee_api::MAX_TURN;
    let v = battles
        .advance_turn(&referee, id, Some(last), None)
        .unwrap();
    assert_eq!(v.state.turn, last);
    let e = battles.advance_turn(&referee, id, None, None).unwrap_err();
    assert_eq!(e.code, "battle.turn_out_of_range");
    assert_eq!(
        battles.view(&referee, id).unwrap().events,
        2,
        "nothing written"
    );
    // The battle at its last turn exports, imports and takes a phase change.
    let file = serde_json::to_string(&battles.export(&referee, id).unwrap()).unwrap();
    let copy = battles.import(&referee, &file).unwrap();
    let v = battles
        .advance_turn(&referee, copy.id, None, Some("melee".into()))
        .unwrap();
    assert_eq!((v.state.turn, v.events), (last, 3));
}

/// A refused element names its field once, without stray dots, and says which system a unit of
/// another one belongs to (issue 34 item 7).
#[test]
fn a_refused_dbmm_element_names_its_field_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let id = battles
        .create(
            &referee,
            &new("dbmm", json!([{"name": "Normans"}, {"name": "Saxons"}])),
        )
        .unwrap()
        .id;
    for stats in [
        json!({"type": "Bd", "grade": "Q"}),
        json!({"type": "ZZ", "grade": "O"}),
    ] {
        let e = battles
            .add_unit(&referee, id, unit("X", "Saxons", stats.clone()))
            .unwrap_err();
        let field = e.field.clone().unwrap_or_default();
        assert!(field.starts_with("unit.stats."), "{stats}: {e:?}");
        assert!(!field.contains(".."), "{stats}: {e:?}");
    }
    let e = battles
        .add_unit(
            &referee,
            id,
            unit("SD", "Saxons", json!({"type": "SD", "count": 2})),
        )
        .unwrap_err();
    assert!(e.message.contains("ITACS"), "{e:?}");
    assert!(battles.view(&referee, id).unwrap().state.units.is_empty());
}

/// A command has one general's element (p. 42, R-DBMM-34): a second is refused where it is added
/// or corrected, naming the first; another command may have its own; the general corrected is
/// not his own rival.
#[test]
fn a_dbmm_command_has_one_general() {
    let dir = tempfile::tempdir().unwrap();
    let referee = Referee::builtin();
    let mut battles = Battles::open(&dir.path().join("referee.db")).unwrap();
    let id = battles
        .create(
            &referee,
            &new(
                "dbmm",
                json!([{"name": "Normans", "commands": ["Left", "Right"]}, {"name": "Saxons"}]),
            ),
        )
        .unwrap()
        .id;
    let general = |label: &str, command: &str| -> UnitSpec {
        serde_json::from_value(
            json!({"label": label, "side": "Normans", "command": command,
            "stats": {"type": "Kn", "grade": "O", "general": true}}),
        )
        .unwrap()
    };
    let v = battles
        .add_unit(&referee, id, general("William", "Left"))
        .unwrap();
    let william = v
        .state
        .units
        .values()
        .find(|u| u.label == "William")
        .unwrap()
        .id;
    let e = battles
        .add_unit(&referee, id, general("Odo", "Left"))
        .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref(), e.ruling.as_deref()),
        (
            "unit.two_generals",
            Some("unit.stats.general"),
            Some("R-DBMM-34")
        )
    );
    assert!(e.message.contains("William"), "{}", e.message);
    battles
        .add_unit(&referee, id, general("Robert", "Right"))
        .unwrap();
    battles
        .edit_unit(
            &referee,
            id,
            william,
            general("William the Bastard", "Left"),
        )
        .unwrap();
    let robert = battles
        .view(&referee, id)
        .unwrap()
        .state
        .units
        .values()
        .find(|u| u.label == "Robert")
        .unwrap()
        .id;
    let e = battles
        .edit_unit(&referee, id, robert, general("Robert", "Left"))
        .unwrap_err();
    assert_eq!(e.code, "unit.two_generals");
    // A battle begun with its units (a roster, a preset) is held to the same: nothing written.
    let before = battles.list().unwrap().len();
    let mut begun = new(
        "dbmm",
        json!([{"name": "Normans", "commands": ["Left"]}, {"name": "Saxons"}]),
    );
    begun.units = vec![general("William", "Left"), general("Odo", "Left")];
    let e = battles.create(&referee, &begun).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("unit.two_generals", Some("units[0].stats.general"))
    );
    assert_eq!(battles.list().unwrap().len(), before);
}

/// DBMM p. 23: a side's retreat at dusk sent a second time is refused in words before anything
/// is written; the clock's undo says what it takes back.
#[test]
fn a_second_retreat_at_dusk_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("referee.db");
    let referee = Referee::builtin();
    let mut battles = Battles::open(&path).unwrap();
    let id = battles
        .create(
            &referee,
            &new("dbmm", json!([{"name": "Romans"}, {"name": "Gauls"}])),
        )
        .unwrap()
        .id;
    let v = battles
        .apply(&referee, id, &ApplyRequest {
            action: "daylight".into(),
            situation: json!({"bound": 1, "starts_clock": true, "clock": "15:50", "climate": "Cold", "season": "Winter"}),
            dice: DiceEntry::None,
            mapping: Mapping::default(),
            rolled_by: None,
            apply_key: None,
        })
        .unwrap();
    let undo = v.log.iter().find(|e| Some(e.seq) == v.undo).unwrap();
    assert_eq!(
        undo.text,
        "The battle's clock set: the first bound at 15:50, Cold Winter"
    );
    let retreat: referee_api::AdjustRequest = serde_json::from_value(
        json!({"subject": {"side": "Romans"}, "change": {"kind": "retreat_at_dusk"}}),
    )
    .unwrap();
    let once = battles.adjust(&referee, id, &retreat).unwrap();
    let e = battles.adjust(&referee, id, &retreat).unwrap_err();
    assert_eq!(e.code.as_str(), "battle.once_per_game");
    assert!(
        e.message
            .starts_with("Romans has already recorded its retreat at dusk"),
        "{}",
        e.message
    );
    let after = battles.view(&referee, id).unwrap();
    assert_eq!(after.log.len(), once.log.len(), "nothing written");
}
