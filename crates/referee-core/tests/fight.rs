//! "Resolve" from the roster: for every action that fights, in every system, a battle's picked
//! units open a situation that resolves as it is, and every result of it lands on exactly the
//! picked units; the units' state (markers, losses, charge factor, element state) is carried.

use std::collections::{BTreeMap, BTreeSet};

use referee_core::battle::{
    changes_for, fight, Battle, BattleSetup, Mapping, Subject, UnitId, UnitSpec,
};
use referee_core::contract::Change;
use referee_core::preset::{self, BUILTIN_PRESETS};
use referee_core::ruleset::{Layers, SourceFile};
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

fn ruleset(system: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// A battle of two sides, "Red" attacking "Blue", with these units (label, side 0 or 1, stats).
fn battle(system: &str, units: &[(&str, usize, Value)]) -> (Ruleset, Battle) {
    let ruleset = ruleset(system);
    let sides = ["Red", "Blue"];
    let setup = BattleSetup {
        name: format!("{system} fight"),
        ruleset: system.into(),
        fingerprint: ruleset.info.fingerprint.clone(),
        sides: serde_json::from_value(json!([{ "name": "Red" }, { "name": "Blue" }])).unwrap(),
    };
    let specs: Vec<UnitSpec> = units
        .iter()
        .map(|(label, side, stats)| {
            serde_json::from_value(json!({ "label": label, "side": sides[*side], "stats": stats }))
                .unwrap()
        })
        .collect();
    let battle =
        Battle::create_with_units(&ruleset, setup, &specs, "2026-01-01T00:00:00Z").unwrap();
    (ruleset, battle)
}

/// The battles of a system's presets.
fn preset_battles(system: &str) -> Vec<(Ruleset, Battle)> {
    let rulesets = BTreeMap::from([(system.to_string(), ruleset(system))]);
    BUILTIN_PRESETS
        .iter()
        .filter(|(name, _)| name.contains(&format!("/{system}-")))
        .map(|(name, text)| {
            let p = preset::load(SourceFile { name, text }, true, &rulesets).unwrap();
            let r = ruleset(system);
            let setup = BattleSetup {
                name: p.name.clone(),
                ruleset: system.into(),
                fingerprint: r.info.fingerprint.clone(),
                sides: p.sides.clone(),
            };
            let b = Battle::create_with_units(&r, setup, &p.units, "2026-01-01T00:00:00Z").unwrap();
            (r, b)
        })
        .collect()
}

/// Fighting units of each side, in roster order.
fn fighters(battle: &Battle) -> [Vec<UnitId>; 2] {
    let side = |i: usize| {
        battle
            .state
            .units
            .values()
            .filter(|u| {
                u.side == battle.state.sides[i].name && u.role != referee_core::battle::Role::Leader
            })
            .map(|u| u.id)
            .collect()
    };
    [side(0), side(1)]
}

/// Opens the fight, resolves it, and lands every possible result with the fight's targets:
/// each change falls on a picked unit.
fn check(ruleset: &Ruleset, battle: &Battle, action: &str, a: &[UnitId], d: &[UnitId]) {
    let what = format!("{} {action} {a:?} v {d:?}", ruleset.info.id);
    let f = fight(ruleset, &battle.state, action, a, d)
        .unwrap_or_else(|e| panic!("{what}: {}", e.one_line()));
    assert_eq!(f.targets["attacker"], a, "{what}");
    assert_eq!(f.targets["defender"], d, "{what}");
    let r = match ruleset.resolve(action, &f.situation, None) {
        Ok(r) => r,
        // A value the roster entry leaves out and the text does not give (R-ITACS-17) is asked.
        Err(e) if e.code.as_str().starts_with("situation.missing_") => {
            assert!(
                f.asks.iter().any(|a| a.starts_with("Enter the")),
                "{what}: {:?}",
                f.asks
            );
            return;
        }
        Err(e) => panic!("{what}: {} in {}", e.one_line(), f.situation),
    };
    let picked: BTreeSet<UnitId> = a.iter().chain(d).copied().collect();
    let mut landed = 0;
    // Results with their effects: every result of the distribution, and the outcomes of a few
    // throws (recoil tests show their effects only once the dice are in).
    let mut results: Vec<(String, Vec<referee_core::contract::Effect>)> = r
        .distribution
        .iter()
        .map(|x| (x.result.clone(), x.effects.clone()))
        .collect();
    for face in [1, 2, 5, 50, 99, 100] {
        for n in 1..=6 {
            if let Ok(o) = ruleset.resolve(action, &f.situation, Some(&vec![face; n])) {
                if let Some(o) = o.outcome {
                    results.push((o.result, o.effects));
                }
            }
        }
    }
    for (name, effects) in &results {
        // Losses spread over several units: the choosing player gives the first unit each time.
        let choices = effects
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e.change {
                Change::LoseUnits { count, .. } | Change::LoseSp { count, .. } => {
                    let key = referee_core::battle::target_key(&e.target);
                    let first = *f.targets.get(&key)?.first()?;
                    Some((i.to_string(), vec![first; count as usize]))
                }
                _ => None,
            })
            .collect();
        let mapping = Mapping {
            units_moving: None,
            targets: f.targets.clone(),
            choices,
        };
        let changes = changes_for(&battle.state, effects, &mapping)
            .unwrap_or_else(|e| panic!("{what} {name}: {}", e.one_line()));
        for c in changes {
            if let Subject::Unit(id) = c.subject {
                assert!(picked.contains(&id), "{what} {name}: lands on #{id}");
                landed += 1;
            }
        }
    }
    assert!(landed > 0, "{what}: no result lands on any unit");
}

