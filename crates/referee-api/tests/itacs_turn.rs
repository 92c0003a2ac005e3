//! A whole ITACS turn from the roster, as an umpire plays it: stacks entered by hex with their
//! leaders, missile fire, defensive fire and melee opened from picks (each stack whole, each
//! leader's part known), every die entered as thrown, each result landing on every unit of its
//! hex, the recovery phase opened from the roster, the next turn, and undo back to the start.

use serde_json::{json, Value};

use referee_api::{
    ApplyRequest, BattleView, Battles, DiceEntry, Fight, FightRequest, Mapping, NewBattle,
    PhysicalDice, Referee,
};

fn open(dir: &tempfile::TempDir) -> (Battles, Referee) {
    (
        Battles::open(&dir.path().join("referee.db")).unwrap(),
        Referee::builtin(),
    )
}

/// Carthage (attacking this turn) and Rome, each stack in its hex with its leader.
fn battle(battles: &mut Battles, referee: &Referee) -> i64 {
    units(
        battles,
        referee,
        json!([
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "hex": "17.03"}},
            {"label": "Bows", "side": "Carthage", "stats": {"type": "LB", "count": 1, "hex": "17.03"}},
            {"label": "Hanno", "side": "Carthage", "role": "leader", "stats": {"type": "2L", "bonus": 2, "control_range": 3, "hex": "17.03"}},
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 3, "hex": "18.04"}},
            {"label": "Archers A", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "22.19"}},
            {"label": "Spears", "side": "Rome", "stats": {"type": "PS", "count": 1, "hex": "22.19"}},
            {"label": "Archers B", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "23.19"}},
            {"label": "Marcus", "side": "Rome", "role": "leader", "stats": {"type": "1L", "bonus": 1, "hex": "23.19"}},
            {"label": "Militia", "side": "Carthage", "stats": {"type": "MS", "class": "A", "count": 3, "hex": "22.18"}}
        ]),
    )
}

fn fight(
    battles: &mut Battles,
    referee: &Referee,
    id: i64,
    action: &str,
    a: &[u32],
    d: &[u32],
) -> Fight {
    battles
        .fight(
            referee,
            id,
            &FightRequest {
                action: action.into(),
                attackers: a.to_vec(),
                defenders: d.to_vec(),
                ..Default::default()
            },
        )
        .unwrap()
}

fn apply(
    battles: &mut Battles,
    referee: &Referee,
    id: i64,
    fight: &Fight,
    situation: Value,
    faces: &[u32],
) -> Result<BattleView, referee_core::RefereeError> {
    battles.apply(
        referee,
        id,
        &ApplyRequest {
            action: fight.action.clone(),
            situation,
            // An action without dice (a move) takes none.
            dice: if faces.is_empty() {
                DiceEntry::None
            } else {
                DiceEntry::Physical(PhysicalDice {
                    faces: faces.to_vec(),
                })
            },
            mapping: Mapping {
                units_moving: None,
                targets: fight.targets.clone(),
                choices: Default::default(),
            },
            rolled_by: None,
            apply_key: None,
        },
    )
}

/// Each unit's words on the roster, by label: what the umpire reads after each step.
fn roster(view: &BattleView) -> Vec<(String, String)> {
    view.state
        .units
        .values()
        .map(|u| (u.label.clone(), u.words.summary.clone()))
        .collect()
}

fn words_of<'v>(view: &'v BattleView, label: &str) -> &'v str {
    &view
        .state
        .units
        .values()
        .find(|u| u.label == label)
        .unwrap()
        .words
        .summary
}

fn phase(battles: &mut Battles, referee: &Referee, id: i64, key: &str) {
    battles
        .advance_turn(referee, id, None, Some(key.into()))
        .unwrap();
}

/// The battle as stored, read afresh: what a replay of its events gives.
fn replayed(dir: &tempfile::TempDir, referee: &Referee, id: i64) -> Value {
    let (mut fresh, _) = open(dir);
    serde_json::to_value(fresh.view(referee, id).unwrap().state).unwrap()
}

/// One quick edit of a unit's row, by the umpire's hand.
fn adjust(
    battles: &mut Battles,
    referee: &Referee,
    id: i64,
    unit: u32,
    change: Value,
) -> BattleView {
    battles
        .adjust(
            referee,
            id,
            &serde_json::from_value(json!({"subject": {"unit": unit}, "change": change})).unwrap(),
        )
        .unwrap()
}

/// The battle as stored replays to the state `now` shows, and undoing the last event gives back
/// the units as they were `before` it.
fn replayed_then_undone(
    battles: &mut Battles,
    referee: &Referee,
    dir: &tempfile::TempDir,
    id: i64,
    now: &BattleView,
    before: &BattleView,
) {
    assert_eq!(
        replayed(dir, referee, id),
        serde_json::to_value(&now.state).unwrap()
    );
    let v = battles.undo(referee, id).unwrap();
    assert_eq!(
        serde_json::to_value(&v.state.units).unwrap(),
        serde_json::to_value(&before.state.units).unwrap()
    );
}

fn targets(fight: &Fight) -> Vec<(String, Vec<u32>)> {
    fight
        .targets
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn pairs(list: &[(&str, &[u32])]) -> Vec<(String, Vec<u32>)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_vec()))
        .collect()
}

