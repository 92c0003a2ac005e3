use proptest::prelude::*;
use serde_json::{json, Value};

use crate::ruleset::{Layers, SourceFile};
use crate::systems::test_support::{chance, effects, load};
use crate::systems::{builtin, switch, Ruleset};

fn itacs() -> Ruleset {
    load("itacs")
}

/// The built-in ITACS data, for unit tests of single mechanics.
pub fn itacs_data() -> crate::systems::itacs::ItacsData {
    itacs()
        .data::<crate::systems::itacs::Itacs>()
        .expect("the ITACS ruleset loads as ITACS")
        .clone()
}

/// ITACS with one of the built-in switchable rulings in force.
fn with_switch(name: &str) -> Ruleset {
    Ruleset::load(&Layers {
        base: builtin("itacs").unwrap(),
        house_rules: vec![switch(name).unwrap()],
    })
    .unwrap()
}

fn refused(action: &str, situation: Value) -> crate::RefereeError {
    itacs().resolve(action, &situation, None).unwrap_err()
}

fn fire(units: Value, target: Value) -> Value {
    json!({ "firing_hexes": [{ "range": 1, "units": units }], "target": target })
}

fn melee(attack: &str, defence: &str, terrain: &str) -> Value {
    json!({
        "attackers": [{ "units": [{ "class": "A", "combat": attack }] }],
        "defenders": [{ "terrain": terrain, "units": [{ "class": "A", "combat": defence }] }]
    })
}

#[test]
fn the_melee_example_has_exact_odds() {
    // +6 on 2d6: DX needs a modified 10, a roll of 4 or more: 33/36.
    let r = itacs()
        .resolve(
            "melee",
            &json!({
                // The example's 6 SD stand in three hexes (4.3.3: at most 3 in a hex).
                "attackers": [
                    { "rear": true, "units": [{ "type": "SD", "count": 2 }] },
                    { "units": [{ "type": "SD", "count": 2 }] },
                    { "units": [{ "type": "SD", "count": 2 }] }
                ],
                "defenders": [{ "terrain": "clear", "units": [{ "type": "PS", "count": 2 }] }]
            }),
            None,
        )
        .unwrap();
    let dx = r.distribution.iter().find(|d| d.result == "DX").unwrap();
    assert_eq!(dx.probability, "11/12");
    assert_eq!(dx.rolls, "10–18");
    let d2xb = r.distribution.iter().find(|d| d.result == "D2XB").unwrap();
    assert_eq!(d2xb.probability, "1/12"); // rolls 2 and 3: 1/36 + 2/36
    let a1x = r.distribution.iter().find(|d| d.result == "A1X").unwrap();
    assert_eq!(a1x.probability, "0/1");
}

#[test]
fn bad_input_gets_a_typed_error_naming_the_field() {
    let target = json!({ "terrain": "clear", "units": [{ "type": "PS" }] });
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "missile",
            fire(json!([{ "type": "LB", "fire": -3 }]), target.clone()),
            "situation.invalid_field",
            "firing_hexes[0].units[0].fire",
        ),
        (
            "missile",
            fire(json!([{ "type": "LB", "fire": "lots" }]), target.clone()),
            "situation.invalid_field",
            "firing_hexes[0].units[0].fire",
        ),
        (
            "missile",
            fire(json!([{ "type": "PS" }]), target.clone()),
            "situation.zero_fire_strength",
            "firing_hexes",
        ),
        (
            "missile",
            fire(json!([{ "type": "XX" }]), target.clone()),
            "situation.unknown_unit_type",
            "firing_hexes[0].units[0].type",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "lava", "units": [{ "type": "PS" }] }),
            ),
            "situation.unknown_terrain",
            "target.terrain",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "mountain", "units": [{ "type": "PS" }] }),
            ),
            "situation.impassable",
            "target.terrain",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "clear", "units": [{ "type": "PS", "count": 5 }] }),
            ),
            "situation.stacking_off_table",
            "target.units",
        ),
        (
            "missile",
            fire(
                json!([{ "type": "LB" }]),
                json!({ "terrain": "clear", "units": [] }),
            ),
            "situation.no_units",
            "target.units",
        ),
        (
            "missile",
            json!({ "firing_hexes": [{ "range": 0, "units": [{ "type": "LB" }] }], "target": target.clone() }),
            "situation.invalid_range",
            "firing_hexes[0].range",
        ),
        (
            "defensive_fire",
            json!({ "firing_hexes": [{ "range": 2, "units": [{ "type": "LB" }] }], "target": target.clone() }),
            "situation.out_of_range",
            "firing_hexes[0].range",
        ),
        (
            "missile",
            fire(json!([{ "class": "Q", "fire": 3 }]), target.clone()),
            "situation.unknown_unit_class",
            "firing_hexes[0].units[0].class",
        ),
        (
            "missile",
            fire(json!([{ "class": "E", "fire": 3 }]), target.clone()),
            "situation.leader_as_unit",
            "firing_hexes[0].units[0].class",
        ),
        (
            "missile",
            json!({ "firing_hexes": [], "target": target.clone() }),
            "situation.no_units",
            "firing_hexes",
        ),
        (
            "missile",
            json!({ "target": target.clone() }),
            "situation.invalid_field",
            // A missing field is named itself.
            "firing_hexes",
        ),
        (
            "melee",
            melee("4", "0", "clear"),
            "situation.zero_defence",
            "defenders",
        ),
        (
            "melee",
            melee("four", "4", "clear"),
            "situation.invalid_strength",
            "attackers[0].units[0].combat",
        ),
        (
            "melee",
            melee("4", "4", "water"),
            "situation.terrain_closed",
            "defenders[0].terrain",
        ),
        (
            "melee",
            melee("4", "4", "wall"),
            "situation.melee_not_allowed",
            "attack_from",
        ),
        (
            "melee",
            json!({ "attackers": [{ "disrupted": true, "units": [{ "type": "PS" }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.disrupted_attacker",
            "attackers[0].disrupted",
        ),
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "MS", "combat": "3" }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.missing_class",
            "attackers[0].units[0].class",
        ),
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "PS" }] }], "defenders": [{ "terrain": "clear", "square": true, "units": [{ "type": "PS", "count": 3 }] }] }),
            "situation.invalid_square",
            "defenders[0].square",
        ),
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "PS", "count": 0 }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.invalid_count",
            "attackers[0].units[0].count",
        ),
        // No hex holds more than 4 units (4.3.3), attacking as well as defending (issue 31 item 8).
        (
            "melee",
            json!({ "attackers": [{ "units": [{ "type": "SD", "count": 100 }] }], "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }] }),
            "situation.over_stacked",
            "attackers[0].units",
        ),
        (
            "missile",
            json!({ "firing_hexes": [{ "range": 1, "units": [{ "type": "LB", "count": 5 }] }], "target": { "terrain": "clear", "units": [{ "type": "SD" }] } }),
            "situation.over_stacked",
            "firing_hexes[0].units",
        ),
        ("charge", json!({}), "action.unknown", "action"),
    ];
    for (action, situation, code, field) in cases {
        let e = refused(action, situation.clone());
        assert_eq!(e.code, code, "{situation}: {}", e.one_line());
        assert_eq!(
            e.field.as_deref().unwrap_or(""),
            field,
            "{situation}: {}",
            e.one_line()
        );
        assert!(!e.message.is_empty());
    }
}