/// Every action that fights, with 1–3 units a side (as many as the action takes).
fn check_all(ruleset: &Ruleset, battle: &Battle, actions: &[(&str, usize, usize)]) {
    let [red, blue] = fighters(battle);
    for (action, most_a, most_d) in actions {
        for n in 1..=3 {
            let (na, nd) = (
                n.min(*most_a).min(red.len()),
                n.min(*most_d).min(blue.len()),
            );
            check(ruleset, battle, action, &red[..na], &blue[..nd]);
        }
    }
}

#[test]
fn every_fighting_action_is_listed_here() {
    let covered: BTreeMap<&str, Vec<&str>> = BTreeMap::from([
        (
            "itacs",
            vec!["missile", "defensive_fire", "melee", "horse_archer_fire"],
        ),
        ("medieval", vec!["combat", "fire"]),
        ("gts", vec!["fire", "melee", "recoil", "melee_round"]),
        ("dbmm", vec!["close_combat", "shooting"]),
    ]);
    for (system, actions) in covered {
        let info = ruleset(system).info;
        let fights: Vec<&str> = info
            .actions
            .iter()
            .filter(|a| a.fights)
            .map(|a| a.id.as_str())
            .collect();
        assert_eq!(fights, actions, "{system}");
        assert!(fights.contains(&info.main_action.as_str()), "{system}");
    }
}

#[test]
fn presets_open_their_main_combat() {
    for system in ["itacs", "medieval", "gts", "dbmm"] {
        for (r, b) in preset_battles(system) {
            let main = r.info.main_action.clone();
            check_all(&r, &b, &[(main.as_str(), 3, 3)]);
        }
    }
}

#[test]
fn itacs_actions_open_from_the_roster() {
    let (r, b) = battle(
        "itacs",
        &[
            ("LB 1", 0, json!({ "type": "LB", "count": 2 })),
            ("LB 2", 0, json!({ "type": "LB" })),
            ("CB", 0, json!({ "type": "CB", "combat": 2, "fire": 2 })),
            ("PS", 1, json!({ "type": "PS", "count": 2 })),
            ("SD", 1, json!({ "type": "SD" })),
            ("MS", 1, json!({ "type": "MS", "class": "B", "combat": 3 })),
        ],
    );
    check_all(&r, &b, &[("missile", 3, 3), ("defensive_fire", 3, 3)]);
    let (r, b) = battle(
        "itacs",
        &[
            (
                "HA",
                0,
                json!({ "class": "Mf", "combat": 2, "fire": 2, "fire_range": 2, "movement": 8 }),
            ),
            (
                "HA 2",
                0,
                json!({ "class": "Mf", "combat": 2, "fire": 2, "fire_range": 2, "movement": 7 }),
            ),
            ("SD", 1, json!({ "type": "SD" })),
            ("PS", 1, json!({ "type": "PS", "movement": 4 })),
        ],
    );
    check_all(&r, &b, &[("horse_archer_fire", 3, 3), ("melee", 3, 3)]);
}