#[test]
fn a_whole_turn_from_the_roster() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = battle(&mut battles, &referee);
    let itacs = referee.ruleset("itacs").unwrap();
    // The state after each applied step, to undo back through.
    let mut steps = vec![battles.view(&referee, id).unwrap()];

    // Missile phase: Carthage's bowmen in 17.03 fire at the Hastati. The pikemen stacked with
    // them stand in the firing hex without firing; Hanno stands there too.
    phase(&mut battles, &referee, id, "missile");
    let f = fight(&mut battles, &referee, id, "missile", &[2], &[4]);
    assert_eq!(
        f.situation["firing_hexes"],
        json!([{"label": "17.03", "leader": true, "range": 1, "units": [
            {"type": "LB", "count": 1},
            {"type": "PP", "class": "A", "count": 2, "firing": false}
        ]}])
    );
    assert_eq!(
        targets(&f),
        pairs(&[
            ("attacker", &[2]),
            ("defender", &[4]),
            ("hex:17.03", &[2, 1]),
            ("hex:18.04", &[4])
        ])
    );
    let v = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[3, 6]).unwrap();
    assert_eq!(
        words_of(&v, "Hastati"),
        "3/3, 2 D",
        "DD: two D markers on the hex"
    );
    steps.push(v);

    // Defensive fire: both Roman LB stacks fire on the militia in mud (the 4.4.2 example).
    phase(&mut battles, &referee, id, "defensive_fire");
    let f = fight(&mut battles, &referee, id, "defensive_fire", &[5, 7], &[9]);
    let mut situation = f.situation.clone();
    situation["target"]["terrain"] = json!("mud");
    let v = apply(&mut battles, &referee, id, &f, situation, &[3, 6]).unwrap();
    assert_eq!(words_of(&v, "Militia"), "0/3, lost", "DX");
    // No D marker on the bowmen: a PS stands in 22.19, a leader in 23.19 (4.4.1).
    for (covered, words) in [
        ("Archers A", "2/2"),
        ("Spears", "1/1"),
        ("Archers B", "2/2"),
    ] {
        assert_eq!(words_of(&v, covered), words);
    }
    steps.push(v);

    // Melee: the mixed stack in 17.03 attacks with 12 (2.4.6) and Hanno's bonus of 2 (6.1.3).
    phase(&mut battles, &referee, id, "melee");
    let f = fight(&mut battles, &referee, id, "melee", &[1, 2], &[4]);
    assert_eq!(f.situation["attacker_leader_bonus"], json!(2));
    assert!(f.asks.iter().all(|a| !a.contains("bonus")), "{:?}", f.asks);
    let r = itacs.resolve("melee", &f.situation, Some(&[3, 6])).unwrap();
    let attack = r
        .totals
        .iter()
        .find(|t| t.label == "Attack strength")
        .unwrap();
    assert_eq!(attack.value, "14");
    let v = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[3, 6]).unwrap();
    assert_eq!(r.outcome.unwrap().result, "D1X");
    assert_eq!(words_of(&v, "Hastati"), "2/3, 4 D, Rout");
    steps.push(v);

    // Recovery: opened from the roster with every hex that has D markers; one comes off each.
    phase(&mut battles, &referee, id, "recovery");
    let f = fight(&mut battles, &referee, id, "recovery", &[], &[]);
    assert_eq!(
        f.situation,
        json!({"hexes": [{"label": "18.04", "d_markers": 4, "rout": true}]})
    );
    assert_eq!(targets(&f), pairs(&[("hex:18.04", &[4])]));
    let v = battles
        .apply(
            &referee,
            id,
            &ApplyRequest {
                action: "recovery".into(),
                situation: f.situation.clone(),
                dice: DiceEntry::None,
                mapping: Mapping {
                    units_moving: None,
                    targets: f.targets.clone(),
                    choices: Default::default(),
                },
                rolled_by: None,
                apply_key: None,
            },
        )
        .unwrap();
    assert_eq!(
        words_of(&v, "Hastati"),
        "2/3, 3 D, Rout",
        "Rout markers stay (5.3.2)"
    );
    steps.push(v);

    // The next turn, Rome's movement phase: the routed Hastati make their rout move (5.3.1),
    // opened from their row with their hex's state; never into a hex of enemy units (4.3.3).
    let v = battles.advance_turn(&referee, id, None, None).unwrap();
    let row = |v: &BattleView, label: &str| {
        let u = v.state.units.values().find(|u| u.label == label).unwrap();
        u.words.opens_move.clone()
    };
    assert_eq!(row(&v, "Hastati").as_deref(), Some("Rout move"));
    assert_eq!(row(&v, "Pikes"), None, "no marker calls for a move");
    let e = move_from_roster(&mut battles, &referee, id, 4, &["17.03"]).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("fight.enemy_hex", Some("4.3.3"))
    );
    assert!(e.message.contains("Pikes"), "{}", e.message);
    // A hex is matched as the map's number: "17.3" is the Pikes' 17.03.
    let e = move_from_roster(&mut battles, &referee, id, 4, &["17.3"]).unwrap_err();
    assert_eq!(e.code.as_str(), "fight.enemy_hex");
    // The path is the hexes entered: not the one it starts in, nor one hex twice.
    for path in [&["18.4", "19.05"][..], &["19.05", "19.5"][..]] {
        let e = move_from_roster(&mut battles, &referee, id, 4, path).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.rule.as_deref()),
            ("fight.path_hex", Some("4.3.1")),
            "{path:?}"
        );
    }
    let f = move_from_roster(&mut battles, &referee, id, 4, &["19.05", "20.05"]).unwrap();
    assert_eq!(
        f.situation,
        json!({"unit": {"type": "SD", "count": 2}, "kind": "rout", "disrupted": true, "d_markers": 3, "routed": true, "path": [
            {"label": "19.05", "terrain": "clear", "stream": false, "road": false, "facing_changes": 0,
             "units_in_hex": 0, "d_markers": 0, "rout": false, "elephant": false, "across_scarp": false, "map_edge": false},
            {"label": "20.05", "terrain": "clear", "stream": false, "road": false, "facing_changes": 0,
             "units_in_hex": 0, "d_markers": 0, "rout": false, "elephant": false, "across_scarp": false, "map_edge": false}
        ], "start": {"label": "18.04", "terrain": "clear"},
           "square": false, "fire_ship": false, "charging": false, "nowhere_farther": false, "end_facing_changes": 0})
    );
    assert_eq!(targets(&f), pairs(&[("attacker", &[4]), ("unit:SD", &[4])]));
    let v = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[]).unwrap();
    let hastati = v
        .state
        .units
        .values()
        .find(|u| u.label == "Hastati")
        .unwrap();
    assert_eq!(
        (
            hastati.words.place.as_deref(),
            hastati.words.summary.as_str()
        ),
        (Some("Hex 20.05"), "2/3, 3 D, Rout"),
        "the markers move with the stack; only a leader ends the rout (5.3.2)"
    );
    // A unit moves once a turn (4.3.1, 5.3.1): the row no longer offers the move, and a second
    // one is refused, at opening and at applying under a new key alike.
    assert_eq!(row(&v, "Hastati"), None, "the rout move is made");
    let e = move_from_roster(&mut battles, &referee, id, 4, &["21.05"]).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("battle.once_per_turn", Some("4.3.1, 5.3.1"))
    );
    let mut again = f.situation.clone();
    again["path"] = json!([again["path"][1].clone()]);
    again["path"][0]["label"] = json!("21.05");
    let e = apply(&mut battles, &referee, id, &f, again, &[]).unwrap_err();
    assert_eq!(e.code.as_str(), "battle.once_per_turn");
    // The hex landed is checked as it lands (4.3.3): a label changed after the path was read,
    // to a hex of enemy units, is refused (the Pikes stand in 17.03).
    let undone = battles.undo(&referee, id).unwrap();
    assert_eq!(
        undone.state.units[&4].words.place.as_deref(),
        Some("Hex 18.04")
    );
    let mut into_enemy = f.situation.clone();
    into_enemy["path"][1]["label"] = json!(" 17.03 ");
    let e = apply(&mut battles, &referee, id, &f, into_enemy, &[]).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("fight.enemy_hex", Some("4.3.3"))
    );
    assert!(e.message.contains("Pikes"), "{}", e.message);
    let v = battles.redo(&referee, id).unwrap();
    steps.push(v);
    // A move to a hex no unit of the side stands in: the entry's hex changed, one event.
    let archers = v_unit(&steps, "Archers B");
    let mut stats = archers.1.clone();
    stats["hex"] = json!("24.20");
    let v = battles
        .edit_unit(
            &referee,
            id,
            archers.0,
            serde_json::from_value(json!({"label": "Archers B", "side": "Rome", "stats": stats}))
                .unwrap(),
        )
        .unwrap();
    assert_eq!(
        v.state.units[&archers.0].words.place.as_deref(),
        Some("Hex 24.20")
    );
    steps.push(v);

    // Rome attacks the mixed stack, picking one unit of it; the whole hex defends, Hanno's
    // bonus with it, and a unit lost is the defender's choice between entries.
    let f = fight(&mut battles, &referee, id, "melee", &[6], &[1]);
    assert_eq!(f.situation["defender_leader_bonus"], json!(2));
    assert_eq!(targets(&f)[1], ("defender".to_string(), vec![1, 2]));
    let loss = (1..=36)
        .map(|i| vec![1 + (i - 1) / 6, 1 + (i - 1) % 6])
        .find(|faces| {
            let r = itacs.resolve("melee", &f.situation, Some(faces)).unwrap();
            r.outcome.unwrap().result == "D1X"
        })
        .expect("a throw where the defender loses a unit");
    let e = apply(&mut battles, &referee, id, &f, f.situation.clone(), &loss).unwrap_err();
    assert_eq!(e.code, "battle.choice_needed", "{}", e.message);
    let mut mapping = Mapping {
        units_moving: None,
        targets: f.targets.clone(),
        choices: Default::default(),
    };
    let index = e.field.unwrap().trim_start_matches("choices.").to_string();
    mapping.choices.insert(index, vec![2]);
    let v = battles
        .apply(
            &referee,
            id,
            &ApplyRequest {
                action: "melee".into(),
                situation: f.situation.clone(),
                dice: DiceEntry::Physical(PhysicalDice { faces: loss }),
                mapping,
                rolled_by: None,
                apply_key: None,
            },
        )
        .unwrap();
    assert_eq!(words_of(&v, "Bows"), "0/1, lost");
    assert_eq!(words_of(&v, "Pikes"), "2/2, 2 D");
    steps.push(v);
    assert_eq!(
        replayed(&dir, &referee, id),
        serde_json::to_value(&steps.last().unwrap().state).unwrap()
    );

    // Undo takes back each step exactly, the last first (turns and phases are not undone).
    for before in steps.iter().rev().skip(1) {
        let v = battles.undo(&referee, id).unwrap();
        assert_eq!(roster(&v), roster(before));
        assert_eq!(
            serde_json::to_value(&v.state.units).unwrap(),
            serde_json::to_value(&before.state.units).unwrap()
        );
    }
}