#[test]
fn bad_dice_are_refused() {
    let s = melee("4", "4", "clear");
    for dice in [vec![7, 1], vec![3], vec![0, 2]] {
        let e = itacs().resolve("melee", &s, Some(&dice)).unwrap_err();
        assert_eq!(e.code, "dice.invalid");
    }
}

#[test]
fn below_the_lowest_column_is_flagged_or_forbidden() {
    let r = itacs()
        .resolve("melee", &melee("1", "3", "clear"), None)
        .unwrap();
    assert!(r
        .notes
        .iter()
        .any(|n| n.message.contains("below the lowest column")));
    assert_eq!(r.modifiers[0].label, "Combat ratio (1:2)");
    // The switchable ruling as shipped (Settings puts it in force).
    let forbid = with_switch("rulesets/switches/itacs-forbid-below-lowest-column.toml");
    let e = forbid
        .resolve("melee", &melee("1", "3", "clear"), None)
        .unwrap_err();
    assert_eq!(e.code, "situation.below_lowest_column");
    assert_eq!(e.ruling.as_deref(), Some("R-ITACS-1"));
}

#[test]
fn leaders_bonus_is_capped_at_the_formations_strength() {
    let s = json!({
        "attackers": [{ "units": [{ "type": "LB" }] }],
        "defenders": [{ "terrain": "clear", "units": [{ "type": "PS" }] }],
        "attacker_leader_bonus": 3
    });
    let r = itacs().resolve("melee", &s, None).unwrap();
    let bonus = r
        .totals
        .iter()
        .find(|t| t.label == "Attacker leader bonus")
        .unwrap();
    assert_eq!(bonus.value, "+1 (capped at the attacker's strength)");
    assert_eq!(r.totals[0].value, "2"); // a lone dot (1) + capped bonus (1)
}

