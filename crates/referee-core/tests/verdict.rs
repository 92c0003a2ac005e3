//! A battle's verdict for an event's standings, in every system: none before a result is in
//! force, then the side whose enemy was destroyed wins, the loser loses, and the verdict's
//! victory points and words match the system's own standing.

use std::collections::BTreeMap;

use referee_core::battle::{verdict, Battle, BattleSetup, Event, Subject};
use referee_core::contract::Change;
use referee_core::preset::{self, BUILTIN_PRESETS};
use referee_core::ruleset::{Layers, SourceFile};
use referee_core::state::Role;
use referee_core::systems::{builtin, Ruleset};
use referee_core::tournament::Outcome;
use serde_json::json;

fn ruleset(system: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin(system).unwrap(),
        house_rules: vec![],
    })
    .unwrap()
}

/// The first preset of a system, begun as a battle.
fn preset_battle(system: &str) -> (Ruleset, Battle) {
    let rulesets = BTreeMap::from([(system.to_string(), ruleset(system))]);
    let (name, text) = BUILTIN_PRESETS
        .iter()
        .find(|(name, _)| name.contains(&format!("/{system}-")))
        .unwrap();
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
}

/// Destroys every fighting unit of a side by the umpire's quick edit the unit's rules know.
fn destroy_side(r: &Ruleset, b: &mut Battle, side: &str) {
    let ids: Vec<_> = b
        .state
        .units
        .values()
        .filter(|u| u.side == side && u.role == Role::Unit && !u.lost)
        .map(|u| u.id)
        .collect();
    let changes: Vec<Change> = [
        json!({ "kind": "destroy_all" }),
        json!({ "kind": "element_fate", "fate": "destroyed" }),
    ]
    .into_iter()
    .map(|v| serde_json::from_value(v).unwrap())
    .collect();
    for id in ids {
        let body = changes
            .iter()
            .find_map(|c| b.adjust(r, Subject::Unit(id), c.clone(), None).ok())
            .unwrap_or_else(|| panic!("no quick edit destroys unit {id}"));
        let event = Event {
            seq: b.next_seq(),
            at: "2026-01-01T00:01:00Z".into(),
            body,
        };
        b.record(r, event).unwrap();
    }
}

#[test]
fn the_side_whose_enemy_is_destroyed_wins_in_every_system() {
    for system in ["itacs", "medieval", "gts", "dbmm"] {
        let (r, mut b) = preset_battle(system);
        assert_eq!(verdict(&r, &b.state), None, "{system}: no result yet");
        let [a, d] = [b.state.sides[0].name.clone(), b.state.sides[1].name.clone()];
        destroy_side(&r, &mut b, &d);
        let v = verdict(&r, &b.state).unwrap_or_else(|| panic!("{system}: a verdict"));
        let got: Vec<_> = v
            .sides
            .iter()
            .map(|s| (s.side.as_str(), s.outcome))
            .collect();
        assert_eq!(
            got,
            [(a.as_str(), Outcome::Win), (d.as_str(), Outcome::Loss)],
            "{system}: {}",
            v.words
        );
        let vp: Vec<f64> = v.sides.iter().map(|s| s.victory_points.unwrap()).collect();
        assert!(vp[0] > vp[1], "{system}: {vp:?}");
        assert!(v.words.ends_with('.'), "{system}: {}", v.words);
        assert!(!v.rule.is_empty(), "{system}");
    }
}

/// DBMM's 25 points: the defeated army's enemy takes the total less its own penalty points
/// (p. 43), and the two shares make 25.
#[test]
fn dbmm_victory_points_split_twenty_five() {
    let (r, mut b) = preset_battle("dbmm");
    let d = b.state.sides[1].name.clone();
    destroy_side(&r, &mut b, &d);
    let v = verdict(&r, &b.state).unwrap();
    let vp: Vec<f64> = v.sides.iter().map(|s| s.victory_points.unwrap()).collect();
    assert_eq!(vp[0] + vp[1], 25.0, "{vp:?}");
    assert_eq!(vp, [25.0, 0.0], "{}", v.words);
}