/// A move opened from a unit's row along the hexes the umpire names.
fn move_from_roster(
    battles: &mut Battles,
    referee: &Referee,
    id: i64,
    unit: u32,
    path: &[&str],
) -> Result<Fight, referee_core::RefereeError> {
    move_of(battles, referee, id, vec![unit], path, None)
}

/// A move of the entries picked (or of so many units of one entry) along the hexes named.
fn move_of(
    battles: &mut Battles,
    referee: &Referee,
    id: i64,
    entries: Vec<u32>,
    path: &[&str],
    units_moving: Option<u32>,
) -> Result<Fight, referee_core::RefereeError> {
    battles.fight(
        referee,
        id,
        &FightRequest {
            action: "move".into(),
            attackers: entries,
            path: path.iter().map(|h| h.to_string()).collect(),
            units_moving,
            ..Default::default()
        },
    )
}

/// A unit's id and entry, by label, in the last state.
fn v_unit(steps: &[BattleView], label: &str) -> (u32, Value) {
    let u = steps
        .last()
        .unwrap()
        .state
        .units
        .values()
        .find(|u| u.label == label)
        .unwrap();
    (u.id, u.detail.entry().unwrap())
}

/// A break move from the roster (5.2): one point less, into a hex whose friends carry D
/// markers — the mover is disrupted and stops there (5.1), its Break marker gone (5.2.1) —;
/// a rout move off the map edge (5.3.3): the unit destroyed.
#[test]
fn break_and_rout_moves_land_on_the_roster() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Cavalry", "side": "Carthage", "stats": {"type": "LC", "count": 1, "movement": 8, "hex": "10.10"}},
            {"label": "Shaken", "side": "Carthage", "stats": {"type": "SD", "count": 2, "hex": "11.10"}},
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 1, "hex": "12.12"}},
            {"label": "Militia", "side": "Carthage", "stats": {"type": "MS", "class": "A", "count": 1, "hex": "9.09"}}
        ]),
    );
    let adjust = |battles: &mut Battles, unit: u32, change: Value| {
        battles
            .adjust(
                &referee,
                id,
                &serde_json::from_value(json!({"subject": {"unit": unit}, "change": change}))
                    .unwrap(),
            )
            .unwrap()
    };
    let broken = adjust(&mut battles, 1, json!({"kind": "break"}));
    // A broken unit "makes a rout move" (5.2): the row says so in the rules' words.
    assert_eq!(
        broken.state.units[&1].words.opens_move.as_deref(),
        Some("Rout move (Break)")
    );
    adjust(&mut battles, 2, json!({"kind": "d_markers", "count": 2}));
    let before = adjust(&mut battles, 4, json!({"kind": "rout"}));
    let f = move_from_roster(&mut battles, &referee, id, 1, &["11.10"]).unwrap();
    assert_eq!(f.situation["kind"], json!("break"));
    assert_eq!(f.situation["path"][0]["d_markers"], json!(2));
    assert_eq!(f.situation["path"][0]["units_in_hex"], json!(2));
    assert_eq!(
        targets(&f),
        pairs(&[("attacker", &[1]), ("hex:11.10", &[2]), ("unit:LC", &[1])])
    );
    let v = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[]).unwrap();
    let cavalry = &v.state.units[&1];
    assert_eq!(
        (
            cavalry.words.place.as_deref(),
            cavalry.words.summary.as_str()
        ),
        (Some("Hex 11.10"), "1/1, 2 D")
    );
    assert_eq!(words_of(&v, "Shaken"), "2/2, 2 D");
    // The militia rout off the map edge with points left.
    let f = move_from_roster(&mut battles, &referee, id, 4, &["8.09"]).unwrap();
    let mut off = f.situation.clone();
    off["path"][0]["map_edge"] = json!(true);
    let v = apply(&mut battles, &referee, id, &f, off, &[]).unwrap();
    assert_eq!(words_of(&v, "Militia"), "0/1, lost");
    assert_eq!(
        replayed(&dir, &referee, id),
        serde_json::to_value(&v.state).unwrap()
    );
    battles.undo(&referee, id).unwrap();
    let v = battles.undo(&referee, id).unwrap();
    assert_eq!(
        serde_json::to_value(&v.state.units).unwrap(),
        serde_json::to_value(&before.state.units).unwrap()
    );
    // Two entries at once are refused: a move is one entry's.
    let e = battles
        .fight(
            &referee,
            id,
            &FightRequest {
                action: "move".into(),
                attackers: vec![1, 4],
                ..Default::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.code, "fight.one_each");
}