#[test]
fn squares_break_attackers_on_ad_and_a1x_and_have_no_rear() {
    let s = json!({
        "attackers": [{ "rear": true, "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "clear", "square": true, "units": [{ "type": "PS", "count": 4 }] }]
    });
    let r = itacs().resolve("melee", &s, Some(&[1, 1])).unwrap();
    assert!(!r.modifiers.iter().any(|m| m.label == "Rear attack"));
    assert!(r.notes.iter().any(|n| n.message.contains("no rear")));
    let o = r.outcome.unwrap();
    assert_eq!(o.result, "AD"); // 1:4 resolved on 1:2 (-1), 2 - 1 = 1
    assert!(o
        .effects
        .iter()
        .any(|e| e.text == "Attacker: must break (Break marker, rout move after combat)"));
}

#[test]
fn mounted_defenders_in_a_village_and_walls_from_walls_use_zero() {
    let s = json!({
        "attackers": [{ "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "village", "units": [{ "type": "HC" }] }]
    });
    let r = itacs().resolve("melee", &s, None).unwrap();
    assert_eq!(r.modifiers[1].value, 0);
    let s = json!({
        "attack_from": "wall",
        "attackers": [{ "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "wall", "units": [{ "type": "PS" }] }]
    });
    assert_eq!(
        itacs().resolve("melee", &s, None).unwrap().modifiers[1].value,
        0
    );
    let s = json!({
        "attack_from": "ladder_or_tower",
        "attackers": [{ "units": [{ "type": "PS" }] }],
        "defenders": [{ "terrain": "wall", "units": [{ "type": "PS" }] }]
    });
    assert_eq!(
        itacs().resolve("melee", &s, None).unwrap().modifiers[1].value,
        -6
    );
}

#[test]
fn hills_take_the_examples_minus_4_or_with_the_switch_the_charts_minus_6() {
    let into_hills = fire(
        json!([{ "type": "LB", "count": 2 }]),
        json!({ "terrain": "hills", "units": [{ "type": "LB" }] }),
    );
    let terrain = |r: &crate::Resolution| {
        r.modifiers
            .iter()
            .find(|m| m.rule.contains("10.3"))
            .map(|m| (m.value, m.ruling.clone()))
    };
    let example = itacs().resolve("missile", &into_hills, None).unwrap();
    assert_eq!(terrain(&example), Some((-4, Some("R-ITACS-8".into()))));
    let chart = with_switch("rulesets/switches/itacs-hills-missile-chart.toml")
        .resolve("missile", &into_hills, None)
        .unwrap();
    assert_eq!(terrain(&chart), Some((-6, Some("R-ITACS-8".into()))));
    assert_eq!(chart.total_modifier, example.total_modifier - 2);
}

#[test]
fn shields_count_unless_a_firer_is_in_the_rear() {
    let front = fire(
        json!([{ "type": "LB", "count": 2 }]),
        json!({ "terrain": "clear", "units": [{ "type": "SD" }] }),
    );
    let r = itacs().resolve("missile", &front, None).unwrap();
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label == "Shields" && m.value == -2));
    let mut rear = front.clone();
    rear["firing_hexes"][0]["rear"] = json!(true);
    let r = itacs().resolve("missile", &rear, None).unwrap();
    assert!(!r.modifiers.iter().any(|m| m.label == "Shields"));
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label == "Rear attack" && m.value == 1));
}

fn p_of(r: &crate::Resolution, result: &str) -> (u128, u128) {
    let s = &r
        .distribution
        .iter()
        .find(|d| d.result == result)
        .unwrap()
        .probability;
    let (n, d) = s.split_once('/').unwrap();
    (n.parse().unwrap(), d.parse().unwrap())
}

fn at_least(a: (u128, u128), b: (u128, u128)) -> bool {
    a.0 * b.1 >= b.0 * a.1
}

proptest! {
    #[test]
    fn more_attack_strength_never_makes_dx_less_likely(attack in 1u32..40, extra in 1u32..10, defence in 1u32..20) {
        let ruleset = itacs();
        let weaker = ruleset.resolve("melee", &melee(&attack.to_string(), &defence.to_string(), "clear"), None).unwrap();
        let stronger = ruleset.resolve("melee", &melee(&(attack + extra).to_string(), &defence.to_string(), "clear"), None).unwrap();
        prop_assert!(at_least(p_of(&stronger, "DX"), p_of(&weaker, "DX")));
        let sum = stronger.distribution.iter().map(|d| d.p).sum::<f64>();
        prop_assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn more_fire_strength_never_makes_dx_less_likely(fire_strength in 1u32..20, extra in 1u32..10, stacked in 1u32..5) {
        let ruleset = itacs();
        let target = json!({ "terrain": "clear", "units": [{ "type": "PS", "count": stacked }] });
        let weaker = ruleset.resolve("missile", &fire(json!([{ "class": "Ff", "fire": fire_strength }]), target.clone()), None).unwrap();
        let stronger = ruleset.resolve("missile", &fire(json!([{ "class": "Ff", "fire": fire_strength + extra }]), target), None).unwrap();
        prop_assert!(at_least(p_of(&stronger, "DX"), p_of(&weaker, "DX")));
    }
}

fn resolved(action: &str, situation: Value) -> crate::Resolution {
    itacs()
        .resolve(action, &situation, None)
        .unwrap_or_else(|e| panic!("{action}: {}", e.one_line()))
}

#[test]
fn melee_forecast_counts_the_d_markers_already_there() {
    // 8:8 at +0 against two units with 2 D markers. By hand, of 36:
    // AD 1 (disrupted), *D 2 + DD 7 + D1X 11 (4 D markers: rout), D2XB 9 + DX 6 (destroyed).
    let r = resolved(
        "melee",
        json!({
            "attackers": [{ "units": [{ "class": "A", "combat": "4", "count": 2 }] }],
            "defenders": [{ "terrain": "clear", "d_markers": 2,
                            "units": [{ "class": "A", "combat": "4", "count": 2 }] }]
        }),
    );
    assert_eq!(chance(&r, "Defending hex 1 is destroyed"), "5/12");
    assert_eq!(chance(&r, "Defending hex 1 routs"), "5/9");
    assert_eq!(chance(&r, "Defending hex 1 ends disrupted"), "1/36");
    // The attackers: AD, *D and D2XB disrupt them (1 + 2 + 9 of 36).
    assert_eq!(chance(&r, "The attacking side ends disrupted"), "1/3");
    assert_eq!(chance(&r, "The attacking side is unaffected"), "2/3");
}

#[test]
fn missile_forecast_routs_a_hex_with_one_d_marker_on_any_dd() {
    // Range 1, 9 fire strength (+1), one unit (−2), clear: −1. 2d6−1: "-" on a roll of 2
    // (1/36), DD on 3–9 (29/36), D1X on 10–11 (5/36) destroys the single unit, DX on 12 (1/36).
    let r = resolved(
        "missile",
        json!({
            "firing_hexes": [{ "range": 1, "units": [{ "type": "LB", "count": 3 }] }],
            "target": { "terrain": "clear", "d_markers": 1, "units": [{ "class": "B", "combat": "4" }] }
        }),
    );
    assert_eq!(r.total_modifier, -1);
    assert_eq!(chance(&r, "The target hex routs"), "29/36");
    assert_eq!(chance(&r, "The target hex is destroyed"), "1/6");
    assert_eq!(chance(&r, "The target hex ends disrupted"), "1/36");
}

#[test]
fn elephants_are_never_forecast_to_rout() {
    let r = resolved(
        "missile",
        json!({
            "firing_hexes": [{ "range": 1, "units": [{ "type": "LB", "count": 3 }] }],
            "target": { "terrain": "clear", "d_markers": 2, "units": [{ "type": "EL", "class": "D", "combat": "6" }] }
        }),
    );
    assert!(r.forecast.iter().all(|c| !c.label.ends_with("routs")));
}

#[test]
fn a_square_must_be_undisrupted_and_identical() {
    let square = |d: u32, units: Value| {
        json!({
            "attackers": [{ "units": [{ "type": "SD", "count": 4 }] }],
            "defenders": [{ "terrain": "clear", "square": true, "d_markers": d, "units": units }]
        })
    };
    let e = refused(
        "melee",
        square(1, json!([{ "type": "PP", "class": "A", "count": 4 }])),
    );
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.invalid_square", Some("2.6.1"))
    );
    let e = refused(
        "melee",
        square(
            0,
            json!([{ "type": "PP", "class": "A", "count": 2 }, { "type": "PS", "count": 2 }]),
        ),
    );
    assert_eq!(e.code, "situation.invalid_square");
}

#[test]
fn cavalry_cannot_stand_on_a_wall_and_land_units_not_at_sea() {
    let e = refused(
        "move",
        json!({ "unit": { "type": "LC", "movement": 8 }, "path": [{ "terrain": "wall" }] }),
    );
    assert_eq!(e.code, "situation.terrain_closed");
    assert_eq!(e.field.as_deref(), Some("path[0].terrain"));
    let e = refused(
        "missile",
        fire(
            json!([{ "type": "LB" }]),
            json!({ "terrain": "water", "units": [{ "type": "PS" }] }),
        ),
    );
    assert_eq!(e.code, "situation.terrain_closed");
}

#[test]
fn entering_a_disrupted_hex_disrupts_and_stops() {
    let step = |d: u32| json!({ "terrain": "clear", "d_markers": d });
    let r = resolved(
        "move",
        json!({ "unit": { "type": "SD" }, "path": [step(0), step(2)] }),
    );
    assert_eq!(r.outcome.unwrap().result, "disrupted");
    let e = refused(
        "move",
        json!({ "unit": { "type": "SD" }, "path": [step(2), step(0)] }),
    );
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("situation.must_stop", Some("path[0].d_markers"))
    );
    let e = refused(
        "move",
        json!({ "unit": { "type": "SD" }, "disrupted": true, "path": [step(0)] }),
    );
    assert_eq!(e.code, "situation.disrupted_move");
    // A break move from a hex without D markers stops in one with them too (5.1); a disrupted
    // unit routing is disrupted already and goes on.
    let e = refused(
        "move",
        json!({ "unit": { "type": "SD" }, "kind": "break", "path": [step(1), step(0)] }),
    );
    assert_eq!(e.code, "situation.must_stop");
    let r = resolved(
        "move",
        json!({ "unit": { "type": "SD" }, "kind": "break", "path": [step(0), step(1)] }),
    );
    assert_eq!(r.outcome.unwrap().result, "disrupted");
    resolved(
        "move",
        json!({ "unit": { "type": "SD" }, "kind": "rout", "disrupted": true, "path": [step(1), step(0)] }),
    );
}

/// A move whose hexes are named lands where it ends on the roster (4.3), with the D markers of
/// the hex it joins (5.0, 5.1); off the map it lands nowhere but destroyed (5.3.3); unnamed
/// hexes (a move entered by hand) move no roster entry.
#[test]
fn a_move_lands_its_last_hex_and_the_d_markers_it_joins() {
    use crate::contract::Change;
    let step = |label: &str, d: u32| json!({ "label": label, "terrain": "clear", "d_markers": d });
    let changes = |s: Value| -> Vec<(String, Change)> {
        resolved("move", s)
            .outcome
            .unwrap()
            .effects
            .into_iter()
            .map(|e| (e.rule, e.change))
            .collect()
    };
    let hex = |h: &str| Change::EntersHex { hex: h.into() };
    assert_eq!(
        changes(json!({ "unit": { "type": "SD" }, "path": [step("18.05", 0), step("18.06", 2)] })),
        [
            ("4.3.1".to_string(), hex("18.06")),
            ("5.1".to_string(), Change::DMarkers { count: 2 })
        ]
    );
    // A disrupted unit routing into a marked hex is disrupted already: its own markers stay.
    assert_eq!(
        changes(
            json!({ "unit": { "type": "SD" }, "kind": "rout", "disrupted": true, "path": [step("18.05", 1)] })
        ),
        [("4.3.1".to_string(), hex("18.05"))]
    );
    // A break move takes its Break marker off (5.2.1).
    assert_eq!(
        changes(
            json!({ "unit": { "type": "SD" }, "kind": "break", "disrupted": true, "path": [step("18.05", 1)] })
        ),
        [
            ("4.3.1".to_string(), hex("18.05")),
            ("5.2.1".to_string(), Change::RemoveBreak)
        ]
    );
    let edge = json!({ "label": "1.01", "terrain": "clear", "map_edge": true });
    assert_eq!(
        changes(
            json!({ "unit": { "type": "SD" }, "kind": "rout", "disrupted": true, "path": [edge] })
        ),
        [("5.3.3".to_string(), Change::DestroyAll)]
    );
    let unnamed = changes(json!({ "unit": { "type": "SD" }, "path": [{ "terrain": "clear" }] }));
    assert!(unnamed.is_empty(), "{unnamed:?}");
}

#[test]
fn rout_moves_pay_no_facing_and_break_moves_lose_a_point() {
    let path = json!([{ "terrain": "clear", "facing_changes": 2 }, { "terrain": "clear" }]);
    let r = resolved(
        "move",
        json!({ "unit": { "type": "SD" }, "kind": "rout", "disrupted": true, "path": path }),
    );
    assert!(r.totals.iter().any(|t| t.value == "2 of 4"));
    let four = json!([{ "terrain": "clear" }, { "terrain": "clear" }, { "terrain": "clear" }, { "terrain": "clear" }]);
    let e = refused(
        "move",
        json!({ "unit": { "type": "SD" }, "kind": "break", "path": four }),
    );
    assert_eq!(e.code, "situation.out_of_movement");
    // Disrupted, a breaking unit moves its full allowance (5.2).
    resolved(
        "move",
        json!({ "unit": { "type": "SD" }, "kind": "break", "disrupted": true, "path": four }),
    );
}

#[test]
fn leaders_clear_their_formation_at_the_end_of_movement() {
    let r = resolved(
        "end_of_movement",
        json!({ "hexes": [
            { "label": "A", "formation": "pikes", "d_markers": 2, "leaders": [{ "label": "2L", "control_range": 2 }] },
            { "label": "B", "formation": "pikes", "d_markers": 1, "rout": true, "leader_distances": { "2L": 2 } },
            { "label": "C", "formation": "pikes", "d_markers": 1, "rout": true, "leader_distances": { "2L": 3 } },
            { "label": "D", "formation": "bows", "d_markers": 1, "leader_distances": { "2L": 1 } },
            { "label": "E", "break": true },
            { "label": "F", "break": true, "moving_player": false }
        ]}),
    );
    assert_eq!(
        effects(&r),
        vec![
            "Hex A: remove 1 D marker",
            "Hex B: remove 1 D marker",
            "Hex B: remove the Rout marker",
            // Out of range for D markers, but rout removal covers the whole formation (5.3.2).
            "Hex C: remove the Rout marker",
            "Hex E: remove the Break marker",
        ]
    );
    let e = refused(
        "end_of_movement",
        json!({ "hexes": [{ "label": "A", "leader_distances": { "3L": 1 } }] }),
    );
    assert_eq!(e.code, "situation.unknown_leader");
}

#[test]
fn recovery_removes_one_d_marker_per_hex_but_not_a_rampaging_elephants() {
    let r = resolved(
        "recovery",
        json!({ "hexes": [
            { "label": "A", "d_markers": 3, "rout": true },
            { "label": "B" },
            { "label": "EL", "d_markers": 2, "rampaging": true }
        ]}),
    );
    assert_eq!(effects(&r), vec!["Hex A: remove 1 D marker"]);
    assert!(r.notes.iter().any(|n| n.rule == "6.9.2"));
}

#[test]
fn withdraw_needs_three_more_movement_points_than_the_fastest_attacker() {
    let w = |def: u32| {
        resolved(
            "withdraw",
            json!({ "defenders": [{ "type": "LC", "movement": def }, { "type": "LC", "movement": 9 }],
                    "attackers": [{ "type": "SD" }, { "type": "MS" }] }),
        )
        .outcome
        .unwrap()
        .result
    };
    assert_eq!(w(7), "may_withdraw"); // 7 ≥ 4 + 3
    assert_eq!(w(6), "may_not_withdraw");
    let e = refused(
        "withdraw",
        json!({ "defenders": [{ "class": "A" }], "attackers": [{ "type": "SD" }] }),
    );
    assert_eq!(e.code, "situation.missing_movement");
}

#[test]
fn break_after_combat_forced_voluntary_or_not_at_all() {
    let b = |extra: Value| {
        let mut s = json!({ "units": [{ "type": "SD", "count": 3 }] });
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        resolved("break_check", s).outcome.unwrap()
    };
    let forced = b(json!({ "result": "D2XB" }));
    assert_eq!(forced.result, "must_break");
    assert_eq!(b(json!({ "result": "DD" })).result, "may_break");
    assert_eq!(b(json!({ "enemy_movement": [3] })).result, "may_break");
    assert_eq!(b(json!({ "enemy_movement": [4] })).result, "may_not_break");
    assert_eq!(
        b(json!({ "side": "attacker", "result": "AD", "attacked_square": true })).result,
        "must_break"
    );
    // The attackers of a D2XB take 2 D markers and so may break, unless the defender was alone
    // (10.7's note, R-ITACS-7, R-ITACS-36).
    assert_eq!(
        b(json!({ "side": "attacker", "result": "D2XB" })).result,
        "may_break"
    );
    assert_eq!(
        b(json!({ "side": "attacker", "result": "D2XB", "lone_defender": true })).result,
        "may_not_break"
    );
    let el = resolved(
        "break_check",
        json!({ "units": [{ "type": "EL", "movement": 5 }], "result": "D2XB" }),
    );
    assert_eq!(el.outcome.unwrap().result, "never_breaks");
}

#[test]
fn feudal_cavalry_is_held_on_2d6_at_most_the_leader_bonus() {
    let r = itacs()
        .resolve(
            "feudal_charge",
            &json!({ "enemy_in_sight": true, "leader_bonus": 4 }),
            Some(&[1, 2]),
        )
        .unwrap();
    // 2d6 ≤ 4: 1 + 2 + 3 of 36.
    let held = r
        .distribution
        .iter()
        .find(|d| d.result == "no_charge")
        .unwrap();
    assert_eq!(held.probability, "1/6");
    assert_eq!(r.outcome.unwrap().result, "no_charge");
    let r = resolved("feudal_charge", json!({ "enemy_in_sight": true }));
    assert_eq!(r.outcome.unwrap().result, "charges");
}

#[test]
fn the_rampage_directions_cover_every_roll() {
    let r = itacs()
        .resolve("rampage", &json!({ "elephant": "EL 1" }), Some(&[3, 4]))
        .unwrap();
    assert_eq!(r.outcome.as_ref().unwrap().result, "front");
    assert_eq!(
        effects(&r),
        vec!["EL 1: rampages: turns front and moves its full allowance"]
    );
    let front = r.distribution.iter().find(|d| d.result == "front").unwrap();
    assert_eq!(front.probability, "4/9"); // 6–8: 5 + 6 + 5 of 36
}

#[test]
fn conversion_goes_back_only_to_the_type_a_unit_began_as() {
    let c = |s: Value| resolved("conversion", s).outcome.unwrap();
    let dismount = c(json!({ "type": "HC", "stationary": true }));
    assert_eq!(dismount.result, "converts");
    assert_eq!(dismount.effects[0].text, "HC: becomes a PS unit");
    assert_eq!(
        c(json!({ "type": "PS", "original_type": "HC", "stationary": true })).result,
        "converts"
    );
    assert_eq!(
        c(json!({ "type": "PS", "stationary": true })).result,
        "cannot_convert"
    );
    assert_eq!(
        c(json!({ "type": "LB", "stationary": true, "adjacent_enemy": true })).result,
        "cannot_convert"
    );
}

#[test]
fn throwing_weapons_fire_2_at_range_1_in_defensive_fire_only() {
    let s = json!({
        "firing_hexes": [{ "range": 1, "units": [{ "type": "AX", "class": "B", "combat": "4", "throwing": true }] }],
        "target": { "terrain": "clear", "units": [{ "type": "SD" }] }
    });
    let r = resolved("defensive_fire", s.clone());
    assert!(r
        .modifiers
        .iter()
        .any(|m| m.label == "Attacking fire strength (2)"));
    assert_eq!(
        refused("missile", s).code,
        "situation.throwing_not_defensive"
    );
}

#[test]
fn fleets_carry_what_their_type_allows_and_defend_with_their_infantry() {
    let t = |carrier: &str, cargo: Value| {
        itacs().resolve(
            "transport",
            &json!({ "carrier": { "type": carrier, "combat": "4" }, "cargo": cargo }),
            None,
        )
    };
    let r = t(
        "LF",
        json!([{ "class": "A", "combat": "4", "count": 2 }, { "class": "Ff", "combat": "." }]),
    )
    .unwrap();
    assert!(r
        .totals
        .iter()
        .any(|x| x.label == "Defence against land units" && x.value == "12"));
    assert!(r
        .totals
        .iter()
        .any(|x| x.label == "Strength against fleets" && x.value == "6"));
    assert!(r
        .totals
        .iter()
        .any(|x| x.label == "Ff units that may fire" && x.value == "1"));
    let e = t(
        "LF",
        json!([{ "class": "C", "combat": "4" }, { "class": "A", "combat": "4" }]),
    )
    .unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.rule.as_deref()),
        ("situation.over_capacity", Some("6.7.2"))
    );
    assert!(t("VF", json!([{ "class": "C", "combat": "4" }])).is_err());
    assert!(t("HF", json!([{ "class": "C", "combat": "4", "count": 3 }])).is_ok());
    let sunk = itacs()
        .resolve(
            "transport",
            &json!({ "carrier": { "type": "HF", "combat": "4" }, "destroyed": true, "land_with_room": true,
                     "cargo": [{ "type": "SD" }, { "type": "LC", "combat": "3" }] }),
            None,
        )
        .unwrap();
    assert_eq!(
        effects(&sunk),
        vec![
            "SD (cargo 1): +2 D markers",
            "LC (cargo 2): all units destroyed"
        ]
    );
}

