//! A roster unit in the rules' words, as each system writes it: its type by name, its state, and
//! the changes the umpire may make by hand. The app shows these as they come (it knows no
//! system), so every system's words are pinned here, case by case.

use referee_core::battle::{Battle, BattleSetup, Event, EventBody, Role, Subject, UnitSpec};
use referee_core::contract::Change;
use referee_core::ruleset::Layers;
use referee_core::state::UnitState;
use referee_core::systems::{builtin, Ruleset};
use serde_json::{json, Value};

fn ruleset(system: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// The unit after these changes, entered as `stats` with `role` in a battle of `system`.
fn unit_after(system: &str, role: Role, stats: Value, changes: &[Change]) -> UnitState {
    let r = ruleset(system);
    let setup = BattleSetup {
        name: "words".into(),
        ruleset: system.into(),
        fingerprint: r.info.fingerprint.clone(),
        sides: serde_json::from_value(json!([{"name": "Romans"}, {"name": "Gauls"}])).unwrap(),
    };
    let spec = UnitSpec {
        label: "Legio I".into(),
        side: "Romans".into(),
        command: None,
        role,
        stats,
    };
    let mut b = Battle::create_with_units(&r, setup, &[spec], "2026-01-01T00:00:00Z").unwrap();
    for change in changes {
        // Straight onto the unit, as a result's change lands (a leader's wounds are no quick edit).
        let body = EventBody::Adjusted {
            changes: vec![referee_core::battle::AppliedChange {
                subject: Subject::Unit(1),
                change: change.clone(),
                text: String::new(),
                rule: "umpire".into(),
                ruling: None,
                follow_on: false,
            }],
            reason: None,
        };
        let seq = b.next_seq();
        b.record(
            &r,
            Event {
                seq,
                at: "2026-01-01T00:01:00Z".into(),
                body,
            },
        )
        .unwrap();
    }
    // Shown, as the app gets it: the words written by the system.
    r.worded(&b.state).units[&1].clone()
}

fn labels(u: &UnitState) -> Vec<&str> {
    u.words
        .quick_edits
        .iter()
        .map(|q| q.label.as_str())
        .collect()
}

#[test]
fn every_system_sums_a_unit_up_in_its_own_words() {
    let sd = json!({"type": "SD", "count": 4});
    let hoplites = hoplites();
    let cases: Vec<(&str, Role, Value, Vec<Change>, &str)> = vec![
        ("itacs", Role::Unit, sd.clone(), vec![], "4/4"),
        (
            "itacs",
            Role::Unit,
            sd.clone(),
            vec![Change::DMarkers { count: 2 }, Change::Rout],
            "4/4, 2 D, Rout",
        ),
        (
            "itacs",
            Role::Unit,
            sd.clone(),
            vec![Change::Break],
            "4/4, Break",
        ),
        (
            "itacs",
            Role::Unit,
            sd.clone(),
            vec![Change::DestroyAll],
            "0/4, lost",
        ),
        (
            "itacs",
            Role::Unit,
            sd.clone(),
            vec![Change::ThrowingWeaponsUsed],
            "4/4, threw",
        ),
        (
            "gts",
            Role::Unit,
            hoplites.clone(),
            vec![Change::Hits { count: 1 }],
            "4/4, 1 hit",
        ),
        (
            "gts",
            Role::Unit,
            hoplites.clone(),
            // 3.3: the conditions exclude one another; routing, it is no longer Disordered.
            vec![Change::Disorder, Change::RoutUnit],
            "4/4, Rout, rout move 6\" + panic dice",
        ),
        (
            "gts",
            Role::Unit,
            hoplites.clone(),
            vec![Change::LeaderSeriouslyWounded],
            "4/4, leader seriously wounded",
        ),
        (
            "gts",
            Role::Unit,
            hoplites.clone(),
            vec![Change::LeaderWounded, Change::LeaderWounded],
            "4/4, leader wounded 2 times",
        ),
        (
            "gts",
            Role::Unit,
            hoplites.clone(),
            vec![Change::LeaderDazed, Change::NearFallenLeader],
            "4/4, leader dazed, −1 for the fallen leader",
        ),
        (
            "medieval",
            Role::Unit,
            json!({"type": "heavy_cavalry", "sp": 2, "cf": 2}),
            vec![Change::ReduceChargeFactor { by: 1 }],
            "2/2, CF 1",
        ),
        (
            "medieval",
            Role::Unit,
            json!({"type": "heavy_cavalry", "sp": 2, "cf": 2}),
            vec![
                Change::LoseSp {
                    count: 1,
                    chosen_by: referee_core::contract::Chooser::Defender,
                },
                Change::Scatter,
            ],
            "1/2, scattered, CF 2",
        ),
        (
            "dbmm",
            Role::Unit,
            json!({"type": "Kn", "grade": "O", "general": true}),
            vec![],
            "general, in the line",
        ),
        (
            "dbmm",
            Role::Unit,
            json!({"type": "Kn", "grade": "O", "general": true}),
            vec![Change::ElementFate {
                fate: referee_core::fate::Fate::OffTable.into(),
            }],
            "general, off table",
        ),
        (
            "itacs",
            Role::Leader,
            json!({"bonus": 2}),
            vec![Change::LeaderCaptured],
            "captured, bonus 2",
        ),
        (
            "medieval",
            Role::Unit,
            json!({"type": "cavalry", "sp": 2, "banner": true}),
            vec![Change::Banner {
                held: false,
                count: None,
            }],
            "2/2, CF 0",
        ),
        (
            "medieval",
            Role::Leader,
            json!({"range": 2}),
            vec![Change::Fatigue { by: 1 }, Change::LeaderKilled],
            "lost, killed, fatigue 1",
        ),
        (
            "gts",
            Role::Leader,
            json!({"pv": 1, "leads": "Immortals"}),
            vec![Change::LeaderDazed],
            "leads Immortals, leader dazed",
        ),
        (
            "itacs",
            Role::Leader,
            json!({"type": "2L", "bonus": 2, "control_range": 3, "hex": "17.03"}),
            vec![],
            "bonus 2, range 3",
        ),
    ];
    for (system, role, stats, changes, summary) in cases {
        let u = unit_after(system, role, stats, &changes);
        assert_eq!(u.words.summary, summary, "{system} after {changes:?}");
    }
}

fn hoplites() -> Value {
    json!({"class": "infantry", "weapon": "SP", "armour": "M", "stands": 4})
}

#[test]
fn every_system_names_a_unit_by_its_type_and_offers_its_quick_edits() {
    let cases: Vec<(&str, Role, Value, &str, Vec<&str>)> = vec![
        (
            "itacs",
            Role::Unit,
            json!({"type": "SD", "count": 4}),
            "Swordsmen (SD)",
            // 4 identical SD, not disrupted: they may form a square (2.6.1, R-ITACS-43).
            vec!["+D", "−D", "−1 unit", "Break", "Rout", "Form square"],
        ),
        (
            "medieval",
            Role::Unit,
            json!({"type": "heavy_cavalry", "sp": 2, "cf": 2}),
            "Heavy cavalry",
            vec!["−1 SP", "CF −1", "Scatter", "Takes a banner"],
        ),
        (
            "medieval",
            Role::Unit,
            json!({"type": "crossbowmen", "sp": 2, "banner": false}),
            "Crossbowmen",
            vec!["−1 SP", "CF −1", "Scatter", "To movement formation"],
        ),
        (
            "medieval",
            Role::Leader,
            json!({"grand": true, "hex": "12.05", "fatigue": 1}),
            "Grand leader",
            vec!["Fatigue +1", "Fatigue −1"],
        ),
        (
            "gts",
            Role::Unit,
            json!({"class": "infantry", "weapon": "SP", "armour": "M", "stands": 4}),
            "Infantry, Spear (SP), Medium armour (M)",
            vec![
                "+1 hit",
                "Disorder",
                "Rout",
                "Remove",
                "Move",
                "Pass through…",
            ],
        ),
        (
            "dbmm",
            Role::Unit,
            json!({"type": "Bd", "grade": "S", "irr": true}),
            "Irr Blades (Bd), Superior (S)",
            vec![
                "Destroyed",
                "Spent",
                "Off table",
                "Sees a broken command within 800p",
                "Pass through…",
            ],
        ),
        // 6.25: a leader with no unit is moved up to 10" when an enemy unit contacts him.
        (
            "gts",
            Role::Leader,
            json!({}),
            "Leader",
            vec!["Contacted by the enemy"],
        ),
        // 1.3: "a typical leader tag would be: Army Leonidas 3(E) +2".
        (
            "gts",
            Role::Leader,
            json!({"pc": 3, "ts": "E", "pv": 2, "leads": "Spartans"}),
            "Leader 3(E) +2",
            // 1.2: his command points rolled from his row (R-GTS-40).
            vec!["Command points"],
        ),
        (
            "itacs",
            Role::Leader,
            json!({"type": "2L", "bonus": 2}),
            "Leader (2L)",
            vec![],
        ),
    ];
    for (system, role, stats, type_name, quick) in cases {
        let u = unit_after(system, role, stats, &[]);
        assert_eq!(u.words.type_name, type_name, "{system}");
        assert_eq!(labels(&u), quick, "{system}");
    }
    // Where the system places units, the place is part of the words: ITACS stacks by hex (2.4).
    let placed = |role, stats| unit_after("itacs", role, stats, &[]).words.place;
    assert_eq!(
        placed(
            Role::Unit,
            json!({"type": "SD", "count": 4, "hex": "17.03"})
        )
        .as_deref(),
        Some("Hex 17.03")
    );
    assert_eq!(
        placed(Role::Leader, json!({"type": "2L", "hex": 1703})).as_deref(),
        Some("Hex 1703")
    );
    assert_eq!(placed(Role::Unit, json!({"type": "SD", "count": 4})), None);
    // And Medieval stacks by hex (4.5): a leader on a hex is stacked with its units (8.2.1).
    assert_eq!(
        unit_after("medieval", Role::Leader, json!({"hex": "12.05"}), &[])
            .words
            .place
            .as_deref(),
        Some("Hex 12.05")
    );
    assert_eq!(
        unit_after("gts", Role::Unit, hoplites(), &[]).words.place,
        None
    );
    // The quick edits are the system's own changes, and a lost unit offers none.
    let hoplites = hoplites();
    let gts = unit_after("gts", Role::Unit, hoplites.clone(), &[]);
    assert_eq!(gts.words.quick_edits[0].change, Change::Hits { count: 1 });
    let broken = unit_after(
        "itacs",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
        &[Change::Break],
    );
    assert_eq!(labels(&broken)[3], "Unbreak");
    // A routing stack's rout ends (5.3.2) or it routs off the map, destroyed (5.3.3).
    let routed = unit_after(
        "itacs",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
        &[Change::Rout],
    );
    assert_eq!(&labels(&routed)[4..], ["Rout ends", "Routs off the map"]);
    let off = routed
        .words
        .quick_edits
        .iter()
        .find(|q| q.label == "Routs off the map")
        .unwrap()
        .change
        .clone();
    let gone = unit_after(
        "itacs",
        Role::Unit,
        json!({"type": "SD", "count": 4}),
        &[Change::Rout, off],
    );
    assert!(gone.lost && gone.strength == 0, "{gone:?}");
    let lost = unit_after("gts", Role::Unit, hoplites, &[Change::DestroyAll]);
    assert!(lost.words.quick_edits.is_empty());
}

#[test]
fn a_unit_offers_its_entry_as_entered_for_the_editor() {
    // Worn down, the unit's entry is still the one it began with: an edit keeps its losses.
    let u = unit_after(
        "itacs",
        Role::Unit,
        json!({"type": "SD", "count": 4, "elite": true}),
        &[Change::LoseUnits {
            count: 1,
            chosen_by: referee_core::contract::Chooser::Defender,
        }],
    );
    let shown = serde_json::to_value(&u).unwrap();
    assert_eq!(
        shown["detail"]["entry"],
        json!({"type": "SD", "count": 4, "elite": true})
    );
    assert_eq!(shown["summary"], "3/4");
    let hoplites = hoplites();
    let g = unit_after(
        "gts",
        Role::Unit,
        hoplites.clone(),
        &[Change::Hits { count: 2 }],
    );
    assert_eq!(
        serde_json::to_value(&g).unwrap()["detail"]["entry"],
        hoplites
    );
    let notes = unit_after("itacs", Role::Leader, json!({"range": 3}), &[]);
    assert_eq!(
        serde_json::to_value(&notes).unwrap()["detail"]["entry"],
        json!({"range": 3})
    );
}

/// Every field a system's unit entry takes is the form's or one it keeps as it is: a unit with any
/// of them can be previewed and edited in the app.
#[test]
fn every_field_of_a_unit_entry_is_the_forms_or_kept() {
    use referee_core::systems::{dbmm, gts, itacs, medieval};
    let entries = [
        ("itacs", schemars::schema_for!(itacs::situation::UnitEntry)),
        ("medieval", schemars::schema_for!(medieval::units::MedUnit)),
        ("gts", schemars::schema_for!(gts::units::UnitEntry)),
        ("dbmm", schemars::schema_for!(dbmm::element::Element)),
    ];
    for (system, schema) in entries {
        let r = ruleset(system);
        let form = r.unit_form();
        let mut known: Vec<&str> = form.fields.iter().map(|f| f.key.as_str()).collect();
        known.extend(r.system.other_keys());
        let schema = serde_json::to_value(&schema).unwrap();
        for key in schema["properties"].as_object().unwrap().keys() {
            assert!(
                known.contains(&key.as_str()),
                "{system}: {key} is neither asked nor kept"
            );
        }
    }
}