/// A rout move goes only farther from the nearest enemy (5.3.1): a hex no farther than the one
/// before is refused in words; with no hex farther the umpire says so and the unit stays in its
/// hex and takes one D marker — landing on the roster in one event, the move made for the turn,
/// replayed as played and undone exactly.
#[test]
fn a_rout_move_with_no_hex_farther_stays_and_takes_a_d_marker() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 2, "hex": "18.04"}},
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "hex": "17.03"}}
        ]),
    );
    adjust(
        &mut battles,
        &referee,
        id,
        1,
        json!({"kind": "d_markers", "count": 1}),
    );
    let before = adjust(&mut battles, &referee, id, 1, json!({"kind": "rout"}));
    assert_eq!(words_of(&before, "Hastati"), "2/2, 1 D, Rout");
    // The hex typed is no farther from the Pikes than the one the Hastati leave.
    let f = move_from_roster(&mut battles, &referee, id, 1, &["19.05"]).unwrap();
    let mut nearer = f.situation.clone();
    nearer["enemy_distance"] = json!(2);
    nearer["path"][0]["enemy_distance"] = json!(2);
    let e = apply(&mut battles, &referee, id, &f, nearer, &[]).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.not_farther", Some("5.3.1"))
    );
    assert!(e.message.contains("moves only away"), "{}", e.message);
    // Opened with no hex typed, the move asks for the hexes or the word that none is farther.
    let f = move_from_roster(&mut battles, &referee, id, 1, &[]).unwrap();
    assert!(
        f.asks.iter().any(|a| a.contains("if no hex is farther")),
        "{:?}",
        f.asks
    );
    let mut stays = f.situation.clone();
    stays["nowhere_farther"] = json!(true);
    let v = apply(&mut battles, &referee, id, &f, stays, &[]).unwrap();
    let hastati = &v.state.units[&1];
    assert_eq!(
        (
            hastati.words.place.as_deref(),
            hastati.words.summary.as_str()
        ),
        (Some("Hex 18.04"), "2/2, 2 D, Rout"),
        "it stays, one D marker more, still routed"
    );
    assert_eq!(hastati.words.opens_move, None, "its rout move is made");
    assert_eq!(words_of(&v, "Pikes"), words_of(&before, "Pikes"));
    replayed_then_undone(&mut battles, &referee, &dir, id, &v, &before);
}

/// A tower hex is entered only from an adjacent wall hex (10.3, R-ITACS-41): a move from the
/// roster starts from its hex with the terrain last given to it; into a tower from open ground
/// it is refused in words, from a wall hex it lands.
#[test]
fn a_tower_is_entered_from_the_roster_only_from_a_wall_hex() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Guards", "side": "Rome", "stats": {"type": "SD", "count": 1, "hex": "18.04"}},
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "hex": "12.03"}}
        ]),
    );
    let f = move_from_roster(&mut battles, &referee, id, 1, &["18.05"]).unwrap();
    assert_eq!(
        f.situation["start"],
        json!({"label": "18.04", "terrain": "clear"})
    );
    let mut into_tower = f.situation.clone();
    into_tower["path"][0]["terrain"] = json!("tower");
    let e = apply(&mut battles, &referee, id, &f, into_tower.clone(), &[]).unwrap_err();
    assert_eq!(
        (
            e.code.as_str(),
            e.rule.as_deref(),
            e.ruling.as_deref(),
            e.field.as_deref()
        ),
        (
            "situation.terrain_closed",
            Some("10.3"),
            Some("R-ITACS-41"),
            Some("path[0].terrain")
        )
    );
    assert!(
        e.message.contains("entered only from an adjacent wall hex"),
        "{}",
        e.message
    );
    let untouched = battles.view(&referee, id).unwrap();
    assert_eq!(
        untouched.state.units[&1].words.place.as_deref(),
        Some("Hex 18.04")
    );
    into_tower["start"]["terrain"] = json!("wall");
    let v = apply(&mut battles, &referee, id, &f, into_tower, &[]).unwrap();
    assert_eq!(v.state.units[&1].words.place.as_deref(), Some("Hex 18.05"));
    // Moved once this turn; the next turn it may not leave the tower for open ground.
    let v = battles.advance_turn(&referee, id, None, None).unwrap();
    assert_eq!(v.state.units[&1].words.place.as_deref(), Some("Hex 18.05"));
    let f = move_from_roster(&mut battles, &referee, id, 1, &["19.05"]).unwrap();
    assert_eq!(
        f.situation["start"]["terrain"],
        json!("tower"),
        "remembered"
    );
    let e = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[]).unwrap_err();
    assert!(
        e.message.contains("left only into an adjacent wall hex"),
        "{}",
        e.message
    );
}

/// A charging HC ending over the stacking limit (6.3): the friendly stack it ends with takes 2 D
/// markers and must break; the markers are the hex's, so the HC carries the hex's count with them
/// (R-ITACS-39, R-ITACS-40), and 3 of them rout the whole hex (5.1) — on the roster after one
/// Apply, undone exactly.
#[test]
fn a_charge_over_the_limit_lands_one_d_count_on_the_hex() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Knights", "side": "Carthage", "stats": {"type": "HC", "count": 1, "movement": 8, "hex": "10.10"}},
            {"label": "Spears", "side": "Carthage", "stats": {"type": "SD", "count": 3, "hex": "11.10"}},
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 1, "hex": "15.12"}}
        ]),
    );
    let before = adjust(
        &mut battles,
        &referee,
        id,
        2,
        json!({"kind": "d_markers", "count": 1}),
    );
    let f = move_from_roster(&mut battles, &referee, id, 1, &["11.10"]).unwrap();
    let mut charge = f.situation.clone();
    charge["charging"] = json!(true);
    let v = apply(&mut battles, &referee, id, &f, charge, &[]).unwrap();
    // Three D markers make the hex rout (5.1).
    assert_eq!(words_of(&v, "Spears"), "3/3, 3 D, Break, Rout");
    assert_eq!(words_of(&v, "Knights"), "1/1, 3 D, Rout");
    assert_eq!(v.state.units[&1].words.place.as_deref(), Some("Hex 11.10"));
    replayed_then_undone(&mut battles, &referee, &dir, id, &v, &before);
}