#[test]
fn horse_archers_after_movement_break_in_the_open_or_are_disrupted() {
    let s = |terrain: &str, contact: u32| {
        json!({
            "firing_hexes": [{ "range": 1, "units": [{ "type": "HB", "fire": 3, "count": 2 }] }],
            "target": { "terrain": "clear", "units": [{ "type": "SD" }] },
            "after_movement": { "terrain": terrain, "movement": 10, "contact_movement": [contact] }
        })
    };
    let open = resolved("horse_archer_fire", s("clear", 4));
    assert!(open.distribution.iter().all(|d| d
        .effects
        .iter()
        .all(|e| e.target != crate::contract::Target::Attacker)));
    let woods = resolved("horse_archer_fire", s("woods", 4));
    assert!(woods
        .distribution
        .iter()
        .all(|d| d.effects.iter().any(|e| e.text == "Attacker: +2 D markers")));
    let fast = resolved("horse_archer_fire", s("clear", 7));
    assert!(fast.distribution[0]
        .effects
        .iter()
        .any(|e| e.text == "Attacker: +2 D markers"));
    let e = refused(
        "horse_archer_fire",
        json!({
            "firing_hexes": [{ "range": 1, "units": [{ "type": "LB" }] }],
            "target": { "terrain": "clear", "units": [{ "type": "SD" }] },
            "after_movement": { "terrain": "clear", "movement": 5 }
        }),
    );
    assert_eq!(e.code, "situation.not_horse_archers");
}

