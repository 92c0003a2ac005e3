use serde_json::json;

use crate::battle::{fight, Battle, BattleSetup, DiceSource, Event, EventBody, Mapping, Subject};
use crate::contract::{Change, Target};
use crate::state::{Role, UnitId, UnitSpec};
use crate::systems::itacs::roster::ItacsUnit;
use crate::systems::test_support::load;
use crate::systems::Ruleset;

struct Table {
    ruleset: Ruleset,
    battle: Battle,
}

impl Table {
    fn new() -> Table {
        let ruleset = load("itacs");
        let setup = BattleSetup {
            name: "square".into(),
            ruleset: "itacs".into(),
            fingerprint: ruleset.info.fingerprint.clone(),
            sides: serde_json::from_value(json!([{"name": "Scots"}, {"name": "English"}])).unwrap(),
        };
        let battle = Battle::create(&ruleset, setup, "2026-11-26T19:00:00Z").unwrap();
        Table { ruleset, battle }
    }

    /// Records the event; the live state must equal a replay of every event.
    fn record(&mut self, body: EventBody) {
        let event = Event {
            seq: self.battle.next_seq(),
            at: "2026-11-26T19:01:00Z".into(),
            body,
        };
        self.battle.record(&self.ruleset, event).unwrap();
        let replayed = Battle::open(&self.ruleset, self.battle.events.clone()).unwrap();
        assert_eq!(replayed.state, self.battle.state, "live state ≠ replay");
    }

    fn add(&mut self, label: &str, side: &str, stats: serde_json::Value) -> UnitId {
        let spec = UnitSpec {
            label: label.into(),
            side: side.into(),
            command: None,
            role: Role::Unit,
            stats,
        };
        let body = self.battle.add_unit(&self.ruleset, spec).unwrap();
        let EventBody::UnitAdded { id, .. } = body else {
            panic!("a unit added")
        };
        self.record(body);
        id
    }

    fn adjust(&self, id: UnitId, change: Change) -> Result<EventBody, crate::RefereeError> {
        self.battle
            .adjust(&self.ruleset, Subject::Unit(id), change, None)
    }

    fn own(&self, id: UnitId) -> &ItacsUnit {
        self.battle.state.units[&id].detail().unwrap()
    }

    fn summary(&self, id: UnitId) -> String {
        let unit = &self.battle.state.units[&id];
        self.ruleset.system.words(unit).summary
    }

    fn edits(&self, id: UnitId) -> Vec<String> {
        let unit = &self.battle.state.units[&id];
        let words = self.ruleset.system.words(unit);
        words.quick_edits.into_iter().map(|q| q.label).collect()
    }
}