/// Units move one at a time or in stacks (4.3.3): the entries of one hex picked together move as
/// one stack, at the pace of the slowest (R-ITACS-42), counted whole for stacking, landing
/// together in one event; each has then moved for the turn. Entries of two hexes are refused.
#[test]
fn a_stack_of_several_entries_moves_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "movement": 3, "hex": "17.03"}},
            {"label": "Bows", "side": "Carthage", "stats": {"type": "LB", "count": 1, "hex": "17.03"}},
            {"label": "Spears", "side": "Carthage", "stats": {"type": "SD", "count": 1, "hex": "17.04"}},
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 3, "hex": "25.04"}}
        ]),
    );
    let before = battles.view(&referee, id).unwrap();
    let stack = |battles: &mut Battles, ids: Vec<u32>, path: &[&str]| {
        move_of(battles, &referee, id, ids, path, None)
    };
    let e = stack(&mut battles, vec![1, 3], &["18.03"]).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("fight.one_each", Some("4.3.3"))
    );
    let f = stack(&mut battles, vec![1, 2], &["18.03"]).unwrap();
    assert_eq!(f.situation["unit"]["count"], json!(3), "the whole stack");
    assert_eq!(
        f.situation["unit"]["type"],
        json!("PP"),
        "the slowest, 3 points to the LB's 5"
    );
    let moved: Vec<u32> = targets(&f)
        .into_iter()
        .find(|(k, _)| k == "attacker")
        .map(|(_, ids)| ids)
        .unwrap();
    assert_eq!(moved, vec![1, 2]);
    let v = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[]).unwrap();
    let place = |v: &BattleView, id: u32| v.state.units[&id].words.place.clone();
    assert_eq!(
        (
            place(&v, 1).as_deref(),
            place(&v, 2).as_deref(),
            place(&v, 3).as_deref()
        ),
        (Some("Hex 18.03"), Some("Hex 18.03"), Some("Hex 17.04"))
    );
    assert_eq!(
        v.log
            .iter()
            .filter(|e| e.changes.iter().any(|c| c.contains("18.03")))
            .count(),
        1,
        "one event"
    );
    // Each entry has moved for the turn (4.3.1).
    let e = move_from_roster(&mut battles, &referee, id, 2, &["19.03"]).unwrap_err();
    assert_eq!(e.code.as_str(), "battle.once_per_turn");
    replayed_then_undone(&mut battles, &referee, &dir, id, &v, &before);
}

/// The terrain the umpire gave a hex comes with the next fight there, kept in the battle: after
/// a restart too (the situations applied are stored with their events); undone, it is forgotten.
#[test]
fn a_fight_remembers_the_terrain_last_given_to_its_hexes_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Bows", "side": "Carthage", "stats": {"type": "LB", "count": 2, "hex": "17.03"}},
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "hex": "17.04"}},
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 3, "hex": "18.04"}}
        ]),
    );
    let f = fight(&mut battles, &referee, id, "missile", &[1], &[3]);
    assert_eq!(f.situation["target"]["terrain"], json!("clear"));
    apply(&mut battles, &referee, id, &f, in_mud(&f), &[1, 1]).unwrap();
    drop(battles);
    let (mut battles, referee) = open(&dir);
    let f = fight(&mut battles, &referee, id, "melee", &[2], &[3]);
    assert_eq!(f.situation["defenders"][0]["terrain"], json!("mud"));
    battles.undo(&referee, id).unwrap();
    let f = fight(&mut battles, &referee, id, "melee", &[2], &[3]);
    assert_eq!(f.situation["defenders"][0]["terrain"], json!("clear"));
}

/// A battle of these units: Carthage first, then Rome.
fn units(battles: &mut Battles, referee: &Referee, units: Value) -> i64 {
    let new: NewBattle = serde_json::from_value(json!({
        "name": "Golden",
        "ruleset": "itacs",
        "sides": [{"name": "Carthage"}, {"name": "Rome"}],
        "units": units
    }))
    .unwrap();
    battles.create(referee, &new).unwrap().id
}

#[test]
fn golden_2_4_6_a_stack_of_2_pp_and_one_lb_has_a_combat_strength_of_12() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "hex": "17.03"}},
            {"label": "Bows", "side": "Carthage", "stats": {"type": "LB", "count": 1, "hex": "17.03"}},
            {"label": "Bows 2", "side": "Carthage", "stats": {"type": "LB", "count": 3, "hex": "17.02"}},
            {"label": "Hastati", "side": "Rome", "stats": {"type": "SD", "count": 1, "hex": "18.04"}}
        ]),
    );
    let itacs = referee.ruleset("itacs").unwrap();
    let strength = |f: &Fight, total: &str| {
        let r = itacs.resolve("melee", &f.situation, Some(&[1, 1])).unwrap();
        r.totals
            .iter()
            .find(|t| t.label == total)
            .unwrap()
            .value
            .clone()
    };
    // Picked by its LB alone, the hex defends whole: 6 + 6 + a dot = 12, not 13.
    let f = fight(&mut battles, &referee, id, "melee", &[4], &[2]);
    assert_eq!(strength(&f, "Defence strength"), "12");
    // Attacking with both entries picked: the same 12.
    let f = fight(&mut battles, &referee, id, "melee", &[1, 2], &[4]);
    assert_eq!(strength(&f, "Attack strength"), "12");
    // "A stack of 3 LB units has a combat strength of 1."
    let f = fight(&mut battles, &referee, id, "melee", &[4], &[3]);
    assert_eq!(strength(&f, "Defence strength"), "1");
}

fn in_mud(f: &Fight) -> Value {
    let mut situation = f.situation.clone();
    situation["target"]["terrain"] = json!("mud");
    situation
}

#[test]
fn golden_4_4_2_defensive_fire_from_the_roster() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "MS", "side": "Carthage", "stats": {"type": "MS", "class": "A", "count": 3, "hex": "22.18"}},
            {"label": "LB 1", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "22.19"}},
            {"label": "PS", "side": "Rome", "stats": {"type": "PS", "count": 1, "hex": "22.19"}},
            {"label": "LB 2", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "23.19"}},
            {"label": "Leader", "side": "Rome", "role": "leader", "stats": {"bonus": 1, "hex": "23.19"}},
            {"label": "LB 3", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "24.19"}}
        ]),
    );
    // The two hexes marked with the green arrow fire (their LB units are picked).
    let f = fight(&mut battles, &referee, id, "defensive_fire", &[2, 4], &[1]);
    let itacs = referee.ruleset("itacs").unwrap();
    let r = itacs
        .resolve("defensive_fire", &in_mud(&f), Some(&[3, 6]))
        .unwrap();
    let modifiers: Vec<(&str, i64)> = r
        .modifiers
        .iter()
        .map(|m| (m.label.as_str(), m.value))
        .collect();
    assert_eq!(
        modifiers,
        [
            ("Attacking fire strength (12)", 1),
            ("Terrain: Mud", 2),
            ("Stacking (3 units)", 0),
            ("Range (1 hex)", 0)
        ]
    );
    assert_eq!(r.total_modifier, 3);
    let outcome = r.outcome.unwrap();
    assert_eq!(
        (outcome.roll, outcome.modified, outcome.result.as_str()),
        (9, 12, "DX")
    );
    let v = apply(&mut battles, &referee, id, &f, in_mud(&f), &[3, 6]).unwrap();
    // "A bad day for the MS units"; the LB units are not disrupted: a PS shares 22.19, a leader
    // 23.19. LB 3, not adjacent, took no part.
    assert_eq!(
        roster(&v),
        [
            ("MS", "0/3, lost"),
            ("LB 1", "2/2"),
            ("PS", "1/1"),
            ("LB 2", "2/2"),
            ("Leader", "bonus 1"),
            ("LB 3", "2/2")
        ]
        .map(|(l, w)| (l.to_string(), w.to_string()))
    );
    // Without the PS and the leader, the same fire leaves the bowmen disrupted (4.4.1).
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "MS", "side": "Carthage", "stats": {"type": "MS", "class": "A", "count": 3, "hex": "22.18"}},
            {"label": "LB 1", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "22.19"}},
            {"label": "LB 2", "side": "Rome", "stats": {"type": "LB", "count": 2, "hex": "23.19"}}
        ]),
    );
    let f = fight(&mut battles, &referee, id, "defensive_fire", &[2, 3], &[1]);
    let v = apply(&mut battles, &referee, id, &f, in_mud(&f), &[3, 6]).unwrap();
    assert_eq!(words_of(&v, "LB 1"), "2/2, 1 D");
    assert_eq!(words_of(&v, "LB 2"), "2/2, 1 D");
}