#[test]
fn victory_levels_and_panic_once_per_game() {
    let v = |lost_a: u32, lost_b: u32, panic_happened: bool| {
        resolved(
            "victory",
            json!({
                "panic_happened": panic_happened,
                "sides": [
                    { "name": "A", "panic_level": 9, "lost": [{ "type": "PP", "count": lost_a }] },
                    { "name": "B", "lost": [{ "type": "PP", "count": lost_b }] }
                ]
            }),
        )
    };
    // B scores 3 per PP A lost, A scores 3 per PP B lost.
    assert_eq!(
        v(3, 1, false).outcome.unwrap().result,
        "substantive_victory_b"
    ); // 9 v 3: not > 3×
    assert_eq!(v(4, 1, false).outcome.unwrap().result, "decisive_victory_b"); // 12 v 3
    let r = v(3, 2, false);
    let o = r.outcome.unwrap();
    assert_eq!(o.result, "marginal_victory_b"); // 9 v 6
    assert_eq!(
        o.effects[0].text,
        "Army A: Rout marker (rout move in its next movement phase)"
    );
    assert!(r.totals.iter().any(
        |t| t.label == "B to reach a substantive victory" && t.value == "4 more victory points"
    ));
    assert!(v(3, 2, true).outcome.unwrap().effects.is_empty());
    assert_eq!(v(2, 2, false).outcome.unwrap().result, "no_victory");
}