#[test]
fn medieval_actions_open_from_the_roster() {
    let (r, b) = battle(
        "medieval",
        &[
            ("Archers", 0, json!({ "type": "archers", "sp": 2 })),
            (
                "Knights",
                0,
                json!({ "type": "heavy_cavalry", "sp": 2, "cf": 2 }),
            ),
            (
                "Knights 2",
                0,
                json!({ "type": "heavy_cavalry", "sp": 2, "cf": 3 }),
            ),
            ("Spears", 1, json!({ "type": "heavy_infantry", "sp": 1 })),
            ("Spears 2", 1, json!({ "type": "heavy_infantry", "sp": 1 })),
        ],
    );
    check_all(&r, &b, &[("fire", 1, 3), ("combat", 3, 3)]);
}

/// A GTS cavalry unit as the roster keeps it.
fn horse(armour: &str, weapon: &str, stands: u32) -> serde_json::Value {
    json!({ "class": "cavalry", "armour": armour, "weapon": weapon, "stands": stands })
}

#[test]
fn gts_actions_open_from_the_roster() {
    let (r, b) = battle(
        "gts",
        &[
            ("Archers", 0, horse("N", "BW", 3)),
            ("Lancers", 0, horse("M", "LN", 2)),
            ("Javelins", 0, horse("N", "JV", 2)),
            ("Greeks", 1, horse("M", "LN", 3)),
            ("Greeks 2", 1, horse("M", "LN", 2)),
        ],
    );
    check_all(
        &r,
        &b,
        &[
            ("fire", 1, 1),
            ("melee", 3, 3),
            ("recoil", 3, 3),
            ("melee_round", 2, 2),
        ],
    );
}

#[test]
fn dbmm_actions_open_from_the_roster() {
    let (r, b) = battle(
        "dbmm",
        &[
            ("Bw", 0, json!({ "type": "Bw", "grade": "O" })),
            ("Bd", 0, json!({ "type": "Bd", "grade": "O" })),
            ("Sp", 0, json!({ "type": "Sp", "grade": "O" })),
            ("Kn", 1, json!({ "type": "Kn", "grade": "O" })),
            ("Kn 2", 1, json!({ "type": "Kn", "grade": "F" })),
            ("Bd", 1, json!({ "type": "Bd", "grade": "O" })),
        ],
    );
    check_all(&r, &b, &[("shooting", 1, 1), ("close_combat", 3, 3)]);
}

/// An (X) element picked without its X-grading line is asked for it (p. 4–9, R-DBMM-6).
#[test]
fn a_dbmm_x_element_picked_without_its_line_is_asked_for_it() {
    let (r, b) = battle(
        "dbmm",
        &[
            ("Knights", 0, json!({ "type": "Kn", "grade": "X" })),
            ("Blades", 1, json!({ "type": "Bd", "grade": "O" })),
        ],
    );
    let f = fight(&r, &b.state, "close_combat", &[1], &[2]).unwrap();
    assert!(
        f.asks
            .iter()
            .any(|a| a.starts_with("Knights is graded (X)") && a.contains("R-DBMM-6")),
        "{:?}",
        f.asks
    );
    assert!(f.asks.iter().all(|a| !a.starts_with("Blades")));
}

/// Lands a change on a unit as the umpire's adjustment would.
fn adjust(ruleset: &Ruleset, battle: &mut Battle, id: UnitId, change: Change) {
    let body = battle
        .adjust(ruleset, Subject::Unit(id), change, None)
        .unwrap();
    let event = referee_core::battle::Event {
        seq: battle.next_seq(),
        at: "2026-01-01T00:01:00Z".into(),
        body,
    };
    battle.record(ruleset, event).unwrap();
}

fn opened(ruleset: &Ruleset, battle: &Battle, action: &str, a: &[UnitId], d: &[UnitId]) -> Value {
    let f = fight(ruleset, &battle.state, action, a, d).unwrap();
    ruleset.resolve(action, &f.situation, None).unwrap();
    f.situation
}