#[test]
fn a_side_that_reaches_its_panic_level_panics_in_one_tap() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let new: NewBattle = serde_json::from_value(json!({
        "name": "Panic",
        "ruleset": "itacs",
        "sides": [{"name": "Carthage", "panic_level": 1}, {"name": "Rome"}],
        "units": [
            {"label": "Militia", "side": "Carthage", "stats": {"type": "MS", "class": "A", "combat": "2", "count": 3, "hex": "22.18"}},
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 2, "hex": "17.03"}},
            {"label": "Archers", "side": "Rome", "stats": {"type": "LB", "count": 4, "hex": "22.19"}}
        ]
    }))
    .unwrap();
    let id = battles.create(&referee, &new).unwrap().id;
    let panic = |v: &BattleView| {
        v.standing
            .gauges
            .iter()
            .find(|g| g.label == "Panic level")
            .cloned()
            .unwrap()
    };
    assert_eq!(panic(&battles.view(&referee, id).unwrap()).offer, None);
    let f = fight(&mut battles, &referee, id, "defensive_fire", &[3], &[1]);
    let v = apply(&mut battles, &referee, id, &f, in_mud(&f), &[6, 6]).unwrap();
    assert_eq!(words_of(&v, "Militia"), "0/3, lost");
    // Reached: the gauge offers the panic, a change of the side.
    let gauge = panic(&v);
    assert!(gauge.reached);
    let offer = gauge.offer.expect("the panic is offered");
    assert_eq!(offer.label, "Carthage panics: every unit routs");
    let v = battles
        .adjust(
            &referee,
            id,
            &referee_api::AdjustRequest {
                subject: referee_api::Subject::Side("Carthage".into()),
                change: offer.change,
                reason: None,
            },
        )
        .unwrap();
    assert_eq!(words_of(&v, "Pikes"), "2/2, Rout");
    assert_eq!(
        words_of(&v, "Archers"),
        "4/4, 1 D",
        "Rome does not rout; its bowmen fired uncovered (4.4.1)"
    );
    let gauge = panic(&v);
    assert_eq!(
        (gauge.status.as_deref(), gauge.offer),
        (Some("panicked"), None)
    );
    // Undone, the side stands again, and the panic is offered again.
    let v = battles.undo(&referee, id).unwrap();
    assert_eq!(words_of(&v, "Pikes"), "2/2");
    assert!(panic(&v).offer.is_some());
}

/// The defending units a leader stands with eliminated in melee, he is captured (6.1.4): the
/// result lands on him from the roster, his bonus is gone from the next fight, and undo frees
/// him. A result that leaves units standing does not touch him.
#[test]
fn a_leader_whose_stack_is_eliminated_in_melee_is_captured() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Legion", "side": "Rome", "stats": {"type": "SD", "count": 3, "hex": "20.11"}},
            {"label": "Guard", "side": "Carthage", "stats": {"type": "PS", "count": 1, "hex": "20.10"}},
            {"label": "Mago", "side": "Carthage", "role": "leader", "stats": {"type": "1L", "bonus": 1, "hex": "20.10"}}
        ]),
    );
    let f = fight(&mut battles, &referee, id, "melee", &[1], &[2]);
    assert!(
        f.targets.get("unit:Mago") == Some(&vec![3]),
        "{:?}",
        f.targets
    );
    assert_eq!(f.situation["defenders"][0]["leaders"], json!(["Mago"]));
    assert_eq!(f.situation["defender_leader_bonus"], 1);
    let situation = f.situation.clone();
    // The throws that destroy the PS and those that leave it standing, from the core itself.
    let outcome = |faces: [u32; 2]| {
        referee
            .resolve(&referee_api::ResolveRequest {
                ruleset: "itacs".into(),
                action: "melee".into(),
                situation: situation.clone(),
                dice: Some(faces.to_vec()),
            })
            .unwrap()
            .outcome
            .unwrap()
    };
    let throws: Vec<[u32; 2]> = (1..=6).flat_map(|a| (1..=6).map(move |b| [a, b])).collect();
    let captures = |o: &referee_core::contract::Outcome| {
        o.effects
            .iter()
            .any(|e| e.change == referee_core::contract::Change::LeaderCaptured)
    };
    let dx = throws.iter().find(|t| captures(&outcome(**t))).copied();
    let dx = dx.expect("some throw eliminates the guard");
    let stands = throws
        .iter()
        .find(|t| {
            let o = outcome(**t);
            !captures(&o) && !o.effects.is_empty()
        })
        .copied()
        .expect("some throw leaves the guard standing");
    let v = apply(&mut battles, &referee, id, &f, situation.clone(), &stands).unwrap();
    assert!(
        !words_of(&v, "Mago").contains("captured"),
        "{}",
        words_of(&v, "Mago")
    );
    battles.undo(&referee, id).unwrap();
    let v = apply(&mut battles, &referee, id, &f, situation.clone(), &dx).unwrap();
    assert!(
        words_of(&v, "Mago").contains("captured"),
        "{}",
        words_of(&v, "Mago")
    );
    assert_eq!(
        serde_json::to_value(&v.state).unwrap(),
        replayed(&dir, &referee, id)
    );
    // Held by the units that attacked (6.1.4): the Legion; the umpire may have them kill him.
    assert_eq!(v.state.units[&3].held_by, vec![1]);
    let edits: Vec<&str> = v.state.units[&3]
        .words
        .quick_edits
        .iter()
        .map(|q| q.label.as_str())
        .collect();
    assert_eq!(edits, ["Killed by his captors", "Walks free"]);
    // Stacked under his captors' counter (6.1.4): in their hex, and where they move he goes, in
    // the move's event; undo puts both back.
    let place = |v: &BattleView, id: u32| v.state.units[&id].words.place.clone();
    assert_eq!(place(&v, 3).as_deref(), Some("Hex 20.11"));
    let f = move_from_roster(&mut battles, &referee, id, 1, &["21.11"]).unwrap();
    let moved = apply(&mut battles, &referee, id, &f, f.situation.clone(), &[]).unwrap();
    assert_eq!(
        (place(&moved, 1).as_deref(), place(&moved, 3).as_deref()),
        (Some("Hex 21.11"), Some("Hex 21.11"))
    );
    assert!(words_of(&moved, "Mago").contains("captured"));
    assert_eq!(
        serde_json::to_value(&moved.state).unwrap(),
        replayed(&dir, &referee, id)
    );
    let back = battles.undo(&referee, id).unwrap();
    assert_eq!(place(&back, 3).as_deref(), Some("Hex 20.11"));
    // The Legion eliminated, Mago walks free in the same event; undo takes both back.
    let destroy = |battles: &mut Battles| {
        battles.adjust(
            &referee,
            id,
            &referee_api::AdjustRequest {
                subject: referee_api::Subject::Unit(1),
                change: referee_core::contract::Change::DestroyAll,
                reason: None,
            },
        )
    };
    let v = destroy(&mut battles).unwrap();
    assert!(v.state.units[&1].lost);
    assert_eq!(v.state.units[&3].leader, None, "{}", words_of(&v, "Mago"));
    assert!(v.state.units[&3].held_by.is_empty());
    let last = v.log.iter().max_by_key(|e| e.seq).unwrap();
    assert!(
        last.changes.iter().any(|c| c.contains("Mago: walks free")),
        "{:?}",
        last.changes
    );
    assert_eq!(
        serde_json::to_value(&v.state).unwrap(),
        replayed(&dir, &referee, id)
    );
    let v = battles.undo(&referee, id).unwrap();
    assert!(words_of(&v, "Mago").contains("captured"));
    assert_eq!(v.state.units[&3].held_by, vec![1]);
    let v = battles.undo(&referee, id).unwrap();
    assert!(
        !words_of(&v, "Mago").contains("captured"),
        "{}",
        words_of(&v, "Mago")
    );
    assert!(v.state.units[&3].held_by.is_empty());
}