#[test]
fn deterministic_actions_refuse_dice() {
    let e = itacs()
        .resolve("recovery", &json!({ "hexes": [] }), Some(&[3, 4]))
        .unwrap_err();
    assert_eq!(e.code, "dice.not_rolled");
}

#[test]
fn a_fleet_in_melee_fights_with_its_cargo() {
    // Land attack on a fleet at sea: 4 + two A units of 4 = 12 (6.7.3), sea modifier 0.
    let on_land = resolved(
        "melee",
        json!({
            "attackers": [{ "units": [{ "type": "SD", "count": 3 }] }],
            "defenders": [{ "terrain": "water", "units": [{ "type": "LF", "combat": "4",
                "cargo": [{ "class": "A", "combat": "4", "count": 2 }] }] }]
        }),
    );
    assert!(on_land
        .totals
        .iter()
        .any(|t| t.label == "Defence strength" && t.value == "12"));
    assert!(on_land
        .modifiers
        .iter()
        .any(|m| m.label.starts_with("Terrain: Water") && m.value == 0));
    // Fleet against fleet: 6 + half of the best carried unit (6 → 3) + a marine in full (2) = 11
    // against 4; no terrain modifier (6.7.5, R-ITACS-24).
    let at_sea = resolved(
        "melee",
        json!({
            "attackers": [{ "units": [{ "type": "HF", "class": "D", "combat": "6",
                "cargo": [{ "class": "A", "combat": "6" }, { "class": "B", "combat": "2", "marine": true }] }] }],
            "defenders": [{ "terrain": "water", "units": [{ "type": "LF", "combat": "4" }] }]
        }),
    );
    assert!(at_sea
        .totals
        .iter()
        .any(|t| t.label == "Attack strength" && t.value == "11"));
    assert!(at_sea
        .modifiers
        .iter()
        .any(|m| m.value == 0 && m.label.contains("fleet against fleet")));
    let e = refused(
        "melee",
        json!({
            "attackers": [{ "units": [{ "type": "SD" }] }],
            "defenders": [{ "terrain": "water", "units": [{ "type": "VF", "combat": "4",
                "cargo": [{ "class": "C", "combat": "4" }] }] }]
        }),
    );
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        (
            "situation.over_capacity",
            Some("defenders[0].units[0].cargo")
        )
    );
}

#[test]
fn scenario_settings_are_checked_and_stated() {
    let r = resolved(
        "scenario",
        json!({
            "name": "Hastings", "turns": 12, "first_side": "Normans", "turn": 10,
            "sides": [
                { "name": "Normans", "stacking_limit": 2, "panic_level": 40, "elite_types": ["HC"] },
                { "name": "Saxons", "panic_level": 35, "shield_types": ["AX"] }
            ]
        }),
    );
    let value = |label: &str| {
        r.totals
            .iter()
            .find(|t| t.label == label)
            .map(|t| t.value.clone())
            .unwrap_or_else(|| panic!("no {label}"))
    };
    assert_eq!(value("Game turns left after this one"), "2");
    assert_eq!(value("Normans: stacking limit"), "2");
    assert_eq!(value("Saxons: stacking limit"), "3 (default)");
    assert_eq!(value("Saxons: shields"), "AX, SD");
    assert_eq!(value("Normans: elite"), "HC");
    let bad = |s: Value| refused("scenario", s);
    let sides = json!([{ "name": "A" }, { "name": "B" }]);
    assert_eq!(
        bad(json!({ "turns": 0, "first_side": "A", "sides": sides }))
            .field
            .as_deref(),
        Some("turns")
    );
    assert_eq!(
        bad(json!({ "turns": 5, "first_side": "C", "sides": sides }))
            .field
            .as_deref(),
        Some("first_side")
    );
    let e = bad(
        json!({ "turns": 5, "first_side": "A", "sides": [{ "name": "A", "elite_types": ["ZZ"] }, { "name": "B" }] }),
    );
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        (
            "situation.unknown_unit_type",
            Some("sides[0].elite_types[0]")
        )
    );
}

#[test]
fn carried_archers_fire_from_chariots_elephants_and_one_per_fleet() {
    let fire_of = |action: &str, unit: Value, after: Option<Value>| {
        let mut s = json!({
            "firing_hexes": [{ "range": 1, "units": [unit] }],
            "target": { "terrain": "clear", "units": [{ "type": "SD" }] }
        });
        if let Some(a) = after {
            s["after_movement"] = a;
        }
        resolved(action, s).totals[0].value.clone()
    };
    let lb = json!({ "type": "LB" });
    // 6.7.4: of two LB on a fleet, one fires.
    let fleet = json!({ "type": "HF", "combat": "4", "cargo": [{ "type": "LB", "count": 2 }] });
    assert_eq!(fire_of("missile", fleet, None), "3");
    // 6.8: an LB on a chariot fires after movement as a horse archer.
    let chariot = json!({ "type": "CH", "combat": "2", "cargo": [lb] });
    let after = json!({ "terrain": "clear", "movement": 9, "contact_movement": [4] });
    assert_eq!(fire_of("horse_archer_fire", chariot, Some(after)), "3");
    // 2.6.1: a square may not cross a bridge.
    let e = refused(
        "move",
        json!({ "unit": { "type": "PP", "movement": 3, "count": 4 }, "square": true,
                "path": [{ "terrain": "bridge" }] }),
    );
    assert_eq!(e.code, "situation.square_move");
    // Four in a square stack even where the side's limit is 3 (2.6.1).
    resolved(
        "move",
        json!({ "unit": { "type": "PP", "movement": 3, "count": 4 }, "square": true,
                "path": [{ "terrain": "clear" }] }),
    );
}