#[test]
fn the_units_fight_in_their_state_now() {
    // ITACS: D markers and the Rout marker stay on the stack; its units lost are gone (5.1, 4.5.11).
    let (r, mut b) = battle(
        "itacs",
        &[
            ("SD", 0, json!({ "type": "SD", "count": 2 })),
            ("PS", 1, json!({ "type": "PS", "count": 3 })),
        ],
    );
    adjust(&r, &mut b, 2, Change::DMarkers { count: 2 });
    adjust(
        &r,
        &mut b,
        2,
        Change::LoseUnits {
            count: 1,
            chosen_by: referee_core::contract::Chooser::Defender,
        },
    );
    let s = opened(&r, &b, "melee", &[1], &[2]);
    assert_eq!(s["defenders"][0]["d_markers"], 2);
    assert_eq!(s["defenders"][0]["units"][0]["count"], 2);
    let refused = fight(&r, &b.state, "melee", &[2], &[1]).unwrap_err();
    assert_eq!(refused.code, "fight.disrupted");

    // Medieval: SPs left and the charge factor a result lowered (5.6.10).
    let (r, mut b) = battle(
        "medieval",
        &[
            (
                "Knights",
                0,
                json!({ "type": "heavy_cavalry", "sp": 2, "cf": 3 }),
            ),
            ("Spears", 1, json!({ "type": "heavy_infantry", "sp": 2 })),
        ],
    );
    adjust(&r, &mut b, 1, Change::ReduceChargeFactor { by: 2 });
    adjust(
        &r,
        &mut b,
        2,
        Change::LoseSp {
            count: 1,
            chosen_by: referee_core::contract::Chooser::Defender,
        },
    );
    let s = opened(&r, &b, "combat", &[1], &[2]);
    assert_eq!(s["attackers"][0]["units"][0]["cf"], 1);
    assert_eq!(s["defenders"][0]["units"][0]["sp"], 1);
    adjust(&r, &mut b, 2, Change::Scatter);
    assert_eq!(
        fight(&r, &b.state, "combat", &[1], &[2]).unwrap_err().code,
        "fight.scattered"
    );

    // GTS: a stand's worth of hits takes a stand; the unit keeps its disorder (2.11, 6.13).
    let (r, mut b) = battle(
        "gts",
        &[
            ("Persians", 0, horse("N", "BW", 3)),
            ("Greeks", 1, horse("M", "LN", 3)),
        ],
    );
    adjust(&r, &mut b, 2, Change::Hits { count: 5 });
    adjust(&r, &mut b, 2, Change::Disorder);
    let s = opened(&r, &b, "melee", &[1], &[2]);
    let greeks = &s["side_b"][0]["unit"];
    assert_eq!(greeks["stands"], b.state.units[&2].strength);
    assert!(b.state.units[&2].strength < 3, "{greeks}");
    assert_eq!(greeks["disordered"], true);
    assert_eq!(greeks["name"], "Greeks");

    // DBMM: an element that recoiled fights on; one destroyed is off the table (p. 38–42).
    let (r, mut b) = battle(
        "dbmm",
        &[
            ("Bd", 0, json!({ "type": "Bd", "grade": "S" })),
            ("Kn", 1, json!({ "type": "Kn", "grade": "F" })),
            ("Kn 2", 1, json!({ "type": "Kn", "grade": "O" })),
        ],
    );
    adjust(
        &r,
        &mut b,
        2,
        Change::ElementFate {
            fate: referee_core::fate::Fate::Recoil.into(),
        },
    );
    adjust(
        &r,
        &mut b,
        3,
        Change::ElementFate {
            fate: referee_core::fate::Fate::Destroyed.into(),
        },
    );
    let s = opened(&r, &b, "close_combat", &[1], &[2]);
    assert_eq!(s["a"]["element"]["grade"], "S");
    assert_eq!(s["b"]["element"]["name"], "Kn");
    assert_eq!(
        fight(&r, &b.state, "close_combat", &[1], &[3])
            .unwrap_err()
            .code,
        "fight.unit_lost"
    );
}