/// A unit added through the API is checked as the form checks it: what its type does not give
/// is asked (R-ITACS-17), beside the field, and nothing is written.
#[test]
fn a_unit_added_without_its_printed_values_is_asked_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(&mut battles, &referee, json!([]));
    let add = |battles: &mut Battles, stats: Value| {
        battles.add_unit(
            &referee,
            id,
            serde_json::from_value(json!({"label": "X", "side": "Rome", "stats": stats})).unwrap(),
        )
    };
    let e = add(
        &mut battles,
        json!({"type": "MS", "class": "A", "count": 2}),
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("unit.stats.combat"), "{e:?}");
    let e = add(&mut battles, json!({"type": "CB", "combat": "2"})).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("unit.stats.fire"), "{e:?}");
    assert!(battles.view(&referee, id).unwrap().state.units.is_empty());
    add(
        &mut battles,
        json!({"type": "CB", "combat": "2", "fire": 2}),
    )
    .unwrap();
    add(&mut battles, json!({"type": "SD"})).unwrap();
    // A unit entered before (a preset's militia without its strength) moves to another hex
    // without being asked what it already lacked; a value it had may not be taken away.
    let id = units(
        &mut battles,
        &referee,
        json!([{"label": "Militia", "side": "Rome", "stats": {"type": "MS", "class": "A", "count": 2, "hex": "20.10"}}]),
    );
    let moved = |battles: &mut Battles, stats: Value| {
        battles.edit_unit(
            &referee,
            id,
            1,
            serde_json::from_value(json!({"label": "Militia", "side": "Rome", "stats": stats}))
                .unwrap(),
        )
    };
    let v = moved(
        &mut battles,
        json!({"type": "MS", "class": "A", "count": 2, "hex": "20.11"}),
    )
    .unwrap();
    assert_eq!(v.state.units[&1].words.place.as_deref(), Some("Hex 20.11"));
    let e = moved(
        &mut battles,
        json!({"type": "MS", "count": 2, "hex": "20.12"}),
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("unit.stats.class"), "{e:?}");
}

/// A hex of the roster holding more units than the side's stacking limit is said on the side's
/// card (4.3.3), leaders not counted; a square's 4 is the umpire's to tell (2.6.1).
#[test]
fn a_hex_over_the_stacking_limit_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Swords", "side": "Rome", "stats": {"type": "SD", "count": 3, "hex": "17.03"}},
            {"label": "Spears", "side": "Rome", "stats": {"type": "PS", "count": 1, "hex": "18.03"}},
            {"label": "Marcus", "side": "Rome", "role": "leader", "stats": {"type": "1L", "bonus": 1, "hex": "17.03"}},
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "count": 2, "hex": "17.03"}}
        ]),
    );
    let over = |battles: &mut Battles| {
        battles
            .view(&referee, id)
            .unwrap()
            .standing
            .gauges
            .into_iter()
            .filter(|g| g.label.starts_with("Hex "))
            .map(|g| (g.side.unwrap_or_default(), g.label, g.value))
            .collect::<Vec<_>>()
    };
    // 3 SD and a leader: at the limit, not over; Carthage's 2 PP in "17.03" are its own hex.
    assert!(over(&mut battles).is_empty(), "{:?}", over(&mut battles));
    let spears = battles
        .view(&referee, id)
        .unwrap()
        .state
        .units
        .values()
        .find(|u| u.label == "Spears")
        .unwrap()
        .id;
    battles
        .edit_unit(
            &referee,
            id,
            spears,
            serde_json::from_value(json!({"label": "Spears", "side": "Rome", "stats": {"type": "PS", "count": 1, "hex": "17.03"}})).unwrap(),
        )
        .unwrap();
    let said = over(&mut battles);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(
        (said[0].0.as_str(), said[0].1.as_str()),
        ("Rome", "Hex 17.03")
    );
    assert!(
        said[0]
            .2
            .starts_with("4 units: over the stacking limit of 3"),
        "{}",
        said[0].2
    );
    battles.undo(&referee, id).unwrap();
    assert!(over(&mut battles).is_empty());
}

/// A square on the roster (2.6.1, R-ITACS-43): formed on its row in one undoable change, a melee
/// opened on its hex takes the square from the roster, a D result ends it in the same event and
/// marks the hex to restack at its next movement, in words on its row; replayed as played and
/// undone exactly at each step.
#[test]
fn a_square_formed_on_its_row_is_broken_by_a_d_result_and_marked_to_restack() {
    use referee_core::contract::{Change, Target};
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 4, "hex": "12.05"}},
            {"label": "Knights", "side": "Rome", "stats": {"type": "HC", "count": 2, "hex": "12.04"}}
        ]),
    );
    let start = battles.view(&referee, id).unwrap();
    let row = |v: &BattleView| v.state.units[&1].words.clone();
    assert!(row(&start)
        .quick_edits
        .iter()
        .any(|q| q.label == "Form square"));

    let formed = adjust(
        &mut battles,
        &referee,
        id,
        1,
        json!({"kind": "square", "formed": true}),
    );
    assert_eq!(words_of(&formed, "Pikes"), "4/4, square");
    assert!(row(&formed)
        .quick_edits
        .iter()
        .any(|q| q.label == "Leave square"));
    replayed_then_undone(&mut battles, &referee, &dir, id, &formed, &start);
    let formed = battles.redo(&referee, id).unwrap();
    assert_eq!(words_of(&formed, "Pikes"), "4/4, square");

    // The melee on the square's hex: the square set from the roster, no ticking.
    let f = fight(&mut battles, &referee, id, "melee", &[2], &[1]);
    assert_eq!(f.situation["defenders"][0]["square"], json!(true));
    let situation = f.situation.clone();
    let disrupts_only = |faces: &[u32; 2]| {
        let outcome = referee
            .resolve(&referee_api::ResolveRequest {
                ruleset: "itacs".into(),
                action: "melee".into(),
                situation: situation.clone(),
                dice: Some(faces.to_vec()),
            })
            .unwrap()
            .outcome
            .unwrap();
        let on_square: Vec<&Change> = outcome
            .effects
            .iter()
            .filter(|e| e.target == Target::Defender)
            .map(|e| &e.change)
            .collect();
        on_square
            .iter()
            .any(|c| matches!(c, Change::DMarkers { .. }))
            && !on_square
                .iter()
                .any(|c| matches!(c, Change::LoseUnits { .. } | Change::DestroyAll))
    };
    let faces = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| [a, b]))
        .find(disrupts_only)
        .expect("a throw that disrupts the square");
    let broken = apply(&mut battles, &referee, id, &f, situation, &faces).unwrap();
    let words = words_of(&broken, "Pikes");
    assert!(!words.contains(", square"), "{words}");
    assert!(
        words.ends_with(
            "broken square: must restack to the stacking limit at its next movement (2.6.1)"
        ),
        "{words}"
    );
    assert!(!row(&broken)
        .quick_edits
        .iter()
        .any(|q| q.label == "Form square"));
    replayed_then_undone(&mut battles, &referee, &dir, id, &broken, &formed);
    let broken = battles.redo(&referee, id).unwrap();
    assert!(words_of(&broken, "Pikes").contains("broken square"));
}