#[test]
fn a_square_forms_on_its_row_fights_as_one_and_a_d_result_breaks_and_marks_it() {
    let mut t = Table::new();
    let square = t.add(
        "Pikes",
        "Scots",
        json!({"type": "PP", "class": "A", "count": 4, "hex": "12.05"}),
    );
    let three = t.add(
        "Spears",
        "Scots",
        json!({"type": "PS", "count": 3, "hex": "14.05"}),
    );
    let knights = t.add(
        "Knights",
        "English",
        json!({"type": "HC", "count": 2, "hex": "12.04"}),
    );

    // Offered only where 2.6.1 allows it: 4 identical units of a type that forms squares.
    assert!(t.edits(square).contains(&"Form square".to_string()));
    assert!(!t.edits(three).iter().any(|e| e == "Form square"));
    assert!(!t.edits(knights).iter().any(|e| e == "Form square"));
    let e = t
        .adjust(three, Change::Square { formed: true })
        .unwrap_err();
    assert_eq!(e.code, "situation.invalid_square");
    assert!(e.message.contains("4 identical units"), "{}", e.message);

    let before = t.battle.state.clone();
    t.record(t.adjust(square, Change::Square { formed: true }).unwrap());
    assert!(t.own(square).square);
    assert!(t.summary(square).contains("square"));
    assert!(t.edits(square).contains(&"Leave square".to_string()));
    // Undo is exact, redo puts it back.
    t.record(t.battle.undo().unwrap());
    assert_eq!(t.battle.state.units, before.units);
    t.record(t.battle.redo().unwrap());
    assert!(t.own(square).square);

    // A melee opened from the roster on that hex takes the square from it: no ticking.
    let f = fight(&t.ruleset, &t.battle.state, "melee", &[knights], &[square]).unwrap();
    assert_eq!(f.situation["defenders"][0]["square"], json!(true));

    // A D result on the square: the same event ends it and marks the hex to restack, as 4 units
    // are over the stacking limit of 3.
    let situation = f.situation.clone();
    let dice = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| vec![a, b]))
        .find(|d| {
            let r = t.ruleset.resolve("melee", &situation, Some(d)).unwrap();
            r.outcome.as_ref().is_some_and(|o| {
                let on_square = |e: &&crate::contract::Effect| e.target == Target::Defender;
                let square: Vec<_> = o.effects.iter().filter(on_square).collect();
                square
                    .iter()
                    .any(|e| matches!(e.change, Change::DMarkers { .. }))
                    && !square
                        .iter()
                        .any(|e| matches!(e.change, Change::LoseUnits { .. } | Change::DestroyAll))
            })
        })
        .expect("a roll that gives D");
    let r = t.ruleset.resolve("melee", &situation, Some(&dice)).unwrap();
    let mapping = Mapping {
        units_moving: None,
        targets: f.targets.clone(),
        choices: Default::default(),
    };
    let before = t.battle.state.clone();
    let body = t
        .battle
        .apply(&t.ruleset, &r, &mapping, DiceSource::Physical, None, None)
        .unwrap();
    let EventBody::Applied { changes, .. } = &body else {
        panic!("applied")
    };
    let square_changes: Vec<&Change> = changes
        .iter()
        .filter(|c| c.subject == Subject::Unit(square) && c.rule == "2.6.1")
        .map(|c| &c.change)
        .collect();
    assert_eq!(
        square_changes,
        [
            &Change::Square { formed: false },
            &Change::MustRestack { needed: true }
        ]
    );
    t.record(body);
    assert!(!t.own(square).square);
    assert!(t.own(square).must_restack);
    assert!(t.own(square).d_markers >= 1);
    assert!(
        t.summary(square).contains(
            "broken square: must restack to the stacking limit at its next movement (2.6.1)"
        ),
        "{}",
        t.summary(square)
    );
    // Disrupted, it may not form a square again.
    assert!(!t.edits(square).iter().any(|e| e == "Form square"));

    // Undo takes the result and what it brought about back together.
    t.record(t.battle.undo().unwrap());
    assert_eq!(t.battle.state.units, before.units);
    t.record(t.battle.redo().unwrap());
    assert!(t.own(square).must_restack);

    // A unit lost brings the hex to the limit: the mark clears in that same event.
    t.record(
        t.adjust(
            square,
            Change::LoseUnits {
                count: 1,
                chosen_by: crate::contract::Chooser::Defender,
            },
        )
        .unwrap(),
    );
    assert!(!t.own(square).must_restack);
    assert!(!t.summary(square).contains("broken square"));
}

#[test]
fn a_square_is_alone_in_its_hex_but_for_leaders_and_a_loss_within_the_limit_needs_no_restack() {
    let mut t = Table::new();
    let square = t.add(
        "Pikes",
        "Scots",
        json!({"type": "PP", "class": "A", "count": 4, "hex": "12.05"}),
    );
    let friend = t.add(
        "Bows",
        "Scots",
        json!({"type": "LB", "count": 1, "hex": "12.05"}),
    );
    let e = t
        .adjust(square, Change::Square { formed: true })
        .unwrap_err();
    assert!(e.message.contains("also holds Bows"), "{}", e.message);
    assert_eq!(e.ruling.as_deref(), Some("R-ITACS-43"));
    t.record(
        t.adjust(
            friend,
            Change::EntersHex {
                hex: "13.05".into(),
            },
        )
        .unwrap(),
    );
    t.record(t.adjust(square, Change::Square { formed: true }).unwrap());

    // One unit lost: 3 remain, within the default limit of 3 — no longer a square, no mark.
    let body = t
        .adjust(
            square,
            Change::LoseUnits {
                count: 1,
                chosen_by: crate::contract::Chooser::Defender,
            },
        )
        .unwrap();
    t.record(body);
    assert!(!t.own(square).square);
    assert!(!t.own(square).must_restack);
}