#[test]
fn picks_the_rules_cannot_fight_are_refused_in_words() {
    let (r, b) = battle(
        "gts",
        &[
            ("Persians", 0, horse("N", "BW", 3)),
            ("Persians", 0, horse("N", "BW", 2)),
            ("Greeks", 1, horse("M", "LN", 3)),
        ],
    );
    let cases: &[(&str, &[UnitId], &[UnitId], &str)] = &[
        ("melee", &[], &[3], "fight.no_units"),
        ("melee", &[1], &[], "fight.no_units"),
        ("wheel_cost", &[1], &[3], "fight.not_a_combat"),
        ("charge", &[1], &[3], "action.unknown"),
        ("melee", &[1], &[2], "fight.same_side"),
        ("melee", &[1, 3], &[2], "fight.mixed_sides"),
        ("melee", &[1, 1], &[3], "fight.picked_twice"),
        ("melee", &[1], &[1], "fight.picked_twice"),
        ("melee", &[9], &[3], "fight.unknown_unit"),
        ("fire", &[1, 2], &[3], "fight.one_each"),
    ];
    for (action, a, d, code) in cases {
        let e = fight(&r, &b.state, action, a, d).unwrap_err();
        assert_eq!(&e.code, code, "{action} {a:?} v {d:?}: {}", e.message);
        assert!(
            e.message.ends_with('.') && !e.message.contains('`'),
            "{}",
            e.message
        );
    }
    let other = ruleset("itacs");
    assert_eq!(
        fight(&other, &b.state, "melee", &[1], &[3])
            .unwrap_err()
            .code,
        "fight.wrong_ruleset"
    );
    // Two units of one label are told apart by their ids, so each effect finds one unit.
    let f = fight(&r, &b.state, "melee", &[1, 2], &[3]).unwrap();
    assert_eq!(f.targets["unit:Persians (#1)"], [1]);
    assert_eq!(f.targets["unit:Persians (#2)"], [2]);
}

/// Horse archers firing after movement at a unit whose movement points the text does not give
/// (PP): the fight asks for them rather than leaving the unit out of the contact list (6.2,
/// R-ITACS-17); a unit whose type gives them (SD, 4) is not asked.
#[test]
fn itacs_horse_archers_ask_the_movement_of_units_in_contact() {
    let (r, b) = battle(
        "itacs",
        &[
            (
                "Horse bows",
                0,
                json!({ "type": "HB", "combat": "2", "fire": 2, "movement": 10 }),
            ),
            ("Pikes", 1, json!({ "type": "PP", "class": "A" })),
            ("Swords", 1, json!({ "type": "SD" })),
        ],
    );
    let f = fight(&r, &b.state, "horse_archer_fire", &[1], &[2]).unwrap();
    assert!(
        f.asks
            .iter()
            .any(|a| a.contains("movement points printed on the Pikes counter")),
        "{:?}",
        f.asks
    );
    let f = fight(&r, &b.state, "horse_archer_fire", &[1], &[3]).unwrap();
    assert!(
        f.asks.iter().all(|a| !a.contains("movement points")),
        "{:?}",
        f.asks
    );
}

/// DBMM: a command that is disheartened or broken makes its elements fight shaken (−1 in close
/// combat and when shot at, p. 43, p. 37) without anything ticked, and the fight says why; a
/// steady command's do not (issue 34 item 1).
#[test]
fn dbmm_a_command_past_its_threshold_fights_shaken() {
    let (r, mut b) = battle(
        "dbmm",
        &[
            ("Kn", 0, json!({ "type": "Kn", "grade": "O" })),
            ("Bd 1", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 2", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 3", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 4", 1, json!({ "type": "Bd", "grade": "O" })),
        ],
    );
    let shaken = |s: &Value, who: &str| {
        s[who]["factors"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x == "shaken"))
    };
    let f = fight(&r, &b.state, "close_combat", &[1], &[2]).unwrap();
    assert!(!shaken(&f.situation, "b"), "{}", f.situation);
    assert!(f.asks.iter().all(|a| !a.contains("shaken")), "{:?}", f.asks);
    let steady = r.resolve("close_combat", &f.situation, None).unwrap();
    for id in [3, 4] {
        adjust(
            &r,
            &mut b,
            id,
            Change::ElementFate {
                fate: referee_core::fate::Fate::Destroyed.into(),
            },
        );
    }
    let f = fight(&r, &b.state, "close_combat", &[1], &[2]).unwrap();
    assert!(shaken(&f.situation, "b"), "{}", f.situation);
    assert!(!shaken(&f.situation, "a"), "{}", f.situation);
    assert!(
        f.asks
            .iter()
            .any(|a| a.starts_with("Bd 1's command (Blue) is") && a.contains("shaken, −1")),
        "{:?}",
        f.asks
    );
    let shaken_now = r.resolve("close_combat", &f.situation, None).unwrap();
    let total = |res: &referee_core::contract::Resolution| {
        res.totals
            .iter()
            .find(|t| t.label.contains("Bd 1"))
            .map(|t| t.value.clone())
    };
    assert_ne!(
        total(&steady),
        total(&shaken_now),
        "{:?}",
        shaken_now.totals
    );
    // Shot at, the target is shaken; the shooter is not (p. 37).
    let (r2, mut b2) = battle(
        "dbmm",
        &[
            ("Bw", 0, json!({ "type": "Bw", "grade": "O" })),
            ("Bd 1", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 2", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 3", 1, json!({ "type": "Bd", "grade": "O" })),
        ],
    );
    for id in [3, 4] {
        adjust(
            &r2,
            &mut b2,
            id,
            Change::ElementFate {
                fate: referee_core::fate::Fate::Destroyed.into(),
            },
        );
    }
    let f = fight(&r2, &b2.state, "shooting", &[1], &[2]).unwrap();
    assert!(shaken(&f.situation, "target"), "{}", f.situation);
    assert!(!shaken(&f.situation, "shooter"), "{}", f.situation);
}