/// Some of an entry's units move (4.3.3, R-ITACS-44): a broken square over the stacking limit
/// restacks at its next movement by moving 2 of its 4 units. One event lowers the entry to 2 and
/// makes the 2 that move an entry of their own in the hex entered, with the markers of their hex;
/// the mark to restack clears in the same event (2.6.1, R-ITACS-43). Replayed as played (the new
/// entry's number is the event's), undone and redone exactly; 0 units moving, or more than the
/// entry has, is refused in a sentence beside the field.
#[test]
fn a_broken_square_restacks_by_moving_some_of_its_units() {
    let dir = tempfile::tempdir().unwrap();
    let (mut battles, referee) = open(&dir);
    let id = units(
        &mut battles,
        &referee,
        json!([
            {"label": "Pikes", "side": "Carthage", "stats": {"type": "PP", "class": "A", "count": 4, "movement": 3, "hex": "12.05"}},
            {"label": "Knights", "side": "Rome", "stats": {"type": "HC", "count": 2, "hex": "20.04"}}
        ]),
    );
    adjust(
        &mut battles,
        &referee,
        id,
        1,
        json!({"kind": "square", "formed": true}),
    );
    // A D marker by the umpire's hand breaks the square; the recovery phase lifts it.
    let broken = adjust(
        &mut battles,
        &referee,
        id,
        1,
        json!({"kind": "d_markers", "count": 1}),
    );
    assert_eq!(
        words_of(&broken, "Pikes"),
        "4/4, 1 D, broken square: must restack to the stacking limit at its next movement (2.6.1)"
    );
    // Disrupted, it may not move but to break or rout (5.1): the restack waits for its markers
    // to go (the recovery phase), and the row offers no move meanwhile.
    assert_eq!(broken.state.units[&1].words.opens_move, None);
    let before = adjust(
        &mut battles,
        &referee,
        id,
        1,
        json!({"kind": "remove_d_markers", "count": 1}),
    );
    assert!(words_of(&before, "Pikes").contains("must restack"));
    assert_eq!(
        before.state.units[&1].words.opens_move.as_deref(),
        Some("Restack move"),
        "the row opens the move that restacks it"
    );

    let open_move = |battles: &mut Battles, units_moving: Option<u32>| {
        move_of(battles, &referee, id, vec![1], &["12.06"], units_moving)
    };
    for (bad, says) in [
        (0, "Units moving: from 1 to 4 (Pikes has 4 units)."),
        (5, "Units moving: from 1 to 4 (Pikes has 4 units)."),
    ] {
        let e = open_move(&mut battles, Some(bad)).unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.field.as_deref(), e.message.as_str()),
            ("fight.units_moving", Some("units_moving"), says)
        );
    }
    let f = open_move(&mut battles, Some(2)).unwrap();
    assert_eq!(f.situation["unit"]["count"], json!(2), "the 2 that move");
    let mut request = ApplyRequest {
        action: f.action.clone(),
        situation: f.situation.clone(),
        dice: DiceEntry::None,
        mapping: Mapping {
            targets: f.targets.clone(),
            choices: Default::default(),
            units_moving: Some(5),
        },
        rolled_by: None,
        apply_key: Some("split".into()),
    };
    let e = battles.apply(&referee, id, &request).unwrap_err();
    assert_eq!(e.code, "fight.units_moving");
    request.mapping.units_moving = Some(2);
    let moved = battles.apply(&referee, id, &request).unwrap();
    let row = |v: &BattleView, label: &str| {
        let u = v.state.units.values().find(|u| u.label == label).unwrap();
        (
            u.id,
            u.words.place.clone().unwrap_or_default(),
            u.words.summary.clone(),
        )
    };
    assert_eq!(
        row(&moved, "Pikes"),
        (1, "Hex 12.05".into(), "2/2".into()),
        "2 stay, the mark cleared"
    );
    assert_eq!(moved.state.units[&1].words.opens_move, None);
    assert_eq!(
        row(&moved, "Pikes 2"),
        (3, "Hex 12.06".into(), "2/2".into())
    );
    let entry = moved.state.units[&3].detail.entry().unwrap();
    assert_eq!(
        (&entry["type"], &entry["count"], &entry["hex"]),
        (&json!("PP"), &json!(2), &json!("12.06"))
    );
    assert_eq!(
        moved
            .log
            .iter()
            .filter(|e| e.changes.iter().any(|c| c.contains("Pikes 2")))
            .count(),
        1,
        "one event"
    );
    let line = &moved.log.last().unwrap().text;
    assert!(
        line.contains("Pikes 2") && !line.contains('#'),
        "the log names the new entry: {line}"
    );
    // The same result again (a double tap) is refused: nothing written twice.
    let again = battles.apply(&referee, id, &request).unwrap_err();
    assert_eq!(again.code, "battle.already_applied");
    // The 2 that moved have moved for the turn; the 2 that stayed have not.
    let e = move_from_roster(&mut battles, &referee, id, 3, &["12.07"]).unwrap_err();
    assert_eq!(e.code, "battle.once_per_turn");
    assert!(open_move(&mut battles, None).is_ok());

    replayed_then_undone(&mut battles, &referee, &dir, id, &moved, &before);
    let redone = battles.redo(&referee, id).unwrap();
    assert_eq!(
        serde_json::to_value(&redone.state).unwrap(),
        serde_json::to_value(&moved.state).unwrap()
    );
    // A routing stack makes its rout move whole: its markers are the hex's (5.3.1, R-ITACS-42).
    adjust(&mut battles, &referee, id, 1, json!({"kind": "rout"}));
    let e = move_of(&mut battles, &referee, id, vec![1], &["11.05"], Some(1)).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref(), e.rule.as_deref()),
        ("fight.units_moving", Some("units_moving"), Some("5.3.1"))
    );
}