#[test]
fn a_unit_types_victory_points_are_a_house_rule_away() {
    // 7.0 prints "a HC unit costs 8": a club that wants that sets it in data, no code (R-ITACS-6).
    let house = "extends = \"itacs\"\nname = \"HC at 8\"\n[set.unit_types.HC]\nvp = 8\n";
    let ruleset = Ruleset::load(&Layers {
        base: builtin("itacs").unwrap(),
        house_rules: vec![SourceFile {
            name: "hc.toml",
            text: house,
        }],
    })
    .unwrap();
    let r = ruleset
        .resolve(
            "victory",
            &json!({ "sides": [{ "name": "A", "lost": [{ "type": "HC" }] }, { "name": "B" }] }),
            None,
        )
        .unwrap();
    assert!(r
        .totals
        .iter()
        .any(|t| t.label == "B victory points" && t.value == "8"));
}

#[test]
fn a_leader_bonus_on_dot_units_only_is_flagged() {
    let r = resolved(
        "melee",
        json!({
            "attackers": [{ "units": [{ "type": "LB", "count": 3 }] }],
            "defenders": [{ "terrain": "clear", "units": [{ "type": "SD" }] }],
            "attacker_leader_bonus": 3
        }),
    );
    let note = r.notes.iter().find(|n| n.rule == "6.1.3").unwrap();
    assert!(note.message.contains("only dots"));
    // Capped at the formation's strength of 1: 1 + 1 = 2 against 4.
    assert!(r
        .totals
        .iter()
        .any(|t| t.label == "Attack strength" && t.value == "2"));
}

// Found by the fuzzer: a huge D-marker count overflowed the marker sum. Situations now refuse
// such numbers at the door; the marker arithmetic saturates all the same.
#[test]
fn fuzz_regression_d_markers_near_u32_max_do_not_overflow() {
    use crate::systems::itacs::state::HexState;
    let rules = itacs_data().markers;
    let mut hex = HexState {
        units: 2,
        d_markers: 2,
        ..HexState::default()
    };
    hex.apply(
        &crate::contract::Change::DMarkers { count: u32::MAX },
        &rules,
    );
    assert_eq!(hex.d_markers, u32::MAX);
    assert!(hex.rout);
    let e = refused(
        "markers",
        json!({ "hex": { "units": [{ "type": "MS", "count": 2 }] },
                "changes": [{ "kind": "d_markers", "count": 4294967295u32 }] }),
    );
    assert_eq!(e.code, "situation.value_out_of_range");
}

// Found by the fuzzer: a designated turn of u32::MAX overflowed the fire ship's last turn, and a
// movement allowance of u32::MAX a Medieval path's budget; numbers that large are refused.
#[test]
fn fuzz_regression_huge_numbers_are_refused_at_the_door() {
    let e = refused(
        "fire_ship",
        json!({ "type": "LF", "designated_turn": 4294967295u32 }),
    );
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("situation.value_out_of_range", Some("designated_turn"))
    );
    let e = refused(
        "missile",
        json!({ "firing_hexes": [{ "range": -9223372036854775808i64, "units": [] }], "target": {} }),
    );
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        (
            "situation.value_out_of_range",
            Some("firing_hexes[0].range")
        )
    );
    let medieval = crate::systems::test_support::load("medieval");
    let e = medieval
        .resolve(
            "move_cost",
            &json!({ "unit": { "type": "light_cavalry", "sp": 2 }, "movement": 4294967295u32,
                     "path": [{ "terrain": "clear" }] }),
            None,
        )
        .unwrap_err();
    assert_eq!(e.code, "situation.value_out_of_range");
}

/// The terrain chart's printed names are taken as well as its keys (10.3): "Marsh" is the
/// chart's "Swamp, Marsh, Moor" (issue 31 item 8).
#[test]
fn terrain_is_taken_by_any_name_the_chart_prints() {
    let by_key = resolved("melee", melee("4", "4", "swamp"));
    assert_ne!(
        resolved("melee", melee("4", "4", "clear")).modifiers,
        by_key.modifiers
    );
    for name in ["marsh", "Marsh", "moor", "Swamp"] {
        let by_name = resolved("melee", melee("4", "4", name));
        assert_eq!(by_name.modifiers, by_key.modifiers, "{name}");
        assert_eq!(by_name.distribution, by_key.distribution, "{name}");
    }
    let hills = resolved("melee", melee("4", "4", "forest_hills"));
    assert_eq!(
        resolved("melee", melee("4", "4", "Jungle Hills")).modifiers,
        hills.modifiers
    );
    let e = refused("melee", melee("4", "4", "lava"));
    assert_eq!(e.code, "situation.unknown_terrain");
    // The hills' +1 range is not against a target on hills, by whichever name (4.2.3).
    let shot = |target: &str| {
        itacs()
            .resolve(
                "missile",
                &json!({ "firing_hexes": [{ "range": 4, "terrain": "hills", "units": [{ "type": "LB" }] }],
                         "target": { "terrain": target, "units": [{ "type": "SD" }] } }),
                None,
            )
            .map(|r| r.modifiers)
            .map_err(|e| e.code.to_string())
    };
    assert_eq!(shot("hills"), Err("situation.out_of_range".into()));
    assert_eq!(shot("Grassy Hills"), shot("hills"));
    assert!(shot("clear").is_ok());
    // An elephant pays the infantry's cost in the chart's named terrain too (6.9.1).
    let step = |t: &str| {
        itacs()
            .resolve(
                "move",
                &json!({ "unit": { "type": "EL", "movement": 10 }, "path": [{ "terrain": t }] }),
                None,
            )
            .map(|r| r.totals)
            .map_err(|e| e.code)
    };
    assert_eq!(
        step("Forest Hills").map(|t| t[0].value.clone()),
        step("forest_hills").map(|t| t[0].value.clone())
    );
}