/// DBMM: the quick edit that disheartens a command removes, in the same entry, its 0 ME elements
/// but not the rear half of a double-based element; the one that breaks it routs its land
/// elements but not its Bge (S); one undo takes each entry back whole (p. 43, R-DBMM-35).
#[test]
fn dbmm_a_command_passing_a_threshold_lands_on_its_elements() {
    let (r, mut b) = battle(
        "dbmm",
        &[
            ("Kn", 0, json!({ "type": "Kn", "grade": "O" })),
            ("Bd 1", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 2", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 3", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bge", 1, json!({ "type": "Bge", "grade": "S" })),
            ("Exp", 1, json!({ "type": "Exp", "grade": "O" })),
            (
                "Rear",
                1,
                json!({ "type": "Ps", "grade": "O", "double_based_rear": true }),
            ),
        ],
    );
    // Blue: 1 + 1 + 1 + 3 (Bge S) + 0 + 0 = 6 ME; disheartened past 1½ lost, broken past 2.
    let words = |b: &Battle, id: UnitId| r.system.words(&b.state.units[&id]).summary;
    adjust(
        &r,
        &mut b,
        2,
        Change::ElementFate {
            fate: referee_core::fate::Fate::Destroyed.into(),
        },
    );
    assert_eq!(words(&b, 6), "in the line", "1 ME of 6 lost: steady");
    let before = b.state.clone();
    adjust(
        &r,
        &mut b,
        3,
        Change::ElementFate {
            fate: referee_core::fate::Fate::Destroyed.into(),
        },
    );
    assert_eq!(words(&b, 6), "removed (its command disheartened)");
    assert!(b.state.units[&6].lost);
    assert_eq!(
        words(&b, 7),
        "in the line",
        "the rear half of a double base stays"
    );
    assert!(
        b.state.units.values().all(|u| u.moves.is_empty()),
        "disheartened: no rout"
    );
    let undo = b.undo().unwrap();
    b.record(
        &r,
        referee_core::battle::Event {
            seq: b.next_seq(),
            at: String::new(),
            body: undo,
        },
    )
    .unwrap();
    assert_eq!(
        b.state, before,
        "one undo takes the removal back with the loss"
    );
    let redo = b.redo().unwrap();
    b.record(
        &r,
        referee_core::battle::Event {
            seq: b.next_seq(),
            at: String::new(),
            body: redo,
        },
    )
    .unwrap();
    adjust(
        &r,
        &mut b,
        4,
        Change::ElementFate {
            fate: referee_core::fate::Fate::Destroyed.into(),
        },
    );
    assert_eq!(
        b.state.units[&7].moves,
        vec!["Rear: routs 400p GGo, 400p RGo, 320p DGo".to_string()]
    );
    assert!(b.state.units[&5].moves.is_empty(), "Bge (S) does not rout");
    assert!(
        b.state.units[&1].moves.is_empty(),
        "the enemy does not rout"
    );
}

/// DBMM: a close combat that disheartens a command removes its 0 ME element in the same entry;
/// the roll edited to one that destroys nothing takes the removal back with the loss, and the
/// differences it shows say so (p. 43, R-DBMM-35).
#[test]
fn dbmm_an_edited_roll_takes_back_what_the_morale_brought_about() {
    use referee_core::battle::{DiceSource, Event};
    let (r, mut b) = battle(
        "dbmm",
        &[
            ("Kn", 0, json!({ "type": "Kn", "grade": "O" })),
            ("Bd 1", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 2", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Exp", 1, json!({ "type": "Exp", "grade": "O" })),
        ],
    );
    // Blue: 2 ME; Bd 1 destroyed is 1 of 2 lost, past ¼ (and ⅓, ½: broken too).
    let f = fight(&r, &b.state, "close_combat", &[1], &[2]).unwrap();
    let mapping = Mapping {
        units_moving: None,
        targets: f.targets.clone(),
        choices: Default::default(),
    };
    let destroys = |faces: &[u32]| {
        let res = r
            .resolve("close_combat", &f.situation, Some(faces))
            .unwrap();
        let destroyed = res
            .outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .any(|e| e.text == "Bd 1: is destroyed");
        (res, destroyed)
    };
    let all: Vec<[u32; 2]> = (1..=6).flat_map(|x| (1..=6).map(move |y| [x, y])).collect();
    let kill = all.iter().find(|d| destroys(&d[..]).1).unwrap();
    let spare = all.iter().find(|d| !destroys(&d[..]).1).unwrap();
    let (res, _) = destroys(&kill[..]);
    let body = b
        .apply(&r, &res, &mapping, DiceSource::Physical, None, None)
        .unwrap();
    let seq = b.next_seq();
    b.record(
        &r,
        Event {
            seq,
            at: String::new(),
            body,
        },
    )
    .unwrap();
    let words = |b: &Battle, id: UnitId| r.system.words(&b.state.units[&id]).summary;
    assert_eq!(words(&b, 4), "removed (its command disheartened)");
    let (edit, differences) = b
        .edit_roll(&r, seq, &f.situation, &spare[..], DiceSource::Physical)
        .unwrap();
    assert!(
        differences
            .iter()
            .any(|d| d.what == "Exp (#4)" && d.after == "in the line"),
        "{differences:?}"
    );
    let next = b.next_seq();
    b.record(
        &r,
        Event {
            seq: next,
            at: String::new(),
            body: edit,
        },
    )
    .unwrap();
    assert_eq!(words(&b, 4), "in the line");
    assert_eq!(words(&b, 2), "in the line");
}

/// DBMM contacts picked once: a friend of neither side, a bound of a side not fighting, two
/// friends behind one element and a friend on the enemy's flank in shooting are refused plainly
/// (R-DBMM-37, R-DBMM-38).
#[test]
fn dbmm_contacts_are_checked() {
    use referee_core::battle::{fight_with, Contacts};
    let (r, b) = battle(
        "dbmm",
        &[
            ("Bw", 0, json!({ "type": "Bw", "grade": "O" })),
            ("Bd 1", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 2", 1, json!({ "type": "Bd", "grade": "O" })),
            ("Bd 3", 1, json!({ "type": "Bd", "grade": "O" })),
        ],
    );
    let open =
        |action: &str, contacts: Contacts| fight_with(&r, &b.state, action, &[1], &[2], &contacts);
    let err = open(
        "close_combat",
        Contacts {
            bound_of: Some("Green".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.code, "fight.unknown_bound");
    assert_eq!(
        err.message,
        "It can be the bound of Red or of Blue here, not of Green."
    );
    let err = open(
        "close_combat",
        Contacts {
            behind: vec![3, 4],
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.code, "fight.too_many_units");
    let err = open(
        "close_combat",
        Contacts {
            behind: vec![2],
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.code, "fight.picked_twice");
    let err = open(
        "shooting",
        Contacts {
            on_enemy_flank: vec![3],
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.code, "fight.one_each");
    // Shot in Blue's bound, with Bd 2 behind the target: named for the outcomes.
    let f = open(
        "shooting",
        Contacts {
            bound_of: Some("Blue".into()),
            behind: vec![3],
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(f.situation["bound"], "target");
    assert_eq!(f.situation["target"]["behind"]["name"], "Bd 2");
    assert_eq!(f.targets["unit:Bd 2"], vec![3]);
    r.resolve("shooting", &f.situation, None).unwrap();
    // Another system's fights take no contacts.
    let (g, gb) = battle(
        "gts",
        &[
            (
                "A",
                0,
                json!({ "class": "infantry", "armour": "M", "weapon": "SP", "stands": 4 }),
            ),
            (
                "B",
                1,
                json!({ "class": "infantry", "armour": "M", "weapon": "SP", "stands": 4 }),
            ),
        ],
    );
    let err = fight_with(
        &g,
        &gb.state,
        "melee",
        &[1],
        &[2],
        &Contacts {
            bound_of: Some("Red".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.code, "fight.no_contacts");
}

/// The contacts an action offers the app are those its system opens: for each part it names, as
/// many as it says open and resolve, one more is refused, and a contact it does not name for a
/// part is refused; only a system that takes contacts names any (R-DBMM-38).
#[test]
fn the_contacts_an_action_offers_are_the_ones_it_opens() {
    use referee_core::battle::{fight_with, Contacts};
    use referee_core::rule_system::{ContactKind, FightPart};
    for system in ["itacs", "medieval", "gts"] {
        let r = ruleset(system);
        assert!(
            r.info
                .actions
                .iter()
                .all(|a| a.contacts.is_empty() && !a.asks_bound),
            "{system} takes no contacts"
        );
    }
    let units: Vec<(String, usize, Value)> = (0..2)
        .flat_map(|side| {
            (0..5).map(move |i| {
                // Red's front element shoots, so shooting opens too.
                let kind = if side == 0 && i == 0 { "Bw" } else { "Bd" };
                let stats = json!({ "type": kind, "grade": "O" });
                (format!("{kind} {side}{i}"), side, stats)
            })
        })
        .collect();
    let named: Vec<(&str, usize, Value)> = units
        .iter()
        .map(|(l, s, v)| (l.as_str(), *s, v.clone()))
        .collect();
    let (r, b) = battle("dbmm", &named);
    // Red's elements are 1–5, Blue's 6–10; each side's first fights in front.
    let friends = |part: FightPart, n: usize| -> Vec<UnitId> {
        let first = if part == FightPart::Attackers { 2 } else { 7 };
        (first..first + n as UnitId).collect()
    };
    let open = |kind: ContactKind, part: FightPart, n: usize, action: &str| {
        let (mut attackers, mut defenders) = (vec![1], vec![6]);
        let mut contacts = Contacts::default();
        let picked = friends(part, n);
        match (kind, part) {
            (ContactKind::Overlap, FightPart::Attackers) => attackers.extend(picked),
            (ContactKind::Overlap, FightPart::Defenders) => defenders.extend(picked),
            (ContactKind::Behind, _) => contacts.behind = picked,
            (ContactKind::OnEnemyFlank, _) => contacts.on_enemy_flank = picked,
        }
        fight_with(&r, &b.state, action, &attackers, &defenders, &contacts)
    };
    let mut offered = 0;
    for action in r.info.actions.iter().filter(|a| a.fights) {
        assert!(action.asks_bound, "{} asks whose bound it is", action.id);
        for kind in [
            ContactKind::Overlap,
            ContactKind::Behind,
            ContactKind::OnEnemyFlank,
        ] {
            for part in [FightPart::Attackers, FightPart::Defenders] {
                let info = action
                    .contacts
                    .iter()
                    .find(|c| c.kind == kind && c.parts.contains(&part));
                let Some(info) = info else {
                    assert!(
                        open(kind, part, 1, &action.id).is_err(),
                        "{}: {kind:?} for the {part:?} is not offered and not opened",
                        action.id
                    );
                    continue;
                };
                offered += 1;
                assert!(info.ruling.is_some() && !info.rule.is_empty());
                let most = info.at_most as usize;
                let f = open(kind, part, most, &action.id).unwrap_or_else(|e| {
                    panic!("{}: {most} × {kind:?} for the {part:?}: {e:?}", action.id)
                });
                r.resolve(&action.id, &f.situation, None).unwrap();
                assert!(
                    open(kind, part, most + 1, &action.id).is_err(),
                    "{}: one {kind:?} more than {most} for the {part:?} is refused",
                    action.id
                );
            }
        }
    }
    // Close combat: each of the three on both sides; shooting: a friend behind the target.
    assert_eq!(offered, 7);
}