/// Horse archers (HB, class Mf) cost half their strength plus their fire, not doubled: 7.0
/// doubles class C only (R-ITACS-37); HC (class C) is doubled (R-ITACS-6).
#[test]
fn horse_archers_victory_points_are_not_doubled() {
    let r = resolved(
        "victory",
        json!({ "sides": [
            { "name": "A", "lost": [{ "type": "HB", "combat": "2", "fire": 2 }, { "type": "HC" }] },
            { "name": "B" }
        ] }),
    );
    let line = |label: &str| {
        r.totals
            .iter()
            .find(|t| t.label.contains(label))
            .unwrap_or_else(|| panic!("no {label} in {:?}", r.totals))
            .clone()
    };
    let hb = line("HB");
    assert!(
        hb.value.starts_with("2 ÷ 2 + 2, not doubled"),
        "{}",
        hb.value
    );
    assert!(hb.value.contains("= 3"), "{}", hb.value);
    assert_eq!(hb.ruling.as_deref(), Some("R-ITACS-37"));
    let hc = line("HC");
    assert!(hc.value.contains("doubled for cavalry"), "{}", hc.value);
    assert_eq!(hc.ruling.as_deref(), Some("R-ITACS-6"));
    // An elephant moves as mounted but is class D: R-ITACS-6's formula, not the horse archers'.
    let r = resolved(
        "victory",
        json!({ "sides": [{ "name": "A", "lost": [{ "type": "EL", "combat": "6" }] }, { "name": "B" }] }),
    );
    let el = r.totals.iter().find(|t| t.label.contains("EL")).unwrap();
    assert_eq!(el.ruling.as_deref(), Some("R-ITACS-6"), "{el:?}");
    assert!(!el.value.contains("not doubled"), "{}", el.value);
}

/// A feudal charge (6.3): passing through a friendly unit disrupts both as 4.3.3 does a full
/// hex, even below the limit (R-ITACS-39); ending over the limit puts 2 D markers and a Break
/// marker on the friendly unit there, where any other move is refused.
#[test]
fn a_feudal_charge_disrupts_what_it_passes_and_may_end_over_the_limit() {
    let hc = json!({ "type": "HC", "movement": 8 });
    let charge = |path: Value, charging: bool| {
        itacs().resolve(
            "move",
            &json!({ "unit": hc, "charging": charging, "path": path }),
            None,
        )
    };
    let through = charge(
        json!([{ "terrain": "clear", "label": "17.04", "units_in_hex": 1 }, { "terrain": "clear" }]),
        true,
    )
    .unwrap();
    let d_on = |r: &crate::Resolution, who: &str| {
        r.outcome
            .as_ref()
            .unwrap()
            .effects
            .iter()
            .filter(|e| e.text.contains(who))
            .map(|e| (e.text.clone(), e.ruling.clone()))
            .collect::<Vec<_>>()
    };
    let hex = d_on(&through, "17.04");
    assert_eq!(hex.len(), 1, "{hex:?}");
    assert!(hex[0].0.contains("2 D markers"), "{hex:?}");
    assert_eq!(hex[0].1.as_deref(), Some("R-ITACS-39"));
    // Not charging, a hex below the limit is passed freely.
    let walk = charge(
        json!([{ "terrain": "clear", "label": "17.04", "units_in_hex": 1 }, { "terrain": "clear" }]),
        false,
    )
    .unwrap();
    assert!(d_on(&walk, "17.04").is_empty());
    // Ending in a full friendly hex: refused for a move, the 6.3 consequences for a charge.
    let full = json!([{ "terrain": "clear", "label": "18.04", "units_in_hex": 3 }]);
    assert_eq!(
        charge(full.clone(), false).unwrap_err().code,
        "situation.over_stacking"
    );
    let ended = charge(full, true).unwrap();
    let hex = d_on(&ended, "18.04");
    assert!(
        hex.iter().any(|(t, _)| t.contains("2 D markers")),
        "{hex:?}"
    );
    assert!(hex.iter().any(|(t, _)| t.contains("must break")), "{hex:?}");
}

/// Rout movement (5.3.1, 5.3.3): each hex farther from the nearest enemy than the one before; no
/// hex farther, the unit stops and takes a D marker; at the map edge with movement left, it
/// leaves the map, destroyed.
#[test]
fn routing_units_move_away_stop_with_a_d_marker_or_leave_the_map() {
    let rout = |extra: Value| {
        let mut s =
            json!({ "unit": { "type": "SD" }, "kind": "rout", "disrupted": true, "path": [] });
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        itacs().resolve("move", &s, None)
    };
    let step =
        |d: u32, edge: bool| json!({ "terrain": "clear", "enemy_distance": d, "map_edge": edge });
    // Away, hex by hex: allowed.
    let r = rout(json!({ "enemy_distance": 1, "path": [step(2, false), step(3, false)] })).unwrap();
    assert_eq!(r.outcome.unwrap().result, "moves");
    // A hex no farther than the one before is refused, naming it.
    let e =
        rout(json!({ "enemy_distance": 1, "path": [step(2, false), step(2, false)] })).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.field.as_deref()),
        ("situation.not_farther", Some("path[1].enemy_distance"))
    );
    // A normal move is not held to it.
    let walk = json!({ "unit": { "type": "SD" }, "enemy_distance": 3, "path": [step(1, false)] });
    resolved("move", walk);
    // Nowhere farther: one D marker, no move.
    let o = rout(json!({ "nowhere_farther": true }))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(o.result, "stops");
    assert!(o
        .effects
        .iter()
        .any(|e| e.change == crate::contract::Change::DMarkers { count: 1 } && e.rule == "5.3.1"));
    // At the map edge with points left (SD: 4, clear costs 1): off the map, destroyed.
    let o = rout(json!({ "path": [step(2, true)] }))
        .unwrap()
        .outcome
        .unwrap();
    assert_eq!(o.result, "leaves_the_map");
    assert!(o
        .effects
        .iter()
        .any(|e| e.change == crate::contract::Change::DestroyAll && e.rule == "5.3.3"));
    // A hex entered after the edge is refused: the unit is gone.
    let e = rout(json!({ "path": [step(2, true), step(3, false)] })).unwrap_err();
    assert_eq!(e.code, "situation.off_map");
    // With no points left at the edge it stays on the map.
    let four = json!([
        step(1, false),
        step(2, false),
        step(3, false),
        step(4, true)
    ]);
    let o = rout(json!({ "path": four })).unwrap().outcome.unwrap();
    assert_eq!(o.result, "moves");
}
